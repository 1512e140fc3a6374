"""Running a study: chunks, resuming, what workers receive and what they refuse."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml
from shipped import variant_params
from test_studies_standins import expected_verdict, failing_solve, standin_solve

import patience
from patience.studies.database import ResultsDatabase, RunKey, StudyError
from patience.studies.runner import (
    DEFAULT_SOLVER,
    PROVE_SOLVER,
    Study,
    Workers,
    automatic_chunk_size,
    parse_deals,
    run_study,
    shipped_definition,
    solve_chunk,
    solver_version,
)
from patience.variant import load_variant_text

STANDIN = "test_studies_standins:standin_solve"


@pytest.fixture
def threads():
    with ThreadPoolExecutor(2) as executor:
        yield Workers.using(executor, 2)


def study(name="tabbycat-corner", budget=500, solver=STANDIN):
    return Study.of(patience.find_variant(name), budget, solver)


@pytest.mark.parametrize("text, deals", [
    ("7", [7]), ("1-3", [1, 2, 3]), ("1-3, 10,2", [1, 2, 3, 10]), ("0-0", [0])])
def test_deal_ranges(text, deals):
    assert list(parse_deals(text)) == deals


@pytest.mark.parametrize("text", ["", "a-3", "5-1", "-3", "1-"])
def test_bad_deal_ranges_say_what_is_expected(text):
    with pytest.raises(StudyError, match="N-M"):
        parse_deals(text)


@pytest.mark.parametrize("name", variant_params())
def test_workers_get_a_self_contained_definition_with_the_same_rules(name):
    variant = patience.find_variant(name)
    text = shipped_definition(variant)
    assert "extends" not in yaml.safe_load(text)  # no key (the word may stand in a 'why')
    rebuilt = load_variant_text(text)
    assert rebuilt.rules_hash == variant.rules_hash
    assert rebuilt.deal(17).text() == variant.deal(17).text()


def test_a_worker_refuses_a_definition_that_does_not_match_its_hash():
    plan = study()
    with pytest.raises(StudyError, match="refusing"):
        solve_chunk(plan.definition, "0123456789abcdef", (1, 2), 500, STANDIN,
                    plan.key.solver_version)


def test_a_worker_refuses_another_solver_version():
    plan = study()
    with pytest.raises(StudyError, match="install the same patience"):
        solve_chunk(plan.definition, plan.key.rules_hash, (1,), 500, STANDIN, "standin-0")


def test_a_worker_solves_its_chunk():
    plan = study()
    results = solve_chunk(plan.definition, plan.key.rules_hash, (3, 4, 5), 500, STANDIN,
                          plan.key.solver_version)
    assert [(r.deal, r.verdict) for r in results] == [
        (3, "won"), (4, "unwinnable"), (5, "unknown")]
    assert results[2].positions == 500


def test_solver_versions():
    assert solver_version(STANDIN) == f"{STANDIN}@standin-1"
    assert Study.of(patience.find_variant("manx"), 10, standin_solve).solver == STANDIN
    default = solver_version(DEFAULT_SOLVER)
    assert default and "@" not in default


def test_the_proving_mode_is_kept_apart_under_its_own_version(tmp_path):
    from patience.solver import SOLVER_VERSION

    assert solver_version(PROVE_SOLVER) == f"{SOLVER_VERSION}+prove"
    mini = Path(__file__).parent / "variants" / "mini-freecell.yaml"
    database = tmp_path / "prove.sqlite"
    done = subprocess.run([sys.executable, "-m", "patience", "stats", str(mini), "--deals",
                           "1-10", "--max-positions", "200000", "--prove", "--workers", "1",
                           "--db", str(database), "--quiet"],
                          check=False, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"(solver {SOLVER_VERSION}+prove, budget 200000)" in done.stdout
    with ResultsDatabase(database, read_only=True) as stored:
        (key,) = [RunKey(h, v, b) for h in stored.variant_names()
                  for v, b, _, _ in stored.runs(h)]
        verdicts = {row.deal: row.verdict for row in stored.results(key)}
    # mini FreeCell deals 4, 8 and 10 are lost: an exhaustive search proves it
    assert {deal for deal, verdict in verdicts.items() if verdict == "unwinnable"} == {4, 8, 10}
    assert key.solver_version == f"{SOLVER_VERSION}+prove" and len(verdicts) == 10
    both = subprocess.run([sys.executable, "-m", "patience", "stats", str(mini), "--prove",
                           "--solver", STANDIN, "--db", str(database)],
                          check=False, capture_output=True, text=True, timeout=60)
    assert both.returncode == 2 and "--prove and --solver cannot be combined" in both.stderr


def test_a_solve_function_workers_cannot_import_is_refused():
    with pytest.raises(StudyError, match="cannot be imported"):
        Study.of(patience.find_variant("manx"), 10, lambda game, max_positions: None)
    with pytest.raises(StudyError, match="module:function"):
        Study.of(patience.find_variant("manx"), 10, "no_colon")


def test_a_run_stores_every_deal_and_a_rerun_skips_them(tmp_path, threads):
    plan = study()
    starts = []
    with ResultsDatabase(tmp_path / "r.sqlite") as database:
        first = run_study(plan, range(1, 31), database, workers=threads, chunk_size=4,
                          on_start=lambda *counts: starts.append(counts))
        again = run_study(plan, range(1, 41), database, workers=threads, chunk_size=4,
                          on_start=lambda *counts: starts.append(counts))
        stored = list(database.results(plan.key))
    assert (first.solved, again.skipped, again.solved) == (30, 30, 10)
    assert starts == [(0, 30), (30, 10)]
    assert [row.deal for row in stored] == list(range(1, 41))
    assert all(row.verdict == expected_verdict(row.deal) for row in stored)
    # another budget is another study: nothing is skipped
    with ResultsDatabase(tmp_path / "r.sqlite") as database:
        other = run_study(study(budget=900), range(1, 5), database, workers=threads)
    assert other.solved == 4


def test_a_failing_deal_stops_the_run_but_keeps_the_finished_chunks(tmp_path):
    plan = study(solver=failing_solve)
    with ThreadPoolExecutor(1) as executor, ResultsDatabase(tmp_path / "r.sqlite") as database:
        with pytest.raises(StudyError, match="failed on deal 4 of 'tabbycat-corner'"):
            run_study(plan, range(1, 10), database, workers=Workers.using(executor, 1),
                      chunk_size=3)
        finished = database.finished_deals(plan.key)
        # the chunks finished before the failure are kept (a later chunk already running on
        # the one worker may finish too); the failing chunk is not recorded
        assert {1, 2, 3} <= finished <= {1, 2, 3, 7, 8, 9}


def test_a_run_on_worker_processes(tmp_path):
    plan = study("manx")
    pool = Workers(2)  # given, so closed here
    try:
        with ResultsDatabase(tmp_path / "r.sqlite") as database:
            summary = run_study(plan, range(1, 13), database, workers=pool, chunk_size=3)
            assert summary.solved == 12
            assert database.finished_deals(plan.key) == set(range(1, 13))
    finally:
        pool.close(wait=True)


def test_chunks_are_small_enough_to_lose_and_to_spread():
    assert automatic_chunk_size(10, 2) == 1
    assert automatic_chunk_size(10_000, 2) == 25
    assert automatic_chunk_size(400, 2) == 25
    assert automatic_chunk_size(200, 4) == 6


def test_a_killed_worker_process_ends_in_one_line_and_a_rerun_goes_on(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from patience.cli.main import main

    arguments = ["stats", "manx", "--deals", "1-12", "--db", str(tmp_path / "r.sqlite"),
                 "--workers", "1", "--chunk-size", "3", "--solver", STANDIN, "--quiet"]
    monkeypatch.setenv("PATIENCE_STANDIN_EXIT_ON", "8")  # the worker dies on deal 8
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 1, result.output
    (line,) = result.output.splitlines()
    assert line.startswith("error: the workers stopped before the study was done "
                           "(BrokenProcessPool: ")
    assert line.endswith("6 of 12 deals are stored in "
                         f"{tmp_path / 'r.sqlite'}: run the same command again to go on")
    with ResultsDatabase(tmp_path / "r.sqlite", read_only=True) as database:
        assert database.finished_deals(study("manx", 1_000_000).key) == set(range(1, 7))
    monkeypatch.delenv("PATIENCE_STANDIN_EXIT_ON")
    again = CliRunner().invoke(main, arguments)
    assert again.exit_code == 0, again.output
    assert "12 deals (6 already stored, 6 solved" in again.output


def test_a_finished_run_leaves_no_worker_behind(tmp_path):
    # a study that ends normally waits for its idle worker processes to leave: a pool shut
    # down without waiting left them (and its threads) to close at interpreter exit, where
    # Python 3.11's executor could print "Exception ignored ... Bad file descriptor"
    import multiprocessing

    from click.testing import CliRunner

    from patience.cli.main import main

    arguments = ["stats", "manx", "--deals", "1-4", "--db", str(tmp_path / "r.sqlite"),
                 "--workers", "2", "--chunk-size", "1", "--solver", STANDIN, "--quiet"]
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 0, result.output
    assert multiprocessing.active_children() == []
    plan = study("manx")
    with ResultsDatabase(tmp_path / "r2.sqlite") as database:
        assert run_study(plan, range(1, 5), database, chunk_size=1).solved == 4
    assert multiprocessing.active_children() == []
