"""A hand-written solver for one game, ``tabbycat-autoremove``: the speed baseline.

It runs exactly the generic solver's search (``patience.solver``): the same restarts
(Luby schedule, unit 500 positions, six orderings), the same move ordering scores and
random tie-breaks, the same position key (ranks only; columns sorted once the stock is
empty). Only the rules are written by hand from docs/rules.md instead of compiled from the
variant file: a cyclic "goes on" by rank table, complete sets found by looking at columns
of 13 cards or more whose top card is an Ace. Because it lists moves in the same order
as the generated generator, it expands the same positions, so positions per second
compare like with like.

    python bench/handwritten_solver.py 1 2 3      # solve deals 1, 2, 3
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from patience.cards import numbered_deck
from patience.solver import luby  # the same restart schedule as the generic solver

COLUMNS = range(4)
TAIL = 4
FOUNDATIONS = range(5, 9)
DEAL = (-1, 0, -1)
RANK = bytes(card >> 2 for card in range(256))  # translate table: card -> rank * 1
# GOES_ON[card][base]: card is one rank below base, or a King on an Ace (wrap)
GOES_ON = [[(c >> 2) == (b >> 2) - 1 or ((b >> 2) == 1 and (c >> 2) == 13)
            for b in range(56)] for c in range(56)]
RANK_KEY = bytes(((c >> 2) * 4) if c < 64 else c for c in range(256))
UNIT, STYLES = 500, 6


def generate(piles: list[list[int]], stock: list[int]) -> list[tuple[int, int, int]]:
    moves = []
    append = moves.append
    for s in COLUMNS:
        src = piles[s]
        n = len(src)
        if not n:
            continue
        m = 1
        while m < n and GOES_ON[src[n - m]][src[n - m - 1]]:
            m += 1
        tail_empty = not piles[TAIL]
        for k in range(1, m + 1):
            card = GOES_ON[src[-k]]
            for t in COLUMNS:
                if t != s:
                    tgt = piles[t]
                    if not tgt or card[tgt[-1]]:
                        append((s, k, t))
            if tail_empty:
                append((s, k, TAIL))
    tail = piles[TAIL]
    if tail:
        card = GOES_ON[tail[0]]
        k = len(tail)
        for t in COLUMNS:
            tgt = piles[t]
            if not tgt or card[tgt[-1]]:
                append((TAIL, k, t))
    if stock:
        append(DEAL)
    return moves


def first_set(piles: list[list[int]]) -> tuple[int, int, int] | None:
    """A complete K..A set on top of a column (c1 first) and the first empty foundation."""
    for s in COLUMNS:
        src = piles[s]
        n = len(src)
        if (n >= 13 and src[-1] >> 2 == 1 and src[-13] >> 2 == 13
                and all(src[i] >> 2 == (src[i - 1] >> 2) - 1 for i in range(n - 12, n))):
            for t in FOUNDATIONS:
                if not piles[t]:
                    return (s, 13, t)
    return None


def ordering(style: int):
    jitter = random.Random(style) if style >= 1 else None

    def order(moves, piles):
        longest = {}
        for s, k, _ in moves:
            if k > longest.get(s, 0):
                longest[s] = k
        scored = []
        moves.sort()
        for move in moves:
            s, k, t = move
            if s < 0:
                score = -1000
            else:
                left = len(piles[s]) - k
                onto = bool(piles[t])
                whole = k == longest[s]
                if s == TAIL:
                    score = 600 if onto else 250
                elif onto:
                    score = 700 if left == 0 else (400 + k if whole else 200 + k)
                elif t == TAIL:
                    score = 80 if whole and left else 20
                elif left == 0:
                    score = -500
                else:
                    score = 100 if whole else 40
            if jitter is not None:
                score += jitter.random() * 60
            scored.append((score, move))
        scored.sort(key=lambda pair: pair[0], reverse=True)
        return [move for _, move in scored]
    return order


def key(piles, stock):
    if stock:
        return b"\xff".join(map(bytes, piles)).translate(RANK_KEY) + len(stock).to_bytes(2, "big")
    parts = [bytes(p).translate(RANK_KEY) for p in piles]
    parts[0:4] = sorted(parts[0:4])
    return b"\xff".join(parts) + b"\0\0"


def push(piles, stock, move):
    s, k, t = move
    if s < 0:
        for index in COLUMNS:
            if not stock:
                break
            piles[index].append(stock.pop())
    else:
        pile = piles[s]
        piles[t] += pile[-k:]
        del pile[-k:]
    forced = []
    while (removal := first_set(piles)) is not None:
        s, k, t = removal
        pile = piles[s]
        piles[t] += pile[-k:]
        del pile[-k:]
        forced.append(removal)
    return forced


def pop(piles, stock, move, forced, dealt):
    for s, k, t in reversed(forced):
        pile = piles[t]
        piles[s] += pile[-k:]
        del pile[-k:]
    s, k, t = move
    if s < 0:
        for index in reversed(range(dealt)):
            stock.append(piles[index].pop())
    else:
        pile = piles[t]
        piles[s] += pile[-k:]
        del pile[-k:]


def search(piles, stock, order, budget):
    """One depth-first run: ('won', line) / ('exhausted', None) / ('budget', None), and the
    number of positions expanded."""
    seen = {key(piles, stock)}
    moves = generate(piles, stock)
    if not moves:
        return ("won" if all(len(piles[f]) == 13 for f in FOUNDATIONS) else "exhausted"), [], 1
    frames = [[order(moves, piles), 0]]
    line, undos = [], []
    expanded = 1
    while frames:
        frame = frames[-1]
        children, index = frame
        if index == len(children):
            frames.pop()
            if line:
                pop(piles, stock, line.pop(), *undos.pop())
            continue
        frame[1] = index + 1
        move = children[index]
        dealt = min(4, len(stock)) if move[0] < 0 else 0
        forced = push(piles, stock, move)
        position = key(piles, stock)
        if position in seen:
            pop(piles, stock, move, forced, dealt)
            continue
        if expanded >= budget:
            pop(piles, stock, move, forced, dealt)
            while line:
                pop(piles, stock, line.pop(), *undos.pop())
            return "budget", None, expanded
        seen.add(position)
        expanded += 1
        moves = generate(piles, stock)
        if not moves:
            if all(len(piles[f]) == 13 for f in FOUNDATIONS):
                line.append(move)
                return "won", line, expanded
            pop(piles, stock, move, forced, dealt)
            continue
        line.append(move)
        undos.append((forced, dealt))
        frames.append([order(moves, piles), 0])
    return "exhausted", None, expanded


def solve_deal(number: int, max_positions: int = 1_000_000) -> tuple[str, int]:
    """('won' | 'unwinnable' | 'unknown', positions) for numbered deal ``number``."""
    cards = numbered_deck(number)
    orderings = [ordering(style) for style in range(STYLES)]  # fresh tie-breaks per deal
    spent = run = 0
    while spent < max_positions:
        piles = [[cards[i]] for i in range(4)] + [[] for _ in range(5)]
        stock = list(reversed(cards[4:]))
        budget = UNIT * luby(run + 1)
        if spent + budget * 2 > max_positions:
            budget = max_positions - spent
        outcome, _, expanded = search(piles, stock, orderings[run % STYLES], budget)
        spent += expanded
        run += 1
        if outcome == "won":
            return "won", spent
        if outcome == "exhausted":
            return "unwinnable", spent
    return "unknown", spent


if __name__ == "__main__":
    for argument in sys.argv[1:] or ["1"]:
        started = time.perf_counter()
        verdict, positions = solve_deal(int(argument))
        print(argument, verdict, positions, f"{time.perf_counter() - started:.2f} s")
