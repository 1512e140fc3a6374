"""What the benches against other solvers share: whole processes, the same CPU budget, turns.

Each side of a comparison runs as a whole child process (ours: ``python -m patience solve
… --json``; the peer: its binary, or a ``python -c`` wrapper around its Python module), one
at a time. Its CPU time is the growth of ``getrusage(RUSAGE_CHILDREN)`` (user + system)
across the run, start-up included on both sides. Each child gets the same hard CPU limit
(``RLIMIT_CPU``, whole seconds): a child killed by it decided nothing. Which side runs
first alternates from deal to deal, so that neither always meets the warmer caches.

A *batch* (``--batch``) runs each side over the whole range of deals in ONE process, so
that start-up (ours ~0.3 s of Python, a C peer's ~2 ms) is paid once and the CPU totals
measure the solvers: ours is ``python -c`` around ``OURS_BATCH``, the peer its own range
solver or loop. The two batches alternate which runs first from repeat to repeat
(``--repeat K``). Our won lines are replayed through ``Game.push`` in this, the parent,
process: outside the CPU measured, in both modes.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import patience

T = TypeVar("T")

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
    moves: tuple[str, ...] = ()  # ours: the won line, for the replay
    replay: str = ""        # ours, won: "won" after Game.push of every move, or the error


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


def child_env() -> dict[str, str]:
    """The environment for a side's process: this one's, less PYTHONDONTWRITEBYTECODE.

    A Python side runs as an installed package does, from its bytecode cache (pip writes
    it at install; an editable checkout writes it on first import). With the variable set,
    as on the project's machine, every process compiled our 49 modules again: 0.18 of its
    0.33 CPU seconds of start-up."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_child(command: Sequence[str], cpu_limit: int, stdin: str | None = None,
              env: dict[str, str] | None = None) -> Completed:
    """Run ``command`` to its end under a hard CPU limit of ``cpu_limit`` seconds, in
    ``env`` (default `child_env`)."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 1))

    before = _children_cpu()
    process = subprocess.run(list(command), input=stdin, capture_output=True, text=True,
                             preexec_fn=limit, env=child_env() if env is None else env,
                             check=False)
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
    env = child_env()
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    return env


def run_ours(variant: str, start: Sequence[str], max_positions: int, cpu_limit: int) -> Run:
    done = run_child(ours_command(variant, start, max_positions), cpu_limit, env=our_env())
    if done.killed_by_cpu_limit:
        return Run("unknown", done.cpu, None, None, f"CPU limit {cpu_limit} s")
    if done.returncode != 0:
        return Run("unknown", done.cpu, None, None,
                   f"exit {done.returncode}: {done.stderr.strip()[-200:]}")
    record: dict[str, Any] = json.loads(done.stdout)
    moves = record.get("moves") or ""
    line = len(moves.split()) if record["verdict"] == "won" else None
    return Run(record["verdict"], done.cpu, int(record["positions"]), line,
               search=float(record["seconds"]), moves=tuple(moves.split()))


def replay(game: patience.Game, moves: Sequence[str]) -> str:
    """Push every move with the kernel's checks: "won" when the line ends in a won
    position, otherwise what went wrong."""
    for number, move in enumerate(moves, start=1):
        try:
            game.push(move)
        except patience.MoveError as error:
            return f"move {number} ({move}) is illegal: {error}"
    return "won" if game.is_won() else f"the {len(moves)} moves end in a position not won"


def replay_won(run: Run, game: Callable[[], patience.Game]) -> None:
    """Replay our won line of ``run`` on the deal ``game()`` deals (in this process, outside
    the CPU measured) and record what it showed in ``run.replay``."""
    if run.verdict == "won":
        run.replay = replay(game(), run.moves)


def startup_cpu(command: Sequence[str], env: dict[str, str] | None = None,
                stdin: str | None = None, repeat: int = 5) -> float:
    """The least CPU seconds of ``repeat`` runs of ``command``, a side's start-up with next
    to no search (the least: a loaded machine only adds)."""
    return min(run_child(command, 60, stdin=stdin, env=env).cpu for _ in range(repeat))


def our_startup(variant: str, start: Sequence[str]) -> float:
    """Our whole process's start-up: the same command with a budget of one position."""
    return startup_cpu(ours_command(variant, start, 1), env=our_env())


def in_turns(number: int, ours: Callable[[], T], peer: Callable[[], T]) -> tuple[T, T]:
    """Run both sides on deal (or repeat) ``number``, ours first when it is odd, the peer
    first when it is even."""
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


