"""Hypothesis strategies for any variant: deals, reachable positions, legal move sequences.

Every strategy takes a compiled :class:`~patience.variant.Variant` and only uses the kernel
API, so it works for any variant file. Positions are reached by random legal play from a
deal; the chosen moves are drawn one at a time, so hypothesis shrinks a failing case to a
short move list from a simple deal.

>>> from patience import find_variant
>>> from hypothesis import find
>>> game = find(positions(find_variant("tabbycat"), max_moves=3),
...             lambda game: len(game.move_stack) == 2)
>>> len(game.move_stack)
2
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from patience.cards import MASK64
from patience.game import Game, Move
from patience.testing.failures import BatteryFailure, check_cards_exactly_once, counterexample

if TYPE_CHECKING:
    from patience.variant import Variant

__all__ = [
    "PlayMachine",
    "deal_numbers",
    "deals",
    "move_sequences",
    "play_machine",
    "positions",
    "winning_lines",
]


def deal_numbers() -> st.SearchStrategy[int]:
    """Numbered deals (unsigned 64-bit integers); shrinks toward deal 0."""
    return st.integers(min_value=0, max_value=MASK64)


def deals(variant: Variant) -> st.SearchStrategy[Game]:
    """Starting positions of ``variant``: numbered deals, or any order of its deck.

    Orders of the deck shrink toward new-deck order, which puts runs and complete sets in
    the layout: the corner cases an author forgets.
    """
    numbered = deal_numbers().map(variant.deal)
    shuffled_cards = list(variant.deck)
    for _, card in variant.placed:  # placed before the deal: not among the shuffled cards
        shuffled_cards.remove(card)
    shuffled = st.permutations(shuffled_cards).map(
        lambda cards: Game.from_cards(variant, list(cards)))
    return st.one_of(numbered, shuffled)


@st.composite
def move_sequences(draw: st.DrawFn, variant: Variant,
                   max_moves: int = 40) -> tuple[Game, list[Move]]:
    """A starting position and a list of moves, each legal after the ones before it.

    The game returned is at the start; replay the moves with ``push``. The list ends early
    when no move is left.
    """
    start = draw(deals(variant))
    game = start.copy()
    length = draw(st.integers(min_value=0, max_value=max_moves))
    moves: list[Move] = []
    for _ in range(length):
        legal = game.generate_moves()
        if not legal:
            break
        move = Move(*draw(st.sampled_from(legal)))
        game.push_unchecked(move)
        moves.append(move)
    return start, moves


def _play(start_and_moves: tuple[Game, list[Move]]) -> Game:
    start, moves = start_and_moves
    game = start.copy()
    for move in moves:
        game.push_unchecked(move)
    return game


def positions(variant: Variant, max_moves: int = 40,
              near_wins: bool = False) -> st.SearchStrategy[Game]:
    """Positions reachable by random legal play from a deal, with their move stacks.

    Random play seldom completes a set. With ``near_wins``, half the positions lie on (or
    a few random moves off) a winning line the solver found for a numbered deal, so sets
    leave, foundations fill and games are won.
    """
    random_play = move_sequences(variant, max_moves).map(_play)
    if not near_wins or not winning_lines(variant):
        return random_play
    return st.one_of(random_play, _near_wins(variant, max_moves))


@functools.lru_cache(maxsize=32)
def winning_lines(variant: Variant, deals: int = 6, max_positions: int = 20_000,
                  time_limit: float = 1.0) -> tuple[tuple[int, tuple[Move, ...]], ...]:
    """Winning lines the solver finds cheaply for deals 1..``deals``: (deal, moves)."""
    try:
        from patience.solver import solve
    except ImportError:
        return ()
    lines = []
    for number in range(1, deals + 1):
        game = variant.deal(number)
        result = solve(game, max_positions=max_positions, time_limit=time_limit)
        if result.verdict == "won":
            lines.append((number, tuple(game.parse_moves(" ".join(result.moves)))))
    return tuple(lines)


@st.composite
def _near_wins(draw: st.DrawFn, variant: Variant, max_moves: int) -> Game:
    number, line = draw(st.sampled_from(winning_lines(variant)))
    # shrinks toward the end of the line: the won position
    played = len(line) - draw(st.integers(min_value=0, max_value=len(line)))
    game = variant.deal(number)
    for move in line[:played]:
        game.push_unchecked(move)
    for _ in range(draw(st.integers(min_value=0, max_value=min(max_moves, 10)))):
        legal = game.generate_moves()
        if not legal:
            break
        game.push_unchecked(Move(*draw(st.sampled_from(legal))))
    return game


class PlayMachine(RuleBasedStateMachine):
    """Deal, play any legal move, undo, redo — checking the cheap invariants after each step.

    Subclass with a ``variant`` class attribute (or use :func:`play_machine`), then run it
    with ``hypothesis.stateful.run_state_machine_as_test`` or expose ``.TestCase`` to
    unittest/pytest.
    """

    variant: Variant

    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None
        self.keys: list[bytes] = []  # the key before each move on the stack
        self.redo: list[tuple[Move, bytes]] = []  # undone moves and the key after each

    def _game(self) -> Game:
        assert self.game is not None
        return self.game

    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        """Play any legal move (checked ``push``)."""
        game = self._game()
        legal = game.generate_moves()
        if not legal:
            return
        move = Move(*data.draw(st.sampled_from(legal), label="move"))
        self.keys.append(game.key())
        try:
            game.push(move)
        except Exception as error:  # noqa: BLE001 - any error is a finding
            game_moves = " ".join(sorted(map(game.notation, legal)))
            self._fail(f"push refused the generated move {game.notation(move)}: {error} "
                       f"(generated: {game_moves})")
        self.redo.clear()

    @precondition(lambda self: self.game is not None and bool(self.game.move_stack))
    @rule()
    def undo(self) -> None:
        """Take back the last move: the position must be exactly the one before it."""
        game = self._game()
        after = game.key()
        move = game.pop()
        before = self.keys.pop()
        if game.key() != before:
            self._fail(f"pop() after {game.notation(move)} did not restore the position "
                       "before it")
        self.redo.append((move, after))

    @precondition(lambda self: bool(self.redo))
    @rule()
    def redo_move(self) -> None:
        """Replay an undone move: the position must be exactly the one after it."""
        game = self._game()
        move, after = self.redo.pop()
        self.keys.append(game.key())
        game.push(move)
        if game.key() != after:
            self._fail(f"replaying {game.notation(move)} after undoing it did not give the "
                       "position it gave before")

    def _fail(self, message: str) -> None:
        raise BatteryFailure(f"{message}\n{counterexample(self._game())}")

    @invariant()
    def every_card_exactly_once(self) -> None:
        if self.game is not None:
            try:
                check_cards_exactly_once(self.game)
            except BatteryFailure as failure:
                self._fail(str(failure))

    @invariant()
    def no_forced_move_left(self) -> None:
        game = self.game
        if game is not None and game.variant.first_forced is not None:
            left = game.variant.first_forced(game.piles, game.stock)
            if left is not None:
                self._fail(f"the forced move {game.notation(left)} was left undone")

    @invariant()
    def won_has_no_moves(self) -> None:
        game = self.game
        if game is not None and game.is_won() and game.generate_moves():
            self._fail("the won position still has moves")


def play_machine(variant: Variant) -> type[PlayMachine]:
    """The :class:`PlayMachine` for ``variant``, ready for ``run_state_machine_as_test``."""

    class Machine(PlayMachine):
        @initialize(start=deals(variant))
        def deal(self, start: Game) -> None:
            """Start from any deal of the variant."""
            self.game = start

    Machine.variant = variant
    Machine.__name__ = Machine.__qualname__ = f"PlayMachine_{variant.id.replace('-', '_')}"
    return Machine
