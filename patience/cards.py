"""Cards as small integers, card codes, decks and numbered deals.

A card is ``rank * 4 + suit``: rank 1 (Ace) … 13 (King), suit 0..3 for clubs, diamonds,
hearts, spades. So ``card >> 2`` is the rank and ``card & 3`` the suit, and every card fits
in a byte, which keeps positions compact and hashing cheap. Two decks hold the same card
twice; identical cards are interchangeable.

>>> card_code(parse_card("TS"))
'TS'
>>> [card_code(c) for c in numbered_deck(1)[:4]]
['7D', '9C', '4D', '8H']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from patience.errors import DealError

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = "♣♦♥♠"
RED_SUITS = frozenset({1, 2})
RED, BLACK = 1, 0

MASK64 = (1 << 64) - 1
#: added to a card lying face down in a pile (the stock's cards are not marked)
FACE_DOWN = 64


def make_card(rank: int, suit: int) -> int:
    return rank * 4 + suit


def rank_of(card: int) -> int:
    return (card >> 2) & 15


def suit_of(card: int) -> int:
    return card & 3


def color_of(card: int) -> int:
    """RED (1) for diamonds and hearts, BLACK (0) for clubs and spades: ``(suit + 1) >> 1
    & 1``, the form generated code computes."""
    return RED if card & 3 in RED_SUITS else BLACK


def is_face_up(card: int) -> bool:
    return not card & FACE_DOWN


def card_code(card: int) -> str:
    """The two-character code of a card, e.g. ``'TS'``."""
    return RANK_CHARS[((card >> 2) & 15) - 1] + SUIT_CHARS[card & 3]


def card_symbol(card: int) -> str:
    """A card as players read it and the boards draw it: rank and suit symbol, a ten as
    ``10`` (``'10♠'``, ``'Q♥'``); the one shown form of a card.

    >>> card_symbol(parse_card("TS")), card_symbol(parse_card("qh"))
    ('10♠', 'Q♥')
    """
    rank = RANK_CHARS[((card >> 2) & 15) - 1]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[card & 3]


def parse_card(code: str) -> int:
    """The card with a two-character code such as ``'7D'``; raises DealError otherwise.

    Lower case is accepted (``'7d'``); position texts use it to mark face-down cards. A ten
    may be typed ``'10S'`` as players read it; its code stays ``'TS'``.

    >>> parse_card("10S") == parse_card("TS")
    True
    """
    card = _PARSED.get(code)
    if card is not None:
        return card
    text = code.strip()
    if len(text) == 3 and text[:2] == "10":
        text = "T" + text[2]
    if len(text) == 2:
        rank = RANK_CHARS.find(text[0].upper())
        suit = SUIT_CHARS.find(text[1].upper())
        if rank >= 0 and suit >= 0:
            return make_card(rank + 1, suit)
    raise DealError(
        f"unknown card {code!r}: a card is a rank from {RANK_CHARS} and a suit from "
        f"{SUIT_CHARS}, e.g. 'TS'", token=code)


#: every code parse_card reads as written, in either case, a ten also as ``10``: a deal's
#: board reads a card a look-up each
_PARSED: dict[str, int] = {
    text: make_card(rank, suit)
    for rank, rank_char in enumerate(RANK_CHARS, start=1)
    for written in ((rank_char, "10") if rank_char == "T" else (rank_char,))
    for suit, suit_char in enumerate(SUIT_CHARS)
    for text in (written + suit_char, (written + suit_char).lower())}

ALL_SUITS = (0, 1, 2, 3)


def new_deck(decks: int = 1, ranks: int = 13, suits: Sequence[int] = ALL_SUITS) -> list[int]:
    """New-deck order: for each deck, for suit in C D H S (those the deck has), for rank A
    upward."""
    return [make_card(rank, suit) for _ in range(decks) for suit in sorted(suits)
            for rank in range(1, ranks + 1)]


def splitmix64(state: int) -> Iterator[int]:
    """The SplitMix64 stream seeded with ``state``, exactly as docs/rules.md specifies."""
    state &= MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def numbered_deck(number: int, decks: int = 1, ranks: int = 13,
                  without: Sequence[int] = (), suits: Sequence[int] = ALL_SUITS) -> list[int]:
    """The deck order of deal ``number``: Fisher–Yates driven by SplitMix64 (docs/rules.md).

    Cards placed before the deal (``without``) leave the new-deck order first, each taking
    out its first copy, and the rest is shuffled.
    """
    if not 0 <= number <= MASK64:
        raise DealError(f"deal number {number!r} is not an unsigned 64-bit integer")
    cards = new_deck(decks, ranks, suits)
    for card in without:
        cards.remove(card)
    _fisher_yates(cards, splitmix64(number))
    return cards


def _fisher_yates(cards: list[int], draws: Iterator[int]) -> None:
    """Shuffle ``cards`` in place: for i from the last index down to 1, swap card i with
    card ``draw % (i + 1)``."""
    for i in range(len(cards) - 1, 0, -1):
        j = next(draws) % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def redeal_seed(seed: int, redeal: int) -> int:
    """The seed of the shuffle of redeal number ``redeal`` (1 for the first) in a game whose
    shuffle seed is ``seed`` (its deal number): the ``redeal``-th number drawn from the
    SplitMix64 stream seeded with ``seed`` (docs/rules.md, "Shuffles during play").

    >>> redeal_seed(1, 1) == next(splitmix64(1))
    True
    """
    draws = splitmix64(seed)
    for _ in range(redeal - 1):
        next(draws)
    return next(draws)


def redeal_shuffle(cards: Sequence[int], seed: int, redeal: int) -> list[int]:
    """The gathered ``cards`` as redeal number ``redeal`` shuffles them: put in card order
    (face-down marks dropped), then Fisher–Yates driven by SplitMix64 seeded with
    ``redeal_seed(seed, redeal)``. The result depends on which cards were gathered, never
    on the order they were gathered in.

    >>> [card_code(c) for c in redeal_shuffle(parse_cards("KS AC 7D"), 1, 1)]
    ['7D', 'AC', 'KS']
    """
    packet = sorted(card & ~FACE_DOWN for card in cards)
    _fisher_yates(packet, splitmix64(redeal_seed(seed, redeal)))
    return packet


def parse_cards(text: str | Sequence[str]) -> list[int]:
    """Cards from codes separated by spaces (or commas), or from a list of codes."""
    codes = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards = []
    for index, code in enumerate(codes):
        try:
            cards.append(parse_card(code))
        except DealError as error:
            raise DealError(f"card {index + 1} of the deal: {error.message}", token=code,
                            index=index) from None
    return cards


def check_deck(cards: Sequence[int], decks: int = 1, ranks: int = 13,
               suits: Sequence[int] = ALL_SUITS) -> None:
    """Raise DealError unless ``cards`` is exactly the variant's deck in some order."""
    expected = Counter(new_deck(decks, ranks, suits))
    if len(cards) != sum(expected.values()):
        raise DealError(
            f"a deal has {sum(expected.values())} cards for this variant, got {len(cards)}")
    got = Counter(cards)
    for card, count in sorted(got.items()):
        if card not in expected:
            raise DealError(f"card {card_code(card)} is not in this variant's deck")
        if count > expected[card]:
            times = "once" if expected[card] == 1 else f"{expected[card]} times"
            raise DealError(f"card {card_code(card)} appears {count} times; "
                            f"the deck holds it {times}")
