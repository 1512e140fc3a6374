"""Running a winnability study: deals cut into chunks, solved by workers, stored as they end.

The process that runs the study is the only one that writes the database. Workers get a
chunk of deal numbers plus the variant's flattened definition (``Variant.flat_text()``:
parents merged in, so no file path has to exist on the worker) and its ``rules_hash``;
they compile it, refuse to solve if the hash differs, and send back one
:class:`DealResult` per deal. Each finished chunk is one transaction, so a run stopped at
any moment (``kill -9`` included) loses only the chunks in flight, and a rerun skips every
stored deal.

Deals are :class:`DealRanges` (``parse_deals("1-10000000000")`` is two numbers, not a list)
and are walked :data:`DEAL_WINDOW` at a time, so a run's memory does not grow with its
range. When the workers are lost — a local worker process killed (``BrokenProcessPool``),
Dask workers killed again and again (``KilledWorker``), the cluster gone — the run stops
with :class:`StudyStopped` after storing every chunk that did finish: run it again to go on.

Workers are a :class:`~concurrent.futures.ProcessPoolExecutor` on this machine, or a Dask
cluster through ``Client.get_executor()`` when a scheduler address is given. The solve
function is named by ``"module:function"`` (default :data:`DEFAULT_SOLVER`) so that any
worker can import it; tests pass a stand-in.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from patience.arguments import MAX_POSITIONS_BOUND
from patience.distribution import install_hint
from patience.errors import PatienceError, StudyError, StudyStopped
from patience.seeds import OURS, RANGES, Seed
from patience.seeds import deal as dealt
from patience.solver import DEFAULT_MAX_POSITIONS, VERDICTS
from patience.studies.database import (
    MAX_DEAL,
    DealRanges,
    DealResult,
    ResultsDatabase,
    RunKey,
)

if TYPE_CHECKING:
    from patience.variant import Variant

DEFAULT_SOLVER = "patience.solver:solve"
#: ``patience stats --prove``: one exhaustive search per deal, no restarts (the mode that
#: proves deals unwinnable); its rows are stored under the solver version plus ``+prove``
PROVE_SOLVER = "patience.studies.runner:solve_to_prove"
#: chunks in flight per worker slot: enough to keep every slot busy, few to lose on a kill
CHUNKS_PER_SLOT = 2
# a Dask cluster with no worker for this long stops the study (workers may come back: a
# nanny restarts a killed one within seconds); checked every WORKER_CHECK_SECONDS
NO_WORKER_SECONDS = 30.0
WORKER_CHECK_SECONDS = 2.0
MAX_CHUNK_SIZE = 25
#: deals looked up in the database at a time to find the ones not yet stored: a run never
#: holds more deal numbers than this (plus the chunks in flight), whatever its range
DEAL_WINDOW = 10_000
#: the longest ``--deals`` text read (a few thousand ranges)
MAX_DEALS_TEXT = 100_000


# --- the solver and its version ------------------------------------------------------


def solver_name(solve: str | Callable[..., Any]) -> str:
    """``"module:function"`` for a solve function or its name; checks that it imports."""
    if callable(solve):
        name = f"{solve.__module__}:{solve.__qualname__}"
        try:
            found = _import_solver(name)
        except StudyError:
            found = None
        if found is not solve:
            raise StudyError(f"solve function {name!r} cannot be imported by that name, so "
                             "workers cannot find it: define it at the top of a module")
        return name
    _import_solver(solve)
    return solve


@functools.cache
def _import_solver(name: str) -> Callable[..., Any]:
    module_name, _, attribute = name.partition(":")
    if not module_name or not attribute:
        raise StudyError(f"solver {name!r} is not of the form 'module:function'")
    try:
        target: Any = importlib.import_module(module_name)
        for part in attribute.split("."):
            target = getattr(target, part)
    except (ImportError, AttributeError) as error:
        raise StudyError(f"cannot import solver {name!r}: {error}") from None
    if not callable(target):
        raise StudyError(f"solver {name!r} is not a function")
    return target  # type: ignore[no-any-return]


@functools.cache
def solver_version(name: str) -> str:
    """The version stored with every result of the solver named ``name``.

    The solver module's ``SOLVER_VERSION`` when it has one; otherwise ``source-`` and a hash
    of the module's source (of every ``.py`` file of a package), so that changing the
    solver never mixes its results with the old ones. A solver other than
    :data:`DEFAULT_SOLVER` is named in the version too, except :data:`PROVE_SOLVER` (the
    same solver in its exhaustive mode): its version ends in ``+prove``.
    """
    if name == PROVE_SOLVER:
        return f"{solver_version(DEFAULT_SOLVER)}+prove"
    module = sys.modules[_import_solver(name).__module__]
    top = importlib.import_module(name.partition(":")[0])
    version = getattr(module, "SOLVER_VERSION", None) or getattr(top, "SOLVER_VERSION", None)
    if not version:
        version = "source-" + _source_hash(top)
    return str(version) if name == DEFAULT_SOLVER else f"{name}@{version}"


def solve_to_prove(game: Any, max_positions: int = DEFAULT_MAX_POSITIONS) -> Any:
    """:data:`PROVE_SOLVER`: ``patience.solver.solve`` in ``prove`` mode."""
    from patience.solver import solve

    return solve(game, max_positions, prove=True)


def _source_hash(module: Any) -> str:
    path = Path(getattr(module, "__file__", "") or "")
    files = sorted(path.parent.rglob("*.py")) if path.name == "__init__.py" else [path]
    digest = hashlib.sha256()
    for file in files:
        if file.is_file():
            digest.update(file.name.encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()[:12]


# --- the worker side ------------------------------------------------------------------


def shipped_definition(variant: Variant) -> str:
    """The variant as one self-contained YAML text, checked to compile to the same rules."""
    from patience.variant import load_variant_text

    text = variant.flat_text()
    rebuilt = load_variant_text(text, f"<{variant.id} as sent to workers>").rules_hash
    if rebuilt != variant.rules_hash:
        raise StudyError(f"the flattened definition of {variant.id!r} compiles to rules hash "
                         f"{rebuilt}, not {variant.rules_hash}: workers would solve "
                         "other rules")
    return text


#: one compilation at a time in a worker process: Dask runs tasks on several threads, and
#: CPython keeps one ``ast`` recursion counter per interpreter, so threads compiling
#: variants at once can fail with SystemError "AST constructor recursion depth mismatch"
#: (seen on 3.11.7 with two Dask worker threads; see python/cpython#106905)
_COMPILING = threading.Lock()


def _compiled(definition: str) -> Variant:
    with _COMPILING:
        return _compile_definition(definition)


@functools.lru_cache(maxsize=8)
def _compile_definition(definition: str) -> Variant:
    from patience.variant import load_variant_text

    return load_variant_text(definition, "<study definition>")


def solve_chunk(definition: str, rules_hash: str, deals: Sequence[int], budget: int,
                solver: str, version: str) -> list[DealResult]:
    """Solve ``deals`` of the variant ``definition`` (runs in a worker).

    Refuses (StudyError) when the definition does not compile to ``rules_hash`` or the
    worker's solver is not ``version``: its results would be stored under the wrong key.
    """
    variant = _compiled(definition)
    variant_hash, numbering = split_study_hash(rules_hash)
    if variant.rules_hash != variant_hash:
        raise StudyError(f"the variant sent to this worker has rules hash "
                         f"{variant.rules_hash}, not {variant_hash}: refusing to solve it")
    here = solver_version(solver)
    if here != version:
        raise StudyError(f"this worker's solver is version {here!r}, the study's is "
                         f"{version!r}: install the same patience on every worker")
    solve = _import_solver(solver)
    results = []
    for deal in deals:
        try:
            result = solve(variant.deal(deal) if numbering == OURS
                           else dealt(variant, Seed(deal, numbering)), max_positions=budget)
        except Exception as error:
            raise StudyError(f"the solver failed on deal {deal} of {variant.id!r} "
                             f"(rules hash {rules_hash}): {error!r}") from error
        if result.verdict not in VERDICTS:
            raise StudyError(f"the solver gave verdict {result.verdict!r} for deal {deal}; "
                             f"expected one of {', '.join(VERDICTS)}")
        engine = getattr(result, "engine", None)  # a solver of one's own may not say
        results.append(DealResult(deal, result.verdict, int(result.positions),
                                  float(result.seconds), tuple(result.moves),
                                  str(engine) if engine is not None else None))
    return results


# --- the study ------------------------------------------------------------------------


@attrs.frozen
class Study:
    """One variant, one solver, one budget: what every chunk of a run shares."""

    variant_id: str
    definition: str
    key: RunKey
    solver: str

    @classmethod
    def of(cls, variant: Variant, max_positions: int = DEFAULT_MAX_POSITIONS,
           solver: str | Callable[..., Any] = DEFAULT_SOLVER, numbering: str = OURS) -> Study:
        """``numbering``: whose deal numbers the study's deals are (ours, ``ms``,
        ``pysolfc``); the rows of the others are kept apart (:func:`study_hash`)."""
        try:  # at most what SQLite stores: the budget is part of each result's key
            max_positions = int(MAX_POSITIONS_BOUND.check(max_positions))
        except PatienceError as error:
            raise StudyError(str(error)) from None
        if numbering != OURS and variant.definition.pysolfc is None:
            raise StudyError(f"{variant.id} has no {numbering}: deals (its file has no "
                             "'pysolfc:' key)")
        name = solver_name(solver)
        key = RunKey(study_hash(variant.rules_hash, numbering), solver_version(name),
                     max_positions)
        return cls(variant.id, shipped_definition(variant), key, name)


@attrs.frozen
class ChunkDone:
    """Sent to ``on_chunk`` after a chunk is stored."""

    results: tuple[DealResult, ...]
    stored: int  # rows that were new (0 if another run stored them first)


@attrs.frozen
class RunSummary:
    """What a call of :func:`run_study` did."""

    requested: int
    skipped: int  # already in the database
    solved: int  # solved and stored by this run
    seconds: float


def automatic_chunk_size(pending: int, slots: int) -> int:
    """About eight chunks per worker slot, between 1 and MAX_CHUNK_SIZE deals each."""
    return max(1, min(MAX_CHUNK_SIZE, pending // max(1, slots * 8)))


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class Workers:
    """An executor plus its number of slots: local processes or a Dask cluster."""

    def __init__(self, workers: int | None = None, scheduler: str | None = None) -> None:
        self._close: Callable[[bool], None]
        #: how many workers the cluster has now (None: local processes, whose loss breaks
        #: the pool at once)
        self.count_workers: Callable[[], int] | None = None
        if scheduler:
            try:
                from distributed import Client
            except ModuleNotFoundError:
                raise StudyError(f"--scheduler needs Dask: {install_hint('dask')}") from None
            try:
                client = Client(scheduler)  # type: ignore[no-untyped-call]  # waits distributed.comm.timeouts.connect
            except ValueError as error:  # "missing port number in address 'not a url'"
                raise StudyError(f"--scheduler {scheduler!r} is not a scheduler address "
                                 f"such as tcp://HOST:8786 ({error})") from None
            except (OSError, TimeoutError) as error:
                raise StudyError(f"cannot reach the Dask scheduler at {scheduler!r}: "
                                 f"{error}") from None
            self.executor: Executor = client.get_executor(  # type: ignore[no-untyped-call]
                pure=False)
            threads = client.nthreads()  # type: ignore[no-untyped-call]
            self.slots = workers or max(1, sum(threads.values()))
            self.description = f"Dask cluster {scheduler} ({self.slots} threads)"
            self.count_workers = lambda: len(client.nthreads())  # type: ignore[no-untyped-call]

            def close(wait: bool) -> None:
                self.executor.shutdown(wait=False)
                client.close()  # type: ignore[no-untyped-call]
            self._close = close
        else:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            self.slots = workers or default_workers()
            # spawn: workers are the study process's own children (so they can tell when it
            # is gone) and start clean, as a Dask worker does: no state inherited by fork
            pool = ProcessPoolExecutor(self.slots, multiprocessing.get_context("spawn"),
                                       initializer=_leave_with_parent, initargs=(os.getpid(),))
            self.executor = pool
            self.description = f"{self.slots} worker process{'es' if self.slots > 1 else ''}"
            self._close = lambda wait: pool.shutdown(wait=wait, cancel_futures=True)

    @classmethod
    def using(cls, executor: Executor, slots: int, description: str = "") -> Workers:
        """Run on an executor made elsewhere (threads in tests, say); close() leaves it be."""
        workers = cls.__new__(cls)
        workers.executor, workers.slots = executor, slots
        workers.description = description or type(executor).__name__
        workers._close = lambda wait: None
        workers.count_workers = None
        return workers

    def close(self, wait: bool = False) -> None:
        """Shut the workers down; ``wait``: until the local processes have left (after a
        finished run, when they are idle), else at once (an interrupted or failed run).
        Not waiting leaves them and the pool's threads to end at interpreter exit, where
        Python 3.11's executor may print "Exception ignored ... Bad file descriptor"."""
        self._close(wait)


