"""The page of ``patience serve`` in a real browser: Playwright driving Debian's chromium.

Skipped, with the reason, only when there is no chromium binary (``apt-get install
chromium``; CI installs it). Every test fails if the page asks for anything outside the
test server, logs a JavaScript error, or fails a request with a 5xx. Screenshots go to a
temporary folder (printed with ``-s``).
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
playwright_api = pytest.importorskip("playwright.sync_api")

from web_helpers import LITTLE_KLONDIKE, QUICK_WIN, ROOT, LiveServer, make_app

CHROMIUM = os.environ.get("PATIENCE_CHROMIUM") or shutil.which("chromium") or (
    "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary found (install "
                                "it with 'apt-get install -y chromium', or set "
                                "PATIENCE_CHROMIUM to one)")

SLACK = float(os.environ.get("PATIENCE_WEB_SLACK", "4"))
CARD_NAME = re.compile(r"((ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
                       r"(clubs|diamonds|hearts|spades)|face-down card|\d+ face-down cards), "
                       r"(column \d+|tail|waste|foundation \d+)(, \d+ cards)?")


# -- the server, the browser, a page --

@pytest.fixture(scope="module")
def data_directory(tmp_path_factory):
    path = tmp_path_factory.mktemp("web-data")
    old = os.environ.get("PATIENCE_DATA_DIR")
    os.environ["PATIENCE_DATA_DIR"] = str(path)
    yield path
    if old is None:
        os.environ.pop("PATIENCE_DATA_DIR", None)
    else:
        os.environ["PATIENCE_DATA_DIR"] = old


@pytest.fixture(scope="module")
def server(data_directory):
    app = make_app(data_directory, names=("tabbycat", LITTLE_KLONDIKE))
    variants = app.state.server.variants
    for key in variants:  # as 'patience serve' has by the time a browser asks (its warm-up)
        variants.definition(key)
    live = LiveServer(app)
    yield live
    live.stop()


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM,
                                              args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory):
    """Where screenshots go: ``PATIENCE_SCREENSHOTS`` (a folder, made if need be), else a
    temporary folder."""
    kept = os.environ.get("PATIENCE_SCREENSHOTS")
    folder = Path(kept) if kept else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots: {folder}")
    return folder


class Watch:
    """What a browser context did that a test must not see: requests leaving the server,
    failed requests, JavaScript errors."""

    def __init__(self, server: LiveServer | None, url: str = "") -> None:
        self.url = url or server.url
        self.outside: list[str] = []
        self.errors: list[str] = []

    def route(self, route) -> None:
        url = route.request.url
        if url.startswith(self.url + "/") or url == self.url:
            route.continue_()
        else:
            self.outside.append(url)
            route.abort()

    def attach(self, page) -> None:
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        page.on("console", lambda message: self.errors.append(f"console: {message.text}")
                if message.type == "error" and "409" not in message.text
                and "422" not in message.text else None)
        page.on("response", lambda response: self.errors.append(
            f"{response.status} {response.url}") if response.status >= 500 else None)

    def check(self) -> None:
        assert self.outside == [], f"the page asked for outside addresses: {self.outside}"
        assert self.errors == []


@pytest.fixture
def context_for(browser, server):
    made = []

    def make(url: str = "", **options):
        options.setdefault("viewport", {"width": 1280, "height": 720})
        context = browser.new_context(**options)
        watch = Watch(server, url)
        context.route("**/*", watch.route)
        made.append((context, watch))
        return context, watch

    yield make
    for context, watch in made:
        context.close()
    for context, watch in made:
        watch.check()


def open_page(context, watch, server, variant: str | None = None):
    page = context.new_page()
    watch.attach(page)
    page.goto(server.url + (f"/?variant={variant}" if variant else "/"))
    page.wait_for_selector("#board .card, #board .slot")
    page.evaluate("() => window.patience.queue")  # settled: the new game's 'safe' answered
    return page


@pytest.fixture
def page(context_for, server):
    context, watch = context_for()
    return open_page(context, watch, server, "tabbycat")


def version(page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


def wait_version(page, number: int) -> None:
    page.wait_for_function("n => +document.querySelector('#board').dataset.version === n",
                           arg=number)


def message(page) -> str:
    page.wait_for_function("() => document.getElementById('message').textContent !== ''")
    return page.locator("#message").inner_text()


def wait_message(page, pattern: str) -> str:
    page.wait_for_function("p => new RegExp(p).test(document.getElementById('message')"
                           ".textContent)", arg=pattern)
    return page.locator("#message").inner_text()


def start(page, variant: str, deal: str = "number", number: int = 1) -> None:
    """A new game through the New game panel."""
    page.locator("#new").click()
    page.locator("#variant").select_option(variant)
    page.locator(f'input[name="deal"][value="{deal}"]').check()
    if deal == "number":
        page.locator("#number").fill(str(number))
    old = page.locator("#board").get_attribute("data-game")
    page.locator("#new-start").click()
    page.wait_for_function("old => document.querySelector('#board').dataset.game !== old "
                           "&& !document.getElementById('new-dialog').open", arg=old,
                           timeout=30_000)


def card(page, name: str):
    return page.get_by_role("button", name=name, exact=True)


def pile_box(page, index: int):
    return page.locator(f'#board .pile[data-pile="{index}"]')


def drag(page, source, target_box, steps: int = 6, check=None) -> None:
    """Drag ``source`` (a locator) onto the middle of ``target_box`` with the mouse;
    ``check()`` runs while the card is held over the target."""
    start_box = source.bounding_box()
    end = target_box.bounding_box()
    page.mouse.move(start_box["x"] + start_box["width"] / 2, start_box["y"] + 4)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + 20, steps=steps)
    if check is not None:
        check()
    page.mouse.up()


# -- playing --

def test_click_to_move(page):
    start(page, "tabbycat", number=1)
    page.keyboard.press("d")
    wait_version(page, 1)
    card(page, "five of spades, column 2").click()
    wait_version(page, 2)
    assert card(page, "five of spades, column 4").is_visible()
    assert wait_message(page, "Five") == "Five of spades from column 2 to column 4."
    assert page.locator("#message").get_attribute("aria-live") == "polite"


def test_a_drag_onto_a_legal_and_onto_an_illegal_pile(page):
    start(page, "tabbycat", number=1)
    page.keyboard.press("d")
    wait_version(page, 1)
    # eight of diamonds on the jack of diamonds: refused, with the kernel's reason
    eight = card(page, "eight of diamonds, column 1")

    def lit():
        assert "legal" in pile_box(page, 4).get_attribute("class")  # the tail takes it
        assert "legal" not in pile_box(page, 2).get_attribute("class")
        assert page.locator(".drag .card").count() == 1

    drag(page, eight, pile_box(page, 2), check=lit)
    text = wait_message(page, "can't go on")
    assert text == "8♦ can't go on J♦: only a 10 goes there"
    assert version(page) == 1 and "error" in page.locator("#message").get_attribute("class")
    assert page.locator(".legal, .lifted, .drag").count() == 0
    drag(page, card(page, "eight of diamonds, column 1"), pile_box(page, 4))
    wait_version(page, 2)
    assert card(page, "eight of diamonds, tail").is_visible()


def test_a_pair_by_clicking_one_card_then_the_other_and_by_dragging(page):
    start(page, "giza", number=1)
    # the Jack of spades goes only in a pair: a click picks it, a click on a Two plays both
    card(page, "jack of spades, pyramid 26").click()
    assert wait_message(page, "Picked up").startswith("Picked up jack of spades")
    assert "legal" in pile_box(page, 29).get_attribute("class")  # reserve 2: two of hearts
    card(page, "two of hearts, reserve 2").click()
    wait_version(page, 1)
    assert wait_message(page, "Jack").startswith("Jack of spades from pyramid 26 and two of "
                                                 "hearts from reserve 2")
    # a King goes alone with one click; a pair by dragging one card onto the other
    card(page, "king of clubs, pyramid 22").click()
    wait_version(page, 2)
    drag(page, card(page, "three of hearts, reserve 5"), pile_box(page, 23))  # onto TH
    wait_version(page, 3)
    assert page.locator("#board .pile[data-pile='23'] .card").count() == 0


def test_deal_undo_and_redo_by_keyboard(page):
    start(page, "tabbycat", number=2)
    page.keyboard.press("d")
    wait_version(page, 1)
    assert page.locator("#status").inner_text().startswith("deals left 11")
    page.keyboard.press("u")
    wait_version(page, 2)
    assert page.locator("#status").inner_text().startswith("deals left 12")
    assert wait_message(page, "Undid") == "Undid the deal."
    page.keyboard.press("r")
    wait_version(page, 3)
    assert page.locator("#status").inner_text().startswith("deals left 11")
    page.keyboard.press("Control+z")
    wait_version(page, 4)
    page.keyboard.press("Control+y")
    wait_version(page, 5)
    assert page.locator("#status").inner_text() == "deals left 11 · sets 0/4 · moves 1"


def test_a_whole_move_with_tab_and_enter_and_no_mouse(page):
    start(page, "tabbycat", number=1)
    page.keyboard.press("d")
    wait_version(page, 1)
    page.locator("#board").evaluate("board => document.activeElement.blur()")
    names = []
    for _ in range(30):
        page.keyboard.press("Tab")
        name = page.evaluate("document.activeElement.getAttribute('aria-label') || "
                             "document.activeElement.textContent")
        names.append(name)
        if name == "five of spades, column 2":
            break
    else:
        pytest.fail(f"Tab never reached the five of spades: {names}")
    assert "stock, 44 cards, 11 deals left; press to deal" in names  # the stock is a stop
    page.keyboard.press("Enter")
    wait_version(page, 2)
    assert card(page, "five of spades, column 4").is_visible()
    # arrows: from column 2 to column 4's cards, then Space picks up, Space puts down
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == \
        "five of spades, column 4"
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == \
        "six of diamonds, column 4"
    page.keyboard.press("Space")
    assert "Picked up six of diamonds" in wait_message(page, "Picked")
    assert "legal" in pile_box(page, 4).get_attribute("class")
    page.keyboard.press("ArrowRight")  # the tail
    page.keyboard.press("Space")
    wait_version(page, 3)
    assert card(page, "six of diamonds, tail").is_visible()
    assert card(page, "five of spades, tail").is_visible()
    focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert focused is not None  # the focus stays on the table


def test_a_touch_tap(browser, context_for, server):
    context, watch = context_for(viewport={"width": 390, "height": 844}, has_touch=True,
                                 is_mobile=True)
    page = open_page(context, watch, server, "tabbycat")
    start(page, "tabbycat", number=1)
    card(page, "stock, 48 cards, 12 deals left; press to deal").tap()
    wait_version(page, 1)
    card(page, "five of spades, column 2").tap()
    wait_version(page, 2)
    assert card(page, "five of spades, column 4").is_visible()


def test_the_hint_is_shown_on_the_table(page):
    start(page, "tabbycat", number=1)
    page.keyboard.press("h")
    text = wait_message(page, "^Hint")
    assert re.fullmatch(r"Hint from the full deal: .+ \(.+\) — a win in \d+ moves\. .+", text)
    assert page.locator(".hint-target").count() == 1
    page.keyboard.press("Escape")
    assert page.locator(".hint-target, .hint-source").count() == 0
    page.get_by_role("button", name="Hint (what I see)").click()  # the other reading
    text = wait_message(page, "^Hint from what you see")
    assert re.fullmatch(r"Hint from what you see: .+ — it starts a win in \d of 8 guesses .+",
                        text)
    assert page.locator(".hint-target").count() == 1


def test_an_undecided_deal_gets_a_suggestion_on_the_table_within_a_second(context_for,
                                                                        server):
    # Klondike deal 12: undecided within 1,000,000 positions; the hint took 3 s and then
    # showed no move
    context, watch = context_for()
    page = open_page(context, watch, server, "klondike")
    start(page, "klondike", number=12)
    pressed = time.monotonic()
    page.keyboard.press("h")
    text = wait_message(page, "^Suggestion")
    assert time.monotonic() - pressed < 2.0
    assert re.fullmatch(r"Suggestion: .+ \(.+\) — the solver has not decided this position "
                        r"yet, so no win is known; Hint again searches longer\.", text)
    assert page.locator(".hint-target").count() == 1
    hinted = page.evaluate("() => window.patience.hint")
    assert hinted["suggestion"] and hinted["source"] >= 0
    before = version(page)
    source = page.locator("#board .card.hint-source").first
    code = source.get_attribute("data-code")
    source.click(position={"x": 20, "y": 4})
    wait_version(page, before + 1)  # the suggested card's click made the suggested move
    moved = page.locator(f'#board .pile[data-pile="{hinted["target"]}"] [data-code="{code}"]')
    assert moved.count() == 1


@pytest.mark.slow  # two page loads and a solve: 2-5 s
def test_the_daily_deal_is_the_same_on_two_loads(context_for, server):
    cards = []
    for _ in range(2):
        context, watch = context_for()
        page = open_page(context, watch, server, "tabbycat")
        start(page, "tabbycat-autoremove", deal="daily")
        title = page.locator("#title").inner_text()
        assert re.search(r"— daily deal \d{4}-\d\d-\d\d \(deal \d+\)$", title), title
        cards.append((title, [b.get_attribute("aria-label")
                              for b in page.locator("#board .card").all()]))
    assert cards[0] == cards[1]


@pytest.mark.slow  # a solve in the worker process: 2-5 s
def test_the_daily_deal_in_microsofts_numbering_is_chosen_in_the_new_dialog(context_for,
                                                                            server):
    context, watch = context_for()
    page = open_page(context, watch, server, "tabbycat")
    page.locator("#new").click()
    page.locator("#variant").select_option("tabbycat")
    assert page.locator("#numbering-choice").is_hidden()   # Tabby Cat has no other numbers
    page.locator("#variant").select_option("freecell")
    assert page.locator("#numbering-choice").is_visible()
    page.locator('input[name="deal"][value="daily"]').check()
    page.locator("#numbering").select_option("ms")
    page.locator("#new-start").click()
    page.wait_for_function("() => !document.getElementById('new-dialog').open",
                           timeout=60_000)
    title = page.locator("#title").inner_text()
    assert re.search(r"— daily deal \d{4}-\d\d-\d\d \(deal ms:\d+\)$", title), title


def test_the_game_is_intact_after_a_reload_and_a_server_restart(context_for, server,
                                                                 data_directory):
    context, watch = context_for()
    page = open_page(context, watch, server, "tabbycat")
    start(page, "tabbycat", number=4)
    page.keyboard.press("d")
    page.keyboard.press("d")
    wait_version(page, 2)
    board = page.locator("#board").inner_html()
    title = page.locator("#title").inner_text()
    page.reload()
    page.wait_for_selector("#board .card")
    assert page.locator("#title").inner_text() == title and version(page) == 2
    assert page.locator("#board").inner_html() == board
    server.stop()
    restarted = LiveServer(make_app(data_directory, names=("tabbycat", LITTLE_KLONDIKE)),
                           port=server.port)
    server.__dict__.update(restarted.__dict__)  # the module's server is the new one now
    page.reload()
    page.wait_for_selector("#board .card")
    assert page.locator("#title").inner_text() == title and version(page) == 2
    assert page.locator("#board").inner_html() == board
    page.keyboard.press("u")
    wait_version(page, 3)


def test_two_tabs_on_one_game(context_for, server):
    context, watch = context_for()
    first = open_page(context, watch, server, "tabbycat")
    start(first, "tabbycat", number=6)
    second = open_page(context, watch, server, "tabbycat")  # the same game, from storage
    assert second.locator("#title").inner_text() == first.locator("#title").inner_text()
    first.keyboard.press("d")
    wait_version(first, 1)
    second.keyboard.press("d")  # made at version 0: refused, and the table brought up to date
    text = wait_message(second, "another tab")
    assert text.startswith("this game has changed (version 1")
    wait_version(second, 1)
    assert second.locator("#status").inner_text() == first.locator("#status").inner_text()


def test_the_rules_the_statistics_and_the_keys(page):
    page.locator("#rules").click()
    page.wait_for_selector("#rules-dialog[open]")
    page.wait_for_function("() => document.getElementById('rules-text').textContent")
    assert page.locator("#rules-title").inner_text() == "Rules of Tabby Cat"
    page.keyboard.press("Escape")
    page.locator("#stats").click()
    page.wait_for_selector("#stats-dialog[open]")
    assert page.locator("#stats-table tr.current td").first.inner_text() == "Tabby Cat"
    page.keyboard.press("Escape")
    page.keyboard.press("?")
    page.wait_for_selector("#help-dialog[open]")
    assert "Space" in page.locator("#help-dialog").inner_text()


def test_face_down_cards_the_waste_and_redeals(context_for, server):
    context, watch = context_for()
    page = open_page(context, watch, server, "little-klondike")
    start(page, "little-klondike", number=1)
    assert card(page, "face-down card, column 2").is_visible()
    assert page.locator("#board .card.down").count() == 6
    assert page.locator("#board .card.down [class='rank']").count() == 0
    stock = page.locator("#board .stock")
    assert stock.get_attribute("aria-label") == \
        "stock, 10 cards, 4 deals left, 2 redeals left; press to deal"
    for number in range(1, 5):
        stock.click()
        wait_version(page, number)
    assert page.locator('#board .pile[data-pile="4"] .card').count() == 10  # the waste
    assert stock.get_attribute("aria-label") == \
        "stock, empty, 2 redeals left; press to deal"
    stock.click()
    wait_version(page, 5)
    assert wait_message(page, "Turned") == \
        "Turned the waste back into the stock; 10 cards in the stock."
    names = [b.get_attribute("aria-label") for b in page.locator("#board .card").all()]
    assert all(CARD_NAME.fullmatch(name) for name in names), names


HINTED = """() => {
  const box = (element) => element && element.getBoundingClientRect();
  const stock = document.querySelector("#board .stock.hint-target");
  if (stock) return {stock: true};
  const source = box(document.querySelector(".card.hint-source"));
  const target = box(document.querySelector(".pile.hint-target"));
  return {x: source.x + source.width / 2, y: source.y + 4,
          tx: target.x + target.width / 2, ty: target.y + 20};
}"""


def follow_hints(page, limit: int) -> int:
    """Play the hinted move until the game is won: a drag (with the mouse) from the
    highlighted cards onto the highlighted pile, or a click on the highlighted stock. The
    number of moves made."""
    for moves in range(limit):
        if page.locator("#end").count():
            return moves
        before = version(page)
        page.keyboard.press("h")
        page.wait_for_function("() => window.patience.hint !== null")
        hinted = page.evaluate(HINTED)
        if hinted.get("stock"):
            page.locator("#board .stock").click()
        else:
            page.mouse.move(hinted["x"], hinted["y"])
            page.mouse.down()
            page.mouse.move(hinted["tx"], hinted["ty"], steps=2)
            page.mouse.up()
        try:
            wait_version(page, before + 1)
        except playwright_api.TimeoutError:
            hint = page.evaluate("JSON.stringify(window.patience.hint)")
            pytest.fail(f"move {moves + 1}: the hinted move {hint} was not made: "
                        f"{page.locator('#message').inner_text()!r}")
    pytest.fail(f"not won after {limit} moves")


@pytest.mark.slow
def test_a_tabby_cat_deal_won_through_the_page_by_following_hints(page, screenshots):
    variant, number = QUICK_WIN
    start(page, variant, number=number)
    started = time.monotonic()
    moves = follow_hints(page, 300)
    assert page.locator("#end").inner_text().startswith("You won!")
    assert "You won!" in page.locator("#message").inner_text()
    page.screenshot(path=str(screenshots / "won-tabbycat.png"))
    print(f"\nwon {variant} deal {number} in {moves} moves through the page in "
          f"{time.monotonic() - started:.1f} s")


TAP_HINTED = """() => {
  const hint = window.patience.hint;
  if (document.querySelector("#board .stock.hint-target")) return {stock: true, hint};
  return {stock: false, hint};
}"""


@pytest.mark.slow
@pytest.mark.parametrize("variant, number", [("klondike", 2), ("freecell", 1)])
def test_a_deal_won_on_a_phone_by_tapping_the_hinted_cards_and_the_finish(
        context_for, server, screenshots, variant, number):
    # each hinted card is tapped (a tap on it makes the hinted move); no card goes home by
    # hand at the end: the safe moves go home by themselves, and Finish plays the rest
    context, watch = context_for(viewport={"width": 390, "height": 844}, has_touch=True,
                                 is_mobile=True)
    page = open_page(context, watch, server, variant)
    start(page, variant, number=number)
    last = None
    for _ in range(400):
        if page.locator("#end, #finish").count():
            break
        before = version(page)
        page.locator("#hint").tap()
        page.wait_for_function("() => window.patience.hint !== null")
        hinted = page.evaluate(TAP_HINTED)
        assert not hinted["hint"]["suggestion"]  # a winnable deal: a move of a win
        if hinted["stock"]:
            page.locator("#board .stock").tap()
        else:  # on the strip of the card that shows (the cards on it cover the rest)
            box = page.locator("#board .card.hint-source").first.bounding_box()
            page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + 4)
        wait_version(page, before + 1)
        last = hinted["hint"]["notation"]
    else:
        pytest.fail(f"{variant} deal {number} not won after 400 taps")
    if page.locator("#finish").count():
        page.locator("#finish").tap()
        page.wait_for_selector("#end")
    assert last is not None and not last.endswith("-f")  # the last card tapped stayed out
    summary = page.locator("#end").inner_text()
    assert re.match(r"You won! \d+ moves, \d+:\d\d\. You have won \d+ of \d+ games? "
                    r"\(\d+%\), streak \d+ \(best \d+\)", summary), summary
    page.screenshot(path=str(screenshots / f"won-{variant}-390x844.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_timeout(200)
    page.screenshot(path=str(screenshots / f"won-{variant}-1280x800.png"))


@pytest.mark.slow
def test_a_little_klondike_deal_won_through_the_page(context_for, server):
    context, watch = context_for()
    page = open_page(context, watch, server, "little-klondike")
    start(page, "little-klondike", number=1)
    follow_hints(page, 200)
    assert page.locator("#end").inner_text().startswith("You won!")


@pytest.mark.slow
def test_a_klondike_deal_won_through_the_page(context_for, server):
    from patience import find_variant
    from patience.solver import first_winnable_deal

    number, _ = first_winnable_deal(find_variant("klondike"), 1, 200_000, 20)
    context, watch = context_for()
    page = open_page(context, watch, server, "klondike")
    start(page, "klondike", number=number)
    follow_hints(page, 600)
    assert page.locator("#end").inner_text().startswith("You won!")


def test_a_lost_game_says_so(page, server):
    from patience import Game, find_variant
    from patience.cards import parse_cards

    game = Game(find_variant("tabbycat"), [parse_cards(c) for c in
                ("5C", "9D", "2H", "JS 7C", "", "", "", "", "")], [])
    web_game = server.app.state.server.store.create("tabbycat", game)
    page.evaluate("id => localStorage.setItem('patience.game.tabbycat', id)", web_game.id)
    page.reload()
    page.wait_for_selector("#board .card")
    drag(page, card(page, "seven of clubs, column 4"), pile_box(page, 4))
    page.wait_for_selector("#end")
    assert page.locator("#end").inner_text().startswith("No move is left")
    page.locator("#end button", has_text="Where did I lose?").click()
    page.wait_for_selector("#review-dialog[open]")
    assert page.locator("#review-text").inner_text()


# -- how it looks --

@pytest.mark.parametrize("width, height", [(1280, 720),
                                           pytest.param(390, 844, marks=pytest.mark.slow)])
def test_every_pile_of_a_two_deck_game_is_visible(context_for, server, screenshots, width,
                                                  height):
    context, watch = context_for(viewport={"width": width, "height": height})
    page = open_page(context, watch, server, "tabbycat")
    start(page, "mainecoon", number=3)
    for number in range(1, 26):  # every card out: long columns
        page.keyboard.press("d")
    wait_version(page, 25)
    boxes = page.locator("#board .pile").all()
    assert len(boxes) == 14  # stock, 4 columns, tail, 8 foundations
    for box in boxes:
        outline = box.bounding_box()
        assert outline["x"] >= 0 and outline["y"] >= 0
        assert outline["x"] + outline["width"] <= width
        assert outline["y"] + outline["height"] <= height
        top = box.locator(".card, .slot, .stock").last.bounding_box()
        assert top["y"] + top["height"] <= height - 40  # above the footer
    rank = page.locator("#board .card[data-depth='0'] .rank").first.bounding_box()
    assert rank["height"] >= 12  # the top card's rank reads on a phone
    page.screenshot(path=str(screenshots / f"mainecoon-{width}x{height}.png"))


def luminance(rgb: str) -> float:
    channels = [int(v) / 255 for v in re.findall(r"\d+", rgb)[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def card_contrasts(page) -> list[float]:
    """The contrast of a red and of a black card's rank on its face, as drawn."""
    fills = page.evaluate("""() => ["svg.red", "svg.black"].map(colour => {
        const svg = document.querySelector(`#board .card ${colour}`);
        return [getComputedStyle(svg.querySelector(".face")).fill,
                getComputedStyle(svg.querySelector(".rank")).fill];
    })""")
    ratios = []
    for face, colour in fills:
        light, dark = sorted((luminance(face), luminance(colour)), reverse=True)
        ratios.append((light + 0.05) / (dark + 0.05))
    return ratios


