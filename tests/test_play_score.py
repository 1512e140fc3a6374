"""A variant's ``score:`` (issue #32): the loader, the status line, the summary of a game,
and the page's snapshot."""

from __future__ import annotations

import pytest

from patience import find_variant
from patience.errors import VariantError
from patience.play.session import Session
from patience.variant import load_variant_text
from patience.web.snapshot import snapshot


def with_score(lines: str):
    return load_variant_text("extends: klondike\nid: scored\nname: Scored\n"
                             f"description: Klondike with a score.\nscore:\n{lines}")


def test_vegas_klondike_shows_its_score_as_cards_go_home_and_come_back():
    variant = find_variant("klondike-vegas")
    assert (variant.score.start, variant.score.home, variant.score.unit) == (-52, 5, "$")
    text = ("c:" + "/".join("".join(f"{r}{s}" for r in "KQJT98765432A") for s in "SDC")
            + "////" + "".join(f"{r}H" for r in "KQJT98765432A") + " w: f:/// s:")
    session = Session(variant.position(text), record_stats=False, auto_home=False)
    assert session.status().endswith("score -$52")
    session.apply("c1:1-f")
    session.apply("c1:1-f")
    assert session.status() == "deals left 0 · home 2/52 · moves 2 · score -$42"
    session.apply("u")
    assert session.score() == -47 and session.summary() == "1 move, 0:00, score -$47"
    assert snapshot(session)["score"] == "-$47"
    session.apply("a")  # finish: 52 cards home, $260 - $52
    assert session.game.is_won() and session.status().endswith("score $208")


def test_a_variant_without_a_score_shows_none():
    session = Session(find_variant("klondike").deal(1), record_stats=False)
    assert session.score() is None and "score" not in session.status()
    assert snapshot(session)["score"] is None
    assert session.summary() == "0 moves, 0:00"


def test_the_score_is_not_a_rule_of_play():
    scored = with_score("  start: -52\n  home: 5\n  unit: '$'")
    assert scored.score is not None
    assert scored.rules_hash == find_variant("klondike").rules_hash


@pytest.mark.parametrize("lines, message", [
    ("  start: lots", "score.start must be a whole number, not 'lots'"),
    ("  home: 2000000", "score.home must be from -1000000 to 1000000, not 2000000"),
    ("  unit: '$$$$$'", "score.unit '$$$$$' must be at most 4 characters"),
    ("  unit: '1'", "score.unit '1' must be at most 4 characters, without digits"),
    ("  bonus: 5", "bonus"),
])
def test_a_wrong_score_is_refused_with_its_place(lines, message):
    with pytest.raises(VariantError, match=message.replace("$", r"\$")):
        with_score(lines)
