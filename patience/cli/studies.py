"""``patience stats`` (solve many deals into the results database) and ``patience report``.

The database defaults to ``results.sqlite`` in ``$PATIENCE_DATA_DIR`` or the user data
folder; ``--db FILE`` picks another. See ``docs/studies.md``.

Exit statuses: 0 done; 1 the run stopped part-way (its workers were lost, the database
could not be written: what was stored stays, and the same command goes on); 2 bad input
(options, a variant, a database patience did not make); 130 interrupted.
"""

from __future__ import annotations

import functools
import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from patience.arguments import CHUNK_SIZE, MAX_POSITIONS_BOUND, WORKERS
from patience.cli.common import echo, fail, handles_errors, json_option, load_variant, print_json
from patience.cli.main import main
from patience.cli.numbers import Number
from patience.errors import StudyError, StudyStopped
from patience.seeds import NAMES, OURS
from patience.solver import DEFAULT_MAX_POSITIONS

STOPPED = 1
INTERRUPTED = 130


def _database_path(db: str | None) -> Path:
    from patience.studies.database import default_database_path

    return Path(db) if db else default_database_path()


def stops_cleanly(function: Callable[..., Any]) -> Callable[..., Any]:
    """A run that stopped part-way (StudyStopped): its message and exit status 1."""
    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except StudyStopped as error:
            echo(f"error: {error}", err=True)
            sys.exit(STOPPED)
    return wrapper


@main.command()
@click.argument("variant")
@click.option("--deals", "deals_text", default="1-1000", show_default=True,
              metavar="N-M[,N-M…]", help="Deal numbers to solve, e.g. 1-10000 or 1-50,77.")
@click.option("--max-positions", type=Number(MAX_POSITIONS_BOUND), default=DEFAULT_MAX_POSITIONS,
              show_default=True, help="The solver's budget per deal; more gives fewer unknowns.")
@click.option("--workers", type=Number(WORKERS), default=None,
              help="Worker processes (default: one per core); with --scheduler, the "
                   "chunks solved at once (default: the cluster's threads).")
@click.option("--db", type=click.Path(dir_okay=False), default=None,
              help="The results database (default: results.sqlite in $PATIENCE_DATA_DIR "
                   "or the user data folder).")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
              help="Solve on this Dask cluster instead (needs patience-cards[dask]).")
@click.option("--chunk-size", type=Number(CHUNK_SIZE), default=None,
              help="Deals per chunk (default: automatic, at most 25). A chunk is stored "
                   "in one transaction; a killed run loses the chunks in flight.")
@click.option("--prove", is_flag=True,
              help="One exhaustive search per deal with the whole budget, no restarts: the "
                   "mode that proves deals unwinnable (its results are kept apart, under "
                   "the solver version plus '+prove').")
@click.option("--solver", default=None, hidden=True,
              help="The solve function as module:function (for tests and experiments; "
                   "default: patience.studies.runner.DEFAULT_SOLVER).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@json_option
@handles_errors
@stops_cleanly
def stats(variant: str, deals_text: str, max_positions: int, workers: int | None,
          db: str | None, scheduler: str | None, chunk_size: int | None, prove: bool,
          solver: str | None, quiet: bool, as_json: bool) -> None:
    """Solve deals of VARIANT and store one result per deal; a rerun skips stored deals.

    Stop it at any moment (Ctrl-C, even kill -9) and run the same command again to go on.
    --json: the summary as one object, {"variant", "deals", "skipped", "solved", "seconds",
    "won", "unwinnable", "unknown", "db", "solver_version", "max_positions"}.
    """
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from patience.studies.database import ResultsDatabase
    from patience.studies.runner import (
        DEFAULT_SOLVER,
        PROVE_SOLVER,
        ChunkDone,
        Study,
        Workers,
        parse_study_deals,
        run_study,
    )

    if solver is None:
        solver = DEFAULT_SOLVER
    if prove:
        if solver != DEFAULT_SOLVER:
            fail("--prove and --solver cannot be combined: --prove picks the solver")
        solver = PROVE_SOLVER
    compiled = load_variant(variant)
    numbering, deals = parse_study_deals(deals_text)
    path = _database_path(db)
    study = Study.of(compiled, max_positions, solver, numbering)
    counts = {"won": 0, "unwinnable": 0, "unknown": 0}
    progress = Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("[green]won {task.fields[won]}[/] · [red]unwinnable "
                   "{task.fields[unwinnable]}[/] · [yellow]unknown {task.fields[unknown]}[/]"),
        TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
        console=Console(stderr=True), disable=quiet)
    task = progress.add_task(compiled.id, total=deals.count, won=0, unwinnable=0, unknown=0)

    pool = Workers(workers, scheduler)  # a bad --scheduler fails before the file is made
    finished = False
    try:
        with ResultsDatabase(path) as database:
            counts.update(database.counts(study.key, deals))

            def show(advance: int = 0, completed: int | None = None) -> None:
                progress.update(task, advance=advance, completed=completed,
                                won=counts["won"], unwinnable=counts["unwinnable"],
                                unknown=counts["unknown"])

            def on_start(skipped: int, pending: int) -> None:
                show(completed=skipped)

            def on_chunk(done: ChunkDone) -> None:
                for result in done.results:
                    counts[result.verdict] += 1
                show(advance=len(done.results))

            try:
                with progress:
                    summary = run_study(study, deals, database, workers=pool,
                                        chunk_size=chunk_size, on_start=on_start,
                                        on_chunk=on_chunk)
            except KeyboardInterrupt:
                stored = sum(database.counts(study.key, deals).values())
                echo(f"interrupted: {stored} of {deals.count} deals are stored in "
                           f"{path}; run the same command again to go on", err=True)
                sys.exit(INTERRUPTED)
            except StudyStopped as error:
                stored = sum(database.counts(study.key, deals).values())
                echo(f"error: {error}; {stored} of {deals.count} deals are stored in "
                           f"{path}: run the same command again to go on", err=True)
                sys.exit(STOPPED)
            counts = database.counts(study.key, deals)
            finished = True
    finally:
        pool.close(wait=finished)
    if as_json:
        print_json({"variant": compiled.id, "deals": summary.requested,
                    "skipped": summary.skipped, "solved": summary.solved,
                    "seconds": round(summary.seconds, 1), **counts, "db": str(path),
                    "solver_version": study.key.solver_version,
                    "max_positions": max_positions})
        return
    echo(f"{compiled.id}: {summary.requested} deals ({summary.skipped} already stored, "
               f"{summary.solved} solved in {summary.seconds:.1f} s on {pool.description}): "
               f"won {counts['won']}, unwinnable {counts['unwinnable']}, "
               f"unknown {counts['unknown']}")
    echo(f"results in {path} (solver {study.key.solver_version}, budget "
               f"{max_positions}); 'patience report {variant}"
               f"{'' if numbering == OURS else f' --deals {deals_text}'}"
               f"{'' if db is None else f' --db {shlex.quote(db)}'}' summarizes them")


