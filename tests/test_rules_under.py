"""Cards put under a pile (``lands: bottom``), groups dealt all face down and the card turned
from the pile the last card went to (``fill_from: last``): Clock (docs/authoring.md, "Cards
put under a pile").

Clock is checked against an independent reading of PySolFC's ``Clock_RowStack`` (written
here from its code, not from ours): the same cards turned in the same order and the same
outcome on every deal; the mechanisms on positions worked out by hand; the loader's located
errors; and the native core against the Python kernel.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rules_helpers import load_error

import patience
from patience import native
from patience.cards import FACE_DOWN, parse_card, rank_of
from patience.errors import PositionError, VariantError
from patience.perft import perft
from patience.solver import solve

KING = 13


def pysolfc_clock(game: patience.Game) -> tuple[list[int], bool]:
    """PySolFC's Clock played on ``game``'s deal: the cards the player moves, in order, and
    whether the game is won (``Clock.isGameWon``). Rows 0-11 are the hours, row 12 the
    middle pile, whose top card is the one turned (our hand's card)."""
    rows = [[(card & ~FACE_DOWN, False) for card in pile] for pile in game.piles[:13]]
    rows[12].append((game.piles[13][0], False))

    def face_down(row: int) -> int:
        return sum(not up for _, up in rows[row])

    def flip(row: int) -> None:
        rows[row][-1] = (rows[row][-1][0], True)

    def king_to_bottom(row: int) -> None:  # _moveKingToBottom: under the face-down cards
        king = rows[row].pop()
        down = face_down(row)
        hidden = rows[row][len(rows[row]) - down:]
        del rows[row][len(rows[row]) - down:]
        rows[row] += [king, *hidden]
        if not rows[row][-1][1]:
            flip(row)
        fill(row)

    def fill(row: int) -> None:  # _fillStack
        card, up = rows[row][-1]
        if face_down(row) and up and rank_of(card) == KING:
            king_to_bottom(row)

    flip(12)
    fill(12)
    moved = []
    while True:
        card, up = rows[12][-1]
        if not up or rank_of(card) == KING:  # max_move=0 elsewhere: only the middle moves
            break
        target = rank_of(card) - 1  # acceptsCards: cards[0].rank == self.id
        is_king = rank_of(rows[target][-1][0]) == KING
        down = face_down(target)  # _swapPairMove
        hidden = rows[target][len(rows[target]) - down:]
        del rows[target][len(rows[target]) - down:]
        rows[12].pop()
        rows[target] += [(card, True), *hidden]
        moved.append(card)
        if not down:
            break
        flip(target)
        rows[12].append(rows[target].pop())
        if is_king:
            king_to_bottom(12)
    won = all(len(row) == 4 and row[-1][1] for row in rows)
    return moved, won


def play_out(game: patience.Game) -> list[int]:
    """Play the one legal move until none is left; the cards moved, in order."""
    moved = []
    while moves := list(game.legal_moves):
        assert len(moves) == 1, game.text()
        moved.append(game.piles[13][-1])
        game.push(moves[0])
    return moved


def test_clock_plays_as_pysolfc_s_clock_row_stacks():
    variant = patience.find_variant("clock")
    outcomes = set()
    for number in range(1, 301):
        game = variant.deal(number)
        expected, won = pysolfc_clock(variant.deal(number))
        assert play_out(game) == expected, f"deal {number}"
        assert game.is_won() == won, f"deal {number}"
        outcomes.add(won)
        left_down = sum(card & FACE_DOWN != 0 for pile in game.piles for card in pile)
        assert won == (left_down == 0), f"deal {number}: {game.text()}"
    assert outcomes == {True, False}


START = ("c:7sac2c3c/4c5c6c8c/9ctcjcqc/4d5d6d7d/ad2d3dkh/8d9dtdjd/4s5s6s7c/qdkdah2h/3h4h6h7h/"
         "8h9hthjh/qhas2s3s/8s9stsks k:qsjskc h:5H s:")


def test_a_card_goes_under_its_pile_whose_top_card_turns_up_and_a_king_goes_under_the_middle():
    # 5H goes under c5, whose top card, KH, turns up: a King, under the middle, whose top
    # card KC turns up: under the middle again, and JS, turned next, is the card to move
    game = patience.Game.from_text(patience.find_variant("clock"), START)
    assert [game.notation(m) for m in game.legal_moves] == ["h:1-c5"]
    game.push_text("h:1-c5")
    assert game.text() == START.replace("ad2d3dkh", "5Had2d3d").replace(
        "k:qsjskc h:5H", "k:KCKHqs h:JS")
    assert [game.notation(m) for m in game.forced_moves_of_last_move()] == [
        "c5:1-h", "h:1-k", "k:1-h", "h:1-k", "k:1-h"]
    game.pop()
    assert game.text() == START


@pytest.mark.skipif(not native.AVAILABLE, reason=str(native.REASON))
def test_the_core_plays_clock_as_the_kernel():
    variant = patience.find_variant("clock")
    core = native.core(variant)
    for number in range(1, 31):
        game = variant.deal(number)
        while True:
            piles, stock = [list(p) for p in game.piles], list(game.stock)
            moves = variant.generate_moves(piles, stock)
            assert core.generate_moves(piles, stock) == moves
            assert core.is_won(piles, stock) == bool(variant.is_won(piles, stock))
            if not moves:
                break
            (after, _), (back, _) = core.play_and_take_back(piles, stock, moves[0])
            variant.play(piles, stock, moves[0])
            assert after == piles and back == [list(p) for p in game.piles]
            game.push(moves[0])
        depth = len(game.move_stack) + 1
        assert native.perft(variant.deal(number), depth) == perft(variant.deal(number), depth)
        python = solve(variant.deal(number), 10_000, engine="python")
        assert solve(variant.deal(number), 10_000, engine="native").verdict == python.verdict


UNDER = """\
id: under-test
name: Under (test)
description: Three columns whose cards land under them.
sources: [test only]
decks: 1
ranks: 2
piles:
  columns:
    id: c
    count: 3
    deal: [3, 3, 2]
    lands: bottom
    moves: "true"
    accepts: "true"
win: "false"
"""


def under(tmp_path: Path, text: str = UNDER) -> patience.Variant:
    path = tmp_path / "under-test.yaml"
    path.write_text(text, encoding="utf-8")
    return patience.find_variant(str(path))


def test_a_run_lands_under_a_pile_in_its_order_and_comes_back_off_the_bottom(tmp_path):
    variant = under(tmp_path)
    game = patience.Game.from_text(variant, "c:ACADAH/AS2C2S/2D2H s:")
    game.push_text("c1:2-c3")  # AD AH under 2D 2H, AD lowest
    assert game.text() == "c:AC/AS2C2S/ADAH2D2H s:"
    assert game.piles[2] == [parse_card(c) for c in ("AD", "AH", "2D", "2H")]
    game.pop()
    assert game.piles[0] == [parse_card(c) for c in ("AC", "AD", "AH")]
    if native.AVAILABLE:
        core = native.core(variant)
        piles, stock = [list(p) for p in game.piles], list(game.stock)
        move = game.parse_move("c1:2-c3")
        (after, _), (back, _) = core.play_and_take_back(piles, stock, move)
        assert after[2] == [parse_card(c) for c in ("AD", "AH", "2D", "2H")]
        assert back == piles


def messages(error: VariantError) -> list[str]:
    return [e.message for e in getattr(error, "errors", [error])]


def test_a_group_dealt_all_face_down_gives_no_card_by_a_move(tmp_path):
    text = UNDER.replace("    lands: bottom\n", "    face_down: [3, 3, 2]\n")
    error = load_error(tmp_path, text)
    assert messages(error) == [
        ("piles.columns.face_down: pile 1 is dealt 3 cards, so at most 2 of them can lie face "
        "down (the top card is dealt face up), unless the group gives no card by a move "
        "(moves: false): then its cards are turned one by one by a 'fill_from: last'")]
    assert error.location is not None and error.location.line == 12


CLOCK_LIKE = UNDER.replace('    moves: "true"\n', '    face_down: [3, 3, 2]\n').replace(
    'win: "false"\n', """\
  hand:
    id: h
    count: 1
    moves: "true"
    fill_from: FILL
win: "false"
""")


def test_only_a_fill_from_the_last_pile_takes_from_a_group_dealt_all_face_down(tmp_path):
    assert under(tmp_path, CLOCK_LIKE.replace("FILL", "last")).fill_last_piles == (3,)
    error = load_error(tmp_path, CLOCK_LIKE.replace("FILL", "columns"))
    assert messages(error) == [
        ("piles.hand.fill_from names 'columns', whose cards are dealt all face down "
        "(piles.columns.face_down): a fill would take a face-down card; 'fill_from: last' "
        "turns them up one by one")]


def test_no_discard_takes_from_a_group_dealt_all_face_down(tmp_path):
    text = CLOCK_LIKE.replace("FILL", "last") + """\
discards:
  - cards: 2
    from: [columns]
    to: hand
    when: "true"
"""
    error = load_error(tmp_path, text)
    assert messages(error) == [
        ("discards[1].from names 'columns', whose cards are dealt all face down "
        "(piles.columns.face_down): a discard takes top cards, which must lie face up")]


def test_lands_is_top_or_bottom(tmp_path):
    error = load_error(tmp_path, UNDER.replace("lands: bottom", "lands: sideways"))
    assert messages(error) == ["piles.columns.lands must be one of top, bottom; not 'sideways'"]


def test_a_pile_dealt_all_face_down_keeps_its_face_down_cards_on_top():
    variant = patience.find_variant("clock")
    game = patience.Game.from_text(variant, START.replace("ad2d3dkh", "5Had2d3d").replace(
        "k:qsjskc h:5H", "k:KCKHqs h:JS"))
    assert game.piles[4][0] == parse_card("5H")
    with pytest.raises(PositionError, match="c5 has a face-up card above a face-down one"):
        patience.Game.from_text(variant, START.replace("ad2d3dkh", "ad2d3dKH"))
