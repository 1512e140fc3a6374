"""The battery as pytest items: one test per (variant, check), added at collection.

Loaded by ``patience.pytest_plugin`` only when ``--patience-variant`` is given. A failing
item prints the shrunk counterexample: the start, the move list in notation, the position,
and the ``patience show`` command that reproduces it.
"""

from __future__ import annotations

from typing import Any

import pytest

from patience.errors import PatienceError, VariantError
from patience.testing.battery import ALL_CHECKS, BatteryFailure, default_examples, run_battery


class BatteryItem(pytest.Item):
    """One battery check on one variant."""

    def __init__(self, *, variant_name: str, check: str, examples: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.variant_name = variant_name
        self.check = check
        self.examples = examples

    def runtest(self) -> None:
        from patience.variant import find_variant

        try:
            variant = find_variant(self.variant_name)
        except PatienceError as error:
            message = error.render() if isinstance(error, VariantError) else str(error)
            raise BatteryFailure(f"{self.variant_name} does not load:\n{message}") from None
        report = run_battery(variant, examples=self.examples, only=[self.check])
        outcome = report.outcomes[0]
        if outcome.status == "skipped":
            pytest.skip(outcome.message)
        if outcome.status == "failed":
            raise BatteryFailure(outcome.message)

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, BatteryFailure):
            return f"{self.variant_name}: {excinfo.value}"
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"patience battery: {self.variant_name} {self.check}"


class BatteryPlugin:
    """Adds a :class:`BatteryItem` per variant and check to the collected tests."""

    def __init__(self, config: Any) -> None:
        self.variants: list[str] = config.getoption("patience_variant")
        examples = config.getoption("patience_examples")
        self.examples = examples if examples is not None else default_examples()

    def pytest_collection_modifyitems(self, session: Any, config: Any,
                                      items: list[Any]) -> None:
        names = list(ALL_CHECKS)
        for variant in self.variants:
            for check in names:
                items.append(BatteryItem.from_parent(
                    session, name=f"patience[{variant}-{check}]", variant_name=variant,
                    check=check, examples=self.examples))
