"""Refusals in a player's words (issue #32): the cards a pile takes, said by rank, colour
and suit, found from the pile's own rule; never a face-down card's."""

from __future__ import annotations

import re

from patience import Game, find_variant
from patience.cards import FACE_DOWN, parse_cards
from patience.game import Move
from patience.refusal import refusal


def position(name: str, **piles: str) -> Game:
    variant = find_variant(name)
    return Game(variant, [parse_cards(piles.get(p, "")) for p in variant.pile_names], [])


def words(game: Game, move: str) -> str:
    """The refusal of ``move`` (``c2:1-c1``; a foundation named by its pile, ``f2``)."""
    source, count, target = re.fullmatch(r"(\w+):(\d+)-(\w+)", move).groups()
    index = game.variant.pile_index
    found = refusal(game, Move(index[source], int(count), index[target]))
    assert found is not None
    return found.words


def test_the_cards_a_pile_takes_are_said_by_rank_colour_and_suit():
    freecell = position("freecell", c1="JD", c2="8D", c3="5S", c4="KS QH", c5="7C", f1="AS 2S 3S")
    assert words(freecell, "c2:1-c1") == "8♦ can't go on J♦: only a black 10 goes there"
    assert words(freecell, "c3:1-f1") == "5♠ can't go on 3♠: only 4♠ goes there"
    assert words(freecell, "c5:1-f2") == "7♣ can't go to empty f2: only an Ace goes there"
    klondike = position("klondike", c1="QH", c2="5S")
    assert words(klondike, "c1:1-c3") == "Q♥ can't go to empty c3: only a King goes there"
    golf = position("golf", c1="7C", w="9D")
    assert words(golf, "c1:1-w") == "7♣ can't go on 9♦: only a 10 or an 8 goes there"
    spider = position("spider", c1="AC", c2="2D")
    assert words(spider, "c2:1-c1") == "2♦ can't go on A♣: no card goes there by itself"


def test_cards_that_cannot_move_together_are_told_how_many_can():
    tabbycat = position("tabbycat", c1="9C 5H 4S 3D", c2="TD")
    assert words(tabbycat, "c1:4-c2") == ("9♣ and the 3 cards on it can't move together: "
                                          "only 5♥ and the 2 cards on it can")
    freecell = position("freecell", c1="9C 5H 4S", c2="TD")
    assert words(freecell, "c1:3-c2") == ("9♣ and the 2 cards on it can't move together: "
                                          "only 5♥ and the card on it can")


def test_where_the_card_is_not_the_reason_the_authors_words_stay():
    # FreeCell's supermove: 9♥ could go on 10♠ alone, but not with 4 cards on it when no
    # cell and no column is free; the file's own words say why
    full = dict(zip(("c3", "c4", "c5", "c6", "c7", "c8"),
                    ("KD", "QD", "JD", "KH", "QH", "JH"), strict=True))  # no column free
    freecell = position("freecell", c1="9H 8S 7H 6S 5H", c2="TS", a1="AD", a2="AC", a3="AS",
                        a4="AH", **full)
    said = words(freecell, "c1:5-c2")
    assert said.startswith("9♥ and the 4 cards on it can't go on 10♠: ") and "only" not in said


def test_a_pile_with_a_face_down_card_on_top_is_never_asked_what_it_takes():
    game = position("klondike", c1="KH", c2="QS", c3="JS")
    game.piles[1][0] |= FACE_DOWN  # Q♠ face down, as dealt
    said = words(game, "c1:1-c2")
    assert said.startswith("K♥ can't go on a face-down card") and "Jack" not in said
