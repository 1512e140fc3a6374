"""`patience play --plain` through a subprocess, and the play command's options."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

COMMAND = [sys.executable, "-c", "from patience.cli.main import main; main()", "play"]


@pytest.fixture
def data_directory(tmp_path):
    return tmp_path / "data"


def play(data_directory, *arguments: str, commands: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([*COMMAND, *arguments], input=commands, capture_output=True, check=False,
                          text=True, timeout=120,
                          env={"PATIENCE_DATA_DIR": str(data_directory), "PATH": "",
                               "PYTHONPATH": ":".join(sys.path)})


def test_plain_mode_plays_explains_undoes_and_saves(data_directory):
    result = play(data_directory, "tabbycat", "--seed", "1", "--plain",
                  commands="d\nc1:1-c3\nclick c2\nu\nr\nmoves\nq\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("Tabby Cat — deal 1")
    assert "c1 | 7D\n" in out
    assert "> d\nc1 | 7D 8D\n" in out
    assert "> c1:1-c3\nerror: 8♦ can't go on J♦: only a 10 goes there\n" in out
    assert "> click c2\n" in out and "c4 | 8H 6D 5S" in out
    assert "undid c2:1-c4" in out and "redid c2:1-c4" in out
    assert "deals left 11 · sets 0/4 · moves 2" in out
    assert "> moves\nc1:1-c2 c1:1-t" in out
    assert "saved to" in out
    save = json.loads((data_directory / "saves" / "tabbycat.json").read_text())
    assert save["moves"] == ["d", "c2:1-c4"] and save["deal_number"] == 1

    resumed = play(data_directory, "--resume", "--plain", commands="u\nq\n")
    assert resumed.returncode == 0, resumed.stderr
    assert "deals left 11 · sets 0/4 · moves 2" in resumed.stdout
    assert "undid c2:1-c4" in resumed.stdout


def test_resume_without_a_save_says_so(data_directory):
    result = play(data_directory, "--resume", "--plain")
    assert result.returncode == 2
    assert "no saved game to resume" in result.stderr


def test_resume_of_a_corrupt_save_is_refused_and_the_file_kept(data_directory):
    data_directory.mkdir()
    path = data_directory / "save.json"
    path.write_bytes(b"\x00garbage{")
    result = play(data_directory, "--resume", "--plain")
    assert result.returncode == 2
    assert "error: the saved game" in result.stderr and "left untouched" in result.stderr
    assert "Traceback" not in result.stderr
    assert path.read_bytes() == b"\x00garbage{"


def test_options_are_checked(data_directory):
    result = play(data_directory, "tabbycat", "--seed", "1", "--daily", "--plain")
    assert result.returncode == 2 and "at most one of" in result.stderr
    result = play(data_directory, "--plain")
    assert result.returncode == 2 and "name a variant" in result.stderr
    result = play(data_directory, "nosuchcat", "--plain")
    assert result.returncode == 2 and "nosuchcat" in result.stderr


def test_a_winnable_deal_stays_proven_through_a_save_and_a_resume(data_directory):
    # the budget the deal was proven with is saved, so that a resumed game's first hint
    # at its start searches as the proof did (Session.proven)
    from patience.play.deals import proof_positions

    result = play(data_directory, "tabbycat", "--winnable", "--plain", commands="q\n")
    assert result.returncode == 0, result.stderr
    path = data_directory / "saves" / "tabbycat.json"
    assert json.loads(path.read_text())["proven"] == proof_positions()
    resumed = play(data_directory, "tabbycat", "--resume", "--plain", commands="d\nu\nq\n")
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(path.read_text())["proven"] == proof_positions()


def test_an_explicit_deal_and_a_variant_file_play(data_directory, tmp_path):
    from patience import find_variant
    from patience.cards import card_code, numbered_deck

    variant = find_variant("manx")
    path = tmp_path / "mine.yaml"
    path.write_text(variant.text.replace("id: manx\n", "id: mymanx\n"), encoding="utf-8")
    deal = " ".join(card_code(card) for card in numbered_deck(9))
    result = play(data_directory, str(path), "--deal", deal, "--plain", commands="d\nq\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Manx — a chosen deal")
    assert "deals left 11" in result.stdout
    assert json.loads((data_directory / "saves" / "mymanx.json").read_text())["variant"] == \
        "mymanx"
    resumed = play(data_directory, "--resume", "--plain", commands="u\n")
    assert resumed.returncode == 0, resumed.stderr
    assert "undid d" in resumed.stdout


def test_the_transcript_in_docs_playing_md_is_what_plain_mode_prints(data_directory):
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "playing.md").read_text("utf-8")
    block = text.split("```text plain-transcript\n", 1)[1].split("\n```", 1)[0]
    command, _, expected = block.partition("\n")
    commands = command.split("printf '", 1)[1].split("'", 1)[0].replace("\\n", "\n")
    arguments = command.split("| patience play ", 1)[1].split()
    result = play(data_directory, *arguments, commands=commands)
    assert result.returncode == 0, result.stderr
    assert result.stdout.replace(str(data_directory), "DATA").rstrip("\n") == expected


def test_each_variant_has_its_own_save_and_resume_finds_it_by_name(data_directory):
    assert play(data_directory, "tabbycat", "--seed", "1", "--plain",
                commands="d\nq\n").returncode == 0
    assert play(data_directory, "manx", "--seed", "2", "--plain",
                commands="d\nd\nq\n").returncode == 0
    assert sorted(p.name for p in (data_directory / "saves").iterdir()) == [
        "manx.json", "tabbycat.json"]
    # with two saved games, --resume alone lists them and how to resume each
    listing = play(data_directory, "--resume", "--plain")
    assert listing.returncode == 2
    assert listing.stderr == ("error: there are 2 saved games; name the one to resume:\n"
                              "  patience play manx --resume   (deal 2, 2 moves)\n"
                              "  patience play tabbycat --resume   (deal 1, 1 move)\n")
    resumed = play(data_directory, "manx", "--resume", "--plain", commands="u\nq\n")
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.startswith("Manx — deal 2") and "undid d" in resumed.stdout
    missing = play(data_directory, "tabbycat-corner", "--resume", "--plain")
    assert missing.returncode == 2
    assert missing.stderr.startswith("error: there is no saved game of tabbycat-corner")


def test_the_one_save_of_earlier_versions_is_still_resumed(data_directory):
    assert play(data_directory, "tabbycat", "--seed", "4", "--plain",
                commands="d\nq\n").returncode == 0
    (data_directory / "saves" / "tabbycat.json").rename(data_directory / "save.json")
    resumed = play(data_directory, "--resume", "--plain", commands="u\nq\n")
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.startswith("Tabby Cat — deal 4") and "undid d" in resumed.stdout
    by_name = play(data_directory, "tabbycat", "--resume", "--plain", commands="q\n")
    assert by_name.returncode == 0 and "resume with 'patience play tabbycat --resume'" in \
        by_name.stdout + by_name.stderr


def test_home_counts_the_foundations_not_the_free_cells(data_directory):
    result = play(data_directory, "freecell", "--seed", "1", "--plain", commands="c1:1-a\nq\n")
    assert result.returncode == 0, result.stderr
    assert "home 0/52 · moves 1" in result.stdout
