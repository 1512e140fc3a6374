"""The full-screen game, driven by textual's Pilot: clicks, drags, keys, typed words, the
solver in the background, every way out saving the game."""

from __future__ import annotations

import asyncio
import errno
import functools
import tempfile
import time
from pathlib import Path

import pytest
from textual import events
from textual.keys import _character_to_key

from patience import Game, find_variant
from patience.cards import numbered_deck, parse_cards
from patience.play import saves
from patience.play.app import KEYS, Board, NewGameScreen, PatienceApp, TextScreen
from patience.play.layout import LABEL
from patience.play.session import Session
from patience.seeds import deal

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
    return tmp_path / "data"


def position(name: str, **piles: str) -> Game:
    variant = find_variant(name)
    split = lambda codes: " ".join(codes[i:i + 2] for i in range(0, len(codes), 2))
    return Game(variant, [parse_cards(split(piles.get(p, ""))) for p in variant.pile_names], [])


def board(app: PatienceApp) -> Board:
    return app.query_one(Board)


def at(app: PatienceApp, name: str, depth: int = 0) -> tuple[int, int]:
    """Where the card ``depth`` below the top of pile ``name`` is drawn on the board."""
    layout = board(app).current_layout()
    return layout.where(app.session.variant.pile_index[name], depth)


async def click(pilot, app: PatienceApp, name: str, depth: int = 0) -> None:
    await pilot.click(Board, offset=at(app, name, depth))
    await pilot.pause()


def message(app: PatienceApp) -> str:
    return str(app.query_one("#message").render())


def screen_lines(app: PatienceApp) -> list[str]:
    return board(app).current_layout().lines()


async def wait_until(pilot, condition, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.02)


WON_BUT_ONE = {"c1": "KSQSJSTS9S8S7S6S5S4S3S2SAS", "f1": "KCQCJCTC9C8C7C6C5C4C3C2CAC",
                   "f2": "KDQDJDTD9D8D7D6D5D4D3D2DAD", "f3": "KHQHJHTH9H8H7H6H5H4H3H2HAH"}


# -- the mouse --

@synchronous
async def test_a_click_moves_to_the_same_suit_column_then_undo_and_redo():
    app = PatienceApp(Session(position("tabbycat", c1="9C", c2="9D", c4="8D")))
    async with app.run_test(size=SIZE) as pilot:
        await click(pilot, app, "c4")
        assert app.session.game.text().startswith("c:9C/9D8D//")
        column = [line[at(app, "c2")[0] - 1:at(app, "c2")[0] + 4].strip()
                  for line in screen_lines(app)]
        assert column[4:7] == ["c2", "9♦", "8♦"]  # the top row takes 3 lines, then a gap
        await pilot.press("u")
        assert app.session.game.text().startswith("c:9C/9D//8D")
        await pilot.press("r")
        assert app.session.game.text().startswith("c:9C/9D8D//")


@synchronous
async def test_clock_is_played_by_clicks_on_its_face():
    app = PatienceApp(Session(find_variant("clock").deal(2)))
    async with app.run_test(size=(80, 24)) as pilot:
        lines = screen_lines(app)
        twelve, six = at(app, "c12"), at(app, "c6")
        hand, middle = at(app, "h"), at(app, "k")
        assert twelve[1] < hand[1] < six[1] and at(app, "c9")[0] < middle[0] < hand[0] < \
            at(app, "c3")[0]  # the hand and the middle pile inside the face
        assert "7♦" in lines[hand[1]]
        await click(pilot, app, "h")  # the Seven of diamonds under seven o'clock
        assert app.session.game.text().startswith("c:qh6h8h9c/3sjh3hth/4ctc9d5d/5h9s6dts/"
                                                  "7hjdjsqs/2d8casks/7Dkh4d5c/")
        assert "8♠" in screen_lines(app)[hand[1]]
        assert "7♦" in "".join(line[at(app, "c7")[0] - 2:at(app, "c7")[0] + 4]
                               for line in screen_lines(app))


