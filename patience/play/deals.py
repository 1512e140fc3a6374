"""Which deal to play: a winnable one, or the daily one (both need the solver).

The solver (``patience.solver``) owns the definitions: ``first_winnable_deal`` and
``daily_deal`` (the first deal the solver proves winnable counting up from a number made
from the variant's id and the date, with a position budget and no time limit, so everyone
gets the same deal that day). Without the solver, :func:`daily_start` gives the same
starting number, played unproved.

The daily deal of a two-deck game can take minutes to find, so it is found once per variant
(and rules hash) and date: :class:`DailyCache` keeps it in ``daily.json`` in the data
directory, for every front end (the terminal's ``--daily`` and its new-game screen, the
web's "today's deal").
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from patience import seeds
from patience.errors import SaveError
from patience.play import saves
from patience.play.session import load_solver
from patience.seeds import OURS

if TYPE_CHECKING:
    from patience.variant import Variant

DAILY_FORMAT = "patience-web-daily"  # the name the first cache (the web's) was written with
#: cached days further than this from today are dropped when the cache is written
KEEP_DAYS = 7

StopCheck = Callable[[int], bool]


def daily_start(variant: Variant, date: datetime.date, numbering: str = OURS) -> int:
    """The day's starting deal number in ``numbering`` (:func:`patience.seeds.daily_start`,
    the solver's ``daily_seed``)."""
    return seeds.daily_start(variant.id, date, numbering).number


def daily_deal(variant: Variant, date: datetime.date,
               should_stop: StopCheck | None = None, numbering: str = OURS) -> int:
    """The day's deal number in ``numbering``; SolverMissing (a PatienceError) without the
    solver. ``should_stop`` is the solver's (progress, and cancelling with SolverError)."""
    load_solver()
    from patience.solver import daily_deal as solver_daily_deal

    return int(solver_daily_deal(variant, date, should_stop=should_stop,
                                 numbering=numbering)[0])


def first_winnable(variant: Variant, start: int, should_stop: StopCheck | None = None,
                   numbering: str = OURS) -> int:
    """The first deal number from ``start`` up (in ``numbering``) that the solver proves
    winnable."""
    load_solver()
    from patience.solver import first_winnable_deal

    return int(first_winnable_deal(variant, start, should_stop=should_stop,
                                   numbering=numbering)[0])


def proof_positions() -> int:
    """The positions budget :func:`daily_deal` and :func:`first_winnable` prove a deal with
    (the solver's default): a hint at the start of such a deal searches with it
    (``Session.proven``), so it finds the win the proof found."""
    from patience.solver import DEFAULT_MAX_POSITIONS

    return DEFAULT_MAX_POSITIONS


class DailyCache:
    """The daily deals found, per variant, rules hash and date, in a JSON file.

    The cache is only a cache: a file that is not ours (or corrupt) is never overwritten —
    its deals are searched again and kept in memory — and a file that cannot be written
    costs nothing but a search next time.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.deals, self.writable = self._read()

    @classmethod
    def default(cls) -> DailyCache:
        """The cache in the data directory (``daily.json``), shared by the front ends."""
        return cls(saves.data_directory() / "daily.json")

    @staticmethod
    def key(variant: Variant, date: datetime.date, numbering: str = OURS) -> str:
        """``id:rules hash:date``, with ``:ms`` or ``:pysolfc`` before the date for the day's
        deal in another program's numbering (the date stays last: old days are dropped)."""
        other = "" if numbering == OURS else f"{numbering}:"
        return f"{variant.id}:{variant.rules_hash}:{other}{date.isoformat()}"

    def get(self, variant: Variant, date: datetime.date, numbering: str = OURS) -> int | None:
        return self.deals.get(self.key(variant, date, numbering))

    def put(self, variant: Variant, date: datetime.date, number: int,
            numbering: str = OURS) -> None:
        self.deals[self.key(variant, date, numbering)] = number
        self._write()

    def _read(self) -> tuple[dict[str, int], bool]:
        try:
            data = saves.read_versioned(self.path, DAILY_FORMAT, "daily deals file")
        except SaveError:
            return {}, False  # not ours, or corrupt: search again, keep them in memory
        deals = (data or {}).get("deals")
        if not isinstance(deals, dict):
            return {}, data is None
        return {k: v for k, v in deals.items() if isinstance(k, str) and type(v) is int}, True

    def _write(self) -> None:
        if not self.writable:
            return
        today = datetime.date.today()

        def recent(key: str) -> bool:
            try:
                return abs((datetime.date.fromisoformat(key.rsplit(":", 1)[1])
                            - today).days) <= KEEP_DAYS
            except ValueError:
                return False

        deals = {k: v for k, v in self.deals.items() if recent(k)}
        try:
            saves.write_atomically(self.path, {"format": DAILY_FORMAT,
                                               "version": saves.VERSION, "deals": deals},
                                   "daily deals file")
        except (OSError, SaveError):
            pass  # the cache is only a cache


def cached_daily_deal(variant: Variant, date: datetime.date,
                      should_stop: StopCheck | None = None,
                      cache: DailyCache | None = None, numbering: str = OURS) -> int:
    """The day's deal, from the cache when it was found before (then written there)."""
    cache = cache or DailyCache.default()
    number = cache.get(variant, date, numbering)
    if number is None:
        number = daily_deal(variant, date, should_stop, numbering)
        cache.put(variant, date, number, numbering)
    return number
