"""The guided search: best first, by an estimate of how far a position is from won.

Where no stock is ever dealt (the FreeCell family), a depth-first search with a fixed move
ordering walks far down a bad line before it comes back. The guided search expands, of
all the positions it has reached, the one whose *estimate* is least, its children keyed
as the restarts key them (a position seen in the run is never expanded again). It only
finds wins: it keeps no proof of anything, and :func:`patience.solver.solve` runs it
first with a share of the budget, then the depth-first restarts with the rest, which
alone give ``unwinnable`` (docs/solver.md, "The guided search").

The estimate is derived from the rules only (``SolverRules.guided``): lower is better,

    estimate = − home_weight × cards home
               + run_weight × cards under the top run of piles whose runs the rules tell
               + parked_weight × cards of other piles not home (cells, a reserve)
               − empty_weight × empty piles not home
               + next_weight × the depth of each card a home pile may take now

where a pile group's ``all a, b in pairs(run): …`` conjuncts say which adjacent cards form
a run (as for the layered beam) and each home group's ``accepts`` rule, read for one card,
says which cards its piles may take: those lying under others in a pile count how deep
they lie (0 on top). The weights live in ``patience.solver.constants``.

Ties go to the position reached first, children in the order of their sorted moves, and a
safe move (``solver.safe``) is a position's only child where one is legal, as in the
restarts. Nothing depends on the clock, so the search gives the same positions and line
every time. This module is the reference; the native core runs the same search
(``native/src/guided.rs``), position for position.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from patience.cards import FACE_DOWN
from patience.moves import MoveTuple
from patience.solver.constants import SEARCH
from patience.solver.search import BUDGET, EXHAUSTED, TIMEOUT, WON, Line, line_of, moves_to_try

if TYPE_CHECKING:
    from patience.solver.rules import GuidedRules, SolverRules

#: the pile separator of a stored position (never a card: cards are below 0xFD)
SEPARATOR = b"\xff"


Estimate = Callable[[Sequence[Sequence[int]]], int]


def make_estimate(guided: GuidedRules, piles: int) -> Estimate:
    """The estimate of a variant's positions (``piles`` piles), as the guided search ranks
    them (lower is better): see the module's docstring."""
    constants = SEARCH.guided
    homes = [(index, on_empty, rows) for start, stop, on_empty, rows in guided.homes
             for index in range(start, stop)]
    home_piles = {index for index, _, _ in homes}
    runs_of = {index: rows for start, stop, rows in guided.runs for index in range(start, stop)}
    others = [(index, runs_of.get(index)) for index in range(piles) if index not in home_piles]
    weights = (constants.home_weight, constants.run_weight, constants.parked_weight,
               constants.empty_weight, constants.next_weight)

    def estimate(position: Sequence[Sequence[int]]) -> int:
        home = under = parked = empty = deep = 0
        wanted = 0  # the cards some home pile may take now
        for index, on_empty, rows in homes:
            pile = position[index]
            home += len(pile)
            if not pile:
                wanted |= on_empty
            elif pile[-1] < FACE_DOWN:
                wanted |= rows[pile[-1]]
        for index, runs in others:
            pile = position[index]
            if not pile:
                empty += 1
                continue
            if runs is None:
                parked += len(pile)
            else:
                bottom = len(pile) - 1  # the bottom card of the top run
                while bottom > 0 and pile[bottom] < FACE_DOWN and pile[bottom - 1] < FACE_DOWN \
                        and runs[pile[bottom - 1]] >> pile[bottom] & 1:
                    bottom -= 1
                under += bottom
            depth = len(pile) - 1
            for card in pile:
                if card < FACE_DOWN and wanted >> card & 1:
                    deep += depth
                depth -= 1
        home_weight, run_weight, parked_weight, empty_weight, next_weight = weights
        return (run_weight * under + parked_weight * parked + next_weight * deep
                - home_weight * home - empty_weight * empty)

    return estimate


def applies(rules: SolverRules, stock: Sequence[int]) -> bool:
    """Whether the guided search runs from a position: its variant has the guided rules
    (``SolverRules.guided``) and the position's stock is empty."""
    return not stock and rules.guided is not None


class Guided:
    """One guided search from a position (``piles``; its stock empty). It keeps its state
    between calls of :meth:`run`, so a solve can give it turns beside the restarts."""

    def __init__(self, rules: SolverRules, piles: Sequence[Sequence[int]]) -> None:
        assert rules.guided is not None
        self.rules = rules
        self.estimate = make_estimate(rules.guided, len(rules.variant.pile_names))
        self.expanded = 0  # by the last call of run
        self.line: list[MoveTuple] = []
        stock: list[int] = []
        self._seen = {rules.key([list(p) for p in piles], stock)}
        # (rank, order of arrival, the piles it was reached from joined, the line to it,
        # its length): a position's rank is its estimate plus depth_weight × the moves to
        # it; it is made again from the position before when its turn comes (the root from
        # its own piles, its line None)
        self._heap: list[tuple[int, int, bytes, Line, int]] = \
            [(self.estimate(piles), 0, SEPARATOR.join(map(bytes, piles)), None, 0)]
        self._arrivals = 1

    def run(self, budget: int, deadline: float | None = None,
            should_stop: Callable[[int], bool] | None = None) -> str:
        """Search on until a win (``self.line`` holds it), ``budget`` more positions
        expanded or the deadline, or ``should_stop`` (called with the positions this call
        expanded, every 1024 of them) answers true (TIMEOUT). A search with nothing left to
        expand has expanded every position reachable from the root: it ends as EXHAUSTED,
        a proof as a depth-first run's is."""
        rules, variant, estimate = self.rules, self.rules.variant, self.estimate
        key, generate, is_won = rules.key, variant.generate_moves, variant.is_won
        play, take_back, is_safe = variant.play, variant.take_back, variant.is_safe
        heap, seen, push, pop = self._heap, self._seen, heapq.heappush, heapq.heappop
        stock: list[int] = []
        depth_weight = SEARCH.guided.depth_weight
        expanded = 0
        check_at = 1024
        while heap:
            if expanded >= budget:
                self.expanded = expanded
                return BUDGET
            _, _, before, line, depth = pop(heap)
            piles = [list(pile) for pile in before.split(SEPARATOR)]
            if line is not None:
                play(piles, stock, line[0])
            stored = SEPARATOR.join(map(bytes, piles))  # its children's position before
            expanded += 1
            moves = generate(piles, stock)
            if not moves:
                if is_won(piles, stock):
                    self.line, self.expanded = line_of(line), expanded
                    return WON
                continue
            for move in moves_to_try(is_safe, piles, stock, moves):
                undo = play(piles, stock, move)
                child = key(piles, stock)
                if child not in seen:
                    seen.add(child)
                    push(heap, (estimate(piles) + depth_weight * (depth + 1), self._arrivals,
                                stored, (move, line), depth + 1))
                    self._arrivals += 1
                take_back(piles, stock, move, undo)
            if expanded >= check_at:
                check_at += 1024
                if (deadline is not None and time.perf_counter() > deadline) or \
                        (should_stop is not None and should_stop(expanded)):
                    self.expanded = expanded
                    return TIMEOUT
        # nothing left to expand: every position reachable was expanded and none was won,
        # as when a depth-first run ends with nothing more to search
        self.expanded = expanded
        return EXHAUSTED
