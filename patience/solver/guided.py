"""The guided search: best first, by an estimate of how far a position is from won.

A depth-first search with a fixed move ordering walks far down a bad line before it comes
back (the FreeCell family's hard deals; a Klondike whose stock must be played early). The
guided search expands, of all the positions it has reached, the one of least *rank*: its
estimate plus ``depth_weight`` per move from the root, each keyed as the restarts key it
when its turn comes (a position seen in the run is never expanded again, nor one the
restarts have proven lost: solver 1.13; keyed when its turn comes, not when it is reached:
1.17, but where the estimate counts breaks: ``GuidedRules.keyed_when_reached``).
:func:`patience.solver.solve` gives it turns beside the depth-first restarts, up to a
share of the budget (where a stock is dealt, from ``SEARCH.guided.stock_from`` positions
on), and to a second guided search from the root with another depth weight beside it
(``SEARCH.guided.depth_weights``: the two take the turns in order, solver 1.15); run out
of positions, a guided search has searched everything and proves ``unwinnable`` as a
restart does (docs/solver.md, "The guided search").

The estimate is derived from the rules only (``SolverRules.guided``): lower is better,

    estimate = − home_weight × cards home
               + run_weight × cards under the top run of piles whose runs the rules tell
                 and no deal covers (built_weight on piles built one card at a time)
               + break_weight × adjacent face-up cards not a run, on the piles a deal
                 covers (``Variant.deal_targets``: Spider's columns)
               + parked_weight × cards of other piles not home (cells, a reserve)
               − empty_weight × empty piles not home that any card may fill (one only
                 some cards may fill, as Klondike's take Kings: narrow_empty_weight)
               + next_weight × the depth of each card a home pile may take now
               + down_weight × face-down cards not home (covered_down_weight on the
                 piles a deal covers)
               + stock_weight × cards in the stock

where a pile group's ``all a, b in pairs(run): …`` conjuncts say which adjacent cards form
a run (as for the layered beam; where no stock is dealt, a group whose cards move one at a
time is read by its ``accepts`` rule for one card), a pair counting only if a home group's
own such conjuncts allow it where it has them, and each home group's ``accepts`` rule,
read for one card, says which cards its piles may take: those lying under others in a
pile count how deep they lie (0 on top). The weights live in ``patience.solver.constants``.

Ties go to the position reached first, children in the order of their sorted moves, and a
safe move (``solver.safe``) is a position's only child where one is legal, as in the
restarts. Where moves after a deal are restricted (``SolverRules.after_deal``), a position
reached by a deal is its own node, its moves restricted, and not counted (a step of a stock
macro move), and when the stock is keyed as a cycle (``SolverRules.pass_merge``) the other
positions are keyed so, both as the restarts do (docs/solver.md, "Stock macro moves").
Nothing depends on the clock, so the search gives the same positions and line
every time. This module is the reference; the native core runs the same search
(``native/src/guided.rs``), position for position.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING

from patience.cards import FACE_DOWN
from patience.moves import MoveTuple
from patience.solver.constants import SEARCH
from patience.solver.search import (
    AFTER_DEAL,
    BUDGET,
    EXHAUSTED,
    TIMEOUT,
    WON,
    Line,
    line_of,
    moves_to_try,
    pass_key,
)

if TYPE_CHECKING:
    from patience.solver.rules import GuidedRules, SolverRules

#: the pile separator of a stored position (never a card: cards are below 0xFD)
SEPARATOR = b"\xff"
#: between a stored position's piles and its stock
STOCK = b"\xfe"


Estimate = Callable[[Sequence[Sequence[int]], Sequence[int]], int]


def make_estimate(guided: GuidedRules, piles: int) -> Estimate:
    """The estimate of a variant's positions (``piles`` piles), as the guided search ranks
    them (lower is better): see the module's docstring."""
    constants = SEARCH.guided
    homes = [(index, on_empty, rows) for start, stop, on_empty, rows in guided.homes
             for index in range(start, stop)]
    home_piles = {index for index, _, _ in homes}
    runs_of = {index: rows for start, stop, rows in guided.runs for index in range(start, stop)}
    others = [(index, runs_of.get(index), index in guided.covered, index in guided.built,
               index in guided.narrow) for index in range(piles) if index not in home_piles]
    weights = (constants.home_weight, constants.run_weight, constants.built_weight,
               constants.parked_weight, constants.empty_weight, constants.narrow_empty_weight,
               constants.next_weight, constants.down_weight, constants.stock_weight,
               constants.break_weight, constants.covered_down_weight)

    def estimate(position: Sequence[Sequence[int]], stock: Sequence[int]) -> int:
        home = under = built_under = parked = empty = narrow_empty = deep = down = breaks = 0
        covered_down = 0  # face-down cards of the piles a deal covers
        wanted = 0  # the cards some home pile may take now
        for index, on_empty, rows in homes:
            pile = position[index]
            home += len(pile)
            if not pile:
                wanted |= on_empty
            elif pile[-1] < FACE_DOWN:
                wanted |= rows[pile[-1]]
        for index, runs, dealt_onto, built, narrow in others:
            pile = position[index]
            if not pile:
                if narrow:
                    narrow_empty += 1
                else:
                    empty += 1
                continue
            if runs is None:
                parked += len(pile)
            elif dealt_onto:  # a deal covers it: its breaks count
                breaks += sum(1 for below, above in pairwise(pile)
                              if below < FACE_DOWN and above < FACE_DOWN
                              and not runs[below] >> above & 1)
            else:
                bottom = len(pile) - 1  # the bottom card of the top run
                while bottom > 0 and pile[bottom] < FACE_DOWN and pile[bottom - 1] < FACE_DOWN \
                        and runs[pile[bottom - 1]] >> pile[bottom] & 1:
                    bottom -= 1
                if built:
                    built_under += bottom
                else:
                    under += bottom
            depth = len(pile) - 1
            faces_down = 0
            for card in pile:
                if card >= FACE_DOWN:
                    faces_down += 1
                elif wanted >> card & 1:
                    deep += depth
                depth -= 1
            if dealt_onto:
                covered_down += faces_down
            else:
                down += faces_down
        home_weight, run_weight, built_weight, parked_weight, empty_weight, \
            narrow_empty_weight, next_weight, down_weight, stock_weight, break_weight, \
            covered_down_weight = weights
        return (run_weight * under + built_weight * built_under + parked_weight * parked
                + next_weight * deep + down_weight * down + stock_weight * len(stock)
                + covered_down_weight * covered_down
                + break_weight * breaks - home_weight * home - empty_weight * empty
                - narrow_empty_weight * narrow_empty)

    return estimate


