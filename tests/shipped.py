"""The shipped variants as pytest parameters, for the heavy per-variant tests.

The default run checks the Tabby Cat / Manx family and one game for each mechanism the
other families brought (face-down cards and a waste with redeals: klondike; counted moves
and cells: freecell; forced removals with face-down cards: spider; forced fills and placed
cards: canfield, fortunes-favor); every other shipped game is marked ``slow`` and checked
by ``python -m pytest -m slow`` (which CI runs), so the default run stays under five
minutes.
"""

from __future__ import annotations

import pytest

import patience

REPRESENTATIVES = frozenset({"klondike", "freecell", "spider", "canfield", "fortunes-favor"})


def variant_params() -> list[object]:
    """Every shipped variant id, the heavy ones marked slow."""
    params: list[object] = []
    for name in patience.shipped_variants():
        fast = name in REPRESENTATIVES or \
            patience.find_variant(name).family == "Tabby Cat / Manx"
        params.append(name if fast else pytest.param(name, marks=pytest.mark.slow))
    return params
