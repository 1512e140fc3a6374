"""The rule program's wire format: the typed contract between Python and the native core.

Each class here has a twin in ``native/src/wire.rs`` (``#[derive(Deserialize)]``, unknown
fields refused), field for field and in the same order: :func:`to_json` writes what the core
reads. Expressions stay JSON trees (``Expr``, documented in ``patience.native.program``); a
rule that folds to a constant is written as that ``bool``. A change to any class here is a
change of :data:`PROGRAM_VERSION` and of the twin, and shows in the golden programs of the
shipped variants (``tests/programs/``).
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from patience.solver.constants import SearchConstants

#: the version of the program's shape: the core refuses a program of another version (2: the
#: piles keyed by their top, 3: the declared safe moves, 4: the moves allowed after a deal
#: and the stock as a cycle, 5: the layered beam, 6: the typed wire format and the search
#: constants, 7: the redeal that gathers piles, the discards, and places, ``Places``, 8: the
#: gathering redeal's ``keep`` and ``gaps``, the gaps that close on the deal and the deal
#: to empty piles alone, the stock's top card on a pile (``stock_top``) and covered cards
#: face down (``uncovering``), 9: the draws of a buried card, ``merci``, 10: the guided
#: search, ``guided`` and its constants, 11: its weights of face-down and stock cards, 12:
#: its built and narrow piles and their weights, 13: its first turn's length, 14: whether it
#: keys a child when reached, 15: the weight of face-down cards on the piles a deal covers,
#: 16: its budget's share of the solve's)
PROGRAM_VERSION = 16

Expr = list[Any]  # an expression tree: ["int", 3], ["cmp", "==", a, b], …
Rule = Expr | bool  # a rule, or the constant it folds to


@attrs.frozen
class Group:
    name: str
    start: int
    stop: int
    face_down: bool  # its piles may hold face-down cards


@attrs.frozen
class Pairing:
    """A source group's runs onto one target group (``patience.plan.Pairing``)."""

    target: int  # the target group's number
    k_outer: bool  # the run length is the outer loop
    first: bool  # a move lands on the first pile that accepts (of several)
    skip_self: bool  # the source's own group: a pile never moves onto itself
    fixed: Expr | None  # the one run size the target takes, if any
    hoisted: Rule  # tested once per run
    free: Rule  # tested once per target pile
    bound: Rule  # tested per target pile and run


@attrs.frozen
class Source:
    """One source group's plan (``patience.plan.SourcePlan``)."""

    floor: int | None  # piles shorter than this give nothing
    cap: int | None  # runs longer than this are never tried
    scan: Rule | None  # the run scan's rule over two adjacent cards (slots 0 and 1)
    fixed: Expr | None  # the one run size the source gives, if any
    rest: Rule  # the rest of the source's rule
    pairings: tuple[Pairing, ...]


@attrs.frozen
class Fill:
    """An empty pile of ``start..stop`` takes a card at once: the stock's next card, or the
    top card of the first pile of ``sources`` that has one."""

    start: int
    stop: int
    from_stock: bool
    sources: tuple[int, int]
    when: Rule  # fill_when: the fills are made while it holds (true: always)


@attrs.frozen
class Discard:
    """A discard (``patience.plan.DiscardPlan``): the top cards of ``cards`` piles of
    ``sources``, chosen in pile order, onto pile ``target`` when ``when`` holds (the chosen
    piles are ``["chosen", 0]``…); its sets are numbered from ``start`` in lexicographic
    order, the move of set ``i`` being ``(-2 - i, cards, target)``."""

    cards: int
    sources: tuple[int, ...]
    target: int
    start: int
    when: Rule


@attrs.frozen
class Redeal:
    waste: int
    counter: int | None  # the hidden pile counting the redeals made (None: unlimited)
    limit: int


@attrs.frozen
class Gather:
    """The redeal that gathers piles and deals them again (``patience.moves.Gather``)."""

    piles: tuple[int, ...]  # in gathering order
    shuffle: bool
    deal: int  # cards a pile
    limit: int | None  # None: unlimited
    counter: int | None  # the hidden pile counting the redeals made
    seed: int | None  # the hidden pile holding the shuffle seed (8 bytes, little-endian)
    blanks: int  # ``gaps: N``: gaps shuffled in among the gathered cards (0: none)
    #: ``stock.gather.keep`` and ``.gaps``, rules on the pile ``["tgt"]`` (None: not given)
    keep: Rule | None
    gaps: Rule | None


@attrs.frozen
class Merci:
    """The draws of a buried card (``patience.plan.MerciPlan``): while the hidden pile
    ``counter`` holds fewer than ``limit`` cards, the card under the top card of a pile of
    each source group is tried as a run of one, the top card lifted: the move ``(s, -1, t)``."""

    sources: tuple[tuple[int, Source], ...]  # (the group's number, its plan as a source)
    counter: int
    limit: int


@attrs.frozen
class Table:
    """A card-only predicate's value for every card (``shape`` [n]) or pair ([n, n])."""

    name: str
    shape: tuple[int, ...]
    bits: str  # "0"/"1" per entry, row by row


