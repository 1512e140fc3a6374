"""The rule plan: what both engines need of a variant's rules, analysed once.

A compiled :class:`~patience.variant.Variant` has its rules as checked expression trees.
Before anything runs them, they are analysed into one plan, kept on the variant
(``Variant.plan``), which both engines read and neither re-derives:

* the **inlined rules**: each group's ``moves`` and ``accepts``, ``win``,
  ``stock.deal_when`` and ``solver.safe``, with the predicates they call written out in
  place, except card-only predicates of one or two cards, which stay calls and become
  tables (:func:`inline_rules`);
* each source group's **source plan** (:class:`SourcePlan`): its ``moves`` rule split into
  run scans (``all a, b in pairs(run): …``, one scan down the pile instead of a test per
  run length), a fixed run size (``run.size == E``) and the rest; and one
  :class:`Pairing` per target group it can send cards to, the target's ``accepts`` rule
  split into a fixed run size, the conjuncts that do not read the receiving pile (tested
  once per run) and those that do (tested per pile). A pairing whose rule folds to false
  for this source (``source in columns``) is dropped, and so is a source whose own rule
  does;
* the **fills** (a group whose empty piles take a card at once) and the **redeal**.

The generator (``patience.generator``) prints Python from the plan; the native lowering
(``patience.native.program``) serialises it for the core. Constants are folded by the one
:class:`~patience.compiler.Compiler` the plan holds (its tables are the generated code's).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from patience.compiler import (
    Compiler,
    Const,
    Layout,
    Pile,
    Run,
    Tables,
    conjuncts,
    inline_calls,
    is_false,
    name,
)
from patience.language import (
    DISCARD_PILES,
    Attribute,
    BoolOp,
    Compare,
    Integer,
    Name,
    Node,
    Not,
    Pairs,
    Predicate,
    Quantifier,
    walk,
)
from patience.moves import Gather
from patience.settings import Lands, Removal, Target

if TYPE_CHECKING:
    from patience.definition import Rule
    from patience.variant import Variant

#: the source pile inside a source rule tested beside a target's rule, where ``pile`` is the
#: target: a name no rule can write
SOURCE_PILE = "pile#source"


def mentions(node: Node, identifier: str) -> bool:
    """Whether ``node`` reads the name ``identifier`` (``pile``, ``run``…)."""
    return any(isinstance(sub, Name) and sub.id == identifier for sub in walk(node))


def fixed_size(node: Node, free_of: tuple[str, ...]) -> Node | None:
    """E if ``node`` is ``run.size == E`` (either way round) with E free of those names."""
    if not isinstance(node, Compare) or node.op != "==":
        return None
    for size, other in ((node.left, node.right), (node.right, node.left)):
        if (isinstance(size, Attribute) and size.name == "size"
                and isinstance(size.value, Name) and size.value.id == "run"
                and not any(mentions(other, n) for n in free_of)):
            return other
    return None


def is_scan(node: Node) -> bool:
    """Whether ``node`` is ``all a, b in pairs(run): …`` with a body free of the run's
    length (it then holds for the top k cards exactly when k is at most the longest run)."""
    return (isinstance(node, Quantifier) and node.kind == "all"
            and isinstance(node.domain, Pairs) and isinstance(node.domain.run, Name)
            and node.domain.run.id == "run" and not mentions(node.body, "run"))


def bindings(source: str, target: str | None) -> dict[str, Any]:
    """The names a source rule (``target`` None) or a pairing's rules may read, as the
    generated code holds them: the run ``src[-k:]``, the pile ``piles[s]`` (the source) or
    ``piles[t]`` (the target, with the source as ``source``)."""
    run = Run(name("src"), name("k"))
    source_pile = Pile(name("src"), name("s"), source)
    if target is None:
        return {"run": run, "pile": source_pile}
    return {"run": run, "pile": Pile(name("tgt"), name("t"), target), "source": source_pile,
            SOURCE_PILE: source_pile}


@attrs.frozen
class Redeal:
    """A waste the deal turns back into an empty stock: its pile, and the hidden pile whose
    length counts the redeals made (None when they are unlimited) with their limit."""

    waste: int
    counter: int | None
    limit: int


@attrs.frozen
class GroupRules:
    """One pile group's rules, inlined, and what the plan needs of its layout."""

    name: str
    indices: range
    moves: Node  # inlined
    accepts: Node  # inlined
    first: bool  # a move to it lands on the first pile that accepts
    forced: bool  # its removal is forced (moves to it are made at once, not chosen)
    face_down: bool = False  # its piles may hold face-down cards (runs stop at them)
    fill_from: range | None = None  # piles whose top card fills an empty pile here at once
    moves_note: str = ""  # the rules as written, for comments in generated code
    accepts_note: str = ""
    close_gaps: bool = False  # its gaps close: the first forced steps (``RulePlan.closing``)
    #: a move's cards land under its piles' cards (``lands: bottom``)
    lands_bottom: bool = False
    #: an empty pile here takes, turned up, the next face-down card of the pile the last
    #: card went to (``fill_from: last``): the last forced step, after all the others
    fill_last: bool = False
    #: the fills are made only while it holds (``fill_when``, inlined; None: always)
    fill_when: Node | None = None


