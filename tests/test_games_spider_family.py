"""The Spider family and Miss Milligan, each as its cited source plays it (the file's
``sources:``): hand-built positions whose legal moves are worked out by hand from the rules,
and the numbered deal's layout.

Positions are written as position text: cards bottom to top, face-down cards in lower case.
:func:`table` puts every card a test does not name in the stock (after the stock cards it
names), or checks that none is left over for games without a stock.
"""

from __future__ import annotations

from collections import Counter

import pytest
from rules_helpers import expand, moves

import patience
from patience.cards import FACE_DOWN, card_code, numbered_deck
from patience.game import Game, Move

RANKS = "A23456789TJQK"


def suit_set(suit: str) -> str:
    """A finished suit as Spider's foundations hold it: K at the bottom, A on top."""
    return " ".join(rank + suit for rank in reversed(RANKS))


def suit_up(suit: str) -> str:
    """A full foundation built up in suit, A at the bottom (Miss Milligan)."""
    return " ".join(rank + suit for rank in RANKS)


def table(variant_name: str, columns: list[str], foundations: list[str] = (),
          reserve: str | None = None, stock: str = "", rest: str = "stock") -> Game:
    """The position with these piles; the deck's other cards go to the end of the stock
    (``rest="stock"``), or there must be none (``rest="none"``)."""
    variant = patience.find_variant(variant_name)
    used = Counter(code.upper() for pile in [*columns, *foundations, reserve or "", stock]
                   for code in pile.split())
    deck = Counter(card_code(card) for card in variant.deck)
    assert not used - deck, f"more cards than the deck holds: {used - deck}"
    left = deck - used
    extra = [code for code in sorted(left.elements(), key=lambda c: (c[1], RANKS.index(c[0])))]
    if rest == "none":
        assert not extra, f"cards left over: {' '.join(extra)}"
    stock_cards = stock.split() + (extra if rest == "stock" else [])
    groups = {g.id: g for g in variant.groups}
    written = {"c": columns, "f": list(foundations) + [""] * (groups["f"].count - len(foundations))}
    if "r" in groups:
        written["r"] = [reserve or ""]
    assert len(columns) == groups["c"].count
    parts = [f"{gid}:{'/'.join(''.join(pile.split()) for pile in written[gid])}"
             for gid in groups]
    return variant.position(" ".join(parts) + " s:" + "".join(stock_cards))


def columns_of(game: Game) -> list[str]:
    """The columns as position text writes them (face-down cards in lower case)."""
    return game.text().split()[0][2:].split("/")


def layout(game: Game, group: str = "columns") -> tuple[list[int], list[int]]:
    """(cards, face-down cards) of each pile of a group."""
    piles = [game.piles[i] for i in game.variant.group_by_name[group].indices]
    return [len(p) for p in piles], [sum(1 for c in p if c & FACE_DOWN) for p in piles]


def assert_dealt_in_rounds(game: Game, number: int) -> None:
    """The layout takes the numbered deck's cards in rounds: round r gives one card to every
    column dealt more than r cards, c1 first; the stock holds the rest, next card first."""
    variant = game.variant
    deck = numbered_deck(number, variant.decks, variant.ranks)
    columns = [game.piles[i] for i in variant.group_by_name["columns"].indices]
    sizes = [len(c) for c in columns]
    position = 0
    for round_ in range(max(sizes)):
        for column in columns:
            if round_ < len(column):
                assert column[round_] & ~FACE_DOWN == deck[position]
                position += 1
    assert list(reversed(game.stock)) == deck[position:]


# --- Spider ----------------------------------------------------------------------------------

def test_spider_deal_layout():
    game = patience.find_variant("spider").deal(1)
    assert layout(game) == ([6, 5, 5, 6, 5, 5, 6, 5, 5, 6], [5, 4, 4, 5, 4, 4, 5, 4, 4, 5])
    assert len(game.stock) == 50 and game.deals_left == 5
    assert_dealt_in_rounds(game, 1)
    # every column's top card face up, everything under it face down
    assert all(not game.piles[i][-1] & FACE_DOWN for i in range(10))


