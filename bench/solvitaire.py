"""Our solver against Solvitaire, side by side on our numbered deals.

    SOLVITAIRE=/path/to/solvitaire python bench/solvitaire.py freecell --deals 1-20 --time-limit 10
    python bench/solvitaire.py klondike golf --deals 1-5 --time-limit 5   # several games
    python bench/solvitaire.py fan --deal-json 3      # print deal 3 as Solvitaire JSON
    python bench/solvitaire.py --list                                     # the mapped games

Solvitaire (Charlie Blake and Ian Gent, github.com/thecharlieblake/Solvitaire, GPL-2.0) is a
C++ solver for thoughtful patience: like ours, it sees the stock's order and the face-down
cards. It is never part of this repository; build it outside and point ``SOLVITAIRE`` at the
binary (see ``BUILD_HELP`` below, or bench/README.md).

For each deal N of the range the bench
  1. deals our numbered deal N of the variant (a shipped name or a .yaml path);
  2. writes its starting position as a Solvitaire deal file, by the variant file's
     ``solvitaire:`` key (our pile groups -> Solvitaire's keys, face-down cards
     with a lower-case suit letter, the stock with the next card last), checking that every
     card is there exactly once (twice with two decks): Solvitaire loops for ever on a deal
     with a card missing;
  3. runs Solvitaire on it (``--classify``) with the entry's preset or its rules file in
     bench/solvitaire_rules/, and ``patience.solve`` on the same deal (deciding only, as
     ``--classify`` does: the line is not shortened), each a whole child process, taking
     turns (ours first on odd deals);
  4. replays every winning line of ours through ``Game.push`` (checked moves) to the won
     position.
Then it prints, per game: deals decided by each, agreement on the deals both decided,
median CPU and wall time, the CPU totals and their ratio, median positions, positions per
CPU second, and every disagreement with its deal number and what the replay showed.

Fairness (issue #34): both sides are whole processes, their CPU time the child's rusage
(``os.wait4``: start-up included on both sides; ours is ``python -c`` around
``patience.solve``). Both get the same CPU budget, ``--time-limit`` rounded up to whole
seconds: Solvitaire a hard ``RLIMIT_CPU`` of that many seconds (its own ``--timeout``
measures wall-clock time, which a loaded machine eats: it once got 0.3 s of CPU where ours
got 1 s, so its timeout is set to ``WALL_SLACK`` times the budget and only guards), ours
stops itself when its process has used the budget (``should_stop`` reading
``time.process_time()``), under a hard limit one second higher as a guard; a verdict
ours reaches after its process has used the budget counts as unknown, as Solvitaire's
would (killed at the limit). A side killed at its limit printed no counts: its verdict is
unknown and it is left out of the positions per CPU second.

Positions: ours are ``result.positions`` (distinct positions expanded). Solvitaire prints
"States Searched" (every node its search entered, cache hits included) and "Unique States
Searched" (those minus cache hits); the unique count is the one comparable with ours, and
positions per CPU second use it. Both solvers run one after the other on one core.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from peers import child_env, replay  # the won lines are replayed as the other benches do

import patience
from patience.errors import UnknownVariantError
from patience.solvitaire import (  # the deal conversion lives in the package
    SolvitaireError,
    card_of_solvitaire,  # noqa: F401 (the bench's tests use it from here)
    check_complete,  # noqa: F401
    deal_cards,  # noqa: F401
    entry_for,
    solvitaire_card,  # noqa: F401
    solvitaire_deal,
)

BENCH = Path(__file__).resolve().parent
READINGS = BENCH / "readings"                  # other programs' readings of a game's rules
RULES_DIR = BENCH / "solvitaire_rules"

BUILD_HELP = """\
SOLVITAIRE is not set: it must name a Solvitaire binary. Solvitaire is not part of this
repository; build it outside it, from its public source (C++14, CMake, Boost):

    git clone https://github.com/thecharlieblake/Solvitaire /somewhere/solvitaire
    # Debian/Ubuntu: apt-get install cmake g++ libboost-program-options-dev libboost-system-dev
    cd /somewhere/solvitaire
    cmake -DCMAKE_BUILD_TYPE=RELEASE -Bcmake-build-release -H.
    cmake --build cmake-build-release -j2 -- solvitaire
    export SOLVITAIRE=/somewhere/solvitaire/cmake-build-release/bin/solvitaire

