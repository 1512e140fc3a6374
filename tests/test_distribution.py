"""The distribution: its name on PyPI (not ``patience``, an unrelated program there), its
license file, its metadata and extras, and every install hint saying that name."""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from patience import distribution

tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_the_distribution_name_is_not_the_unrelated_patience_on_pypi():
    assert PROJECT["name"] == distribution.NAME == "patience-cards"
    assert PROJECT["scripts"] == {"patience": "patience.cli:main"}  # the command stays


def test_the_license_file_is_in_the_repository_and_named_in_the_metadata():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]


def test_classifiers_and_the_extras_of_a_player_an_author_and_a_contributor():
    assert "Programming Language :: Rust" in PROJECT["classifiers"]
    assert any(c.startswith("Topic :: Games/Entertainment") for c in PROJECT["classifiers"])
    extras = PROJECT["optional-dependencies"]
    assert {"play", "web", "author", "dev"} <= set(extras)
    developer_tools = ("mypy", "ruff", "playwright")
    for extra in ("play", "web", "author"):  # no developer tools for players and authors
        assert not [d for d in extras[extra] if d.startswith(developer_tools)], extra
    assert any(d.startswith("hypothesis") for d in extras["author"])
    assert any(d.startswith("textual") for d in extras["play"])
    assert extras["dev"] == ["patience-cards[play,web,author,test,dask,plot,deals]"]


def test_every_install_hint_names_the_distribution():
    wrong = re.compile(r"pip install '?patience[\[' ]|needs patience\[")
    files = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md"),
             *(ROOT / "patience").rglob("*.py")]
    found = [f"{path.relative_to(ROOT)}:{number}" for path in files
             for number, line in enumerate(path.read_text().splitlines(), start=1)
             if wrong.search(line)]
    assert found == []
    readme = (ROOT / "README.md").read_text()
    first_block = readme.split("```")[1]
    assert first_block.splitlines()[1].startswith("pip install '.[play]'")  # works in a clone
    assert "pip install 'patience-cards[play]'" in readme.split("```")[2]  # the name, in prose


def test_the_hints_the_commands_print_name_the_distribution():
    assert distribution.install_hint("play") == "pip install 'patience-cards[play]'"


@pytest.mark.slow
def test_the_sdist_carries_the_license(tmp_path):
    subprocess.run([sys.executable, "-m", "build", "--sdist", "-o", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True)
    (sdist,) = tmp_path.glob("patience_cards-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
        metadata = archive.extractfile(next(n for n in names if n.endswith("/PKG-INFO")))
        assert metadata is not None
        info = metadata.read().decode()
    assert any(name.endswith("/LICENSE") for name in names)
    assert "Name: patience-cards" in info and "License-Expression: MIT" in info
