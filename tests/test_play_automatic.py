"""The automatic safe moves home and the finish (issue #32): the Session, the line mode
through a subprocess, and the preference kept between games."""

from __future__ import annotations

import json
import random

import pytest
from test_play_plain import play

from patience import find_variant
from patience.cards import parse_cards
from patience.errors import SaveError
from patience.game import Game
from patience.play import preferences
from patience.play.session import Session, home_moves

SUITED = {suit: "".join(f"{rank}{suit}" for rank in "KQJT98765432A") for suit in "SDCH"}


def position(name: str, **piles: str) -> Game:
    variant = find_variant(name)
    split = lambda codes: " ".join(codes[i:i + 2] for i in range(0, len(codes), 2))
    return Game(variant, [parse_cards(split(piles.get(p, ""))) for p in variant.pile_names], [])


def test_safe_cards_go_home_after_a_move_each_its_own_step_for_undo():
    # FreeCell declares Aces and Twos safe: moving the King uncovers A♠, which goes home,
    # and then 2♠ follows; 3♠ stays (the file proves nothing about Threes)
    session = Session(position("freecell", c1="ASKH", c3="2S", c4="3S"), record_stats=False)
    reply = session.apply("c1:1-c2")
    assert reply.changed and reply.text == "A♠ 2♠ went home by themselves"
    assert session.status() == "home 2/52 · moves 3"
    assert session.game.pile("c4") == parse_cards("3S")
    assert [session.apply("u").text for _ in range(3)] == [
        "undid c3:1-f", "undid c1:1-f", "undid c1:1-c2"]
    assert session.apply("r").text == "redid c1:1-c2"  # a redo replays one step, no more
    assert session.status() == "home 0/52 · moves 1"
    assert session.apply("r").text == "redid c1:1-f"


def test_derived_safe_moves_wait_until_every_lower_card_is_home():
    # Streets and Alleys declares nothing: its safe moves are derived from its rules (no
    # card leaves the foundations, only lower cards are built on a card), so a Two goes
    # home only when all four Aces are there
    session = Session(position("streets-and-alleys", c1="ASKH", c3="2S", c4="AH", c5="AD",
                               c6="ACQD"), record_stats=False)
    assert session.apply("c1:1-c2").text == "A♠ A♥ A♦ went home by themselves"
    assert session.game.pile("c3") == parse_cards("2S")  # A♣ is not home yet
    assert session.apply("c6:1-c1").text == "A♣ 2♠ went home by themselves"


@pytest.mark.parametrize("name", ["klondike-draw3", "tabbycat", "spider", "golf"])
def test_a_variant_without_safe_moves_makes_none_by_itself(name):
    variant = find_variant(name)
    assert variant.is_safe is None
    session = Session(variant.deal(3), record_stats=False)
    chooser = random.Random(3)
    for _ in range(60):
        moves = session.game.generate_moves()
        if not moves:
            break
        before = len(session.game.move_stack)
        session.play(chooser.choice(moves))
        assert session.last_auto == [] and len(session.game.move_stack) == before + 1


@pytest.mark.parametrize("name", ["freecell", "klondike", "fan", "streets-and-alleys"])
def test_every_automatic_move_goes_home_and_is_one_the_rules_call_safe(name):
    variant = find_variant(name)
    for number in range(1, 4):
        session = Session(variant.deal(number), record_stats=False)
        chooser = random.Random(number)
        for _ in range(80):
            moves = session.game.generate_moves()
            if not moves:
                break
            session.play(chooser.choice(moves))
            probe = session.game.copy()
            for _ in session.last_auto:
                probe.pop()
            for auto in session.last_auto:
                assert auto.move in home_moves(probe)
                assert variant.is_safe(probe.piles, probe.stock, *auto.move)
                probe.push(auto.move)
            assert session.safe_move() is None  # none left behind


def test_automatic_moves_can_be_turned_off_and_on_and_the_choice_is_kept(tmp_path,
                                                                          monkeypatch):
    monkeypatch.setenv("PATIENCE_DATA_DIR", str(tmp_path))
    session = Session(position("freecell", c1="ASKH"))
    assert session.apply("o").text == "automatic moves home: off; o turns them on"
    assert preferences.read_preferences() == {"auto_home": False}
    assert session.apply("c1:1-c2").text == ""
    assert session.game.pile("c1") == parse_cards("AS")
    reply = session.apply("o")  # on again: what is safe now goes at once
    assert reply.changed and reply.text == "automatic moves home: on; A♠ went home by itself"
    assert preferences.read_preferences() == {"auto_home": True}


def test_a_corrupt_preferences_file_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "preferences.json"
    path.write_text('{"format": "patience-preferences", "version": 1, "auto_home": "yes"}')
    with pytest.raises(SaveError, match="auto_home is 'yes', not true or false"):
        preferences.read_preferences(path)
    with pytest.raises(SaveError, match="left untouched"):
        preferences.write_preference("auto_home", True, path)
    assert "yes" in path.read_text()


def test_finish_is_offered_only_when_sending_cards_home_wins_and_nothing_is_hidden():
    full = {f"c{i}": SUITED[suit] for i, suit in enumerate("SDCH", 1)}
    session = Session(position("freecell", **full), record_stats=False)
    assert session.can_finish()
    reply = session.apply("a")
    assert session.game.is_won() and reply.text.endswith("You won!")
    assert [session.apply("u").changed for _ in range(2)] == [True, True]  # undoable
    assert not session.game.is_won() and session.can_finish()

    stuck = dict(full, c4=SUITED["H"][:-4] + "AH2H")  # A♥ under 2♥: home moves stop
    assert not Session(position("freecell", **stuck), record_stats=False).can_finish()

    # Klondike with one card face down: the same game would be won by sending cards home,
    # but offering it would tell something of the hidden card
    klondike = find_variant("klondike")
    columns = [SUITED[suit] for suit in "SDC"]
    text = "c:" + "/".join(columns) + "////kh" + SUITED["H"][2:] + " w: f:/// s:"
    hidden = Session(klondike.position(text), record_stats=False)
    assert hidden.hides_cards() and not hidden.can_finish()
    assert Session(klondike.position(text.replace("kh", "KH")), record_stats=False).can_finish()


def test_line_mode_keeps_the_choice_between_games(tmp_path):
    data = tmp_path / "data"
    first = play(data, "freecell", "--seed", "1", "--plain", commands="o\nq\n")
    assert first.returncode == 0, first.stderr
    assert "automatic moves home: off" in first.stdout
    stored = json.loads((data / "preferences.json").read_text())
    assert stored == {"format": "patience-preferences", "version": 1, "auto_home": False}
    # the next game reads the choice, and 'o' flips it back
    second = play(data, "freecell", "--seed", "1", "--plain", commands="o\nq\n")
    assert "automatic moves home: on" in second.stdout
    broken = data / "preferences.json"
    broken.write_text("{")
    third = play(data, "freecell", "--seed", "1", "--plain", commands="q\n")
    assert third.returncode == 0 and "the defaults are used" in third.stderr
