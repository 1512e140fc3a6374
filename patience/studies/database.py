"""The results database: one SQLite file, one row per solved deal.

A row is keyed by what makes a result reproducible: the variant's ``rules_hash``, the
solver's version, the deal number and the budget (``max_positions``). The key is UNIQUE
and rows go in with ``ON CONFLICT (key) DO NOTHING`` (``INSERT OR IGNORE`` limited to that
key, so a row breaking another constraint still fails loudly), so no deal is ever stored
twice, whoever writes. The file is in WAL mode and every finished chunk of deals is one transaction:
killing a run at any moment, ``kill -9`` included, loses at most the chunks not yet
written and never leaves half a chunk or a damaged file.

>>> database = ResultsDatabase(":memory:")
>>> database.record_variant("86ccea545ac5a72f", "tabbycat", "Tabby Cat", "...")
>>> key = RunKey("86ccea545ac5a72f", "test-1", 1000)
>>> database.record_chunk(key, [DealResult(1, "won", 120, 0.01, ("c1:1-c4",))])
1
>>> sorted(database.finished_deals(key, range(1, 10)))
[1]
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from patience.errors import PatienceError

if TYPE_CHECKING:
    from typing_extensions import Self

SCHEMA_VERSION = 1
VERDICTS = ("won", "unwinnable", "unknown")

SCHEMA = """
CREATE TABLE IF NOT EXISTS variants (
    rules_hash TEXT PRIMARY KEY,
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    definition TEXT NOT NULL            -- the flattened YAML the workers compiled
);
CREATE TABLE IF NOT EXISTS results (
    rules_hash TEXT NOT NULL,
    solver_version TEXT NOT NULL,
    deal INTEGER NOT NULL,
    budget INTEGER NOT NULL,            -- max_positions given to the solver
    verdict TEXT NOT NULL CHECK (verdict IN ('won', 'unwinnable', 'unknown')),
    positions INTEGER NOT NULL,
    seconds REAL NOT NULL,
    solution_length INTEGER,            -- moves in the solution; NULL unless won
    solution TEXT,                      -- the moves in notation, space-separated
    recorded TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (rules_hash, solver_version, deal, budget)
);
"""


class StudyError(PatienceError, RuntimeError):
    """A winnability study cannot go on: a bad database, a variant that does not match."""


@attrs.frozen
class RunKey:
    """What a result depends on, besides the deal number."""

    rules_hash: str
    solver_version: str
    budget: int


@attrs.frozen
class DealResult:
    """The solver's answer for one deal, as stored."""

    deal: int
    verdict: str
    positions: int
    seconds: float
    solution: tuple[str, ...] = ()


@attrs.frozen
class StoredResult:
    """A row of the results table, as read back for reports."""

    rules_hash: str
    solver_version: str
    budget: int
    deal: int
    verdict: str
    positions: int
    seconds: float
    solution_length: int | None


def default_database_path() -> Path:
    """``$PATIENCE_DATA_DIR/results.sqlite``, else the user data folder's ``results.sqlite``.

    The user data folder is ``platformdirs.user_data_dir("patience")`` (on Linux
    ``~/.local/share/patience``).
    """
    folder = os.environ.get("PATIENCE_DATA_DIR")
    if not folder:
        try:
            import platformdirs
        except ModuleNotFoundError:  # the same folder platformdirs gives on Linux
            base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
            folder = str(Path(base) / "patience")
        else:
            folder = platformdirs.user_data_dir("patience", appauthor=False)
    return Path(folder) / "results.sqlite"


