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

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from patience.cards import FACE_DOWN, redeal_shuffle
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


class Gather(NamedTuple):
    """A redeal that gathers the cards of ``piles`` (``stock.gather``) and deals them out
    again over the same piles, ``deal`` cards a pile: docs/authoring.md, "Redeals that
    gather the tableau". ``counter`` is the hidden pile whose length counts the redeals made
    (None when they are unlimited); ``seed`` the hidden pile holding the game's shuffle
    seed as eight bytes, least significant first (None when the redeal does not shuffle).
    """

    piles: tuple[int, ...]  # in gathering order, which is also the order they are dealt
    shuffle: bool
    deal: int
    limit: int | None  # None: unlimited
    counter: int | None
    seed: int | None
    #: ``gaps: N``: N gaps (``BLANK``) shuffled in among the gathered cards, dealt as cards
    blanks: int = 0


class Merci(NamedTuple):
    """The draws of a buried card (groups with ``merci: N``: docs/authoring.md, "Drawing a
    buried card"): ``limit`` times a game, the card just under the top card of one of
    ``piles`` is played alone, the top card staying in place: the move ``(s, DRAW, t)``.
    ``counter`` is the hidden pile whose length counts the draws made."""

    piles: tuple[int, ...]
    limit: int
    counter: int


#: the count of a draw of a buried card, ``(s, DRAW, t)``: the card under the top card of
#: pile ``s`` onto pile ``t`` (notation ``c3:^-c5``)
DRAW = -1


def merci_of(groups: Sequence[Any], counter: int) -> Merci | None:
    """The variant's draws from its groups (each with ``merci``, a count of draws a game
    shared by all), counted by the hidden pile ``counter``; None when no group has any."""
    piles = tuple(i for group in groups if group.merci for i in group.indices)
    if not piles:
        return None
    return Merci(piles, max(group.merci for group in groups), counter)


#: a gap shuffled in among the gathered cards (``stock.gather.gaps: N``): no card (cards
#: are below 64, face down below 128), it sorts after every card and is never put down
BLANK = 0xBF


class Closed(NamedTuple):
    """The deal's undo record when it closed gaps first (``close_gaps: deal``): each slide
    ``(source, gap)`` in order (the whole pile ``source`` moved into the empty ``gap``),
    then what the deal itself did."""

    slides: tuple[tuple[int, int], ...]
    received: Any


def close_gaps(piles: Piles, ranges: tuple[range, ...]) -> tuple[tuple[int, int], ...]:
    """Close the gaps of each range of piles: while a pile is empty and a later one is not,
    the first such later pile moves whole into the first gap (``close_gaps``). Returns
    the slides ``(source, gap)`` in order."""
    slides = []
    for indices in ranges:
        gap = None
        for index in indices:
            if not piles[index]:
                if gap is None:
                    gap = index
            elif gap is not None:
                piles[gap] += piles[index]
                piles[index].clear()
                slides.append((index, gap))
                gap += 1
    return tuple(slides)


class Gathered(NamedTuple):
    """The deal's undo record when it gathered piles: their cards before the redeal."""

    piles: tuple[tuple[int, ...], ...]


