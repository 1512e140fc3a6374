"""What a player may see of a game: the one answer every front end asks.

A card is *hidden* from the player while it lies face down in a pile or waits in the
stock: the player knows how many such cards there are, never which. Everything made for the
player goes through this module: the web page's snapshot draws a pile with
:func:`seen_cards` (``None`` for a face-down card, the stock only as a count), the hint from
what the player sees guesses exactly :func:`hidden_cards` at :func:`hidden_places`, and
every sentence an answer carries (a refusal, a hint, a review) is passed through
:func:`conceal`, which writes any hidden card named in it (:func:`cards_named`: by code, by
symbol, or in a row of codes as position text writes a pile) as ``##``, as the drawing
does.

A game that is over — won, or with no move left (lost) — hides nothing any more
(:func:`reveals_all`): its review may show every position and a winning line. While a game
is in progress, a review says which move lost it (and where to go back to) but shows no
position and no winning line: both would tell the stock and the face-down cards. A hint
from the full deal is the solver's, which knows the hidden cards; it names the move to
play, never a hidden card.

>>> from patience import find_variant
>>> game = find_variant("docs/examples/little-klondike.yaml").deal(1)
>>> [seen_cards(game, index) for index in range(3)]
[['2C'], [None, '5S'], [None, None, '2S']]
>>> len(hidden_cards(game)), hides_cards(game), reveals_all(game)
(16, True, False)
>>> from patience.cards import card_code
>>> hidden = card_code(hidden_cards(game)[0])
>>> conceal(game, f"the card under 5S is {hidden}") == "the card under 5S is ##"
True
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from patience.cards import FACE_DOWN, SUIT_SYMBOLS, card_code, card_symbol

if TYPE_CHECKING:
    from patience.game import Game

#: what :func:`conceal` writes for a hidden card (the drawing's face-down card)
HIDDEN_MARK = "##"

#: a word of a sentence (a card's code stands alone, or in a row of codes as position text
#: writes a pile: ``7D8D9S``, face down in lower case), or a card's symbol (``7♥``, ``10♠``)
WORD_OR_SYMBOL = re.compile(r"(?<![0-9A-Za-z_])(?:10|[A2-9JQK])[♣♦♥♠]|[0-9A-Za-z_]+")
CARD_CODE = re.compile(r"[A2-9TJQK][CDHS]")


def cards_named(word: str) -> list[str]:
    """The cards a word of a sentence names: a code (``7H``), a symbol (``7♥``), or each code
    of a row of at least two (``7D8D``, ``ah5s``: position text, in any case); [] for any
    other word (``c10``, ``as``, ``Hint``).

    >>> cards_named("TS"), cards_named("10♠"), cards_named("9D3dAC"), cards_named("as")
    (['TS'], ['10♠'], ['9D', '3D', 'AC'], [])
    """
    if CARD_CODE.fullmatch(word) or word[-1] in SUIT_SYMBOLS:
        return [word]
    if len(word) < 4 or len(word) % 2:
        return []
    codes = [word[i:i + 2].upper() for i in range(0, len(word), 2)]
    return codes if all(CARD_CODE.fullmatch(code) for code in codes) else []


def hidden_places(game: Game) -> list[tuple[int, int]]:
    """Where the face-down cards lie: ``(pile, index from the bottom)``, in pile order."""
    return [(index, depth) for index, pile in enumerate(game.piles[:len(game.variant.pile_names)])
            for depth, card in enumerate(pile) if card & FACE_DOWN]


def hidden_cards(game: Game) -> list[int]:
    """The cards hidden from the player (face down, then the stock), sorted: which cards
    they are, never where they lie."""
    return sorted([game.piles[index][depth] & ~FACE_DOWN
                   for index, depth in hidden_places(game)] + list(game.stock))


def hides_shuffles(game: Game) -> bool:
    """Whether a shuffle still to come is hidden from the player: the variant's redeal
    gathers and shuffles piles (``stock.gather``), and a redeal is left. The solver knows
    its seed (docs/rules.md, "Shuffles during play"); the player does not."""
    gather = game.variant.gather
    return gather is not None and gather.shuffle and bool(game.redeals_left)


def hides_cards(game: Game) -> bool:
    """Whether something is hidden from the player here: a card face down or in the stock,
    or where a shuffle still to come will put the cards (:func:`hides_shuffles`)."""
    return bool(game.stock) or bool(hidden_places(game)) or hides_shuffles(game)


def seen_cards(game: Game, index: int) -> list[str | None]:
    """Pile ``index`` as the player sees it, bottom first: each card's code, ``None`` for a
    face-down card."""
    return [None if card & FACE_DOWN else card_code(card) for card in game.piles[index]]


def reveals_all(game: Game) -> bool:
    """Whether the game is over (won, or no move is left), so that nothing in it needs
    hiding any more."""
    return game.is_won() or not game.has_moves()


def concealed_cards(game: Game) -> frozenset[str]:
    """The codes and symbols of the cards hidden from the player that are nowhere in view
    (of two decks' twins, one face up shows what the other is); empty once the game is over
    (:func:`reveals_all`)."""
    if not hides_cards(game) or reveals_all(game):
        return frozenset()
    in_view = {card for pile in game.piles for card in pile if not card & FACE_DOWN}
    return frozenset(name for card in set(hidden_cards(game)) - in_view
                     for name in (card_code(card), card_symbol(card)))


def conceal(game: Game, text: str) -> str:
    """``text`` as the player may read it: each hidden card it names (by code or symbol,
    :func:`concealed_cards`) written ``##``. Every sentence a front end shows about a game
    in progress goes through here, whoever wrote it (a rule's explanation may name any card
    a rule looked at)."""
    hidden = concealed_cards(game)
    if not hidden:
        return text

    def shown(match: re.Match[str]) -> str:
        word = match.group()
        named = cards_named(word)
        if not hidden.intersection(named):
            return word
        if len(named) == 1:
            return HIDDEN_MARK
        return "".join(HIDDEN_MARK if code in hidden else word[2 * i:2 * i + 2]
                       for i, code in enumerate(named))

    return WORD_OR_SYMBOL.sub(shown, text)


__all__ = ["HIDDEN_MARK", "cards_named", "conceal", "concealed_cards", "hidden_cards",
           "hidden_places", "hides_cards", "hides_shuffles", "reveals_all", "seen_cards"]
