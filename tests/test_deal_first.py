"""Deals that depend on dealt cards: a group's ``deal_first`` (docs/authoring.md, "Deals that
depend on dealt cards"), and Penguin, which PySolFC deals that way.

Penguin's deal is checked against PySolFC's own steps (pysollib/games/bakersgame.py, class
Penguin, and pysollib/game/__init__.py, Game._shuffleHookMoveSorter, shlomif/PySolFC @
7a3d146a), written out here on the dealing order: the four cards of the first card's rank
move to the top of the talon in their order; the first three go to the foundations; the
fourth is the first card of the rows (seven rounds over seven columns).
"""

from __future__ import annotations

import pytest

from patience.cards import card_code, numbered_deck, parse_cards, rank_of
from patience.errors import VariantError
from patience.variant import find_variant, load_variant_text


def pysolfc_penguin(cards: list[int]) -> tuple[list[list[int]], list[int]]:
    """Penguin's deal as PySolFC makes it, on the cards in dealing order: the columns and
    the three foundation cards."""
    rank = rank_of(cards[0])
    base = [c for c in cards if rank_of(c) == rank]
    rest = [c for c in cards if rank_of(c) != rank]
    talon = base + rest  # _shuffleHookMoveToTop keeps the order the cards came in
    foundations, rows = talon[:3], talon[3:]
    columns: list[list[int]] = [[] for _ in range(7)]
    for index, card in enumerate(rows):  # _startDealNumRowsAndDealSingleRow(6): 7 rounds
        columns[index % 7].append(card)
    return columns, foundations


@pytest.mark.parametrize("number", [1, 2, 3, 17, 9999])
def test_penguin_deals_as_pysolfc_does(number):
    variant = find_variant("penguin")
    game = variant.deal(number)
    columns, foundations = pysolfc_penguin(numbered_deck(number, 1, 13))
    assert game.piles[:7] == columns
    assert game.piles[14:17] == [[card] for card in foundations]
    assert game.piles[17] == [] and game.stock == []
    beak = columns[0][0]  # the first card of the layout, at the bottom of the first column
    assert rank_of(beak) == rank_of(foundations[0])


def test_the_cards_of_the_first_cards_rank_lead_in_their_order_and_the_last_is_the_beak():
    # the first card, KS, names the rank: KS KD KH go home in the order they came, and KC,
    # the last King, is the beak; the other cards follow in their order from c2
    cards = parse_cards("KS 2C 3C KD 4C KH 5C KC") + [
        c for c in numbered_deck(1, 1, 13) if card_code(c) not in
        {"KS", "2C", "3C", "KD", "4C", "KH", "5C", "KC"}]
    game = find_variant("penguin").deal_cards(cards)
    assert [card_code(game.piles[i][0]) for i in (14, 15, 16)] == ["KS", "KD", "KH"]
    assert [card_code(game.piles[i][0]) for i in range(5)] == ["KC", "2C", "3C", "4C", "5C"]


TWO_GROUPS = """\
id: lead
name: Lead
description: Cards chosen by a rule lead the deal.
decks: 1
piles:
  columns:
    id: c
    count: 2
    deal: 2
    accepts: "false"
  cells:
    id: a
    count: 2
    deal_first: card.suit == first_card.suit and card.rank <= 3
    accepts: "false"
stock:
  deals_to: [columns]
win: "false"
"""


def test_a_group_dealt_nothing_only_reorders_the_deal():
    # the cells are dealt nothing: the picked cards (the first card's suit, ranks A-3) lead
    # the layout in the order they came, then the others follow in theirs
    variant = load_variant_text(TWO_GROUPS, "lead.yaml")
    cards = parse_cards("9H 2D 3H 8C AH 4S 2H") + [
        c for c in numbered_deck(1, 1, 13) if card_code(c) not in
        {"9H", "2D", "3H", "8C", "AH", "4S", "2H"}]
    game = variant.deal_cards(cards)
    assert [[card_code(c) for c in pile] for pile in game.piles[:2]] == [["3H", "2H"],
                                                                          ["AH", "9H"]]
    assert game.piles[2:4] == [[], []]
    assert card_code(game.stock[-1]) == "2D"


def test_a_deal_first_group_takes_other_cards_when_the_rule_picks_too_few():
    text = TWO_GROUPS.replace("    count: 2\n    deal_first", "    count: 2\n    deal: 2\n"
                              "    deal_first").replace("card.rank <= 3", "card.rank == 1")
    variant = load_variant_text(text, "lead.yaml")
    cards = parse_cards("9H 2D AH 8C 4S") + [
        c for c in numbered_deck(1, 1, 13) if card_code(c) not in {"9H", "2D", "AH", "8C", "4S"}]
    game = variant.deal_cards(cards)
    # the cells, two cards each in rounds: AH (picked), then 9H 2D 8C in order
    assert [[card_code(c) for c in pile] for pile in game.piles[2:4]] == [["AH", "2D"],
                                                                          ["9H", "8C"]]
    assert [card_code(c) for c in game.piles[0][:1]] == ["4S"]


def test_deal_first_reading_a_pile_is_refused_where_it_does():
    text = TWO_GROUPS.replace("card.rank <= 3", "card.rank <= 3 and stock.size > 3")
    with pytest.raises(VariantError) as caught:
        load_variant_text(text, "lead.yaml")
    row = next(n for n, line in enumerate(text.splitlines(), 1) if "deal_first:" in line)
    column = text.splitlines()[row - 1].index("stock.size") + 1
    assert f"lead.yaml:{row}:{column}: in piles.cells.deal_first: it reads the stock" in \
        str(caught.value)


def test_first_card_is_seen_only_by_deal_first():
    text = TWO_GROUPS.replace('win: "false"', "win: first_card.rank == 1")
    with pytest.raises(VariantError, match="in win: unknown name 'first_card'"):
        load_variant_text(text, "lead.yaml")


def test_the_battery_checks_that_deal_first_groups_are_dealt_the_picked_cards(monkeypatch):
    from patience import game as kernel
    from patience.testing.battery import check_deals_deterministic

    variant = find_variant("penguin")
    check_deals_deterministic(variant.deal(5))  # the kernel deals as the battery expects
    picks = kernel._cards_where
    monkeypatch.setattr(kernel, "_cards_where", lambda variant, rule, first_card=None:
                        picks(variant, rule) if first_card is None else frozenset())
    with pytest.raises(AssertionError, match="piles.foundations.deal_first picks"):
        check_deals_deterministic(variant.deal(5))
