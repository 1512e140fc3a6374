"""The pytest plugin: ``pytest --patience-variant FILE`` runs the invariant battery on FILE.

Registered under the ``pytest11`` entry point, so it is imported at every pytest start-up:
it only adds options here, and loads hypothesis and the battery when an option is given.
"""

from __future__ import annotations

import os
from typing import Any

from patience.limits import MAX_EXAMPLES


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("patience", "patience variant battery")
    group.addoption("--patience-variant", action="append", default=[], metavar="FILE|VARIANT",
                    help="Run the patience invariant battery on this variant file or shipped "
                         "variant (repeatable).")
    group.addoption("--patience-examples", type=int, default=None, metavar="N",
                    help="Random positions per battery check (default 100, or "
                         "PATIENCE_EXAMPLES).")


def pytest_configure(config: Any) -> None:
    battery = bool(config.getoption("patience_variant", default=None))
    _check_examples(config.getoption("patience_examples", default=None),
                    os.environ.get("PATIENCE_EXAMPLES") if battery else None)
    if battery:
        import pytest

        try:
            from patience.testing.pytest_items import BatteryPlugin
            from patience.testing.storage import keep_hypothesis_files_in_the_cache
        except ImportError as error:  # hypothesis is in the 'author' extra, not a dependency
            from patience.distribution import install_hint

            missing = repr(error.name) if error.name else f"a module it imports ({error})"
            raise pytest.UsageError(
                f"--patience-variant needs {missing}, which is not installed: "
                f"{install_hint('author')}") from None
        # hypothesis's files in the user's cache, not a .hypothesis folder here (docs/testing.md)
        keep_hypothesis_files_in_the_cache()
        config.pluginmanager.register(BatteryPlugin(config), "patience-battery")


def _check_examples(option: int | None, environment: str | None) -> None:
    """Refuse a number of examples that is not from 1 to ``MAX_EXAMPLES`` (a check run on
    zero examples would pass without testing anything)."""
    import pytest

    for where, value in (("--patience-examples", option), ("PATIENCE_EXAMPLES", environment)):
        if value is None:
            continue
        try:
            number = int(value)
        except ValueError:
            number = None
        if number is None or not 1 <= number <= MAX_EXAMPLES:
            raise pytest.UsageError(f"{where} must be a whole number from 1 to "
                                    f"{MAX_EXAMPLES:_}, not {value!r}")
