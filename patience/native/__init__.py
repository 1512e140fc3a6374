"""The native search core (``patience._native``, Rust) under a small Python API.

The core runs the solver's inner loop — move generation from the rule program, play and
take back, position keys, the tables, move ordering and the search with its restarts —
for any variant, from the rule program :mod:`patience.native.program` lowers it to. The
pure-Python kernel stays the reference; ``tests/test_native.py`` compares the two.

``AVAILABLE`` says whether the core is built; ``REASON`` why not (one line). The core never
raises a traceback of its own at a user: a value it cannot take (a ``ValueError`` or an
``OverflowError`` from the core), a panic it caught (a ``RuntimeError``) and one it did not
(pyo3's ``PanicException``, a ``BaseException``) all reach the caller of :func:`core`'s
methods as :class:`~patience.errors.SolverError`. The
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
from typing import TYPE_CHECKING, Any, Literal, cast

from patience.errors import SolverError
from patience.moves import runaway

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


#: what the core raises for a value it cannot take or a panic it caught (exactly these
#: types: an exception of a ``should_stop`` callback passes through unchanged)
_CORE_ERRORS = (ValueError, OverflowError, RuntimeError)


@contextlib.contextmanager
def core_errors() -> Iterator[None]:
    """Inside the block, an error of the core is a :class:`SolverError` with its message."""
    try:
        yield
    except BaseException as error:
        if _core is not None and isinstance(error, _core.RunawayError):
            raise runaway() from None  # as Python's kernel raises it, in its words
        if type(error) in _CORE_ERRORS:
            raise SolverError(f"the native core cannot do this: {error}") from None
        if type(error).__name__ == "PanicException":  # pyo3's, for a panic not caught
            raise SolverError(f"the native core failed: {error}") from None
        raise


class GuardedCore:
    """A core (``patience._native.Core``) whose methods raise :func:`core_errors`'s."""

    __slots__ = ("_core",)

    def __init__(self, loaded: Any) -> None:
        self._core = loaded

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._core, name)
        if not callable(value):
            return value

        def guarded(*args: Any, **kwargs: Any) -> Any:
            with core_errors():
                return value(*args, **kwargs)
        return guarded


def load_core(program: str) -> GuardedCore:
    """A rule program (``patience.native.program``) loaded into the core."""
    if _core is None:
        raise SolverError(f"the native engine was asked for, but {REASON}")
    with core_errors():
        return GuardedCore(_core.Core(program))


@functools.lru_cache(maxsize=64)
def core(variant: Variant) -> Core:
    """The variant's rule program loaded into the core (once per variant)."""
    if _core is None:
        raise SolverError(f"the native engine was asked for, but {REASON}")
    from patience.native.program import rule_program_text

    return cast("Core", load_core(rule_program_text(variant)))  # the same methods, guarded


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
    count: int = core(game.variant).perft(piles, stock, depth)
    return count


__all__ = ["AVAILABLE", "ENGINES", "REASON", "Engine", "EngineChoice", "GuardedCore",
           "chosen_engine", "core", "core_errors", "describe", "engine",
           "generate_moves", "load_core", "perft"]
