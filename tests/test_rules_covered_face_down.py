"""Covered cards face down until uncovered (``face_down: covered``): Three Peaks.

The exact positions come from PySolFC's Three Peaks (pysollib/games/threepeaks.py:
``ThreePeaks.startGame`` deals the 18 cards of the back rows with ``flip=0``, the front
row face up, and ``ThreePeaksExposeFlip.fillStack`` turns up every row stack that is no
longer blocked), not from running the generator. The turn-up is part of the move and taken
back with it; a position may hold a face-down card only on a covered pile; the loader
refuses the word without an overlapping layout; and a player never receives a face-down
card. (The solver against the plain exhaustive search: tests/test_solver_reductions.py,
mini-three-peaks-covered.)
"""

from __future__ import annotations

import json

import pytest
from test_web_snapshot import CODE

import patience
from patience.cards import FACE_DOWN, card_code
from patience.errors import PositionError, VariantError
from patience.variant import load_variant_text

# deal 1 (the numbered deal): the 18 cards of the back rows face down (lower case)
DEAL_1 = ("p:7d/9c/4d/8h/8d/5s/jd/6d/9s/jc/5d/kd/3c/2d/jh/5h/7h/4h/2C/AD/6S/KC/KH/TH/TS/JS/TD/8S"
          " w:QC s:4S6C7CAS5CAHKS6HQSQHQD9D3D3SAC4C2H8CTC3H2S9H7S")


def three_peaks() -> patience.Variant:
    return patience.find_variant("three-peaks")


def test_the_back_rows_are_dealt_face_down_and_the_front_row_face_up():
    game = three_peaks().deal(1)
    assert game.text() == DEAL_1
    # the same cards as the open game's deal, where every card lies face up
    assert game.text().upper() == patience.find_variant("three-peaks-open").deal(1).text() \
        .upper()


def test_a_card_turns_up_when_the_last_card_on_it_leaves_and_down_on_take_back():
    game = three_peaks().deal(1)
    game.push_text("p26:1-w")  # JS leaves; 7H (p17) still lies under TD (p27)
    assert game.piles[16][-1] & FACE_DOWN
    game.push_text("p27:1-w")
    assert game.text().startswith("p:7d/9c/4d/8h/8d/5s/jd/6d/9s/jc/5d/kd/3c/2d/jh/5h/7H/4h/")
    game.pop()
    assert game.piles[16][-1] & FACE_DOWN
    game.pop()
    assert game.text() == DEAL_1


def test_a_position_holds_a_face_down_card_only_on_a_covered_pile():
    variant = three_peaks()
    uncovered = DEAL_1.replace("/TD/", "//").replace("/JS/", "//").replace("w:QC", "w:QCJSTD")
    with pytest.raises(PositionError, match="the top card of p17 is face down"):
        variant.position(uncovered)
    assert variant.position(uncovered.replace("/7h/", "/7H/")).text() == \
        uncovered.replace("/7h/", "/7H/")


HEAD = "extends: tabbycat\nid: x\nname: X\ndescription: x.\n"


@pytest.mark.parametrize(("text", "where", "message"), [
    ("piles:\n  columns:\n    face_down: covered\n", "7:16",
     ("piles.columns.face_down: covered lays the cards of covered piles face down, but "
      "piles.columns has no overlapping layout")),
    ("piles:\n  columns:\n    layout: {rows: 2, columns: 2}\n    face_down: covered\n",
     "8:16", "piles.columns has no overlapping layout"),
    ("piles:\n  columns:\n    layout: {overlap: [[2], [1, 3], [2]]}\n    face_down: covred\n",
     "8:16", "piles.columns.face_down"),
])
def test_face_down_covered_without_an_overlap_is_refused_where_it_is(text, where, message):
    with pytest.raises(VariantError) as error:
        load_variant_text(HEAD + text, "x.yaml")
    assert f"x.yaml:{where}: " in str(error.value)
    assert message in str(error.value)


def test_only_piles_covered_at_the_start_lie_face_down():
    variant = load_variant_text(
        HEAD + "piles:\n  columns:\n    layout: {overlap: [[2], [1, 3], [2]]}\n"
               "    deal: [1, 1, 0, 1]\n    face_down: covered\n", "x.yaml")
    # c1 lies under c2 (dealt) and c3 (not); c3, empty, is not face down; c2 under c4
    assert variant.group_by_name["columns"].face_down == (1, 1, 0, 0)


def test_a_player_is_never_sent_a_face_down_card():
    from patience.play.session import Session
    from patience.web.snapshot import snapshot

    game = three_peaks().deal(1)
    session = Session(game, record_stats=False)
    for move in ["p26:1-w", "p27:1-w", "d", "d"]:
        data = snapshot(session)
        sent = set(CODE.findall(json.dumps(data)))
        hidden = {card_code(c & ~FACE_DOWN) for pile in game.piles for c in pile
                  if c & FACE_DOWN} | {card_code(c) for c in game.stock}
        assert not sent & hidden
        assert "7H" in sent or move != "d"  # once uncovered, it is shown
        session.game.push_text(move)
    lines = game.drawing().splitlines()
    assert lines[0] == "p1  | ##" and lines[16] == "p17 | 7H"  # the terminal, 'patience show'
