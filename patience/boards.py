"""Boards in the ecosystem's text formats: Freecell Solver's and black-hole-solver's.

Freecell Solver (fc-solve), PySolFC, KPat, pysol-cards and black-hole-solver exchange a
position as lines of text: ``Talon:`` (the stock, next card first), ``Foundations:``,
``Freecells:``, then one line per column from bottom to top, each optionally after ``:``::

    Foundations: H-0 C-2 D-A S-0
    Freecells: 8H - - QC
    : 4C 2C 9C 8C QS 4S 2H
    5H QH 3C AC 3H 4H QD

A card is a rank (``A``, ``2``…``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``) and a suit
(``C D H S``); ``<7H>`` lies face down; ``-`` is an empty cell. Freecell Solver writes a
foundation as ``SUIT-RANK`` (the top card of that suit, ``0`` when empty);
black-hole-solver writes its one foundation as the card on top (``Foundations: AS``), the
cards beneath being all that are not elsewhere.

Which of a variant's piles each part of the board is, is data: the variant file's
``pysolfc:`` key (:class:`BoardMapping`, docs/authoring.md), which also names the game whose
numbered deals pysol-cards deals for it (:mod:`patience.seeds`). Nothing here asks which
game it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs

from patience.cards import FACE_DOWN, SUIT_CHARS, card_code, make_card, parse_card, rank_of, suit_of
from patience.errors import DealError, PositionError

if TYPE_CHECKING:
    from patience.game import Game
    from patience.source import Item
    from patience.variant import Variant

#: pysol-cards' game ids (pysol_cards.deal_game.Game.REVERSE_MAP), so that a variant file is
#: checked without the optional package
PYSOL_GAMES = (
    "freecell", "forecell", "bakers_game", "ko_bakers_game", "kings_only_bakers_game",
    "relaxed_freecell", "eight_off", "der_katz", "der_katzenschwantz", "die_schlange",
    "seahaven", "seahaven_towers", "relaxed_seahaven", "relaxed_seahaven_towers",
    "bakers_dozen", "gypsy", "klondike", "klondike_by_threes", "casino_klondike", "small_harp",
    "thumb_and_pouch", "vegas_klondike", "whitehead", "simple_simon", "yukon",
    "beleaguered_castle", "streets_and_alleys", "citadel", "fan", "black_hole",
    "all_in_a_row", "golf", "binary_star",
)
#: the keys of ``pysolfc:``; each part but ``game`` names one of the variant's pile groups
MAPPING_KEYS = ("game", "columns", "freecells", "foundations", "foundation", "talon")
_RANKS = "A23456789TJQK"
_FOUNDATION_SUITS = "HCDS"  # the order Freecell Solver writes them in


@attrs.frozen
class BoardMapping:
    """A variant's ``pysolfc:`` key: pysol-cards' game id, and the pile group each part of
    the board is (``talon`` is always the stock)."""

    game: str
    columns: str
    freecells: str | None = None
    foundations: str | None = None  # Freecell Solver's form: one SUIT-RANK per pile
    foundation: str | None = None  # black-hole-solver's form: the one pile's top card
    talon: bool = False


def read_mapping(item: Item | None, groups: dict[str, int],
                 report: Callable[[str, Item], None]) -> BoardMapping | None:
    """The ``pysolfc:`` mapping of a variant file, checked against its pile groups (name →
    number of piles); each problem is reported with ``report(message, item)``."""
    from patience.source import Mapping, Scalar

    if item is None:
        return None
    if not isinstance(item, Mapping):
        report("pysolfc must be a mapping (game: and the pile group of each part of the "
              "board)", item)
        return None
    values: dict[str, str] = {}
    for key, value in item.items.items():
        if key not in MAPPING_KEYS:
            report(f"unknown key {key!r} in pysolfc; its keys are {', '.join(MAPPING_KEYS)}",
                  value)
        elif not isinstance(value, Scalar) or value.tag != "str":
            report(f"pysolfc.{key} must be text", value)
        else:
            values[key] = value.value
    ok = True
    for key in ("game", "columns"):
        if key not in item.items:
            report(f"pysolfc needs the key {key!r}", item)
        ok = ok and key in values
    game = values.get("game", "")
    if "game" in values and game not in PYSOL_GAMES:
        report(f"pysolfc.game {game!r} is not one of pysol-cards' games: "
              f"{', '.join(PYSOL_GAMES)}", item.items["game"])
        ok = False
    for key in ("columns", "freecells", "foundations", "foundation"):
        if key in values and values[key] not in groups:
            report(f"pysolfc.{key} names {values[key]!r}, which is not a pile group; the pile "
                  f"groups are {', '.join(groups)}", item.items[key])
            ok = False
    if "foundation" in values and values["foundation"] in groups and \
            groups[values["foundation"]] != 1:
        report(f"pysolfc.foundation names {values['foundation']!r}, which has "
              f"{groups[values['foundation']]} piles: black-hole-solver's foundation is one "
              "pile (for one per suit, write 'foundations')", item.items["foundation"])
        ok = False
    if "foundation" in values and "foundations" in values:
        report("pysolfc has 'foundation' and 'foundations': a board writes its foundations "
              "one way", item.items["foundation"])
        ok = False
    named = [values[k] for k in ("columns", "freecells", "foundations", "foundation")
             if k in values]
    if len(set(named)) != len(named):
        report("pysolfc names a pile group for two parts of the board", item)
        ok = False
    if "talon" in values and values["talon"] != "stock":
        report(f"pysolfc.talon must be 'stock' (the talon is the stock), not "
              f"{values['talon']!r}", item.items["talon"])
        ok = False
    if not ok:
        return None
    return BoardMapping(game, values["columns"], values.get("freecells"),
                        values.get("foundations"), values.get("foundation"),
                        "talon" in values)


def mapping_of(variant: Variant) -> BoardMapping:
    mapping = variant.definition.pysolfc
    if mapping is None:
        raise PositionError(f"{variant.id} has no board in Freecell Solver's format: its file "
                            "does not map the board's parts onto its piles (the 'pysolfc:' "
                            "key, docs/authoring.md)")
    return mapping


def looks_like_board(text: str) -> bool:
    """Whether ``text`` is a board (several lines, or a ``Foundations:``-style line) rather
    than a one-line position."""
    stripped = text.strip()
    return "\n" in stripped or stripped.startswith(("Foundations:", "Freecells:", "Talon:",
                                                    ":"))


# --- reading ----------------------------------------------------------------------------


def _card(token: str) -> int:
    """A card of a board: ``7H``, ``10H``, or ``<7H>`` face down."""
    down = token.startswith("<") and token.endswith(">")
    try:
        card = parse_card(token[1:-1] if down else token)
    except DealError as error:
        raise PositionError(f"board: {error.message}") from None
    return card | FACE_DOWN if down else card


def _foundation_entry(token: str) -> tuple[int, int]:
    """``H-5`` as (suit, rank); ``H-0`` is an empty foundation of hearts."""
    suit_text, _, rank_text = token.partition("-")
    rank_text = "T" if rank_text == "10" else rank_text.upper()
    suit = SUIT_CHARS.find(suit_text.upper())
    rank = 0 if rank_text == "0" else _RANKS.find(rank_text) + 1
    if len(suit_text) != 1 or suit < 0 or len(rank_text) != 1 or rank < 0:
        raise PositionError(f"board: foundation {token!r} is not SUIT-RANK, e.g. 'H-5', "
                            "'S-0'")
    return suit, rank


def read_board(variant: Variant, text: str) -> Game:
    """The position a board in Freecell Solver's (or black-hole-solver's) format describes,
    by the variant's ``pysolfc:`` mapping; PositionError if it does not fit."""
    mapping = mapping_of(variant)
    columns: list[list[int]] = []
    parts: dict[str, list[str]] = {}
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        head, colon, rest = stripped.partition(":")
        if colon and head in ("Talon", "Foundations", "Freecells"):
            if head in parts:
                raise PositionError(f"board: {head}: appears twice")
            parts[head] = rest.split()
        else:
            cards = stripped.removeprefix(":")
            columns.append([_card(token) for token in cards.split()])
    piles: dict[str, list[list[int]]] = {g.name: [[] for _ in g.indices] for g in variant.groups}
    _fill(variant, piles, mapping.columns, columns, "columns")
    if "Freecells" in parts:
        if mapping.freecells is None:
            raise PositionError(f"board: {variant.id} has no free cells (Freecells:)")
        cells = [[] if token == "-" else [_card(token)] for token in parts["Freecells"]]
        _fill(variant, piles, mapping.freecells, cells, "free cells")
    stock: list[int] = []
    if "Talon" in parts:
        if not mapping.talon:
            raise PositionError(f"board: {variant.id} has no talon (Talon:)")
        stock = [_card(token) for token in parts["Talon"]]
    if "Foundations" in parts:
        entries = parts["Foundations"]
        if mapping.foundations is not None:
            _fill(variant, piles, mapping.foundations, _suit_foundations(variant, mapping,
                                                                        entries), "foundations")
        elif mapping.foundation is not None:
            if len(entries) > 1:
                raise PositionError(f"board: Foundations: holds {len(entries)} cards; "
                                    f"{variant.id}'s foundation is one pile, written by its "
                                    "top card")
            if entries and entries[0] != "-":
                top = _card(entries[0])
                piles[mapping.foundation][0] = _beneath(variant, piles, stock, top) + [top]
        else:
            raise PositionError(f"board: {variant.id} has no foundations (Foundations:)")
    try:
        return variant.from_piles([pile for g in variant.groups for pile in piles[g.name]],
                                  [c & ~FACE_DOWN for c in reversed(stock)], "board")
    except PositionError:
        # refused: the same checks on the position's text, which the message then shows
        fields = [f"{g.id}:" + "/".join("".join(_written(c) for c in pile)
                                        for pile in piles[g.name]) for g in variant.groups]
        fields.append("s:" + "".join(card_code(c & ~FACE_DOWN) for c in stock))
        return variant.position(" ".join(fields))


