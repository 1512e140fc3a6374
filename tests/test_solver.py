"""The solver: verdicts, replayable winning lines, agreement with an exhaustive search.

The reduced-deck variants under ``tests/variants/`` (ranks A-6) are small enough for a
plain exhaustive search over exact positions, the reference the solver must agree with.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import patience
import patience.cards
import patience.solver
from patience.cli.main import main
from patience.solver import (
    SolveResult,
    daily_deal,
    daily_seed,
    exhaustive_verdict,
    first_winnable_deal,
    hint,
    solve,
)
from patience.solver.rules import requires_empty_pile, solver_rules

MINI = Path(__file__).parent / "variants"
ROOT = Path(__file__).resolve().parent.parent


def mini(name: str) -> patience.Variant:
    return patience.find_variant(str(MINI / f"{name}.yaml"))


def replays_to_a_win(game: patience.Game, moves: tuple[str, ...]) -> bool:
    probe = game.copy()
    for move in moves:
        probe.push(move)  # checked: raises MoveError on an illegal move
    return probe.is_won()


@pytest.mark.parametrize("name", ["tabbycat-autoremove", "tabbycat", "manx"])
def test_won_lines_replay_through_the_kernel(name):
    # a position budget and no time limit: the same verdicts on any machine
    variant = patience.find_variant(name)
    for number in (1, 2, 3):
        game = variant.deal(number)
        result = solve(game, max_positions=20_000)
        assert result.verdict == "won", f"{name} deal {number}"
        assert replays_to_a_win(game, result.moves)
        assert 0 < result.positions <= 20_000


@pytest.mark.parametrize("name", ["mini-tight", "mini-tight-autoremove"])
def test_solver_agrees_with_exhaustive_search_on_reduced_decks(name):
    variant = mini(name)
    verdicts = set()
    for number in range(1, 31):
        game = variant.deal(number)
        result = solve(game, max_positions=500_000)
        reference = exhaustive_verdict(game)
        assert result.verdict == reference, f"{name} deal {number}"
        if result.verdict == "won":
            assert replays_to_a_win(game, result.moves)
        verdicts.add(reference)
    assert verdicts == {"won", "unwinnable"}  # both verdicts were exercised


@pytest.mark.parametrize("name", ["mini-tabbycat-autoremove", "mini-suited"])
def test_solver_agrees_on_other_reduced_variants(name):
    variant = mini(name)
    for number in range(1, 9):
        game = variant.deal(number)
        result = solve(game, max_positions=200_000)
        assert result.verdict == exhaustive_verdict(game), f"{name} deal {number}"
        if result.verdict == "won":
            assert replays_to_a_win(game, result.moves)


def test_won_lines_replay_on_a_variant_with_foundation_return():
    # mini-corner's space is too big for the unordered reference search; check lines only
    variant = mini("mini-corner")
    for number in (1, 2):
        game = variant.deal(number)
        result = solve(game, max_positions=100_000)
        assert result.verdict == "won" and replays_to_a_win(game, result.moves)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "deals"), [("mini-tight", 200), ("mini-tight-autoremove", 200),
                                             ("mini-tabbycat-autoremove", 100),
                                             ("mini-suited", 100)])
def test_solver_agrees_with_exhaustive_search_on_many_deals(name, deals):
    variant = mini(name)
    for number in range(1, deals + 1):
        game = variant.deal(number)
        reference = exhaustive_verdict(game, max_positions=2_000_000)
        if reference == "unknown":  # too big for the reference search
            continue
        result = solve(game, max_positions=2_000_000)
        assert result.verdict == reference, f"{name} deal {number}"


def test_budget_exhaustion_is_unknown_never_unwinnable():
    variant = mini("mini-tight")
    lost = [4, 25, 29, 36]  # the exhaustive search's unwinnable deals among 1-40
    assert all(exhaustive_verdict(variant.deal(n)) == "unwinnable" for n in lost)
    for number in lost:
        for budget in (1, 2, 10, 100):  # all below the size of these deals' spaces
            result = solve(variant.deal(number), max_positions=budget)
            assert result.verdict == "unknown"
            assert result.positions <= budget


class LeapingClock:
    """A stand-in for the solver's ``time`` module whose clock moves an hour at each reading,
    so any time limit runs out at the solver's first look at the clock: no race with the
    machine's real speed."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 3600.0
        return self.now


