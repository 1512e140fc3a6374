"""docs/rules.md, decks: Maine Coon plays two decks (104 cards), eight foundations, 100 stock
cards = 25 deals; each card exists twice. Expected lists worked out by hand."""

from __future__ import annotations

import pytest
from rules_helpers import SET_K_TO_A, build, expand, moves

import patience

MAINECOON = "mainecoon"


def test_two_decks_eight_foundations_twenty_five_deals():
    variant = patience.find_variant(MAINECOON)
    assert len(variant.deck) == 104
    assert variant.pile_names == ("c1", "c2", "c3", "c4", "t",
                                  "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8")
    assert variant.deals == 25
    game = variant.deal(1)
    assert len(game.stock) == 100
    assert game.text().split()[2] == "f:///////"
    for _ in range(25):
        game.push("d")
    assert game.stock == [] and "d" not in moves(game)


def test_each_card_twice_not_three_times():
    text = build(MAINECOON, ["KS", "KS", "", ""]).text()  # twice is fine
    head, _, stock = text.partition(" s:")
    # a third KS in place of the stock's first card
    with pytest.raises(patience.PositionError, match="KS"):
        patience.find_variant(MAINECOON).position(f"{head} s:KS{stock[2:]}")


# c1 and c2 hold the same set (one from each deck). Top-k bottom rank k: the other column's
# AS takes k=13, KD takes k=12, 9C takes k=8; KD goes on either Ace; 9C has no base.
def test_two_identical_sets():
    game = build(MAINECOON, [SET_K_TO_A, SET_K_TO_A, "KD", "9C"])
    assert moves(game) == expand(
        "c1:1..13-t", "c1:13-c2", "c1:12-c3", "c1:8-c4", "c1:13-f",
        "c2:1..13-t", "c2:13-c1", "c2:12-c3", "c2:8-c4", "c2:13-f",
        "c3:1-c1", "c3:1-c2", "c3:1-t", "c4:1-t", "d")
    game.push("c1:13-f")
    game.push("c2:13-f")
    fields = game.text().split()
    assert fields[2] == "f:" + "/".join([SET_K_TO_A.replace(" ", "")] * 2) + "//////"


def test_the_eighth_set_wins():
    # seven foundations full, the last set on c1, nothing else anywhere
    game = build(MAINECOON, [SET_K_TO_A, "", "", ""], rest="foundations")
    assert game.stock == []
    assert moves(game) == expand("c1:1..13-c2", "c1:1..13-c3", "c1:1..13-c4", "c1:1..13-t",
                                 "c1:13-f")
    assert not game.is_won()
    game.push("c1:13-f")
    assert game.pile("f8") == game.variant.position(game.text()).pile("f8")
    assert len(game.pile("f8")) == 13
    assert game.is_won()
    assert moves(game) == []


def test_four_full_foundations_are_not_a_win_with_two_decks():
    game = build(MAINECOON, ["", "", "", ""], foundations=[
        "KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC", "KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD",
        "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH", "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS"])
    assert not game.is_won()
    assert moves(game) == ["d"]
