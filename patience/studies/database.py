"""The results database: one SQLite file, one row per solved deal.

A row is keyed by what makes a result reproducible: the variant's ``rules_hash``, the
solver's version, the deal number and the budget (``max_positions``). The key is UNIQUE
and rows go in with ``ON CONFLICT (key) DO NOTHING`` (``INSERT OR IGNORE`` limited to that
key, so a row breaking another constraint still fails loudly: StudyStopped), so no deal is
ever stored twice, whoever writes. The file is in WAL mode and every finished chunk of
deals is one transaction: killing a run at any moment, ``kill -9`` included, loses at most
the chunks not yet written and never leaves half a chunk or a damaged file.

Deal numbers are unsigned 64-bit integers; SQLite's are signed. Since schema version 2 a
deal from 2**63 on is stored as ``deal - 2**64`` (a negative number, as the same 64 bits
read signed), so every deal below 2**63 (all a schema 1 file can hold) is stored as itself.

A file is only used when it is ours: missing or empty (it is then created), or marked with
our ``application_id`` (:data:`APPLICATION_ID`), or a schema 1 file of patience 0.1 (no
application id; our two tables and nothing else). Anything else — another program's
SQLite file, not SQLite at all, a FIFO, a directory — is refused before anything is
written to it. ``ResultsDatabase(path, read_only=True)`` (for reports) opens the file
with ``mode=ro`` and never writes it; a file of schema 1 is read as it is.

>>> database = ResultsDatabase(":memory:")
>>> database.record_variant("86ccea545ac5a72f", "tabbycat", "Tabby Cat", "...")
>>> key = RunKey("86ccea545ac5a72f", "test-1", 1000)
>>> database.record_chunk(key, [DealResult(1, "won", 120, 0.01, ("c1:1-c4",)),
...                             DealResult(2**64 - 1, "unknown", 1000, 0.5)])
2
>>> sorted(database.finished_deals(key, range(1, 10)))
[1]
>>> [row.deal for row in database.results(key)]
[1, 18446744073709551615]
"""

from __future__ import annotations

import bisect
import os
import sqlite3
import stat
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from patience.errors import StudyError, StudyStopped
from patience.limits import MAX_DEAL_NUMBER
from patience.solver import VERDICTS, Verdict

if TYPE_CHECKING:
    from typing_extensions import Self