def test_time_limit_gives_unknown(monkeypatch):
    import patience.solver.search

    clock = LeapingClock()
    monkeypatch.setattr(patience.solver, "time", clock)
    monkeypatch.setattr(patience.solver.search, "time", clock)
    game = patience.find_variant("tabbycat").deal(16)  # won, after 13,036 positions
    result = solve(game, max_positions=10**9, time_limit=60, engine="python")  # its clock
    assert result.verdict == "unknown" and result.moves == ()
    assert 0 < result.positions < 13_036  # stopped early, at the first clock check
    monkeypatch.undo()
    assert solve(game, max_positions=10**9, time_limit=None).verdict == "won"


def test_solve_leaves_the_game_unchanged():
    game = patience.find_variant("tabbycat-autoremove").deal(5)
    game.push("d")
    before = game.text(), list(game.move_stack)
    solve(game, max_positions=5_000)
    assert (game.text(), list(game.move_stack)) == before


def test_won_position_has_empty_line():
    variant = mini("mini-tabbycat-autoremove")
    game = variant.deal(1)
    result = solve(game)
    for move in result.moves:
        game.push(move)
    again = solve(game)
    assert again == SolveResult("won", (), 1, again.seconds, again.engine)


def test_arguments_are_checked():
    game = patience.find_variant("tabbycat").deal(1)
    with pytest.raises(ValueError, match="max_positions"):
        solve(game, max_positions=0)
    with pytest.raises(ValueError, match="time_limit"):
        solve(game, time_limit=-1)


def test_rules_derived_from_the_compiled_variant():
    autoremove = solver_rules(patience.find_variant("tabbycat-autoremove"))
    assert autoremove.card_table[patience.cards.parse_card("TS")] == 10 * 4
    assert solver_rules(mini("mini-suited")).card_table[patience.cards.parse_card("5S")] \
        == patience.cards.parse_card("5S")
    tabbycat = patience.find_variant("tabbycat")
    foundations = tabbycat.group_by_name["foundations"]
    assert requires_empty_pile(foundations)


def test_key_sorts_columns_only_once_the_stock_is_empty():
    rules = solver_rules(patience.find_variant("tabbycat"))
    piles = [[4], [8], [12], [16], [], [], [], [], []]
    swapped = [[8], [4], [12], [16], [], [], [], [], []]
    assert rules.key(piles, [20]) != rules.key(swapped, [20])
    assert rules.key(piles, []) == rules.key(swapped, [])
    suits = [[5], [8], [12], [16], [], [], [], [], []]  # 5 = AD, 4 = AC: suits not read
    assert rules.key(piles, []) == rules.key(suits, [])


def test_hint_is_the_first_move_of_a_winning_line():
    game = patience.find_variant("tabbycat-autoremove").deal(1)
    move, result = hint(game)
    assert result.verdict == "won" and move == result.moves[0]
    game.push(move)


def test_first_winnable_deal_and_daily_deal_are_deterministic():
    variant = mini("mini-tight")
    number, result = first_winnable_deal(variant, 1)
    assert result.verdict == "won"
    assert all(exhaustive_verdict(variant.deal(n)) == "unwinnable" for n in range(1, number))
    day = datetime.date(2026, 11, 30)
    # the documented seed: the first 8 bytes of sha256("patience-daily:ID:YYYY-MM-DD")
    digest = hashlib.sha256(b"patience-daily:mini-tight:2026-11-30").digest()
    assert daily_seed(variant, day) == int.from_bytes(digest[:8], "big") == 7717873799836649017
    assert daily_seed(variant, day) != daily_seed(variant, datetime.date(2026, 12, 1))
    number, result = daily_deal(variant, day)
    assert number == first_winnable_deal(variant, daily_seed(variant, day))[0]
    assert result.verdict == "won" and replays_to_a_win(variant.deal(number), result.moves)