def gather_sizes(cards: int, deal: int, piles: int) -> list[int]:
    """How many of ``cards`` gathered cards each of ``piles`` piles receives: ``deal`` each
    from the first pile until the cards run out (the last pile dealt may take fewer, the
    rest none); cards beyond ``deal`` × ``piles`` add one a pile from the first, round
    and round."""
    extra = max(0, cards - deal * piles)
    sizes = []
    for index in range(piles):
        size = min(deal + extra // piles + (index < extra % piles), cards)
        sizes.append(size)
        cards -= size
    return sizes


#: a gathering redeal's rule on one pile (``stock.gather.keep`` or ``.gaps``), compiled:
#: ``rule(piles, stock, pile)``
PileRule = Callable[[Piles, list[int], int], bool]


def gather_piles(gather: Gather, piles: Piles, keeps: PileRule | None = None,
                 gaps: PileRule | None = None) -> Gathered:
    """Make the gathering redeal: the packet is the cards of the gathered piles, pile by
    pile, each pile read from its top card down (or, shuffled, those cards in card order
    shuffled by the redeal's own seed: ``patience.cards.redeal_shuffle``). It is cut into
    parcels of ``deal`` cards, each turned over, and dealt a card at a time, each pile
    filled in turn from the bottom (``gather_sizes`` cards): a pile that receives one
    parcel has its first card on top (PySolFC's ``Cruel_Talon.dealCards``).

    With ``keeps`` (``stock.gather.keep``), the piles are read in gathering order and one
    for which it holds keeps its cards; each other pile is emptied into the packet before
    the next is read, so the rule sees the piles gathered before it empty. With ``gaps``
    (``stock.gather.gaps``), read on every gathered pile once all are gathered, the piles
    for which it holds are left empty; the packet is dealt over the others."""
    before = tuple(tuple(piles[index]) for index in gather.piles)
    gathered: list[int] = []
    cards: list[int] = []
    for index in gather.piles:
        if keeps is not None and keeps(piles, [], index):
            continue
        gathered.append(index)
        cards += reversed(piles[index])
        piles[index].clear()
    if gather.shuffle:
        assert gather.seed is not None and gather.counter is not None
        seed = int.from_bytes(bytes(piles[gather.seed]), "little")
        packet = redeal_shuffle(cards + [BLANK] * gather.blanks, seed,
                                len(piles[gather.counter]) + 1)
    else:
        packet = [card & ~FACE_DOWN for card in cards]
    if gaps is not None:
        gathered = [index for index in gathered if not gaps(piles, [], index)]
    deal = gather.deal
    turned = [card for start in range(0, len(packet), deal)
              for card in reversed(packet[start:start + deal])]
    start = 0
    for index, size in zip(gathered, gather_sizes(len(turned), deal, len(gathered))):
        piles[index][:] = [card for card in turned[start:start + size] if card != BLANK]
        start += size
    if gather.counter is not None:
        piles[gather.counter].append(0)
    return Gathered(before)


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
               stock: list[int] | None = None, under: bool = False) -> None:
    """Move the top ``count`` cards of ``piles[source]`` onto ``piles[target]`` (``under``:
    under its cards), keeping their order; a source of -1 is the stock (one card: a forced
    fill)."""
    if source < 0:
        assert stock is not None
        piles[target].append(stock.pop())
        return
    pile = piles[source]
    cut = len(pile) - count
    if under:
        piles[target][:0] = pile[cut:]
    else:
        piles[target] += pile[cut:]
    del pile[cut:]


def unmove_cards(piles: Piles, source: int, count: int, target: int, under: bool) -> None:
    """Take back :func:`move_cards` of ``count`` cards from pile ``source`` to ``target``."""
    pile = piles[target]
    if under:
        piles[source] += pile[:count]
        del pile[:count]
    else:
        cut = len(pile) - count
        piles[source] += pile[cut:]
        del pile[cut:]


def turn_from_last(variant: Variant, piles: Piles, last: int | None,
                   steps: list[MoveTuple]) -> bool:
    """``fill_from: last``: the first empty pile of a group that fills from the last pile a
    card went to takes that pile's top card, when it lies face down, turned up (the steps
    ``(last, 1, pile)`` and ``(pile, 0, TURNED)``); the card under it stays as it lies.
    Whether a pile was filled (docs/authoring.md, "Cards put under a pile")."""
    if last is None:
        return False
    source = piles[last]
    if not source or not source[-1] & FACE_DOWN:
        return False
    for index in variant.fill_last_piles:
        if not piles[index]:
            piles[index].append(source.pop() & ~FACE_DOWN)
            steps.append((last, 1, index))
            steps.append((index, 0, TURNED))
            return True
    return False


def deal_from_stock(variant: Variant, piles: Piles, stock: list[int]) -> Any:
    """Deal from the stock to each deal target in order (skipping empty piles where the
    variant says so), or, with the stock empty, turn the waste back into the stock where
    a redeal is left, or gather the piles ``stock.gather`` names and deal them again.
    Returns what :func:`undeal` needs. With ``close_gaps: deal`` the gaps of those groups
    close first (:class:`Closed`)."""
    if variant.deal_closing:
        slides = close_gaps(piles, variant.deal_closing)
        received = deal_cards(variant, piles, stock)
        return Closed(slides, received) if slides else received
    return deal_cards(variant, piles, stock)


