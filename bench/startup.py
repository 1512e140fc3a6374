"""What a ``patience`` command costs before it does its work: whole commands against the bare
interpreter, in one run (the machine is shared and noisy).

    python bench/startup.py                  # 15 runs of each command, taking turns
    python bench/startup.py --runs 31
    python bench/startup.py --runs 5 "patience solve golf --seed 2 --json"  # others, quoted

Each command runs as a whole process, all of them taking turns (one run of each, then the
next round), ``--runs`` times each. The figure is the child's CPU time (user + system, from
``resource.getrusage(RUSAGE_CHILDREN)`` before and after it): the median over the runs, and
its ratio to the median of ``python -c pass``, the bare interpreter with the same ``site``
(issue #30's target for ``patience solve freecell --seed 1 --json``: at most 6×).

Python's bytecode cache is on, as for an installed package (pip writes the ``.pyc`` files
when it installs): the children run with ``PYTHONPYCACHEPREFIX`` set to a temporary folder,
filled by one untimed run of each command first (and ``PYTHONDONTWRITEBYTECODE`` unset).
``--from-source`` runs them with ``PYTHONDONTWRITEBYTECODE=1`` and no prefix instead, as in
a checkout where no ``__pycache__`` is ever written (this project's development machines set
that variable): every module of ``patience`` is then compiled from its source in every run,
while the standard library and the installed packages keep their own ``.pyc`` files.

``python`` is this interpreter (``sys.executable``) and ``patience`` the console script
installed beside it (``python -m patience`` where there is none), both run directly, never
through a shim such as pyenv's, whose own cost would be counted; ``PYTHONPATH`` puts this
checkout first, so the commands import this checkout's ``patience``.
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile

BENCH = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.dirname(BENCH)

COMMANDS = (
    "python -c pass",
    "patience solve freecell --seed 1 --json",
    "PATIENCE_CACHE_DIR=off patience solve freecell --seed 1 --json",
    "patience solve black-hole --seed 1 --json",
    "patience show klondike --seed 1",
)


def argv(command: str) -> list[str]:
    """The command's words, ``python`` and ``patience`` made this interpreter's own (leading
    ``NAME=value`` words, such as ``PATIENCE_CACHE_DIR=off``, are left for :func:`run_once`)."""
    words = shlex.split(command)
    settings = []
    while words and "=" in words[0] and not words[0].startswith("-"):
        settings.append(words.pop(0))
    return [*settings, *_program(words)]


def _program(words: list[str]) -> list[str]:
    if words[0] == "python":
        return [sys.executable, *words[1:]]
    if words[0] == "patience":
        script = os.path.join(os.path.dirname(sys.executable), "patience")
        if os.path.exists(script):
            return [script, *words[1:]]
        return [sys.executable, "-m", "patience", *words[1:]]
    return words


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(words: list[str], env: dict[str, str]) -> float:
    """The CPU seconds of one run of the command (which must succeed)."""
    while words and "=" in words[0] and not words[0].startswith("-"):
        name, _, value = words[0].partition("=")
        env = {**env, name: value}
        words = words[1:]
    before = child_cpu()
    done = subprocess.run(words, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, check=False)
    spent = child_cpu() - before
    if done.returncode != 0:
        sys.exit(f"{shlex.join(words)} failed (exit status {done.returncode}): "
                 f"{done.stderr.decode(errors='replace').strip()}")
    return spent


def measure(commands: list[str], runs: int, env: dict[str, str]) -> dict[str, list[float]]:
    """Each command's CPU seconds in each of ``runs`` rounds, after one untimed run each
    (it warms the disk cache, and writes the bytecode cache unless that is off)."""
    times: dict[str, list[float]] = {command: [] for command in commands}
    for command in commands:
        run_once(argv(command), env)
    for _ in range(runs):
        for command in commands:
            times[command].append(run_once(argv(command), env))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command")
    parser.add_argument("--from-source", action="store_true",
                        help="no bytecode cache for patience's modules: compiled every run")
    parser.add_argument("commands", nargs="*", metavar="COMMAND",
                        help="commands to time besides 'python -c pass' (default: "
                             + "; ".join(COMMANDS[1:]) + ")")
    args = parser.parse_args()
    commands = [COMMANDS[0], *(args.commands or COMMANDS[1:])]
    with tempfile.TemporaryDirectory(prefix="patience-startup-") as cache:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [CHECKOUT, *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))])
        # the definitions' cache (patience/defcache.py) in a folder of this run, filled by
        # the untimed first run of each command, as a user's is after their first command
        env["PATIENCE_CACHE_DIR"] = os.path.join(cache, "patience")
        if args.from_source:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
            env.pop("PYTHONPYCACHEPREFIX", None)
            if os.path.isdir(os.path.join(CHECKOUT, "patience", "__pycache__")):
                print("note: patience/__pycache__ exists, so its .pyc files are used")
        else:
            env["PYTHONPYCACHEPREFIX"] = cache
            env.pop("PYTHONDONTWRITEBYTECODE", None)
        times = measure(commands, args.runs, env)
    bare = statistics.median(times[COMMANDS[0]])
    print(f"{args.runs} runs each, taking turns; CPU seconds of the child (user + system); "
          f"bytecode {'compiled every run' if args.from_source else 'cached'}; "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'command':<64} {'median':>8} {'min':>8} {'max':>8} {'ratio':>7}")
    for command in commands:
        spent = times[command]
        median = statistics.median(spent)
        print(f"{command:<64} {median:8.3f} {min(spent):8.3f} {max(spent):8.3f} "
              f"{median / bare:6.1f}×")


if __name__ == "__main__":
    main()