def print_deals(peer_name: str, rows: Sequence[tuple[int, Run, Run]],
                seconds: tuple[str, str] = ("cpu s", "cpu s"), ratio: bool = True) -> int:
    """Print one line per deal (``seconds``: the two seconds columns' headings); return
    the problems: decided verdicts that differ, and won lines of ours whose replay did not
    end won. Each is printed again on stderr."""
    print(f"{'deal':>6} | {'ours':>10} {seconds[0]:>7} {'positions':>10} {'line':>5} | "
          f"{peer_name:>10} {seconds[1]:>7} {'states':>10} {'line':>5}"
          + (" | ratio cpu ours/peer" if ratio else ""))
    problems: list[str] = []
    for number, mine, theirs in rows:
        flag = ""
        if not agree(mine.verdict, theirs.verdict):
            problems.append(f"DISAGREEMENT on deal {number}: ours {mine.verdict}, "
                            f"{peer_name} {theirs.verdict}")
            flag = "   <<< DISAGREE"
        if mine.replay not in ("", "won"):
            problems.append(f"OUR LINE IS NOT A WIN on deal {number}: {mine.replay}")
            flag += "   <<< OUR LINE IS NOT A WIN"
        shown = f"{mine.cpu / theirs.cpu:.2f}" if theirs.cpu > 0 else "-"
        notes = "; ".join(n for n in (mine.note and f"ours: {mine.note}",
                                       theirs.note and f"peer: {theirs.note}") if n)
        print(f"{number:>6} | {mine.verdict:>10} {mine.cpu:>7.3f} {_opt(mine.positions):>10} "
              f"{_opt(mine.line):>5} | {theirs.verdict:>10} {theirs.cpu:>7.3f} "
              f"{_opt(theirs.positions):>10} {_opt(theirs.line):>5}"
              + (f" | {shown}" if ratio else "") + flag + (f"   ({notes})" if notes else ""))
    for problem in problems:
        print(problem, file=sys.stderr)
    return len(problems)


def _replayed(runs: Sequence[Run]) -> str:
    won = [r for r in runs if r.verdict == "won"]
    return (f"our won lines replayed through Game.push (in the bench's own process, outside "
            f"the CPU measured): {sum(r.replay == 'won' for r in won)} of {len(won)} end won")


