"""The page draws each table from its layout data (issue #31 §3, #32), in a real browser at
1280×800 and on a 390×844 touch phone: Giza's pyramid and Three Peaks' peaks as overlapping
rows, a grid as a grid, many short fans in rows that fit, Eight Off's twelve top piles on a
phone; the rank of every face-up card readable and never cut off by the card on it."""

from __future__ import annotations

import itertools
import math

import pytest

pytest.importorskip("starlette")
pytest.importorskip("playwright.sync_api")

import test_web_browser as browser_tests
from test_web_browser import RANK_BOXES, card, drag, open_page, pile_box, start, wait_version
from web_helpers import LiveServer, make_app

from patience import find_variant

# the browser, the server and the page helpers of the page's own tests
pytestmark = browser_tests.pytestmark
browser = browser_tests.browser
context_for = browser_tests.context_for
data_directory = browser_tests.data_directory
screenshots = browser_tests.screenshots
server = browser_tests.server

SCREENS = {"desktop": {"viewport": {"width": 1280, "height": 800}},
           "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True,
                     "is_mobile": True}}

PILES = """() => [...document.querySelectorAll('#board .pile')].map(p => {
    const box = p.getBoundingClientRect();
    const top = p.querySelector('.card[data-depth="0"], .slot, .stock');
    return {pile: p.dataset.pile, left: box.left, top: box.top, right: box.right,
            bottom: box.bottom, width: top ? top.getBoundingClientRect().width : 0};
})"""


def piles_by_number(page) -> dict[int, dict]:
    return {int(p["pile"]): p for p in page.evaluate(PILES) if p["pile"] != "stock"}


def open_variant(context_for, server, screen: str, variant: str, number: int = 1):
    context, watch = context_for(**SCREENS[screen])
    page = open_page(context, watch, server, "tabbycat")
    start(page, variant, number=number)
    return page


def assert_inside(page, piles, screen: str) -> None:
    width = SCREENS[screen]["viewport"]["width"]
    footer = page.locator("footer").bounding_box()["y"]
    for pile in piles:
        assert pile["left"] >= 0 and pile["right"] <= width + 0.5, pile
        assert pile["top"] >= 0 and pile["bottom"] <= footer + 0.5, pile


def assert_overlap_layout(page, variant: str) -> None:
    """Each pile of the overlap group at its x (half-card units), each row lower than the
    one behind it and lying on it; a covered card's rank shows, its lower part is under
    the cards covering it."""
    arrangement = find_variant(variant).groups[0].arrangement
    rows = arrangement.rows
    piles = piles_by_number(page)
    first = piles[0]
    width = first["right"] - first["left"]
    xs = [x for row in rows for x in row]
    half = (piles[1]["left"] - first["left"]) / (xs[1] - xs[0])
    assert width / 2 <= half <= width / 2 + 2  # half a card (and a hair) apart
    for number, x in enumerate(xs):
        assert abs(piles[number]["left"] - first["left"] - half * (x - xs[0])) < 1.5
        for over in arrangement.covering(number):  # lower, and lying on it
            assert piles[number]["top"] + 0.2 * width < piles[over]["top"] < \
                piles[number]["top"] + 1.4 * width
    covered = page.evaluate("""() => [...document.querySelectorAll('#board .card')]
        .filter(c => c.getAttribute('aria-label').endsWith(', covered')).map(c => {
            const box = c.getBoundingClientRect();
            const rank = c.querySelector('.rank').getBoundingClientRect();
            const at = (x, y) => document.elementFromPoint(x, y).closest('.card');
            const middle = at(rank.left + rank.width / 2, rank.top + rank.height / 2);
            const under = [0.25, 0.75].every(
                f => at(box.left + f * box.width, box.bottom - 3) !== c);
            return {label: c.getAttribute("aria-label"), index: middle === c, under};
        })""")
    bad = [c for c in covered if not (c["index"] and c["under"])]
    assert covered and not bad, bad
    assert len(covered) == sum(len(r) for r in rows[:-1])  # every pile but the front row


@pytest.mark.parametrize("screen", SCREENS)
def test_gizas_pyramid_is_drawn_as_overlapping_rows_and_still_plays(context_for, server,
                                                                    screen):
    page = open_variant(context_for, server, screen, "giza")
    assert_overlap_layout(page, "giza")
    assert_inside(page, page.evaluate(PILES), screen)
    # the front row gives its cards: a pair by a click on each, a King alone, a drag
    card(page, "jack of spades, pyramid 26").click()
    card(page, "two of hearts, reserve 2").click()
    wait_version(page, 1)
    card(page, "king of clubs, pyramid 22").click()
    wait_version(page, 2)
    drag(page, card(page, "three of hearts, reserve 5"), pile_box(page, 23))
    wait_version(page, 3)
    # each card says "covered" exactly when the kernel says its pile gives no card
    said = page.evaluate("""() => window.patience.snap.piles.map((pile, n) => [pile.covered,
        [...document.querySelectorAll(`#board .pile[data-pile="${n}"] .card`)].map(
            c => c.getAttribute('aria-label').endsWith(', covered'))])""")
    assert all(all(flag == covered for flag in flags) for covered, flags in said)
    assert sum(covered for covered, _ in said) == 21  # p22, p24, p26 gone: none bared yet


