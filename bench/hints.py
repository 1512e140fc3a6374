"""What a player's hint costs and what it shows: ``Session.hint()`` with the terminal's
budget (1,000,000 positions, 20 s) and the page's (200,000 positions, 3 s), on deals that
showed issue #32's problems.

    python bench/hints.py
    PYTHONPATH=/path/to/other/checkout python bench/hints.py   # the same on another tree

For each deal and budget: the seconds the first hint took (wall time), the moves of the
line it shows and how many of them take a card back off a home pile, and the start of its
message (a hint, or a suggestion where the solver decided nothing in time). Klondike deals
1 and 12 are undecided within 1,000,000 positions; FreeCell deal 2's first line took 26
cards back; Tabby Cat deal 1's hinted card went elsewhere when clicked; Spider One Suit
deal 4 is proven winnable in 62,274 positions; Klondike deals 4 and 10 got lines that take
cards back off the foundations (7 and 3). Where the first line takes cards back, a second
hint at the same place is measured too (``again``): it looks for a line without with the
whole budget (a line without took 436,957 positions on deal 4 and 7,253,955 on deal 10
with the search's own ordering; 13,826 and 11,723 with a move home tried late).
"""

from __future__ import annotations

import time

import patience
from patience.play.session import Session

DEALS = (("klondike", 1), ("klondike", 12), ("freecell", 1), ("freecell", 2),
         ("tabbycat", 1), ("spider-1suit", 4), ("klondike", 4), ("klondike", 10))
BUDGETS = (("terminal", (1_000_000, 20.0)), ("page", (200_000, 3.0)))


def main() -> None:
    print(f"patience from {patience.__file__}")
    print(f"{'budget':9} {'deal':16} {'seconds':>7} {'moves':>5} {'back':>4}  message")
    for where, budget in BUDGETS:
        for variant, number in DEALS:
            session = Session(patience.find_variant(variant).deal(number), record_stats=False)
            session.hint_budget = budget
            for press in ("", " again"):
                started = time.perf_counter()
                reply = session.hint()
                seconds = time.perf_counter() - started
                plan = session.planned_moves()
                homes = session.variant.home_piles
                back = sum(1 for m in plan if m.source in homes and m.target not in homes)
                print(f"{where:9} {variant + ' ' + str(number) + press:16} {seconds:7.2f} "
                      f"{len(plan):5} {back:4}  {reply.text[:60]}", flush=True)
                if not back:
                    break


if __name__ == "__main__":
    main()
