"""One- and two-suit Spider: decks of some suits only (``suits:``), rules from Spider.

The expected move sets are derived by hand from the rules (PySolFC's spider.html: build
down regardless of suit; only a run of one suit moves; a gap takes any run).
"""

from __future__ import annotations

from collections import Counter

import patience
from patience.cards import card_code


def moves(game: patience.Game) -> set[str]:
    return {game.notation(move) for move in game.legal_moves}


def test_one_suit_spider_deals_eight_copies_of_the_clubs():
    game = patience.find_variant("spider-1suit").deal(1)
    cards = [c & 63 for pile in game.piles for c in pile] + game.stock
    assert len(cards) == 104
    assert Counter(card_code(c) for c in cards) == {f"{r}C": 8 for r in "A23456789TJQK"}
    assert [len(pile) for pile in game.piles[:10]] == [6, 5, 5, 6, 5, 5, 6, 5, 5, 6]


def test_two_suit_spider_deals_four_copies_of_clubs_and_hearts():
    game = patience.find_variant("spider-2suits").deal(7)
    cards = [c & 63 for pile in game.piles for c in pile] + game.stock
    assert Counter(card_code(c)[1] for c in cards) == {"C": 52, "H": 52}
    assert all(n == 4 for n in Counter(cards).values())


def test_a_two_suit_run_moves_only_in_its_one_suit_part():
    variant = patience.find_variant("spider-2suits")
    # c1: 9C 8H 7H (8H 7H is one suit; 9C 8H is not); c2: 9H; c3: 8C; c4-c9 Kings;
    # c10: QH, which goes on any King
    text = ("c:9C8H7H/9H/8C/KC/KC/KC/KC/KH/KH/QH f://///// s:" + "".join(
        _rest(variant, "9C 8H 7H 9H 8C KC KC KC KC KH KH QH")))
    game = variant.position(text)
    assert moves(game) == {
        "c1:1-c3",  # 7H on 8C: any suit builds
        "c1:2-c2",  # 8H 7H (one suit) on 9H; the three cards are not one suit
        "c3:1-c2",  # 8C on 9H
        *{f"c10:1-c{i}" for i in range(4, 10)},  # QH on each King
        "d",  # no column is empty
    }


def test_the_deck_check_refuses_a_suit_the_deck_does_not_have():
    variant = patience.find_variant("spider-1suit")
    try:
        cards = [card_code(c) for c in variant.deck]
        variant.deal_cards(["AS"] + cards[1:])
    except patience.DealError as error:
        assert "AS" in str(error)
    else:
        raise AssertionError("a spade in one-suit Spider was accepted")


def _rest(variant: patience.Variant, shown: str) -> list[str]:
    """The deck's other cards, for the stock (dealing order does not matter here)."""
    left = Counter(card_code(c) for c in variant.deck)
    left.subtract(shown.split())
    return [code for code, n in sorted(left.items()) for _ in range(n)]
