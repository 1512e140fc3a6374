"""docs/rules.md, the deal and numbered deals: one card onto each column in order (c1 first),
empty columns included, never onto the tail; no deal when the stock is empty; no redeal;
deal N is SplitMix64 + Fisher-Yates from new-deck order, dealt from index 0."""

from __future__ import annotations

import pytest
from rules_helpers import ALL_VARIANTS, ONE_DECK, build, expand, moves

import patience
from patience.cards import card_code

MASK = (1 << 64) - 1


def reference_deal(number: int, decks: int = 1) -> list[str]:
    """docs/rules.md "Numbered deals", written out again independently of the kernel."""
    cards = [rank + suit for _ in range(decks) for suit in "CDHS" for rank in "A23456789TJQK"]
    state = number

    def draw() -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    for i in range(len(cards) - 1, 0, -1):
        j = draw() % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


@pytest.mark.parametrize("number", [0, 1, 2, 3, 42, 503, 2**32 + 7, 2**63, 2**64 - 1])
@pytest.mark.parametrize("variant", ["tabbycat", "mainecoon"])
def test_numbered_deals_follow_the_rules_algorithm(variant, number):
    v = patience.find_variant(variant)
    cards = reference_deal(number, v.decks)
    game = v.deal(number)
    # the layout takes cards 0..3 (column 1, 2, 3, 4), the stock the rest in order
    assert [card_code(game.pile(f"c{i}")[0]) for i in range(1, 5)] == cards[:4]
    stock = game.text().split("s:")[1]
    assert stock == "".join(cards[4:])


def test_deal_one_starts_7d_9c_4d():
    assert reference_deal(1)[:3] == ["7D", "9C", "4D"]


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_an_explicit_deal_is_the_same_list_written_out(variant):
    v = patience.find_variant(variant)
    assert v.deal_cards(" ".join(reference_deal(7, v.decks))) == v.deal(7)


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_a_deal_feeds_each_column_in_order_empty_ones_included_never_the_tail(variant):
    game = build(variant, ["", "5D", "", "9C"], tail="KS", stock="2H 3H 4H 6S 7S")
    game.push("d")
    assert game.text().split()[:2] == ["c:2H/5D3H/4H/9C6S", "t:KS"]
    assert game.text().split("s:")[1].startswith("7S")


@pytest.mark.parametrize("variant", ONE_DECK)
def test_twelve_deals_then_no_more(variant):
    game = patience.find_variant(variant).deal(1)
    assert game.deals_left == 12
    for _ in range(12):
        assert "d" in moves(game)
        game.push("d")
    assert game.stock == []
    assert "d" not in moves(game)
    with pytest.raises(patience.MoveError):
        game.push("d")


# No stock: every card is on the table or on full foundations. c1 KS … 4S (top-k bottom
# rank k+3), 3S, 2S, AS: AS takes the whole run (wrap), 3S on 4S, 2S on 3S, AS on 2S.
NO_STOCK = ["KS QS JS TS 9S 8S 7S 6S 5S 4S", "3S", "2S", "AS"]
NO_STOCK_FOUNDATIONS = ["KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC",
                        "KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD",
                        "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH"]
NO_STOCK_COMMON = ["c2:1-c1", "c2:1-t", "c3:1-c2", "c3:1-t", "c4:1-c3", "c4:1-t"]


@pytest.mark.parametrize("variant", ["tabbycat", "tabbycat-autoremove", "tabbycat-loosetail",
                                     "mainecoon"])
def test_no_deal_when_the_stock_is_empty(variant):
    game = build(variant, NO_STOCK, foundations=NO_STOCK_FOUNDATIONS, rest="foundations")
    assert game.stock == []
    assert moves(game) == expand("c1:1..10-t", "c1:10-c4", *NO_STOCK_COMMON)


def test_no_deal_when_the_stock_is_empty_no_wrap():
    game = build("tabbycat-nowrap", NO_STOCK, foundations=NO_STOCK_FOUNDATIONS)
    assert moves(game) == expand("c1:1..10-t", *NO_STOCK_COMMON)


def test_no_deal_when_the_stock_is_empty_manx():
    game = build("manx", NO_STOCK, foundations=NO_STOCK_FOUNDATIONS)
    assert moves(game) == expand("c1:1-t", "c1:10-c4", *NO_STOCK_COMMON)