def print_table(title: str, peer_name: str, rows: Sequence[tuple[int, Run, Run]],
                startups: tuple[float, float] | None = None) -> int:
    """Print the per-deal lines and the side-by-side summary; return the problems
    (``print_deals``). ``startups``: each side's start-up CPU seconds (ours, the peer's),
    printed with the ratio of the CPU totals less them, for a reader who wants the searches
    alone."""
    print(title)
    problems = print_deals(peer_name, rows)
    sides = {"ours": [r[1] for r in rows], peer_name: [r[2] for r in rows]}
    print()
    print("| side | deals | won | unwinnable | unknown | CPU s total | CPU s median | "
          "positions total | line median |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, runs in sides.items():
        print(f"| {name} | {_verdicts(runs)} | {sum(r.cpu for r in runs):.2f} | "
              f"{_median([r.cpu for r in runs])} | {_total([r.positions for r in runs])} | "
              f"{_line_median(runs)} |")
    ours_cpu = sum(r.cpu for r in sides["ours"])
    peer_cpu = sum(r.cpu for r in sides[peer_name])
    ours_med = statistics.median([r.cpu for r in sides["ours"]]) if rows else 0.0
    peer_med = statistics.median([r.cpu for r in sides[peer_name]]) if rows else 0.0
    print()
    print(f"ratio ours/{peer_name}: CPU total {ours_cpu / peer_cpu if peer_cpu else 0:.2f}, "
          f"CPU median {ours_med / peer_med if peer_med else 0:.2f}; {_agreement(rows)}")
    if startups:
        ours_start, peer_start = startups
        ours_less = ours_cpu - len(rows) * ours_start
        peer_less = peer_cpu - len(rows) * peer_start
        # the start-up is measured once, before the deals: where the load fell after it, a
        # side's processes took less on average and the difference means nothing
        less = (f"ours {ours_less:.2f}, {peer_name} {peer_less:.2f}, ratio "
                + f"{ours_less / peer_less:.2f}") if ours_less > 0 and peer_less > 0 else \
            ("none: a side's processes took less on average than its start-up measured "
             "before them (the load changed)")
        print(f"start-up CPU s per process (least of 5, no search): ours {ours_start:.3f}, "
              f"{peer_name} {peer_start:.3f}; CPU totals less start-up: {less}")
    searches = [r.search for r in sides["ours"] if r.search is not None]
    if searches:
        print(f"ours' searches alone (the JSON's seconds, wall clock inside the process): "
              f"total {sum(searches):.2f}, median {statistics.median(searches):.3f}")
    print(_replayed(sides["ours"]))
    return problems


def _verdicts(runs: Sequence[Run]) -> str:
    """The ``deals | won | unwinnable | unknown`` cells of a side's summary row."""
    return (f"{len(runs)} | {sum(r.verdict == 'won' for r in runs)} | "
            f"{sum(r.verdict == 'unwinnable' for r in runs)} | "
            f"{sum(r.verdict == 'unknown' for r in runs)}")


def _line_median(runs: Sequence[Run]) -> str:
    lines = [r.line for r in runs if r.line is not None]
    return str(statistics.median(lines)) if lines else "-"


def _agreement(rows: Sequence[tuple[int, Run, Run]]) -> str:
    both = sum(mine.verdict in DECIDED and theirs.verdict in DECIDED for _, mine, theirs in rows)
    disagreements = sum(not agree(mine.verdict, theirs.verdict) for _, mine, theirs in rows)
    return (f"agreement {both - disagreements} of {both} decided by both; "
            f"disagreements {disagreements}")


def _opt(value: int | None) -> str:
    return "-" if value is None else str(value)


# --- batches: each side solves the whole range in one process ----------------------------

#: Our side of a batch: ONE process deals and solves every deal. Reads {"variant", "seeds",
#: "budget", "shorten"} on stdin and prints, deal after deal, one JSON line {"seed",
#: "verdict", "positions", "moves", "cpu"} (``cpu``: this process's CPU seconds for dealing
#: and solving that deal), flushed, so that a batch stopped at its CPU limit keeps the
#: deals it finished.
OURS_BATCH = """
import json, sys, time
job = json.load(sys.stdin)
import patience
from patience.seeds import deal
variant = patience.find_variant(job["variant"])
for seed in job["seeds"]:
    started = time.process_time()
    result = patience.solve(deal(variant, seed), max_positions=job["budget"],
                            shorten_line=job["shorten"])
    print(json.dumps({"seed": seed, "verdict": result.verdict, "positions": result.positions,
                      "moves": list(result.moves), "cpu": time.process_time() - started}),
          flush=True)
"""


@dataclass
class Batch:
    """One side's batch: the CPU seconds of its whole process (start-up once) and its run
    of each deal (``Run.cpu``: that deal's seconds inside the batch)."""

    cpu: float
    runs: dict[int, Run] = field(default_factory=dict)
    note: str = ""   # why the batch ended early, when it did

    def run(self, number: int) -> Run:
        """The run of deal ``number``; a deal the batch never reached is unknown."""
        return self.runs.get(number) or Run("unknown", 0.0, None, None,
                                            self.note or "not in the batch's output")


def add_batch_options(parser: argparse.ArgumentParser, peer_lines: str) -> None:
    """``--batch``, ``--repeat`` and ``--shorten`` (``peer_lines``: what the peer does with
    its lines, for the help)."""
    parser.add_argument("--batch", action="store_true",
                        help="each side solves every deal in ONE process (start-up once)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="--batch: run both batches K times, taking turns (default 1)")
    parser.add_argument("--shorten", action="store_true",
                        help=f"--batch: ours shortens its won lines (default: not; {peer_lines})")


def check_repeat(parser: argparse.ArgumentParser, repeat: int) -> None:
    if repeat < 1:
        parser.error(f"--repeat must be 1 or more, not {repeat}")


def batch_cpu_limit(cpu_limit: int, deals: int) -> int:
    """A batch's hard CPU limit: ``cpu_limit`` seconds a deal, a guard only (the budget
    in positions decides)."""
    return cpu_limit * deals + 10


def ended_early(done: Completed, limit: int) -> str:
    """Why a batch child ended before its last deal, or "" when it ended well."""
    if done.killed_by_cpu_limit:
        return f"the batch was stopped at its CPU limit of {limit} s"
    if done.returncode != 0:
        return f"the batch exited {done.returncode}: {done.stderr.strip()[-200:]}"
    return ""


def run_our_batch(variant: str, seeds: dict[int, str], budget: int, shorten: bool,
                  cpu_limit: int) -> Batch:
    """Our solver on every deal of ``seeds`` (deal number -> seed text) in one process."""
    job = json.dumps({"variant": variant, "seeds": list(seeds.values()), "budget": budget,
                      "shorten": shorten})
    limit = batch_cpu_limit(cpu_limit, len(seeds))
    done = run_child([sys.executable, "-c", OURS_BATCH], limit, stdin=job, env=our_env())
    numbers = {seed: number for number, seed in seeds.items()}
    batch = Batch(done.cpu, note=ended_early(done, limit))
    for text in done.stdout.splitlines():
        record = json.loads(text)
        won = record["verdict"] == "won"
        batch.runs[numbers[record["seed"]]] = Run(
            record["verdict"], float(record["cpu"]), int(record["positions"]),
            len(record["moves"]) if won else None, moves=tuple(record["moves"]))
    return batch


def our_batch_startup(variant: str) -> float:
    """Our batch process's start-up: the same process with no deal to solve."""
    job = json.dumps({"variant": variant, "seeds": [], "budget": 1, "shorten": False})
    return startup_cpu([sys.executable, "-c", OURS_BATCH], env=our_env(), stdin=job)


def alternate(repeat: int, ours: Callable[[], Batch],
              peer: Callable[[], Batch]) -> list[tuple[Batch, Batch]]:
    """Run both batches ``repeat`` times, ours first on odd repeats, the peer first on even."""
    pairs = []
    for number in range(1, repeat + 1):
        mine, theirs = in_turns(number, ours, peer)
        pairs.append((mine, theirs))
    return pairs


def print_batches(title: str, peer_name: str, numbers: Sequence[int],
                  pairs: Sequence[tuple[Batch, Batch]], seconds: tuple[str, str],
                  startups: tuple[float, float] | None = None) -> int:
    """Print the per-deal lines of the first repeat, each repeat's whole-process CPU and
    the ratio; return the problems (``print_deals``, and a repeat whose verdicts or
    positions differ from the first's)."""
    print(title)
    first_ours, first_peer = pairs[0]
    rows = [(n, first_ours.run(n), first_peer.run(n)) for n in numbers]
    problems = print_deals(peer_name, rows, seconds, ratio=False)
    for repeat, (mine, theirs) in enumerate(pairs[1:], start=2):
        for number, first_mine, first_theirs in rows:
            for name, run, again in (("ours", first_mine, mine.run(number)),
                                     (peer_name, first_theirs, theirs.run(number))):
                if (run.verdict, run.positions) != (again.verdict, again.positions):
                    problems += 1
                    print(f"repeat {repeat}, deal {number}: {name} {again.verdict} after "
                          f"{again.positions} positions, the first {run.verdict} after "
                          f"{run.positions}", file=sys.stderr)
    print()
    print("| side | deals | won | unwinnable | unknown | CPU s of the whole process, each "
          "repeat | positions total | line median |")
    print("|---|---|---|---|---|---|---|---|")
    for side, name in ((0, "ours"), (1, peer_name)):
        runs = [(mine, theirs)[side] for _, mine, theirs in rows]
        cpus = ", ".join(f"{pair[side].cpu:.3f}" for pair in pairs)
        print(f"| {name} | {_verdicts(runs)} | {cpus} | {_total([r.positions for r in runs])} "
              f"| {_line_median(runs)} |")
    print()
    ours_cpu = sum(mine.cpu for mine, _ in pairs)
    peer_cpu = sum(theirs.cpu for _, theirs in pairs)
    each = ", ".join(f"{m.cpu / t.cpu:.2f}" if t.cpu > 0 else "-" for m, t in pairs)
    print(f"ratio ours/{peer_name}: CPU of the whole processes "
          + (f"{ours_cpu / peer_cpu:.2f}" if peer_cpu > 0 else "-")
          + (f" over {len(pairs)} repeats (each: {each})" if len(pairs) > 1 else "")
          + f"; {_agreement(rows)}")
    for name, batch in (("ours", first_ours), (peer_name, first_peer)):
        if batch.note:
            print(f"{name}: {batch.note}")
    if startups:
        ours_start, peer_start = startups
        ours_less = ours_cpu / len(pairs) - ours_start
        peer_less = peer_cpu / len(pairs) - peer_start
        print(f"start-up CPU s of a batch process (least of 5, no deal): ours "
              f"{ours_start:.3f}, {peer_name} {peer_start:.3f}; CPU less start-up, mean of "
              f"the repeats: ours {ours_less:.2f}, {peer_name} {peer_less:.2f}, ratio "
              + (f"{ours_less / peer_less:.2f}" if peer_less > 0 else "-"))
        rates = [(name, sum(r.positions or 0 for r in runs), less) for name, runs, less in
                 (("ours", [row[1] for row in rows], ours_less),
                  (peer_name, [row[2] for row in rows], peer_less))]
        if all(positions for _, positions, _ in rates):
            print("positions per CPU second less start-up: " + ", ".join(
                f"{name} {positions / less:,.0f}" if less > 0 else f"{name} -"
                for name, positions, less in rates))
    print(_replayed([row[1] for row in rows]))
    return problems