def _check_workers(pool: Workers, since: float | None) -> float | None:
    """While chunks wait on a cluster: since when it has had no worker (None: it has some);
    StudyStopped once that is NO_WORKER_SECONDS ago (Dask would wait for a worker for ever,
    without a word)."""
    assert pool.count_workers is not None
    if pool.count_workers():
        return None
    now = time.monotonic()
    if since is None:
        return now
    if now - since >= NO_WORKER_SECONDS:
        raise StudyStopped(f"no Dask worker is left on the cluster (none for "
                           f"{NO_WORKER_SECONDS:g} s)")
    return since


def _leave_with_parent(parent: int) -> None:
    """Worker initializer: exit once the study process is gone (``kill -9``, say).

    Left alone, a pool's workers outlive a killed parent, blocked forever on its queue.
    """
    import threading

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="patience-leave-with-parent", daemon=True).start()


def pending_chunks(deals: DealRanges, database: ResultsDatabase, key: RunKey,
                   size: int) -> Iterator[tuple[int, ...]]:
    """The deals not stored under ``key``, in order, in tuples of ``size``; the database
    is asked :data:`DEAL_WINDOW` deals at a time, as the chunks are taken."""
    chunk: list[int] = []
    for first, last in deals.windows(DEAL_WINDOW):
        stored = database.stored_between(key, first, last)
        for deal in range(first, last + 1):
            if deal not in stored:
                chunk.append(deal)
                if len(chunk) == size:
                    yield tuple(chunk)
                    chunk = []
    if chunk:
        yield tuple(chunk)