def test_red_and_black_contrast_and_reduced_motion(browser, context_for, server, screenshots):
    context, watch = context_for(reduced_motion="reduce")
    page = open_page(context, watch, server, "tabbycat")
    start(page, "tabbycat", number=1)
    page.keyboard.press("d")
    wait_version(page, 1)
    assert min(card_contrasts(page)) >= 4.5
    page.keyboard.press("h")
    page.wait_for_selector(".hint-target")
    animated = page.locator(".hint-source, .hint-target").first.evaluate(
        "e => getComputedStyle(e).animationName")
    assert animated == "none"
    page.screenshot(path=str(screenshots / "tabbycat-1280x720.png"))


@pytest.fixture
def served_by_the_command(tmp_path):
    """``patience serve`` in a process of its own (so that the test's browser driver does
    not share the server's interpreter), and its address."""
    environment = {**os.environ, "PATIENCE_DATA_DIR": str(tmp_path),
                   "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    process = subprocess.Popen([sys.executable, "-m", "patience", "serve", "tabbycat",
                                "--port", "0"], env=environment, stderr=subprocess.PIPE,
                               text=True)
    try:
        line = process.stderr.readline()
        assert line.startswith("patience: playing at "), line
        yield line.split()[3].partition("/?")[0]
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.mark.slow  # a server process of its own and timings: 5-13 s
def test_a_move_is_fast_and_the_page_is_small_and_quick(context_for, served_by_the_command):
    url = served_by_the_command
    context, watch = context_for(url)
    page = context.new_page()
    watch.attach(page)
    sizes = []
    page.on("response", lambda response: sizes.append(len(response.body()))
            if response.ok else None)
    page.goto(url + "/?variant=tabbycat")
    page.wait_for_selector("#board .card")
    paint = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]"
                          ".startTime")
    drawn = page.evaluate("window.patience.firstDrawn")
    loaded = sum(sizes)
    start(page, "tabbycat", number=1)
    page.keyboard.press("d")
    wait_version(page, 1)
    page.evaluate("window.patience.timings.length = 0")
    for number in range(2, 42, 2):
        card(page, "five of spades, column 2").click()
        wait_version(page, number)
        page.keyboard.press("u")
        wait_version(page, number + 1)
    timings = page.evaluate("window.patience.timings")
    total = [request + render for request, render in timings]
    print(f"\nfirst contentful paint {paint:.0f} ms, table drawn at {drawn:.0f} ms, "
          f"page and first game {loaded / 1024:.1f} KiB; a move: median "
          f"{statistics.median(total):.1f} ms "
          f"(request {statistics.median(t[0] for t in timings):.1f}"
          f" + draw {statistics.median(t[1] for t in timings):.1f}), max {max(total):.1f} ms "
          f"over {len(total)}")
    assert loaded < 200 * 1024
    # the budgets are 1 s to the first paint and 50 ms a move (request and drawing); a
    # shared 2-core machine running other tests may be several times slower, so the test
    # fails only past SLACK times the budget and prints what it measured
    assert paint < 1000 * SLACK and drawn < 1000 * SLACK
    assert statistics.median(total) < 50 * SLACK


