"""What the native core's searches hold: bytes per stored position and on the search's path,
the same searches side by side with byte keys or with another build.

    python bench/memory.py                         # Fan 31, FreeCell 3, Klondike 1, Spider 1
    python bench/memory.py --games spider:1 mainecoon:1 --positions 2000000
    python bench/memory.py --against /tmp/base.so  # this build and another one

Each search is ``prove`` mode (one run with the whole budget) under a memory cap far above
its need (so that both builds count what they hold as a capped search does). Without
``--against`` the same search runs again with ``byte_keys`` (every key one byte a card, as
Python's key has its parts: the reference the numbered code is tested against), taking
turns; with ``--against PATH`` the other build's core runs it instead. Both must expand and
store the same positions (checked). Printed per search: the positions stored, the store's
bytes per stored position (records, table and tables of numbered parts, as allocated), the
records alone (a 4-byte word, the key's length and the key), the parts numbered, the most
the search's own stacks held and the ratio of positions per CPU second (this build's, or
the numbered keys', over the other's). docs/solver.md has the figures.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(BENCH)]  # this checkout's patience, even if not installed

import patience
from native import load_other  # bench/native.py's: another build beside this one
from patience import native
from patience.native.program import rule_program_text

CAP = 64 << 30  # far above any search here


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+",
                        default=["fan:31", "freecell:3", "klondike:1", "spider:1"],
                        help="GAME:DEAL pairs")
    parser.add_argument("--positions", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--against", metavar="PATH",
                        help="another build of the core (a _native.abi3.so) instead of byte keys")
    args = parser.parse_args()
    if not native.AVAILABLE:
        sys.exit(f"bench/memory.py: {native.REASON}")
    other = load_other(args.against) if args.against else None
    label = "other build" if other else "byte keys"
    print(f"| game | deal | positions | stored | B/pos | records B/pos | parts | stacks MB "
          f"| {label}: B/pos | records B/pos | stacks MB | this / {label}, positions per CPU s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for item in args.games:
        name, _, deal = item.partition(":")
        variant = patience.find_variant(name)
        game = variant.deal(int(deal or 1))
        piles, stock = [list(p) for p in game.piles], list(game.stock)
        this = native.core(variant)
        that = other.Core(rule_program_text(variant)) if other else None
        rate: dict[bool, list[float]] = {True: [], False: []}
        found: dict[bool, dict[str, Any]] = {}
        for round_ in range(args.rounds):
            for mine in ((True, False) if round_ % 2 == 0 else (False, True)):
                start = time.process_time()
                if mine:
                    result = this.solve(piles, stock, args.positions, None, True, CAP, None)
                elif that is not None:
                    result = that.solve(piles, stock, args.positions, None, True, CAP, None)
                else:
                    result = this.solve(piles, stock, args.positions, None, True, CAP, None,
                                        byte_keys=True)
                spent = time.process_time() - start
                rate[mine].append(result["positions"] / max(spent, 1e-9))
                found[mine] = result
        a, b = found[True], found[False]
        if (a["positions"], a["stored"]) != (b["positions"], b["stored"]):
            sys.exit(f"{name} {deal}: the two searches differ: {a['positions']:,} positions, "
                     f"{a['stored']:,} stored against {b['positions']:,}, {b['stored']:,}")
        stored = max(1, a["stored"])
        print(f"| {name} | {deal} | {a['positions']:,} | {a['stored']:,} | "
              f"{a['bytes'] / stored:.1f} | {a['record_bytes'] / stored:.1f} | "
              f"{a.get('parts', 0):,} | {a['stack_bytes'] / 1e6:.1f} | "
              f"{b['bytes'] / stored:.1f} | {b['record_bytes'] / stored:.1f} | "
              f"{b['stack_bytes'] / 1e6:.1f} | {max(rate[True]) / max(rate[False]):.2f} |",
              flush=True)


if __name__ == "__main__":
    main()
