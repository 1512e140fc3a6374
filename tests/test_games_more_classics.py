"""More classic games, each against its cited rules: Gypsy, Russian Solitaire, Bisley,
Flower Garden, Napoleon's Square, Limited, Raglan, Beehive, Canister, Deuces and
Grandfather's Clock (variants/<id>.yaml).

The rules are PySolFC's (rule pages and code, as cited in each file's ``sources:``), with
the readings each file's comments name. Every expected move set below was worked out by
hand from those rules, pile by pile; none was pasted from the generator. A position is
written as its one-line text with one shorthand (see :func:`position`): ``*`` stands for
the deck's cards the text does not name, face up, in deck order; wherever they go they
cannot move (under other cards, or in a stock the test only deals from).
"""

from __future__ import annotations

from collections import Counter

import patience
from patience.cards import FACE_DOWN, card_code
from patience.game import Game
from patience.solver import exhaustive_verdict

RANKS = "A23456789TJQK"


def suit(letter: str, low: str = "A", high: str = "K") -> str:
    """The cards of one suit from ``low`` to ``high``, e.g. ``suit("C", "2", "8")``."""
    return "".join(rank + letter for rank in RANKS[RANKS.index(low):RANKS.index(high) + 1])


def position(variant_id: str, text: str) -> Game:
    """The position ``text`` of a shipped variant, ``*`` standing for every card of the
    deck that the text does not name, face up, in deck order."""
    variant = patience.find_variant(variant_id)
    deck = Counter(card_code(card) for card in variant.deck)
    named = Counter(text[i:i + 2].upper() for i in range(len(text) - 1)
                    if text[i].upper() in RANKS and text[i + 1].upper() in "CDHS")
    assert not named - deck, "a card named too often"
    rest = deck - named
    codes = [code for code in dict.fromkeys(card_code(card) for card in variant.deck)
             for _ in range(rest[code])]
    return variant.position(text.replace("*", "".join(codes)))


def moves(game: Game) -> set[str]:
    return {game.notation(move) for move in game.legal_moves}


def codes(pile: list[int]) -> str:
    """A pile as position text writes it (face-down cards in lower case)."""
    return "".join(card_code(c).lower() if c & FACE_DOWN else card_code(c) for c in pile)


def sizes(game: Game, prefix: str, count: int) -> list[int]:
    return [len(game.pile(f"{prefix}{i}")) for i in range(1, count + 1)]


def face_down(game: Game, name: str) -> int:
    return sum(1 for card in game.pile(name) if card & FACE_DOWN)


# --- Gypsy ----------------------------------------------------------------------------------

# Two decks; A-8 of every suit of both decks on the foundations. c1 holds a face-down 9S
# under KH QS; c5 is a gap; the stock deals TH JC QD 9S KD TS QC JH first.
GYPSY_FOUNDATIONS = "/".join(suit(s, "A", "8") for s in "CCDDHHSS")
GYPSY = (f"c:9sKHQS/JH/JDTC/9H//QHJS/TD9C/KC9D f:{GYPSY_FOUNDATIONS} "
         "s:THJCQD9SKDTSQCJH*")


def test_gypsy_deals_eight_columns_of_three_two_face_down():
    for seed in (1, 2, 3):
        game = patience.find_variant("gypsy").deal(seed)
        assert sizes(game, "c", 8) == [3] * 8
        assert [face_down(game, f"c{i}") for i in range(1, 9)] == [2] * 8
        assert len(game.stock) == 80 and sizes(game, "f", 8) == [0] * 8


def test_gypsy_a_deal_gives_every_column_a_card_gaps_included():
    game = position("gypsy", GYPSY)
    game.push("d")
    assert [codes(game.pile(f"c{i}"))[-2:] for i in range(1, 9)] == [
        "TH", "JC", "QD", "9S", "KD", "TS", "QC", "JH"]
    assert codes(game.pile("c5")) == "KD"             # the gap got its card too
    # TH on JC, QC on the KD dealt into the gap, 9S home on 8S
    assert {"c1:1-c2", "c7:1-c5", "c4:1-f"} <= moves(game)
    assert "c3:1-c5" not in moves(game)               # QD on KD: the same colour