# -- automatic moves home and the finish (issue #32) --

def open_created(context, watch, server, key: str, game):
    """A page on ``game`` (a position made for the test), as if this browser had begun it."""
    web_game = server.app.state.server.store.create(key, game)
    page = open_page(context, watch, server, key)
    page.evaluate("([key, id]) => localStorage.setItem(`patience.game.${key}`, id)",
                  [key, web_game.id])
    page.reload()
    page.wait_for_function("id => document.querySelector('#board').dataset.game === id",
                           arg=web_game.id)
    return page


def freecell_position(**piles: str):
    from patience import Game, find_variant
    from patience.cards import parse_cards

    variant = find_variant("freecell")
    return Game(variant, [parse_cards(piles.get(p, "")) for p in variant.pile_names], [])


def test_the_safe_cards_go_home_by_themselves_and_the_toggle_is_remembered(context_for,
                                                                            server):
    context, watch = context_for()
    page = open_created(context, watch, server, "freecell",
                        freecell_position(c1="AS KH", c3="2S"))
    toggle = page.locator("#auto")
    assert toggle.get_attribute("aria-pressed") == "true"
    card(page, "king of hearts, column 1").click()
    wait_version(page, 1)
    wait_message(page, "Ace of spades went home by itself. Two of spades went home by itself")
    home = page.get_by_role("button", name=re.compile("^two of spades, foundation 1"))
    assert home.count() == 1
    page.keyboard.press("u")  # one step: the Two comes back
    wait_version(page, 2)
    assert card(page, "two of spades, column 3").count() == 1
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "false" and "off" in toggle.inner_text()
    page.reload()
    page.wait_for_selector("#board .card")
    assert page.locator("#auto").get_attribute("aria-pressed") == "false"
    card(page, "two of spades, column 3").click()  # off: it goes where a click goes, alone
    wait_version(page, 3)
    assert "went home by itself" not in message(page)


