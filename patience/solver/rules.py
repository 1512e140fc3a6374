"""What the solver decides once per variant: the position key and which piles are symmetric.

The arguments for why each reduction is sound are in ``docs/solver.md``; in short:

* No rule names a pile by its index (the rule language has group membership, ``pile``,
  ``source`` and quantifiers over groups, never ``c3``), so the rules treat the piles of a
  group alike. Two things break that symmetry: the stock deals card *k* to deal target *k*,
  and a move into a ``target: first`` group lands on the group's *first* accepting pile.
* Piles of a group fed by the deal may be sorted in the key only once the stock is empty.
  Piles of other ``target: each`` groups may always be sorted.
* A ``target: first`` group (the foundations) is symmetric only when its ``accepts`` rule
  requires ``pile.empty``: then "first accepting pile" and "another accepting pile" differ by
  swapping two empty piles. When some ``first`` group is not provably symmetric, nothing is
  sorted if the variant has forced moves or fills (forced removals leaving column by column
  would tie the column order to the foundation order); without them a move lands on the
  first accepting pile whichever pile it left, so the other groups still sort.
* Card attributes no rule reads are dropped from the key: a variant that never reads suits
  plays the same with suits relabelled, so cards of one rank are interchangeable.
* Every position of one search descends from the same root, and without redeals the stock
  only ever loses its next card, so the stock is known from its length alone. A redeal
  refills the stock from the waste in an order that depends on what left the waste, so a
  variant with redeals keys the stock's cards themselves. The redeals made are the hidden
  counter pile, part of the piles and so of every key.
* A redeal that gathers piles (``stock.gather``) deals their cards again by the piles'
  order: gathered in order, the packet is the piles read one after another, so their
  piles are never sorted; shuffled, the packet is put in card order first, so it depends
  only on which cards were gathered and the piles may be sorted as before, but then no card
  attribute is dropped (card order would tell apart cards the rules cannot: a relabelling
  of suits can change which card lands where). A redeal that keeps some piles or leaves
  some gaps (``keep``, ``gaps``) reads its piles one by one in order: they are never sorted
  either. The redeals made and the shuffle seed are hidden piles, part of every key. After
  a gathering redeal any move may follow.
* With ``stock.top`` the stock's next card lies face up on a pile of its own, refilled from
  the stock at once (a fill): it is keyed as a pile, and the stock still only loses its
  next card (a deal takes the top card, then the fill the next); since a deal is left
  while that pile holds a card, the piles the deal feeds are never sorted.
* Face-down cards are keyed as themselves (marked face down): the solver knows them, as
  published "thoughtful" win rates assume.
* After a deal, only a deal or a move from the piles it feeds, where the rules make every
  other move commute with the deal (``after_deal_sources``); and with unlimited redeals of
  a waste-only deal, the stock and waste keyed as a cycle (``pass_merge``).
* A pile no move, fill or redeal ever takes a card from, and that every rule reads only
  through ``top``, ``empty`` and ``size``, is keyed by its top card and size (or its top
  card alone when no rule reads its size): the cards under the top can never matter
  (``top_piles``; Golf's waste, Black Hole's hole, Tabby Cat's foundations).
* Cards put under a pile (``lands: bottom``) and a fill from the pile the last card went
  to (``fill_from: last``, which takes that pile's next face-down card): such a pile grows
  at the bottom and gives from the top, so no pile of a variant that fills from the last
  pile, nor of a group whose cards land under it, is keyed by its top card; the piles a
  ``fill_from: last`` fills are taken in order, so they are never sorted.
* A draw of a buried card (``merci``) takes the card under a pile's top card by the
  targets' ``accepts`` rules alone and treats the piles of its groups alike: its groups
  count as piles moves take cards from (none is keyed by its top card), and the draws made
  are a hidden pile, part of every key. A draw is never safe and never the reverse of a
  move; the deal still commutes with a draw from a pile it does not feed.
* A discard (``discards:``) chooses its piles in pile order, and its rule may tell the
  first from the second: the piles of its ``from`` groups are never sorted, and they count
  as piles moves take cards from. A discard is never restricted after a deal and never
  declared safe.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from patience.cards import FACE_DOWN, RED_SUITS
from patience.compiler import Const, conjuncts, inline_calls
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
    Quantifier,
    Visitor,
    children,
    walk,
)
from patience.places import PLACE_ATTRIBUTES
from patience.plan import bindings as plan_bindings
from patience.plan import is_scan
from patience.safe_derivation import path_of
from patience.settings import Lands, Target
from patience.solver.constants import SEARCH

if TYPE_CHECKING:
    from patience.compiler import Compiler, Value
    from patience.variant import Group, Variant

KeyFunction = Callable[[list[list[int]], list[int]], bytes]
SEPARATOR = 0xFF  # never a card: cards are at most 13 * 4 + 3


class SolverRules:
    """The per-variant facts the search uses, derived from the compiled rules only."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        #: the move ordering's scores (both engines': the core gets them in its program)
        self.scores = variant.ordering_scores or SEARCH.scores
        gather = variant.gather
        self.attributes = variant.card_attributes_read if gather is None or \
            not gather.shuffle else frozenset({"rank", "suit", "color"})
        self.card_table = card_table(self.attributes)
        deal_targets = set(variant.deal_targets)
        first_groups = [g for g in variant.groups if g.target is Target.FIRST]
        self.symmetric_first = all(requires_empty_pile(g) for g in first_groups)
        # without forced moves and fills nothing ties the order of the other groups' piles to
        # the 'first' groups' (a move lands on the first accepting pile whichever pile it
        # left): their piles may be sorted even when a 'first' group is not symmetric
        self.sortable = self.symmetric_first or not variant.plan.forces
        always: list[range] = []  # groups whose piles may always be sorted in the key
        stock_empty: list[range] = []  # groups that may be sorted once the stock is empty
        # a forced fill takes the top card of the first source pile that has one: the
        # source piles' order matters, so they are never sorted
        fill_sources = {i for g in variant.groups if g.fill_from is not None
                        for i in g.fill_from if i >= 0}
        if gather is not None and (not gather.shuffle or variant.gather_keep is not None
                                   or variant.gather_gaps is not None or gather.blanks):
            # gathered in the piles' order, or kept and left empty pile by pile in order
            fill_sources.update(gather.piles)
        # a discard chooses its piles in pile order and its rule may tell first from
        # second: the piles it chooses among are never sorted (docs/solver.md, "Discards")
        fill_sources |= {i for d in variant.discards for i in d.sources}
        fill_sources.update(variant.fill_last_piles)  # filled in order (fill_from: last)
        placed = places_matter(variant)
        if self.sortable:
            for group in variant.groups:
                if group.count < 2 or fill_sources.intersection(group.indices) or \
                        group.name in placed:
                    continue
                # a 'first' group sorts only where a move into it always lands on an empty
                # pile and no forced move or fill scans its piles in order (FreeCell's
                # cells: the first empty cell and any other empty one differ by a swap of
                # two empty piles); the others (foundations that build) stay in order
                if group.target is Target.FIRST and not (
                        not variant.plan.forces and group.fill_from is None
                        and requires_empty_pile(group)):
                    continue
                if any(index in deal_targets for index in group.indices):
                    # with stock.top a deal is left while the top card's pile holds a
                    # card, the stock itself empty: those piles are never sorted
                    if variant.stock_top is None:
                        stock_empty.append(group.indices)
                else:
                    always.append(group.indices)
        self.always_sorted = tuple((r.start, r.stop) for r in always)
        self.sorted_when_stock_empty = tuple((r.start, r.stop) for r in stock_empty)
        self.first_target_piles = frozenset(i for g in first_groups for i in g.indices)
        self.dealt_piles = frozenset(deal_targets)
        # piles of 'each' groups nobody deals to (the tail): a place to park cards
        self.parking_piles = frozenset(i for g in variant.groups if g.target is Target.EACH
                                       for i in g.indices if i not in deal_targets)
        #: piles keyed by their top card (and size, when True): see `top_piles`
        self.top_piles: dict[int, bool] = top_piles(variant)
        #: the piles whose moves may follow a deal (None: every move may): see
        #: `after_deal_sources`
        self.after_deal: frozenset[int] | None = after_deal_sources(variant)
        #: (the waste, cards a deal) when positions that differ only in how far the stock
        #: has gone round its cycle are merged (see `pass_merge`); None: never
        self.pass_merge: tuple[int, int] | None = pass_merge(variant, self.after_deal)
        self.key = self._key_function()
        one_way = variant.redeal_pile is None and variant.gather is None and \
            bool(variant.deal_targets)
        #: for each pile whose group's moves rule says which adjacent cards form a run, the
        #: rows of those pairs (``patience.solver.beam.sequence_rows``), where the stock
        #: deals and never comes back
        self.sequence_rows_of: dict[int, tuple[int, ...]] = {
            index: rows for start, stop, rows in sequence_rows(variant)
            for index in range(start, stop)} if one_way else {}
        #: whether the layered beam searches this variant (patience.solver.beam): the
        #: stock deals and never comes back, and some group's runs tell order from
        #: disorder (without them the beam's measure is blind, and the budget it takes
        #: costs the restarts' proofs: Golf and Aces Up, docs/solver.md)
        self.beam_layers = bool(self.sequence_rows_of)

    @functools.cached_property
    def guided(self) -> GuidedRules | None:
        """The guided search's tables (``patience.solver.guided``), where it applies:
        nothing is gathered and dealt again (``stock.gather``), some group's runs tell
        order from disorder (``sequence_rows``; where no stock is dealt, also the piles
        built one card at a time, ``built_rows``), and some pile is home
        (``Variant.home_piles``). A run counts as ordered only as far as the home piles
        would take it (``home_run_rows``). None elsewhere. Worked out when first asked
        for (a solve where it applies)."""
        variant = self.variant
        homes = variant.home_piles
        if variant.gather is not None or not homes:
            return None
        runs = tuple((start, stop, rows) for start, stop, rows in sequence_rows(variant))
        cards = sorted({card for card in variant.deck if card < FACE_DOWN})
        built: tuple[tuple[int, int, tuple[int, ...]], ...] = ()
        if not variant.deal_targets:
            built = built_rows(variant, {start for start, _, _ in runs}, cards)
            runs += built
        if not runs:
            return None
        home_runs = home_run_rows(variant, cards)
        if home_runs is not None:
            # a run the home piles would not take as one (Tarantula's runs of one colour,
            # going home by suit) is ordered only as far as they would
            runs = tuple((start, stop, tuple(a & b for a, b in zip(rows, home_runs)))
                         for start, stop, rows in runs)
        home_rows = []
        every = sum(1 << card for card in cards)
        narrow: set[int] = set()
        for group in variant.tabulated_plan.groups:
            if group.indices.start not in homes:
                if _takes_empty(variant, group.accepts, cards) != every:
                    narrow.update(group.indices)
                continue
            empty, rows = _home_rows(variant, group.accepts, cards)
            if empty == every:
                empty = 0  # an empty pile that may take any card tells nothing
            if all(rows[card] == every for card in cards):
                rows = []  # nor does a pile that may take any card on any
            home_rows.append((group.indices.start, group.indices.stop, empty,
                              tuple(rows) + (0,) * (FACE_DOWN - len(rows))))
        return GuidedRules(runs, tuple(home_rows), frozenset(variant.deal_targets),
                           frozenset(i for start, stop, _ in built for i in range(start, stop)),
                           frozenset(narrow))

    def _key_function(self) -> KeyFunction:
        table = self.card_table
        always = self.always_sorted
        later = self.sorted_when_stock_empty
        join = bytes([SEPARATOR]).join
        both = always + later
        tops = tuple(sorted(self.top_piles.items()))

        def seen(piles: list[list[int]]) -> list[bytes]:
            """Each pile as the key shows it: its cards translated, or for a pile keyed by
            its top, the top card translated and (when the rules read it) its size."""
            parts = [bytes(p).translate(table) for p in piles]
            for index, with_size in tops:
                pile = piles[index]
                if not pile:
                    parts[index] = b""
                elif with_size:
                    parts[index] = bytes((table[pile[-1]], len(pile)))
                else:
                    parts[index] = bytes((table[pile[-1]],))
            return parts

        if self.variant.redeal_pile is not None:  # the stock's order can change
            # the piles the deal feeds are never sorted (a redeal refills the stock); the
            # others may always be
            def stock_key(piles: list[list[int]], stock: list[int]) -> bytes:
                parts = seen(piles)
                for start, stop in always:
                    parts[start:stop] = sorted(parts[start:stop])
                return join(parts) + b"\xfe" + bytes(stock)

            return stock_key

        if tops:
            def top_key(piles: list[list[int]], stock: list[int]) -> bytes:
                parts = seen(piles)
                for start, stop in (always if stock else both):
                    parts[start:stop] = sorted(parts[start:stop])
                return join(parts) + len(stock).to_bytes(2, "big")

            return top_key

        def unsorted_key(piles: list[list[int]], stock: list[int]) -> bytes:
            return join(map(bytes, piles)).translate(table) + len(stock).to_bytes(2, "big")

        def sorted_when_stock_empty(piles: list[list[int]], stock: list[int]) -> bytes:
            if stock:
                return join(map(bytes, piles)).translate(table) + len(stock).to_bytes(2, "big")
            parts = [bytes(p).translate(table) for p in piles]
            for start, stop in later:
                parts[start:stop] = sorted(parts[start:stop])
            return join(parts) + b"\0\0"

        def sorted_key(piles: list[list[int]], stock: list[int]) -> bytes:
            parts = [bytes(p).translate(table) for p in piles]
            for start, stop in (always if stock else both):
                parts[start:stop] = sorted(parts[start:stop])
            return join(parts) + len(stock).to_bytes(2, "big")

        if not both:
            return unsorted_key
        return sorted_when_stock_empty if not always else sorted_key

    def exact_key(self, piles: list[list[int]], stock: list[int]) -> bytes:
        """The position with nothing merged (the reference search's key)."""
        return bytes([SEPARATOR]).join(map(bytes, piles)) + b"\xfe" + bytes(stock)