#: 3: the engine that solved each row (``engine``, NULL in rows from before); 2: deals from
#: 2**63 stored as deal - 2**64, and the application id set; 1: patience 0.1
SCHEMA_VERSION = 3
READABLE_SCHEMAS = (1, 2, 3)
#: ``PRAGMA application_id`` of our files: "PaTi"
APPLICATION_ID = 0x50615469
MAX_DEAL = MAX_DEAL_NUMBER  # deals are numbered by unsigned 64-bit integers
_SIGNED = 2**63
#: what SQLite raises on a bad file: its own errors, and UnicodeDecodeError when a damaged
#: file's text (or SQLite's message quoting it) is not UTF-8
SQLITE_ERRORS = (sqlite3.Error, UnicodeDecodeError)

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
    engine TEXT,                        -- 'native' or 'python'; NULL: before schema 3
    UNIQUE (rules_hash, solver_version, deal, budget)
);
"""
_ENGINE_COLUMN = ("    engine TEXT,                        "
                  "-- 'native' or 'python'; NULL: before schema 3\n")
#: the tables as schemas 1 and 2 made them (no engine column), for tests of old files
SCHEMA_BEFORE_3 = SCHEMA.replace(_ENGINE_COLUMN, "")


# --- deal numbers --------------------------------------------------------------------


@attrs.frozen
class DealRanges:
    """A set of deal numbers as sorted, disjoint, inclusive ``(first, last)`` spans, so
    that even ``0-18446744073709551615`` is counted, tested and walked without a list.

    >>> deals = DealRanges.of([9, 1, 2, 3, 5, 3])
    >>> deals.spans, deals.count, 4 in deals, list(deals)
    (((1, 3), (5, 5), (9, 9)), 5, False, [1, 2, 3, 5, 9])
    >>> list(DealRanges.from_spans([(1, 7)]).windows(3))
    [(1, 3), (4, 6), (7, 7)]
    """

    spans: tuple[tuple[int, int], ...] = ()

    @classmethod
    def from_spans(cls, spans: Iterable[tuple[int, int]]) -> DealRanges:
        """The union of ``spans``; StudyError for a number outside 0 … 2**64 - 1."""
        ordered = []
        for first, last in spans:
            for number in (first, last):
                _check_deal(number)
            if first <= last:
                ordered.append((first, last))
        ordered.sort()
        merged: list[tuple[int, int]] = []
        for first, last in ordered:
            if merged and first <= merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], max(merged[-1][1], last))
            else:
                merged.append((first, last))
        return cls(tuple(merged))

    @classmethod
    def of(cls, deals: Iterable[int] | DealRanges) -> DealRanges:
        """``deals`` as ranges: a ``range`` of step 1 without listing it, any other
        iterable deal by deal."""
        if isinstance(deals, DealRanges):
            return deals
        if isinstance(deals, range) and deals.step == 1:
            return cls.from_spans([(deals.start, deals.stop - 1)] if deals else [])
        return cls.from_spans((deal, deal) for deal in deals)

    @property
    def count(self) -> int:
        """How many deals (``len()`` cannot say more than 2**63 - 1)."""
        return sum(last - first + 1 for first, last in self.spans)

    def __bool__(self) -> bool:
        return bool(self.spans)

    def __iter__(self) -> Iterator[int]:
        for first, last in self.spans:
            yield from range(first, last + 1)

    def __contains__(self, deal: object) -> bool:
        if type(deal) is not int:
            return False
        place = bisect.bisect_right(self.spans, (deal, MAX_DEAL + 1)) - 1
        return place >= 0 and self.spans[place][0] <= deal <= self.spans[place][1]

    def windows(self, size: int) -> Iterator[tuple[int, int]]:
        """The spans cut into pieces of at most ``size`` deals, none across 2**63."""
        for first, last in self.spans:
            while first <= last:
                end = min(last, first + size - 1)
                if first < _SIGNED <= end:
                    end = _SIGNED - 1
                yield first, end
                first = end + 1


def _describe(error: Exception) -> str:
    if isinstance(error, UnicodeDecodeError):
        return "the file is damaged (it holds text that is not UTF-8)"
    return " ".join(str(error).split())


def _check_deal(number: object) -> int:
    if type(number) is not int or not 0 <= number <= MAX_DEAL:
        raise StudyError(f"deal number {number!r} is not a whole number from 0 to "
                         f"{MAX_DEAL} (2**64 - 1)")
    return number


def _stored(deal: int) -> int:
    """The deal as stored: the same 64 bits read as a signed integer."""
    return deal if deal < _SIGNED else deal - 2**64


def _deal(stored: int) -> int:
    return stored if stored >= 0 else stored + 2**64


def _stored_spans(first: int, last: int) -> list[tuple[int, int]]:
    """``first … last`` as spans of stored values (split at 2**63)."""
    if last < _SIGNED or first >= _SIGNED:
        return [(_stored(first), _stored(last))]
    return [(first, _SIGNED - 1), (_stored(_SIGNED), _stored(last))]


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
    engine: str | None = None  # which engine of the solver produced it, where it says


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
    engine: str | None = None  # None: not recorded (a row from before schema 3)


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
    that runs the study writes what they send back. ``read_only=True`` opens an existing
    file without ever writing to it (reports).
    """

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        self.path = str(path)
        self.read_only = read_only
        try:
            if self.path == ":memory:":
                self.connection = sqlite3.connect(self.path, isolation_level=None)
                self._create()
                return
            kind = _inspect(Path(self.path))
            if read_only:
                if kind == "missing":
                    raise StudyError(f"no results database at {self.path!r}")
                self.connection = _connect_read_only(Path(self.path))
            else:
                _make_folder(Path(self.path))
                self.connection = sqlite3.connect(self.path, timeout=60, isolation_level=None)
            # read before anything is written: the schema must be ours (or nothing at all)
            empty = _check_schema(self.connection, self.path, marked=kind != "unmarked")
            if read_only and empty:
                self.connection.close()
                raise StudyError(f"results database {self.path!r} holds no results yet")
            if not read_only:
                self._create()
                self.connection.execute("PRAGMA journal_mode=WAL")
                self.connection.execute("PRAGMA synchronous=FULL")
        except SQLITE_ERRORS as error:
            raise StudyError(f"cannot use results database {self.path!r}: "
                             f"{_describe(error)}") from None

    def _create(self) -> None:
        """The tables and marks of a database of ours (a schema 1 or 2 file becomes schema
        3: its rows are the same, with no engine recorded)."""
        migrate = ""
        if _columns(self.connection, "results") == OUR_TABLES_BEFORE_3["results"]:
            migrate = "ALTER TABLE results ADD COLUMN engine TEXT;"
        self.connection.executescript(
            f"BEGIN IMMEDIATE; PRAGMA application_id = {APPLICATION_ID}; {SCHEMA} {migrate} "
            f"PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def transaction(self) -> _Transaction:
        return _Transaction(self.connection)

    @contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        """SQLite's errors (a full disk, a locked or damaged file, a row breaking the
        schema) as StudyStopped; the transaction they happened in is rolled back."""
        try:
            yield
        except SQLITE_ERRORS as error:
            raise StudyStopped(f"cannot {doing} results database {self.path!r}: "
                               f"{_describe(error)}") from None

    # --- writing --------------------------------------------------------------------

    def record_variant(self, rules_hash: str, id: str, name: str, definition: str) -> None:
        """Remember which variant a rules hash belongs to (the first name given wins)."""
        with self._errors("write"), self.transaction():
            self.connection.execute(
                "INSERT OR IGNORE INTO variants (rules_hash, id, name, definition) "
                "VALUES (?, ?, ?, ?)", (rules_hash, id, name, definition))

    def record_chunk(self, key: RunKey, results: Sequence[DealResult]) -> int:
        """Store a finished chunk in one transaction; the number of rows that were new."""
        rows = [(key.rules_hash, key.solver_version, _stored(_check_deal(result.deal)),
                 key.budget, result.verdict, result.positions, result.seconds,
                 len(result.solution) if result.verdict == "won" else None,
                 " ".join(result.solution) if result.verdict == "won" else None,
                 result.engine)
                for result in results]
        with self._errors("write"), self.transaction():
            before = self.connection.total_changes
            self.connection.executemany(
                "INSERT INTO results (rules_hash, solver_version, deal, budget, verdict, "
                "positions, seconds, solution_length, solution, engine) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (rules_hash, solver_version, deal, budget) DO NOTHING", rows)
            return self.connection.total_changes - before

    # --- reading --------------------------------------------------------------------

    def _rows(self, query: str, arguments: tuple[Any, ...]) -> list[Any]:
        with self._errors("read"):
            return self.connection.execute(query, arguments).fetchall()

    def stored_between(self, key: RunKey, first: int, last: int) -> set[int]:
        """The deals from ``first`` to ``last`` already stored under ``key``."""
        found: set[int] = set()
        for low, high in _stored_spans(first, last):
            found.update(_deal(deal) for (deal,) in self._rows(
                "SELECT deal FROM results WHERE rules_hash = ? AND solver_version = ? "
                "AND deal BETWEEN ? AND ? AND budget = ?",
                (key.rules_hash, key.solver_version, low, high, key.budget)))
        return found

    def finished_deals(self, key: RunKey, deals: Iterable[int] | None = None) -> set[int]:
        """The deal numbers (among ``deals``, or all) already stored under ``key``."""
        spans = [(0, MAX_DEAL)] if deals is None else DealRanges.of(deals).spans
        found: set[int] = set()
        for first, last in spans:
            found |= self.stored_between(key, first, last)
        return found

    def counts(self, key: RunKey, deals: Iterable[int] | DealRanges) -> dict[str, int]:
        """How many of ``deals`` are stored under ``key`` with each verdict."""
        counts: dict[str, int] = dict.fromkeys(VERDICTS, 0)
        for first, last in DealRanges.of(deals).spans:
            for low, high in _stored_spans(first, last):
                for verdict, number in self._rows(
                        "SELECT verdict, COUNT(*) FROM results WHERE rules_hash = ? "
                        "AND solver_version = ? AND deal BETWEEN ? AND ? AND budget = ? "
                        "GROUP BY verdict",
                        (key.rules_hash, key.solver_version, low, high, key.budget)):
                    counts[self._verdict(verdict)] += number
        return counts

    def variant_names(self) -> dict[str, str]:
        """Rules hash -> variant id, for every variant with results."""
        return dict(self._rows(
            "SELECT v.rules_hash, v.id FROM variants v WHERE EXISTS "
            "(SELECT 1 FROM results r WHERE r.rules_hash = v.rules_hash) ORDER BY v.id", ()))

    def runs(self, rules_hash: str) -> list[tuple[str, int, int, str]]:
        """(solver version, budget, rows, last recorded) for a variant, newest first."""
        return [tuple(row) for row in self._rows(
            "SELECT solver_version, budget, COUNT(*), MAX(recorded) FROM results "
            "WHERE rules_hash = ? GROUP BY solver_version, budget "
            "ORDER BY MAX(rowid) DESC", (rules_hash,))]

    def results(self, key: RunKey) -> Iterator[StoredResult]:
        """Every stored row under ``key``, by deal number."""
        with self._errors("read"):
            # a file of schema 1 or 2 opened read-only has no engine column
            engine = "engine" if "engine" in _columns(self.connection, "results") else "NULL"
            for row in self.connection.execute(
                    "SELECT rules_hash, solver_version, budget, deal, verdict, positions, "
                    f"seconds, solution_length, {engine} FROM results WHERE rules_hash = ? AND "
                    "solver_version = ? AND budget = ? ORDER BY deal < 0, deal",
                    (key.rules_hash, key.solver_version, key.budget)):
                yield StoredResult(row[0], row[1], row[2], _deal(row[3]),
                                   self._verdict(row[4]), *row[5:])

    def _verdict(self, stored: Any) -> Verdict:
        """A stored verdict, or StudyError: a damaged page can hold any value, which
        SQLite's CHECK constraint never saw."""
        if stored not in VERDICTS:
            raise StudyError(
                f"results database {self.path!r} is damaged: a result's verdict is "
                f"{repr(stored)[:40]}, not one of {', '.join(VERDICTS)}; {UNTOUCHED}")
        return stored  # type: ignore[no-any-return]


# --- is the file ours? ---------------------------------------------------------------

#: the tables (and their columns) of schemas 1 and 2, of schema 3, and SQLite's indexes
OUR_TABLES_BEFORE_3 = {
    "variants": ("rules_hash", "id", "name", "definition"),
    "results": ("rules_hash", "solver_version", "deal", "budget", "verdict", "positions",
                "seconds", "solution_length", "solution", "recorded"),
}
OUR_TABLES = {**OUR_TABLES_BEFORE_3,
              "results": (*OUR_TABLES_BEFORE_3["results"], "engine")}
OUR_INDEXES = ("sqlite_autoindex_variants_1", "sqlite_autoindex_results_1")
SQLITE_HEADER = b"SQLite format 3\x00"
UNTOUCHED = "it was left untouched"


def _inspect(path: Path) -> str:
    """What the file is, from ``stat`` and its first 100 bytes: ``"missing"``, ``"empty"``
    (no bytes), ``"marked"`` (our application id) or ``"unmarked"`` (an SQLite file without
    an application id whose schema is ours: a file of patience 0.1). StudyError for
    anything else, before anything is written to it."""
    where = str(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return "missing"
    except NotADirectoryError:
        raise StudyError(f"cannot use results database {where!r}: a folder on its path is "
                         "a file") from None
    except OSError as error:
        raise StudyError(f"cannot use results database {where!r}: {error.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        kind = ("a directory" if stat.S_ISDIR(info.st_mode) else
                "a FIFO (named pipe)" if stat.S_ISFIFO(info.st_mode) else
                "a device or socket")
        raise StudyError(f"cannot use results database {where!r}: it is {kind}, not a "
                         f"regular file; {UNTOUCHED}")
    if info.st_size == 0:
        return "empty"
    try:
        with open(path, "rb") as file:
            header = file.read(100)
    except OSError as error:
        raise StudyError(f"cannot use results database {where!r}: {error.strerror}") from None
    if len(header) < 100 or not header.startswith(SQLITE_HEADER):
        raise StudyError(f"cannot use results database {where!r}: it is not an SQLite "
                         f"database; {UNTOUCHED}")
    application_id = int.from_bytes(header[68:72], "big")
    if application_id == APPLICATION_ID:
        return "marked"
    if application_id:
        raise StudyError(f"cannot use results database {where!r}: it is another program's "
                         f"SQLite file (application_id {application_id:#x}); {UNTOUCHED}")
    try:  # read-only, so that nothing of another program's file is changed
        connection = _connect_read_only(path)
        try:
            _check_schema(connection, where, marked=False)
        finally:
            connection.close()
    except SQLITE_ERRORS as error:
        raise StudyError(f"cannot use results database {where!r}: {_describe(error)}; "
                         f"{UNTOUCHED}") from None
    return "unmarked"


def _check_schema(connection: sqlite3.Connection, where: str, marked: bool) -> bool:
    """Whether the database holds nothing yet; StudyError unless it holds our tables (with
    their columns) and nothing else, at a schema version this patience reads. ``marked``:
    the file has our application id (or is new), so any of our schema versions will do;
    otherwise it must be a schema 1 file (or an empty database). Only reads."""
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StudyError(f"results database {where!r} has schema version {version}; this "
                         f"patience reads up to {SCHEMA_VERSION}: upgrade patience")
    objects = connection.execute("SELECT type, name FROM sqlite_master ORDER BY name").fetchall()
    if not objects and (marked or version == 0):
        return True
    tables = [name for kind, name in objects if kind == "table"]
    others = [name for kind, name in objects
              if name not in OUR_TABLES and name not in OUR_INDEXES]
    columns = {table: _columns(connection, table) for table in OUR_TABLES}
    versions = (0, *READABLE_SCHEMAS) if marked else (0, 1)
    layout = OUR_TABLES if version >= 3 else OUR_TABLES_BEFORE_3
    if (version in versions and tables and not others
            and all(columns[table] == layout[table] for table in tables)):
        return False
    described = ", ".join(tables) or "none"
    raise StudyError(f"cannot use results database {where!r}: it is an SQLite file that "
                     f"patience did not make (user_version {version}, tables: {described}); "
                     f"{UNTOUCHED} — give another --db")


def _columns(connection: sqlite3.Connection, table: str) -> tuple[str, ...]:
    """The columns of one of our tables (none when it is not there)."""
    assert table in OUR_TABLES  # never a name from outside
    return tuple(row[1] for row in connection.execute(f"PRAGMA table_info({table})"))


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A connection that cannot write the file (``mode=ro``); ``immutable=1`` when even the
    WAL index cannot be made (a read-only folder)."""
    uri = path.absolute().as_uri()
    connection = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=60,
                                 isolation_level=None)
    try:
        connection.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        return connection
    except sqlite3.OperationalError as error:
        connection.close()
        if getattr(error, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY,
                                                         sqlite3.SQLITE_LOCKED):
            raise
    except BaseException:
        connection.close()
        raise
    connection = sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True,
                                 isolation_level=None)
    try:
        connection.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
    except BaseException:
        connection.close()
        raise
    return connection


def _make_folder(path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StudyError(f"cannot use results database {str(path)!r}: cannot make its "
                         f"folder {str(path.parent)!r} ({error.strerror or error})") from None
    if not path.parent.is_dir():
        raise StudyError(f"cannot use results database {str(path)!r}: "
                         f"{str(path.parent)!r} is not a folder")


class _Transaction:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` on error) on an autocommit connection."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    def __enter__(self) -> None:
        self.connection.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        self.connection.execute("COMMIT" if kind is None else "ROLLBACK")