def deal_cards(variant: Variant, piles: Piles, stock: list[int]) -> Any:
    """The deal itself (:func:`deal_from_stock` without the closing of gaps). With
    ``stock.top`` the stock's next card lies on its own pile: it goes back on the stock
    first, to be dealt first (the pile's fill takes the stock's next card after the deal)."""
    top = variant.stock_top
    if top is not None and piles[top]:
        stock.append(piles[top].pop())
    if not stock and variant.gather is not None:
        if variant.gather_keep is None and variant.gather_gaps is None:
            return gather_piles(variant.gather, piles)
        generated = variant.generated
        return gather_piles(variant.gather, piles, generated.gather_keeps,
                            generated.gather_gaps)
    if not stock and variant.redeal_pile is not None:
        waste = piles[variant.redeal_pile]
        stock.extend(card & ~FACE_DOWN for card in reversed(waste))
        waste.clear()
        if variant.redeal_counter is not None:
            piles[variant.redeal_counter].append(0)
        return REDEALT
    received = []
    skip, only = variant.deal_skips_empty, variant.deal_fills_empty
    for index in variant.deal_targets:
        if not stock:
            break
        if skip and not piles[index] or only and piles[index]:
            continue
        piles[index].append(stock.pop())
        received.append(index)
    return tuple(received)


def undeal(variant: Variant, piles: Piles, stock: list[int], received: Any) -> None:
    """Take back :func:`deal_from_stock`."""
    if type(received) is Closed:
        undeal(variant, piles, stock, received.received)
        for source, gap in reversed(received.slides):
            piles[source] += piles[gap]
            piles[gap].clear()
        return
    if type(received) is Gathered:
        gather = variant.gather
        assert gather is not None
        for index, cards in zip(gather.piles, received.piles):
            piles[index][:] = cards
        if gather.counter is not None:
            piles[gather.counter].pop()
        return
    if received == REDEALT:
        assert variant.redeal_pile is not None
        piles[variant.redeal_pile].extend(reversed(stock))
        stock.clear()
        if variant.redeal_counter is not None:
            piles[variant.redeal_counter].pop()
        return
    for index in reversed(received):
        stock.append(piles[index].pop())
    top = variant.stock_top
    if top is not None and not piles[top]:  # a deal (not a redeal) took the top card
        piles[top].append(stock.pop())


#: ``face_down: covered``: for each pile, the face-down piles it covers, each with all the
#: piles covering it (``Variant.uncovering`` by covering pile)
Uncovers = dict[int, tuple[tuple[int, tuple[int, ...]], ...]]


def uncovers_of(variant: Variant) -> Uncovers:
    """``variant.uncovering`` by covering pile: what a pile's emptying may turn up."""
    found: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
    for pile, covering in variant.uncovering:
        for other in covering:
            found.setdefault(other, []).append((pile, covering))
    return {other: tuple(entries) for other, entries in found.items()}


def turn_up_uncovered(piles: Piles, emptied: int, uncovers: Uncovers,
                      steps: list[MoveTuple]) -> None:
    """Pile ``emptied`` is empty now: each face-down top card of a pile it covered, that
    nothing covers any more, turns up (a step)."""
    for index, covering in uncovers.get(emptied, ()):
        pile = piles[index]
        if pile and pile[-1] & FACE_DOWN and not any(piles[other] for other in covering):
            pile[-1] &= ~FACE_DOWN
            steps.append((index, 0, TURNED))


def turn_up_left(piles: Piles, source: int, turns_up: frozenset[int] | tuple[int, ...],
                 uncovers: Uncovers, steps: list[MoveTuple]) -> None:
    """After cards left pile ``source``: a face-down card left on top turns up, and, the
    pile empty, so does each covered one nothing covers now (each a step)."""
    pile = piles[source]
    if source in turns_up and pile and pile[-1] & FACE_DOWN:
        pile[-1] &= ~FACE_DOWN
        steps.append((source, 0, TURNED))
    if not pile and source in uncovers:
        turn_up_uncovered(piles, source, uncovers, steps)


