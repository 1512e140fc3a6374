"""docs/rules.md, "Building" and "Runs", and the *wrap* dimension.

A card goes on a card one rank higher, any suit; with wrap (every dialect but
tabbycat-nowrap) a King also goes on an Ace, and runs may pass A -> K. An Ace never goes on
a King. A run goes where its bottom (deepest) card is accepted, or into an empty column.

Every expected move list below was worked out by hand from docs/rules.md.
"""

from __future__ import annotations

import pytest
from rules_helpers import ALL_VARIANTS, build, expand, moves

WRAP = [v for v in ALL_VARIANTS if v != "tabbycat-nowrap"]
MANX = ["manx", "manx-corner"]
RUN_TAIL_WRAP = [v for v in WRAP if v not in MANX]


# c1 5S, c2 4H, c3 AC, c4 KD: 4H goes on 5S; KD goes on AC only with wrap; AC never on KD.
SINGLES = ["5S", "4H", "AC", "KD"]
SINGLES_WRAP = expand("c1:1-t", "c2:1-c1", "c2:1-t", "c3:1-t", "c4:1-c3", "c4:1-t", "d")
SINGLES_NOWRAP = expand("c1:1-t", "c2:1-c1", "c2:1-t", "c3:1-t", "c4:1-t", "d")


@pytest.mark.parametrize("variant", WRAP)
def test_king_goes_on_ace_with_wrap(variant):
    assert moves(build(variant, SINGLES)) == SINGLES_WRAP


def test_king_never_goes_on_ace_without_wrap():
    assert moves(build("tabbycat-nowrap", SINGLES)) == SINGLES_NOWRAP


# c1 holds 3S 2H AD KC QH: a run of 5 with wrap (it passes A -> K), of 2 without.
# c2 4C takes the whole run (bottom 3S); c3 is empty and takes any run; c4 9D takes nothing.
THROUGH_ACE = ["3S 2H AD KC QH", "4C", "", "9D"]
THROUGH_ACE_OTHERS = ["c2:1-c3", "c2:1-t", "c4:1-c3", "c4:1-t", "d"]


@pytest.mark.parametrize("variant", RUN_TAIL_WRAP)
def test_runs_pass_from_ace_to_king_with_wrap(variant):
    assert moves(build(variant, THROUGH_ACE)) == expand(
        "c1:1..5-c3", "c1:1..5-t", "c1:5-c2", *THROUGH_ACE_OTHERS)


@pytest.mark.parametrize("variant", MANX)
def test_runs_pass_from_ace_to_king_with_wrap_manx(variant):
    # the Manx tail takes only the top card
    assert moves(build(variant, THROUGH_ACE)) == expand(
        "c1:1..5-c3", "c1:1-t", "c1:5-c2", *THROUGH_ACE_OTHERS)


def test_runs_stop_at_the_ace_without_wrap():
    # KC on AD is no sequence: only the top two cards move; 4C cannot take the run
    assert moves(build("tabbycat-nowrap", THROUGH_ACE)) == expand(
        "c1:1..2-c3", "c1:1..2-t", *THROUGH_ACE_OTHERS)


# A run goes where its bottom card is accepted: KH QD (bottom KH) goes on AS with wrap;
# 5C under it is not part of the run (KH is not one below 5C).
BOTTOM_CARD = ["AS", "5C KH QD", "2D", "7C"]


@pytest.mark.parametrize("variant", RUN_TAIL_WRAP)
def test_a_run_goes_where_its_bottom_card_is_accepted(variant):
    assert moves(build(variant, BOTTOM_CARD)) == expand(
        "c1:1-c3", "c1:1-t", "c2:2-c1", "c2:1..2-t", "c3:1-t", "c4:1-t", "d")


@pytest.mark.parametrize("variant", MANX)
def test_a_run_goes_where_its_bottom_card_is_accepted_manx(variant):
    assert moves(build(variant, BOTTOM_CARD)) == expand(
        "c1:1-c3", "c1:1-t", "c2:2-c1", "c2:1-t", "c3:1-t", "c4:1-t", "d")


def test_a_run_with_a_king_bottom_has_nowhere_to_go_without_wrap():
    assert moves(build("tabbycat-nowrap", BOTTOM_CARD)) == expand(
        "c1:1-c3", "c1:1-t", "c2:1..2-t", "c3:1-t", "c4:1-t", "d")


# Building ignores suits; a long run (12 cards, no free-cell limit) still moves as a unit.
LONG_RUN = ["KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C", "3D", "KH", "QS"]


@pytest.mark.parametrize("variant", RUN_TAIL_WRAP)
def test_runs_of_any_length_move_and_suits_do_not_matter(variant):
    # top-k run of c1 has bottom rank k+1: 3D takes k=1 (2C), KH takes k=11 (QC);
    # QS takes k=10 (JC); 2C accepts nothing (needs an Ace); 3D, KH, QS have no base
    # (KH would go on an Ace, QS on a King, 3D on a 4).
    assert moves(build(variant, LONG_RUN)) == expand(
        "c1:1..12-t", "c1:1-c2", "c1:11-c3", "c1:10-c4",
        "c2:1-t", "c3:1-t", "c4:1-c3", "c4:1-t", "d")


def test_runs_of_any_length_without_wrap():
    assert moves(build("tabbycat-nowrap", LONG_RUN)) == expand(
        "c1:1..12-t", "c1:1-c2", "c1:11-c3", "c1:10-c4",
        "c2:1-t", "c3:1-t", "c4:1-c3", "c4:1-t", "d")


def test_an_empty_column_takes_any_run_and_each_empty_column_is_its_own_move():
    # docs/rules.md "Move notation": a run moved to two different empty columns is two moves
    game = build("tabbycat", ["5S 4H", "", "", "9D"])
    assert moves(game) == expand("c1:1..2-c2", "c1:1..2-c3", "c1:1..2-t",
                                 "c4:1-c2", "c4:1-c3", "c4:1-t", "d")
    assert len(game.legal_moves) == len(set(game.legal_moves)) == 10
