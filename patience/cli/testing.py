"""``patience test FILE|VARIANT``: run the invariant battery and the lint on one variant.

Exit status: 0 when every check passes and the lint finds nothing, 1 when something fails
(each failure printed with its shrunk counterexample), 2 when the variant cannot be loaded.
"""

from __future__ import annotations

import sys
import time

import click

from patience.cli.common import echo, find_checked_variant
from patience.cli.main import main
from patience.limits import MAX_EXAMPLES


@main.command("test")
@click.argument("variant")
@click.option("--examples", type=click.IntRange(1, MAX_EXAMPLES), default=100, show_default=True,
              help="Random positions per check (costly checks use fewer).")
@click.option("--seed", type=int, default=None,
              help="Seed hypothesis for a repeatable run.")
@click.option("--check", "only", multiple=True, metavar="NAME",
              help="Run only this check (repeatable); 'lint' and 'play_undo_redo' too.")
def test_command(variant: str, examples: int, seed: int | None, only: tuple[str, ...]) -> None:
    """Run the property-test battery on VARIANT (a shipped name or a .yaml file)."""
    from patience.errors import PatienceError, VariantError

    try:
        from patience.testing.battery import CHECKS, Outcome, run_battery
    except ImportError as error:  # hypothesis is an optional dependency (the 'test' extra)
        echo(f"error: patience test needs hypothesis ({error}); "
                   "install it with: pip install 'patience[test]'", err=True)
        sys.exit(2)

    try:
        loaded = find_checked_variant(variant)
    except VariantError as error:
        echo(error.render(), err=True)
        sys.exit(2)
    except PatienceError as error:
        echo(f"error: {error}", err=True)
        sys.exit(2)
    known = [*CHECKS, "play_undo_redo", "lint"]
    unknown = [name for name in only if name not in known]
    if unknown:
        echo(f"error: unknown check {unknown[0]!r} (checks: {', '.join(known)})",
                   err=True)
        sys.exit(2)
    echo(f"{variant}: {loaded.id} ({loaded.name}), {examples} examples per check")
    started = time.perf_counter()
    width = max(map(len, known))

    def show(outcome: Outcome) -> None:
        mark = {"passed": "ok  ", "failed": "FAIL", "skipped": "skip"}[outcome.status]
        detail = (f"({outcome.examples} example{'s' if outcome.examples != 1 else ''})"
                  if outcome.examples else "")
        if outcome.status == "skipped":
            detail = f"({outcome.message})"
        echo(f"  {mark} {outcome.name:<{width}} {detail}".rstrip())
        if outcome.status == "failed":
            for line in outcome.message.splitlines():
                echo(f"       {line}")

    report = run_battery(loaded, examples=examples, seed=seed, only=only or None,
                         on_outcome=show)
    failed = [o.name for o in report.outcomes if o.status == "failed"]
    seconds = time.perf_counter() - started
    if failed:
        echo(f"{variant}: {len(failed)} of {len(report.outcomes)} checks failed "
                   f"({', '.join(failed)}) in {seconds:.1f} s")
        sys.exit(1)
    echo(f"{variant}: all {len(report.outcomes)} checks passed in {seconds:.1f} s")