@attrs.frozen
class GuidedRules:
    """What the guided search's estimate reads of the rules (``SolverRules.guided``)."""

    #: (first pile, pile after the last, rows): the groups whose runs tell order from
    #: disorder, as :func:`sequence_rows` and :func:`built_rows` give them, each row
    #: cut to what :func:`home_run_rows` allows
    runs: tuple[tuple[int, int, tuple[int, ...]], ...]
    #: (first pile, pile after the last, the cards an empty pile may take as a bit set,
    #: per top card the cards it may take): each home group (``Variant.home_piles``), from
    #: its ``accepts`` rule read for one card (``_home_rows``)
    homes: tuple[tuple[int, int, int, tuple[int, ...]], ...]
    #: the piles the stock deals onto (``Variant.deal_targets``): on those the estimate
    #: counts breaks, not the cards under the top run, which a deal buries
    covered: frozenset[int] = frozenset()
    #: the piles built one card at a time (:func:`built_rows`): the cards under their top
    #: run weigh ``built_weight``, not ``run_weight``
    built: frozenset[int] = frozenset()
    #: the piles not home that only some cards may fill when empty (an ``accepts`` rule
    #: read for one card: Klondike's columns take Kings, a waste takes none): an empty one
    #: weighs ``narrow_empty_weight``, not ``empty_weight``
    narrow: frozenset[int] = frozenset()

    @property
    def keyed_when_reached(self) -> bool:
        """Whether the guided search keys a child when it reaches it (solver 1.16's way)
        rather than when its turn comes: where the estimate counts breaks (a pile both
        dealt onto and read for runs: the Spiders, Gypsy, the Tabby Cat dialects). There
        the first copy of a position reached keeps its rank; keyed when its turn comes, the
        copy of least rank, often reached by a shorter line, is expanded instead, and
        Spider's deals 1-100 at 1,000,000 positions were won 56 times against 61
        (docs/solver.md, "Keyed when its turn comes")."""
        runs = {index for start, stop, _ in self.runs for index in range(start, stop)}
        return bool(self.covered & runs)


