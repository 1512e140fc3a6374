"""The layered beam (patience.solver.beam): the rows and the disorder it ranks by, when a
solve runs it, the same search in both engines, and the wins it finds that the depth-first
restarts do not."""

from __future__ import annotations

from pathlib import Path

import pytest

import patience
from patience import native
from patience.cards import parse_card
from patience.solver import solve
from patience.solver.beam import (
    BEAM_FROM,
    BEAM_WIDTH,
    MAX_BEAM_WIDTH,
    Beam,
    BeamSchedule,
    applies,
    disorder,
)
from patience.solver.rules import solver_rules
from patience.solver.search import BUDGET, WON

MINI = Path(__file__).parent / "variants"
needs_native = pytest.mark.skipif(not native.AVAILABLE, reason=str(native.REASON))


def mini(name: str) -> patience.Variant:
    return patience.find_variant(str(MINI / f"{name}.yaml"))


def may_lie_on(rows: tuple[int, ...], above: str, below: str) -> bool:
    return bool(rows[parse_card(below)] >> parse_card(above) & 1)


def replays_to_a_win(game: patience.Game, moves: tuple[str, ...] | list[str]) -> bool:
    probe = game.copy()
    for move in moves:
        probe.push(move)  # checked: raises MoveError on an illegal move
    return probe.is_won()


# --- what the beam reads of the rules --------------------------------------------------------


def test_the_rows_are_the_pairs_the_moves_rule_lets_move_together():
    tabby = solver_rules(patience.find_variant("tabbycat"))
    columns = tabby.sequence_rows_of[0]
    assert may_lie_on(columns, "8D", "9S") and may_lie_on(columns, "8S", "9S")
    assert may_lie_on(columns, "KH", "AC")  # wrap: a King on an Ace
    assert not may_lie_on(columns, "9S", "8D") and not may_lie_on(columns, "7D", "9S")
    # the tail's run leaves whole (run.size == pile.size): no pairs; the foundations none
    assert set(tabby.sequence_rows_of) == {0, 1, 2, 3}
    loose = solver_rules(patience.find_variant("tabbycat-loosetail")).sequence_rows_of
    assert set(loose) == {0, 1, 2, 3, 4} and loose[4] == columns  # in_sequence(run) too
    nowrap = solver_rules(patience.find_variant("tabbycat-nowrap")).sequence_rows_of[0]
    assert not may_lie_on(nowrap, "KH", "AC") and may_lie_on(nowrap, "8D", "9S")
    klondike = solver_rules(patience.find_variant("klondike-vegas")).sequence_rows_of[0]
    assert may_lie_on(klondike, "8D", "9S") and not may_lie_on(klondike, "8C", "9S")
    spider = solver_rules(patience.find_variant("spider")).sequence_rows_of[0]
    assert may_lie_on(spider, "8S", "9S") and not may_lie_on(spider, "8D", "9S")
    # only single cards move in Golf and Scorpion's moves rule reads the pile: no rows
    assert solver_rules(patience.find_variant("golf")).sequence_rows_of == {}


def test_the_beam_applies_where_the_stock_never_comes_back():
    # Golf, Aces Up and Scorpion deal and never redeal, but no rule of theirs says which
    # cards form a run: no beam
    for name, layers in [("mainecoon", True), ("spider", True), ("golf", False),
                         ("aces-up", False), ("scorpion", False), ("will-o-the-wisp", True),
                         ("klondike-vegas", True), ("klondike", False), ("canfield", False),
                         ("freecell", False), ("yukon", False)]:
        rules = solver_rules(patience.find_variant(name))
        assert rules.beam_layers is layers, name
    rules = solver_rules(patience.find_variant("tabbycat"))
    assert applies(rules, [1, 2]) and not applies(rules, [])


