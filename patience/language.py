"""The rule expression language: parsing to patience's own AST, and checking it.

Expressions are parsed with lark (grammar in ``rules.lark``) into the small AST below, then
checked against a :class:`Scope` that says which names exist and what type each has. The
checker finds unknown names, wrong arity, type errors and reads of ``pile.top`` where the
pile may be empty, and reports each with a character span inside the expression so the
variant loader can point into the YAML file. ``patience.compiler`` turns checked ASTs into
Python code.

>>> node = parse_expression("pile.empty or goes_on(run.bottom, pile.top)")
>>> type(node).__name__, len(node.values)
('BoolOp', 2)
"""

from __future__ import annotations

import enum
import hashlib
import operator
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache, lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

import attrs

from patience.limits import (
    MAX_EXPRESSION_DEPTH,
    MAX_EXPRESSION_LENGTH,
    MAX_GROUP_PILES,
    MAX_INTEGER,
    MAX_INTEGER_TEXT,
)
from patience.places import DIRECTIONS, PLACE_ATTRIBUTES

if TYPE_CHECKING:  # lark is imported where text is parsed: a solve never needs it
    import lark
    from lark import Token

# --- the AST ---------------------------------------------------------------------------

Span = tuple[int, int]
R = TypeVar("R")


@attrs.frozen
class Node:
    span: Span


@attrs.frozen
class Integer(Node):
    value: int


@attrs.frozen
class Boolean(Node):
    value: bool


@attrs.frozen
class Name(Node):
    id: str


@attrs.frozen
class Attribute(Node):
    value: Node
    name: str


@attrs.frozen
class Call(Node):
    function: str
    args: tuple[Node, ...]


@attrs.frozen
class Not(Node):
    operand: Node


@attrs.frozen
class Negate(Node):
    operand: Node


@attrs.frozen
class Arithmetic(Node):
    op: str  # + - * // % **
    left: Node
    right: Node


@attrs.frozen
class Compare(Node):
    op: str  # == != < <= > >=
    left: Node
    right: Node


@attrs.frozen
class BoolOp(Node):
    op: str  # "and" | "or"
    values: tuple[Node, ...]


@attrs.frozen
class Member(Node):
    """``pile in group`` (or ``not in``)."""

    value: Node
    group: str
    negated: bool


@attrs.frozen
class Quantifier(Node):
    """``all a, b in pairs(run): body`` or ``any p in columns: body``."""

    kind: str  # "all" | "any"
    names: tuple[str, ...]
    domain: Node  # Pairs or Name (a group)
    body: Node


@attrs.frozen
class Pairs(Node):
    run: Node  # a run, or a pile (all its cards)


@attrs.frozen
class Count(Node):
    """``count(p in columns: body)``: how many piles of the group make the body true."""

    name: str
    group: str
    body: Node


@attrs.frozen
class Neighbour(Node):
    """``left(p)``, ``below_right(p, 2)``: the pile ``distance`` places from the pile ``pile``
    in a direction of its group's layout (``patience.places.DIRECTIONS``), or no pile past
    the edge, which reads as an empty pile of no group. ``distance`` is a constant."""

    direction: str
    pile: Node
    distance: Node


@attrs.frozen
class Parameter:
    name: str
    type: Type
    span: Span


@attrs.frozen
class Signature:
    name: str
    parameters: tuple[Parameter, ...]
    span: Span


def children(node: Node) -> Iterator[Node]:
    """The direct sub-expressions of a node, in field order (read from its attrs fields, so
    a new node class needs no change here)."""
    for field in attrs.fields(type(node)):
        item = getattr(node, field.name)
        if isinstance(item, Node):
            yield item
        elif isinstance(item, tuple):
            yield from (element for element in item if isinstance(element, Node))