@synchronous
async def test_clicks_follow_the_destination_order():
    app = PatienceApp(Session(position("tabbycat", c1="5S", c3="QH", c4="9D")))
    async with app.run_test(size=SIZE) as pilot:
        await click(pilot, app, "c3")  # the first empty column
        assert app.session.game.text().startswith("c:5S/QH//9D t:")
        await click(pilot, app, "c4")
        assert app.session.game.text().startswith("c:5S/QH/9D/ t:")
        await click(pilot, app, "c1")
        assert app.session.game.text().startswith("c:/QH/9D/5S t:")


@synchronous
async def test_a_click_on_a_tail_card_moves_the_whole_tail():
    app = PatienceApp(Session(position("tabbycat", c1="9C", c2="4H", c3="KD", c4="2S",
                                       t="8S7H6D")))
    async with app.run_test(size=SIZE) as pilot:
        await click(pilot, app, "t", 0)
        assert app.session.game.text().startswith("c:9C8S7H6D/4H/KD/2S t: ")


@synchronous
async def test_a_drag_chooses_the_destination():
    app = PatienceApp(Session(position("tabbycat", c1="9C", c2="9D", c4="8D")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.mouse_down(Board, offset=at(app, "c4"))
        await pilot.pause()
        assert [c.text.strip() for c in board(app).board_layout.cells if c.marked] == ["8♦"]
        await pilot.mouse_up(Board, offset=at(app, "c1"))
        await pilot.pause()
        assert app.session.game.text().startswith("c:9C8D/9D// t:")


@synchronous
async def test_the_stock_deals_on_a_click_and_d_deals_too():
    app = PatienceApp(Session(find_variant("tabbycat").deal(1)))
    async with app.run_test(size=SIZE) as pilot:
        stock = board(app).current_layout().where(-1)
        await pilot.click(Board, offset=stock)
        await pilot.pause()
        assert app.session.game.deals_left == 11
        await pilot.press("d")
        assert app.session.game.deals_left == 10
        assert "deals left 10" in str(app.query_one("#status").render())


# -- keys and typed words --

@synchronous
async def test_help_typed_in_full_gives_the_help_text_and_fires_no_key():
    app = PatienceApp(Session(find_variant("tabbycat").deal(1)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(":", *"help", "enter")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen) and app.screen.title_text == "Commands"
        assert "SRC-DST        a move without the count" in app.screen.body
        assert not app.thinking  # the h of help was text, not the hint key
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press(":", *"undo", "enter")
        await pilot.pause()
        assert message(app) == "nothing to undo"  # undo, not 'ndo'
        await pilot.press("?")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen) and app.screen.title_text == "Keys"
        flowing = " ".join(app.screen.body.split())
        for key, (words, _) in KEYS.items():
            assert f"{key} {words}" in flowing


@synchronous
async def test_the_keys_page_fits_80_columns():
    from rich.cells import cell_len

    app = PatienceApp(Session(find_variant("klondike").deal(1), record_stats=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("?")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen) and app.screen.title_text == "Keys"
        page = app.screen.query_one("#page")
        width = page.content_region.width
        assert 0 < width < 80
        lines = app.screen.body.splitlines()
        assert max(cell_len(line) for line in lines) <= width
        assert page.virtual_size.height == len(lines)  # not one line wrapped


@synchronous
async def test_a_won_game_shows_its_summary():
    app = PatienceApp(Session(position("tabbycat", **WON_BUT_ONE)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await pilot.pause()
        assert app.session.game.is_won()
        assert isinstance(app.screen, TextScreen) and app.screen.title_text.startswith("You won!")
        lines = app.screen.body.splitlines()
        assert lines[0].startswith("time    0:0") and lines[1] == "moves   1"
        assert lines[2:] == ["won     1 of 1 game (100%)", "streak  1 (best 1)"]
        await pilot.press("escape")
        assert not isinstance(app.screen, TextScreen)


@synchronous
async def test_a_typed_illegal_move_is_one_sentence_and_why_shows_the_rule():
    app = PatienceApp(Session(find_variant("tabbycat").deal(1)))
    async with app.run_test(size=SIZE) as pilot:
        before = app.session.game.text()
        await pilot.press(*"c1:1-c3", "enter")  # c opens the command line
        assert app.session.game.text() == before
        assert message(app) == "7♦ can't go on 4♦: only a 3 goes there"
        assert app.query_one("#message").has_class("error")
        await pilot.press(":", *"why", "enter")
        assert isinstance(app.screen, TextScreen)
        assert app.screen.body.startswith("c1:1-c3: c3 does not take 7D from c1: "
                                          "piles.columns.accepts")
        await pilot.press("escape")
        await pilot.press(*"c1-t", "enter")  # no count: the one legal move
        assert app.session.game.text().startswith("c:/9C/4D/8H t:7D")


@synchronous
async def test_a_won_game_says_so_and_auto_finish_plays_the_sets_home():
    app = PatienceApp(Session(position("tabbycat", **WON_BUT_ONE), record_stats=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        assert app.session.game.is_won()
        assert message(app) == "auto-finish: c1:13-f You won!"
        assert app.query_one("#message").has_class("end")


@synchronous
async def test_the_rules_page_opens_and_closes_and_q_quits_with_a_save():
    app = PatienceApp(Session(find_variant("manx").deal(2)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("i")
        assert isinstance(app.screen, TextScreen)
        assert "Manx" in app.screen.body
        await pilot.press("escape")
        assert not isinstance(app.screen, TextScreen)
        await pilot.press("q")
    assert "saved to" in app.quit_message


@synchronous
async def test_new_game_and_restart_from_inside_the_app():
    app = PatienceApp(Session(find_variant("tabbycat").deal(1)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d", "d", "x")
        assert app.session.game.move_stack == [] and len(app.session.redo_stack) == 2
        await pilot.press("n")
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press(*"42", "enter")
        assert app.session.game.deal_number == 42
        assert app.session.game.text() == find_variant("tabbycat").deal(42).text()
        await pilot.press("n", "r")
        assert app.session.game.deal_number not in (None, 42)
        assert "0:0" in str(app.query_one("#status").render())  # the timer


@synchronous
async def test_a_new_game_by_the_numbers_of_other_programs():
    app = PatienceApp(Session(find_variant("freecell").deal(1)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n", *"ms:11982", "enter")
        assert str(app.session.game.seed) == "ms:11982"
        assert app.session.game.text() == deal(find_variant("freecell"), "ms:11982").text()
        assert "ms:11982" in app.title
        await pilot.press("n", *"ms:0", "enter")  # out of range: the box asks again
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("escape")
        assert str(app.session.game.seed) == "ms:11982"
    tabby = PatienceApp(Session(find_variant("tabbycat").deal(1)))
    async with tabby.run_test(size=SIZE) as pilot:  # no Microsoft deals of Tabby Cat
        await pilot.press("n", *"ms:5", "enter")
        assert tabby.session.game.deal_number == 1
        assert "ms:" in str(tabby.query_one("#message").render())


@synchronous
async def test_a_winnable_deal_from_inside_the_app_shows_progress(monkeypatch):
    import threading

    from patience.play import deals

    release = threading.Event()

    def slow_search(variant, start, should_stop):  # the solver's protocol, slowly
        positions = 0
        while not release.is_set():
            positions += 1024
            if should_stop(positions):
                raise deals.SaveError("unreachable")
            time.sleep(0.01)
        return 7

    monkeypatch.setattr(deals, "first_winnable", slow_search)
    app = PatienceApp(Session(find_variant("tabbycat").deal(1)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n", "w")
        assert app.thinking == "looking for a winnable deal"
        await wait_until(pilot, lambda: app.progress >= 2048 and "positions" in message(app))
        assert message(app).startswith("looking for a winnable deal… ")
        assert message(app).endswith(" s — Esc or q cancels")
        release.set()
        await wait_until(pilot, lambda: not app.thinking)
        assert app.session.label == "winnable deal 7"
        assert app.session.game.text() == find_variant("tabbycat").deal(7).text()
        assert message(app) == "a new game: winnable deal 7"


# -- the solver in the background --

@synchronous
async def test_h_shows_the_hint_on_the_board():
    app = PatienceApp(Session(position("tabbycat", **WON_BUT_ONE), record_stats=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await wait_until(pilot, lambda: not app.thinking)
        assert message(app) == "hint: c1:13-f (a win in 1 move)"
        marked = [c for c in board(app).current_layout().cells if c.marked]
        assert {c.text.strip() for c in marked if c.kind != LABEL} == {
            "K♠", "Q♠", "J♠", "10♠", "9♠", "8♠", "7♠", "6♠", "5♠", "4♠", "3♠", "2♠", "A♠",
            "···"}  # the empty foundation it goes to
        assert [c.text.strip() for c in marked if c.kind == LABEL] == ["f4"]


async def hint_then_click_the_hinted_card(pilot, app: PatienceApp) -> str:
    """Press h, wait for the hint, make it by a click on its card (d for a deal); the
    message the hint gave."""
    await pilot.press("h")
    await wait_until(pilot, lambda: not app.thinking)
    hinted = app.session.hinted_move()
    assert app.hint is not None and app.hint == tuple(hinted)
    text = message(app)
    if hinted.source < 0:
        await pilot.press("d")
    else:
        await click(pilot, app, app.session.variant.pile_names[hinted.source],
                    hinted.count - 1)
    assert app.session.game.move_stack == [hinted]
    return text


@synchronous
async def test_h_on_an_undecided_deal_shows_a_suggestion_within_a_second_and_its_card_plays_it():
    # Klondike deal 1: undecided after 1,000,000 positions; h took 15-20 s and showed no move
    app = PatienceApp(Session(find_variant("klondike").deal(1), record_stats=False))
    async with app.run_test(size=SIZE) as pilot:
        pressed = time.monotonic()
        text = await hint_then_click_the_hinted_card(pilot, app)
        assert text.startswith("suggestion: ")
        assert time.monotonic() - pressed < 2.0  # a search of 0.8 s, then a click


@synchronous
async def test_clicking_the_hinted_card_makes_the_hinted_move():
    # Tabby Cat deal 1 hints c1:1-t; a click on that card played c1:1-c4, and the next hint
    # sent it back: the card went round for ever
    app = PatienceApp(Session(find_variant("tabbycat").deal(1), record_stats=False))
    async with app.run_test(size=SIZE) as pilot:
        text = await hint_then_click_the_hinted_card(pilot, app)
        assert text.startswith("hint from the full deal: c1:1-t ")


@synchronous
async def test_v_shows_a_hint_from_what_the_player_sees():
    app = PatienceApp(Session(find_variant("tabbycat").deal(1), record_stats=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("v")
        await wait_until(pilot, lambda: not app.thinking)
        assert message(app).startswith("hint from what you see: ")
        assert app.hint is not None and app.hint == tuple(app.session.hinted_move())


@pytest.mark.slow  # seconds: it waits on a hint that runs long
@synchronous
async def test_escape_cancels_a_running_hint_within_a_second():
    session = Session(find_variant("mainecoon").deal(401))  # won only after 17,808,115 positions
    session.hint_budget = (10**9, 120.0)  # a search that is still running when Esc comes
    assert session.hint().text.startswith("suggestion: ")  # quick; h now searches on
    app = PatienceApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await wait_until(pilot, lambda: app.progress > 0)
        await pilot.press("d")  # keys wait while the solver thinks
        assert app.session.game.move_stack == []
        assert "Esc or q cancels" in message(app)
        pressed = time.monotonic()
        await pilot.press("escape")
        await wait_until(pilot, lambda: not app.thinking, seconds=5)
        assert time.monotonic() - pressed < 1.0
        assert message(app).startswith("cancelled after ")
        await pilot.press("d")  # and the game goes on
        assert len(app.session.game.move_stack) == 1


@synchronous
async def test_q_cancels_the_solver_first_and_then_quits():
    session = Session(find_variant("mainecoon").deal(401))  # won only after 17,808,115 positions
    session.hint_budget = (10**9, 120.0)
    assert session.hint().text.startswith("suggestion: ")  # quick; h now searches on
    app = PatienceApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await wait_until(pilot, lambda: app.progress > 0)
        await pilot.press("q")
        await wait_until(pilot, lambda: not app.thinking, seconds=1)
        assert app.is_running
        await pilot.press("q")
    assert "saved to" in app.quit_message


# -- the ways out --

@pytest.mark.parametrize("key", ["ctrl+q", "ctrl+c"])
def test_ctrl_q_and_ctrl_c_leave_a_resumable_save(key):
    @synchronous
    async def play():
        app = PatienceApp(Session(find_variant("tabbycat").deal(3)))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("d", "d")
            await pilot.press(key)
        return app

    app = play()
    assert app.quit_message.startswith("saved to ")
    resumed = Session.from_save(saves.read_save(saves.save_path("tabbycat")))
    assert resumed.game.move_stack == app.session.game.move_stack
    assert len(resumed.game.move_stack) == 2


@synchronous
async def test_a_read_only_data_folder_keeps_the_game(data_directory, tmp_path, monkeypatch):
    data_directory.mkdir(parents=True)
    real = tempfile.mkstemp

    def mkstemp(*args, dir=None, **kwargs):  # how root meets a read-only folder
        if dir is not None and Path(dir).resolve() in (data_directory.resolve(),
                                                       (data_directory / "saves").resolve()):
            raise PermissionError(errno.EACCES, "Permission denied", str(dir))
        return real(*args, dir=dir, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    app = PatienceApp(Session(find_variant("manx").deal(6)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        (fallback,) = (tmp_path / "tmp").glob("patience-save-*.json")
        shown = message(app)
        assert shown.startswith("cannot write the saved game") and app.query_one(
            "#message").has_class("error")
        await pilot.press("m")
        assert f"the game was saved to {fallback} instead" in app.screen.body
        await pilot.press("escape", "d", "ctrl+q")
    assert f"saved to {fallback} instead" in app.quit_message
    resumed = Session.from_save(saves.read_save(fallback), path=fallback)
    assert len(resumed.game.move_stack) == 2


@synchronous
async def test_another_games_save_is_announced_and_kept_until_a_move(data_directory):
    first = Session(find_variant("tabbycat").deal(1))
    first.apply("d")
    first.save()
    app = PatienceApp(Session(find_variant("tabbycat").deal(2)))
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, TextScreen) and app.screen.title_text == "Before you play"
        assert "the saved game (tabbycat, deal 1, 1 move) will be replaced" in app.screen.body
        await pilot.press("enter", "q")
    assert app.quit_message == ("this game was not saved (no move was made); the saved game "
                                "was kept")
    assert saves.read_save(saves.save_path("tabbycat"))["label"] == "deal 1"


# -- the board --

@synchronous
async def test_at_80_by_24_a_30_card_column_shows_its_top_card():
    variant = find_variant("tabbycat")
    deck = numbered_deck(1)
    game = Game(variant, [deck[:30], deck[30:34], [], [], [], [], [], [], []], deck[34:])
    app = PatienceApp(Session(game))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lines = screen_lines(app)
        assert len(lines) == 21  # the status, message and command lines take three
        x = at(app, "c1")[0] - 1
        column = [line[x:x + 5].strip() for line in lines]
        assert column[4] == "+14"  # 14 cards under the 16 drawn
        top = game.piles[0][-1]
        from patience.cards import card_symbol

        assert column[-1] == card_symbol(top) and column[3] == "c1"
        await click(pilot, app, "c1", 1)  # the second card from the top is clickable
        assert "c1:2" in message(app) or app.session.game.move_stack


@synchronous
async def test_maine_coon_at_80_columns_shows_all_eight_foundations():
    app = PatienceApp(Session(find_variant("mainecoon").deal(1)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = "\n".join(screen_lines(app))
        for number in range(1, 9):
            assert f"f{number}" in text


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
        top = app.session.game.piles[variant.pile_index["p6"]][-1]
        await click(pilot, app, "p6")
        assert top not in app.session.game.piles[variant.pile_index["p6"]]
        await pilot.press("d")
        assert app.session.game.deals_left == variant.deals - 1


@synchronous
async def test_a_junk_save_file_is_announced_in_the_app_and_the_game_still_saved(
        data_directory):
    data_directory.mkdir(parents=True)
    junk = data_directory / "saves" / "tabbycat.json"
    junk.parent.mkdir()
    junk.write_text("{not json")
    app = PatienceApp(Session(find_variant("tabbycat").deal(1)))
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, TextScreen) and app.screen.title_text == "Before you play"
        assert app.screen.body.startswith(f"the saved game {str(junk)!r} is corrupt")
        assert "this game will be saved to a new file instead" in app.screen.body
        await pilot.press("enter", "d", "q")
    (fallback,) = data_directory.glob("save-*.json")
    assert junk.read_text() == "{not json"  # left untouched
    assert f"saved to {fallback} instead" in app.quit_message
    assert saves.read_save(fallback)["moves"] == ["d"]


# -- typed and pasted in one burst; the clock across a resume (issue #32) --


def burst(app: PatienceApp, *events_: events.Event) -> None:
    """Events arriving together, as the terminal hands over a paste or fast typing: all
    queued before the app handles the first."""
    for event in events_:
        event.set_sender(app)
        app._driver.send_message(event)


async def settle(pilot) -> None:
    for _ in range(10):
        await pilot.pause()


@synchronous
async def test_a_move_typed_in_one_burst_arrives_whole():
    app = PatienceApp(Session(find_variant("freecell").deal(1), record_stats=False))
    async with app.run_test(size=SIZE) as pilot:
        keys = [events.Key(character if character.isalnum() else _character_to_key(character),
                           character) for character in ":c1:1-c5"]
        burst(app, *keys, events.Key("enter", "\r"))
        await settle(pilot)
        game = app.session.game
        assert [game.notation(m) for m in game.move_stack] == ["c1:1-c5"]
        assert message(app) == ""
        await pilot.press("d")  # the board's keys work again after it
        assert "cannot" not in message(app) and app.query_one(Board).has_focus


@synchronous
async def test_a_pasted_move_arrives_whole_and_a_pasted_line_without_newline_waits():
    app = PatienceApp(Session(find_variant("freecell").deal(1), record_stats=False))
    async with app.run_test(size=SIZE) as pilot:
        burst(app, events.Paste(":c1:1-c5\nc7:1-c3\n"))
        await settle(pilot)
        assert [app.session.game.notation(m) for m in app.session.game.move_stack] == [
            "c1:1-c5", "c7:1-c3"]
        burst(app, events.Paste("c2:1-a"))  # no Enter: it waits on the command line
        await settle(pilot)
        assert app.query_one("#command").value == "c2:1-a"
        await pilot.press("enter")
        assert len(app.session.game.move_stack) == 3


@synchronous
async def test_the_clock_goes_on_after_a_resume(monkeypatch):
    real, ahead = time.monotonic, [0.0]
    monkeypatch.setattr(time, "monotonic", lambda: real() + ahead[0])
    app = PatienceApp(Session(find_variant("freecell").deal(1)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"c1:1-c5", "enter")
        ahead[0] += 71  # the player thinks for 71 seconds
        await pilot.press("q")
    resumed = PatienceApp(Session.from_save(saves.read_save(saves.save_path("freecell"))))
    async with resumed.run_test(size=SIZE) as pilot:
        await pilot.pause()
        status = str(resumed.query_one("#status").render())
        assert status.endswith(("1:11", "1:12")), status


@synchronous
async def test_a_sends_a_free_cell_card_home():
    app = PatienceApp(Session(position("freecell", c1="KH", a1="AS"), record_stats=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        assert message(app).startswith("auto-finish: a1:1-f")
        assert "home 1/52" in str(app.query_one("#status").render())


@synchronous
async def test_a_click_sends_the_safe_cards_home_and_o_turns_that_off():
    app = PatienceApp(Session(position("freecell", c1="ASKH", c3="2S"), record_stats=False))
    async with app.run_test(size=SIZE) as pilot:
        await click(pilot, app, "c1")  # the King goes to an empty column; A♠ 2♠ go home
        assert message(app) == "A♠ 2♠ went home by themselves"
        assert "home 2/52" in str(app.query_one("#status").render())
        await pilot.press("u")  # one step: 2♠ comes back
        assert app.session.game.pile("c3") == parse_cards("2S")
        await pilot.press("o")
        assert message(app).startswith("automatic moves home: off")
        await pilot.press("x", "r")  # restart, redo the King's move: nothing follows now
        assert app.session.game.pile("c1") == parse_cards("AS")


@synchronous
async def test_the_finish_is_offered_when_only_sending_cards_home_is_left():
    suited = ["".join(f"{rank}{suit}" for rank in "KQJT98765432A") for suit in "SDCH"]
    piles = dict(zip(("c1", "c2", "c3", "c5"), suited, strict=True))
    piles["c5"] = piles["c5"][:-2]  # A♥ waits in a free cell
    app = PatienceApp(Session(position("freecell", **piles, a1="AH"), record_stats=False,
                              auto_home=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*":c5:1-c4", "enter")  # 2♥ to the empty column
        assert message(app) == "only sending cards home is left: a finishes the game"
        await pilot.press("a")
        assert app.session.game.is_won() and "You won!" in message(app)


@synchronous
async def test_the_status_line_shows_the_score_the_variant_declares():
    app = PatienceApp(Session(find_variant("klondike-vegas").deal(1), record_stats=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        status = str(app.query_one("#status").render())
        assert "score -$52" in status and status.endswith("0:00")


@synchronous
async def test_a_pyramid_is_played_by_clicks_on_its_rows_and_the_waste_beside_the_stock():
    app = PatienceApp(Session(find_variant("giza").deal(1)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lines = screen_lines(app)
        apex, front = at(app, "p1"), at(app, "p22")
        assert front[1] == apex[1] + 12 and "K♣" in lines[front[1]]  # the front row
        await click(pilot, app, "p1")  # covered: it gives no card
        assert "covered" in message(app)
        await click(pilot, app, "p22")  # the King of clubs goes alone
        assert not app.session.game.piles[app.session.variant.pile_index["p22"]]
    app = PatienceApp(Session(find_variant("klondike").deal(1)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert screen_lines(app)[0].split()[:2] == ["s", "w"]
        stock = at(app, "w")[0] - board(app).current_layout().slot_width  # just left of it
        await pilot.click(Board, offset=(stock, at(app, "w")[1]))  # a click there deals
        await pilot.pause()
        assert app.session.game.piles[app.session.variant.pile_index["w"]]


@synchronous
async def test_a_table_taller_than_the_terminal_says_how_many_lines_it_needs():
    app = PatienceApp(Session(find_variant("double-pyramid").deal(7), record_stats=False))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        last = board(app).render().plain.splitlines()[-1]
        assert last.startswith("↕ this table needs 21 lines: make the terminal taller")
    app = PatienceApp(Session(find_variant("double-pyramid").deal(7), record_stats=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "↕" not in board(app).render().plain
