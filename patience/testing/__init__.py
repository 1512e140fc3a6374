"""Property tests for variant files: strategies, a state machine, the invariant battery.

>>> from patience import find_variant
>>> from patience.testing import CHECKS, run_check
>>> run_check(find_variant("tabbycat"), CHECKS["push_pop_restores"], examples=3).status
'passed'

See ``docs/testing.md``: ``patience test FILE`` and ``pytest --patience-variant FILE`` run
the same battery.
"""

from patience.testing.battery import (
    CHECKS,
    BatteryFailure,
    Check,
    Outcome,
    Report,
    assert_check,
    counterexample,
    run_battery,
    run_check,
    run_play_machine,
)
from patience.testing.lint import Finding, lint
from patience.testing.strategies import (
    PlayMachine,
    deal_numbers,
    deals,
    move_sequences,
    play_machine,
    positions,
    winning_lines,
)

__all__ = [
    "CHECKS",
    "BatteryFailure",
    "Check",
    "Finding",
    "Outcome",
    "PlayMachine",
    "Report",
    "assert_check",
    "counterexample",
    "deal_numbers",
    "deals",
    "lint",
    "move_sequences",
    "play_machine",
    "positions",
    "run_battery",
    "run_check",
    "run_play_machine",
    "winning_lines",
]