Its CMake configure step clones googletest from GitHub; offline, point git at a local copy
(bench/README.md, "Against Solvitaire", has the commands). Checked with commit 23983059
(version 0.10.1)."""

#: Solvitaire's outcome words -> our verdicts
PEER_VERDICTS = {"solved": "won", "unsolvable": "unwinnable", "timed-out": "unknown",
                 "memory-limit-reached": "unknown", "terminated": "unknown"}


#: a problem the bench reports and stops on (exit status 2): the package's error, so that
#: the deal conversion (patience.solvitaire) and the bench raise one kind
BenchError = SolvitaireError


# --- variants -------------------------------------------------------------------------


def load_variant(name: str, variants_dir: str | None = None) -> patience.Variant:
    """A variant by shipped name or path; a name not shipped is also looked for as
    ``NAME.yaml`` in ``variants_dir`` (default: the BENCH_VARIANTS_DIR environment
    variable), for variant files that are not shipped yet, and in ``bench/readings/``
    (other programs' readings of a game's rules)."""
    try:
        return patience.find_variant(name)
    except UnknownVariantError:
        directory = variants_dir or os.environ.get("BENCH_VARIANTS_DIR")
        for folder in ([Path(directory)] if directory else []) + [READINGS]:
            if (folder / f"{name}.yaml").is_file():
                return patience.find_variant(folder / f"{name}.yaml")
        raise


def mapped_games(variants_dir: str | None = None) -> dict[str, dict[str, Any]]:
    """Every variant whose file has a ``solvitaire:`` key (the shipped ones, the readings of
    bench/readings/ and the files of ``variants_dir``), by id: its mapping, or its
    ``not_exact`` reason."""
    variants = [patience.find_variant(name) for name in patience.shipped_variants()]
    directory = variants_dir or os.environ.get("BENCH_VARIANTS_DIR")
    for folder in ([Path(directory)] if directory else []) + [READINGS]:
        variants += [patience.find_variant(path) for path in sorted(folder.glob("*.yaml"))]
    return {variant.id: variant.definition.solvitaire for variant in variants
            if variant.definition.solvitaire is not None}


# --- Solvitaire -----------------------------------------------------------------------


def solvitaire_binary() -> str:
    binary = os.environ.get("SOLVITAIRE")
    if not binary:
        raise BenchError(BUILD_HELP)
    if not os.access(binary, os.X_OK):
        raise BenchError(f"SOLVITAIRE={binary!r} is not an executable file\n\n{BUILD_HELP}")
    return binary


def rules_arguments(entry: dict[str, Any]) -> list[str]:
    if "preset" in entry:
        return ["--type", entry["preset"]]
    return ["--custom-rules", str(RULES_DIR / entry["rules_file"])]


def rules_name(entry: dict[str, Any]) -> str:
    return f"preset {entry['preset']}" if "preset" in entry else \
        f"rules file {entry['rules_file']}"


def _described(binary: str, name: str) -> dict[str, Any]:
    text = subprocess.run([binary, "--describe-game-rules", name], capture_output=True,
                          text=True, timeout=60, check=True).stdout
    start, end = text.index("{"), text.rindex("}")
    return json.loads(text[start:end + 1])


def _merged(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in over.items():
        merged[key] = _merged(base.get(key, {}), value) if isinstance(value, dict) else value
    return merged


def effective_rules(binary: str, entry: dict[str, Any]) -> dict[str, Any]:
    """Solvitaire's rules for the entry: its defaults with the preset or rules file over
    them (what Solvitaire itself does)."""
    default = _described(binary, "default")
    if "preset" in entry:
        return _merged(default, _described(binary, entry["preset"]))
    with open(RULES_DIR / entry["rules_file"], encoding="utf-8") as file:
        return _merged(default, json.load(file))


def check_expected(rules: dict[str, Any], expect: dict[str, Any], where: str = "") -> list[str]:
    """The options of ``expect`` that ``rules`` does not have (as "key: want, got")."""
    wrong = []
    for key, want in expect.items():
        got = rules.get(key)
        if isinstance(want, dict):
            wrong += check_expected(got if isinstance(got, dict) else {}, want,
                                    f"{where}{key}.")
        elif got != want:
            wrong.append(f"{where}{key}: want {want!r}, Solvitaire has {got!r}")
    return wrong


@dataclass
class PeerRun:
    verdict: str      # ours: won / unwinnable / unknown
    outcome: str      # Solvitaire's word
    states: int       # States Searched
    unique: int       # Unique States Searched
    search_ms: int    # its own Time Taken
    wall: float       # the whole process, seconds
    cpu: float        # user + system of the process
    max_rss_mb: float
    counted: bool = True  # False: killed at the CPU limit, no counts printed


#: each side's wall-clock limit, in CPU budgets: a guard only, the CPU budget decides
WALL_SLACK = 4


def cpu_budget(time_limit: float) -> int:
    """The whole CPU seconds each side gets for ``--time-limit`` seconds (RLIMIT_CPU counts
    whole seconds)."""
    return max(1, math.ceil(time_limit))


@dataclass
class Child:
    """A whole child process that ended: output, exit code, wall and CPU seconds, memory."""

    stdout: str
    stderr: str
    returncode: int
    wall: float
    cpu: float
    max_rss_mb: float

    @property
    def killed_at_cpu_limit(self) -> bool:
        return self.returncode in (-signal.SIGXCPU, -signal.SIGKILL)


def run_child(command: Sequence[str], budget: int, stdin: bytes = b"") -> Child:
    """Run ``command`` under a hard CPU limit of ``budget`` seconds; its CPU time and memory
    come from its own rusage (os.wait4)."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (budget, budget + 1))

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.TemporaryFile() as given:
        given.write(stdin)
        given.seek(0)
        started = time.perf_counter()
        process = subprocess.Popen(list(command), stdin=given, stdout=out, stderr=err,
                                   preexec_fn=limit,  # noqa: PLW1509 (no thread yet)
                                   env=child_env())
        # a safety net only: the CPU limit or the solver's own limit ends it first
        guard = threading.Timer(budget * WALL_SLACK * 3 + 30, process.kill)
        guard.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            guard.cancel()
        wall = time.perf_counter() - started
        out.seek(0)
        err.seek(0)
        return Child(out.read().decode(errors="replace"), err.read().decode(errors="replace"),
                     os.waitstatus_to_exitcode(status), wall, usage.ru_utime + usage.ru_stime,
                     usage.ru_maxrss / 1024)


