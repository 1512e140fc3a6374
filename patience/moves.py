"""Moves, and the one place where a move changes the piles.

A move is three small ints: the top ``count`` cards of pile ``source`` onto pile ``target``
(indices into ``variant.pile_names``); the deal is ``(-1, 0, -1)``; a discard (the top
cards of several piles at once) is ``(-2 - i, count, target)``, the piles being set ``i``
of ``variant.discard_sets``. :func:`make_player`
builds, once per variant, the pair of functions that play a move and take it back —
the move itself (or the deal), then what follows from it by the rules: forced removals
and forced fills (the variant's ``first_forced``, repeatedly) and face-down cards turned
up where a move exposed them. The kernel (``Game.push``/``pop``), perft and the solver all
use these two functions, so they cannot disagree about what a move does.

Everything that is fixed per variant (whether it has forced moves, face-down cards, a
waste to redeal) is decided when the player is made: a variant without them pays nothing.

>>> piles = [[4, 8], [12]]
>>> move_cards(piles, 0, 1, 1)
>>> piles
[[4], [12, 8]]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from patience.cards import FACE_DOWN
from patience.errors import ForcedMovesError
from patience.limits import MAX_FORCED_MOVES

if TYPE_CHECKING:
    from patience.variant import Variant

MoveTuple = tuple[int, int, int]
Piles = list[list[int]]
#: what taking a move back needs: what the deal did (the piles it fed, or REDEALT), and
#: the steps that followed the move, in order: forced moves ``(source, count, target)``
#: and face-down cards turned up, written ``(pile, 0, TURNED)``
Undo = tuple[Any, list[MoveTuple] | tuple[()]]
Play = Callable[[Piles, list[int], MoveTuple], Undo]
TakeBack = Callable[[Piles, list[int], MoveTuple, Undo], None]
TURNED = -2
#: a forced fill from the stock: the source ``range`` of a group filled from it, and the
#: source of its forced moves ``(-1, 1, pile)``
FROM_STOCK = range(-1, 0)

REDEALT = "redealt"  # the deal's undo record when it turned the waste back into the stock


class Move(NamedTuple):
    """A move: the top ``count`` cards of pile ``source`` onto pile ``target``.

    Pile numbers index ``variant.pile_names``. The deal is ``Move(-1, 0, -1)``. Any
    3-tuple with the same numbers is the same move.
    """

    source: int
    count: int  # type: ignore[assignment]  # shadows tuple.count on purpose: the notation's N
    target: int

    @property
    def is_deal(self) -> bool:
        return self.source == -1

    @property
    def is_discard(self) -> bool:
        """Whether the move is a discard: the top cards of the piles of set ``-2 - source``
        of ``variant.discard_sets`` (``count`` of them) onto pile ``target``."""
        return self.source < -1


DEAL = Move(-1, 0, -1)


def runaway(when: str = "after one move") -> ForcedMovesError:
    """The error for forced moves that went on past ``MAX_FORCED_MOVES`` (the native core
    says the same, word for word, after a move)."""
    return ForcedMovesError(f"the forced moves {when} went on past {MAX_FORCED_MOVES:_} "
                            "(MAX_FORCED_MOVES): the variant's forced removals and fill_from "
                            "fills pass cards round a loop")


def move_cards(piles: Piles, source: int, count: int, target: int,
               stock: list[int] | None = None) -> None:
    """Move the top ``count`` cards of ``piles[source]`` onto ``piles[target]``, keeping
    their order; a source of -1 is the stock (one card: a forced fill)."""
    if source < 0:
        assert stock is not None
        piles[target].append(stock.pop())
        return
    pile = piles[source]
    cut = len(pile) - count
    piles[target] += pile[cut:]
    del pile[cut:]


def deal_from_stock(variant: Variant, piles: Piles, stock: list[int]) -> Any:
    """Deal from the stock to each deal target in order (skipping empty piles where the
    variant says so), or, with the stock empty, turn the waste back into the stock where
    a redeal is left. Returns what :func:`undeal` needs."""
    if not stock and variant.redeal_pile is not None:
        waste = piles[variant.redeal_pile]
        stock.extend(card & ~FACE_DOWN for card in reversed(waste))
        waste.clear()
        if variant.redeal_counter is not None:
            piles[variant.redeal_counter].append(0)
        return REDEALT
    received = []
    skip = variant.deal_skips_empty
    for index in variant.deal_targets:
        if not stock:
            break
        if skip and not piles[index]:
            continue
        piles[index].append(stock.pop())
        received.append(index)
    return tuple(received)


def undeal(variant: Variant, piles: Piles, stock: list[int], received: Any) -> None:
    """Take back :func:`deal_from_stock`."""
    if received == REDEALT:
        assert variant.redeal_pile is not None
        piles[variant.redeal_pile].extend(reversed(stock))
        stock.clear()
        if variant.redeal_counter is not None:
            piles[variant.redeal_counter].pop()
        return
    for index in reversed(received):
        stock.append(piles[index].pop())


def discard_cards(piles: Piles, chosen: tuple[int, ...], target: int,
                  turns_up: frozenset[int], steps: list[MoveTuple]) -> None:
    """The top card of each chosen pile, in pile order, onto pile ``target``; a face-down
    card that comes to the top turns up (a step)."""
    receiving = piles[target]
    for index in chosen:
        receiving.append(piles[index].pop())
    for index in chosen:
        pile = piles[index]
        if index in turns_up and pile and pile[-1] & FACE_DOWN:
            pile[-1] &= ~FACE_DOWN
            steps.append((index, 0, TURNED))


def undiscard(piles: Piles, chosen: tuple[int, ...], target: int) -> None:
    """Take back :func:`discard_cards` (its turn-ups taken back already)."""
    receiving = piles[target]
    for index in reversed(chosen):
        piles[index].append(receiving.pop())


def make_player(variant: Variant) -> tuple[Play, TakeBack]:
    """The variant's ``play(piles, stock, move) -> undo`` and
    ``take_back(piles, stock, move, undo)``."""
    first_forced = variant.first_forced
    turns_up = frozenset(variant.face_down_piles)
    sets = variant.discard_sets

    if first_forced is None and not turns_up:
        def play(piles: Piles, stock: list[int], move: MoveTuple) -> Undo:
            source, count, target = move
            if source < 0:
                if source < -1:
                    discard_cards(piles, sets[-2 - source], target, turns_up, [])
                    return None, ()
                return deal_from_stock(variant, piles, stock), ()
            pile = piles[source]
            cut = len(pile) - count
            piles[target] += pile[cut:]
            del pile[cut:]
            return None, ()
    else:
        def play(piles: Piles, stock: list[int], move: MoveTuple) -> Undo:
            source, count, target = move
            steps: list[MoveTuple] = []
            if source < -1:
                discard_cards(piles, sets[-2 - source], target, turns_up, steps)
                received = None
            elif source < 0:
                received = deal_from_stock(variant, piles, stock)
            else:
                pile = piles[source]
                cut = len(pile) - count
                piles[target] += pile[cut:]
                del pile[cut:]
                received = None
                if source in turns_up and pile and pile[-1] & FACE_DOWN:
                    pile[-1] &= ~FACE_DOWN
                    steps.append((source, 0, TURNED))
            if first_forced is not None:
                made = 0
                while (forced := first_forced(piles, stock)) is not None:
                    if made == MAX_FORCED_MOVES:  # a loop the loader could not see
                        take_back(piles, stock, move, (received, steps))
                        raise runaway()
                    made += 1
                    s, c, t = forced
                    steps.append(forced)
                    if s < 0:  # a fill from the stock
                        piles[t].append(stock.pop())
                        continue
                    pile = piles[s]
                    cut = len(pile) - c
                    piles[t] += pile[cut:]
                    del pile[cut:]
                    if s in turns_up and pile and pile[-1] & FACE_DOWN:
                        pile[-1] &= ~FACE_DOWN
                        steps.append((s, 0, TURNED))
            return received, steps

    def take_back(piles: Piles, stock: list[int], move: MoveTuple, undo: Undo) -> None:
        received, steps = undo
        for s, c, t in reversed(steps):
            if t == TURNED:
                piles[s][-1] |= FACE_DOWN
                continue
            if s < 0:
                stock.append(piles[t].pop())
                continue
            pile = piles[t]
            cut = len(pile) - c
            piles[s] += pile[cut:]
            del pile[cut:]
        source, count, target = move
        if source < -1:
            undiscard(piles, sets[-2 - source], target)
        elif source < 0:
            undeal(variant, piles, stock, received)
        else:
            pile = piles[target]
            cut = len(pile) - count
            piles[source] += pile[cut:]
            del pile[cut:]

    return play, take_back
