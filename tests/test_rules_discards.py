"""Discards: moves that take the top cards of several piles at once (``discards:``).

The exact move sets come from the rules source (PySolFC's Fourteen: any two top cards whose
ranks add up to fourteen), not from running the generator; the load errors are located;
the notation reads and writes one token (``c1+c4``); the solver leaves a discard's piles
unsorted and derives no safe moves; and the words say what a discard is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import patience
from patience.errors import MoveError, VariantError
from patience.moves import Move
from patience.plainrules import plain_rules_text
from patience.solver.rules import solver_rules
from patience.variant import load_variant_text

MINI = Path(__file__).parent / "variants"
# 9D on 2C 5C; 5H; KS; AS; 7H; 7D; six empty piles; the rest of the deck discarded
POSITION = ("c:2C5C9D/5H/KS/AS/7H/7D////// f:AC3C4C6C7C8C9CTCJCQCKCAD2D3D4D5D6D8DTDJDQDKDAH2H"
            "3H4H6H8H9HTHJHQHKH2S3S4S5S6S7S8S9STSJSQS s:")


def fourteen() -> patience.Variant:
    return patience.find_variant("fourteen")


def test_any_two_top_cards_adding_up_to_fourteen_leave_together():
    game = fourteen().position(POSITION)
    # 9+5, King+Ace, 7+7; nothing else moves in Fourteen
    assert sorted(game.notation(m) for m in game.legal_moves) == ["c1+c2", "c3+c4", "c5+c6"]
    game.push_text("c4+c3")  # typed in any order
    assert game.notation(game.move_stack[-1]) == "c3+c4"
    assert game.text().startswith("c:2C5C9D/5H///7H/7D////// f:")
    assert game.text().split()[1].endswith("KSAS")  # in pile order onto the foundation
    game.pop()
    assert game.text() == POSITION


def test_a_discard_is_one_move_of_three_small_ints():
    game = fourteen().position(POSITION)
    move = game.parse_move("c1+c2")
    assert move.is_discard and not move.is_deal
    assert move.count == 2 and move.target == game.variant.pile_index["f"]
    assert game.variant.discard_sets[-2 - move.source] == (0, 1)
    assert game.is_legal(move) and not game.is_legal(Move(move.source, 3, move.target))
    assert not game.is_legal(Move(-30_000, 2, move.target))  # no such set: not legal, no crash


@pytest.mark.parametrize(("text", "message"), [
    ("c1+c1", "a discard names each pile once"),
    ("c1+zz", "there is no pile 'zz'"),
    ("c1+f", "no discard takes the top cards of c1 and f (its discards take 2 cards"),
    ("c1++c2", "a discard names its piles joined by '+', e.g. 'c1+c4'"),
    ("c1+c2+c3", "no discard takes the top cards of c1 and c2 and c3"),
])
def test_a_discard_that_cannot_be_read_says_why(text, message):
    with pytest.raises(MoveError, match="^move|^cannot read") as error:
        fourteen().position(POSITION).parse_move(text)
    assert message in str(error.value)


def test_a_variant_without_discards_says_so():
    with pytest.raises(MoveError, match="this variant has no discards"):
        patience.find_variant("tabbycat").deal(1).parse_move("c1+c2")


def test_why_a_discard_is_illegal_is_said_in_the_rules_words():
    game = fourteen().position(POSITION)
    assert game.explain("c1+c3") == (
        "c1+c3: 9D KS may not be discarded together: discards[1].when 'first.top.rank + "
        "second.top.rank == 14' is false: 'first.top.rank + second.top.rank == 14' is false "
        "('first.top.rank + second.top.rank' is 22)")
    assert game.explain("c1+c7") == "c1+c7: c7 is empty"
    with pytest.raises(MoveError, match="may not be discarded together"):
        game.push_text("c2+c5")


def test_the_rules_say_what_a_discard_is():
    text = plain_rules_text(fourteen())
    assert ("Discards: two cards leave together, the top cards of two of the columns, to the "
            "foundation (a move written with their piles joined by '+', e.g. 'c1+c2'), when: "
            "Two top cards whose ranks add up to fourteen.") in text
    assert "When: first.top.rank + second.top.rank == 14" in fourteen().rules_text()


def test_the_solver_leaves_a_discards_piles_in_order_and_plays_none_as_safe():
    variant = fourteen()
    rules = solver_rules(variant)
    assert rules.always_sorted == () and rules.sorted_when_stock_empty == ()
    assert variant.safe is None
    assert variant.safe_derivation is not None
    assert "discards" in variant.safe_derivation.reason


def test_pyramids_discards_pair_a_waste_card_too():
    variant = patience.find_variant(str(MINI / "pyramid-discards.yaml"))
    game = variant.position(
        "p:KS/QH/AS/2C" + "/" * 24 + " w:JD f:" + "".join(
            code for code in _deck_without("KS QH AS 2C JD")) + " s: r:2")
    assert sorted(game.notation(m) for m in game.legal_moves) == [
        "p1:1-f", "p2+p3", "p4+w"]  # a King alone; Q+A; 2+J from the waste


def test_nestors_discards_pair_a_reserve_card_of_the_same_rank():
    variant = patience.find_variant(str(MINI / "nestor-discards.yaml"))
    game = variant.deal(1)  # tops: c2 2H and c6 2S; c7 9H and r1 9S
    assert sorted(game.notation(m) for m in game.legal_moves) == ["c2+c6", "c7+r1"]


def _deck_without(codes: str) -> list[str]:
    from patience.cards import card_code, new_deck

    used = codes.split()
    return [card_code(c) for c in new_deck() if card_code(c) not in used]


HEAD = "extends: tabbycat\nid: x\nname: X\ndescription: x.\n"


@pytest.mark.parametrize(("text", "where", "message"), [
    ("discards:\n  - cards: 2\n    from: [colums]\n    to: tail\n    when: 'true'\n", "7:11",
     ("discards[1].from names 'colums', which is not a pile group (did you mean 'columns'?); "
      "the pile groups are columns, tail, foundations")),
    ("discards:\n  - cards: 5\n    from: [columns]\n    to: tail\n    when: 'true'\n", "6:12",
     "discards[1].cards must be from 2 to 4, not 5"),
    ("discards:\n  - cards: 2\n    from: [columns]\n    to: foundations\n    when: 'true'\n",
     "8:9", "discards[1].to names 'foundations', a group of 4 piles"),
    ("discards:\n  - cards: 2\n    from: [columns, tail]\n    to: tail\n    when: 'true'\n",
     "8:9", "discards[1].to names 'tail', one of the groups it takes cards from"),
    (("discards:\n  - cards: 2\n    from: [columns]\n    to: tail\n"
      "    when: first.top.rank + third.top.rank == 13\n"), "9:28",
     "in discards[1].when: unknown name 'third'"),
    (("discards:\n  - cards: 2\n    from: [columns]\n    to: tail\n    when: 'true'\n"
      "  - cards: 2\n    from: [columns]\n    to: tail\n    when: 'false'\n"), "11:11",
     "discards[2] and discards[1] both take 2 cards from 'columns'"),
    ("discards:\n  cards: 2\n", "6:3", "discards must be a list of discards"),
    ("discards:\n  - cards: 2\n    from: [columns]\n    to: tail\n", "6:5",
     "discards[1] needs the key 'when'"),
    ("discards:\n  - cards: 2\n    from: [columns, columns]\n    to: tail\n    when: 'true'\n",
     "7:11", "discards[1].from names a group twice"),
])
def test_every_mistake_in_a_discard_is_refused_where_it_is(text, where, message):
    with pytest.raises(VariantError) as error:
        load_variant_text(HEAD + text, "x.yaml")
    assert f"x.yaml:{where}: " in str(error.value)
    assert message in str(error.value)


def test_too_many_sets_of_piles_are_refused():
    groups = "".join(f"  g{i}:\n    id: {'abcdefgh'[i]}\n    count: 64\n    moves: 'false'\n"
                     for i in range(2))
    text = ("id: x\nname: X\ndescription: x.\npiles:\n" + groups +
            "  h:\n    id: z\n    count: 1\n    deal: 52\n    moves: 'false'\n"
            "discards:\n  - cards: 4\n    from: [g0, g1]\n    to: h\n    when: 'true'\n"
            "win: 'false'\n")
    with pytest.raises(VariantError, match=r"the discards choose among 10_668_000 sets of "
                                           r"piles so far; a variant has at most 20_000"):
        load_variant_text(text, "x.yaml")


# -- players --


def test_the_web_pages_move_api_takes_a_discard_and_says_it(tmp_path, monkeypatch):
    from starlette.testclient import TestClient
    from web_helpers import act, make_app, new_game

    monkeypatch.setenv("PATIENCE_DATA_DIR", str(tmp_path / "data"))
    with TestClient(make_app(tmp_path / "data", names=("fourteen",))) as client:
        snap = new_game(client, "fourteen", 1)
        response = act(client, snap, action="move", move="c12+c9")
        assert response.status_code == 200, response.text
        data = response.json()
        assert data["announce"] == ("Four of clubs from column 9 and ten of clubs from column "
                                    "12 to foundation.")
        assert data["snapshot"]["moves"] == 1
        data = act(client, data["snapshot"], action="undo").json()
        assert data["announce"] == ("Undid four of clubs from column 9 and ten of clubs from "
                                    "column 12 to foundation.")
        response = act(client, data["snapshot"], action="move", move="c1+c2")
        assert response.status_code == 422
        assert response.json()["error"].startswith("3♥ and 2♠ can't be discarded together")
        snap = data["snapshot"]
        hint = client.post(f"/api/games/{snap['game']}/hint",
                           json={"version": snap["version"]}).json()["hint"]
        assert hint["notation"] == "c9+c12" and hint["piles"] == [8, 11]


def test_the_terminal_session_plays_a_typed_discard():
    from patience.play.session import Session

    session = Session(fourteen().deal(1))
    reply = session.apply("c9+c12")
    assert not reply.error, reply.text
    assert session.game.notation(session.game.move_stack[-1]) == "c9+c12"
    assert session.undo().changed


# -- hostile input --


def test_more_discards_than_the_limit_are_refused_at_the_list():
    from patience.limits import MAX_DISCARDS

    entry = "  - cards: 2\n    from: [columns]\n    to: tail\n    when: 'true'\n"
    with pytest.raises(VariantError, match=rf"^x.yaml:6:3: discards has {MAX_DISCARDS + 1} "
                                           rf"entries; a variant has at most {MAX_DISCARDS}"):
        load_variant_text(HEAD + "discards:\n" + entry * (MAX_DISCARDS + 1), "x.yaml")


@pytest.mark.parametrize("text", ["c1+" * 20 + "c2", "c1+", "+", "c1+c2+c3+c4+c5+c6"])
def test_a_long_or_broken_discard_is_refused_in_a_line(text):
    with pytest.raises(MoveError) as error:
        fourteen().position(POSITION).parse_move(text)
    assert "\n" not in str(error.value) and len(str(error.value)) < 300


def test_the_core_refuses_a_program_whose_discard_is_out_of_range():
    import json

    from patience import native
    from patience.errors import SolverError
    from patience.native.program import rule_program_text

    if not native.AVAILABLE:
        pytest.skip(str(native.REASON))
    program = json.loads(rule_program_text(fourteen()))
    for broken in ({"target": 99}, {"sources": [3, 1]}, {"cards": 9}, {"start": 1},
                   {"when": ["top", ["chosen", 7]]}):
        bad = json.dumps({**program, "discards": [{**program["discards"][0], **broken}]})
        with pytest.raises(SolverError, match="bad rule program"):
            native.load_core(bad)


def test_the_terminal_draws_fourteen_and_takes_a_typed_discard(tmp_path, monkeypatch):
    import asyncio

    from patience.play.app import PatienceApp
    from patience.play.session import Session

    monkeypatch.setenv("PATIENCE_DATA_DIR", str(tmp_path / "data"))

    async def play() -> None:
        app = PatienceApp(Session(fourteen().deal(1)))
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press(":", *"c12+c9", "enter")
            await pilot.pause()
            game = app.session.game
            assert [game.notation(m) for m in game.move_stack] == ["c9+c12"]
            await pilot.press("u")
            await pilot.pause()
            assert not app.session.game.move_stack

    asyncio.run(play())


def test_mutation_testing_changes_a_discards_rule_where_it_is_written():
    from patience.testing.mutants import mutants

    changed = [m for m in mutants(fourteen()) if m.rule == "discards[1].when"]
    assert "14 -> 13" in {m.change for m in changed}
    assert all(m.location is not None and m.location.line == 37 for m in changed)
    thirteen = next(m for m in changed if m.change == "14 -> 13")
    assert thirteen.flat["discards"][0]["when"] == "first.top.rank + second.top.rank == 13"


def test_a_card_only_predicate_in_a_discard_becomes_a_table_in_both_engines():
    import json

    from patience.native.program import rule_program_text

    text = fourteen().text.replace(
        "when: first.top.rank + second.top.rank == 14",
        "when: fourteen(first.top, second.top)").replace(
        "decks: 1\n", "decks: 1\npredicates:\n  fourteen(a, b): a.rank + b.rank == 14\n", 1)
    variant = load_variant_text(text, "fourteen-table.yaml")
    assert "table_fourteen[c0][c1]" in variant.generated.source
    program = json.loads(rule_program_text(variant))
    assert program["discards"][0]["when"][:2] == ["table", 0]
    from patience import native

    plain = fourteen()
    for number in range(1, 6):
        game = variant.deal(number)
        assert game.generate_moves() == plain.deal(number).generate_moves()
        if native.AVAILABLE:  # the core reads the table
            assert native.generate_moves(game) == game.generate_moves()
