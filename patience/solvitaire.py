"""Our positions as Solvitaire's deals (JSON), for the games it plays by our rules.

Solvitaire (Charlie Blake and Ian Gent, github.com/thecharlieblake/Solvitaire) is a C++
solver for thoughtful patience. Whether it plays one of our variants by exactly the same
rules, with which of its presets or rules files, and how our pile groups become the keys of
its deal file, each variant file says itself under its ``solvitaire:`` key (read and checked
when the file loads: ``patience.solvitaire_mapping``; docs/authoring.md; the reasons are in
bench/README.md, "Against Solvitaire"). ``patience solvitaire VARIANT --seed N`` prints a
deal; bench/solvitaire.py runs Solvitaire on them against our solver.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from patience.cards import FACE_DOWN, RANK_CHARS, SUIT_CHARS, rank_of, suit_of
from patience.errors import PatienceError

if TYPE_CHECKING:
    from patience.game import Game
    from patience.variant import Group, Variant


class SolvitaireError(PatienceError, ValueError):
    """A position that does not fit Solvitaire's deal of its game, or a game it does not
    play by our rules."""


# --- the variant's mapping -------------------------------------------------------------


def entry_for(variant: Variant) -> dict[str, Any]:
    """The variant's ``solvitaire:`` mapping (plain data: preset or rules_file, deal,
    start_empty, left_out, expect, checked); SolvitaireError saying why when Solvitaire does
    not play the game by its rules or the file does not say."""
    entry = variant.definition.solvitaire
    if entry is None:
        raise SolvitaireError(f"{variant.id!r} has no solvitaire: mapping in its file, so it "
                              "is not compared with Solvitaire (docs/authoring.md, "
                              "'solvitaire: Solvitaire's deal of this game')")
    if "not_exact" in entry:
        raise SolvitaireError(f"{variant.id!r} is not compared with Solvitaire: "
                              f"{' '.join(str(entry['not_exact']).split())}")
    return entry


# --- our position -> a Solvitaire deal ------------------------------------------------


def solvitaire_card(card: int) -> str:
    """Solvitaire's code of one of our cards: rank A 2 … 10 J Q K, then the suit letter,
    lower case when the card lies face down (``'10H'``, ``'Kd'``)."""
    rank = RANK_CHARS[rank_of(card) - 1]
    suit = SUIT_CHARS[suit_of(card)]
    code = ("10" if rank == "T" else rank) + suit
    return code[:-1] + suit.lower() if card & FACE_DOWN else code


def card_of_solvitaire(code: str) -> tuple[int, bool]:
    """``(card, face_down)`` for a Solvitaire card code: the inverse of
    :func:`solvitaire_card` (used by the checks and the tests)."""
    rank_text, suit = code[:-1].upper(), code[-1]
    rank = 10 if rank_text == "10" else RANK_CHARS.index(rank_text) + 1
    return rank * 4 + SUIT_CHARS.index(suit.upper()), suit.islower()


def _group(game: Game, name: str) -> Group:
    try:
        return game.variant.group_by_name[name]
    except KeyError:
        raise SolvitaireError(f"{game.variant.id}: the mapping names pile group {name!r}, which "
                              f"the variant does not have (groups: "
                              f"{', '.join(g.name for g in game.variant.groups)})") from None


def solvitaire_deal(game: Game, entry: dict[str, Any]) -> dict[str, Any]:
    """The starting position of ``game`` as a Solvitaire deal (a JSON object), following
    the game's ``solvitaire:`` mapping. Raises SolvitaireError when the position does not
    fit the mapping (a group that should be empty is not, a face-down card outside the
    tableau, a card missing or doubled)."""
    variant = game.variant
    deal: dict[str, Any] = {}
    used: set[str] = set()
    for key, source in entry["deal"].items():
        if source == "stock":
            # our stock[-1] is dealt next; Solvitaire deals its last element next
            deal[key] = [solvitaire_card(card) for card in game.stock]
            continue
        group = _group(game, source)
        used.add(source)
        piles = [game.piles[index] for index in group.indices]
        if key != "tableau piles" and any(card & FACE_DOWN for pile in piles for card in pile):
            raise SolvitaireError(f"{variant.id}: {source} has a face-down card, and Solvitaire "
                                  "has face-down cards only in the tableau")
        if key == "tableau piles":
            deal[key] = [[solvitaire_card(card) for card in pile] for pile in piles]
        elif key == "hole":
            cards = [card for pile in piles for card in pile]
            if len(cards) != 1:
                raise SolvitaireError(f"{variant.id}: the hole ({source}) must start with one "
                                      f"card, it has {len(cards)}")
            deal[key] = solvitaire_card(cards[0])
        elif key == "reserve":  # one card per slot, in slot order
            if any(len(pile) != 1 for pile in piles):
                raise SolvitaireError(f"{variant.id}: every {source} pile must start with one card")
            deal[key] = [solvitaire_card(pile[0]) for pile in piles]
        elif key in ("waste", "foundations"):  # one pile (waste) or a flat list
            deal[key] = [solvitaire_card(card) for pile in piles for card in pile]
        else:
            raise SolvitaireError(f"{variant.id}: unknown Solvitaire deal key {key!r}")
    for name in entry.get("start_empty", []):
        group = _group(game, name)
        used.add(name)
        if any(game.piles[index] for index in group.indices):
            raise SolvitaireError(f"{variant.id}: {name} must be empty at the start (a Solvitaire "
                                  "deal cannot give them)")
    left_out: list[int] = []
    if "left_out" in entry:
        name = entry["left_out"]
        group = _group(game, name)
        used.add(name)
        left_out = [card for index in group.indices for card in game.piles[index]]
        aces = sorted(rank_of(card) * 4 + suit_of(card) for card in left_out)
        if aces != [4, 5, 6, 7] or any(len(game.piles[i]) != 1 for i in group.indices):
            raise SolvitaireError(f"{variant.id}: {name} must start with one Ace of each suit, "
                                  "which Solvitaire places itself")
    unmapped = [g.name for g in variant.groups if g.name not in used]
    if unmapped:
        raise SolvitaireError(f"{variant.id}: groups {unmapped} are not in the mapping")
    check_complete(deal, variant, left_out)
    return deal


def deal_cards(deal: dict[str, Any]) -> list[str]:
    """Every card code in a Solvitaire deal, in no particular order."""
    codes: list[str] = []
    for key, value in deal.items():
        if key == "tableau piles":
            codes += [code for pile in value for code in pile]
        elif isinstance(value, str):
            codes.append(value)
        else:
            codes += value
    return codes


def check_complete(deal: dict[str, Any], variant: Variant,
                   left_out: Iterable[int] = ()) -> None:
    """Raise SolvitaireError unless the deal plus the cards Solvitaire places itself are exactly
    the variant's deck (each card once, twice with two decks)."""
    have = Counter(card_of_solvitaire(code)[0] for code in deal_cards(deal))
    have.update(rank_of(card) * 4 + suit_of(card) for card in left_out)
    want = Counter(variant.deck)
    if have != want:
        missing = sorted((want - have).elements())
        extra = sorted((have - want).elements())
        raise SolvitaireError(f"{variant.id}: the Solvitaire deal is not the deck: missing "
                              f"{[solvitaire_card(c) for c in missing]}, extra "
                              f"{[solvitaire_card(c) for c in extra]}")
