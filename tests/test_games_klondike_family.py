"""The Klondike family and its neighbours, as shipped in variants/: Klondike (draw 1, draw 3,
Vegas), Canfield, Fortune's Favor, Golf, Black Hole, Aces Up, Forty Thieves and Yukon.

Every expected move list below is worked out by hand from the rules each file cites
(PySolFC's rule pages and code; see each file's ``sources:``), never pasted from the
generator. A position is written as its one-line text with two shorthands (see
:func:`position`): ``*`` stands for the deck's cards the test does not name, face up, and
``?`` for the same cards face down, in deck order. Wherever they go, they cannot move: they
lie under other cards, in a stock the test only deals from, or under a waste or hole top.
"""

from __future__ import annotations

from collections import Counter

import pytest

import patience
from patience.cards import FACE_DOWN, card_code
from patience.game import Game

RANKS = "A23456789TJQK"
CLUBS, DIAMONDS, HEARTS, SPADES = ("".join(rank + suit for rank in RANKS) for suit in "CDHS")


def position(variant_id: str, text: str) -> Game:
    """The position ``text`` of a shipped variant, with ``*`` (face up) or ``?`` (face down)
    standing for every card of the deck that the text does not name, in deck order."""
    variant = patience.find_variant(variant_id)
    named = Counter(text[i:i + 2].upper() for i in range(len(text) - 1)
                    if text[i].upper() in RANKS and text[i + 1].upper() in "CDHS")
    rest = Counter(card_code(card) for card in variant.deck) - named
    assert not named - Counter(card_code(card) for card in variant.deck), "a card named twice"
    codes = [code for code in dict.fromkeys(card_code(card) for card in variant.deck)
             for _ in range(rest[code])]
    text = text.replace("*", "".join(codes)).replace("?", "".join(codes).lower())
    return variant.position(text)


def moves(game: Game) -> set[str]:
    """The legal moves of ``game`` in notation."""
    return {game.notation(move) for move in game.legal_moves}


def face_down(pile: list[int]) -> int:
    return sum(1 for card in pile if card & FACE_DOWN)


def codes(pile: list[int]) -> str:
    """A pile as position text writes it (face-down cards in lower case)."""
    return "".join(card_code(c).lower() if c & FACE_DOWN else card_code(c) for c in pile)


# --- Klondike (draw 1, unlimited redeals) -----------------------------------------------------

# c1 empty; c2 holds a face-down 5S under the run KH QS JH; c3 a face-down 2C under 8D;
# tops 9S, TC, AH, 3D; the waste shows 7C; f1 holds AS 2S.
KLONDIKE_PLAY = "c:/5sKHQSJH/2c8D/9S/TC/AH/3D w:4H7C f:AS2S/// s:*"


@pytest.mark.parametrize("variant", ["klondike", "klondike-draw3", "klondike-vegas"])
def test_klondike_building_runs_gaps_foundations_and_the_waste(variant):
    # KH QS JH into the gap (a King-headed run; QS JH or JH alone may not go there, and no
    # run reaches down to the face-down 5S); 8D on 9S; TC on JH; AH to the first empty
    # foundation; 7C from the waste on 8D; the 2S back off its foundation onto the red 3D;
    # and the deal. 9S (no red T), 3D (no black 4), JH/QS (no black Q / red K) do not move.
    game = position(variant, KLONDIKE_PLAY)
    assert moves(game) == {"c2:3-c1", "c3:1-c4", "c5:1-c2", "c6:1-f", "w:1-c3", "f1:1-c7",
                           "d"}


def test_klondike_a_move_that_exposes_a_face_down_card_turns_it_up():
    game = position("klondike", KLONDIKE_PLAY)
    game.push("c2:3-c1")
    assert codes(game.pile("c1")) == "KHQSJH"
    assert codes(game.pile("c2")) == "5S"            # turned up by the move itself
    # no gap is left for the King's run; the 5S has no red 6 and no 4S below it; TC goes on
    # the JH, now in c1; the rest is as before
    assert moves(game) == {"c3:1-c4", "c5:1-c1", "c6:1-f", "w:1-c3", "f1:1-c7", "d"}
    game.pop()
    assert codes(game.pile("c2")) == "5sKHQSJH"       # taking the move back turns it down


