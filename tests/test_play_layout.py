"""The terminal board's layout and colours, without textual: every shipped variant shows
every pile's top card at 80×24 and 60×20, and every colour pair reads at 4.5:1 or more."""

from __future__ import annotations

import itertools

import pytest
from rich.color import Color, ColorSystem

from patience import Game, find_variant
from patience.cards import card_symbol, numbered_deck
from patience.play import palette
from patience.play.layout import COUNT, LABEL, MORE, STOCK, lay_out
from patience.variant import shipped_variants

#: the board's share of a screen: the status, message and command lines take three
SCREENS = {"80x24": (80, 21), "60x20": (60, 17)}


def dealt_out(name: str, number: int = 7) -> Game:
    """A deal with every deal of the stock made: the longest columns a deal gives."""
    game = find_variant(name).deal(number)
    while game.stock and game.is_legal(game.parse_move("d")):
        game.push("d")
    return game


def assert_every_top_card_shows(game: Game, width: int, height: int) -> None:
    board = lay_out(game, width, height)
    lines = board.lines()
    assert len(lines) == height
    assert all(len(line) <= width for line in lines)
    for pile, cards in enumerate(game.piles[:len(game.variant.pile_names)]):
        name = game.variant.pile_names[pile]
        tops = [c for c in board.cells if c.pile == pile and c.kind not in (LABEL, COUNT)
                and c.depth == 0]
        assert len(tops) == 1, (name, lines)
        top = tops[0]
        assert 0 <= top.y < height and top.x + len(top.text) <= width, (name, lines)
        if cards and not cards[-1] & 64:
            assert top.text.strip() == card_symbol(cards[-1])
        labels = [c for c in board.cells if c.pile == pile and c.kind == LABEL]
        assert [c.text.strip() for c in labels] == [name]  # the label is always there


#: tables taller than a 60 × 20 terminal, with the lines they need there: the board's last
#: line says so (nine overlapping rows of a label and a card; King Tut's pyramid with its
#: waste fanned below it once the stock is dealt out)
TALL = {"double-pyramid": 21, "king-tut": 19}


@pytest.mark.parametrize("name", shipped_variants())
def test_every_shipped_variant_shows_every_top_card(name):
    start, end = find_variant(name).deal(7), dealt_out(name)
    needed = []
    for screen, (width, height) in SCREENS.items():
        for game in (start, end):
            board = lay_out(game, width, height)
            if board.too_small:
                assert screen == "60x20", (name, screen)   # every table fits 80 × 24
                needed.append(board.lines_needed)
                continue
            assert_every_top_card_shows(game, width, height)
    assert max(needed, default=None) == TALL.get(name)


@pytest.mark.parametrize("screen", SCREENS)
def test_a_30_card_column_is_compressed_to_its_top_cards(screen):
    width, height = SCREENS[screen]
    variant = find_variant("tabbycat")
    deck = numbered_deck(1)
    game = Game(variant, [deck[:30], deck[30:34], [], [], deck[34:40], [], [], [], []],
                deck[40:])
    assert_every_top_card_shows(game, width, height)
    board = lay_out(game, width, height)
    column = [c for c in board.cells if c.pile == 0 and c.kind != LABEL]
    more = [c for c in column if c.kind == MORE]
    shown = len(column) - 1
    assert [c.text.strip() for c in more] == [f"+{30 - shown}"]
    assert [c.text.strip() for c in column[1:]] == [card_symbol(c) for c in deck[30 - shown:30]]
    # a click on a drawn card is that card; on the '+N' line, the topmost card under them
    x, y = board.where(0, 3)
    assert board.pile_at(x, y) == 0 and board.depth_at(x, y) == 3
    assert board.depth_at(*board.where(0, shown)) == shown


def test_maine_coons_eight_foundations_fit_at_80_and_wrap_below_60_columns():
    game = find_variant("mainecoon").deal(1)
    for width in (80, 60):
        assert "f8" in lay_out(game, width, 21).lines()[0]
    narrow = lay_out(game, 30, 21).lines()  # too narrow for one row: a second row
    assert narrow[0].split() == ["s"] and "f1" in narrow[3] and "f8" in narrow[6]