# c1 ks qh JD TD 9D (two face-down cards), c3 empty. The face-up diamonds move as runs of 1,
# 2 or 3 (never with the face-down qh); 8S 7H is no one-suit run, so only the 7H moves. Each
# run goes onto a card one rank higher of any suit, or into the gap c3. No deal: c3 is empty.
SPIDER_GAP = ["ks qh JD TD 9D", "QC", "", "8S 7H", "TC", "5H", "4C", "2S", "3D", "6H"]


def test_spider_runs_gap_and_no_deal_onto_a_gap():
    game = table("spider", SPIDER_GAP)
    assert moves(game) == expand(
        "c1:1-c5", "c1:1-c3", "c1:2-c3", "c1:3-c2", "c1:3-c3",
        "c2:1-c3", "c4:1-c3", "c5:1-c3", "c6:1-c10", "c6:1-c3", "c7:1-c6", "c7:1-c3",
        "c8:1-c9", "c8:1-c3", "c9:1-c7", "c9:1-c3", "c10:1-c4", "c10:1-c3")
    assert "d" not in moves(game)


def test_spider_a_move_turns_up_the_card_it_exposes():
    game = table("spider", SPIDER_GAP)
    game.push("c1:3-c2")                            # JD TD 9D onto the QC
    assert columns_of(game)[:2] == ["ksQH", "QCJDTD9D"]
    game.pop()
    assert columns_of(game)[0] == "ksqhJDTD9D"     # taken back face down again


def test_spider_deal_once_no_column_is_empty():
    game = table("spider", SPIDER_GAP, stock="AC 2C 3C 4C 5C 6C 7C 8C 9C TC")
    game.push("c4:1-c3")                            # the 7H fills the gap
    assert "d" in moves(game)
    game.push("d")                                  # one card on each column, c1 first
    assert columns_of(game) == ["ksqhJDTD9DAC", "QC2C", "7H3C", "8S4C", "TC5C", "5H6C",
                                "4C7C", "2S8C", "3D9C", "6HTC"]


# c1: 9c 8c under K..2 of spades. Top-k runs of c1 take k=1..12, the one of bottom rank r
# onto a card of rank r+1: 2S on 3C, 3S on 4H, 4S on 5D, 6S on 7C, 8S on 9H, TS on JH,
# JS on QD, QS on KC. The AS goes on the 2S (and finishes the suit). No gap.
SPIDER_SET = ["9c 8c KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "AS", "5D", "JH", "KC", "9H",
              "3C", "7C", "QD", "4H"]


def test_spider_runs_onto_any_suit_and_a_finished_suit_leaves():
    game = table("spider", SPIDER_SET)
    assert moves(game) == expand(
        "c1:1-c7", "c1:2-c10", "c1:3-c3", "c1:5-c8", "c1:7-c6", "c1:9-c4", "c1:10-c9",
        "c1:11-c5", "c2:1-c1", "c4:1-c9", "c7:1-c10", "c9:1-c5", "c10:1-c3", "d")
    game.push("c2:1-c1")
    # the thirteen spades leave at once for f1, and the 8c they lay on turns up
    assert columns_of(game)[:2] == ["9c8C", ""]
    assert game.text().split()[1] == "f:" + suit_set("S").replace(" ", "") + "///////"
    assert game.forced_moves_of_last_move() == [Move(0, 13, 10)]
    assert game.move_stack == [Move(1, 1, 0)]
    assert "d" not in moves(game)                   # c2 is empty now
    game.pop()
    assert columns_of(game)[0] == "9c8cKSQSJSTS9S8S7S6S5S4S3S2S"


# c5: 7c under K..2 of hearts, the fifth card of the stock an AH: the deal finishes the suit,
# which leaves at once, and the 7c turns up. Spider and Tarantula agree here: every run is
# of one suit. Hearts 2..K take k=1..12: 3H on 4D, 5H on 6C, 7H on 8D, 8H on 9S, 9H on TD,
# TH on JS, JH on QC, QH on KS. 9S on TD, QC on KS, 8D on 9S, TD on JS, JS on QC.
DEAL_SET = ["9S", "4D", "QC", "8D", "7c KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", "KS", "6C",
            "TD", "2C", "JS"]


