"""docs/rules.md, removal: optional (a move the player may choose; the finished set may stay, and
with wrap a King may be built on its Ace) / forced (sets leave at once, inside the move or
the deal that completes them, repeatedly, column by column from c1, each to the first empty
foundation; forced removals are not moves). Expected lists worked out by hand."""

from __future__ import annotations

import pytest
from rules_helpers import SET_K_TO_A, build, expand, moves

import patience
from patience.game import Move

SET = SET_K_TO_A.replace(" ", "")
OTHER_SET = "KH QD JC TS 9H 8D 7C 6S 5H 4D 3C 2S AH"
THIRD_SET = "KC QS JH TD 9C 8S 7H 6D 5C 4S 3H 2D AC"
FORCED = ["tabbycat-autoremove", "manx-corner"]

# --- optional ------------------------------------------------------------------------------

# c1 holds a finished set; KD may go on its Ace (wrap), QH…AS (k=12) on KD,
# 4H…AS (k=4) on 5C, 7D…AS (k=7) on 8D; 5C and 8D have no base.
FINISHED = [SET_K_TO_A, "KD", "5C", "8D"]
FINISHED_COMMON = ["c1:12-c2", "c1:4-c3", "c1:7-c4", "c1:13-f", "c2:1-t", "c3:1-t",
                   "c4:1-t", "d"]


@pytest.mark.parametrize("variant", ["tabbycat", "tabbycat-corner", "tabbycat-loosetail",
                                     "mainecoon"])
def test_with_optional_removal_a_king_may_be_built_on_the_finished_sets_ace(variant):
    game = build(variant, FINISHED)
    assert moves(game) == expand("c1:1..13-t", "c2:1-c1", *FINISHED_COMMON)
    game.push("c2:1-c1")
    # KS … AS KD: the top 13 cards QH … AS KD are no King-to-Ace set any more, but they
    # are a cycle set (they pass A -> K)
    assert ("c1:13-f" in moves(game)) == (variant == "tabbycat-corner")


def test_with_optional_removal_in_manx():
    assert moves(build("manx", FINISHED)) == expand("c1:1-t", "c2:1-c1", *FINISHED_COMMON)


def test_with_optional_removal_and_no_wrap_no_king_goes_on_the_ace():
    assert moves(build("tabbycat-nowrap", FINISHED)) == expand(
        "c1:1..13-t", *FINISHED_COMMON)


def test_optional_removal_leaves_a_completed_set_on_the_table():
    game = build("tabbycat", ["KS QH JD TC 9S 8H 7D 6C 5S 4H 3D 2C", "AS", "5D", "9C"])
    game.push("c2:1-c1")
    assert game.text().split()[:3] == ["c:" + SET + "//5D/9C", "t:", "f:///"]
    assert game.forced_moves_of_last_move() == []
    assert "c1:13-f" in moves(game)


# --- forced, inside a move -----------------------------------------------------------------

# c1 KS … 2C (12 cards), AS completes it. Top-k bottom rank k+1: AS takes k=12 (King on
# Ace), 5D takes k=3, 9C takes k=7. AS goes on 2C; 5D and 9C have no base.
ALMOST = ["KS QH JD TC 9S 8H 7D 6C 5S 4H 3D 2C", "AS", "5D", "9C"]
ALMOST_MOVES = expand("c1:1..12-t", "c1:12-c2", "c1:3-c3", "c1:7-c4", "c2:1-c1", "c2:1-t",
                      "c3:1-t", "c4:1-t", "d")


@pytest.mark.parametrize("variant", ["tabbycat", "tabbycat-autoremove"])
def test_before_the_set_is_complete_both_dialects_agree(variant):
    assert moves(build(variant, ALMOST)) == ALMOST_MOVES


def test_forced_removal_happens_inside_the_move_that_completes_the_set():
    game = build("tabbycat-autoremove", ALMOST)
    before = game.text()
    game.push("c2:1-c1")
    assert game.text().split()[:3] == ["c://5D/9C", "t:", "f:" + SET + "///"]
    assert game.forced_moves_of_last_move() == [Move(0, 13, 5)]
    assert game.move_stack == [Move(1, 1, 0)]
    # the Ace is gone: nothing can be built on it; 5D and 9C go to the empty columns
    assert moves(game) == expand("c3:1-c1", "c3:1-c2", "c3:1-t", "c4:1-c1", "c4:1-c2",
                                 "c4:1-t", "d")
    game.pop()
    assert game.text() == before


