"""Perft: count the leaves of the full move tree, the standard move-generator check.

``perft(game, depth)`` is the number of move sequences of exactly ``depth`` moves (fewer
where the game ends first do not count); depth 1 is the number of legal moves. Nothing is
pruned (docs/rules.md, "Perft").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from patience.game import Game

if TYPE_CHECKING:
    from patience.moves import Piles
    from patience.variant import Variant


def perft(game: Game, depth: int) -> int:
    """The number of leaves of the move tree of ``depth`` plies below ``game``."""
    if depth <= 0:
        return 1
    return _perft(game.variant, game.piles, game.stock, depth)


def _perft(variant: Variant, piles: Piles, stock: list[int], depth: int) -> int:
    # the tree walked on the piles themselves, each move taken back at once: the game's
    # history is not kept (it is as it was when the count returns)
    generate, play, take_back = variant.generate_moves, variant.play, variant.take_back
    moves = generate(piles, stock)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        undo = play(piles, stock, move)
        total += _perft(variant, piles, stock, depth - 1)
        take_back(piles, stock, move, undo)
    return total


def divide(game: Game, depth: int) -> list[tuple[str, int]]:
    """Perft split by first move: (move notation, leaves below it), sorted by notation."""
    rows = []
    for move in game.generate_moves():
        text = game.notation(move)
        game.push_unchecked(move)
        rows.append((text, perft(game, depth - 1)))
        game.pop()
    return sorted(rows)
