"""Reports: the Wilson interval with unknowns both ways, the effort figures, the command."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import matplotlib.image
import pytest
from click.testing import CliRunner

import patience
from patience.cli.main import main
from patience.studies.database import DealResult, ResultsDatabase, RunKey
from patience.studies.report import choose_run, make_report, percentile, wilson_interval
from patience.studies.runner import Study, Workers, run_study

STANDIN = "test_studies_standins:standin_solve"


@pytest.mark.parametrize("successes, trials, low, high", [
    (50, 100, 0.4038, 0.5962), (0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0),
    (1, 1000, 0.0002, 0.0056)])
def test_wilson_interval(successes, trials, low, high):
    assert [round(bound, 4) for bound in wilson_interval(successes, trials)] == [low, high]


def test_no_trials_know_nothing():
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_percentiles_are_nearest_rank():
    values = list(range(1, 101))
    assert [percentile(values, p) for p in (50, 90, 99, 100)] == [50, 90, 99, 100]
    assert percentile([7], 99) == 7 and percentile([], 50) == 0


def test_unknowns_bound_the_win_rate_both_ways(tmp_path):
    key = RunKey("abc", "v1", 100)
    with ResultsDatabase(tmp_path / "r.sqlite") as database:
        database.record_chunk(key, [
            DealResult(1, "won", 10, 1.0, ("a", "b", "c")), DealResult(2, "won", 30, 1.0, ("a",)),
            DealResult(3, "unwinnable", 20, 2.0), DealResult(4, "unknown", 100, 4.0)])
        report = make_report(database, "x", key)
        assert make_report(database, "x", key, deals=[3, 4]).deals == 2
    assert (report.deals, report.won, report.unwinnable, report.unknown) == (4, 2, 1, 1)
    assert report.win_rate_bounds == (0.5, 0.75)
    assert report.interval_95 == (wilson_interval(2, 4)[0], wilson_interval(3, 4)[1])
    assert (report.positions_median, report.positions_max) == (25, 100)
    assert report.seconds_per_deal == 2.0 and report.solution_length_median == 2
    data = report.to_json()
    assert {"deals", "won", "unwinnable", "unknown"} <= set(data)
    assert data["win_rate"]["if_unknown_won"] == 0.75


def test_the_run_reported_is_the_largest_budget_of_the_latest_solver(tmp_path):
    with ResultsDatabase(tmp_path / "r.sqlite") as database:
        for key in (RunKey("h", "old", 1000), RunKey("h", "new", 10), RunKey("h", "new", 50)):
            database.record_chunk(key, [DealResult(1, "won", 1, 0.1)])
        assert choose_run(database, "h") == RunKey("h", "new", 50)
        assert choose_run(database, "h", solver_version="old") == RunKey("h", "old", 1000)
        assert choose_run(database, "h", budget=10) == RunKey("h", "new", 10)
        assert choose_run(database, "other") is None


@pytest.fixture
def database_path(tmp_path):
    path = tmp_path / "results.sqlite"
    with ThreadPoolExecutor(2) as executor, ResultsDatabase(path) as database:
        for name, deals in (("manx", range(1, 31)), ("tabbycat", range(1, 13))):
            run_study(Study.of(patience.find_variant(name), 400, STANDIN), deals, database,
                      workers=Workers.using(executor, 2))
    return path


def test_report_json_is_one_object_per_variant(database_path):
    result = CliRunner().invoke(main, ["report", "manx", "--db", str(database_path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["deals"], data["won"], data["unwinnable"], data["unknown"]) == (30, 10, 10, 10)
    assert data["variant"] == "manx" and data["max_positions"] == 400
    every = CliRunner().invoke(main, ["report", "--db", str(database_path), "--json"])
    assert [json.loads(line)["variant"] for line in every.output.splitlines()] == [
        "manx", "tabbycat"]


def test_report_text(database_path):
    result = CliRunner().invoke(main, ["report", "tabbycat", "--db", str(database_path),
                                       "--deals", "1-6"])
    assert result.exit_code == 0, result.output
    assert "deals       6" in result.output
    assert "win rate    33.3% to 66.7% (95% interval" in result.output


def test_report_without_results_says_what_to_run(database_path, tmp_path):
    result = CliRunner().invoke(main, ["report", "mainecoon", "--db", str(database_path)])
    assert result.exit_code == 2
    assert "patience stats mainecoon" in result.output
    missing = CliRunner().invoke(main, ["report", "manx", "--db", str(tmp_path / "no.sqlite")])
    assert missing.exit_code == 2 and "no results database" in missing.output


def test_report_plot(database_path, tmp_path):
    picture = tmp_path / "study.png"
    result = CliRunner().invoke(main, ["report", "--db", str(database_path),
                                       "--plot", str(picture)])
    assert result.exit_code == 0, result.output
    assert picture.read_bytes().startswith(b"\x89PNG")
    height, width, _ = matplotlib.image.imread(picture).shape  # a whole picture, not a stub
    assert height >= 100 and width >= 100


def test_stats_rejects_bad_deals(tmp_path):
    result = CliRunner().invoke(main, ["stats", "manx", "--deals", "9-1",
                                       "--db", str(tmp_path / "r.sqlite")])
    assert result.exit_code == 2 and "N-M" in result.output
