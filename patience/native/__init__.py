"""The native search core (``patience._native``, Rust) under a small Python API.

The core runs the solver's inner loop — move generation from the rule program, play and
take back, position keys, the tables, move ordering and the search with its restarts —
for any variant, from the rule program :mod:`patience.native.program` lowers it to. The
pure-Python kernel stays the reference; ``tests/test_native.py`` compares the two.

``AVAILABLE`` says whether the core is built; ``REASON`` why not (one line). The
environment variable ``PATIENCE_ENGINE=python`` makes :func:`engine` choose the pure-Python
solver everywhere, whether or not the core is built; :func:`chosen_engine` does the same
for one block of code (``patience test --engine`` runs the battery inside it).
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Literal

from patience.errors import ForcedMovesError, SolverError

if TYPE_CHECKING:
    from patience._native import Core
    from patience.game import Game
    from patience.moves import MoveTuple
    from patience.variant import Variant

Engine = Literal["native", "python"]
EngineChoice = Literal["auto", "native", "python"]
ENGINES: tuple[EngineChoice, ...] = ("auto", "native", "python")

_core: Any = None
try:
    import patience._native as _loaded  # type: ignore[import-not-found, unused-ignore]
except ImportError as error:  # not built: the pure-Python solver does everything
    AVAILABLE = False
    REASON: str | None = ("native core not built: pure-Python solver"
                          f" ({type(error).__name__}: {error})")
else:
    _core = _loaded
    from patience.native.wire import PROGRAM_VERSION

    if getattr(_core, "PROGRAM_VERSION", None) != PROGRAM_VERSION:
        AVAILABLE = False
        REASON = ("native core out of date (rule program version "
                  f"{getattr(_core, 'PROGRAM_VERSION', '?')}, want {PROGRAM_VERSION}):"
                  " pure-Python solver; rebuild it")
        _core = None
    else:
        AVAILABLE = True
        REASON = None


#: what ``"auto"`` means inside a :func:`chosen_engine` block
_AUTO: ContextVar[EngineChoice] = ContextVar("patience_auto_engine", default="auto")


@contextlib.contextmanager
def chosen_engine(choice: EngineChoice) -> Iterator[None]:
    """Within the block, every solve asked for ``engine="auto"`` uses ``choice`` instead
    (``"native"`` fails there, as :func:`engine` does, when the core is not built).

    >>> with chosen_engine("python"):
    ...     engine("auto")
    'python'
    """
    engine(choice)  # an unknown name, or native without the core, fails here and now
    token = _AUTO.set(choice)
    try:
        yield
    finally:
        _AUTO.reset(token)


def engine(choice: str = "auto") -> Engine:
    """The engine a solve with ``engine=choice`` uses.

    ``"auto"`` is the native core when it is built, unless ``PATIENCE_ENGINE=python`` or a
    :func:`chosen_engine` block says otherwise; ``"native"`` raises
    :class:`~patience.errors.SolverError` (with :data:`REASON`) when the core is not built.
    """
    if choice not in ENGINES:
        raise SolverError(f"engine must be one of {', '.join(ENGINES)}, got {choice!r}")
    if choice == "auto":
        choice = _AUTO.get()
    if choice == "python":
        return "python"
    if choice == "native":
        if not AVAILABLE:
            raise SolverError(f"the native engine was asked for, but {REASON}")
        return "native"
    forced = os.environ.get("PATIENCE_ENGINE", "").strip().lower()
    if forced == "python" or not AVAILABLE:
        return "python"
    return "native"


def describe() -> str:
    """One line naming the engine ``"auto"`` uses, and why when it is pure Python."""
    chosen = engine("auto")
    if chosen == "native":
        return "solver engine: native core"
    if AVAILABLE:
        return "solver engine: pure Python (PATIENCE_ENGINE=python)"
    return f"solver engine: {REASON}"


@functools.lru_cache(maxsize=64)
def core(variant: Variant) -> Core:
    """The variant's rule program loaded into the core (once per variant)."""
    if _core is None:
        raise SolverError(f"the native engine was asked for, but {REASON}")
    from patience.native.program import rule_program_text

    loaded: Core = _core.Core(rule_program_text(variant))
    return loaded


@contextlib.contextmanager
def forced_moves_reported() -> Iterator[None]:
    """The core's error for forced moves that never end (``RUNAWAY`` in native/src/moves.rs,
    past ``MAX_FORCED_MOVES``) raised as :class:`~patience.errors.ForcedMovesError`, as
    Python's kernel raises it."""
    try:
        yield
    except ValueError as error:
        if str(error).startswith("the forced moves "):
            raise ForcedMovesError(str(error)) from None
        raise


def _position(game: Game) -> tuple[list[list[int]], list[int]]:
    return [list(p) for p in game.piles], list(game.stock)


def generate_moves(game: Game) -> list[MoveTuple]:
    """The legal moves of ``game``'s position, as the core generates them."""
    piles, stock = _position(game)
    moves: list[MoveTuple] = core(game.variant).generate_moves(piles, stock)
    return moves


def perft(game: Game, depth: int) -> int:
    """Perft computed by the core (the same count as :func:`patience.perft.perft`)."""
    piles, stock = _position(game)
    with forced_moves_reported():
        count: int = core(game.variant).perft(piles, stock, depth)
    return count


__all__ = ["AVAILABLE", "ENGINES", "REASON", "Engine", "EngineChoice", "chosen_engine", "core",
           "describe", "engine", "forced_moves_reported", "generate_moves", "perft"]