def _fill(variant: Variant, piles: dict[str, list[list[int]]], group: str,
          cards: list[list[int]], what: str) -> None:
    have = len(piles[group])
    if len(cards) > have:
        raise PositionError(f"board: it has {len(cards)} {what}; {variant.id}'s {group} are "
                            f"{have}")
    if what == "columns" and len(cards) != have:
        raise PositionError(f"board: it has {len(cards)} columns; {variant.id}'s {group} are "
                            f"{have}")
    for index, pile in enumerate(cards):
        piles[group][index] = pile


def _suit_foundations(variant: Variant, mapping: BoardMapping,
                      entries: list[str]) -> list[list[int]]:
    """Freecell Solver's foundations as piles: an entry goes to the pile the variant places
    a card of its suit on, if any, else to the next free pile, in the order written."""
    assert mapping.foundations is not None
    group = variant.group_by_name[mapping.foundations]
    placed_suit = {index - group.indices.start: suit_of(card)
                   for index, card in variant.placed if index in group.indices}
    result: list[list[int] | None] = [None] * group.count
    for token in entries:
        suit, rank = _foundation_entry(token)
        pile = [make_card(r, suit) for r in range(1, rank + 1)]
        slot = next((i for i, s in placed_suit.items() if s == suit and result[i] is None),
                    None)
        if slot is None:
            slot = next((i for i in range(group.count)
                         if result[i] is None and i not in placed_suit), None)
        if slot is None:
            raise PositionError(f"board: Foundations: lists more than the {group.count} "
                                f"{group.name} of {variant.id}")
        result[slot] = pile
    return [pile or [] for pile in result]


