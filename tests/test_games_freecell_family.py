"""The FreeCell family and its open-layout kin, each against its cited rules.

freecell, bakers-game, eight-off and seahaven-towers (variants/<id>.yaml). The rules are PySolFC's
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
