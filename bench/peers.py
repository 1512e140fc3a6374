"""What the benches against other solvers share: whole processes, the same CPU budget, turns.

Each side of a comparison runs as a whole child process (ours: ``python -m patience solve
… --json``; the peer: its binary, or a ``python -c`` wrapper around its Python module), one
at a time. Its CPU time is the growth of ``getrusage(RUSAGE_CHILDREN)`` (user + system)
across the run, start-up included on both sides. Each child gets the same hard CPU limit
(``RLIMIT_CPU``, whole seconds): a child killed by it decided nothing. Which side runs
first alternates from deal to deal, so that neither always meets the warmer caches.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

#: verdicts, in our words: won, unwinnable (proved), unknown (budget or limit)
DECIDED = ("won", "unwinnable")


@dataclass
class Run:
    """One side's run on one deal."""

    verdict: str            # won / unwinnable / unknown
    cpu: float              # CPU seconds of the whole child process
    positions: int | None   # positions (states) its search counted, None when not printed
    line: int | None        # moves in the winning line, None without one
    note: str = ""          # why unknown, when a limit or an error ended it
    search: float | None = None  # ours: the search's own seconds (the JSON's, wall clock)


@dataclass
class Completed:
    """A child process that ended: its output, status and CPU seconds."""

    stdout: str
    stderr: str
    returncode: int
    cpu: float
    killed_by_cpu_limit: bool


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_child(command: Sequence[str], cpu_limit: int, stdin: str | None = None,
              env: dict[str, str] | None = None) -> Completed:
    """Run ``command`` to its end under a hard CPU limit of ``cpu_limit`` seconds."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 1))

    before = _children_cpu()
    process = subprocess.run(list(command), input=stdin, capture_output=True, text=True,
                             preexec_fn=limit, env=env, check=False)
    cpu = _children_cpu() - before
    killed = process.returncode in (-9, -24)  # SIGKILL at the hard limit, SIGXCPU at the soft
    return Completed(process.stdout, process.stderr, process.returncode, cpu, killed)


def ours_command(variant: str, start: Sequence[str], max_positions: int) -> list[str]:
    """Our solver as a whole process: ``python -m patience solve VARIANT START --json``."""
    return [sys.executable, "-m", "patience", "solve", variant, *start, "--json", "--quiet",
            "--max-positions", str(max_positions)]


def our_env() -> dict[str, str]:
    """The environment for our child: this checkout first on the import path."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    return env


def run_ours(variant: str, start: Sequence[str], max_positions: int, cpu_limit: int) -> Run:
    done = run_child(ours_command(variant, start, max_positions), cpu_limit, env=our_env())
    if done.killed_by_cpu_limit:
        return Run("unknown", done.cpu, None, None, f"CPU limit {cpu_limit} s")
    if done.returncode != 0:
        return Run("unknown", done.cpu, None, None,
                   f"exit {done.returncode}: {done.stderr.strip()[-200:]}")
    record: dict[str, Any] = __import__("json").loads(done.stdout)
    moves = record.get("moves") or ""
    line = len(moves.split()) if record["verdict"] == "won" else None
    return Run(record["verdict"], done.cpu, int(record["positions"]), line,
               search=float(record["seconds"]))


def startup_cpu(command: Sequence[str], env: dict[str, str] | None = None,
                stdin: str | None = None, repeat: int = 5) -> float:
    """The least CPU seconds of ``repeat`` runs of ``command``, a side's start-up with next
    to no search (the least: a loaded machine only adds)."""
    return min(run_child(command, 60, stdin=stdin, env=env).cpu for _ in range(repeat))


def our_startup(variant: str, start: Sequence[str]) -> float:
    """Our whole process's start-up: the same command with a budget of one position."""
    return startup_cpu(ours_command(variant, start, 1), env=our_env())


def in_turns(number: int, ours: Callable[[], Run], peer: Callable[[], Run]) -> tuple[Run, Run]:
    """Run both sides on deal ``number``, ours first on odd deals, the peer first on even."""
    if number % 2:
        mine = ours()
        theirs = peer()
    else:
        theirs = peer()
        mine = ours()
    return mine, theirs


def agree(a: str, b: str) -> bool:
    """Two verdicts agree unless both are decided and differ."""
    return a not in DECIDED or b not in DECIDED or a == b


def parse_deals(text: str) -> list[int]:
    """``1-100`` or ``1,5,9-12`` -> deal numbers."""
    numbers: list[int] = []
    for part in text.split(","):
        first, _, last = part.strip().partition("-")
        numbers.extend(range(int(first), int(last or first) + 1))
    return numbers


