"""Perft: count the leaves of the full move tree, the standard move-generator check.

``perft(game, depth)`` is the number of move sequences of exactly ``depth`` moves (fewer
where the game ends first do not count); depth 1 is the number of legal moves. Nothing is
pruned (docs/rules.md, "Perft").
"""

from __future__ import annotations

from patience.game import Game


def perft(game: Game, depth: int) -> int:
    """The number of leaves of the move tree of ``depth`` plies below ``game``."""
    if depth <= 0:
        return 1
    generate = game.variant.generate_moves
    piles, stock = game.piles, game.stock
    if depth == 1:
        return len(generate(piles, stock))
    total = 0
    push, pop = game.push_unchecked, game.pop
    for move in generate(piles, stock):
        push(move)
        total += perft(game, depth - 1)
        pop()
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
