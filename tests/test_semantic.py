"""Semantic checks that need no statement of intent: the win is reachable, every clause
matters, every pile group is entered and left, every deal target receives cards."""

from __future__ import annotations

from pathlib import Path

import pytest

import patience
from patience.testing.semantic import semantic_findings

ROOT = Path(__file__).resolve().parent.parent
MISTAKES = Path(__file__).parent / "mistakes" / "semantic"
TABBYCAT = ROOT / "variants" / "tabbycat.yaml"

# file -> (check, the rule it names, the line it points at, the message)
EXPECTED = {
    "win-never-holds.yaml": (
        "win-unreachable", "win", ("win-never-holds.yaml", 8),
        ("no game can be won: the win needs each of the foundations to hold 14 cards, but "
        "piles.foundations.accepts lets cards in only while the pile is empty, at most 13 at "
        "a time ('run.size == 13'): a pile there never holds more than 13")),
    "twelve-card-set.yaml": (
        "win-unreachable", "win", (str(TABBYCAT), 47),
        ("no game can be won: the win needs each of the foundations to hold 13 cards, but "
        "piles.foundations.accepts lets cards in only while the pile is empty, at most 12 at "
        "a time ('run.size == 12'): a pile there never holds more than 12")),
    "clause-never-matters.yaml": (
        "clause-never-matters", "piles.tail.accepts", ("clause-never-matters.yaml", 11),
        ("the clause 'pile.size < 2' never changes which moves are legal on the sample "
        "(random play and the solver's winning lines from deals 1-4): the rule reads the same "
        "without it")),
    "tail-never-left.yaml": (
        "never-left", "piles.tail.moves", ("tail-never-left.yaml", 10),
        ("no card left the tail on the sample (random play from deals 1-16), though cards "
         "entered it")),
    "no-deal.yaml": (
        "deal-target-empty", "stock.deal_when", ("no-deal.yaml", 9),
        "no deal happened on the sample although the stock holds cards"),
}


def test_every_mistake_file_has_an_expectation():
    assert sorted(p.name for p in MISTAKES.glob("*.yaml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_mistake_is_found_and_named(name):
    check, rule, (path, line), message = EXPECTED[name]
    found = semantic_findings(patience.find_variant(MISTAKES / name))
    assert [(f.check, f.rule, f.message) for f in found] == [(check, rule, message)]
    location = found[0].location
    assert location is not None
    assert (Path(location.path).name, location.line) == (Path(path).name, line)
    assert str(found[0]) == f"{location.path}:{line}: {rule}: {message}"


def test_the_lint_misses_what_the_semantic_checks_find():
    from patience.testing import lint

    for name in EXPECTED:
        assert lint(patience.find_variant(MISTAKES / name)) == [], name


def test_tabbycat_has_no_finding():
    assert semantic_findings(patience.find_variant("tabbycat")) == []


EXAMPLES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs" / "examples").glob("*.yaml"))


@pytest.mark.slow
@pytest.mark.parametrize("name", patience.shipped_variants() + EXAMPLES)
def test_no_false_alarm_on_a_correct_file(name):
    # a finding the file acknowledges (expect: - known: [CODE] why: ...) is right about the
    # rules and expected for the game (Russian Solitaire's lost sample), not an alarm
    from patience.testing.battery import acknowledged

    path = ROOT / name if name.endswith(".yaml") else name
    variant = patience.find_variant(path)
    known = acknowledged(variant)
    assert [str(f) for f in semantic_findings(variant) if f.check not in known] == []