def run_study(study: Study, deals: Iterable[int] | DealRanges, database: ResultsDatabase, *,
              workers: Workers | None = None, chunk_size: int | None = None,
              on_start: Callable[[int, int], None] | None = None,
              on_chunk: Callable[[ChunkDone], None] | None = None) -> RunSummary:
    """Solve every deal of ``deals`` not yet stored under ``study.key``; store each chunk.

    ``on_start(skipped, pending)`` is called once the stored deals are known, and
    ``on_chunk`` after each chunk is stored. Workers default to one process per core.
    StudyStopped when the workers are lost or the database cannot be written; every
    chunk that finished before is stored.
    """
    started = time.perf_counter()
    definition = study.definition
    requested = DealRanges.of(deals)
    database.record_variant(study.key.rules_hash, study.variant_id,
                            _compiled(definition).name, definition)
    skipped = sum(database.counts(study.key, requested).values())
    pending = requested.count - skipped
    if on_start:
        on_start(skipped, pending)
    if not pending:
        return RunSummary(requested.count, skipped, 0, time.perf_counter() - started)
    owned = workers is None
    pool = workers or Workers()
    size = chunk_size or automatic_chunk_size(pending, pool.slots)
    waiting = pending_chunks(requested, database, study.key, size)
    in_flight: dict[Future[list[DealResult]], tuple[int, ...]] = {}
    solved = 0

    def submit_next() -> None:
        chunk = next(waiting, None)
        if chunk is not None:
            future = pool.executor.submit(solve_chunk, definition, study.key.rules_hash, chunk,
                                          study.key.budget, study.solver,
                                          study.key.solver_version)
            in_flight[future] = chunk

    try:
        for _ in range(pool.slots * CHUNKS_PER_SLOT):
            submit_next()
        without_workers_since: float | None = None
        while in_flight:
            check = None if pool.count_workers is None else WORKER_CHECK_SECONDS
            done, _ = wait(in_flight, timeout=check, return_when=FIRST_COMPLETED)
            if not done and pool.count_workers is not None:
                without_workers_since = _check_workers(pool, without_workers_since)
                continue
            without_workers_since = None
            failure: BaseException | None = None
            for future in sorted(done, key=lambda f: in_flight[f]):
                in_flight.pop(future)
                error = future.exception()
                if error is not None:
                    failure = failure or error
                    continue
                results = future.result()
                stored = database.record_chunk(study.key, results)
                solved += stored
                if on_chunk:
                    on_chunk(ChunkDone(tuple(results), stored))
            if failure is not None:  # the finished chunks are stored: now stop
                raise failure
            for _ in done:
                submit_next()
    except PatienceError:
        raise
    except Exception as error:  # BrokenProcessPool, KilledWorker, a lost connection
        raise StudyStopped(f"the workers stopped before the study was done "
                           f"({type(error).__name__}: {_one_line(error)})") from error
    finally:
        for future in in_flight:
            future.cancel()
        if owned:
            pool.close(wait=not in_flight)
    return RunSummary(requested.count, skipped, solved, time.perf_counter() - started)


