"""Which deal to play: a winnable one, or the daily one (both need the solver).

The solver (``patience.solver``) owns the definitions: ``first_winnable_deal`` and
``daily_deal`` (the first deal the solver proves winnable counting up from a number made
from the variant's id and the date, with a position budget and no time limit, so everyone
gets the same deal that day). Without the solver, :func:`daily_start` gives the same
starting number, played unproved.
"""

from __future__ import annotations

import datetime
import hashlib
from typing import TYPE_CHECKING

from patience.play.session import load_solver

if TYPE_CHECKING:
    from patience.variant import Variant


def daily_start(variant: Variant, date: datetime.date) -> int:
    """The day's starting deal number: the first 8 bytes (big-endian) of
    sha256("patience-daily:{variant id}:{YYYY-MM-DD}") — the solver's ``daily_seed``."""
    text = f"patience-daily:{variant.id}:{date.isoformat()}"
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def daily_deal(variant: Variant, date: datetime.date) -> int:
    """The day's deal number; SolverMissing (a PatienceError) without the solver."""
    load_solver()
    from patience.solver import daily_deal as solver_daily_deal

    return int(solver_daily_deal(variant, date)[0])


def first_winnable(variant: Variant, start: int) -> int:
    """The first deal number from ``start`` up that the solver proves winnable."""
    load_solver()
    from patience.solver import first_winnable_deal

    return int(first_winnable_deal(variant, start)[0])