def test_the_stock_is_a_pile_a_click_can_find():
    board = lay_out(find_variant("tabbycat").deal(1), 80, 21)
    assert board.pile_at(*board.where(STOCK)) == STOCK
    assert board.lines()[1].split()[0] == "48"


def test_a_game_whose_redeal_gathers_the_fans_draws_a_stock_to_click():
    board = lay_out(find_variant("la-belle-lucie").deal(1), 100, 40)
    assert board.pile_at(*board.where(STOCK)) == STOCK
    texts = [cell.text.strip() for cell in board.cells if cell.pile == STOCK]
    assert texts == ["s", "↺", "↺2"]  # the redeal is there, two of them left


def contrast(foreground: str, background: str) -> float:
    """The WCAG 2 contrast ratio of two '#rrggbb' colours."""
    def luminance(colour: str) -> float:
        channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        red, green, blue = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
                            for c in channels)
        return 0.2126 * red + 0.7152 * green + 0.0722 * blue

    light, dark = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def in_256_colours(colour: str) -> str:
    """The colour a 256-colour terminal shows for ``colour`` (rich's own downgrade)."""
    return Color.parse(colour).downgrade(ColorSystem.EIGHT_BIT).get_truecolor().hex


def test_the_contrast_ratio_is_computed_right():
    assert round(contrast("#000000", "#ffffff"), 1) == 21.0
    assert round(contrast("#777777", "#ffffff"), 2) == 4.48  # the classic just-failing grey


@pytest.mark.parametrize("name", sorted(palette.all_pairs()))
def test_every_colour_pair_reads_at_4_5_to_1_in_true_and_256_colours(name):
    foreground, background = palette.all_pairs()[name]
    assert contrast(foreground, background) >= 4.5, name
    assert contrast(in_256_colours(foreground), in_256_colours(background)) >= 4.5, name


def test_the_issues_low_contrast_pairs_are_gone():
    # red cards were 2.9:1, the stock 1.7:1, empty-pile dots 2.6:1 under 256 colours
    for kind in ("red", "back", "empty"):
        foreground, background = palette.COLOURS[kind]
        assert contrast(in_256_colours(foreground), in_256_colours(background)) > 5.5


@pytest.mark.parametrize("name", ["patience.refusal", "patience.plainrules",
                                  "patience.play.session", "patience.play.destinations",
                                  "patience.play.table", "patience.play.face",
                                  "patience.places", "patience.rulestext"])