def test_klondike_the_ace_goes_to_the_first_empty_foundation():
    game = position("klondike", KLONDIKE_PLAY)
    game.push("c6:1-f")
    assert [codes(game.pile(f"f{i}")) for i in range(1, 5)] == ["AS2S", "AH", "", ""]


# Stock empty; the waste holds 5S 3S 7S 4S 6S (5S turned first, 6S on top). c1-c6 hold KS QS
# JS TS 9S 8S, c7 the KH; f1, f2 full, f3 hearts to the Q, f4 AS 2S.
KLONDIKE_EMPTY_STOCK = (f"c:KS/QS/JS/TS/9S/8S/KH w:5S3S7S4S6S "
                        f"f:{CLUBS}/{DIAMONDS}/{HEARTS[:-2]}/AS2S s:")


def test_klondike_the_deal_of_an_empty_stock_turns_the_waste_over_in_order():
    # QS on KH; KH up onto QH; QH back down onto KS; the waste's 6S has no red 7 and no 5S
    # below it on a foundation; the deal is the redeal
    game = position("klondike", KLONDIKE_EMPTY_STOCK)
    assert moves(game) == {"c2:1-c7", "c7:1-f", "f3:1-c1", "d"}
    game.push("d")
    assert codes(game.pile("w")) == ""
    assert game.text().endswith(" s:5S3S7S4S6S")        # 5S, turned first, comes first again
    game.push("d")
    assert codes(game.pile("w")) == "5S"
    game.pop()
    game.pop()
    assert game.text() == position("klondike", KLONDIKE_EMPTY_STOCK).text()


def test_klondike_redeals_are_unlimited():
    game = position("klondike", KLONDIKE_EMPTY_STOCK)
    for _ in range(4):                                  # through the stock four more times
        game.push("d")
        for _ in range(5):
            game.push("d")
        assert codes(game.pile("w")) == "5S3S7S4S6S"
    assert "d" in moves(game) and game.redeals_left is None


def test_klondike_nothing_to_redeal_means_no_deal():
    # the same cards with the waste's five spades moved onto the foundation and columns
    game = position("klondike", f"c:KS/QS/JS/TS/9S/8S7S/KH w: "
                                f"f:{CLUBS}/{DIAMONDS}/{HEARTS[:-2]}/AS2S3S4S5S6S s:")
    # 7S up on 6S (8S 7S is no run: both black); QS on KH; KH up; QH down onto KS; the 6S
    # has no red 7 to go back on; with no stock and no waste there is no deal
    assert moves(game) == {"c6:1-f", "c2:1-c7", "c7:1-f", "f3:1-c1"}


def test_vegas_klondike_has_no_redeal():
    game = position("klondike-vegas", KLONDIKE_EMPTY_STOCK)
    assert moves(game) == {"c2:1-c7", "c7:1-f", "f3:1-c1"}
    assert game.redeals_left == 0


def test_casino_klondike_two_redeals_are_counted_in_the_position_text(tmp_path):
    # PySolFC's Casino Klondike (html-src/rules/casinoklondike.html: "only two redeals") is
    # not shipped, but it is the one-line child of klondike.yaml that exercises a limit > 0
    path = tmp_path / "casino.yaml"
    path.write_text("extends: klondike\nid: casino-klondike\nname: Casino Klondike\n"
                    "stock:\n  redeals: 2\n", encoding="utf-8")
    variant = patience.find_variant(str(path))
    game = variant.position(KLONDIKE_EMPTY_STOCK)
    assert game.text().endswith(" s: r:0") and game.redeals_left == 2
    for made in (1, 2):
        assert "d" in moves(game)
        game.push("d")                                  # the redeal
        assert game.text().endswith(f" s:5S3S7S4S6S r:{made}")
        for _ in range(5):
            game.push("d")
    assert game.redeals_left == 0
    assert moves(game) == {"c2:1-c7", "c7:1-f", "f3:1-c1"}      # no third redeal
    again = variant.position(game.text())               # r:2 is read back
    assert again.redeals_left == 0 and "d" not in moves(again)