def test_gypsy_runs_move_whole_and_uncover_a_face_down_card():
    game = position("gypsy", GYPSY)
    game.push("c1:2-c5")                              # KH QS into the gap
    assert codes(game.pile("c1")) == "9S"             # turned up
    assert codes(game.pile("c5")) == "KHQS"
    # 9S: home on 8S, onto no red T (TD is under 9C); JH onto QS now in c5; JD TC too
    assert {"c1:1-f", "c2:1-c5", "c3:2-c5"} <= moves(game)
    game.pop()
    assert codes(game.pile("c1")) == "9sKHQS"


def test_gypsy_foundation_cards_come_back_one_at_a_time():
    game = position("gypsy", GYPSY)
    # 8C (f1, f2) onto the red 9s of c4 and c8; 8D and 8H (f3-f6) onto the black 9C of c7;
    # 8S (f7, f8) onto 9H and 9D; every foundation's top into the gap
    back = {m for m in moves(game) if m.startswith("f")}
    assert back == ({f"f{i}:1-c5" for i in range(1, 9)}
                    | {"f1:1-c4", "f2:1-c4", "f7:1-c4", "f8:1-c4",
                       "f3:1-c7", "f4:1-c7", "f5:1-c7", "f6:1-c7",
                       "f1:1-c8", "f2:1-c8", "f7:1-c8", "f8:1-c8"})


# --- Russian Solitaire -----------------------------------------------------------------------

RUSSIAN = ("c:KD/qsKH9CJD/JS/TCTD/th9H//QD9S9DKSJCJHQHKCQCTS f:"
           + "/".join(suit(s, "A", "8") for s in "CDHS") + " s:")


def test_russian_solitaire_builds_in_suit_where_yukon_builds_in_colours():
    russian, yukon = position("russian-solitaire", RUSSIAN), position("yukon", RUSSIAN)
    # in suit: TD on JD, TS on JS, QD with nine cards on KD, 9D with seven on TD; Kings with
    # what lies on them into the gap; 9H home
    assert moves(russian) == {"c7:10-c1", "c4:1-c2", "c7:1-c3", "c7:8-c4", "c1:1-c6",
                              "c2:3-c6", "c7:7-c6", "c7:3-c6", "c5:1-f"}
    # the same position in Yukon moves TD on JS instead, and not on JD
    assert "c4:1-c3" in moves(yukon) and "c4:1-c3" not in moves(russian)
    assert "c4:1-c2" not in moves(yukon)


def test_russian_solitaire_deal_1_by_hand():
    # deal 1: tops 7D, 7C, QS, 3S, 8C, 2S, 7S over five face-up cards each (but c1). In
    # suit: 6D (five down c2) with all on it onto 7D; JS 7C onto QS; 2S onto 3S; 7C onto 8C;
    # AS QS onto 2S; 6S TD AS QS onto 7S. No Ace on top, no gap.
    game = patience.find_variant("russian-solitaire").deal(1)
    assert codes(game.pile("c2")).endswith("6D2DADJS7C") and face_down(game, "c2") == 1
    assert moves(game) == {"c2:5-c1", "c2:2-c3", "c6:1-c4", "c2:1-c5", "c3:2-c6", "c3:4-c7"}


def test_russian_solitaire_deal_2_is_proven_lost_by_the_plain_search():
    # the solver's verdict (docs/games.md) checked by the exhaustive search, nothing merged
    game = patience.find_variant("russian-solitaire").deal(2)
    assert exhaustive_verdict(game, 100_000) == "unwinnable"


# --- Bisley ---------------------------------------------------------------------------------

BISLEY = ("c:9D6C/KD/2H7C//QH3H4D/5D8C/JHTC9C/4S3S/TDKS/7D5SJSQS/4H5H6H7H8H9HTHQD/"
          "6D8D6S7S8S9STSJD f:AC2C3C4C5C/AD2D3D/AH/AS2S k:KCQCJC/KH// s:")