class ResultsDatabase:
    """The results file, opened (and created, with its folder) on construction.

    One connection, used from one thread: workers never touch the database; the process
    that runs the study writes what they send back.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self.connection = sqlite3.connect(self.path, timeout=60, isolation_level=None)
            self._prepare()
        except sqlite3.DatabaseError as error:
            raise StudyError(f"cannot use results database {self.path!r}: {error}") from None

    def _prepare(self) -> None:
        connection = self.connection
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StudyError(f"results database {self.path!r} has schema version {version}; "
                             f"this patience reads up to {SCHEMA_VERSION}: upgrade patience")
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        connection.executescript(f"BEGIN IMMEDIATE; {SCHEMA} "
                                 f"PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def transaction(self) -> _Transaction:
        return _Transaction(self.connection)

    # --- writing --------------------------------------------------------------------

    def record_variant(self, rules_hash: str, id: str, name: str, definition: str) -> None:
        """Remember which variant a rules hash belongs to (the first name given wins)."""
        with self.transaction():
            self.connection.execute(
                "INSERT OR IGNORE INTO variants (rules_hash, id, name, definition) "
                "VALUES (?, ?, ?, ?)", (rules_hash, id, name, definition))

    def record_chunk(self, key: RunKey, results: Sequence[DealResult]) -> int:
        """Store a finished chunk in one transaction; the number of rows that were new."""
        rows = [(key.rules_hash, key.solver_version, result.deal, key.budget, result.verdict,
                 result.positions, result.seconds,
                 len(result.solution) if result.verdict == "won" else None,
                 " ".join(result.solution) if result.verdict == "won" else None)
                for result in results]
        with self.transaction():
            before = self.connection.total_changes
            self.connection.executemany(
                "INSERT INTO results (rules_hash, solver_version, deal, budget, verdict, "
                "positions, seconds, solution_length, solution) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (rules_hash, solver_version, deal, budget) DO NOTHING", rows)
            return self.connection.total_changes - before

    # --- reading --------------------------------------------------------------------

    def finished_deals(self, key: RunKey, deals: Iterable[int] | None = None) -> set[int]:
        """The deal numbers (among ``deals``, or all) already stored under ``key``."""
        rows = self.connection.execute(
            "SELECT deal FROM results WHERE rules_hash = ? AND solver_version = ? "
            "AND budget = ?", (key.rules_hash, key.solver_version, key.budget))
        finished = {deal for (deal,) in rows}
        return finished if deals is None else finished.intersection(deals)

    def counts(self, key: RunKey, deals: Iterable[int]) -> dict[str, int]:
        """How many of ``deals`` are stored under ``key`` with each verdict."""
        wanted = set(deals)
        counts = dict.fromkeys(VERDICTS, 0)
        for deal, verdict in self.connection.execute(
                "SELECT deal, verdict FROM results WHERE rules_hash = ? AND solver_version = ? "
                "AND budget = ?", (key.rules_hash, key.solver_version, key.budget)):
            if deal in wanted:
                counts[verdict] += 1
        return counts

    def variant_names(self) -> dict[str, str]:
        """Rules hash -> variant id, for every variant with results."""
        return dict(self.connection.execute(
            "SELECT v.rules_hash, v.id FROM variants v WHERE EXISTS "
            "(SELECT 1 FROM results r WHERE r.rules_hash = v.rules_hash) ORDER BY v.id"))

    def runs(self, rules_hash: str) -> list[tuple[str, int, int, str]]:
        """(solver version, budget, rows, last recorded) for a variant, newest first."""
        return list(self.connection.execute(
            "SELECT solver_version, budget, COUNT(*), MAX(recorded) FROM results "
            "WHERE rules_hash = ? GROUP BY solver_version, budget "
            "ORDER BY MAX(rowid) DESC", (rules_hash,)))

    def results(self, key: RunKey) -> Iterator[StoredResult]:
        """Every stored row under ``key``, by deal number."""
        for row in self.connection.execute(
                "SELECT rules_hash, solver_version, budget, deal, verdict, positions, seconds, "
                "solution_length FROM results WHERE rules_hash = ? AND solver_version = ? "
                "AND budget = ? ORDER BY deal",
                (key.rules_hash, key.solver_version, key.budget)):
            yield StoredResult(*row)


class _Transaction:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` on error) on an autocommit connection."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    def __enter__(self) -> None:
        self.connection.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        self.connection.execute("COMMIT" if kind is None else "ROLLBACK")