def test_disorder_counts_breaks_face_down_cards_empty_piles_and_cards_home():
    variant = patience.find_variant("tabbycat")
    rules = solver_rules(variant)
    # c1: 4C 9H 8C 7H = one break (4C under 9H); c2: 5S AH = one; c3: KS; c4 empty; the
    # tail 3H 2S AC: none; a set home (13 cards); the other cards in the stock
    shown = "4C9H8C7H/5SAH/KS/", "3H2SAC", "KDQDJDTD9D8D7D6D5D4D3D2DAD"
    used = {code for part in shown for code in (part.replace("/", "")[i:i + 2]
                                                for i in range(0, len(part.replace("/", "")), 2))}
    stock = "".join(code for code in (r + s for s in "CDHS" for r in "A23456789TJQK")
                    if code not in used)
    game = variant.position(f"c:{shown[0]} t:{shown[1]} f:{shown[2]}/// s:{stock}")
    assert disorder(rules, game.piles) == 10 * 2 - 3 * 1 - 13
    klondike = patience.find_variant("klondike-vegas")
    game = klondike.deal(1)
    down = sum(len(pile) - 1 for pile in game.piles[:7])  # 21 face down, tops face up
    empty = sum(1 for pile in game.piles if not pile) - 4  # waste; not the foundations
    assert disorder(solver_rules(klondike), game.piles) == 10 * down - 3 * empty


def test_the_schedule_shares_the_budget_with_the_restarts():
    schedule = BeamSchedule(True)
    assert schedule.next_width() == 0
    schedule.restart_spent(BEAM_FROM - 1)
    assert schedule.next_width() == 0
    schedule.restart_spent(1)
    assert schedule.next_width() == BEAM_WIDTH
    schedule.beam_spent(70_000)
    assert schedule.next_width() == 0  # never two beams in a row
    schedule.restart_spent(69_999)  # restarts 89,999 < beams + BEAM_FROM = 90,000
    assert schedule.next_width() == 0
    schedule.restart_spent(1)
    assert schedule.next_width() == 2 * BEAM_WIDTH
    for _ in range(40):
        schedule.beam_spent(0)
        schedule.restart_spent(BEAM_FROM)
    assert schedule.next_width() == MAX_BEAM_WIDTH
    off = BeamSchedule(False)
    off.restart_spent(10**9)
    assert off.next_width() == 0


# --- what it finds ---------------------------------------------------------------------------


@pytest.mark.slow  # 6 s
def test_the_beam_wins_what_one_depth_first_search_does_not():
    # tabbycat-nowrap deal 1197: one depth-first search of 30,000,000 positions and the
    # restarts of 30,000,000 left it unknown (solver 1.6); the beam wins it at once
    variant = patience.find_variant("tabbycat-nowrap")
    game = variant.deal(1197)
    beam = Beam(solver_rules(variant), game.piles, game.stock, lost=set())
    assert beam.run(BEAM_WIDTH, 50_000) == WON
    assert beam.expanded < 20_000
    probe = game.copy()
    for move in beam.line:
        probe.push(probe.notation(move))
    assert probe.is_won()
    # the first 100,000 positions of a solve go to the restarts alone, then comes a beam
    assert solve(game, BEAM_FROM, engine="python").verdict == "unknown"
    result = solve(game, BEAM_FROM + 20_000, engine="python")
    assert result.verdict == "won" and replays_to_a_win(game, result.moves)
    assert result.positions == BEAM_FROM + beam.expanded
    # without beams, the search of solver 1.6: the same budget leaves it unknown
    assert solve(game, BEAM_FROM + 20_000, engine="python", beams=False).verdict == "unknown"


def test_a_beam_proves_nothing():
    # a mini Tabby Cat deal that is unwinnable: the beam ends as BUDGET, the solve's
    # restarts prove it
    variant = mini("mini-tight")
    rules = solver_rules(variant)
    for number in range(1, 30):
        game = variant.deal(number)
        if solve(game, 200_000, prove=True, engine="python").verdict == "unwinnable":
            break
    else:
        pytest.fail("no unwinnable deal of mini-tight among deals 1-29")
    beam = Beam(rules, game.piles, game.stock, lost=set())
    assert beam.run(BEAM_WIDTH, 1_000_000) == BUDGET
    assert 0 < beam.expanded < 1_000_000