def test_bisley_deals_twelve_columns_of_four_after_the_aces():
    for seed in (1, 2):
        game = patience.find_variant("bisley").deal(seed)
        assert sizes(game, "c", 12) == [4] * 12
        assert [codes(game.pile(f"f{i}")) for i in range(1, 5)] == ["AC", "AD", "AH", "AS"]
        assert sizes(game, "k", 4) == [0] * 4 and game.stock == []


def test_bisley_kings_fill_the_king_foundations_in_order_and_build_down():
    game = position("bisley", BISLEY)
    game.push("c2:1-k")                               # KD: k1 and k2 are taken, k3 is first
    assert codes(game.pile("k3")) == "KD"
    game.push("c11:1-k")                              # QD on KD
    game.push("c9:1-k")                               # KS to k4
    assert [codes(game.pile(f"k{i}")) for i in range(1, 5)] == ["KCQCJC", "KH", "KDQD", "KS"]
    # c9's TD has no card of its suit next to it on top anywhere; QS (c10) onto KS (k4)
    assert "c10:1-k" in moves(game)


def test_bisley_is_won_however_the_suits_are_split():
    game = position("bisley", "c:8H/////////// f:" + "/".join(
        [suit("C"), suit("D", "A", "7"), suit("H", "A", "7"), "AS"])
        + " k:/KDQDJDTD9D8D/KHQHJHTH9H/KSQSJSTS9S8S7S6S5S4S3S2S s:")
    assert moves(game) == {"c1:1-f", "c1:1-k"}        # 8H up on 7H, or down on 9H
    for move in ("c1:1-f", "c1:1-k"):
        game.push(move)
        assert game.is_won and moves(game) == set()
        game.pop()


# --- Flower Garden --------------------------------------------------------------------------

def test_flower_garden_deals_six_columns_of_six_and_a_bouquet_of_sixteen():
    game = patience.find_variant("flower-garden").deal(1)
    assert sizes(game, "c", 6) == [6] * 6 and sizes(game, "a", 16) == [1] * 16
    assert game.stock == []
    # deal 1 (see 'patience show flower-garden --seed 1'): tops 8C TC 3H 2S 9H 7S; the
    # bouquet JD 6D 9S JC 5D KD 3C 2D JH 5H 7H 4H 2C AD 6S KC. Onto 8C: 7H (a11), 7S (c6);
    # onto TC: 9H (c5), 9S (a3); onto 3H: 2S (c4), 2D (a8), 2C (a13); onto 2S: AD (a14);
    # onto 9H: 8C (c1); onto 7S: 6D (a2), 6S (a15); AD home.
    assert moves(game) == {"a11:1-c1", "c6:1-c1", "c5:1-c2", "a3:1-c2", "c4:1-c3", "a8:1-c3",
                           "a13:1-c3", "a14:1-c4", "c1:1-c5", "a2:1-c6", "a15:1-c6",
                           "a14:1-f"}


def test_flower_garden_an_emptied_bouquet_pile_stays_empty():
    game = patience.find_variant("flower-garden").deal(1)
    game.push("a14:1-f")                              # AD home
    assert game.pile("a14") == []
    assert not any(m.endswith("-a14") for m in moves(game))
    game.push("f1:1-c4")                              # and back, onto the 2S
    assert codes(game.pile("c4"))[-4:] == "2SAD"


# --- Napoleon's Square and Limited ----------------------------------------------------------

THIEVES = (f"c:KHQHJH/QS/JSTS/TC9C/KD/9H//QCJD/TH/9D/KS/JC w:QDTD "
           f"f:{'/'.join(suit(s, 'A', '8') for s in 'CCDDHHSS')} s:9S*")


