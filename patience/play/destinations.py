"""Where a click sends a card: the seed site's click-to-move rule, derived from the variant.

docs/rules.md (site A): a clicked card moves, with the run on it, to a column whose top card
accepts it and has its suit; else to any column whose top card accepts it; else to the first
empty column; else to the tail. A click on any tail card moves the whole tail run.

Nothing here knows pile names. The order is read off the variant's pile groups:

0. a pile of a group whose moves name the group (``target: first``, the foundations): a
   complete set clicked goes home;
1. a non-empty pile whose top card has the suit of the run's bottom (deepest) card;
2. any other non-empty pile;
3. an empty pile the stock deals to (an empty column);
4. any other empty pile (the tail);

ties broken by pile order, so "the first empty column" is the lowest-numbered one. The
candidates are the legal moves the kernel generates, so a pile "accepts" exactly when the
variant's rules say so.

A click on a card takes that card and every card on it. Where that many cards cannot leave
the pile and the pile is not one the stock deals to (a tail whose run leaves whole), the
click takes the smallest deeper run that can leave instead; and a click (or a drag) on the
card just under a top card, where no run moves from it, draws that card alone (``merci``).

>>> from patience import Game, find_variant
>>> from patience.cards import parse_cards
>>> game = Game(find_variant("tabbycat"), [parse_cards(c) for c in
...             ("7D", "8C", "8D", "2S", "", "", "", "", "")], [])
>>> [game.notation(m) for m in click_destinations(game, game.variant.pile_index["c1"], 1)]
['c1:1-c3', 'c1:1-c2', 'c1:1-t']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from patience.cards import suit_of
from patience.game import Move
from patience.moves import DRAW
from patience.settings import Target

if TYPE_CHECKING:
    from patience.game import Game

FOUNDATION, SAME_SUIT, BUILD, EMPTY_DEALT, EMPTY_OTHER = range(5)


def destination_rank(game: Game, move: tuple[int, int, int]) -> int:
    """The preference class (0 best) of a legal move's destination, as in the module doc."""
    source, count, target = move
    variant = game.variant
    if variant.group_of_pile[target].target is Target.FIRST:
        return FOUNDATION
    pile = game.piles[target]
    if pile:
        run_bottom = game.piles[source][-2 if count == DRAW else -count]
        return SAME_SUIT if suit_of(pile[-1]) == suit_of(run_bottom) else BUILD
    return EMPTY_DEALT if target in variant.deal_targets else EMPTY_OTHER


def click_destinations(game: Game, source: int, count: int) -> list[Move]:
    """The legal moves of the top ``count`` cards of pile ``source``, best first."""
    moves = [Move(*m) for m in game.generate_moves() if m[0] == source and m[1] == count]
    return sorted(moves, key=lambda m: (destination_rank(game, m), m.target))


def click_move(game: Game, source: int, depth: int) -> Move | None:
    """The move a click makes on the card ``depth`` places below the top of pile ``source``
    (0 = the top card), or None when that card cannot move anywhere."""
    pile = game.piles[source]
    if not 0 <= depth < len(pile):
        return None
    count = depth + 1
    counts = [count]
    if source not in game.variant.deal_targets:
        counts += range(count + 1, len(pile) + 1)
    for candidate in counts:
        moves = click_destinations(game, source, candidate)
        if moves:
            return moves[0]
    if depth == 1:  # the card under the top card, when no run moves from it: a draw (merci)
        moves = click_destinations(game, source, DRAW)
        if moves:
            return moves[0]
    return None


def drop_move(game: Game, source: int, depth: int, target: int) -> Move:
    """The move a drag makes: the clicked card and those on it onto pile ``target``.

    For a pile whose run leaves only whole (as for a click), the smallest deeper run that may
    go to ``target`` is taken. The result need not be legal: the caller asks the kernel, which
    explains an illegal move.
    """
    count = depth + 1
    pile = game.piles[source]
    if depth == 0:  # a top card dropped on another: the discard of the two, if legal
        pair = pair_discard(game, source, target)
        if pair is not None:
            return pair
    legal = set(game.generate_moves())
    if source not in game.variant.deal_targets:
        for candidate in range(count, len(pile) + 1):
            move = _move_to(game, source, candidate, target)
            if move in legal:
                return move
    if depth == 1 and game.variant.merci is not None:  # the card under the top card alone
        draw = _move_to(game, source, DRAW, target)
        if draw in legal and _move_to(game, source, count, target) not in legal:
            return draw
    return _move_to(game, source, count, target)


def pair_discard(game: Game, first: int, second: int) -> Move | None:
    """The legal discard of two cards whose piles are ``first`` and ``second`` (either
    way round: a player drops one card on the other), or None."""
    chosen = tuple(sorted((first, second)))
    for move in game.generate_moves():
        if move[0] < -1 and move[1] == 2 and \
                game.variant.discard_sets[-2 - move[0]] == chosen:
            return Move(*move)
    return None


def _move_to(game: Game, source: int, count: int, target: int) -> Move:
    group = game.variant.group_of_pile[target]
    if group.target is Target.FIRST:  # a move names the group: on the first pile that takes it
        for move in game.generate_moves():
            if move[0] == source and move[1] == count and move[2] in group.indices:
                return Move(*move)
        return Move(source, count, group.indices.start)
    return Move(source, count, target)


def move_preference(game: Game, move: tuple[int, int, int]) -> tuple[int, int, int, int]:
    """A sort key over all legal moves (the deal last): click order, fewer cards first."""
    source, count, target = move
    if source < 0:
        return (EMPTY_OTHER + 1, 0, 0, 0)
    return (destination_rank(game, move), count, source, target)
