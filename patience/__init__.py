"""patience: patience (solitaire) card games whose rules are data.

>>> import patience
>>> game = patience.find_variant("tabbycat").deal(1)
>>> len(game.legal_moves)
7

The names below load on first use (PEP 562), so importing a small submodule — the pytest
plugin, say — does not load the whole kernel.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
    from patience.solver import SolveResult, solve
    from patience.variant import Variant, find_variant, shipped_variants

_WHERE = {
    "DealError": "patience.errors", "MoveError": "patience.errors",
    "PatienceError": "patience.errors", "PositionError": "patience.errors",
    "UnknownVariantError": "patience.errors", "VariantError": "patience.errors",
    "DEAL": "patience.game", "Game": "patience.game", "Move": "patience.game",
    "perft": "patience.perft", "SolveResult": "patience.solver", "solve": "patience.solver",
    "Variant": "patience.variant", "find_variant": "patience.variant",
    "shipped_variants": "patience.variant",
}

__all__ = [
    "DEAL",
    "DealError",
    "Game",
    "Move",
    "MoveError",
    "PatienceError",
    "PositionError",
    "SolveResult",
    "UnknownVariantError",
    "Variant",
    "VariantError",
    "find_variant",
    "perft",
    "shipped_variants",
    "solve",
]
assert sorted(__all__) == sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        value = getattr(importlib.import_module(_WHERE[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'patience' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
