"""Fills that wait for a rule (``fill_when``): Terrace's gaps and waste are filled only once
the base card is home (docs/authoring.md, "Forced fills"). Positions worked out by hand, the
loader's located errors, and the native core against the Python kernel.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import patience
from patience import native
from patience.errors import VariantError
from patience.perft import perft

TERRACE_START = (
    "f://///// c:6H/7H/JC/8C///// r:KS7D6S8C6C9C5CTHKDJHAH w: s:QSTS4D3C4CJC9SJSKC5S3S7SAC8S9C8D"
    "9DQD3D6C7DASADAS6D6HKH3HKCJSTD5S5D2D3S2C8H7C4S8H2HJH2S9H2C5C9S5H7C3C6S2SAHTH4S9HQH4C4DQSQH2H9D4"
    "HQCKSTC7H6D5D5HADTS2DKHQD3H8SQC3D8DTDKDJDTCJDAC4H7S")


def test_the_gaps_wait_for_the_first_card_home_then_fill_from_the_stock_through_the_waste():
    variant = patience.find_variant("terrace")
    game = patience.Game.from_text(variant, TERRACE_START)
    assert game.text() == TERRACE_START  # five gaps and an empty waste, left alone
    game.push_text("c3:1-f1")  # JC home: c3 and c5-c9 take QS TS 4D 3C 4C JC, the waste 9S
    assert game.text().split()[1] == "c:6H/7H/QS/8C/TS/4D/3C/4C/JC"
    assert game.text().split()[3] == "w:9S"
    # each gap, in order, takes the waste's card, which the stock refills (a fill from the
    # stock is written as the deal, 'd')
    assert [game.notation(m) for m in game.forced_moves_of_last_move()] == [
        "d", "w:1-c3", "d", "w:1-c5", "d", "w:1-c6", "d", "w:1-c7", "d", "w:1-c8", "d",
        "w:1-c9", "d"]
    game.pop()
    assert game.text() == TERRACE_START


GAP = """\
id: fill-when-test
name: Fill when (test)
description: Two columns whose gaps take the tail's card once a foundation holds one.
sources: [test only]
decks: 1
ranks: 2
piles:
  columns:
    id: c
    count: 2
    deal: 2
    moves: run.size == 1
    accepts: "false"
    FILL
  tail:
    id: t
    count: 1
    deal: 2
  foundations:
    id: f
    count: 1
    deal: 2
    accepts: run.size == 1
win: "false"
"""


def load(tmp_path: Path, fill: str) -> patience.Variant:
    path = tmp_path / "fill-when-test.yaml"
    path.write_text(GAP.replace("FILL", fill), encoding="utf-8")
    return patience.find_variant(str(path))


def test_a_gap_is_filled_only_while_the_rule_holds(tmp_path):
    variant = load(tmp_path, 'fill_from: tail\n    fill_when: "stock.size == 0 and '
                             'not (all f in foundations: f.empty)"')
    game = patience.Game.from_text(variant, "c:AC/ADAH t:2C2D f:2H2SAS s:")
    game.push_text("c1:1-f")  # the gap takes the tail's 2D at once: a foundation holds cards
    assert game.text() == "c:2D/ADAH t:2C f:2H2SASAC s:"
    waiting = load(tmp_path, 'fill_from: tail\n    fill_when: "all f in foundations: f.empty"')
    game = patience.Game.from_text(waiting, "c:AC/ADAH t:2C2D f:2H2SAS s:")
    game.push_text("c1:1-f")  # the gap waits: a foundation holds cards
    assert game.text() == "c:/ADAH t:2C2D f:2H2SASAC s:"


def test_fill_when_needs_a_fill_from(tmp_path):
    with pytest.raises(VariantError) as caught:
        load(tmp_path, 'fill_when: "true"')
    error = caught.value
    assert error.message == (
        "piles.columns.fill_when says when the group's empty piles are filled, but the group "
        "has no fill_from: give piles.columns.fill_from")
    assert error.location is not None and error.location.line == 14


def test_a_mistake_in_fill_when_is_located(tmp_path):
    with pytest.raises(VariantError) as caught:
        load(tmp_path, 'fill_from: tail\n    fill_when: "pile.empty"')
    assert "in piles.columns.fill_when: unknown name 'pile'" in caught.value.message
    assert caught.value.location is not None and caught.value.location.line == 15


@pytest.mark.skipif(not native.AVAILABLE, reason=str(native.REASON))
def test_the_core_fills_terrace_as_the_kernel():
    variant = patience.find_variant("terrace")
    core = native.core(variant)
    for number in (1, 2, 3):
        game = variant.deal(number)
        for step in range(40):
            piles, stock = [list(p) for p in game.piles], list(game.stock)
            moves = variant.generate_moves(piles, stock)
            assert sorted(core.generate_moves(piles, stock)) == sorted(moves)
            if not moves:
                break
            move = sorted(moves)[step % len(moves)]
            (after, after_stock), _ = core.play_and_take_back(piles, stock, move)
            variant.play(piles, stock, move)
            assert (after, after_stock) == (piles, stock)
            game.push(move)
        assert native.perft(variant.deal(number), 3) == perft(variant.deal(number), 3)
