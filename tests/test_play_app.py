"""The full-screen game, driven by textual's Pilot: clicks, drags, keys, a win."""

from __future__ import annotations

import asyncio
import functools

import pytest

from patience import Game, find_variant
from patience.cards import parse_cards
from patience.play.app import PatienceApp, PileView, TextScreen
from patience.play.session import Session

SIZE = (100, 40)


def synchronous(test):
    """Run an async test with asyncio.run (no pytest plugin needed)."""
    @functools.wraps(test)
    def wrapper(*args, **kwargs):
        return asyncio.run(test(*args, **kwargs))
    return wrapper


@pytest.fixture(autouse=True)
def data_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("PATIENCE_DATA_DIR", str(tmp_path / "data"))


def position(name: str, **piles: str) -> Game:
    variant = find_variant(name)
    split = lambda codes: " ".join(codes[i:i + 2] for i in range(0, len(codes), 2))
    return Game(variant, [parse_cards(split(piles.get(p, ""))) for p in variant.pile_names], [])


def pile(app: PatienceApp, name: str) -> PileView:
    return app.query_one(f"#pile-{app.session.variant.pile_index[name]}", PileView)


def card_offset(app: PatienceApp, name: str, position: int) -> tuple[int, int]:
    """Where to click on the card ``position`` places from the bottom (line 0: the name)."""
    return (2, 1 + position)


