"""The guided search (patience.solver.guided): what it reads of the rules, the estimate it
ranks by, when a solve runs it and how it takes turns with the restarts, its proofs
against the plain exhaustive search, and the same search in both engines."""

from __future__ import annotations

from pathlib import Path

import pytest

import patience
from patience import native
from patience.cards import parse_card
from patience.game import Game
from patience.solver import exhaustive_verdict, solve
from patience.solver.guided import Guided, applies, make_estimate
from patience.solver.rules import solver_rules
from patience.solver.search import BUDGET, EXHAUSTED, WON

MINI = Path(__file__).parent / "variants"
needs_native = pytest.mark.skipif(not native.AVAILABLE, reason=str(native.REASON))


def mini(name: str) -> patience.Variant:
    return patience.find_variant(str(MINI / f"{name}.yaml"))


def cards(*names: str) -> set[int]:
    return {parse_card(name) for name in names}


def members(bits: int) -> set[int]:
    return {card for card in range(64) if bits >> card & 1}


# --- what it reads of the rules -----------------------------------------------------------


def test_the_home_tables_are_the_cards_a_foundation_may_take():
    guided = solver_rules(patience.find_variant("freecell")).guided
    assert guided is not None
    [(start, stop, on_empty, rows)] = guided.homes
    assert (start, stop) == (12, 16)  # f1-f4, after eight columns and four cells
    assert members(on_empty) == cards("AC", "AD", "AH", "AS")
    assert members(rows[parse_card("5S")]) == cards("6S")
    assert members(rows[parse_card("KH")]) == set()
    # Penguin's foundations start at the beak's rank, which no rule fixes before the deal:
    # an empty one may take any card, which tells nothing (0); on a card, the next of its
    # suit, round the corner
    [(_, _, on_empty, rows)] = solver_rules(patience.find_variant("penguin")).guided.homes
    assert on_empty == 0
    assert members(rows[parse_card("KH")]) == cards("AH")


def test_it_applies_where_no_stock_is_dealt_and_runs_tell_order():
    for name, guided in [("freecell", True), ("bakers-game", True), ("seahaven-towers", True),
                         ("simple-simon", True), ("penguin", True), ("free-fan", True),
                         ("klondike", False), ("spider", False), ("golf", False),
                         ("black-hole", False), ("fan", False), ("yukon", False),
                         ("la-belle-lucie", False)]:
        rules = solver_rules(patience.find_variant(name))
        assert (rules.guided is not None) is guided, name
    rules = solver_rules(patience.find_variant("freecell"))
    assert applies(rules, []) and not applies(rules, [parse_card("AS")])


def test_the_estimate_of_a_position_worked_by_hand():
    variant = patience.find_variant("freecell")
    game = Game.from_text(variant, "c:KHQSJH/TS/KD/QCJD/KSTH/QHTC/JCTD/KCQDJS a:9D/// "
                          "f:AC2C3C4C5C6C7C8C9C/AD2D3D4D5D6D7D8D/AH2H3H4H5H6H7H8H9H/"
                          "AS2S3S4S5S6S7S8S9S s:")
    estimate = make_estimate(solver_rules(variant).guided, len(variant.pile_names))
    # 35 cards home; three empty cells; one card parked (9D); two cards under a top run
    # (KS under TH, QH under TC); the cards the foundations take next (TC, 9D, TH, TS) all
    # lie on top: 2 x 2 + 2 x 1 + 1 x 0 - 5 x 35 - 3 x 3
    assert estimate(game.piles) == -178
    # the same cards, the King of Spades on the Ten of Spades: the Ten one card deep
    buried = Game.from_text(variant, "c:KHQSJH/TSKS/KD/QCJD/TH/QHTC/JCTD/KCQDJS a:9D/// "
                            "f:AC2C3C4C5C6C7C8C9C/AD2D3D4D5D6D7D8D/AH2H3H4H5H6H7H8H9H/"
                            "AS2S3S4S5S6S7S8S9S s:")
    # TS under KS (1) and QH under TC (1) under top runs, TS one deep: 4 + 2 + 1 - 175 - 9
    assert estimate(buried.piles) == -177


# --- a solve's turns ---------------------------------------------------------------------------


def test_it_takes_turns_with_the_restarts():
    # Free Fan's deal 25: the guided search's first turn (500 positions) finds nothing, the
    # first restart (500) wins in 213; FreeCell's deal 1 is won within the first turn
    fan = patience.find_variant("free-fan").deal(25)
    alone = solve(fan, 100_000, shorten_line=False, guides=False, engine="python")
    both = solve(fan, 100_000, shorten_line=False, engine="python")
    assert (alone.verdict, alone.positions) == ("won", 213)
    assert (both.verdict, both.positions) == ("won", 500 + 213)
    assert both.moves == alone.moves
    freecell = patience.find_variant("freecell").deal(1)
    result = solve(freecell, 100_000, shorten_line=False, engine="python")
    assert result.verdict == "won" and result.positions < 500
    assert solve(freecell, 100_000, shorten_line=False, guides=False,
                 engine="python").positions > 500


def test_a_guided_search_that_runs_out_of_positions_is_a_proof():
    # run alone to the end on a reduced deck, it wins where the plain exhaustive search
    # finds a win and is exhausted exactly where that search proves the deal lost
    variant = mini("mini-freecell")
    rules = solver_rules(variant)
    outcomes: dict[tuple[str, str], int] = {}
    for number in range(4, 12):  # three lost (4, 8, 10), each reference search quick
        game = variant.deal(number)
        guided = Guided(rules, game.piles)
        outcome = guided.run(10**6)
        reference = exhaustive_verdict(game, max_positions=200_000)
        outcomes[outcome, reference] = outcomes.get((outcome, reference), 0) + 1
        if outcome == WON:
            probe = game.copy()
            for move in guided.line:
                probe.push(probe.notation(move))
            assert probe.is_won()
    assert set(outcomes) == {(WON, "won"), (EXHAUSTED, "unwinnable")}
    assert outcomes[EXHAUSTED, "unwinnable"] >= 3


def test_a_turn_goes_on_where_the_last_stopped():
    game = patience.find_variant("freecell").deal(3)
    rules = solver_rules(game.variant)
    whole = Guided(rules, game.piles)
    assert whole.run(10**6) == WON
    turns = Guided(rules, game.piles)
    spent = 0
    while (outcome := turns.run(7)) == BUDGET:
        spent += turns.expanded
    assert outcome == WON and spent + turns.expanded == whole.expanded
    assert turns.line == whole.line


# --- both engines ------------------------------------------------------------------------------


@needs_native
@pytest.mark.parametrize("name", ["freecell", "bakers-game", "seahaven-towers", "penguin",
                                  "simple-simon", "free-fan"])
def test_both_engines_run_the_same_search(name):
    variant = patience.find_variant(name)
    for number in (1, 2, 3):
        game = variant.deal(number)
        reference = solve(game, 5_000, shorten_line=False, engine="python")
        core = solve(game, 5_000, shorten_line=False, engine="native")
        assert (core.verdict, core.positions, core.moves) == \
            (reference.verdict, reference.positions, reference.moves), (name, number)


@needs_native
def test_the_core_keeps_the_guided_search_within_the_memory_cap():
    game = patience.find_variant("freecell").deal(1)
    result = solve(game, 1_000_000, engine="native", max_memory=20_000)
    assert result.verdict == "unknown"
    assert solve(game, 1_000_000, engine="native").verdict == "won"
