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
    subexpressions."""

    def __init__(self, parts: list[str]) -> None:
        self.parts = parts
        self.precedence: dict[ast.AST, int] = {}

    def write(self, node: ast.AST) -> None:
        out = self.parts.append
        precedence = self.precedence
        if isinstance(node, ast.Name):
            out(node.id)
        elif isinstance(node, ast.Constant):
            if type(node.value) not in (int, bool) or node.kind == "u":
                raise _Unsupported
            out(repr(node.value))
        elif isinstance(node, ast.Subscript):
            precedence[node.value] = ATOM
            self.write(node.value)
            out("[")
            if isinstance(node.slice, ast.Tuple) and node.slice.elts:
                self.items(node.slice.elts)
            else:
                self.write(node.slice)
            out("]")
        elif isinstance(node, ast.UnaryOp):
            if type(node.op) not in _UNARY:
                raise _Unsupported
            operator, own = _UNARY[type(node.op)]
            parens = precedence.get(node, TEST) > own
            if parens:
                out("(")
            out(operator)
            precedence[node.operand] = own
            self.write(node.operand)
            if parens:
                out(")")
        elif isinstance(node, ast.BinOp):
            if type(node.op) not in _BINARY:
                raise _Unsupported
            operator, own = _BINARY[type(node.op)]
            parens = precedence.get(node, TEST) > own
            if parens:
                out("(")
            following = min(own + 1, ATOM)
            if own == POWER:  # right-associative
                precedence[node.left] = following
            else:
                precedence[node.left] = own
            self.write(node.left)
            out(f" {operator} ")
            precedence[node.right] = own if own == POWER else following
            self.write(node.right)
            if parens:
                out(")")
        elif isinstance(node, ast.Compare):
            parens = precedence.get(node, TEST) > CMP
            if parens:
                out("(")
            for operand in (node.left, *node.comparators):
                precedence[operand] = CMP + 1
            self.write(node.left)
            for comparison, operand in zip(node.ops, node.comparators):
                if type(comparison) not in _COMPARE:
                    raise _Unsupported
                out(_COMPARE[type(comparison)])
                self.write(operand)
            if parens:
                out(")")
        elif isinstance(node, ast.BoolOp):
            is_and = isinstance(node.op, ast.And)
            own = AND if is_and else OR
            parens = precedence.get(node, TEST) > own
            if parens:
                out("(")
            separator = " and " if is_and else " or "
            for index, value in enumerate(node.values):
                if index:
                    out(separator)
                # as ast._Unparser: each operand one level tighter than the one before
                precedence[value] = min(own + 1 + index, ATOM)
                self.write(value)
            if parens:
                out(")")
        elif isinstance(node, ast.IfExp):
            parens = precedence.get(node, TEST) > TEST
            if parens:
                out("(")
            precedence[node.body] = precedence[node.test] = TEST + 1
            self.write(node.body)
            out(" if ")
            self.write(node.test)
            out(" else ")
            precedence[node.orelse] = TEST
            self.write(node.orelse)
            if parens:
                out(")")
        elif isinstance(node, ast.Call):
            if node.keywords:
                raise _Unsupported
            precedence[node.func] = ATOM
            self.write(node.func)
            out("(")
            for index, argument in enumerate(node.args):
                if index:
                    out(", ")
                self.write(argument)
            out(")")
        elif isinstance(node, ast.Slice):
            if node.lower:
                self.write(node.lower)
            out(":")
            if node.upper:
                self.write(node.upper)
            if node.step:
                out(":")
                self.write(node.step)
        elif isinstance(node, ast.Tuple):
            parens = not node.elts or precedence.get(node, TEST) > TUPLE
            if parens:
                out("(")
            self.items(node.elts)
            if parens:
                out(")")
        elif isinstance(node, ast.GeneratorExp):
            out("(")
            self.write(node.elt)
            for generator in node.generators:
                if generator.is_async:
                    raise _Unsupported
                out(" for ")
                precedence[generator.target] = TUPLE
                self.write(generator.target)
                out(" in ")
                for part in (generator.iter, *generator.ifs):
                    precedence[part] = TEST + 1
                self.write(generator.iter)
                for condition in generator.ifs:
                    out(" if ")
                    self.write(condition)
            out(")")
        else:
            raise _Unsupported

    def items(self, nodes: list[ast.expr]) -> None:
        if len(nodes) == 1:
            self.write(nodes[0])
            self.parts.append(",")
            return
        for index, node in enumerate(nodes):
            if index:
                self.parts.append(", ")
            self.write(node)