def test_klondike_deals_lay_out_one_to_seven_cards_with_the_top_one_face_up():
    for variant in ("klondike", "klondike-draw3", "klondike-vegas"):
        for seed in (1, 2, 3):
            game = patience.find_variant(variant).deal(seed)
            columns = [game.pile(f"c{i}") for i in range(1, 8)]
            assert [len(c) for c in columns] == [1, 2, 3, 4, 5, 6, 7]
            assert [face_down(c) for c in columns] == [0, 1, 2, 3, 4, 5, 6]
            assert not any(c[-1] & FACE_DOWN for c in columns)
            assert game.pile("w") == [] and len(game.stock) == 24
            assert all(game.pile(f"f{i}") == [] for i in range(1, 5))


def test_klondike_deal_1_perft_by_hand():
    # deal 1: c1 7D, c2 .. 6D, c3 .. 2D, c4 .. 2C, c5 .. KH, c6 .. JS, c7 .. 8S; the stock
    # turns the QC first. Moves: 7D on 8S, d. After 7D on 8S: KH into the empty c1, d
    # (8S 7D is no King's run). After d: 7D on 8S, QC on KH, d.
    from patience.perft import divide

    assert dict(divide(patience.find_variant("klondike").deal(1), 2)) == {"c1:1-c7": 2,
                                                                           "d": 3}


def test_klondike_a_pass_through_the_stock_and_the_redeal_give_the_same_stock():
    game = patience.find_variant("klondike").deal(1)
    stock = list(game.stock)
    for _ in range(24):
        game.push("d")
    assert game.pile("w") == list(reversed(stock))      # the first card turned is at the bottom
    game.push("d")
    assert game.stock == stock and game.pile("w") == []


# --- Klondike (Draw 3) --------------------------------------------------------------------------


def test_draw_three_turns_three_cards_the_third_on_top():
    game = position("klondike-draw3", "c:KS/QS/JS/TS/9S/8S/KH w: "
                                      f"f:{CLUBS}/{DIAMONDS}/{HEARTS[:-2]}/AS2S s:3S4S5S6S7S")
    game.push("d")
    assert codes(game.pile("w")) == "3S4S5S" and game.text().endswith(" s:6S7S")
    # only the top card plays: 5S has no red 6 and no 4S below it; 3S (under it) would go up
    assert moves(game) == {"c2:1-c7", "c7:1-f", "f3:1-c1", "d"}
    game.push("d")                                      # the last deal of a pass turns two
    assert codes(game.pile("w")) == "3S4S5S6S7S" and game.stock == []
    game.push("d")                                      # the redeal
    assert game.pile("w") == [] and game.text().endswith(" s:3S4S5S6S7S")
    game.push("d")
    assert codes(game.pile("w")) == "3S4S5S"


def test_draw_three_a_full_pass_and_redeal_keep_the_stock_order():
    game = patience.find_variant("klondike-draw3").deal(2)
    stock = list(game.stock)
    for _ in range(8):
        game.push("d")
    assert game.pile("w") == list(reversed(stock))
    game.push("d")
    assert game.stock == stock


# --- Canfield -----------------------------------------------------------------------------------

# Base rank 5 (the 5S on f1). c1 9H 8C 7D, c2 2C, c3 AH, c4 9D; the reserve shows KS over
# face-down cards; the waste shows KC.
CANFIELD_BUILD = "c:9H8C7D/2C/AH/9D r:?KS w:KC f:5S/// s:"


def test_canfield_top_card_or_whole_column_and_kings_on_aces():
    # AH on 2C; KS from the reserve and KC from the waste on the AH (turning the corner);
    # 8C 7D may not leave as part of c1 (onto 9D); the whole c1 has no black T; 7D no
    # black 8; 9D no black T; 2C no red 3; nothing reaches the base rank 5; the deal
    # (the stock is empty but the waste has a card: the redeal)
    game = position("canfield", CANFIELD_BUILD)
    assert moves(game) == {"c3:1-c2", "r:1-c3", "w:1-c3", "d"}
    assert game.explain("c1:2-c4") is not None


