"""docs/rules.md, what holds in every dialect: a won position has no moves; two moves are the
same exactly when their notation is the same; a column's card never moves onto itself."""

from __future__ import annotations

import random

import pytest
from rules_helpers import ALL_VARIANTS, build, moves

import patience


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_a_won_position_has_no_moves(variant):
    # even where a foundation's top card could go back to an empty column
    game = build(variant, ["", "", "", ""], rest="foundations")
    assert game.is_won()
    assert moves(game) == []
    assert not game.has_moves()
    assert not game.is_lost()


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_a_lost_position_is_not_won_and_has_no_moves(variant):
    # no stock; the spades on the table, the other suits on foundations as K … A (tops: Aces,
    # which only a 2 or an empty column would take back). Column tops 5S 9S JS 7S: none is
    # one below another; under each top lies a card it is not one below, so only top cards
    # move; the tail is full and its QS needs a King. Nothing moves.
    foundations = ["KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC",
                   "KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD",
                   "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH"]
    game = build(variant, ["AS 2S 5S", "3S 4S 9S", "6S 8S JS", "TS KS 7S"], tail="QS",
                 foundations=foundations, rest="foundations")
    assert game.stock == []
    assert moves(game) == []
    assert game.is_lost()
    assert not game.is_won()


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_moves_with_the_same_notation_are_the_same_move(variant):
    # along random games: notation is one-to-one on the legal moves, and reads back
    v = patience.find_variant(variant)
    for seed in range(1, 9):
        game = v.deal(seed)
        rng = random.Random(seed)
        for _ in range(80):
            legal = list(game.legal_moves)
            texts = [game.notation(move) for move in legal]
            assert len(set(texts)) == len(texts) == len(set(legal))
            for move, text in zip(legal, texts):
                assert game.parse_move(text) == move
            if not legal:
                break
            game.push(rng.choice(legal))