@synchronous
async def test_a_click_moves_to_the_same_suit_column_then_undo_and_redo():
    app = PatienceApp(Session(position("tabbycat", c1="9C", c2="9D", c4="8D")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click(pile(app, "c4"), offset=card_offset(app, "c4", 0))
        assert app.session.game.text().startswith("c:9C/9D8D//")
        assert str(pile(app, "c2").render()).split() == ["c2", "9♦", "8♦"]
        await pilot.press("u")
        assert app.session.game.text().startswith("c:9C/9D//8D")
        await pilot.press("r")
        assert app.session.game.text().startswith("c:9C/9D8D//")


@synchronous
async def test_clicks_follow_the_destination_order():
    app = PatienceApp(Session(position("tabbycat", c1="5S", c3="QH", c4="9D")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click(pile(app, "c3"), offset=card_offset(app, "c3", 0))  # first empty
        assert app.session.game.text().startswith("c:5S/QH//9D t:")
        await pilot.click(pile(app, "c4"), offset=card_offset(app, "c4", 0))  # empty column
        assert app.session.game.text().startswith("c:5S/QH/9D/ t:")
        await pilot.click(pile(app, "c1"), offset=card_offset(app, "c1", 0))  # first empty
        assert app.session.game.text().startswith("c:/QH/9D/5S t:")
        await pilot.click(pile(app, "c2"), offset=card_offset(app, "c2", 0))  # empty column
        assert app.session.game.text().startswith("c:QH//9D/5S t:")


@synchronous
async def test_with_no_empty_column_a_click_goes_to_the_tail():
    app = PatienceApp(Session(position("tabbycat", c1="5S", c2="7H", c3="QH", c4="9D")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click(pile(app, "c3"), offset=card_offset(app, "c3", 0))
        assert app.session.game.text().startswith("c:5S/7H//9D t:QH")


@synchronous
async def test_a_click_on_a_tail_card_moves_the_whole_tail():
    app = PatienceApp(Session(position("tabbycat", c1="9C", c2="4H", c3="KD", c4="2S",
                                       t="8S7H6D")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click(pile(app, "t"), offset=card_offset(app, "t", 2))  # the top card
        assert app.session.game.text().startswith("c:9C8S7H6D/4H/KD/2S t: ")


@synchronous
async def test_a_drag_chooses_the_destination():
    app = PatienceApp(Session(position("tabbycat", c1="9C", c2="9D", c4="8D")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.mouse_down(pile(app, "c4"), offset=card_offset(app, "c4", 0))
        await pilot.mouse_up(pile(app, "c1"), offset=(2, 1))
        await pilot.pause()
        assert app.session.game.text().startswith("c:9C8D/9D// t:")


@synchronous
async def test_the_stock_deals_on_a_click_and_d_deals_too():
    app = PatienceApp(Session(find_variant("tabbycat").deal(1)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click("#stock")
        assert app.session.game.deals_left == 11
        await pilot.press("d")
        assert app.session.game.deals_left == 10
        assert "deals left 10" in str(app.query_one("#status").render())


@synchronous
async def test_a_typed_illegal_move_is_explained_and_changes_nothing():
    app = PatienceApp(Session(find_variant("tabbycat").deal(1)))
    async with app.run_test(size=SIZE) as pilot:
        before = app.session.game.text()
        await pilot.press(*"c1:1-c3", "enter")
        assert app.session.game.text() == before
        message = str(app.query_one("#message").render())
        assert "c1:1-c3: c3 does not take 7D" in message
        assert app.query_one("#message").has_class("error")
        await pilot.press(*"c1:1-t", "enter")
        assert app.session.game.text().startswith("c:/9C/4D/8H t:7D")


@synchronous
async def test_a_won_game_says_so():
    app = PatienceApp(Session(position(
        "tabbycat", c1="KSQSJSTS9S8S7S6S5S4S3S2SAS", f1="KCQCJCTC9C8C7C6C5C4C3C2CAC",
        f2="KDQDJDTD9D8D7D6D5D4D3D2DAD", f3="KHQHJHTH9H8H7H6H5H4H3H2HAH")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click(pile(app, "c1"), offset=card_offset(app, "c1", 0))  # the King
        assert app.session.game.is_won()
        assert "You won!" in str(app.query_one("#message").render())


@synchronous
async def test_the_rules_page_opens_and_closes_and_q_quits_with_a_save():
    app = PatienceApp(Session(find_variant("manx").deal(2)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, TextScreen)
        assert "Manx" in app.screen.body
        await pilot.press("escape")
        assert not isinstance(app.screen, TextScreen)
        await pilot.press("q")
    assert "saved to" in app.quit_message


@synchronous
async def test_every_shipped_layout_draws(tmp_path):
    for name in ("mainecoon", "manx-corner"):
        app = PatienceApp(Session(find_variant(name).deal(3)))
        async with app.run_test(size=SIZE):
            views = app.query(PileView)
            assert len(views) == len(app.session.variant.pile_names)


@synchronous
async def test_h_asks_the_solver_for_a_hint():
    app = PatienceApp(Session(position(
        "tabbycat", c1="KSQSJSTS9S8S7S6S5S4S3S2SAS", f1="KCQCJCTC9C8C7C6C5C4C3C2CAC",
        f2="KDQDJDTD9D8D7D6D5D4D3D2DAD", f3="KHQHJHTH9H8H7H6H5H4H3H2HAH")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "hint: c1:13-f" in str(app.query_one("#message").render())


@synchronous
async def test_a_variant_with_another_layout_plays_without_ui_code():
    from patience.variant import load_variant_text

    text = (find_variant("tabbycat").text.replace("id: tabbycat", "id: wide")
            .replace("  columns:", "  stacks:").replace("id: c\n", "id: p\n")
            .replace("count: 4\n    deal: 1", "count: 6\n    deal: 1")
            .replace("source in columns", "source in stacks")
            .replace("deals_to: [columns]", "deals_to: [stacks]"))
    variant = load_variant_text(text, "wide.yaml")
    app = PatienceApp(Session(variant.deal(1)))
    async with app.run_test(size=SIZE) as pilot:
        assert len(app.query(PileView)) == 11
        top = app.session.game.piles[variant.pile_index["p6"]][-1]
        await pilot.click(pile(app, "p6"), offset=card_offset(app, "p6", 0))
        assert top not in app.session.game.piles[variant.pile_index["p6"]]
        await pilot.click("#stock")
        assert app.session.game.deals_left == variant.deals - 1
