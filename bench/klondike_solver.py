"""Our solver against Klondike-Solver (PyPI ``pyksolve``) on the same Klondike deals.

    python bench/klondike_solver.py                          # klondike, deals 1-10
    python bench/klondike_solver.py klondike-draw3 --deals 1-20 --budget 1000000
    python bench/klondike_solver.py klondike --method fast   # its fast, non-minimal search
    python bench/klondike_solver.py klondike --batch --deals 1-50 --method fast --repeat 2

Klondike-Solver (Mark Woodbury, "ShootMe"; wrapped for Python by Tiziano Bettio as
``pyksolve``, MIT) is never part of this repository: ``pip install pyksolve`` brings it. For
each deal N the bench
  1. deals our numbered deal N of the variant (``patience show VARIANT --seed N --json``:
     piles bottom card first, face-down cards in lower case, the stock with the card our
     ``d`` turns next first), checks that order by playing our ``d`` once (the waste must
     then hold the first cards of the stock, bottom to top), and writes the deal in
     Klondike-Solver's own format;
  2. runs Klondike-Solver in a whole process (``python -c`` around ``pyksolve``: load the
     deal, write it back with its ``get_pysol`` — ``Talon:`` the card drawn first first,
     then the seven columns bottom first, face-down cards in ``<…>`` — and check that text
     card by card against ours written the same way, solve
     with at most BUDGET closed states) and ``python -m patience solve VARIANT --seed N
     --json --max-positions BUDGET``, under the same hard CPU limit, taking turns;
  3. prints per deal and in total: verdicts (Klondike-Solver's ``Impossible`` is a proof,
     ``CouldNotComplete`` the budget), CPU seconds of each whole process, our positions
     (Klondike-Solver does not print its count), line lengths counted as Klondike-Solver
     counts its ``moves_made_count`` (``ks_length``: a turn of the stock is part of the
     waste move it leads to, so ours counts the moves other than ``d``), and the ratio.

With ``--batch`` each side solves every deal in ONE process, start-up paid once: ours
``python -c`` around ``patience.solve`` on each deal (``peers.OURS_BATCH``; the line not
shortened unless ``--shorten``), Klondike-Solver the same wrapper looping over the deals
(the deal read back and checked for each). The CPU compared is each batch process's rusage;
``--repeat K`` runs both K times, taking turns which goes first; our won lines are
replayed in this process, outside the CPU measured.

Both play Klondike with unlimited passes through the stock, draw 1 (``klondike``) or draw 3
(``klondike-draw3``, the last deal of a pass turning fewer), any face-up run moving, only a
King into a gap.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

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
from patience.cards import RANK_CHARS, SUIT_CHARS

DRAW = {"klondike": 1, "klondike-draw3": 3}

#: The peer's side: a whole Python process around pyksolve. Reads {"deals", "draw",
#: "budget", "method"} on stdin (``deals``: one deal, or a batch's every deal, each in
#: Klondike-Solver's own format: its ``load_pysol`` rejects even what its ``get_pysol``
#: writes) and prints, deal after deal, one JSON line {"result", "moves", "loaded", "cpu"},
#: ``loaded`` being the deal it read, written back in the PySol format, ``cpu`` this
#: process's CPU seconds for loading and solving that deal.
WRAPPER = """
import json, sys, time
from pyksolve import solver
job = json.load(sys.stdin)
for deal in job["deals"]:
    started = time.process_time()
    game = solver.Solitaire()
    if not game.load_solitaire(deal):
        sys.exit("Klondike-Solver did not accept the deal " + deal)
    game.reset_game(job["draw"])
    loaded = game.get_pysol()
    if job["method"] == "fast":
        result = game.solve_fast(max_closed_count=job["budget"])
    else:
        result = game.solve_minimal(max_closed_count=job["budget"])
    print(json.dumps({"result": result.name, "moves": game.moves_made_count, "loaded": loaded,
                      "cpu": time.process_time() - started}), flush=True)
