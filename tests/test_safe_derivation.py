"""Safe moves derived from the rules (docs/solver.md, "Derived safe moves"): what the
analysis derives, what it refuses, and that the derived rule keeps the exact verdicts."""

from __future__ import annotations

from pathlib import Path

import pytest

import patience
from patience.solver import exhaustive_verdict, solve
from patience.variant import load_variant_text

VARIANTS = Path(__file__).parent / "variants"
MINI = VARIANTS / "mini-streets-and-alleys.yaml"
DERIVED = "pile in foundations and (all f in foundations: f.size >= run.top.rank - 1)"


def child(body: str, parent: str | Path = MINI) -> patience.Variant:
    return load_variant_text(f"extends: {parent}\nid: derive-test\n{body}", "derive-test.yaml")


def test_streets_and_beleaguered_derive_what_they_declared() -> None:
    for name in ("streets-and-alleys", "beleaguered-castle"):
        variant = patience.find_variant(name)
        assert variant.safe_derived
        assert variant.safe is not None and variant.safe.text == DERIVED


def test_the_rules_page_shows_the_derivation() -> None:
    from patience.rulestext import rules_text

    assert f"safe moves: derived: {DERIVED}" in rules_text(patience.find_variant(str(MINI)))
    yukon = patience.find_variant("yukon").safe_derivation
    assert yukon is not None and yukon.reason == "columns deals cards face down"


def test_a_declaration_wins_over_the_derivation() -> None:
    assert child("solver:\n  safe: false\n").safe is None
    declared = child("solver:\n  safe: pile in foundations and run.top.rank == A\n")
    assert not declared.safe_derived and declared.safe is not None
    assert declared.safe.text == "pile in foundations and run.top.rank == A"
    assert patience.find_variant("klondike-draw3").safe is None  # 'safe: false' there


@pytest.mark.parametrize(("body", "reason"), [
    ("piles:\n  foundations:\n    moves: run.size == 1\n",
     "not exactly one group whose cards never leave it (moves: false)"),
    ("piles:\n  columns:\n    accepts: pile.empty or run.bottom.rank == pile.top.rank + 1\n",
     "columns may build a card on one not higher in rank"),
    ("piles:\n  columns:\n    accepts: pile.empty or run.bottom.rank <= pile.top.rank\n",
     "columns may build a card on one not higher in rank"),
    (("piles:\n  columns:\n    accepts: \"pile.empty or (goes_on(run.bottom, pile.top) and "
     "count(f in foundations: f.empty) == 0)\"\n"),
     "a rule of columns reads more than the move's run, source and target pile"),
    (("piles:\n  columns:\n    accepts: \"pile.empty or (goes_on(run.bottom, pile.top) and "
     "(all f in foundations: f.size > 0))\"\n"),
     "a rule of columns reads more than the move's run, source and target pile"),
    ("piles:\n  columns:\n    moves: run.size <= 2\n", "columns moves runs of more than one card"),
    ("piles:\n  foundations:\n    accepts: not pile.empty and builds_on(run.top, pile.top)\n",
     "foundations accepts runs of more than one card"),
    (("piles:\n  foundations:\n    accepts: run.size == 1 and (pile.empty or "
     "builds_on(run.top, pile.top))\n"),
     "an empty pile of foundations may take a card other than an Ace"),
    (("piles:\n  foundations:\n    accepts: \"run.size == 1 and ((pile.empty and run.top.rank == A)"
     " or (not pile.empty and run.top.rank == pile.top.rank + 1))\"\n"),
     "foundations may take a card not the next of its suit"),
    ("win: \"all f in foundations: f.size >= 4\"\n",
     "the win is not 'every card on foundations' (all f in foundations: f.size == 5)"),
    ("piles:\n  columns:\n    face_down: [1, 1, 1, 1]\n", "columns deals cards face down"),
    ("decks: 2\npiles:\n  columns:\n    deal: [10, 10, 10, 10]\n", "more than one deck"),
    ("stock:\n  gather: {from: [columns], deal: 5, redeals: 1}\n",
     ("a redeal gathers piles and deals them again (a card sent home earlier changes what the "
     "redeal deals, and where)")),
])
def test_the_analysis_refuses_rules_outside_the_whitelist(body: str, reason: str) -> None:
    variant = child(body)
    assert variant.safe is None and not variant.safe_derived
    assert variant.safe_derivation is not None
    assert variant.safe_derivation.reason == reason


def test_reading_the_target_or_the_source_is_local() -> None:
    # the argument needs only that a rule reads the move's own run, source and target
    # (those are the same in the shortened line): sizes of the target are allowed
    variant = child("piles:\n  columns:\n    accepts: pile.empty or (goes_on(run.bottom, "
                    "pile.top) and pile.size < 9)\n")
    assert variant.safe_derived


def _agree(variant: patience.Variant, deals: range, budget: int) -> dict[str, int]:
    verdicts: dict[str, int] = {}
    for number in deals:
        game = variant.deal(number)
        reference = exhaustive_verdict(game, budget)
        if reference == "unknown":
            continue
        assert solve(game, 4 * budget, prove=True, shorten_line=False).verdict == reference, \
            number
        verdicts[reference] = verdicts.get(reference, 0) + 1
    return verdicts


TINY = ("ranks: 4\npiles:\n  columns:\n    count: 4\n    deal: [4, 4, 4, 4]\n"
        "win: \"all f in foundations: f.size == 4\"\n")


def test_the_derived_rule_agrees_with_the_exhaustive_reference() -> None:
    variant = child(TINY)
    assert variant.safe_derived
    verdicts = _agree(variant, range(1, 61), 20_000)
    assert verdicts.get("won", 0) > 0 and verdicts.get("unwinnable", 0) > 0


@pytest.mark.slow
def test_the_derived_rule_agrees_on_hundreds_of_deals() -> None:
    verdicts = _agree(child(TINY), range(1, 401), 50_000)
    assert verdicts.get("won", 0) > 0 and verdicts.get("unwinnable", 0) > 0
    assert sum(verdicts.values()) >= 300
    castle = child("ranks: 4\npiles:\n  columns:\n    count: 4\n    deal: [3, 3, 3, 3]\n"
                   "  foundations:\n    place: [AC, AD, AH, AS]\n    accepts: run.size == 1"
                   " and not pile.empty and builds_on(run.top, pile.top)\n"
                   "win: \"all f in foundations: f.size == 4\"\n")
    assert castle.safe_derived
    verdicts = _agree(castle, range(1, 201), 50_000)
    assert verdicts.get("won", 0) > 0 and verdicts.get("unwinnable", 0) > 0


@pytest.mark.slow
def test_the_battery_checks_a_derived_rule() -> None:
    from patience.testing.battery import run_safe_moves

    outcome = run_safe_moves(patience.find_variant(str(MINI)))
    assert outcome.status == "passed", outcome.message