def test_docstring_examples(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


# -- tables drawn from their layout data (issue #31 §3, #32) --

def label_at(board, name: str) -> tuple[int, int]:
    """Where the label of pile ``name`` is drawn: (x, y)."""
    found = [(c.x, c.y) for c in board.cells if c.kind == LABEL and c.text.strip() == name]
    assert len(found) == 1, name
    return found[0]


def test_klondikes_waste_stands_beside_its_stock_and_freecells_cells_beside_the_foundations():
    board = lay_out(find_variant("klondike").deal(1), 80, 21)
    assert board.lines()[0].split() == ["s", "w", "f1", "f2", "f3", "f4"]
    assert label_at(board, "w")[0] - label_at(board, "s")[0] == board.slot_width  # beside
    assert label_at(board, "c1")[1] > 2  # the columns below
    board = lay_out(find_variant("freecell").deal(1), 80, 21)
    assert board.lines()[0].split() == ["a1", "a2", "a3", "a4", "f1", "f2", "f3", "f4"]
    assert board.lines()[1].split() == ["···"] * 8  # a cell's one card has nothing to count
    assert label_at(board, "c1")[1] > 2


@pytest.mark.parametrize("name", ["giza", "three-peaks-open"])
@pytest.mark.parametrize("screen", SCREENS)
def test_an_overlap_layout_is_drawn_as_rows_each_pile_between_the_two_it_lies_on(name, screen):
    width, height = SCREENS[screen]
    game = find_variant(name).deal(1)
    board = lay_out(game, width, height)
    group = game.variant.groups[0]
    arrangement = group.arrangement
    names = game.variant.pile_names
    places = [label_at(board, names[pile]) for pile in group.indices]
    xs = [x for row in arrangement.rows for x in row]
    half = board.slot_width / 2
    for number, (x, y) in enumerate(places):
        assert abs(x - places[0][0] - (xs[number] - xs[0]) * half) < 1  # at its x
        for over in arrangement.covering(number):  # the row in front of it, one line on
            assert places[over][1] == y + 2
            assert abs(places[over][0] - x) < board.slot_width  # half a slot to a side
        # a click on its card is on it
        pile = group.indices[number]
        assert board.pile_at(*board.where(pile)) == pile
        assert [c.text.strip() for c in board.cells if c.pile == pile and c.kind != LABEL] \
            == [card_symbol(game.piles[pile][-1])]
    assert_every_top_card_shows(game, width, height)


def test_gizas_reserves_stand_beside_its_pyramid_when_they_fit():
    game = find_variant("giza").deal(1)
    board = lay_out(game, 80, 21)
    apex, reserve = label_at(board, "p1"), label_at(board, "res1")
    assert reserve[1] == apex[1] and reserve[0] > label_at(board, "p28")[0]
    assert label_at(board, "res5")[1] == apex[1] + 4  # two lines of four fans of three
    narrow = lay_out(game, 40, 40)  # no room beside it: below
    assert label_at(narrow, "res1")[1] > label_at(narrow, "p28")[1]


def test_a_grid_is_drawn_as_its_rows_with_its_columns_lined_up():
    board = lay_out(find_variant("lineup").deal(1), 80, 21)
    rows = [[label_at(board, f"g{6 * row + column + 1}") for column in range(6)]
            for row in range(4)]
    assert all(len({y for _, y in row}) == 1 for row in rows)  # each row on a line
    assert len({row[0][1] for row in rows}) == 4
    assert all(len({rows[r][c][0] for r in range(4)}) == 1 for c in range(6))  # columns


@pytest.mark.parametrize("name, width, lines", [("la-belle-lucie", 80, [9, 9]),
                                                ("accordion", 80, [13, 13, 13, 13]),
                                                ("accordion", 60, [9, 9, 9, 9, 8, 8])])
def test_many_short_fans_wrap_onto_even_lines_in_their_order(name, width, lines):
    game = find_variant(name).deal(1)
    board = lay_out(game, width, 21)
    group = game.variant.groups[0]
    places = [label_at(board, game.variant.pile_names[p]) for p in group.indices]
    found: dict[int, list[int]] = {}
    for x, y in places:
        found.setdefault(y, []).append(x)
    assert [len(found[y]) for y in sorted(found)] == lines
    assert places == sorted(places, key=lambda place: (place[1], place[0]))  # row by row


def slot_box(board, pile: int) -> tuple[int, int, int, int]:
    """A pile's box on the board: left, top, right, bottom (from its label to its last
    line of cards)."""
    slot = next(s for s in board.slots if s.pile == pile)
    return slot.x, slot.y, slot.x + board.slot_width, slot.y + slot.lines + 1


def assert_clock_face(board, ring: list[int], hours: list[int], centre: list[int]) -> None:
    """The piles of ``ring`` round a face at their hours, clockwise (twelve o'clock above
    the centre, three to its right, six below, nine to its left; the hours between them in
    order round it), the centre piles inside, no two boxes on one another."""
    at = {hour % 12: slot_box(board, pile) for pile, hour in zip(ring, hours)}
    def middle(box: tuple[int, int, int, int]) -> tuple[float, float]:
        return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2

    for hour in range(12):  # clockwise: right of the hour before it on the way down, ...
        (x, y), (after_x, after_y) = middle(at[hour]), middle(at[(hour + 1) % 12])
        if hour < 6:
            assert after_y > y or hour in (0, 5) and after_y == y, (hour, at)
        if hour in (0, 1, 2):
            assert after_x > x
        if hour in (6, 7, 8):
            assert after_x < x
    assert middle(at[0])[1] < middle(at[3])[1] < middle(at[6])[1]
    assert middle(at[9])[0] < middle(at[0])[0] < middle(at[3])[0]
    boxes = [slot_box(board, pile) for pile in ring + centre]
    for first, second in itertools.combinations(boxes, 2):
        assert first[2] <= second[0] or second[2] <= first[0] or first[3] <= second[1] or \
            second[3] <= first[1], (first, second, board.lines())
    for pile in centre:
        left, top, right, bottom = slot_box(board, pile)
        assert at[9][2] <= left and right <= at[3][0] and at[0][3] <= top and \
            bottom <= at[6][1]


@pytest.mark.parametrize("screen", SCREENS)
def test_clock_is_drawn_as_a_clock_face_with_the_middle_and_the_hand_inside(screen):
    width, height = SCREENS[screen]
    game = find_variant("clock").deal(1)
    for move in ["h:1-c2", "h:1-c3", "h:1-c3", "h:1-c4", "h:1-c1", "h:1-c9"]:
        game.push(move)
    board = lay_out(game, width, height)
    assert not board.too_small
    assert_clock_face(board, list(range(12)), list(range(1, 13)), [12, 13])
    assert_every_top_card_shows(game, width, height)
    # c3's two cards turned under it show under its face-down cards, one line for those
    texts = [c.text.strip(" ▒") for c in board.cells if c.pile == 2 and c.kind != LABEL]
    assert texts == ["3♠", "3♦", "×2"]
    # a click on the hand's card is on it
    assert board.pile_at(*board.where(13)) == 13 and board.depth_at(*board.where(13)) == 0


def test_clock_face_stands_still_from_the_deal_to_the_end():
    game = find_variant("clock").deal(2)
    places = [slot_box(lay_out(game, 80, 21), pile) for pile in range(14)]
    while game.has_moves():  # deal 2 is won: every card turned, four to a pile
        game.push(game.generate_moves()[0])
        board = lay_out(game, 80, 21)
        assert [slot_box(board, pile) for pile in range(14)] == places
    for pile in range(12):  # its top cards, under a '+N' counting the others
        cards = [c.text.strip() for c in board.cells if c.pile == pile and c.kind != LABEL]
        assert cards[-1] == card_symbol(game.piles[pile][-1])
        assert cards[0] == "+2" and len(cards) == 3


def test_grandfathers_clock_stands_its_foundations_round_a_face_from_five_oclock():
    game = find_variant("grandfathers-clock").deal(1)
    for width, height in [(80, 21), (60, 17)]:
        board = lay_out(game, width, height)
        foundations = list(range(8, 20))
        assert_clock_face(board, foundations, [(4 + k) % 12 + 1 for k in range(12)], [])
        assert board.lines()[slot_box(board, 8)[1] + 1].split().count("2♠") == 1


def test_a_ring_too_large_for_the_screen_is_laid_out_in_bounded_time(tmp_path):
    import time

    from patience.play.face import face

    path = tmp_path / "ring-of-52.yaml"
    path.write_text("id: ring-of-52\nname: Ring of 52\ndescription: A test.\nsources: [test]\n"
                    "decks: 1\npiles:\n  hours:\n    id: c\n    count: 52\n    deal: 1\n"
                    "    moves: 'true'\n    layout: {ring: 52, start: 7}\n  middle:\n"
                    "    id: k\n    count: 3\n    accepts: 'true'\n"
                    "    layout: {centre: hours}\nwin: 'false'\n")
    game = find_variant(str(path)).deal(1)
    face.cache_clear()
    began = time.perf_counter()
    small, large = lay_out(game, 80, 21), lay_out(game, 200, 60)
    assert time.perf_counter() - began < 5  # it took 217 s with an unbounded search
    assert small.too_small and not large.too_small
    assert_every_top_card_shows(game, 200, 60)
