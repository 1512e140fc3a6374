"""Saved games and player statistics, as versioned JSON in the user's data directory.

The directory is ``platformdirs.user_data_dir("patience")``, or ``$PATIENCE_DATA_DIR`` when
set (tests use it). Two files live there:

- ``saves/ID.json`` — the game in progress of variant ID, one per variant (see
  :func:`save_path`): ``{"format": "patience-save", "version": 2, …}``; ``save.json``, where
  earlier versions kept their one save, is still read and resumed;
- ``stats.json`` — per-variant ``games``, ``wins``, ``streak`` and ``best_streak``, the
  times of the won games: ``best_seconds``, ``won_seconds`` over ``timed_wins``, and the
  fewest moves of a win, ``fewest_moves`` (0: no win counted them).

These files are the user's data, and anything may be found in their place. Reading one
never changes it, and never hangs or runs out of memory: a file must be a regular file
(a symbolic link to one is fine) of at most :data:`MAX_FILE_BYTES`, opened without blocking
and read no further than the limit; it must be UTF-8 JSON nested less deeply than Python's
recursion limit, with integers of at most :data:`MAX_INTEGER_DIGITS` digits, and its whole
structure — every field, its type and its range — must be what this version writes. Any
other file raises :class:`SaveError`: one line naming the file and what is wrong with it,
the file left exactly as it was (never overwritten, renamed or deleted).

Files are written atomically: a temporary file beside the file (beside the *target* of a
symbolic link, so that the link stays a link), then ``os.replace``, so a crash never leaves
half a file. When the usual file cannot be used — it is not ours, or its folder is
read-only — :func:`write_fallback` writes a new, uniquely named file instead: in the data
directory if it can, else in the system temporary directory (``tempfile.gettempdir()``).

>>> try:
...     check_save({"format": "patience-save", "version": 2, "variant": "manx"}, "s.json")
... except SaveError as error:
...     print(error)
the saved game 's.json' is incomplete (no 'rules_hash'); it was left untouched
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from patience.errors import DealError, PatienceError, SaveError
from patience.seeds import deal

if TYPE_CHECKING:
    from patience.game import Game

SAVE_FORMAT = "patience-save"
STATS_FORMAT = "patience-stats"
#: the save format this version writes; 2 records the variant file as an absolute path
SAVE_VERSION = 2
#: save versions this version reads (1: ``variant_path`` relative to where patience ran)
SAVE_VERSIONS = (1, 2)
#: the statistics file this version writes; 2 adds the times of won games (version 1 is
#: still read, its games untimed)
STATS_VERSION = 3
STATS_VERSIONS = (1, 2, 3)
VERSION = 1  # the web's game files and the daily deals' cache (the first statistics' version)

#: the largest save or statistics file read (or written): 4 MiB, over a hundred times the
#: longest real game
MAX_FILE_BYTES = 4 * 1024 * 1024
#: the most digits an integer in these files may have (2**64 - 1 has 20)
MAX_INTEGER_DIGITS = 20
MAX_DEAL_NUMBER = 2**64 - 1
MAX_COUNT = 2**63 - 1  # games, wins and streaks
MAX_NAME_LENGTH = 1000  # variant ids, rules hashes, labels
MAX_SAVES = 1000  # saved games listed by 'patience play --resume' (one per variant)
#: the most moves (played plus redoable) a save holds: a real game has a few hundred, and
#: replaying this many takes about a second
MAX_MOVES = 100_000
UNTOUCHED = "it was left untouched"


def data_directory() -> Path:
    """Where saves and statistics live (``$PATIENCE_DATA_DIR`` overrides)."""
    override = os.environ.get("PATIENCE_DATA_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("patience", appauthor=False))


SAVES_FOLDER = "saves"


def save_path(variant_id: str | None = None) -> Path:
    """Where the game in progress of a variant is saved: ``saves/ID.json`` in the data
    directory, one file per variant. Without an id: ``save.json``, the one save that earlier
    versions kept (still read and resumed).

    >>> save_path("tabbycat").relative_to(data_directory()).as_posix()
    'saves/tabbycat.json'
    >>> save_path("my cat/2").name  # any id makes a safe, distinct file name
    'my_cat_2-b1208f96.json'
    """
    if variant_id is None:
        return data_directory() / "save.json"
    return data_directory() / SAVES_FOLDER / f"{file_stem(variant_id)}.json"


def moves_text(data: dict[str, Any]) -> str:
    """How many moves a saved game has made: '1 move', '13 moves'."""
    count = len(data["moves"])
    return f"{count:,} move{'s' if count != 1 else ''}"


def file_stem(variant_id: str) -> str:
    """A file name for a variant id: the id itself when it is made of letters, digits, '-'
    and '_' (at most 64), else a readable part of it and a short hash of the whole id."""
    import hashlib
    import re

    safe = re.sub(r"[^A-Za-z0-9_-]", "_", variant_id)[:64]
    if safe == variant_id and not safe.startswith("-"):
        return safe
    digest = hashlib.sha256(variant_id.encode("utf-8")).hexdigest()[:8]
    return f"{safe.lstrip('-')}-{digest}"


def saved_games() -> list[tuple[Path, dict[str, Any] | None, str]]:
    """Every save in the data directory, the old ``save.json`` last: (its path, the game
    or None, what is wrong with the file or ''). Reading changes nothing."""
    folder = data_directory() / SAVES_FOLDER
    try:
        paths = sorted(p for p in folder.iterdir() if p.suffix == ".json"
                       and not p.name.startswith("."))[:MAX_SAVES]
    except OSError:
        paths = []
    found: list[tuple[Path, dict[str, Any] | None, str]] = []
    for path in [*paths, save_path()]:
        try:
            data = read_save(path)
        except SaveError as error:
            found.append((path, None, str(error)))
            continue
        if data is not None:
            found.append((path, data, ""))
    return found


def stats_path() -> Path:
    return data_directory() / "stats.json"


# -- reading ----------------------------------------------------------------------------


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def _refuse(what: str, path: Path, problem: str) -> SaveError:
    return SaveError(f"the {what} {str(path)!r} {problem}; {UNTOUCHED}")


def read_limited(path: Path, what: str) -> bytes | None:
    """The bytes of ``path``, or None when there is no file (or a symbolic link to a file
    not there yet). SaveError for anything but a regular file of at most MAX_FILE_BYTES.

    The file is checked with ``stat`` before it is opened, so a FIFO or a device is never
    opened at all; it is opened with ``O_NONBLOCK`` and checked again (it may have been
    swapped meanwhile), and at most ``MAX_FILE_BYTES + 1`` bytes are read.
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise _refuse(what, path, f"cannot be read ({error.strerror})") from None
    if not stat.S_ISREG(info.st_mode):
        raise _refuse(what, path, f"is {_kind(info.st_mode)}, not a regular file")
    if info.st_size > MAX_FILE_BYTES:
        raise _refuse(what, path, f"is too large ({info.st_size:,} bytes; at most "
                                  f"{MAX_FILE_BYTES:,} are read)")
    flags = os.O_RDONLY
    for name in ("O_NONBLOCK", "O_NOCTTY", "O_CLOEXEC", "O_BINARY"):
        flags |= getattr(os, name, 0)
    try:
        handle = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise _refuse(what, path, f"cannot be read ({error.strerror})") from None
    blocks = []
    try:
        mode = os.fstat(handle).st_mode
        if not stat.S_ISREG(mode):
            raise _refuse(what, path, f"is {_kind(mode)}, not a regular file")
        left = MAX_FILE_BYTES + 1
        while left > 0:
            block = os.read(handle, min(left, 1 << 20))
            if not block:
                break
            blocks.append(block)
            left -= len(block)
    except OSError as error:
        raise _refuse(what, path, f"cannot be read ({error.strerror})") from None
    finally:
        os.close(handle)
    raw = b"".join(blocks)
    if len(raw) > MAX_FILE_BYTES:
        raise _refuse(what, path, f"is too large (more than {MAX_FILE_BYTES:,} bytes)")
    return raw


