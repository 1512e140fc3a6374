"""Where the terminal board draws each pile and card, for a screen of a given size.

Plain Python, no textual: :func:`lay_out` turns a position and a width and height into
:class:`Cell` pieces of text (a label, a card, a count) at fixed places, and a
:class:`BoardLayout` that answers which pile and card a screen position is on. The rules
that keep every pile's top cards in view, whatever the variant and the screen:

- the stock and every group shown as a ``stack`` (the foundations) fill the top rows, which
  wrap onto a second row when they do not fit across (Maine Coon's eight foundations at 60
  columns);
- the groups shown as a ``fan`` (columns, tail, cells) follow, side by side while they fit
  across, a group too wide for the screen wrapping onto the next row;
- a pile is a slot of 6, 5 or 4 characters: the widest that needs the fewest rows;
- the lines left are shared among the fan rows; a pile longer than its share is compressed:
  its top cards, with one line ``+N`` above them counting the cards under them. The labels
  are part of the board and never scroll away; the board never scrolls.

Nothing here knows a variant's name: it reads the groups, as :mod:`patience.play.app`
does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from patience.cards import FACE_DOWN, RED_SUITS, card_symbol
from patience.settings import Show

if TYPE_CHECKING:
    from patience.game import Game

STOCK = -1  # the pile index of the stock in a Cell
SLOT_WIDTHS = (6, 5, 4)
STACK_ROW_LINES = 3  # label, top card, count

# kinds of Cell
LABEL, RED, BLACK, BACK, EMPTY, COUNT, MORE = ("label", "red", "black", "back", "empty",
                                               "count", "more")


@attrs.frozen
class Cell:
    """One piece of text on the board: ``kind`` chooses its colours; ``pile`` and ``depth``
    say what a click on it means (``depth`` cards below the top card; None: nothing)."""

    x: int
    y: int
    text: str
    kind: str
    pile: int | None = None
    depth: int = 0
    marked: bool = False  # the cards chosen (a drag) or a hint's: drawn highlighted


@attrs.frozen
class Slot:
    """A pile's place: its column ``x`` and first line ``y``, ``lines`` card lines."""

    pile: int
    x: int
    y: int
    lines: int


@attrs.define
class BoardLayout:
    width: int
    height: int
    slot_width: int
    cells: list[Cell]
    slots: list[Slot]

    def pile_at(self, x: int, y: int) -> int | None:
        """The pile (or STOCK) whose slot holds the point, from its label down to the end of
        its lines; None between piles."""
        for slot in self.slots:
            if slot.x <= x < slot.x + self.slot_width and slot.y <= y <= slot.y + slot.lines:
                return slot.pile
        return None

    def depth_at(self, x: int, y: int) -> int:
        """Which card of the pile at the point: the card drawn on that line, else the top
        card (the label and the space under the cards count as the top card)."""
        for cell in self.cells:
            if cell.y == y and cell.x <= x < cell.x + self.slot_width and cell.pile is not None \
                    and cell.kind != LABEL:
                return cell.depth
        return 0

    def where(self, pile: int, depth: int = 0) -> tuple[int, int]:
        """A point on the card ``depth`` below the top of ``pile`` (or on the pile's label
        when that card is not drawn): for clicks in tests and tools."""
        for cell in self.cells:
            if cell.pile == pile and cell.kind != LABEL and cell.depth == depth:
                return cell.x + 1, cell.y
        slot = next(s for s in self.slots if s.pile == pile)
        return slot.x + 1, slot.y

    def lines(self) -> list[str]:
        """The board as plain text lines (for tests and the line-mode view)."""
        grid = [[" "] * self.width for _ in range(self.height)]
        for cell in self.cells:
            if 0 <= cell.y < self.height:
                for offset, character in enumerate(cell.text):
                    if 0 <= cell.x + offset < self.width:
                        grid[cell.y][cell.x + offset] = character
        return ["".join(row).rstrip() for row in grid]


def card_text(card: int, width: int) -> tuple[str, str]:
    """A card's text in a slot of ``width`` (its kind: RED, BLACK or BACK)."""
    inner = width - 1
    if card & FACE_DOWN:
        return "▒" * inner, BACK
    symbol = card_symbol(card)
    text = symbol.rjust(3).ljust(inner) if inner > 3 else symbol.rjust(inner)
    return text, RED if card & 3 in RED_SUITS else BLACK


def _rows(items: list[list[int]], capacity: int) -> list[list[int | None]]:
    """Groups of piles into rows of at most ``capacity`` slots, a group kept on one row when
    it fits, one empty slot (None) between groups on a row."""
    rows: list[list[int | None]] = []
    row: list[int | None] = []
    for group in items:
        needed = len(group) + (1 if row else 0)
        if row and len(row) + needed > capacity:
            rows.append(row)
            row = []
        if row:
            row.append(None)
        for pile in group:
            if len(row) == capacity:
                rows.append(row)
                row = []
            row.append(pile)
    if row:
        rows.append(row)
    return rows