@pytest.mark.parametrize("variant", ["spider", "tarantula"])
def test_a_deal_that_finishes_a_suit(variant):
    game = table(variant, DEAL_SET, stock="5S 3C JD 7S AH 9D 4C QS 3H TS")
    assert moves(game) == expand(
        "c5:2-c2", "c5:4-c7", "c5:6-c4", "c5:7-c1", "c5:8-c8", "c5:9-c10", "c5:10-c3",
        "c5:11-c6", "c1:1-c8", "c3:1-c6", "c4:1-c1", "c8:1-c10", "c10:1-c3", "d")
    game.push("d")
    assert columns_of(game) == ["9S5S", "4D3C", "QCJD", "8D7S", "7C", "KS9D", "6C4C",
                                "TDQS", "2C3H", "JSTS"]
    assert game.text().split()[1] == "f:" + suit_set("H").replace(" ", "") + "///////"


# --- Tarantula -------------------------------------------------------------------------------

# c1 qd JH TD 9H: red, descending, so 9H, TD 9H and JH TD 9H move (not the face-down qd).
# c2: K..2 of spades, any top part moves (one colour). 8C 7H is not one colour: only the 7H
# moves. c5 is empty: every run may go there, and there is no deal.
TARANTULA = ["qd JH TD 9H", "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "AC", "8C 7H", "", "TC",
             "3D", "KH", "5C", "6S"]


def test_tarantula_one_colour_runs_move():
    game = table("tarantula", TARANTULA)
    assert moves(game) == expand(
        "c1:1-c6", "c1:1-c5", "c1:2-c5", "c1:3-c5",
        "c2:1..12-c5", "c2:1-c7", "c2:3-c9", "c2:4-c10", "c2:5-c4", "c2:7-c1", "c2:8-c6",
        "c2:11-c8",
        "c3:1-c2", "c3:1-c5", "c4:1-c5", "c6:1-c5", "c7:1-c5", "c8:1-c5", "c9:1-c10",
        "c9:1-c5", "c10:1-c4", "c10:1-c5")


def test_tarantula_a_set_must_be_one_suit():
    game = table("tarantula", TARANTULA)
    game.push("c3:1-c2")                            # K..2 of spades and the AC: black, 13
    assert game.forced_moves_of_last_move() == []   # but not one suit: it stays
    assert columns_of(game)[1] == "KSQSJSTS9S8S7S6S5S4S3S2SAC"
    assert "c2:13-c5" in moves(game)                # and moves as one run of one colour
    spider = table("spider", TARANTULA)
    spider.push("c3:1-c2")                          # in Spider only the AC moves off again,
    assert [m for m in moves(spider) if m.startswith("c2:")] == ["c2:1-c3", "c2:1-c5"]  # to a gap


# --- Spiderette and Will o' the Wisp ------------------------------------------------------

def test_spiderette_deal_layout_and_its_four_deals():
    game = patience.find_variant("spiderette").deal(1)
    assert layout(game) == ([1, 2, 3, 4, 5, 6, 7], [0, 1, 2, 3, 4, 5, 6])
    assert_dealt_in_rounds(game, 1)
    assert len(game.stock) == 24 and game.deals_left == 4
    sizes = []
    for _ in range(4):
        game.push("d")
        sizes.append(layout(game)[0])
    # 7, 7, 7, then the last 3 cards onto c1-c3
    assert sizes[-1] == [5, 6, 7, 7, 8, 9, 10] and game.stock == []
    assert "d" not in moves(game)


def test_will_o_the_wisp_deal_layout_and_its_five_deals():
    game = patience.find_variant("will-o-the-wisp").deal(1)
    assert layout(game) == ([3] * 7, [2] * 7)
    assert_dealt_in_rounds(game, 1)
    assert len(game.stock) == 31 and game.deals_left == 5
    for _ in range(5):
        game.push("d")
    assert layout(game)[0] == [8, 8, 8, 7, 7, 7, 7] and game.stock == []


