"""Where the terminal board draws each pile and card, for a screen of a given size.

Plain Python, no textual: :func:`lay_out` turns a position and a width and height into
:class:`Cell` pieces of text (a label, a card, a count) at fixed places, and a
:class:`BoardLayout` that answers which pile and card a screen position is on. The rules
that keep every pile's top cards in view, whatever the variant and the screen:

- the top rows (:mod:`patience.play.table`): the stock with a waste beside it, then the
  groups shown as a ``stack`` (the foundations) and those whose piles hold one card
  (FreeCell's cells, beside the foundations); they wrap onto a second row when they do
  not fit across (Maine Coon's eight foundations at 60 columns);
- every other group below, as its ``layout`` says: a row of fans side by side with the
  next while they fit across, a row too wide for the screen on even lines (La Belle
  Lucie's 18 fans as two rows of 9 at 80 columns); a grid as its rows, each on a line of
  its own; an overlap layout (Giza's pyramid, Three Peaks) as its rows, a label line and a
  card line each, every pile at its x position (a half-card unit is half a slot), so that
  each lies between the two it is covered by, and the fan rows that follow beside it
  while they fit in its lines (Giza's reserves);
- a pile is a slot of 6, 5 or 4 characters: the widest with which every card shows, else
  the widest that needs the fewest lines;
- the lines left are shared among the fan rows; a pile longer than its share is compressed:
  its top cards, with one line ``+N`` above them counting the cards under them. The labels
  are part of the board and never scroll away; the board never scrolls.

Nothing here knows a variant's name: it reads the groups, as :mod:`patience.play.app`
does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from patience.cards import FACE_DOWN, RED_SUITS, card_symbol
from patience.play.face import face
from patience.play.table import SHORT_FAN, centre_of, in_top_row, is_drawn_round, is_waste_like
from patience.settings import Show

if TYPE_CHECKING:
    from patience.game import Game
    from patience.variant import Group, Variant

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
    #: the lines the board needs to show every pile's top card; more than ``height`` when
    #: the screen is too small for the table (nine overlapping rows at 60 × 20)
    lines_needed: int = 0

    @property
    def too_small(self) -> bool:
        return self.lines_needed > self.height

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


def _balanced(piles: list[int], capacity: int) -> list[list[int]]:
    """``piles`` in as few lines of at most ``capacity`` as can be, as even as can be."""
    count = max(1, -(-len(piles) // max(1, capacity)))
    sizes = [len(piles) // count + (1 if number < len(piles) % count else 0)
             for number in range(count)]
    starts = [sum(sizes[:number]) for number in range(count)]
    return [piles[start:start + size] for start, size in zip(starts, sizes)]


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


@attrs.define
class _Overlap:
    """An overlap layout's band: each row of piles at its x positions (half-card units,
    from ``left``), a label line and a card line per row; fan rows may stand beside it,
    from column ``side`` on."""

    rows: list[list[tuple[int, int]]]  # (pile, x) of each row, back row first
    left: int
    width: int  # in characters
    side: int = 0
    beside: list[list[int | None]] = attrs.Factory(list)

    @property
    def lines(self) -> int:
        return 2 * len(self.rows)


@attrs.define
class _Ring:
    """A ring's band (:mod:`patience.play.face`): each pile's box at its place round the
    face, the piles of the groups at its centre in a row in the middle, each box
    ``pile_lines`` high (a label and ``pile_lines - 1`` lines of cards; a stack's label,
    top card and count); fan rows may stand beside it, from column ``side`` on."""

    boxes: list[tuple[int, int, int]]  # (pile, x, y), x and y from the band's corner
    width: int  # in characters
    lines: int
    pile_lines: int
    side: int = 0
    beside: list[list[int | None]] = attrs.Factory(list)


#: a band that stands whole, in lines of its own (fan rows may stand beside it)
_Figure = _Overlap | _Ring


@attrs.define
class _Plan:
    """The board at one slot width: the top rows, then bands (a row of fans, or an
    overlap layout or a ring with the fan rows beside it)."""

    slot_width: int
    top: list[list[int | None]]
    bands: list[list[int | None] | _Overlap | _Ring]

    def fixed_lines(self) -> int:
        """Lines taken whatever the piles hold: the top rows, the overlap and ring bands,
        and the label of each fan row."""
        return STACK_ROW_LINES * len(self.top) + sum(
            band.lines if isinstance(band, _Figure) else 1 for band in self.bands)


def _fan_need(game: Game, row: Sequence[int | None]) -> int:
    return max([1] + [len(game.piles[p]) for p in row if p is not None])


def _plan(game: Game, width: int, slot_width: int, height: int = 1 << 16,
          pile_lines: int = 0) -> _Plan | None:
    """Where the piles stand at ``slot_width`` characters a pile, the piles of a ring
    ``pile_lines`` high (None: an overlap layout too wide for the screen at this width, or
    a ring too large for it)."""
    variant = game.variant
    capacity = max(1, width // slot_width)
    # the top row: the stock with a waste beside it, then the foundations and the cells
    has_stock = bool(variant.stock_size) or bool(variant.deal_targets) or \
        variant.gather is not None
    lead = ([STOCK] if has_stock else []) + [
        p for g in variant.groups if in_top_row(variant, g) and is_waste_like(variant, g)
        for p in g.indices]
    top_items = ([lead] if lead else []) + [
        list(g.indices) for g in variant.groups
        if in_top_row(variant, g) and not is_waste_like(variant, g)]
    top = _rows(top_items, capacity)
    bands: list[list[int | None] | _Overlap | _Ring] = []
    pending: list[list[int]] = []  # fan groups (or parts) waiting to be packed into rows

    def flush() -> None:
        bands.extend(_rows(pending, capacity))
        pending.clear()

    for group in variant.groups:
        if in_top_row(variant, group) or group.centre is not None:
            continue  # (a ring's centre is drawn with its ring)
        if group.ring is not None:
            ring = _ring(game, group, width, slot_width,
                         height - STACK_ROW_LINES * len(top), pile_lines)
            if ring is None:
                return None
            if not (pending and _beside(game, ring, pending, width, slot_width)):
                flush()
            pending.clear()
            bands.append(ring)
            continue
        arrangement = group.arrangement
        piles = list(group.indices)
        if arrangement.overlap:
            flush()
            xs = [x for row in arrangement.rows for x in row]
            left = min(xs)
            across = (max(xs) - left) * slot_width // 2 + slot_width
            if across > width:
                return None
            rows, at = [], 0
            for row in arrangement.rows:
                rows.append([(piles[at + k], x) for k, x in enumerate(row)])
                at += len(row)
            bands.append(_Overlap(rows, left, across))
        elif group.layout is not None:  # a grid: its rows, each a line of its own
            flush()
            at = 0
            for row in arrangement.rows:  # a row wider than the screen on balanced lines
                bands.extend(list(line) for line in _balanced(piles[at:at + len(row)],
                                                               capacity))
                at += len(row)
        else:
            parts = _balanced(piles, capacity) if len(piles) > capacity else [piles]
            if not pending and bands and isinstance(bands[-1], _Figure) and \
                    _beside(game, bands[-1], parts, width, slot_width):
                continue
            pending.extend(parts)
    flush()
    return _Plan(slot_width, top, bands)


def _ring(game: Game, group: Group, width: int, slot_width: int, height: int,
          pile_lines: int) -> _Ring | None:
    """``group``'s ring with its centre, each pile ``pile_lines`` high (a stack's three
    lines at least), as round as fits ``width`` × ``height`` (None: it does not fit)."""
    assert group.ring is not None
    variant = game.variant
    centre = [pile for other in centre_of(variant, group) for pile in other.indices]
    found = face(tuple(group.ring.angle(k) for k in range(group.count)), slot_width,
                 pile_lines, len(centre), width, height)
    if found is None:
        return None
    x, y = found.centre
    boxes = [(pile, at, down) for pile, (at, down) in zip(group.indices, found.boxes)]
    boxes += [(pile, x + k * slot_width, y) for k, pile in enumerate(centre)]
    return _Ring(boxes, found.width, found.lines, pile_lines)


def ring_pile_lines(variant: Variant, game: Game | None = None) -> list[int]:
    """The heights a ring's piles may be drawn at, tallest first: from a label over every
    card of its longest pile down to a label and one card (a stack's three lines at
    least); [0] when no group stands in a ring."""
    drawn = [g for g in variant.groups if is_drawn_round(g)]
    if not any(g.ring is not None for g in drawn):
        return [0]
    least = STACK_ROW_LINES if any(g.show is Show.STACK for g in drawn) else 2
    fans = [p for g in drawn if g.show is not Show.STACK for p in g.indices]
    need = max([len(_ring_items(game, p)) for p in fans] if game is not None else [SHORT_FAN],
               default=0)
    dealt = max((max(g.deal, default=0) for g in drawn if g.show is not Show.STACK),
                default=0)
    most = max(least, 1 + need, 1 + dealt)
    return list(range(most, least - 1, -1))


def _ring_items(game: Game, pile: int) -> list[tuple[int, int, int]]:
    """The lines of a pile of a ring, bottom first: (card, depth, cards): a face-up card
    on a line of its own, face-down cards lying together on one line (depth: the topmost
    of them; cards: how many)."""
    items: list[tuple[int, int, int]] = []
    cards = game.piles[pile]
    for position, card in enumerate(cards):
        depth = len(cards) - 1 - position
        if card & FACE_DOWN and items and items[-1][0] & FACE_DOWN:
            items[-1] = (card, depth, items[-1][2] + 1)
        else:
            items.append((card, depth, 1))
    return items


def _beside(game: Game, overlap: _Overlap | _Ring, parts: list[list[int]], width: int,
            slot_width: int) -> bool:
    """Stand the fan rows of ``parts`` beside ``overlap`` when they fit in its lines, in
    the width left of the screen (after one empty slot): whether they do."""
    side = overlap.width + slot_width
    capacity = (width - side) // slot_width
    if capacity < 1:
        return False
    rows: list[list[int | None]] = [list(line) for part in parts
                                    for line in _balanced(part, capacity)]
    beside = overlap.beside + rows
    if sum(1 + _fan_need(game, row) for row in beside) > overlap.lines:
        return False
    overlap.side = side
    overlap.beside = list(beside)
    return True


def lay_out(game: Game, width: int, height: int, marked: dict[int, int] | None = None,
            targets: frozenset[int] = frozenset()) -> BoardLayout:
    """The board of ``game`` on ``width`` × ``height`` characters. ``marked`` maps a pile to
    the depth of the deepest card drawn highlighted (the top cards down to it); piles in
    ``targets`` have their label highlighted (a hint's destination)."""
    marked = marked or {}
    # a ring's piles as tall as fit, then the widest slots
    plans = [plan for pile_lines in ring_pile_lines(game.variant, game)
             for slot_width in SLOT_WIDTHS
             if (plan := _plan(game, width, slot_width, height, pile_lines)) is not None]
    if not plans:  # an overlap layout wider than the screen: the narrowest slots, cut off
        narrowest = _plan(game, 1 << 16, SLOT_WIDTHS[-1], 1 << 16,
                          ring_pile_lines(game.variant)[-1])
        assert narrowest is not None
        plans = [narrowest]

    def lines_needed(plan: _Plan) -> int:
        return plan.fixed_lines() + sum(_fan_need(game, band) for band in plan.bands
                                        if not isinstance(band, _Figure))

    # the widest slots with which every card shows, else those that leave the most lines
    fitting = [plan for plan in plans if lines_needed(plan) + 1 <= height]
    plan = fitting[0] if fitting else min(plans, key=lambda p: (
        p.fixed_lines() + sum(1 for b in p.bands if not isinstance(b, _Figure)),
        -p.slot_width))
    slot_width = plan.slot_width

    fan_rows = [band for band in plan.bands if not isinstance(band, _Figure)]
    needs = [_fan_need(game, row) for row in fan_rows]
    available = height - plan.fixed_lines()
    gap = 1 if plan.top and plan.bands and sum(needs) + 1 <= available else 0
    shares = iter(_share(needs, available - gap))

    cells: list[Cell] = []
    slots: list[Slot] = []
    y = 0
    for row in plan.top:
        for column, pile in enumerate(row):
            if pile is not None:
                _draw_stack(game, pile, column * slot_width, y, slot_width, cells, slots,
                            pile in marked, pile in targets)
        y += STACK_ROW_LINES
    y += gap
    for band in plan.bands:
        if isinstance(band, _Overlap):
            _draw_overlap(game, band, y, slot_width, cells, slots, marked, targets)
            y += band.lines
            continue
        if isinstance(band, _Ring):
            _draw_ring(game, band, y, slot_width, cells, slots, marked, targets)
            y += band.lines
            continue
        lines = next(shares)
        _draw_fan_row(game, band, 0, y, slot_width, lines, cells, slots, marked, targets)
        y += 1 + lines
    # at least a line of cards under each fan row's label
    return BoardLayout(width, height, slot_width, cells, slots,
                       plan.fixed_lines() + len(fan_rows))


def _draw_fan_row(game: Game, row: list[int | None], x: int, y: int, slot_width: int,
                  lines: int, cells: list[Cell], slots: list[Slot], marked: dict[int, int],
                  targets: frozenset[int]) -> None:
    for column, pile in enumerate(row):
        if pile is not None:
            _draw_fan(game, pile, x + column * slot_width, y, slot_width, lines, cells, slots,
                      marked.get(pile), pile in targets)


def _draw_overlap(game: Game, band: _Overlap, y: int, slot_width: int, cells: list[Cell],
                  slots: list[Slot], marked: dict[int, int], targets: frozenset[int]) -> None:
    """Each row a label line and a card line, each pile at its x (half a slot a unit), so
    that a pile sits between the two it lies on; the fan rows beside it share its lines."""
    for number, row in enumerate(band.rows):
        for pile, x in row:
            _draw_fan(game, pile, (x - band.left) * slot_width // 2, y + 2 * number,
                      slot_width, 1, cells, slots, marked.get(pile), pile in targets)
    _draw_beside(game, band, y, slot_width, cells, slots, marked, targets)


def _draw_beside(game: Game, band: _Overlap | _Ring, y: int, slot_width: int,
                 cells: list[Cell], slots: list[Slot], marked: dict[int, int],
                 targets: frozenset[int]) -> None:
    """The fan rows standing beside an overlap layout or a ring, sharing its lines."""
    needs = [_fan_need(game, beside) for beside in band.beside]
    line = y
    for beside, lines in zip(band.beside, _share(needs, band.lines - len(band.beside))):
        _draw_fan_row(game, beside, band.side, line, slot_width, lines, cells, slots, marked,
                      targets)
        line += 1 + lines


def _draw_ring(game: Game, band: _Ring, y: int, slot_width: int, cells: list[Cell],
               slots: list[Slot], marked: dict[int, int], targets: frozenset[int]) -> None:
    """Each pile of a ring at its place round the face, its centre's in the middle: a
    stack as in the top row, a fan with ``pile_lines - 1`` lines of cards; the fan rows
    beside it share its lines."""
    for pile, x, down in band.boxes:
        if game.variant.group_of_pile[pile].show is Show.STACK:
            _draw_stack(game, pile, x, y + down, slot_width, cells, slots, pile in marked,
                        pile in targets)
        else:
            _draw_ring_pile(game, pile, x, y + down, slot_width, band.pile_lines - 1, cells,
                            slots, marked.get(pile), pile in targets)
    _draw_beside(game, band, y, slot_width, cells, slots, marked, targets)


def _draw_ring_pile(game: Game, pile: int, x: int, y: int, width: int, lines: int,
                    cells: list[Cell], slots: list[Slot], marked: int | None,
                    target: bool) -> None:
    """A fan of a ring in ``lines`` lines: face-down cards lying together on one line
    (``▒×3▒``), and its top lines under a ``+N`` when they do not fit."""
    inner = width - 1
    cells.append(_label(game, pile, x, y, width, target))
    slots.append(Slot(pile, x, y, lines))
    items = _ring_items(game, pile)
    if not items:
        cells.append(Cell(x, y + 1, "···".center(inner), EMPTY, pile, 0, target))
        return
    shown = items if len(items) <= lines else items[len(items) - max(1, lines - 1):]
    line = y + 1
    if len(shown) < len(items):
        hidden = sum(cards for _, _, cards in items[:len(items) - len(shown)])
        cells.append(Cell(x, line, f"+{hidden}".center(inner), MORE, pile,
                          shown[0][1] + shown[0][2]))
        line += 1
    for card, depth, cards in shown:
        text, kind = card_text(card, width)
        if cards > 1:
            text = f"×{cards}".center(inner, text[0])
        cells.append(Cell(x, line, text, kind, pile, depth,
                          marked is not None and depth <= marked))
        line += 1


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
    if len(cards) > 1:  # a cell's one card, a waste's first: nothing to count
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