# f1 5S 6S, f2 5D. c1 9H 8C 7D, c2 7S, c3 5H, c4 TS; the reserve shows 4C over a face-down
# QC (and the rest); the waste shows 6D; the stock has the rest.
CANFIELD_PLAY = "c:9H8C7D/7S/5H/TS r:qc4C w:6D f:5S6S/5D// s:*"


def test_canfield_foundations_start_at_the_base_rank():
    # the whole c1 onto TS; 7S up on 6S; the 5H (base rank) to an empty foundation; 4C from
    # the reserve on 5H; 6D up on 5D or down on 7S; the deal
    game = position("canfield", CANFIELD_PLAY)
    assert moves(game) == {"c1:3-c4", "c2:1-f", "c3:1-f", "r:1-c3", "w:1-f", "w:1-c2", "d"}
    game.push("c3:1-f")
    assert codes(game.pile("f3")) == "5H"


def test_canfield_a_gap_is_filled_from_the_reserve_at_once():
    game = position("canfield", CANFIELD_PLAY)
    game.push("c2:1-f")
    assert codes(game.pile("c2")) == "4C"               # the reserve's top card, at once
    assert codes(game.pile("r")) == "QC"                # and the next one turned up
    assert [game.notation(m) for m in game.forced_moves_of_last_move()] == ["r:1-c2"]
    game.pop()
    assert game.text() == position("canfield", CANFIELD_PLAY).text()


def test_canfield_reading_a_gap_with_reserve_cards_fills_it():
    game = position("canfield", "c:9H8C7D//5H/TS r:qc4C w:6D f:5S6S7S/5D// s:*")
    assert codes(game.pile("c2")) == "4C" and codes(game.pile("r")) == "QC"


# The reserve is used up: c2 stays empty and takes any card. f1 holds 5S up to KS, so the AS
# on the waste turns the corner onto it.
CANFIELD_NO_RESERVE = "c:9H8C7D//JC/2D r: w:AS f:5S6S7S8S9STSJSQSKS/// s:*"


def test_canfield_once_the_reserve_is_out_a_gap_takes_any_card_and_foundations_wrap():
    # into c2: 7D, the whole c1, JC, 2D, the AS; AS on the red 2D; AS up on the KS; the deal.
    # Not 8C 7D (part of c1); JC no red Q; 2D no black 3; 7D no black 8.
    game = position("canfield", CANFIELD_NO_RESERVE)
    assert moves(game) == {"c1:1-c2", "c1:3-c2", "c3:1-c2", "c4:1-c2", "w:1-c2", "w:1-c4",
                           "w:1-f", "d"}
    game.push("w:1-f")
    assert codes(game.pile("f1"))[-4:] == "KSAS"


def test_canfield_turns_three_and_redeals_without_limit():
    game = position("canfield", "c:9H8C7D/2C/AH/9D r:?KS w: f:5S/// s:KC3D4D4S")
    game.push("d")
    assert codes(game.pile("w")) == "KC3D4D" and game.text().endswith(" s:4S")
    game.push("d")
    assert codes(game.pile("w")) == "KC3D4D4S" and game.stock == []
    for _ in range(3):
        game.push("d")                                  # the redeal, again and again
        assert game.text().endswith(" s:KC3D4D4S")
        game.push("d")
        game.push("d")
    assert game.redeals_left is None


def test_canfield_deals_lay_out_the_reserve_the_base_card_and_four_columns():
    for seed in (1, 2, 3):
        game = patience.find_variant("canfield").deal(seed)
        assert [len(game.pile(f"c{i}")) for i in range(1, 5)] == [1, 1, 1, 1]
        reserve = game.pile("r")
        assert len(reserve) == 13 and face_down(reserve) == 12
        assert not reserve[-1] & FACE_DOWN
        assert len(game.pile("f1")) == 1
        assert [game.pile(f"f{i}") for i in range(2, 5)] == [[], [], []]
        assert game.pile("w") == [] and len(game.stock) == 34


# --- Fortune's Favor ----------------------------------------------------------------------------

# Aces on f1 (with the 2C), f2, f3, f4; twelve single cards; the waste shows 6S.
FORTUNES_PLAY = "c:3C/4C/2H/KD/QS/JH/9D/7S/5H/KC/8H/TD w:*6S f:AC2C/AD/AH/AS s:"