def test_the_finish_button_plays_the_rest_out(context_for, server):
    suited = {s: " ".join(f"{r}{s}" for r in "KQJT98765432A") for s in "SDCH"}
    context, watch = context_for()
    page = open_created(context, watch, server, "freecell", freecell_position(
        c1=suited["S"], c2=suited["D"], c3=suited["C"], c4=suited["H"][:-3], a1="AH"))
    page.wait_for_selector("#finish")
    assert "Only sending the cards home is left" in page.locator("#finish-offer").inner_text()
    page.locator("#finish").click()
    page.wait_for_selector("#end")
    summary = page.locator("#end").inner_text()
    assert re.match(r"You won! 52 moves, 0:0\d\.", summary), summary
    clock = page.locator("#clock").inner_text()
    page.wait_for_timeout(1500)
    assert page.locator("#clock").inner_text() == clock  # it stands while the game is over
    page.locator("#stats").click()
    page.wait_for_selector("#stats-dialog[open] #stats-table tr.current")
    row = page.locator("#stats-table tr.current td").all_inner_texts()
    assert row[0] == "FreeCell" and row[3].endswith("%") and re.fullmatch(r"\d+:\d\d", row[6])
    assert row[8] == "52"  # the fewest moves of a win: this one
    page.locator("#stats-dialog .close").click()
    page.keyboard.press("u")
    page.wait_for_selector("#finish")  # undone: the offer is back


