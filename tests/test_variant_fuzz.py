"""Random variant files never make the loader or the kernel raise a traceback.

The full run (10,000 files) is ``python bench/fuzz_variants.py``; this runs a few dozen.
Kernel bugs the fuzzing finds go in KNOWN_KERNEL_BUGS while open (none is); the minimal files
of the seven found before (all fixed) stay below as regression tests.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings

import patience
from patience.testing.fuzz import probe, variant_texts

KNOWN_KERNEL_BUGS: dict[str, re.Pattern[str]] = {}


def known_bug(detail: str) -> str | None:
    return next((name for name, pattern in KNOWN_KERNEL_BUGS.items()
                 if pattern.search(detail)), None)


@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(variant_texts())
def test_a_random_variant_file_loads_and_passes_or_is_rejected_with_a_location(text):
    result = probe(text, moves=10)
    if result.status in ("loaded", "rejected") or known_bug(result.detail):
        return
    raise AssertionError(f"{result.status}:\n{text}\n{result.detail}")


def test_a_located_error_points_into_the_file():
    result = probe("id: x\nname: X\ndescription: y\npiles:\n  columns:\n    id: c\n"
                   "    count: 4\n    moves: run.colour == red\nwin: 'true'\n")
    assert result.status == "rejected"
    assert "fuzz.yaml:8:" in result.detail and "colour" in result.detail


def test_a_shipped_variant_loads_and_passes_the_quick_battery():
    assert probe(patience.find_variant("tabbycat").text).status == "loaded"


# --- minimal files for the kernel bugs the fuzzing found ---------------------------------

FORCED_LOOP = """\
id: forced-loop
name: Forced loop
description: Two forced cells that feed each other.
ranks: 1
piles:
  cells:
    id: x
    count: 2
    deal: 2
    moves: "true"
    accepts: "true"
    removal: forced
win: "false"
"""

FIRST_TARGET_FROM_ITS_OWN_GROUP = """\
id: first-target-source
name: First target from its own group
description: A group addressed as a whole whose piles also give cards to each other.
ranks: 1
piles:
  cells:
    id: x
    count: 2
    deal: 2
    target: first
    moves: "true"
    accepts: "true"
win: "false"
"""

DEAL_WHEN_OR = """\
id: deal-when-or
name: Deal when any column is small
description: A deal condition that reads several piles.
piles:
  columns:
    id: c
    count: 4
    deal: 1
    moves: "true"
    accepts: "false"
stock:
  deals_to: [columns]
  deal_when: "any c in columns: c.size < 100"
win: "false"
"""


SCAN_WITH_ANY = """\
extends: tabbycat-loosetail
id: goes-on-ignores-base
predicates:
  goes_on(card, base): "any g in foundations: card.suit != C"
"""


CARD_PREDICATE_READS_THE_STOCK = """\
extends: tabbycat
id: goes-on-reads-the-stock
predicates:
  goes_on(card, base): stock.size == stock.size
"""


FORCED_WITH_REDEALS = """\
id: forced-with-redeals
name: Forced with redeals
description: A forced group in a game that counts its redeals.
ranks: 2
piles:
  columns:
    id: c
    count: 2
    deal: 1
    moves: "true"
    accepts: "false"
  waste:
    id: w
    count: 1
    moves: "true"
    accepts: "false"
  foundations:
    id: f
    count: 1
    removal: forced
    accepts: "false"
stock:
  deals_to: [waste]
  redeals: 1
win: "false"
"""


def test_the_forced_removal_check_leaves_the_count_of_redeals_alone():
    # the battery read the count of redeals made as a pile: an IndexError (issue #29)
    assert probe(FORCED_WITH_REDEALS, moves=10).status == "loaded"


def test_a_card_predicate_that_reads_the_stock_is_not_made_a_table():
    # it was tabulated as if it read its cards alone: an AssertionError at load (issue #29)
    assert probe(CARD_PREDICATE_READS_THE_STOCK, moves=10).status == "loaded"


def test_a_run_scan_with_an_any_stays_inside_the_pile():
    assert probe(SCAN_WITH_ANY, moves=30).status == "loaded"


def test_forced_removals_always_end():
    assert probe(FORCED_LOOP, moves=3).status in ("loaded", "rejected")


def test_explain_agrees_on_moves_within_a_first_target_group():
    assert probe(FIRST_TARGET_FROM_ITS_OWN_GROUP, moves=3).status == "loaded"


def test_no_deal_from_an_empty_stock():
    assert probe(DEAL_WHEN_OR, moves=40).status == "loaded"


FORCED_UNDER_A_FACE_DOWN_CARD = """\
id: forced-under-face-down
name: Forced under a face-down card
description: A forced waste whose rule a run with a face-down card would satisfy.
ranks: 1
piles:
  columns:
    id: c
    count: 2
    deal: 2
    face_down: 1
    moves: "true"
    accepts: "false"
  waste:
    id: w
    count: 1
    moves: "false"
    accepts: run.size == 2
    removal: forced
win: "false"
"""


def test_a_run_with_a_face_down_card_is_no_forced_move_left_undone():
    # the battery's own check took the top two cards, one face down, for a run the forced
    # waste accepts (found by `python bench/fuzz_variants.py --examples 3000 --seed 7`); a
    # run never holds a face-down card, and the kernel rightly left them
    result = probe(FORCED_UNDER_A_FACE_DOWN_CARD, moves=10)
    assert result.status == "loaded", result.detail