def test_fortunes_favor_single_cards_down_in_suit_and_foundations():
    # 3C up on 2C or down on 4C; 2H up on AH; 9D on TD; 6S from the waste on 7S; the 2C back
    # down on 3C, the AH back down on 2H. No deal: the stock is empty (no redeal).
    game = position("fortunes-favor", FORTUNES_PLAY)
    assert moves(game) == {"c1:1-f", "c1:1-c2", "c3:1-f", "c7:1-c12", "w:1-c8", "f1:1-c1",
                           "f3:1-c3"}


def test_fortunes_favor_a_gap_takes_the_waste_card_and_the_waste_the_stock_card():
    game = position("fortunes-favor", "c:3C/4C/2H/KD/QS/JH/9D/7S/5H/KC/8H/TD w:6S "
                                      "f:AC2C/AD/AH/AS s:*")
    stock = len(game.stock)
    game.push("c1:1-c2")
    assert codes(game.pile("c1")) == "6S"                # from the waste, at once
    assert len(game.pile("w")) == 1 and len(game.stock) == stock - 1   # refilled from the stock
    index = game.variant.pile_index                      # first the gap, then the waste
    assert game.forced_moves_of_last_move() == [(index["w"], 1, index["c1"]), (-1, 1, index["w"])]
    game.pop()
    assert codes(game.pile("c1")) == "3C" and codes(game.pile("w")) == "6S"


def test_fortunes_favor_an_empty_waste_is_refilled_from_the_stock_when_read():
    game = position("fortunes-favor", "c:3C/4C/2H/KD/QS/JH/9D/7S/5H/KC/8H/TD w: "
                                      "f:AC2C/AD/AH/AS s:6S*")
    assert codes(game.pile("w")) == "6S"


def test_fortunes_favor_with_waste_and_stock_out_a_gap_takes_any_card():
    # clubs and diamonds home, hearts and spades up to the 5; c1 empty and staying so
    game = position("fortunes-favor", f"c:/KHQH/KSQS/JHTH/JSTS/9H/9S/8H/8S/7H/7S/6H6S w: "
                                      f"f:{CLUBS}/{DIAMONDS}/{HEARTS[:10]}/{SPADES[:10]} s:")
    into_the_gap = {f"c{i}:1-c1" for i in range(2, 13)}
    building = {"c6:1-c4", "c7:1-c5", "c8:1-c6", "c9:1-c7", "c10:1-c8", "c11:1-c9",
                "c12:1-c11"}
    foundations = {"c12:1-f",                           # 6S up on 5S (the 6H is under it)
                   "f1:1-c1", "f2:1-c1", "f3:1-c1", "f4:1-c1", "f4:1-c12"}
    assert moves(game) == into_the_gap | building | foundations


def test_fortunes_favor_deals_place_the_aces_and_twelve_cards():
    for seed in (1, 2, 3):
        game = patience.find_variant("fortunes-favor").deal(seed)
        assert [codes(game.pile(f"f{i}")) for i in range(1, 5)] == ["AC", "AD", "AH", "AS"]
        columns = [game.pile(f"c{i}") for i in range(1, 13)]
        assert [len(c) for c in columns] == [1] * 12
        assert not any(card_code(c[0])[0] == "A" for c in columns)
        assert len(game.pile("w")) == 1 and len(game.stock) == 35


# --- Golf ---------------------------------------------------------------------------------------


def test_golf_a_top_card_one_rank_from_the_waste_goes_on_it():
    # waste 7H: 8S and 6D and 8D go on it, whatever the suit; 7C, KS, 9H do not; c6 is empty
    game = position("golf", "c:*8S/6D/7C/KS/9H//8D w:7H s:5C4C")
    assert moves(game) == {"c1:1-w", "c2:1-w", "c7:1-w", "d"}
    game.push("d")
    assert codes(game.pile("w"))[-2:] == "5C"             # the stock turns onto the waste
    assert moves(game) == {"c2:1-w", "d"}                 # 6D on 5C; 4C next


