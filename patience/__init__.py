"""patience: patience (solitaire) card games whose rules are data.

>>> import patience
>>> game = patience.find_variant("tabbycat").deal(1)
>>> len(game.legal_moves)
7
"""

from patience.errors import (
    DealError,
    MoveError,
    PatienceError,
    PositionError,
    UnknownVariantError,
    VariantError,
)
from patience.game import DEAL, Game, Move
from patience.perft import perft
from patience.variant import Variant, find_variant, shipped_variants

__all__ = [
    "DEAL",
    "DealError",
    "Game",
    "Move",
    "MoveError",
    "PatienceError",
    "PositionError",
    "UnknownVariantError",
    "Variant",
    "VariantError",
    "find_variant",
    "perft",
    "shipped_variants",
]
