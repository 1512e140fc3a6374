"""docs/data/unwinnable-deals.csv: every deal a study proved unwinnable, with its smallest proof.

    python bench/unwinnable_deals.py --db games.sqlite --db tenk.sqlite   # merge, rewrite
    python bench/unwinnable_deals.py --db games.sqlite --check            # only check

Reads the CSV as it stands and the ``unwinnable`` rows of each study database (``patience
stats`` / ``--prove``), keeps for each (game, deal) the proof with the fewest positions
(then the earliest solver version), and writes the CSV back sorted by game and deal. It
refuses, and writes nothing, when a deal is proven unwinnable by one row and won by
another (of any database, any solver version, any budget): one of the two would be wrong.
Only shipped games' rules hashes count: a row of other rules (a reading, an old file) is
left out.
"""

from __future__ import annotations

import argparse
import csv
import os
import sqlite3
import sys

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
sys.path[:0] = [ROOT]  # this checkout's patience, even if not installed

import patience

CSV = os.path.join(ROOT, "docs", "data", "unwinnable-deals.csv")
FIELDS = ("game", "deal", "positions", "solver", "budget")


def shipped_hashes() -> dict[str, str]:
    """rules hash -> game id, for every shipped variant."""
    return {patience.find_variant(v).rules_hash: v for v in patience.shipped_variants()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", action="append", default=[], help="a study database")
    parser.add_argument("--csv", default=CSV)
    parser.add_argument("--check", action="store_true", help="check only, write nothing")
    args = parser.parse_args()
    games = shipped_hashes()
    best: dict[tuple[str, int], dict[str, str]] = {}
    won: set[tuple[str, int]] = set()

    def offer(row: dict[str, str]) -> None:
        key = (row["game"], int(row["deal"]))
        old = best.get(key)
        if old is None or (int(row["positions"]), row["solver"]) < \
                (int(old["positions"]), old["solver"]):
            best[key] = row

    if os.path.exists(args.csv):
        with open(args.csv, newline="") as handle:
            for row in csv.DictReader(handle):
                offer(row)
    for path in args.db:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            rows = db.execute("SELECT rules_hash, solver_version, deal, budget, verdict, "
                              "positions FROM results WHERE verdict IN ('won', 'unwinnable')")
            for rules, version, deal, budget, verdict, positions in rows:
                game = games.get(rules)
                if game is None:
                    continue
                if verdict == "won":
                    won.add((game, deal))
                else:
                    offer({"game": game, "deal": str(deal), "positions": str(positions),
                           "solver": version.removesuffix("+prove"), "budget": str(budget)})
    both = sorted(set(best) & won)
    if both:
        sys.exit(f"won and proven unwinnable: {', '.join(f'{g} {d}' for g, d in both)}")
    print(f"{len(best)} deals proven unwinnable; none is won in the databases read")
    if not args.check:
        with open(args.csv, "w", newline="") as handle:
            writer = csv.DictWriter(handle, FIELDS, lineterminator="\n")
            writer.writeheader()
            for key in sorted(best):
                writer.writerow({f: best[key][f] for f in FIELDS})


if __name__ == "__main__":
    main()
