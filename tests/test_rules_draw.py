"""The draw of a buried card (a group's ``merci: N``: PySolFC's "merci" in Three Shuffles and
a Draw).

The exact move sets come from the rules source (PySolFC's ThreeShufflesAndADraw_RowStack:
the card directly under a fan's top card is played to a foundation or a fan that takes it,
once a game, the top card staying), not from running the generator; the load errors are
located; the position text and JSON carry the draws made; the notation reads and writes one
token (``c3:^-c7``); the solver keys the draws made and never takes a draw for safe; and
the words say what a draw is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import patience
from patience.errors import MoveError, PositionError, VariantError
from patience.moves import DRAW, Move
from patience.plainrules import plain_rules_text
from patience.solver.rules import solver_rules
from patience.variant import load_variant_text

ROOT = Path(__file__).resolve().parent.parent
MINI = Path(__file__).parent / "variants"
#: La Belle Lucie's first example (foundations to the Eights); the draws left: none made
POSITION = ("c:KHQH/JH/JS/TS/9C/TC/KD/QDJDTD9D/9HTH/9S/QSKS/JCQCKC////// "
            "f:AC2C3C4C5C6C7C8C/AD2D3D4D5D6D7D8D/AH2H3H4H5H6H7H8H/AS2S3S4S5S6S7S8S s: r:0 z:1 m:0")
#: spades off the foundations: 8S 7S 6S, 5S 4S 3S, 2S AS on c13-c15
SPADES = ("c:KHQH/JH/JS/TS/9C/TC/KD/QDJDTD9D/9HTH/9S/QSKS/JCQCKC/8S7S6S/5S4S3S/2SAS/// "
          "f:AC2C3C4C5C6C7C8C/AD2D3D4D5D6D7D8D/AH2H3H4H5H6H7H8H/ s: r:0 z:1 m:0")


def draws() -> patience.Variant:
    return patience.find_variant("three-shuffles-and-a-draw")


def draw_moves(game: patience.Game) -> list[str]:
    return sorted(game.notation(m) for m in game.generate_moves() if m[1] == DRAW)


def test_the_card_under_a_top_card_goes_up_or_onto_a_fan():
    game = draws().position(SPADES)
    # 9H from under TH up on 8H; 2S from under AS onto 3S. KH (under QH), TD (under 9D),
    # QS (under KS), QC (under KC) and 7S (under 6S: no 8S free) and 4S (under 3S: no 5S
    # free, no foundation for spades) go nowhere; JH and the empty fans have no card under
    assert draw_moves(game) == ["c15:^-c14", "c9:^-f"]


def test_a_draw_leaves_the_top_card_and_counts_itself_once_a_game():
    game = draws().position(SPADES)
    game.push_text("c15:^-c14")
    assert game.text() == SPADES.replace("5S4S3S/2SAS", "5S4S3S2S/AS").replace("m:0", "m:1")
    assert game.draws_made == 1 and game.draws_left == 0
    assert draw_moves(game) == []
    assert game.explain("c9:^-f") == ("c9:^-f: the one draw of a buried card a game is made; "
                                      "none is left")
    game.pop()
    assert game.text() == SPADES and draw_moves(game) == ["c15:^-c14", "c9:^-f"]


def test_the_draw_is_one_move_of_three_small_ints():
    game = draws().position(SPADES)
    move = game.parse_move("c15:^-c14")
    assert move == Move(14, DRAW, 13) and move.count == -1
    assert game.notation(move) == "c15:^-c14"
    assert game.is_legal(move) and not game.is_legal(Move(14, 1, 13))
    # a move to a 'first' group names the group and lands on its first accepting pile
    up = game.parse_move("c9:^-f")
    assert up == Move(8, DRAW, game.variant.pile_index["f3"])
    with pytest.raises(MoveError, match="c15:-1-c14"):
        game.parse_move("c15:-1-c14")


def test_la_belle_lucies_first_example_gains_one_draw_exactly():
    game = draws().position(POSITION)
    lucie = patience.find_variant("la-belle-lucie").position(POSITION.removesuffix(" m:0"))
    ordinary = sorted(lucie.notation(m) for m in lucie.generate_moves())
    assert sorted(game.notation(m) for m in game.generate_moves()) == sorted(
        [*ordinary, "c9:^-f"])


def test_illegal_draws_say_why():
    game = draws().position(POSITION)
    assert game.explain("c2:^-c1") == "c2:^-c1: c2 has no card under its top card"
    assert game.explain("f3:^-c9") == ("f3:^-c9: no card is drawn from under the top card of "
                                       "the foundations (piles.foundations has no merci)")
    assert game.explain("c1:^-c2").startswith(
        "c1:^-c2: c2 does not take KH from c1: piles.fans.accepts")
    assert game.explain("c9:^-c9") == "c9:^-c9: a pile cannot move onto itself"
    lucie = patience.find_variant("la-belle-lucie").position(POSITION.removesuffix(" m:0"))
    assert lucie.explain("c9:^-f") == ("c9:^-f: this variant has no draw of a buried card "
                                       "(no merci)")


def test_the_draw_is_kept_across_the_redeals():
    # PySolFC's draw_done is reset only by a new game: a redeal gives no draw back
    game = draws().deal(1)
    game.push_text("c3:^-c17")
    game.push_text("d")
    assert game.text().endswith("r:1 z:1 m:1")
    assert draw_moves(game) == []
    game = draws().deal(1)
    game.push_text("d")
    assert game.text().endswith("r:1 z:1 m:0") and draw_moves(game)


def test_position_text_and_json_carry_the_draws_made():
    variant = draws()
    made = variant.position(SPADES.replace("m:0", "m:1"))
    assert made.draws_made == 1 and made.text().endswith("m:1")
    assert variant.position(SPADES.removesuffix(" m:0")).text() == SPADES  # m: left out: 0
    data = made.to_json()
    assert data["draws"] == 1
    assert variant.from_json(data).text() == made.text()
    for bad in ("m:2", "m:x", "m:-1"):
        with pytest.raises(PositionError, match="is not a number of draws of a buried card"):
            variant.position(SPADES.replace("m:0", bad))
    with pytest.raises(PositionError, match="unknown field 'm'"):  # no draws, no field
        patience.find_variant("la-belle-lucie").position(SPADES)


def test_the_drawing_says_how_many_draws_are_left():
    game = draws().position(SPADES)
    assert game.drawing().splitlines()[-1].endswith("1 draw of a buried card left")
    game.push_text("c9:^-f")
    assert game.drawing().splitlines()[-1].endswith("0 draws of a buried card left")


HEADER = "extends: tabbycat\nid: probe\nname: Probe\ndescription: A fragment.\n"


def errors_of(text: str) -> list[str]:
    with pytest.raises(VariantError) as caught:
        load_variant_text(HEADER + text, str(ROOT / "docs" / "examples" / "probe.yaml"))
    return [str(e) for e in getattr(caught.value, "errors", [caught.value])]


@pytest.mark.parametrize(("fragment", "message"), [
    ("piles:\n  columns:\n    merci: 0\n", "piles.columns.merci must be from 1 to 1000, not 0"),
    ("piles:\n  columns:\n    merci: 1001\n",
     "piles.columns.merci must be from 1 to 1000, not 1001"),
    ("piles:\n  columns:\n    merci: once\n",
     "piles.columns.merci must be a whole number, not 'once'"),
    ("piles:\n  columns:\n    deal: 2\n    face_down: 1\n    merci: 1\n",
     ("piles.columns.merci draws the card under a pile's top card, which must lie face up, "
     "but piles.columns.face_down deals cards face down there: drop one of the two")),
    ("piles:\n  columns:\n    merci: 1\n  tail:\n    merci: 2\n",
     ("the groups with merci share one count of draws a game, so they give the same number; "
     "here piles.columns.merci: 1, piles.tail.merci: 2")),
])
def test_a_bad_merci_is_refused_with_its_place(fragment, message):
    found = errors_of(fragment)
    assert any(message in error for error in found), found
    assert all("probe.yaml:" in error for error in found if message in error)


def test_a_drawn_card_goes_by_the_targets_accepts_alone():
    # Tabby Cat's columns with merci: the columns' moves rule (a run in sequence) does not
    # apply to the drawn card; any column or the empty tail takes it by its accepts rule
    variant = load_variant_text(HEADER + "piles:\n  columns:\n    merci: 2\n",
                                str(ROOT / "docs" / "examples" / "probe.yaml"))
    game = variant.position("c:9C5S/4DJD/8H/ t: f:/// s:" + _rest_of_deck(variant,
                                                                         "9C5S4DJD8H"))
    # 9C from under 5S onto the empty tail or the empty c4; 4D from under JD onto the tail
    # or c4 (nothing else takes a Four or a Nine: no Five of another... goes_on wants the
    # next rank up, any suit: 4D onto 5S? 5S is a top: 4D goes on it)
    assert draw_moves(game) == ["c1:^-c4", "c1:^-t", "c2:^-c1", "c2:^-c4", "c2:^-t"]
    game.push_text("c2:^-c1")
    assert game.text().startswith("c:9C5S4D/JD/8H/ t:")
    assert game.text().endswith("m:1") and draw_moves(game) == ["c1:^-c4", "c1:^-t"]


def _rest_of_deck(variant: patience.Variant, used: str) -> str:
    from patience.cards import card_code
    taken = {used[i:i + 2] for i in range(0, len(used), 2)}
    return "".join(card_code(c) for c in variant.deck if card_code(c) not in taken)


def test_the_solver_keys_the_draws_and_keeps_the_fans_whole():
    variant = draws()
    rules = solver_rules(variant)
    before = variant.position(SPADES)
    after = variant.position(SPADES.replace("m:0", "m:1"))
    assert rules.key(before.piles, before.stock) != rules.key(after.piles, after.stock)
    fans = variant.group_by_name["fans"].indices
    assert not set(rules.top_piles) & set(fans)  # a fan's second card matters

    # no safe moves are derived with draws: Beleaguered Castle derives them, not with merci
    castle = patience.find_variant("beleaguered-castle")
    assert castle.safe_derived
    drawn = load_variant_text(
        "extends: beleaguered-castle\nid: probe\nname: Probe\ndescription: A fragment.\n"
        "piles:\n  columns:\n    merci: 1\n", str(ROOT / "docs" / "examples" / "probe.yaml"))
    assert drawn.safe is None and drawn.safe_derivation is not None
    assert drawn.safe_derivation.reason == (
        "a group draws buried cards (merci: a card sent home off a pile changes which card a "
        "draw takes from under it)")


def test_the_reduced_deck_keys_no_top_pile_of_a_group_that_gives_by_draws_alone():
    # a group whose moves rule is false but which has draws still gives cards
    variant = load_variant_text(
        HEADER + "piles:\n  tail:\n    moves: 'false'\n    merci: 1\n",
        str(ROOT / "docs" / "examples" / "probe.yaml"))
    assert variant.group_of_pile[variant.pile_index["t"]].merci == 1
    assert variant.pile_index["t"] not in solver_rules(variant).top_piles


def test_the_words_say_what_a_draw_is():
    text = plain_rules_text(draws())
    assert ("The draw: Once a game, you may take the card just under the top card of one of "
            "the fans and play it alone wherever it could go as a top card; the top card "
            "stays where it was (a move written with '^' for the number of cards, e.g. "
            "'c1:^-c2').") in text
    from patience.rulestext import rules_text
    assert "A draw of a buried card is written 'c1:^-c2'." in rules_text(draws())


def test_the_reduced_decks_load():
    for name in ("mini-fan-draw", "mini-three-shuffles-and-a-draw"):
        assert patience.find_variant(str(MINI / f"{name}.yaml")).merci is not None


def test_a_click_or_a_drag_on_the_card_under_the_top_card_draws_it():
    from patience.play.session import Session
    from patience.web.snapshot import describe_move, drop_targets, snapshot

    game = draws().deal(1)
    index = game.variant.pile_index
    session = Session(game, record_stats=False, auto_home=False)
    # the page may drag c3's second card (6S) onto c17 alone, and c17's (AH) up or onto 2H
    drops = drop_targets(session)
    assert drops[index["c3"]][1] == [index["c17"]]
    assert drops[index["c17"]][1] == [index["c11"], *game.variant.group_by_name[
        "foundations"].indices]
    assert describe_move(game.variant, game.piles, game.parse_move("c3:^-c17")) == \
        "six of spades drawn from under the top card of fan 3 to fan 17"
    stock = snapshot(session)["stock"]
    assert stock["draws_left"] == 1
    assert stock["label"] == "stock, empty, 2 redeals left, 1 draw of a buried card left"
    session.click(index["c3"], 1)
    assert game.notation(game.move_stack[-1]) == "c3:^-c17"
    session.undo()
    session.drop(index["c17"], 1, index["c11"])
    assert game.notation(game.move_stack[-1]) == "c17:^-c11"
    assert not any(depth for by_depth in drop_targets(session).values() for depth in by_depth)
    assert snapshot(session)["stock"]["draws_left"] == 0
    lucie = Session(patience.find_variant("la-belle-lucie").deal(1), record_stats=False)
    assert "draws_left" not in snapshot(lucie)["stock"]



def test_the_pages_hint_for_a_draw_points_at_the_card_under_the_top_card(tmp_path,
                                                                          monkeypatch):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx2")
    from starlette.testclient import TestClient
    from web_helpers import act, make_app, new_game

    monkeypatch.setenv("PATIENCE_DATA_DIR", str(tmp_path / "data"))
    with TestClient(make_app(tmp_path / "data")) as client:
        snap = new_game(client, "three-shuffles-and-a-draw", 1)
        hint = client.post(f"/api/games/{snap['game']}/hint",
                           json={"version": snap["version"]}).json()["hint"]
        # the solver's line starts with a draw here (an Ace up from under its fan's top)
        assert hint["notation"].endswith(":^-f") and (hint["count"], hint["depth"]) == (DRAW, 1)
        before = snap["piles"][hint["source"]]["cards"]
        response = act(client, snap, action="drop", pile=hint["source"], depth=1,
                       target=hint["target"])
        assert response.status_code == 200, response.text
        after = response.json()["snapshot"]
        assert after["stock"]["draws_left"] == 0
        assert after["piles"][hint["source"]]["cards"] == [*before[:-2], before[-1]]
