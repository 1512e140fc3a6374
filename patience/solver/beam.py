"""The layered beam: a search for wins across the deals of a stock that never comes back.

Where the stock deals and is never turned over again (no redeal), every deal cuts the game
into layers: the positions with the same cards left in the stock. Nothing reached after a
deal can reach a position before it, so a depth-first search that has gone past a bad deal
only comes back to it after exhausting everything below — which, in a game of 25 deals
(Maine Coon), never happens within any budget. The beam goes the other way, layer by
layer. From each of the ``width`` positions kept at a layer (its *entries*) it searches
breadth-first, over every move but the deal, up to ``BEAM_CAP`` positions; every position
it finds from which the deal is legal gives a candidate, the position after that deal. The
candidates are ranked by :func:`disorder` and the ``width`` least disordered are the
entries of the next layer. An entry whose stock is empty starts the endgame: a depth-first
search (the main ordering, :class:`~patience.solver.search.Search`) of at most
``BEAM_ENDGAME`` positions.

The beam only ever finds wins: a won line is a line of legal moves, replayed like any
other. It proves nothing, so :func:`patience.solver.solve` gives it a share of the budget
beside the depth-first restarts (docs/solver.md, "The layered beam") and never draws a
verdict of ``unwinnable`` from it.

The ranking is derived from the rules only. A pile group whose ``moves`` rule holds
``all a, b in pairs(run): …`` conjuncts that read nothing but the two cards (Tabby Cat's
``in_sequence(run)``, FreeCell's alternating colours) says which two adjacent cards belong
to one run; each adjacent pair of face-up cards of such a pile that does not is a *break*.
Then ``disorder = 10 × (breaks + face-down cards) − 3 × empty piles − cards on the piles
of 'target: first' groups`` (the foundations), lower is better.

This module is the reference; the native core runs the same search (``native/src/beam.rs``),
position for position.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from patience.cards import FACE_DOWN
from patience.moves import MoveTuple
from patience.solver.constants import SEARCH
from patience.solver.search import (
    BUDGET,
    TIMEOUT,
    WON,
    Line,
    Search,
    line_of,
    make_ordering,
    moves_to_try,
)

if TYPE_CHECKING:
    from patience.solver.rules import SolverRules

# the beam's numbers (their one home is patience.solver.constants)
BEAM_FROM = SEARCH.beam_from
BEAM_WIDTH = SEARCH.beam_width
BEAM_CAP = SEARCH.beam_cap
BEAM_ENDGAME = SEARCH.beam_endgame
MAX_BEAM_WIDTH = SEARCH.max_beam_width

#: a position after a deal, for the next layer: its disorder, its order of arrival, the
#: piles, the stock and the line that reached it
Candidate = tuple[int, int, list[list[int]], list[int], Line]


def disorder(rules: SolverRules, piles: Sequence[Sequence[int]]) -> int:
    """How far the position is from won, as the beam ranks it (lower is better): see the
    module's docstring."""
    breaks = down = empty = home = 0
    rows_of = rules.sequence_rows_of
    first = rules.first_target_piles
    for index in range(len(rules.variant.pile_names)):
        pile = piles[index]
        if index in first:
            home += len(pile)
            continue
        if not pile:
            empty += 1
            continue
        rows = rows_of.get(index)
        below = pile[0]
        if below & FACE_DOWN:
            down += 1
        for above in pile[1:]:
            if above & FACE_DOWN:
                down += 1
            elif not below & FACE_DOWN and rows is not None and not rows[below] >> above & 1:
                breaks += 1
            below = above
    return SEARCH.break_weight * (breaks + down) - SEARCH.empty_weight * empty - home


def applies(rules: SolverRules, stock: Sequence[int]) -> bool:
    """Whether the beam searches from a position: its stock deals and never comes back."""
    return rules.beam_layers and bool(stock)


