"""Columns sorted in the key wherever no forced move or fill ties their order to the
foundations (docs/solver.md, the position key, item 3; solver 1.4), free cells too (a
'first' group that takes cards only while empty; solver 1.6), and the searches with the
sorted key against the plain exhaustive search on reduced decks of those families."""

from __future__ import annotations

from pathlib import Path

import pytest

import patience
from patience import native
from patience.cards import parse_card
from patience.solver import exhaustive_verdict, solve
from patience.solver.rules import solver_rules

MINI = Path(__file__).parent / "variants"


def mini(name: str) -> patience.Variant:
    return patience.find_variant(str(MINI / f"{name}.yaml"))


@pytest.mark.parametrize(("name", "always"), [
    # foundations that take an Ace inside a disjunction: not symmetric, but no forced move
    ("fan", ((0, 18),)), ("klondike", ((0, 7),)),
    # free cells too: a card goes to the first empty cell, and another empty cell differs
    # from it by a swap of two empty piles (FreeCell's foundations build: not sorted)
    ("freecell", ((0, 8), (8, 12))), ("bakers-game", ((0, 8), (8, 12))),
    ("seahaven-towers", ((0, 10), (10, 14))),
    # the sets' foundations take a set only while empty: sorted (Tabby Cat's columns are
    # dealt to, so they sort only once the stock is out)
    ("tabbycat", ((5, 9),)),
    ("spider", ()),  # sets leave by a forced move: nothing sorts
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


def test_permuted_cells_share_a_key():
    variant = patience.find_variant("freecell")
    rules = solver_rules(variant)
    piles = [list(p) for p in variant.deal(1).piles]
    cards = [piles[0].pop(), piles[1].pop()]
    with_cells = [list(p) for p in piles]
    with_cells[8], with_cells[10] = [cards[0]], [cards[1]]
    other_order = [list(p) for p in piles]
    other_order[9], other_order[11] = [cards[1]], [cards[0]]
    assert rules.key(with_cells, []) == rules.key(other_order, [])
    # the foundations keep their order (they build, so a card may go to one but not another)
    aces = [parse_card("AC"), parse_card("AD")]
    piles = [[card for card in pile if card not in aces] for pile in piles]
    founded = [list(p) for p in piles]
    founded[12], founded[13] = [aces[0]], [aces[1]]
    swapped = [list(p) for p in piles]
    swapped[12], swapped[13] = [aces[1]], [aces[0]]
    assert rules.key(founded, []) != rules.key(swapped, [])


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


@pytest.mark.skipif(not native.AVAILABLE, reason=str(native.REASON))
def test_sorted_cells_agree_with_exhaustive_search():
    # 40 deals of FreeCell with two cells: 27 won, 12 lost, 1 too big for the reference
    assert agreement(mini("mini-freecell-cells"), range(1, 41), "native") == \
        {"won", "unwinnable"}


@pytest.mark.slow
@pytest.mark.skipif(not native.AVAILABLE, reason=str(native.REASON))
@pytest.mark.parametrize("name", ["mini-fan", "mini-freecell", "mini-freecell-cells",
                                  "mini-king-albert",
                                  "mini-bakers-dozen", "mini-yukon", "mini-klondike"])
def test_the_sorted_key_agrees_with_exhaustive_search_on_a_hundred_deals(name):
    # the core runs the reference engine's search exactly (test_native)
    verdicts = agreement(mini(name), range(1, 101), "native")
    assert "won" in verdicts, verdicts
