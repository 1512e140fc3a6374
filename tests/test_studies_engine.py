"""The studies record which engine solved each row (schema 3), and older files migrate."""

from __future__ import annotations

import sqlite3

import patience
from patience import native
from patience.studies.database import (
    APPLICATION_ID,
    OUR_TABLES,
    SCHEMA_BEFORE_3,
    DealResult,
    ResultsDatabase,
    RunKey,
)
from patience.studies.runner import DEFAULT_SOLVER, shipped_definition, solve_chunk, solver_version


def test_a_schema_2_file_gains_the_engine_column_and_keeps_its_rows(tmp_path):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as connection:
        connection.executescript(SCHEMA_BEFORE_3 + f"PRAGMA application_id = {APPLICATION_ID};"
                                 "PRAGMA user_version = 2;")
        connection.execute("INSERT INTO results (rules_hash, solver_version, deal, budget, "
                           "verdict, positions, seconds) VALUES ('h', '1.2', 1, 10, 'won', "
                           "5, 0.1)")
    key = RunKey("h", "1.2", 10)
    with ResultsDatabase(path, read_only=True) as database:  # read as it is: no engine
        assert [row.engine for row in database.results(key)] == [None]
    with ResultsDatabase(path) as database:
        database.record_chunk(key, [DealResult(2, "unknown", 10, 0.2, (), "native")])
        assert [(row.deal, row.engine) for row in database.results(key)] == \
            [(1, None), (2, "native")]
        columns = [row[1] for row in database.connection.execute("PRAGMA table_info(results)")]
        assert tuple(columns) == OUR_TABLES["results"]
        assert database.connection.execute("PRAGMA user_version").fetchone()[0] == 3


def test_a_new_file_has_the_same_columns_as_a_migrated_one(tmp_path):
    with ResultsDatabase(tmp_path / "new.sqlite") as database:
        columns = [row[1] for row in database.connection.execute("PRAGMA table_info(results)")]
    assert tuple(columns) == OUR_TABLES["results"]


def test_a_worker_records_the_engine_it_used(monkeypatch):
    variant = patience.find_variant("tabbycat-autoremove")
    definition = shipped_definition(variant)
    version = solver_version(DEFAULT_SOLVER)
    [result] = solve_chunk(definition, variant.rules_hash, [2], 5_000, DEFAULT_SOLVER, version)
    assert result.engine == native.engine("auto")
    monkeypatch.setenv("PATIENCE_ENGINE", "python")
    [result] = solve_chunk(definition, variant.rules_hash, [2], 5_000, DEFAULT_SOLVER, version)
    assert result.engine == "python" and result.verdict == "won"