def test_napoleons_square_moves_runs_in_suit_that_limited_moves_card_by_card():
    square, limited = position("napoleons-square", THIEVES), position("limited", THIEVES)
    runs = {"c3:2-c2", "c4:2-c12", "c1:2-c7", "c1:3-c7", "c3:2-c7", "c4:2-c7"}
    assert moves(square) - moves(limited) == runs
    assert moves(limited) <= moves(square)


def test_napoleons_square_and_limited_deal_twelve_columns():
    square = patience.find_variant("napoleons-square").deal(1)
    limited = patience.find_variant("limited").deal(1)
    assert sizes(square, "c", 12) == [4] * 12 and len(square.stock) == 56
    assert sizes(limited, "c", 12) == [3] * 12 and len(limited.stock) == 68
    # Limited deal 1: tops 5S 3S 7S AC 8S 9C 8D 9D QD 3D 6C 7D: 7D on 8D, 7S on 8S, AC home,
    # 8D on 9D, and the deal
    assert moves(limited) == {"c12:1-c7", "c3:1-c5", "c4:1-f", "c7:1-c8", "d"}


# --- Raglan ---------------------------------------------------------------------------------

def test_raglan_deals_the_aces_home_and_columns_of_one_to_seven():
    game = patience.find_variant("raglan").deal(1)
    assert sizes(game, "c", 9) == [1, 2, 3, 4, 5, 6, 7, 7, 7]
    assert sizes(game, "a", 6) == [1] * 6
    assert [codes(game.pile(f"f{i}")) for i in range(1, 5)] == ["AC", "AD", "AH", "AS"]
    # tops JC 3D 3S 8D 3C JD QD 2S 7D; reserve 8H JH 7S 8C 2H 6H. JC on QD; 2S on 3D or
    # home; 7S on 8D; 2H on 3S or 3C or home; AD and AH back onto the black 2S
    assert moves(game) == {"c1:1-c7", "c8:1-c2", "c8:1-f", "a3:1-c4", "a5:1-c3", "a5:1-c5",
                           "a5:1-f", "f2:1-c8", "f3:1-c8"}


def test_raglan_an_ace_taken_back_may_go_home_again():
    game = patience.find_variant("raglan").deal(1)
    game.push("f3:1-c8")                              # AH onto 2S
    assert game.pile("f3") == []
    assert "c8:1-f" in moves(game)                    # AH back to the empty foundation
    game.push("c8:1-f")
    assert codes(game.pile("f3")) == "AH"


# --- Beehive --------------------------------------------------------------------------------

BEEHIVE = ("c:5C5D/KH/9S9H9D/2C/7D7H7S7C/9C r:3s6cqs8dJC w:3D4HKD f:ACADAHASTCTDTHTS "
           "s:8C2DQC*")


def test_beehive_a_set_of_four_leaves_and_the_gap_takes_the_reserve_card():
    game = position("beehive", BEEHIVE)
    game.push("c5:4-f")
    assert codes(game.pile("f"))[-8:] == "7D7H7S7C"
    assert codes(game.pile("c5")) == "JC"             # filled at once from the reserve
    assert codes(game.pile("r")) == "3s6cqs8D"        # whose next card turned up
    # JC and 8D have no card of their rank on a column; 9s either way; KD on KH; the deal
    assert moves(game) == {"c3:1-c6", "c3:2-c6", "c3:3-c6", "c6:1-c3", "w:1-c2", "d"}


def test_beehive_deals_a_reserve_of_thirteen_and_six_columns_of_one():
    game = patience.find_variant("beehive").deal(1)
    assert sizes(game, "c", 6) == [1] * 6 and len(game.pile("r")) == 13
    assert face_down(game, "r") == 12 and len(game.stock) == 33
    # deal 1: 7D 9C 4D 8H 8D 5S: the two Eights either way, and the deal
    assert moves(game) == {"c4:1-c5", "c5:1-c4", "d"}


def test_beehive_deal_4_is_proven_lost_by_the_plain_search():
    game = patience.find_variant("beehive").deal(4)
    assert exhaustive_verdict(game, 1_000_000) == "unwinnable"