def _home_rows(variant: Variant, accepts: Node, cards: list[int]) -> tuple[int, list[int]]:
    """Which single cards a home pile whose ``accepts`` rule (inlined) is given may take:
    the cards it may take empty, as a bit set, and per top card the cards it may take. The
    rule is read for one card (``run.top`` and ``run.bottom`` the card, ``run.size`` 1,
    ``pile.top`` the top card) and compiled into a function of the cards
    (``Compiler.card_function``), called for every card and pair; whatever else it reads (the
    source, other piles) is taken to allow the move, so the tables may say "may" where the
    rule would refuse: an estimate's over-estimate (``patience.solver.guided``)."""
    compiler = variant.tabulated_plan.compiler
    rows = [0] * (max(cards, default=0) + 1)
    on_card = compiler.card_function(_one_card(accepts, False, True), ["card#", "base#"])
    empty = _takes_empty(variant, accepts, cards)
    for base in cards:
        rows[base] = sum(1 << card for card in cards if on_card is None or on_card(card, base))
    return empty, rows


def _takes_empty(variant: Variant, accepts: Node, cards: list[int]) -> int:
    """The cards a pile whose ``accepts`` rule (inlined) is given may take when empty, as
    a bit set, the rule read for one card as in :func:`_home_rows`."""
    compiler = variant.tabulated_plan.compiler
    on_empty = compiler.card_function(_one_card(accepts, True, True), ["card#"])
    return sum(1 << card for card in cards if on_empty is None or on_empty(card))


