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

# file -> (finding code, where it points, the exact message)
EXPECTED = {
    "build-in-suit.yaml": (
        "claim-any-suit", "description",
        ("says 'any suit', but no pile takes a card on a card of another suit; for 9D onto TC "
         "in the columns: piles.columns.accepts 'pile.empty or goes_on(run.bottom, pile.top)' "
         "is false: c1 is not empty; and goes_on(9D, TC) is false: 'card.suit == base.suit' "
         "is false ('card.suit' is ♦, 'base.suit' is ♣)")),
    "build-without-wrap.yaml": (
        "claim-wrap", "description",
        ("says 'King on Ace', but no pile ever takes a King on an Ace; for KS onto AC in the "
         "columns: piles.columns.accepts 'pile.empty or goes_on(run.bottom, pile.top)' is "
         "false: c1 is not empty; and goes_on(KS, AC) is false: 'card.rank == base.rank - 1' "
         "is false ('card.rank' is 13, 'base.rank - 1' is 0)")),
    "claim-in-a-comment.yaml": (
        "claim-count", "claim-in-a-comment.yaml:9 (claim)",
        ("says 'five columns', but the variant has 4 columns (piles.columns.count)")),
    "deal-says-skip.yaml": (
        "claim-deal-empty", "description",
        ("says 'skips empty', but stock.empty_piles is 'include': a deal puts a card on empty "
         'piles too')),
    "deal-skips-empty.yaml": (
        "claim-deal-empty", "description",
        ("says 'empty columns included', but stock.empty_piles is 'skip': a deal passes over "
         'empty piles')),
    "deals-in-all.yaml": (
        "claim-count", "description",
        ("says 'twelve deals', but the variant has 8 deals (stock size / cards per deal)")),
    "removal-not-forced.yaml": (
        "claim-forced", "description",
        ("says 'leaves the table at once', but no pile group has 'removal: forced', so cards "
         'only leave when the player moves them')),
    "sequence-departs-at-once.yaml": (
        "claim-forced", "description",
        ("says 'departs at once', but no pile group has 'removal: forced', so cards only "
         'leave when the player moves them')),
    "set-from-the-tail.yaml": (
        "claim-set-source", "description",
        ("says 'complete sets go to the foundations only from the columns', but "
         "piles.foundations.accepts 'pile.empty and complete_set(run)' lets a complete set "
         "(KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC) go from the tail onto an empty foundations "
         "pile; add 'source in columns' to the rule")),
    "set-never-completes.yaml": (
        "never-entered", "piles.foundations.accepts",
        ('no card can ever go to the foundations: no run I built (1 to 13 cards going down or '
         'up, in one suit or mixed, with and without wrap, from any other pile) passes this '
         "rule and the source's 'moves' rule; and 'win: all f in foundations: f.size == 13' "
         'needs the foundations, so no game can be won. For example, for KC QC JC TC 9C 8C 7C '
         "6C 5C 4C 3C 2C AC: piles.foundations.accepts 'pile.empty and source in columns and "
         "complete_set(run)' is false: complete_set(KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC) "
         "is false: 'run.bottom.rank == A' is false ('run.bottom.rank' is 13)")),
    "tail-holds-one-card.yaml": (
        "claim-capacity", "description",
        ("says 'tail holds a single card', but piles.tail.accepts 'pile.empty and source in "
         "columns' lets an empty tail take 3 cards (KC QC JC) from the columns")),
    "tail-stores-a-second-sequence.yaml": (
        "claim-capacity", "description",
        ("says 'tail can store a single sequence', but piles.tail.accepts 'source in columns' "
         "lets a tail pile that already holds AC take KC from the columns; add 'pile.empty' "
         'to the rule')),
    "tail-takes-while-occupied.yaml": (
        "claim-capacity", "description",
        ("says 'tail holds one run', but piles.tail.accepts 'source in columns' lets a tail "
         "pile that already holds AC take KC from the columns; add 'pile.empty' to the rule")),
    "won-at-the-start.yaml": (
        "won-at-start", "win",
        ("'win: all f in foundations: f.size <= 13' already holds at deal 1 before any move "
         '(c:7D/9C/4D/8H t: f:/// '
         's:8D5SJD6D9SJC5DKD3C2DJH5H7H4H2CAD6SKCKHTHTSJSTD8SQC4S6C7CAS5CAHKS6HQSQHQD9D3D3SAC4C'
         '2H8CTC3H2S9H7S): every game is won at once')),
    "wrap-denied-but-allowed.yaml": (
        "claim-no-wrap", "description",
        ("says 'King may not be placed on an Ace', but the rules let a King go on an Ace: "
         "piles.columns.accepts 'pile.empty or goes_on(run.bottom, pile.top)' lets KC from "
         "the columns go onto AC")),
    "wrap-in-other-words.yaml": (
        "claim-wrap", "description",
        ("says 'Kings may be played on Aces', but no pile ever takes a King on an Ace; for KS "
         "onto AC in the columns: piles.columns.accepts 'pile.empty or goes_on(run.bottom, "
         "pile.top)' is false: c1 is not empty; and goes_on(KS, AC) is false: 'card.rank == "
         "base.rank - 1' is false ('card.rank' is 13, 'base.rank - 1' is 0)")),
    "wrong-column-count.yaml": (
        "claim-count", "description",
        ("says 'Five columns', but the variant has 4 columns (piles.columns.count)")),
}


def test_every_mistake_file_has_an_expectation():
    assert sorted(p.name for p in MISTAKES.glob("*.yaml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_mistake_is_flagged_with_a_clear_message(name):
    code, where, message = EXPECTED[name]
    findings = lint(patience.find_variant(str(MISTAKES / name)))
    assert [(f.code, f.where, f.message) for f in findings] == [(code, where, message)]


CORRECT = sorted((MISTAKES / "correct").glob("*.yaml"))
EXAMPLES = sorted((Path(__file__).parent.parent / "docs" / "examples").glob("*.yaml"))


def test_the_correct_files_are_there():
    assert len(CORRECT) >= 3 and EXAMPLES


@pytest.mark.parametrize("path", CORRECT + EXAMPLES, ids=lambda p: p.name)
def test_correct_files_with_notes_have_no_findings(path):
    """Comments that summarise other games, or the sources, are no claims (only a comment
    marked '# claim:' is), and a negated claim in the description is no claim either."""
    assert [str(f) for f in lint(patience.find_variant(str(path)))] == []


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


def test_an_unsafe_safe_declaration_is_caught() -> None:
    """solver.safe calling every move home safe (wrong in FreeCell): the battery's
    safe_moves check finds a won position the reduced search calls unwinnable."""
    from patience.testing.battery import run_safe_moves

    outcome = run_safe_moves(patience.find_variant(str(MISTAKES / "safe" / "not-safe.yaml")))
    assert outcome.status == "failed"
    assert outcome.message == (
        "safe_moves: the solver, playing a move solver.safe calls safe alone wherever one is "
        "legal, finds c:5S2D/3D/4HAD5C4D/5D4S a:5H f:AH2H3H/AS2S3S/AC2C3C4C/ s: unwinnable, "
        "but it is won (exhaustive search)")