def test_the_keyboard_reaches_every_pile_of_an_overlap_layout(context_for, server):
    page = open_variant(context_for, server, "desktop", "three-peaks-open")
    page.locator("#board .stock").focus()
    seen = []
    for _ in range(40):
        seen.append(page.evaluate("document.activeElement.getAttribute('aria-label')"))
        page.keyboard.press("ArrowRight")
    free = [name for name in seen if "peak" in name and not name.endswith(", covered")]
    assert len({name for name in seen if "peak" in name}) == 28  # every peak pile
    assert len(set(free)) == 10  # the front row, heard without "covered"


@pytest.mark.parametrize("screen", SCREENS)
def test_three_peaks_are_overlapping_rows_that_fit_the_screen(context_for, server, screen,
                                                              screenshots):
    page = open_variant(context_for, server, screen, "three-peaks-open")
    assert_overlap_layout(page, "three-peaks-open")
    piles = page.evaluate(PILES)
    assert_inside(page, piles, screen)
    assert min(p["width"] for p in piles) >= (33 if screen == "phone" else 80)
    page.screenshot(path=str(screenshots / f"three-peaks-{screen}.png"))


def lines_of(piles: list[dict]) -> list[list[dict]]:
    """Piles grouped by the top of their box, top to bottom, each line left to right."""
    found: dict[int, list[dict]] = {}
    for pile in piles:
        found.setdefault(round(pile["top"]), []).append(pile)
    return [sorted(line, key=lambda p: p["left"]) for _, line in sorted(found.items())]


@pytest.mark.parametrize("screen", SCREENS)
def test_accordions_52_piles_wrap_into_rows_that_fit(context_for, server, screen):
    page = open_variant(context_for, server, screen, "accordion")
    piles = [p for p in page.evaluate(PILES) if p["pile"] != "stock"]
    assert len(piles) == 52
    assert_inside(page, piles, screen)
    lines = lines_of(piles)
    assert len(lines) >= 4
    assert [int(p["pile"]) for line in lines for p in line] == list(range(52))  # in order
    for line in lines:
        for before, after in itertools.pairwise(line):
            assert before["right"] <= after["left"]
    assert min(p["width"] for p in piles) >= 44
    ranks = page.evaluate(RANK_BOXES)
    assert len(ranks) == 52 and min(r["height"] for r in ranks) >= 11


@pytest.fixture(scope="module")
def grid_server(data_directory, tmp_path_factory):
    folder = tmp_path_factory.mktemp("grid")
    path = folder / "grid-of-52.yaml"
    path.write_text("id: grid-of-52\nname: Grid of 52\nextends: lineup\nranks: 13\n"
                    "parameters:\n  out: 13\npiles:\n  grid:\n    count: 52\n"
                    "    layout: {rows: 4, columns: 13}\n")
    live = LiveServer(make_app(data_directory, names=(str(path), "lineup")))
    yield live
    live.stop()


@pytest.mark.parametrize("screen", SCREENS)
def test_a_grid_is_drawn_as_its_rows_and_columns(context_for, grid_server, screen):
    context, watch = context_for(grid_server.url, **SCREENS[screen])
    page = open_page(context, watch, grid_server, "grid-of-52")
    piles = piles_by_number(page)
    grid = [piles[n] for n in range(52)]
    assert_inside(page, grid, screen)
    lines = lines_of(grid)
    assert [[int(p["pile"]) for p in line] for line in lines] == \
        [list(range(13 * r, 13 * r + 13)) for r in range(4)]  # 4 rows of 13, row by row
    for column in range(13):
        assert len({round(line[column]["left"]) for line in lines}) == 1  # columns line up
    ranks = page.evaluate(RANK_BOXES)
    assert min(r["height"] for r in ranks) >= 11  # rank and suit read on a phone too
    assert all(r["bottom"] <= r["cover"] + 0.5 for r in ranks)


@pytest.mark.parametrize("screen", SCREENS)
def test_many_short_fans_stand_in_rows_that_fit(context_for, server, screen, screenshots):
    page = open_variant(context_for, server, screen, "la-belle-lucie")
    piles = piles_by_number(page)
    fans = [piles[n] for n in range(18)]
    assert_inside(page, list(piles.values()), screen)
    lines = lines_of(fans)
    # not one row of 18 cards 17 pixels wide on a phone, 62 on a desktop
    assert len(lines) >= (3 if screen == "phone" else 2)
    for line in lines:
        for before, after in itertools.pairwise(line):
            assert before["right"] <= after["left"]
    assert min(p["width"] for p in fans) >= (58 if screen == "phone" else 90)
    ranks = page.evaluate(RANK_BOXES)
    assert len(ranks) == 52
    for rank in ranks:
        assert rank["height"] >= 11 and rank["bottom"] <= rank["cover"] + 0.5, rank