@attrs.frozen
class Key:
    """The position key's facts (``patience.solver.rules.SolverRules``)."""

    card_table: tuple[int, ...]  # 256 entries: what the rules can tell of each card
    always_sorted: tuple[tuple[int, int], ...]
    sorted_when_stock_empty: tuple[tuple[int, int], ...]
    stock_by_cards: bool
    top_piles: tuple[tuple[int, bool], ...]  # (pile, its size is read)


@attrs.frozen
class Ordering:
    first_target_piles: tuple[int, ...]
    parking_piles: tuple[int, ...]
    dealt_piles: tuple[int, ...]
    after_deal: tuple[int, ...] | None  # after a deal, only a deal or a move from these
    pass_merge: tuple[int, int] | None  # (waste, cards a deal): the stock keyed as a cycle


@attrs.frozen
class Beam:
    """The layered beam (``patience.solver.beam``)."""

    layers: bool
    sequences: tuple[tuple[int, tuple[int, ...]], ...]  # (pile, 64 rows of run pairs)


@attrs.frozen
class Guided:
    """The guided search's estimate (``patience.solver.guided``, ``SolverRules.guided``)."""

    runs: tuple[tuple[int, tuple[int, ...]], ...]  # (pile, 64 rows of run pairs)
    #: (pile, the cards an empty pile may take, 64 rows: per top card the cards it may take)
    homes: tuple[tuple[int, int, tuple[int, ...]], ...]
    covered: tuple[int, ...]  # the piles the stock deals onto (``GuidedRules.covered``)
    built: tuple[int, ...]  # the piles built one card at a time (``GuidedRules.built``)
    #: the piles not home that only some cards may fill when empty (``GuidedRules.narrow``)
    narrow: tuple[int, ...]
    #: a child keyed when it is reached (``GuidedRules.keyed_when_reached``)
    keyed_when_reached: bool


@attrs.frozen
class Cards:
    """The card encoding (``patience.cards``): rank × 4 + suit, the face-down bit, the red
    suits, the blank of a gathering redeal's gaps. The core keeps its own as constants (its
    hot loops test bits) and refuses a program whose encoding differs from them."""

    face_down: int
    suits: int  # cards of one rank: 4 (the rank is card >> 2)
    red_suits: tuple[int, ...]
    blank: int  # ``patience.moves.BLANK``: a gap shuffled in by ``gaps: N``, never a card


@attrs.frozen
class Places:
    """Where piles stand (``patience.places``): maps from a pile's number read by the rules'
    ``["near", map, pile]`` (a neighbour: a pile number, -1 for none) and
    ``["place", map, pile]`` (its index, row or column); and the pile ranges of the groups
    whose gaps close (``close_gaps``: the first forced steps, ``RulePlan.closing``)."""

    maps: tuple[tuple[int, ...], ...]
    closing: tuple[tuple[int, int], ...]
    #: the pile ranges whose gaps close when the player deals (``close_gaps: deal``)
    deal_closing: tuple[tuple[int, int], ...]


@attrs.frozen
class Turning:
    """Cards put under a pile (``lands: bottom``: the piles where a move's cards land under
    the others) and turned from the pile the last card went to (``fill_from: last``: the
    piles filled so, the last forced step: ``patience.moves.turn_from_last``)."""

    bottom_piles: tuple[int, ...]
    fill_last_piles: tuple[int, ...]


@attrs.frozen
class Program:
    """A variant's whole rule program."""

    version: int
    id: str
    piles: int
    #: the piles, then the redeal counter if any, then a gathering shuffle's seed, then the
    #: count of draws of a buried card made (``merci``)
    slots: int
    groups: tuple[Group, ...]
    sources: tuple[Source | None, ...]  # per group, as a source of chosen moves
    forced_sources: tuple[Source | None, ...]  # per group, as a source of forced moves
    fills: tuple[Fill, ...]
    win: Rule
    deal_when: Rule
    safe: Rule | None  # solver.safe over a move (None: no move is declared safe)
    deal_targets: tuple[int, ...]
    deal_skips_empty: bool
    deal_fills_empty: bool  # ``empty_piles: only``: a deal feeds the empty targets alone
    redeal: Redeal | None
    gather: Gather | None
    face_down_piles: tuple[int, ...]
    tables: tuple[Table, ...]
    key: Key
    ordering: Ordering
    beam: Beam
    guided: Guided | None  # None: the guided search never runs
    search: SearchConstants  # the search's numbers: the core keeps no copy of its own
    cards: Cards
    max_forced_moves: int  # patience.limits.MAX_FORCED_MOVES: the core keeps no copy
    discards: tuple[Discard, ...]  # in file order
    places: Places
    #: the pile holding the stock's next card face up (``stock.top``): the deal is legal
    #: while it or the stock holds a card, and deals its card first
    stock_top: int | None
    #: ``face_down: covered``: each pile dealt face down because it is covered, with the
    #: piles covering it: its face-down top card turns up once they are all empty
    uncovering: tuple[tuple[int, tuple[int, ...]], ...]
    turning: Turning
    merci: Merci | None  # the draws of a buried card (None: the variant has none)


def to_json(program: Program) -> str:
    """The program as the compact JSON text the core reads."""
    return json.dumps(attrs.asdict(program),
                      separators=(",", ":"))
