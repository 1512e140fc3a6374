"""The results database: schema, no duplicate rows, one transaction per chunk, location."""

from __future__ import annotations

import sqlite3

import pytest

from patience.studies.database import (
    DealResult,
    ResultsDatabase,
    RunKey,
    StudyError,
    StudyStopped,
    default_database_path,
)

KEY = RunKey("86ccea545ac5a72f", "test-1", 1000)


def results(*deals: int) -> list[DealResult]:
    return [DealResult(deal, "won", 10 * deal, 0.5, ("c1:1-c4", "d")) for deal in deals]


def test_a_chunk_is_stored_once_whoever_writes_it(tmp_path):
    path = tmp_path / "results.sqlite"
    with ResultsDatabase(path) as first, ResultsDatabase(path) as second:
        assert first.record_chunk(KEY, results(1, 2, 3)) == 3
        assert second.record_chunk(KEY, results(3, 4)) == 1
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT deal, solution_length, solution FROM results "
                                  "ORDER BY deal").fetchall()
    assert [row[0] for row in rows] == [1, 2, 3, 4]
    assert rows[0][1:] == (2, "c1:1-c4 d")


def test_the_key_is_variant_solver_deal_and_budget(tmp_path):
    with ResultsDatabase(tmp_path / "r.sqlite") as database:
        database.record_chunk(KEY, results(1))
        for other in (RunKey("other", "test-1", 1000), RunKey(KEY.rules_hash, "test-2", 1000),
                      RunKey(KEY.rules_hash, "test-1", 2000)):
            assert database.record_chunk(other, results(1)) == 1
            assert database.finished_deals(other) == {1}
        assert database.finished_deals(KEY, range(2, 5)) == set()


def test_unsolved_deals_store_no_solution(tmp_path):
    with ResultsDatabase(tmp_path / "r.sqlite") as database:
        database.record_chunk(KEY, [DealResult(5, "unknown", 1000, 2.0, ())])
        assert database.counts(KEY, [5, 6]) == {"won": 0, "unwinnable": 0, "unknown": 1}
        (row,) = database.results(KEY)
    assert (row.verdict, row.positions, row.solution_length) == ("unknown", 1000, None)


def test_a_bad_verdict_rolls_back_the_whole_chunk(tmp_path):
    with ResultsDatabase(tmp_path / "r.sqlite") as database:
        bad = results(1, 2) + [DealResult(3, "maybe", 1, 0.0)]
        with pytest.raises(StudyStopped, match="CHECK constraint failed"):
            database.record_chunk(KEY, bad)
        assert database.finished_deals(KEY) == set()


def test_the_file_is_in_wal_mode(tmp_path):
    ResultsDatabase(tmp_path / "r.sqlite").close()
    with sqlite3.connect(tmp_path / "r.sqlite") as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "r.sqlite"
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA user_version = 99")
    with pytest.raises(StudyError, match="schema version 99"):
        ResultsDatabase(path)


def test_not_a_database_is_refused(tmp_path):
    path = tmp_path / "r.sqlite"
    path.write_text("not sqlite " * 100)
    with pytest.raises(StudyError, match="cannot use results database"):
        ResultsDatabase(path)


def test_the_default_location_follows_patience_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("PATIENCE_DATA_DIR", str(tmp_path / "data"))
    assert default_database_path() == tmp_path / "data" / "results.sqlite"
    monkeypatch.delenv("PATIENCE_DATA_DIR")
    assert default_database_path().name == "results.sqlite"
    assert "patience" in default_database_path().parent.name