def run_solvitaire(binary: str, entry: dict[str, Any], deal_file: Path,
                   time_limit: float) -> PeerRun:
    """Run Solvitaire on one deal file with ``--classify``, a whole process under the CPU
    budget of ``time_limit`` (its ``--timeout``, wall-clock, only a guard)."""
    budget = cpu_budget(time_limit)
    command = [binary, *rules_arguments(entry), "--classify",
               "--timeout", str(budget * WALL_SLACK * 1000), str(deal_file)]
    child = run_child(command, budget)
    stdout, stderr = child.stdout, child.stderr
    if child.killed_at_cpu_limit:
        return PeerRun("unknown", "cpu-limit", 0, 0, 0, child.wall, child.cpu,
                       child.max_rss_mb, counted=False)
    lines = [line for line in stdout.splitlines() if line.startswith(",")]
    if child.returncode != 0 or not lines:
        raise BenchError(f"Solvitaire failed on {deal_file} (exit status "
                         f"{child.returncode}): {stderr.strip() or stdout.strip()}")
    fields = [part.strip() for part in lines[-1].split(",")]
    outcome = fields[1]
    return PeerRun(PEER_VERDICTS.get(outcome, "unknown"), outcome, int(fields[3]),
                   int(fields[4]), int(fields[2]), child.wall, child.cpu, child.max_rss_mb)