def _one_line(error: BaseException, limit: int = 300) -> str:
    text = " ".join(str(error).split()) or "no message"
    return text if len(text) <= limit else text[:limit] + "…"


def study_hash(rules_hash: str, numbering: str) -> str:
    """The rules hash a study's rows are stored under: the variant's own for our deal
    numbers; for Microsoft's or PySolFC's, the variant's with ``:ms`` or ``:pysolfc`` after
    it, so that their deal 5 is never taken for ours.

    >>> study_hash("86ccea545ac5a72f", "ms"), split_study_hash("86ccea545ac5a72f:ms")
    ('86ccea545ac5a72f:ms', ('86ccea545ac5a72f', 'ms'))
    """
    return rules_hash if numbering == OURS else f"{rules_hash}:{numbering}"


def split_study_hash(stored: str) -> tuple[str, str]:
    """The variant's rules hash and the numbering of a stored rules hash."""
    rules_hash, colon, numbering = stored.partition(":")
    return (rules_hash, numbering) if colon and numbering in RANGES else (stored, OURS)


def parse_study_deals(text: str) -> tuple[str, DealRanges]:
    """The numbering and the deals of ``--deals``: ``1-1000`` (ours), ``ms:1-32000``
    (Microsoft's), ``pysolfc:1-100``; each number in its numbering's range.

    >>> numbering, deals = parse_study_deals("ms:1-32000")
    >>> numbering, deals.count
    ('ms', 32000)
    """
    prefix, colon, rest = text.partition(":")
    numbering = prefix.strip().lower() if colon else OURS
    if colon and numbering not in RANGES:
        raise StudyError(f"deals {_short(text)}: unknown numbering {_short(prefix)}; write "
                         "N-M (ours), ms:N-M (Microsoft's) or pysolfc:N-M (PySolFC's)")
    deals = parse_deals(rest if colon else text)
    low, high = RANGES[numbering]
    if deals.spans and (deals.spans[0][0] < low or deals.spans[-1][1] > high):
        raise StudyError(f"deals {_short(text)}: {numbering}: deals are numbered from {low} to "
                         f"{high:_}")
    return numbering, deals


