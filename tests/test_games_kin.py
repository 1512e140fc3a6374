"""Kin of the shipped families, as shipped in variants/: Lucas, Number Ten and Red and Black
(Forty Thieves), Superior Canfield, Rainbow and Storehouse (Canfield), Whitehead and Thumb
and Pouch (Klondike), Easthaven and Agnes Sorel (Gypsy), Dead King Golf (Golf), Wasp
(Scorpion) and Curds and Whey (Spider).

Every expected move list and pile below is worked out by hand from the rules each file cites
(PySolFC's rule pages and classes; see each file's ``sources:``), never pasted from the
generator. Positions use the Klondike family's shorthand (``*``: the deck's cards the test
does not name, face up, in deck order; ``?``: the same, face down).
"""

from __future__ import annotations

import pytest
from test_games_klondike_family import codes, face_down, moves, position

import patience
from patience.cards import FACE_DOWN

# --- deals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "columns", "down", "stock"), [
    ("lucas", [4] * 13, [0] * 13, 52),
    ("number-ten", [4] * 10, [2] * 10, 64),
    ("red-and-black", [1] * 8, [0] * 8, 88),
    ("whitehead", [1, 2, 3, 4, 5, 6, 7], [0] * 7, 24),
    ("thumb-and-pouch", [1, 2, 3, 4, 5, 6, 7], [0, 1, 2, 3, 4, 5, 6], 24),
    ("easthaven", [3] * 7, [2] * 7, 31),
    ("agnes-sorel", [1, 2, 3, 4, 5, 6, 7], [0] * 7, 23),
    ("curds-and-whey", [4] * 13, [0] * 13, 0),
    # tests/test_games_library_d.py's games, read off each class's startGame and createGame
    ("josephine", [4] * 10, [0] * 10, 64),            # DEAL = (0, 4), ten rows
    ("streets", [4] * 10, [0] * 10, 64),
    ("maria", [4] * 9, [0] * 9, 68),                   # rows=9
    ("emperor", [4] * 10, [3] * 10, 64),               # DEAL = (3, 1)
    ("indian", [3] * 10, [1] * 10, 74),                # DEAL = (1, 2)
    ("napoleons-exile", [4] * 10, [0] * 10, 64),
    ("forty-and-eight", [4] * 8, [0] * 8, 72),         # rows=8
    ("relaxed-freecell", [7, 7, 7, 7, 6, 6, 6, 6], [0] * 8, 0),
    ("forecell", [6] * 8, [0] * 8, 0),                 # six rows, then the cells
    ("double-freecell", [10] * 10, [0] * 10, 0),       # nine rows and one, the Aces apart
    ("portuguese-solitaire", [4] * 13, [0] * 13, 0),
    ("castles-in-spain", [4] * 13, [3] * 13, 0),       # flip=(0, 0, 0), then a face-up row
])
def test_deals_lay_out_the_columns_as_the_class_deals_them(variant, columns, down, stock):
    for seed in (1, 2, 3):
        game = patience.find_variant(variant).deal(seed)
        piles = [game.pile(f"c{i}") for i in range(1, len(columns) + 1)]
        assert [len(p) for p in piles] == columns
        assert [face_down(p) for p in piles] == down
        assert not any(p[-1] & FACE_DOWN for p in piles)
        assert len(game.stock) == stock
        if "w" in {name for group in game.variant.groups for name in group.pile_names}:
            assert game.pile("w") == []


def test_red_and_black_deals_the_eight_aces_to_the_foundations_first():
    for seed in (1, 2, 3):
        game = patience.find_variant("red-and-black").deal(seed)
        assert [codes(game.pile(f"f{i}")) for i in range(1, 9)] == [
            "AC", "AC", "AD", "AD", "AH", "AH", "AS", "AS"]


