"""``patience test FILE|VARIANT``: run the invariant battery, the lint, the file's own
``expect:`` entries and the semantic checks on one variant; ``--mutants`` adds mutation
testing of its rules.

Exit status: 0 when every check passes and the lint finds nothing, 1 when something fails
(each failure printed with its shrunk counterexample) or a mutant survives, 2 when the
variant cannot be loaded.
"""

from __future__ import annotations

import functools
import sys
import time
from typing import TYPE_CHECKING

import click

from patience.arguments import EXAMPLES, HYPOTHESIS_SEED, MUTANTS_SECONDS
from patience.cli.common import echo, find_checked_variant, handles_errors, json_option, print_json
from patience.cli.main import main
from patience.cli.numbers import Number
from patience.distribution import install_hint

if TYPE_CHECKING:
    from patience.testing.battery import Outcome, Report
    from patience.variant import Variant


@main.command("test")
@click.argument("variant")
@click.option("--examples", type=Number(EXAMPLES), default=100, show_default=True,
              help="Random positions per check (costly checks use fewer).")
@click.option("--seed", type=Number(HYPOTHESIS_SEED), default=None,
              help="Seed hypothesis for a repeatable run.")
@click.option("--check", "only", multiple=True, metavar="NAME",
              help="Run only this check (repeatable); 'lint', 'play_undo_redo', 'expect', "
                   "'semantic' and 'safe_moves' too.")
@click.option("--mutants", is_flag=True,
              help="Also make each small change to the rules and report those no check "
                   "notices (docs/authoring.md, 'Mutation testing').")
@click.option("--mutants-seconds", type=Number(MUTANTS_SECONDS), default=1_800,
              show_default=True, metavar="SECONDS",
              help="Stop trying new mutants after this long.")
@click.option("--engine", "engine", type=click.Choice(["auto", "native", "python"]),
              default="auto", show_default=True,
              help="The solver engine the checks' solves use (native: the compiled core; "
                   "python: the reference). 'engines_agree' compares both either way.")
@click.option("-v", "--verbose", is_flag=True,
              help="List what each check tried (and, for the lint, the description's "
                   "claims checked and the phrases it could not check).")
@json_option
@handles_errors
def test_command(variant: str, examples: int, seed: int | None, only: tuple[str, ...],
                 mutants: bool, mutants_seconds: float, engine: str, verbose: bool,
                 as_json: bool) -> None:
    """Run the property-test battery on VARIANT (a shipped name or a .yaml file).

    --json: one object at the end, {"variant", "id", "ok", "seconds", "checks": [{"name",
    "status", "examples", "message"}]} (with --mutants, a check named "mutants")."""
    from patience import native

    _require_hypothesis()
    from patience.testing.battery import ALL_CHECKS, run_battery
    from patience.testing.storage import keep_hypothesis_files_in_the_cache

    loaded = _load_or_exit(variant)
    known = list(ALL_CHECKS)
    _check_options(only, known, engine)
    chosen = "" if engine == "auto" else f", solver engine: {native.engine(engine)}"
    keep_hypothesis_files_in_the_cache()
    if not as_json:
        echo(f"{variant}: {loaded.id} ({loaded.name}), {examples} examples per check{chosen}")
    started = time.perf_counter()
    show = None if as_json else functools.partial(_show_outcome, width=max(map(len, known)),
                                                   verbose=verbose)
    with native.chosen_engine(engine):  # type: ignore[arg-type]
        report = run_battery(loaded, examples=examples, seed=seed, only=only or None,
                             on_outcome=show)
        failed = [o.name for o in report.outcomes if o.status == "failed"]
        if mutants and not _report_mutants(loaded, variant, mutants_seconds, as_json):
            failed.append("mutants")
    seconds = time.perf_counter() - started
    if as_json:
        _print_json_report(variant, loaded, report, mutants, failed, seconds)
        sys.exit(1 if failed else 0)
    _print_summary(variant, report, mutants, failed, seconds)
    if failed:
        sys.exit(1)


def _require_hypothesis() -> None:
    """Exit with status 2, saying how to install it, when hypothesis (an optional
    dependency) is missing."""
    import importlib

    try:
        for module in ("patience.testing.battery", "patience.testing.storage"):
            importlib.import_module(module)
    except ImportError as error:
        echo(f"error: patience test needs hypothesis ({error}); "
             f"install it with: {install_hint('author')}", err=True)
        sys.exit(2)


