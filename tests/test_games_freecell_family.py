"""The FreeCell family and its open-layout kin, each against its cited rules.

freecell, bakers-game, eight-off, seahaven-towers, bakers-dozen, streets-and-alleys,
king-albert, fan and beleaguered-castle (variants/<id>.yaml). The rules are PySolFC's
(rule pages and code, as cited in each file's ``sources:``), with the readings each file's
comments name. Every expected move set below was worked out by hand from those rules, pile
by pile; none was pasted from the generator.

Positions are written pile by pile, cards bottom to top. Every position holds the whole
deck: the cards a test does not care about sit on the foundations (each suit from its Ace
up) or deep in a column, under a card they cannot form a run with.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import patience
from patience.cards import card_code, numbered_deck
from patience.game import Game


def position(variant_name: str, columns: Sequence[str], cells: Sequence[str] = (),
             foundations: Sequence[str] = (), rest_under: int | None = None) -> Game:
    """The position of ``variant_name`` with these piles (card codes bottom to top, spaces
    between; ``""`` is an empty pile; ``cells`` are the 'a' piles, free cells or reserve).
    ``foundations`` may be written ``"AC-9C"`` for AC 2C ... 9C. The position must hold
    every card exactly once; with ``rest_under=N`` the cards not named go to the bottom of
    column N (in new-deck order), which only games that move one card at a time allow."""
    variant = patience.find_variant(variant_name)
    groups = {group.name: group for group in variant.groups}
    piles = {"columns": [pile.split() for pile in columns],
             "foundations": [suit_run(pile) for pile in foundations]}
    if rest_under is not None:
        named = Counter(code for pile in [*piles["columns"], *piles["foundations"]]
                        for code in pile) + Counter(code for pile in cells for code in pile.split())
        rest = [card_code(card) for card in variant.deck if not named[card_code(card)]]
        piles["columns"][rest_under - 1] = rest + piles["columns"][rest_under - 1]
    cell_group = "cells" if "cells" in groups else "reserve" if "reserve" in groups else None
    if cell_group:
        piles[cell_group] = [pile.split() for pile in cells]
    else:
        assert not cells
    parts = []
    for group in variant.groups:
        given = piles[group.name]
        assert len(given) <= group.count, f"{group.name}: {len(given)} piles for {group.count}"
        given = given + [[] for _ in range(group.count - len(given))]
        parts.append(f"{group.id}:" + "/".join("".join(pile) for pile in given))
    used = Counter(code for group in piles.values() for pile in group for code in pile)
    deck = Counter(card_code(card) for card in variant.deck)
    assert used == deck, f"missing {sorted(deck - used)}, extra {sorted(used - deck)}"
    return variant.position(" ".join(parts) + " s:")


def suit_run(text: str) -> list[str]:
    """``"AC-9C"`` is AC 2C ... 9C; anything else is a list of codes."""
    if "-" not in text:
        return text.split()
    low, high = text.split("-")
    ranks = "A23456789TJQK"
    assert low[1] == high[1]
    return [rank + low[1] for rank in ranks[ranks.index(low[0]):ranks.index(high[0]) + 1]]


def moves(game: Game) -> list[str]:
    return sorted(game.notation(move) for move in game.legal_moves)


def expect(*items: str) -> list[str]:
    """The expected move set, sorted; ``"c1:1-a c2:1-a"`` may be given in one string."""
    result = [move for item in items for move in item.split()]
    assert len(result) == len(set(result)), "a move written twice"
    return sorted(result)


def dealt(variant_name: str, number: int, sizes: dict[str, Sequence[int]]) -> dict[str, list]:
    """The piles that dealing deal ``number`` gives, worked out by hand from the rule: the
    deck (shuffled without the cards placed before the deal) is dealt in rounds, round r
    giving the next card to every pile dealt more than r cards, groups in file order."""
    variant = patience.find_variant(variant_name)
    cards = [card_code(card) for card in numbered_deck(
        number, without=[card for _, card in variant.placed])]
    piles: dict[str, list[list[str]]] = {gid: [[] for _ in counts] for gid, counts in sizes.items()}
    next_card = 0
    for round_ in range(max(max(counts) for counts in sizes.values())):
        for gid, counts in sizes.items():
            for index, size in enumerate(counts):
                if size > round_:
                    piles[gid][index].append(cards[next_card])
                    next_card += 1
    assert next_card == len(cards)
    return piles


def piles_of(game: Game, group_id: str) -> list[list[str]]:
    """The piles of one group, read from the position text."""
    for part in game.text().split():
        gid, _, piles = part.partition(":")
        if gid == group_id:
            return [[pile[i:i + 2] for i in range(0, len(pile), 2)] for pile in piles.split("/")]
    raise KeyError(group_id)


# ===========================================================================================
# FreeCell (PySolFC freecell.html and FreeCell/SuperMoveAC_RowStack): columns built down in
# alternate colours; a run of k cards moves when k <= (1 + empty cells) * 2^(empty columns
# other than the target); four cells of one card; foundations up in suit from the Ace, a
# card may come back off them.
# ===========================================================================================

# Cells full, c5 and c6 empty: a run of up to (1 + 0) * 2^2 = 4 cards may go onto a card,
# but only (1 + 0) * 2^1 = 2 into an empty column (the target does not count).
FREECELL_FULL_CELLS = {
    "columns": ["KS QH JC TD 9S", "KD", "TH", "QD JS", "", "", "KH QC", "KC JD"],
    "cells": ["JH", "TS", "QS", "TC"],
    "foundations": ["AC-9C", "AD-9D", "AH-9H", "AS-8S"]}


def test_freecell_with_full_cells_and_two_empty_columns():
    game = position("freecell", **FREECELL_FULL_CELLS)
    assert moves(game) == expect(
        # to the foundations: 9S on 8S, TH on 9H, TC (cell) on 9C
        "c1:1-f c3:1-f a4:1-f",
        # c1's runs: 9S on TH; TD 9S on JS; the 3-run JC TD 9S finds no red Queen, and is one
        # card too many for an empty column; the 4- and 5-runs have no black King / nothing
        "c1:1-c3 c1:2-c4 c1:1-c5 c1:1-c6 c1:2-c5 c1:2-c6",
        "c2:1-c5 c2:1-c6",                      # KD: only into an empty column
        "c3:1-c4 c3:1-c5 c3:1-c6",              # TH on JS (not on JD: both red)
        "c4:1-c5 c4:1-c6 c4:2-c5 c4:2-c6",      # JS, or QD JS: 2 cards fit an empty column
        "c7:1-c2 c7:1-c5 c7:1-c6 c7:2-c5 c7:2-c6",   # QC on KD; KH QC into an empty column
        "c8:1-c7 c8:1-c5 c8:1-c6",              # JD on QC (KC JD is no run)
        "a1:1-c7 a1:1-c5 a1:1-c6",              # JH on QC
        "a2:1-c8 a2:1-c5 a2:1-c6",              # TS on JD (not on TH: same rank)
        "a3:1-c2 a3:1-c5 a3:1-c6",              # QS on KD
        "a4:1-c8 a4:1-c5 a4:1-c6",              # TC on JD
        # back off the foundations (the cells are full): 9C on TH; the others only into gaps
        "f1:1-c3 f1:1-c5 f1:1-c6 f2:1-c5 f2:1-c6 f3:1-c5 f3:1-c6 f4:1-c5 f4:1-c6")


# One empty cell (a2) and one empty column (c5): up to (1 + 1) * 2^1 = 4 cards onto a card,
# (1 + 1) * 2^0 = 2 into c5. c1 holds the 6-run 9H 8S 7D 6C 5H 4S: the 4-run from 7D fits on
# 8C, the 5-run from 8S does not fit on 9D, the whole run does not fit on TC.
FREECELL_ONE_CELL = {
    "columns": ["9H 8S 7D 6C 5H 4S", "TC", "9D", "8C", "",
             "7C 9C JC QC KC", "2S 3S 5S 6S 7S 9S TS JS KS", "8D TD JD QD 6H 7H 8H TH JH QH QS"],
    "cells": ["AS", "", "KD", "KH"],
    "foundations": ["AC-5C", "AD-6D", "AH-4H", ""]}


def test_freecell_supermove_limit_with_one_cell_and_one_empty_column():
    game = position("freecell", **FREECELL_ONE_CELL)
    assert moves(game) == expect(
        # into the empty cell (one card; never from another cell): every top card, and the
        # foundations' top cards
        "c1:1-a c2:1-a c3:1-a c4:1-a c6:1-a c7:1-a c8:1-a f1:1-a f2:1-a f3:1-a",
        "a1:1-f",                                # the Ace of spades to the empty foundation
        "c3:1-c2 c4:1-c3 c1:4-c4",               # 9D on TC, 8C on 9D, 7D 6C 5H 4S on 8C
        # into the empty column: one card, or two (5H 4S)
        "c1:1-c5 c1:2-c5 c2:1-c5 c3:1-c5 c4:1-c5 c6:1-c5 c7:1-c5 c8:1-c5",
        "a1:1-c5 a3:1-c5 a4:1-c5 f1:1-c5 f2:1-c5 f3:1-c5")


def test_freecell_won_position_has_no_moves():
    game = position("freecell", columns=[""] * 8,
                    foundations=["AC-KC", "AD-KD", "AH-KH", "AS-KS"])
    assert game.is_won() and moves(game) == []


def test_freecell_deal_lays_out_seven_seven_seven_seven_six_six_six_six():
    game = patience.find_variant("freecell").deal(1)
    assert piles_of(game, "c") == dealt("freecell", 1, {"c": [7, 7, 7, 7, 6, 6, 6, 6]})["c"]
    assert piles_of(game, "a") == [[]] * 4 and piles_of(game, "f") == [[]] * 4


# ===========================================================================================
# Baker's Game (PySolFC bakersgame.html, BakersGame/SuperMoveSS_RowStack): FreeCell with the
# columns built down in suit, the same supermove limit, any card into an empty column.
# ===========================================================================================

# Two empty cells (a2, a4) and one empty column (c8): up to (1 + 2) * 2^1 = 6 cards onto a
# card, (1 + 2) * 2^0 = 3 into c8. The 6-run 8H..3H fits on 9H; the 7-run 9S..3S does not
# fit on TS. TC may not go on JD, nor 9H on TS: not the same suit.
BAKERS_GAME_RUNS = {
    "columns": ["9S 8S 7S 6S 5S 4S 3S", "TS", "8H 7H 6H 5H 4H 3H", "9H",
             "QD KS QS JD", "JC JS TH TC", "KC QC JH KH", ""],
    "cells": ["KD", "", "QH", ""],
    "foundations": ["AC-9C", "AD-TD", "AH-2H", "AS-2S"]}


def test_bakers_game_builds_in_suit_with_the_supermove_limit():
    game = position("bakers-game", **BAKERS_GAME_RUNS)
    assert moves(game) == expect(
        "c1:1-a c2:1-a c3:1-a c4:1-a c5:1-a c6:1-a c7:1-a f1:1-a f2:1-a f3:1-a f4:1-a",
        "c1:1-f c3:1-f c5:1-f c6:1-f",           # 3S, 3H, JD, TC to their foundations
        "c3:6-c4",                               # 8H..3H on 9H: 6 <= 6 (9S..3S on TS: 7 > 6)
        "a3:1-c7",                               # QH on KH
        "f1:1-c6 f2:1-c5 f3:1-c3 f4:1-c1",       # 9C on TC, TD on JD, 2H on 3H, 2S on 3S
        # into the empty column: any card, or a run of up to 3
        "c1:1-c8 c1:2-c8 c1:3-c8 c2:1-c8 c3:1-c8 c3:2-c8 c3:3-c8 c4:1-c8 c5:1-c8 c6:1-c8",
        "c7:1-c8 a1:1-c8 a3:1-c8 f1:1-c8 f2:1-c8 f3:1-c8 f4:1-c8")


# Cells full, c7 and c8 empty: up to 2^2 = 4 cards onto a card, 2^1 = 2 into a gap. The
# alternate-colour cards 9H 8S 7D are no run here: only 7D leaves c1 (onto 8D, its suit).
BAKERS_GAME_FULL_CELLS = {
    "columns": ["9H 8S 7D", "9D TD JD TH QH 8D", "6C 5C 4C 3C 2C", "7C", "QS JS TS 9S",
             "8C 9C TC JC QC KC KS", "", ""],
    "cells": ["KH", "KD", "QD", "JH"],
    "foundations": ["AC", "AD-6D", "AH-8H", "AS-7S"]}


def test_bakers_game_with_full_cells_moves_suited_runs_through_empty_columns_only():
    game = position("bakers-game", **BAKERS_GAME_FULL_CELLS)
    into_gaps = [f"{source}-{gap}" for gap in ("c7", "c8") for source in (
        "c1:1", "c2:1", "c3:1", "c3:2", "c4:1", "c5:1", "c5:2", "c6:1",
        "a1:1", "a2:1", "a3:1", "a4:1", "f1:1", "f2:1", "f3:1", "f4:1")]
    assert moves(game) == expect(
        "c1:1-f c3:1-f",                         # 7D on 6D, 2C on AC
        "c1:1-c2",                               # 7D on 8D
        "c5:4-c6",                               # QS JS TS 9S on KS: 4 <= 4
        "f1:1-c3 f2:1-c1",                       # AC back on 2C, 6D back on 7D
        # 6C..2C (5 cards) does not fit on 7C; 5C 4C 3C 2C (4) has no 6C to go on
        *into_gaps)


def test_bakers_game_deal_is_freecells():
    game = patience.find_variant("bakers-game").deal(7)
    assert piles_of(game, "c") == dealt("bakers-game", 7, {"c": [7, 7, 7, 7, 6, 6, 6, 6]})["c"]
    assert piles_of(game, "a") == [[]] * 4


# ===========================================================================================
# Eight Off (PySolFC eightoff.html + kingonlybakersgame.html, EightOff/FreeCell_SS_RowStack):
# eight columns of six built down in suit, eight cells (four dealt a card), a run moves when
# it has at most 1 + empty cells cards (empty columns do not count), Kings only in gaps.
# ===========================================================================================

# Three empty cells (a2, a4, a7): runs of at most 4. 8H..5H (4) goes on 9H; 8S..4S (5) does
# not go on 9S, though c6 is empty (no doubling). Into c6 only a King or a King-headed run:
# KD QD and KH and the KS in a6, not the 5-card KC..9C.
EIGHT_OFF_RUNS = {
    "columns": ["8H 7H 6H 5H", "9H", "8S 7S 6S 5S 4S", "9S", "KC QC JC TC 9C", "",
             "KD QD", "JH QS KH"],
    "cells": ["TH", "", "JS", "", "QH", "KS", "", "TS"],
    "foundations": ["AC-8C", "AD-JD", "AH-4H", "AS-3S"]}


def test_eight_off_runs_are_limited_by_the_empty_cells_alone():
    game = position("eight-off", **EIGHT_OFF_RUNS)
    assert moves(game) == expect(
        "c1:1-a c2:1-a c3:1-a c4:1-a c5:1-a c7:1-a c8:1-a f1:1-a f2:1-a f3:1-a f4:1-a",
        "c1:1-f c3:1-f c5:1-f c7:1-f",           # 5H, 4S, 9C, QD to their foundations
        "c1:4-c2",                               # 8H 7H 6H 5H on 9H
        "c7:2-c6 c8:1-c6 a6:1-c6",               # Kings into the empty column
        "a5:1-c8",                               # QH on KH
        "f1:1-c5 f2:1-c7 f3:1-c1 f4:1-c3")       # 8C, JD, 4H, 3S back onto their suits


# One empty cell (a8): runs of at most 2. KS QS (2) fills the gap, KH QH JH (3) does not,
# nor QS alone; 9D 8D 7D (3) cannot go on TD, 5C 4C (2) goes on 6C.
EIGHT_OFF_ONE_CELL = {
    "columns": ["KH QH JH", "KS QS", "9D 8D 7D", "7C JC TD", "5C 4C", "6C", "KC", ""],
    "cells": ["JD", "QD", "KD", "8C", "TC", "QC", "9C", ""],
    "foundations": ["AC-3C", "AD-6D", "AH-TH", "AS-JS"]}


def test_eight_off_with_one_empty_cell():
    game = position("eight-off", **EIGHT_OFF_ONE_CELL)
    assert moves(game) == expect(
        "c1:1-a c2:1-a c3:1-a c4:1-a c5:1-a c6:1-a c7:1-a f1:1-a f2:1-a f3:1-a f4:1-a",
        "c1:1-f c2:1-f c3:1-f c5:1-f",           # JH, QS, 7D, 4C to their foundations
        "c5:2-c6",                               # 5C 4C on 6C
        "a6:1-c7",                               # QC on KC
        "c2:2-c8 c7:1-c8 a3:1-c8",               # KS QS, KC, KD into the gap
        "f1:1-c5 f2:1-c3 f3:1-c1 f4:1-c2")       # 3C, 6D, TH, JS back onto their suits


def test_eight_off_deal_fills_cells_one_three_five_seven():
    game = patience.find_variant("eight-off").deal(1)
    expected = dealt("eight-off", 1, {"c": [6] * 8, "a": [1, 0, 1, 0, 1, 0, 1, 0]})
    assert piles_of(game, "c") == expected["c"] and piles_of(game, "a") == expected["a"]
    assert [len(pile) for pile in piles_of(game, "a")] == [1, 0, 1, 0, 1, 0, 1, 0]


# ===========================================================================================
# Seahaven Towers (PySolFC seahaventowers.html, SeahavenTowers): Eight Off's rules on ten
# columns of five, with four cells of which the middle two are dealt a card.
# ===========================================================================================

# Two empty cells (a1, a4): runs of at most 3. 5H 4H 3H goes on 6H; 9S..6S (4) does not go
# on TS; KD QD JD (3) fills the gap, KC..TC (4) does not.
SEAHAVEN_RUNS = {
    "columns": ["9S 8S 7S 6S", "JS QH TS", "5H 4H 3H", "6H", "KD QD JD", "", "KC QC JC TC",
             "9C", "7H 8H", "QS 9H TH KH"],
    "cells": ["", "KS", "JH", ""],
    "foundations": ["AC-8C", "AD-TD", "AH-2H", "AS-5S"]}


def test_seahaven_towers_runs_and_gaps():
    game = position("seahaven-towers", **SEAHAVEN_RUNS)
    assert moves(game) == expect(
        "c1:1-a c2:1-a c3:1-a c4:1-a c5:1-a c7:1-a c8:1-a c9:1-a c10:1-a",
        "f1:1-a f2:1-a f3:1-a f4:1-a",
        "c1:1-f c3:1-f c5:1-f c8:1-f",           # 6S, 3H, JD, 9C to their foundations
        "c3:3-c4",                               # 5H 4H 3H on 6H
        "c8:1-c7",                               # 9C on TC
        "c5:3-c6 c10:1-c6 a2:1-c6",              # KD QD JD, KH, KS into the gap
        "f1:1-c8 f2:1-c5 f3:1-c3 f4:1-c1")       # 8C, TD, 2H, 5S back onto their suits


# Cells full: one card at a time. Only single Kings fill the gap (not KH QH); 5C 4C cannot
# go on 6C; QC does not go on KD (not its suit); the 9D in a cell plays to its foundation.
SEAHAVEN_FULL_CELLS = {
    "columns": ["KH QH", "", "KS", "5C 4C", "6C", "TD 9C", "KD", "QD 8C", "JC", "TC 7C"],
    "cells": ["KC", "9D", "QC", "JD"],
    "foundations": ["AC-3C", "AD-8D", "AH-JH", "AS-QS"]}


def test_seahaven_towers_with_full_cells():
    game = position("seahaven-towers", **SEAHAVEN_FULL_CELLS)
    assert moves(game) == expect(
        "c1:1-f c3:1-f c4:1-f a2:1-f",           # QH, KS, 4C, 9D to their foundations
        "c3:1-c2 c7:1-c2 a1:1-c2",               # KS, KD, KC into the gap
        "c8:1-c6 c10:1-c8 c5:1-c10",             # 8C on 9C, 7C on 8C, 6C on 7C
        "f1:1-c4 f3:1-c1 f4:1-c3")               # 3C, JH, QS back onto their suits


def test_seahaven_towers_deal_fills_the_middle_cells():
    game = patience.find_variant("seahaven-towers").deal(1)
    expected = dealt("seahaven-towers", 1, {"c": [5] * 10, "a": [0, 1, 1, 0]})
    assert piles_of(game, "c") == expected["c"] and piles_of(game, "a") == expected["a"]
    assert [len(pile) for pile in piles_of(game, "a")] == [0, 1, 1, 0]


# ===========================================================================================
# Baker's Dozen (PySolFC bakersdozen.html, BakersDozen): thirteen columns of four, Kings put
# at the bottom of their columns, built down regardless of suit one card at a time, empty
# columns never filled; foundations up in suit, a card may come back onto a column.
# ===========================================================================================

BAKERS_DOZEN_MIDGAME = {
    "columns": ["KS 9S QH", "", "KH TD JC", "QD 5S JD", "8D TC", "9D 4S", "TH 8S", "KC", "8H 6D",
             "QC JH 9H", "KD", "6S 7S QS", "TS JS 7D"],
    "foundations": ["AC-9C", "AD-5D", "AH-7H", "AS-3S"]}


def test_bakers_dozen_builds_down_regardless_of_suit_one_card_at_a_time():
    game = position("bakers-dozen", **BAKERS_DOZEN_MIDGAME)
    assert moves(game) == expect(
        "c5:1-f c6:1-f c9:1-f",                  # TC on 9C, 4S on 3S, 6D on 5D
        "c1:1-c8 c1:1-c11 c12:1-c8 c12:1-c11",   # QH, QS on KC or KD
        "c3:1-c1 c3:1-c12 c4:1-c1 c4:1-c12",     # JC, JD on QH or QS
        "c5:1-c3 c5:1-c4",                       # TC on JC or JD
        "c10:1-c5 c7:1-c10 c13:1-c7 c9:1-c13",   # 9H on TC, 8S on 9H, 7D on 8S, 6D on 7D
        "f1:1-c5 f2:1-c9 f3:1-c7 f4:1-c6")       # 9C on TC, 5D on 6D, 7H on 8S, 3S on 4S
        # nothing goes into the empty c2, and a King goes nowhere


BAKERS_DOZEN_ENDGAME = {
    "columns": ["KH", "QC", "", "KS QS", "KC", "", "", "", "", "", "", "", ""],
    "foundations": ["AC-JC", "AD-KD", "AH-QH", "AS-JS"]}


def test_bakers_dozen_gaps_stay_empty():
    game = position("bakers-dozen", **BAKERS_DOZEN_ENDGAME)
    assert moves(game) == expect(
        "c1:1-f c2:1-f c4:1-f",                  # KH, QC, QS to their foundations
        "c2:1-c1 c2:1-c5 c4:1-c1 c4:1-c5",       # QC, QS on KH or KC
        "f1:1-c2 f1:1-c4 f4:1-c2 f4:1-c4",       # JC, JS back on QC or QS
        "f3:1-c1 f3:1-c5")                       # QH back on KH or KC (KD has nowhere)


def test_bakers_dozen_deal_puts_the_kings_at_the_bottom():
    for number in (1, 2, 3):
        game = patience.find_variant("bakers-dozen").deal(number)
        raw = dealt("bakers-dozen", number, {"c": [4] * 13})["c"]
        arranged = [[c for c in pile if c[0] == "K"] + [c for c in pile if c[0] != "K"]
                    for pile in raw]
        assert piles_of(game, "c") == arranged
    # deal 1 deals c9 9S KC AH TC and c10 JC KH KS 3H: the Kings go under, in dealt order
    game = patience.find_variant("bakers-dozen").deal(1)
    assert dealt("bakers-dozen", 1, {"c": [4] * 13})["c"][8:10] == [
        ["9S", "KC", "AH", "TC"], ["JC", "KH", "KS", "3H"]]
    assert piles_of(game, "c")[8:10] == [["KC", "9S", "AH", "TC"], ["KH", "KS", "JC", "3H"]]


# ===========================================================================================
# Streets and Alleys (PySolFC streetsandalleys.html + beleagueredcastle.html,
# StreetsAndAlleys): eight columns dealt 7, 7, 7, 7, 6, 6, 6, 6, built down regardless of
# suit, one card at a time; any card fills a gap; foundations up in suit, never taken back.
# ===========================================================================================

STREETS_ACES = {
    "columns": ["AC", "AH", "4D", "2S", "3H", "", "KS", "AS"],
    "foundations": ["AD-3D"], "rest_under": 7}


def test_streets_and_alleys_aces_go_to_empty_foundations():
    game = position("streets-and-alleys", **STREETS_ACES)
    assert moves(game) == expect(
        "c1:1-f c2:1-f c3:1-f c8:1-f",           # AC, AH, AS to empty foundations; 4D on 3D
        "c1:1-c4 c2:1-c4 c8:1-c4",               # AC, AH, AS on 2S (any suit)
        "c4:1-c5 c5:1-c3",                       # 2S on 3H, 3H on 4D
        "c1:1-c6 c2:1-c6 c3:1-c6 c4:1-c6 c5:1-c6 c7:1-c6 c8:1-c6")   # any card into c6


CASTLE_ENDGAME = {
    "columns": ["KH QS JD", "", "", "KC QH", "KD", "KS QC", "TS", "QD JS"],
    "foundations": ["AC-JC", "AD-TD", "AH-JH", "AS-9S"]}
# One card at a time: QS JD (and the others) never move as a pair, not even into a gap.
CASTLE_ENDGAME_MOVES = expect(
    "c1:1-f c4:1-f c6:1-f c7:1-f",               # JD, QH, QC, TS to their foundations
    "c1:1-c4 c1:1-c6 c8:1-c4 c8:1-c6",           # JD, JS on QH or QC
    "c4:1-c5 c6:1-c5",                           # QH, QC on KD
    "c7:1-c1 c7:1-c8",                           # TS on JD or JS
    *(f"{source}:1-{gap}" for gap in ("c2", "c3") for source in ("c1", "c4", "c5", "c6", "c7",
                                                                 "c8")))


def test_streets_and_alleys_moves_one_card_at_a_time():
    assert moves(position("streets-and-alleys", **CASTLE_ENDGAME)) == CASTLE_ENDGAME_MOVES


def test_streets_and_alleys_deal_deals_every_card():
    game = patience.find_variant("streets-and-alleys").deal(1)
    assert piles_of(game, "c") == dealt("streets-and-alleys", 1,
                                        {"c": [7, 7, 7, 7, 6, 6, 6, 6]})["c"]
    assert piles_of(game, "f") == [[]] * 4


# ===========================================================================================
# King Albert (PySolFC kingalbert.html, KingAlbert): nine columns of 1..9 cards built down
# in alternate colours one card at a time, any card into a gap; seven reserve cards that may
# be played but never refilled; foundations up in suit, a card may come back onto a column.
# ===========================================================================================

KING_ALBERT_MIDGAME = {
    "columns": ["6C", "", "TH", "8S", "7H", "KS", "5C", "JD", "6H"],
    "cells": ["5D", "", "KC", "9S", "", "AH", "QD"],
    "foundations": ["AC-4C", "AD-4D", "AS-7S", ""], "rest_under": 6}


def test_king_albert_reserve_plays_out_and_foundations_come_back():
    game = position("king-albert", **KING_ALBERT_MIDGAME)
    into_gap = [f"{source}:1-c2" for source in (
        "c1", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "a1", "a3", "a4", "a6", "a7",
        "f1", "f2", "f3")]
    assert moves(game) == expect(
        "c4:1-f c7:1-f a1:1-f a6:1-f",           # 8S on 7S, 5C on 4C, 5D on 4D, AH to f4
        "c1:1-c5 c5:1-c4 c7:1-c9",               # 6C on 7H, 7H on 8S, 5C on 6H
        "a1:1-c1 a4:1-c3 a7:1-c6",               # 5D on 6C, 9S on TH, QD on KS
        "f2:1-c7",                               # 4D back on 5C
        *into_gap)                               # any card into c2; nothing into the reserve


KING_ALBERT_ENDGAME = {
    "columns": ["KH QS JD", "KS QD", "KC", "KD QC", "JS", "TD", "QH JC", "JH TS", ""],
    "cells": ["9S"],
    "foundations": ["AC-TC", "AD-9D", "AH-TH", "AS-8S"]}


def test_king_albert_moves_one_card_at_a_time():
    game = position("king-albert", **KING_ALBERT_ENDGAME)
    into_gap = [f"{source}:1-c9" for source in (
        "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "a1", "f1", "f2", "f3", "f4")]
    assert moves(game) == expect(
        "c6:1-f c7:1-f a1:1-f",                  # TD, JC, 9S to their foundations
        "c1:1-c4 c2:1-c3 c5:1-c2 c6:1-c5 c6:1-c7 c7:1-c2 c8:1-c1",
        "a1:1-c6",                               # 9S on TD
        "f1:1-c1 f2:1-c8 f3:1-c5 f3:1-c7",       # TC on JD, 9D on TS, TH on JS or JC
        *into_gap)                               # one card: QS JD never moves as a pair


def test_king_albert_deal_is_a_triangle_and_seven_reserve_cards():
    game = patience.find_variant("king-albert").deal(1)
    expected = dealt("king-albert", 1, {"c": list(range(1, 10)), "a": [1] * 7})
    assert piles_of(game, "c") == expected["c"] and piles_of(game, "a") == expected["a"]
    assert [len(pile) for pile in piles_of(game, "c")] == list(range(1, 10))


# ===========================================================================================
# Fan (PySolFC fan.html, Fan): eighteen fans, seventeen of three and one of one, built down
# in suit one card at a time; only a King fills an empty fan; foundations up in suit, a card
# may come back onto a fan.
# ===========================================================================================

FAN_MIDGAME = {
    "columns": ["6C", "7C", "", "KH", "9D", "TD", "AS", "2S", "QH", "2H", "JS", "KS", "4S", "7S",
             "8H", "JC", "5H", "QC"],
    "foundations": ["AC-5C", "AD-8D", "AH", ""], "rest_under": 12}


def test_fan_builds_in_suit_kings_into_gaps():
    game = position("fan", **FAN_MIDGAME)
    assert moves(game) == expect(
        "c1:1-f c5:1-f c7:1-f c10:1-f",          # 6C, 9D, AS (to f4), 2H to the foundations
        "c1:1-c2 c5:1-c6 c7:1-c8 c9:1-c4 c16:1-c18",   # 6C on 7C, 9D on TD, AS on 2S, ...
        "c4:1-c3 c12:1-c3",                      # KH, KS into the empty fan
        "f1:1-c1 f2:1-c5 f3:1-c10")              # 5C, 8D, AH back onto their suits


FAN_ENDGAME = {
    "columns": ["KD QD", "KC JH", "KS KH QH"] + [""] * 15,
    "foundations": ["AC-QC", "AD-JD", "AH-TH", "AS-QS"]}


def test_fan_empty_fans_take_only_kings():
    game = position("fan", **FAN_ENDGAME)
    # fifteen empty fans, but no King on top; QD KD or QH never move as a pair
    assert moves(game) == expect("c1:1-f c2:1-f c2:1-c3 f2:1-c1 f3:1-c2")


def test_fan_deal_is_seventeen_threes_and_a_one():
    game = patience.find_variant("fan").deal(1)
    sizes = [3] * 17 + [1]
    assert piles_of(game, "c") == dealt("fan", 1, {"c": sizes})["c"]
    assert [len(pile) for pile in piles_of(game, "c")] == sizes


# ===========================================================================================
# Beleaguered Castle (PySolFC beleagueredcastle.html, BeleagueredCastle): the Aces start on
# the foundations; then Streets and Alleys' rules on eight columns of six.
# ===========================================================================================

BELEAGUERED_MIDGAME = {
    "columns": ["KC QC 9C 6C", "KD QD JD TD 2D", "", "9D 8D 6D TS", "5D 4D 3D 4H",
                "KH QH JH 7D", "TH 9H 7H 6H 8H", "KS QS JS 5H TC 8C 7C JC"],
    "foundations": ["AC-5C", "AD", "AH-3H", "AS-9S"]}


def test_beleaguered_castle_one_card_at_a_time_any_card_in_a_gap():
    game = position("beleaguered-castle", **BELEAGUERED_MIDGAME)
    assert moves(game) == expect(
        "c1:1-f c2:1-f c4:1-f c5:1-f",           # 6C, 2D, TS, 4H to their foundations
        "c1:1-c6 c4:1-c8 c6:1-c7",               # 6C on 7D, TS on JC, 7D on 8H
        "c1:1-c3 c2:1-c3 c4:1-c3 c5:1-c3 c6:1-c3 c7:1-c3 c8:1-c3")   # any card into c3
        # and nothing comes back off a foundation


def test_beleaguered_castle_plays_streets_and_alleys_rules():
    # the same endgame (the Aces are long on the foundations): the same moves
    assert moves(position("beleaguered-castle", **CASTLE_ENDGAME)) == CASTLE_ENDGAME_MOVES


def test_beleaguered_castle_deal_places_the_aces_first():
    game = patience.find_variant("beleaguered-castle").deal(1)
    assert piles_of(game, "f") == [["AC"], ["AD"], ["AH"], ["AS"]]
    assert piles_of(game, "c") == dealt("beleaguered-castle", 1, {"c": [6] * 8})["c"]
    assert not any(card[0] == "A" for pile in piles_of(game, "c") for card in pile)