# --- command line -----------------------------------------------------------------------


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_cli_solve_json():
    code, output = run("solve", "tabbycat-autoremove", "--seed", "1", "--json")
    assert code == 0
    data = json.loads(output)
    assert set(data) == {"variant", "deal", "verdict", "moves", "positions", "seconds",
                         "information", "engine"}
    assert data["information"] == "full"
    assert data["verdict"] == "won" and data["deal"] == 1
    game = patience.find_variant("tabbycat-autoremove").deal(1)
    assert replays_to_a_win(game, tuple(data["moves"].split()))


def test_cli_solve_text_and_hint():
    code, output = run("solve", "tabbycat-autoremove", "--seed", "1", "--moves", "d")
    assert code == 0 and output.startswith("won")
    code, output = run("hint", "tabbycat-autoremove", "--seed", "1")
    first = solve(patience.find_variant("tabbycat-autoremove").deal(1)).moves[0]
    assert code == 0 and output == (f"{first}  (from the full deal: the solver sees the "
                                    "stock's order and any face-down cards)\n")


def test_a_hint_from_the_view_never_reads_the_hidden_cards():
    variant = patience.find_variant(str(ROOT / "docs" / "examples" / "little-klondike.yaml"))
    game = variant.deal(1)
    hidden = patience.solver.hint_from_view(game, samples=6, max_positions=5_000)
    assert hidden.won >= 1 and hidden.move is not None
    # the same visible position with other hidden cards gives the same hint
    other = game.copy()
    down = [(i, j) for i, pile in enumerate(other.piles) for j, card in enumerate(pile)
            if card & patience.cards.FACE_DOWN]
    cards = [other.piles[i][j] for i, j in down] + other.stock
    cards = cards[1:] + cards[:1]
    for (i, j), card in zip(down, cards):
        other.piles[i][j] = card | patience.cards.FACE_DOWN
    other.stock[:] = [c & ~patience.cards.FACE_DOWN for c in cards[len(down):]]
    assert patience.solver.hint_from_view(other, samples=6, max_positions=5_000) == hidden
    code, output = run("solve", "tabbycat", "--seed", "16", "--max-positions", "5")
    assert code == 0 and output.startswith("unknown")


def test_cli_deal_winnable_and_daily():
    path = str(MINI / "mini-tight.yaml")
    code, output = run("deal", path, "--winnable", "--from", "1")
    assert code == 0
    number = int(output.split()[0])
    assert solve(mini("mini-tight").deal(number)).verdict == "won"
    code, output = run("daily", path, "--date", "2026-11-30")
    assert code == 0 and output.split()[0].isdigit()
    code, output = run("daily", path, "--date", "30/11/2026")
    assert code == 2


def test_shorten_cuts_a_detour_and_the_line_still_wins():
    from patience.solver import shorten

    game = patience.find_variant("tabbycat").deal(3)
    probe = game.copy()
    detour = []
    for text in ("c1:1-t", "t:1-c1"):  # park a card in the tail and fetch it back
        move = probe.parse_move(text)
        probe.push(move)
        detour.append(tuple(move))
    assert probe.key() == game.key()
    line = []
    for text in solve(game).moves:
        move = probe.parse_move(text)
        probe.push(move)
        line.append(tuple(move))
    assert probe.is_won()
    cut = shorten(game, detour + line)
    assert len(cut) <= len(line)
    replay = game.copy()
    for move in cut:
        replay.push(move)  # checked: every move is legal
    assert replay.is_won()
