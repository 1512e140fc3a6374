"""The native core against the Python solver, side by side in one run (the machine is noisy).

    python bench/native.py                       # everything, the figures in docs/solver.md
    python bench/native.py --skip-503 --python-deals 10
    python bench/native.py --only perft
    python bench/native.py --against /tmp/main_native.abi3.so      # two builds, side by side
    python bench/native.py --against OTHER.so --games fan freecell --deals 1-20
    python bench/native.py --against OTHER.so --max-memory 64G   # both capped
    python bench/native.py --against OTHER.so --games golf black-hole --prove --positions 100000000
    python bench/native.py --only rates                  # every shipped game's exhaustive rate
    python bench/native.py --only rates --games montana golf --deals 1-4 --positions 500000

Three tables, each printing ratios:

* perft leaves per second on the same Tabby Cat positions (bench/movegen.py's deals and
  walks): the native core, the generated Python code (``patience.perft``), and the
  hand-written generator (``bench/handwritten_tabbycat.py``); the counts must agree.
* the 503-deal tabbycat-autoremove run (``bench/winnability.py``'s, 1,000,000 positions a
  deal): every deal natively; the first ``--python-deals`` of them in Python too (a subset:
  the Python run of all 503 takes hours). Positions per CPU second of each engine on the
  same deals, and the verdicts.
* hard deals of other games in ``prove`` mode with the same budget for both engines: one
  search with the main ordering, so both expand exactly the same positions (checked) and
  the ratio is pure speed: a two-deck dialect (mainecoon), corner dialects
  (tabbycat-corner, manx-corner), Klondike, FreeCell and Spider.

``--only rates`` prints, for every shipped game (or ``--games``), the positions per CPU
second of the core's exhaustive searches (``prove`` mode) of ``--deals`` (default 1-2) at
``--positions`` each (default 200,000 here), slowest first, and how many games reach issue
#34's 1.5 million. A game whose deals take under 0.05 CPU s in all is listed apart: its
rate is mostly the cost of starting a search.

With ``--against PATH`` it compares two builds of the core instead (this checkout's and
another ``_native.abi3.so``, say main's copied aside): the same solves, taking turns deal by
deal in this one process (which build goes first alternates), so load shifts hit both
alike; the position counts must be equal (a speed change must not change the search).
``--prove`` makes those solves exhaustive searches (``prove=True``: one search with the main
ordering, no restarts), the mode the rate target of issue #34 counts.
``--max-memory`` gives both builds' solves a memory cap (far above what they need, say
``64G``): a capped solve checks the cap before every position it stores, and a build before
2026-12-04 wrote its keys in another code when capped (its compact code), so this times
that.

CPU time is ``time.process_time()`` of this process (the core runs in it).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [BENCH, os.path.dirname(BENCH)]  # this checkout's patience, even if not installed

import handwritten_tabbycat as handwritten
from movegen import DEFAULT_DEALS, DEFAULT_WALKS, walked

import patience
from patience import native
from patience.perft import perft
from patience.solver import solve

HARD = (("mainecoon", (1, 2, 3)), ("tabbycat-corner", (1, 7)), ("manx-corner", (1, 2)),
        ("klondike", (1, 2)), ("freecell", (3, 4)), ("spider", (1, 2)))


def cpu(function, *args, **kwargs):  # type: ignore[no-untyped-def]
    started = time.process_time()
    value = function(*args, **kwargs)
    return value, time.process_time() - started


def perft_table(depth: int) -> None:
    variant = patience.find_variant("tabbycat")
    games = [(f"deal {d}", variant.deal(d)) for d in DEFAULT_DEALS]
    for text in DEFAULT_WALKS:
        deal, moves = map(int, text.split(":"))
        games.append((f"walk {text}", walked(variant, deal, moves)))
    print(f"perft({depth}) on Tabby Cat: leaves per CPU second")
    print(f"{'position':<12}{'leaves':>10}{'native':>12}{'python':>12}{'hand':>12}"
          f"{'nat/py':>8}{'nat/hand':>9}")
    totals = [0.0, 0.0, 0.0]
    leaves_total = 0
    for label, game in games:
        count, native_seconds = cpu(native.perft, game, depth)
        python_count, python_seconds = cpu(perft, game, depth)
        hand_count, hand_seconds = cpu(handwritten.perft, [list(p) for p in game.piles],
                                       list(game.stock), depth)
        assert count == python_count == hand_count, (label, count, python_count, hand_count)
        rates = [count / max(s, 1e-9) for s in (native_seconds, python_seconds, hand_seconds)]
        for i, s in enumerate((native_seconds, python_seconds, hand_seconds)):
            totals[i] += s
        leaves_total += count
        print(f"{label:<12}{count:>10}{rates[0]:>12,.0f}{rates[1]:>12,.0f}{rates[2]:>12,.0f}"
              f"{rates[0] / rates[1]:>8.1f}{rates[0] / rates[2]:>9.1f}")
    rates = [leaves_total / max(s, 1e-9) for s in totals]
    print(f"{'all':<12}{leaves_total:>10}{rates[0]:>12,.0f}{rates[1]:>12,.0f}{rates[2]:>12,.0f}"
          f"{rates[0] / rates[1]:>8.1f}{rates[0] / rates[2]:>9.1f}\n")


def run_503(budget: int, python_deals: int, skip_503: bool) -> None:
    variant = patience.find_variant("tabbycat-autoremove")
    deals = range(1, 504) if not skip_503 else range(1, python_deals + 1)
    positions = 0
    seconds = 0.0
    verdicts: dict[str, int] = {}
    per_deal = {}
    stored_bytes = []
    core = native.core(variant)
    for number in deals:
        game = variant.deal(number)
        found, spent = cpu(core.solve, [list(p) for p in game.piles], list(game.stock), budget)
        verdict = {"won": "won", "exhausted": "unwinnable"}.get(found["outcome"], "unknown")
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
        positions += found["positions"]
        seconds += spent
        per_deal[number] = (verdict, found["positions"], spent)
        if found["stored"]:
            stored_bytes.append(found["bytes"] / found["stored"])
    print(f"tabbycat-autoremove deals 1-{deals[-1]}, {budget:,} positions each")
    print(f"  native: {verdicts}, {positions:,} positions in {seconds:.1f} CPU s = "
          f"{positions / seconds:,.0f} positions/s; "
          f"{sum(stored_bytes) / len(stored_bytes):.0f} bytes per stored position (mean)")
    python_positions = 0
    python_seconds = 0.0
    native_positions = 0
    native_seconds = 0.0
    agree = 0
    for number in range(1, python_deals + 1):
        result, spent = cpu(solve, variant.deal(number), budget, engine="python",
                            shorten_line=False)
        python_positions += result.positions
        python_seconds += spent
        verdict, count, native_spent = per_deal[number]
        native_positions += count
        native_seconds += native_spent
        agree += verdict == result.verdict
    python_rate = python_positions / python_seconds
    native_rate = native_positions / native_seconds
    print(f"  deals 1-{python_deals} both: python {python_positions:,} positions in "
          f"{python_seconds:.1f} CPU s = {python_rate:,.0f}/s; native {native_rate:,.0f}/s; "
          f"ratio {native_rate / python_rate:.1f}x; verdicts agree on {agree}/{python_deals}\n")


def hard_deals(budget: int) -> None:
    print(f"hard deals, prove mode, {budget:,} positions: positions per CPU second")
    print(f"{'game':<18}{'deal':>5}{'verdict':>12}{'positions':>11}{'native':>12}{'python':>10}"
          f"{'ratio':>8}{'B/pos':>7}")
    for name, deals in HARD:
        variant = patience.find_variant(name)
        core = native.core(variant)
        for number in deals:
            game = variant.deal(number)
            found, native_seconds = cpu(core.solve, [list(p) for p in game.piles],
                                        list(game.stock), budget, None, True)
            result, python_seconds = cpu(solve, game, budget, prove=True, engine="python",
                                         shorten_line=False)
            assert found["positions"] == result.positions, (name, number)
            native_rate = found["positions"] / max(native_seconds, 1e-9)
            python_rate = result.positions / max(python_seconds, 1e-9)
            per = found["bytes"] / max(found["stored"], 1)
            print(f"{name:<18}{number:>5}{result.verdict:>12}{result.positions:>11,}"
                  f"{native_rate:>12,.0f}{python_rate:>10,.0f}"
                  f"{native_rate / python_rate:>8.1f}{per:>7.0f}")
    print()


def load_other(path: str):  # type: ignore[no-untyped-def]
    """Another build of the core, loaded beside this checkout's (its own copy of statics)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("other_build._native", path)
    if spec is None or spec.loader is None:
        sys.exit(f"bench/native.py: cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def parse_size(text: str) -> int:
    """``64G``, ``512M``, ``1000000``: bytes."""
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    unit = units.get(text[-1:].upper(), 1)
    return int(float(text[:-1] if unit > 1 else text) * unit)


def deal_range(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def against(path: str, games: list[str], deals: range, budget: int, budget_503: int,
            max_memory: int | None = None, prove: bool = False) -> None:
    from patience.native.program import rule_program_text

    other = load_other(path)
    print(f"this build against {path}: positions per CPU second, the same "
          f"{'exhaustive (prove) ' if prove else ''}solves taking turns")
    print(f"{'game':<22}{'deals':>9}{'positions':>12}{'this':>12}{'other':>12}{'this/other':>11}")
    for name in games:
        variant = patience.find_variant(name)
        text = rule_program_text(variant)
        cores = (native.core(variant), other.Core(text))
        numbers, limit = (range(1, 504), budget_503) if name == "tabbycat-autoremove" else \
            (deals, budget)
        seconds = [0.0, 0.0]
        positions = 0
        for turn, number in enumerate(numbers):
            game = variant.deal(number)
            counts = [0, 0]
            for which in ((0, 1) if turn % 2 == 0 else (1, 0)):
                found, spent = cpu(cores[which].solve, [list(p) for p in game.piles],
                                   list(game.stock), limit, max_memory=max_memory, prove=prove)
                seconds[which] += spent
                counts[which] = found["positions"]
            assert counts[0] == counts[1], (name, number, counts)
            positions += counts[0]
        rates = [positions / max(s, 1e-9) for s in seconds]
        print(f"{name:<22}{numbers[0]:>4}-{numbers[-1]:<4}{positions:>12,}{rates[0]:>12,.0f}"
              f"{rates[1]:>12,.0f}{rates[0] / rates[1]:>11.2f}")
    print()


#: issue #34's rate target: positions per CPU second of every game's exhaustive search
TARGET_RATE = 1_500_000


def rates(games: list[str] | None, deals: range, budget: int) -> None:
    """Each game's exhaustive searches (the core's ``prove`` mode) of ``deals``: positions
    per CPU second, slowest first."""
    if not native.AVAILABLE:
        sys.exit(f"bench/native.py: {native.REASON}")
    names = games or patience.shipped_variants()
    rows = []
    for name in names:
        variant = patience.find_variant(name)
        core = native.core(variant)
        positions, seconds = 0, 0.0
        for number in deals:
            game = variant.deal(number)
            found, spent = cpu(core.solve, [list(p) for p in game.piles], list(game.stock),
                               budget, prove=True)
            positions += found["positions"]
            seconds += spent
        rows.append((positions / max(seconds, 1e-9), name, positions, seconds))
    print(f"exhaustive searches, deals {deals[0]}-{deals[-1]} at {budget:,} positions: "
          f"positions per CPU second, slowest first")
    print(f"{'game':<28}{'positions':>12}{'CPU s':>9}{'per CPU s':>13}")
    timed = sorted(row for row in rows if row[3] >= 0.05)
    for rate, name, positions, seconds in timed:
        print(f"{name:<28}{positions:>12,}{seconds:>9.2f}{rate:>13,.0f}")
    quick = sorted(name for _, name, _, seconds in rows if seconds < 0.05)
    if quick:
        print(f"under 0.05 CPU s in all (rate not shown): {', '.join(quick)}")
    reached = sum(1 for row in timed if row[0] >= TARGET_RATE)
    print(f"{reached} of {len(timed)} timed games at {TARGET_RATE:,} positions per CPU second "
          f"or more\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["perft", "503", "hard", "rates"])
    parser.add_argument("--depth", type=int, default=5, help="perft depth (default 5)")
    parser.add_argument("--max-positions", type=int, default=1_000_000,
                        help="budget per deal of the 503-deal run (default 1,000,000)")
    parser.add_argument("--python-deals", type=int, default=20,
                        help="deals of the 503 run solved in Python too (default 20)")
    parser.add_argument("--skip-503", action="store_true",
                        help="natively solve only the deals Python solves")
    parser.add_argument("--hard-positions", type=int, default=50_000,
                        help="budget of each hard deal (default 50,000)")
    parser.add_argument("--against", metavar="PATH",
                        help="compare with another build of the core (a _native.abi3.so)")
    parser.add_argument("--games", nargs="+",
                        help="with --against: the games (tabbycat-autoremove: all 503 deals; "
                             "default fan freecell klondike tabbycat-autoremove); with --only "
                             "rates: the games (default every shipped game)")
    parser.add_argument("--deals", help="with --against: deals (default 1-20); with --only "
                                        "rates: default 1-2")
    parser.add_argument("--positions", type=int,
                        help="with --against: budget of each solve (default 100,000); with "
                             "--only rates: default 200,000")
    parser.add_argument("--max-memory", type=parse_size, metavar="SIZE",
                        help="with --against: a memory cap for both, e.g. 64G")
    parser.add_argument("--prove", action="store_true",
                        help="with --against: exhaustive searches (solve's prove mode: one "
                             "search, main ordering, no restarts) instead of solve's restarts")
    args = parser.parse_args()
    if not native.AVAILABLE:
        sys.exit(f"bench/native.py: {native.REASON}")
    random.seed(0)
    if args.against:
        against(args.against, args.games or ["fan", "freecell", "klondike", "tabbycat-autoremove"],
                deal_range(args.deals or "1-20"), args.positions or 100_000,
                args.max_positions, args.max_memory, args.prove)
        return
    if args.only == "rates":
        rates(args.games, deal_range(args.deals or "1-2"), args.positions or 200_000)
        return
    if args.only in (None, "perft"):
        perft_table(args.depth)
    if args.only in (None, "503"):
        run_503(args.max_positions, args.python_deals, args.skip_503)
    if args.only in (None, "hard"):
        hard_deals(args.hard_positions)


if __name__ == "__main__":
    main()