# --- ours -----------------------------------------------------------------------------


@dataclass
class OurRun:
    verdict: str
    positions: int
    wall: float
    cpu: float
    moves: tuple[str, ...]
    replay: str = ""  # for a won line: "won" after Game.push of every move, or the error
    counted: bool = True  # False: killed at the CPU limit, no counts printed


#: Our side as a whole process: reads {"bench", "variant", "variants_dir", "deal", "budget",
#: "wall", "max_positions", "prove", "engine"} on stdin, deals the deal, solves it (deciding
#: only) until its process has used ``budget`` CPU seconds, prints the result as JSON
#: with "cpu", the CPU seconds its process had used when the result was in.
OURS = """
import json, sys, time
job = json.load(sys.stdin)
sys.path.insert(0, job["bench"])
from solvitaire import load_variant
from patience.solver import solve
game = load_variant(job["variant"], job["variants_dir"]).deal(job["deal"])
result = solve(game, max_positions=job["max_positions"], time_limit=job["wall"],
               shorten_line=False, prove=job["prove"], engine=job["engine"],
               should_stop=lambda positions: time.process_time() >= job["budget"])
print(json.dumps({"verdict": result.verdict, "positions": result.positions,
                  "seconds": result.seconds, "moves": list(result.moves),
                  "cpu": time.process_time()}))
"""


def run_ours(variant: patience.Variant, name: str, number: int, time_limit: float,
             max_positions: int, prove: bool = False, engine: str = "auto",
             variants_dir: str | None = None) -> OurRun:
    """``patience.solve`` on deal ``number`` of ``name`` (deciding only: the line is not
    shortened) in a whole child process with the CPU budget of ``time_limit``."""
    budget = cpu_budget(time_limit)
    job = {"bench": str(BENCH), "variant": name, "variants_dir": variants_dir, "deal": number,
           "budget": budget, "wall": float(budget * WALL_SLACK),
           "max_positions": max_positions, "prove": prove, "engine": engine}
    child = run_child([sys.executable, "-c", OURS], budget + 1, json.dumps(job).encode())
    if child.killed_at_cpu_limit:
        return OurRun("unknown", 0, child.wall, child.cpu, (), counted=False)
    if child.returncode != 0:
        raise BenchError(f"our solver failed on {name} deal {number} (exit status "
                         f"{child.returncode}): {child.stderr.strip()[-500:]}")
    result = json.loads(child.stdout)
    # the hard limit is a second above the budget, to let ours print: a verdict reached
    # past the budget is one Solvitaire could not have reached (it is killed there)
    verdict = result["verdict"] if result["cpu"] <= budget else "unknown"
    run = OurRun(verdict, result["positions"], child.wall, child.cpu, tuple(result["moves"]))
    if run.verdict == "won":
        run.replay = replay(variant.deal(number), run.moves)
    return run



# --- a run ----------------------------------------------------------------------------


@dataclass
class DealResult:
    number: int
    peer: PeerRun
    ours: OurRun


@dataclass
class GameReport:
    variant: patience.Variant
    entry: dict[str, Any]
    time_limit: float
    results: list[DealResult] = field(default_factory=list)
    load_before: tuple[float, ...] = ()
    load_after: tuple[float, ...] = ()


def parse_deals(text: str) -> list[int]:
    """``"1-20"`` or ``"3,5,9-12"`` -> deal numbers."""
    numbers: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        numbers += range(int(low), int(high or low) + 1)
    return numbers


