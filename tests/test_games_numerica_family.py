"""Calculation, Numerica and Osmosis, as shipped in variants/: games whose foundations are
built from a waste and tableau piles that do not build, each foundation by its own rule.

Every expected move list and pile below is worked out by hand from the rules each file cites
(PySolFC's rule pages and classes; see each file's ``sources:``), never pasted from the
generator. Positions use the Klondike family's shorthand (``*``: the deck's cards the test
does not name, face up, in deck order).
"""

from __future__ import annotations

from test_games_klondike_family import codes, face_down, moves, position

import patience
from patience.cards import FACE_DOWN

# --- Calculation ------------------------------------------------------------------------------

# The rule page's table, less each foundation's base card: the twelve ranks each foundation
# takes after it, in order.
CALCULATION_TABLE = {
    "fa": "2 3 4 5 6 7 8 9 T J Q K",
    "fb": "4 6 8 T Q A 3 5 7 9 J K",
    "fc": "6 9 Q 2 5 8 J A 4 7 T K",
    "fd": "8 Q 3 7 J 2 6 T A 5 9 K",
}
# The 48 cards off the foundations, one suit per table row where the deck allows it: the ones
# take 2D-KD, the twos hearts, the threes spades, the fours what is left (5C-KC, AD, 2H, 3S).
CALCULATION_SUITS = {
    "fa": "DDDDDDDDDDDD", "fb": "HHHHHHHHHHHH", "fc": "SSSSSSSSSSSS", "fd": "CCSCCHCCDCCC",
}


def calculation_run(group: str) -> list[str]:
    """The twelve cards the foundation ``group`` takes, in the order it takes them."""
    ranks = CALCULATION_TABLE[group].split()
    return [rank + suit for rank, suit in zip(ranks, CALCULATION_SUITS[group], strict=True)]


def test_calculation_deals_place_the_four_bases_and_turn_one_card():
    for seed in (1, 2, 3):
        game = patience.find_variant("calculation").deal(seed)
        assert [codes(game.pile(f)) for f in ("fa", "fb", "fc", "fd")] == ["AC", "2C", "3C", "4C"]
        assert [game.pile(f"t{i}") for i in range(1, 5)] == [[], [], [], []]
        assert len(game.pile("w")) == 1 and len(game.stock) == 47


def test_calculation_foundations_follow_the_rule_pages_table_and_the_game_is_won():
    # each tableau pile holds one foundation's twelve cards, the next one it needs on top
    columns = "/".join("".join(reversed(calculation_run(f))) for f in ("fa", "fb", "fc", "fd"))
    game = position("calculation", f"fa:AC fb:2C fc:3C fd:4C t:{columns} w: s:")
    # each pile's top card goes only on its own foundation: 2D on the A, 4H on the 2, 6S on
    # the 3, 8C on the 4 (4 = 4 + 4); and 2C may move on from the twos onto the ones' Ace,
    # 4C from the fours onto the twos' 2
    assert moves(game) == {"t1:1-fa", "t2:1-fb", "t3:1-fc", "t4:1-fd", "fb:1-fa", "fd:1-fb"}
    for index, group in enumerate(("fa", "fb", "fc", "fd"), start=1):
        for _ in range(12):
            game.push(f"t{index}:1-{group}")
    assert codes(game.pile("fa")) == "AC" + "".join(calculation_run("fa"))
    assert codes(game.pile("fb")) == "2C" + "".join(calculation_run("fb"))
    assert codes(game.pile("fc")) == "3C" + "".join(calculation_run("fc"))
    assert codes(game.pile("fd")) == "4C" + "".join(calculation_run("fd"))
    assert game.is_won and moves(game) == set()


def test_calculation_the_waste_takes_one_card_and_must_be_cleared_before_the_next():
    # deal 1 turns AD; the ones want a 2: AD goes only onto a tableau pile
    game = patience.find_variant("calculation").deal(1)
    assert codes(game.pile("w")) == "AD"
    assert moves(game) == {"w:1-t1", "w:1-t2", "w:1-t3", "w:1-t4", "fb:1-fa", "fd:1-fb"}
    first = game.stock[-1]                                # the next card to turn
    game.push("w:1-t3")
    assert "d" in moves(game) and codes(game.pile("t3")) == "AD"
    game.push("d")
    assert game.pile("w") == [first] and len(game.stock) == 46
    assert "d" not in moves(game)                         # the waste holds its one card


