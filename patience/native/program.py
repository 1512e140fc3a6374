"""Lower a compiled :class:`~patience.variant.Variant` into the native core's rule program.

The rule program is plain data (JSON text) that the core reads once per variant: the pile
groups, the deal and the redeal, the key facts of :class:`~patience.solver.rules.SolverRules`,
the tables of card-only predicates, and every rule as an expression tree whose names are
already resolved to slots. It serialises the variant's rule plan (``patience.plan``), the
same plan the generated Python code is printed from: the same inlined rules and tables, the
same source plans (run scans, a fixed run size, the rest) and pairings (a fixed size, the
conjuncts tested once per run and those tested per receiving pile). Constants are folded
here, so ``source in columns`` and ``wrap and …`` with ``wrap: false`` never reach the
core.

An expression is a JSON list whose first item names the node (see ``native/src/program.rs``
for the evaluator):

* ``["int", v]``; ``["attr", name, card]`` (``rank suit color face_up``);
* piles: ``["src"]`` (the source ``s``), ``["tgt"]`` (the target ``t``), ``["var", slot]``
  (bound by a quantifier), ``["pile", index]``, ``["stock"]``, ``["chosen", j]`` (a
  discard's j-th chosen pile: ``first`` is 0); cards: ``["top", pile]``,
  ``["bottom", pile]``, ``["run_top"]``, ``["run_bottom"]``, ``["card", slot]``;
  ``["empty", pile]``, ``["size", pile]``, ``["run_size"]``;
* ``["arith", op, a, b]`` (Python's floor ``//`` and ``%``), ``["neg", a]``, ``["not", a]``,
  ``["cmp", op, a, b]``, ``["and", [..]]``, ``["or", [..]]`` (short-circuit, in order);
* ``["member", pile, start, stop]``, ``["same", pile, pile]``;
* ``["all" | "any" | "count", slot, start, stop, body]`` over a group's piles;
* ``["pairs_all" | "pairs_any", run, below, above, body]`` with ``run`` ``["run"]`` or a pile;
* ``["table", id, card]`` and ``["table", id, card, card]``;
* places (``patience.places``): ``["near", map, pile]`` a pile's neighbour (``pile`` the
  source, the target or a bound pile; the map ``places.maps[map]`` gives each pile number
  its neighbour's, -1 for none, which reads as an empty pile of no group), and
  ``["place", map, pile]`` its index, row or column (0 for no pile).

``"safe"`` is ``solver.safe`` over a move (``src`` its source, ``tgt`` its target, the run
its ``k`` cards), ``null`` when no move is declared safe; the search plays the first safe
move in sorted order alone (``patience.solver.search.first_safe``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from patience.cards import FACE_DOWN, RED_SUITS
from patience.compiler import Compiler
from patience.language import (
    DISCARD_PILES,
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
    Visitor,
    compare,
    fold_arithmetic,
)
from patience.limits import MAX_FORCED_MOVES
from patience.moves import BLANK
from patience.native import wire
from patience.native.wire import Expr
from patience.places import NO_PILE, PLACE_ATTRIBUTES, compose
from patience.plan import DiscardPlan, RulePlan, SourcePlan
from patience.solver.constants import SEARCH
from patience.solver.rules import SolverRules, solver_rules
from patience.variant import Variant

#: slots for piles and cards bound by quantifiers (the loader bounds their nesting)
SLOTS = 4
#: the card read from an empty pile (``NO_CARD`` in native/src/program.rs)
NO_CARD = 255



class _Const:
    """A value known when the program is made (int or bool)."""

    __slots__ = ("value",)

    def __init__(self, value: int | bool) -> None:
        self.value = value


class _PileValue:
    """A pile: its expression and its group when known (``None``: any pile)."""

    __slots__ = ("expr", "group", "index")

    def __init__(self, expr: Expr, group: str | None, index: int | None = None) -> None:
        self.expr = expr
        self.group = group
        self.index = index  # a constant pile index (NO_PILE: no pile), where known


#: a neighbour past the edge, known when the program is made: no pile
_NOWHERE = _PileValue([], None, NO_PILE)


class _RunValue:
    __slots__ = ()


_RUN = _RunValue()
Value = _Const | _PileValue | _RunValue | list[Any]  # an expression (list) for scalars


def _expr(value: Value) -> Expr:
    if isinstance(value, _Const):
        return ["int", int(value.value)]
    assert isinstance(value, list), value
    return value


class _Lowering(Visitor[Value]):
    """Lowers inlined rule trees of one variant, folding what is known."""

    generic = frozenset({"Pairs"})  # only a quantifier's domain: lowered there

    def __init__(self, variant: Variant, compiler: Compiler,
                 groups: Mapping[str, range]) -> None:
        self.variant = variant
        self.compiler = compiler
        self.groups = groups
        self.tables: list[wire.Table] = []
        self._table_ids: dict[str, int] = {}
        self.maps: list[tuple[int, ...]] = []  # wire.Places.maps
        self._map_ids: dict[tuple[int, ...], int] = {}

    # -- entry points --

    def lower(self, node: Node, bindings: Mapping[str, Any], depth: int = 0) -> Value:
        """``node`` lowered (dispatched by node class: ``visit_<Class>``)."""
        return self.visit(node, bindings, depth)

    def scalar(self, node: Node, bindings: Mapping[str, Any]) -> Expr | bool:
        """The expression of a boolean rule, or the bool it folds to."""
        value = self.lower(node, bindings)
        if isinstance(value, _Const):
            return bool(value.value)
        return _expr(value)

    def conjunction(self, nodes: Sequence[Node], bindings: Mapping[str, Any]) -> Expr | bool:
        parts = []
        for node in nodes:
            value = self.scalar(node, bindings)
            if value is False:
                return False
            if value is not True:
                parts.append(value)
        if not parts:
            return True
        return parts[0] if len(parts) == 1 else ["and", parts]

    # -- nodes --

    def visit_Integer(self, node: Integer, bindings: Mapping[str, Any], depth: int) -> Value:
        return _Const(node.value)

    def visit_Boolean(self, node: Boolean, bindings: Mapping[str, Any], depth: int) -> Value:
        return _Const(node.value)

    def visit_Name(self, node: Name, bindings: Mapping[str, Any], depth: int) -> Value:
        if node.id in bindings:
            value: Value = bindings[node.id]
            return value
        if node.id in self.compiler.constants:
            return _Const(self.compiler.constants[node.id])
        if node.id == "stock":
            return _PileValue(["stock"], "stock#")
        raise KeyError(node.id)  # the checker rules this out

    def _map(self, values: tuple[int, ...]) -> int:
        if values not in self._map_ids:
            self._map_ids[values] = len(self.maps)
            self.maps.append(values)
        return self._map_ids[values]

    def visit_Neighbour(self, node: Neighbour, bindings: Mapping[str, Any], depth: int) -> Value:
        base = self.lower(node.pile, bindings, depth)
        distance = self.lower(node.distance, bindings, depth)
        assert isinstance(base, _PileValue) and isinstance(distance, _Const)
        return self._near(base, self.variant.pile_maps.neighbours(node.direction,
                                                                  int(distance.value)))

    def _near(self, base: _PileValue, near: tuple[int, ...]) -> _PileValue:
        """The pile the map ``near`` gives ``base``: known for a known pile, else read by
        ``["near", map, pile]`` (a neighbour of a neighbour: one composed map)."""
        if base.index is not None:
            index = NO_PILE if base.index == NO_PILE else near[base.index]
            if index == NO_PILE:
                return _NOWHERE
            return _PileValue(["pile", index], self.variant.group_of_pile[index].name, index)
        if base.expr[0] == "near":
            return _PileValue(["near", self._map(compose(self.maps[base.expr[1]], near)),
                               base.expr[2]], None)
        return _PileValue(["near", self._map(near), base.expr], None)

    def _covered(self, pile: _PileValue) -> Value:
        """``pile.covered``: one of its covering piles (each a map read like a neighbour)
        holds a card."""
        parts: list[Expr] = []
        for near in self.variant.pile_maps.covering_maps:
            cover = self._near(pile, near)
            if cover is not _NOWHERE:
                parts.append(["not", ["empty", cover.expr]])
        if not parts:
            return _Const(False)
        return parts[0] if len(parts) == 1 else ["or", parts]

    def visit_Attribute(self, node: Attribute, bindings: Mapping[str, Any], depth: int) -> Value:
        owner = self.lower(node.value, bindings, depth)
        if owner is _NOWHERE and node.name != "covered":
            return _Const({"empty": True, "size": 0, "top": NO_CARD, "bottom": NO_CARD,
                           **{name: 0 for name in PLACE_ATTRIBUTES}}[node.name])
        if owner is _NOWHERE and node.name == "covered":
            return _Const(False)
        if isinstance(owner, _PileValue) and node.name == "covered":
            return self._covered(owner)
        if isinstance(owner, _PileValue) and node.name in PLACE_ATTRIBUTES:
            values = self.variant.pile_maps.place(node.name)
            if owner.index is not None:
                return _Const(values[owner.index])
            return ["place", self._map(values), owner.expr]
        if isinstance(owner, _PileValue):
            if node.name in ("empty", "size", "top", "bottom"):
                return [node.name, owner.expr]
            raise KeyError(node.name)
        if isinstance(owner, _RunValue):
            return {"size": ["run_size"], "top": ["run_top"],
                    "bottom": ["run_bottom"]}[node.name]
        if isinstance(owner, _Const):
            card = int(owner.value)
            suit = card & 3
            return _Const({"rank": (card >> 2) & 15, "suit": suit,
                           "color": ((suit + 1) >> 1) & 1, "face_up": card < 64}[node.name])
        return ["attr", node.name, owner]

    def visit_Negate(self, node: Negate, bindings: Mapping[str, Any], depth: int) -> Value:
        operand = self.lower(node.operand, bindings, depth)
        if isinstance(operand, _Const):
            return _Const(-operand.value)
        return ["neg", _expr(operand)]

    def visit_Not(self, node: Not, bindings: Mapping[str, Any], depth: int) -> Value:
        operand = self.lower(node.operand, bindings, depth)
        if isinstance(operand, _Const):
            return _Const(not operand.value)
        return ["not", _expr(operand)]

    def visit_Arithmetic(self, node: Arithmetic, bindings: Mapping[str, Any], depth: int) -> Value:
        left = self.lower(node.left, bindings, depth)
        right = self.lower(node.right, bindings, depth)
        if isinstance(left, _Const) and isinstance(right, _Const):
            value = fold_arithmetic(node.op, int(left.value), int(right.value))
            if value is not None:
                return _Const(value)
        if node.op == "**" and isinstance(right, _Const) and right.value < 0:
            return _Const(0)
        return ["arith", node.op, _expr(left), _expr(right)]

    def visit_Compare(self, node: Compare, bindings: Mapping[str, Any], depth: int) -> Value:
        left = self.lower(node.left, bindings, depth)
        right = self.lower(node.right, bindings, depth)
        if isinstance(left, _PileValue) and isinstance(right, _PileValue):
            same = node.op == "=="
            if _NOWHERE in (left, right):  # no pile is only itself
                other = right if left is _NOWHERE else left
                if other.index is not None:
                    return _Const((other.index == NO_PILE) == same)
                nowhere: Expr = ["not", ["member", other.expr, 0, len(self.variant.pile_names)]]
                return nowhere if same else ["not", nowhere]
            if left.group is not None and right.group is not None and left.group != right.group:
                return _Const(not same)
            if left.index is not None and right.index is not None:
                return _Const((left.index == right.index) == same)
            test: Expr = ["same", left.expr, right.expr]
            return test if same else ["not", test]
        if isinstance(left, _Const) and isinstance(right, _Const):
            return _Const(compare(node.op, left.value, right.value))
        return ["cmp", node.op, _expr(left), _expr(right)]

    def visit_BoolOp(self, node: BoolOp, bindings: Mapping[str, Any], depth: int) -> Value:
        is_and = node.op == "and"
        parts = []
        for child in node.values:
            value = self.lower(child, bindings, depth)
            if isinstance(value, _Const):
                if bool(value.value) == is_and:
                    continue
                return _Const(not is_and)
            parts.append(_expr(value))
        if not parts:
            return _Const(is_and)
        if len(parts) == 1:
            return parts[0]
        return [node.op, parts]

    def visit_Member(self, node: Member, bindings: Mapping[str, Any], depth: int) -> Value:
        pile = self.lower(node.value, bindings, depth)
        assert isinstance(pile, _PileValue)
        if pile is _NOWHERE:
            return _Const(node.negated)
        if pile.group is not None:
            return _Const((pile.group == node.group) != node.negated)
        indices = self.groups[node.group]
        test: Expr = ["member", pile.expr, indices.start, indices.stop]
        return ["not", test] if node.negated else test

    def visit_Call(self, node: Call, bindings: Mapping[str, Any], depth: int) -> Value:
        # only the calls inline_calls kept reach here: card-only predicates, as tables
        predicate = self.compiler.predicates[node.function]
        args = [self.lower(arg, bindings, depth) for arg in node.args]
        if all(isinstance(arg, _Const) for arg in args):
            return _Const(self.compiler.evaluate_on(
                predicate, [int(arg.value) for arg in args]))  # type: ignore[union-attr]
        return ["table", self._table(predicate), *(_expr(arg) for arg in args)]

    def _table(self, predicate: Predicate) -> int:
        name = predicate.signature.name
        if name not in self._table_ids:
            # the plan's compiler made it for the generated code (and remembers it)
            values = self.compiler.table(predicate)
            if len(predicate.signature.parameters) == 1:
                flat = [bool(v) for v in values]
                shape = [len(values)]
            else:
                flat = [bool(v) for row in values for v in row]
                shape = [len(values), len(values[0]) if values else 0]
            self._table_ids[name] = len(self.tables)
            self.tables.append(wire.Table(name, tuple(shape),
                                          "".join("1" if v else "0" for v in flat)))
        return self._table_ids[name]

    def visit_Quantifier(self, node: Quantifier, bindings: Mapping[str, Any], depth: int) -> Value:
        if depth >= SLOTS:
            raise ValueError("quantifiers nest too deeply for the native core")
        is_all = node.kind == "all"
        if isinstance(node.domain, Pairs):
            run = self.lower(node.domain.run, bindings, depth)
            if run is _NOWHERE:  # no pile, no pairs
                return _Const(is_all)
            run_expr: Expr = ["run"] if isinstance(run, _RunValue) else \
                run.expr  # type: ignore[union-attr]
            below, above = node.names
            inner = {**bindings, below: ["card", 2 * depth], above: ["card", 2 * depth + 1]}
            body = self.lower(node.body, inner, depth + 1)
            return ["pairs_all" if is_all else "pairs_any", run_expr, 2 * depth,
                    2 * depth + 1, _expr(body)]
        assert isinstance(node.domain, Name)
        indices = self.groups[node.domain.id]
        inner = {**bindings, node.names[0]: _PileValue(["var", depth], node.domain.id)}
        body = self.lower(node.body, inner, depth + 1)
        if isinstance(body, _Const):
            return _Const(bool(body.value) if len(indices) else is_all)
        return ["all" if is_all else "any", depth, indices.start, indices.stop, _expr(body)]

    def visit_Count(self, node: Count, bindings: Mapping[str, Any], depth: int) -> Value:
        if depth >= SLOTS:
            raise ValueError("quantifiers nest too deeply for the native core")
        indices = self.groups[node.group]
        inner = {**bindings, node.name: _PileValue(["var", depth], node.group)}
        body = self.lower(node.body, inner, depth + 1)
        if isinstance(body, _Const):
            return _Const(len(indices) if body.value else 0)
        return ["count", depth, indices.start, indices.stop, _expr(body)]


def _source_bindings(source: str) -> dict[str, Any]:
    return {"run": _RUN, "pile": _PileValue(["src"], source)}


def _pair_bindings(source: str, target: str) -> dict[str, Any]:
    source_pile = _PileValue(["src"], source)
    return {"run": _RUN, "pile": _PileValue(["tgt"], target), "source": source_pile}


def _source(lowering: _Lowering, plan: SourcePlan | None,
            numbers: Mapping[str, int]) -> wire.Source | None:
    """One source group's plan (``patience.plan.SourcePlan``) lowered, or None when the
    group gives no move at all."""
    if plan is None:
        return None
    source = plan.source
    names = _source_bindings(source.name)
    scan_parts = []
    for scan in plan.scans:
        # the scan's cards are slots 0 and 1: quantifiers inside it start one level down
        inner = {**names, scan.names[0]: ["card", 0], scan.names[1]: ["card", 1]}
        value = lowering.lower(scan.body, inner, 1)
        part = bool(value.value) if isinstance(value, _Const) else _expr(value)
        scan_parts.append(part)
    if any(part is False for part in scan_parts):
        scan_expr: Expr | bool = False
    else:
        real = [p for p in scan_parts if p is not True]
        scan_expr = True if not real else real[0] if len(real) == 1 else ["and", real]
    pairings = []
    for pairing in plan.pairings:
        target = pairing.target
        pair = _pair_bindings(source.name, target.name)
        pairings.append(wire.Pairing(
            target=numbers[target.name],
            k_outer=pairing.k_outer,
            first=target.first and len(target.indices) > 1,
            skip_self=target.name == source.name,
            fixed=None if pairing.fixed is None else _expr(lowering.lower(pairing.fixed, pair)),
            hoisted=lowering.conjunction(pairing.hoisted, pair),
            free=lowering.conjunction(pairing.run_free, pair),
            bound=lowering.conjunction(pairing.run_bound, pair),
        ))
    return wire.Source(
        floor=plan.floor,
        cap=plan.cap,
        scan=scan_expr if plan.scans else None,
        fixed=None if plan.fixed is None else _expr(lowering.lower(plan.fixed, names)),
        rest=lowering.conjunction(plan.rest, names),
        pairings=tuple(pairings),
    )


def _discard(lowering: _Lowering, discard: DiscardPlan) -> wire.Discard:
    """A discard (``patience.plan.DiscardPlan``) lowered: its rule over the chosen piles."""
    names = {label: _PileValue(["chosen", j], discard.group)
             for j, label in enumerate(DISCARD_PILES[:discard.cards])}
    return wire.Discard(discard.cards, discard.sources, discard.target, discard.start,
                        lowering.scalar(discard.when, names))


def _gather(lowering: _Lowering, plan: RulePlan) -> wire.Gather | None:
    """The gathering redeal, its ``keep`` and ``gaps`` rules over the pile ``["tgt"]``."""
    if plan.gather is None:
        return None
    names = {"pile": _PileValue(["tgt"], None)}
    keep, gaps = (None if rule is None else lowering.scalar(rule, names)
                  for rule in (plan.gather_keep, plan.gather_gaps))
    return wire.Gather(*plan.gather, keep=keep, gaps=gaps)


def _merci(lowering: _Lowering, plan: RulePlan,
           numbers: Mapping[str, int]) -> wire.Merci | None:
    """The draws of a buried card (``patience.plan.MerciPlan``), each group's plan as a
    source of one card lowered as any source's."""
    merci = plan.merci
    if merci is None:
        return None
    sources = []
    for source in merci.sources:
        lowered = _source(lowering, source, numbers)
        assert lowered is not None
        sources.append((numbers[source.source.name], lowered))
    return wire.Merci(tuple(sources), merci.counter, merci.limit)