#: what a one-card move onto a home pile reads, as names of the card functions
_ONE_CARD = {"run.top": "card#", "run.bottom": "card#", "pile.top": "base#"}


def _one_card(node: Node, empty: bool, allow: bool) -> Node:
    """``node`` (a rule, its truth read where ``allow`` says whether true allows the move)
    read for one card moved onto a pile empty or not: every test that reads more than the
    card and the pile's top is replaced by the value that allows the move."""
    if isinstance(node, BoolOp):
        return BoolOp(node.span, node.op, tuple(_one_card(v, empty, allow) for v in node.values))
    if isinstance(node, Not):
        return Not(node.span, _one_card(node.operand, empty, not allow))
    value = _card_value(node, empty)
    return Boolean(node.span, allow) if value is None else value


def _card_value(node: Node, empty: bool) -> Node | None:
    """``node`` with the card and the pile's top as names, or None where it reads more."""
    path = path_of(node)
    if path is not None:
        if path == "run.size":
            return Integer(node.span, 1)
        if path == "pile.empty":
            return Boolean(node.span, empty)
        if path in _ONE_CARD:
            return None if empty and path == "pile.top" else Name(node.span, _ONE_CARD[path])
    if isinstance(node, (Integer, Boolean)):
        return node
    if isinstance(node, Name):  # a constant or a parameter, or a pile or run read whole
        return None if node.id in ("run", "pile", "source") else node
    parts: list[Node | None]
    if isinstance(node, Attribute):
        inner = _card_value(node.value, empty)
        return None if inner is None else Attribute(node.span, inner, node.name)
    if isinstance(node, (Compare, Arithmetic)):
        parts = [_card_value(node.left, empty), _card_value(node.right, empty)]
        if parts[0] is None or parts[1] is None:
            return None
        return type(node)(node.span, node.op, parts[0], parts[1])
    if isinstance(node, (Not, Negate)):
        inner = _card_value(node.operand, empty)
        return None if inner is None else type(node)(node.span, inner)
    if isinstance(node, BoolOp):
        parts = [_card_value(v, empty) for v in node.values]
        return None if None in parts else BoolOp(node.span, node.op, tuple(parts))  # type: ignore[arg-type]
    if isinstance(node, Call):
        parts = [_card_value(a, empty) for a in node.args]
        return None if None in parts else Call(node.span, node.function, tuple(parts))  # type: ignore[arg-type]
    return None  # a quantifier, a count, a membership, a neighbour: more than the cards


