"""The check of a variant's declared safe moves (``solver.safe``) on small positions.

A declaration lets the solver play a safe move alone, so a wrong one would make
``unwinnable`` a lie. The check (``patience test`` runs it as ``safe_moves``) looks for a
counterexample where the exact answer is cheap: whole deals where the exhaustive search
decides them (a reduced deck's), and positions near the ends of seeded random
playouts of numbered deals, and near the ends of the solver's own winning lines (where few
cards are left), with a few random moves off those lines. At each position P where a
declared-safe move m is legal it asks the plain exhaustive search (``exhaustive_verdict``,
which never uses the declaration) for the verdicts of P and of P after m, and the solver
(with the declaration, ``prove`` mode) for P's; all within ``budget`` positions. A decided
pair that differs is a failure. What this proves, and what it does not, is in
docs/solver.md ("Safe moves").
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import attrs

from patience.solver.search import first_safe

if TYPE_CHECKING:
    from patience.game import Game
    from patience.variant import Variant

#: the default size of the check: deals, the positions kept from each, the budget of each
#: exhaustive search
DEALS = 12
KEPT = 6
BUDGET = 20_000
PLAYOUT_MOVES = 400
#: at most this many positions with a safe move are checked (drawn at random from the
#: samples, with the check's seed), so the check takes a bounded time
MAX_CHECKED = 150
#: the check stops early once this many (position, move) pairs were left undecided: those
#: are the costly searches, and they prove nothing
MAX_UNDECIDED = 40


@attrs.frozen
class SafetyReport:
    """What the check found: the pairs it compared, those left undecided, the failure."""

    positions: int  # positions where a declared-safe move was legal
    compared: int  # (position, safe move) pairs whose verdicts were both decided
    undecided: int  # pairs where a verdict ran out of budget
    failure: str | None = None
    deals: int = 0  # whole deals the exhaustive search decided (a reduced deck's)

    def summary(self) -> str:
        whole = f"{self.deals} whole deal{'s' if self.deals != 1 else ''} and "
        return (f"{whole}{self.compared} safe moves checked at {self.positions} positions; "
                f"{self.undecided} left undecided within the budget")


def _playout(game: Game, rng: random.Random, limit: int) -> list[Game]:
    """The positions of one random playout from ``game`` (itself included)."""
    seen = [game.copy()]
    for _ in range(limit):
        moves = game.generate_moves()
        if not moves:
            break
        game.push_unchecked(rng.choice(moves))
        seen.append(game.copy())
    return seen


def _samples(variant: Variant, deals: int, kept: int, seed: int) -> list[Game]:
    """Positions near the ends of random playouts and of the solver's winning lines, and a
    few random moves off those lines, from deals ``1..deals``; each at most once."""
    from patience.solver import solve

    rng = random.Random(seed)
    found: dict[str, Game] = {}

    def keep(game: Game) -> None:
        found.setdefault(game.text(), game)

    for number in range(1, deals + 1):
        for game in _playout(variant.deal(number), rng, PLAYOUT_MOVES)[-kept:]:
            keep(game)
        result = solve(variant.deal(number), max_positions=BUDGET, shorten_line=False)
        if result.verdict != "won":
            continue
        line = variant.deal(number)
        positions = []
        for move in result.moves:
            positions.append(line.copy())
            line.push(move)
        for game in positions[-3 * kept:]:
            keep(game)
            for off in _playout(game.copy(), rng, 4)[1:]:
                keep(off)
    return list(found.values())


def check_safe_moves(variant: Variant, *, deals: int = DEALS, kept: int = KEPT,
                     budget: int = BUDGET, seed: int = 0,
                     max_checked: int = MAX_CHECKED) -> SafetyReport:
    """Check ``solver.safe`` on sampled positions (see the module's docstring): at most
    ``max_checked`` positions with a safe move, drawn at random from the samples."""
    from patience.solver import exhaustive_verdict, solve

    is_safe = variant.is_safe
    assert is_safe is not None, "the variant declares no safe moves"
    # whole deals first: on a reduced deck (a file that extends the game with fewer cards
    # inherits its declaration) the exhaustive search decides them from the start
    whole = 0
    for number in range(1, deals + 1):
        start = variant.deal(number)
        exact = exhaustive_verdict(start, budget, engine="auto")
        if exact == "unknown":
            continue
        whole += 1
        reduced = solve(start, max_positions=budget, prove=True, shorten_line=False)
        if reduced.decided and reduced.verdict != exact:
            return SafetyReport(0, 0, 0, (
                f"the solver, playing a move solver.safe calls safe alone wherever one is "
                f"legal, finds deal {number} {reduced.verdict}, but it is {exact} "
                "(exhaustive search)"), whole)
    positions = compared = undecided = 0
    samples = _samples(variant, deals, kept, seed)
    random.Random(seed).shuffle(samples)
    for game in samples:
        if positions == max_checked or undecided >= MAX_UNDECIDED:
            break
        moves = game.generate_moves()
        safe = [m for m in sorted(moves) if m[0] >= 0 and is_safe(game.piles, game.stock, *m)]
        if not safe:
            continue
        positions += 1
        before = exhaustive_verdict(game, budget, engine="auto")
        if before == "unknown":  # no pair here can be decided: the searches after are moot
            undecided += len(safe)
            continue
        for move in safe:
            after_game = game.copy()
            after_game.push(move)
            after = exhaustive_verdict(after_game, budget, engine="auto")
            if after == "unknown":
                undecided += 1
                continue
            compared += 1
            if before != after:
                return SafetyReport(positions, compared, undecided, (
                    f"solver.safe calls {game.notation(move)} safe in {game.text()}, but "
                    f"the position is {before} and after {game.notation(move)} it is "
                    f"{after} (exhaustive search)"), whole)
        chosen = first_safe(is_safe, game.piles, game.stock, moves)
        assert chosen is not None
        reduced = solve(game, max_positions=budget, prove=True, shorten_line=False)
        if reduced.decided and reduced.verdict != before:
            return SafetyReport(positions, compared, undecided, (
                f"the solver, playing a move solver.safe calls safe alone wherever one "
                f"is legal, finds {game.text()} {reduced.verdict}, but it is {before} "
                "(exhaustive search)"), whole)
    return SafetyReport(positions, compared, undecided, None, whole)