class _Refused(ValueError):
    """Raised from inside the JSON parser's hooks."""


def _bounded_integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise _Refused(f"an integer of {len(text.lstrip('-')):,} digits (at most "
                       f"{MAX_INTEGER_DIGITS})")
    return int(text)


def _no_constant(text: str) -> float:
    raise _Refused(f"{text} (not a JSON number)")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _Refused(f"the key {_short(key)} twice in one object")
        result[key] = value
    return result


def parse_json(raw: bytes, path: Path, what: str) -> Any:
    """The JSON value of ``raw``; SaveError (naming ``path``) for anything else."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _refuse(what, path, f"is corrupt (not UTF-8 text: byte {error.start})") from None
    try:
        return json.loads(text, parse_int=_bounded_integer, parse_constant=_no_constant,
                          object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as error:
        raise _refuse(what, path, f"is corrupt (not valid JSON: {error})") from None
    except RecursionError:
        raise _refuse(what, path, "is corrupt (JSON nested too deeply)") from None
    except _Refused as error:
        raise _refuse(what, path, f"is corrupt (it holds {error})") from None
    except ValueError as error:  # anything else the parser refuses
        raise _refuse(what, path, f"is corrupt ({error})") from None


def read_versioned(path: Path, format_name: str, what: str,
                   versions: tuple[int, ...] = (VERSION,)) -> dict[str, Any] | None:
    """The data of a versioned file, or None when there is no file; SaveError when the file
    is not ours, not readable, or of another version. Never changes the file."""
    raw = read_limited(path, what)
    if raw is None:
        return None
    data = parse_json(raw, path, what)
    if not isinstance(data, dict) or data.get("format") != format_name:
        raise _refuse(what, path, f"is not a patience {what} (no \"format\": {format_name!r})")
    version = data.get("version")
    if type(version) is not int or version not in versions:
        readable = " or ".join(str(v) for v in versions)
        raise _refuse(what, path, f"has version {_short(version)}; this patience reads "
                                  f"version {readable}")
    return data


def _short(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to about ``limit`` characters for a message."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


# -- checking a structure -----------------------------------------------------------------


class _Fields:
    """Checks the fields of one JSON object, raising SaveError for the first bad one."""

    def __init__(self, data: dict[str, Any], path: Path | str, what: str,
                 allowed: tuple[str, ...], where: str = "") -> None:
        self.data, self.path, self.what, self.where = data, Path(path), what, where
        unknown = sorted(set(data) - set(allowed))
        if unknown:
            name = f"{self.where}.{_short(unknown[0])}" if self.where else _short(unknown[0])
            self.fail(f"has a field this version does not know ({name})")

    def _name(self, name: str) -> str:
        return f"{self.where}.{name}" if self.where else _short(name)

    def fail(self, problem: str) -> NoReturn:
        raise _refuse(self.what, self.path, problem)

    def get(self, name: str, check: Callable[[Any], bool], expected: str, *,
            default: Any = ..., allow_none: bool = False) -> Any:
        if name not in self.data:
            if default is ...:
                self.fail(f"is incomplete (no {self._name(name)})")
            return default
        value = self.data[name]
        if value is None and allow_none:
            return None
        if not check(value):
            self.fail(f"is corrupt ({self._name(name)} is {_short(value)}, not {expected})")
        return value


def _is_name(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_NAME_LENGTH and value.isprintable()


def _is_text(value: Any) -> bool:
    return isinstance(value, str)


def _is_seed(value: Any) -> bool:
    """A numbered deal as text (``ms:11982``), within its numbering's range."""
    from patience.seeds import parse_seed

    if not isinstance(value, str):
        return False
    try:
        parse_seed(value)
    except DealError:
        return False
    return True


