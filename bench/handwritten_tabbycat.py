"""A hand-written move generator for Tabby Cat (the ``tabbycat`` variant only).

The baseline that ``bench/movegen.py`` measures the generic kernel against, written
directly from docs/rules.md rather than from the variant file or the generated code. It uses the
kernel's state and move representation so that both generators can be run on the same
positions and their moves compared:

* ``piles``: a list of 9 lists of int cards, bottom -> top: columns c1..c4 = 0..3, the
  tail t = 4, foundations f1..f4 = 5..8. A card is ``rank * 4 + suit``, rank 1..13.
* ``stock``: a list whose last card is dealt next.
* a move is ``(source, count, target)``; the deal is ``(-1, 0, -1)``.

What it relies on (all from the rules of ``tabbycat``):

* With wrap, "goes on" is cyclic: a card goes on a base whose rank is one higher mod 13.
  So the ranks down a movable run are consecutive mod 13, and for a target column whose
  top has rank r, the run's cards that go on it sit at depths k = k0, k0 + 13, ... where
  k0 is fixed by r and the rank of the column's top card. No loop over every (k, target).
* The top 13 cards of a column are a complete set (K Q ... 2 A from deep to top) exactly
  when they are one movable run and the top card is an Ace: the card 12 below an Ace in a
  cyclic run is a King, and a K..A sequence never passes A -> K inside.
* The tail only ever holds one run (it takes a movable run only while empty and gives it
  back whole), so its bottom card decides where it may go.
"""

from __future__ import annotations

COLUMNS = (0, 1, 2, 3)
TAIL = 4
FOUNDATIONS = (5, 6, 7, 8)
DEAL = (-1, 0, -1)
ACE, KING = 1, 13
SET_SIZE = 13

# RANK[card] is the card's rank; ACCEPTS_RANK[card] the rank that may be placed on it.
RANK = tuple(card >> 2 for card in range(56))
ACCEPTS_RANK = tuple(KING if card >> 2 == ACE else (card >> 2) - 1 for card in range(56))


def is_won(piles: list[list[int]]) -> bool:
    return (len(piles[5]) == SET_SIZE and len(piles[6]) == SET_SIZE
            and len(piles[7]) == SET_SIZE and len(piles[8]) == SET_SIZE)


def generate_moves(piles: list[list[int]], stock: list[int]) -> list[tuple[int, int, int]]:
    """The legal moves of a Tabby Cat position, as (source, count, target) tuples."""
    if len(piles[8]) == SET_SIZE and is_won(piles):
        return []
    moves: list[tuple[int, int, int]] = []
    add = moves.append
    columns = piles[:4]
    # the top card's rank of each column, 0 for an empty one
    top_ranks = [column[-1] >> 2 if column else 0 for column in columns]
    tail_is_empty = not piles[TAIL]

    for source, column in enumerate(columns):
        size = len(column)
        if not size:
            continue
        # the length of the movable run on top of the column
        run = 1
        while run < size and column[-run] >> 2 == ACCEPTS_RANK[column[-run - 1]]:
            run += 1
        top = top_ranks[source]
        for target in COLUMNS:
            if target == source:
                continue
            base = top_ranks[target]
            if base:
                # the card at depth k has rank top + k - 1 (mod 13); base takes rank base - 1
                count = (base - 1 - top) % 13 + 1
                while count <= run:
                    add((source, count, target))
                    count += 13
            else:
                for count in range(1, run + 1):
                    add((source, count, target))
        if tail_is_empty:
            for count in range(1, run + 1):
                add((source, count, TAIL))
        if run >= SET_SIZE and top == ACE:
            for foundation in FOUNDATIONS:
                if not piles[foundation]:
                    add((source, SET_SIZE, foundation))
                    break

    if not tail_is_empty:
        tail = piles[TAIL]
        count = len(tail)
        wants = ACCEPTS_RANK
        bottom_rank = tail[0] >> 2
        for target, column in enumerate(columns):
            if not column or bottom_rank == wants[column[-1]]:
                add((TAIL, count, target))

    if stock:
        add(DEAL)
    return moves


def push(piles: list[list[int]], stock: list[int], move: tuple[int, int, int]) -> int:
    """Make a move; returns what ``pop`` needs (the number of cards a deal handed out)."""
    source, count, target = move
    if source < 0:
        dealt = min(len(stock), 4)
        for column in piles[:dealt]:
            column.append(stock.pop())
        return dealt
    pile = piles[source]
    piles[target].extend(pile[-count:])
    del pile[-count:]
    return count


def pop(piles: list[list[int]], stock: list[int], move: tuple[int, int, int],
        undo: int) -> None:
    """Take back ``move``, given what ``push`` returned for it."""
    source, count, target = move
    if source < 0:
        for column in reversed(piles[:undo]):
            stock.append(column.pop())
        return
    pile = piles[target]
    piles[source].extend(pile[-count:])
    del pile[-count:]


def perft(piles: list[list[int]], stock: list[int], depth: int) -> int:
    """The number of leaves of the move tree ``depth`` plies deep (docs/rules.md, "Perft")."""
    if depth <= 0:
        return 1
    moves = generate_moves(piles, stock)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        undo = push(piles, stock, move)
        total += perft(piles, stock, depth - 1)
        pop(piles, stock, move, undo)
    return total
