"""The layered beam against the restarts alone: deals decided, positions and CPU time.

    python bench/beam.py mainecoon --deals 1-100 --max-positions 1000000
    python bench/beam.py tabbycat-nowrap manx-corner --deals 1-200

Each deal is solved twice by the native core, taking turns: ``solve(game, N)`` (solver 1.7:
restarts and beams) and ``solve(game, N, beams=False)`` (the restarts alone, the search of
solver 1.6). Both verdicts must agree where both decided (they are proofs or replayed
wins). Per game it prints the deals each won, proved unwinnable and left unknown, the
positions and CPU seconds they spent in all, and the ratio of those CPU seconds. Won lines
are not shortened (deciding is what is measured).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import patience
from patience import native
from patience.solver import solve


def deal_range(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def main(switch: str = "beams", doc: str = __doc__, with_: str = "with beams") -> int:
    """Solve each deal with the solver's option ``switch`` on and off (``beams`` here,
    ``guides`` for bench/guided.py), taking turns, and print the table."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--deals", type=deal_range, default=deal_range("1-20"))
    parser.add_argument("--max-positions", type=int, default=1_000_000)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; {args.max_positions:,} positions a deal")
    print(f"| game | deals | {with_}: won / unwinnable / unknown | positions | CPU s "
          "| restarts alone: won / unwinnable / unknown | positions | CPU s | CPU ratio |")
    print("|---|---:|---|---:|---:|---|---:|---:|---:|")
    for name in args.variants:
        variant = patience.find_variant(name)
        native.core(variant)  # the rule program made before the clock runs, for both sides
        tally = {True: [0, 0, 0, 0, 0.0], False: [0, 0, 0, 0, 0.0]}
        for number in args.deals:
            game = variant.deal(number)
            verdicts = {}
            sides = (True, False) if number % 2 else (False, True)  # take turns going first
            for on in sides:
                started = time.process_time()
                result = solve(game, args.max_positions, shorten_line=False, engine="native",
                               **{switch: on})
                seconds = time.process_time() - started
                counts = tally[on]
                counts[("won", "unwinnable", "unknown").index(result.verdict)] += 1
                counts[3] += result.positions
                counts[4] += seconds
                verdicts[on] = result.verdict
            if "unknown" not in verdicts.values() and verdicts[True] != verdicts[False]:
                print(f"DISAGREEMENT: {name} deal {number}: {verdicts}", file=sys.stderr)
                return 1
        on, alone = tally[True], tally[False]
        ratio = on[4] / alone[4] if alone[4] else float("nan")
        print(f"| {name} | {len(args.deals):,} | {on[0]:,} / {on[1]:,} / {on[2]:,} "
              f"| {on[3]:,} | {on[4]:.2f} | {alone[0]:,} / {alone[1]:,} / {alone[2]:,} "
              f"| {alone[3]:,} | {alone[4]:.2f} | {ratio:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