def test_forced_removal_of_a_cycle_set_in_manx_corner():
    game = build("manx-corner", ["7S 6H 5D 4C 3S 2H AD KC QS JH TD 9C", "8S", "3H", "TS"])
    game.push("c2:1-c1")
    assert game.text().split()[:3] == ["c://3H/TS", "t:", "f:7S6H5D4C3S2HADKCQSJHTD9C8S///"]


def test_repeated_forced_removal_until_none_is_left():
    # c1 KS … AS KH … 2S: the top 13 (AS KH … 2S) are no King-to-Ace set; AH makes the top
    # 13 KH … AH a set, which leaves; then KS … AS is on top and leaves too.
    game = build("tabbycat-autoremove",
                 [SET_K_TO_A + " KH QD JC TS 9H 8D 7C 6S 5H 4D 3C 2S", "AH", "5C", ""])
    game.push("c2:1-c1")
    assert game.text().split()[:3] == [
        "c://5C/", "t:", "f:" + OTHER_SET.replace(" ", "") + "/" + SET + "//"]
    assert game.forced_moves_of_last_move() == [Move(0, 13, 5), Move(0, 13, 6)]
    game.pop()
    assert game.pile("f1") == [] and len(game.pile("c1")) == 25


# --- forced, inside a deal -----------------------------------------------------------------

# f1 already full; c1 KS … 2C and c2 KH … 2S wait for their Aces, the stock deals AS, AH,
# 5D, 9D. Both sets complete in the deal: c1's leaves first, to f2 (the first empty
# foundation), then c2's to f3.
TWO_SETS_COLUMNS = ["KS QH JD TC 9S 8H 7D 6C 5S 4H 3D 2C",
                    "KH QD JC TS 9H 8D 7C 6S 5H 4D 3C 2S", "", ""]


@pytest.mark.parametrize("variant", FORCED)
def test_sets_completed_by_a_deal_leave_column_by_column_from_c1(variant):
    game = build(variant, TWO_SETS_COLUMNS, foundations=[THIRD_SET], stock="AS AH 5D 9D")
    game.push("d")
    assert game.text().split()[:3] == [
        "c://5D/9D", "t:",
        f"f:{THIRD_SET.replace(' ', '')}/{SET}/{OTHER_SET.replace(' ', '')}/"]
    assert game.forced_moves_of_last_move() == [Move(0, 13, 6), Move(1, 13, 7)]
    assert game.move_stack == [Move(-1, 0, -1)]
    game.pop()
    assert game.text().split()[0] == "c:" + "/".join(c.replace(" ", "")
                                                     for c in TWO_SETS_COLUMNS)


def test_sets_completed_by_a_deal_stay_with_optional_removal():
    game = build("tabbycat", TWO_SETS_COLUMNS, foundations=[THIRD_SET], stock="AS AH 5D 9D")
    game.push("d")
    assert game.text().split()[0] == f"c:{SET}/{OTHER_SET.replace(' ', '')}/5D/9D"
    assert {"c1:13-f", "c2:13-f"} <= set(moves(game))


@pytest.mark.parametrize("variant", FORCED)
def test_forced_removals_are_not_moves(variant):
    # along a few random games, no move to a foundation is ever generated
    import random

    for seed in range(1, 6):
        game = patience.find_variant(variant).deal(seed)
        rng = random.Random(seed)
        for _ in range(60):
            legal = moves(game)
            assert not [m for m in legal if m.endswith("-f")]
            if not legal:
                break
            game.push(rng.choice(legal))


def test_forced_removal_after_a_move_from_the_tail():
    # autoremove: the whole tail 7D … AS goes on 8H and completes KS … AS, which leaves
    game = build("tabbycat-autoremove", ["KS QH JD TC 9S 8H", "5D", "9C", "QC"],
                 tail="7D 6C 5S 4H 3D 2C AS")
    assert "t:7-c1" in moves(game)
    game.push("t:7-c1")
    assert game.text().split()[:3] == ["c:/5D/9C/QC", "t:", "f:" + SET + "///"]


def test_forced_removal_of_a_cycle_set_after_a_move_from_the_manx_tail():
    game = build("manx-corner", ["7S 6H 5D 4C 3S 2H AD KC QS JH TD 9C", "3H", "TS", "5C"],
                 tail="8S")
    game.push("t:1-c1")
    assert game.text().split()[:3] == ["c:/3H/TS/5C", "t:",
                                       "f:7S6H5D4C3S2HADKCQSJHTD9C8S///"]