# --- the same search in both engines ----------------------------------------------------------


def same_beam(game: patience.Game, width: int, budget: int) -> dict[str, object]:
    """The beam in both engines, from ``game``: the same outcome, positions and line."""
    rules = solver_rules(game.variant)
    beam = Beam(rules, game.piles, game.stock, lost=set())
    outcome = beam.run(width, budget)
    core = native.core(game.variant).beam([list(p) for p in game.piles], list(game.stock),
                                          width, budget)
    assert (core["outcome"], core["positions"], [tuple(m) for m in core["line"]]) == \
        (outcome, beam.expanded, beam.line), game.text()
    return core


@needs_native
@pytest.mark.parametrize(("name", "deals", "width", "budget"), [
    pytest.param("tabbycat-nowrap", (1197, 5359), 50, 50_000, marks=pytest.mark.slow),
    ("mini-tight", range(1, 9), 8, 20_000),
    pytest.param("mini-manx", range(1, 5), 8, 20_000, marks=pytest.mark.slow),
    ("mini-spider", range(1, 4), 8, 20_000),        # face down, sets leave at once
    ("mini-scorpion", range(1, 4), 8, 20_000),
    ("mini-forty-thieves", range(1, 4), 8, 20_000),  # a waste
    ("mini-aces-up", range(1, 4), 8, 20_000),
    ("mini-miss-milligan", range(1, 4), 8, 20_000),
    ("mini-golf", range(1, 4), 8, 20_000),
    pytest.param("miss-milligan", range(1, 4), 50, 60_000, marks=pytest.mark.slow),
    pytest.param("will-o-the-wisp", range(1, 3), 50, 60_000, marks=pytest.mark.slow),
    pytest.param("fortunes-favor", range(1, 3), 50, 30_000, marks=pytest.mark.slow),
    pytest.param("klondike-vegas", range(1, 3), 50, 30_000, marks=pytest.mark.slow),
])
def test_the_beam_is_the_same_search_in_both_engines(name, deals, width, budget):
    variant = mini(name) if name.startswith("mini") else patience.find_variant(name)
    outcomes = set()
    for number in deals:
        game = variant.deal(number)
        core = same_beam(game, width, budget)
        outcomes.add(core["outcome"])
        if core["outcome"] == "won":
            probe = game.copy()
            for move in core["line"]:
                probe.push(probe.notation(tuple(move)))
            assert probe.is_won()
    if name == "tabbycat-nowrap":
        assert outcomes == {"won"}


@needs_native
@pytest.mark.parametrize(("name", "deals", "budget"), [
    ("tabbycat-nowrap", (1197,), 120_000),
    pytest.param("mainecoon", (13,), 200_000, marks=pytest.mark.slow),
    pytest.param("miss-milligan", (3,), 160_000, marks=pytest.mark.slow),
])
def test_solves_with_beams_are_the_same_search_in_both_engines(name, deals, budget):
    variant = patience.find_variant(name)
    for number in deals:
        game = variant.deal(number)
        python = solve(game, budget, engine="python")
        core = solve(game, budget, engine="native")
        assert (core.verdict, core.positions, core.moves) == \
            (python.verdict, python.positions, python.moves), number


@needs_native
def test_a_beam_under_a_memory_cap_ends_as_unknown():
    game = patience.find_variant("mainecoon").deal(1)
    result = solve(game, 5_000_000, engine="native", max_memory=8 << 20)
    assert result.verdict == "unknown" and result.positions < 5_000_000
    found = native.core(game.variant).beam([list(p) for p in game.piles], list(game.stock),
                                           BEAM_WIDTH, 5_000_000, 4 << 20)
    assert found["outcome"] == "memory"
