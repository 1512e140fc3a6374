"""The table of docs/games.md: our win rate of each game beside the published one.

    python bench/games_table.py --db games.sqlite                 # every shipped game stored
    python bench/games_table.py --db games.sqlite golf fan        # only these
    python bench/games_table.py --db readings.sqlite bench/readings/*.yaml   # rule readings

Reads the results ``patience stats ID --deals 1-1000 --max-positions N --db FILE`` stored
(the latest solver version and the largest budget of each game, as ``patience report``
chooses) and ``bench/published_rates.yaml``, and prints one Markdown row per game: deals,
won / unwinnable / unknown, our 95% interval (Wilson, unknowns counted as lost for the low
end and as won for the high end: the protocol of the published figures), the published
interval and its source, and whether the two intervals overlap. Where they do not, the row
says so: the reason (a rule difference, the deals, or a bug) goes in the docs beside it.

A game may also be a variant file, such as a *rule reading* in ``bench/readings/``: the rules
another program plays under a game's name. Its row sets beside it the published rate of the
game it reads (``reading_of:`` in ``published_rates.yaml``), to test whether that reading
explains a published figure ours does not overlap.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from patience import find_variant, shipped_variants
from patience.studies.database import ResultsDatabase
from patience.studies.report import choose_run, make_report

RATES = Path(__file__).with_name("published_rates.yaml")


def published() -> dict[str, dict[str, object]]:
    with RATES.open(encoding="utf-8") as file:
        return yaml.safe_load(file)  # type: ignore[no-any-return]


def row(database: ResultsDatabase, game: str, rates: dict[str, dict[str, object]]) -> str | None:
    variant = find_variant(game)
    key = choose_run(database, variant.rules_hash)
    if key is None:
        return None
    report = make_report(database, variant.id, key)
    game = variant.id
    low, high = report.interval_95
    ours = f"{100 * low:.1f}–{100 * high:.1f}%"
    entry = rates.get(game)
    if entry is not None and "reading_of" in entry:
        entry = rates[str(entry["reading_of"])]
    if entry is None:
        theirs, overlap = "none found", "—"
    else:
        rate, half = float(entry["rate"]), float(entry["half_width"])  # type: ignore[arg-type]
        theirs = f"{rate:g} ± {half:g}% ({entry['source']})"
        overlap = "yes" if low * 100 <= rate + half and rate - half <= high * 100 else "**no**"
    return (f"| {game} | {report.deals:,} | {report.won:,} / {report.unwinnable:,} / "
            f"{report.unknown:,} | {ours} | {theirs} | {overlap} | {key.budget:,} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("games", nargs="*", 
                        help="variant ids or files (default: every shipped one)")
    parser.add_argument("--db", required=True, help="the results database")
    arguments = parser.parse_args()
    rates = published()
    games = arguments.games or shipped_variants()
    print("| game | deals | won / unwinnable / unknown | ours (95%) | published (95%) "
          "| overlap | positions per deal |")
    print("|---|---:|---|---|---|---|---:|")
    with ResultsDatabase(arguments.db, read_only=True) as database:
        for game in games:
            line = row(database, game, rates)
            if line is not None:
                print(line)


if __name__ == "__main__":
    main()
