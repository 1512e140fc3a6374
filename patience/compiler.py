"""Compile checked rule expressions into Python ``ast`` expressions.

The compiler never sees user text: it walks patience's own AST (``patience.language``) and
builds ``ast`` nodes, which ``patience.generator`` assembles into the per-variant move
generator and ``compile()``s. What is fixed per variant is decided here, once:

* parameters and rank names are constants and fold away (``wrap and …`` with ``wrap: false``
  disappears);
* named predicates are inlined at each call, except those whose arguments are all cards and
  whose body reads nothing but them: those are evaluated for every pair of cards when the
  variant loads and become a table lookup;
* ``source in columns`` folds to true or false where the source group is known;
* a quantifier over a small pile group is unrolled, within a budget of added code.

The loader has bounded what reaches the compiler (``patience.limits``): the size and depth
of every rule with its predicates written out (measured here, by :class:`InlinedShapes`)
and the size of every whole number it can compute, so folding stays within 2^63 - 1.

Cards are ints (``rank * 4 + suit``), so ``card.rank`` is ``card >> 2``.
"""

from __future__ import annotations

import ast
import copy
import itertools
import threading
import types
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

import attrs

from patience.cards import FACE_DOWN, color_of, is_face_up, new_deck, rank_of, suit_of
from patience.errors import VariantError
from patience.language import (
    BUILTIN_CONSTANTS,
    Arithmetic,
    Attribute,
    Boolean,
    BoolOp,
    Call,
    Compare,
    Count,
    Integer,
    Member,
    Name,
    Negate,
    Neighbour,
    Node,
    Not,
    Pairs,
    Predicate,
    Quantifier,
    Type,
    Visitor,
    children,
    compare,
    fold_arithmetic,
    walk,
)
from patience.limits import (
    MAX_INLINED_DEPTH,
    MAX_INLINED_NODES,
    MAX_QUANTIFIER_NESTING,
)
from patience.places import NO_PILE, PLACE_ATTRIBUTES, Arrangement, PileMaps

# --- values the compiler manipulates ---------------------------------------------------


@attrs.frozen
class Const:
    """A value known when the variant compiles."""

    value: Any


@attrs.frozen
class Code:
    """A scalar (int, bool, card, suit, colour) computed by a Python expression."""

    expr: ast.expr


@attrs.frozen
class Pile:
    """A pile: the Python expression for its card list, its index, and its group if known."""

    cards: ast.expr
    index: ast.expr | None
    group: str | None
    top: ast.expr | None = None  # a local already holding the top card, where known non-empty


@attrs.frozen
class Run:
    """The top ``count`` cards of the card list ``cards``."""

    cards: ast.expr
    count: ast.expr | int


Value = Const | Code | Pile | Run

# Nodes that unrolling quantifiers over small pile groups may add to a variant's code.
UNROLL_BUDGET = MAX_INLINED_NODES

# --- small ast helpers -----------------------------------------------------------------


def name(identifier: str) -> ast.Name:
    return ast.Name(id=identifier, ctx=ast.Load())


def constant(value: Any) -> ast.expr:
    return ast.Constant(value=value)


def subscript(value: ast.expr, index: ast.expr | int) -> ast.expr:
    if isinstance(index, int):
        index = constant(index) if index >= 0 else ast.UnaryOp(ast.USub(), constant(-index))
    return ast.Subscript(value=value, slice=index, ctx=ast.Load())


def call(function: ast.expr | str, *args: ast.expr) -> ast.expr:
    if isinstance(function, str):
        function = name(function)
    return ast.Call(func=function, args=list(args), keywords=[])


def negative(value: ast.expr | int) -> ast.expr | int:
    return -value if isinstance(value, int) else ast.UnaryOp(ast.USub(), value)


def as_expr(value: ast.expr | int) -> ast.expr:
    return constant(value) if isinstance(value, int) else value


_BINARY = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult, "//": ast.FloorDiv, "%": ast.Mod,
           "**": ast.Pow}
_COMPARE = {"==": ast.Eq, "!=": ast.NotEq, "<": ast.Lt, "<=": ast.LtE, ">": ast.Gt,
            ">=": ast.GtE}


def conjunction(values: Sequence[ast.expr]) -> ast.expr:
    if not values:
        return constant(True)
    if len(values) == 1:
        return values[0]
    return ast.BoolOp(op=ast.And(), values=list(values))


