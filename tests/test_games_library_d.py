"""Twelve more kin of shipped families, as shipped in variants/: Josephine, Streets, Maria,
Emperor, Indian, Napoleon's Exile and Forty and Eight (Forty Thieves), Relaxed FreeCell,
ForeCell and Double FreeCell (FreeCell), Portuguese Solitaire and Castles in Spain (Baker's
Dozen).

Their rules are pinned down by the examples in each file (``patience test ID``); the tests
here check what an example cannot say: how each deal is laid out, over several deals, as
PySolFC's class deals it (see each file's ``sources:``). Every expected number below is read
off the class's ``startGame`` and ``createGame``, never from the generator.
"""

from __future__ import annotations

import pytest
from test_games_klondike_family import face_down, moves, position

import patience
from patience.cards import FACE_DOWN, card_code


@pytest.mark.parametrize(("variant", "columns", "down", "stock"), [
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


def test_forecell_deals_the_last_four_cards_to_the_cells():
    for seed in (1, 2, 3):
        game = patience.find_variant("forecell").deal(seed)
        assert [len(game.pile(f"a{i}")) for i in range(1, 5)] == [1, 1, 1, 1]


def test_double_freecell_starts_with_one_ace_of_each_suit_on_the_foundations():
    for seed in (1, 2, 3):
        game = patience.find_variant("double-freecell").deal(seed)
        foundations = [[card_code(c) for c in game.pile(f"f{i}")] for i in range(1, 5)]
        assert foundations == [["AC"], ["AD"], ["AH"], ["AS"]]
        aces = [card_code(c) for i in range(1, 11) for c in game.pile(f"c{i}")
                if card_code(c)[0] == "A"]
        assert sorted(aces) == ["AC", "AD", "AH", "AS"]   # the other deck's Aces, dealt


def test_double_freecell_second_ace_goes_on_the_king_and_the_two_follows():
    game = position("double-freecell",
                    "c:*AC/2C//////// a:///// f:AC2C3C4C5C6C7C8C9CTCJCQCKC/AD/AH/AS s:")
    assert "c1:1-f" in moves(game)                       # AC on KC
    assert "c2:1-f" not in moves(game)                   # 2C before the second AC
    game.push("c1:1-f")
    assert "c2:1-f" in moves(game)                       # 2C on it
    game.push("c2:1-f")
    assert len(game.pile("f1")) == 15


def test_portuguese_solitaire_leaves_the_kings_where_they_fall():
    """The same deal as Baker's Dozen but for the Kings, which Baker's Dozen puts under each
    column's other cards (bakers-dozen.yaml's to_bottom)."""
    kings_moved = 0
    for seed in range(1, 11):
        portuguese = patience.find_variant("portuguese-solitaire").deal(seed)
        bakers = patience.find_variant("bakers-dozen").deal(seed)
        for i in range(1, 14):
            dealt = [card_code(c) for c in portuguese.pile(f"c{i}")]
            kings = [code for code in dealt if code[0] == "K"]
            others = [code for code in dealt if code[0] != "K"]
            assert [card_code(c) for c in bakers.pile(f"c{i}")] == kings + others
            kings_moved += dealt != kings + others
    assert kings_moved > 0


def test_castles_in_spain_a_run_moves_through_the_empty_columns_only():
    # two empty columns and no cells: four cards onto a card, two into a gap
    game = position("castles-in-spain",
                    "c:*KHQSJHTS/KD/2C/2D/2H/2S/3C/3D/3H/3S/4C// f:/// s:")
    assert {"c1:3-c2", "c1:2-c12", "c1:1-c13"} <= moves(game)
    assert "c1:3-c12" not in moves(game)
    game.push("c4:1-c7")                                 # 2D on 3C: three empty columns
    assert "c1:3-c12" in moves(game)
