"""Saved games and player statistics, as versioned JSON in the user's data directory.

The directory is ``platformdirs.user_data_dir("patience")``, or ``$PATIENCE_DATA_DIR`` when
set (tests use it). Two files live there:

- ``save.json`` — the game in progress: ``{"format": "patience-save", "version": 1, …}``;
- ``stats.json`` — per-variant ``games``, ``wins``, ``streak`` and ``best_streak``.

Files are written atomically (a temporary file in the same directory, then ``os.replace``),
so a crash never leaves half a file. A file that cannot be read — not JSON, another
program's JSON, or a version this program does not know — raises :class:`SaveError` with a
message saying what is wrong and where; the file is left exactly as it was.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from patience.errors import PatienceError

SAVE_FORMAT = "patience-save"
STATS_FORMAT = "patience-stats"
VERSION = 1


class SaveError(PatienceError, ValueError):
    """A save or statistics file that cannot be used."""


def data_directory() -> Path:
    """Where saves and statistics live (``$PATIENCE_DATA_DIR`` overrides)."""
    override = os.environ.get("PATIENCE_DATA_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("patience", appauthor=False))


def save_path() -> Path:
    return data_directory() / "save.json"


def stats_path() -> Path:
    return data_directory() / "stats.json"


def write_atomically(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as JSON to ``path`` through a temporary file and ``os.replace``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp",
                                         dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(data, file, indent=1, sort_keys=True)
            file.write("\n")
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def read_versioned(path: Path, format_name: str, what: str) -> dict[str, Any] | None:
    """The data of a versioned file, or None when there is no file; SaveError when the file
    is not ours or not readable. Never changes the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as error:
        raise SaveError(f"cannot read the {what} {str(path)!r}: {error}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SaveError(f"the {what} {str(path)!r} is corrupt (not valid JSON: {error}); "
                        "it was left untouched — move or delete it to start afresh") from None
    if not isinstance(data, dict) or data.get("format") != format_name:
        raise SaveError(f"the {what} {str(path)!r} is not a patience {what} (no "
                        f"\"format\": {format_name!r}); it was left untouched") from None
    version = data.get("version")
    if version != VERSION:
        raise SaveError(f"the {what} {str(path)!r} has version {version!r}; this patience "
                        f"reads version {VERSION} — it was left untouched")
    return data


# -- saved game -------------------------------------------------------------------------

def write_save(data: dict[str, Any], path: Path | None = None) -> Path:
    """Write a saved game (the body from ``Session.to_save()``)."""
    path = path or save_path()
    write_atomically(path, {"format": SAVE_FORMAT, "version": VERSION, **data})
    return path


SAVE_FIELDS = ("variant", "rules_hash", "start", "moves")


def read_save(path: Path | None = None) -> dict[str, Any] | None:
    """The saved game, or None when there is none."""
    path = path or save_path()
    data = read_versioned(path, SAVE_FORMAT, "saved game")
    if data is not None:
        missing = [name for name in SAVE_FIELDS if name not in data]
        if missing or not isinstance(data["moves"], list):
            raise SaveError(f"the saved game {str(path)!r} is incomplete (missing "
                            f"{', '.join(missing) or 'a list of moves'}); it was left untouched")
    return data


def remove_save(path: Path | None = None) -> None:
    """Forget the saved game (after it was won, or lost and recorded)."""
    path = path or save_path()
    try:
        data = read_save(path)
    except SaveError:
        return  # never touch a file that is not ours
    if data is not None:
        path.unlink(missing_ok=True)


# -- statistics -------------------------------------------------------------------------

def empty_record() -> dict[str, int]:
    return {"games": 0, "wins": 0, "streak": 0, "best_streak": 0}


def read_stats(path: Path | None = None) -> dict[str, dict[str, int]]:
    """Per-variant statistics: ``{variant_id: {games, wins, streak, best_streak}}``."""
    data = read_versioned(path or stats_path(), STATS_FORMAT, "statistics file")
    if data is None:
        return {}
    variants = data.get("variants", {})
    if not isinstance(variants, dict):
        raise SaveError(f"the statistics file {str(path or stats_path())!r} is corrupt "
                        "('variants' is not an object); it was left untouched")
    records = {}
    for name, record in variants.items():
        clean = empty_record()
        if isinstance(record, dict):
            clean.update({k: int(v) for k, v in record.items()
                          if k in clean and isinstance(v, int)})
        records[name] = clean
    return records


def record_result(variant_id: str, won: bool, path: Path | None = None) -> dict[str, int]:
    """Count one finished game of ``variant_id`` and return its updated record."""
    path = path or stats_path()
    stats = read_stats(path)
    record = stats.setdefault(variant_id, empty_record())
    record["games"] += 1
    if won:
        record["wins"] += 1
        record["streak"] += 1
        record["best_streak"] = max(record["best_streak"], record["streak"])
    else:
        record["streak"] = 0
    write_atomically(path, {"format": STATS_FORMAT, "version": VERSION, "variants": stats})
    return record


def describe_record(record: dict[str, int]) -> str:
    games, wins = record["games"], record["wins"]
    share = f" ({100 * wins // games}%)" if games else ""
    return (f"games {games}, wins {wins}{share}, streak {record['streak']}, "
            f"best streak {record['best_streak']}")