def test_storehouse_deals_the_twos_to_the_foundations_and_a_reserve_of_thirteen():
    for seed in (1, 2, 3):
        game = patience.find_variant("storehouse").deal(seed)
        assert [codes(game.pile(f"f{i}")) for i in range(1, 5)] == ["2C", "2D", "2H", "2S"]
        reserve = game.pile("res")
        assert len(reserve) == 13 and face_down(reserve) == 12
        assert [len(game.pile(f"c{i}")) for i in range(1, 5)] == [1, 1, 1, 1]
        assert len(game.stock) == 31 and game.text().endswith(" r:0")


def test_superior_canfield_deals_the_reserve_face_up():
    for seed in (1, 2, 3):
        game = patience.find_variant("superior-canfield").deal(seed)
        reserve = game.pile("r")
        assert len(reserve) == 13 and face_down(reserve) == 0
        assert len(game.pile("f1")) == 1 and len(game.stock) == 34


# --- Forty Thieves kin ------------------------------------------------------------------------


def test_lucas_a_run_in_suit_moves_whole_onto_its_suit_or_a_gap():
    # c1 QS JS TS; c2 KS; c3 KH; c4 empty; foundations A-7 of every suit of both decks
    foundations = "/".join(f"A{s}2{s}3{s}4{s}5{s}6{s}7{s}" for s in "CCDDHHSS")
    game = position("lucas", f"c:QSJSTS/KS/KH////////// w: f:{foundations} s:*")
    # QS JS TS onto KS only (not KH, another suit); any part of it, or KS, KH, into a gap
    gaps = {f"c{g}" for g in range(4, 14)}
    expected = {"c1:3-c2", "d"}
    expected |= {f"{m}-{g}" for g in gaps for m in ("c1:1", "c1:2", "c1:3", "c2:1", "c3:1")}
    expected |= {f"f{i}:1-{g}" for i in range(1, 9) for g in gaps}
    assert moves(game) == expected
    game.push("c1:3-c2")
    assert codes(game.pile("c2")) == "KSQSJSTS"


def test_number_ten_runs_in_alternate_colours_move_whole():
    # c1 KH QC JH over two face-down KC; c2 KD; c3 QS; c4-c10 empty
    foundations = "/".join(f"A{s}2{s}3{s}4{s}5{s}6{s}7{s}" for s in "CCDDHHSS")
    game = position("number-ten", f"c:kckcKHQCJH/KD/QS/////// w: f:{foundations} s:*")
    # QC JH on KD, JH on QS, QS on KD; any face-up part of c1, KD, QS, a foundation's 7 into
    # a gap; the face-down KCs never move
    gaps = {f"c{g}" for g in range(4, 11)}
    expected = {"c1:2-c2", "c1:1-c3", "c3:1-c2", "d"}
    expected |= {f"{m}-{g}" for g in gaps for m in ("c1:1", "c1:2", "c1:3", "c2:1", "c3:1")}
    expected |= {f"f{i}:1-{g}" for i in range(1, 9) for g in gaps}
    assert moves(game) == expected
    game.push("c1:2-c2")
    assert codes(game.pile("c2")) == "KDQCJH" and codes(game.pile("c1")) == "kckcKH"
    game.push("c1:1-c4")                                  # KH into a gap: a KC turns up
    assert codes(game.pile("c1")) == "kcKC"


def test_red_and_black_foundations_build_up_in_alternate_colours():
    # each foundation has its Ace; 2D, 2S, 3H in the columns, c4-c8 empty
    game = position("red-and-black", "c:2D/2S/3H///// w: f:AC/AC/AD/AD/AH/AH/AS/AS s:*")
    # 2D goes on a black Ace (f1, the first that takes it), 2S on a red one (f3); 2S also on
    # 3H; 3H goes up on nothing yet; the Aces come back onto a 2 of the other colour; every
    # column card and every Ace into a gap
    gaps = [f"c{g}" for g in range(4, 9)]
    expected = {"c1:1-f", "c2:1-f", "c2:1-c3", "d"}
    expected |= {f"c{c}:1-{g}" for c in (1, 2, 3) for g in gaps}
    expected |= {f"f{i}:1-{g}" for i in range(1, 9) for g in gaps}
    expected |= {"f1:1-c1", "f2:1-c1", "f7:1-c1", "f8:1-c1", "f3:1-c2", "f4:1-c2", "f5:1-c2",
                 "f6:1-c2"}
    assert moves(game) == expected
    game.push("c1:1-f")
    game.push("c2:1-f")
    assert codes(game.pile("f1")) == "AC2D" and codes(game.pile("f3")) == "AD2S"
    assert "c3:1-f" in moves(game)                        # 3H on the black 2S
    game.push("c3:1-f")
    assert codes(game.pile("f3")) == "AD2S3H"


