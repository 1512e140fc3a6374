"""Daily and proven-winnable deals for the browser, found without making a request wait.

A search for a deal the solver proves winnable can take a fraction of a second (Tabby Cat)
or minutes (the two-deck Maine Coon's daily deal). So each search runs in a worker process
(one at a time, so the server's own requests keep a core), and a request waits for it at
most ``wait`` seconds: then it is told "still looking" and asks again. Found deals are
kept:

- the daily deal, per variant (and its rules hash) and date, in the terminal's cache
  (:class:`patience.play.deals.DailyCache`, ``daily.json`` in the data directory), so it
  is instant after the first request, also after a restart, and the terminal's ``--daily``
  finds it there too; it is the terminal's daily deal (``patience.play.deals.daily_deal``:
  a position budget, no time limit, so everyone gets the same deal that day);
- a winnable deal: when one is handed out, the next one is searched for at once, so a
  second "winnable deal" is instant too. The search tries ``attempts`` deals from a random
  number on, each with ``positions`` positions, and says so when none was proven winnable.
"""

from __future__ import annotations

import datetime
import multiprocessing
import random
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import attrs

from patience.errors import PatienceError
from patience.play.deals import DailyCache
from patience.seeds import OURS

if TYPE_CHECKING:
    from patience.variant import Variant

WAIT_SECONDS = 2.0
WINNABLE_POSITIONS = 200_000
WINNABLE_ATTEMPTS = 100


class Found(NamedTuple):
    """A deal number, or None with ``pending`` (still looking) or an ``error`` message."""

    number: int | None
    pending: bool = False
    error: str = ""


def search(kind: str, variant_path: str, argument: Any) -> int:
    """Find a deal (run in the worker process): ``kind`` is ``"daily"`` (argument: the ISO
    date and the numbering) or ``"winnable"`` (argument: ``(start, positions, attempts)``)."""
    from patience.variant import find_variant

    variant = find_variant(variant_path)
    if kind == "daily":
        from patience.play.deals import daily_deal

        date, numbering = argument
        return daily_deal(variant, datetime.date.fromisoformat(date), numbering=numbering)
    from patience.solver import first_winnable_deal

    start, positions, attempts = argument
    return int(first_winnable_deal(variant, start, positions, attempts)[0])


def _child(connection: Any, kind: str, variant_path: str, argument: Any) -> None:
    try:
        connection.send(("ok", search(kind, variant_path, argument)))
    except PatienceError as error:
        connection.send(("error", str(error)))
    except BaseException as error:  # noqa: BLE001 — reported to the parent, never raised
        connection.send(("error", f"the search failed: {type(error).__name__}: {error}"))
    finally:
        connection.close()


class ProcessRunner:
    """Runs :func:`search` in a fresh (spawned) process, one at a time; ``close`` ends it."""

    def __init__(self) -> None:
        self._context = multiprocessing.get_context("spawn")
        self._process: Any = None
        self._lock = threading.Lock()
        self._closed = False

    def __call__(self, kind: str, variant_path: str, argument: Any) -> int:
        with self._lock:
            if self._closed:
                raise PatienceError("the server is stopping")
            receiving, sending = self._context.Pipe(duplex=False)
            process = self._context.Process(target=_child, daemon=True,
                                            args=(sending, kind, variant_path, argument))
            process.start()
            sending.close()
            self._process = process
            try:
                status, value = receiving.recv()
            except EOFError:
                raise PatienceError("the deal search stopped before it finished") from None
            finally:
                receiving.close()
                process.join(5)
                self._process = None
        if status != "ok":
            raise PatienceError(value)
        return int(value)

    def close(self) -> None:
        self._closed = True
        process = self._process
        if process is not None and process.is_alive():
            process.terminate()


@attrs.define
class Job:
    done: threading.Event = attrs.field(factory=threading.Event)
    number: int | None = None
    error: str = ""


Runner = Callable[[str, str, Any], int]


class DealFinder:
    """Daily and winnable deals, searched in the background and remembered."""

    def __init__(self, directory: Path, *, runner: Runner | None = None,
                 wait: float = WAIT_SECONDS, positions: int = WINNABLE_POSITIONS,
                 attempts: int = WINNABLE_ATTEMPTS, daily_cache: DailyCache | None = None
                 ) -> None:
        self.daily_cache = daily_cache or DailyCache(directory / "daily.json")
        self.runner: Runner = runner or ProcessRunner()
        self.wait = wait
        self.positions = positions
        self.attempts = attempts
        self._lock = threading.Lock()
        self._jobs: dict[tuple[str, str], Job] = {}
        self._ready: dict[str, list[int]] = {}  # winnable deals found, per variant key

    # -- the daily deal --

    def daily(self, variant: Variant, date: datetime.date, numbering: str = OURS) -> Found:
        key = DailyCache.key(variant, date, numbering)
        with self._lock:
            cached = self.daily_cache.get(variant, date, numbering)
            if cached is not None:
                return Found(cached)

        def found(number: int) -> None:
            self.daily_cache.put(variant, date, number, numbering)

        job = self._start(("daily", key), "daily", variant, (date.isoformat(), numbering),
                          found, restart_finished=False)
        return self._outcome(("daily", key), job)

    # -- winnable deals --

    def winnable(self, key: str, variant: Variant) -> Found:
        with self._lock:
            ready = self._ready.get(key)
            number = ready.pop() if ready else None
        job = self._refill(key, variant)
        if number is not None:
            return Found(number)
        outcome = self._outcome(("winnable", key), job)
        if outcome.number is None:
            return outcome
        with self._lock:  # the job put it in the ready list: take it from there
            ready = self._ready.get(key)
            if ready and outcome.number in ready:
                ready.remove(outcome.number)
            else:
                return Found(None, pending=True)  # another request took it first
        self._refill(key, variant)
        return outcome

    def _refill(self, key: str, variant: Variant) -> Job:
        def found(number: int) -> None:
            self._ready.setdefault(key, []).append(number)

        start = random.randrange(1, 1_000_000_000)
        return self._start(("winnable", key), "winnable", variant,
                           (start, self.positions, self.attempts), found,
                           restart_finished=True)

    # -- jobs --

    def _outcome(self, job_key: tuple[str, str], job: Job) -> Found:
        if not job.done.wait(self.wait):
            return Found(None, pending=True)
        if job.error:
            with self._lock:
                if self._jobs.get(job_key) is job:
                    del self._jobs[job_key]  # the next request searches again
            return Found(None, error=job.error)
        return Found(job.number)

    def _start(self, job_key: tuple[str, str], kind: str, variant: Variant, argument: Any,
               found: Callable[[int], None], *, restart_finished: bool) -> Job:
        """The job for ``job_key``: the running one, or a new one. ``found`` is called with
        the lock held when the search succeeds."""
        with self._lock:
            job = self._jobs.get(job_key)
            if job is not None and not (restart_finished and job.done.is_set()
                                        and not job.error):
                return job  # running, or finished with an error not yet reported
            job = self._jobs[job_key] = Job()

        def run() -> None:
            try:
                number = self.runner(kind, str(variant.path), argument)
            except PatienceError as error:
                job.error = str(error)
            except Exception as error:  # noqa: BLE001 — a search must not stop the server
                job.error = f"the search failed: {type(error).__name__}: {error}"
            else:
                job.number = number
                with self._lock:
                    found(number)
            job.done.set()

        threading.Thread(target=run, name=f"patience-deal-{kind}", daemon=True).start()
        return job

    def close(self) -> None:
        close = getattr(self.runner, "close", None)
        if close is not None:
            close()
