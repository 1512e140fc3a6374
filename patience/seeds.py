"""Numbered deals: ours, Microsoft's and PySolFC's, as one value type.

A seed names a deal the same on every machine. ``11982`` is our deal 11982 (SplitMix64 and
Fisher–Yates, docs/rules.md); ``ms:11982`` is Microsoft's game 11982 (Windows FreeCell,
FreeCell Pro, KPat) and ``pysolfc:11982`` PySolFC's, both for every variant whose file says
how its layout maps onto pysol-cards' (the ``pysolfc:`` key, docs/authoring.md). The other
numberings are dealt by the optional package ``pysol-cards`` (the ``deals`` extra),
maintained with Freecell Solver; its board is read with :mod:`patience.boards`.

>>> parse_seed("ms:11982")
Seed(number=11982, numbering='ms')
>>> str(parse_seed(" 42 ")), str(parse_seed("PySolFC:7"))
('42', 'pysolfc:7')
"""

from __future__ import annotations

import datetime
import hashlib
from typing import TYPE_CHECKING

import attrs

from patience.distribution import install_hint
from patience.errors import DealError
from patience.limits import MAX_DEAL_NUMBER, MAX_MS_DEAL_NUMBER, MAX_PYSOLFC_DEAL_NUMBER

if TYPE_CHECKING:
    from patience.game import Game
    from patience.variant import Variant

OURS = "patience"
MICROSOFT = "ms"
PYSOLFC = "pysolfc"
#: each numbering's prefix and its numbers, lowest and highest
RANGES = {OURS: (0, MAX_DEAL_NUMBER), MICROSOFT: (1, MAX_MS_DEAL_NUMBER),
          PYSOLFC: (1, MAX_PYSOLFC_DEAL_NUMBER)}
#: how each numbering's deals are named in messages and reports
NAMES = {OURS: "our deals", MICROSOFT: "Microsoft's deals", PYSOLFC: "PySolFC's deals"}
#: the numbers a day's deal starts from in the other numberings: the million deals
#: Windows FreeCell (from Windows Vista on) and PySolFC's game-number box take
DAILY_HIGH = 1_000_000
_TEXT_LIMIT = 40  # characters of a seed as written; longer text is refused unread

INSTALL_HINT = install_hint("deals")


@attrs.frozen
class Seed:
    """A numbered deal: ``number`` in ``numbering`` (``'patience'``, ``'ms'``, ``'pysolfc'``)."""

    number: int
    numbering: str = OURS

    def __str__(self) -> str:
        return str(self.number) if self.numbering == OURS else f"{self.numbering}:{self.number}"

    @property
    def is_ours(self) -> bool:
        return self.numbering == OURS


def parse_seed(text: str | int | Seed) -> Seed:
    """The seed written ``text`` (``42``, ``ms:11982``, ``pysolfc:7``); DealError otherwise."""
    if isinstance(text, Seed):
        return text
    if isinstance(text, int) and not isinstance(text, bool):
        return _checked(text, OURS, str(text))
    written = str(text).strip()
    if len(written) > _TEXT_LIMIT:
        raise DealError(f"deal {written[:_TEXT_LIMIT]!r}… is too long: a deal is a number, "
                        "ms:N or pysolfc:N")
    prefix, colon, digits = written.rpartition(":")
    numbering = prefix.strip().lower() if colon else OURS
    if numbering not in RANGES:
        raise DealError(f"deal {written!r}: unknown numbering {prefix!r}; a deal is N (ours), "
                        "ms:N (Microsoft's) or pysolfc:N (PySolFC's)")
    digits = digits.strip().replace("_", "")
    if not (digits.isascii() and digits.isdigit()):
        raise DealError(f"deal {written!r} is not a number: a deal is N (ours), ms:N "
                        "(Microsoft's) or pysolfc:N (PySolFC's)")
    return _checked(int(digits), numbering, written)


def _checked(number: int, numbering: str, written: str) -> Seed:
    low, high = RANGES[numbering]
    if not low <= number <= high:
        raise DealError(f"deal {written!r} is out of range: {NAMES[numbering]} are numbered "
                        f"from {low} to {high:_}")
    return Seed(number, numbering)


def daily_start(variant_id: str, date: datetime.date, numbering: str = OURS) -> Seed:
    """The day's starting deal in ``numbering``: h, the first 8 bytes (big-endian) of
    sha256("patience-daily:{variant id}:{YYYY-MM-DD}"), is our deal h; in Microsoft's or
    PySolFC's numbering it is deal 1 + h mod DAILY_HIGH, among the first million, which
    other programs deal too. The day's deal is the first from there (counting up) that the
    solver proves winnable."""
    text = f"patience-daily:{variant_id}:{date.isoformat()}"
    h = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
    if numbering == OURS:
        return Seed(h)
    return Seed(1 + h % DAILY_HIGH, numbering)


def deal(variant: Variant, seed: Seed | int | str) -> Game:
    """The game of ``variant`` dealt as ``seed`` numbers it.

    Microsoft's and PySolFC's numberings need the variant's ``pysolfc:`` mapping and the
    package pysol-cards; DealError says which is missing.
    """
    seed = parse_seed(seed)
    if seed.is_ours:
        return variant.deal(seed.number)
    from patience.boards import read_board

    mapping = variant.definition.pysolfc
    if mapping is None:
        raise DealError(f"{variant.id} has no {seed.numbering}: deals: its file does not say "
                        "how pysol-cards' layout maps onto its piles (the 'pysolfc:' key; "
                        "docs/rules.md, 'Numbered deals of other programs', lists them)")
    game = read_board(variant, external_board(mapping.game, seed))
    game.seed = seed
    return game


def external_board(game_id: str, seed: Seed) -> str:
    """pysol-cards' board of its game ``game_id`` dealt as ``seed`` (ms: or pysolfc:), in
    Freecell Solver's board format (ten written ``T``)."""
    try:
        from pysol_cards.cards import CardRenderer
        from pysol_cards.deal_game import Game as PysolGame
        from pysol_cards.random_base import RandomBase
    except ImportError:
        raise DealError(f"deal {str(seed)!r} needs the package pysol-cards: "
                        f"{INSTALL_HINT}") from None
    which = RandomBase.DEALS_MS if seed.numbering == MICROSOFT else RandomBase.DEALS_PYSOLFC
    return str(PysolGame(game_id, seed.number, which).calc_layout_string(CardRenderer(True)))
