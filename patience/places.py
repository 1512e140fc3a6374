"""Places of piles: a group as a row, a grid or an overlapping layout, and neighbours.

A group's piles stand in rows (docs/authoring.md, "Places"): one row when the group has
no ``layout``, ``rows × columns`` numbered row by row, or the rows of an ``overlap``
layout (x positions in half-card units, back row first). Every pile has a place: its
``index`` in the group, its ``row`` and its ``column`` (its place in its row), all
counted from 1. A neighbour is the pile some places away in a direction, or none (past
the edge of the group); the rule language reads "no pile" as an empty pile that is no
pile of any group (:data:`NO_PILE` in the maps below).

>>> grid = Arrangement.grid(2, 3)
>>> grid.places()
((1, 1, 1), (2, 1, 2), (3, 1, 3), (4, 2, 1), (5, 2, 2), (6, 2, 3))
>>> grid.neighbour(0, "right", 2), grid.neighbour(0, "below", 1), grid.neighbour(0, "left", 1)
(2, 3, None)
>>> Arrangement.overlapping(((2,), (1, 3))).covering(0)
(1, 2)

A group may also stand in a ring, like the hours of a clock (``layout: {ring: 12}``), and
another at its centre (``layout: {centre: hours}``): that is where the front ends draw them
(:class:`Ring`), and nothing else. A rule reads such a group's places as one row, its
first pile at the left and no neighbour past either end: the ring does not wrap, and a
ring or a centre changes no rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

import attrs

#: the neighbour functions of the rule language: (rows, columns) moved per step
DIRECTIONS: dict[str, tuple[int, int]] = {
    "left": (0, -1), "right": (0, 1), "above": (-1, 0), "below": (1, 0),
    "above_left": (-1, -1), "above_right": (-1, 1),
    "below_left": (1, -1), "below_right": (1, 1),
}

#: the pile attributes a place gives, in the order of :meth:`Arrangement.places`
PLACE_ATTRIBUTES = ("index", "row", "column")

#: a neighbour past the edge, in the maps of pile numbers below
NO_PILE = -1


@attrs.frozen
class Arrangement:
    """How one group's piles stand: the x positions of each row's piles (back row first),
    and whether a row overlaps the one before it (a pile is then covered by the piles of
    the next row whose x differs from its own by at most 1)."""

    rows: tuple[tuple[int, ...], ...]
    overlap: bool = False

    @classmethod
    def row(cls, count: int) -> Arrangement:
        return cls((tuple(2 * column for column in range(count)),))

    @classmethod
    def grid(cls, rows: int, columns: int) -> Arrangement:
        return cls(tuple(tuple(2 * column for column in range(columns))
                         for _ in range(rows)))

    @classmethod
    def overlapping(cls, rows: Sequence[Sequence[int]]) -> Arrangement:
        return cls(tuple(tuple(row) for row in rows), overlap=True)

    @property
    def count(self) -> int:
        return sum(len(row) for row in self.rows)

    @cached_property
    def _starts(self) -> tuple[int, ...]:
        starts, total = [], 0
        for row in self.rows:
            starts.append(total)
            total += len(row)
        return tuple(starts)

    def places(self) -> tuple[tuple[int, int, int], ...]:
        """(index, row, column) of each pile, in pile order, counted from 1."""
        return tuple((start + column + 1, row + 1, column + 1)
                     for row, (start, xs) in enumerate(zip(self._starts, self.rows))
                     for column in range(len(xs)))

    def position(self, row: int, column: int) -> int | None:
        """The pile (0-based, in the group) at a 0-based row and column, or None."""
        if 0 <= row < len(self.rows) and 0 <= column < len(self.rows[row]):
            return self._starts[row] + column
        return None

    def neighbour(self, position: int, direction: str, distance: int) -> int | None:
        """The pile ``distance`` steps from the pile at ``position`` (both 0-based in the
        group) in ``direction`` (one of :data:`DIRECTIONS`), or None past the edge."""
        _, row, column = self.places()[position]
        rows, columns = DIRECTIONS[direction]
        return self.position(row - 1 + rows * distance, column - 1 + columns * distance)

    def covering(self, position: int) -> tuple[int, ...]:
        """The piles (0-based in the group) that cover the pile at ``position``: those of
        the next row whose x differs by at most 1; none unless the layout overlaps."""
        _, row, column = self.places()[position]
        if not self.overlap or row >= len(self.rows):
            return ()
        x = self.rows[row - 1][column - 1]
        return tuple(self._starts[row] + index for index, other in enumerate(self.rows[row])
                     if abs(other - x) <= 1)


@attrs.frozen
class Ring:
    """Where a group in a ring is drawn: ``places`` places round a circle, clockwise, the
    last at the top (twelve o'clock on a clock face), its first pile at place ``start``
    and each next pile one place clockwise. Drawing data only: the rules read the group as
    one row (see the module's docstring).

    >>> Ring(12).hours()
    (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
    >>> Ring(12, start=5).hours()[:3], Ring(12, start=5).angle(7)
    ((5, 6, 7), 0.0)
    """

    places: int
    start: int = 1

    def hours(self) -> tuple[int, ...]:
        """The place of each pile, in pile order, from 1 (one o'clock) to ``places`` (the
        top)."""
        return tuple((self.start - 1 + position) % self.places + 1
                     for position in range(self.places))

    def angle(self, position: int) -> float:
        """The angle of the pile at ``position`` (0-based) clockwise from the top, in turns
        (0 ≤ angle < 1)."""
        return (self.hours()[position] % self.places) / self.places


@attrs.frozen
class PileMaps:
    """The places of every pile of a variant (each group's :class:`Arrangement` from its
    first pile number), and the maps the rules read: a pile's number to its place, to its
    neighbour, to the piles covering it."""

    groups: tuple[tuple[int, Arrangement], ...]  # (first pile number, arrangement)
    _made: dict[tuple[str, int], tuple[int, ...]] = attrs.field(
        factory=dict, eq=False, repr=False, init=False)

    @cached_property
    def piles(self) -> int:
        return sum(arrangement.count for _, arrangement in self.groups)

    @cached_property
    def _places(self) -> tuple[tuple[int, int, int], ...]:
        return tuple(place for _, arrangement in self.groups for place in arrangement.places())

    def place(self, attribute: str) -> tuple[int, ...]:
        """``attribute`` (one of :data:`PLACE_ATTRIBUTES`) of each pile, by pile number."""
        column = PLACE_ATTRIBUTES.index(attribute)
        return tuple(place[column] for place in self._places)

    def neighbours(self, direction: str, distance: int) -> tuple[int, ...]:
        """Each pile's neighbour ``distance`` steps in ``direction``, by pile number
        (:data:`NO_PILE` past the edge)."""
        made = self._made.get((direction, distance))
        if made is not None:
            return made
        found = []
        for start, arrangement in self.groups:
            for position in range(arrangement.count):
                other = arrangement.neighbour(position, direction, distance)
                found.append(NO_PILE if other is None else start + other)
        self._made[direction, distance] = tuple(found)
        return self._made[direction, distance]

    def covering(self) -> tuple[tuple[int, ...], ...]:
        """The piles covering each pile, by pile number (empty: none covers it)."""
        return tuple(tuple(start + other for other in arrangement.covering(position))
                     for start, arrangement in self.groups
                     for position in range(arrangement.count))

    @cached_property
    def covering_maps(self) -> tuple[tuple[int, ...], ...]:
        """The covering piles as maps read like neighbours: the k-th map gives each pile its
        k-th covering pile (:data:`NO_PILE` when it has fewer), so ``pile.covered`` is "one
        of these neighbours is not empty". As many maps as a pile has covering piles at
        most (at most 3; none without an overlapping layout).

        >>> PileMaps(((0, Arrangement.overlapping(((2,), (1, 3)))),)).covering_maps
        ((1, -1, -1), (2, -1, -1))
        """
        covering = self.covering()
        most = max((len(piles) for piles in covering), default=0)
        return tuple(tuple(piles[k] if k < len(piles) else NO_PILE for piles in covering)
                     for k in range(most))

    @cached_property
    def overlaps(self) -> bool:
        """Whether any group overlaps (some pile may be covered)."""
        return any(arrangement.overlap for _, arrangement in self.groups)


def compose(first: Sequence[int], then: Sequence[int]) -> tuple[int, ...]:
    """The map ``then`` after ``first`` (no pile stays no pile): the neighbour of a
    neighbour is one map read once.

    >>> compose((1, 2, NO_PILE), (NO_PILE, 0, 1))
    (0, 1, -1)
    """
    return tuple(NO_PILE if pile == NO_PILE else then[pile] for pile in first)