@attrs.frozen
class Pairing:
    """One source group sending runs to one target group, the target's rule split up."""

    target: GroupRules
    fixed: Node | None  # E of a 'run.size == E' conjunct of the target's accepts rule
    hoisted: tuple[Node, ...]  # conjuncts that do not read the receiving pile
    per_pile: tuple[Node, ...]  # conjuncts that do, in the rule's order

    @property
    def run_free(self) -> tuple[Node, ...]:
        """The per-pile conjuncts that do not read the run: tested once per pile."""
        return tuple(n for n in self.per_pile if not mentions(n, "run"))

    @property
    def run_bound(self) -> tuple[Node, ...]:
        return tuple(n for n in self.per_pile if mentions(n, "run"))

    @property
    def k_outer(self) -> bool:
        """Whether the run length is the outer loop (a fixed size, or a group taking the
        first pile that accepts: the search stops at that pile for each k)."""
        return self.fixed is not None or self.target.first


@attrs.frozen
class SourcePlan:
    """How one source group's piles give runs to a set of target groups."""

    source: GroupRules
    scans: tuple[Quantifier, ...]  # 'all a, b in pairs(run): …' conjuncts of moves
    fixed: Node | None  # E of a 'run.size == E' conjunct of moves
    rest: tuple[Node, ...]  # the other conjuncts of moves
    pairings: tuple[Pairing, ...]
    #: when every target takes runs of one constant size (sets of 13): shorter piles are
    #: skipped (floor) and the run scan stops at the largest size (cap)
    floor: int | None
    cap: int | None


@attrs.frozen
class MerciPlan:
    """The draws of a buried card (groups with ``merci``: docs/authoring.md, "Drawing a
    buried card"): while the hidden pile ``counter`` holds fewer than ``limit`` cards, the
    card just under the top card of a pile of a group of ``sources`` may be played alone.
    Each source plan is its group's, as a source of one card (``run.size == 1``, a covered
    pile giving none) whatever its ``moves`` rule, sending to every group of chosen moves
    whose ``accepts`` holds; both engines test it with the pile's top card lifted, so that
    ``run`` is the drawn card and ``source`` the pile under the lifted card."""

    sources: tuple[SourcePlan, ...]
    counter: int
    limit: int


def merci_plan(compiler: Compiler, variant: Variant, rules: Sequence[GroupRules],
               chosen: Sequence[GroupRules]) -> MerciPlan | None:
    """The plan of the variant's draws of a buried card; None when it has none."""
    merci = variant.merci
    if merci is None:
        return None
    sources = []
    for group, written in zip(rules, variant.groups):
        if not written.merci:
            continue
        span = written.moves.node.span
        one = Compare(span, "==", Attribute(span, Name(span, "run"), "size"),
                      Integer(span, 1))
        drawn = attrs.evolve(group, moves=uncovered_only(one, written.arrangement.overlap),
                             face_down=False,
                             moves_note=f"piles.{group.name}.merci: the card under the top "
                                        "card, drawn out alone")
        # (the group itself as a target is the same object: a pile never takes its own card)
        plan = source_plan(compiler, drawn, [drawn if g is group else g for g in chosen])
        if plan is not None:
            sources.append(plan)
    return MerciPlan(tuple(sources), merci.counter, merci.limit)


@attrs.frozen
class DiscardPlan:
    """One discard (``discards:``): its ``when`` rule inlined, its piles, and its sets'
    numbers in ``variant.discard_sets`` (``start`` to ``stop``): the move of set ``i`` is
    ``(-2 - i, cards, target)``."""

    cards: int
    sources: tuple[int, ...]
    #: the group every chosen pile belongs to, when the discard takes from one group
    group: str | None
    target: int
    when: Node  # inlined
    start: int
    stop: int
    note: str = ""


def discard_bindings(plan: DiscardPlan, piles: Sequence[Any], indices: Sequence[Any],
                     tops: Sequence[Any]) -> dict[str, Pile]:
    """The names a discard's rule reads (``first``, ``second``…) as the generated code holds
    them: each chosen pile's card list, number and (it is never empty) top card."""
    return {label: Pile(cards, index, plan.group, top)
            for label, cards, index, top in zip(DISCARD_PILES, piles, indices, tops)}


