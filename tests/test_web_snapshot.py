"""What the page is sent (patience.web.snapshot): drop targets as Session.drop decides
them, no face-down or stock card, and words for piles and moves."""

from __future__ import annotations

import doctest
import importlib
import json
import random
import re

import pytest
from web_helpers import LITTLE_KLONDIKE

from patience import find_variant
from patience.cards import FACE_DOWN, card_code
from patience.game import Move
from patience.play import destinations
from patience.play.session import Session
from patience.settings import Show
from patience.web.snapshot import describe_move, drop_targets, pile_label, singular, snapshot

VARIANTS = ["tabbycat", "tabbycat-loosetail", "tabbycat-autoremove", "manx", "manx-corner",
            "mainecoon", LITTLE_KLONDIKE]
CODE = re.compile(r'"([A2-9TJQK][CDHS])"')


def playout(name: str, seed: int, length: int):
    """Positions along a random game (the moves a click prefers, mostly)."""
    variant = find_variant(name)
    chooser = random.Random(seed)
    session = Session(variant.deal(seed), record_stats=False)
    for _ in range(length):
        yield session
        moves = session.game.generate_moves()
        if not moves:
            return
        session.game.push_unchecked(chooser.choice(moves))


def drops_by_session(session: Session) -> dict[int, dict[int, list[int]]]:
    """The drop targets worked out the slow way: for every card and pile, would
    Session.drop make a legal move?"""
    game = session.game
    count = len(session.variant.pile_names)
    found: dict[int, dict[int, list[int]]] = {}
    for source in range(count):
        for depth in range(len(game.piles[source])):
            targets = [target for target in range(count) if target != source
                       and game.is_legal(destinations.drop_move(game, source, depth, target))]
            if targets:
                found.setdefault(source, {})[depth] = targets
    return found


@pytest.mark.parametrize("name", VARIANTS)
def test_drop_targets_are_what_session_drop_accepts(name):
    for seed in (1, 2, 3):
        for session in playout(name, seed, 60):
            assert drop_targets(session) == drops_by_session(session), session.game.text()


@pytest.mark.parametrize("seed", range(1, 6))
def test_no_face_down_or_stock_card_is_ever_sent(seed):
    for session in playout(LITTLE_KLONDIKE, seed, 80):
        game = session.game
        data = snapshot(session)
        sent = set(CODE.findall(json.dumps(data)))
        shown = [pile[-1:] if group.show is Show.STACK else pile  # a stack: its top card
                 for pile, group in zip(game.piles, session.variant.group_of_pile)]
        assert sent == {card_code(c) for pile in shown for c in pile if not c & FACE_DOWN}
        for pile_data, pile in zip(data["piles"], shown):
            assert [c is None for c in pile_data["cards"]] == [bool(c & FACE_DOWN) for c in pile]


def test_pile_labels_and_move_words():
    variant = find_variant("tabbycat")
    assert [pile_label(variant, i) for i in (0, 3, 4, 5)] == ["column 1", "column 4", "tail",
                                                               "foundation 1"]
    assert [singular(w) for w in ("columns", "cells", "reserves", "tail", "piles_of_cards",
                                  "families")] == ["column", "cell", "reserve", "tail",
                                                   "piles of card", "family"]
    game = variant.deal(1)
    game.push("d")
    assert describe_move(variant, game.piles, Move(1, 1, 3)) == \
        "five of spades from column 2 to column 4"
    assert describe_move(variant, game.piles, Move(0, 2, 4)) == \
        "seven of diamonds with the card on it from column 1 to tail"
    assert describe_move(variant, game.piles, Move(-1, 0, -1)) == "the deal"


def test_the_waste_sits_in_the_top_row_and_the_columns_below():
    session = Session(find_variant(LITTLE_KLONDIKE).deal(1), record_stats=False)
    rows = {group["name"]: (group["row"], group["waste"])
            for group in snapshot(session)["groups"]}
    assert rows == {"columns": ("main", False), "waste": ("top", True),
                    "foundations": ("top", False)}
    rows = {group["name"]: group["row"] for group in
            snapshot(Session(find_variant("tabbycat").deal(1), record_stats=False))["groups"]}
    assert rows == {"columns": "main", "tail": "main", "foundations": "top"}


def test_the_snapshot_tells_each_groups_layout_and_which_piles_are_covered():
    session = Session(find_variant("giza").deal(1), record_stats=False)
    data = snapshot(session)
    layouts = {group["name"]: (group["row"], group["layout"]) for group in data["groups"]}
    assert layouts["pyramid"] == ("main", {"kind": "overlap", "rows": [
        [6], [5, 7], [4, 6, 8], [3, 5, 7, 9], [2, 4, 6, 8, 10], [1, 3, 5, 7, 9, 11],
        [0, 2, 4, 6, 8, 10, 12]], "short": True})
    assert layouts["reserves"] == ("main", {"kind": "row", "rows": [[0, 2, 4, 6, 8, 10, 12,
                                                                     14]], "short": True})
    assert [pile["covered"] for pile in data["piles"][:28]] == [True] * 21 + [False] * 7
    assert not session.apply("p22:1-f").error  # the King of clubs goes
    after = snapshot(session)["piles"]
    assert after[21]["count"] == 0 and after[15]["covered"]  # p16 lies under p23 still
    # a grid stands as a block of its rows, though each of its piles holds one card
    lineup = snapshot(Session(find_variant("lineup").deal(1), record_stats=False))
    grid = lineup["groups"][0]
    assert grid["row"] == "main" and grid["layout"]["kind"] == "grid"
    assert grid["layout"]["rows"] == [[0, 2, 4, 6, 8, 10]] * 4


@pytest.mark.parametrize("name", ["patience.web.snapshot", "patience.web.store",
                                  "patience.web.app"])
def test_docstring_examples(name, tmp_path, monkeypatch):
    monkeypatch.setenv("PATIENCE_DATA_DIR", str(tmp_path))
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def test_the_page_counts_home_as_the_terminal_does():
    session = Session(find_variant("freecell").deal(1), record_stats=False)
    session.apply("c1:1-a")  # a card in a free cell is not home
    assert snapshot(session)["status"] == session.status() == "home 0/52 · moves 1"
