"""docs/rules.md, the tail: capacity (run / card), exit (whole / partial), tail -> empty column,
tail -> foundation. Expected move lists worked out by hand from docs/rules.md."""

from __future__ import annotations

import pytest
from rules_helpers import SET_K_TO_A, build, expand, moves

RUN_CAPACITY = ["tabbycat", "tabbycat-autoremove", "tabbycat-corner", "tabbycat-loosetail",
                "tabbycat-nowrap", "mainecoon"]
CARD_CAPACITY = ["manx", "manx-corner"]
WHOLE_EXIT = ["tabbycat", "tabbycat-autoremove"]
PARTIAL_EXIT = ["tabbycat-corner", "tabbycat-loosetail", "tabbycat-nowrap", "mainecoon"]
TAIL_TO_FOUNDATION = ["tabbycat-loosetail", "tabbycat-nowrap", "mainecoon"]

# --- capacity ------------------------------------------------------------------------------

# c1 9C 8D 7S 6H: a run of 4; nothing else moves anywhere but the tail.
RUN_OF_FOUR = ["9C 8D 7S 6H", "2S", "JD", "4C"]


@pytest.mark.parametrize("variant", RUN_CAPACITY)
def test_an_empty_tail_takes_any_movable_run(variant):
    assert moves(build(variant, RUN_OF_FOUR)) == expand(
        "c1:1..4-t", "c2:1-t", "c3:1-t", "c4:1-t", "d")


@pytest.mark.parametrize("variant", CARD_CAPACITY)
def test_the_manx_tail_takes_only_the_top_card_even_out_of_a_run(variant):
    assert moves(build(variant, RUN_OF_FOUR)) == expand(
        "c1:1-t", "c2:1-t", "c3:1-t", "c4:1-t", "d")


@pytest.mark.parametrize("variant", RUN_CAPACITY + CARD_CAPACITY)
def test_a_tail_holding_a_card_takes_nothing(variant):
    # tail 7H: it goes on 8S or into the empty c2; columns may not add to the tail
    game = build(variant, ["8S", "", "KD QC", "5D"], tail="7H")
    assert moves(game) == expand("c1:1-c2", "c3:1..2-c2", "c4:1-c2",
                                 "t:1-c1", "t:1-c2", "d")


@pytest.mark.parametrize("variant", RUN_CAPACITY + CARD_CAPACITY)
def test_foundation_cards_never_go_to_the_tail(variant):
    # even where foundation return exists (corner dialects), the tail only takes from columns
    game = build(variant, ["9D", "9H", "9C", "8S"], foundations=[SET_K_TO_A])
    assert not [m for m in moves(game) if m.startswith("f") and m.endswith("-t")]
    assert "c1:1-t" in moves(game)


# --- exit ----------------------------------------------------------------------------------

# tail 9S 8H 7C. c1 TD takes the whole tail (bottom 9S), c2 9C takes 8H 7C, c3 8D takes 7C,
# c4 is empty and takes any part. Column moves: 9C on TD, 8D on 9C, any card into c4.
EXIT_COLUMNS = ["TD", "9C", "8D", ""]
EXIT_TAIL = "9S 8H 7C"
EXIT_COLUMN_MOVES = ["c1:1-c4", "c2:1-c1", "c2:1-c4", "c3:1-c2", "c3:1-c4", "d"]


@pytest.mark.parametrize("variant", WHOLE_EXIT)
def test_the_tail_leaves_whole(variant):
    assert moves(build(variant, EXIT_COLUMNS, tail=EXIT_TAIL)) == expand(
        *EXIT_COLUMN_MOVES, "t:3-c1", "t:3-c4")


@pytest.mark.parametrize("variant", PARTIAL_EXIT)
def test_any_top_part_of_the_tail_may_leave(variant):
    assert moves(build(variant, EXIT_COLUMNS, tail=EXIT_TAIL)) == expand(
        *EXIT_COLUMN_MOVES, "t:1-c3", "t:1-c4", "t:2-c2", "t:2-c4", "t:3-c1", "t:3-c4")


