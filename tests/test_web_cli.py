"""``patience serve``: the command starts the server, says where, and refuses bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest
from click.testing import CliRunner
from web_helpers import ROOT

from patience.cli.main import main

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")


def test_an_unknown_variant_is_refused():
    result = CliRunner().invoke(main, ["serve", "nothing-at-all"])
    assert result.exit_code == 2
    assert "unknown variant 'nothing-at-all'" in result.output


def test_serve_answers_on_loopback_and_stops_on_ctrl_c(tmp_path):
    environment = {**os.environ, "PATIENCE_DATA_DIR": str(tmp_path),
                   "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    process = subprocess.Popen([sys.executable, "-m", "patience", "serve", "manx", "--port",
                                "0"], cwd=tmp_path, env=environment, stderr=subprocess.PIPE,
                               text=True)
    try:
        line = process.stderr.readline()
        assert line.startswith("patience: playing at http://127.0.0.1:"), line
        url = line.split()[3]
        assert url.endswith("/?variant=manx")
        base = url.partition("/?")[0]
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(base + "/api/variants", timeout=5) as answer:
                    data = json.load(answer)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        assert data["default"] == "manx"
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
