"""A stock whose top card is in play (``stock.top``): Pyramid's talon.

The exact move sets come from PySolFC's Pyramid (pysollib/games/pyramid.py: the talon is a
``FaceUpWasteTalonStack`` whose top card pairs with a free card of the pyramid or the
waste's top card, and goes alone to the foundation when a King; ``max_rounds=3``), not from
running the generator. The deal deals the top card first and turns up the next; a redeal
waits until both are gone; take-back restores both; the loader refuses a group that cannot
hold the top card, with its place (the solver against the plain exhaustive search:
tests/test_solver_reductions.py, mini-pyramid); and a
player is never sent a card of the stock under the top one.
"""

from __future__ import annotations

import json

import pytest
from test_web_snapshot import CODE

import patience
from patience.errors import VariantError
from patience.variant import load_variant_text

# KH at the apex under 6C (p2); 7D on p6; the talon shows 8S over AS JD 9C; QD under 5S on
# the waste; the rest of the deck on the foundation
REST = ("AC2C3C4C5C7C8CTCJCQCKCAD2D3D4D5D6D8D9DTDKDAH2H3H4H5H6H7H8H9HTHJHQH2S3S4S6S7S9STSJSQS"
        "KS")
PYRAMID = "p:KH/6C////7D//////////////////////"
POSITION = f"{PYRAMID} t:8S w:QD5S f:{REST} s:ASJD9C r:0"


def pyramid() -> patience.Variant:
    return patience.find_variant("pyramid")


def moves(game: patience.Game) -> list[str]:
    return sorted(game.notation(m) for m in game.legal_moves)


def test_the_stocks_top_card_pairs_with_the_waste_and_the_pyramid():
    game = pyramid().position(POSITION)
    assert moves(game) == ["d", "p2+p6", "t+w"]  # 6+7, 8+5; KH is covered
    game.push_text("t+w")
    # the stock's next card (AS) turns up at once, and QD under 5S is free: A + Q
    assert game.text() == f"{PYRAMID} t:AS w:QD f:{REST}8S5S s:JD9C r:0"
    assert moves(game) == ["d", "p2+p6", "t+w"]
    game.pop()
    assert game.text() == POSITION


def test_the_deal_deals_the_top_card_first_and_turns_up_the_next():
    game = pyramid().position(POSITION)
    game.push_text("d")
    assert game.text() == f"{PYRAMID} t:AS w:QD5S8S f:{REST} s:JD9C r:0"
    assert moves(game) == ["d", "p2+p6"]
    for _ in range(3):
        game.push_text("d")
    # the stock and its top card both gone: the next 'd' turns the waste over, the first
    # card dealt on top of the stock, face up
    assert game.text() == f"{PYRAMID} t: w:QD5S8SASJD9C f:{REST} s: r:0"
    game.push_text("d")
    assert game.text() == f"{PYRAMID} t:QD w: f:{REST} s:5S8SASJD9C r:1"
    while game.move_stack:
        game.pop()
    assert game.text() == POSITION


def test_a_deal_is_left_while_the_top_card_is_and_redeals_only_twice():
    variant = pyramid()
    last = variant.position(f"{PYRAMID} t:9C w:QD5S8SASJD f:{REST} s: r:2")
    assert moves(last) == ["d", "p2+p6"]  # 9C is dealt, though the stock under it is empty
    last.push_text("d")
    assert moves(last) == ["p2+p6"]  # no third redeal
    assert last.deals_left == 0 and variant.position(POSITION).deals_left == 4


def test_a_position_read_with_the_top_pile_empty_turns_up_the_stocks_next_card():
    game = pyramid().position(f"{PYRAMID} t: w:QD5S f:{REST} s:8SASJD9C r:0")
    assert game.text() == POSITION


def test_the_rules_say_the_top_card_lies_face_up():
    text = pyramid().rules_text()
    assert "The stock lies face down but for its top card, which lies face up on t." in text
    assert "It holds the stock's top card, face up and in play" in text


HEAD = "extends: tabbycat\nid: x\nname: X\ndescription: x.\n"
TALON = "  talon:\n    id: u\n    count: 1\n    moves: 'true'\n"


@pytest.mark.parametrize(("text", "where", "message"), [
    ("stock:\n  top: talonn\n", "6:8",
     "stock.top names 'talonn', which is not a pile group"),
    ("stock:\n  top: columns\n", "6:8", ("stock.top names 'columns', a group of 4 piles: the "
     "stock's top card lies alone on a group of one pile (count: 1) that is dealt nothing, "
     "takes no card (accepts: false) and is filled only from the stock")),
    ("stock:\n  top: tail\n", "6:8",
     "stock.top names 'tail', whose accepts rule is 'pile.empty and source in columns'"),
    ("piles:\n" + TALON + "    deal: 1\nstock:\n  top: talon\n", "12:8",
     "stock.top names 'talon', which is dealt cards at the start"),
    ("piles:\n" + TALON + "    fill_from: columns\nstock:\n  top: talon\n", "12:8",
     "stock.top names 'talon', which fills from 'columns'"),
    ("piles:\n" + TALON + "stock:\n  top: talon\n  deals_to: [talon]\n", "11:8",
     "stock.top names 'talon', which the stock deals to"),
    ("piles:\n" + TALON + "stock:\n  top: talon\n  deals_to: [columns]\ndiscards:\n"
     "  - cards: 2\n    from: [columns]\n    to: talon\n    when: 'true'\n", "11:8",
     ("stock.top names 'talon', which discards[1].to also names: only the stock puts cards "
      "on the pile of its top card")),
    ("stock:\n  top: [tail]\n", "6:8", "stock.top must be"),
])
def test_every_mistake_in_stock_top_is_refused_where_it_is(text, where, message):
    with pytest.raises(VariantError) as error:
        load_variant_text(HEAD + text, "x.yaml")
    assert f"x.yaml:{where}: " in str(error.value)
    assert message in str(error.value)


def test_a_talon_any_card_may_leave_plays_in_both_engines():
    variant = load_variant_text(HEAD + "piles:\n" + TALON + "stock:\n  top: talon\n",
                                "x.yaml")
    game = variant.deal(1)
    top = variant.stock_top
    assert top is not None and len(game.piles[top]) == 1 and len(game.stock) == 47
    assert any(game.notation(m).startswith("u:1-c") for m in game.legal_moves)
    game.push_text("d")  # the talon's card and three of the stock onto the columns
    assert [len(pile) for pile in game.piles[:4]] == [2, 2, 2, 2] and len(game.stock) == 43


def test_no_card_under_the_stocks_top_card_is_ever_sent_to_the_page():
    from patience.cards import card_code
    from patience.play.session import Session
    from patience.web.snapshot import snapshot

    session = Session(pyramid().deal(1), record_stats=False)
    for _ in range(30):
        sent = set(CODE.findall(json.dumps(snapshot(session))))
        assert not sent & {card_code(c) for c in session.game.stock}
        top = session.game.piles[session.variant.stock_top or 0]
        assert {card_code(c) for c in top} <= sent  # the face-up top card is shown
        session.game.push_text("d")