@pytest.mark.slow  # seconds: it waits for the clock to move
def test_the_clock_goes_on_after_a_reload(context_for, server):
    game = freecell_position(c1="AS KH", c3="2S")
    web_game = server.app.state.server.store.create("freecell", game)
    web_game.session.seconds_before = 3725  # an hour, two minutes and five seconds played
    context, watch = context_for()
    page = open_page(context, watch, server, "freecell")
    page.evaluate("id => localStorage.setItem('patience.game.freecell', id)", web_game.id)
    page.reload()
    page.wait_for_function("id => document.querySelector('#board').dataset.game === id",
                           arg=web_game.id)
    assert re.fullmatch(r"1:02:0\d", page.locator("#clock").inner_text())
    page.wait_for_function("() => document.getElementById('clock').textContent >= '1:02:07'")


# -- on a phone (issue #32) --

RANK_BOXES = """() => {
    // each face-up card's rank glyph box, and the top of the card lying on it (if any)
    const out = [];
    for (const pile of document.querySelectorAll('#board .pile')) {
        const cards = [...pile.querySelectorAll('.card')];
        cards.forEach((card, i) => {
            const rank = card.querySelector('.rank');
            if (!rank) return;
            const box = rank.getBoundingClientRect();
            const cover = cards[i + 1] ? cards[i + 1].getBoundingClientRect().top : Infinity;
            out.push({code: card.dataset.code, top: box.top, bottom: box.bottom,
                      height: box.height, cover, width: card.getBoundingClientRect().width});
        });
    }
    return out;
}"""


