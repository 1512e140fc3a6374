"""The search's constants, in one home: the restart schedule, the beams, the move ordering.

Both engines run the same search with these numbers. The pure-Python solver reads
:data:`SEARCH`; the native core gets it inside the rule program (``"search"``,
``patience.native.wire``) and keeps no copy of its own, so a change here is a change of
both engines (and of every golden program in ``tests/programs/``). Why each number is what
it is: docs/solver.md ("Move ordering", "Restarts", "The layered beam"). A variant a hint
derives to look for a line without take-backs has ordering scores of its own
(``Variant.ordering_scores``, ``patience.solver.lines``): both engines read them through
``SolverRules.scores``, the core in that variant's program.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Scores:
    """The move ordering's scores (``patience.solver.search.make_ordering``): a higher score
    is tried first; ``+ k`` means plus the run's length."""

    home: int = 1000  # onto a pile of a 'target: first' group (a foundation)
    turns_up: int = 800  # uncovers a face-down card
    empties_pile: int = 700  # a whole pile onto a card
    parking_onto: int = 600  # from a parking pile (the tail) onto a card
    parking_to_empty: int = 250  # from a parking pile into an empty pile
    whole_run_onto: int = 400  # + k: a whole run onto a card, leaving a card behind
    split_run_onto: int = 200  # + k: part of a run onto a card
    whole_run_to_empty: int = 100  # a whole run (not a whole pile) into an empty pile
    pile_to_empty: int = 90  # a whole pile into an empty pile not fed by the deal
    into_parking_whole: int = 80  # a whole run into a parking pile, leaving a card behind
    split_run_to_empty: int = 40  # part of a run into an empty pile
    into_parking: int = 20  # other moves into a parking pile
    dealt_pile_to_empty: int = -500  # a whole dealt pile into an empty pile
    deal: int = -1000  # the deal: after every move but a take-back
    #: the deal when the stock is a cycle (``SolverRules.pass_merge``): between the moves
    #: that empty a pile (700) and those from a parking pile onto a card (600)
    cheap_deal: int = 650
    take_back: int = -1100  # a card taken back off a 'target: first' pile: last of all
    jitter: int = 60  # styles >= 1 add a draw from [0, jitter) to each score


#: the most guided searches a solve runs side by side (``GuidedConstants.depth_weights``;
#: ``store::FLARES`` in the native core)
FLARES = 2


@attrs.frozen
class GuidedConstants:
    """The guided search's numbers (``patience.solver.guided``): its estimate's weights
    and the most positions it expands in a solve, in turns beside the restarts."""

    home_weight: int = 5  # per card home
    run_weight: int = 2  # per card under the top run of a pile whose runs the rules tell
    #: per card under the top run of a pile built one card at a time (``built_rows``): its
    #: cards move singly, so a card out of order costs less than under a run that moves whole
    built_weight: int = 1
    parked_weight: int = 2  # per card of another pile not home (a cell)
    empty_weight: int = 3  # per empty pile not home that any card may fill
    #: per empty pile not home that only some cards may fill (Kings only, or none): such a
    #: gap frees no card but those, so it does not count
    narrow_empty_weight: int = 0
    next_weight: int = 1  # per card above a card a home pile may take now
    down_weight: int = 3  # per face-down card not home
    #: per break (adjacent face-up cards not a run) on a pile a deal covers, where the
    #: cards under the top run tell nothing: a deal buries every run
    break_weight: int = 4
    stock_weight: int = 3  # per card in the stock (as far from play as a face-down card)
    #: per face-down card on a pile a deal covers (Spider's columns): more than elsewhere,
    #: the balance of a deal's cost (its breaks) and the cards turned up (solver 1.19:
    #: Spider's deals 1-60 at 10^6 positions, 48 won against 36)
    covered_down_weight: int = 4
    #: the guided searches of a solve (at most two: the native store has a mark for each),
    #: side by side, each from the root with its own weight per move from the root (a
    #: position's rank adds it to its estimate) and ``budget`` positions, taking the guided
    #: turns in order: the second ranks by another balance of the same estimate (fc-solve's
    #: flares), and each wins deals the other is slow on
    depth_weights: tuple[int, ...] = attrs.field(
        default=(1, 2), validator=attrs.validators.max_len(FLARES))
    budget: int = 200_000  # positions in all the turns of one guided search
    #: ... or this share of the solve's budget where that is more (solver 1.20): at
    #: 10,000,000 positions each guided search gets 2,000,000, not 200,000, and a solve of
    #: 1,000,000 positions or fewer is as before
    budget_share: int = attrs.field(default=5, validator=attrs.validators.ge(1))
    #: where a stock is dealt, its first turn comes once a solve has spent this many
    #: positions (the restarts decide most such deals sooner, the stock macro moves
    #: walking the stock for them)
    stock_from: int = 100_000
    #: a guided search's first turn is at least this many positions, not the first
    #: restart's 500: most deals it wins are won in its first positions, and a turn that
    #: ends just short of the win pays a restart and the other search's turn first
    first_turn: int = 2_000


@attrs.frozen
class SearchConstants:
    #: the restart schedule: run i gets ``restart_unit * luby(i + 1)`` positions, with
    #: ordering style ``i % styles``; the run that would pass the budget gets what is left
    restart_unit: int = 500
    styles: int = 6
    #: the depth-first restarts search alone until they have spent this many positions
    #: more than the beams (so a deal they decide quickly is decided as before)
    beam_from: int = 100_000
    beam_width: int = 50  # the first beam's width; each later beam is twice as wide
    max_beam_width: int = 1 << 20  # the widest beam (the doubling stops there)
    beam_cap: int = 200  # positions searched from each entry of a layer before the deal
    beam_endgame: int = 2_000  # positions of the search from an entry whose stock is empty
    #: the beam's disorder: break_weight × (breaks + face-down cards) − empty_weight ×
    #: empty piles − cards home
    break_weight: int = 10
    empty_weight: int = 3
    scores: Scores = Scores()
    guided: GuidedConstants = GuidedConstants()


#: the constants both engines search with
SEARCH = SearchConstants()