# c1 empty; c2: 7d under K..2 of clubs. c2's runs k=1..12 all fit the gap; 7C.. goes on 8D
# and 8H, 8C.. on 9S, JC.. on QH. The AC goes on the 2C or into the gap; 8D and 8H on the
# 9S; c4's 9h and c7's 2h are face down and never move. No deal while c1 is empty.
SPIDERETTE_GAP = ["", "7d KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C", "AC", "9h 8D", "9S",
                  "jd QH", "3h 2h 8H"]


@pytest.mark.parametrize("variant", ["spiderette", "will-o-the-wisp"])
def test_spiderette_gap_runs_and_a_set_leaving(variant):
    game = table(variant, SPIDERETTE_GAP)
    assert moves(game) == expand(
        "c2:1..12-c1", "c2:6-c4", "c2:6-c7", "c2:7-c5", "c2:10-c6",
        "c3:1-c2", "c3:1-c1", "c4:1-c5", "c4:1-c1", "c5:1-c1", "c6:1-c1",
        "c7:1-c5", "c7:1-c1")
    game.push("c3:1-c2")
    assert columns_of(game) == ["", "7D", "", "9h8D", "9S", "jdQH", "3h2h8H"]
    assert game.text().split()[1] == "f:" + suit_set("C").replace(" ", "") + "///"


# The last deal: three cards left, for c1, c2 and c3 only. f1 and f2 hold clubs and
# diamonds; no column holds more face-down cards than either game deals it. QS on KS, JS on
# QS, TS on JS, 9S on TS, 8S 7S 6S 5S on 9S; KH QS and 3H KS are no one-suit runs.
SPIDERETTE_LAST = ["KH QS", "qh JS", "jh th TS", "9h 8h AS", "7h 6h 9S", "5H 4H 3H KS",
                   "ah 2h 8S 7S 6S 5S"]


@pytest.mark.parametrize("variant", ["spiderette", "will-o-the-wisp"])
def test_spiderette_the_last_deal_feeds_three_columns(variant):
    game = table(variant, SPIDERETTE_LAST, [suit_set("C"), suit_set("D")],
                 stock="4S 3S 2S", rest="none")
    assert moves(game) == expand("c1:1-c6", "c2:1-c1", "c3:1-c2", "c5:1-c3", "c7:4-c5", "d")
    game.push("d")
    assert columns_of(game) == ["KHQS4S", "qhJS3S", "jhthTS2S", "9h8hAS", "7h6h9S",
                                "5H4H3HKS", "ah2h8S7S6S5S"]
    assert game.stock == [] and "d" not in moves(game)


# --- Simple Simon ----------------------------------------------------------------------------

def test_simple_simon_deal_layout():
    game = patience.find_variant("simple-simon").deal(1)
    assert layout(game) == ([8, 8, 8, 7, 6, 5, 4, 3, 2, 1], [0] * 10)
    assert_dealt_in_rounds(game, 1)
    assert game.stock == [] and "d" not in moves(game)


# Clubs and hearts on the table, diamonds and spades finished; c3 empty. Every one-suit run
# goes into c3 and onto any card one rank higher. c2's TH 9C 8C 7C is a rank sequence of two
# suits: it does not move as a unit (the rule page's reading; PySolFC's code would let it
# go onto the JC as two pieces through the one gap).
SIMON = ["KC QC JC", "TH 9C 8C 7C", "", "KH QH", "6C 5C 4C", "9H 8H 7H 6H 5H", "TC",
         "4H 3H 2H AH", "3C 2C AC", "JH"]