"""

VERDICT = {"SolvedMinimal": "won", "SolvedMayNotBeMinimal": "won", "Impossible": "unwinnable",
           "CouldNotComplete": "unknown"}


def _shown(variant: str, number: int, *moves: str) -> dict[str, Any]:
    command = [sys.executable, "-m", "patience", "show", variant, "--seed", str(number),
               "--json", *(["--moves", " ".join(moves)] if moves else [])]
    text = subprocess.run(command, capture_output=True, text=True, check=True,
                          env=our_env()).stdout
    position: dict[str, Any] = json.loads(text)
    return position


def our_position(variant: str, number: int) -> dict[str, Any]:
    """Our starting position of deal ``number`` as JSON (face-down cards in lower case),
    after checking that our ``d`` turns the stock's first cards, as Klondike-Solver's
    ``Talon:`` does (the first card first; with three, the third ends on top)."""
    position = _shown(variant, number)
    turned = _shown(variant, number, "d")["piles"]["w"]
    if turned != position["stock"][:DRAW[variant]]:
        raise SystemExit(f"{variant} deal {number}: d turned {turned}, not the first "
                         f"{DRAW[variant]} cards of the stock {position['stock']}")
    return position


def _pysol_card(card: str) -> str:
    code = card.upper()
    return code if card[-1].isupper() else f"<{code}>"


def to_pysol(position: dict[str, Any]) -> str:
    """Our Klondike start in Klondike-Solver's PySol format, after checking its 52 cards."""
    piles = position["piles"]
    if piles["w"] or any(piles[f"f{i}"] for i in range(1, 5)):
        raise SystemExit("the bench converts starting positions only (waste and foundations "
                         "empty)")
    columns = [piles[f"c{i}"] for i in range(1, 8)]
    cards = [c.upper() for column in columns for c in column] + position["stock"]
    if sorted(cards) != sorted(r + s for r in "A23456789TJQK" for s in "CDHS"):
        raise SystemExit(f"deal is not 52 distinct cards: {cards}")
    talon = " ".join(position["stock"])   # both: the card turned next first
    rows = [" ".join(_pysol_card(c) for c in column) for column in columns]
    return "\n".join([f"Talon: {talon}", *rows])


def to_solitaire(position: dict[str, Any]) -> str:
    """Our Klondike start in Klondike-Solver's own format: three digits a card (rank 01-13,
    suit 1-4 = C D H S), the columns dealt row by row (row r over columns r..7), then the
    stock, the card drawn first first. Face-down is implied: all but each column's top."""
    def code(card: str) -> str:
        return f"{RANK_CHARS.index(card[0].upper()) + 1:02d}{SUIT_CHARS.index(card[1].upper()) + 1}"

    columns = [position["piles"][f"c{i}"] for i in range(1, 8)]
    for column in columns:
        if any(c[-1].isupper() for c in column[:-1]) or not column[-1][-1].isupper():
            raise SystemExit(f"not a Klondike start (all but the top card face down): {column}")
    dealt = [columns[c][r] for r in range(7) for c in range(r, 7)]
    return "".join(code(card) for card in [*dealt, *position["stock"]])


def _layout(pysol: str) -> list[list[str]]:
    """The card tokens of a PySol text, line by line (the ``Talon:`` label dropped)."""
    return [[t for t in line.split() if t != "Talon:"] for line in pysol.splitlines()
            if line.strip() and not line.startswith("Foundations")]


def _peer_run(record: dict[str, Any], pysol: str, cpu: float) -> Run:
    """Klondike-Solver's run of one deal from its JSON line, after checking that it read
    the deal sent (``pysol``, the same deal in PySol text)."""
    if _layout(record["loaded"]) != _layout(pysol):
        raise SystemExit(f"Klondike-Solver read another deal:\nsent\n{pysol}\nread\n"
                         f"{record['loaded']}")
    verdict = VERDICT[record["result"]]
    return Run(verdict, cpu, None, record["moves"] if verdict == "won" else None)


def run_klondike_solver(pysol: str, deal: str, draw: int, budget: int, method: str,
                        cpu_limit: int) -> Run:
    job = json.dumps({"deals": [deal], "draw": draw, "budget": budget, "method": method})
    done = run_child([sys.executable, "-c", WRAPPER], cpu_limit, stdin=job)
    if done.killed_by_cpu_limit:
        return Run("unknown", done.cpu, None, None, f"CPU limit {cpu_limit} s")
    if done.returncode != 0:
        return Run("unknown", done.cpu, None, None,
                   f"exit {done.returncode}: {done.stderr.strip()[-200:]}")
    return _peer_run(json.loads(done.stdout), pysol, done.cpu)


def ks_length(run: Run) -> Run:
    """``run`` with its line counted as Klondike-Solver counts its ``moves_made_count``: its
    moves are macro moves, the draws (``DR#``) and a new round (``NEW``) part of the waste
    move they lead to, a flip (``F#``) part of the move that uncovers it. Ours shows every
    turn of the stock as a ``d`` and turns no card by hand, so its count is the moves other
    than ``d``."""
    if run.line is not None and run.moves:
        run.line = sum(1 for move in run.moves if move != "d")
    return run