def _median(values: Sequence[float]) -> str:
    return f"{statistics.median(values):.3f}" if values else "-"


def _total(values: Sequence[int | None]) -> str:
    known = [v for v in values if v is not None]
    return f"{sum(known):,}" if known else "-"


def print_table(title: str, peer_name: str, rows: Sequence[tuple[int, Run, Run]],
                startups: tuple[float, float] | None = None) -> int:
    """Print the per-deal lines and the side-by-side summary; return the disagreements.
    ``startups``: each side's start-up CPU seconds (ours, the peer's), printed with the
    ratio of the CPU totals less them, for a reader who wants the searches alone."""
    print(title)
    print(f"{'deal':>6} | {'ours':>10} {'cpu s':>7} {'positions':>10} {'line':>5} | "
          f"{peer_name:>10} {'cpu s':>7} {'states':>10} {'line':>5} | ratio cpu ours/peer")
    disagreements = 0
    for number, mine, theirs in rows:
        flag = ""
        if not agree(mine.verdict, theirs.verdict):
            disagreements += 1
            flag = "   <<< DISAGREE"
        ratio = f"{mine.cpu / theirs.cpu:.2f}" if theirs.cpu > 0 else "-"
        notes = "; ".join(n for n in (mine.note and f"ours: {mine.note}",
                                       theirs.note and f"peer: {theirs.note}") if n)
        print(f"{number:>6} | {mine.verdict:>10} {mine.cpu:>7.3f} {_opt(mine.positions):>10} "
              f"{_opt(mine.line):>5} | {theirs.verdict:>10} {theirs.cpu:>7.3f} "
              f"{_opt(theirs.positions):>10} {_opt(theirs.line):>5} | {ratio}{flag}"
              + (f"   ({notes})" if notes else ""))
    for number, mine, theirs in rows:
        if not agree(mine.verdict, theirs.verdict):
            print(f"DISAGREEMENT on deal {number}: ours {mine.verdict}, "
                  f"{peer_name} {theirs.verdict}", file=sys.stderr)
    sides = {"ours": [r[1] for r in rows], peer_name: [r[2] for r in rows]}
    print()
    print("| side | deals | won | unwinnable | unknown | CPU s total | CPU s median | "
          "positions total | line median |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, runs in sides.items():
        lines = [r.line for r in runs if r.line is not None]
        print(f"| {name} | {len(runs)} | {sum(r.verdict == 'won' for r in runs)} | "
              f"{sum(r.verdict == 'unwinnable' for r in runs)} | "
              f"{sum(r.verdict == 'unknown' for r in runs)} | "
              f"{sum(r.cpu for r in runs):.2f} | {_median([r.cpu for r in runs])} | "
              f"{_total([r.positions for r in runs])} | "
              f"{statistics.median(lines) if lines else '-'} |")
    ours_cpu = sum(r.cpu for r in sides["ours"])
    peer_cpu = sum(r.cpu for r in sides[peer_name])
    ours_med = statistics.median([r.cpu for r in sides["ours"]]) if rows else 0.0
    peer_med = statistics.median([r.cpu for r in sides[peer_name]]) if rows else 0.0
    both = sum(mine.verdict in DECIDED and theirs.verdict in DECIDED for _, mine, theirs in rows)
    print()
    print(f"ratio ours/{peer_name}: CPU total {ours_cpu / peer_cpu if peer_cpu else 0:.2f}, "
          f"CPU median {ours_med / peer_med if peer_med else 0:.2f}; "
          f"agreement {both - disagreements} of {both} decided by both; "
          f"disagreements {disagreements}")
    if startups:
        ours_start, peer_start = startups
        ours_less = ours_cpu - len(rows) * ours_start
        peer_less = peer_cpu - len(rows) * peer_start
        print(f"start-up CPU s per process (least of 5, no search): ours {ours_start:.3f}, "
              f"{peer_name} {peer_start:.3f}; CPU totals less start-up: ours "
              f"{ours_less:.2f}, {peer_name} {peer_less:.2f}, ratio "
              + (f"{ours_less / peer_less:.2f}" if peer_less > 0 else "-"))
    searches = [r.search for r in sides["ours"] if r.search is not None]
    if searches:
        print(f"ours' searches alone (the JSON's seconds, wall clock inside the process): "
              f"total {sum(searches):.2f}, median {statistics.median(searches):.3f}")
    return disagreements


def _opt(value: int | None) -> str:
    return "-" if value is None else str(value)
