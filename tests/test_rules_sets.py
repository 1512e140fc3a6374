"""docs/rules.md, complete sets: the set pattern (K_to_A / cycle), suits (any), only a column's
top 13 cards, a set keeps its order on the foundation, the first empty foundation.

Positions holding a complete set on the table are only built for optional-removal
dialects (under forced removal such a position can never arise). Expected move lists worked
out by hand from docs/rules.md.
"""

from __future__ import annotations

import pytest
from rules_helpers import SET_K_TO_A, build, expand, moves

OPTIONAL_RUN_TAIL = ["tabbycat", "tabbycat-corner", "tabbycat-loosetail", "tabbycat-nowrap",
                     "mainecoon"]

# c1 holds the set KS QH … AS (mixed suits). The top-k run of c1 has bottom rank k:
# 5D takes k=4, 9C k=8, QD k=11; 5D, 9C, QD have no base (6, T, K) anywhere.
K_TO_A = [SET_K_TO_A, "5D", "9C", "QD"]


@pytest.mark.parametrize("variant", OPTIONAL_RUN_TAIL)
def test_a_king_to_ace_set_in_any_suits_may_go_to_a_foundation(variant):
    assert moves(build(variant, K_TO_A)) == expand(
        "c1:1..13-t", "c1:4-c2", "c1:8-c3", "c1:11-c4", "c1:13-f",
        "c2:1-t", "c3:1-t", "c4:1-t", "d")


def test_a_king_to_ace_set_in_manx():
    assert moves(build("manx", K_TO_A)) == expand(
        "c1:1-t", "c1:4-c2", "c1:8-c3", "c1:11-c4", "c1:13-f",
        "c2:1-t", "c3:1-t", "c4:1-t", "d")


def test_a_set_keeps_its_order_on_the_foundation():
    # the card on top of the column (AS) is the foundation's top card
    game = build("tabbycat", K_TO_A)
    before = game.text()
    game.push("c1:13-f")
    assert game.text().split()[:3] == [
        "c:/5D/9C/QD", "t:", "f:" + SET_K_TO_A.replace(" ", "") + "///"]
    game.pop()
    assert game.text() == before


# 7S 6H 5D 4C 3S 2H AD KC QS JH TD 9C 8S: 13 cards each one below the one beneath, passing
# A -> K. A cycle set, not a K_to_A set. Top-k bottom cards from the top: k=1 8S, 2 9C,
# 3 TD, 4 JH, 5 QS, 6 KC, 7 AD, 8 2H, ... 13 7S. 3H takes k=8, AC takes k=6 (King on Ace),
# TS takes k=2. 3H, AC, TS have no base anywhere.
CYCLE = ["7S 6H 5D 4C 3S 2H AD KC QS JH TD 9C 8S", "3H", "AC", "TS"]
CYCLE_COMMON = ["c1:8-c2", "c1:6-c3", "c1:2-c4", "c2:1-t", "c3:1-t", "c4:1-t", "d"]


@pytest.mark.parametrize("variant", ["tabbycat", "tabbycat-loosetail", "mainecoon"])
def test_thirteen_cards_passing_ace_to_king_are_not_a_king_to_ace_set(variant):
    assert moves(build(variant, CYCLE)) == expand("c1:1..13-t", *CYCLE_COMMON)


def test_thirteen_cards_passing_ace_to_king_are_not_a_set_in_manx():
    assert moves(build("manx", CYCLE)) == expand("c1:1-t", *CYCLE_COMMON)


def test_thirteen_cards_passing_ace_to_king_are_a_cycle_set():
    assert moves(build("tabbycat-corner", CYCLE)) == expand(
        "c1:1..13-t", "c1:13-f", *CYCLE_COMMON)


def test_without_wrap_the_run_stops_at_the_ace():
    # KC on AD is no sequence: runs of 1..6 only; AC cannot take KC
    assert moves(build("tabbycat-nowrap", CYCLE)) == expand(
        "c1:1..6-t", "c1:2-c4", "c2:1-t", "c3:1-t", "c4:1-t", "d")


# KS QH … AS KD: the set is not the top 13 cards. The top 13 (QH … AS KD) pass A -> K: a
# cycle set only. Top-k bottom ranks: k=1 K, then k-1 for k = 2..14.
# 4D takes k=4, 8C k=8, JC k=11; KD (top of c1) takes a Queen: none on top elsewhere.
BURIED = [SET_K_TO_A + " KD", "4D", "8C", "JC"]
BURIED_COMMON = ["c1:4-c2", "c1:8-c3", "c1:11-c4", "c2:1-t", "c3:1-t", "c4:1-t", "d"]


@pytest.mark.parametrize("variant", ["tabbycat", "tabbycat-loosetail", "mainecoon"])
def test_only_the_top_thirteen_cards_can_form_a_set(variant):
    assert moves(build(variant, BURIED)) == expand("c1:1..14-t", *BURIED_COMMON)


def test_the_top_thirteen_cards_turning_the_corner_are_a_cycle_set():
    game = build("tabbycat-corner", BURIED)
    assert moves(game) == expand("c1:1..14-t", "c1:13-f", *BURIED_COMMON)
    game.push("c1:13-f")
    assert game.text().split()[0] == "c:KS/4D/8C/JC"
    assert game.text().split()[2] == "f:QHJDTC9S8H7D6C5S4H3D2CASKD///"


def test_a_buried_set_is_no_run_without_wrap():
    assert moves(build("tabbycat-nowrap", BURIED)) == expand(
        "c1:1-t", "c2:1-t", "c3:1-t", "c4:1-t", "d")


# --- foundations ---------------------------------------------------------------------------

OTHER_SET = "KH QD JC TS 9H 8D 7C 6S 5H 4D 3C 2S AH"


@pytest.mark.parametrize("variant", ["tabbycat", "tabbycat-loosetail", "tabbycat-corner",
                                     "manx", "tabbycat-nowrap", "mainecoon"])
def test_a_set_goes_to_the_first_empty_foundation(variant):
    game = build(variant, [SET_K_TO_A, "", "", ""], foundations=[OTHER_SET])
    assert "c1:13-f" in moves(game)
    game.push("c1:13-f")
    fields = game.text().split()
    assert fields[0] == "c:///"
    empty_after = len(game.variant.group_by_name["foundations"].indices) - 2
    assert fields[2] == ("f:" + OTHER_SET.replace(" ", "") + "/"
                         + SET_K_TO_A.replace(" ", "") + "/" * empty_after)


@pytest.mark.parametrize("variant", OPTIONAL_RUN_TAIL)
def test_several_empty_foundations_make_one_move(variant):
    # the foundations are named as a group: one move 'c1:13-f', not one per foundation
    game = build(variant, K_TO_A)
    assert moves(game).count("c1:13-f") == 1
    assert sum(1 for move in game.legal_moves if move.source == 0 and move.count == 13
               and move.target >= game.variant.pile_index["f1"]) == 1


def test_a_set_of_one_suit_is_a_set_too():
    game = build("tabbycat", ["KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS", "5D", "9C", "QD"])
    assert "c1:13-f" in moves(game)
