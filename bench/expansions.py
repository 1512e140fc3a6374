"""Where one search spends its positions: one run of the reference engine, main ordering.

    python bench/expansions.py mainecoon 2 --positions 200000
    python bench/expansions.py tabbycat-nowrap 67 --positions 200000 --no-wrap

It runs ``Search.run`` (style 0, one run, no restarts: what ``--prove`` does first) and
counts, for every expanded position, the stock's length; for those after the last deal,
how many ``target: first`` piles (foundations) hold cards and how many *breaks* the
dealt and parking piles have (adjacent cards where the upper is not one rank below the
lower; with ``--wrap``, the default, a King on an Ace is not a break: the Tabby Cat
family's building rule). It also counts the last deals played (deals that empty the
stock). The Python engine is the reference, so the counts are those of the native
engine's first run too; it is slow (about 2,000-5,000 positions a second).
"""

from __future__ import annotations

import argparse
import collections
import itertools
import time

from patience.cards import rank_of
from patience.moves import MoveTuple, Undo
from patience.solver import solver_rules
from patience.solver.search import Search, make_ordering
from patience.variant import find_variant


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("variant")
    parser.add_argument("seed", type=int)
    parser.add_argument("--positions", type=int, default=200_000)
    parser.add_argument("--wrap", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args()
    variant = find_variant(args.variant)
    game = variant.deal(args.seed)
    rules = solver_rules(variant)
    table = sorted(rules.dealt_piles | rules.parking_piles)
    foundations = sorted(rules.first_target_piles)
    stock_sizes: collections.Counter[int] = collections.Counter()
    filled: collections.Counter[int] = collections.Counter()
    breaks: collections.Counter[int] = collections.Counter()
    last_deals = 0
    generate, play = variant.generate_moves, variant.play

    def count_breaks(piles: list[list[int]]) -> int:
        n = 0
        for p in table:
            cards = piles[p]
            for lower, upper in itertools.pairwise(cards):
                a, b = rank_of(lower), rank_of(upper)
                if not (b == a - 1 or (args.wrap and a == 1 and b == 13)):
                    n += 1
        return n

    def counting_generate(piles: list[list[int]], stock: list[int]) -> list[MoveTuple]:
        stock_sizes[len(stock)] += 1
        if not stock:
            filled[sum(1 for p in foundations if piles[p])] += 1
            breaks[count_breaks(piles)] += 1
        return generate(piles, stock)

    def counting_play(piles: list[list[int]], stock: list[int], move: MoveTuple) -> Undo:
        nonlocal last_deals
        undo = play(piles, stock, move)
        if move[0] < 0 and not stock:
            last_deals += 1
        return undo

    variant.generate_moves = counting_generate  # type: ignore[method-assign]
    variant.play = counting_play  # type: ignore[method-assign]
    search = Search(rules, game.piles, game.stock)
    started = time.process_time()
    outcome = search.run(make_ordering(rules, 0), args.positions)
    total = sum(stock_sizes.values())
    print(f"{args.variant} {args.seed}: {outcome}, {search.expanded:,} expanded, "
          f"{len(search.lost):,} proven lost, {time.process_time() - started:.0f} s CPU")
    print(f"  after the last deal: {stock_sizes[0]:,} ({100 * stock_sizes[0] / total:.1f}%); "
          f"last deals played: {last_deals:,}")
    print("  stock length at expansion:", sorted(stock_sizes.items()))
    print("  foundations holding cards (after the last deal):", sorted(filled.items()))
    print("  breaks on the table (after the last deal):", sorted(breaks.items()))


if __name__ == "__main__":
    main()