# --- Canister -------------------------------------------------------------------------------

def test_canister_deals_the_whole_deck_to_eight_columns():
    game = patience.find_variant("canister").deal(1)
    assert sizes(game, "c", 8) == [6, 6, 7, 7, 7, 7, 6, 6] and game.stock == []
    # deal 1: tops 9D 3D 3H 2S 9H 7S 8C TC, no run longer than a card. 9D or 9H on TC;
    # 2S on 3D or 3H; 7S on 8C; 8C on 9D or 9H
    assert moves(game) == {"c1:1-c8", "c5:1-c8", "c4:1-c2", "c4:1-c3", "c6:1-c7",
                           "c7:1-c1", "c7:1-c5"}
    game.push("c6:1-c7")                              # 8C 7S: now a run of two
    assert {"c7:2-c1", "c7:2-c5"} <= moves(game)


# --- Deuces ---------------------------------------------------------------------------------

def test_deuces_places_the_twos_and_deals_ten_columns_of_one():
    game = patience.find_variant("deuces").deal(1)
    assert [codes(game.pile(f"f{i}")) for i in range(1, 9)] == [
        "2C", "2C", "2D", "2D", "2H", "2H", "2S", "2S"]
    assert sizes(game, "c", 10) == [1] * 10 and len(game.stock) == 86
    # tops 6H 5D 9D 4H 8D 9H QH 8S 6H 6D: 5D on 6D, 8D on 9D, the deal
    assert moves(game) == {"c2:1-c10", "c5:1-c3", "d"}


def test_deuces_foundation_turns_the_corner_and_stops_at_thirteen():
    hearts = suit("H", "2", "K")
    game = position("deuces", f"c:AH/AH//////// w: f:2C/2C/2D/2D/{hearts}/2H/2S/2S s:*")
    assert "c1:1-f" in moves(game) and "c1:1-c2" not in moves(game)
    game.push("c1:1-f")
    assert codes(game.pile("f5")) == hearts + "AH"
    assert "c2:1-f" not in moves(game)                # the other AH: f5 is full, f6 shows 2H


# --- Grandfather's Clock -------------------------------------------------------------------

CLOCK = ["2S", "3H", "4C", "5D", "6S", "7H", "8C", "9D", "TS", "JH", "QC", "KD"]


def test_grandfathers_clock_places_the_clock_and_deals_eight_columns_of_five():
    game = patience.find_variant("grandfathers-clock").deal(1)
    assert [codes(game.pile(f"f{i}")) for i in range(1, 13)] == CLOCK
    assert sizes(game, "c", 8) == [5] * 8 and game.stock == []
    # deal 1: tops 5C KS 5H 2H 9S 6D QD 8H. 5C on 6D or home on 4C; 5H on 6D; 6D home on
    # 5D; QD on KS; 8H on 9S or home on 7H
    assert moves(game) == {"c1:1-c6", "c1:1-f", "c3:1-c6", "c6:1-f", "c7:1-c2", "c8:1-c5",
                           "c8:1-f"}


def test_grandfathers_clock_won_position_shows_the_hours():
    # 2S at five o'clock, clockwise: each foundation ends on its hour (Jack 11, Queen 12,
    # Ace 1), every card home
    ends = "56789TJQA234"
    game = position("grandfathers-clock", "c:5S/////// f:2S3S4S/3H4H5H6H/4C5C6C7C/5D6D7D8D/"
                    "6S7S8S9S/7H8H9HTH/8C9CTCJC/9DTDJDQD/TSJSQSKSAS/JHQHKHAH2H/QCKCAC2C3C/"
                    "KDAD2D3D4D s:")
    # 5S home on 4S (the one foundation that takes it), or into any of the seven gaps
    assert moves(game) == {"c1:1-f"} | {f"c1:1-c{i}" for i in range(2, 9)}
    game.push("c1:1-f")
    assert game.is_won
    assert "".join(codes(game.pile(f"f{i}"))[-2] for i in range(1, 13)) == ends
