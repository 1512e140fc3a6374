"""Hypothesis's files (its example database, the constants it collects) go to the user's
cache folder, or to HYPOTHESIS_STORAGE_DIRECTORY, never into the current directory: neither
``patience test`` nor ``pytest --patience-variant`` leaves a ``.hypothesis`` folder behind
(docs/testing.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KITTEN = str(ROOT / "docs" / "examples" / "kitten.yaml")


def _environment(tmp_path: Path, **more: str) -> dict[str, str]:
    environment = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"),
                   "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    environment.pop("HYPOTHESIS_STORAGE_DIRECTORY", None)
    environment.update(more)
    return environment


def test_the_pytest_plugin_keeps_hypothesis_files_in_the_user_cache(tmp_path):
    here = tmp_path / "project"
    here.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--patience-variant",
         KITTEN, "--patience-examples", "2", "-k", "push_pop or legal"],
        capture_output=True, text=True, cwd=here, env=_environment(tmp_path), timeout=300,
        check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert list(here.iterdir()) == []
    # what hypothesis wrote, if it wrote anything this run, is in the cache folder
    written = [p for p in tmp_path.rglob("*") if p.is_file() and "project" not in p.parts]
    assert all((tmp_path / "cache" / "patience" / "hypothesis") in p.parents for p in written)


def test_patience_test_keeps_them_where_hypothesis_storage_directory_says(tmp_path):
    here = tmp_path / "project"
    here.mkdir()
    chosen = tmp_path / "chosen"
    done = subprocess.run(
        [sys.executable, "-m", "patience", "test", KITTEN, "--examples", "2", "--check",
         "push_pop_restores"], capture_output=True, text=True, cwd=here,
        env=_environment(tmp_path, HYPOTHESIS_STORAGE_DIRECTORY=str(chosen)), timeout=300,
        check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert list(here.iterdir()) == []
    # what hypothesis wrote, if it wrote anything this run, is in the chosen folder
    written = [p for p in tmp_path.rglob("*") if p.is_file() and "project" not in p.parts]
    assert all(chosen in p.parents for p in written)
    assert not (tmp_path / "cache" / "patience" / "hypothesis").exists()
