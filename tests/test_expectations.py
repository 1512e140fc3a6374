"""``expect:`` in a variant file: read at load (located errors), inherited through
``extends``, kept out of ``rules_hash``, carried by ``flat_text``, and checked by ``patience
test`` and the pytest plugin with FILE:LINE reports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import patience
from patience.cli.main import main
from patience.errors import VariantError
from patience.limits import MAX_EXPECTATIONS
from patience.testing.expectations import check_expectations
from patience.variant import load_variant_text

ROOT = Path(__file__).resolve().parent.parent
TABBYCAT = ROOT / "variants" / "tabbycat.yaml"
DIALECTS = ["tabbycat", "manx", "tabbycat-autoremove", "tabbycat-corner",
            "tabbycat-loosetail", "tabbycat-nowrap", "manx-corner",
            pytest.param("mainecoon", marks=pytest.mark.slow)]
# deal 7 of Tabby Cat after one deal: c:4D4H/5CTH/JHKS/3S6D, the tail empty
AFTER_ONE_DEAL = {"c1:1-t", "c2:1-t", "c3:1-t", "c4:1-t", "d"}


def write(tmp_path: Path, body: str, name: str = "mine.yaml") -> Path:
    path = tmp_path / name
    path.write_text(f"extends: {TABBYCAT}\nid: mine\nname: Mine\n"
                    "description: Four columns built down in any suit, King on Ace; a tail "
                    "holds one run, which leaves whole.\n" + body, encoding="utf-8")
    return path


def failures(path: Path) -> list[str]:
    variant = patience.find_variant(path)
    return [str(f) for f in check_expectations(variant, variant.definition.expectations[14:])]


# --- reading -----------------------------------------------------------------------------


def test_every_dialect_file_has_expectations_that_hold():
    variant = patience.find_variant("tabbycat")
    assert [e.name for e in variant.definition.expectations][:3] == [
        "building", "the tail", "the deal"]
    assert check_expectations(variant) == []


@pytest.mark.parametrize("name", DIALECTS)
def test_the_dialects_expectations_hold(name):
    assert [str(f) for f in check_expectations(patience.find_variant(name))] == []


def test_expectations_are_not_rules(tmp_path):
    plain = write(tmp_path, "", "plain.yaml")
    more = write(tmp_path, "expect:\n  - deal: 3\n    legal: [d]\n", "more.yaml")
    assert patience.find_variant(plain).rules_hash == patience.find_variant(more).rules_hash
    assert patience.find_variant("tabbycat").rules_hash == \
        patience.find_variant(plain).rules_hash


def test_flat_text_carries_the_expectations():
    variant = patience.find_variant("manx")
    again = load_variant_text(variant.flat_text())
    assert again.definition.expectations == variant.definition.expectations
    assert again.rules_hash == variant.rules_hash
    assert [str(f) for f in check_expectations(again)] == []


def test_loading_a_variant_imports_no_test_machinery():
    code = ("import sys, patience; patience.find_variant('tabbycat'); "
            "print(sorted(m for m in sys.modules if m.startswith(('patience.testing', "
            "'hypothesis', 'patience.solver'))))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, check=True)
    assert result.stdout.strip() == "[]"


def test_inheritance_replaces_by_name_skips_and_appends(tmp_path):
    path = write(tmp_path, """expect:
  - name: the deal
    deal: 7
    legal: [d]
  - name: no redeal
    skip: true
  - name: new
    deal: 2
