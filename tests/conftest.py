"""Test-run policy: with ``PATIENCE_REQUIRE_TEST_DEPS=1`` (set by ``.ci/run``), a test
skipped because one of the ``dev`` extra's packages could not be imported fails the run.

A missing package otherwise skips quietly (``pytest.importorskip``), which is right on a
user's partial install and wrong in CI, where ``pip install -e '.[dev]'`` put everything
there: a quiet skip once hid the whole JSON API suite for want of Starlette's client.
"""

from __future__ import annotations

import os
import tempfile

import pytest

# the tests (and the commands they run) keep compiled definitions in a cache of their own,
# never in the user's (patience/defcache.py)
os.environ.setdefault("PATIENCE_CACHE_DIR", tempfile.mkdtemp(prefix="patience-test-cache-"))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if os.environ.get("PATIENCE_REQUIRE_TEST_DEPS") != "1":
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    missing = []
    for report in reporter.stats.get("skipped", []):
        reason = str(report.longrepr[2]) if isinstance(report.longrepr, tuple) else ""
        if "could not import" in reason:
            missing.append(f"{report.nodeid}: {reason}")
    if missing:
        reporter.write_line("PATIENCE_REQUIRE_TEST_DEPS: tests were skipped for a missing "
                            "package:", red=True)
        for line in missing:
            reporter.write_line(f"  {line}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
