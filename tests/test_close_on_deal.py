"""Gaps that close when the player deals (``close_gaps: deal``) and a deal to the empty
places alone (``empty_piles: only``), docs/authoring.md: what the loader refuses and where,
and Monte Carlo's deal as PySolFC's ``MonteCarlo_Talon`` makes it (``canDealCards``,
``fillEmptyStacks``: the cards shift up in order, the places left at the end are filled
from the talon) in both engines."""

from __future__ import annotations

import random

import pytest
from test_gather import errors_of

import patience
from patience import native
from patience.cards import card_code
from patience.plainrules import plain_rules_text
from patience.solver.rules import after_deal_sources, solver_rules


@pytest.mark.parametrize(("body", "message", "line"), [
    ("piles:\n  columns:\n    close_gaps: later\n",
     "piles.columns.close_gaps must be true, false or deal, not 'later'", 7),
    ("piles:\n  columns:\n    close_gaps: 2\n",
     "piles.columns.close_gaps must be true or false, not '2'", 7),
    (("piles:\n  columns:\n    close_gaps: deal\n    deal: 13\nstock:\n  deals_to: []\n"
     "  gather: {from: [columns], deal: 13, redeals: 1}\n"),
     ("piles.columns.close_gaps: deal closes its gaps as the deal's first step, and a redeal "
     "(stock.redeals or stock.gather) has no such step: drop one of them"), 10),
    ("stock:\n  empty_piles: first\n", "stock.empty_piles must be one of", 6),
])
def test_the_loader_refuses_what_it_cannot_play_and_says_where(body, message, line):
    found = errors_of(body)
    assert any(text.startswith(message) and at == line for text, at in found), found


# --- Monte Carlo's deal, as PySolFC makes it ----------------------------------------------

GRID = 25


def pysolfc_can_deal(grid: list[list[int]], stock: list[int]) -> bool:
    """MonteCarlo_Talon.canDealCards: a gap with a card after it, or a gap and a talon."""
    free = False
    for pile in grid:
        if not pile:
            free = True
        elif free:
            return True
    return free and bool(stock)


def pysolfc_deal(grid: list[list[int]], stock: list[int]) -> tuple[list[list[int]], list[int]]:
    """MonteCarlo.fillEmptyStacks: shiftCards moves each card up by the number of gaps
    before it; then each empty pile, in order, takes the talon's top card while it lasts."""
    grid, stock = [list(p) for p in grid], list(stock)
    free = 0
    for index, pile in enumerate(grid):
        if not pile:
            free += 1
        elif free:
            grid[index - free] = pile
            grid[index] = []
    for pile in grid:
        if not pile and stock:
            pile.append(stock.pop())
    return grid, stock


def monte_carlo_positions(count: int) -> list[patience.Game]:
    """Positions of Monte Carlo with gaps anywhere, the stock full, short or empty."""
    variant = patience.find_variant("monte-carlo")
    chooser = random.Random(89)
    games = []
    while len(games) < count:
        deck = list(range(4, 56))
        chooser.shuffle(deck)
        gone = chooser.randrange(0, 26) * 2  # cards discarded, in pairs
        home, rest = deck[:gone], deck[gone:]
        filled = max(0, min(GRID, len(rest)) - chooser.randrange(0, 6))
        places = chooser.sample(range(GRID), filled)
        grid = [""] * GRID
        for place in sorted(places):
            grid[place] = card_code(rest.pop())
        stock = "".join(card_code(card) for card in rest)
        text = (f"g:{'/'.join(grid)} f:{''.join(card_code(c) for c in home)} s:{stock}")
        games.append(variant.position(text))
    return games


@pytest.mark.parametrize("engine", ["python", "native"])
def test_monte_carlos_deal_is_pysolfcs(engine):
    dealt = closed_only = refused = 0
    for game in monte_carlo_positions(200):
        piles, stock = [list(p) for p in game.piles], list(game.stock)
        expected = pysolfc_can_deal(piles[:GRID], stock)
        core = native.core(game.variant)
        can = core.can_deal(piles, stock) if engine == "native" else \
            bool(game.variant.can_deal(piles, stock))
        assert can == expected, game.text()
        if not can:
            refused += 1
            continue
        grid, left = pysolfc_deal(piles[:GRID], stock)
        if engine == "python":
            after, after_stock = [list(p) for p in piles], list(stock)
            undo = game.variant.play(after, after_stock, (-1, 0, -1))
            back, back_stock = [list(p) for p in after], list(after_stock)
            game.variant.take_back(back, back_stock, (-1, 0, -1), undo)
        else:
            (after, after_stock), (back, back_stock) = core.play_and_take_back(
                piles, stock, (-1, 0, -1))
        assert (after[:GRID], after_stock) == (grid, left), game.text()
        assert after[GRID:] == piles[GRID:]
        assert (back, back_stock) == (piles, stock), game.text()
        dealt += 1
        closed_only += not stock
    assert dealt > 50 and closed_only > 5 and refused > 5, (dealt, closed_only, refused)


def test_the_grid_is_never_sorted_and_no_move_is_restricted_after_a_deal():
    variant = patience.find_variant("monte-carlo")
    rules = solver_rules(variant)
    assert rules.always_sorted == () and rules.sorted_when_stock_empty == ()
    assert after_deal_sources(variant) is None
    assert not rules.top_piles.keys() & set(range(GRID))


def test_the_rules_say_when_the_gaps_close():
    plain = plain_rules_text(patience.find_variant("monte-carlo"))
    assert "When the player deals ('d'), their gaps close first" in plain
    assert "gives a card to each empty one of g1" in plain