def _load_or_exit(variant: str) -> Variant:
    """The variant, checked; exit with status 2 and the error when it cannot be loaded."""
    from patience.errors import PatienceError, VariantError

    try:
        return find_checked_variant(variant)
    except VariantError as error:
        echo(error.render(), err=True)
    except PatienceError as error:
        echo(f"error: {error}", err=True)
    sys.exit(2)


def _check_options(only: tuple[str, ...], known: list[str], engine: str) -> None:
    """Exit with status 2 for a --check that names no check, or an engine that cannot
    run."""
    from patience import native
    from patience.errors import SolverError

    unknown = [name for name in only if name not in known]
    if unknown:
        echo(f"error: unknown check {unknown[0]!r} (checks: {', '.join(known)})", err=True)
        sys.exit(2)
    try:
        native.engine(engine)
    except SolverError as error:
        echo(f"error: {error}", err=True)
        sys.exit(2)


def _show_outcome(outcome: Outcome, width: int, verbose: bool) -> None:
    """One check's line (a failure's message below it; with -v, what it tried)."""
    mark = {"passed": "ok  ", "failed": "FAIL", "skipped": "skip",
            "partial": "part"}[outcome.status]
    detail = (f"({outcome.examples} example{'s' if outcome.examples != 1 else ''})"
              if outcome.examples else "")
    if outcome.status == "skipped":
        detail = f"(skipped: {outcome.message})"
    elif outcome.status != "failed" and outcome.message:
        detail = f"({outcome.message})"
    echo(f"  {mark} {outcome.name:<{width}} {detail}".rstrip())
    if outcome.status == "failed":
        for line in outcome.message.splitlines():
            echo(f"       {line}")
    if verbose:
        for line in outcome.tried:
            echo(f"       tried: {line}")


def _print_json_report(variant: str, loaded: Variant, report: Report, mutants: bool,
                       failed: list[str], seconds: float) -> None:
    """The --json object: the variant, whether all passed, and each check's outcome."""
    checks = [{"name": o.name, "status": o.status, "examples": o.examples,
               "message": o.message} for o in report.outcomes]
    if mutants:
        checks.append({"name": "mutants", "status": "failed" if "mutants" in failed else "passed",
                       "examples": 0, "message": ""})
    print_json({"variant": variant, "id": loaded.id, "ok": not failed,
                "seconds": round(seconds, 1), "checks": checks})


def _print_summary(variant: str, report: Report, mutants: bool, failed: list[str],
                   seconds: float) -> None:
    """The last line: how many checks failed, or passed (in part, or skipped)."""
    total = len(report.outcomes) + mutants
    if failed:
        echo(f"{variant}: {len(failed)} of {total} checks failed ({', '.join(failed)}) in "
             f"{seconds:.1f} s")
        return
    passed = sum(o.status == "passed" for o in report.outcomes) + mutants
    skipped = sum(o.status == "skipped" for o in report.outcomes)
    partial = sum(o.status == "partial" for o in report.outcomes)
    if not skipped and not partial:
        echo(f"{variant}: all {total} checks passed in {seconds:.1f} s")
        return
    parts = [f"{passed} of {total} checks passed"]
    if partial:
        parts.append(f"{partial} in part (parts skipped)")
    if skipped:
        parts.append(f"{skipped} skipped")
    echo(f"{variant}: {', '.join(parts)}, none failed, in {seconds:.1f} s")


def _report_mutants(loaded: Variant, variant: str, seconds: float,
                    as_json: bool = False) -> bool:
    """Run mutation testing and print its report (not with --json); True when no mutant
    survives."""
    from patience.testing.mutants import describe, run_mutants

    if as_json:
        found = run_mutants(loaded, seconds=seconds)
        return not found.survivors and found.complete
    echo(f"  mutants of {variant}'s rules:")
    report = run_mutants(loaded, seconds=seconds)
    if report.broken:
        echo(f"  FAIL mutants not tried: the file's own examples fail ({report.broken}); "
             "fix them first")
        return False
    counts = report.counts()
    for result in report.survivors:
        for line in describe(result).splitlines():
            echo(f"       {line}")
    mark = "ok  " if not report.survivors and report.complete else "FAIL"
    unfinished = "" if report.complete else f", stopped after {seconds:g} s"
    echo(f"  {mark} mutants ({len(report.results)} tried{unfinished}: "
         f"{counts['killed']} caught by a check, {counts['loader']} by the loader, "
         f"{counts['equivalent']} equivalent, {counts['survived']} survived; "
         f"{report.seconds:.1f} s)")
    echo(f"       equivalence sample: {report.sample}")
    return not report.survivors and report.complete
