"""Our solver against black-hole-solver (``black-hole-solve``) on Golf and Black Hole.

    python bench/black_hole_solver.py golf --deals 1-100     # exhaustive searches, both
    python bench/black_hole_solver.py black-hole --deals 1-20
    python bench/black_hole_solver.py golf --deals 4 --black-hole-solve /tmp/bhs/black-hole-solve

black-hole-solver (Shlomi Fish, MIT) is never part of this repository: the bench only runs
its binary (``--black-hole-solve``, else ``$BLACK_HOLE_SOLVE``, else ``black-hole-solve`` on
PATH; bench/README.md says how to build it). For each numbered deal N it
  1. writes our deal N in black-hole-solver's format (``patience show VARIANT --seed N
     --format fcs``) and checks it card by card against our position's JSON: the columns
     bottom card first, the one foundation card (Golf's waste, Black Hole's hole), the
     talon in the order our ``d`` turns it (checked by playing ``d``), 52 cards once each;
  2. runs ``black-hole-solve --game golf --queens-on-kings BOARD`` (``--game black_hole``)
     and ``python -m patience solve VARIANT --seed N --prove --json --max-positions BUDGET``,
     each a whole process under the same hard CPU limit, taking turns (ours first on odd
     deals): both are one depth-first search to the first win or to the end;
  3. replays a line black-hole-solver wins through our ``Game.push`` (checked moves), card
     by card: a wrong board shows there;
  4. prints per deal and in total: verdicts, CPU seconds of each whole process, positions
     (ours: distinct positions expanded; black-hole-solver: "Total number of states
     checked", its positions expanded), and positions per CPU second of each side on the
     deals both searched exhaustively (both unwinnable), whole processes and less each
     side's start-up. A decided verdict that differs is printed loudly, and the bench
     exits 1.

The rules are the same (PySolFC's): Golf builds one rank up or down on the waste, no
King-Ace corner, a Queen may go on a King (hence ``--queens-on-kings``: its Golf default
is Dead King Golf's), the stock turns one card, once through; Black Hole turns the corner.
Both key a position by what the rules read (the foundation's rank, not its suit), so the
two counts of the same exhaustive search are within a fraction of a per cent.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peers import (
    Run,
    in_turns,
    our_env,
    our_startup,
    parse_deals,
    print_table,
    replay_won,
    run_child,
    run_ours,
    startup_cpu,
)

import patience


class Game(NamedTuple):
    """How one of our games is put to black-hole-solver."""

    game: str            # its --game
    flags: tuple[str, ...]
    home: str            # our foundation pile: its "Foundations:"
    columns: int


GAMES = {
    "golf": Game("golf", ("--queens-on-kings",), "w", 7),
    "black-hole": Game("black_hole", (), "h", 17),
}


def _shown(variant: str, number: int, *options: str) -> str:
    return subprocess.run(
        [sys.executable, "-m", "patience", "show", variant, "--seed", str(number), *options],
        capture_output=True, text=True, check=True, env=our_env()).stdout


def our_board(variant: str, number: int) -> str:
    """Our deal ``number`` as a black-hole-solver board, checked card by card against our
    position (exits when anything differs)."""
    import json

    spec = GAMES[variant]
    board = _shown(variant, number, "--format", "fcs")
    position: dict[str, Any] = json.loads(_shown(variant, number, "--json"))
    piles = position["piles"]
    talon: list[str] = []
    foundation: list[str] = []
    columns: list[list[str]] = []
    for line in board.splitlines():
        if line.startswith("Talon:"):
            talon = line.split()[1:]
        elif line.startswith("Foundations:"):
            foundation = line.split()[1:]
        elif line.strip():
            columns.append(line.split())
    expected = [piles[f"c{i}"] for i in range(1, spec.columns + 1)]
    problems = []
    if columns != expected:
        problems.append(f"columns {columns}, ours {expected}")
    if foundation != piles[spec.home]:
        problems.append(f"foundation {foundation}, our {spec.home} {piles[spec.home]}")
    if talon != position["stock"]:
        problems.append(f"talon {talon}, our stock {position['stock']}")
    if talon:
        turned = json.loads(_shown(variant, number, "--json", "--moves", "d"))["piles"]["w"]
        if turned[-1] != talon[0]:
            problems.append(f"our d turns {turned[-1]}, not the talon's first {talon[0]}")
    cards = [*talon, *foundation, *(card for column in columns for card in column)]
    if len(cards) != 52 or len(set(cards)) != 52:
        problems.append(f"{len(cards)} cards, {len(set(cards))} different")
    if problems:
        raise SystemExit(f"{variant} deal {number}: the board is not our deal: "
                         + "; ".join(problems) + f"\n{board}")
    return board


_STATES = re.compile(r"Total number of states checked is (\d+)\.")
_STEP = re.compile(r"^(?:Deal talon|Move a card from stack (\d+) to the foundations)\s*\n\s*\n"
                   r"Info: Card moved is (\S\S)$", re.MULTILINE)
VERDICTS = {"Solved!": "won", "Unsolved!": "unwinnable", "Intractable!": "unknown"}


def parse_output(output: str) -> tuple[str, int | None, list[tuple[int | None, str]]]:
    """Its verdict (ours: won / unwinnable / unknown), states checked, and the winning
    line as (column from 0, or None for the talon; the card moved)."""
    first = output.split("\n", 1)[0].strip()
    verdict = VERDICTS.get(first, "unknown")
    states = _STATES.search(output)
    steps = [(None if m.group(1) is None else int(m.group(1)), m.group(2))
             for m in _STEP.finditer(output)]
    return verdict, int(states.group(1)) if states else None, steps


def replay(variant: str, number: int, steps: Sequence[tuple[int | None, str]]) -> str:
    """Its winning line through our ``Game.push`` (checked moves), each card checked:
    "won", or what went wrong."""
    spec = GAMES[variant]
    game = patience.find_variant(variant).deal(number)
    for at, (column, card) in enumerate(steps, start=1):
        move = "d" if column is None else f"c{column + 1}:1-{spec.home}"
        try:
            game.push(move)
        except patience.MoveError as error:
            return f"step {at} ({move}, {card}) is illegal here: {error}"
        top = game.to_json()["piles"][spec.home][-1]
        if top != card:
            return f"step {at} ({move}) moved {top}, it says {card}"
    return "won" if game.is_won() else f"its {len(steps)} moves end in a position not won"


def run_peer(binary: str, variant: str, board: Path, number: int, budget: int,
             cpu_limit: int) -> Run:
    spec = GAMES[variant]
    command = [binary, "--game", spec.game, *spec.flags, "--max-iters", str(budget), str(board)]
    done = run_child(command, cpu_limit)
    if done.killed_by_cpu_limit:
        return Run("unknown", done.cpu, None, None, f"CPU limit {cpu_limit} s")
    verdict, positions, steps = parse_output(done.stdout)
    note = "" if positions is not None else f"exit {done.returncode}: {done.stderr.strip()[-200:]}"
    if verdict == "won":
        replayed = replay(variant, number, steps)
        if replayed != "won":
            raise SystemExit(f"{variant} deal {number}: black-hole-solver's line in ours: "
                             f"{replayed}")
    return Run(verdict, done.cpu, positions, len(steps) if verdict == "won" else None, note)


def print_rates(rows: Sequence[tuple[int, Run, Run]], startups: tuple[float, float]) -> None:
    """Positions per CPU second of both sides on the deals both searched to the end."""
    both = [(m, t) for _, m, t in rows if m.verdict == t.verdict == "unwinnable"
            and m.positions is not None and t.positions is not None]
    print()
    if not both:
        print("no deal searched exhaustively by both: no positions per CPU second")
        return
    for name, runs, start in (("ours", [m for m, _ in both], startups[0]),
                              ("black-hole-solver", [t for _, t in both], startups[1])):
        positions = sum(r.positions or 0 for r in runs)
        cpu = sum(r.cpu for r in runs)
        less = cpu - len(runs) * start
        print(f"{name}: {len(runs)} deals searched exhaustively by both, {positions:,} "
              f"positions, {cpu:.2f} CPU s: {positions / cpu:,.0f} positions per CPU second "
              f"(whole processes), "
              + (f"{positions / less:,.0f} less start-up" if less > 0 else "-"))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", choices=sorted(GAMES), help="our game")
    parser.add_argument("--deals", default="1-20", help="our numbered deals: 1-100 or 1,5,9-12")
    parser.add_argument("--budget", type=int, default=100_000_000,
                        help="our --max-positions and its --max-iters (default 100000000)")
    parser.add_argument("--cpu-limit", type=int, default=60,
                        help="hard CPU seconds of each whole process, both sides (default 60)")
    parser.add_argument("--black-hole-solve", default=os.environ.get("BLACK_HOLE_SOLVE")
                        or shutil.which("black-hole-solve"),
                        help="the binary (default: $BLACK_HOLE_SOLVE, else from PATH)")
    args = parser.parse_args(argv)
    if not args.black_hole_solve:
        parser.error("black-hole-solve not found: build it (bench/README.md) and pass "
                     "--black-hole-solve PATH or set BLACK_HOLE_SOLVE")
    numbers = parse_deals(args.deals)
    rows: list[tuple[int, Run, Run]] = []
    spec = GAMES[args.variant]
    with tempfile.TemporaryDirectory() as work:
        first = Path(work) / "first.board"
        first.write_text(our_board(args.variant, numbers[0]))
        startups = (our_startup(args.variant, ["--seed", str(numbers[0])]),
                    startup_cpu([args.black_hole_solve, "--game", spec.game, *spec.flags,
                                 "--max-iters", "1", first.as_posix()]))
        for number in numbers:
            path = Path(work) / f"{number}.board"
            path.write_text(our_board(args.variant, number))
            mine, theirs = in_turns(
                number,
                partial(run_ours, args.variant, ["--seed", str(number), "--prove"],
                        args.budget, args.cpu_limit),
                partial(run_peer, args.black_hole_solve, args.variant, path, number,
                        args.budget, args.cpu_limit))
            # our won line through Game.push too, outside the CPU measured
            replay_won(mine, partial(patience.find_variant(args.variant).deal, number))
            rows.append((number, mine, theirs))
    title = (f"{args.variant}, deals {args.deals}: ours (--prove) vs black-hole-solver "
             f"{' '.join(['--game', spec.game, *spec.flags])}, budget {args.budget:,} positions / "
             f"--max-iters, hard CPU limit {args.cpu_limit} s per process, whole processes, "
             f"taking turns")
    disagreements = print_table(title, "bhs", rows, startups)
    print_rates(rows, startups)
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
