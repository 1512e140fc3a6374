"""The command line as scripts use it: one ``--json`` flag on every command that reports
something, progress on stderr for a search over a second (``--quiet``: none), and Ctrl+C on
a search printing what was found so far with exit status 130."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
KITTEN = str(ROOT / "docs" / "examples" / "kitten.yaml")
# a search that runs until stopped: proving a Klondike deal with a huge budget
ENDLESS = ["solve", "klondike", "--seed", "1", "--prove", "--max-positions", "1000000000"]


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "patience", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=timeout, check=False)


def json_of(*args: str) -> object:
    done = run_cli(*args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_every_reporting_command_takes_json(tmp_path):
    assert any(v["id"] == "tabbycat" for v in json_of("variants"))
    assert "d" in json_of("moves", "tabbycat", "--seed", "1")["moves"]
    perft = json_of("perft", "tabbycat", "--seed", "1", "--depth", "2", "--divide")
    assert perft["leaves"] == sum(perft["divide"].values()) == 52
    assert json_of("show", "tabbycat", "--seed", "1")["variant"] == "tabbycat"
    assert json_of("check", KITTEN)["ok"] is True
    hint = json_of("hint", "manx", "--seed", "2", "--moves", "d")
    assert hint["verdict"] == "won" and hint["move"] and hint["information"] == "full"
    found = json_of("deal", "tabbycat", "--winnable", "--from", "1")
    assert found["deal"] == "1" and found["moves"]
    daily = json_of("daily", "tabbycat", "--date", "2026-01-01")
    assert daily["date"] == "2026-01-01" and isinstance(daily["deal"], int)
    diff = json_of("diff", "tabbycat", "manx", "--deals", "1")
    assert [r["key"] for r in diff["rules"]] == ["piles.tail.moves", "piles.tail.accepts"]
    tested = json_of("test", KITTEN, "--examples", "3", "--check", "cards_exactly_once")
    assert tested["ok"] is True and tested["checks"][0]["status"] == "passed"
    db = str(tmp_path / "results.sqlite")
    stats = json_of("stats", "tabbycat", "--deals", "1-3", "--max-positions", "2000",
                    "--workers", "1", "--quiet", "--db", db)
    assert stats["deals"] == 3 and stats["won"] + stats["unwinnable"] + stats["unknown"] == 3


@pytest.mark.slow  # 5 s: a search that runs over a second
def test_a_search_over_a_second_shows_its_progress_on_stderr():
    done = run_cli(*ENDLESS, "--time-limit", "2.5")
    assert done.returncode == 0
    line = done.stderr.splitlines()[0]
    assert line.startswith("solving: ") and " positions, " in line and "/s, " in line
    assert done.stdout.startswith("unknown\n")
    quiet = run_cli(*ENDLESS, "--time-limit", "2.5", "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_a_quick_search_prints_no_progress():
    done = run_cli("solve", "tabbycat", "--seed", "1")
    assert done.returncode == 0 and done.stderr == ""


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")
@pytest.mark.parametrize("engine", ["native", pytest.param("python", marks=pytest.mark.slow)])
def test_ctrl_c_on_a_search_prints_the_result_so_far_and_exits_130(engine):
    from patience import native

    if engine == "native" and not native.AVAILABLE:
        pytest.skip("the native core is not built")
    # as from a terminal: Ctrl+C raises KeyboardInterrupt (a child of a process started in
    # the background would inherit an ignored SIGINT)
    start = ("import runpy, signal, sys; signal.signal(signal.SIGINT, "
             "signal.default_int_handler); sys.argv = ['patience'] + sys.argv[1:]; "
             "runpy.run_module('patience', run_name='__main__')")
    process = subprocess.Popen(
        [sys.executable, "-c", start, *ENDLESS, "--engine", engine, "--json"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(3)  # started, and searching
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    result = json.loads(out)
    assert result["verdict"] == "unknown" and result["interrupted"] is True
    assert result["positions"] > 0
    assert "Aborted" not in err and "Traceback" not in err


def test_the_pytest_plugin_says_in_one_line_that_hypothesis_is_missing(tmp_path):
    hidden = tmp_path / "hidden"
    hidden.mkdir()
    (hidden / "hypothesis.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'hypothesis'\", name='hypothesis')\n")
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(hidden), str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:hypothesispytest",
         "--patience-variant", KITTEN], capture_output=True, text=True, cwd=tmp_path,
        env=environment, timeout=120, check=False)
    assert done.returncode == 4  # pytest's usage error
    assert "INTERNALERROR" not in done.stdout + done.stderr
    assert done.stderr.strip() == ("ERROR: --patience-variant needs 'hypothesis', which is not "
                                   "installed: pip install 'patience-cards[author]'")


def test_stats_with_a_database_suggests_the_report_of_that_database(tmp_path):
    db = str(tmp_path / "my results.sqlite")
    done = run_cli("stats", "tabbycat", "--deals", "1-2", "--max-positions", "2000",
                   "--workers", "1", "--quiet", "--db", db)
    assert done.returncode == 0, done.stderr
    suggested = done.stdout.splitlines()[-1].split("'", 1)[1].rsplit("'", 1)[0]
    assert suggested == f"patience report tabbycat --db '{db}'"
    report = run_cli(*shlex.split(suggested)[1:])
    assert report.returncode == 0 and "deals       2 (numbers 1 to 2)" in report.stdout


def test_shell_completion_completes_commands_and_options():
    environment = {**os.environ, "_PATIENCE_COMPLETE": "bash_complete",
                   "COMP_WORDS": "patience solve tabbycat --js", "COMP_CWORD": "3"}
    command = "from patience.cli import main; main(prog_name='patience')"  # the script's
    done = subprocess.run([sys.executable, "-c", command], capture_output=True, text=True,
                          cwd=ROOT, env=environment, timeout=60, check=False)
    assert done.stdout.split() == ["plain,--json"]
    readme = (ROOT / "README.md").read_text()
    assert 'eval "$(_PATIENCE_COMPLETE=bash_source patience)"' in readme


def test_the_readmes_plugin_line_runs_the_battery_alone_in_a_clone():
    (line,) = [line for line in (ROOT / "README.md").read_text().splitlines()
               if line.startswith("pytest --patience-variant")]
    arguments = shlex.split(line, comments=True)[1:]
    done = subprocess.run([sys.executable, "-m", "pytest", *arguments, "--collect-only", "-q",
                           "-p", "no:cacheprovider"], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    collected = [item for item in done.stdout.splitlines() if "::" in item or "[" in item]
    assert collected and all("patience[docs/examples/kitten.yaml-" in item
                             for item in collected), collected[:5]


def test_a_search_run_from_another_thread_keeps_pythons_ctrl_c():
    import threading

    from click.testing import CliRunner

    from patience.cli.main import main

    outcome = {}
    run = threading.Thread(target=lambda: outcome.update(result=CliRunner().invoke(
        main, ["solve", "tabbycat", "--seed", "1", "--json"])))
    run.start()
    run.join(timeout=120)
    result = outcome["result"]
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["verdict"] == "won"