def _is_integer_in(low: int, high: int) -> Callable[[Any], bool]:
    return lambda value: type(value) is int and low <= value <= high


def _is_list_of_text(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


# -- writing ----------------------------------------------------------------------------


def write_atomically(path: Path, data: dict[str, Any], what: str = "file") -> Path:
    """Write ``data`` as JSON to ``path`` through a temporary file and ``os.replace``.

    A symbolic link at ``path`` is followed: the temporary file goes beside its target and
    replaces the target, so the link stays a link. The target's permissions are kept.
    SaveError (naming the file) when it cannot be written; the old file is then unchanged.
    """
    encoded = (json.dumps(data, indent=1, sort_keys=True) + "\n").encode("utf-8")
    if len(encoded) > MAX_FILE_BYTES:
        raise SaveError(f"the {what} would be {len(encoded):,} bytes, more than the "
                        f"{MAX_FILE_BYTES:,} this program reads back; not written to "
                        f"{str(path)!r}")
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        target = Path(os.path.realpath(path))
        try:
            info: os.stat_result | None = os.stat(target)
        except FileNotFoundError:
            info = None
        if info is not None and not stat.S_ISREG(info.st_mode):
            raise SaveError(f"cannot write the {what} {str(path)!r}: it is "
                            f"{_kind(info.st_mode)}, not a regular file; {UNTOUCHED}")
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                             dir=target.parent)
        with os.fdopen(handle, "wb") as file:
            if info is not None and hasattr(os, "fchmod"):
                os.fchmod(file.fileno(), stat.S_IMODE(info.st_mode))
            file.write(encoded)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
        temporary = None
    except OSError as error:
        raise SaveError(f"cannot write the {what} {str(path)!r}: "
                        f"{error.strerror or error}") from None
    finally:
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass
    return path


