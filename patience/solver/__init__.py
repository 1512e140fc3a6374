"""The solver: one search for every variant, proving deals won or unwinnable.

>>> import patience
>>> from patience.solver import solve
>>> result = solve(patience.find_variant("tabbycat-autoremove").deal(1))
>>> result.verdict
'won'
>>> game = patience.find_variant("tabbycat-autoremove").deal(1)
>>> for move in result.moves:
...     game.push(move)
>>> game.is_won()
True

The solver knows the stock order, as the seed site's solver does: it answers "can this deal
be won by someone who knows which cards come next", not "how likely is a player to win".
See ``docs/solver.md`` for the search, the position key and why each reduction is sound.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

import attrs

from patience import native
from patience.arguments import ATTEMPTS, MAX_POSITIONS_BOUND, SAMPLES, check_budget
from patience.cards import MASK64
from patience.errors import NoWinnableDealError, SolverError
from patience.moves import MoveTuple
from patience.native import Engine, EngineChoice
from patience.solver.beam import Beam, BeamSchedule
from patience.solver.beam import applies as beam_applies
from patience.solver.constants import SEARCH
from patience.solver.guided import Guided
from patience.solver.rules import SolverRules, solver_rules
from patience.solver.search import BUDGET, EXHAUSTED, TIMEOUT, UNLIMITED, WON, Search, make_ordering

if TYPE_CHECKING:
    from patience.game import Game
    from patience.variant import Variant

#: Changes whenever a change to the search could change a verdict, a line or a count: batch
#: studies store results per solver version (``patience stats``).
SOLVER_VERSION = "1.20"  # 1.1: won lines shortened; 1.2: proven-lost table, no undo move
# 1.3: take-backs off the foundations after the deal, turn-ups first; whole lost components
# proven lost (Tarjan); a pile no card leaves and no rule reads below its top (Golf's waste,
# Black Hole's hole, one-way foundations) keyed by its top card and size;
# declared safe moves (solver.safe) played alone where one is legal
# 1.4: after a deal only a deal or a move from the piles it feeds, where every other move
# commutes with it; a stock and waste that deals alone go round for ever keyed as a cycle,
# and then the deal comes before moves into empty piles; without forced moves and fills the
# columns sort in the key even when the foundations are not symmetric (docs/solver.md)
# 1.5: safe moves derived from the rules where a file declares none (no take-back:
# patience.safe_derivation; shipped files derive only what Streets and Alleys declared, so their
# search is the same; a user's file of that shape gains them)
# 1.6: a 'target: first' group whose accepts needs an empty pile sorts in the key too, where
# no forced move or fill reads its order (FreeCell's cells, the sets' foundations)
# 1.7: where the stock never comes back, layered beams beside the restarts once these have
# spent 100,000 positions (patience.solver.beam)
# 1.8: where moves after a deal are restricted, a position reached by a deal is a step of a
# stock macro move: not counted in positions nor charged to max_positions (the restart
# schedule still counts it, so the search is the same)
# 1.9: where no stock is ever dealt, a guided search (best first, by an estimate derived
# from the rules) takes turns with the restarts (patience.solver.guided)
# 1.10: the guided search where a stock is dealt too, from 100,000 positions on, its
# estimate counting face-down cards and the stock; its positions reached by a deal are steps
# of stock macro moves, as the restarts'
# 1.11: the guided search reads a run as ordered only as far as the home piles would take
# it (Tarantula's and Black Widow's runs by suit, a Tabby Cat run not across King on Ace)
# 1.12: where no stock is dealt, the guided search reads piles built one card at a time as
# their accepts rule builds them (25 more games: Beleaguered Castle, King Albert, Fan...)
# 1.13: the guided search never pushes a position the restarts proved lost (their proofs
# are no longer lost to its turns: Fan)
# 1.14: the guided search's estimate weighs the cards under a built pile's top run 1, not
# 2, and an empty pile that only some cards may fill (Kings, or none) not at all
# and once the guided search has spent its budget, a second runs from the root, ranking by
# a depth weight of 2 (fc-solve's flares)
# 1.15: the two guided searches run side by side from the start, taking the guided turns in
# order, rather than one after the other (FreeCell deals 1-1,000: fewer positions)
# 1.16: a guided search's first turn is at least 2,000 positions (GuidedConstants.first_turn)
# 1.17: the guided search keys a position when its turn comes, not when it is reached (of
# the copies reached, the least rank is expanded: FreeCell 1.3 times as fast), except where
# its estimate counts breaks (the Spiders, Gypsy, the Tabby Cat dialects: as in 1.16)
# 1.18: FreeCell (and the files extending it), Baker's Dozen, Portuguese Solitaire and
# Whitehead declare a card safe once every card of a lower rank is home, beside the Aces and
# Twos (docs/solver.md, "Safe moves"): their searches play it alone
# 1.19: the guided search's estimate weighs a face-down card on a pile a deal covers 4, not
# 3 (GuidedConstants.covered_down_weight: the Spiders, Gypsy; Spider's deals 1-60 at 10^6
# positions, 48 won against 36)
# 1.20: a guided search's budget is a fifth of the solve's where that is more than 200,000
# (GuidedConstants.budget_share; a solve of 1,000,000 positions or fewer is as before)
#: the verdicts, one vocabulary everywhere (results, studies, the CLI's JSON)
VERDICTS: tuple[Verdict, ...] = ("won", "unwinnable", "unknown")
DEFAULT_MAX_POSITIONS = 1_000_000
#: the restart schedule: run i gets ``RESTART_UNIT * luby(i + 1)`` positions, with ordering
#: style ``i % STYLES``; the run that would pass ``max_positions`` gets what is left
#: (``patience.solver.constants``, the one home of the search's numbers)
RESTART_UNIT = SEARCH.restart_unit
STYLES = SEARCH.styles


Verdict = Literal["won", "unwinnable", "unknown"]


@attrs.frozen
class SolveResult:
    """What :func:`solve` found.

    ``verdict`` is ``"won"`` (``moves`` is a winning line in notation from the given
    position), ``"unwinnable"`` (the whole reachable space was searched), or ``"unknown"``
    (the budget ran out first). ``positions`` counts the positions expanded (first seen and
    their moves generated), summed over restarts; ``seconds`` is wall time; ``engine``
    names the engine that searched (``patience.native.engine``).
    """

    verdict: Verdict
    moves: tuple[str, ...]
    positions: int
    seconds: float
    #: which engine produced it: "native" (the Rust core) or "python" (the reference)
    engine: Engine = "python"

    @property
    def decided(self) -> bool:
        return self.verdict != "unknown"


def luby(i: int) -> int:
    """The Luby sequence 1 1 2 1 1 2 4 1 1 2 …, ``i`` from 1."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while True:
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1


