"""Our solver against Freecell Solver (``fc-solve``) on Microsoft's FreeCell deals.

    python bench/fcsolve.py                            # deals 1-20, preset -l lg
    python bench/fcsolve.py --deals 1-50 --budget 1000000 --cpu-limit 10
    python bench/fcsolve.py --deals 11982 --preset ""  # fc-solve's default search

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
    Run,
    in_turns,
    our_env,
    our_startup,
    parse_deals,
    print_table,
    run_child,
    run_ours,
    startup_cpu,
)

from patience.cards import RANK_CHARS, SUIT_CHARS


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
    args = parser.parse_args(argv)
    if not args.fc_solve:
        parser.error("fc-solve is not on PATH: apt-get install freecell-solver-bin")
    rows: list[tuple[int, Run, Run]] = []
    numbers = parse_deals(args.deals)
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
            rows.append((number, mine, theirs))
    title = (f"FreeCell, Microsoft deals {args.deals}: ours vs fc-solve "
             f"{'-l ' + args.preset if args.preset else '(default search)'}, budget "
             f"{args.budget:,} positions / -mi, hard CPU limit {args.cpu_limit} s per process, "
             f"whole processes, taking turns")
    disagreements = print_table(title, "fc-solve", rows, startups)
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
