"""Building hand-made positions for the rule tests.

A position must hold every card of the deck exactly once, so :func:`build` takes only the
piles a test cares about and puts every other card of the deck in the stock (after any
stock cards the test names) or, with ``rest="foundations"``, on full foundations.

Cards are written as docs/rules.md card codes separated by spaces, bottom to top: ``"KS QH JD"``
is a column whose top card is the JD.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

import patience
from patience.cards import card_code
from patience.errors import VariantError
from patience.game import Game

# A complete King-to-Ace set in mixed suits, and the same cards as a string of codes.
SET_K_TO_A = "KS QH JD TC 9S 8H 7D 6C 5S 4H 3D 2C AS"

ONE_DECK = ["tabbycat", "manx", "tabbycat-autoremove", "tabbycat-corner",
            "tabbycat-loosetail", "tabbycat-nowrap", "manx-corner"]
ALL_VARIANTS = [*ONE_DECK, "mainecoon"]


def codes(text: str) -> list[str]:
    return text.split()


def build(variant_name: str, columns: Sequence[str] = ("", "", "", ""), tail: str = "",
          foundations: Sequence[str] = (), stock: str = "", rest: str = "stock") -> Game:
    """The position of ``variant_name`` with these piles; the deck's other cards go to the
    end of the stock (``rest="stock"``) or fill the foundations after the ones given,
    13 cards each (``rest="foundations"``)."""
    variant = patience.find_variant(variant_name)
    foundation_count = variant.group_by_name["foundations"].count
    used = Counter()
    piles_given = [*columns, tail, *foundations, stock]
    for pile in piles_given:
        used.update(codes(pile))
    deck = Counter(card_code(card) for card in variant.deck)
    remaining = deck - used
    assert not used - deck, f"cards used more often than the deck holds them: {used - deck}"
    rest_cards = []
    for code in map(card_code, variant.deck):
        if remaining[code]:
            remaining[code] -= 1
            rest_cards.append(code)
    foundation_piles = [codes(f) for f in foundations]
    foundation_piles += [[] for _ in range(foundation_count - len(foundation_piles))]
    stock_cards = codes(stock)
    if rest == "stock":
        stock_cards += rest_cards
    elif rest == "foundations":
        for index, pile in enumerate(foundation_piles):
            if not pile and rest_cards:
                foundation_piles[index] = rest_cards[:13]
                rest_cards = rest_cards[13:]
        assert not rest_cards, "the rest does not fit on the empty foundations"
    else:
        raise ValueError(rest)
    assert len(columns) == 4
    text = (f"c:{'/'.join(''.join(codes(c)) for c in columns)} t:{''.join(codes(tail))} "
            f"f:{'/'.join(''.join(f) for f in foundation_piles)} s:{''.join(stock_cards)}")
    return variant.position(text)


def moves(game: Game) -> list[str]:
    """The legal moves' notation, sorted as plain strings."""
    return sorted(game.notation(move) for move in game.legal_moves)


def expand(*items: str) -> list[str]:
    """Sorted move list; ``"c1:1..5-t"`` stands for c1:1-t, c1:2-t, … c1:5-t."""
    result = []
    for item in items:
        if ".." in item:
            source, _, rest_ = item.partition(":")
            span, _, target = rest_.partition("-")
            low, _, high = span.partition("..")
            result += [f"{source}:{k}-{target}" for k in range(int(low), int(high) + 1)]
        else:
            result.append(item)
    assert len(result) == len(set(result)), "a move written twice"
    return sorted(result)


def load_error(tmp_path: Path, text: str) -> VariantError:
    """The error loading the variant file ``text`` raises (written as ``bad.yaml``)."""
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(VariantError) as caught:
        patience.find_variant(str(path))
    return caught.value