class Beam:
    """One layered beam from a position (its own copies of the piles and stock), sharing the
    proven-lost keys of the solve (``lost``): a position proven lost is never searched."""

    def __init__(self, rules: SolverRules, piles: Sequence[Sequence[int]],
                 stock: Sequence[int], *, lost: set[bytes]) -> None:
        self.rules = rules
        self.variant = rules.variant
        self.piles = [list(p) for p in piles]
        self.stock = list(stock)
        self.lost = lost
        self.expanded = 0
        self.line: list[MoveTuple] = []
        self._check_at = 1024  # the positions expanded when the deadline is next checked

    def run(self, width: int, budget: int, deadline: float | None = None,
            should_stop: Callable[[int], bool] | None = None) -> str:
        """Search layer by layer until a win (``self.line`` holds it), the budget of
        expanded positions or the deadline is reached, or ``should_stop`` (called with the
        positions expanded so far, every 1024 of them) answers true (TIMEOUT). A beam that
        runs out of candidates ends as BUDGET too: it proves nothing."""
        entries: list[tuple[list[list[int]], list[int], Line]] = \
            [([list(p) for p in self.piles], list(self.stock), None)]
        self.expanded = 0
        self._check_at = 1024
        while entries:
            seen: set[bytes] = set()
            candidates: list[Candidate] = []
            endgames = []
            for piles, stock, line in entries:
                if not stock:
                    endgames.append((piles, stock, line))
                    continue
                entry = self.rules.key(piles, stock)
                if entry in self.lost or entry in seen:
                    continue
                seen.add(entry)
                outcome = self._expand(piles, stock, line, seen, candidates, budget,
                                       deadline, should_stop)
                if outcome is not None:
                    return outcome
            outcome = self._endgames(endgames, budget, deadline, should_stop)
            if outcome is not None:
                return outcome
            candidates.sort(key=_rank)
            entries = [(piles, stock, line) for _, _, piles, stock, line in candidates[:width]]
        return BUDGET

    def _expand(self, piles: list[list[int]], stock: list[int], line: Line, seen: set[bytes],
                candidates: list[Candidate], budget: int, deadline: float | None,
                should_stop: Callable[[int], bool] | None) -> str | None:
        """Expand one entry of the layer breadth first, up to ``BEAM_CAP`` positions, until
        the next deal: the positions after a deal become the next layer's ``candidates``.
        The outcome that ends the beam, or None."""
        rules, variant, lost = self.rules, self.variant, self.lost
        key, generate, is_won = rules.key, variant.generate_moves, variant.is_won
        play, take_back, is_safe = variant.play, variant.take_back, variant.is_safe
        expanded = self.expanded
        queue = deque([(piles, stock, line)])
        count = 0
        while queue and count < BEAM_CAP:
            piles, stock, line = queue.popleft()
            if expanded >= budget:
                self.expanded = expanded
                return BUDGET
            expanded += 1
            count += 1
            moves = generate(piles, stock)
            if not moves:
                if is_won(piles, stock):
                    self.line, self.expanded = line_of(line), expanded
                    return WON
                continue
            for move in moves_to_try(is_safe, piles, stock, moves):
                undo = play(piles, stock, move)
                child = key(piles, stock)
                if child not in lost and child not in seen:
                    seen.add(child)
                    copy = [list(p) for p in piles], list(stock), (move, line)
                    if move[0] == -1:  # the deal: a candidate for the next layer
                        candidates.append((disorder(rules, piles), len(candidates), *copy))
                    else:
                        queue.append(copy)
                take_back(piles, stock, move, undo)
            if expanded >= self._check_at:
                self._check_at += 1024
                if (deadline is not None and time.perf_counter() > deadline) or \
                        (should_stop is not None and should_stop(expanded)):
                    self.expanded = expanded
                    return TIMEOUT
        self.expanded = expanded
        return None

    def _endgames(self, endgames: list[tuple[list[list[int]], list[int], Line]], budget: int,
                  deadline: float | None,
                  should_stop: Callable[[int], bool] | None) -> str | None:
        """The positions of the layer with an empty stock, each searched depth first (at
        most ``BEAM_ENDGAME`` positions each). The outcome that ends the beam, or None."""
        for piles, stock, line in endgames:
            if self.expanded >= budget:
                break
            if self.rules.key(piles, stock) in self.lost:
                continue
            search = Search(self.rules, piles, stock, lost=self.lost)
            stop = None if should_stop is None else \
                (lambda more, before=self.expanded: should_stop(before + more))
            outcome = search.run(make_ordering(self.rules, 0),
                                 min(BEAM_ENDGAME, budget - self.expanded), deadline, stop)
            self.expanded += search.walked  # a beam counts every position
            if outcome == WON:
                self.line = line_of(line) + search.line
                return WON
            if outcome == TIMEOUT:
                return TIMEOUT
        return None


def _rank(candidate: tuple[int, int, object, object, object]) -> tuple[int, int]:
    return candidate[0], candidate[1]


class BeamSchedule:
    """When :func:`patience.solver.solve` runs a beam beside its depth-first restarts.

    The restarts search alone for their first ``BEAM_FROM`` positions; from then on a beam
    runs whenever the restarts have spent ``BEAM_FROM`` more positions than all beams so
    far (and never two beams in a row): the two share the budget about equally. Beam *j*
    (from 0) is ``BEAM_WIDTH × 2^j`` wide and may use all that is left of the budget."""

    def __init__(self, active: bool) -> None:
        self.active = active
        self.restarts = 0  # positions spent by the depth-first restarts
        self.beams = 0  # by the beams
        self.count = 0  # beams run
        self.last_was_beam = False

    def next_width(self) -> int:
        """The width of the beam to run next, or 0: a depth-first restart comes next."""
        if not self.active or self.last_was_beam or self.restarts < self.beams + BEAM_FROM:
            return 0
        return min(BEAM_WIDTH << self.count, MAX_BEAM_WIDTH)

    def beam_spent(self, positions: int) -> None:
        self.beams += positions
        self.count += 1
        self.last_was_beam = True

    def restart_spent(self, positions: int) -> None:
        self.restarts += positions
        self.last_was_beam = False
