"""Where hypothesis keeps its files (the constants it collects, its example database).

Left alone, hypothesis writes a ``.hypothesis`` folder into the current directory. ``patience
test`` and the pytest plugin (with ``--patience-variant``) keep those files in the user's
cache folder instead, ``platformdirs.user_cache_dir("patience")/hypothesis`` (on Linux
``~/.cache/patience/hypothesis``), unless ``HYPOTHESIS_STORAGE_DIRECTORY`` names another
(docs/testing.md).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["hypothesis_folder", "keep_hypothesis_files_in_the_cache"]


def hypothesis_folder() -> Path:
    """The folder hypothesis's files go to: ``HYPOTHESIS_STORAGE_DIRECTORY`` when it is set,
    else ``hypothesis`` in patience's folder of the user's cache."""
    chosen = os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY")
    if chosen:
        return Path(chosen)
    import platformdirs

    return Path(platformdirs.user_cache_dir("patience", appauthor=False)) / "hypothesis"


def keep_hypothesis_files_in_the_cache() -> Path:
    """Point hypothesis at :func:`hypothesis_folder` (before it writes anything) and return
    it."""
    from hypothesis import configuration

    folder = hypothesis_folder()
    configuration.set_hypothesis_home_dir(folder)
    return folder