def test_freecell_on_a_phone_has_its_cells_beside_the_foundations_and_legible_ranks(
        context_for, server, screenshots):
    context, watch = context_for(viewport={"width": 390, "height": 844})
    page = open_page(context, watch, server, "tabbycat")
    start(page, "freecell", number=1)
    rows = page.evaluate("""() => [...document.querySelectorAll('#board .row')].map(row =>
        [...row.querySelectorAll(':scope > .pile')].map(p => {
            const box = p.getBoundingClientRect();
            return {pile: p.dataset.pile, left: box.left, right: box.right};
        }))""")
    assert [len(row) for row in rows] == [8, 8]  # 4 cells + 4 foundations, then 8 columns
    for row in rows:
        assert row[0]["left"] >= 0 and row[-1]["right"] <= 390
        for before, after in itertools.pairwise(row):
            assert before["right"] <= after["left"]  # side by side, never overlapping
    ranks = page.evaluate(RANK_BOXES)
    assert len(ranks) == 52
    for rank in ranks:
        assert rank["width"] >= 36, rank  # not the 26-px cards of one shared row
        assert rank["height"] >= 11, rank
        assert rank["bottom"] <= rank["cover"] + 0.5, rank  # J's and Q's tails not cut off
    page.screenshot(path=str(screenshots / "freecell-390x844.png"))


