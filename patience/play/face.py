"""Where the piles of a ring stand on the terminal board: a clock face in characters.

A group with ``layout: {ring: N}`` (docs/authoring.md, "Places") is drawn round an ellipse,
each pile at its place (place N at the top, the others clockwise, as the hours of a
clock), and the groups at its centre in one row in the middle. :func:`face` finds an
ellipse on which no two piles' boxes (``width`` characters by ``lines`` lines) touch and
the centre row touches none, as round as the screen allows. The search is over whole
radii and remembered, so a board redrawn at every key costs nothing.

>>> clock = face(tuple(hour / 12 for hour in range(1, 13)), 6, 3, 2, 80, 21)
>>> clock.lines, clock.width
(19, 38)
>>> [clock.boxes[11], clock.boxes[2]]  # twelve o'clock at the top, three at the right
[(16, 0), (32, 8)]
"""

from __future__ import annotations

import math
from functools import lru_cache

import attrs


@attrs.frozen
class Face:
    """Where each pile's box stands (``boxes``: its left column and top line, in pile
    order), where the centre row stands (``centre``), and the size of the whole."""

    boxes: tuple[tuple[int, int], ...]
    centre: tuple[int, int]
    width: int
    lines: int


@lru_cache(maxsize=256)
def face(angles: tuple[float, ...], width: int, lines: int, centre: int,
         most_across: int, most_lines: int) -> Face | None:
    """The roundest face for piles at ``angles`` (in turns, clockwise from the top), each a
    box ``width`` characters across and ``lines`` lines high, with ``centre`` boxes in a
    row at the middle, in ``most_across`` characters by ``most_lines`` lines (None: none
    fits). For each radius down, the least radius across with which no boxes touch
    (:func:`_least_across`, then checked with the boxes where they are drawn); of those
    faces, the one whose width is nearest twice its lines (a character is about half as
    wide as it is high), the smaller when two are as round."""
    points = tuple((math.sin(2 * math.pi * angle), -math.cos(2 * math.pi * angle))
                   for angle in angles)
    found = []
    for down in range(min(most_lines, len(angles) * lines + 1)):
        least = _least_across(points, width, lines, centre, down)
        if least is None or least >= most_across:
            continue
        # the rounding to whole characters and lines may ask a little more, or less
        for across in range(max(0, least - 2), min(least + 3, most_across)):
            tried = _try(angles, width, lines, centre, across, down)
            if tried is not None:
                if tried.width <= most_across and tried.lines <= most_lines:
                    found.append(tried)
                break
    return min(found, key=lambda f: (abs(math.log(f.width / (2 * f.lines))), f.lines),
               default=None)


def _least_across(points: tuple[tuple[float, float], ...], width: int, lines: int,
                  centre: int, down: int) -> int | None:
    """The least radius across with which no two boxes touch, their centres on an ellipse
    of radius ``down`` (lines) and not yet rounded to whole characters and lines: two boxes
    are apart when they are ``lines`` apart down, else they must be ``width`` apart across
    (None: two boxes lie one above the other, too close)."""
    most = 0.0
    pairs: list[tuple[float, float, float]] = [(x - other_x, y - other_y, width)
             for number, (x, y) in enumerate(points) for other_x, other_y in points[number + 1:]]
    if centre:
        pairs += [(x, y, (width + centre * width) / 2) for x, y in points]
    for across, down_apart, room in pairs:
        if down * abs(down_apart) >= lines - 1e-9:
            continue
        if abs(across) < 1e-9:
            return None
        most = max(most, room / abs(across))
    return math.ceil(most - 1e-9)


def _try(angles: tuple[float, ...], width: int, lines: int, centre: int, across: int,
         down: int) -> Face | None:
    """The face on an ellipse of radii ``across`` (characters) and ``down`` (lines), or
    None when two boxes touch."""
    boxes = [(round(across * math.sin(2 * math.pi * angle) - width / 2),
              round(-down * math.cos(2 * math.pi * angle) - lines / 2)) for angle in angles]
    middle = (round(-centre * width / 2), round(-lines / 2))
    for number, (x, y) in enumerate(boxes):
        if centre and _touch(x, y, width, middle[0], middle[1], centre * width, lines):
            return None
        for other_x, other_y in boxes[number + 1:]:
            if _touch(x, y, width, other_x, other_y, width, lines):
                return None
    left = min([x for x, _ in boxes] + ([middle[0]] if centre else []))
    top = min([y for _, y in boxes] + ([middle[1]] if centre else []))
    right = max([x + width for x, _ in boxes] + ([middle[0] + centre * width] if centre else []))
    bottom = max(y + lines for _, y in boxes)
    return Face(tuple((x - left, y - top) for x, y in boxes),
                (middle[0] - left, middle[1] - top), right - left, bottom - top)


def _touch(x: int, y: int, width: int, other_x: int, other_y: int, other_width: int,
           lines: int) -> bool:
    return x < other_x + other_width and other_x < x + width and \
        y < other_y + lines and other_y < y + lines


__all__ = ["Face", "face"]
