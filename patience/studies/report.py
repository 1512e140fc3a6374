"""What a study found: counts, the win rate with its uncertainty, and the solver's effort.

The win rate is bounded two ways. A deal the solver gave up on (``unknown``) may be won or
not, so the rate lies between ``won / deals`` (every unknown lost) and
``(won + unknown) / deals`` (every unknown won); the 95% interval is the Wilson lower
bound of the first and the Wilson upper bound of the second.

>>> low, high = wilson_interval(50, 100)
>>> round(low, 4), round(high, 4)
(0.4038, 0.5962)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from patience.distribution import install_hint
from patience.errors import StudyError
from patience.studies.database import DealRanges, ResultsDatabase, RunKey

Z_95 = 1.959963984540054  # the standard normal quantile for a two-sided 95% interval


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``(0.0, 1.0)`` when there are no trials)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    denominator = 1 + z * z / trials
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)


def percentile(ordered: Sequence[float], percent: float) -> float:
    """The nearest-rank percentile of an ascending sequence (0 when it is empty).

    >>> percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90)
    9
    """
    if not ordered:
        return 0
    rank = max(1, math.ceil(percent / 100 * len(ordered)))
    return ordered[rank - 1]


@attrs.frozen
class Report:
    """The summary of one variant's results under one solver version and budget."""

    variant: str
    rules_hash: str
    solver_version: str
    budget: int
    deals: int
    won: int
    unwinnable: int
    unknown: int
    first_deal: int | None
    last_deal: int | None
    positions_median: float
    positions_p90: float
    positions_p99: float
    positions_max: int
    seconds_total: float
    solution_length_median: float
    positions: tuple[int, ...] = attrs.field(repr=False, eq=False)  # per deal, for plots
    verdicts: tuple[str, ...] = attrs.field(repr=False, eq=False)

    @property
    def win_rate_bounds(self) -> tuple[float, float]:
        """(every unknown lost, every unknown won)."""
        if not self.deals:
            return 0.0, 1.0
        return self.won / self.deals, (self.won + self.unknown) / self.deals

    @property
    def interval_95(self) -> tuple[float, float]:
        return (wilson_interval(self.won, self.deals)[0],
                wilson_interval(self.won + self.unknown, self.deals)[1])

    @property
    def seconds_per_deal(self) -> float:
        return self.seconds_total / self.deals if self.deals else 0.0

    def to_json(self) -> dict[str, Any]:
        low, high = self.win_rate_bounds
        interval = self.interval_95
        return {
            "variant": self.variant, "rules_hash": self.rules_hash,
            "solver_version": self.solver_version, "max_positions": self.budget,
            "deals": self.deals, "won": self.won, "unwinnable": self.unwinnable,
            "unknown": self.unknown, "first_deal": self.first_deal,
            "last_deal": self.last_deal,
            "win_rate": {"if_unknown_lost": low, "if_unknown_won": high,
                         "interval_95": list(interval)},
            "positions": {"median": self.positions_median, "p90": self.positions_p90,
                          "p99": self.positions_p99, "max": self.positions_max},
            "seconds": {"total": round(self.seconds_total, 3),
                        "per_deal": round(self.seconds_per_deal, 4)},
            "solution_length_median": self.solution_length_median,
        }

    def text(self) -> str:
        low, high = self.win_rate_bounds
        interval = self.interval_95
        rate = f"{percent(low)}" if low == high else f"{percent(low)} to {percent(high)}"
        span = f" (numbers {self.first_deal} to {self.last_deal})" if self.deals else ""
        lines = [
            (f"{self.variant} (rules {self.rules_hash}, solver {self.solver_version}, "
             f"budget {self.budget:,} positions)"),
            f"  deals       {self.deals:,}{span}",
            f"  won         {self.won:,}",
            f"  unwinnable  {self.unwinnable:,}",
            f"  unknown     {self.unknown:,}",
            (f"  win rate    {rate} (95% interval {percent(interval[0])} to "
             f"{percent(interval[1])})"),
            (f"  positions   median {self.positions_median:,.0f}, "
             f"p90 {self.positions_p90:,.0f}, p99 {self.positions_p99:,.0f}, "
             f"max {self.positions_max:,}"),
            (f"  seconds     {self.seconds_per_deal:.3f} per deal, "
             f"{self.seconds_total:,.1f} in all"),
        ]
        return "\n".join(lines)


def percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def choose_run(database: ResultsDatabase, rules_hash: str, solver_version: str | None = None,
               budget: int | None = None) -> RunKey | None:
    """The results to report: the given solver version and budget, else the most recent."""
    for version, run_budget, _rows, _last in database.runs(rules_hash):
        if solver_version not in (None, version) or budget not in (None, run_budget):
            continue
        if budget is None:  # the largest budget of the most recent solver version
            budgets = [b for v, b, _, _ in database.runs(rules_hash) if v == version]
            run_budget = max(budgets)
        return RunKey(rules_hash, version, run_budget)
    return None


def make_report(database: ResultsDatabase, variant: str, key: RunKey,
                deals: Iterable[int] | None = None) -> Report:
    """Summarize the rows stored under ``key`` (only ``deals``, when given)."""
    wanted = None if deals is None else DealRanges.of(deals)
    rows = [row for row in database.results(key) if wanted is None or row.deal in wanted]
    counts = {"won": 0, "unwinnable": 0, "unknown": 0}
    for row in rows:
        counts[row.verdict] += 1
    positions = sorted(row.positions for row in rows)
    lengths = sorted(row.solution_length for row in rows if row.solution_length is not None)
    return Report(
        variant=variant, rules_hash=key.rules_hash, solver_version=key.solver_version,
        budget=key.budget, deals=len(rows), won=counts["won"],
        unwinnable=counts["unwinnable"], unknown=counts["unknown"],
        first_deal=rows[0].deal if rows else None, last_deal=rows[-1].deal if rows else None,
        positions_median=_median(positions), positions_p90=percentile(positions, 90),
        positions_p99=percentile(positions, 99), positions_max=positions[-1] if rows else 0,
        seconds_total=sum(row.seconds for row in rows),
        solution_length_median=_median(lengths),
        positions=tuple(row.positions for row in rows),
        verdicts=tuple(row.verdict for row in rows))


def _median(ordered: Sequence[float]) -> float:
    if not ordered:
        return 0
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def plot(reports: Sequence[Report], path: str | Path) -> None:
    """Draw positions-to-solve per variant (left) and the win rate per variant (right)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib import pyplot
    except ModuleNotFoundError:
        raise StudyError(f"--plot needs matplotlib: {install_hint('plot')}") from None
    figure, (left, right) = pyplot.subplots(1, 2, figsize=(13, 5),
                                            gridspec_kw={"width_ratios": [3, 2]})
    for report in reports:
        decided = sorted(p for p, v in zip(report.positions, report.verdicts) if v != "unknown")
        if decided:
            shares = [(i + 1) / report.deals for i in range(len(decided))]
            left.step([max(1, p) for p in decided], shares, where="post",
                      label=f"{report.variant} ({report.deals:,} deals)")
    left.set_xscale("log")
    left.set_xlabel("positions searched (log scale)")
    left.set_ylabel("share of deals decided (won or unwinnable)")
    left.set_title("Positions to solve")
    left.grid(True, which="both", alpha=0.3)
    if any(report.deals for report in reports):
        left.legend(fontsize="small")
    names = [report.variant for report in reports]
    lows = [report.win_rate_bounds[0] * 100 for report in reports]
    highs = [report.win_rate_bounds[1] * 100 for report in reports]
    intervals = [report.interval_95 for report in reports]
    places = range(len(reports))
    right.barh(places, lows, color="tab:green", label="won")
    right.barh(places, [h - lo for lo, h in zip(lows, highs)], left=lows, color="tab:gray",
               alpha=0.5, label="unknown")
    right.barh(places, [100 - h for h in highs], left=highs, color="tab:red", alpha=0.6,
               label="unwinnable")
    right.errorbar([(lo + hi) / 2 * 100 for lo, hi in intervals], places,
                   xerr=[[(lo + hi) / 2 * 100 - lo * 100 for lo, hi in intervals],
                         [hi * 100 - (lo + hi) / 2 * 100 for lo, hi in intervals]],
                   fmt="none", ecolor="black", capsize=3, label="95% interval")
    right.set_yticks(list(places), names)
    right.invert_yaxis()
    right.set_xlim(0, 100)
    right.set_xlabel("win rate (%)")
    right.set_title("Win rate per variant")
    right.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=4)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    pyplot.close(figure)