def test_simple_simon_one_suit_runs_and_a_gap():
    game = table("simple-simon", SIMON, [suit_set("D"), suit_set("S")], rest="none")
    assert moves(game) == expand(
        "c1:1-c4", "c1:1..3-c3",
        "c2:1..3-c3", "c2:3-c7",
        "c4:1..2-c3",
        "c5:1-c6", "c5:1..3-c3", "c5:3-c2",
        "c6:1..5-c3", "c6:2-c2", "c6:5-c7",
        "c7:1-c1", "c7:1-c10", "c7:1-c3",
        "c8:1..4-c3", "c8:3-c5", "c8:4-c6",
        "c9:1..3-c3", "c9:3-c5",
        "c10:1-c4", "c10:1-c3")
    assert "c2:4-c1" not in moves(game)


# Clubs and spades on the table, hearts and diamonds finished; no gap. c1: 5S under K..2 of
# clubs: 3C on 4S, 5C on 6S, 7C on 8S, 8C on 9S, TC on JS, JC on QS. Either Ace on the 2C
# or the 2S; the AC on the 2C finishes the clubs.
SIMON_SET = ["5S KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C", "AC", "KS QS", "JS", "TS 9S", "8S",
             "7S 6S", "4S", "3S 2S", "AS"]


def test_simple_simon_a_finished_suit_leaves_and_the_last_one_wins():
    game = table("simple-simon", SIMON_SET, [suit_set("H"), suit_set("D")], rest="none")
    assert moves(game) == expand(
        "c1:2-c8", "c1:4-c7", "c1:6-c6", "c1:7-c5", "c1:9-c4", "c1:10-c3",
        "c2:1-c1", "c2:1-c9", "c4:1-c3", "c5:2-c4", "c6:1-c5", "c7:2-c6", "c9:2-c8",
        "c10:1-c1", "c10:1-c9")
    game.push("c2:1-c1")
    assert columns_of(game)[:2] == ["5S", ""]
    assert game.text().split()[1].split("/")[2] == suit_set("C").replace(" ", "")
    last = table("simple-simon", ["KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", "AH"] + [""] * 8,
                 [suit_set("C"), suit_set("D"), suit_set("S")], rest="none")
    last.push("c2:1-c1")
    assert last.is_won() and moves(last) == []


# --- Mrs. Mop --------------------------------------------------------------------------------

def test_mrs_mop_deal_layout():
    game = patience.find_variant("mrs-mop").deal(1)
    assert layout(game) == ([8] * 13, [0] * 13)
    assert_dealt_in_rounds(game, 1)
    assert game.stock == [] and "d" not in moves(game)


# One deck's clubs and hearts on the table, six suits finished; c13 empty.
MOP_GAP = ["KC QC JC", "TC 9C", "8C 7C 6C", "5C 4C", "3C 2C AC", "KH QH JH", "9H 8H",
           "7H 6H 5H", "4H 3H", "2H", "AH", "TH", ""]
FINISHED_SIX = [suit_set(s) for s in "SSDDCH"]


def test_mrs_mop_runs_and_a_gap():
    game = table("mrs-mop", MOP_GAP, FINISHED_SIX, rest="none")
    assert moves(game) == expand(
        "c1:1..3-c13",
        "c2:1-c12", "c2:2-c1", "c2:2-c6", "c2:1..2-c13",
        "c3:2-c7", "c3:3-c2", "c3:1..3-c13",
        "c4:1-c8", "c4:2-c3", "c4:1..2-c13",
        "c5:1-c10", "c5:2-c9", "c5:3-c4", "c5:1..3-c13",
        "c6:1..3-c13",
        "c7:1-c2", "c7:2-c12", "c7:1..2-c13",
        "c8:1-c3", "c8:3-c7", "c8:1..3-c13",
        "c9:1-c4", "c9:2-c8", "c9:1..2-c13",
        "c10:1-c9", "c10:1-c13",
        "c11:1-c10", "c11:1-c13",
        "c12:1-c1", "c12:1-c6", "c12:1-c13")


# Both decks' hearts and one deck's clubs on the table, five suits finished. c1: 5C under
# K..2 of hearts; the two AH (one from each deck) and the AC may each go on the 2H of c1 or
# c5 or on the 2C; an AH on c1 finishes a suit.
MOP_TWO_DECKS = ["5C KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", "AH", "AH", "KH QH JH TH 9H 8H 7H",
                 "6H 5H 4H 3H 2H", "KC QC", "JC", "TC 9C", "8C", "7C 6C", "4C", "3C 2C", "AC"]