def solve(game: Game, max_positions: int = DEFAULT_MAX_POSITIONS,
          time_limit: float | None = None, *, shorten_line: bool = True,
          prove: bool = False, should_stop: Callable[[int], bool] | None = None,
          engine: EngineChoice = "auto", max_memory: int | None = None,
          beams: bool = True, guides: bool = True) -> SolveResult:
    """Solve the position of ``game`` (which is left unchanged).

    A won line is shortened (``shorten``) unless ``shorten_line`` is false: that costs about
    as much again as deciding, and deciding is all a proof of winnability needs.

    Restarts run depth-first searches with different move orderings and growing budgets
    (a Luby schedule); a run that ends without finding more to search proves the position
    unwinnable. Budget or time running out gives ``unknown``, never ``unwinnable``.

    Where the stock never comes back, layered beams (:mod:`patience.solver.beam`) share the
    budget with the restarts once these have spent ``BEAM_FROM`` positions; ``beams=False``
    leaves them out (the search of solver 1.6, for comparisons). A beam only finds wins.

    Where the rules tell runs (``SolverRules.guided``), the guided search
    (:mod:`patience.solver.guided`), best first by an estimate derived from the rules,
    takes turns with the restarts: before each restart it goes on for as many positions as
    that restart gets, until it has spent ``SEARCH.guided.budget`` or, where that is more,
    ``max_positions // SEARCH.guided.budget_share``. There are two, from the
    root, each ranking by its own depth weight (``SEARCH.guided.depth_weights``), and they
    take those turns in order (fc-solve's flares); where a stock is dealt, from
    ``SEARCH.guided.stock_from`` positions on. ``guides=False`` leaves
    it out (the search of solver 1.8).

    With ``prove`` there are no restarts, no beams and no guided search: one search with
    the main ordering and the whole budget, which exhausts a deal's reachable space when
    it fits (the mode for proving deals unwinnable; restarts are better at finding wins).

    ``should_stop``, when given, is called with the positions expanded so far (every 1024
    of them): a true answer stops the search as the time limit does (``unknown``). Front
    ends use it to show progress and to cancel.

    ``engine`` picks the search: ``"native"`` the Rust core (the same search, compiled),
    ``"python"`` the reference, ``"auto"`` the core when it is built (see
    :func:`patience.native.engine`). ``max_memory`` (bytes, native engine only) bounds the
    stored positions and the search's own stacks together: a search that would pass it
    ends as ``unknown``.

    Each number is checked (``patience.arguments``): a budget past ``MAX_POSITIONS``, a time
    limit that is NaN, infinite or past ``MAX_TIME_LIMIT`` is a :class:`SolverError` that
    names the parameter, the value and the range.
    """
    chosen = native.engine(engine)
    max_positions, time_limit, max_memory = check_budget(max_positions, time_limit, max_memory)
    started = time.perf_counter()
    if chosen == "native":
        return _solve_native(game, max_positions, time_limit, shorten_line, prove, max_memory,
                             should_stop, started, beams, guides)
    deadline = None if time_limit is None else started + time_limit
    rules = solver_rules(game.variant)
    orderings = [make_ordering(rules, style) for style in range(STYLES)]
    spent = 0
    run = 0
    lost: set[bytes] = set()  # positions proven lost, kept across restarts
    schedule = BeamSchedule(beams and not prove and beam_applies(rules, game.stock))
    # the guided search takes turns with the restarts (docs/solver.md, "The guided search")
    # one guided search from the root for each depth weight, each with its own marks of the
    # positions it reached, and the share of the budget it has left; they take the turns
    # in order, one before each restart
    flares = [Guided(rules, game.piles, game.stock, lost, weight)
              for weight in SEARCH.guided.depth_weights] \
        if guides and not prove and rules.guided is not None else []
    # each guided search's budget: its own, or its share of the solve's where that is more
    flare_budget = max(SEARCH.guided.budget, max_positions // SEARCH.guided.budget_share)
    flares_left = [flare_budget for _ in flares]
    next_flare = 0
    guided_from = SEARCH.guided.stock_from if game.variant.deal_targets else 0
    while spent < max_positions:
        stop = None if should_stop is None else \
            (lambda expanded, spent=spent: should_stop(spent + expanded))
        width = schedule.next_width()
        if width:
            beam = Beam(rules, game.piles, game.stock, lost=lost)
            outcome = beam.run(width, max_positions - spent, deadline, stop)
            spent += beam.expanded
            schedule.beam_spent(beam.expanded)
            if outcome == WON:
                line = shorten(game, beam.line) if shorten_line else beam.line
                return _result("won", game, line, spent, started)
            if outcome == TIMEOUT or (should_stop is not None and should_stop(spent)):
                break
            continue
        if flares and spent >= guided_from:  # its turn: as many positions as the next
            # restart's
            guided = flares[next_flare]
            turn = RESTART_UNIT * luby(run + 1)
            if flares_left[next_flare] == flare_budget:  # its first turn
                turn = max(turn, SEARCH.guided.first_turn)
            turn = min(turn, flares_left[next_flare], max_positions - spent)
            outcome = guided.run(turn, deadline, stop)
            spent += guided.expanded
            flares_left[next_flare] -= guided.expanded
            if outcome == WON:
                line = shorten(game, guided.line) if shorten_line else guided.line
                return _result("won", game, line, spent, started)
            if outcome == EXHAUSTED:
                return _result("unwinnable", game, [], spent, started)
            if outcome == TIMEOUT or (should_stop is not None and should_stop(spent)):
                break
            if flares_left[next_flare] <= 0:  # its share is spent: the others go on; after
                # the last the restarts alone
                del flares[next_flare], flares_left[next_flare]
            else:
                next_flare += 1
            if next_flare >= len(flares):
                next_flare = 0
            if spent >= max_positions:
                break
            stop = None if should_stop is None else \
                (lambda expanded, spent=spent: should_stop(spent + expanded))
        # the schedule counts every position a run expands (search.walked), the budget
        # only those not reached by a deal where moves after one are restricted (steps of a
        # stock macro move, docs/solver.md): elsewhere the two are the same
        budget = RESTART_UNIT * luby(run + 1)
        if prove or spent + budget * 2 > max_positions:  # too little left for another run
            budget = UNLIMITED
        search = Search(rules, game.piles, game.stock, lost=lost)
        outcome = search.run(orderings[run % STYLES], budget, deadline, stop,
                             cap=max_positions - spent)
        spent += search.expanded
        schedule.restart_spent(search.walked)
        run += 1
        if outcome == WON:
            line = shorten(game, search.line) if shorten_line else search.line
            return _result("won", game, line, spent, started)
        if outcome == EXHAUSTED:
            return _result("unwinnable", game, [], spent, started)
        if outcome == TIMEOUT or (should_stop is not None and should_stop(spent)):
            break
        assert outcome == BUDGET
    return _result("unknown", game, [], spent, started)


def _solve_native(game: Game, max_positions: int, time_limit: float | None,
                  shorten_line: bool, prove: bool, max_memory: int | None,
                  should_stop: Callable[[int], bool] | None, started: float,
                  beams: bool, guides: bool) -> SolveResult:
    """:func:`solve` by the native core: the same guided search, restarts, beams, orderings
    and proofs."""
    piles = [list(p) for p in game.piles]
    # a won line is cut in the core (`shorten` there), before it becomes Python's tuples
    found = native.core(game.variant).solve(piles, list(game.stock), max_positions,
                                            time_limit, prove, max_memory, should_stop,
                                            beams, shorten=shorten_line, guides=guides)
    outcome, spent = found["outcome"], found["positions"]
    if outcome == WON:
        line = list(found["line"])  # (s, k, t) tuples already
        return _result("won", game, line, spent, started, "native")
    if outcome == EXHAUSTED:
        return _result("unwinnable", game, [], spent, started, "native")
    return _result("unknown", game, [], spent, started, "native")


def shorten(game: Game, line: list[MoveTuple], depth: int = 1,
            time_limit: float | None = None) -> list[MoveTuple]:
    """A winning line with its detours cut: from each position of the line, play the legal
    move that reaches the latest later position of the line, when one does (of several, the
    smallest move tuple, so that the order moves are generated in does not matter).

    Depth-first lines wander (a card parked in the tail and fetched back). Positions are
    compared by exact key (nothing merged), so the cut line reaches the same final position:
    it still wins. Repeated until nothing shortens. Uses the solver's own push and pop. The
    native core cuts a line the same way (``native/src/shorten.rs``), in a tenth of the
    memory: a native solve's line is cut there.

    ``depth`` 2 tries every two moves in a row too (a hint's line,
    ``patience.solver.lines``): the moves that leave the most of the line behind for each
    move made win; of equal gains one move before two, then the smallest. Past
    ``time_limit`` seconds the rest of the line stays as it is.
    """
    rules = solver_rules(game.variant)
    generate = game.variant.generate_moves
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    while True:
        state = Search(rules, game.piles, game.stock, exact=True)
        later = {state.key(state.piles, state.stock): 0}
        for number, move in enumerate(line, start=1):
            state._push(move)
            later[state.key(state.piles, state.stock)] = number  # the line's last visit
        state = Search(rules, game.piles, game.stock, exact=True)
        shorter: list[MoveTuple] = []
        at = 0
        while at < len(line):
            if deadline is not None and time.perf_counter() >= deadline:
                shorter += line[at:]  # out of time: the rest as it is
                break
            best, best_moves = at + 1, [line[at]]
            for move in generate(state.piles, state.stock):
                undo = state._push(move)
                reached = later.get(state.key(state.piles, state.stock), -1)
                if _cuts_more(reached, [move], best, best_moves):
                    best, best_moves = reached, [move]
                if depth >= 2:
                    for second in generate(state.piles, state.stock):
                        undo_second = state._push(second)
                        reached = later.get(state.key(state.piles, state.stock), -1)
                        if _cuts_more(reached, [move, second], best, best_moves):
                            best, best_moves = reached, [move, second]
                        state._pop(second, undo_second)
                state._pop(move, undo)
            for move in best_moves:
                state._push(move)
            shorter += best_moves
            at = best
        if len(shorter) >= len(line):
            return line
        line = shorter
        if deadline is not None and time.perf_counter() >= deadline:
            return line


def _cuts_more(reached: int, moves: list[MoveTuple], best: int,
               best_moves: list[MoveTuple]) -> bool:
    """Whether ``moves`` reaching the line's position ``reached`` (-1: none of it) cut more
    than ``best_moves`` reaching ``best``: more of the line left behind for each move made;
    of equal gains fewer moves, then the smallest."""
    if reached < 0:
        return False
    gain, best_gain = reached - len(moves), best - len(best_moves)
    return gain > best_gain or (gain == best_gain and (
        len(moves) < len(best_moves) or (len(moves) == len(best_moves) and moves < best_moves)))


def _result(verdict: Verdict, game: Game, line: list[MoveTuple], positions: int, started: float,
            engine: Engine = "python") -> SolveResult:
    # a move's notation reads the variant's pile names alone, not the position
    words = tuple(game.notation(move) for move in line)
    return SolveResult(verdict, words, positions, time.perf_counter() - started, engine)


def exhaustive_verdict(game: Game, max_positions: int | None = None, *,
                       engine: EngineChoice = "python") -> Verdict:
    """The reference answer: a plain depth-first search over exact positions, nothing
    merged, no ordering, no restarts. For tests on small decks.

    It is the reference, so it runs in Python unless ``engine`` asks for the core (which
    runs the same plain search natively, for differential tests)."""
    if max_positions is not None:
        MAX_POSITIONS_BOUND.check(max_positions)
    if native.engine(engine) == "native":
        found = native.core(game.variant).exhaustive(
            [list(p) for p in game.piles], list(game.stock), max_positions or 1 << 62)
        outcome = found["outcome"]
        if outcome == WON:
            return "won"
        return "unwinnable" if outcome == EXHAUSTED else "unknown"
    rules = solver_rules(game.variant)
    search = Search(rules, game.piles, game.stock, exact=True)
    outcome = search.run(None, max_positions or 1 << 62)
    if outcome == WON:
        return "won"
    return "unwinnable" if outcome == EXHAUSTED else "unknown"


def hint(game: Game, max_positions: int = DEFAULT_MAX_POSITIONS,
         time_limit: float | None = None, *,
         engine: EngineChoice = "auto",
         should_stop: Callable[[int], bool] | None = None) -> tuple[str | None, SolveResult]:
    """The next move of a winning line (None when there is none or none was found), and
    the result it came from. ``should_stop`` is :func:`solve`'s.

    The line is one a player can follow (``patience.solver.lines.playable_line``): where
    the first line found takes a card back off a home pile, a line without take-backs is
    looked for in what is left of the budget and the time, and given when found; then it
    is cut two moves at a time too, for at most half a second (``lines.cut_deeper``)."""
    from patience.solver.lines import cut_deeper, playable_line, remaining

    check_budget(max_positions, time_limit)
    started = time.perf_counter()
    result = solve(game, max_positions, time_limit, engine=engine, should_stop=should_stop)
    if should_stop is None or not should_stop(result.positions):
        result = playable_line(game, result, max_positions, remaining(time_limit, started),
                               engine=engine, should_stop=should_stop)
        result = cut_deeper(game, result, remaining(time_limit, started), engine=engine)
    return (result.moves[0] if result.moves else None), result


@attrs.frozen
class ViewHint:
    """A hint from what the player can see: the move most often first in the winning lines
    of ``samples`` guesses of the hidden cards, and how many of the guesses were won."""

    move: str | None
    won: int
    samples: int


def hint_from_view(game: Game, samples: int = 8, max_positions: int = 20_000,
                   seed: int = 0, *, engine: EngineChoice = "auto",
                   should_stop: Callable[[int], bool] | None = None) -> ViewHint:
    """A hint that uses no hidden card: the face-down cards and the stock are dealt again at
    random, ``samples`` times (the cards the player sees stay where they are; a redeal's
    shuffle seed is drawn at random too: the player cannot know the shuffles to come), each
    guess is solved within ``max_positions``, and the first move that wins most often is the
    hint. It can be wrong for the real deal; it never tells what a hidden card is.

    ``should_stop`` is :func:`solve`'s, called with the positions expanded over all the
    guesses; when it stops a search, SolverError("the search was cancelled")."""
    import random

    from patience.cards import FACE_DOWN
    from patience.visibility import hidden_cards, hidden_places

    SAMPLES.check(samples)
    check_budget(max_positions)

    rng = random.Random(seed)
    counts: dict[str, int] = {}
    won = 0
    down = hidden_places(game)
    # sorted: the guesses depend on which cards are hidden, never on where they really are
    hidden = hidden_cards(game)
    spent = 0
    for _ in range(samples):
        guess = hidden[:]
        rng.shuffle(guess)
        probe = game.copy()
        for (i, j), card in zip(down, guess):
            probe.piles[i][j] = card | FACE_DOWN
        probe.stock[:] = guess[len(down):]
        gather = game.variant.gather
        if gather is not None and gather.seed is not None:  # the shuffles to come, guessed
            probe.piles[gather.seed][:] = rng.getrandbits(64).to_bytes(8, "little")
        stop = None if should_stop is None else \
            (lambda expanded, spent=spent: should_stop(spent + expanded))
        result = solve(probe, max_positions, shorten_line=True, engine=engine,
                       should_stop=stop)
        spent += result.positions
        if should_stop is not None and result.verdict == "unknown" \
                and result.positions < max_positions and should_stop(spent):
            raise SolverError("the search was cancelled")
        if result.verdict == "won" and result.moves:
            won += 1
            counts[result.moves[0]] = counts.get(result.moves[0], 0) + 1
    move = max(sorted(counts), key=lambda m: counts[m]) if counts else None
    return ViewHint(move, won, samples)


def first_winnable_deal(variant: Variant, start: int = 1,
                        max_positions: int = DEFAULT_MAX_POSITIONS,
                        attempts: int = 10_000, *,
                        should_stop: Callable[[int], bool] | None = None,
                        engine: EngineChoice = "auto",
                        numbering: str = "patience") -> tuple[int, SolveResult]:
    """The first deal number ≥ ``start`` (wrapping past 2**64 - 1 to 0) that the solver
    proves winnable within ``max_positions``, and its result. Deterministic: no time limit.
    ``numbering`` ``"ms"`` or ``"pysolfc"`` counts Microsoft's or PySolFC's deals instead
    (wrapping past the last to the first: patience.seeds).

    ``should_stop`` is :func:`solve`'s, called with the positions expanded over all the
    deals tried; when it stops the search, SolverError("the search was cancelled").
    """
    from patience.seeds import RANGES, Seed, deal

    ATTEMPTS.check(attempts)
    check_budget(max_positions)
    low, high = RANGES[numbering]
    number = start & MASK64 if numbering == "patience" else min(max(start, low), high)
    spent = 0
    for _ in range(attempts):
        stop = None if should_stop is None else \
            (lambda expanded, spent=spent: should_stop(spent + expanded))
        result = solve(deal(variant, Seed(number, numbering)), max_positions,
                       should_stop=stop, engine=engine)
        if result.verdict == "won":
            return number, result
        spent += result.positions
        if should_stop is not None and result.verdict == "unknown" \
                and result.positions < max_positions and should_stop(spent):
            raise SolverError("the search was cancelled")
        number = number + 1 if number < high else low
    raise NoWinnableDealError(f"no deal of {variant.id} from {start} on was proven winnable in "
                              f"{attempts} deals ({max_positions:,} positions each)")


def daily_seed(variant: Variant, date: datetime.date, numbering: str = "patience") -> int:
    """The day's starting deal number in ``numbering`` (:func:`patience.seeds.daily_start`)."""
    from patience.seeds import daily_start

    return daily_start(variant.id, date, numbering).number


def daily_deal(variant: Variant, date: datetime.date, *,
               should_stop: Callable[[int], bool] | None = None,
               numbering: str = "patience") -> tuple[int, SolveResult]:
    """The day's deal: the first deal from :func:`daily_seed` on that the solver proves
    winnable with the default budget (positions, not seconds, so the same everywhere), in
    ``numbering`` (ours, ``"ms"`` or ``"pysolfc"``). ``should_stop`` as for
    :func:`first_winnable_deal`."""
    return first_winnable_deal(variant, daily_seed(variant, date, numbering),
                               should_stop=should_stop, numbering=numbering)


__all__ = [
    "DEFAULT_MAX_POSITIONS",
    "SOLVER_VERSION",
    "VERDICTS",
    "SolveResult",
    "SolverRules",
    "Verdict",
    "ViewHint",
    "daily_deal",
    "daily_seed",
    "exhaustive_verdict",
    "first_winnable_deal",
    "hint",
    "hint_from_view",
    "shorten",
    "solve",
]