def bench_game(variant: patience.Variant, entry: dict[str, Any], binary: str,
               numbers: Sequence[int], time_limit: float, max_positions: int,
               prove: bool, keep: Path | None, quiet: bool = False,
               engine: str = "auto", name: str | None = None,
               variants_dir: str | None = None) -> GameReport:
    report = GameReport(variant, entry, time_limit, load_before=os.getloadavg())
    with tempfile.TemporaryDirectory(prefix="solvitaire-bench-") as scratch:
        folder = keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        for number in numbers:
            game = variant.deal(number)
            deal_file = folder / f"{variant.id}-{number}.json"
            deal_file.write_text(json.dumps(solvitaire_deal(game, entry)) + "\n")
            peer_run = partial(run_solvitaire, binary, entry, deal_file, time_limit)
            our_run = partial(run_ours, variant, name or variant.id, number, time_limit,
                              max_positions, prove, engine, variants_dir)
            if number % 2:                  # taking turns: ours first on odd deals
                ours = our_run()
                peer = peer_run()
            else:
                peer = peer_run()
                ours = our_run()
            report.results.append(DealResult(number, peer, ours))
            if not quiet:
                flag = "" if agree(peer.verdict, ours.verdict) else "   <-- DISAGREE"
                print(f"  {variant.id} deal {number}: Solvitaire {peer.outcome} "
                      f"{peer.cpu:.2f} CPU s {peer.unique:,} unique states | ours "
                      f"{ours.verdict} {ours.cpu:.2f} CPU s {ours.positions:,} positions"
                      f"{' (line replayed: ' + ours.replay + ')' if ours.replay else ''}{flag}",
                      flush=True)
    report.load_after = os.getloadavg()
    return report


def agree(a: str, b: str) -> bool:
    return a == b or "unknown" in (a, b)


# --- the report -----------------------------------------------------------------------


def _counts(verdicts: list[str]) -> str:
    count = Counter(verdicts)
    decided = count["won"] + count["unwinnable"]
    return f"{decided} ({count['won']} / {count['unwinnable']} / {count['unknown']})"


def _rate(positions: int, seconds: float) -> str:
    return f"{positions / seconds:,.0f}" if seconds > 0 else "-"


def _ratio(ours: float, peer: float) -> str:
    return f"{ours / peer:.2f}" if peer > 0 else "-"


def summary(report: GameReport) -> dict[str, Any]:
    results = report.results
    both = [r for r in results if r.peer.verdict != "unknown" and r.ours.verdict != "unknown"]
    disagree = [r for r in both if r.peer.verdict != r.ours.verdict]
    return {
        "deals": len(results), "both": len(both), "agree": len(both) - len(disagree),
        "disagree": disagree,
        "peer_decided": sum(r.peer.verdict != "unknown" for r in results),
        "ours_decided": sum(r.ours.verdict != "unknown" for r in results),
        "peer_median": statistics.median(r.peer.wall for r in results),
        "ours_median": statistics.median(r.ours.wall for r in results),
        "peer_cpu_median": statistics.median(r.peer.cpu for r in results),
        "ours_cpu_median": statistics.median(r.ours.cpu for r in results),
        "cpu_ratio": _ratio(sum(r.ours.cpu for r in results), sum(r.peer.cpu for r in results)),
        "peer_rate": _rate(sum(r.peer.unique for r in results if r.peer.counted),
                           sum(r.peer.cpu for r in results if r.peer.counted)),
        "ours_rate": _rate(sum(r.ours.positions for r in results if r.ours.counted),
                           sum(r.ours.cpu for r in results if r.ours.counted)),
    }