def write_fallback(data: dict[str, Any], stem: str, what: str,
                   previous: Path | None = None) -> Path:
    """Write ``data`` where it can go when its usual file cannot be used: ``previous`` (the
    fallback chosen earlier) if given and writable, else a new file ``STEM-DATE-XXXX.json``
    in the data directory, else in the system temporary directory. The path written."""
    problems = []
    if previous is not None:
        try:
            return write_atomically(previous, data, what)
        except SaveError as error:
            problems.append(str(error))
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for folder, prefix in ((data_directory(), f"{stem}-{stamp}-"),
                           (Path(tempfile.gettempdir()), f"patience-{stem}-{stamp}-")):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            handle, name = tempfile.mkstemp(prefix=prefix, suffix=".json", dir=folder)
            os.close(handle)
        except OSError as error:
            problems.append(f"cannot write in {str(folder)!r}: {error.strerror or error}")
            continue
        try:
            return write_atomically(Path(name), data, what)
        except SaveError as error:
            problems.append(str(error))
            try:
                os.unlink(name)
            except OSError:
                pass
    raise SaveError(f"the {what} could not be written anywhere ({'; '.join(problems)})")


# -- saved game -------------------------------------------------------------------------

MAX_SECONDS = 100 * 365 * 24 * 3600  # the clock of a saved game: a century at most
#: the largest ``proven`` budget a save may hold: ten times the largest a deal is proven
#: winnable with (the solver's default, 1,000,000 positions), so that a hand-made save
#: cannot make a hint at the start search without end
MAX_PROVEN_POSITIONS = 10_000_000
SAVE_FIELDS = ("format", "version", "variant", "variant_path", "rules_hash", "label",
               "deal_number", "seed", "start", "moves", "redo", "recorded", "seconds", "saved",
               "proven")


def is_proof_budget(value: Any) -> bool:
    """Whether ``value`` can be a save's ``proven``: the positions budget its deal was proven
    winnable with (``Session.proven``), from 1 to :data:`MAX_PROVEN_POSITIONS`."""
    return type(value) is int and 1 <= value <= MAX_PROVEN_POSITIONS


def check_save(data: Any, path: Path | str) -> dict[str, Any]:
    """``data`` (a parsed save) with every field checked and the optional ones filled in;
    SaveError naming the first field that is missing, unknown or of the wrong type."""
    path = Path(path)
    if not isinstance(data, dict):
        raise _refuse("saved game", path, "is not a patience saved game (not a JSON object)")
    fields = _Fields(data, path, "saved game", SAVE_FIELDS)
    version = fields.get("version", lambda v: type(v) is int and v in SAVE_VERSIONS,
                         f"version {' or '.join(map(str, SAVE_VERSIONS))}")
    clean = {
        "format": fields.get("format", lambda v: v == SAVE_FORMAT, repr(SAVE_FORMAT)),
        "version": version,
        "variant": fields.get("variant", _is_name, "a variant name"),
        "variant_path": fields.get("variant_path", _is_text, "a path", default=None,
                                   allow_none=True),
        "rules_hash": fields.get("rules_hash", _is_name, "a rules hash"),
        "label": fields.get("label", _is_name, "a short printable label", default=None,
                            allow_none=True),
        "deal_number": fields.get("deal_number", _is_integer_in(0, MAX_DEAL_NUMBER),
                                  "a deal number from 0 to 2**64 - 1", default=None,
                                  allow_none=True),
        "seed": fields.get("seed", _is_seed, "a numbered deal such as 'ms:11982'",
                           default=None, allow_none=True),
        "start": fields.get("start", _is_text, "a position in text form"),
        "moves": fields.get("moves", _is_list_of_text, "a list of moves in notation"),
        "redo": fields.get("redo", _is_list_of_text, "a list of moves in notation",
                           default=[]),
        "recorded": fields.get("recorded", lambda v: isinstance(v, bool), "true or false",
                               default=False),
        "seconds": fields.get("seconds", _is_integer_in(0, MAX_SECONDS),
                              f"a number of seconds from 0 to {MAX_SECONDS:,}", default=0),
        "saved": fields.get("saved", _is_text, "a time", default=None, allow_none=True),
        # the deal was proven winnable with this budget (absent: it was not, or the save is
        # older than this field)
        "proven": fields.get("proven", is_proof_budget, "a positions budget from 1 to "
                             f"{MAX_PROVEN_POSITIONS:,}", default=None, allow_none=True),
    }
    moves = len(clean["moves"]) + len(clean["redo"])
    if moves > MAX_MOVES:
        fields.fail(f"is too long ({moves:,} moves and moves to redo; at most "
                    f"{MAX_MOVES:,})")
    if version >= 2 and clean["variant_path"] is not None \
            and not os.path.isabs(clean["variant_path"]):
        fields.fail(f"is corrupt ('variant_path' is {_short(clean['variant_path'])}, not an "
                    "absolute path)")
    return clean


