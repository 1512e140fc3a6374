"""patience: patience (solitaire) card games whose rules are data.

>>> import patience
>>> game = patience.find_variant("tabbycat").deal(1)
>>> len(game.legal_moves)
7

The names below load on first use (PEP 562), so importing a small submodule — the pytest
plugin, say — does not load the whole kernel. ``patience.perft`` is the function, also
after the submodule of the same name has been imported.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

# The public names and the module each comes from: the one list. ``__all__`` is made from
# it; the imports for type checkers below repeat it, and tests/test_public_api.py checks
# that they agree.
_WHERE = {
    "DealError": "patience.errors", "MoveError": "patience.errors",
    "PatienceError": "patience.errors", "PositionError": "patience.errors",
    "UnknownVariantError": "patience.errors", "VariantError": "patience.errors",
    "DEAL": "patience.game", "Game": "patience.game", "Move": "patience.game",
    "perft": "patience.perft", "SolveResult": "patience.solver", "solve": "patience.solver",
    "Variant": "patience.variant", "find_variant": "patience.variant",
    "shipped_variants": "patience.variant",
}

__all__ = list(_WHERE)

if TYPE_CHECKING:  # 'X as X': an explicit re-export, which mypy --strict and pyright honour
    from patience.errors import DealError as DealError
    from patience.errors import MoveError as MoveError
    from patience.errors import PatienceError as PatienceError
    from patience.errors import PositionError as PositionError
    from patience.errors import UnknownVariantError as UnknownVariantError
    from patience.errors import VariantError as VariantError
    from patience.game import DEAL as DEAL
    from patience.game import Game as Game
    from patience.game import Move as Move
    from patience.perft import perft as perft
    from patience.solver import SolveResult as SolveResult
    from patience.solver import solve as solve
    from patience.variant import Variant as Variant
    from patience.variant import find_variant as find_variant
    from patience.variant import shipped_variants as shipped_variants


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        value = getattr(importlib.import_module(_WHERE[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'patience' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


class _Package(types.ModuleType):
    """Importing a submodule sets it as an attribute of its package; where a public name is
    also a submodule's name (``perft``), the public name stays what it is."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _WHERE and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