def test_calculation_a_foundation_card_moves_on_and_the_empty_one_wants_its_base():
    # deal 1: 2C leaves the twos for the ones' Ace; the empty twos then take only a Two
    game = patience.find_variant("calculation").deal(1)
    game.push("fb:1-fa")
    assert codes(game.pile("fa")) == "AC2C" and game.pile("fb") == []
    # the 2C may go back (a Two starts the twos); 3C follows 2C on the ones; 4C has nowhere
    # to go now (the twos are empty, the ones want a 3); AD, on the waste, starts nothing
    assert moves(game) == {"fa:1-fb", "fc:1-fa", "w:1-t1", "w:1-t2", "w:1-t3", "w:1-t4"}


# --- Numerica --------------------------------------------------------------------------------


def test_numerica_deals_turn_one_card_and_nothing_else():
    for seed in (1, 2, 3):
        game = patience.find_variant("numerica").deal(seed)
        assert [game.pile(f"f{i}") for i in range(1, 5)] == [[], [], [], []]
        assert [game.pile(f"t{i}") for i in range(1, 5)] == [[], [], [], []]
        assert len(game.pile("w")) == 1 and len(game.stock) == 51


def test_numerica_foundations_build_up_regardless_of_suit():
    # t1 holds 5D 4S 3H 2D over nothing, the 2D on top; f1 has the AC
    game = position("numerica", "f:AC/// t:5D4S3H2D/// w:KS s:*")
    assert moves(game) == {"t1:1-f", "w:1-t1", "w:1-t2", "w:1-t3", "w:1-t4"}
    for _ in range(4):
        game.push("t1:1-f")
    assert codes(game.pile("f1")) == "AC2D3H4S5D" and game.pile("t1") == []


def test_numerica_a_tableau_card_goes_only_to_a_foundation():
    # 9H on t1 over the 2C; an Ace waits on t2: it starts f1, nothing goes tableau to tableau
    game = position("numerica", "f:/// t:2C9H/AD// w:KS s:*")
    assert moves(game) == {"t2:1-f", "w:1-t1", "w:1-t2", "w:1-t3", "w:1-t4"}
    game.push("t2:1-f")
    assert codes(game.pile("f1")) == "AD"
    assert moves(game) == {"w:1-t1", "w:1-t2", "w:1-t3", "w:1-t4"}   # 9H has no 8 below


# --- Osmosis ---------------------------------------------------------------------------------


def test_osmosis_deals_four_rows_of_four_and_a_card_on_the_first_foundation():
    for seed in (1, 2, 3):
        game = patience.find_variant("osmosis").deal(seed)
        rows = [game.pile(f"c{i}") for i in range(1, 5)]
        assert [len(r) for r in rows] == [4, 4, 4, 4]
        assert [face_down(r) for r in rows] == [3, 3, 3, 3]
        assert not any(r[-1] & FACE_DOWN for r in rows)
        assert len(game.pile("fa")) == 1
        assert [game.pile(f) for f in ("fb", "fc", "fd")] == [[], [], []]
        assert game.pile("w") == [] and len(game.stock) == 35


def test_osmosis_a_lower_foundation_takes_ranks_as_they_reach_the_one_above():
    # 8D started the first; the waste holds 3S under 3D under 8S (8S on top)
    game = position("osmosis", "c:4C/5C/6C/7C fa:8D fb: fc: fd: w:*3S3D8S s:")
    assert moves(game) == {"w:1-fb", "d"}                 # 8S, of the first card's rank
    game.push("w:1-fb")
    assert moves(game) == {"w:1-fa", "d"}                 # 3D: any diamond goes up
    game.push("w:1-fa")
    assert moves(game) == {"w:1-fb", "d"}                 # 3S: a 3 is on the first now
    game.push("w:1-fb")
    assert codes(game.pile("fa")) == "8D3D" and codes(game.pile("fb")) == "8S3S"


def test_osmosis_the_third_foundation_waits_for_the_second():
    # 8H is on the waste over 8S: while the second foundation is empty, the third takes
    # nothing, not even an 8
    game = position("osmosis", "c:4C/5C/6C/7C fa:8D fb: fc: fd: w:*8S8H s:")
    assert moves(game) == {"w:1-fb", "d"}
    game.push("w:1-fb")                                   # 8H starts the second
    assert moves(game) == {"w:1-fc", "d"}                 # and 8S the third
    game.push("w:1-fc")
    assert codes(game.pile("fb")) == "8H" and codes(game.pile("fc")) == "8S"