def _beneath(variant: Variant, piles: dict[str, list[list[int]]], stock: list[int],
             top: int) -> list[int]:
    """The cards under a black-hole-solver foundation's top card: every card of the deck
    that the board shows nowhere else, in new-deck order."""
    left = list(variant.deck)
    for card in [c for group in piles.values() for pile in group for c in pile] + stock + [top]:
        if card & ~FACE_DOWN in left:
            left.remove(card & ~FACE_DOWN)
    return left


def _written(card: int) -> str:
    code = card_code(card & ~FACE_DOWN)
    return code.lower() if card & FACE_DOWN else code


# --- writing ----------------------------------------------------------------------------


def write_board(game: Game) -> str:
    """The position as a board in Freecell Solver's format (black-hole-solver's for a
    one-pile foundation); PositionError if a pile it has no place for holds cards, or a
    foundation is not one suit from its Ace up. Empty foundations and cells are left out
    when all are empty, as pysol-cards writes a new deal."""
    variant = game.variant
    mapping = mapping_of(variant)
    groups = variant.group_by_name

    def cards_of(name: str) -> list[list[int]]:
        return [game.piles[i] for i in groups[name].indices]

    mapped = {name for name in (mapping.columns, mapping.freecells, mapping.foundations,
                                mapping.foundation) if name is not None}
    for group in variant.groups:
        if group.name not in mapped and any(game.piles[i] for i in group.indices):
            raise PositionError(f"this position of {variant.id} cannot be written as a board: "
                                f"its {group.name} hold cards, and the board has no place for "
                                "them")
    if game.stock and not mapping.talon:
        raise PositionError(f"this position of {variant.id} cannot be written as a board: "
                            "its stock holds cards, and the board has no talon")
    lines = []
    if mapping.talon:
        lines.append(" ".join(["Talon:", *(card_code(c) for c in reversed(game.stock))]))
    if mapping.foundations is not None and any(cards_of(mapping.foundations)):
        lines.append("Foundations: " + " ".join(_suit_entries(variant,
                                                              cards_of(mapping.foundations))))
    elif mapping.foundation is not None:
        pile = cards_of(mapping.foundation)[0]
        lines.append("Foundations: " + (_board_card(pile[-1]) if pile else "-"))
    if mapping.freecells is not None and any(cards_of(mapping.freecells)):
        cells = cards_of(mapping.freecells)
        if any(len(cell) > 1 for cell in cells):
            raise PositionError(f"this position of {variant.id} cannot be written as a board: "
                                "a free cell holds more than one card")
        lines.append("Freecells: " + " ".join(_board_card(c[0]) if c else "-" for c in cells))
    for pile in cards_of(mapping.columns):
        lines.append(" ".join(_board_card(c) for c in pile) if pile else ":")
    return "\n".join(lines) + "\n"