def is_true(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is True


def is_false(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is False


# --- the compiler ----------------------------------------------------------------------


#: tables of card predicates already made, by everything that decides their values
#: (:meth:`Compiler._table_key`); at most this many, the oldest dropped first
MAX_REMEMBERED_TABLES = 128
_TABLES: dict[Hashable, tuple[Any, ...]] = {}
_TABLES_LOCK = threading.Lock()


@attrs.define
class Layout:
    """What the compiler needs to know about the piles: each group's index range."""

    groups: Mapping[str, range]  # pile indices of each group
    #: every pile's place and neighbours (None: each group one row, as in tests)
    places: PileMaps | None = None
    piles_name: str = "piles"  # the variable holding the list of piles in generated code

    @property
    def maps(self) -> PileMaps:
        if self.places is None:
            self.places = PileMaps(tuple(
                (indices.start, Arrangement.row(len(indices)))
                for indices in sorted(self.groups.values(), key=lambda r: r.start)
                if len(indices)))
        return self.places


class Tables:
    """Lookup tables made when the variant compiles, passed into the generated code."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self._by_key: dict[Any, str] = {}

    def add(self, key: Any, make: Callable[[], Any], label: str = "",
            prefix: str = "table") -> str:
        """The name of the table for ``key`` (made on first use), e.g. ``table_goes_on``
        for the predicate ``goes_on``: ``label`` is an identifier of the rule language
        (``prefix`` "place" names the maps of piles' places, which are no card table)."""
        if key not in self._by_key:
            identifier = f"{prefix}_{label}" if label else f"{prefix}{len(self._by_key)}"
            if identifier in self.values:
                identifier = f"{identifier}_{len(self._by_key)}"
            self._by_key[key] = identifier
            self.values[identifier] = make()
        return self._by_key[key]


class Compiler(Visitor[Value]):
    """Compiles checked expressions of one variant.

    ``constants`` are the variant's parameters; ``predicates`` its named predicates (already
    checked); ``layout`` the pile groups. Bindings map expression variables (``pile``,
    ``run``, ``source``, quantifier names) to compiled values.
    """

    generic = frozenset({"Pairs"})  # only a quantifier's domain: compiled there

    def __init__(self, constants: Mapping[str, Any], predicates: Mapping[str, Predicate],
                 layout: Layout, tables: Tables, cards: Sequence[int] | None = None,
                 tabulate: bool = True, face_down: bool = False) -> None:
        self.constants = {**{k: v for k, (_, v) in BUILTIN_CONSTANTS.items()}, **constants}
        self.predicates = predicates
        self.layout = layout
        self.tables = tables
        self.cards = sorted(set(cards if cards is not None else new_deck()))
        #: whether piles may hold face-down cards (``card | FACE_DOWN``): then a card's
        #: rank is masked and tables cover face-down cards too
        self.face_down = face_down
        if face_down:
            self.cards += [card | FACE_DOWN for card in self.cards]
        self.tabulate = tabulate
        self._fresh = itertools.count()
        self._tabulable: dict[str, bool] = {}
        self._evaluated: dict[tuple[str, tuple[int, ...]], bool] = {}
        self._unroll_budget = UNROLL_BUDGET

    def fresh(self, stem: str) -> str:
        """A new local name for generated code (never derived from user text)."""
        return f"_{stem}{next(self._fresh)}"

    # -- entry points --

    def expression(self, node: Node, bindings: Mapping[str, Value]) -> ast.expr:
        """A Python expression for a bool/int/card node."""
        return self.to_expr(self.value(node, bindings))

    def to_expr(self, value: Value) -> ast.expr:
        if isinstance(value, Const):
            return constant(value.value)
        if isinstance(value, Code):
            return value.expr
        raise TypeError(f"{value!r} is not a scalar")

    # -- the walk --

    def value(self, node: Node, bindings: Mapping[str, Value]) -> Value:
        """The compiled value of ``node`` (dispatched by node class: ``visit_<Class>``)."""
        return self.visit(node, bindings)

    def visit_Integer(self, node: Integer, bindings: Mapping[str, Value]) -> Value:
        return Const(node.value)

    def visit_Boolean(self, node: Boolean, bindings: Mapping[str, Value]) -> Value:
        return Const(node.value)

    def visit_Name(self, node: Name, bindings: Mapping[str, Value]) -> Value:
        if node.id in bindings:
            return bindings[node.id]
        if node.id in self.constants:
            return Const(self.constants[node.id])
        if node.id == "stock":  # every generated function has the stock as 'stock'
            return Pile(name("stock"), None, "stock#")
        raise KeyError(node.id)  # the checker rules this out

    def visit_Attribute(self, node: Attribute, bindings: Mapping[str, Value]) -> Value:
        owner = self.value(node.value, bindings)
        if isinstance(owner, Pile):
            cards = owner.cards
            if node.name in PLACE_ATTRIBUTES:
                return self._place(node.name, owner)
            if node.name == "covered":
                return self._covered(owner)
            if node.name == "empty":
                return Code(ast.UnaryOp(ast.Not(), cards))
            if node.name == "size":
                return Code(call("len", cards))
            if node.name == "top" and owner.top is not None:
                return Code(owner.top)
            return Code(subscript(cards, -1 if node.name == "top" else 0))
        if isinstance(owner, Run):
            if node.name == "size":
                return Const(owner.count) if isinstance(owner.count, int) else Code(owner.count)
            if node.name == "top":
                return Code(subscript(owner.cards, -1))
            return Code(subscript(owner.cards, negative(owner.count)))
        # a card
        if isinstance(owner, Const):
            card = owner.value
            return Const({"rank": rank_of(card), "suit": suit_of(card),
                          "color": color_of(card), "face_up": is_face_up(card)}[node.name])
        card_expr = self.to_expr(owner)
        if node.name == "rank":
            rank = ast.BinOp(card_expr, ast.RShift(), constant(2))
            return Code(ast.BinOp(rank, ast.BitAnd(), constant(15)) if self.face_down else rank)
        if node.name == "face_up":
            return Code(ast.Compare(card_expr, [ast.Lt()], [constant(FACE_DOWN)]))
        if node.name == "suit":
            return Code(ast.BinOp(card_expr, ast.BitAnd(), constant(3)))
        suit = ast.BinOp(card_expr, ast.BitAnd(), constant(3))
        plus_one = ast.BinOp(suit, ast.Add(), constant(1))
        return Code(ast.BinOp(ast.BinOp(plus_one, ast.RShift(), constant(1)), ast.BitAnd(),
                              constant(1)))

    def _place(self, attribute: str, pile: Pile) -> Value:
        """``pile.index``, ``.row`` or ``.column``: folded for a known pile, else one read of
        a table by pile number (whose last entry, read by NO_PILE, is 0: no place)."""
        values = self.layout.maps.place(attribute)
        assert pile.index is not None  # (the checker allows places of piles only)
        if isinstance(pile.index, ast.Constant):
            known = int(pile.index.value)  # type: ignore[arg-type]
            return Const(0 if known == NO_PILE else values[known])
        table = self.tables.add(("place", attribute), lambda: (*values, 0), attribute,
                                prefix="place")
        return Code(subscript(name(table), pile.index))

    def visit_Neighbour(self, node: Neighbour, bindings: Mapping[str, Value]) -> Value:
        base = self.value(node.pile, bindings)
        distance = self.value(node.distance, bindings)
        assert isinstance(base, Pile) and isinstance(distance, Const)  # (the checker's)
        return self._near(base, self.layout.maps.neighbours(node.direction, distance.value),
                          ("neighbours", node.direction, distance.value), node.direction)

    def _near(self, base: Pile, near: tuple[int, ...], key: Hashable, label: str) -> Pile:
        """The pile ``near`` gives ``base`` (a map by pile number, as
        :meth:`PileMaps.neighbours`): folded to the pile itself (or no pile) for a known
        pile, else the pile at one read of a table; no pile reads as an empty pile."""
        assert base.index is not None
        if isinstance(base.index, ast.Constant):
            known = int(base.index.value)  # type: ignore[arg-type]
            index = NO_PILE if known == NO_PILE else near[known]
            if index == NO_PILE:
                return Pile(ast.Tuple([], ast.Load()), constant(NO_PILE), None)
            group = next(g for g, indices in self.layout.groups.items() if index in indices)
            return Pile(subscript(name(self.layout.piles_name), index), constant(index), group)
        table = self.tables.add(key, lambda: (*near, NO_PILE), label, prefix="place")
        index_expr = subscript(name(table), base.index)
        cards = ast.IfExp(ast.Compare(index_expr, [ast.GtE()], [constant(0)]),
                          subscript(name(self.layout.piles_name), index_expr),
                          ast.Tuple([], ast.Load()))
        return Pile(cards, index_expr, None)

    def _covered(self, pile: Pile) -> Value:
        """``pile.covered``: one of the piles covering it holds a card (the k-th covering
        pile of each pile is a map read like a neighbour: ``PileMaps.covering_maps``)."""
        values: list[Value] = []
        for k, near in enumerate(self.layout.maps.covering_maps):
            cover = self._near(pile, near, ("covering", k), f"covering{k}")
            if isinstance(cover.index, ast.Constant) and cover.index.value == NO_PILE:
                values.append(Const(False))
            else:
                values.append(Code(ast.UnaryOp(ast.Not(), ast.UnaryOp(ast.Not(), cover.cards))))
        return self._combine(False, values)

    def visit_Negate(self, node: Negate, bindings: Mapping[str, Value]) -> Value:
        operand = self.value(node.operand, bindings)
        if isinstance(operand, Const):
            return Const(-operand.value)
        return Code(ast.UnaryOp(ast.USub(), self.to_expr(operand)))

    def visit_Not(self, node: Not, bindings: Mapping[str, Value]) -> Value:
        operand = self.value(node.operand, bindings)
        if isinstance(operand, Const):
            return Const(not operand.value)
        return Code(ast.UnaryOp(ast.Not(), self.to_expr(operand)))

    def visit_Arithmetic(self, node: Arithmetic, bindings: Mapping[str, Value]) -> Value:
        left = self.value(node.left, bindings)
        right = self.value(node.right, bindings)
        if isinstance(left, Const) and isinstance(right, Const):
            value = fold_arithmetic(node.op, left.value, right.value)
            if value is None:  # the loader's integer_overflow rules this out
                raise VariantError(f"a rule computes {left.value} {node.op} {right.value}, "
                                   "beyond 2^63 - 1", code="number-overflow")
            return Const(value)
        expr = ast.BinOp(self.to_expr(left), _BINARY[node.op](), self.to_expr(right))
        if node.op == "**":  # whole numbers only: a negative exponent gives 0
            if isinstance(right, Const):
                return Code(expr) if right.value >= 0 else Const(0)
            return Code(ast.IfExp(ast.Compare(self.to_expr(right), [ast.GtE()], [constant(0)]),
                                  expr, constant(0)))
        return Code(expr)

    def visit_Compare(self, node: Compare, bindings: Mapping[str, Value]) -> Value:
        left = self.value(node.left, bindings)
        right = self.value(node.right, bindings)
        if isinstance(left, Pile) and isinstance(right, Pile):  # the same pile, or not
            same = node.op == "=="
            if left.group is not None and right.group is not None and left.group != right.group:
                return Const(not same)
            assert left.index is not None and right.index is not None
            if isinstance(left.index, ast.Constant) and isinstance(right.index, ast.Constant):
                return Const((left.index.value == right.index.value) == same)
            return Code(ast.Compare(left.index, [ast.Eq() if same else ast.NotEq()],
                                    [right.index]))
        if isinstance(left, Const) and isinstance(right, Const):
            return Const(compare(node.op, left.value, right.value))
        return Code(ast.Compare(self.to_expr(left), [_COMPARE[node.op]()],
                                [self.to_expr(right)]))

    def visit_BoolOp(self, node: BoolOp, bindings: Mapping[str, Value]) -> Value:
        return self._combine(node.op == "and",
                             [self.value(child, bindings) for child in node.values])

    def _combine(self, is_and: bool, values: list[Value]) -> Value:
        parts: list[ast.expr] = []
        for value in values:
            if isinstance(value, Const):
                if bool(value.value) == is_and:
                    continue  # true in an 'and', false in an 'or': no effect
                return Const(not is_and)  # decides the whole operation
            parts.append(self.to_expr(value))
        if not parts:
            return Const(is_and)
        if len(parts) == 1:
            return Code(parts[0])
        return Code(ast.BoolOp(op=ast.And() if is_and else ast.Or(), values=parts))

    def visit_Member(self, node: Member, bindings: Mapping[str, Value]) -> Value:
        pile = self.value(node.value, bindings)
        assert isinstance(pile, Pile)
        if pile.group is not None:
            return Const((pile.group == node.group) != node.negated)
        indices = self.layout.groups[node.group]
        assert pile.index is not None
        test = ast.Compare(constant(indices.start), [ast.LtE(), ast.Lt()],
                           [pile.index, constant(indices.stop)])
        return Code(ast.UnaryOp(ast.Not(), test) if node.negated else test)

    def visit_Call(self, node: Call, bindings: Mapping[str, Value]) -> Value:
        predicate = self.predicates[node.function]
        args = [self.value(arg, bindings) for arg in node.args]
        if self.tabulate and self._is_tabulable(predicate) and 1 <= len(args) <= 2:
            constants = [arg.value for arg in args if isinstance(arg, Const)]
            if len(constants) == len(args):
                return Const(self.evaluate_on(predicate, constants))
            table = self.tables.add(("predicate", node.function),
                                    lambda: self.table(predicate), node.function)
            result: ast.expr = name(table)
            for arg in args:
                result = subscript(result, self.to_expr(arg))
            return Code(result)
        inner = {parameter.name: arg
                 for parameter, arg in zip(predicate.signature.parameters, args)}
        return self.value(predicate.body, inner)

    def visit_Quantifier(self, node: Quantifier, bindings: Mapping[str, Value]) -> Value:
        builtin = "all" if node.kind == "all" else "any"
        if isinstance(node.domain, Pairs):
            run = self.value(node.domain.run, bindings)
            if isinstance(run, Pile):  # pairs(pile): all its cards
                run = Run(run.cards, call("len", run.cards))
            assert isinstance(run, Run)
            below, above = node.names
            below_name, above_name = self.fresh("below"), self.fresh("above")
            inner = {**bindings, below: Code(name(below_name)), above: Code(name(above_name))}
            body = self.expression(node.body, inner)
            if isinstance(body, ast.Constant):
                # the answer for a run with no pairs (one card) is all: true, any: false
                if bool(body.value) == (node.kind == "all"):
                    return Const(bool(body.value))
                if isinstance(run.count, int):
                    return Const((run.count >= 2) == (node.kind == "any"))
                has_pairs = ast.Compare(as_expr(run.count), [ast.GtE()], [constant(2)])
                return Code(has_pairs if node.kind == "any"
                            else ast.UnaryOp(ast.Not(), has_pairs))
            # zip(cards[-k:], cards[-k+1:]) written with len() so that k == 1 gives no pairs
            size = call("len", run.cards)
            start = ast.BinOp(size, ast.Sub(), as_expr(run.count))
            lows = ast.Subscript(run.cards, ast.Slice(lower=start), ast.Load())
            highs = ast.Subscript(run.cards, ast.Slice(
                lower=ast.BinOp(start, ast.Add(), constant(1))), ast.Load())
            target = ast.Tuple([ast.Name(below_name, ast.Store()),
                                ast.Name(above_name, ast.Store())], ast.Store())
            iterable = call("zip", lows, highs)
        else:
            assert isinstance(node.domain, Name)
            group = node.domain.id
            indices = self.layout.groups[group]
            if self._may_unroll(indices, node.body):  # short-circuits, no generator overhead
                piles = name(self.layout.piles_name)
                values = [self.value(node.body, {**bindings, node.names[0]: Pile(
                    subscript(piles, index), constant(index), group)}) for index in indices]
                combined = BoolOp(node.span, "and" if node.kind == "all" else "or",
                                  tuple(Boolean(node.span, True) for _ in values))
                return self._combine(combined.op == "and", values)
            pile_name = self.fresh("pile")
            index_name = self.fresh("i")
            inner = {**bindings, node.names[0]: Pile(name(pile_name), name(index_name), group)}
            body = self.expression(node.body, inner)
            if isinstance(body, ast.Constant):
                return Const(bool(body.value) if len(indices) else node.kind == "all")
            target = ast.Tuple([ast.Name(index_name, ast.Store()),
                                ast.Name(pile_name, ast.Store())], ast.Store())
            group_piles = ast.Subscript(name(self.layout.piles_name),
                                        ast.Slice(constant(indices.start),
                                                  constant(indices.stop)), ast.Load())
            iterable = call("enumerate", group_piles, constant(indices.start))
        generator = ast.GeneratorExp(body, [ast.comprehension(target, iterable, [], 0)])
        return Code(call(builtin, generator))

    def _may_unroll(self, indices: range, body: Node) -> bool:
        """Whether to write a quantifier over these piles as one test per pile: for a small
        group, while the code it adds stays within the budget (nested quantifiers would
        multiply it)."""
        extra = (len(indices) - 1) * sum(1 for _ in walk(body))
        if len(indices) > 16 or extra > self._unroll_budget:
            return False
        self._unroll_budget -= extra
        return True

    def visit_Count(self, node: Count, bindings: Mapping[str, Value]) -> Value:
        indices = self.layout.groups[node.group]
        piles = name(self.layout.piles_name)
        if self._may_unroll(indices, node.body):  # unrolled: a sum of tests, each 0 or 1
            values = [self.value(node.body, {**bindings, node.name: Pile(
                subscript(piles, index), constant(index), node.group)}) for index in indices]
            total = sum(int(bool(v.value)) for v in values if isinstance(v, Const))
            parts = [ast.IfExp(self.to_expr(v), constant(1), constant(0))
                     for v in values if not isinstance(v, Const)]
            if not parts:
                return Const(total)
            expr: ast.expr = constant(total) if total else parts.pop(0)
            for part in parts:
                expr = ast.BinOp(expr, ast.Add(), part)
            return Code(expr)
        pile_name, index_name = self.fresh("pile"), self.fresh("i")
        body = self.expression(node.body, {**bindings, node.name: Pile(
            name(pile_name), name(index_name), node.group)})
        target = ast.Tuple([ast.Name(index_name, ast.Store()), ast.Name(pile_name, ast.Store())],
                           ast.Store())
        group_piles = ast.Subscript(piles, ast.Slice(constant(indices.start),
                                                     constant(indices.stop)), ast.Load())
        iterable = call("enumerate", group_piles, constant(indices.start))
        generator = ast.GeneratorExp(constant(1), [ast.comprehension(target, iterable, [body], 0)])
        return Code(call("sum", generator))

    # -- tabulation of card-only predicates --

    def _is_tabulable(self, predicate: Predicate) -> bool:
        key = predicate.signature.name
        if key not in self._tabulable:
            self._tabulable[key] = False  # guards recursion; the checker forbids cycles
            ok = all(p.type is Type.CARD for p in predicate.signature.parameters)
            parameters = {p.name for p in predicate.signature.parameters}
            for sub in walk(predicate.body):
                if isinstance(sub, (Member, Quantifier, Count)) and not (
                        isinstance(sub, Quantifier) and isinstance(sub.domain, Pairs)):
                    ok = False
                if isinstance(sub, Name) and sub.id == "stock" and "stock" not in parameters:
                    ok = False  # it reads the stock: not a function of its cards alone
                if isinstance(sub, Call) and not self._is_tabulable(
                        self.predicates[sub.function]):
                    ok = False
            self._tabulable[key] = ok
        return self._tabulable[key]

    def evaluate_on(self, predicate: Predicate, cards: list[int]) -> bool:
        """The predicate's value for these cards (remembered: a table of a predicate that
        calls others asks for theirs once per pair, not once per call)."""
        key = (predicate.signature.name, tuple(cards))
        if key not in self._evaluated:
            inner = {p.name: Const(card)
                     for p, card in zip(predicate.signature.parameters, cards)}
            result = self.value(predicate.body, inner)
            assert isinstance(result, Const)
            self._evaluated[key] = bool(result.value)
        return self._evaluated[key]

    def table(self, predicate: Predicate) -> tuple[Any, ...]:
        """The predicate's value for every card (or pair of cards), remembered across
        compiles by what decides it: a variant's mutants, its child files and its fresh
        loads share the tables of the predicates they leave alone."""
        key = self._table_key(predicate)
        with _TABLES_LOCK:
            table = _TABLES.get(key)
        if table is None:
            table = self._make_table(predicate)
            with _TABLES_LOCK:  # variants may compile in several threads (the web server)
                if len(_TABLES) >= MAX_REMEMBERED_TABLES:
                    del _TABLES[next(iter(_TABLES))]  # the oldest
                _TABLES[key] = table
        return table

    def _table_key(self, predicate: Predicate) -> Hashable:
        """Everything a table's values depend on: the predicate and every predicate it
        calls (signature and body, as nodes), the constants, the cards, face-down cards."""
        called: dict[str, tuple[Any, Node]] = {}
        waiting = [predicate]
        while waiting:
            current = waiting.pop()
            if current.signature.name in called:
                continue
            called[current.signature.name] = (current.signature, current.body)
            waiting.extend(self.predicates[sub.function] for sub in walk(current.body)
                           if isinstance(sub, Call))
        return (predicate.signature.name, tuple(sorted(called.items())),
                tuple(sorted(self.constants.items())), tuple(self.cards), self.face_down)

    def _make_table(self, predicate: Predicate) -> tuple[Any, ...]:
        size = max(self.cards) + 1
        parameters = [parameter.name for parameter in predicate.signature.parameters]
        function = self.card_function(predicate.body, parameters)
        if function is None:  # reads more than its cards: the checker rules this out
            def function(*cards: int) -> bool:
                return self.evaluate_on(predicate, list(cards))
        cards = frozenset(self.cards)
        if len(parameters) == 1:
            return tuple(c in cards and bool(function(c)) for c in range(size))
        return tuple(tuple(a in cards and b in cards and bool(function(a, b))
                           for b in range(size))
                     for a in range(size))

    def card_function(self, node: Node, cards: Sequence[str],
                      bindings: Mapping[str, Value] | None = None) -> Callable[..., Any] | None:
        """``node`` as a Python function of the cards named ``cards`` (its arguments, in
        that order), or None when it reads anything else (a pile, a run): what the variant
        loads with a value for every card or pair of cards (a predicate's table, the
        solver's runs) is computed by calling the compiled code, not by walking the rule
        once per card. Its value for any cards is the one this compiler folds the node to
        with those cards as constants. The tables of the card predicates it calls are made
        for it alone: the variant's code never sees them unless it reads them itself."""
        own = copy.copy(self)  # its own tables and local names; the same folding
        own.tables = Tables()
        own._fresh = itertools.count()
        arguments = [f"_card{i}" for i in range(len(cards))]
        expr = own.expression(node, {**(bindings or {}), **{
            card: Code(name(argument)) for card, argument in zip(cards, arguments)}})
        read = {sub.id for sub in ast.walk(expr) if isinstance(sub, ast.Name)}
        if not read <= {*arguments, *own.tables.values}:
            return None
        # compiled from text, like the generated rules (patience.generator says why)
        text = (f"def card_function({', '.join(arguments)}):\n"
                f"    return {ast.unparse(expr)}\n")
        module = compile(text, "<patience card function>", "exec")
        code = next(c for c in module.co_consts if isinstance(c, types.CodeType))
        return types.FunctionType(code, {"__builtins__": {}, **own.tables.values})


def inline_calls(node: Node, predicates: Mapping[str, Predicate],
                 keep: Callable[[Predicate], bool]) -> Node:
    """``node`` with every call of a named predicate replaced by the predicate's body.

    Calls for which ``keep(predicate)`` is true stay (they compile to table lookups).
    Quantifier names inside an inlined body get fresh names that no user can write, so an
    argument expression can never be captured by them. An argument is one node object
    wherever its parameter appears (the result shares it), so the work and the memory are
    those of the tree written out once, which the loader bounds (:class:`InlinedShapes`,
    ``MAX_INLINED_NODES``) before anything is compiled.
    """
    return _Inlining(predicates, keep).visit(node, {})


# node classes that bind no name and call no predicate: walkers that care about names,
# bindings or calls walk through them by their parts
_STRUCTURAL = frozenset({"Integer", "Boolean", "Attribute", "Not", "Negate", "Arithmetic",
                         "Compare", "BoolOp", "Member", "Pairs", "Neighbour"})


class _Inlining(Visitor[Node]):
    """:func:`inline_calls`: ``visit(node, renaming)`` is ``node`` with its calls written
    out and its free names replaced as ``renaming`` says."""

    generic = _STRUCTURAL

    def __init__(self, predicates: Mapping[str, Predicate],
                 keep: Callable[[Predicate], bool]) -> None:
        self.predicates = predicates
        self.keep = keep
        self.counter = itertools.count()

    def generic_visit(self, node: Node, *args: Any) -> Node:
        renaming, = args
        return map_children(node, lambda child: self.visit(child, renaming))

    def visit_Name(self, node: Name, renaming: Mapping[str, Node]) -> Node:
        return renaming.get(node.id, node)

    def visit_Call(self, node: Call, renaming: Mapping[str, Node]) -> Node:
        args = tuple(self.visit(arg, renaming) for arg in node.args)
        predicate = self.predicates[node.function]
        if self.keep(predicate):
            return attrs.evolve(node, args=args)
        inner = {p.name: arg for p, arg in zip(predicate.signature.parameters, args)}
        return self.visit(predicate.body, inner)

    def visit_Quantifier(self, node: Quantifier, renaming: Mapping[str, Node]) -> Node:
        fresh = {n: Name(node.span, f"{n}#{next(self.counter)}") for n in node.names}
        inner = {**renaming, **fresh}
        return attrs.evolve(node, names=tuple(f.id for f in fresh.values()),
                            domain=(self.visit(node.domain, renaming)
                                    if isinstance(node.domain, Pairs) else node.domain),
                            body=self.visit(node.body, inner))

    def visit_Count(self, node: Count, renaming: Mapping[str, Node]) -> Node:
        fresh_name = f"{node.name}#{next(self.counter)}"
        inner = {**renaming, node.name: Name(node.span, fresh_name)}
        return attrs.evolve(node, name=fresh_name, body=self.visit(node.body, inner))


@attrs.frozen
class Shape:
    """How large an expression is once its predicate calls are written out (inlined)."""

    nodes: int  # nodes of the tree (an argument the predicate does not read counts once)
    depth: int  # levels of the tree, each predicate call counting one more level
    quantifiers: int = 0  # how deeply quantifiers nest in it

    def fits(self) -> bool:
        return (self.nodes <= MAX_INLINED_NODES and self.depth <= MAX_INLINED_DEPTH
                and self.quantifiers <= MAX_QUANTIFIER_NESTING)


@attrs.frozen
class _Levels:
    """A depth as a function of the arguments' depths: ``max(base, offset[p] + depth(p))``."""

    base: int
    offset: Mapping[str, int]

    def below(self, step: int) -> _Levels:
        """These levels one node further down (``step`` is 1, or 0 when the node that
        holds them does not count)."""
        return _Levels(min(_DEPTH_CAP, self.base + step),
                       {p: min(_DEPTH_CAP, d + step) for p, d in self.offset.items()})

    def value(self, argument: int) -> int:
        """The depth when each argument is ``argument`` deep."""
        return max([self.base, *(d + argument for d in self.offset.values())])


def _highest(parts: Sequence[_Levels]) -> _Levels:
    offset: dict[str, int] = {}
    for part in parts:
        for p, d in part.offset.items():
            offset[p] = max(offset.get(p, 0), d)
    return _Levels(max([0, *(part.base for part in parts)]), offset)


def _substitute(levels: _Levels, names: Sequence[str], args: Sequence[_Levels]) -> _Levels:
    """``levels`` of a predicate body with its parameters replaced by these arguments."""
    base = levels.base
    offset: dict[str, int] = {}
    for name_, arg in zip(names, args):
        at = levels.offset.get(name_, 0)  # an unread argument counts at the call
        base = max(base, at + arg.base)
        for p, d in arg.offset.items():
            offset[p] = max(offset.get(p, 0), at + d)
    return _Levels(base, offset)


@attrs.frozen
class _Form:
    """A predicate body's shape as a function of its arguments' shapes: nodes are
    ``const + sum(per[p] * nodes(p))``; depth and quantifier nesting are :class:`_Levels`.
    Numbers saturate just past the limits, so that nothing ever grows large."""

    const: int
    per: Mapping[str, int]
    depth: _Levels
    nesting: _Levels


_NODES_CAP = MAX_INLINED_NODES + 1
_DEPTH_CAP = MAX_INLINED_DEPTH + 1


class InlinedShapes(Visitor[_Form]):
    """The :class:`Shape` of expressions after :func:`inline_calls`, measured without
    building them: each predicate's body is measured once, as a function of its arguments,
    so the cost is linear in the text even where the inlined tree would be exponential.

    Calls of unknown predicates, and of those in ``skip`` (broken or recursive ones, which
    the loader reports), count as single nodes.
    """

    # no names bound, no predicate called: the node and its parts
    generic = _STRUCTURAL

    def __init__(self, predicates: Mapping[str, Predicate],
                 skip: frozenset[str] = frozenset()) -> None:
        self.predicates = predicates
        self.skip = skip
        self.forms: dict[str, _Form] = {}
        for pname in self._callees_first():
            predicate = predicates[pname]
            self.forms[pname] = self._form(
                predicate.body, frozenset(p.name for p in predicate.signature.parameters))

    def _callees_first(self) -> list[str]:
        """The predicates in an order where each comes after those it calls (iterative)."""
        order: list[str] = []
        state: dict[str, int] = {}  # 1: being visited, 2: done
        for root in self.predicates:
            if root in self.skip or root in state:
                continue
            stack = [(root, iter(self._calls(root)))]
            state[root] = 1
            while stack:
                current, pending = stack[-1]
                callee = next(pending, None)
                if callee is None:
                    stack.pop()
                    state[current] = 2
                    order.append(current)
                elif callee not in state:
                    state[callee] = 1
                    stack.append((callee, iter(self._calls(callee))))
        return order

    def _calls(self, name: str) -> list[str]:
        return [sub.function for sub in walk(self.predicates[name].body)
                if isinstance(sub, Call) and sub.function in self.predicates
                and sub.function not in self.skip]

    def of(self, node: Node) -> Shape:
        """The shape of a rule (its free names are single nodes)."""
        form = self._form(node, frozenset())
        return Shape(form.const, form.depth.base, form.nesting.base)

    def of_predicate(self, name: str) -> Shape:
        """The shape of a predicate's body, each parameter a single name."""
        form = self.forms[name]
        return Shape(min(_NODES_CAP, form.const + sum(form.per.values())),
                     form.depth.value(1), form.nesting.value(0))

    def calls(self, node: Node) -> list[tuple[Call, Shape]]:
        """Each call written in ``node`` with the shape it inlines to, largest first."""
        found = [(sub, self.of(sub)) for sub in walk(node)
                 if isinstance(sub, Call) and sub.function in self.forms]
        return sorted(found, key=lambda pair: (-pair[1].nodes, -pair[1].depth,
                                               -pair[1].quantifiers))

    def _form(self, node: Node, parameters: frozenset[str]) -> _Form:
        """The form of ``node`` whose free ``parameters`` are the predicate's arguments."""
        return self.visit(node, parameters)

    def visit_Name(self, node: Name, parameters: frozenset[str]) -> _Form:
        if node.id in parameters:
            return _Form(0, {node.id: 1}, _Levels(0, {node.id: 0}), _Levels(0, {node.id: 0}))
        return self.generic_visit(node, parameters)

    def visit_Call(self, node: Call, parameters: frozenset[str]) -> _Form:
        if node.function not in self.forms:
            return self.generic_visit(node, parameters)
        args = [self._form(arg, parameters) for arg in node.args]
        callee = self.forms[node.function]
        names = [p.name for p in self.predicates[node.function].signature.parameters]
        const = callee.const
        per: dict[str, int] = {}
        for name_, arg in zip(names, args):
            times = max(1, callee.per.get(name_, 0))  # an unread argument counts once
            const = min(_NODES_CAP, const + times * arg.const)
            for p, count in arg.per.items():
                per[p] = min(_NODES_CAP, per.get(p, 0) + times * count)
        depth = _substitute(callee.depth, names, [arg.depth for arg in args])
        nesting = _substitute(callee.nesting, names, [arg.nesting for arg in args])
        return _Form(const, per, depth.below(1), nesting.below(0))

    def visit_Quantifier(self, node: Quantifier, parameters: frozenset[str]) -> _Form:
        inner = parameters - set(node.names)  # the quantifier's names hide parameters
        return self._made_of([self._form(node.body, inner), self._form(node.domain, parameters)],
                             nests=True)

    def visit_Count(self, node: Count, parameters: frozenset[str]) -> _Form:
        return self._made_of([self._form(node.body, parameters - {node.name})], nests=True)

    def generic_visit(self, node: Node, *args: Any) -> _Form:
        parameters, = args
        return self._made_of([self._form(child, parameters) for child in children(node)],
                             nests=False)

    @staticmethod
    def _made_of(parts: list[_Form], nests: bool) -> _Form:
        """The form of a node over these parts (``nests``: a quantifier or a count)."""
        const = 1
        per: dict[str, int] = {}
        for part in parts:
            const = min(_NODES_CAP, const + part.const)
            for p, count in part.per.items():
                per[p] = min(_NODES_CAP, per.get(p, 0) + count)
        return _Form(const, per, _highest([part.depth for part in parts]).below(1),
                     _highest([part.nesting for part in parts]).below(1 if nests else 0))


def map_children(node: Node, function: Callable[[Node], Node]) -> Node:
    """``node`` with ``function`` applied to each direct sub-expression."""
    changes: dict[str, Any] = {}
    for field in attrs.fields(type(node)):
        item = getattr(node, field.name)
        if isinstance(item, Node):
            changes[field.name] = function(item)
        elif isinstance(item, tuple) and item and isinstance(item[0], Node):
            changes[field.name] = tuple(function(x) for x in item)
    return attrs.evolve(node, **changes) if changes else node


def rename(node: Node, renaming: Mapping[str, str]) -> Node:
    """``node`` with free variables renamed (names bound by a quantifier inside stay)."""
    return _Renaming().visit(node, renaming)


class _Renaming(Visitor[Node]):
    """:func:`rename`: the names and the nodes that bind names; the rest by their parts."""

    generic = _STRUCTURAL | {"Call"}

    def generic_visit(self, node: Node, *args: Any) -> Node:
        renaming, = args
        return map_children(node, lambda child: self.visit(child, renaming))

    def visit_Name(self, node: Name, renaming: Mapping[str, str]) -> Node:
        return attrs.evolve(node, id=renaming[node.id]) if node.id in renaming else node

    def visit_Quantifier(self, node: Quantifier, renaming: Mapping[str, str]) -> Node:
        inner = {k: v for k, v in renaming.items() if k not in node.names}
        domain = self.visit(node.domain, renaming) if isinstance(node.domain, Pairs) \
            else node.domain
        return attrs.evolve(node, domain=domain, body=self.visit(node.body, inner))

    def visit_Count(self, node: Count, renaming: Mapping[str, str]) -> Node:
        inner = {k: v for k, v in renaming.items() if k != node.name}
        return attrs.evolve(node, body=self.visit(node.body, inner))


def conjuncts(node: Node) -> list[Node]:
    """The parts of a top-level 'and' (the node itself when it is not one)."""
    if isinstance(node, BoolOp) and node.op == "and":
        return [part for value in node.values for part in conjuncts(value)]
    return [node]