def test_golf_does_not_turn_the_corner_and_has_no_redeal():
    # waste KD: only the QH goes on it (no Ace on a King); then only the JD on the QH.
    game = position("golf", "c:AS/QH/2C/JD///3H w:*KD s:")
    assert moves(game) == {"c2:1-w"}
    game.push("c2:1-w")
    assert moves(game) == {"c4:1-w"}
    # waste AD: only the 2H (no King on an Ace; the 3C is two away)
    game = position("golf", "c:KS/QH/3C/JD///2H w:*AD s:")
    assert moves(game) == {"c7:1-w"}


def test_golf_is_won_with_the_columns_empty_even_with_stock_left():
    game = position("golf", "c:" + "/" * 6 + " w:*8C s:5C4C")
    assert game.is_won() and moves(game) == set()


def test_golf_deals_seven_columns_of_five_and_one_card_to_the_waste():
    for seed in (1, 2, 3):
        game = patience.find_variant("golf").deal(seed)
        assert [len(game.pile(f"c{i}")) for i in range(1, 8)] == [5] * 7
        assert len(game.pile("w")) == 1 and len(game.stock) == 16


# --- Black Hole ---------------------------------------------------------------------------------


def test_black_hole_takes_one_rank_up_or_down():
    # hole 5C: 6D, 4H, 4S go in; 5H (same rank), TD do not; fans 6-17 empty
    game = position("black-hole", "c:6D/4H/9C4S/5H/TD" + "/" * 12 + " h:*5C")
    assert moves(game) == {"c1:1-h", "c2:1-h", "c3:1-h"}


def test_black_hole_turns_the_corner():
    # hole KC: the AD and the QS go in; KH (same rank) and 2C (two away) do not
    game = position("black-hole", "c:AD/QS/KH/2C" + "/" * 13 + " h:*KC")
    assert moves(game) == {"c1:1-h", "c2:1-h"}
    game.push("c1:1-h")
    assert moves(game) == {"c3:1-h", "c4:1-h"}            # on the AD: the KH and the 2C


def test_black_hole_is_won_with_every_card_in_the_hole():
    game = position("black-hole", "c:" + "/" * 16 + " h:*")
    assert game.is_won() and moves(game) == set()


def test_black_hole_deals_seventeen_fans_of_three_after_placing_the_ace_of_spades():
    for seed in (1, 2, 3):
        game = patience.find_variant("black-hole").deal(seed)
        assert codes(game.pile("h")) == "AS"
        fans = [game.pile(f"c{i}") for i in range(1, 18)]
        assert [len(f) for f in fans] == [3] * 17
        assert "AS" not in {card_code(c) for fan in fans for c in fan}
        assert game.stock == []


# --- Aces Up ------------------------------------------------------------------------------------


def test_aces_up_discards_a_card_beaten_by_another_top_card_of_its_suit():
    # tops 5H, 9H, AD, KD: the 5H is beaten by the 9H, the KD by the AD (Aces high); the 9H
    # by nothing (the KH under the 5H is not a top card); the AD never leaves
    game = position("aces-up", "c:KH5H/9H/AD/KD f: s:*")
    assert moves(game) == {"c1:1-f", "c4:1-f", "d"}


def test_aces_up_a_gap_takes_any_top_card():
    # c2 empty: 7S, 3S and QC may go into it; 3S is beaten by 7S; the deal fills c2 too
    game = position("aces-up", "c:2C7S//3S/QC f: s:*")
    assert moves(game) == {"c1:1-c2", "c3:1-c2", "c4:1-c2", "c3:1-f", "d"}
    game.push("d")
    assert [len(game.pile(f"c{i}")) for i in range(1, 5)] == [3, 1, 2, 2]


def test_aces_up_is_won_with_one_ace_to_a_pile():
    won = position("aces-up", "c:AC/AD/AH/AS f:* s:")
    assert won.is_won() and moves(won) == set()
    # all 48 discarded but two Aces share a pile: not won; an Ace may go into the gap
    game = position("aces-up", "c:AC/ADAH//AS f:* s:")
    assert not game.is_won()
    assert moves(game) == {"c1:1-c3", "c2:1-c3", "c4:1-c3"}


def test_aces_up_deals_one_card_to_each_of_four_piles():
    game = patience.find_variant("aces-up").deal(1)
    assert [len(game.pile(f"c{i}")) for i in range(1, 5)] == [1] * 4
    assert len(game.stock) == 48
    game.push("d")
    assert [len(game.pile(f"c{i}")) for i in range(1, 5)] == [2] * 4