class Guided:
    """One guided search from a position (``piles`` and ``stock``). It keeps its state
    between calls of :meth:`run`, so a solve can give it turns beside the restarts."""

    def __init__(self, rules: SolverRules, piles: Sequence[Sequence[int]],
                 stock: Sequence[int], lost: set[bytes] | None = None,
                 depth_weight: int | None = None) -> None:
        assert rules.guided is not None
        self.rules = rules
        #: a position's rank adds this per move from the root (``GuidedConstants``)
        self.depth_weight = SEARCH.guided.depth_weights[0] if depth_weight is None \
            else depth_weight
        #: keys of positions the restarts proved lost (the solve's set, shared): never
        #: pushed, as the restarts never enter them
        self.lost: set[bytes] = set() if lost is None else lost
        self.estimate = make_estimate(rules.guided, len(rules.variant.pile_names))
        #: a child keyed when it is reached, not when its turn comes (the rules decide)
        self._key_when_reached = rules.guided.keyed_when_reached
        self.expanded = 0  # by the last call of run, less the positions reached by a deal
        self.line: list[MoveTuple] = []
        #: the key of a position not reached by a deal: the restarts' (Search.run)
        self._key = rules.key if rules.pass_merge is None else \
            pass_key(rules.key, *rules.pass_merge)
        self._seen = {self._key([list(p) for p in piles], list(stock))}
        # (rank, order of arrival, the position it was reached from stored, the line to it,
        # its length, whether a deal reached it where moves after one are restricted): a
        # position's rank is its estimate plus depth_weight × the moves to it; it is made
        # again from the position before when its turn comes (the root from its own
        # position, its line None)
        self._heap: list[tuple[int, int, bytes, Line, int, bool]] = \
            [(self.estimate(piles, stock), 0, _stored(piles, stock), None, 0, False)]
        self._arrivals = 1

    def run(self, budget: int, deadline: float | None = None,
            should_stop: Callable[[int], bool] | None = None) -> str:
        """Search on until a win (``self.line`` holds it), ``budget`` more positions
        expanded or the deadline, or ``should_stop`` (called with the positions this call
        counted, every 1024 expanded) answers true (TIMEOUT). A position reached by a deal
        where moves after one are restricted is not counted (as in ``Search.run``). A search
        with nothing left to expand has expanded every position reachable from the root:
        it ends as EXHAUSTED, a proof as a depth-first run's is."""
        rules, variant, estimate = self.rules, self.rules.variant, self.estimate
        key, dealt_key, generate, is_won = self._key, rules.key, variant.generate_moves, \
            variant.is_won
        play, take_back, is_safe = variant.play, variant.take_back, variant.is_safe
        feeds = rules.after_deal
        waste = None if rules.pass_merge is None else rules.pass_merge[0]
        heap, seen, lost, push, pop = self._heap, self._seen, self.lost, heapq.heappush, \
            heapq.heappop
        depth_weight, key_when_reached = self.depth_weight, self._key_when_reached

        def reached(piles: list[list[int]], stock: list[int], deal: bool) -> bool:
            """Whether the position is new to this search and not proven lost (``deal``:
            reached by a deal where moves after one are restricted); seen from now on."""
            found = AFTER_DEAL + dealt_key(piles, stock) if deal else key(piles, stock)
            if found in seen or found in lost:
                return False
            seen.add(found)
            return True

        expanded = walked = 0
        check_at = 1024
        while heap:
            if expanded >= budget:
                self.expanded = expanded
                return BUDGET
            _, _, before, line, depth, dealt = pop(heap)
            piles, stock = _restored(before)
            if line is not None:
                play(piles, stock, line[0])
                # keyed now, not when pushed: a position reached before (by this search,
                # or proven lost by the restarts) is passed over, not counted
                if not key_when_reached and not reached(piles, stock, dealt):
                    continue
            stored = _stored(piles, stock)  # its children's position before
            expanded += not dealt
            walked += 1
            moves = generate(piles, stock)
            if not moves:
                if is_won(piles, stock):
                    self.line, self.expanded = line_of(line), expanded
                    return WON
                continue
            for move in moves_to_try(is_safe, piles, stock, moves, feeds if dealt else None,
                                     waste):
                undo = play(piles, stock, move)
                deal = feeds is not None and move[0] == -1
                if not key_when_reached or reached(piles, stock, deal):
                    push(heap, (estimate(piles, stock) + depth_weight * (depth + 1),
                                self._arrivals, stored, (move, line), depth + 1, deal))
                    self._arrivals += 1
                take_back(piles, stock, move, undo)
            if walked >= check_at:
                check_at += 1024
                if (deadline is not None and time.perf_counter() > deadline) or \
                        (should_stop is not None and should_stop(expanded)):
                    self.expanded = expanded
                    return TIMEOUT
        # nothing left to expand: every position reachable was expanded and none was won,
        # as when a depth-first run ends with nothing more to search
        self.expanded = expanded
        return EXHAUSTED


def _stored(piles: Sequence[Sequence[int]], stock: Sequence[int]) -> bytes:
    """A position as the heap keeps it: the piles joined, then the stock."""
    return SEPARATOR.join(map(bytes, piles)) + STOCK + bytes(stock)


def _restored(stored: bytes) -> tuple[list[list[int]], list[int]]:
    """The piles and stock of a position kept by :func:`_stored`."""
    piles, _, stock = stored.partition(STOCK)
    return [list(pile) for pile in piles.split(SEPARATOR)], list(stock)
