"""The definitions kept on disk (patience/defcache.py): used when whole and current, made
again when damaged, stale or foreign, never running another program's code."""

from __future__ import annotations

import hashlib
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from patience import defcache
from patience.definition import load_definition
from patience.variant import resolve

GOLF = Path(__file__).resolve().parent.parent / "variants" / "golf.yaml"
CHILD = "extends: parent.yaml\nid: child\nname: Child\n"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PATIENCE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache" / "definitions"


def loads(path: Path, calls: list[Path]):
    """A load for cached_definition that counts its calls."""
    def load(record):
        calls.append(path)
        return load_definition(path, resolve, path.read_text(), record)
    return load


def definition(path: Path, calls: list[Path]):
    return defcache.cached_definition(path, path.read_text(), loads(path, calls))


def test_a_definition_is_read_once_then_taken_from_the_cache(cache):
    calls: list[Path] = []
    first = definition(GOLF, calls)
    second = definition(GOLF, calls)
    assert calls == [GOLF]
    assert second == first and second is not first
    assert [p.name.endswith(".pickle") for p in cache.iterdir()] == [True]


def test_a_damaged_entry_is_made_again_and_written_over(cache):
    calls: list[Path] = []
    good = definition(GOLF, calls)
    (entry,) = cache.iterdir()
    data = bytearray(entry.read_bytes())
    data[-10] ^= 0xFF                              # a flipped byte: the checksum fails
    entry.write_bytes(bytes(data))
    assert definition(GOLF, calls) == good and len(calls) == 2
    assert definition(GOLF, calls) == good and len(calls) == 2   # whole again


def test_an_entry_that_would_run_code_is_never_unpickled(cache, tmp_path):
    calls: list[Path] = []
    good = definition(GOLF, calls)
    (entry,) = cache.iterdir()
    marker = tmp_path / "ran"
    for payload in (pickle.dumps(([], os.system)), pickle.dumps(([], _Touch(str(marker))))):
        entry.write_bytes(defcache.HEADER + hashlib.sha256(payload).hexdigest().encode()
                          + b"\n" + payload)
        assert definition(GOLF, calls) == good
    assert not marker.exists()


class _Touch:
    """Unpickling this would create a file (through os.open): the cache must refuse it."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self):
        return (os.open, (self.path, os.O_CREAT | os.O_WRONLY))


def test_a_changed_parent_makes_the_child_again(cache, tmp_path):
    parent = tmp_path / "parent.yaml"
    parent.write_text(GOLF.read_text())
    child = tmp_path / "child.yaml"
    child.write_text(CHILD)
    calls: list[Path] = []
    assert definition(child, calls).name == "Child"
    definition(child, calls)
    assert calls == [child]
    parent.write_text(GOLF.read_text().replace("count: 7", "count: 6"))
    changed = definition(child, calls)
    assert len(calls) == 2
    assert [g.count for g in changed.groups if g.name == "columns"] == [6]


def test_a_file_that_is_not_ours_is_left_as_it_is(cache):
    calls: list[Path] = []
    definition(GOLF, calls)
    (entry,) = cache.iterdir()
    entry.write_bytes(b"someone else's notes\n")
    definition(GOLF, calls)
    definition(GOLF, calls)
    assert len(calls) == 3 and entry.read_bytes() == b"someone else's notes\n"


def test_an_unwritable_cache_and_a_cache_turned_off_cost_nothing(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv("PATIENCE_CACHE_DIR", str(blocked))        # not a folder
    calls: list[Path] = []
    assert definition(GOLF, calls) == definition(GOLF, calls) and len(calls) == 2
    monkeypatch.setenv("PATIENCE_CACHE_DIR", "off")
    assert defcache.folder() is None
    definition(GOLF, calls)
    assert len(calls) == 3


def test_the_oldest_entries_go_beyond_the_limit(cache, monkeypatch):
    monkeypatch.setattr(defcache, "MAX_ENTRIES", 2)
    cache.mkdir(parents=True)
    foreign = cache / ("0" * 64 + ".pickle")
    foreign.write_bytes(b"not ours")
    os.utime(foreign, ns=(0, 0))
    calls: list[Path] = []
    for name in ("golf", "freecell", "klondike"):
        definition(resolve(name), calls)
    ours = [p for p in cache.iterdir() if p != foreign]
    assert len(ours) == 2 and foreign.exists()


def test_a_command_uses_the_cache(tmp_path):
    env = {**os.environ, "PATIENCE_CACHE_DIR": str(tmp_path)}
    command = [sys.executable, "-m", "patience", "show", "golf", "--seed", "3"]
    first = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    entries = list((tmp_path / "definitions").iterdir())
    assert len(entries) == 1
    again = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    assert again.stdout == first.stdout
    assert list((tmp_path / "definitions").iterdir()) == entries