def discard_cards(piles: Piles, chosen: tuple[int, ...], target: int,
                  turns_up: frozenset[int], steps: list[MoveTuple],
                  uncovers: Uncovers | None = None) -> None:
    """The top card of each chosen pile, in pile order, onto pile ``target``; a face-down
    card that comes to the top turns up (a step), and so does one nothing covers now."""
    receiving = piles[target]
    for index in chosen:
        receiving.append(piles[index].pop())
    for index in chosen:
        pile = piles[index]
        if index in turns_up and pile and pile[-1] & FACE_DOWN:
            pile[-1] &= ~FACE_DOWN
            steps.append((index, 0, TURNED))
    if uncovers:
        for index in chosen:
            if not piles[index]:
                turn_up_uncovered(piles, index, uncovers, steps)


def undiscard(piles: Piles, chosen: tuple[int, ...], target: int) -> None:
    """Take back :func:`discard_cards` (its turn-ups taken back already)."""
    receiving = piles[target]
    for index in reversed(chosen):
        piles[index].append(receiving.pop())


def settle_steps(variant: Variant, first_forced: Callable[[Piles, list[int]], Any],
                 piles: Piles, stock: list[int], last: int | None, steps: list[MoveTuple],
                 turns_up: frozenset[int] | tuple[int, ...], fills_last: bool,
                 uncovers: Uncovers | None = None) -> bool:
    """Make the forced steps that follow a move (``last``: the pile its cards went to, None
    for a deal) or a fresh layout, appending them to ``steps``: what ``first_forced``
    finds (gaps closing, forced removals, fills), and, when it finds nothing, a fill from
    the pile the last card went to (:func:`turn_from_last`), until nothing is left. False
    when they went on past ``MAX_FORCED_MOVES``."""
    bottom = variant.bottom_piles
    made = 0
    while True:
        forced = first_forced(piles, stock)
        if forced is None:
            if not (fills_last and turn_from_last(variant, piles, last, steps)):
                return True
            last = steps[-1][0]  # the filled pile
        elif made == MAX_FORCED_MOVES:  # a loop the loader could not see
            return False
        else:
            s, c, t = forced
            steps.append(forced)
            if s < 0:  # a fill from the stock
                piles[t].append(stock.pop())
            else:
                move_cards(piles, s, c, t, None, t in bottom)
                turn_up_left(piles, s, turns_up, uncovers or {}, steps)
            last = t
        made += 1


def make_player(variant: Variant) -> tuple[Play, TakeBack]:
    """The variant's ``play(piles, stock, move) -> undo`` and
    ``take_back(piles, stock, move, undo)``."""
    # asked only when the plan says a move can be forced: the generated code is then
    # not compiled for a variant that forces nothing and is played by the native core
    first_forced = variant.first_forced if variant.plan.forces else None
    turns_up = frozenset(variant.face_down_piles)
    sets = variant.discard_sets
    uncovers = uncovers_of(variant)
    bottom = variant.bottom_piles
    fills_last = bool(variant.fill_last_piles)

    if first_forced is None and not turns_up and not bottom:
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

        def take_back_plain(piles: Piles, stock: list[int], move: MoveTuple,
                            undo: Undo) -> None:
            # nothing is forced, turned or put under: a move's undo holds no steps
            source, count, target = move
            if source < 0:
                if source < -1:
                    undiscard(piles, sets[-2 - source], target)
                else:
                    undeal(variant, piles, stock, undo[0])
                return
            pile = piles[target]
            cut = len(pile) - count
            piles[source] += pile[cut:]
            del pile[cut:]

        if variant.merci is None:
            return play, take_back_plain
    else:
        def play(piles: Piles, stock: list[int], move: MoveTuple) -> Undo:
            source, count, target = move
            steps: list[MoveTuple] = []
            last: int | None = None  # the pile the last card went to (fill_from: last)
            if source < -1:
                discard_cards(piles, sets[-2 - source], target, turns_up, steps, uncovers)
                received = None
                last = target
            elif source < 0:
                received = deal_from_stock(variant, piles, stock)
            else:
                pile = piles[source]
                cut = len(pile) - count
                if bottom and target in bottom:
                    piles[target][:0] = pile[cut:]
                else:
                    piles[target] += pile[cut:]
                del pile[cut:]
                received = None
                last = target
                turn_up_left(piles, source, turns_up, uncovers, steps)
            if first_forced is not None and not settle_steps(
                    variant, first_forced, piles, stock, last, steps, turns_up, fills_last,
                    uncovers):
                take_back(piles, stock, move, (received, steps))
                raise runaway()
            return received, steps

    def take_back(piles: Piles, stock: list[int], move: MoveTuple, undo: Undo) -> None:
        received, steps = undo
        undo_steps(piles, stock, steps, bottom)
        source, count, target = move
        if source < -1:
            undiscard(piles, sets[-2 - source], target)
        elif source < 0:
            undeal(variant, piles, stock, received)
        else:
            unmove_cards(piles, source, count, target, target in bottom)

    if variant.merci is None:
        return play, take_back
    return draws_played(variant, play, take_back, first_forced, (turns_up, fills_last, uncovers))