def sequence_rows(variant: Variant) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """For each pile group whose ``moves`` rule holds ``all a, b in pairs(run): …``
    conjuncts that read nothing but their two cards: (first pile, pile after the last, the
    rows of the pairs those conjuncts allow, ``_scan_rows``). Groups without such
    conjuncts are left out (no break is counted on their piles)."""
    plan = variant.tabulated_plan  # its inlined rules, and its compiler for the folding
    cards = sorted({card for card in variant.deck if card < FACE_DOWN})
    found = []
    for group in plan.groups:
        rows = _scan_rows(plan.compiler, group.name, group.moves, cards)
        if rows is not None:
            found.append((group.indices.start, group.indices.stop, tuple(rows)))
    return tuple(found)


def built_rows(variant: Variant, skip: set[int], cards: list[int]
               ) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """For each pile group not home, not in ``skip`` (its first pile) and whose cards may
    leave, whose ``accepts`` rule read for one card (``_home_rows``) takes some cards on
    some and not every card on every: (first pile, pile after the last, those rows). A
    pile built that way is ordered where each card may lie on the one under it, though
    its cards move one at a time (Beleaguered Castle's columns)."""
    homes = variant.home_piles
    every = sum(1 << card for card in cards)
    found = []
    for group in variant.tabulated_plan.groups:
        start, stop = group.indices.start, group.indices.stop
        if start in homes or start in skip or start >= stop or (
                isinstance(group.moves, Boolean) and not group.moves.value):
            continue
        _, rows = _home_rows(variant, group.accepts, cards)
        if all(rows[card] == 0 for card in cards) or all(rows[card] == every for card in cards):
            continue
        found.append((start, stop, tuple(rows) + (0,) * (FACE_DOWN - len(rows))))
    return tuple(found)


def home_run_rows(variant: Variant, cards: list[int]) -> tuple[int, ...] | None:
    """The pairs a run must be made of to go home: where some home group's ``accepts`` rule
    holds ``all a, b in pairs(run): …`` conjuncts that read nothing but their two cards
    (Spider's finished suit), the rows of the pairs they allow, united over those groups;
    None where no home group's rule has them (the home piles take single cards)."""
    plan = variant.tabulated_plan
    homes = variant.home_piles
    united: list[int] | None = None
    for group in plan.groups:
        if group.indices.start not in homes:
            continue
        rows = _scan_rows(plan.compiler, group.name, group.accepts, cards)
        if rows is not None:
            united = rows if united is None else [a | b for a, b in zip(united, rows)]
    return None if united is None else tuple(united)