# -- dark theme, the last deal number, face-down runs heard once (issue #32) --

def test_the_dark_theme_follows_the_system_and_the_toggle_and_cards_keep_their_contrast(
        context_for, server, screenshots):
    context, watch = context_for(color_scheme="dark")
    page = open_page(context, watch, server, "tabbycat")
    start(page, "klondike", number=1)
    background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert luminance(background) < 0.03  # dark, as the system asks
    dialog_ink = page.evaluate("""() => getComputedStyle(document.getElementById('rules-dialog'))
                                  .color""")
    assert luminance(dialog_ink) > 0.7  # light words on the dark panels
    red, black = card_contrasts(page)
    assert red >= 5.5 and black >= 14  # as docs/playing.md says
    page.screenshot(path=str(screenshots / "klondike-dark.png"))
    page.locator("#theme").click()  # system → dark → light
    page.locator("#theme").click()
    assert page.locator("#theme").inner_text() == "Theme: light"
    assert luminance(page.evaluate("() => getComputedStyle(document.body).backgroundColor")) \
        > 0.05
    page.reload()
    page.wait_for_selector("#board .card")
    assert page.evaluate("() => document.documentElement.dataset.theme") == "light"


def test_the_new_game_panel_remembers_the_last_deal_number(page):
    start(page, "tabbycat", number=4242)
    page.reload()
    page.wait_for_selector("#board .card")
    page.locator("#new").click()
    assert page.locator("#number").input_value() == "4242"
    page.locator("#new-dialog .close").click()


def test_a_face_down_run_is_heard_as_one_item(page):
    start(page, "klondike", number=1)
    down = page.get_by_role("button", name=re.compile("face-down card"))
    names = [down.nth(i).get_attribute("aria-label") for i in range(down.count())]
    assert names == ["face-down card, column 2"] + [
        f"{n} face-down cards, column {n + 1}" for n in range(2, 7)]  # not 21 buttons
    seven = page.get_by_role("button", name="6 face-down cards, column 7")
    seven.focus()
    page.keyboard.press("ArrowDown")  # to the face-up card on the run
    assert page.evaluate("() => document.activeElement.dataset.depth") == "0"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")  # the run is one stop: no further
    assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") == \
        "6 face-down cards, column 7"


def test_turning_the_automatic_moves_on_sends_what_is_safe_now(context_for, server):
    context, watch = context_for()
    page = open_created(context, watch, server, "freecell",
                        freecell_position(c1="KH", c2="AS"))
    if page.locator("#auto").get_attribute("aria-pressed") == "true":
        page.locator("#auto").click()  # off (a page of this browser may have left it on)
    assert version(page) == 0
    page.locator("#auto").click()
    wait_version(page, 1)
    wait_message(page, "Ace of spades went home by itself")