def test_mrs_mop_two_decks_either_ace_finishes_the_suit():
    game = table("mrs-mop", MOP_TWO_DECKS, [suit_set(s) for s in "SSDDC"], rest="none")
    assert moves(game) == expand(
        "c1:2-c11", "c1:4-c10", "c1:5-c4", "c1:6-c9", "c1:7-c8", "c1:9-c7", "c1:10-c6",
        "c2:1-c1", "c2:1-c5", "c2:1-c12", "c3:1-c1", "c3:1-c5", "c3:1-c12",
        "c4:1-c9", "c4:2-c8", "c4:4-c7", "c4:5-c6",
        "c5:2-c11", "c5:4-c10", "c5:5-c4",
        "c7:1-c6", "c8:2-c7", "c9:1-c8", "c10:1-c4", "c10:2-c9", "c12:2-c11",
        "c13:1-c1", "c13:1-c5", "c13:1-c12")
    game.push("c3:1-c1")
    assert columns_of(game)[:3] == ["5C", "AH", ""]
    assert game.text().split()[1].split("/")[5] == suit_set("H").replace(" ", "")
    game.pop()
    game.push("c13:1-c1")                           # the AC on the 2H: no set, it stays
    assert game.forced_moves_of_last_move() == []


# --- Scorpion --------------------------------------------------------------------------------

def test_scorpion_deal_layout():
    game = patience.find_variant("scorpion").deal(1)
    assert layout(game) == ([7] * 7, [3, 3, 3, 3, 0, 0, 0])
    assert_dealt_in_rounds(game, 1)
    assert len(game.stock) == 3
    game.push("d")                                  # one card each onto c1, c2, c3
    assert layout(game)[0] == [8, 8, 8, 7, 7, 7, 7] and game.stock == []


# Clubs and spades on the table (diamonds and hearts finished), three cards in the stock.
# Any face-up card moves with everything on it, onto the next higher card of its suit, or,
# a King only, into the gap c2: KS (with QS 9C 3S) into c2, 9C (with 3S) on TC, 6S (with
# 5S) on 7S, 4S (with KC) on 5S, KC into c2, QC (with JS) on KC, TS (with 9S 8S 7S) on JS.
# The JC at the bottom of c5 is no King. The deal is allowed with a gap.
SCORPION = ["4c 3c 2c KS QS 9C 3S", "", "8C 6S 5S", "7c 6c 5c TC", "JC 4S KC", "QC JS",
            "TS 9S 8S 7S"]


def test_scorpion_any_face_up_card_moves_and_kings_fill_gaps():
    game = table("scorpion", SCORPION, [suit_set("D"), suit_set("H")], stock="AS 2S AC",
                 rest="none")
    assert moves(game) == expand("c1:4-c2", "c1:2-c4", "c3:2-c7", "c5:2-c3", "c5:1-c2",
                                 "c6:2-c5", "c7:4-c6", "d")
    game.push("c1:4-c2")                            # not a sequence, but all face up
    assert columns_of(game)[:2] == ["4c3c2C", "KSQS9C3S"]
    game.pop()
    game.push("d")                                  # the three cards onto c1, c2 (a gap), c3
    assert columns_of(game)[:4] == ["4c3c2cKSQS9C3SAS", "2S", "8C6S5SAC", "7c6c5cTC"]
    assert game.stock == []


# Hearts and diamonds on the table, clubs and spades finished, the stock dealt. c1: 9d under
# K..2 of hearts (nothing goes on a heart there, no gap for the KH); c2 AH under 4D. AH (with
# 4D) goes on the 2H; 4D on 5D; 5D on 6D; 6D on 7D. The AD, 7D, 8D and KD have no base.
SCORPION_SET = ["9d KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", "AH 4D", "3d 2d AD", "7D",
                "KD QD JD TD", "5D", "8D 6D"]


