"""Killing a real ``patience stats`` run with SIGKILL loses only the chunks in flight.

A subprocess runs the study with a slow stand-in solver (chunks of 5 deals); it is killed
with ``kill -9`` at several moments, then rerun to the end. The database must stay intact,
hold whole chunks only, never a deal twice, and end with every deal exactly once.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_studies_standins import expected_verdict

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
STANDIN = "test_studies_standins:standin_solve"
DEALS = 300
CHUNK = 5


def stats_command(database: Path) -> list[str]:
    return [sys.executable, "-c", "from patience.cli.main import main; main()", "stats",
            "tabbycat-corner", "--deals", f"1-{DEALS}", "--db", str(database),
            "--workers", "2", "--chunk-size", str(CHUNK), "--max-positions", "500",
            "--solver", STANDIN, "--quiet"]


def environment(delay: float) -> dict[str, str]:
    path = os.pathsep.join(filter(None, [str(ROOT), str(TESTS), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, "PATIENCE_STANDIN_DELAY": str(delay)}


def stored_rows(database: Path) -> int:
    if not database.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5) as connection:
            return connection.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    except sqlite3.OperationalError:  # the schema is not there yet
        return 0


def check_database(database: Path) -> list[tuple[int, str]]:
    if not database.exists():  # killed before it was made
        return []
    with sqlite3.connect(database) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = connection.execute("SELECT deal, verdict FROM results ORDER BY deal").fetchall()
    deals = [deal for deal, _ in rows]
    assert len(deals) == len(set(deals)), "a deal is stored twice"
    assert len(deals) % CHUNK == 0, f"{len(deals)} rows: part of a chunk was stored"
    assert all(verdict == expected_verdict(deal) for deal, verdict in rows)
    return rows


def live_members(group: int) -> list[int]:
    """The processes of a process group that are not zombies (Linux /proc)."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] not in "ZX":
            members.append(int(stat.parent.name))
    return members


def kill_run(database: Path, when_rows: int, deadline: float = 60) -> int:
    """Start a run, SIGKILL it once ``when_rows`` rows are stored (0: after a moment of
    start-up); the rows stored then."""
    process = subprocess.Popen(stats_command(database), env=environment(0.03),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        if not when_rows:
            time.sleep(0.5)
        give_up = time.monotonic() + deadline
        while stored_rows(database) < when_rows and process.poll() is None:
            assert time.monotonic() < give_up, "the run stored nothing in time"
            time.sleep(0.02)
        assert process.poll() is None, "the run ended before it could be killed"
        os.kill(process.pid, signal.SIGKILL)
        assert process.wait(10) == -signal.SIGKILL
        if Path("/proc").is_dir():  # the orphaned workers leave by themselves
            give_up = time.monotonic() + 10
            while live_members(process.pid):
                assert time.monotonic() < give_up, "worker processes outlived the run"
                time.sleep(0.1)
    finally:
        try:  # the orphaned worker processes too (same session)
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return stored_rows(database)


@pytest.mark.slow
def test_kill_9_at_any_moment_loses_only_the_chunks_in_flight(tmp_path):
    database = tmp_path / "results.sqlite"
    seen = []
    for when_rows in (0, 40, 200):  # during start-up, early, late
        before = stored_rows(database)
        after = kill_run(database, max(when_rows, before + 1) if when_rows else 0)
        seen.append(after)
        assert after >= before
        check_database(database)
    finished = subprocess.run(stats_command(database), env=environment(0), timeout=120,
                              capture_output=True, text=True, check=False)
    assert finished.returncode == 0, finished.stderr
    assert f"{DEALS} deals ({seen[-1]} already stored" in finished.stdout
    rows = check_database(database)
    assert [deal for deal, _ in rows] == list(range(1, DEALS + 1))
