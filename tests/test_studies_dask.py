"""A study on a real Dask cluster (a LocalCluster with worker processes) lands in the same
database as a local run, and a Dask worker refuses a definition whose hash is wrong."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import distributed
import pytest
from click.testing import CliRunner

import patience
from patience.cli.main import main
from patience.studies.database import ResultsDatabase, StudyError
from patience.studies.runner import Study, Workers, run_study, solve_chunk

STANDIN = "test_studies_standins:standin_solve"


@pytest.fixture(scope="module")
def cluster():
    # worker processes (spawned, as on a real cluster): they import patience and the
    # stand-in solver by name and compile the variant from the text they are sent
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=True,
                                  dashboard_address=None, scheduler_port=0) as cluster:
        yield cluster


def rows(path, key):
    with ResultsDatabase(path) as database:
        return [(row.deal, row.verdict, row.positions, row.solution_length)
                for row in database.results(key)]


@pytest.mark.slow
def test_stats_on_a_dask_cluster_stores_what_a_local_run_stores(cluster, tmp_path):
    address = cluster.scheduler_address
    assert address.startswith("tcp://")
    result = CliRunner().invoke(main, [
        "stats", "tabbycat-loosetail", "--deals", "1-30", "--max-positions", "700",
        "--db", str(tmp_path / "dask.sqlite"), "--scheduler", address, "--chunk-size", "4",
        "--solver", STANDIN, "--quiet"])
    assert result.exit_code == 0, result.output
    assert "30 solved" in result.output and "Dask cluster" in result.output
    study = Study.of(patience.find_variant("tabbycat-loosetail"), 700, STANDIN)
    with ThreadPoolExecutor(2) as executor, ResultsDatabase(tmp_path / "local.sqlite") as db:
        run_study(study, range(1, 31), db, workers=Workers.using(executor, 2))
    assert rows(tmp_path / "dask.sqlite", study.key) == rows(tmp_path / "local.sqlite",
                                                             study.key)
    # the rerun on the cluster has nothing left to do
    again = CliRunner().invoke(main, [
        "stats", "tabbycat-loosetail", "--deals", "1-30", "--max-positions", "700",
        "--db", str(tmp_path / "dask.sqlite"), "--scheduler", address, "--solver", STANDIN,
        "--quiet"])
    assert "30 already stored, 0 solved" in again.output


@pytest.mark.slow
def test_a_dask_worker_refuses_a_definition_with_another_hash(cluster):
    study = Study.of(patience.find_variant("manx"), 100, STANDIN)
    with distributed.Client(cluster) as client:
        executor = client.get_executor(pure=False)
        good = executor.submit(solve_chunk, study.definition, study.key.rules_hash, (1, 2),
                               100, STANDIN, study.key.solver_version)
        assert [r.deal for r in good.result(60)] == [1, 2]
        bad = executor.submit(solve_chunk, study.definition, "0" * 16, (1,), 100, STANDIN,
                              study.key.solver_version)
        with pytest.raises(StudyError, match="refusing to solve"):
            bad.result(60)


def test_an_unreachable_scheduler_is_a_clear_error(tmp_path):
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        result = CliRunner().invoke(main, [
            "stats", "manx", "--deals", "1-2", "--db", str(tmp_path / "r.sqlite"),
            "--scheduler", "tcp://127.0.0.1:9", "--solver", STANDIN, "--quiet"])
    assert result.exit_code == 2
    assert "cannot reach the Dask scheduler" in result.output


def test_a_scheduler_that_is_not_an_address_is_a_bad_argument(tmp_path):
    result = CliRunner().invoke(main, [
        "stats", "manx", "--deals", "1-2", "--db", str(tmp_path / "r.sqlite"),
        "--scheduler", "not a url", "--solver", STANDIN, "--quiet"])
    assert result.exit_code == 2
    assert result.output.startswith("error: --scheduler 'not a url' is not a scheduler "
                                    "address such as tcp://HOST:8786")
    assert len(result.output.splitlines()) == 1
    assert not (tmp_path / "r.sqlite").exists()


@pytest.mark.slow
def test_dask_workers_killed_again_and_again_end_in_one_line(tmp_path, monkeypatch):
    import dask

    monkeypatch.setenv("PATIENCE_STANDIN_EXIT_ON", "5")  # inherited by the worker processes
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}), \
            distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                     dashboard_address=None, scheduler_port=0) as cluster:
        result = CliRunner().invoke(main, [
            "stats", "manx", "--deals", "1-8", "--db", str(tmp_path / "r.sqlite"),
            "--scheduler", cluster.scheduler_address, "--chunk-size", "2", "--workers", "1",
            "--solver", STANDIN, "--quiet"])
    assert result.exit_code == 1, result.output
    (line,) = result.output.splitlines()
    assert "KilledWorker" in line and "run the same command again to go on" in line
    with ResultsDatabase(tmp_path / "r.sqlite", read_only=True) as database:
        study = Study.of(patience.find_variant("manx"), 1_000_000, STANDIN)
        stored = database.finished_deals(study.key)
    # the chunk whose worker keeps dying is never stored; the others are kept as they finish
    # (Dask need not run the chunks in order, so which of them got through before the run
    # ended varies)
    assert not {5, 6} & stored and stored <= {1, 2, 3, 4, 7, 8}


@pytest.mark.slow
def test_a_study_whose_cluster_loses_every_worker_says_so_and_can_go_on(tmp_path,
                                                                      monkeypatch):
    import threading
    import time

    from patience.studies import runner

    monkeypatch.setattr(runner, "NO_WORKER_SECONDS", 2.0)
    monkeypatch.setattr(runner, "WORKER_CHECK_SECONDS", 0.5)
    monkeypatch.setenv("PATIENCE_STANDIN_DELAY", "0.5")  # inherited by the worker processes
    db = str(tmp_path / "r.sqlite")
    arguments = ["stats", "manx", "--deals", "1-40", "--db", db, "--chunk-size", "2",
                 "--workers", "1", "--solver", STANDIN, "--quiet"]
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None, scheduler_port=0) as cluster:
        outcome = {}
        run = threading.Thread(target=lambda: outcome.update(result=CliRunner().invoke(
            main, [*arguments, "--scheduler", cluster.scheduler_address])))
        run.start()
        time.sleep(4)  # a few chunks stored
        cluster.scale(0)
        run.join(timeout=120)
        assert not run.is_alive(), "the study waited for ever without a worker"
    result = outcome["result"]
    assert result.exit_code == 1, result.output
    (line,) = result.output.splitlines()
    assert line.startswith("error: no Dask worker is left on the cluster (none for 2 s); ")
    assert line.endswith("run the same command again to go on")
    monkeypatch.delenv("PATIENCE_STANDIN_DELAY")
    again = CliRunner().invoke(main, arguments)  # resumable: locally this time
    assert again.exit_code == 0, again.output
    assert "already stored" in again.output and "(0 already stored" not in again.output
