"""The command line: patience variants / rules / check / show / moves / perft.

Bad input (unknown variant, malformed deal, illegal or unreadable move, bad position) exits
with status 2 and a message naming the bad input, never a traceback. ``check`` exits 1 with
located errors, 0 with a one-line summary. Output meant for programs is plain: ``moves``
sorted as plain strings, ``perft --divide`` one ``MOVE COUNT`` line per legal move and the
bare total last.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from rules_helpers import build

import patience
from patience.cards import card_code, numbered_deck
from patience.cli.main import main

REPOSITORY = Path(__file__).resolve().parent.parent
BROKEN = Path(__file__).parent / "broken"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def assert_usage_error(result, *fragments: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    for fragment in fragments:
        assert fragment in result.stderr


def deal_1_codes() -> list[str]:
    return [card_code(card) for card in numbered_deck(1)]


# --- variants, rules, check -----------------------------------------------------------------


def test_variants_groups_the_shipped_variants_by_family():
    result = run("variants")
    assert result.exit_code == 0
    listed = [line.split()[0] for line in result.stdout.splitlines() if line.startswith("  ")]
    assert sorted(listed) == patience.shipped_variants()
    headings = [line[:-1] for line in result.stdout.splitlines() if line.endswith(":")]
    assert headings == sorted({patience.find_variant(n).family
                               for n in patience.shipped_variants()})


def test_variants_plain_lists_every_shipped_variant_with_its_description():
    result = run("variants", "--plain")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert [line.split("\t")[0] for line in lines] == patience.shipped_variants()
    for line in lines:
        name, description = line.split("\t")
        assert description == patience.find_variant(name).description


@pytest.mark.parametrize("name", ["tabbycat", "nowrap", "Tabby-Cat", "mainecoon"])
def test_rules_prints_the_generated_rules(name):
    result = run("rules", name)
    assert result.exit_code == 0
    assert result.stdout.strip() == patience.find_variant(name).rules_text().strip()


def test_rules_of_an_unknown_variant():
    assert_usage_error(run("rules", "tabbycatt"), "unknown variant 'tabbycatt'",
                       "did you mean 'tabbycat'?")


@pytest.mark.parametrize("name", patience.shipped_variants())
def test_check_a_good_file_exits_0_with_a_one_line_summary(name):
    path = str(REPOSITORY / "variants" / f"{name}.yaml")
    result = run("check", path)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    variant = patience.find_variant(name)
    assert lines[0].startswith(f"{path}: ok: {variant.id} ")
    assert variant.rules_hash in lines[0]


def test_check_a_broken_file_exits_1_with_located_errors():
    path = str(BROKEN / "two_errors.yaml")
    result = run("check", path)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert f"{path}:5:8: decks must be from 1 to 8, not 0" in result.stderr
    assert f"{path}:9:24: in piles.tail.moves: a pile has no attribute 'sise'" in result.stderr
    assert result.stderr.rstrip().splitlines()[-1] == f"{path}: 2 errors"


def test_check_a_missing_file_exits_1():
    result = run("check", "no/such/file.yaml")
    assert result.exit_code == 1
    assert "no/such/file.yaml" in result.stderr
    assert "Traceback" not in result.output


# --- show -----------------------------------------------------------------------------------


def test_show_text_and_json():
    result = run("show", "tabbycat", "--seed", "1", "--moves", "c1:1-t d", "--format", "text")
    assert result.exit_code == 0
    game = patience.find_variant("tabbycat").deal(1)
    game.push("c1:1-t")
    game.push("d")
    assert result.stdout.strip() == game.text()
    result = run("show", "tabbycat", "--seed", "1", "--format", "json")
    assert json.loads(result.stdout) == patience.find_variant("tabbycat").deal(1).to_json()


def test_show_board_of_a_won_position():
    won = build("tabbycat", ["", "", "", ""], rest="foundations")
    result = run("show", "tabbycat", "--position", won.text())
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1] == "won"


def test_show_a_position_from_a_file(tmp_path):
    game = build("manx", ["KS", "", "2D 5C", "9H"], tail="7H")
    path = tmp_path / "position.txt"
    path.write_text(game.text() + "\n", encoding="utf-8")
    result = run("show", "manx", "--position", str(path), "--format", "text")
    assert result.exit_code == 0
    assert result.stdout.strip() == game.text()


# --- moves ----------------------------------------------------------------------------------


def test_moves_of_deal_1():
    result = run("moves", "tabbycat", "--seed", "1")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["c1:1-c4", "c1:1-t", "c2:1-t", "c3:1-t", "c4:1-c2",
                                          "c4:1-t", "d"]


def test_moves_are_sorted_as_plain_strings():
    # as plain strings '-' sorts before '0': c1:1-t, c1:10-c4, c1:10-t, c1:2-t …
    game = build("tabbycat", ["KS QS JS TS 9S 8S 7S 6S 5S 4S", "3S", "2S", "AS"])
    result = run("moves", "tabbycat", "--position", game.text())
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines == sorted(lines)
    assert lines[:4] == ["c1:1-t", "c1:10-c4", "c1:10-t", "c1:2-t"]
    assert lines[-3:] == ["c4:1-c3", "c4:1-t", "d"]


def test_moves_after_moves():
    result = run("moves", "tabbycat", "--seed", "1", "--moves", "c1:1-t")
    assert result.stdout.splitlines() == ["c2:1-c1", "c3:1-c1", "c4:1-c1", "c4:1-c2", "d",
                                          "t:1-c1", "t:1-c4"]


@pytest.mark.parametrize("command", [["moves"], ["show"], ["perft", "--depth", "2"]])
def test_an_unknown_variant(command):
    assert_usage_error(run(command[0], "tabbycatz", *command[1:], "--seed", "1"),
                       "unknown variant 'tabbycatz'")


def test_a_deal_with_the_wrong_count():
    assert_usage_error(run("moves", "tabbycat", "--deal", "7D 9C 4D"), "52 cards", "got 3")


def test_a_deal_with_a_duplicate_card():
    cards = deal_1_codes()
    cards[5] = cards[4]  # 8D twice, 5S missing
    assert_usage_error(run("moves", "tabbycat", "--deal", " ".join(cards)), "8D")


def test_a_deal_with_an_unknown_card():
    cards = deal_1_codes()
    cards[5] = "1X"
    assert_usage_error(run("moves", "tabbycat", "--deal", " ".join(cards)), "'1X'")


def test_an_explicit_deal_is_the_numbered_deal_written_out():
    result = run("moves", "tabbycat", "--deal", " ".join(deal_1_codes()))
    assert result.exit_code == 0
    assert result.stdout == run("moves", "tabbycat", "--seed", "1").stdout


@pytest.mark.parametrize("command", [["moves"], ["show"], ["perft", "--depth", "1"]])
def test_an_illegal_move_in_moves(command):
    # 8D (c1 after the deal) does not go on 5S
    assert_usage_error(run(command[0], "tabbycat", *command[1:], "--seed", "1",
                           "--moves", "d c1:1-c2"), "move 2", "'c1:1-c2'")


def test_an_unreadable_move_in_moves():
    assert_usage_error(run("moves", "tabbycat", "--seed", "1", "--moves", "d zz"),
                       "move 2", "'zz'")


def test_a_move_naming_no_pile():
    assert_usage_error(run("moves", "tabbycat", "--seed", "1", "--moves", "c9:1-c1"),
                       "'c9'")


def test_a_bad_position():
    assert_usage_error(run("moves", "tabbycat", "--position", "c:7D t: f:/// s:"),
                       "c: has 1 pile")


def test_start_options_are_exclusive():
    assert_usage_error(run("moves", "tabbycat", "--seed", "1", "--deal", "7D"), "--seed")
    assert_usage_error(run("moves", "tabbycat"), "exactly one of")


# --- perft ----------------------------------------------------------------------------------


def test_perft_prints_the_bare_total():
    result = run("perft", "tabbycat", "--seed", "1", "--depth", "3")
    assert result.exit_code == 0
    assert result.stdout == "379\n"


def test_perft_divide_prints_a_line_per_legal_move_then_the_total():
    result = run("perft", "tabbycat", "--seed", "1", "--depth", "2", "--divide")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    # worked out by hand in test_perft.py
    assert lines == ["c1:1-c4 10", "c1:1-t 7", "c2:1-t 6", "c3:1-t 7", "c4:1-c2 10",
                     "c4:1-t 6", "d 6", "52"]
    moves = run("moves", "tabbycat", "--seed", "1").stdout.splitlines()
    assert [line.split()[0] for line in lines[:-1]] == moves


def test_perft_divide_after_moves_and_on_a_won_position():
    result = run("perft", "manx", "--seed", "1", "--moves", "c1:1-c4", "--depth", "1",
                 "--divide")
    lines = result.stdout.splitlines()
    assert lines[-1] == str(len(lines) - 1) == "9"
    assert all(line.endswith(" 1") for line in lines[:-1])
    won = build("tabbycat", ["", "", "", ""], rest="foundations")
    result = run("perft", "tabbycat", "--position", won.text(), "--depth", "3", "--divide")
    assert result.exit_code == 0
    assert result.stdout == "0\n"


# --- a real process -------------------------------------------------------------------------


def test_a_real_process():
    env = {**os.environ, "PYTHONPATH": str(REPOSITORY)}
    done = subprocess.run(
        [sys.executable, "-m", "patience", "perft", "tabbycat", "--seed", "1",
         "--depth", "2", "--divide"],
        capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "52"
    done = subprocess.run(
        [sys.executable, "-m", "patience", "moves", "nosuchcat", "--seed", "1"],
        capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 2
    assert "error: unknown variant 'nosuchcat'" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow  # 'patience variants' compiles every shipped variant: 5-15 s
def test_a_real_process_writes_nothing_to_stderr_on_success():
    env = {**os.environ, "PYTHONPATH": str(REPOSITORY)}
    done = subprocess.run([sys.executable, "-m", "patience", "variants"],
                          capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0
    assert done.stderr == ""