# --- Forty Thieves -----------------------------------------------------------------------------

FORTY_PLAY = "c:8S/9S/AH/3D/KC/QD/7C/JH/5S/2C w:6C f:AD2D/AC////// s:*"


def test_forty_thieves_single_cards_in_suit_foundations_and_the_waste():
    # 8S on 9S; AH to an empty foundation; 3D up on 2D; 2C up on AC; 6C from the waste on
    # 7C; 2D back on 3D; AC back on 2C; the deal
    game = position("forty-thieves", FORTY_PLAY)
    assert moves(game) == {"c1:1-c2", "c3:1-f", "c4:1-f", "c10:1-f", "w:1-c7", "f1:1-c4",
                           "f2:1-c10", "d"}


def test_forty_thieves_a_gap_takes_any_single_card_and_two_aces_of_a_suit_go_up():
    game = position("forty-thieves", "c:9S8S7S//KD/QD/AH/AH/4C/6D/JS/2S w:3C f:" + "/" * 7 +
                    " s:*")
    into_the_gap = {f"c{i}:1-c2" for i in (1, 3, 4, 5, 6, 7, 8, 9, 10)} | {"w:1-c2"}
    assert moves(game) == into_the_gap | {"c4:1-c3", "w:1-c7", "c5:1-f", "c6:1-f", "d"}
    game.push("c5:1-f")
    game.push("c6:1-f")
    assert [codes(game.pile(f"f{i}")) for i in (1, 2, 3)] == ["AH", "AH", ""]


def test_forty_thieves_deals_ten_columns_of_four_from_two_decks():
    game = patience.find_variant("forty-thieves").deal(1)
    assert [len(game.pile(f"c{i}")) for i in range(1, 11)] == [4] * 10
    assert len(game.stock) == 64 and game.pile("w") == []
    assert not any(face_down(game.pile(f"c{i}")) for i in range(1, 11))


def test_forty_thieves_is_one_pass():
    game = position("forty-thieves", "c:9S8S7S//KD/QD/AH/AH/4C/6D/JS/2S w:*3C f:" + "/" * 7 +
                    " s:")
    assert "d" not in moves(game)


# --- Yukon --------------------------------------------------------------------------------------

# c1 empty; c2 a face-down 4H under KS 2D 8C (not a sequence); c3 3C; c4 9H; c5 QD; c6 3H;
# c7 the rest face down under the AD; f1 AC 2C.
YUKON_PLAY = "c:/4hKS2D8C/3C/9H/QD/3H/?AD f:AC2C/// s:"


def test_yukon_any_face_up_card_moves_with_everything_on_it():
    # 8C on 9H; 2D 8C onto 3C (only the 2D must fit); KS 2D 8C into the gap (King at its
    # bottom; 2D 8C may not go there); 3C up on 2C; AD up. The 2C may not come back down
    # onto the 3H: "cards in foundations are no longer in play". No stock, no deal.
    game = position("yukon", YUKON_PLAY)
    assert moves(game) == {"c2:1-c4", "c2:2-c3", "c2:3-c1", "c3:1-f", "c7:1-f"}


def test_yukon_the_exposed_card_turns_up():
    game = position("yukon", YUKON_PLAY)
    game.push("c2:3-c1")
    assert codes(game.pile("c2")) == "4H"
    # 8C on 9H and 2D 8C onto 3C, now from c1; no gap is left; the 4H has no black 5; the 3C
    # goes on the 4H or up; the AD up
    assert moves(game) == {"c1:1-c4", "c1:2-c3", "c3:1-c2", "c3:1-f", "c7:1-f"}


def test_yukon_deals_one_to_eleven_cards_with_five_face_up():
    for seed in (1, 2, 3):
        game = patience.find_variant("yukon").deal(seed)
        columns = [game.pile(f"c{i}") for i in range(1, 8)]
        assert [len(c) for c in columns] == [1, 6, 7, 8, 9, 10, 11]
        assert [face_down(c) for c in columns] == [0, 1, 2, 3, 4, 5, 6]
        assert game.stock == []
