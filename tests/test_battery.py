"""The invariant battery: shipped variants pass it, and it catches a broken kernel."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from shipped import variant_params

import patience
import patience.moves
import patience.native
from patience.game import Game
from patience.testing import CHECKS, move_sequences, play_machine, positions, run_battery
from patience.testing.battery import (
    BatteryFailure,
    check_forced_removal_complete,
    reference_deck,
    run_check,
)
from patience.variant import load_variant_text

FAST = settings(max_examples=10, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("name", variant_params(few=True))
def test_shipped_variants_pass_the_battery(name):
    report = run_battery(patience.find_variant(name), examples=6, derandomize=True)
    failures = [o.message for o in report.outcomes if o.status == "failed"]
    assert not failures, "\n\n".join(failures)


# --- the strategies ----------------------------------------------------------------------


@FAST
@given(move_sequences(patience.find_variant("manx"), max_moves=15))
def test_move_sequences_are_legal_one_after_another(start_and_moves):
    start, moves = start_and_moves
    game = start.copy()
    for move in moves:
        game.push(move)  # raises if a move is not legal here


@FAST
@given(positions(patience.find_variant("tabbycat-autoremove"), max_moves=15))
def test_positions_replay_from_their_start(game):
    replay = game.start()
    for move in game.move_stack:
        replay.push(move)
    assert replay == game


TabbyCatMachine = play_machine(patience.find_variant("tabbycat-corner"))
TabbyCatMachine.TestCase.settings = settings(max_examples=5, stateful_step_count=15,
                                             deadline=None, database=None)
TestTabbyCatPlayUndoRedo = TabbyCatMachine.TestCase


def test_reference_deck_is_the_rules_example():
    # docs/rules.md: deal 1 starts 7D 9C 4D
    assert [patience.cards.card_code(c) for c in reference_deck(1, 1, 13)[:3]] == \
        ["7D", "9C", "4D"]


# --- it catches a broken kernel ----------------------------------------------------------


def fresh(name: str = "tabbycat"):
    """A compiled variant of our own (not the cached one), safe to break."""
    variant = patience.find_variant(name)
    return load_variant_text(variant.text, str(variant.path))


def test_a_generator_that_forgets_moves_is_caught_with_a_counterexample():
    variant = fresh()
    real = variant.generate_moves

    def forgetful(piles, stock):  # never generates a move into the tail
        return [m for m in real(piles, stock) if m[2] != variant.pile_index["t"]]

    variant.generate_moves = forgetful
    outcome = run_check(variant, CHECKS["generated_iff_explained"], examples=20)
    assert outcome.status == "failed"
    assert "-t is not generated, but explain finds no rule against it" in outcome.message
    for label in ("start:", "moves:", "position:", "show it:  patience show"):
        assert label in outcome.message


@pytest.mark.skipif(not patience.native.AVAILABLE, reason=str(patience.native.REASON))
def test_a_native_core_that_forgets_a_move_is_caught(monkeypatch):
    real = patience.native.generate_moves

    def forgetful(game):  # never generates a move into the tail
        return [m for m in real(game) if m[2] != game.variant.pile_index["t"]]

    monkeypatch.setattr(patience.native, "generate_moves", forgetful)
    outcome = run_check(fresh(), CHECKS["engines_agree"], examples=100)
    assert outcome.status == "failed"
    assert "engines_agree: the native core generates [" in outcome.message
    assert "] but the reference [" in outcome.message and "-t" in outcome.message


def test_a_pop_that_does_not_restore_is_caught(monkeypatch):
    real = Game.pop

    def sloppy(self):  # leaves the top card of a run of several behind
        move = real(self)
        if move.count > 1:
            self.piles[move.target].append(self.piles[move.source].pop())
        return move

    monkeypatch.setattr(Game, "pop", sloppy)
    outcome = run_check(fresh(), CHECKS["push_pop_restores"], examples=50)
    assert outcome.status == "failed"
    assert "not the position before it" in outcome.message


def test_a_deal_that_skips_a_column_is_caught(monkeypatch):
    real = patience.moves.deal_from_stock

    def skipping(variant, piles, stock):
        received = real(variant, piles, stock)
        if received and received[0] == 0:  # take c1's card back to the stock
            stock.append(piles[0].pop())
            received = received[1:]
        return received

    monkeypatch.setattr(patience.moves, "deal_from_stock", skipping)
    outcome = run_check(fresh(), CHECKS["pile_capacities"], examples=40)
    assert outcome.status == "failed"
    assert "the deal did not put one card on each" in outcome.message


def test_a_gathering_redeal_that_swaps_two_cards_is_caught(monkeypatch):
    real = patience.moves.gather_piles

    def swapping(gather, piles):
        undo = real(gather, piles)
        first = next(i for i in gather.piles if len(piles[i]) >= 2)
        piles[first][-1], piles[first][-2] = piles[first][-2], piles[first][-1]
        return undo

    monkeypatch.setattr(patience.moves, "gather_piles", swapping)
    variant = load_variant_text(patience.find_variant("cruel").flat_text(), "cruel.yaml")
    outcome = run_check(variant, CHECKS["pile_capacities"], examples=20)
    assert outcome.status == "failed"
    assert "the redeal did not gather c1, c2" in outcome.message


def test_a_forced_removal_left_undone_is_caught():
    variant = fresh("tabbycat-autoremove")
    variant.first_forced = lambda piles, stock: None  # the kernel forgets forced removals
    variant.play, variant.take_back = patience.moves.make_player(variant)
    kings_to_aces = "".join(f"{r}C" for r in "KQJT98765432A")
    rest = [c for c in variant.deck if (c & 3) != 0]
    stock = "".join(patience.cards.card_code(c) for c in rest)
    game = variant.position(f"c:{kings_to_aces}/// t: f:/// s:{stock}")
    with pytest.raises(BatteryFailure, match="the rules let the top 13 cards of c1 go to f1"):
        check_forced_removal_complete(game)


def test_won_position_with_moves_is_caught():
    variant = fresh()
    real = variant.generate_moves
    variant.generate_moves = lambda piles, stock: real(piles, stock) or [(-1, 0, -1)]
    variant.is_won = lambda piles, stock: True
    outcome = run_check(variant, CHECKS["won_has_no_moves"], examples=5)
    assert outcome.status == "failed"


# --- the pytest plugin and the command line ----------------------------------------------


def test_the_pytest_plugin_runs_the_battery_and_prints_the_counterexample(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text(textwrap.dedent("""\
        extends: tabbycat
        id: broken
        description: Four columns built down in any suit; a tail holds one run.
        piles:
          tail:
            accepts: source in columns
        """), encoding="utf-8")
    from importlib.metadata import entry_points

    installed = any(e.value == "patience.pytest_plugin" for e in entry_points(group="pytest11"))
    plugin = [] if installed else ["-p", "patience.pytest_plugin"]
    result = subprocess.run(
        [sys.executable, "-m", "pytest", *plugin, "-p",
         "no:cacheprovider", "-q", "--patience-variant", str(broken),
         "--patience-variant", "manx", "--patience-examples", "3",
         "-k", "lint or round_trips", str(tmp_path)],
        capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "broken.yaml-lint" in result.stdout
    assert "says 'tail holds one run'" in result.stdout
    assert "manx-lint" not in result.stdout.split("short test summary")[-1]
    assert "1 failed, 3 passed" in result.stdout


def test_the_plugin_module_adds_options_without_loading_the_battery():
    code = ("import sys, patience.pytest_plugin; "
            "print('patience.testing' in sys.modules, 'hypothesis' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False)
    assert out.stdout.split() == ["False", "False"]


def test_patience_test_command():
    from patience.cli.main import main

    runner = CliRunner()
    ok = runner.invoke(main, ["test", "manx", "--examples", "3", "--check", "round_trips",
                              "--check", "lint"])
    assert ok.exit_code == 0, ok.output
    assert "ok   round_trips" in ok.output and "all 2 checks passed" in ok.output
    unknown = runner.invoke(main, ["test", "manx", "--check", "nothing"])
    assert unknown.exit_code == 2


def test_patience_test_runs_the_solves_on_the_engine_asked_for():
    done = subprocess.run([sys.executable, "-m", "patience", "test", "tabbycat", "--engine",
                           "python", "--examples", "20", "--check", "solver_lines_replay"],
                          check=False, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "20 examples per check, solver engine: python" in done.stdout
    assert "ok   solver_lines_replay" in done.stdout


def test_patience_test_reports_a_file_that_does_not_load(tmp_path):
    from patience.cli.main import main

    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\nname: Bad\ndescription: x\npiles: {}\nwin: nope\n")
    result = CliRunner().invoke(main, ["test", str(bad)])
    assert result.exit_code == 2
    assert "bad.yaml:" in result.output


@pytest.mark.parametrize("name", ["patience.testing", "patience.testing.strategies",
                                  "patience.testing.battery", "patience.testing.lint"])
def test_docstring_examples(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def test_near_win_positions_reach_won_games():
    from hypothesis import find

    from patience.testing.battery import check_forced_removal_complete as forced_check
    from patience.testing.battery import check_won_has_no_moves

    variant = patience.find_variant("tabbycat-autoremove")
    won = find(positions(variant, near_wins=True), lambda game: game.is_won(),
               settings=settings(max_examples=500, database=None, deadline=None,
                                 suppress_health_check=list(HealthCheck)))
    check_won_has_no_moves(won)
    forced_check(won)
    assert won.sets_completed() == 4