# --- Canfield kin -----------------------------------------------------------------------------


def test_superior_canfield_a_gap_waits_for_any_card():
    # base rank 9 (9C on f1); c1 empty, c2 TD, c3 8C, c4 KH; the reserve shows 5S over 4H;
    # the waste shows JS; the stock is out
    game = position("superior-canfield", "c:/TD/8C/KH r:*4H5S w:JS f:9C/// s:")
    # no gap is filled by itself: every top card may go into it; nothing builds (TD has no
    # black J, 8C no red 9, KH no black A, 5S no red 6, JS no red Q in the columns); the deal
    # turns the waste back over
    assert moves(game) == {"c2:1-c1", "c3:1-c1", "c4:1-c1", "r:1-c1", "w:1-c1", "d"}
    game.push("r:1-c1")
    assert codes(game.pile("c1")) == "5S" and codes(game.pile("r"))[-2:] == "4H"
    assert "c1:1-r" not in moves(game)


def test_rainbow_builds_on_any_suit_and_turns_the_stock_once():
    # base rank 9 (9C on f1); c1 8H, c2 7H, c3 7S, c4 KD; the reserve is out; stock: 6D, 6C
    game = position("rainbow", "c:8H/7H/7S/KD r: w:* f:9C/// s:6D6C")
    # 7H or 7S on 8H (suits do not matter), no card on its own colour rule; the deal
    assert moves(game) == {"c2:1-c1", "c3:1-c1", "d"}
    game.push("d")
    assert moves(game) == {"c2:1-c1", "c3:1-c1", "w:1-c2", "w:1-c3", "d"}   # 6D on a 7
    game.push("d")
    game.push("c3:1-c1")                                  # 7S on 8H leaves a gap in c3
    # with the reserve out the gap takes any card; 6C goes on 7H or 7S; no deal is left
    assert moves(game) == {"w:1-c1", "w:1-c2", "w:1-c3", "c1:1-c3", "c1:2-c3", "c2:1-c3",
                           "c4:1-c3"}
    assert "d" not in moves(game)                         # once through


# --- Klondike kin -----------------------------------------------------------------------------


def test_whitehead_a_run_of_one_suit_lands_on_the_other_suit_of_its_colour():
    # c1 9D 8D 7D (one suit), c2 TH, c3 TD 9H (two suits of one colour), c4 JS; c5-c7 empty
    game = position("whitehead", "c:9D8D7D/TH/TD9H/JS/// w: f:/// s:*")
    # 9D 8D 7D onto TH, 8D 7D onto 9H, 9H onto TH; TD 9H never moves together; any movable
    # card or run into a gap; the deal
    gaps = ("c5", "c6", "c7")
    expected = {"c1:3-c2", "c1:2-c3", "c3:1-c2", "d"}
    expected |= {f"{m}-{g}" for g in gaps
                 for m in ("c1:1", "c1:2", "c1:3", "c2:1", "c3:1", "c4:1")}
    assert moves(game) == expected


def test_thumb_and_pouch_any_other_suit_and_any_card_into_a_gap():
    game = position("thumb-and-pouch", "c:9S/8S/8C/7H/// w: f:/// s:*")
    # 8C on 9S (not 8S: its own suit); 7H on 8S or 8C; every top card into a gap
    gaps = ("c5", "c6", "c7")
    expected = {"c3:1-c1", "c4:1-c2", "c4:1-c3", "d"}
    expected |= {f"c{c}:1-{g}" for c in (1, 2, 3, 4) for g in gaps}
    assert moves(game) == expected


