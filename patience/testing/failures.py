"""How the battery reports a failure: :class:`BatteryFailure`, and the position with its
move list and the command that shows it again (:func:`counterexample`). Both the battery's
checks (``patience.testing.battery``) and its state machine
(``patience.testing.strategies``) use them, so they live below both.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from patience.cards import FACE_DOWN, card_code
from patience.game import Game, Move


class BatteryFailure(AssertionError):
    """A battery check found a position where a promise does not hold."""


def replay(game: Game) -> Iterable[tuple[Game, Move]]:
    """Each position on the path to ``game`` and the move made from it.

    One fresh game is played along the path: use each position before asking for the next.
    """
    position = game.start()
    for move in game.move_stack:
        yield position, move
        position.push_unchecked(move)


def notations(game: Game) -> list[str]:
    """The move stack of ``game`` in notation, each written in the position it was made."""
    return [position.notation(move) for position, move in replay(game)]


def counterexample(game: Game) -> str:
    """The position and its move list, and the command that shows it again."""
    start = game.start()
    moves = " ".join(notations(game))
    variant = game.variant
    name = variant.path if variant.path and Path(variant.path).exists() else variant.id
    if game.deal_number is not None:
        shown_start = f"deal {game.deal_number}"
        option = f"--seed {game.deal_number}"
    else:
        shown_start = start.text()
        option = f"--position '{start.text()}'"
    lines = [f"  start:    {shown_start}",
             f"  moves:    {moves or '(none)'}",
             f"  position: {game.text()}",
             f"  show it:  patience show {name} {option}"
             + (f" --moves '{moves}'" if moves else "")]
    return "\n".join(lines)


def check_cards_exactly_once(game: Game) -> None:
    """Every card of the deck is somewhere, exactly as often as the deck holds it."""
    piles = game.piles[:len(game.variant.pile_names)]  # not the hidden redeal counter
    seen = Counter(card & ~FACE_DOWN for pile in piles for card in pile) + Counter(game.stock)
    expected = Counter(game.variant.deck)
    if seen != expected:
        missing = sorted((expected - seen).elements())
        extra = sorted((seen - expected).elements())
        parts = []
        if missing:
            parts.append("missing " + " ".join(map(card_code, missing)))
        if extra:
            parts.append("one time too many: " + " ".join(map(card_code, extra)))
        raise BatteryFailure(f"the cards are not each there exactly once: {'; '.join(parts)}")
