"""Our solver against Freecell Solver (``fc-solve``) on Microsoft's FreeCell deals.

    python bench/fcsolve.py                            # deals 1-20, preset -l lg
    python bench/fcsolve.py --deals 1-50 --budget 1000000 --cpu-limit 10
    python bench/fcsolve.py --deals 11982 --preset ""  # fc-solve's default search
    python bench/fcsolve.py --batch --deals 1-200      # each side solves the range in ONE process
    python bench/fcsolve.py --batch --deals 1-1000 --repeat 3

Freecell Solver (Shlomi Fish, MIT; Debian's ``freecell-solver-bin``) is never part of this
repository: the bench only runs its binary. For each Microsoft deal N it
  1. writes our board of ``--seed ms:N`` (``patience show freecell --format fcs``) and checks
     it card by card against Microsoft's own deal, computed here from its published random
     generator (so a wrong ``ms:`` mapping cannot pass unseen);
  2. runs ``fc-solve -l lg -mi BUDGET -sel -m -snx BOARD`` and ``python -m patience solve
     freecell --seed ms:N --json --max-positions BUDGET``, each a whole process under the same
     hard CPU limit, taking turns (ours first on odd deals);
  3. prints per deal and in total: verdicts, CPU seconds of each whole process, positions
     (ours: distinct positions expanded; fc-solve: "states checked", its iterations, which
     ``-mi`` limits the same way), line lengths (ours: moves of the JSON line, a run of cards
     one move; fc-solve: its standard-notation moves, foundation moves included), and the
     ratio ours / fc-solve. A decided verdict that differs is printed loudly.

With ``--batch`` each side solves the whole range in ONE process, start-up paid once:
fc-solve's own ``freecell-solver-range-parallel-solve FIRST LAST 1 -l lg -mi BUDGET`` (one
process, one board after the other, despite its name; Microsoft's deals from its own
generator) and ``python -c`` around ``patience.solve(deal(freecell, "ms:N"),
max_positions=BUDGET, shorten_line=False)`` for every N (``peers.OURS_BATCH``). The range
solver prints no line, only a status line per board: "Unsolved Board No. N" (unwinnable),
"Intractable Board No. N" (the budget ran out) and, with a step of 1, "Reached Board No. N
at T (total_num_iters=I)" after every board, I the iterations of all boards so far: a
board without the first two is won, its states the growth of I. So ours does not shorten
its lines either (``--shorten`` to make it). The CPU compared is each batch process's
rusage; ``--repeat K`` runs both batches K times, taking turns which goes first. Our boards
are still checked against Microsoft's deals (in this process), our won lines replayed
(in this process too, outside the CPU measured).

The games differ in one rule: ours lets a card go back from a foundation (PySolFC's
FreeCell), fc-solve's FreeCell does not. A deal fc-solve wins, we win too; a deal fc-solve
proves unwinnable could in principle be won by ours with a card taken back.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peers import (
    Batch,
    Run,
    add_batch_options,
    alternate,
    batch_cpu_limit,
    check_repeat,
    ended_early,
    in_turns,
    our_batch_startup,
    our_env,
    our_startup,
    parse_deals,
    print_batches,
    print_table,
    replay_won,
    run_child,
    run_our_batch,
    run_ours,
    startup_cpu,
)

import patience
from patience.boards import write_board
from patience.cards import RANK_CHARS, SUIT_CHARS
from patience.seeds import deal


def microsoft_deal(number: int) -> list[list[str]]:
    """Microsoft FreeCell game ``number`` (1 to 2^31-1) as 8 columns, bottom card first,
    from its published linear congruential generator (the one every FreeCell program uses)."""
    state = number
    cards = list(range(52))          # card c: rank c // 4, suit "CDHS"[c % 4]
    columns: list[list[str]] = [[] for _ in range(8)]
    for dealt in range(52):
        state = (state * 214013 + 2531011) & 0xFFFFFFFF
        draw = (state >> 16) & 0x7FFF
        left = 52 - dealt
        index = draw % left
        card = cards[index]
        cards[index] = cards[left - 1]
        columns[dealt % 8].append(RANK_CHARS[card // 4] + SUIT_CHARS[card % 4])
    return columns


def our_board(number: int) -> str:
    """Our board of ``ms:N`` in Freecell Solver's format, checked against Microsoft's deal."""
    board = subprocess.run(
        [sys.executable, "-m", "patience", "show", "freecell", "--seed", f"ms:{number}",
         "--format", "fcs"], capture_output=True, text=True, check=True, env=our_env()).stdout
    return checked_board(number, board)


def checked_board(number: int, board: str) -> str:
    """``board`` (Freecell Solver's format), after checking it is Microsoft's deal N."""
    columns = [line.split() for line in board.splitlines()
               if line.strip() and not line.startswith(("Freecells", "Foundations", ":"))]
    expected = microsoft_deal(number)
    if columns != expected:
        raise SystemExit(f"deal ms:{number}: our board is not Microsoft's deal:\n{board}\n"
                         f"expected columns {expected}")
    return board


_STATES = re.compile(r"Total number of states checked is (\d+)\.")
_MOVE = re.compile(r"^[1-8a-dh]{2}(v[0-9a-f]+)?$")


def parse_fcsolve(output: str) -> tuple[str, int | None, int | None]:
    """fc-solve's verdict (ours: won / unwinnable / unknown), states checked, line length."""
    states = _STATES.search(output)
    positions = int(states.group(1)) if states else None
    if "This game is solveable." in output:
        head = output.split("This game is solveable.")[0]
        line = sum(1 for token in head.split() if _MOVE.match(token))
        return "won", positions, line
    if "I could not solve this game." in output:
        return "unwinnable", positions, None
    return "unknown", positions, None   # "Iterations count exceeded." (-sel)


def run_fcsolve(binary: str, preset: str, board: Path, budget: int, cpu_limit: int) -> Run:
    command = [binary, *(["-l", preset] if preset else []), "-mi", str(budget), "-sel",
               "-m", "-snx", str(board)]
    done = run_child(command, cpu_limit)
    if done.killed_by_cpu_limit:
        return Run("unknown", done.cpu, None, None, f"CPU limit {cpu_limit} s")
    verdict, positions, line = parse_fcsolve(done.stdout)
    note = "" if done.returncode == 0 or verdict != "unknown" else f"exit {done.returncode}"
    return Run(verdict, done.cpu, positions, line, note)


_RANGE_LINE = re.compile(r"^(Unsolved|Intractable|Reached) Board No\. (\d+) at ([0-9.]+)"
                         r"(?: \(total_num_iters=(\d+)\))?$")
_STARTED = re.compile(r"^Started at ([0-9.]+)$")


def parse_range(output: str) -> dict[int, Run]:
    """The range solver's output (print step 1) as a run per board: the verdict from its
    "Unsolved" / "Intractable" lines (neither: won), the states from the growth of
    ``total_num_iters``, ``Run.cpu`` the wall seconds between its time stamps (it prints no
    CPU time per board)."""
    runs: dict[int, Run] = {}
    verdicts: dict[int, str] = {}
    iterations, stamp = 0, None
    for text in output.splitlines():
        started = _STARTED.match(text)
        if started:
            stamp = float(started.group(1))
            continue
        line = _RANGE_LINE.match(text)
        if not line:
            continue
        kind, number, at = line.group(1), int(line.group(2)), float(line.group(3))
        if kind != "Reached":
            verdicts[number] = "unwinnable" if kind == "Unsolved" else "unknown"
            continue
        total = int(line.group(4))
        runs[number] = Run(verdicts.get(number, "won"), at - (stamp or at), total - iterations,
                           None)
        iterations, stamp = total, at
    return runs


def range_command(binary: str, preset: str, first: int, last: int, budget: int) -> list[str]:
    """fc-solve's range solver on Microsoft deals FIRST..LAST, a status line per board."""
    return [binary, str(first), str(last), "1", *(["-l", preset] if preset else []),
            "-mi", str(budget)]


def run_fcsolve_range(binary: str, preset: str, numbers: Sequence[int], budget: int,
                      cpu_limit: int) -> Batch:
    limit = batch_cpu_limit(cpu_limit, len(numbers))
    done = run_child(range_command(binary, preset, numbers[0], numbers[-1], budget), limit)
    return Batch(done.cpu, parse_range(done.stdout), ended_early(done, limit))


def main_batch(args: argparse.Namespace, numbers: list[int]) -> int:
    """``--batch``: each side solves the whole range in one process (see the docstring)."""
    if numbers != list(range(numbers[0], numbers[-1] + 1)):
        raise SystemExit(f"--batch needs one range of deals (FIRST-LAST), not {args.deals!r}: "
                         "fc-solve's range solver takes a first and a last deal")
    range_solver = args.range_solver
    if not range_solver:
        raise SystemExit("freecell-solver-range-parallel-solve is not on PATH: apt-get "
                         "install freecell-solver-bin")
    variant = patience.find_variant("freecell")
    for number in numbers:
        checked_board(number, write_board(deal(variant, f"ms:{number}")))
    seeds = {number: f"ms:{number}" for number in numbers}
    startups = (our_batch_startup("freecell"),
                startup_cpu(range_command(range_solver, args.preset, 2, 1, args.budget)))
    pairs = alternate(
        args.repeat,
        partial(run_our_batch, "freecell", seeds, args.budget, args.shorten, args.cpu_limit),
        partial(run_fcsolve_range, range_solver, args.preset, numbers, args.budget,
                args.cpu_limit))
    for mine, _ in pairs[:1]:
        for number, run in mine.runs.items():
            replay_won(run, partial(deal, variant, f"ms:{number}"))
    title = (f"FreeCell, Microsoft deals {args.deals}, batch: ours (one python process, "
             f"{'shortening' if args.shorten else 'not shortening'} its lines) vs "
             f"freecell-solver-range-parallel-solve "
             f"{'-l ' + args.preset if args.preset else '(default search)'} (one process, "
             f"prints no lines), budget {args.budget:,} positions / -mi per deal, "
             f"{args.repeat} repeat{'s' if args.repeat > 1 else ''} taking turns; seconds "
             f"per deal: ours CPU inside the batch, fc-solve wall between its status lines")
    return 1 if print_batches(title, "fc-solve", numbers, pairs, ("cpu s", "wall s"),
                              startups) else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1-20", help="Microsoft deals: 1-100 or 1,5,9-12")
    parser.add_argument("--budget", type=int, default=1_000_000,
                        help="our --max-positions and fc-solve's -mi (default 1000000)")
    parser.add_argument("--cpu-limit", type=int, default=10,
                        help="hard CPU seconds of each whole process, both sides (default 10)")
    parser.add_argument("--preset", default="lg",
                        help="fc-solve's -l preset (default lg; '' for its default search)")
    parser.add_argument("--fc-solve", default=shutil.which("fc-solve"),
                        help="the fc-solve binary (default: from PATH)")
    add_batch_options(parser, "fc-solve's range solver prints none")
    parser.add_argument("--range-solver",
                        default=shutil.which("freecell-solver-range-parallel-solve"),
                        help="--batch: fc-solve's range solver (default: from PATH)")
    args = parser.parse_args(argv)
    numbers = parse_deals(args.deals)
    check_repeat(parser, args.repeat)
    if args.batch:
        return main_batch(args, numbers)
    if not args.fc_solve:
        parser.error("fc-solve is not on PATH: apt-get install freecell-solver-bin")
    rows: list[tuple[int, Run, Run]] = []
    variant = patience.find_variant("freecell")
    with tempfile.TemporaryDirectory() as work:
        empty = Path(work) / "empty.board"   # fc-solve reads an empty board and stops
        empty.write_text("")
        startups = (our_startup("freecell", ["--seed", f"ms:{numbers[0]}"]),
                    startup_cpu([args.fc_solve, empty.as_posix()]))
        for number in numbers:
            path = Path(work) / f"ms{number}.board"
            path.write_text(our_board(number))
            mine, theirs = in_turns(
                number,
                partial(run_ours, "freecell", ["--seed", f"ms:{number}"], args.budget,
                        args.cpu_limit),
                partial(run_fcsolve, args.fc_solve, args.preset, path, args.budget,
                        args.cpu_limit))
            replay_won(mine, partial(deal, variant, f"ms:{number}"))
            rows.append((number, mine, theirs))
    title = (f"FreeCell, Microsoft deals {args.deals}: ours vs fc-solve "
             f"{'-l ' + args.preset if args.preset else '(default search)'}, budget "
             f"{args.budget:,} positions / -mi, hard CPU limit {args.cpu_limit} s per process, "
             f"whole processes, taking turns")
    return 1 if print_table(title, "fc-solve", rows, startups) else 0


if __name__ == "__main__":
    sys.exit(main())