@attrs.frozen
class RulePlan:
    """The plan of one variant's rules (see the module's docstring)."""

    compiler: Compiler
    groups: tuple[GroupRules, ...]
    #: per group, its plan as a source of chosen moves (None: it gives none)
    sources: tuple[SourcePlan | None, ...]
    #: per group, its plan as a source of forced moves into the forced groups (None: a
    #: forced group, or none exists, or it gives none)
    forced_sources: tuple[SourcePlan | None, ...]
    win: Node
    deal_when: Node
    safe: Node | None
    redeal: Redeal | None
    tabulate: bool
    #: the redeal that gathers piles and deals them again (``stock.gather``), if any
    gather: Gather | None = None
    #: the discards, in file order (docs/authoring.md, "Discarding several cards at once")
    discards: tuple[DiscardPlan, ...] = ()
    #: the gathering redeal's rules on ``pile``, inlined: the piles that keep their cards
    #: and the gathered piles left empty (docs/authoring.md, "Redeals that keep some
    #: cards"); None where the file gives none
    gather_keep: Node | None = None
    gather_gaps: Node | None = None
    #: the pile ranges whose gaps close when the player deals (``close_gaps: deal``): the
    #: deal's first step, and a deal is legal when one of them would move a pile
    deal_closing: tuple[range, ...] = ()
    #: the pile holding the stock's next card face up (``stock.top``), if any: the deal is
    #: legal while it or the stock holds a card, and deals its card first
    stock_top: int | None = None
    #: the draws of a buried card (``merci``), if any (:class:`MerciPlan`)
    merci: MerciPlan | None = None

    @functools.cached_property
    def never_deals(self) -> bool:
        """Whether the player never deals: ``stock.deal_when`` folds to false and nothing
        turns or gathers again (a stock whose cards only fill gaps, as Elevens' does)."""
        return self.redeal is None and self.gather is None and not self.deal_closing and \
            is_false(self.compiler.expression(self.deal_when, {}))

    @property
    def fills(self) -> tuple[GroupRules, ...]:
        return tuple(group for group in self.groups if group.fill_from is not None)

    @property
    def forces(self) -> bool:
        """Whether a move can ever be forced (a gap closing, a fill, or a source of forced
        moves): when not, a fresh layout settles at once, without the generated code being
        asked."""
        return bool(self.closing or self.fills) or \
            any(plan is not None for plan in self.forced_sources) or \
            any(group.fill_last for group in self.groups)

    @property
    def closing(self) -> tuple[GroupRules, ...]:
        """The groups whose gaps close (``close_gaps``). A closing is the first kind of
        forced step, before forced removals and fills: while a pile of such a group is
        empty and a later pile of the group is not, the first such later pile moves whole
        into the first empty one (docs/authoring.md, "Closing gaps")."""
        return tuple(group for group in self.groups if group.close_gaps)


def _folds_false(compiler: Compiler, nodes: Sequence[Node], names: Mapping[str, Any]) -> bool:
    return any(is_false(compiler.expression(node, names)) for node in nodes)


def source_plan(compiler: Compiler, source: GroupRules,
                targets: Sequence[GroupRules]) -> SourcePlan | None:
    """The plan of ``source`` sending runs to ``targets``; None when it can send none."""
    gives = conjuncts(source.moves)
    scans = tuple(node for node in gives if isinstance(node, Quantifier) and is_scan(node))
    fixed = next((e for e in (fixed_size(n, ("run",)) for n in gives) if e is not None), None)
    rest = tuple(node for node in gives if node not in scans
                 and (fixed is None or fixed_size(node, ("run",)) is not fixed))
    if _folds_false(compiler, rest, bindings(source.name, None)):
        return None
    pairings = []
    for target in targets:
        if target is source and len(target.indices) == 1:
            continue  # a single pile never moves onto itself
        accepts = conjuncts(target.accepts)
        target_fixed = next((e for e in (fixed_size(n, ("run", "pile")) for n in accepts)
                             if e is not None), None)
        others = [n for n in accepts if target_fixed is None
                  or fixed_size(n, ("run", "pile")) is not target_fixed]
        pair = bindings(source.name, target.name)
        if any(_folds_false(compiler, [n], pair) for n in others):
            continue  # e.g. 'source in columns' for a source that is not a column
        pairings.append(Pairing(target, target_fixed,
                                tuple(n for n in others if not mentions(n, "pile")),
                                tuple(n for n in others if mentions(n, "pile"))))
    if not pairings:
        return None
    sizes = []
    for pairing in pairings:
        size = None
        if pairing.fixed is not None and fixed is None:
            value = compiler.value(pairing.fixed, bindings(source.name, pairing.target.name))
            size = value.value if isinstance(value, Const) else None
        sizes.append(size)
    constant_sizes = [x for x in sizes if isinstance(x, int)]
    all_constant = len(constant_sizes) == len(sizes)
    return SourcePlan(source, scans, fixed, rest, tuple(pairings),
                      min(constant_sizes) if all_constant else None,
                      max(constant_sizes) if all_constant else None)