def _scan_rows(compiler: Compiler, group: str, rule: Node, cards: list[int]) -> list[int] | None:
    """The rows of the pairs of cards (``rows[below]``: a bit per card ``above``) that the
    ``all a, b in pairs(run): …`` conjuncts of ``rule`` (a rule of pile group ``group``)
    allow; None where it has none, or where they read more than their two cards.

    Each conjunct is compiled once into a function of its two cards
    (``Compiler.card_function``) and called for every pair; a conjunct that reads more than
    its cards is folded pair by pair with the cards as constants, as the compiler would."""
    scans: list[Node] = [part for part in conjuncts(rule) if is_scan(part)]
    if not scans:
        return None
    bindings: dict[str, Value] = plan_bindings(group, None)
    tests = []
    for scan in scans:
        assert isinstance(scan, Quantifier)
        test = compiler.card_function(scan.body, scan.names, bindings)
        if test is None:  # reads more than its two cards
            return _folded_rows(compiler, scans, bindings, cards)
        tests.append(test)
    rows = [0] * FACE_DOWN
    for below in cards:
        for above in cards:
            if all(test(below, above) for test in tests):
                rows[below] |= 1 << above
    return rows


def _folded_rows(compiler: Compiler, scans: list[Node], bindings: dict[str, Value],
                 cards: list[int]) -> list[int] | None:
    """`sequence_rows`' rows, each pair's value folded by the compiler with the cards as
    constants; None when some pair's is not a constant (the conjuncts read the piles)."""
    rows = [0] * FACE_DOWN
    for below in cards:
        for above in cards:
            allowed = True
            for scan in scans:
                assert isinstance(scan, Quantifier)
                value = compiler.value(scan.body, {**bindings, scan.names[0]: Const(below),
                                                   scan.names[1]: Const(above)})
                if not isinstance(value, Const):
                    return None
                allowed = allowed and bool(value.value)
            if allowed:
                rows[below] |= 1 << above
    return rows


def card_table(attributes: frozenset[str]) -> bytes:
    """A ``bytes.translate`` table mapping each card to what the rules can tell of it."""
    table = bytearray(range(256))
    for card in range(256):
        if card == SEPARATOR:
            continue
        rank, suit = card >> 2, card & 3
        if "suit" in attributes:
            shown = suit
        elif "color" in attributes:
            shown = 1 if suit in RED_SUITS else 0
        else:
            shown = 0
        if card < FACE_DOWN:
            table[card] = rank * 4 + shown
        elif card < 2 * FACE_DOWN:  # a face-down card: as its face-up self, marked
            table[card] = ((rank & 15) * 4 + shown) | FACE_DOWN
    return bytes(table)


def requires_empty_pile(group: Group) -> bool:
    """Whether the group's ``accepts`` rule holds only for an empty pile (a conjunct
    ``pile.empty`` at the top of the rule)."""
    node = group.accepts.node
    conjuncts = node.values if isinstance(node, BoolOp) and node.op == "and" else (node,)
    return any(isinstance(c, Attribute) and c.name == "empty" and isinstance(c.value, Name)
               and c.value.id == "pile" for c in conjuncts)


VIEWS = frozenset({"top", "empty", "size"})  # what a pile keyed by its top may be read by


