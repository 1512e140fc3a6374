"""What ``patience test`` says about itself: a check that could not run (in whole or in
part) says so and why, ``-v`` lists what each check tried, and hypothesis's files go to the
user's cache folder, not the current directory."""

from __future__ import annotations

import os
import subprocess
import sys

from click.testing import CliRunner

import patience
from patience.cli.main import main
from patience.rulestext import rules_text


def test_a_clause_check_that_could_not_run_is_not_reported_ok():
    """The solver wins none of Spider's deals 1-4 within the sample's budget, so the clause
    check never runs: the semantic line says 'part', and why, never 'ok'."""
    result = CliRunner().invoke(main, ["test", "spider", "--check", "semantic"])
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if "semantic" in line)
    assert line.startswith("  part semantic"), line
    assert "skipped: the clause check: the solver won none of deals 1, 2, 3, 4" in line
    assert "0 of 1 checks passed, 1 in part (parts skipped), none failed" in result.output


def test_verbose_lists_what_each_check_tried():
    result = CliRunner().invoke(main, ["test", "tabbycat", "-v", "--examples", "4", "--check",
                                       "round_trips", "--check", "semantic", "--check",
                                       "expect"])
    assert result.exit_code == 0, result.output
    tried = [line.strip() for line in result.output.splitlines()
             if line.strip().startswith("tried:")]
    assert "tried: 4 examples of positions reached by up to 40 random moves from numbered " \
           "deals: position text, JSON, move notation and move lists round-trip" in tried
    assert "tried: expect[1] 'building'" in tried
    assert any(line.startswith("tried: each of 11 clauses of the rules dropped in turn")
               for line in tried)


def test_a_skipped_check_says_skipped():
    result = CliRunner().invoke(main, ["test", "tabbycat", "--check", "safe_moves"])
    line = next(line for line in result.output.splitlines() if "safe_moves" in line)
    assert line.split()[:4] == ["skip", "safe_moves", "(skipped:", "the"], line
    assert "0 of 1 checks passed, 1 skipped, none failed" in result.output


def test_hypothesis_files_go_to_the_user_cache_folder(tmp_path):
    cache = tmp_path / "cache"
    here = tmp_path / "here"
    here.mkdir()
    environment = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run([sys.executable, "-m", "patience", "test", "tabbycat", "--examples",
                           "3", "--check", "round_trips"], cwd=here, env=environment,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert list(here.iterdir()) == []
    assert (cache / "patience" / "hypothesis").is_dir()


def test_rules_text_has_no_stock_sentence_without_a_stock():
    assert "The stock lies face down." not in rules_text(patience.find_variant("freecell"))
    assert "Stock: none." in rules_text(patience.find_variant("freecell"))
    assert "The stock lies face down." in rules_text(patience.find_variant("klondike"))


def test_a_reason_shows_suits_and_colours_by_name_in_a_predicates_parameters(tmp_path):
    """A predicate of suits or colours ('same(a: suit, b: suit)') shows its arguments and its
    parameters' values as ♦ and red, not as the numbers 1 and 1."""
    path = tmp_path / "suited.yaml"
    path.write_text(
        "extends: tabbycat\nid: suited\nname: Suited\ndescription: test\n"
        "predicates:\n"
        "  \"same(a: suit, b: suit)\": a == b\n"
        "  \"warm(a: color)\": a == red\n"
        "piles:\n  columns:\n"
        "    accepts: pile.empty or (same(run.bottom.suit, pile.top.suit) and "
        "warm(run.bottom.color))\n"
        "expect:\n  - inherited: drop\n", encoding="utf-8")
    variant = patience.find_variant(str(path))
    game = variant.deal(1)  # c:7D/9C/4D/8H
    assert game.explain("c1:1-c2").endswith(
        "same(♦, ♣) is false: 'a == b' is false ('a' is ♦, 'b' is ♣)")
    text = game.text().replace("4D", "XX", 1).replace("4C", "4D").replace("XX", "4C")
    game = variant.position(text)  # c:7D/9C/4C/8H: 9C onto 4C keeps the suit
    assert game.explain("c2:1-c3").endswith(
        "warm(black) is false: 'a == red' is false ('a' is black)")