def print_report(report: GameReport) -> None:
    results = report.results
    numbers = [r.number for r in results]
    facts = summary(report)
    load = " ".join(f"{x:.1f}" for x in report.load_before)
    load_end = " ".join(f"{x:.1f}" for x in report.load_after)
    print()
    print(f"### {report.variant.name} ({report.variant.id}) against Solvitaire "
          f"{rules_name(report.entry)}")
    print()
    print(f"Deals {_ranges(numbers)}, {cpu_budget(report.time_limit)} CPU s per deal and "
          f"solver, whole processes taking turns; load average {load} before, {load_end} "
          f"after.")
    print()
    peer_cpu = sum(r.peer.cpu for r in results)
    ours_cpu = sum(r.ours.cpu for r in results)
    rows = [
        ("decided (won / unwinnable / unknown)",
         _counts([r.peer.verdict for r in results]), _counts([r.ours.verdict for r in results])),
        ("median wall time per deal",
         f"{facts['peer_median']:.2f} s", f"{facts['ours_median']:.2f} s"),
        ("median CPU time per deal",
         f"{facts['peer_cpu_median']:.2f} s", f"{facts['ours_cpu_median']:.2f} s"),
        ("median positions",
         (f"{statistics.median(r.peer.unique for r in results):,.0f} unique "
          f"({statistics.median(r.peer.states for r in results):,.0f} states searched)"),
         f"{statistics.median(r.ours.positions for r in results):,.0f}"),
        ("positions per CPU second", f"{facts['peer_rate']} unique", facts["ours_rate"]),
        ("CPU time in all", f"{peer_cpu:.1f} s",
         f"{ours_cpu:.1f} s ({facts['cpu_ratio']} times Solvitaire's)"),
        ("largest memory", f"{max(r.peer.max_rss_mb for r in results):,.0f} MB", ""),
    ]
    print("| | Solvitaire | patience |")
    print("|---|---|---|")
    for name, peer, ours in rows:
        print(f"| {name} | {peer} | {ours} |")
    print()
    won = [r for r in results if r.ours.verdict == "won"]
    replayed = sum(r.ours.replay == "won" for r in won)
    print(f"Agreement: {facts['agree']} of {facts['both']} deals decided by both. "
          f"Our won lines replayed through Game.push: {replayed} of {len(won)} end won.")
    for r in facts["disagree"]:
        line = f"- deal {r.number}: Solvitaire {r.peer.outcome}, ours {r.ours.verdict}"
        if r.ours.verdict == "won":
            line += (f"; our line of {len(r.ours.moves)} moves, replayed through Game.push: "
                     f"{r.ours.replay}"
                     + (" (a real win: Solvitaire is wrong here)" if r.ours.replay == "won"
                        else " (our line is NOT a win)"))
        else:
            line += "; Solvitaire found a win we say does not exist: check the rules match"
        print(line)
    if not facts["disagree"]:
        print("Disagreements: none.")


def print_overview(reports: list[GameReport]) -> None:
    print()
    print("### All games")
    print()
    print("| game | deals | decided: Solvitaire / ours | agree (of both decided) | "
          "median CPU s: Solvitaire / ours | CPU s in all, ours / Solvitaire | "
          "positions per CPU s: Solvitaire / ours | disagreements |")
    print("|---|---|---|---|---|---|---|---|")
    for report in reports:
        f = summary(report)
        disagreements = ", ".join(f"{r.number} ({r.peer.outcome} / {r.ours.verdict})"
                                  for r in f["disagree"]) or "none"
        print(f"| {report.variant.id} | {_ranges([r.number for r in report.results])} | "
              f"{f['peer_decided']} / {f['ours_decided']} | {f['agree']} of {f['both']} | "
              f"{f['peer_cpu_median']:.2f} / {f['ours_cpu_median']:.2f} | {f['cpu_ratio']} | "
              f"{f['peer_rate']} / {f['ours_rate']} | {disagreements} |")


CSV_FIELDS = ("variant", "deal", "time_limit", "peer_rules", "peer_outcome", "peer_states",
              "peer_unique", "peer_search_ms", "peer_wall", "peer_cpu", "peer_max_rss_mb",
              "ours_verdict", "ours_positions", "ours_wall", "ours_cpu", "ours_moves",
              "ours_replay")


