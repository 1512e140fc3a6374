"""Move-generation benchmark: the generic kernel against a hand-written Tabby Cat generator.

    python bench/movegen.py                      # perft table, best of 3 timings
    python bench/movegen.py --depth 6 --deals 1 2 3 --walks 13:45 17:30
    python bench/movegen.py --compare 5000       # differential test only, no timing

Both sides run perft (docs/rules.md, "Perft") on the same positions: the generic side is
``patience.perft.perft`` on a ``Game`` (generated ``generate_moves``, ``push_unchecked``,
``pop``), the hand-written side is ``bench/handwritten_tabbycat.py``. Leaf counts must agree
at every position. The figure of merit is the ratio generic / hand-written in leaves per
second (target: at least 0.75, issue #30).

The positions are numbered deals at the start, and mid-game positions reached from a
numbered deal by a seeded random walk (``--walks DEAL:MOVES``; the walk's seed is the deal
number). ``--compare N`` compares the two generators' move sets on N positions from random
walks and from synthetic positions (long runs passing A -> K, complete sets, full
foundations, a loaded tail, odd stock sizes) and prints every mismatch with the position
text and both move lists.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [BENCH, os.path.dirname(BENCH)]  # this checkout's patience, even if not installed

import handwritten_tabbycat as handwritten

import patience
from patience.game import Game
from patience.perft import perft

VARIANT = "tabbycat"
DEFAULT_DEALS = (1, 2, 3)
# live mid-game positions (stock left, branching from 2 to 14): see walked()
DEFAULT_WALKS = ("10:15", "13:45", "15:45", "17:30", "19:45", "21:45")
DEFAULT_LEAVES = 200_000
DEAL = (-1, 0, -1)


# -- positions --

def walk(game: Game, moves: int, rng: random.Random, builder: float = 0.5) -> Iterator[Game]:
    """Play up to ``moves`` moves on ``game`` (in place), yielding the game before each one.

    With probability ``builder`` a move is chosen like a player building down would (a
    complete set first, then the tail's run or a whole column run onto a card, else a deal),
    otherwise uniformly. Moves are sorted first so that the walk does not depend on the order
    the generator lists them in.
    """
    for _ in range(moves):
        yield game
        legal = sorted(game.generate_moves())
        if not legal:
            return
        game.push_unchecked(_builder_move(game, legal) if rng.random() < builder
                            else rng.choice(legal))
    yield game


def _builder_move(game: Game, legal: list[tuple[int, int, int]]) -> tuple[int, int, int]:
    piles = game.piles
    for move in legal:
        if move[2] >= 5:
            return move
    for source, count, target in legal:
        if 0 <= target < 4 and piles[target] and (source == 4 or count == len(piles[source])):
            return (source, count, target)
    for source, count, target in legal:
        if 0 <= target < 4 and piles[target] and source < 4:
            below = piles[source][-count - 1] if count < len(piles[source]) else None
            if below is None or handwritten.ACCEPTS_RANK[below] != piles[source][-count] >> 2:
                return (source, count, target)
    return DEAL if DEAL in legal else legal[-1]


def walked(variant: patience.Variant, deal: int, moves: int) -> Game:
    """Numbered deal ``deal`` after ``moves`` random moves (seeded with ``deal``): a uniform
    choice among the moves other than the deal, the deal with probability 0.1 (or when it
    is the only move). Random play that deals freely reaches dead ends within a few
    dozen moves; this keeps some stock for the benchmark's mid-game positions."""
    game = variant.deal(deal)
    rng = random.Random(deal)
    for _ in range(moves):
        legal = sorted(game.generate_moves())
        if not legal:
            break
        others = [move for move in legal if move != DEAL]
        dealing = DEAL in legal and (not others or rng.random() < 0.1)
        game.push_unchecked(DEAL if dealing else rng.choice(others))
    return game


def synthetic(variant: patience.Variant, rng: random.Random) -> Game:
    """A position that random play rarely reaches: long runs (often passing A -> K),
    complete K..A sets in columns, some full foundations, a run in the tail, any stock size.
    Every card of the deck is somewhere, so ``variant.position(game.text())`` reads it."""
    deck = list(variant.deck)
    rng.shuffle(deck)
    piles: list[list[int]] = [[] for _ in range(9)]

    def take(rank: int) -> int | None:
        for i, card in enumerate(deck):
            if card >> 2 == rank:
                return deck.pop(i)
        return None

    def king_to_ace() -> list[int] | None:
        cards = [take(rank) for rank in range(13, 0, -1)]
        if None in cards:
            deck.extend(c for c in cards if c is not None)
            return None
        return cards  # type: ignore[return-value]

    for foundation in range(5, 5 + rng.choice((0, 0, 0, 1, 2, 3, 4))):
        full = king_to_ace()
        if full is not None:
            piles[foundation] = full
    if rng.random() < 0.3:  # a foundation left empty below a full one (not reachable)
        foundations = piles[5:9]
        rng.shuffle(foundations)
        piles[5:9] = foundations
    for index in (*range(4), 4):
        if rng.random() < (0.2 if index < 4 else 0.5):
            continue  # empty
        if index < 4 and rng.random() < 0.15:
            complete = king_to_ace()
            if complete is not None:
                piles[index] = [deck.pop() for _ in range(min(len(deck), rng.randrange(3)))]
                piles[index] += complete
                continue
        if not deck:
            break
        pile = [deck.pop()]
        length = rng.randrange(12) if rng.random() < 0.8 else rng.randrange(12, 24)
        for _ in range(length if index < 4 else rng.randrange(1, 6)):
            wanted = handwritten.ACCEPTS_RANK[pile[-1]]
            card = take(wanted) if rng.random() < 0.85 else (deck.pop() if deck else None)
            if card is None or (index == 4 and card >> 2 != wanted):
                if card is not None:
                    deck.append(card)
                break
            pile.append(card)
        piles[index] = pile
    stock = deck  # whatever is left, in shuffled order, any length
    return Game(variant, piles, stock)


def differential_positions(variant: patience.Variant, count: int,
                           seed: int = 0) -> Iterator[Game]:
    """``count`` positions: every third one synthetic, the others (copies) sampled from
    random walks from numbered deals, some uniform, some building."""
    rng = random.Random(seed)

    def walked_positions() -> Iterator[Game]:
        deal = seed * 100_000
        while True:
            deal += 1
            for game in walk(variant.deal(deal), 150, random.Random(deal),
                             builder=rng.choice((0.0, 0.5, 0.9))):
                if rng.random() < 0.3:
                    yield game.copy()

    from_walks = walked_positions()
    for made in range(count):
        yield synthetic(variant, rng) if made % 3 == 0 else next(from_walks)


def move_sets_differ(game: Game) -> tuple[set, set] | None:
    """None when both generators agree; else (generic only, hand-written only)."""
    generic = game.variant.generate_moves(game.piles, game.stock)
    mine = handwritten.generate_moves(game.piles, game.stock)
    if len(set(generic)) != len(generic) or len(set(mine)) != len(mine):
        return set(generic), set(mine)  # a duplicate move is a bug too
    if set(generic) == set(mine):
        return None
    return set(generic) - set(mine), set(mine) - set(generic)


def compare(variant: patience.Variant, count: int, seed: int) -> int:
    mismatches = 0
    for game in differential_positions(variant, count, seed):
        difference = move_sets_differ(game)
        if difference is None:
            continue
        mismatches += 1
        only_generic, only_handwritten = difference
        print(f"MISMATCH {game.text()}")
        print("  generic:     ", " ".join(sorted(map(game.notation,
                                                      game.generate_moves()))))
        print("  hand-written:", " ".join(sorted(map(game.notation, handwritten.generate_moves(
            game.piles, game.stock)))))
        print("  only generic:", sorted(map(game.notation, only_generic)),
              " only hand-written:", sorted(map(game.notation, only_handwritten)))
    print(f"compared move sets on {count} positions: {mismatches} mismatch(es)")
    return mismatches


# -- timing --

def best_times(runs: list[Callable[[], int]], repeat: int) -> tuple[list[int], list[float]]:
    """Each run's result and best CPU time of ``repeat``, the runs taking turns so that
    both sides see the same load. CPU time (``process_time``) rather than wall time:
    the benchmark machines are shared, and a descheduled process should not be charged."""
    best = [float("inf")] * len(runs)
    results = [0] * len(runs)
    for _ in range(repeat):
        for i, run in enumerate(runs):
            start = time.process_time()
            results[i] = run()
            best[i] = min(best[i], time.process_time() - start)
    return results, best


def auto_depth(game: Game, leaves: int, deepest: int = 30) -> int:
    """The smallest depth whose perft reaches ``leaves`` (counted by the hand-written side),
    or the depth where the tree stops growing."""
    piles, stock = [list(p) for p in game.piles], list(game.stock)
    previous = -1
    for depth in range(1, deepest + 1):
        count = handwritten.perft(piles, stock, depth)
        if count >= leaves or count == previous:
            return depth
        previous = count
    return deepest


def bench(variant: patience.Variant, positions: list[tuple[str, Game]], depth: int | None,
          leaves_wanted: int, repeat: int) -> None:
    print(f"load average {os.getloadavg()[0]:.2f} (1 min), {os.getloadavg()[1]:.2f} (5 min) "
          f"on {os.cpu_count()} CPUs; best CPU time of {repeat}; Python "
          f"{sys.version.split()[0]}")
    header = f"{'position':<22} {'depth':>5} {'leaves':>11} {'generic/s':>11} " \
             f"{'hand/s':>11} {'ratio':>6}"
    print(header)
    print("-" * len(header))
    total_leaves = 0
    total_generic = total_hand = 0.0
    ratios = []
    for label, game in positions:
        depth_here = depth if depth is not None else auto_depth(game, leaves_wanted)
        key = game.key()
        piles, stock = [list(p) for p in game.piles], list(game.stock)
        (leaves, hand_leaves), (generic_time, hand_time) = best_times(
            [partial(perft, game, depth_here),
             partial(handwritten.perft, piles, stock, depth_here)], repeat)
        assert game.key() == key, f"{label}: the generic perft did not restore the position"
        assert [list(p) for p in game.piles] == piles and game.stock == stock
        assert leaves == hand_leaves, \
            f"{label} ({game.text()}): perft({depth_here}) generic {leaves} != hand-written " \
            f"{hand_leaves}"
        ratio = hand_time / generic_time
        ratios.append(ratio)
        total_leaves += leaves
        total_generic += generic_time
        total_hand += hand_time
        print(f"{label:<22} {depth_here:>5} {leaves:>11,} {leaves / generic_time:>11,.0f} "
              f"{leaves / hand_time:>11,.0f} {ratio:>6.2f}")
    print("-" * len(header))
    geometric = 1.0
    for ratio in ratios:
        geometric *= ratio
    geometric **= 1 / len(ratios)
    print(f"{'all':<22} {'':>5} {total_leaves:>11,} {total_leaves / total_generic:>11,.0f} "
          f"{total_leaves / total_hand:>11,.0f} {total_hand / total_generic:>6.2f}")
    print(f"ratio generic/hand-written: {total_hand / total_generic:.2f} overall "
          f"(total time), {geometric:.2f} geometric mean of positions; target >= 0.75")
    print(f"load average {os.getloadavg()[0]:.2f} (1 min) at the end")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int,
                        help="perft depth for every position (default: per position, the "
                             "smallest depth with at least --leaves leaves)")
    parser.add_argument("--leaves", type=int, default=DEFAULT_LEAVES,
                        help=f"leaves wanted per position without --depth "
                             f"(default {DEFAULT_LEAVES:,})")
    parser.add_argument("--deals", type=int, nargs="*", default=list(DEFAULT_DEALS),
                        help="numbered deals whose starting positions are measured")
    parser.add_argument("--walks", nargs="*", default=list(DEFAULT_WALKS),
                        help="mid-game positions DEAL:MOVES (deal after a random walk of "
                             "MOVES moves seeded with DEAL)")
    parser.add_argument("--repeat", type=int, default=3, help="timings per position (best)")
    parser.add_argument("--compare", type=int, metavar="N",
                        help="only compare move sets on N positions (differential test)")
    parser.add_argument("--seed", type=int, default=0, help="seed for --compare")
    args = parser.parse_args(argv)

    variant = patience.find_variant(VARIANT)
    if args.compare is not None:
        return 1 if compare(variant, args.compare, args.seed) else 0
    positions = [(f"deal {deal}", variant.deal(deal)) for deal in args.deals]
    for text in args.walks:
        deal, _, moves = text.partition(":")
        positions.append((f"deal {deal} +{moves} walk", walked(variant, int(deal),
                                                               int(moves or 0))))
    bench(variant, positions, args.depth, args.leaves, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