def top_piles(variant: Variant) -> dict[int, bool]:
    """The piles whose cards below the top can never matter, each with whether any rule
    reads its size: ``{pile index: size read}``.

    A group qualifies when no move ever takes a card out of it (its ``moves`` rule is
    ``false``, so it is never a move's source, and so never a forced move's either), no
    forced fill takes from it, the redeal does not turn it over nor gather it, and every
    rule that can see one of its piles (every group's ``moves`` and ``accepts``, ``win``,
    ``stock.deal_when``, ``solver.safe``, the predicates, inlined where called) reads it
    only as ``.top``, ``.empty`` or ``.size``. Its piles then only ever grow by cards put on
    top (and shrink again only when the search takes a move back), and no rule can tell
    two of them apart that agree on the top card and the size. The argument is in
    docs/solver.md ("The position key").
    """
    groups = variant.groups
    sources = frozenset([g.name for g in groups if not g.moves.never or g.merci]
                        + [name for d in variant.discards for name in d.groups])
    fill_sources = {i for g in groups if g.fill_from is not None for i in g.fill_from if i >= 0}
    if variant.gather is not None:  # a gathering redeal takes every card of its piles
        fill_sources.update(variant.gather.piles)
    for indices in variant.deal_closing:  # the deal slides whole piles into the gaps
        fill_sources.update(indices)
    predicates = dict(variant.predicates)
    reads: dict[str, set[str]] = {g.name: set() for g in groups}

    def inline(node: Node) -> Node:
        return inline_calls(node, predicates, lambda predicate: False)

    for group in groups:
        _pile_reads(inline(group.moves.node), {"pile": frozenset({group.name}),
                                               "run": frozenset({group.name})}, reads)
        _pile_reads(inline(group.accepts.node), {"pile": frozenset({group.name}),
                                                 "source": sources, "run": sources},
                    reads)
    if variant.safe is not None:  # solver.safe: a move from any source onto any pile
        every = frozenset(g.name for g in groups)
        _pile_reads(inline(variant.safe.node), {"pile": every, "source": sources,
                                                "run": sources}, reads)
    for node in (variant.win.node, variant.deal_when.node,
                 *(g.fill_when.node for g in groups if g.fill_when is not None)):
        _pile_reads(inline(node), {}, reads)
    if variant.gather is not None:  # stock.gather's keep and gaps: a rule on a gathered pile
        gathered = frozenset(variant.group_of_pile[i].name for i in variant.gather.piles)
        for rule in (variant.gather_keep, variant.gather_gaps):
            if rule is not None:
                _pile_reads(inline(rule.node), {"pile": gathered}, reads)
    for discard in variant.discards:  # the chosen piles are in its 'from' groups
        chosen = frozenset(discard.groups)
        _pile_reads(inline(discard.when.node), dict.fromkeys(DISCARD_PILES, chosen), reads)
    found: dict[int, bool] = {}
    if variant.fill_last_piles:  # any pile a card went to may give its next card
        return found
    for group in groups:
        if group.lands is Lands.BOTTOM or group.name in sources or \
                fill_sources.intersection(group.indices) or \
                (variant.redeal_pile is not None and variant.redeal_pile in group.indices) \
                or not reads[group.name] <= VIEWS:
            continue
        for index in group.indices:
            found[index] = "size" in reads[group.name]
    return found


def _pile_reads(node: Node, piles: dict[str, frozenset[str]],
                reads: dict[str, set[str]]) -> None:
    """Add to ``reads[group]`` how ``node`` reads the piles of each group: ``top``,
    ``empty``, ``size``, or ``other`` (any other use: ``bottom``, a run, all its cards, an
    argument). ``piles`` maps the names in scope that denote piles (or the run, a part of
    its source pile) to the groups they may belong to."""
    _PileReads(reads).visit(node, piles)


class _PileReads(Visitor[None]):
    """:func:`_pile_reads`: ``visit(node, piles)`` adds to ``reads``."""

    # they read piles only through their parts
    generic = frozenset({"Integer", "Boolean", "Not", "Negate", "Arithmetic", "Compare",
                         "BoolOp", "Call", "Pairs", "Neighbour"})

    def __init__(self, reads: dict[str, set[str]]) -> None:
        self.reads = reads

    def note(self, groups: frozenset[str], how: str) -> None:
        for group in groups:
            self.reads[group].add(how)

    def generic_visit(self, node: Node, *args: Any) -> None:
        piles, = args
        for child in children(node):
            self.visit(child, piles)

    def visit_Name(self, node: Name, piles: dict[str, frozenset[str]]) -> None:
        if node.id in piles:
            self.note(piles[node.id], "other")

    def visit_Attribute(self, node: Attribute, piles: dict[str, frozenset[str]]) -> None:
        if isinstance(node.value, Name) and node.value.id in piles:
            self.note(piles[node.value.id], "other" if node.value.id == "run" else node.name)
        else:
            self.generic_visit(node, piles)

    def visit_Member(self, node: Member, piles: dict[str, frozenset[str]]) -> None:
        if not isinstance(node.value, Name):  # which group a pile is in, not what it holds
            self.generic_visit(node, piles)

    def visit_Quantifier(self, node: Quantifier, piles: dict[str, frozenset[str]]) -> None:
        if isinstance(node.domain, Name):
            inner = {**piles, **{name: frozenset({node.domain.id}) for name in node.names}}
            self.visit(node.body, inner)
            return
        # over pairs of cards: the pairs' names are cards
        self.visit(node.domain, piles)
        self.visit(node.body, {k: v for k, v in piles.items() if k not in node.names})

    def visit_Count(self, node: Count, piles: dict[str, frozenset[str]]) -> None:
        self.visit(node.body, {**piles, node.name: frozenset({node.group})})


