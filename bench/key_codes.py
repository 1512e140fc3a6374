"""The native core's two key codes side by side: bytes per stored position and positions
per CPU second of the same searches with the plain code and with the compact code (the
deck code where it applies, root piles, runs, stock subsequences: docs/solver.md).

    python bench/key_codes.py                         # Fan 31, FreeCell 3, Klondike 1
    python bench/key_codes.py --games fan:31 golf:1 --positions 2000000 --rounds 3

A solve takes the compact code when it has a memory cap (or may store more than
20,000,000 positions: ``compact_keys`` in native/src/search.rs), so each search runs once
without a cap and once with a cap far above what it needs, taking turns (the machine is
noisy); both must expand the same positions (checked). ``prove`` mode: one search, the
whole budget.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(BENCH)]  # this checkout's patience, even if not installed

import patience
from patience import native

CAP = 64 << 30  # far above any search here: only selects the compact code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["fan:31", "freecell:3", "klondike:1"],
                        help="GAME:DEAL pairs")
    parser.add_argument("--positions", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    if not native.AVAILABLE:
        sys.exit(f"the native core is not built: {native.REASON}")
    print("| game | deal | positions | plain B/pos | compact B/pos "
          "| plain / compact positions per CPU s |")
    print("|---|---|---|---|---|---|")
    for item in args.games:
        name, _, deal = item.partition(":")
        variant = patience.find_variant(name)
        game = variant.deal(int(deal or 1))
        core = native.core(variant)
        rate: dict[bool, list[float]] = {False: [], True: []}
        size: dict[bool, float] = {}
        counts = set()
        for round_ in range(args.rounds):
            for capped in ((False, True) if round_ % 2 == 0 else (True, False)):
                start = time.process_time()
                found = core.solve([list(p) for p in game.piles], list(game.stock),
                                   args.positions, None, True, CAP if capped else None, None)
                spent = time.process_time() - start
                counts.add(found["positions"])
                rate[capped].append(found["positions"] / spent)
                size[capped] = found["bytes"] / max(1, found["stored"])
        if len(counts) != 1:
            sys.exit(f"{name} {deal}: the two codes expanded different positions: {counts}")
        ratio = max(rate[False]) / max(rate[True])
        print(f"| {name} | {deal} | {counts.pop():,} | {size[False]:.1f} | {size[True]:.1f} "
              f"| {ratio:.2f} |", flush=True)


if __name__ == "__main__":
    main()