""")
    expectations = patience.find_variant(path).definition.expectations
    names = [e.name for e in expectations]
    parent = [e.name for e in patience.find_variant("tabbycat").definition.expectations]
    assert names == [n for n in parent if n != "no redeal"] + ["new"]
    replaced = expectations[names.index("the deal")]
    assert (replaced.deal, replaced.position, replaced.number) == (7, None, 3)
    assert [e.number for e in expectations] == list(range(1, len(names) + 1))


@pytest.mark.parametrize(("body", "message", "where"), [
    ("expect:\n  - deal: 1\n    lagel: [d]\n",
     ("unknown key 'lagel' in expect[15]; did you mean 'legal'? The keys of expect[15] are "
      "name, why, skip, deal, position, after, shows, legal, illegal, moves, winnable, within, "
      "perft, known, inherited"),
     (7, 5)),
    ("expect:\n  - deal: 1\n    position: 'c:/// t: f:/// s:'\n",
     ("expect[15] needs exactly one of 'deal' (a deal number) and 'position' (a position "
     "text)"), (6, 5)),
    ("expect:\n  - legal: [d]\n",
     ("expect[15] needs exactly one of 'deal' (a deal number) and 'position' (a position "
     "text)"), (6, 5)),
    ("expect:\n  - deal: -1\n",
     "expect[15].deal must be from 0 to 9223372036854775807, not -1", (6, 11)),
    ("expect:\n  - deal: 1\n    perft: {0: 1}\n",
     "expect[15].perft: a depth is a whole number from 1 to 8, not '0'", (7, 13)),
    ("expect:\n  - deal: 1\n    perft: {1: many}\n",
     "expect[15].perft[1] must be a whole number, not 'many'", (7, 16)),
    ("expect:\n  - deal: 1\n    within: 10\n",
     ("expect[15].within is the solver's budget for 'winnable', which this entry does not "
     "have"), (7, 13)),
    ("expect:\n  - deal: 1\n    winnable: maybe\n",
     "expect[15].winnable must be true (proven won) or false (proven unwinnable)", (7, 15)),
    ("expect:\n  - deal: 1\n    illegal: [{move: d, rule: 3, why: x}]\n",
     ("unknown key 'why' in each entry of expect[15].illegal; the keys of each entry of "
      "expect[15].illegal are move, rule"), (7, 34)),
    ("expect:\n  - deal: 1\n    legal: c1-c2\n",
     "expect[15].legal must be a list of moves, e.g. [c1-c2, 'c3:2-t', deal]", (7, 12)),
    ("expect:\n  - name: nothing of the kind\n    skip: true\n",
     ("expect[15].skip drops an inherited entry of the same name, but the parent files have "
     "no expect entry named 'nothing of the kind'"), (7, 11)),
    ("expect: {deal: 1}\n",
     "expect must be a list of examples, each a mapping (- deal: 1 …)", (5, 9)),
])
def test_a_wrong_expect_block_is_a_located_load_error(tmp_path, body, message, where):
    path = write(tmp_path, body)
    with pytest.raises(VariantError) as raised:
        patience.find_variant(path)
    error = raised.value
    assert error.message == message
    assert error.location is not None
    assert (error.location.path, error.location.line, error.location.column) == \
        (str(path), *where)
    assert "^" in error.render()


def test_too_many_entries_is_refused_before_reading_them(tmp_path):
    inherited = len(patience.find_variant("tabbycat").definition.expectations)
    body = "expect:\n" + "  - deal: 1\n" * (MAX_EXPECTATIONS + 1 - inherited)
    with pytest.raises(VariantError) as raised:
        patience.find_variant(write(tmp_path, body))
    assert raised.value.message == (f"expect has {MAX_EXPECTATIONS + 1} entries; a variant "
                                    f"has at most {MAX_EXPECTATIONS}")


# --- checking ----------------------------------------------------------------------------


def test_each_kind_of_failure_is_reported_with_file_line_and_reason(tmp_path):
    path = write(tmp_path, """expect:
  - name: wrong
    why: the author's mistakes
    deal: 7
    after: [deal]
    legal: [c3-c1, "c1:1-t"]
    illegal:
      - c2-t
      - {move: c1-c2, rule: piles.tail.accepts}
      - {move: c1-c2, rule: piles.columns.accepts}
    moves: [c1-t, c2-t, d, "c3:1-c4"]
    perft: {1: 5, 2: 99}
  - deal: 1
    after: [c1-c9]
  - position: "c:7D t: f:/// s:"
""")
    found = failures(path)
    position = ("c:4D4H/5CTH/JHKS/3S6D t: f:/// s:4S7H9D2CKDJSTC2H7C4C7S2STS9S3CQH2D8D6SAC"
                "9CJD6H3D3H8HAHKH6CAS7D5H9H5SQSADKCTD8CJC5D8SQDQC")
    why = "\n  why: the author's mistakes"
    assert found == [
        (f"{path}:10: expect[15] 'wrong': c3-c1 should be legal but c3:1-c1: c1 does not take "
        "KS from c3: piles.columns.accepts 'pile.empty or goes_on(run.bottom, pile.top)' is "
        "false: c1 is not empty; and goes_on(KS, 4H) is false: 'card.rank == base.rank - 1' "
        "is false ('card.rank' is 13, 'base.rank - 1' is 3); and 'base.rank == A' is false "
        f"('base.rank' is 4) (in {position}){why}"),
        (f"{path}:12: expect[15] 'wrong': c2-t should be illegal but c2:1-t is legal (in "
        f"{position}){why}"),
        (f"{path}:13: expect[15] 'wrong': c1-c2 should be forbidden by piles.tail.accepts but "
        "is forbidden by piles.columns.accepts: c1:1-c2: c2 does not take 4H from c1: "
        "piles.columns.accepts 'pile.empty or goes_on(run.bottom, pile.top)' is false: c2 is "
        "not empty; and goes_on(4H, TH) is false: 'card.rank == base.rank - 1' is false "
        "('card.rank' is 4, 'base.rank - 1' is 9); and 'base.rank == A' is false "
        f"('base.rank' is 10){why}"),
        (f"{path}:15: expect[15] 'wrong': moves: c3:1-c4 is listed but not legal: c3:1-c4: c4 "
        "does not take KS from c3: piles.columns.accepts 'pile.empty or goes_on(run.bottom, "
        "pile.top)' is false: c4 is not empty; and goes_on(KS, 6D) is false: 'card.rank == "
        "base.rank - 1' is false ('card.rank' is 13, 'base.rank - 1' is 5); and 'base.rank "
        f"== A' is false ('base.rank' is 6){why}"),
        (f"{path}:6: expect[15] 'wrong': moves: c3:1-t, c4:1-t are legal but not listed (in "
        f"{position}){why}"),
        f"{path}:6: expect[15] 'wrong': perft 2 should be 99 but is 13{why}",
        (f"{path}:18: expect[16]: after: move 1, 'c1-c9', cannot be read: move 'c1-c9': there "
        "is no pile 'c9' (piles: c1 c2 c3 c4 t f1 f2 f3 f4)"),
        (f"{path}:19: expect[17]: the position cannot be set up: position 'c:7D t: f:/// s:': "
        "c: has 1 pile; the columns have 4"),
    ]
    variant = patience.find_variant(path)
    game = variant.deal(7)
    game.push("d")
    assert {game.notation(m) for m in game.generate_moves()} == AFTER_ONE_DEAL


def test_winnable_and_unwinnable_are_proven(tmp_path):
    won = ("c:KSQHJSTH9S8H7S6H5S4H3S2HAS/// t: f:KCQCJCTC9C8C7C6C5C4C3C2CAC/KDQDJDTD9D8D7D6D5D4"
           "D3D2DAD/KHQSJHTS9H8S7H6S5H4S3H2SAH/ s:")
    stuck = ("c:AS2S3S/4S5S/6S7S/8S9S t:TSQSKSJS f:KCQCJCTC9C8C7C6C5C4C3C2CAC/KDQDJDTD9D8D7D6"
             "D5D4D3D2DAD/KHQHJHTH9H8H7H6H5H4H3H2HAH/ s:")
    path = write(tmp_path, f"""expect:
  - position: "{won}"
    winnable: false
    within: 100
  - position: "{stuck}"
    winnable: true
    within: 1000
  - position: "{stuck}"
    winnable: false
    within: 100000
  - deal: 1
    winnable: true
    within: 5
