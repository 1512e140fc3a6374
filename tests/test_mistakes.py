"""Plausible authoring mistakes (tests/mistakes/*.yaml): each is flagged, in words an
author understands, and the shipped variants are not."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from shipped import variant_params

import patience
from patience.testing import lint

MISTAKES = Path(__file__).parent / "mistakes"

# file -> (finding code, where it points, words the message must contain)
EXPECTED = {
    "tail-takes-while-occupied.yaml": (
        "claim-capacity", "description",
        ["says 'tail holds one run'", "piles.tail.accepts 'source in columns'",
         "already holds", "add 'pile.empty' to the rule"]),
    "set-never-completes.yaml": (
        "never-entered", "piles.foundations.accepts",
        ["no card can ever go to the foundations", "no game can be won",
         "'run.bottom.rank == A' is false"]),
    "deal-skips-empty.yaml": (
        "claim-deal-empty", "description",
        ["says 'empty columns included'", "stock.empty_piles is 'skip'"]),
    "build-without-wrap.yaml": (
        "claim-wrap", "description",
        ["says 'King on Ace'", "no pile ever takes a King on an Ace",
         "goes_on(KS, AC) is false"]),
    "build-in-suit.yaml": (
        "claim-any-suit", "description",
        ["says 'any suit'", "'card.suit == base.suit' is false"]),
    "removal-not-forced.yaml": (
        "claim-forced", "description",
        ["says 'leaves the table at once'", "no pile group has 'removal: forced'"]),
    "wrong-column-count.yaml": (
        "claim-count", "description",
        ["says 'Five columns'", "the variant has 4 columns (piles.columns.count)"]),
    "won-at-the-start.yaml": (
        "won-at-start", "win",
        ["'win: all f in foundations: f.size <= 13' already holds at deal 1"]),
}


def test_every_mistake_file_has_an_expectation():
    assert sorted(p.name for p in MISTAKES.glob("*.yaml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_mistake_is_flagged_with_a_clear_message(name):
    code, where, words = EXPECTED[name]
    findings = lint(patience.find_variant(str(MISTAKES / name)))
    matching = [f for f in findings if f.code == code]
    assert matching, f"{name}: expected a {code} finding, got {[str(f) for f in findings]}"
    finding = matching[0]
    assert finding.where == where
    for word in words:
        assert word in finding.message, f"{name}: {word!r} not in {finding.message!r}"
    assert len(findings) == 1, [str(f) for f in findings]  # one mistake, one finding


@pytest.mark.parametrize("name", variant_params())
def test_shipped_variants_have_no_findings(name):
    assert [str(f) for f in lint(patience.find_variant(name))] == []


def test_patience_test_fails_on_a_mistake_and_says_why():
    from patience.cli.main import main

    result = CliRunner().invoke(main, ["test", str(MISTAKES / "build-without-wrap.yaml"),
                                       "--check", "lint"])
    assert result.exit_code == 1
    assert "FAIL lint" in result.output
    assert "no pile ever takes a King on an Ace" in result.output
