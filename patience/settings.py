"""The enumerated settings of a variant file, typed.

Each enum's values are the words a variant file writes (``target: first``), so
``Target("first")`` reads a file's word and ``Target.FIRST.value`` writes it back. They mix
in ``str`` only so that their values serialise as the file's words; code compares members
with ``is``.

>>> Target("first") is Target.FIRST
True
>>> [removal.value for removal in Removal]
['optional', 'forced']
"""

from __future__ import annotations

import enum


class _Word(str, enum.Enum):
    """A setting whose text is the file's word, in every Python version."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)


class Target(_Word):
    """Where a move into a pile group lands."""

    EACH = "each"  #: a move names the pile (``c1:1-c4``)
    FIRST = "first"  #: a move names the group and lands on its first accepting pile (``f``)


class Removal(_Word):
    """Whether moves into a group are the player's choice or made at once."""

    OPTIONAL = "optional"
    FORCED = "forced"  #: made at once after every move and deal, until none is left


class Lands(_Word):
    """Where the cards of a move land on a pile of a group."""

    TOP = "top"  #: on its cards
    BOTTOM = "bottom"  #: under them (Clock: a card turned goes under the pile its rank names)


class Show(_Word):
    """How a pile is drawn."""

    FAN = "fan"  #: every card
    STACK = "stack"  #: only the top card and a count


class EmptyPiles(_Word):
    """Whether the stock's deal gives a card to an empty deal target."""

    INCLUDE = "include"
    SKIP = "skip"
    ONLY = "only"  # a deal gives a card to the empty deal targets alone


def words(kind: type[enum.Enum]) -> tuple[str, ...]:
    """The file words of an enumerated setting, in order (the first is the default)."""
    return tuple(member.value for member in kind)
