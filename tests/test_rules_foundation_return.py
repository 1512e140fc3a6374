"""docs/rules.md, foundation return (tabbycat-corner, manx-corner): the top card of a foundation
may go back to a column whose top card accepts it or to an empty column, never to the tail
(nor to another foundation). A foundation that gave a card back takes a set only when empty
again. Expected lists worked out by hand."""

from __future__ import annotations

import pytest
from rules_helpers import SET_K_TO_A, build, expand, moves

RETURN = ["tabbycat-corner", "manx-corner"]
NO_RETURN = ["tabbycat", "manx", "tabbycat-autoremove", "tabbycat-loosetail",
             "tabbycat-nowrap", "mainecoon"]

# f1 KC … AC (top AC). AC may go on 2H (c1) or into the empty c2. KS, 2H, 9D have no base.
CLUBS = "KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC"
RETURN_COLUMNS = ["2H", "", "KS", "9D"]
COLUMN_MOVES = ["c1:1-c2", "c1:1-t", "c3:1-c2", "c3:1-t", "c4:1-c2", "c4:1-t", "d"]


@pytest.mark.parametrize("variant", RETURN)
def test_the_top_card_of_a_foundation_goes_back_to_an_accepting_or_empty_column(variant):
    game = build(variant, RETURN_COLUMNS, foundations=[CLUBS])
    assert moves(game) == expand(*COLUMN_MOVES, "f1:1-c1", "f1:1-c2")


@pytest.mark.parametrize("variant", NO_RETURN)
def test_without_foundation_return_foundations_give_nothing_back(variant):
    assert moves(build(variant, RETURN_COLUMNS, foundations=[CLUBS])) == expand(*COLUMN_MOVES)


def test_after_a_return_the_foundation_keeps_giving_and_takes_nothing_back():
    game = build("tabbycat-corner", RETURN_COLUMNS, foundations=[CLUBS])
    game.push("f1:1-c1")
    assert game.text().split()[:3] == [
        "c:2HAC//KS/9D", "t:", "f:" + CLUBS[:-3].replace(" ", "") + "///"]
    # c1 2H AC: AC or 2H AC into c2 or the tail; KS on AC (wrap); 2C (f1's top) only into c2;
    # no 'c1:1-f': a foundation takes only whole sets, and only while empty
    assert moves(game) == expand("c1:1..2-c2", "c1:1..2-t", "c3:1-c1", "c3:1-c2", "c3:1-t",
                                 "c4:1-c2", "c4:1-t", "f1:1-c2", "d")


def test_after_a_return_in_manx_corner():
    game = build("manx-corner", RETURN_COLUMNS, foundations=[CLUBS])
    game.push("f1:1-c1")
    assert moves(game) == expand("c1:1..2-c2", "c1:1-t", "c3:1-c1", "c3:1-c2", "c3:1-t",
                                 "c4:1-c2", "c4:1-t", "f1:1-c2", "d")


@pytest.mark.parametrize("variant", RETURN)
def test_each_foundation_gives_back_as_its_own_move(variant):
    # several foundations give back: each is its own move, named f1, f2 …
    game = build(variant, ["KS QS JS TS 9S 8S 7S 6S 5S 4S", "3S", "2S", "AS"],
                 foundations=[CLUBS, "KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD",
                              "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH"])
    tail = ["c1:1..10-t"] if variant == "tabbycat-corner" else ["c1:1-t"]
    # no stock left: no deal. AS takes the run KS … 4S (wrap); 3S on 4S, 2S on 3S, AS on
    # 2S; the foundations' Aces go on 2S.
    assert moves(game) == expand(*tail, "c1:10-c4", "c2:1-c1", "c2:1-t", "c3:1-c2", "c3:1-t",
                                 "c4:1-c3", "c4:1-t", "f1:1-c3", "f2:1-c3", "f3:1-c3")


def test_a_foundation_that_gave_a_card_back_cannot_take_a_set():
    # f1 gave its AH back (now on c2); the set on c1 goes to f2, the first EMPTY foundation.
    # Top-k bottom rank k: AH takes k=13 (wrap), 6D k=5, JS k=10. 2S (f1's top), AH, 6D, JS
    # have no base and no column is empty.
    game = build("tabbycat-corner", [SET_K_TO_A, "AH", "6D", "JS"],
                 foundations=["KH QD JC TS 9H 8D 7C 6S 5H 4D 3C 2S"])
    assert moves(game) == expand("c1:1..13-t", "c1:13-c2", "c1:5-c3", "c1:10-c4", "c1:13-f",
                                 "c2:1-t", "c3:1-t", "c4:1-t", "d")
    game.push("c1:13-f")
    assert game.text().split()[2] == (
        "f:KHQDJCTS9H8D7C6S5H4D3C2S/" + SET_K_TO_A.replace(" ", "") + "//")


def test_a_returned_card_completing_a_set_under_forced_removal_goes_to_an_empty_foundation():
    # manx-corner: f1's AC goes back onto 2D and completes KH … 2D AC on c1, which leaves at
    # once, to f2: f1 (12 cards now) is not empty. Top-k bottom rank of c1 is k+1: the empty
    # c2 takes any k, KS takes k=11, 9S takes k=7; the Manx tail takes the top card only.
    game = build("manx-corner", ["KH QD JS TD 9H 8D 7S 6H 5D 4S 3H 2D", "", "KS", "9S"],
                 foundations=[CLUBS])
    assert moves(game) == expand("c1:1..12-c2", "c1:1-t", "c1:11-c3", "c1:7-c4",
                                 "c3:1-c2", "c3:1-t", "c4:1-c2", "c4:1-t",
                                 "f1:1-c1", "f1:1-c2", "d")
    game.push("f1:1-c1")
    assert game.text().split()[:3] == [
        "c://KS/9S", "t:", "f:" + CLUBS[:-3].replace(" ", "") + "/KHQDJSTD9H8D7S6H5D4S3H2DAC//"]


def test_a_returned_card_completing_a_set_under_optional_removal_stays():
    game = build("tabbycat-corner", ["KH QD JS TD 9H 8D 7S 6H 5D 4S 3H 2D", "", "KS", "9S"],
                 foundations=[CLUBS])
    game.push("f1:1-c1")
    assert game.text().split()[0] == "c:KHQDJSTD9H8D7S6H5D4S3H2DAC//KS/9S"
    assert "c1:13-f" in moves(game)
