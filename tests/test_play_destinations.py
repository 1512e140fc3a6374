"""Click-to-move destinations (patience.play.destinations) on hand-built positions."""

from __future__ import annotations

import pytest

from patience import Game, find_variant
from patience.cards import parse_cards
from patience.play.destinations import click_destinations, click_move, drop_move
from patience.variant import load_variant_text


def position(variant_name: str, **piles: str) -> Game:
    """A position with the named piles (cards bottom to top) and an empty stock. Positions
    here need not hold the whole deck: destinations only look at legal moves."""
    variant = find_variant(variant_name) if isinstance(variant_name, str) else variant_name
    cards = [parse_cards(split(piles.get(name, ""))) for name in variant.pile_names]
    return Game(variant, cards, [])


def split(codes: str) -> str:
    return " ".join(codes[i:i + 2] for i in range(0, len(codes), 2))


def notation(game: Game, move) -> str | None:
    return None if move is None else game.notation(move)


def click(game: Game, pile: str, depth: int = 0) -> str | None:
    return notation(game, click_move(game, game.variant.pile_index[pile], depth))


def test_same_suit_column_comes_before_another_accepting_column():
    game = position("tabbycat", c1="9C", c2="9D", c4="8D")
    assert click(game, "c4") == "c4:1-c2"


def test_accepting_column_comes_before_the_first_empty_column_and_the_tail():
    game = position("tabbycat", c2="9C", c4="8D")
    order = click_destinations(game, game.variant.pile_index["c4"], 1)
    assert [game.notation(m) for m in order] == ["c4:1-c2", "c4:1-c1", "c4:1-c3", "c4:1-t"]


def test_first_empty_column_comes_before_the_tail():
    game = position("tabbycat", c1="5S", c3="QH", c4="9D")
    assert click(game, "c3") == "c3:1-c2"


def test_tail_is_last():
    game = position("tabbycat", c1="5S", c2="7H", c3="QH", c4="9D")
    assert click(game, "c3") == "c3:1-t"


def test_a_click_takes_the_run_on_the_clicked_card():
    game = position("tabbycat", c1="3C", c2="KH9S8D7C", c3="TD", c4="2S")
    assert click(game, "c2", depth=2) == "c2:3-c3"


def test_a_card_that_cannot_move_gives_none():
    game = position("manx", c1="5S", c2="7H", c3="QH", c4="9D", t="2C")
    assert click(game, "c1") is None
    # a column click never grows into a deeper run: 9D alone cannot move, 5S 9D not a run
    assert click(game, "c4") is None


def test_a_click_on_any_tail_card_moves_the_whole_tail_run():
    game = position("tabbycat", c1="9C", c2="4H", c3="KD", t="8S7H6D")
    assert click(game, "t", depth=0) == "t:3-c1"
    assert click(game, "t", depth=1) == "t:3-c1"


def test_a_tail_that_leaves_in_parts_moves_the_clicked_part():
    game = position("tabbycat-corner", c1="9C", c2="7S", c3="KD", t="8S7H6D")
    assert click(game, "t", depth=0) == "t:1-c2"
    assert click(game, "t", depth=1) == "t:2-c4"  # 7H 6D: no 8 on top, so the empty column


def test_a_complete_set_goes_to_the_foundation_first():
    game = position("tabbycat", c1="KSQHJDTC9S8H7D6C5S4H3D2CAS", c2="2D", c3="3H")
    assert click(game, "c1", depth=12) == "c1:13-f"


def test_foundation_return_goes_to_an_accepting_column():
    game = position("tabbycat-corner", c1="3C", c2="2D", c3="9H", c4="4S",
                    f1="KSQHJDTC9S8H7D6C5S4H3D2CAS")
    assert click(game, "f1") == "f1:1-c2"


def test_the_order_comes_from_the_groups_not_their_names():
    text = find_variant("tabbycat").text.replace("extends", "#")
    text = (text.replace("id: tabbycat", "id: renamed").replace("  columns:", "  stacks:")
            .replace("id: c\n", "id: p\n").replace("count: 4\n    deal: 1", "count: 5\n    deal: 1")
            .replace("  tail:", "  reserve:").replace("id: t\n", "id: r\n")
            .replace("source in columns", "source in stacks")
            .replace("deals_to: [columns]", "deals_to: [stacks]"))
    variant = load_variant_text(text, "renamed.yaml")
    assert variant.pile_names[:6] == ("p1", "p2", "p3", "p4", "p5", "r")
    game = position(variant, p1="5S", p2="9C", p4="8D", p5="9D")
    assert click(game, "p4") == "p4:1-p5"
    game = position(variant, p1="5S", p2="7C", p4="8D", p5="3D")
    assert click(game, "p4") == "p4:1-p3"


def test_a_drop_names_the_destination():
    game = position("tabbycat", c1="9C", c2="9D", c4="8D")
    assert notation(game, drop_move(game, 3, 0, 0)) == "c4:1-c1"
    assert notation(game, drop_move(game, 3, 0, 4)) == "c4:1-t"


def test_a_drop_of_a_tail_card_takes_the_whole_tail_and_a_set_names_the_group():
    game = position("tabbycat", c1="9C", t="8S7H")
    assert notation(game, drop_move(game, 4, 0, 0)) == "t:2-c1"
    game = position("tabbycat", c2="KSQHJDTC9S8H7D6C5S4H3D2CAS", f1="2D")
    assert notation(game, drop_move(game, 1, 12, 7)) == "c2:13-f"


@pytest.mark.parametrize("name", ["tabbycat", "manx", "mainecoon"])
def test_every_click_move_is_legal(name):
    game = find_variant(name).deal(7)
    for _ in range(6):
        game.push("d")
    clicked = []
    for index, pile in enumerate(game.piles):
        for depth in range(len(pile)):
            move = click_move(game, index, depth)
            assert move is None or game.is_legal(move)
            if move is not None:
                clicked.append(game.notation(move))
    assert len(clicked) >= 3, clicked  # some clicks move a card: the check is not vacuous
