"""``patience play`` as a process: refused without a terminal, and in a real terminal (a
pseudo-terminal) SIGTERM and SIGHUP leave a resumable save, as Pilot cannot show."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pty = pytest.importorskip("pty")


def environment(data: Path) -> dict[str, str]:
    return {**os.environ, "PATIENCE_DATA_DIR": str(data), "TERM": "xterm-256color",
            "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def test_full_screen_without_a_terminal_is_refused_at_once(tmp_path):
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "patience", "play", "tabbycat", "--seed",
                             "1"], check=False, stdin=subprocess.DEVNULL, capture_output=True,
                            text=True, env=environment(tmp_path / "data"), timeout=60)
    assert time.monotonic() - started < 30
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == ("error: the full-screen game needs a terminal, and standard input "
                             "or output is not one; use --plain for line mode (commands on "
                             "stdin, positions on stdout)\n")


def test_plain_mode_keeps_working_for_scripts(tmp_path):
    result = subprocess.run([sys.executable, "-m", "patience", "play", "tabbycat", "--seed",
                             "1", "--plain"], input="d\nc1-c3\nc1-t\nq\n", capture_output=True,
                            text=True, check=False, env=environment(tmp_path / "data"), timeout=60)
    assert result.returncode == 0, result.stderr
    assert "> c1-c3\nerror: 8♦ can't go on J♦: " in result.stdout
    assert "> c1-t\nc1 | 7D\n" in result.stdout
    assert json.loads((tmp_path / "data" / "save.json").read_text())["moves"] == ["d", "c1:1-t"]


class Terminal:
    """``patience play`` on a pseudo-terminal of 80×24."""

    def __init__(self, data: Path, *arguments: str) -> None:
        import fcntl
        import struct
        import termios

        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "patience", "play", *arguments], stdin=slave, stdout=slave,
            stderr=slave, env=environment(data), start_new_session=True)
        os.close(slave)
        self.output = b""

    def read_until(self, text: bytes, seconds: float = 60.0) -> None:
        import select

        deadline = time.monotonic() + seconds
        while text not in self.output:
            assert time.monotonic() < deadline, self.output[-2000:]
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    self.output += os.read(self.master, 65536)
                except OSError:  # the other end is closed
                    break

    def drain(self) -> None:
        import select

        while select.select([self.master], [], [], 0)[0]:
            try:
                if not os.read(self.master, 65536):
                    break
            except OSError:
                break

    def wait(self, seconds: float = 30.0) -> int:
        deadline = time.monotonic() + seconds
        while self.process.poll() is None:
            assert time.monotonic() < deadline, "the game did not end"
            self.drain()
            time.sleep(0.05)
        return self.process.returncode

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        try:
            os.close(self.master)
        except OSError:
            pass


@pytest.mark.parametrize("name", ["SIGTERM", pytest.param("SIGHUP", marks=pytest.mark.slow)])
def test_a_signal_saves_the_game(tmp_path, name):
    data = tmp_path / "data"
    terminal = Terminal(data, "tabbycat", "--seed", "1")
    try:
        terminal.read_until(b"deals left 12")
        save = data / "save.json"
        assert not save.exists()  # nothing is saved before a move or a way out
        terminal.process.send_signal(getattr(signal, name))
        terminal.wait()
    finally:
        terminal.close()
    saved = json.loads(save.read_text())
    assert saved["deal_number"] == 1 and saved["moves"] == []
    resumed = subprocess.run([sys.executable, "-m", "patience", "play", "--resume", "--plain"],
                             input="d\nq\n", capture_output=True, text=True, check=False,
                             env=environment(data), timeout=60)
    assert resumed.returncode == 0 and "deals left 11 · sets 0/4 · moves 1" in resumed.stdout


@pytest.mark.slow
def test_a_move_is_saved_at_once_and_sigterm_keeps_it(tmp_path):
    data = tmp_path / "data"
    terminal = Terminal(data, "tabbycat", "--seed", "1")
    try:
        terminal.read_until(b"deals left 12")
        os.write(terminal.master, b"d")
        save = data / "save.json"
        deadline = time.monotonic() + 30
        while not save.exists():
            assert time.monotonic() < deadline
            terminal.drain()
            time.sleep(0.05)
        assert json.loads(save.read_text())["moves"] == ["d"]
        terminal.process.send_signal(signal.SIGTERM)
        terminal.wait()
    finally:
        terminal.close()
    assert json.loads(save.read_text())["moves"] == ["d"]


def test_sigterm_saves_a_game_in_line_mode(tmp_path):
    data = tmp_path / "data"
    process = subprocess.Popen([sys.executable, "-m", "patience", "play", "tabbycat", "--seed",
                                "1", "--plain"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=environment(data))
    try:
        process.stdin.write("d\n")
        process.stdin.flush()
        output = ""
        while "moves 1" not in output:
            line = process.stdout.readline()
            assert line, process.stderr.read()
            output += line
        process.send_signal(signal.SIGTERM)
        out, _ = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0
    assert "saved to" in out
    assert json.loads((data / "save.json").read_text())["moves"] == ["d"]