def starts_as_dealt(game: Game) -> bool:
    """Whether a saved game's start ``game`` is the deal its numbered deal (``game.seed``:
    ours, ``ms:N`` or ``pysolfc:N``) says; a start with no number is a chosen position, and
    stands as it is. A deal that cannot be made here (``ms:N`` without pysol-cards) is not
    taken on trust: False."""
    if game.seed is None:
        return True
    try:
        return game.text() == deal(game.variant, game.seed).text()
    except PatienceError:
        return False


def write_save(data: dict[str, Any], path: Path | None = None) -> Path:
    """Write a saved game (the body from ``Session.to_save()``); SaveError if it cannot."""
    path = path or save_path()
    return write_atomically(path, _checked_for_writing(data, path), "saved game")


def write_fallback_save(data: dict[str, Any], previous: Path | None = None) -> Path:
    """Write a saved game to a fallback file (see :func:`write_fallback`)."""
    return write_fallback(_checked_for_writing(data, previous or save_path()), "save",
                          "saved game", previous)


def _checked_for_writing(data: dict[str, Any], path: Path) -> dict[str, Any]:
    """The save as written, checked as it will be read back: never write a file that
    :func:`read_save` would refuse."""
    body = {**data, "format": SAVE_FORMAT, "version": SAVE_VERSION}
    try:
        check_save(body, path)
    except SaveError as error:
        raise SaveError(f"the game cannot be saved: {error}".replace(
            f"; {UNTOUCHED}", "")) from None
    return body


def read_save(path: Path | None = None) -> dict[str, Any] | None:
    """The saved game, checked field by field, or None when there is none."""
    path = path or save_path()
    data = read_versioned(path, SAVE_FORMAT, "saved game", SAVE_VERSIONS)
    return None if data is None else check_save(data, path)


def remove_save(path: Path | None = None) -> None:
    """Forget the saved game (after it was won, or lost and recorded).

    Only a file that is a save of ours is removed (the file a symbolic link points to, so
    the link stays); anything else is left alone.
    """
    path = path or save_path()
    try:
        data = read_save(path)
    except SaveError:
        return  # never touch a file that is not ours
    if data is not None:
        try:
            Path(os.path.realpath(path)).unlink(missing_ok=True)
        except OSError:
            pass  # a save that cannot be removed is resumed, won, and removed next time


# -- statistics -------------------------------------------------------------------------

RECORD_FIELDS = ("games", "wins", "streak", "best_streak")
#: the times of won games (version 2; 0 in a version 1 file): the fastest, and the sum over
#: the wins that were timed
TIME_FIELDS = ("best_seconds", "won_seconds", "timed_wins")
#: the fewest moves of a won game (version 3; 0 where no win counted them)
MOVE_FIELDS = ("fewest_moves",)


def empty_record() -> dict[str, int]:
    return dict.fromkeys(RECORD_FIELDS + TIME_FIELDS + MOVE_FIELDS, 0)