# --- Golf and Scorpion kin --------------------------------------------------------------------


def test_dead_king_golf_a_king_on_the_waste_stops_every_column():
    # the waste shows QD; c1 KS, c2 JC, c3 KH; the stock: 5C
    game = position("dead-king-golf", "c:KS/JC/KH//// w:*QD s:5C")
    assert moves(game) == {"c1:1-w", "c2:1-w", "c3:1-w", "d"}
    game.push("c1:1-w")
    assert moves(game) == {"d"}                           # JC and KH wait for the stock
    game.push("d")
    assert moves(game) == set()                           # 5C: nothing one rank away, no stock


def test_wasp_a_gap_takes_any_face_up_card_with_everything_on_it():
    # c1 holds the hearts and spades the test does not name, face down, under 5H 9S 8H; c2 is
    # empty, c3-c7 hold single cards; clubs and diamonds are done
    game = position("wasp", "c:?5H9S8H//2S/3S/4H/6H/JS f:KCQCJCTC9C8C7C6C5C4C3C2CAC/"
                            "KDQDJDTD9D8D7D6D5D4D3D2DAD// s:")
    # any face-up card of c1 with what lies on it, or any single card, into the gap c2; 2S on
    # 3S; 5H, with the 9S 8H on it, on 6H (Scorpion moves any face-up card with all the cards
    # on it); 4H has no 5H on top to go on; nothing else builds
    assert moves(game) == {"c1:1-c2", "c1:2-c2", "c1:3-c2", "c1:3-c6", "c3:1-c2", "c3:1-c4",
                           "c4:1-c2", "c5:1-c2", "c6:1-c2", "c7:1-c2"}


# --- Gypsy kin and Curds and Whey -------------------------------------------------------------


@pytest.mark.parametrize("variant", ["easthaven", "agnes-sorel"])
def test_a_deal_gives_one_card_to_every_column_and_the_last_to_the_first_ones(variant):
    game = patience.find_variant(variant).deal(1)
    while len(game.stock) >= 7:
        before = [len(game.pile(f"c{i}")) for i in range(1, 8)]
        game.push("d")
        assert [len(game.pile(f"c{i}")) for i in range(1, 8)] == [n + 1 for n in before]
    left = len(game.stock)                                # 31 = 4 x 7 + 3; 23 = 3 x 7 + 2
    assert left == {"easthaven": 3, "agnes-sorel": 2}[variant]
    before = [len(game.pile(f"c{i}")) for i in range(1, 8)]
    game.push("d")
    assert [len(game.pile(f"c{i}")) for i in range(1, 8)] == [
        n + (1 if i < left else 0) for i, n in enumerate(before)]
    assert game.stock == [] and "d" not in moves(game)


def test_agnes_sorel_a_gap_is_filled_only_by_a_deal():
    # base rank 5 (5H on f1); c1 JH, c2 empty, c3 TH; the stock deals 2C first
    game = position("agnes-sorel", "c:JH//TH//// f:5H/// s:2C3C4C6C7C8C9C*")
    assert moves(game) == {"c3:1-c1", "d"}                # TH on JH; nothing into c2
    game.push("d")
    assert codes(game.pile("c2")) == "3C"


def test_curds_and_whey_a_run_of_one_rank_moves_onto_its_rank():
    # deal 1: c4 is 8H 7H 4S 3S; c6 5S 2C 7C 4C: 4S 3S (one suit) goes on the 4C
    game = patience.find_variant("curds-and-whey").deal(1)
    game.push("c4:2-c6")
    assert codes(game.pile("c6")) == "5S2C7C4C4S3S"
    # 4C 4S 3S is no run (neither one suit nor one rank); 7H, now on top of c4, has no 7
    # or 8H to go on; 3S goes on the 3D, 3H (same rank) as before
    assert "c6:3-c4" not in moves(game)
    assert {"c6:1-c3", "c6:1-c10"} <= moves(game)