def test_scorpion_a_suit_leaves_only_when_it_is_on_top():
    game = table("scorpion", SCORPION_SET, [suit_set("C"), suit_set("S")], rest="none")
    assert moves(game) == expand("c2:2-c1", "c2:1-c6", "c6:1-c7", "c7:1-c4")
    game.push("c2:2-c1")                            # K..A of hearts, but the 4D lies on it
    assert game.forced_moves_of_last_move() == []
    assert columns_of(game)[0] == "9dKHQHJHTH9H8H7H6H5H4H3H2HAH4D"
    game.pop()
    game.push("c2:1-c6")
    game.push("c2:1-c1")                            # now the suit is on top: it leaves
    assert columns_of(game)[:2] == ["9D", ""]       # and the 9d turns up
    assert game.text().split()[1] == "f:" + "/".join(
        suit_set(s).replace(" ", "") for s in "CSH") + "/"
    assert "c5:4-c2" in moves(game)                 # KD with all on it into the gap


# --- Miss Milligan ---------------------------------------------------------------------------

def test_miss_milligan_deal_layout():
    game = patience.find_variant("miss-milligan").deal(1)
    assert layout(game) == ([1] * 8, [0] * 8)
    assert_dealt_in_rounds(game, 1)
    assert len(game.stock) == 96 and game.deals_left == 12
    for _ in range(12):                             # eight cards a deal, gaps included
        game.push("d")
    assert layout(game)[0] == [13] * 8
    assert game.stock == [] and "d" not in moves(game)


# The stock is not empty, so the reserve takes nothing. Alternate colours down; only a King
# (or a run from one) fills the gap c2; the foundations take an Ace, or the next card of
# their suit, one at a time: 3C on f1's 2C, 2D on f2's AD, the AH on the first empty one.
MILLIGAN = ["5S 4H 3C", "", "KD QS", "6D", "AH", "2D", "JH", "TS 9H"]


def test_miss_milligan_columns_foundations_and_no_weaving_yet():
    game = table("miss-milligan", MILLIGAN, ["AC 2C", "AD"])
    assert moves(game) == expand("c1:1-f", "c1:3-c4", "c3:2-c2", "c5:1-f", "c6:1-c1",
                                 "c6:1-f", "c7:1-c3", "c8:2-c7", "d")
    game.push("c5:1-f")
    assert game.text().split()[2] == "f:AC2C/AD/AH/////"


# The stock is out: the empty reserve takes any movable run of a column (alternate
# colours), one run at a time; its cards go back like a column's. Six suits are finished,
# f7 holds A-3 of hearts, f8 A-3 of spades.
MILLIGAN_WEAVE = ["KS QH JS TH 9S 8H", "4H", "4S", "7S", "KH QS", "JH TS 9H", "8S 7H 6S 5H",
                  "6H 5S"]
FINISHED_UP = [suit_up(s) for s in "CCDDHS"] + ["AH 2H 3H", "AS 2S 3S"]


def test_miss_milligan_weaving_once_the_stock_is_out():
    game = table("miss-milligan", MILLIGAN_WEAVE, FINISHED_UP, rest="none")
    assert moves(game) == expand(
        "c1:1..6-r",
        "c2:1-c8", "c2:1-f", "c2:1-r",
        "c3:1-c7", "c3:1-f", "c3:1-r",
        "c4:1-c1", "c4:1-r",
        "c5:1..2-r",
        "c6:1..3-r", "c6:3-c5",
        "c7:1..4-r", "c7:4-c6",
        "c8:1..2-r", "c8:2-c4")
    game.push("c6:2-r")                             # TS 9H aside
    assert game.text().split()[1] == "r:TS9H"
    # the reserve is full: nothing more goes there; its run may go back onto the JH
    assert moves(game) == expand("c2:1-c8", "c2:1-f", "c3:1-c7", "c3:1-f", "c4:1-c1",
                                 "c6:1-c5", "c8:2-c4", "r:2-c6")
