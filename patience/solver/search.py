"""The search: depth-first, a fixed move ordering, exact keys, restarts over orderings.

One :class:`Search` explores from one position with one move ordering and a position
budget. It works on its own copy of the piles and stock with a tight push/pop that does
the variant's own play and take-back functions (``patience.moves``), which
``Game.push_unchecked``/``Game.pop`` use too.

A position counts once, when it is first seen and its moves are generated ("expanded").
Children are made one at a time in the ordering's order and dropped at once when their key
was seen before (most are), so a position's children are never all built.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from patience.cards import FACE_DOWN
from patience.moves import DRAW, MoveTuple, Undo
from patience.solver.constants import SEARCH
from patience.solver.rules import SolverRules

Ordering = Callable[[list[MoveTuple], list[list[int]]], list[MoveTuple]]

WON, EXHAUSTED, BUDGET, TIMEOUT = "won", "exhausted", "budget", "timeout"
#: a run's budget when only the solve's cap stops it (the last run, a proof)
UNLIMITED = 1 << 62

#: the prefix of the key of a position reached by a deal, when moves after a deal are
#: restricted (``SolverRules.after_deal``): never the first byte of a key (a card, or the
#: separator 0xFF)
AFTER_DEAL = b"\xfd"

#: the deal's scores and a take-back's (``patience.solver.constants.Scores``)
DEAL_SCORE, CHEAP_DEAL_SCORE = SEARCH.scores.deal, SEARCH.scores.cheap_deal
TAKE_BACK_SCORE = SEARCH.scores.take_back


def make_ordering(rules: SolverRules, style: int) -> Ordering:
    """A fixed move ordering built from the rules' shape only (no variant names).

    Style 0 is the main heuristic: set to a foundation first, then a move that turns up a
    face-down card, then moves that free a column or the tail, then moves that lengthen a
    run without splitting one, then other builds, then moves into an empty pile or the
    tail; then the deal; a card taken back off a ``target: first`` pile last of all. Styles
    ≥ 1 add to each score a random draw seeded with the style (deterministic), which
    reorders moves of close scores; the deal and the take-backs keep their places.
    """
    first_piles = rules.first_target_piles
    parking = rules.parking_piles
    dealt = rules.dealt_piles
    turns_up = frozenset(rules.variant.face_down_piles)
    # when the stock is a cycle that deals alone go round (SolverRules.pass_merge), a deal
    # uses nothing up and only deals and moves from the waste may follow it (the moves that
    # commute with it wait: SolverRules.after_deal): it costs little, and comes before the
    # moves into empty piles, after the builds that turn up or empty a pile
    scores = rules.scores  # the search's own (SEARCH.scores) but for a hint's derived rules
    deal_score = scores.deal if rules.pass_merge is None else scores.cheap_deal
    jitter = random.Random(style) if style >= 1 else None

    def order(moves: list[MoveTuple], piles: list[list[int]]) -> list[MoveTuple]:
        longest: dict[int, int] = {}
        for source, count, _ in moves:
            if count > longest.get(source, 0):
                longest[source] = count
        scored = []
        moves.sort()  # the generator's listing order must not matter (ties, random draws)
        for move in moves:
            source, count, target = move
            score: float
            if source < -1:
                score = scores.home  # a discard: cards leave the table
            elif source < 0:
                score = deal_score
            elif target in first_piles:
                score = scores.home
            elif source in first_piles:
                score = scores.take_back  # off a foundation: after the deal
            elif count == DRAW:  # a buried card drawn onto a card (merci)
                score = scores.split_run_onto + 1
            else:
                left = len(piles[source]) - count
                onto = bool(piles[target])
                whole_run = count == longest[source]
                if left and source in turns_up and piles[source][left - 1] & FACE_DOWN:
                    score = scores.turns_up  # uncovers a face-down card: it turns up
                elif source in parking:
                    score = scores.parking_onto if onto else scores.parking_to_empty
                elif onto:
                    if left == 0:
                        score = scores.empties_pile
                    elif whole_run:
                        score = scores.whole_run_onto + count
                    else:
                        score = scores.split_run_onto + count
                elif target in parking:
                    score = scores.into_parking_whole if whole_run and left \
                        else scores.into_parking
                elif left == 0:
                    # a whole pile into an empty pile: only the deal order tells them apart
                    score = scores.dealt_pile_to_empty if source in dealt \
                        else scores.pile_to_empty
                else:
                    score = scores.whole_run_to_empty if whole_run \
                        else scores.split_run_to_empty
            if jitter is not None:
                score += jitter.random() * scores.jitter
            scored.append((score, move))
        scored.sort(key=_first, reverse=True)
        return [move for _, move in scored]

    return order


def _first(pair: tuple[float, MoveTuple]) -> float:
    return pair[0]


class Search:
    """One depth-first search from a position (its own copy of the piles and stock)."""

    def __init__(self, rules: SolverRules, piles: Sequence[Sequence[int]],
                 stock: Sequence[int], *, exact: bool = False,
                 lost: set[bytes] | None = None) -> None:
        self.rules = rules
        self.variant = rules.variant
        self.piles = [list(p) for p in piles]
        self.stock = list(stock)
        self.key = rules.exact_key if exact else rules.key
        self.exact = exact  # the reference search: exact keys, no reductions at all
        #: the author's declared safe moves (``solver.safe``); never in the reference search
        self.is_safe = None if exact else self.variant.is_safe
        #: after a deal, only a deal or a move from these piles (None: any move); never in
        #: the reference search (docs/solver.md, "Moves that commute with the deal")
        self.after_deal = None if exact else rules.after_deal
        #: positions keyed as if the waste were turned back (``SolverRules.pass_merge``)
        self.pass_merge = None if exact else rules.pass_merge
        #: keys of positions proven lost (pass one set to every run of a solve)
        self.lost: set[bytes] = set() if lost is None else lost
        self.expanded = 0  # positions expanded, less the steps of stock macro moves
        self.walked = 0  # every position expanded (the restart schedule's count)
        self.line: list[MoveTuple] = []
        self._play, self._take_back = self.variant.play, self.variant.take_back

    # -- push / pop: the variant's own (patience.moves), as Game.push_unchecked uses --

    def _push(self, move: MoveTuple) -> Undo:
        return self._play(self.piles, self.stock, move)

    def _pop(self, move: MoveTuple, undo: Undo) -> None:
        self._take_back(self.piles, self.stock, move, undo)

    # -- the search --

    def run(self, order: Ordering | None, budget: int, deadline: float | None = None,
            should_stop: Callable[[int], bool] | None = None, cap: int = UNLIMITED) -> str:
        """Search until a win (``self.line`` holds it), the space is exhausted, or the
        budget of expanded positions or the deadline is reached, or ``should_stop`` (called
        with the positions counted so far, every 1024 expanded) answers true (TIMEOUT).

        Two counts: ``self.walked`` is every position expanded, and ``budget`` caps it (the
        restart schedule's count); ``self.expanded`` leaves out the positions reached by a
        deal where moves after a deal are restricted (steps of a stock macro move:
        docs/solver.md, "Stock macro moves"), and ``cap`` caps it (the
        solve's ``max_positions``). Elsewhere the two counts are the same.

        Positions proven lost go into ``self.lost`` (shared by the runs of one solve, so a
        later run never searches them again), by Tarjan's algorithm for strongly connected
        components: every expanded position goes onto a stack of open positions, numbered
        by its place there; its low link is the least number among the open positions its
        moves reached (directly or through its children). A position whose low link is its
        own number, when its search ends without a win, is the root of a component: it and
        every position above it on the stack form that component, and all of them are
        proven lost — their moves lead only into the component or to positions proven lost
        before, and none of them won (docs/solver.md). A move back to a position still open
        gives its number; a move to a position proven lost adds nothing. A move that just
        undoes the last move (the exact reverse of a move that changed nothing else) is not
        played: it would return to the position before, which is open; it counts as a move
        to it.
        """
        piles, stock, key = self.piles, self.stock, self.key
        if self.pass_merge is not None:
            key = pass_key(key, *self.pass_merge)
        generate = self.variant.generate_moves
        is_won = self.variant.is_won
        play, take_back = self._play, self._take_back
        lost = self.lost

        def push(move: MoveTuple) -> Undo:
            return play(piles, stock, move)

        def pop(move: MoveTuple, undo: Undo) -> None:
            take_back(piles, stock, move, undo)

        root = key(piles, stock)
        seen = {root}
        moves = generate(piles, stock)
        self.expanded = self.walked = 1
        if not moves:
            if is_won(piles, stock):
                return WON
            lost.add(root)
            return EXHAUSTED
        # a frame: [children, next index, key, low link, the move that would undo the
        # last, its number on the stack of open positions]
        children_of = self._children
        after_deal = self.after_deal
        frames: list[list[Any]] = [[children_of(moves, order, False), 0, root, 0, None, 0]]
        open_stack = [root]  # the positions of the components not closed yet, in order
        open_at = {root: 0}  # their numbers: their places on open_stack
        line: list[MoveTuple] = []
        undos: list[Undo] = []
        expanded = walked = 1  # counted, and all (see above)
        check_at = 1024
        add = seen.add
        unproven = -1
        while frames:
            frame = frames[-1]
            children, index = frame[0], frame[1]
            if index == len(children):
                frames.pop()
                low, number = frame[3], frame[5]
                if low >= number:  # the root of a component: all of it is lost
                    for member in open_stack[number:]:
                        del open_at[member]
                        lost.add(member)
                    del open_stack[number:]
                elif frames:
                    parent = frames[-1]
                    parent[3] = min(parent[3], low)
                if line:
                    pop(line.pop(), undos.pop())
                continue
            frame[1] = index + 1
            move = children[index]
            if move == frame[4]:  # back to the position before: open
                frame[3] = min(frame[3], frames[-2][5])
                continue
            undo = push(move)
            dealt = after_deal is not None and move[0] == -1
            # a position reached by a deal is its own node (its moves are restricted)
            position = AFTER_DEAL + self.key(piles, stock) if dealt else key(piles, stock)
            if position in lost:
                pop(move, undo)
                continue
            if position in seen:
                pop(move, undo)
                # seen in this run and not proven lost: still open (a closed component is
                # lost, and a win ends the run), so this is its number
                frame[3] = min(frame[3], open_at.get(position, unproven))
                continue
            # a position reached by a deal (moves after it restricted) is a step of a stock
            # macro move: free of the cap (docs/solver.md, "Stock macro moves")
            if walked >= budget or (expanded >= cap and not dealt):
                pop(move, undo)
                self._unwind(line, undos)
                self.expanded, self.walked = expanded, walked
                return BUDGET
            add(position)
            expanded += not dealt
            walked += 1
            moves = generate(piles, stock)
            if not moves:
                if is_won(piles, stock):
                    line.append(move)
                    self.line, self.expanded, self.walked = line, expanded, walked
                    return WON
                lost.add(position)
                pop(move, undo)
                continue
            line.append(move)
            undos.append(undo)
            number = len(open_stack)
            open_stack.append(position)
            open_at[position] = number
            source, count, target = move
            reverse = (target, count, source) if source >= 0 and count > 0 \
                and undo[0] is None and not undo[1] and not self.exact else None
            frames.append([children_of(moves, order, dealt), 0, position, number, reverse,
                           number])
            if walked >= check_at:
                check_at += 1024
                if (deadline is not None and time.perf_counter() > deadline) or \
                        (should_stop is not None and should_stop(expanded)):
                    self._unwind(line, undos)
                    self.expanded, self.walked = expanded, walked
                    return TIMEOUT
        self.expanded, self.walked = expanded, walked
        return EXHAUSTED

    def _children(self, moves: list[MoveTuple], order: Ordering | None,
                  dealt: bool) -> list[MoveTuple]:
        """The moves to try from the current position, in order: right after a deal
        (``dealt``) only the deal and the moves from the piles it feeds, when the rules let
        every other move commute with it (``SolverRules.after_deal``); of those, only the
        first safe move (``solver.safe``) in sorted order when one is legal, else all of
        them, ordered."""
        feeds = self.after_deal if dealt else None
        waste = None if self.pass_merge is None else self.pass_merge[0]
        moves, safe = restrict(self.is_safe, self.piles, self.stock, moves, feeds, waste)
        if safe:
            return moves
        return order(moves, self.piles) if order else moves

    def _unwind(self, line: list[MoveTuple], undos: list[Undo]) -> None:
        while line:
            self._pop(line.pop(), undos.pop())


#: a line kept backwards, as the beam and the guided search keep theirs: (move, the node
#: before it), None the root
Line = tuple[MoveTuple, "Line"] | None


def pass_key(key: Callable[[list[list[int]], list[int]], bytes], waste: int,
              turn: int) -> Callable[[list[list[int]], list[int]], bytes]:
    """The key of a position not reached by a deal when the stock is a cycle: with a
    multiple of ``turn`` cards on the waste, the key of the position with the waste
    turned back into the stock (``SolverRules.pass_merge``)."""
    def keyed(piles: list[list[int]], stock: list[int]) -> bytes:
        cards = piles[waste]
        if not cards or len(cards) % turn:
            return key(piles, stock)
        piles[waste] = []
        try:
            return key(piles, stock + cards[::-1])
        finally:
            piles[waste] = cards
    return keyed


def line_of(node: Line) -> list[MoveTuple]:
    """The moves of a line kept backwards (:data:`Line`), first move first."""
    line = []
    while node is not None:
        move, node = node
        line.append(move)
    line.reverse()
    return line


def restrict(is_safe: Callable[[list[list[int]], list[int], int, int, int], bool] | None,
             piles: list[list[int]], stock: list[int], moves: list[MoveTuple],
             feeds: frozenset[int] | None = None,
             waste: int | None = None) -> tuple[list[MoveTuple], bool]:
    """The legal ``moves`` a search may try from a position, and whether they are a safe
    move alone: right after a deal where the rules restrict what follows one (``feeds``:
    ``SolverRules.after_deal``), only the deal and the moves from the piles it feeds; of
    those, the first safe one in sorted order alone where ``is_safe`` (``solver.safe``)
    calls one safe, never a move from the ``waste`` when the stock is keyed as a cycle
    (``SolverRules.pass_merge``). The restarts, the beams and the guided search all read
    their moves through it."""
    if feeds is not None:
        moves = [move for move in moves if move[0] < 0 or move[0] in feeds]
    if is_safe is not None:
        candidates = moves if waste is None else [move for move in moves if move[0] != waste]
        safe = first_safe(is_safe, piles, stock, candidates)
        if safe is not None:
            return [safe], True
    return moves, False


def moves_to_try(is_safe: Callable[[list[list[int]], list[int], int, int, int], bool] | None,
                 piles: list[list[int]], stock: list[int], moves: list[MoveTuple],
                 feeds: frozenset[int] | None = None,
                 waste: int | None = None) -> list[MoveTuple]:
    """The moves a beam or the guided search tries from a position (:func:`restrict`), in
    sorted order."""
    moves, safe = restrict(is_safe, piles, stock, moves, feeds, waste)
    return moves if safe else sorted(moves)


def first_safe(is_safe: Callable[[list[list[int]], list[int], int, int, int], bool],
               piles: list[list[int]], stock: list[int],
               moves: Sequence[MoveTuple]) -> MoveTuple | None:
    """The first of the legal ``moves``, in sorted order, that ``is_safe`` (the variant's
    ``solver.safe``) calls safe; None when none is. The deal and a draw (merci) are never safe."""
    for move in sorted(moves):
        source, count, target = move
        if source >= 0 and count > 0 and is_safe(piles, stock, source, count, target):
            return move
    return None