""")
    found = failures(path)
    assert found[0] == (f"{path}:6: expect[15]: should be unwinnable, but the solver won it: "
                        "c1:13-f")
    assert found[1].startswith(f"{path}:9: expect[16]: should be won, but the solver proved "
                               "it unwinnable (")
    assert found[2:] == [(f"{path}:15: expect[18]: should be won, but the solver found no win "
                         "within 5 positions")]


def test_perft_stops_counting_past_the_stated_count(tmp_path):
    path = write(tmp_path, "expect:\n  - deal: 1\n    perft: {1: 7, 2: 52, 3: 379, 5: 10}\n")
    assert failures(path) == [f"{path}:6: expect[15]: perft 5 should be 10 but is more than 10"]


# --- the command line and the pytest plugin -----------------------------------------------


def test_patience_test_runs_the_expectations(tmp_path):
    runner = CliRunner()
    result = runner.invoke(main, ["test", "manx", "--check", "expect"])
    assert result.exit_code == 0, result.output
    assert "ok   expect" in result.output
    assert "(14 examples)" in result.output
    path = write(tmp_path, "expect:\n  - name: mine\n    deal: 1\n    illegal: [d]\n")
    result = runner.invoke(main, ["test", str(path), "--check", "expect"])
    assert result.exit_code == 1
    assert f"       {path}:8: expect[15] 'mine': d should be illegal but d is legal (in " \
        "c:7D/9C/4D/8H t: f:/// s:" in result.output
    assert "1 of 1 checks failed (expect)" in result.output


@pytest.mark.slow  # a pytest in a subprocess: about 8 s
def test_the_pytest_plugin_runs_the_expectations(tmp_path):
    path = write(tmp_path, "expect:\n  - name: mine\n    deal: 1\n    illegal: [d]\n")
    (tmp_path / "test_nothing.py").write_text("", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--patience-variant",
         str(path), "-k", "expect", str(tmp_path / "test_nothing.py")],
        capture_output=True, text=True, cwd=tmp_path, check=False,
        env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"{path}:8: expect[15] 'mine': d should be illegal but d is legal" in result.stdout
    assert "1 failed" in result.stdout


def test_shows_pins_the_position_face_down_cards_and_all(tmp_path):
    """'shows': the position there exactly, face-down cards in lower case: a face-down count
    one off is caught (the mutant that 'face_down' +-1 makes)."""
    from patience.testing.expectations import check_expectations

    start = patience.find_variant("klondike").deal(1).text()
    path = tmp_path / "shown.yaml"
    path.write_text(f"extends: klondike\nid: shown\nexpect:\n  - inherited: drop\n"
                    f"  - deal: 1\n    shows: \"{start}\"\n", encoding="utf-8")
    assert check_expectations(patience.find_variant(path)) == []
    path.write_text(path.read_text(encoding="utf-8") + "piles:\n  columns:\n"
                    "    face_down: [0, 1, 2, 3, 4, 5, 5]\n", encoding="utf-8")
    failures = check_expectations(patience.find_variant(path))
    assert [f.message for f in failures] == [
        f"the position should be {start} but is {start.replace('tstd8S', 'tsTD8S')}"]
