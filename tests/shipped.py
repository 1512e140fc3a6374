"""The shipped variants as pytest parameters, for the heavy per-variant tests.

The default run checks one game of each family and one game for each mechanism the
families' representatives leave out (:data:`REPRESENTATIVES`, with the reason for each);
the heaviest tests (the battery, the rule interpreter on rich layouts) check fewer still,
one game per mechanism (:data:`MECHANISMS`). Every other shipped game is marked ``slow``
and checked by ``python -m pytest -m slow`` (which CI runs), so the default run stays under
five minutes. The lists are names, not a reading of the files: collecting the tests
compiles no variant.
"""

from __future__ import annotations

import pytest

import patience

#: one game per mechanism of the kernel: what each brings that the others do not
MECHANISMS = {
    "tabbycat": "the tail, complete sets leaving by the player's move, King on Ace",
    "manx-corner": "forced removal, foundation return, a one-card tail, sets that turn "
                   "the corner",
    "klondike": "face-down cards, a waste and redeals, declared safe moves",
    "freecell": "cells and counted moves (a run moves as far as the free cells allow)",
    "spider": "two decks, forced removal of sets with face-down cards, deals to every column",
    "canfield": "forced fills from a reserve, a placed base card, three cards a deal and "
                "unlimited redeals",
    "fortunes-favor": "placed Aces, a waste filled from the stock at once, foundation "
                      "return",
    "golf": "one foundation built up or down from the columns, once through the stock",
    "fourteen": "discards: pairs of top cards leaving together (moves from several piles)",
    "lineup": "a grid of piles (layout) whose rules read a pile's neighbour and column",
    "monte-carlo": "a deal that closes a grid's gaps up (close_gaps: deal) and fills the empty "
                   "places alone (empty_piles: only); pairs of neighbours discarded",
    "clock": "cards put under a pile (lands: bottom), piles dealt all face down and turned "
             "from the pile the last card went to (fill_from: last)",
    # La Belle Lucie with a draw: it carries La Belle Lucie's mechanism too
    "three-shuffles-and-a-draw": "a redeal that gathers the fans, shuffles them by the deal's "
                                 "seed and deals them again in threes, twice; the draw of a "
                                 "buried card (merci): once a game the card under a fan's top "
                                 "card is played, the top card staying",
}

#: one game per family, and the mechanisms above
REPRESENTATIVES = frozenset({
    *MECHANISMS,
    "aces-up",  # Aces Up: a card leaves when another column shows a higher one of its suit
    "bakers-dozen",  # Baker's Dozen: 13 columns, a gap stays empty, foundation return
    "beleaguered-castle",  # Beleaguered Castle: placed Aces, a file extending another
    "fan",  # Fan: 18 fans, only a King fills a gap
    "king-albert",  # Raglan: a reserve played out, never refilled
    "penguin",  # Penguin: a deal that depends on the first card dealt (deal_first)
    "miss-milligan",  # Gypsy: two decks, a reserve that takes a run once the stock is out
    "yukon",  # Yukon: any face-up group moves, whatever lies on it
    "cruel",  # a redeal that gathers the columns in order and deals them again, unlimited
    # the heaviest generator checks of these two run with the slow tests (their mechanisms,
    # covering and closing gaps, have exact tests of their own in test_rules_places.py)
    "three-peaks-open",  # overlapping rows (layout overlap): a covered pile gives no card
    "accordion",  # a row that closes its gaps (close_gaps), a pile onto its neighbours
    # a shuffled redeal that keeps each row's sequence (stock.gather.keep) and leaves a gap
    # after it (gaps): its heaviest generator checks and battery run with the slow tests
    # (the redeal has exact tests of its own in test_gather_keep.py, both engines)
    "montana",
    "pyramid",  # the stock's top card face up and in play (stock.top), pairs with it
})


def variant_params(*, few: bool = False) -> list[object]:
    """Every shipped variant id; those outside :data:`REPRESENTATIVES` (with ``few``:
    outside :data:`MECHANISMS`) marked slow."""
    fast = MECHANISMS.keys() if few else REPRESENTATIVES
    return [name if name in fast else pytest.param(name, marks=pytest.mark.slow)
            for name in patience.shipped_variants()]
