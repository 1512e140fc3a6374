"""bench/native.py's table of every game's exhaustive rate (``--only rates``), run as people
run it: a subprocess on two games and one deal each."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import patience
from patience import native
from patience.solver import solve

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(not native.AVAILABLE, reason="the native core is not built")
def test_the_rates_table_lists_each_game_with_its_positions_and_the_target():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "native.py"), "--only", "rates", "--games",
         "golf", "montana", "--deals", "1", "--positions", "30000"],
        capture_output=True, text=True, timeout=120, env=env, check=False)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "deals 1-1 at 30,000 positions" in out
    # Golf's deal 1 and Montana's deal 1 searched to the end or to the budget: the same
    # counts as the solver's own prove mode gives
    for name in ("golf", "montana"):
        result = solve(patience.find_variant(name).deal(1), 30_000, prove=True,
                       shorten_line=False)
        row = re.search(rf"^{name}\s+([\d,]+)\s+[\d.]+\s+([\d,]+)$", out, re.MULTILINE)
        listed = re.search(rf"under 0\.05 CPU s in all \(rate not shown\): .*\b{name}\b", out)
        assert row or listed, out
        if row:
            assert int(row.group(1).replace(",", "")) == result.positions
            assert int(row.group(2).replace(",", "")) > 0
    assert re.search(r"^\d of \d timed games at 1,500,000 positions per CPU second or more$",
                     out, re.MULTILINE), out
