"""The pytest plugin: ``pytest --patience-variant FILE`` runs the invariant battery on FILE.

Registered under the ``pytest11`` entry point, so it is imported at every pytest start-up:
it only adds options here, and loads hypothesis and the battery when an option is given.
"""

from __future__ import annotations

from typing import Any


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("patience", "patience variant battery")
    group.addoption("--patience-variant", action="append", default=[], metavar="FILE|VARIANT",
                    help="Run the patience invariant battery on this variant file or shipped "
                         "variant (repeatable).")
    group.addoption("--patience-examples", type=int, default=None, metavar="N",
                    help="Random positions per battery check (default 100, or "
                         "PATIENCE_EXAMPLES).")


def pytest_configure(config: Any) -> None:
    if config.getoption("patience_variant", default=None):
        from patience.testing.pytest_items import BatteryPlugin

        config.pluginmanager.register(BatteryPlugin(config), "patience-battery")
