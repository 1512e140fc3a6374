"""The player's preferences, kept between games: ``preferences.json`` in the data directory.

One preference so far, ``auto_home``: whether the cards proven safe to send home go there by
themselves after each move (``Session.play_safe_moves``; on unless turned off). The file is
read and written as the saves and statistics are (``patience.play.saves``: versioned JSON,
checked field by field, written atomically), and a file that cannot be read or written never
stops a game: the defaults are used, and the problem is said.

>>> import os, tempfile
>>> os.environ["PATIENCE_DATA_DIR"] = tempfile.mkdtemp()
>>> read_preferences()
{'auto_home': True}
>>> _ = write_preference("auto_home", False)
>>> read_preferences()
{'auto_home': False}
>>> del os.environ["PATIENCE_DATA_DIR"]
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from patience.errors import SaveError
from patience.play.saves import data_directory, read_versioned, write_atomically

PREFERENCES_FORMAT = "patience-preferences"
PREFERENCES_VERSION = 1
#: every preference and its value until the player changes it
DEFAULTS: dict[str, bool] = {"auto_home": True}


def preferences_path() -> Path:
    return data_directory() / "preferences.json"


def read_preferences(path: Path | None = None) -> dict[str, bool]:
    """The preferences (the defaults where the file has none, or there is no file);
    SaveError naming the file when it is not ours or corrupt (it is left untouched)."""
    path = path or preferences_path()
    data = read_versioned(path, PREFERENCES_FORMAT, "preferences file", (PREFERENCES_VERSION,))
    if data is None:
        return dict(DEFAULTS)
    for name, value in data.items():
        if name not in ("format", "version", *DEFAULTS):
            raise SaveError(f"the preferences file {str(path)!r} has a field this version "
                            f"does not know ({name[:60]!r}); it was left untouched")
        if name in DEFAULTS and not isinstance(value, bool):
            raise SaveError(f"the preferences file {str(path)!r} is corrupt ({name} is "
                            f"{str(value)[:60]!r}, not true or false); it was left untouched")
    return {name: data.get(name, default) for name, default in DEFAULTS.items()}


def write_preference(name: str, value: bool, path: Path | None = None) -> Path:
    """Set one preference (the others kept); SaveError when the file cannot be read or
    written (it is then unchanged)."""
    path = path or preferences_path()
    preferences: dict[str, Any] = read_preferences(path)
    preferences[name] = value
    return write_atomically(path, {"format": PREFERENCES_FORMAT,
                                   "version": PREFERENCES_VERSION, **preferences},
                            "preferences file")
