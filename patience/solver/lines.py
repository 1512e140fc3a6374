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
import itertools
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs

from patience import native
from patience.definition import Rule
from patience.errors import PatienceError
from patience.game import Game, Move
from patience.language import Boolean
from patience.moves import MoveTuple
from patience.native import EngineChoice
from patience.solver.constants import SEARCH
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
#: where a move home goes in the two move orderings of the search for a line without
#: take-backs (``Scores.home``; the search's own, 1,000, puts it first of all). There a card
#: sent home stays home, and sending it early is what makes the search long (Klondike deal
#: 4: 436,957 positions with the search's own ordering): it goes after the moves that turn
#: up a card or empty a pile (680: below those, 700 and more, above the deal of a stock that
#: goes round, 650; deal 4: 22,933 positions), or after every build of a whole run onto a
#: card too (300: below 400; deal 4: 3,826). Neither is best on every deal, so the two take
#: turns (:func:`search_without_take_backs`); docs/solver.md has the measurements.
HOME_SCORES_WITHOUT_TAKE_BACKS = (680, 300)
#: the positions of each ordering's first turn; each round of turns doubles it
FIRST_TURN_POSITIONS = 10_000


def takes_back(variant: Variant, move: MoveTuple) -> bool:
    """Whether ``move`` takes a card back off a home pile (``Variant.home_piles``) onto a
    pile that is not one."""
    homes = variant.home_piles
    return move[0] in homes and move[2] not in homes


@functools.lru_cache(maxsize=64)
def without_take_backs(variant: Variant, home: int | None = None) -> Variant | None:
    """``variant`` with no card ever leaving a home pile (each home group's ``moves`` made
    ``false``), or None where no card can leave one already (or the rules so changed do not
    compile). Its moves are some of ``variant``'s and its win is the same, so a line that
    wins it wins ``variant``. With ``home``, the solver orders its moves with that score for
    a move home (``Variant.ordering_scores``: both engines)."""
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
        strict = Variant(attrs.evolve(written, groups=tuple(groups)), variant.text)
    except PatienceError:
        return None
    if home is not None:
        strict.ordering_scores = attrs.evolve(SEARCH.scores, home=home)
    return strict


def search_without_take_backs(game: Game, max_positions: int, time_limit: float | None, *,
                              engine: EngineChoice = "auto",
                              should_stop: Callable[[int], bool] | None = None
                              ) -> SolveResult | None:
    """A search of ``game``'s position for a won line with no card ever taken back off a
    home pile, within ``max_positions`` and ``time_limit`` seconds (``should_stop`` as
    :func:`solve`'s); None where no card can leave a home pile anyway.

    The orderings of :data:`HOME_SCORES_WITHOUT_TAKE_BACKS` take turns, each turn a whole
    solve with :data:`FIRST_TURN_POSITIONS` positions, doubled each round, until one
    decides (``won``, or ``unwinnable``: a proof, whatever the ordering) or the budget or
    the time runs out (``unknown``). The answer's positions and seconds count every turn."""
    from patience.solver import solve

    if without_take_backs(game.variant) is None:
        return None
    started = time.perf_counter()
    spent = 0
    result = None
    # the orderings take turns, each round's turns twice as long as the last round's
    turns = ((home, FIRST_TURN_POSITIONS << round_) for round_ in itertools.count()
             for home in HOME_SCORES_WITHOUT_TAKE_BACKS)
    for home, turn in turns:
        strict = without_take_backs(game.variant, home)
        left = remaining(time_limit, started)
        if strict is None or spent >= max_positions or left is not None and left <= 0:
            break
        stop = None if should_stop is None else functools.partial(_after, should_stop, spent)
        result = solve(Game(strict, [list(p) for p in game.piles], list(game.stock)),
                       min(turn, max_positions - spent), left, engine=engine,
                       should_stop=stop)
        spent += result.positions
        if result.verdict != "unknown" or should_stop is not None and should_stop(spent):
            break
    seconds = time.perf_counter() - started
    if result is None:
        from patience.solver import SolveResult

        return SolveResult("unknown", (), 0, seconds, native.engine(engine))
    return attrs.evolve(result, positions=spent, seconds=seconds)


def _after(should_stop: Callable[[int], bool], spent: int, expanded: int) -> bool:
    """``should_stop`` asked of the positions of a search after ``spent`` others."""
    return should_stop(spent + expanded)


def playable_line(game: Game, result: SolveResult, max_positions: int,
                  time_limit: float | None, *, engine: EngineChoice = "auto",
                  should_stop: Callable[[int], bool] | None = None) -> SolveResult:
    """``result`` (a search from ``game``'s position), or where its won line takes a card
    back off a home pile, a won line with no take-back when the solver finds one within
    ``time_limit`` seconds and the larger of ``NO_TAKE_BACK_POSITIONS`` and
    ``NO_TAKE_BACK_FACTOR`` times the positions ``result`` took (at most ``max_positions``).
    The positions and seconds of the answer count both searches; the second is
    :func:`search_without_take_backs`."""
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
    again = search_without_take_backs(game, budget, time_limit, engine=engine,
                                      should_stop=stop)
    assert again is not None  # strict is not None
    spent = result.positions + again.positions
    seconds = result.seconds + again.seconds
    if again.verdict != "won":
        return attrs.evolve(result, positions=spent, seconds=seconds)
    return attrs.evolve(again, positions=spent, seconds=seconds)


def line_without_take_backs(game: Game, max_positions: int, time_limit: float | None, *,
                            engine: EngineChoice = "auto",
                            should_stop: Callable[[int], bool] | None = None
                            ) -> SolveResult | None:
    """A won line from ``game``'s position with no card ever taken back off a home pile,
    searched for with the whole of ``max_positions`` and ``time_limit`` (where a hint's line
    takes cards back, :func:`playable_line`'s second search had a smaller budget), then cut
    as a hint's line is (:func:`cut_deeper`). None where no card can leave a home pile
    anyway. An ``unwinnable`` verdict proves that every win takes a card back."""
    started = time.perf_counter()
    result = search_without_take_backs(game, max_positions, time_limit, engine=engine,
                                       should_stop=should_stop)
    if result is None:
        return None
    return cut_deeper(game, result, remaining(time_limit, started), engine=engine)


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
    ``CUT_SECONDS`` (and ``time_limit``); what time leaves uncut stays as it is. A line
    that takes no card back off a home pile is cut with the moves of
    :func:`without_take_backs`, so the cut line takes none either."""
    from patience.solver import shorten

    seconds = CUT_SECONDS if time_limit is None else min(CUT_SECONDS, time_limit)
    if result.verdict != "won" or len(result.moves) < 3 or seconds <= 0:
        return result
    started = time.perf_counter()
    line: list[MoveTuple] = [(m.source, m.count, m.target) for m in moves_of(game, result)]
    strict = without_take_backs(game.variant)
    variant = game.variant if strict is None or any(takes_back(game.variant, move)
                                                    for move in line) else strict
    cut: list[MoveTuple]
    if native.engine(engine) == "native":
        try:
            cut = native.core(variant).shorten(
                [list(p) for p in game.piles], list(game.stock), line, None, 2, seconds)
        except TypeError:  # a core built before it took a depth: the line as it is
            return result
    else:
        strict_game = game if variant is game.variant else \
            Game(variant, [list(p) for p in game.piles], list(game.stock))
        cut = shorten(strict_game, line, 2, seconds)
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