class Visitor(Generic[R]):
    """The one visitor base for patience's AST, dispatching by node class name as lark's
    visitors do: ``visit(node, *args)`` calls ``visit_<ClassName>(node, *args)``, or
    ``generic_visit`` for the node classes named in ``generic``.

    Every walker over the rule AST is a subclass, and says for each node class of the
    language what it does: a ``visit_<ClassName>`` method, or the class's name in
    ``generic`` (handled by ``generic_visit``, on purpose). tests/test_walkers.py checks
    that each walker covers every node class, so a node class added to the language fails
    that test, naming the walker, rather than a user's file at run time. Names that are no
    node class (a misspelt method or ``generic`` entry) fail when the class is defined.
    """

    #: node classes this walker leaves to ``generic_visit`` (names, listed on purpose):
    #: classes it walks through by their parts, or that never reach it (a quantifier's
    #: ``Pairs`` domain, read by the quantifier's method)
    generic: ClassVar[frozenset[str]] = frozenset()
    #: node class -> its ``visit_<ClassName>`` function, made once per walker class
    _methods: ClassVar[dict[type[Node], Callable[..., Any]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        known = {node_class.__name__: node_class for node_class in node_classes()}
        named = {name[len("visit_"):] for name in vars(cls) if name.startswith("visit_")}
        unknown = sorted((named | cls.generic) - set(known))
        if unknown:
            raise TypeError(f"{cls.__name__} names {', '.join(unknown)}, which the rule "
                            f"language has no node class for (it has {', '.join(known)})")
        cls._methods = {node_class: getattr(cls, "visit_" + name)
                        for name, node_class in known.items() if hasattr(cls, "visit_" + name)}

    def visit(self, node: Node, *args: Any) -> R:
        method = self._methods.get(type(node))
        if method is None:
            return self.generic_visit(node, *args)
        result: R = method(self, node, *args)
        return result

    def generic_visit(self, node: Node, *args: Any) -> R:
        raise TypeError(f"{type(self).__name__} cannot visit {type(node).__name__}")

    @classmethod
    def missing(cls, classes: Iterable[type] | None = None) -> list[str]:
        """The node classes (of the language, or ``classes``) this walker says nothing
        about, neither a ``visit_`` method nor in ``generic``: none, for a walker that is up
        to date with the language."""
        return [node_class.__name__
                for node_class in (node_classes() if classes is None else classes)
                if not hasattr(cls, "visit_" + node_class.__name__)
                and node_class.__name__ not in cls.generic]


def node_classes() -> list[type[Node]]:
    """Every concrete node class of the rule language (the subclasses of :class:`Node`).

    >>> [c.__name__ for c in node_classes()][:3]
    ['Integer', 'Boolean', 'Name']
    """
    found: list[type[Node]] = []
    pending = list(Node.__subclasses__())
    while pending:
        node_class = pending.pop(0)
        found.append(node_class)
        pending.extend(node_class.__subclasses__())
    return found


def walk(node: Node) -> Iterator[Node]:
    yield node
    for child in children(node):
        yield from walk(child)


def too_deep(node: Node, limit: int = MAX_EXPRESSION_DEPTH) -> Node | None:
    """The first node found deeper than ``limit`` levels (the root is level 1), or None.

    Iterative, so that it can measure any tree without recursing.
    """
    stack = [(node, 1)]
    while stack:
        current, depth = stack.pop()
        if depth > limit:
            return current
        stack.extend((child, depth + 1) for child in children(current))
    return None


# A name in a rule: what the grammar's NAME (lark's CNAME) matches, ASCII only.
NAME_PATTERN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*", re.ASCII)


def is_name(text: str) -> bool:
    """Whether ``text`` can be written as a name in a rule (ASCII letters, digits, _)."""
    return NAME_PATTERN.fullmatch(text) is not None


# --- parsing ---------------------------------------------------------------------------


class ParseError(Exception):
    """A syntax error at a character offset of the expression text; ``code`` is the kind of
    error, as ``patience.errors.VariantError.code`` (see docs/errors.md)."""

    def __init__(self, message: str, span: Span, code: str = "syntax") -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.code = code


def _grammar() -> str:
    return resources.files("patience").joinpath("rules.lark").read_text(encoding="utf-8")


def _build_parser(grammar: str) -> lark.Lark:
    import lark

    return lark.Lark(grammar, parser="lalr", start=["start", "signature"],
                     propagate_positions=True, maybe_placeholders=False)


@cache
def _parser() -> lark.Lark:
    """One parser for both kinds of text, rule expressions (``start``) and predicate
    signatures (``signature``). Building it from the grammar was most of what a command
    spent parsing, so it is loaded from the tables saved in ``patience._rules_parser``
    when they were made from this grammar by this version of lark, and built otherwise."""
    import lark

    from patience import _rules_parser

    grammar = _grammar()
    if (_rules_parser.GRAMMAR_SHA256, _rules_parser.LARK_VERSION) == (
            hashlib.sha256(grammar.encode("utf-8")).hexdigest(), lark.__version__):
        return lark.Lark.load(_rules_parser.PARSER)
    return _build_parser(grammar)


def saved_parser_text() -> str:
    """The text of ``patience/_rules_parser.py`` for the grammar and lark of today."""
    import io
    import pickle
    import pprint

    import lark

    grammar = _grammar()
    saved = io.BytesIO()
    _build_parser(grammar).save(saved)
    tables = pickle.loads(saved.getvalue())  # lark's own saved form: plain data
    return "\n".join([
        '"""The rule parser\'s tables, as lark saves them (``lark.Lark.save``), so that',
        "a command loads them instead of building them from ``rules.lark``",
        "(``patience.language._parser``). Generated, do not edit: after changing the grammar",
        "or lark, write it again with",
        "",
        "    python -c 'import patience.language as l; print(l.saved_parser_text(), end=\"\")' \\",
        "        > patience/_rules_parser.py",
        "",
        "(tests/test_startup.py checks that it matches the grammar).",
        '"""',
        "",
        "from typing import Any",
        "",
        f"GRAMMAR_SHA256 = {hashlib.sha256(grammar.encode('utf-8')).hexdigest()!r}",
        f"LARK_VERSION = {lark.__version__!r}",
        "",
        "PARSER: dict[str, Any] = " + pprint.pformat(tables, width=99, compact=True),
        ""])


def _span(meta: object) -> Span:
    return (getattr(meta, "start_pos", 0), getattr(meta, "end_pos", 0))


def _token_span(token: Token) -> Span:
    start = token.start_pos or 0
    return (start, start + len(token))


class _AstRules:
    """The builder of patience's AST from lark's tree, one method a grammar rule: the body
    of a lark ``Transformer`` made when text is first parsed (``_to_ast``)."""

    def integer(self, meta: Any, children: list[Any]) -> Any:
        token = children[0]
        if len(token) > MAX_INTEGER_TEXT or int(token) > MAX_INTEGER:
            shown = token if len(token) <= 24 else token[:24] + "…"
            raise ParseError(f"the number {shown} is too large: a whole number in a rule is "
                             f"at most 2^63 - 1 ({MAX_INTEGER:_})", _token_span(token),
                             code="number-too-large")
        return Integer(_span(meta), int(token))

    def true(self, meta: Any, children: list[Any]) -> Any:
        return Boolean(_span(meta), True)

    def false(self, meta: Any, children: list[Any]) -> Any:
        return Boolean(_span(meta), False)

    def name(self, meta: Any, children: list[Any]) -> Any:
        return Name(_token_span(children[0]), str(children[0]))

    def attribute(self, meta: Any, children: list[Any]) -> Any:
        value, name = children
        return Attribute((value.span[0], _token_span(name)[1]), value, str(name))

    def call(self, meta: Any, children: list[Any]) -> Any:
        name, *args = children
        if str(name) in DIRECTIONS:
            if len(args) not in (1, 2):
                raise ParseError(f"{name}() takes a pile and, if you like, how many places "
                                 f"away: {name}(pile) or {name}(pile, 2); not {len(args)} "
                                 f"argument{'s' if len(args) != 1 else ''}", _span(meta),
                                 code="wrong-arity")
            distance = args[1] if len(args) == 2 else Integer(_span(meta), 1)
            return Neighbour(_span(meta), str(name), args[0], distance)
        return Call(_span(meta), str(name), tuple(args))

    def not_test(self, meta: Any, children: list[Any]) -> Any:
        return Not(_span(meta), children[0])

    def negate(self, meta: Any, children: list[Any]) -> Any:
        return Negate(_span(meta), children[0])

    def _arithmetic(self, meta: Any, children: list[Any]) -> Any:
        """``a + b - c`` as the flat list [a, +, b, -, c]: left-nested Arithmetic nodes."""
        node = children[0]
        for index in range(1, len(children), 2):
            op, right = children[index], children[index + 1]
            last = index + 2 >= len(children)
            span = _span(meta) if last else (node.span[0], right.span[1])
            node = Arithmetic(span, str(op), node, right)
        return node

    def sum(self, meta: Any, children: list[Any]) -> Any:
        return self._arithmetic(meta, children)

    # 'a ** b', right-nested by the grammar
    def arithmetic(self, meta: Any, children: list[Any]) -> Any:
        return self._arithmetic(meta, children)

    def product(self, meta: Any, children: list[Any]) -> Any:
        return self._arithmetic(meta, children)

    def compare(self, meta: Any, children: list[Any]) -> Any:
        left, op, right = children
        return Compare(_span(meta), str(op), left, right)

    def _boolop(self, op: str, meta: Any, children: list[Any]) -> Any:
        values: list[Node] = []
        for child in children:
            if isinstance(child, BoolOp) and child.op == op:
                values.extend(child.values)
            else:
                values.append(child)
        return BoolOp(_span(meta), op, tuple(values))

    def or_test(self, meta: Any, children: list[Any]) -> Any:
        return self._boolop("or", meta, children)

    def and_test(self, meta: Any, children: list[Any]) -> Any:
        return self._boolop("and", meta, children)

    def member(self, meta: Any, children: list[Any]) -> Any:
        return Member(_span(meta), children[0], str(children[1]), False)

    def not_member(self, meta: Any, children: list[Any]) -> Any:
        return Member(_span(meta), children[0], str(children[1]), True)

    def quantifier(self, meta: Any, children: list[Any]) -> Any:
        kind, *rest = children
        names = tuple(str(token) for token in rest[:-2])
        return Quantifier(_span(meta), str(kind), names, rest[-2], rest[-1])

    def count(self, meta: Any, children: list[Any]) -> Any:
        name, group, body = children
        return Count(_span(meta), str(name), str(group), body)

    def pairs_domain(self, meta: Any, children: list[Any]) -> Any:
        return Pairs(_span(meta), children[0])

    def group_domain(self, meta: Any, children: list[Any]) -> Any:
        return Name(_token_span(children[0]), str(children[0]))

    def parameter(self, meta: Any, children: list[Any]) -> Any:
        name = children[0]
        # without an annotation: a parameter named after a type has that type, else a card
        default = str(name) if Type.from_name(str(name)) not in (None, Type.GROUP) else "card"
        type_name = str(children[1]) if len(children) > 1 else default
        type_ = Type.from_name(type_name)
        if type_ is None or type_ is Type.GROUP:
            token = children[1]
            raise ParseError(f"unknown parameter type {type_name!r}; use one of "
                             f"{', '.join(Type.parameter_names())}", _token_span(token),
                             code="unknown-type")
        return Parameter(str(name), type_, _span(meta))

    def signature(self, meta: Any, children: list[Any]) -> Any:
        name, *parameters = children
        return Signature(str(name), tuple(parameters), _span(meta))


@cache
def _to_ast() -> Any:
    """``_AstRules`` as a lark ``Transformer`` class, made when text is first parsed: lark is
    imported then, and never by a command that parses nothing (a shipped variant's rules
    come from the definitions' cache)."""
    from lark import Transformer, v_args

    methods = {name: value for name, value in vars(_AstRules).items()
               if not name.startswith("__")}
    return v_args(meta=True)(type("ToAst", (Transformer,), methods))


_EXPECTED_WORDS = {
    "RPAR": "')'", "LPAR": "'('", "NAME": "a name", "INT": "a number", "COLON": "':'",
    "COMMA": "','", "DOT": "'.'", "COMPARE": "a comparison", "$END": "the end",
    "ADD": "'+' or '-'", "MULTIPLY": "'*', '//' or '%'", "POWER": "'**'",
    "QUANTIFIER": "'all' or 'any'",
    "MINUS": "'-'", "AND": "'and'", "OR": "'or'", "NOT": "'not'", "IN": "'in'",
}

# Words a variant file may not use as a parameter name.
KEYWORDS = frozenset({"and", "or", "not", "in", "all", "any", "true", "false", "pairs",
                      "count"})
CONTEXT_VARIABLES = frozenset({"pile", "run", "source", "stock", "card"})
#: the names a discard's ``when`` rule gives the chosen piles, in pile order
DISCARD_PILES = ("first", "second", "third", "fourth")


def _describe_expected(expected: set[str]) -> str:
    words = sorted({_EXPECTED_WORDS.get(name, name.lower().strip('"')) for name in expected})
    if len(words) > 6:
        return ""
    return f"; expected {', '.join(words)}"


def _parse(text: str, start: str) -> object:
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise ParseError(f"the text is {len(text):_} characters long; a rule expression or "
                         f"predicate signature has at most {MAX_EXPRESSION_LENGTH:_}", (0, 1),
                         code="expression-too-long")
    import lark

    try:
        tree = _parser().parse(text, start=start)
        deep = _too_deep_tree(tree)
        if deep is not None:
            raise ParseError(_TOO_DEEP, _span(deep.meta), code="expression-too-deep")
        return _to_ast()().transform(tree)
    except lark.exceptions.VisitError as error:
        if isinstance(error.orig_exc, ParseError):
            raise error.orig_exc from None
        raise
    except lark.exceptions.UnexpectedCharacters as error:
        position = error.pos_in_stream or 0
        raise ParseError(f"unexpected character {text[position]!r}",
                         (position, position + 1)) from None
    except lark.exceptions.UnexpectedToken as error:
        token = error.token
        if token.type == "$END":
            position = len(text.rstrip())
            raise ParseError("the expression ends too early" +
                             _describe_expected(error.expected),
                             (position, position + 1)) from None
        raise ParseError(f"unexpected {str(token)!r}" + _describe_expected(error.expected),
                         _token_span(token)) from None
    except lark.exceptions.UnexpectedEOF as error:
        position = len(text.rstrip())
        raise ParseError("the expression ends too early" + _describe_expected(
            set(error.expected)), (position, position + 1)) from None


_TOO_DEEP = (f"the expression nests more than {MAX_EXPRESSION_DEPTH} levels deep here "
             "(each operator, 'not', '-', '.', call and quantifier is a level); "
             "write parts of it as predicates")


def _too_deep_tree(tree: lark.Tree[Any]) -> lark.Tree[Any] | None:
    """The first parse-tree node deeper than the limit (measured without recursing)."""
    import lark

    stack = [(tree, 1)]
    while stack:
        current, depth = stack.pop()
        if depth > MAX_EXPRESSION_DEPTH:
            return current
        stack.extend((child, depth + 1) for child in current.children
                     if isinstance(child, lark.Tree))
    return None


@lru_cache(maxsize=4096)
def parse_expression(text: str) -> Node:
    """Parse a rule expression; raises ParseError with a span on bad syntax.

    The text is at most ``MAX_EXPRESSION_LENGTH`` characters and nests at most
    ``MAX_EXPRESSION_DEPTH`` levels (a flat chain of 'and' or 'or' is one level; a chain of
    '+' is as deep as it is long). The AST is immutable, so equal texts share one.
    """
    if not text.strip():
        raise ParseError("the expression is empty", (0, 1), code="empty-expression")
    result = _parse(text, "start")
    assert isinstance(result, Node)
    deep = too_deep(result)
    if deep is not None:
        raise ParseError(_TOO_DEEP, deep.span, code="expression-too-deep")
    return result


def parse_signature(text: str) -> Signature:
    """Parse a predicate's left-hand side, e.g. ``goes_on(card, base)``."""
    result = _parse(text, "signature")
    assert isinstance(result, Signature)
    return result


# --- types and scopes ------------------------------------------------------------------


class Type(enum.Enum):
    INT = "int"
    BOOL = "bool"
    CARD = "card"
    RUN = "run"
    PILE = "pile"
    GROUP = "group"
    SUIT = "suit"
    COLOR = "color"
    STOCK = "stock"

    @classmethod
    def from_name(cls, name: str) -> Type | None:
        for member in cls:
            if member.value == name:
                return member
        return None

    @classmethod
    def parameter_names(cls) -> list[str]:
        return [member.value for member in cls if member not in (cls.GROUP, cls.STOCK)]


ATTRIBUTES: Mapping[Type, Mapping[str, Type]] = {
    Type.CARD: {"rank": Type.INT, "suit": Type.SUIT, "color": Type.COLOR,
                "face_up": Type.BOOL},
    Type.PILE: {"empty": Type.BOOL, "size": Type.INT, "top": Type.CARD, "bottom": Type.CARD,
                # its place (patience.places): index, row and column, counted from 1
                **{name: Type.INT for name in PLACE_ATTRIBUTES},
                # whether a pile of the next row of an overlap layout lies on it, holding a card
                "covered": Type.BOOL},
    Type.RUN: {"size": Type.INT, "top": Type.CARD, "bottom": Type.CARD},
    # the stock's cards are face down: a rule may ask how many, never which
    Type.STOCK: {"empty": Type.BOOL, "size": Type.INT},
}

# Names every expression knows: rank names, suits and colours.
BUILTIN_CONSTANTS: Mapping[str, tuple[Type, int]] = {
    "A": (Type.INT, 1), "J": (Type.INT, 11), "Q": (Type.INT, 12), "K": (Type.INT, 13),
    "C": (Type.SUIT, 0), "D": (Type.SUIT, 1), "H": (Type.SUIT, 2), "S": (Type.SUIT, 3),
    "clubs": (Type.SUIT, 0), "diamonds": (Type.SUIT, 1), "hearts": (Type.SUIT, 2),
    "spades": (Type.SUIT, 3), "black": (Type.COLOR, 0), "red": (Type.COLOR, 1),
}


@attrs.frozen
class Predicate:
    """A named predicate as written in a variant file (checked separately)."""

    signature: Signature
    body: Node
    text: str
    origin: Any = None  # where it was written: (value origin, key origin), for messages


@attrs.frozen
class Scope:
    """What names an expression may use, and their types."""

    constants: Mapping[str, tuple[Type, int | bool]]
    groups: frozenset[str]
    predicates: Mapping[str, Predicate]
    variables: Mapping[str, Type]  # e.g. pile, run, source
    nonempty: frozenset[str] = frozenset()  # pile variables that are never empty
    broken: frozenset[str] = frozenset()  # predicates whose definition failed to read

    def with_variables(self, variables: Mapping[str, Type],
                       nonempty: frozenset[str] = frozenset()) -> Scope:
        return attrs.evolve(self, variables={**self.variables, **variables},
                            nonempty=self.nonempty | nonempty)


@attrs.frozen
class Problem:
    message: str
    span: Span
    code: str = "type-mismatch"  # the kind of problem (docs/errors.md)


class Checker(Visitor["Type | None"]):
    """Type-checks one expression in a scope and collects every problem it finds."""

    generic = frozenset({"Pairs"})  # only a quantifier's domain: checked there

    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.problems: list[Problem] = []

    def check(self, node: Node, expected: Type = Type.BOOL) -> list[Problem]:
        found = self._type(node, self.scope.variables, frozenset(self.scope.nonempty))
        if found is not None and found is not expected:
            self._problem(f"this is {article(found.value)}, "
                          f"but {article(expected.value)} is needed here", node,
                          code="type-mismatch")
        return self.problems

    def _problem(self, message: str, node: Node | Span, code: str) -> None:
        span = node if isinstance(node, tuple) else node.span
        self.problems.append(Problem(message, span, code))

    def _expect(self, node: Node, expected: Type, variables: Mapping[str, Type],
                nonempty: frozenset[str], what: str) -> None:
        found = self._type(node, variables, nonempty)
        if found is not None and found is not expected:
            self._problem(f"{what} must be {article(expected.value)}, "
                          f"not {article(found.value)}", node, code="type-mismatch")

    def _type(self, node: Node, variables: Mapping[str, Type],
              nonempty: frozenset[str]) -> Type | None:
        """The node's type, or None after reporting a problem in it."""
        return self.visit(node, variables, nonempty)

    def generic_visit(self, node: Node, *args: Any) -> Type | None:
        self._problem("this cannot be used here", node, code="type-mismatch")
        return None

    def visit_Integer(self, node: Integer, variables: Mapping[str, Type],
                      nonempty: frozenset[str]) -> Type | None:
        return Type.INT

    def visit_Boolean(self, node: Boolean, variables: Mapping[str, Type],
                      nonempty: frozenset[str]) -> Type | None:
        return Type.BOOL

    def visit_Name(self, node: Name, variables: Mapping[str, Type],
                   nonempty: frozenset[str]) -> Type | None:
        return self._name(node, variables)

    def visit_Attribute(self, node: Attribute, variables: Mapping[str, Type],
                        nonempty: frozenset[str]) -> Type | None:
        return self._attribute(node, variables, nonempty)

    def visit_Call(self, node: Call, variables: Mapping[str, Type],
                   nonempty: frozenset[str]) -> Type | None:
        return self._call(node, variables, nonempty)

    def visit_Not(self, node: Not, variables: Mapping[str, Type],
                  nonempty: frozenset[str]) -> Type | None:
        self._expect(node.operand, Type.BOOL, variables, nonempty, "the operand of 'not'")
        return Type.BOOL

    def visit_Negate(self, node: Negate, variables: Mapping[str, Type],
                     nonempty: frozenset[str]) -> Type | None:
        self._expect(node.operand, Type.INT, variables, nonempty, "the operand of '-'")
        return Type.INT

    def visit_Arithmetic(self, node: Arithmetic, variables: Mapping[str, Type],
                         nonempty: frozenset[str]) -> Type | None:
        self._expect(node.left, Type.INT, variables, nonempty,
                     f"the left side of '{node.op}'")
        self._expect(node.right, Type.INT, variables, nonempty,
                     f"the right side of '{node.op}'")
        if node.op in ("%", "//"):
            if not self._is_constant(node.right, variables):
                self._problem(f"the right side of '{node.op}' must be a constant "
                              "(a number, a rank name or a parameter)", node.right,
                              code="not-constant")
            elif self._constant_value(node.right) == 0:
                self._problem(f"division by zero: the right side of '{node.op}' is 0",
                              node.right, code="division-by-zero")
        return Type.INT

    def visit_Compare(self, node: Compare, variables: Mapping[str, Type],
                      nonempty: frozenset[str]) -> Type | None:
        return self._compare(node, variables, nonempty)

    def visit_BoolOp(self, node: BoolOp, variables: Mapping[str, Type],
                     nonempty: frozenset[str]) -> Type | None:
        known = set(nonempty)
        for value in node.values:
            self._expect(value, Type.BOOL, variables, frozenset(known),
                         f"each side of '{node.op}'")
            known |= guarded_piles(value, node.op == "and")
        return Type.BOOL

    def visit_Member(self, node: Member, variables: Mapping[str, Type],
                     nonempty: frozenset[str]) -> Type | None:
        self._expect(node.value, Type.PILE, variables, nonempty, "the left side of 'in'")
        if node.group not in self.scope.groups:
            self._unknown_group(node.group, node.span)
        return Type.BOOL

    def visit_Quantifier(self, node: Quantifier, variables: Mapping[str, Type],
                         nonempty: frozenset[str]) -> Type | None:
        return self._quantifier(node, variables, nonempty)

    def visit_Count(self, node: Count, variables: Mapping[str, Type],
                    nonempty: frozenset[str]) -> Type | None:
        if node.group not in self.scope.groups:
            self._unknown_group(node.group, node.span)
        inner = {**variables, node.name: Type.PILE}
        self._expect(node.body, Type.BOOL, inner, without(nonempty, {node.name}),
                     "the body of 'count'")
        return Type.INT

    def visit_Neighbour(self, node: Neighbour, variables: Mapping[str, Type],
                        nonempty: frozenset[str]) -> Type | None:
        self._expect(node.pile, Type.PILE, variables, nonempty,
                     f"the first argument of {node.direction}()")
        self._expect(node.distance, Type.INT, variables, nonempty,
                     f"the distance of {node.direction}()")
        if not self._is_constant(node.distance, variables) or not isinstance(
                self._constant_value(node.distance), int):
            self._problem(f"the distance of {node.direction}() must be a constant (a number "
                          "or a parameter): a neighbour is found when the variant compiles",
                          node.distance, code="not-constant")
        return Type.PILE

    def _constant_value(self, node: Node) -> object:
        """The value of a constant int expression, or None if it cannot be worked out."""
        return _ConstantValues(self.scope).visit(node)

    def _is_constant(self, node: Node, variables: Mapping[str, Type]) -> bool:
        return all(
            not isinstance(sub, (Attribute, Call, Quantifier, Member))
            and not (isinstance(sub, Name) and sub.id in variables)
            for sub in walk(node))

    def _name(self, node: Name, variables: Mapping[str, Type]) -> Type | None:
        if node.id in variables:
            return variables[node.id]
        if node.id in self.scope.constants:
            return self.scope.constants[node.id][0]
        if node.id in BUILTIN_CONSTANTS:
            return BUILTIN_CONSTANTS[node.id][0]
        if node.id in self.scope.groups:
            return Type.GROUP
        if node.id in self.scope.predicates:
            self._problem(f"{node.id!r} is a predicate: call it with arguments, "
                          f"e.g. {node.id}(…)", node, code="predicate-not-called")
            return None
        known = [*variables, *self.scope.constants, *self.scope.groups]
        parts = [f"{listing(list(variables))} (variables)"]
        if self.scope.constants:
            parts.append(f"{listing(list(self.scope.constants))} (parameters)")
        if self.scope.groups:
            parts.append(f"{listing(sorted(self.scope.groups))} (pile groups)")
        parts.append(f"the built-in {listing(list(BUILTIN_CONSTANTS))}")
        self._unknown(node.id, node.span, "name", known, "unknown-name",
                      "the names here are " + ", ".join(parts[:-1]) + " and " + parts[-1])
        return None

    def _unknown_group(self, group: str, span: Span) -> None:
        groups = sorted(self.scope.groups)
        self._unknown(group, span, "pile group", groups, "unknown-group",
                      f"the pile groups are {listing(groups)}" if groups else
                      "the file defines no pile group")

    def _unknown(self, name: str, span: Span, kind: str, known: list[str], code: str,
                 existing: str) -> None:
        """Report an unknown name: the close match if any, then what does exist there."""
        import difflib

        # a suggestion costs a comparison with every known name: only for a sane number
        close = difflib.get_close_matches(name, known, n=1) if len(known) <= 1000 else []
        if close:
            existing = f"; did you mean {close[0]!r}? {existing[:1].upper()}{existing[1:]}"
        else:
            existing = f"; {existing}"
        self._problem(f"unknown {kind} {name!r}{existing}", span, code=code)

    def _attribute(self, node: Attribute, variables: Mapping[str, Type],
                nonempty: frozenset[str]) -> Type | None:
        owner = self._type(node.value, variables, nonempty)
        if owner is None:
            return None
        fields = ATTRIBUTES.get(owner, {})
        if node.name not in fields:
            if fields:
                self._problem(f"{article(owner.value)} has no attribute {node.name!r}; it has "
                              f"{', '.join(fields)}", node, code="unknown-attribute")
            else:
                self._problem(f"{article(owner.value)} has no attributes", node,
                              code="unknown-attribute")
            return None
        guarded = pile_key(node.value) in nonempty
        if owner is Type.PILE and node.name in ("top", "bottom") and not guarded:
            pile = _text_of(node.value)
            self._problem(f"{pile}.{node.name} is read where {pile} may be empty; "
                          f"check it first, e.g. '{pile}.empty or …' or "
                          f"'not {pile}.empty and …'", node, code="maybe-empty")
        return fields[node.name]

    def _call(self, node: Call, variables: Mapping[str, Type],
                nonempty: frozenset[str]) -> Type | None:
        predicate = self.scope.predicates.get(node.function)
        if node.function in self.scope.broken:  # its definition is wrong, reported there
            for arg in node.args:
                self._type(arg, variables, nonempty)
            return Type.BOOL
        if predicate is None:
            for arg in node.args:
                self._type(arg, variables, nonempty)
            defined = sorted(self.scope.predicates)
            self._unknown(node.function, (node.span[0], node.span[0] + len(node.function)),
                          "predicate", defined, "unknown-predicate",
                          f"the predicates are {listing(defined)}" if defined else
                          "the file defines no predicate")
            return None
        parameters = predicate.signature.parameters
        if len(node.args) != len(parameters):
            expected = ", ".join(f"{p.name}: {p.type.value}" for p in parameters)
            self._problem(f"{node.function}({expected}) takes {len(parameters)} "
                          f"argument{'s' if len(parameters) != 1 else ''}, "
                          f"not {len(node.args)}", node, code="wrong-arity")
        for arg, parameter in zip(node.args, parameters):
            self._expect(arg, parameter.type, variables, nonempty,
                         f"argument {parameter.name!r} of {node.function}")
        return Type.BOOL

    def _compare(self, node: Compare, variables: Mapping[str, Type],
                nonempty: frozenset[str]) -> Type | None:
        left = self._type(node.left, variables, nonempty)
        right = self._type(node.right, variables, nonempty)
        if left is None or right is None:
            return Type.BOOL
        if node.op in ("==", "!="):
            if left is not right:
                self._problem(f"cannot compare {article(left.value)} "
                              f"with {article(right.value)}", node, code="type-mismatch")
            elif left in (Type.RUN, Type.GROUP, Type.STOCK):
                self._problem(f"{article(left.value)} cannot be compared; compare its attributes",
                              node, code="type-mismatch")
        elif left is not Type.INT or right is not Type.INT:
            bad = left if left is not Type.INT else right
            self._problem(f"'{node.op}' compares numbers, not {article(bad.value)}", node,
                          code="type-mismatch")
        return Type.BOOL

    def _quantifier(self, node: Quantifier, variables: Mapping[str, Type],
                nonempty: frozenset[str]) -> Type | None:
        inner = dict(variables)
        twice = next((n for i, n in enumerate(node.names) if n in node.names[:i]), None)
        if twice is not None:
            self._problem(f"the quantifier names {twice!r} twice: give each card or pile "
                          "its own name, e.g. 'all below, above in pairs(run): …'", node,
                          code="quantifier-names")
        if isinstance(node.domain, Pairs):
            found = self._type(node.domain.run, variables, nonempty)
            if found is not None and found not in (Type.RUN, Type.PILE):
                self._problem(f"the argument of pairs() must be a run or a pile, not "
                              f"{article(found.value)}", node.domain.run, code="type-mismatch")
            if len(node.names) != 2:
                self._problem("pairs() gives two cards at a time: name both, "
                              "e.g. 'all below, above in pairs(run): …'", node,
                              code="quantifier-names")
            for name in node.names:
                inner[name] = Type.CARD
        else:
            assert isinstance(node.domain, Name)
            if node.domain.id not in self.scope.groups:
                self._unknown_group(node.domain.id, node.domain.span)
            if len(node.names) != 1:
                self._problem("a quantifier over a pile group names one pile, "
                              "e.g. 'all p in columns: …'", node, code="quantifier-names")
            for name in node.names:
                inner[name] = Type.PILE
        inner_nonempty = without(nonempty, set(node.names))
        self._expect(node.body, Type.BOOL, inner, inner_nonempty,
                     f"the body of '{node.kind}'")
        return Type.BOOL


class _ConstantValues(Visitor[object]):
    """The value of a constant int expression (numbers, named constants, ``-`` and
    arithmetic on them), or None."""

    generic = frozenset({"Boolean", "Attribute", "Call", "Not", "Compare", "BoolOp", "Member",
                         "Quantifier", "Pairs", "Count", "Neighbour"})

    def __init__(self, scope: Scope) -> None:
        self.scope = scope

    def generic_visit(self, node: Node, *args: Any) -> object:
        return None

    def visit_Integer(self, node: Integer) -> object:
        return node.value

    def visit_Name(self, node: Name) -> object:
        if node.id in self.scope.constants:
            return self.scope.constants[node.id][1]
        return BUILTIN_CONSTANTS.get(node.id, (None, None))[1]

    def visit_Negate(self, node: Negate) -> object:
        value = self.visit(node.operand)
        return -value if isinstance(value, int) else None

    def visit_Arithmetic(self, node: Arithmetic) -> object:
        left, right = self.visit(node.left), self.visit(node.right)
        if not isinstance(left, int) or not isinstance(right, int):
            return None
        return fold_arithmetic(node.op, left, right)  # None: divides by zero, or too large


# --- what the operators mean -----------------------------------------------------------
# The one home of the rule language's arithmetic and comparison for the Python side: the
# checker's and the compiler's constant folding, the native lowering's folding, the
# explaining interpreter and the safe-move derivation all compute with these. Generated
# code uses Python's own operators, which mean the same (``_BINARY`` in patience.compiler);
# the native core has its own copy, ``Op::apply`` in native/src/program.rs.


def power(base: int, exponent: int) -> int:
    """``base ** exponent`` in the rule language: whole numbers only, so a negative exponent
    gives 0."""
    return base ** exponent if exponent >= 0 else 0


_ARITHMETIC: Mapping[str, Callable[[int, int], int]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul,
    "//": operator.floordiv, "%": operator.mod, "**": power}

_COMPARISONS: Mapping[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge}


def arithmetic(op: str, left: int, right: int) -> int:
    """``left OP right`` as the rule language computes it: ``//`` rounds down and ``%`` takes
    the divisor's sign (as Python's), a negative power is 0. The checker has ruled out a
    divisor of 0 (the right side of ``//`` and ``%`` is a non-zero constant).

    >>> arithmetic("//", -7, 2), arithmetic("%", -7, 2), arithmetic("**", 2, -1)
    (-4, 1, 0)
    """
    return _ARITHMETIC[op](left, right)


def compare(op: str, left: Any, right: Any) -> bool:
    """``left OP right`` for two values of one type (numbers, suits, colours, cards,
    truth values).

    >>> compare("<=", 3, 3), compare("!=", True, False)
    (True, True)
    """
    return _COMPARISONS[op](left, right)


def fold_arithmetic(op: str, left: int, right: int) -> int | None:
    """``left OP right`` as the rule language computes it, or None when the result would be
    beyond ``MAX_INTEGER`` or divides by zero. A power is judged before it is computed, so
    ``7 ** 9223372036854775807`` is never tried. The one home of constant arithmetic: the
    checker, the size bounds and the compiler's folding all use it.

    >>> fold_arithmetic("**", 2, 10), fold_arithmetic("**", 2, -1), fold_arithmetic("**", 3, 99)
    (1024, 0, None)
    """
    if op in ("//", "%") and right == 0:
        return None
    if op == "**" and abs(left) > 1 and right > 64:
        return None
    value = arithmetic(op, left, right)
    return value if abs(value) <= MAX_INTEGER else None


# --- the size of whole numbers --------------------------------------------------------


@attrs.frozen
class Overflow:
    """A whole number a rule may compute beyond ``MAX_INTEGER``: where, and how large."""

    span: Span
    predicate: str | None  # the predicate whose text holds the span; None: the rule's own
    bound: int | None  # the largest size the number can reach; None: far beyond the limit


class _TooLarge(Exception):
    def __init__(self, overflow: Overflow) -> None:
        self.overflow = overflow


def integer_overflow(node: Node, scope: Scope, largest_size: int,
                     group_sizes: Mapping[str, int] | None = None) -> Overflow | None:
    """Where a checked expression may compute a whole number beyond ``MAX_INTEGER``.

    Every int sub-expression gets an upper bound on its size: a number or parameter its own,
    a rank 13, a pile, run or stock size ``largest_size`` (the deck), a ``count(…)`` its
    group's number of piles (``group_sizes``, else ``MAX_GROUP_PILES``), and
    ``+ - * // % **`` combine them (a power is judged before it is computed). The bounds
    follow predicate calls into their bodies, so this covers every number the compiler
    folds and every number generated code computes. The walk is as long as the rule with
    its predicates written out, which the loader has bounded already.
    """
    try:
        _Sizes(scope, largest_size, group_sizes or {}).bound(node, {}, None)
    except _TooLarge as error:
        return error.overflow
    return None


class _Sizes(Visitor["int | None"]):
    """Upper bounds on the size of int sub-expressions (:func:`integer_overflow`)."""

    # bool-valued nodes: their parts are bounded, they have no size of their own
    generic = frozenset({"Boolean", "Not", "Compare", "BoolOp", "Member", "Pairs",
                         "Neighbour"})

    def __init__(self, scope: Scope, largest_size: int, group_sizes: Mapping[str, int]) -> None:
        self.scope = scope
        self.largest_size = largest_size
        self.group_sizes = group_sizes

    def bound(self, node: Node, env: Mapping[str, int | None], where: str | None) -> int | None:
        """An upper bound on ``abs(node)`` for an int node, None for other types."""
        return self.visit(node, env, where)

    def generic_visit(self, node: Node, *args: Any) -> int | None:
        env, where = args
        for child in children(node):
            self.bound(child, env, where)
        return None

    def visit_Integer(self, node: Integer, env: Mapping[str, int | None],
                      where: str | None) -> int | None:
        return abs(node.value)

    def visit_Name(self, node: Name, env: Mapping[str, int | None],
                   where: str | None) -> int | None:
        if node.id in env:
            return env[node.id]
        value = self.scope.constants.get(node.id, BUILTIN_CONSTANTS.get(node.id))
        if value is not None and value[0] is Type.INT and not isinstance(value[1], bool):
            return abs(int(value[1]))
        return None

    def visit_Attribute(self, node: Attribute, env: Mapping[str, int | None],
                        where: str | None) -> int | None:
        self.bound(node.value, env, where)
        return {"rank": 13, "size": self.largest_size,
                **{name: MAX_GROUP_PILES for name in PLACE_ATTRIBUTES}}.get(node.name)

    def visit_Negate(self, node: Negate, env: Mapping[str, int | None],
                     where: str | None) -> int | None:
        return self.bound(node.operand, env, where)

    def visit_Arithmetic(self, node: Arithmetic, env: Mapping[str, int | None],
                         where: str | None) -> int | None:
        left = self.bound(node.left, env, where)
        right = self.bound(node.right, env, where)
        if left is None or right is None:
            return None
        if node.op == "**" and left > 1 and right > 64:
            raise _TooLarge(Overflow(node.span, where, None))
        size = (left + right if node.op in ("+", "-") else left * right if node.op == "*"
                else left if node.op == "//" else right if node.op == "%"
                else left ** right)
        if size > MAX_INTEGER:
            raise _TooLarge(Overflow(node.span, where, size))
        return size

    def visit_Call(self, node: Call, env: Mapping[str, int | None],
                   where: str | None) -> int | None:
        sizes = [self.bound(arg, env, where) for arg in node.args]
        predicate = self.scope.predicates.get(node.function)
        if predicate is not None and node.function not in self.scope.broken:
            inner = {p.name: size for p, size in zip(predicate.signature.parameters, sizes)}
            self.bound(predicate.body, inner, node.function)
        return None

    def visit_Quantifier(self, node: Quantifier, env: Mapping[str, int | None],
                         where: str | None) -> int | None:
        if isinstance(node.domain, Pairs):
            self.bound(node.domain.run, env, where)
        self.bound(node.body, {**env, **{n: None for n in node.names}}, where)
        return None

    def visit_Count(self, node: Count, env: Mapping[str, int | None],
                    where: str | None) -> int | None:
        self.bound(node.body, {**env, node.name: None}, where)
        return self.group_sizes.get(node.group, MAX_GROUP_PILES)


def table_read(node: Node, predicates: Mapping[str, Predicate],
               skip: frozenset[str] = frozenset()) -> tuple[Node, str] | None:
    """The first part of ``node`` that reads the table, and what it reads: the stock (the
    name ``stock``), the piles of a group (a quantifier or ``count`` over it), or a call of a
    predicate that reads one of them, at any depth. None when ``node`` reads nothing but its
    own variables, the parameters and the constants. Predicates in ``skip`` (broken ones,
    reported elsewhere) are not looked into.

    >>> table_read(parse_expression("card.rank == K"), {}) is None
    True
    >>> node, what = table_read(parse_expression("card.rank == K or stock.size > 3"), {})
    >>> what, node.span
    ('reads the stock', (18, 23))
    """
    known: dict[str, str | None] = {}

    def in_predicate(name: str) -> str | None:
        if name not in known:
            known[name] = None  # (a recursive predicate is refused, and skipped here)
            predicate = predicates[name]
            found = first(predicate.body, frozenset(
                p.name for p in predicate.signature.parameters))
            known[name] = found[1] if found else None
        return known[name]

    def first(node: Node, bound: frozenset[str]) -> tuple[Node, str] | None:
        if isinstance(node, Name) and node.id == "stock" and node.id not in bound:
            return node, "reads the stock"
        if isinstance(node, Quantifier) and isinstance(node.domain, Name):
            return node, f"reads the piles of {node.domain.id}"
        if isinstance(node, Count):
            return node, f"reads the piles of {node.group}"
        if isinstance(node, Call) and node.function in predicates and node.function not in skip:
            what = in_predicate(node.function)
            if what is not None:
                return node, f"calls {node.function}, which {what}"
        if isinstance(node, Quantifier):
            bound = bound | set(node.names)
        for child in children(node):
            found = first(child, bound)
            if found is not None:
                return found
        return None

    return first(node, frozenset())


def listing(names: list[str], most: int = 20) -> str:
    """Names for a message, quoted as a reader types them: 'a, b, c', and at most ``most``
    of them (a file can define many).

    >>> listing(["columns", "tail"]), listing([str(n) for n in range(30)], most=3)
    ('columns, tail', '0, 1, 2, … (30 in all)')
    """
    shown = ", ".join(names[:most])
    return shown if len(names) <= most else f"{shown}, … ({len(names)} in all)"


def article(word: str) -> str:
    """'a card', 'an int'."""
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


def guarded_piles(node: Node, truth: bool) -> frozenset[str]:
    """Pile variables known to be non-empty when ``node`` evaluates to ``truth``."""
    return _Guards().visit(node, truth)


class _Guards(Visitor[frozenset[str]]):
    """:func:`guarded_piles`: ``visit(node, truth)``."""

    # they say nothing of a pile's emptiness
    generic = frozenset({"Integer", "Boolean", "Name", "Negate", "Arithmetic", "Member",
                         "Call", "Quantifier", "Pairs", "Count", "Neighbour"})

    def generic_visit(self, node: Node, *args: Any) -> frozenset[str]:
        return frozenset()

    def visit_Not(self, node: Not, truth: bool) -> frozenset[str]:
        return self.visit(node.operand, not truth)

    def visit_Attribute(self, node: Attribute, truth: bool) -> frozenset[str]:
        key = pile_key(node.value)
        if node.name == "empty" and key is not None and not truth:
            return frozenset({key})
        return frozenset()

    def visit_BoolOp(self, node: BoolOp, truth: bool) -> frozenset[str]:
        if (node.op == "and") == truth:  # all of the values have that truth
            return frozenset().union(*(self.visit(value, truth) for value in node.values))
        return frozenset()

    def visit_Compare(self, node: Compare, truth: bool) -> frozenset[str]:
        size, other, op = _size_comparison(node)
        if size is not None and isinstance(other, Integer):
            n = other.value
            holds_nonempty = {"==": n >= 1, "!=": n == 0, ">": n >= 0, ">=": n >= 1,
                              "<": False, "<=": False}
            fails_nonempty = {"==": n == 0, "!=": n >= 1, "<": n <= 1, "<=": n == 0,
                              ">": False, ">=": False}
            table = holds_nonempty if truth else fails_nonempty
            if table[op]:
                return frozenset({size})
        return frozenset()


_MIRROR = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _size_comparison(node: Compare) -> tuple[str | None, Node, str]:
    """For ``X.size OP n`` (either way round): (X, n-node, OP as if X.size is on the left)."""
    for pile_side, other, op in ((node.left, node.right, node.op),
                                 (node.right, node.left, _MIRROR[node.op])):
        if isinstance(pile_side, Attribute) and pile_side.name == "size":
            key = pile_key(pile_side.value)
            if key is not None:
                return key, other, op
    return None, node, node.op


def pile_key(node: Node) -> str | None:
    """What the safety checker calls a pile it may know non-empty: a pile variable by its
    name, a neighbour of one as ``name:direction:distance`` (written the same way in the
    guard and the read, e.g. ``not left(pile).empty and left(pile).top.rank == 3``), or None.

    >>> pile_key(parse_expression("left(below(p), 2)"))
    'p:below:1:left:2'
    """
    if isinstance(node, Name):
        return node.id
    if isinstance(node, Neighbour):
        base = pile_key(node.pile)
        distance = (node.distance.value if isinstance(node.distance, Integer)
                    else node.distance.id if isinstance(node.distance, Name) else None)
        if base is not None and distance is not None:
            return f"{base}:{node.direction}:{distance}"
    return None


def without(nonempty: frozenset[str], names: set[str]) -> frozenset[str]:
    """``nonempty`` without the piles that are, or are neighbours of, pile variables bound
    again here (a quantifier's or count's names)."""
    return frozenset(key for key in nonempty if key.split(":")[0] not in names)


def _text_of(node: Node) -> str:
    if isinstance(node, Name):
        return node.id
    if isinstance(node, Neighbour):
        distance = "" if isinstance(node.distance, Integer) and node.distance.value == 1 \
            else f", {_text_of(node.distance)}"
        return f"{node.direction}({_text_of(node.pile)}{distance})"
    if isinstance(node, Integer):
        return str(node.value)
    if isinstance(node, Attribute):
        return f"{_text_of(node.value)}.{node.name}"
    return "it"
