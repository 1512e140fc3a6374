"""Twelve more kin of shipped families, as shipped in variants/: Josephine, Streets, Maria,
Emperor, Indian, Napoleon's Exile and Forty and Eight (Forty Thieves), Relaxed FreeCell,
ForeCell and Double FreeCell (FreeCell), Portuguese Solitaire and Castles in Spain (Baker's
Dozen).

Their rules are pinned down by the examples in each file (``patience test ID``); the tests
here check what an example cannot say: how a deal is laid out, over several deals, as
PySolFC's class deals it (see each file's ``sources:``), and a rule over a few moves. Every
expected value below is read off the class's ``startGame`` and ``createGame`` or worked out
by hand, never taken from the generator. (The columns of each game's deal are checked with
the other kin's, in tests/test_games_kin.py.)
"""

from __future__ import annotations

from test_games_klondike_family import moves, position

import patience
from patience.cards import card_code


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
