"""Every number given to patience from outside — a budget, a time limit, a memory cap, a
depth, a port — checked in one place.

Each is a :class:`Bound`: a range of whole numbers, or of real numbers (seconds), with the
parameter's name in the Python API. The solver's entry points (:func:`patience.solve` and
the rest) check what they are given with :meth:`Bound.check`; every numeric option of the
command line is read through the same bounds (``patience.cli.numbers``), so a number is
refused with the same words whichever way it came. The values are in
:mod:`patience.limits`; ``docs/limits.md`` lists them.

Refused: a number out of range, a real number where a whole one is meant, ``True``, NaN and
the infinities. The error (``SolverError`` for the solver's parameters, ``ArgumentError``
for the rest: both are ``ValueError`` and ``PatienceError``) names the parameter, the value
and the range:

>>> PERFT_DEPTH.check(65)
Traceback (most recent call last):
  ...
patience.errors.ArgumentError: depth must be a whole number from 0 to 64, not 65
>>> try:
...     TIME_LIMIT.check(float("nan"))
... except ValueError as error:
...     print(error)
time_limit must be a number of seconds above 0 and at most 1_000_000_000, not nan
>>> TIME_LIMIT.check(2)
2.0
"""

from __future__ import annotations

import math
import operator

import attrs

from patience.errors import ArgumentError, PatienceError, SolverError
from patience.limits import (
    MAX_CHUNK_DEALS,
    MAX_DEAL_NUMBER,
    MAX_EXAMPLES,
    MAX_INTEGER,
    MAX_MEMORY,
    MAX_PERFT_DEPTH,
    MAX_POSITIONS,
    MAX_TIME_LIMIT,
    MAX_WORKERS,
)


@attrs.frozen
class Bound:
    """The numbers a parameter takes: from ``low`` to ``high`` (``low`` itself left out
    when ``above``), whole numbers unless ``unit`` is ``"seconds"``."""

    name: str
    low: int
    high: int
    unit: str | None = None  # "seconds" (any real number), "bytes" (a whole number), None
    above: bool = False
    refusal: type[PatienceError] = ArgumentError  # the error it raises

    @property
    def whole(self) -> bool:
        return self.unit != "seconds"

    def describe(self) -> str:
        """The range in words: ``a whole number from 1 to 64``."""
        kind = f"a number of {self.unit}" if self.unit else "a whole number"
        if self.above:
            return f"{kind} above {self.low:_} and at most {self.high:_}"
        return f"{kind} from {self.low:_} to {self.high:_}"

    def check(self, value: object, name: str | None = None) -> int | float:
        """``value`` as an int (a float for seconds), or ``self.refusal`` naming ``name``
        (the parameter's name by default), the value and the range."""
        number = self.number(value)
        if number is None or math.isnan(number) or number < self.low or number > self.high \
                or (self.above and number == self.low):
            raise self.refusal(f"{name or self.name} must be {self.describe()}, "
                             f"not {_shown(value)}")
        return number

    def number(self, value: object) -> int | float | None:
        """``value`` as a number of the right kind, or None (a bool, text, a float where a
        whole number is meant)."""
        if isinstance(value, bool):
            return None
        if not self.whole and isinstance(value, float):
            return value
        try:
            whole = operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            return None
        return whole if self.whole else float(whole)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "…"


# --- the solver's parameters --------------------------------------------------------------

MAX_POSITIONS_BOUND = Bound("max_positions", 1, MAX_POSITIONS, refusal=SolverError)
TIME_LIMIT = Bound("time_limit", 0, MAX_TIME_LIMIT, "seconds", above=True, refusal=SolverError)
MAX_MEMORY_BOUND = Bound("max_memory", 1, MAX_MEMORY, "bytes", refusal=SolverError)
SAMPLES = Bound("samples", 1, 1_000, refusal=SolverError)
ATTEMPTS = Bound("attempts", 1, MAX_POSITIONS, refusal=SolverError)
# --- the command line's other numbers -----------------------------------------------------

PERFT_DEPTH = Bound("depth", 0, MAX_PERFT_DEPTH)
FIRST_DEAL = Bound("from", 0, MAX_DEAL_NUMBER)  # 'deal --winnable --from N'

WORKERS = Bound("workers", 1, MAX_WORKERS)
CHUNK_SIZE = Bound("chunk_size", 1, MAX_CHUNK_DEALS)
PORT = Bound("port", 0, 65_535)
EXAMPLES = Bound("examples", 1, MAX_EXAMPLES)
HYPOTHESIS_SEED = Bound("seed", -MAX_INTEGER, MAX_INTEGER)
MUTANTS_SECONDS = Bound("mutants_seconds", 1, 86_400, "seconds")
DIFF_DEALS = Bound("deals", 1, 10_000)
DIFF_POSITIONS = Bound("max_positions", 1, 1_000_000)
DIFF_STATS = Bound("stats", 1, 100_000)


def check_budget(max_positions: object, time_limit: object = None,
                 max_memory: object = None) -> tuple[int, float | None, int | None]:
    """A search's budget checked: positions, seconds (None: no limit), bytes (None)."""
    positions = int(MAX_POSITIONS_BOUND.check(max_positions))
    seconds = None if time_limit is None else float(TIME_LIMIT.check(time_limit))
    memory = None if max_memory is None else int(MAX_MEMORY_BOUND.check(max_memory))
    return positions, seconds, memory


__all__ = ["ATTEMPTS", "CHUNK_SIZE", "DIFF_DEALS", "DIFF_POSITIONS", "DIFF_STATS", "EXAMPLES",
           "FIRST_DEAL", "HYPOTHESIS_SEED", "MAX_DEAL_NUMBER", "MAX_MEMORY_BOUND",
           "MAX_POSITIONS_BOUND", "MUTANTS_SECONDS", "PERFT_DEPTH", "PORT", "SAMPLES",
           "TIME_LIMIT", "WORKERS", "Bound", "check_budget"]