#: what the forced steps after a move need of the variant, read once: the piles whose
#: face-down top card turns up, whether a pile fills from the last one, what uncovers what
Turning = tuple[frozenset[int], bool, Uncovers]


def settled(variant: Variant, first_forced: Callable[[Piles, list[int]], Any] | None,
            piles: Piles, stock: list[int], last: int | None, steps: list[MoveTuple],
            turning: Turning) -> bool:
    """Make the forced steps after a move (:func:`settle_steps`; none without
    ``first_forced``); False when they went on past ``MAX_FORCED_MOVES``."""
    if first_forced is None:
        return True
    turns_up, fills_last, uncovers = turning
    return settle_steps(variant, first_forced, piles, stock, last, steps, turns_up, fills_last,
                        uncovers)


def undo_steps(piles: Piles, stock: list[int], steps: list[MoveTuple] | tuple[()],
               bottom: frozenset[int]) -> None:
    """Take back the steps that followed a move (forced moves, turn-ups), last first."""
    for s, c, t in reversed(steps):
        if t == TURNED:
            piles[s][-1] |= FACE_DOWN
            continue
        if s < 0:
            stock.append(piles[t].pop())
            continue
        unmove_cards(piles, s, c, t, t in bottom)


def draws_played(variant: Variant, play: Play, take_back: TakeBack,
                 first_forced: Callable[[Piles, list[int]], Any] | None,
                 turning: Turning) -> tuple[Play, TakeBack]:
    """``play`` and ``take_back`` that also make a draw of a buried card ``(s, DRAW, t)``
    (``merci``): the top card of pile ``s`` is lifted, the card under it played onto pile
    ``t`` as a move of one card, the top card put back, one draw counted; then the forced
    steps, as after any move. Only a variant with draws pays for the test."""
    merci = variant.merci
    assert merci is not None
    counter = merci.counter
    bottom = variant.bottom_piles

    def play_draw(piles: Piles, stock: list[int], move: MoveTuple) -> Undo:
        source, count, target = move
        if count != DRAW:
            return play(piles, stock, move)
        pile = piles[source]
        top = pile.pop()
        move_cards(piles, source, 1, target, None, target in bottom)
        pile.append(top)
        piles[counter].append(0)
        steps: list[MoveTuple] = []
        if not settled(variant, first_forced, piles, stock, target, steps, turning):
            take_back_draw(piles, stock, move, (None, steps))
            raise runaway()
        return None, steps

    def take_back_draw(piles: Piles, stock: list[int], move: MoveTuple, undo: Undo) -> None:
        source, count, target = move
        if count != DRAW:
            take_back(piles, stock, move, undo)
            return
        undo_steps(piles, stock, undo[1], bottom)
        piles[counter].pop()
        pile = piles[source]
        top = pile.pop()
        unmove_cards(piles, source, 1, target, target in bottom)
        pile.append(top)

    return play_draw, take_back_draw
