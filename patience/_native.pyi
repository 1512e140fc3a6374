# The native search core (native/src/lib.rs), as Python sees it. A position is its piles
# and its stock as card numbers; a move is (source, k, target), the deal (-1, 0, -1).
# Bad arguments (a position or move that does not fit the program, a program that does not
# fit the wire format) raise ValueError.

from collections.abc import Callable
from typing import Any, TypeAlias, TypedDict

PROGRAM_VERSION: int
MAX_DISCARD_CARDS: int
MAX_DISCARD_SETS: int
DRAW: int

class RunawayError(ValueError):
    """Forced moves went on past the program's max_forced_moves."""

Move: TypeAlias = tuple[int, int, int]
Piles: TypeAlias = list[list[int]]

class Solved(TypedDict):
    outcome: str  # "won", "unwinnable", "unknown"
    line: list[Move]
    positions: int
    stored: int
    bytes: int
    record_bytes: int
    parts: int
    stack_bytes: int

class Core:
    def __init__(self, program: str, filters: bool = True) -> None: ...
    @property
    def filtered_pairings(self) -> int: ...
    @property
    def branch_pairings(self) -> int: ...
    @property
    def pair_discards(self) -> int: ...
    @property
    def id(self) -> str: ...
    def generate_moves(self, piles: Piles, stock: list[int]) -> list[Move]: ...
    def first_forced(self, piles: Piles, stock: list[int]) -> Move | None: ...
    def is_won(self, piles: Piles, stock: list[int]) -> bool: ...
    def can_deal(self, piles: Piles, stock: list[int]) -> bool: ...
    def play_and_take_back(
        self, piles: Piles, stock: list[int], mv: Move
    ) -> tuple[tuple[Piles, list[int]], tuple[Piles, list[int]]]: ...
    def perft(self, piles: Piles, stock: list[int], depth: int) -> int: ...
    def solve(
        self,
        piles: Piles,
        stock: list[int],
        max_positions: int,
        time_limit: float | None = None,
        prove: bool = False,
        max_memory: int | None = None,
        should_stop: Callable[[int], Any] | None = None,
        beams: bool = True,
        moves_kept: int | None = None,
        byte_keys: bool = False,
        path_kept: int | None = None,
        shorten: bool = False,
        guides: bool = True,
    ) -> Solved: ...
    def beam(
        self, piles: Piles, stock: list[int], width: int, max_positions: int,
        max_memory: int | None = None,
    ) -> Solved: ...
    def exhaustive(
        self, piles: Piles, stock: list[int], max_positions: int,
        max_memory: int | None = None,
    ) -> Solved: ...
    def shorten(
        self, piles: Piles, stock: list[int], line: list[Move],
        max_memory: int | None = None, depth: int = 1, time_limit: float | None = None,
    ) -> list[Move]: ...