def _share(needs: list[int], available: int) -> list[int]:
    """Lines for each fan row: what it needs when everything fits, else a fair share
    (water-filling: rows needing less than the share give the rest to the others), at
    least one line each."""
    if sum(needs) <= available:
        return list(needs)
    given = [0] * len(needs)
    left = max(available, len(needs))
    open_rows = list(range(len(needs)))
    while open_rows:
        share = max(1, left // len(open_rows))
        satisfied = [i for i in open_rows if needs[i] <= share]
        if not satisfied:
            for number, i in enumerate(open_rows):
                given[i] = share + (1 if number < left - share * len(open_rows) else 0)
            break
        for i in satisfied:
            given[i] = needs[i]
            left -= needs[i]
            open_rows.remove(i)
    return [max(1, g) for g in given]


def lay_out(game: Game, width: int, height: int, marked: dict[int, int] | None = None,
            targets: frozenset[int] = frozenset()) -> BoardLayout:
    """The board of ``game`` on ``width`` × ``height`` characters. ``marked`` maps a pile to
    the depth of the deepest card drawn highlighted (the top cards down to it); piles in
    ``targets`` have their label highlighted (a hint's destination)."""
    variant = game.variant
    marked = marked or {}
    stacks = [list(g.indices) for g in variant.groups if g.show is Show.STACK]
    fans = [list(g.indices) for g in variant.groups if g.show is not Show.STACK]
    # a redeal that gathers piles is made on the stock too ('d', or a click on it)
    has_stock = bool(variant.stock_size) or bool(variant.deal_targets) or \
        variant.gather is not None
    top_items = ([[STOCK]] if has_stock else []) + stacks

    best: tuple[int, int, list[list[int | None]], list[list[int | None]]] | None = None
    for slot_width in SLOT_WIDTHS:
        capacity = max(1, width // slot_width)
        top = _rows(top_items, capacity)
        fan = _rows(fans, capacity)
        count = len(top) + len(fan)
        if best is None or count < best[0]:
            best = (count, slot_width, top, fan)
    assert best is not None
    _, slot_width, top_rows, fan_rows = best

    needs = [max([1] + [len(game.piles[p]) for p in row if p is not None]) for row in fan_rows]
    available = height - STACK_ROW_LINES * len(top_rows) - len(fan_rows)
    gap = 1 if top_rows and fan_rows and sum(needs) + 1 <= available else 0
    shares = _share(needs, available - gap)

    cells: list[Cell] = []
    slots: list[Slot] = []
    y = 0
    for row in top_rows:
        for column, pile in enumerate(row):
            if pile is not None:
                _draw_stack(game, pile, column * slot_width, y, slot_width, cells, slots,
                            pile in marked, pile in targets)
        y += STACK_ROW_LINES
    y += gap
    for row, lines in zip(fan_rows, shares):
        for column, pile in enumerate(row):
            if pile is not None:
                _draw_fan(game, pile, column * slot_width, y, slot_width, lines, cells, slots,
                          marked.get(pile), pile in targets)
        y += 1 + lines
    return BoardLayout(width, height, slot_width, cells, slots)


def _label(game: Game, pile: int, x: int, y: int, width: int, target: bool) -> Cell:
    name = "s" if pile == STOCK else game.variant.pile_names[pile]
    return Cell(x, y, name.center(width - 1), LABEL, pile, 0, target)


def _draw_stack(game: Game, pile: int, x: int, y: int, width: int, cells: list[Cell],
                slots: list[Slot], marked: bool, target: bool) -> None:
    inner = width - 1
    cells.append(_label(game, pile, x, y, width, target))
    slots.append(Slot(pile, x, y, STACK_ROW_LINES - 1))
    if pile == STOCK:
        if game.stock:
            cells.append(Cell(x, y + 1, str(len(game.stock)).center(inner), BACK, STOCK))
        else:
            mark = "↺" if game.can_deal() else "···"
            cells.append(Cell(x, y + 1, mark.center(inner), EMPTY, STOCK))
        left = game.redeals_left
        if game.variant.redeal_limit:
            redeals = "↺∞" if left is None else f"↺{left}"
            cells.append(Cell(x, y + 2, redeals.center(inner), COUNT, STOCK))
        return
    cards = game.piles[pile]
    if not cards:
        cells.append(Cell(x, y + 1, "···".center(inner), EMPTY, pile, 0, target))
        return
    text, kind = card_text(cards[-1], width)
    cells.append(Cell(x, y + 1, text, kind, pile, 0, marked))
    cells.append(Cell(x, y + 2, f"×{len(cards)}".center(inner), COUNT, pile))


def _draw_fan(game: Game, pile: int, x: int, y: int, width: int, lines: int,
              cells: list[Cell], slots: list[Slot], marked: int | None, target: bool) -> None:
    inner = width - 1
    cells.append(_label(game, pile, x, y, width, target))
    slots.append(Slot(pile, x, y, lines))
    cards = game.piles[pile]
    if not cards:
        cells.append(Cell(x, y + 1, "···".center(inner), EMPTY, pile, 0, target))
        return
    shown = len(cards) if len(cards) <= lines else max(1, lines - 1)
    line = y + 1
    hidden = len(cards) - shown
    if hidden and lines > 1:
        cells.append(Cell(x, line, f"+{hidden}".center(inner), MORE, pile, shown))
        line += 1
    for position in range(hidden, len(cards)):
        depth = len(cards) - 1 - position
        text, kind = card_text(cards[position], width)
        cells.append(Cell(x, line, text, kind, pile, depth,
                          marked is not None and depth <= marked))
        line += 1