def rule_note(rule: Rule) -> str:
    """A rule as the file wrote it, with its key and place, for the generated code's
    comments: ``piles.columns.moves (tabbycat.yaml:27): in_sequence(run)``."""
    where = ""
    if rule.origin is not None:
        location = rule.origin.location()
        where = f" ({Path(location.path).name}:{location.line})"
    return f"{rule.key}{where}: {rule.text}"


def uncovered_only(moves: Node, overlaps: bool) -> Node:
    """A group's ``moves`` rule with the kernel's covering rule in front, for a group whose
    layout overlaps: a covered pile gives no card (``not pile.covered and …``), whatever the
    file's rule says (docs/authoring.md, "Covering")."""
    if not overlaps:
        return moves
    covered = Attribute(moves.span, Name(moves.span, "pile"), "covered")
    return BoolOp(moves.span, "and", (Not(moves.span, covered), moves))


def uncovered_discard(when: Node, cards: int, overlaps: bool) -> Node:
    """A discard's ``when`` rule with the kernel's covering rule in front, for a discard
    that takes from a group whose layout overlaps: no chosen pile may be covered
    (``not first.covered and not second.covered and …``), as no covered pile gives a card."""
    if not overlaps:
        return when
    guards = tuple(Not(when.span, Attribute(when.span, Name(when.span, label), "covered"))
                   for label in DISCARD_PILES[:cards])
    return BoolOp(when.span, "and", (*guards, when))


def make_plan(variant: Variant, tabulate: bool = True) -> RulePlan:
    """Analyse a variant's rules into its plan (called once by the variant as it compiles,
    from its groups, predicates, parameters, deck and rules). With ``tabulate`` false
    card-only predicates are written out like the others (the reference the tables are
    tested against)."""
    groups = variant.groups
    predicates = dict(variant.predicates)
    layout = Layout({group.name: group.indices for group in groups}, variant.pile_maps)
    compiler = Compiler(dict(variant.parameters), predicates, layout, Tables(), variant.deck,
                        tabulate=tabulate,
                        face_down=any(any(group.face_down) for group in groups))

    def keep(predicate: Predicate) -> bool:
        return tabulate and compiler._is_tabulable(predicate) and \
            1 <= len(predicate.signature.parameters) <= 2

    def inline(node: Node) -> Node:
        return inline_calls(node, predicates, keep)

    rules = tuple(GroupRules(group.name, group.indices,
                             uncovered_only(inline(group.moves.node), group.arrangement.overlap),
                             inline(group.accepts.node), group.target is Target.FIRST,
                             group.removal is Removal.FORCED, any(group.face_down),
                             group.fill_from, rule_note(group.moves), rule_note(group.accepts),
                             group.close_gaps, group.lands is Lands.BOTTOM, group.fill_last,
                             None if group.fill_when is None else inline(group.fill_when.node))
                  for group in groups)
    chosen = [group for group in rules if not group.forced]
    forced = [group for group in rules if group.forced]
    sources = tuple(source_plan(compiler, group, chosen) for group in rules)
    forced_sources = tuple(None if group.forced or not forced
                           else source_plan(compiler, group, forced) for group in rules)
    redeal = None if variant.redeal_pile is None else Redeal(
        variant.redeal_pile, variant.redeal_counter, variant.redeals or 0)
    discards = tuple(DiscardPlan(
        d.cards, d.sources, d.groups[0] if len(d.groups) == 1 else None, d.target,
        uncovered_discard(inline(d.when.node), d.cards, any(
            variant.group_by_name[name].arrangement.overlap for name in d.groups)),
        d.start, d.stop, rule_note(d.when)) for d in variant.discards)
    return RulePlan(compiler, rules, sources, forced_sources, inline(variant.win.node),
                    inline(variant.deal_when.node),
                    None if variant.safe is None else inline(variant.safe.node), redeal,
                    tabulate, variant.gather, discards,
                    gather_keep=None if variant.gather_keep is None
                    else inline(variant.gather_keep.node),
                    gather_gaps=None if variant.gather_gaps is None
                    else inline(variant.gather_gaps.node),
                    deal_closing=variant.deal_closing, stock_top=variant.stock_top,
                    merci=merci_plan(compiler, variant, rules, chosen))
