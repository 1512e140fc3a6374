"""Round trips: position text <-> position, position JSON <-> position, move <-> notation,
move list <-> moves, and YAML -> variant -> rules text (stable, and the same play when the
merged definition is written back out as YAML)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from rules_helpers import ALL_VARIANTS, SET_K_TO_A, build

import patience
from patience.perft import perft
from patience.variant import load_variant_text


def random_game(variant: str, seed: int, choices: list[int]) -> patience.Game:
    game = patience.find_variant(variant).deal(seed)
    for choice in choices:
        legal = list(game.legal_moves)
        if not legal:
            break
        game.push(legal[choice % len(legal)])
    return game


games = st.builds(random_game, st.sampled_from(ALL_VARIANTS),
                  st.integers(0, 2**64 - 1), st.lists(st.integers(0, 10**6), max_size=60))


@settings(max_examples=80, deadline=None)
@given(games)
def test_position_text_round_trips(game):
    text = game.text()
    again = game.variant.position(text)
    assert again == game
    assert again.text() == text
    assert again.key() == game.key()
    assert sorted(again.legal_moves) == sorted(game.legal_moves)


@settings(max_examples=80, deadline=None)
@given(games)
def test_position_json_round_trips(game):
    data = game.to_json()
    assert game.variant.from_json(data) == game
    assert game.variant.from_json(json.dumps(data)) == game
    assert game.variant.from_json(data).to_json() == data


@settings(max_examples=80, deadline=None)
@given(games)
def test_every_legal_move_reads_back_from_its_notation(game):
    for move in game.legal_moves:
        text = game.notation(move)
        assert game.parse_move(text) == move
        assert game.notation(game.parse_move(text)) == text


@settings(max_examples=60, deadline=None)
@given(games)
def test_a_move_list_replays_to_the_same_position(game):
    played = [game.notation(move) for move in game.move_stack]
    fresh = game.start()
    assert fresh.text() == game.variant.deal(game.deal_number).text()
    parsed = fresh.parse_moves(" ".join(played))
    assert parsed == game.move_stack
    assert fresh.text() == game.variant.deal(game.deal_number).text()  # parse_moves: a copy
    for move in parsed:
        fresh.push(move)
    assert fresh == game
    # pop undoes exactly, forced removals included
    for _ in played:
        fresh.pop()
    assert fresh.text() == game.start().text()


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_hand_built_positions_round_trip(variant):
    game = build(variant, [SET_K_TO_A if variant not in ("tabbycat-autoremove", "manx-corner")
                           else "KS QH", "", "2D 5C", "9H"], tail="7H 6S")
    assert game.variant.position(game.text()).text() == game.text()


def test_position_text_is_exactly_the_documented_form():
    game = patience.find_variant("tabbycat").deal(1)
    assert game.text().startswith("c:7D/9C/4D/8H t: f:/// s:8D5SJD6D")
    game.push("c1:1-t")
    assert game.text().startswith("c:/9C/4D/8H t:7D f:/// s:8D5SJD6D")


# --- YAML -> variant -> rules text ----------------------------------------------------------


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_rules_text_is_stable(variant):
    v = patience.find_variant(variant)
    again = load_variant_text(v.text, str(v.path))
    assert again.rules_text() == v.rules_text()
    assert again.rules_hash == v.rules_hash


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_the_merged_definition_written_as_yaml_plays_the_same(variant, tmp_path):
    # YAML (with extends) -> variant -> merged YAML (no extends) -> variant: same rules hash,
    # same piles, same perft, and a fixed point from then on
    v = patience.find_variant(variant)
    flat = v.definition.flat
    assert "extends" not in flat
    text = yaml.safe_dump(flat, sort_keys=False, allow_unicode=True)
    path = tmp_path / f"{variant}-flat.yaml"
    path.write_text(text, encoding="utf-8")
    w = patience.find_variant(str(path))
    assert w.rules_hash == v.rules_hash
    assert w.pile_names == v.pile_names and w.deck == v.deck and w.deals == v.deals
    for seed in (1, 2):
        assert perft(w.deal(seed), 3) == perft(v.deal(seed), 3)
    assert yaml.safe_dump(w.definition.flat, sort_keys=False, allow_unicode=True) == text


def test_rules_hash_ignores_names_but_not_rules():
    hashes = {patience.find_variant(v).rules_hash for v in ALL_VARIANTS}
    assert len(hashes) == len(ALL_VARIANTS)


@pytest.mark.parametrize(("variant", "fragments"), [
    ("tabbycat", ["one deck, 52 cards", "wrap = true", "48 cards", "12 deals"]),
    ("tabbycat-nowrap", ["wrap = false"]),
    ("mainecoon", ["2 decks, 104 cards", "f1-f8", "25 deals"]),
    ("tabbycat-autoremove", ["forced removal"]),
    ("manx", ["run.size == 1"]),
])
def test_rules_text_says_what_the_file_says(variant, fragments):
    text = patience.find_variant(variant).rules_text()
    for fragment in fragments:
        assert fragment in text


def test_variant_files_are_found_by_path_too():
    path = Path(patience.find_variant("manx").path)
    assert patience.find_variant(str(path)).rules_hash == patience.find_variant("manx").rules_hash


# --- what does not read back ----------------------------------------------------------------


DEAL_1 = patience.find_variant("tabbycat").deal(1).text()


@pytest.mark.parametrize(("text", "fragment"), [
    ("c:7D/9C/4D t: f:/// s:", "c: has 3 piles"),
    ("c:7D/9C/4D/8H f:/// s:", "(t:) are missing"),
    ("c:7D/9C/4D/8H t: f:/// x:AS s:", "unknown field 'x'"),
    ("c:7D/9C/4D/8 t: f:/// s:", "'8'"),
    ("c:7D/9C/4D/8H t: f:/// s:ZZ", "unknown card 'ZZ'"),
    ("c:7D/9C/4D/8H t: f:/// s:", "52 cards"),  # 48 cards missing
    (DEAL_1.replace("9C", "7D", 1), "card 7D appears 2 times"),  # and no 9C
])
def test_a_malformed_position_names_the_problem(text, fragment):
    with pytest.raises(patience.PositionError) as raised:
        patience.find_variant("tabbycat").position(text)
    # the message quotes the position, then names the problem (not just by quoting it)
    quoted = f"position {text!r}: "
    assert str(raised.value).startswith(quoted)
    assert fragment in str(raised.value)[len(quoted):]


@pytest.mark.parametrize(("text", "fragment"), [
    ("x", "cannot read move 'x'"),
    ("c9:1-c1", "no pile 'c9'"),
    ("c1:1-f1", "write 'f'"),
    ("c1:0-c2", "at least one card"),
])
def test_malformed_notation_names_the_problem(text, fragment):
    game = patience.find_variant("tabbycat").deal(1)
    with pytest.raises(patience.MoveError, match=fragment.replace("(", r"\(")):
        game.parse_move(text)


def test_an_illegal_move_in_notation_is_a_move_error_and_changes_nothing():
    game = patience.find_variant("tabbycat").deal(1)
    before = game.text()
    for text in ("c1:13-f", "c1:1-c2", "t:1-c1", "c1:2-c4"):
        with pytest.raises(patience.MoveError):
            game.push(text)
    assert game.text() == before and game.move_stack == []