def rule_program(variant: Variant) -> wire.Program:
    """The rule program of ``variant``: its rule plan lowered for the core."""
    plan = variant.tabulated_plan
    lowering = _Lowering(variant, plan.compiler, plan.compiler.layout.groups)
    numbers = {group.name: number for number, group in enumerate(variant.groups)}
    sources, forced_sources = [], []
    for chosen, forced in zip(plan.sources, plan.forced_sources):  # tables in this order
        sources.append(_source(lowering, chosen, numbers))
        forced_sources.append(_source(lowering, forced, numbers))
    win = lowering.scalar(plan.win, {})
    deal_when = lowering.scalar(plan.deal_when, {})
    # solver.safe, over a legal move (s, k, t) of any groups: None when nothing is safe
    safe = None if plan.safe is None else lowering.scalar(
        plan.safe,
        {"run": _RUN, "pile": _PileValue(["tgt"], None), "source": _PileValue(["src"], None)})
    fills = []
    for group in plan.fills:
        assert group.fill_from is not None
        from_stock = group.fill_from.start < 0
        fills.append(wire.Fill(group.indices.start, group.indices.stop, from_stock,
                               (0, 0) if from_stock else
                               (group.fill_from.start, group.fill_from.stop),
                               True if group.fill_when is None else
                               lowering.scalar(group.fill_when, {})))
    # lowered before the tables are read: a discard's rule may call a card-only predicate
    discards = tuple(_discard(lowering, d) for d in plan.discards)
    gather = _gather(lowering, plan)
    merci = _merci(lowering, plan, numbers)
    rules = solver_rules(variant)
    return wire.Program(
        version=wire.PROGRAM_VERSION,
        id=variant.id,
        piles=len(variant.pile_names),
        slots=variant.pile_slots,
        groups=tuple(wire.Group(g.name, g.indices.start, g.indices.stop, any(g.face_down))
                     for g in variant.groups),
        sources=tuple(sources),
        forced_sources=tuple(forced_sources),
        fills=tuple(fills),
        win=win,
        deal_when=deal_when,
        safe=None if safe is False else safe,
        deal_targets=variant.deal_targets,
        deal_skips_empty=variant.deal_skips_empty,
        deal_fills_empty=variant.deal_fills_empty,
        redeal=None if variant.redeal_pile is None else wire.Redeal(
            variant.redeal_pile, variant.redeal_counter, variant.redeals or 0),
        gather=gather,
        face_down_piles=variant.face_down_piles,
        tables=tuple(lowering.tables),
        key=wire.Key(
            card_table=tuple(rules.card_table),
            always_sorted=rules.always_sorted,
            sorted_when_stock_empty=rules.sorted_when_stock_empty,
            stock_by_cards=variant.redeal_pile is not None,
            top_piles=tuple(sorted(rules.top_piles.items())),
        ),
        ordering=wire.Ordering(
            first_target_piles=tuple(sorted(rules.first_target_piles)),
            parking_piles=tuple(sorted(rules.parking_piles)),
            dealt_piles=tuple(sorted(rules.dealt_piles)),
            after_deal=None if rules.after_deal is None else tuple(sorted(rules.after_deal)),
            pass_merge=rules.pass_merge,
        ),
        beam=wire.Beam(layers=rules.beam_layers,
                       sequences=tuple(sorted(rules.sequence_rows_of.items()))),
        guided=_guided(rules),
        # the search's constants, with the variant's own ordering scores where it has them
        # (a hint's search for a line without take-backs: SolverRules.scores)
        search=SEARCH if rules.scores is SEARCH.scores else attrs.evolve(SEARCH,
                                                                         scores=rules.scores),
        cards=wire.Cards(FACE_DOWN, 4, tuple(sorted(RED_SUITS)), BLANK),
        max_forced_moves=MAX_FORCED_MOVES,
        discards=discards,
        turning=wire.Turning(tuple(sorted(variant.bottom_piles)), variant.fill_last_piles),
        places=wire.Places(tuple(lowering.maps), tuple(
            (group.indices.start, group.indices.stop) for group in plan.closing),
            tuple((indices.start, indices.stop) for indices in plan.deal_closing)),
        stock_top=plan.stock_top,
        uncovering=variant.uncovering,
        merci=merci,
    )


def rule_program_text(variant: Variant) -> str:
    """The rule program of ``variant`` as the JSON text the core reads."""
    return wire.to_json(rule_program(variant))


def _guided(rules: SolverRules) -> wire.Guided | None:
    """The guided search's tables by pile, where it runs (``SolverRules.guided``)."""
    guided = rules.guided
    if guided is None:
        return None
    return wire.Guided(
        runs=tuple((index, rows) for start, stop, rows in guided.runs
                   for index in range(start, stop)),
        homes=tuple((index, empty, rows) for start, stop, empty, rows in guided.homes
                    for index in range(start, stop)),
        covered=tuple(sorted(guided.covered)), built=tuple(sorted(guided.built)),
        narrow=tuple(sorted(guided.narrow)), keyed_when_reached=guided.keyed_when_reached)
