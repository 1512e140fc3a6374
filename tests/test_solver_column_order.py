"""Columns sorted in the key wherever no forced move or fill ties their order to the
foundations (docs/solver.md, the position key, item 3; solver 1.4), and the searches with
the sorted key against the plain exhaustive search on reduced decks of those families."""

from __future__ import annotations

from pathlib import Path

import pytest

import patience
from patience import native
from patience.solver import exhaustive_verdict, solve
from patience.solver.rules import solver_rules

MINI = Path(__file__).parent / "variants"


def mini(name: str) -> patience.Variant:
    return patience.find_variant(str(MINI / f"{name}.yaml"))


@pytest.mark.parametrize(("name", "always"), [
    # foundations that take an Ace inside a disjunction: not symmetric, but no forced move
    ("fan", ((0, 18),)), ("freecell", ((0, 8),)), ("klondike", ((0, 7),)),
    ("bakers-dozen", ((0, 13),)), ("yukon", ((0, 7),)),
    ("canfield", ()),  # the reserve fills the columns: their order matters
    ("golf", ((0, 7),))])  # symmetric foundations: sorted before too
def test_columns_sort_unless_a_forced_move_ties_their_order(name, always):
    assert solver_rules(patience.find_variant(name)).always_sorted == always


def test_permuted_columns_share_a_key():
    variant = patience.find_variant("fan")
    rules = solver_rules(variant)
    game = variant.deal(1)
    piles = [list(p) for p in game.piles]
    swapped = [piles[3], piles[0], piles[1], piles[2]] + piles[4:]
    assert rules.key(piles, []) == rules.key(swapped, [])
    moved = [piles[0][:-1]] + piles[1:]  # a different position keeps a different key
    assert rules.key(piles, []) != rules.key(moved, [])
    # with redeals too (Klondike keys its stock by the cards): the columns sort, the
    # stock does not
    klondike = solver_rules(patience.find_variant("klondike"))
    game = patience.find_variant("klondike").deal(1)
    piles = [list(p) for p in game.piles]
    swapped = [piles[6]] + piles[1:6] + [piles[0]] + piles[7:]
    assert klondike.key(piles, list(game.stock)) == klondike.key(swapped, list(game.stock))
    assert klondike.key(piles, list(game.stock)) != \
        klondike.key(piles, list(game.stock)[::-1])


def agreement(variant: patience.Variant, deals: range, engine: str) -> set[str]:
    """The solver against the exhaustive reference on each deal it decides; the verdicts."""
    assert solver_rules(variant).always_sorted
    verdicts = set()
    for number in deals:
        game = variant.deal(number)
        reference = exhaustive_verdict(game, max_positions=200_000, engine=engine)
        if reference == "unknown":
            continue
        result = solve(game, max_positions=200_000, shorten_line=False, engine=engine)
        assert result.verdict in (reference, "unknown"), f"{variant.id} deal {number}"
        verdicts.add(result.verdict)
    return verdicts


def test_the_sorted_key_agrees_with_exhaustive_search():
    assert agreement(mini("mini-fan"), range(3, 5), "python") == {"won", "unwinnable"}


@pytest.mark.slow
@pytest.mark.skipif(not native.AVAILABLE, reason=str(native.REASON))
@pytest.mark.parametrize("name", ["mini-fan", "mini-freecell", "mini-king-albert",
                                  "mini-bakers-dozen", "mini-yukon", "mini-klondike"])
def test_the_sorted_key_agrees_with_exhaustive_search_on_a_hundred_deals(name):
    # the core runs the reference engine's search exactly (test_native)
    verdicts = agreement(mini(name), range(1, 101), "native")
    assert "won" in verdicts, verdicts
