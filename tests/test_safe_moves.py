"""solver.safe: the declaration of safe moves (docs/solver.md, "Safe moves"): how it loads,
what the search does with it in both engines, and its check."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_native import assert_same_proof_search, assert_same_search

import patience
from patience import native
from patience.errors import VariantError
from patience.solver import exhaustive_verdict, solve
from patience.solver.search import first_safe
from patience.variant import load_variant_text

VARIANTS = Path(__file__).parent / "variants"
needs_native = pytest.mark.skipif(not native.AVAILABLE, reason=str(native.REASON))


def child(body: str, parent: str = "freecell") -> patience.Variant:
    return load_variant_text(f"extends: {parent}\nid: safe-test\n{body}", "safe-test.yaml")


def test_the_declaration_is_a_rule_over_a_move() -> None:
    variant = patience.find_variant("freecell")
    assert variant.safe is not None
    assert variant.safe.text == ("pile in foundations and (run.top.rank <= 2 or "
                                 "(all f in foundations: f.size >= run.top.rank - 1))")
    game = variant.position("c:KHQHJHTH9H8H7H6H5H4H3HAS/KSQSJSTS9S8S7S6S5S4S3S2S/2H/AH//// a:/// "
                            "f:AC2C3C4C5C6C7C8C9CTCJCQCKC/AD2D3D4D5D6D7D8D9DTDJDQDKD// s:")
    moves = game.generate_moves()
    safe = [m for m in moves if m[0] >= 0 and variant.is_safe(game.piles, game.stock, *m)]
    assert sorted(game.notation(m) for m in safe) == ["c1:1-f", "c4:1-f"]  # 2H: no AH home
    # the first in sorted order (source, count, target): the AS of c1 is the one played
    assert game.notation(first_safe(variant.is_safe, game.piles, game.stock, moves)) == "c1:1-f"


def test_freecell_sends_a_card_home_once_every_lower_card_is_home() -> None:
    # every Ace and Two home: a Three is safe, a Four only once every Three is home
    variant = patience.find_variant("freecell")
    game = variant.position("c:KHQHJHTH9H8H7H6H5H4H3H/KSQSJSTS9S8S7S6S5S4S3S////// a:/// "
                            "f:AC2C3C4C5C6C7C8C9CTCJCQCKC/AD2D3D4D5D6D7D8D9DTDJDQDKD/AH2H/AS2S s:")

    def safe_moves() -> list[str]:
        return sorted(game.notation(m) for m in game.generate_moves()
                      if m[0] >= 0 and variant.is_safe(game.piles, game.stock, *m))

    assert safe_moves() == ["c1:1-f", "c2:1-f"]  # 3H and 3S
    game.push(game.parse_move("c1:1-f"))
    assert safe_moves() == ["c2:1-f"]  # 4H waits for 3S: the spades' foundation holds 2
    game.push(game.parse_move("c2:1-f"))
    assert safe_moves() == ["c1:1-f", "c2:1-f"]  # 4H and 4S


def test_a_child_inherits_or_drops_the_declaration() -> None:
    assert patience.find_variant("bakers-game").safe is not None  # extends freecell
    assert child("solver:\n  safe: false\n").safe is None
    assert patience.find_variant("klondike-draw3").safe is None  # drops klondike's
    assert child("").safe.text == patience.find_variant("freecell").safe.text


def test_the_declaration_is_not_a_rule_of_play() -> None:
    # the same rules hash with or without it: saved games and studies' rules stay the same
    assert child("solver:\n  safe: pile in cells\n").rules_hash == child("").rules_hash


def test_errors_in_the_declaration_point_into_the_file() -> None:
    with pytest.raises(VariantError) as caught:
        child("solver:\n  safe: pile in fundations\n")
    error = caught.value
    assert (error.code, error.location.line, error.location.column) == ("unknown-group", 4, 9)
    assert "^" in error.render()
    with pytest.raises(VariantError) as caught:
        child("solver:\n  sfe: true\n")
    assert caught.value.code == "unknown-key"
    assert "did you mean 'safe'?" in str(caught.value)
    with pytest.raises(VariantError) as caught:
        child("solver:\n  safe: run.size +\n")
    assert caught.value.code == "syntax"


def test_the_reference_search_never_uses_it() -> None:
    # 'pile in cells' is not safe; the exhaustive reference ignores it, the solver does not
    wrong = load_variant_text(
        f"extends: {VARIANTS / 'mini-freecell.yaml'}\nid: wrong\nsolver:\n  safe: pile in cells\n",
        "wrong.yaml")
    right = patience.find_variant(str(VARIANTS / "mini-freecell.yaml"))
    for number in (1, 2):
        assert exhaustive_verdict(wrong.deal(number), 50_000) == \
            exhaustive_verdict(right.deal(number), 50_000) != "unknown"


@needs_native
@pytest.mark.parametrize("name", ["freecell", "fan", "bakers-dozen", "king-albert",
                                  "klondike", "whitehead", "portuguese-solitaire"])
def test_both_engines_run_the_same_search_with_safe_moves(name: str) -> None:
    variant = patience.find_variant(name)
    for number in (1, 2):
        game = variant.deal(number)
        assert_same_search(game, 2_000, number)
        assert_same_proof_search(game, 1_500, number)


@needs_native
def test_the_declaration_changes_the_search() -> None:
    with_it = patience.find_variant("freecell")
    without = child("solver:\n  safe: false\n")
    counts = [(solve(v.deal(2), 100_000, engine="native").positions) for v in (with_it, without)]
    assert counts[0] != counts[1]


@pytest.mark.parametrize("name", ["mini-freecell", "mini-bakers-game", "mini-fan",
                                  "mini-bakers-dozen", "mini-streets-and-alleys",
                                  "mini-king-albert", "mini-klondike"])
def test_reduced_decks_agree_with_the_exhaustive_reference(name: str) -> None:
    # the mini variants extend the shipped files, so they carry the same declaration
    variant = patience.find_variant(str(VARIANTS / f"{name}.yaml"))
    assert variant.safe is not None
    verdicts = set()
    for number in range(1, 13):
        game = variant.deal(number)
        reference = exhaustive_verdict(game, 100_000, engine="auto")
        if reference == "unknown":
            continue
        assert solve(game, 200_000, prove=True, shorten_line=False).verdict == reference, number
        verdicts.add(reference)
    assert verdicts


def test_an_unsafe_declaration_fails_the_battery_check() -> None:
    from patience.testing.battery import run_safe_moves

    outcome = run_safe_moves(child("solver:\n  safe: pile in cells\n",
                                   str(VARIANTS / "mini-freecell.yaml")))
    assert outcome.status == "failed"
    assert outcome.message.startswith("safe_moves: ")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["freecell", "bakers-game", "eight-off", "seahaven-towers",
                                  "streets-and-alleys", "beleaguered-castle",
                                  "fan", "bakers-dozen", "king-albert", "klondike",
                                  "klondike-vegas"])
def test_the_shipped_declarations_pass_the_check(name: str) -> None:
    from patience.testing.battery import run_safe_moves

    outcome = run_safe_moves(patience.find_variant(name))
    assert outcome.status == "passed", outcome.message