@main.command()
@click.argument("variants", nargs=-1)
@click.option("--db", type=click.Path(dir_okay=False), default=None,
              help="The results database (default: the one 'patience stats' uses).")
@click.option("--deals", "deals_text", default=None, metavar="N-M[,N-M…]",
              help="Only these deals (default: every stored deal).")
@click.option("--max-positions", type=Number(MAX_POSITIONS_BOUND), default=None,
              help="Report the results of this budget (default: the largest stored).")
@click.option("--solver-version", default=None,
              help="Report the results of this solver version (default: the latest stored).")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per variant, one per line.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None,
              metavar="FILE.png", help="Also draw positions-to-solve and win rates "
                                       "(needs patience-cards[plot]).")
@handles_errors
@stops_cleanly
def report(variants: tuple[str, ...], db: str | None, deals_text: str | None,
           max_positions: int | None, solver_version: str | None, as_json: bool,
           plot_path: str | None) -> None:
    """Summarize the stored results of each VARIANT (default: every variant stored).

    Deals, won, unwinnable, unknown; the win rate between "every unknown lost" and "every
    unknown won" with a 95% Wilson interval; positions and seconds per deal.
    """
    from patience.studies.database import ResultsDatabase
    from patience.studies.report import choose_run, make_report, plot
    from patience.studies.runner import parse_study_deals, split_study_hash, study_hash

    path = _database_path(db)
    if not path.exists():
        fail(f"no results database at {str(path)!r}: run 'patience stats VARIANT' first "
             "(or give --db FILE)")
    numbering, deals = parse_study_deals(deals_text) if deals_text else (OURS, None)
    reports = []
    with ResultsDatabase(path, read_only=True) as database:
        if variants:
            wanted = []
            for name in variants:
                compiled = load_variant(name)
                wanted.append((compiled.id, study_hash(compiled.rules_hash, numbering)))
        else:
            wanted = [(name, rules_hash) for rules_hash, name in
                      database.variant_names().items()
                      if not deals_text or split_study_hash(rules_hash)[1] == numbering]
            if not wanted:
                fail(f"no results in {str(path)!r} yet")
        for name, rules_hash in wanted:
            key = choose_run(database, rules_hash, solver_version, max_positions)
            if key is None:
                wanted_run = "".join([
                    f" from solver {solver_version!r}" if solver_version else "",
                    f" with budget {max_positions}" if max_positions else ""])
                message = (f"no results for {name} (rules hash {rules_hash}){wanted_run} in "
                           f"{str(path)!r}: run 'patience stats {name}' first")
                if len(wanted) == 1:
                    fail(message)
                echo(f"warning: {message}", err=True)
                continue
            kept_apart = split_study_hash(rules_hash)[1]
            shown = name if kept_apart == OURS else f"{name} ({NAMES[kept_apart]})"
            reports.append(make_report(database, shown, key, deals))
    for index, summary in enumerate(reports):
        if as_json:
            echo(json.dumps(summary.to_json()))
        else:
            echo(("\n" if index else "") + summary.text())
    if plot_path:
        try:
            plot(reports, plot_path)
        except StudyError as error:
            fail(str(error))
        echo(f"plot written to {plot_path}", err=True)