def write_csv(path: Path, report: GameReport) -> None:
    """Append the report's deals to a CSV file (with a header when the file is new)."""
    import csv

    new = not path.exists()
    with open(path, "a", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        if new:
            writer.writerow(CSV_FIELDS)
        for r in report.results:
            writer.writerow([report.variant.id, r.number, report.time_limit,
                             rules_name(report.entry), r.peer.outcome, r.peer.states,
                             r.peer.unique, r.peer.search_ms, f"{r.peer.wall:.3f}",
                             f"{r.peer.cpu:.3f}", f"{r.peer.max_rss_mb:.0f}", r.ours.verdict,
                             r.ours.positions, f"{r.ours.wall:.3f}", f"{r.ours.cpu:.3f}",
                             len(r.ours.moves), r.ours.replay])


def _ranges(numbers: Sequence[int]) -> str:
    parts: list[str] = []
    for number in numbers:
        if parts and number == int(parts[-1].split("-")[-1]) + 1:
            parts[-1] = f"{parts[-1].split('-')[0]}-{number}"
        else:
            parts.append(str(number))
    return ", ".join(parts)


# --- command line ---------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("variants", nargs="*", help="variant names or .yaml paths")
    parser.add_argument("--deals", default="1-20", help="deal numbers, e.g. 1-20 or 1,4,7-9")
    parser.add_argument("--time-limit", type=float, default=10.0,
                        help="CPU seconds per deal for each solver's whole process, rounded "
                        "up to whole seconds (default 10)")
    parser.add_argument("--max-positions", type=int, default=10**9,
                        help="our position budget (default 10**9: the time limit decides)")
    parser.add_argument("--engine", choices=("auto", "native", "python"), default="auto",
                        help="our solver's engine (default: the native core when built)")
    parser.add_argument("--prove", action="store_true",
                        help="ours: one exhaustive search instead of restarts")
    parser.add_argument("--variants-dir", help="where to look for NAME.yaml of variants not "
                        "shipped yet (default: $BENCH_VARIANTS_DIR)")
    parser.add_argument("--keep", type=Path, help="keep the Solvitaire deal files here")
    parser.add_argument("--csv", type=Path, help="append one line per deal to this CSV file")
    parser.add_argument("--deal-json", type=int, metavar="N",
                        help="only print deal N of each variant as a Solvitaire deal")
    parser.add_argument("--list", action="store_true", help="list the mapped games and stop")
    parser.add_argument("--quiet", action="store_true", help="no line per deal")
    args = parser.parse_args(argv)
    try:
        if args.list:
            for game_id, entry in mapped_games(args.variants_dir).items():
                if "not_exact" in entry:
                    print(f"{game_id}: not compared: {' '.join(entry['not_exact'].split())}")
                else:
                    print(f"{game_id}: Solvitaire {rules_name(entry)}")
            return 0
        if not args.variants:
            parser.error("give at least one variant (or --list)")
        variants = [load_variant(name, args.variants_dir) for name in args.variants]
        entries = [entry_for(variant) for variant in variants]
        if args.deal_json is not None:
            for variant, entry in zip(variants, entries):
                print(json.dumps(solvitaire_deal(variant.deal(args.deal_json), entry)))
            return 0
        binary = solvitaire_binary()
        for variant, entry in zip(variants, entries):
            wrong = check_expected(effective_rules(binary, entry), entry["expect"])
            if wrong:
                raise BenchError(f"{variant.id}: Solvitaire's {rules_name(entry)} is not what "
                                 f"the match was checked against: {'; '.join(wrong)}")
            if entry.get("checked") != variant.rules_hash:
                print(f"warning: {variant.id}'s rules hash is {variant.rules_hash}, the match "
                      f"was checked against {entry.get('checked')}: re-check it "
                      "(bench/README.md, 'Against Solvitaire')", file=sys.stderr)
        numbers = parse_deals(args.deals)
        from patience.native import describe, engine

        print(f"ours: {describe()}" if args.engine == "auto"
              else f"ours: solver engine: {engine(args.engine)}")
        reports = []
        for name, variant, entry in zip(args.variants, variants, entries):
            report = bench_game(variant, entry, binary, numbers, args.time_limit,
                                args.max_positions, args.prove, args.keep, args.quiet,
                                args.engine, name, args.variants_dir)
            print_report(report)
            reports.append(report)
            if args.csv:
                write_csv(args.csv, report)
        if len(reports) > 1:
            print_overview(reports)
    except (BenchError, patience.PatienceError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
