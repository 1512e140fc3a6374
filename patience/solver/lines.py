"""Hints a player can follow: a won line without take-backs, and a suggestion where the
solver decided nothing.

A depth-first line wins, but it is not always a line a player would play: it may send a
card home and take it back later (FreeCell, Klondike), which a player with automatic moves
home on cannot even follow (the card goes home again by itself). Where the line takes a
card back off a home pile (``Variant.home_piles``), :func:`playable_line` asks the solver
again, within what is left of the budget, for a line of the same game with no card ever
leaving a home pile (:func:`without_take_backs`); every move of such a line is a move of
the game, so it wins the game. Where none is found the first line stays: a line with a
take-back is better than none. Both lines are cut as every won line is (``shorten``: no
position twice, so no full round of the stock that changes nothing).

Where the search decides nothing within its budget, :func:`suggestion` gives a sensible
move at once: the first legal move in the solver's own move ordering that leads to no
position this game has already been in (following suggestions never goes round in a
circle). It is labelled a suggestion by the front ends, never a winning move.

Nothing here reads a variant's name: the home piles and the ordering come from the rules.

>>> import patience
>>> from patience.solver import hint
>>> game = patience.find_variant("freecell").deal(1)
>>> move, result = hint(game)
>>> any(takes_back(game.variant, m) for m in game.parse_moves(" ".join(result.moves)))
False
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs

from patience.definition import Rule
from patience.errors import PatienceError
from patience.game import Game, Move
from patience.language import Boolean
from patience.moves import MoveTuple
from patience.native import EngineChoice
from patience.solver.rules import solver_rules
from patience.solver.search import make_ordering

if TYPE_CHECKING:
    from patience.solver import SolveResult
    from patience.variant import Variant

#: the least budget (positions) of the second search, for a line with no take-back, and how
#: many times the first search's positions it gets when that is more (never more than the
#: hint's own budget)
NO_TAKE_BACK_POSITIONS = 200_000
NO_TAKE_BACK_FACTOR = 4
#: the most seconds a hint's line is cut two moves at a time (``shorten``'s ``depth`` 2)
CUT_SECONDS = 0.5


def takes_back(variant: Variant, move: MoveTuple) -> bool:
    """Whether ``move`` takes a card back off a home pile (``Variant.home_piles``) onto a
    pile that is not one."""
    homes = variant.home_piles
    return move[0] in homes and move[2] not in homes


@functools.lru_cache(maxsize=64)
def without_take_backs(variant: Variant) -> Variant | None:
    """``variant`` with no card ever leaving a home pile (each home group's ``moves`` made
    ``false``), or None where no card can leave one already (or the rules so changed do not
    compile). Its moves are some of ``variant``'s and its win is the same, so a line that
    wins it wins ``variant``."""
    homes = variant.home_piles
    written = variant.definition
    groups = []
    changed = False
    for definition, group in zip(written.groups, variant.groups):
        if not group.moves.never and any(index in homes for index in group.indices):
            definition = attrs.evolve(definition, moves=Rule(
                "false", Boolean((0, 5), False), None, definition.moves.key))
            changed = True
        groups.append(definition)
    if not changed:
        return None
    from patience.variant import Variant

    try:
        return Variant(attrs.evolve(written, groups=tuple(groups)), variant.text)
    except PatienceError:
        return None


def playable_line(game: Game, result: SolveResult, max_positions: int,
                  time_limit: float | None, *, engine: EngineChoice = "auto",
                  should_stop: Callable[[int], bool] | None = None) -> SolveResult:
    """``result`` (a search from ``game``'s position), or where its won line takes a card
    back off a home pile, a won line with no take-back when the solver finds one within
    ``time_limit`` seconds and the larger of ``NO_TAKE_BACK_POSITIONS`` and
    ``NO_TAKE_BACK_FACTOR`` times the positions ``result`` took (at most ``max_positions``).
    The positions and seconds of the answer count both searches."""
    from patience.solver import solve

    if result.verdict != "won" or time_limit is not None and time_limit <= 0:
        return result
    line = moves_of(game, result)
    strict = without_take_backs(game.variant)
    if strict is None or not any(takes_back(game.variant, move) for move in line):
        return result
    budget = min(max_positions, max(NO_TAKE_BACK_POSITIONS,
                                    NO_TAKE_BACK_FACTOR * result.positions))
    stop = None if should_stop is None else \
        (lambda expanded: should_stop(result.positions + expanded))
    again = solve(Game(strict, [list(p) for p in game.piles], list(game.stock)), budget,
                  time_limit, engine=engine, should_stop=stop)
    spent = result.positions + again.positions
    seconds = result.seconds + again.seconds
    if again.verdict != "won":
        return attrs.evolve(result, positions=spent, seconds=seconds)
    return attrs.evolve(again, positions=spent, seconds=seconds)


def moves_of(game: Game, result: SolveResult) -> list[Move]:
    """The moves of ``result``'s line (in notation, from ``game``'s position)."""
    probe = game.copy()
    line = []
    for text in result.moves:
        move = probe.parse_move(text)
        line.append(move)
        probe.push_unchecked(move)
    return line


def cut_deeper(game: Game, result: SolveResult, time_limit: float | None, *,
               engine: EngineChoice = "auto") -> SolveResult:
    """``result``'s won line cut two moves at a time too (``shorten`` with ``depth`` 2: a
    card parked and fetched back over several moves), from its start, for at most
    ``CUT_SECONDS`` (and ``time_limit``); what time leaves uncut stays as it is."""
    from patience import native
    from patience.solver import shorten

    seconds = CUT_SECONDS if time_limit is None else min(CUT_SECONDS, time_limit)
    if result.verdict != "won" or len(result.moves) < 3 or seconds <= 0:
        return result
    started = time.perf_counter()
    line: list[MoveTuple] = [(m.source, m.count, m.target) for m in moves_of(game, result)]
    cut: list[MoveTuple]
    if native.engine(engine) == "native":
        try:
            cut = native.core(game.variant).shorten(
                [list(p) for p in game.piles], list(game.stock), line, None, 2, seconds)
        except TypeError:  # a core built before it took a depth: the line as it is
            return result
    else:
        cut = shorten(game, line, 2, seconds)
    probe = game.copy()
    words = []
    for move in cut:
        words.append(probe.notation(move))
        probe.push_unchecked(move)
    return attrs.evolve(result, moves=tuple(words),
                        seconds=result.seconds + time.perf_counter() - started)


def positions_seen(game: Game) -> set[bytes]:
    """The keys of every position ``game`` has been in, from its start to now."""
    probe = game.copy()
    seen = {probe.key()}
    while probe.move_stack:
        probe.pop()
        seen.add(probe.key())
    return seen


def suggestion(game: Game) -> Move | None:
    """A sensible move where no winning line is known: the first legal move in the
    solver's move ordering (``make_ordering``'s main style: home first, then what turns up
    a card or empties a pile, runs lengthened, …, a take-back last) that leads to no
    position ``game`` has been in; else the first legal move. None when there is none."""
    moves = list(game.generate_moves())
    if not moves:
        return None
    ordered = make_ordering(solver_rules(game.variant), 0)(moves, game.piles)
    seen = positions_seen(game)
    probe = game.copy()
    for move in ordered:
        probe.push_unchecked(move)
        reached = probe.key()
        probe.pop()
        if reached not in seen:
            return Move(*move)
    return Move(*ordered[0])


def remaining(time_limit: float | None, started: float) -> float | None:
    """What is left of ``time_limit`` seconds from ``started`` (``time.perf_counter``)."""
    return None if time_limit is None else time_limit - (time.perf_counter() - started)