def places_matter(variant: Variant) -> frozenset[str]:
    """The groups whose piles are not interchangeable because of where they stand
    (docs/solver.md, "The position key"): every group when some rule reads a place
    (``pile.index``, ``.row``, ``.column``, a neighbour such as ``left(pile)``), else
    the groups whose layout overlaps (a pile is covered by others) and those whose gaps
    close (a move there slides the later piles: their order is what the game is)."""
    reads = any(isinstance(sub, Neighbour) or (isinstance(sub, Attribute)
                                               and sub.name in PLACE_ATTRIBUTES)
                for _, node in variant.rule_nodes for sub in walk(node))
    return frozenset(g.name for g in variant.groups
                     if reads or g.arrangement.overlap or g.close_gaps or g.close_on_deal)


def after_deal_sources(variant: Variant) -> frozenset[int] | None:
    """The piles the deal feeds, when every move from any other pile commutes with the
    deal: then after a deal the search tries only another deal or a move from those piles
    (docs/solver.md, "Moves that commute with the deal"). None when the rules do not
    guarantee it.

    A move X from a pile outside the deal targets D commutes with the deal (both orders are
    legal exactly when one is, and reach the same position) when
    (a) no forced move or forced fill follows a move (``RulePlan.forces`` is false, no
        ``fill_from``), so a move and a deal do exactly what they say;
    (b) every group that holds a pile of D holds only piles of D and accepts nothing (its
        ``accepts`` rule is literally ``false``), so X's target is never in D;
    (c) no rule names a group of D other than in a membership test (``source in waste``):
        no quantifier or count over it, so X's legality does not read D, and no rule but
        ``stock.deal_when`` names the stock;
    (d) ``stock.deal_when`` names no pile or group, so X cannot change whether the deal is
        legal (the deal itself reads only the stock, D and the hidden redeal counter, which
        X leaves alone);
    (e) no redeal gathers piles (``stock.gather``): that deal reads and rewrites them all;
        and the deal neither closes gaps (``close_gaps: deal``) nor reads which targets
        are empty to feed them alone (``empty_piles: only``).
    """
    targets = frozenset(variant.deal_targets)
    if not targets or variant.gather is not None or variant.deal_closing or \
            variant.deal_fills_empty or variant.plan.forces or \
            any(g.fill_from is not None for g in variant.groups):
        return None
    target_groups = {g.name for g in variant.groups if targets.intersection(g.indices)}
    for group in variant.groups:
        if group.name in target_groups and (
                not targets.issuperset(group.indices)
                or not group.accepts.never):
            return None
    group_names = {g.name for g in variant.groups}
    for key, rule in variant.rule_nodes:
        if key == "stock.deal_when":
            continue  # (d) below
        for node in walk(rule):
            if isinstance(node, Name) and (node.id in target_groups or node.id == "stock"):
                return None
            if isinstance(node, Count) and node.group in target_groups:
                return None
    for node in walk(variant.deal_when.node):
        if isinstance(node, Name) and node.id in group_names | {"pile", "source", "run"}:
            return None
        if isinstance(node, Count):
            return None
    return targets


def pass_merge(variant: Variant, after_deal: frozenset[int] | None) -> tuple[int, int] | None:
    """``(waste, turn)`` when the stock and the waste form one cycle that deals alone go
    round for ever, so that positions differing only in where the cycle stands are
    mutually reachable by deals: the moves after a deal are restricted (`after_deal`),
    the deal feeds only the waste (``turn`` cards a deal), the waste turns back over as
    often as you like, the deal is always legal (``stock.deal_when`` is literally true) and
    never skips an empty waste. Then a position reached by anything but a deal, whose
    waste holds a multiple of ``turn`` cards, is keyed as if its waste were turned back
    into the stock (docs/solver.md, "The stock as a cycle")."""
    waste = variant.redeal_pile
    if after_deal is None or waste is None or variant.redeals is not None or \
            set(variant.deal_targets) != {waste} or variant.deal_skips_empty or \
            not (isinstance(variant.deal_when.node, Boolean) and variant.deal_when.node.value):
        return None
    return waste, len(variant.deal_targets)


@functools.lru_cache(maxsize=64)
def solver_rules(variant: Variant) -> SolverRules:
    return SolverRules(variant)