def run_klondike_solver_batch(deals: dict[int, tuple[str, str]], draw: int, budget: int,
                              method: str, cpu_limit: int) -> Batch:
    """Klondike-Solver on every deal of ``deals`` (number -> (PySol text, its own format))
    in one process."""
    job = json.dumps({"deals": [deal for _, deal in deals.values()], "draw": draw,
                      "budget": budget, "method": method})
    limit = batch_cpu_limit(cpu_limit, len(deals))
    done = run_child([sys.executable, "-c", WRAPPER], limit, stdin=job)
    batch = Batch(done.cpu, note=ended_early(done, limit))
    for (number, (pysol, _)), text in zip(deals.items(), done.stdout.splitlines()):
        record = json.loads(text)
        batch.runs[number] = _peer_run(record, pysol, float(record["cpu"]))
    return batch


def main_batch(args: argparse.Namespace, numbers: list[int]) -> int:
    """``--batch``: each side solves every deal in one process."""
    deals = {}
    for number in numbers:
        position = our_position(args.variant, number)
        deals[number] = (to_pysol(position), to_solitaire(position))
    startups = (our_batch_startup(args.variant),
                startup_cpu([sys.executable, "-c", WRAPPER],
                            stdin=json.dumps({"deals": [], "draw": 1, "budget": 1,
                                              "method": args.method})))
    pairs = alternate(
        args.repeat,
        partial(run_our_batch, args.variant, {n: str(n) for n in numbers}, args.budget,
                args.shorten, args.cpu_limit),
        partial(run_klondike_solver_batch, deals, DRAW[args.variant], args.budget,
                args.method, args.cpu_limit))
    variant = patience.find_variant(args.variant)
    for number, run in pairs[0][0].runs.items():
        replay_won(run, partial(variant.deal, number))
    for ours, _ in pairs:
        for run in ours.runs.values():
            ks_length(run)
    title = (f"{args.variant} (draw {DRAW[args.variant]}), our deals {args.deals}, batch: "
             f"ours (one python process, {'shortening' if args.shorten else 'not shortening'}"
             f" its lines) vs Klondike-Solver solve_{args.method} (one python process around "
             f"pyksolve), budget {args.budget:,} positions / closed states per deal, "
             f"{args.repeat} repeat{'s' if args.repeat > 1 else ''} taking turns; seconds "
             f"per deal: each side's CPU inside its batch")
    return 1 if print_batches(title, "ksolve", numbers, pairs, ("cpu s", "cpu s"),
                              startups) else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", nargs="?", default="klondike", choices=sorted(DRAW))
    parser.add_argument("--deals", default="1-10", help="our numbered deals: 1-20 or 1,5,9-12")
    parser.add_argument("--budget", type=int, default=1_000_000,
                        help="our --max-positions and its max_closed_count (default 1000000)")
    parser.add_argument("--cpu-limit", type=int, default=10,
                        help="hard CPU seconds of each whole process, both sides (default 10)")
    parser.add_argument("--method", choices=["minimal", "fast"], default="minimal",
                        help="Klondike-Solver's search: solve_minimal (default) or solve_fast")
    add_batch_options(parser, "Klondike-Solver's minimal search looks for short lines")
    args = parser.parse_args(argv)
    try:
        import pyksolve  # noqa: F401  (only to fail early, with a clear message)
    except ImportError:
        parser.error("pyksolve is not installed: pip install pyksolve")
    check_repeat(parser, args.repeat)
    numbers = parse_deals(args.deals)
    if args.batch:
        return main_batch(args, numbers)
    variant = patience.find_variant(args.variant)
    rows: list[tuple[int, Run, Run]] = []
    startups = (our_startup(args.variant, ["--seed", str(numbers[0])]),
                startup_cpu([sys.executable, "-c", "from pyksolve import solver"]))
    for number in numbers:
        position = our_position(args.variant, number)
        pysol, deal = to_pysol(position), to_solitaire(position)
        mine, theirs = in_turns(
            number,
            partial(run_ours, args.variant, ["--seed", str(number)], args.budget,
                    args.cpu_limit),
            partial(run_klondike_solver, pysol, deal, DRAW[args.variant], args.budget,
                    args.method, args.cpu_limit))
        replay_won(mine, partial(variant.deal, number))
        rows.append((number, ks_length(mine), theirs))
    title = (f"{args.variant} (draw {DRAW[args.variant]}), our deals {args.deals}: ours vs "
             f"Klondike-Solver solve_{args.method}, budget {args.budget:,} positions / closed "
             f"states, hard CPU limit {args.cpu_limit} s per process, whole processes, "
             f"taking turns")
    return 1 if print_table(title, "ksolve", rows, startups) else 0


if __name__ == "__main__":
    sys.exit(main())
