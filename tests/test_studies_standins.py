"""Stand-in solvers for the study tests: fast, deterministic, importable by name.

Workers import a solve function by ``module:function``; these live in a module of their
own so that a worker process (or a ``patience stats --solver`` subprocess with ``tests``
on its path) can import them. Deal N is won when N % 3 == 0, unwinnable when N % 3 == 1
and unknown (the budget spent) when N % 3 == 2. ``PATIENCE_STANDIN_DELAY`` (seconds)
makes every solve sleep, for runs that must be slow enough to kill;
``PATIENCE_STANDIN_EXIT_ON=N`` makes the worker process that gets deal N end at once, as
if it were killed (only ever use it with worker processes).
"""

from __future__ import annotations

import os
import time

import attrs

import patience

SOLVER_VERSION = "standin-1"
VERDICTS = ("won", "unwinnable", "unknown")


@attrs.frozen
class StandInResult:
    verdict: str
    moves: tuple[str, ...]
    positions: int
    seconds: float


def standin_solve(game, max_positions=1_000_000, time_limit=None):
    """A verdict from the deal number; the first legal move (from the compiled rules)."""
    deal = game.deal_number
    if os.environ.get("PATIENCE_STANDIN_EXIT_ON") == str(deal):
        os._exit(9)  # a worker killed under the study (the OOM killer, kill -9)
    delay = float(os.environ.get("PATIENCE_STANDIN_DELAY", "0"))
    if delay:
        time.sleep(delay)
    first_move = game.notation(game.generate_moves()[0])
    verdict = VERDICTS[deal % 3]
    positions = max_positions if verdict == "unknown" else min(max_positions, 10 * deal + 1)
    moves = (first_move,) * (deal % 7 + 1) if verdict == "won" else ()
    return StandInResult(verdict, moves, positions, delay)


def expected_verdict(deal: int) -> str:
    return VERDICTS[deal % 3]


def failing_solve(game, max_positions=1_000_000, time_limit=None):
    if game.deal_number == 4:
        raise RuntimeError("stand-in failure")
    return standin_solve(game, max_positions)


def test_the_stand_in_is_deterministic_and_reads_the_rules():
    variant = patience.find_variant("tabbycat")
    first = standin_solve(variant.deal(3), 500)
    assert first == standin_solve(variant.deal(3), 500)
    assert first.verdict == "won" and first.moves[0] in {
        variant.deal(3).notation(move) for move in variant.deal(3).generate_moves()}
    assert standin_solve(variant.deal(5), 500) == StandInResult("unknown", (), 500, 0.0)
