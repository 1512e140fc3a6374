"""Where each group stands on the table: the facts both front ends draw from.

The terminal board (:mod:`patience.play.layout`) and the page (:mod:`patience.web.snapshot`
sends these facts, ``patience/web/static/app.js`` draws them) arrange a game's table from
its groups alone, never from its name:

- the **top row** holds the stock, a waste (:func:`is_waste_like`, beside the stock), the
  groups shown as a ``stack`` (foundations) and the groups whose piles hold one card at
  most (:func:`holds_one_card`: FreeCell's cells, beside the foundations);
- every other group is a **block** below, drawn as its ``layout`` says
  (:func:`layout_facts`): a ``row`` of fans (which a front end may wrap onto more lines
  when it does not fit across, or when its fans are short and many), a ``grid`` (its
  rows, each on a line of its own), or an ``overlap`` layout (each row of piles at its x
  positions in half-card units, back row first, each row lying half over the one before:
  a pyramid, peaks), or a ``ring`` (its piles round a circle, like the hours of a clock:
  ``hours`` gives each pile's place, from 1 to ``places``, the last at the top), with the
  groups whose kind is ``centre`` (``ring`` names the group) in a row at its middle.

>>> from patience import find_variant
>>> giza = find_variant("giza")
>>> [(g.name, in_top_row(giza, g), layout_facts(g)["kind"]) for g in giza.groups]
[('pyramid', False, 'overlap'), ('reserves', False, 'row'), ('foundation', True, 'row')]
>>> layout_facts(giza.groups[0])["rows"][:3]
[[6], [5, 7], [4, 6, 8]]
>>> sorted(covered_piles(giza.deal(1)))[:3], len(covered_piles(giza.deal(1)))
([0, 1, 2], 21)
>>> clock = find_variant("clock")
>>> [(g.name, layout_facts(g)["kind"]) for g in clock.groups]
[('hours', 'ring'), ('middle', 'centre'), ('hand', 'centre')]
>>> layout_facts(clock.groups[0])["hours"][:3], layout_facts(clock.groups[2])["ring"]
([1, 2, 3], 'hours')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from patience.language import Attribute, BoolOp, Compare, Integer, Name
from patience.settings import Show

if TYPE_CHECKING:
    from patience.game import Game
    from patience.variant import Group, Variant

#: what :func:`layout_facts` calls each kind of layout
ROW, GRID, OVERLAP, RING, CENTRE = "row", "grid", "overlap", "ring", "centre"
#: the most cards dealt to each pile of a group of short fans (:func:`is_short`)
SHORT_FAN = 3


def is_waste_like(variant: Variant, group: Group) -> bool:
    """A fan the stock turns cards onto that starts empty (Klondike's waste): drawn in the
    top row beside the stock, its cards fanned sideways."""
    return (group.show is Show.FAN and group.count <= 2 and sum(group.deal) == 0
            and all(index in variant.deal_targets for index in group.indices))


def holds_one_card(variant: Variant, group: Group) -> bool:
    """Whether no pile of ``group`` ever holds more than one card (FreeCell's cells, King
    Albert's reserve), read off its rules: at most one card dealt to each pile, none placed
    or filled in, and its ``accepts`` rule false, or with the conjuncts ``pile.empty`` and
    ``run.size == 1``. Such a group is drawn in the top row, beside the foundations, so the
    columns have the width of the table to themselves."""
    if any(count > 1 for count in group.deal) or any(group.place) or \
            group.fill_from is not None or group.to_bottom is not None or \
            any(index in variant.deal_targets for index in group.indices) or \
            group.layout is not None or is_drawn_round(group):
        return False
    if group.accepts.never:
        return True
    node = group.accepts.node
    conjuncts = node.values if isinstance(node, BoolOp) and node.op == "and" else (node,)
    return any(_is_attribute(c, "pile", "empty") for c in conjuncts) and any(
        isinstance(c, Compare) and c.op == "==" and _is_attribute(c.left, "run", "size")
        and isinstance(c.right, Integer) and c.right.value == 1 for c in conjuncts)


def _is_attribute(node: object, name: str, attribute: str) -> bool:
    return (isinstance(node, Attribute) and node.name == attribute
            and isinstance(node.value, Name) and node.value.id == name)


def in_top_row(variant: Variant, group: Group) -> bool:
    """Whether ``group`` stands in the top row (stacks, a waste, one-card cells)."""
    return group.layout is None and not is_drawn_round(group) and (
        group.show is Show.STACK or is_waste_like(variant, group)
        or holds_one_card(variant, group))


def is_drawn_round(group: Group) -> bool:
    """Whether ``group`` stands in a ring, or at the centre of one."""
    return group.ring is not None or group.centre is not None


def centre_of(variant: Variant, group: Group) -> list[Group]:
    """The groups standing at the centre of ``group``'s ring, in the file's order."""
    return [other for other in variant.groups if other.centre == group.name]


def layout_facts(group: Group) -> dict[str, Any]:
    """How ``group``'s piles stand: ``kind`` (``row``, ``grid``, ``overlap``, ``ring`` or
    ``centre``; a ring's ``hours`` and ``places``, a centre's ``ring``), ``rows``,
    the x positions of each row's piles in half-card units (piles numbered row by row, back
    row first), and ``short``: whether its piles are short fans (dealt at most
    :data:`SHORT_FAN` cards each), which a row of many may stand in several lines."""
    layout = group.layout
    kind = RING if group.ring is not None else CENTRE if group.centre is not None else \
        ROW if layout is None else OVERLAP if layout.overlap else GRID
    facts: dict[str, Any] = {"kind": kind,
                             "rows": [list(row) for row in group.arrangement.rows],
                             "short": is_short(group)}
    if group.ring is not None:
        facts.update(hours=list(group.ring.hours()), places=group.ring.places)
    if group.centre is not None:
        facts["ring"] = group.centre
    return facts


def is_short(group: Group) -> bool:
    """Whether ``group``'s piles are short fans: dealt at most :data:`SHORT_FAN` cards each
    (La Belle Lucie's fans of three, Accordion's single cards), not columns that are dealt
    long (Klondike's, FreeCell's)."""
    return max(group.deal, default=0) <= SHORT_FAN


def covered_piles(game: Game) -> frozenset[int]:
    """The piles a pile with a card lies on (an overlap layout): they give no card."""
    covering = game.variant.pile_maps.covering()
    return frozenset(pile for pile, over in enumerate(covering)
                     if any(game.piles[other] for other in over))


__all__ = ["centre_of", "covered_piles", "holds_one_card", "in_top_row", "is_drawn_round",
           "is_short", "is_waste_like", "layout_facts"]