def _board_card(card: int) -> str:
    code = card_code(card & ~FACE_DOWN)
    return f"<{code}>" if card & FACE_DOWN else code


def _suit_entries(variant: Variant, piles: list[list[int]]) -> list[str]:
    """Each foundation pile as ``SUIT-RANK``; an empty one as ``SUIT-0`` of a suit no other
    pile holds, so that reading the board back puts every pile where it was."""
    entries: list[str | None] = []
    used = set()
    for pile in piles:
        if not pile:
            entries.append(None)
            continue
        suit = suit_of(pile[0])
        if [c & ~FACE_DOWN for c in pile] != [make_card(r, suit) for r in
                                               range(1, len(pile) + 1)]:
            raise PositionError(f"this position of {variant.id} cannot be written as a board: "
                                f"a foundation holds {' '.join(card_code(c) for c in pile)}, "
                                "not one suit from its Ace up")
        used.add(suit)
        entries.append(f"{SUIT_CHARS[suit]}-{_RANKS[rank_of(pile[-1]) - 1]}")
    spare = iter(s for s in (SUIT_CHARS.index(c) for c in _FOUNDATION_SUITS) if s not in used)
    return [entry if entry is not None else f"{SUIT_CHARS[next(spare, 0)]}-0"
            for entry in entries]