def check_stats(data: dict[str, Any], path: Path | str) -> dict[str, dict[str, int]]:
    """The records of a parsed statistics file, every one checked; SaveError otherwise."""
    path = Path(path)
    fields = _Fields(data, path, "statistics file", ("format", "version", "variants"))
    variants = fields.get("variants", lambda v: isinstance(v, dict), "an object")
    records = {}
    for name, record in variants.items():
        if not _is_name(name):
            fields.fail(f"is corrupt (the variant name {_short(name)} is not a short "
                        "printable name)")
        where = f"variants[{name!r}]"
        if not isinstance(record, dict):
            fields.fail(f"is corrupt ({where} is {_short(record)}, not an object)")
        entry = _Fields(record, path, "statistics file",
                        RECORD_FIELDS + TIME_FIELDS + MOVE_FIELDS, where)
        clean = {field: entry.get(field, _is_integer_in(0, MAX_COUNT),
                                  "a whole number from 0") for field in RECORD_FIELDS}
        clean.update({field: entry.get(field, _is_integer_in(0, MAX_COUNT),
                                       "a whole number from 0", default=0)
                      for field in TIME_FIELDS + MOVE_FIELDS})
        if not clean["streak"] <= clean["best_streak"] <= clean["wins"] <= clean["games"]:
            entry.fail(f"is corrupt ({where} does not hold streak <= best_streak <= wins <= "
                       f"games: {clean})")
        best, total, timed = (clean[field] for field in TIME_FIELDS)
        if not (timed <= clean["wins"] and best <= total and (timed == 0) == (total == 0)):
            entry.fail(f"is corrupt ({where} does not hold timed_wins <= wins and "
                       f"best_seconds <= won_seconds, with no time without a timed win: "
                       f"{clean})")
        if clean["fewest_moves"] and not clean["wins"]:
            entry.fail(f"is corrupt ({where} has fewest_moves {clean['fewest_moves']} "
                       "without a win)")
        records[name] = clean
    return records


def read_stats(path: Path | None = None) -> dict[str, dict[str, int]]:
    """Per-variant statistics: ``{variant_id: {games, wins, streak, best_streak}}``."""
    path = path or stats_path()
    data = read_versioned(path, STATS_FORMAT, "statistics file", STATS_VERSIONS)
    return {} if data is None else check_stats(data, path)


def record_result(variant_id: str, won: bool, seconds: int | None = None,
                  path: Path | None = None, moves: int | None = None) -> dict[str, int]:
    """Count one finished game of ``variant_id`` (won in ``seconds``, when timed, and in
    ``moves`` moves, when counted) and return its updated record.

    SaveError, with the file unchanged, when the file cannot be read or written.
    """
    path = path or stats_path()
    stats = read_stats(path)
    record = stats.setdefault(variant_id, empty_record())
    record["games"] += 1
    if won:
        record["wins"] += 1
        record["streak"] += 1
        record["best_streak"] = max(record["best_streak"], record["streak"])
        if seconds is not None:
            seconds = max(1, min(seconds, MAX_COUNT // 2))  # a time, never "no time" (0)
            record["best_seconds"] = min(record["best_seconds"] or seconds, seconds)
            record["won_seconds"] = min(record["won_seconds"] + seconds, MAX_COUNT)
            record["timed_wins"] += 1
        if moves is not None:
            moves = max(1, min(moves, MAX_COUNT))
            record["fewest_moves"] = min(record["fewest_moves"] or moves, moves)
    else:
        record["streak"] = 0
    body = {"format": STATS_FORMAT, "version": STATS_VERSION, "variants": stats}
    check_stats(body, path)  # never write what would not be read back
    write_atomically(path, body, "statistics file")
    return record


def describe_record(record: dict[str, int]) -> str:
    """``'games 4, wins 3 (75%), streak 2, best streak 2, best time 3:10, average 4:02,
    fewest moves 97'``."""
    games, wins = record["games"], record["wins"]
    share = f" ({win_percent(record)}%)" if games else ""
    text = (f"games {games}, wins {wins}{share}, streak {record['streak']}, "
            f"best streak {record['best_streak']}")
    timed = record.get("timed_wins", 0)
    if timed:
        text += (f", best time {clock(record['best_seconds'])}, average "
                 f"{clock(record['won_seconds'] // timed)}")
    if record.get("fewest_moves"):
        text += f", fewest moves {record['fewest_moves']}"
    return text


def win_percent(record: dict[str, int]) -> int:
    """The share of games won, in whole percent rounded down (0 before any game): what the
    terminal's and the page's statistics show."""
    return 100 * record["wins"] // record["games"] if record["games"] else 0


def clock(seconds: int) -> str:
    """``'4:05'``, ``'1:02:03'``: a time played as the clocks show it."""
    if seconds >= 3600:
        return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
    return f"{seconds // 60}:{seconds % 60:02d}"