def parse_deals(text: str) -> DealRanges:
    """Deal numbers from ``"1-10000"``, ``"7"`` or ``"1-100,250,300-310"``: each from 0 to
    2**64 - 1, merged into ascending ranges without listing them.

    >>> list(parse_deals("10,1-3,2"))
    [1, 2, 3, 10]
    >>> parse_deals("1-10000000000").count
    10000000000
    """
    shown = _short(text)
    if len(text) > MAX_DEALS_TEXT:
        raise StudyError(f"deals {shown}: {len(text):,} characters is too long (at most "
                         f"{MAX_DEALS_TEXT:,}); give ranges such as 1-10000")
    spans = []
    for part in text.replace(" ", "").split(","):
        first, dash, last = part.partition("-")
        try:
            low = _deal_number(first)
            high = _deal_number(last) if dash else low
        except ValueError:
            raise StudyError(f"deals {shown}: {_short(part)} is not N or N-M "
                             "(e.g. 1-10000 or 1-100,250)") from None
        if high < low:
            raise StudyError(f"deals {shown}: {_short(part)} is not N or N-M with N <= M "
                             "(e.g. 1-10000 or 1-100,250)")
        if high > MAX_DEAL:
            raise StudyError(f"deals {shown}: {_short(part)} goes past the last deal "
                             f"number, {MAX_DEAL} (2**64 - 1)")
        spans.append((low, high))
    return DealRanges.from_spans(spans)


def _deal_number(text: str) -> int:
    """A deal number written in decimal digits (no sign, at most 25 digits)."""
    if not (text.isascii() and text.isdigit()) or len(text) > 25:
        raise ValueError(text)
    return int(text)


def _short(text: str, limit: int = 60) -> str:
    shown = repr(text)
    return shown if len(shown) <= limit else shown[:limit] + "…"
