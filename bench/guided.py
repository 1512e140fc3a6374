"""The guided search beside the restarts against the restarts alone: deals decided,
positions and CPU time.

    python bench/guided.py freecell simple-simon canister --deals 1-100
    python bench/guided.py free-fan castles-in-spain --deals 1-100 --max-positions 100000

Each deal is solved twice by the native core, taking turns: ``solve(game, N)`` (solver 1.9:
the guided search takes turns with the restarts where it applies) and ``solve(game, N,
guides=False)`` (the restarts alone, the search of solver 1.8). Both verdicts must agree
where both decided. The table is bench/beam.py's; won lines are not shortened.
"""

from __future__ import annotations

import sys

from beam import main

if __name__ == "__main__":
    sys.exit(main("guides", __doc__, "guided"))
