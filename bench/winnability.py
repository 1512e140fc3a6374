"""Winnability benchmark: solve numbered deals with a position budget, on every core.

    python bench/winnability.py tabbycat-autoremove            # deals 1-503, 1,000,000 each
    python bench/winnability.py tabbycat --deals 1-503 --max-positions 1000000 --workers 2
    python bench/winnability.py tabbycat-autoremove --solver handwritten  # handwritten_solver.py

Prints decided / won / unwinnable / unknown, the median, p90, p99 and max positions per deal,
the positions per second (summed over workers' CPU time) and the total wall time. The
seed site's claim: 503 of 503 random deals proved winnable within 1,000,000 positions each.
Compiled variant functions don't pickle, so each worker loads the variant itself.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

_solve = None


def _start_worker(variant_name: str, solver: str) -> None:
    global _solve
    if solver == "handwritten":
        from handwritten_solver import solve_deal

        def run(number: int, budget: int) -> tuple[str, int]:
            return solve_deal(number, budget)
    else:
        import patience
        from patience.solver import solve

        variant = patience.find_variant(variant_name)

        def run(number: int, budget: int) -> tuple[str, int]:
            # deciding is what is measured: the won line is not shortened for display
            result = solve(variant.deal(number), max_positions=budget, shorten_line=False)
            return result.verdict, result.positions
    _solve = run


def _work(job: tuple[int, int]) -> tuple[int, str, int, float]:
    number, budget = job
    started = time.process_time()
    assert _solve is not None
    verdict, positions = _solve(number, budget)
    return number, verdict, positions, time.process_time() - started


def percentile(values: list[int], fraction: float) -> int:
    """The nearest-rank percentile of sorted ``values``."""
    rank = max(1, -(-len(values) * fraction // 1))
    return values[int(rank) - 1]


def benchmark(variant: str, numbers: list[int], budget: int, workers: int,
              solver: str = "generic") -> dict:
    started = time.perf_counter()
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    with context.Pool(workers, _start_worker, (variant, solver)) as pool:
        results = pool.map(_work, [(n, budget) for n in numbers], chunksize=1)
    wall = time.perf_counter() - started
    positions = sorted(r[2] for r in results)
    verdicts = [r[1] for r in results]
    cpu = sum(r[3] for r in results)
    return {
        "variant": variant, "solver": solver, "deals": f"{numbers[0]}-{numbers[-1]}",
        "budget": budget, "workers": workers,
        "decided": sum(v != "unknown" for v in verdicts), "won": verdicts.count("won"),
        "unwinnable": verdicts.count("unwinnable"), "unknown": verdicts.count("unknown"),
        "median": percentile(positions, 0.5), "p90": percentile(positions, 0.9),
        "p99": percentile(positions, 0.99), "max": positions[-1],
        "positions": sum(positions), "cpu": cpu, "per_second": sum(positions) / cpu,
        "wall": wall,
        "unknown_deals": [r[0] for r in results if r[1] == "unknown"],
    }


def table(row: dict) -> str:
    lines = [
        f"| variant | {row['variant']} ({row['solver']} solver) |",
        "|---|---|",
        (f"| deals | {row['deals']}, at most {row['budget']:,} positions each, "
         f"{row['workers']} workers |"),
        f"| decided | {row['decided']} of {row['decided'] + row['unknown']} |",
        (f"| won / unwinnable / unknown | {row['won']} / {row['unwinnable']} / "
         f"{row['unknown']} |"),
        (f"| positions: median / p90 / p99 / max | {row['median']:,} / {row['p90']:,} / "
         f"{row['p99']:,} / {row['max']:,} |"),
        f"| positions in all | {row['positions']:,} |",
        f"| positions per CPU second | {row['per_second']:,.0f} |",
        f"| wall time | {row['wall']:.1f} s |",
    ]
    if row["unknown_deals"]:
        lines.append(f"| unknown deals | {' '.join(map(str, row['unknown_deals']))} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", nargs="?", default="tabbycat-autoremove")
    parser.add_argument("--deals", default="1-503", help="FIRST-LAST (default 1-503)")
    parser.add_argument("--max-positions", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--solver", choices=["generic", "handwritten"], default="generic")
    args = parser.parse_args()
    first, _, last = args.deals.partition("-")
    numbers = list(range(int(first), int(last or first) + 1))
    row = benchmark(args.variant, numbers, args.max_positions, args.workers, args.solver)
    print(table(row))


if __name__ == "__main__":
    main()
