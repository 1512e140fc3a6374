"""Python source text of the expressions ``patience.compiler`` builds, written fast.

The generator writes every compiled rule as text (``patience.generator``), and
``ast.unparse`` was about half of what compiling a variant cost. :func:`expression_text`
writes the same text as ``ast.unparse`` (the same parentheses, by the same precedence
rules, including its quirks) for the node types the compiler makes: names, whole numbers
and booleans, ``not`` and unary minus, arithmetic and bit operators, comparisons, ``and`` /
``or``, conditional expressions, subscripts and slices, calls, generator expressions over
a tuple target. Anything else is left to ``ast.unparse``. tests/test_startup.py checks the
two agree on every shipped variant's code.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

# ast._Precedence of Python 3.10-3.13, by value (BOR is EXPR)
TUPLE, TEST, OR, AND, NOT, CMP, EXPR, BXOR, BAND, SHIFT, ARITH, TERM, FACTOR, POWER, \
    AWAIT, ATOM = 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18

_UNARY = {ast.Not: ("not ", NOT), ast.USub: ("-", FACTOR), ast.UAdd: ("+", FACTOR),
          ast.Invert: ("~", FACTOR)}
_BINARY = {ast.Add: ("+", ARITH), ast.Sub: ("-", ARITH), ast.Mult: ("*", TERM),
           ast.Div: ("/", TERM), ast.Mod: ("%", TERM), ast.FloorDiv: ("//", TERM),
           ast.LShift: ("<<", SHIFT), ast.RShift: (">>", SHIFT), ast.BitOr: ("|", EXPR),
           ast.BitXor: ("^", BXOR), ast.BitAnd: ("&", BAND), ast.Pow: ("**", POWER)}
_COMPARE = {ast.Eq: " == ", ast.NotEq: " != ", ast.Lt: " < ", ast.LtE: " <= ",
            ast.Gt: " > ", ast.GtE: " >= ", ast.Is: " is ", ast.IsNot: " is not ",
            ast.In: " in ", ast.NotIn: " not in "}


class _Unsupported(Exception):
    pass


def expression_text(node: ast.expr) -> str:
    """``ast.unparse(node)``, for the expressions the compiler builds, in a fraction of its
    time."""
    parts: list[str] = []
    try:
        _Writer(parts).write(node)
    except _Unsupported:
        return ast.unparse(node)
    return "".join(parts)


class _Writer:
    """ast._Unparser's rules for expressions: each node's precedence is what its parent set
    last (TEST when none did), kept per node object as there, since the compiler shares
    subexpressions. One method per node type, found by the node's class."""

    def __init__(self, parts: list[str]) -> None:
        self.parts = parts
        self.precedence: dict[ast.AST, int] = {}

    def write(self, node: ast.AST) -> None:
        method = _METHODS.get(type(node))
        if method is None:
            raise _Unsupported
        method(self, node)

    def _open(self, node: ast.AST, own: int) -> bool:
        """Write '(' when the precedence the parent set is tighter than ``own``."""
        parens = self.precedence.get(node, TEST) > own
        if parens:
            self.parts.append("(")
        return parens

    def _close(self, parens: bool) -> None:
        if parens:
            self.parts.append(")")

    def name(self, node: ast.Name) -> None:
        self.parts.append(node.id)

    def constant(self, node: ast.Constant) -> None:
        if type(node.value) not in (int, bool) or node.kind == "u":
            raise _Unsupported
        self.parts.append(repr(node.value))

    def subscript(self, node: ast.Subscript) -> None:
        self.precedence[node.value] = ATOM
        self.write(node.value)
        self.parts.append("[")
        if isinstance(node.slice, ast.Tuple) and node.slice.elts:
            self.items(node.slice.elts)
        else:
            self.write(node.slice)
        self.parts.append("]")

    def unary(self, node: ast.UnaryOp) -> None:
        if type(node.op) not in _UNARY:
            raise _Unsupported
        operator, own = _UNARY[type(node.op)]
        parens = self._open(node, own)
        self.parts.append(operator)
        self.precedence[node.operand] = own
        self.write(node.operand)
        self._close(parens)

    def binary(self, node: ast.BinOp) -> None:
        if type(node.op) not in _BINARY:
            raise _Unsupported
        operator, own = _BINARY[type(node.op)]
        parens = self._open(node, own)
        following = min(own + 1, ATOM)
        right_associative = own == POWER
        self.precedence[node.left] = following if right_associative else own
        self.write(node.left)
        self.parts.append(f" {operator} ")
        self.precedence[node.right] = own if right_associative else following
        self.write(node.right)
        self._close(parens)

    def compare(self, node: ast.Compare) -> None:
        parens = self._open(node, CMP)
        for operand in (node.left, *node.comparators):
            self.precedence[operand] = CMP + 1
        self.write(node.left)
        for comparison, operand in zip(node.ops, node.comparators):
            if type(comparison) not in _COMPARE:
                raise _Unsupported
            self.parts.append(_COMPARE[type(comparison)])
            self.write(operand)
        self._close(parens)

    def boolean(self, node: ast.BoolOp) -> None:
        is_and = isinstance(node.op, ast.And)
        own = AND if is_and else OR
        parens = self._open(node, own)
        separator = " and " if is_and else " or "
        for index, value in enumerate(node.values):
            if index:
                self.parts.append(separator)
            # as ast._Unparser: each operand one level tighter than the one before
            self.precedence[value] = min(own + 1 + index, ATOM)
            self.write(value)
        self._close(parens)

    def conditional(self, node: ast.IfExp) -> None:
        parens = self._open(node, TEST)
        self.precedence[node.body] = self.precedence[node.test] = TEST + 1
        self.write(node.body)
        self.parts.append(" if ")
        self.write(node.test)
        self.parts.append(" else ")
        self.precedence[node.orelse] = TEST
        self.write(node.orelse)
        self._close(parens)

    def call(self, node: ast.Call) -> None:
        if node.keywords:
            raise _Unsupported
        self.precedence[node.func] = ATOM
        self.write(node.func)
        self.parts.append("(")
        for index, argument in enumerate(node.args):
            if index:
                self.parts.append(", ")
            self.write(argument)
        self.parts.append(")")

    def slice(self, node: ast.Slice) -> None:
        if node.lower:
            self.write(node.lower)
        self.parts.append(":")
        if node.upper:
            self.write(node.upper)
        if node.step:
            self.parts.append(":")
            self.write(node.step)

    def tuple(self, node: ast.Tuple) -> None:
        parens = not node.elts or self.precedence.get(node, TEST) > TUPLE
        if parens:
            self.parts.append("(")
        self.items(node.elts)
        self._close(parens)

    def generator(self, node: ast.GeneratorExp) -> None:
        self.parts.append("(")
        self.write(node.elt)
        for generator in node.generators:
            if generator.is_async:
                raise _Unsupported
            self.parts.append(" for ")
            self.precedence[generator.target] = TUPLE
            self.write(generator.target)
            self.parts.append(" in ")
            for part in (generator.iter, *generator.ifs):
                self.precedence[part] = TEST + 1
            self.write(generator.iter)
            for condition in generator.ifs:
                self.parts.append(" if ")
                self.write(condition)
        self.parts.append(")")

    def items(self, nodes: list[ast.expr]) -> None:
        if len(nodes) == 1:
            self.write(nodes[0])
            self.parts.append(",")
            return
        for index, node in enumerate(nodes):
            if index:
                self.parts.append(", ")
            self.write(node)


_METHODS: dict[type[ast.AST], Callable[[_Writer, Any], None]] = {
    ast.Name: _Writer.name, ast.Constant: _Writer.constant, ast.Subscript: _Writer.subscript,
    ast.UnaryOp: _Writer.unary, ast.BinOp: _Writer.binary, ast.Compare: _Writer.compare,
    ast.BoolOp: _Writer.boolean, ast.IfExp: _Writer.conditional, ast.Call: _Writer.call,
    ast.Slice: _Writer.slice, ast.Tuple: _Writer.tuple, ast.GeneratorExp: _Writer.generator,
}