@pytest.mark.parametrize("variant", RUN_CAPACITY)
def test_a_tail_run_passing_ace_to_king_leaves_where_the_bottom_is_accepted(variant):
    # tail 2S AH KD (nowrap could never have built it, but the position is legal text)
    game = build(variant, ["3C", "AS", "", "QH"], tail="2S AH KD")
    # columns: 3C, AS, QH have no base among 3C/AS/QH (QH would go on a King) -> empty c3 only
    common = ["c1:1-c3", "c2:1-c3", "c4:1-c3", "d"]
    expected = {
        # whole: 2S AH KD (bottom 2S) on 3C or into c3
        "tabbycat": ["t:3-c1", "t:3-c3"],
        "tabbycat-autoremove": ["t:3-c1", "t:3-c3"],
        # partial: KD on AS (wrap) or c3; AH KD nowhere but c3; all three on 3C or c3
        "tabbycat-corner": ["t:1-c2", "t:1-c3", "t:2-c3", "t:3-c1", "t:3-c3"],
        "tabbycat-loosetail": ["t:1-c2", "t:1-c3", "t:2-c3", "t:3-c1", "t:3-c3"],
        "mainecoon": ["t:1-c2", "t:1-c3", "t:2-c3", "t:3-c1", "t:3-c3"],
        # no wrap: KD on AH is no sequence, so only KD may leave, and only into c3
        "tabbycat-nowrap": ["t:1-c3"],
    }[variant]
    assert moves(game) == expand(*common, *expected)


# --- tail -> empty column (every dialect) --------------------------------------------------


@pytest.mark.parametrize("variant", RUN_CAPACITY + CARD_CAPACITY)
def test_the_tail_goes_to_an_empty_column(variant):
    game = build(variant, ["", "5C", "5D", "5H"], tail="KS")
    assert moves(game) == expand("c2:1-c1", "c3:1-c1", "c4:1-c1", "t:1-c1", "d")


# --- tail -> foundation --------------------------------------------------------------------

# The tail holds exactly the set KS QH … AS. Columns 2D 3C 7S JH: the top-k part of the tail
# has bottom rank k, so 2D takes k=1, 3C k=2, 7S k=6, JH k=10; 2D goes on 3C.
TAIL_SET_COLUMNS = ["2D", "3C", "7S", "JH"]


def test_whole_exit_without_tail_to_foundation_keeps_the_set_in_the_tail():
    # the whole tail (bottom KS) would need an Ace or an empty column
    assert moves(build("tabbycat", TAIL_SET_COLUMNS, tail=SET_K_TO_A)) == expand(
        "c1:1-c2", "d")


def test_partial_exit_without_tail_to_foundation():
    assert moves(build("tabbycat-corner", TAIL_SET_COLUMNS, tail=SET_K_TO_A)) == expand(
        "c1:1-c2", "t:1-c1", "t:2-c2", "t:6-c3", "t:10-c4", "d")


@pytest.mark.parametrize("variant", TAIL_TO_FOUNDATION)
def test_a_set_alone_in_the_tail_may_go_to_a_foundation(variant):
    game = build(variant, TAIL_SET_COLUMNS, tail=SET_K_TO_A)
    assert moves(game) == expand(
        "c1:1-c2", "t:1-c1", "t:2-c2", "t:6-c3", "t:10-c4", "t:13-f", "d")
    game.push("t:13-f")
    assert game.pile("t") == []
    assert game.text().split()[2] == "f:" + SET_K_TO_A.replace(" ", "") + "/" * (
        len(game.variant.group_by_name["foundations"].indices) - 1)


@pytest.mark.parametrize("variant", ["tabbycat-loosetail", "mainecoon"])
def test_a_set_in_the_tail_under_more_cards_may_not_go_to_a_foundation(variant):
    # tail AC KS QH … AS: 14 cards, the top 13 are a set but the tail holds more than it
    game = build(variant, TAIL_SET_COLUMNS, tail="AC " + SET_K_TO_A)
    assert moves(game) == expand(
        "c1:1-c2", "t:1-c1", "t:2-c2", "t:6-c3", "t:10-c4", "t:14-c1", "d")
