"""First checks that the shipped variants load and deal as docs/rules.md says."""

from __future__ import annotations

import pytest

import patience
from patience.cards import card_code, numbered_deck


def test_numbered_deal_1_matches_the_rules_example():
    # docs/rules.md and the kernel issue both show deal 1 starting "7D 9C 4D"
    assert [card_code(c) for c in numbered_deck(1)[:3]] == ["7D", "9C", "4D"]


@pytest.mark.parametrize("name", patience.shipped_variants())
def test_every_shipped_variant_loads_and_deals(name):
    variant = patience.find_variant(name)
    game = variant.deal(1)
    assert game.has_moves()
    assert variant.position(game.text()) == game