def test_eight_off_fits_a_phone_with_twelve_top_piles_and_readable_ranks(context_for, server,
                                                                        screenshots):
    page = open_variant(context_for, server, "phone", "eight-off")
    piles = piles_by_number(page)
    assert_inside(page, list(piles.values()), "phone")
    names = find_variant("eight-off").pile_names
    top = [p for n, p in piles.items() if names[n][0] in "af"]
    assert len(top) == 12
    for first, second in itertools.combinations(top, 2):  # none on another
        assert first["right"] <= second["left"] or second["right"] <= first["left"] or \
            first["bottom"] <= second["top"] or second["bottom"] <= first["top"]
    assert min(p["width"] for p in piles.values()) >= 40
    columns = lines_of([p for n, p in piles.items() if names[n][0] == "c"])
    assert [len(line) for line in columns] == [8]  # the columns stay one row
    ranks = page.evaluate(RANK_BOXES)
    assert len(ranks) == 52
    for rank in ranks:
        assert rank["height"] >= 11 and rank["bottom"] <= rank["cover"] + 0.5, rank


def centre_of_box(pile: dict) -> tuple[float, float]:
    return (pile["left"] + pile["right"]) / 2, (pile["top"] + pile["bottom"]) / 2


def assert_clock_face(piles: dict[int, dict], ring: list[int], hours: list[int],
                      centre: list[int]) -> None:
    """The piles of ``ring`` stand round the centre piles at their hours, clockwise, on an
    ellipse (a circle where it fits), none on another: twelve o'clock straight above the
    middle, three to its right, six below, nine to its left."""
    middle_x = sum(centre_of_box(piles[p])[0] for p in centre) / len(centre) if centre else \
        sum(centre_of_box(piles[p])[0] for p in ring) / len(ring)
    middle_y = sum(centre_of_box(piles[p])[1] for p in centre) / len(centre) if centre else \
        sum(centre_of_box(piles[p])[1] for p in ring) / len(ring)
    at = {hour % 12: centre_of_box(piles[pile]) for pile, hour in zip(ring, hours)}
    across, down = (at[3][0] - at[9][0]) / 2, (at[6][1] - at[0][1]) / 2  # an ellipse's radii
    assert across > 0 and down > 0
    angles = {hour: math.degrees(math.atan2((x - middle_x) / across,
                                            (middle_y - y) / down)) % 360
              for hour, (x, y) in at.items()}
    for hour, angle in angles.items():  # each within a quarter of an hour of its place
        assert min(abs(angle - 30 * hour), 360 - abs(angle - 30 * hour)) < 8, (hour, angle)
    boxes = [piles[p] for p in ring + centre]
    for first, second in itertools.combinations(boxes, 2):  # none on another
        assert first["right"] <= second["left"] or second["right"] <= first["left"] or \
            first["bottom"] <= second["top"] or second["bottom"] <= first["top"]
    for pile in centre:  # the middle of the face: inside the ring on every side
        assert piles[ring[8]]["right"] <= piles[pile]["left"]    # nine o'clock to its left
        assert piles[pile]["right"] <= piles[ring[2]]["left"]    # three o'clock to its right
        assert piles[ring[11]]["bottom"] <= piles[pile]["top"]   # twelve o'clock above
        assert piles[pile]["bottom"] <= piles[ring[5]]["top"]    # six o'clock below


@pytest.mark.parametrize("screen", SCREENS)
def test_clock_is_drawn_as_a_clock_face_and_still_plays(context_for, server, screen,
                                                        screenshots):
    page = open_variant(context_for, server, screen, "clock", number=2)
    piles = piles_by_number(page)
    assert len(piles) == 14
    assert_inside(page, list(piles.values()), screen)
    assert_clock_face(piles, list(range(12)), list(range(1, 13)), [12, 13])
    assert min(p["width"] for p in piles.values()) >= (50 if screen == "phone" else 70)
    page.screenshot(path=str(screenshots / f"clock-{screen}.png"))
    # the hand's Seven of diamonds goes under seven o'clock: the Eight of spades turns up
    card(page, "seven of diamonds, hand").click()
    wait_version(page, 1)
    assert card(page, "eight of spades, hand").count() == 1
    assert card(page, "seven of diamonds, hour 7").count() == 1
    assert_clock_face(piles_by_number(page), list(range(12)), list(range(1, 13)), [12, 13])


@pytest.mark.parametrize("screen", SCREENS)
def test_grandfathers_clock_stands_its_foundations_round_a_face(context_for, server, screen,
                                                                screenshots):
    page = open_variant(context_for, server, screen, "grandfathers-clock")
    piles = piles_by_number(page)
    assert_inside(page, list(piles.values()), screen)
    foundations = list(range(8, 20))  # f1 (the Two of spades) at five o'clock, clockwise
    assert_clock_face(piles, foundations, [(4 + k) % 12 + 1 for k in range(12)], [])
    assert card(page, "two of spades, foundation 1").count() == 1
    page.screenshot(path=str(screenshots / f"grandfathers-clock-{screen}.png"))
