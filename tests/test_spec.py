"""The description read as a specification (``patience.testing.spec``): every claim in the
vocabulary is checked on exact positions, a contradiction quotes the phrase and the rule, a
phrase it cannot read is listed as unchecked, and correct files have no finding.

tests/mistakes/spec/ holds copies of shipped files, each with one plausible mistake planted
and its expect: block removed: the description alone must flag it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import patience
from patience.testing.lint import lint_report
from patience.testing.spec import read_description, vocabulary_table

ROOT = Path(__file__).resolve().parent.parent
PLANTED = ROOT / "tests" / "mistakes" / "spec"

# file -> the findings' codes (the description alone)
EXPECTED = {
    "aces-up-aces-low.yaml": ("claim-beaten", "claim-beaten"),
    "aces-up-lower-beats.yaml": ("claim-beaten",),
    "bakers-dozen-gap-filled.yaml": ("claim-gap",),
    "black-hole-no-modulo.yaml": ("claim-corner",),
    "canfield-no-modulo.yaml": ("claim-corner",),
    "colour-for-suit.yaml": ("claim-building",),
    "draw3-turns-one.yaml": ("claim-turn",),
    "eight-off-seven-cells.yaml": ("claim-count",),
    "fortunes-favor-fill.yaml": ("claim-fill",),
    "forty-thieves-five.yaml": ("claim-deal-count",),
    "forty-thieves-redeal.yaml": ("claim-redeals",),
    "freecell-supermove-less.yaml": ("claim-supermove",),
    "golf-heaps-build.yaml": ("claim-only-onto",),
    "klondike-any-gap.yaml": ("claim-gap",),
    "klondike-two-redeals.yaml": ("claim-redeals",),
    "miss-milligan-any-gap.yaml": ("claim-gap",),
    "scorpion-runs-in-sequence.yaml": ("claim-runs",),
    "spider-any-run.yaml": ("claim-runs",),
    "streets-built-up.yaml": ("claim-building",),
    "streets-runs-move.yaml": ("claim-one-at-a-time",),
    "suit-for-colours.yaml": ("claim-building",),
    "vegas-one-redeal.yaml": ("claim-redeals", "claim-redeals"),
    "wisp-one-face-down.yaml": ("claim-face-down",),
    "yukon-same-colour.yaml": ("claim-building",),
    # what wins (patience.testing.wins)
    "aces-up-won-with-a-stock.yaml": ("claim-win",),
    "black-hole-hole-short.yaml": ("claim-win",),
    "golf-won-with-one-left.yaml": ("claim-win",),
    "klondike-foundations-twelve.yaml": ("claim-win",),
    # the description says nothing about the foundations' direction: not flagged (the
    # expectations and mutation testing are the tools for it)
    "beleaguered-foundations-down.yaml": (),
}


#: mistakes planted in copies of docs/examples/, whose descriptions were written before the
#: description check: 7 of these 13 were flagged by the vocabulary as it stood when they were
#: planted; the phrases it missed ('drawing three', 'a King alone fills a gap', 'any card
#: moves', 'a one-card tail', 'a set must be all one suit') were added after
IN_EXAMPLES = {
    "kitten-four-columns.yaml": ("claim-count",),
    "kitten-sets-stay.yaml": ("claim-forced",),
    "kitten-tail-two.yaml": ("claim-capacity",),
    "little-klondike-draw-one.yaml": ("claim-turn",),
    "little-klondike-five-columns.yaml": ("claim-count",),
    "little-klondike-three-redeals.yaml": ("claim-redeals",),
    "miss-milligan-open-foundations-colour.yaml": ("claim-building",),
    "miss-milligan-open-suit.yaml": ("claim-building",),
    "tabbycat-suited-colour.yaml": ("claim-set-suit",),
    "wasp-any-gap.yaml": ("claim-gap",),
    "wasp-colour.yaml": ("claim-building",),
    "wasp-runs-in-order.yaml": ("claim-runs",),
    # 'Klondike with …' says nothing of the gaps: not flagged
    "little-klondike-any-gap.yaml": (),
}
PLANTED_IN_EXAMPLES = ROOT / "tests" / "mistakes" / "spec-examples"
ALL_PLANTED = [(PLANTED / name, codes) for name, codes in EXPECTED.items()] + \
    [(PLANTED_IN_EXAMPLES / name, codes) for name, codes in IN_EXAMPLES.items()]


def test_every_planted_mistake_has_an_expectation():
    assert sorted(p.name for p in PLANTED.glob("*.yaml")) == sorted(EXPECTED)
    assert sorted(p.name for p in PLANTED_IN_EXAMPLES.glob("*.yaml")) == sorted(IN_EXAMPLES)


@pytest.mark.parametrize(("path", "codes"), ALL_PLANTED, ids=lambda p: getattr(p, "name", ""))
def test_a_planted_mistake_is_flagged_from_the_description(path, codes):
    report = lint_report(patience.find_variant(path))
    assert tuple(f.code for f in report.findings) == codes
    for finding in report.findings:
        assert finding.where == "description" and finding.message.startswith("says '")


def test_a_finding_quotes_the_phrase_and_the_rule_with_its_line():
    report = lint_report(patience.find_variant(PLANTED / "klondike-any-gap.yaml"))
    assert [f.message for f in report.findings] == [
        ("says 'Kings into gaps', but piles.columns.accepts 'pile.empty or (not pile.empty and "
        "goes_on(run.bottom, pile.top))' (klondike-any-gap.yaml:39) lets QC from the columns "
        "into an empty columns pile")]
    report = lint_report(patience.find_variant(PLANTED / "forty-thieves-five.yaml"))
    assert [f.message for f in report.findings] == [
        ("says 'ten columns of four', but piles.columns.deal (forty-thieves-five.yaml:35) deals "
        "the columns 5, 5, 5, 5, 5, 5, 5, 5, 5, 5 cards, not 4 cards each")]


def test_an_inherited_rule_names_the_parent_line_and_the_key_to_set():
    report = lint_report(patience.find_variant(PLANTED / "colour-for-suit.yaml"))
    assert "(inherited from freecell.yaml:46; set piles.columns.accepts in this file to " \
           "change it)" in report.findings[0].message


def test_the_figure_most_planted_mistakes_are_flagged():
    """40 of 42: the two missed are rules the description does not speak about."""
    flagged = sum(bool(lint_report(patience.find_variant(path)).findings)
                  for path, _codes in ALL_PLANTED)
    assert (flagged, len(ALL_PLANTED)) == (40, 42)


def test_no_finding_on_the_shipped_files_and_the_examples():
    names = [*patience.shipped_variants(),
             *sorted(str(p) for p in (ROOT / "docs" / "examples").glob("*.yaml")),
             *sorted(str(p) for p in (ROOT / "tests" / "mistakes" / "correct").glob("*.yaml"))]
    # every file of variants/ is read (no list of names to keep up to date)
    assert len(patience.shipped_variants()) == len(list((ROOT / "variants").glob("*.yaml")))
    found = {name: [str(f) for f in read_description(patience.find_variant(name)).findings]
             for name in names}
    assert {name: f for name, f in found.items() if f} == {}


def test_a_phrase_not_understood_is_listed_unchecked():
    report = read_description(patience.find_variant("bakers-dozen"))
    assert report.unchecked == ("Kings at the bottom",)


def test_what_wins_is_checked_on_tables_built_for_the_claim():
    report = read_description(patience.find_variant("aces-up"))
    assert report.unchecked == ()
    assert [c.split(" (", 1)[0] for c in report.checked] == [
        "'beaten by a higher top card of its suit'", "'Aces high'",
        "'only the four Aces are left'", "aces-up.yaml:43"]
    assert report.checked[2] == (
        "'only the four Aces are left' (win): won with AC AD AH AS alone on c1-c4 and the "
        "other 48 cards on the foundation; not won with a Two beside them or in the stock")
    report = lint_report(patience.find_variant(PLANTED / "aces-up-won-with-a-stock.yaml"))
    assert [f.message for f in report.findings] == [
        ("says 'only the four Aces are left', but win 'all c in columns: c.size == 1 and "
        "c.top.rank == A' (aces-up-won-with-a-stock.yaml:45) holds with 2C still in the stock "
        "beside the Aces")]


def test_won_when_reads_the_claims_it_knows_and_lists_the_rest(tmp_path):
    path = tmp_path / "won-when.yaml"
    path.write_text("extends: tabbycat\nid: won-when\ndescription: Tabby Cat, won when the "
                    "foundations are full; won when the tail is full of Kings.\n"
                    "expect:\n  - inherited: drop\n", encoding="utf-8")
    report = read_description(patience.find_variant(path))
    assert report.findings == ()
    assert report.checked == (("'won when the foundations are full' (win): won with every card "
                              "on the foundations; not won with one card left elsewhere "
                              "or in the stock"),)
    assert report.unchecked == ("Tabby Cat", "won when the tail is full of Kings")
    path.write_text(path.read_text(encoding="utf-8") + 'win: "all f in foundations: f.size '
                    '>= 12"\n', encoding="utf-8")
    report = read_description(patience.find_variant(path))
    assert [f.message for f in report.findings] == [
        ("says 'won when the foundations are full', but win 'all f in foundations: f.size >= "
        "12' (won-when.yaml:6) holds with KC on c1 and the other 51 cards on the "
        "foundations")]


def test_a_negated_claim_is_no_claim():
    report = read_description(patience.find_variant("tabbycat-nowrap"))
    assert report.findings == ()


def test_patience_test_verbose_lists_checked_and_unchecked_phrases():
    from patience.cli.main import main

    result = CliRunner().invoke(main, ["test", "klondike-draw3", "-v", "--check", "lint"])
    assert result.exit_code == 0, result.output
    assert "ok   lint" in result.output
    assert "(3 claims checked, 1 phrase unchecked)" in result.output
    assert ("tried: klondike.yaml:56 (the comment on win): 'every card on the foundations' "
            "(win): won with every card on the foundations") in result.output
    assert "tried: unchecked: 'the third playable'" in result.output


def test_the_vocabulary_is_documented():
    text = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    assert vocabulary_table() in text


def test_the_comment_on_win_is_read_as_what_wins(tmp_path):
    """The comment on the win rule is what 'patience rules' and the players' rules say wins:
    it is read with the claims of what wins, and a contradiction names its line."""
    path = tmp_path / "twelve.yaml"
    path.write_text("extends: klondike\nid: twelve\nexpect:\n  - inherited: drop\n"
                    'win: "all f in foundations: f.size == 12"   # every card on the '
                    "foundations\n", encoding="utf-8")
    report = read_description(patience.find_variant(path))
    assert [(f.code, f.where) for f in report.findings] == [
        ("claim-win", "twelve.yaml:5 (the comment on win)")]
    assert report.findings[0].message.startswith(
        "says 'every card on the foundations', but win 'all f in foundations: f.size == 12' "
        "(twelve.yaml:5) does not hold with every card on the foundations")
    path.write_text(path.read_text(encoding="utf-8").replace(
        "every card on the foundations", "the suits sorted out"),
        encoding="utf-8")
    report = read_description(patience.find_variant(path))
    assert report.findings == ()
    assert report.unchecked[-1] == "the comment on win: the suits sorted out"
