"""A file acknowledges a finding with a reason (``expect: - known: [CODE] why: …``), shown
in the report; a finding in an inherited rule says where the child changes it; a child
replaces or clears its parent's examples as a whole (``- inherited: drop``), and inherited
positional examples that no longer fit its piles are reported once, with the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

import patience
from patience.errors import VariantError
from patience.testing.battery import run_battery, run_expectations, run_semantic

MISTAKES = Path(__file__).parent / "mistakes"
SIX_COLUMNS = """\
extends: freecell
id: six-columns
name: FreeCell with six columns
description: Six columns built down in alternate colours, four free cells.
piles:
  columns:
    count: 6
    deal: [9, 9, 9, 9, 8, 8]
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_an_acknowledged_lint_finding_passes_and_is_shown(tmp_path):
    path = _write(tmp_path, "known.yaml", (
        "extends: freecell\nid: known-count\nname: FreeCell\n"
        "description: Nine columns built down in alternate colours, four free cells.\n"
        "expect:\n  - known: [claim-count]\n    why: the cells count as a column here\n"))
    outcome = run_battery(patience.find_variant(path), only=["lint"]).outcomes[0]
    assert outcome.status == "passed"
    assert "acknowledged: claim-count (known.yaml:6: why: the cells count as a column " \
           "here)" in outcome.message
    unacknowledged = _write(tmp_path, "plain.yaml", (
        "extends: freecell\nid: plain-count\nname: FreeCell\n"
        "description: Nine columns built down in alternate colours, four free cells.\n"))
    assert run_battery(patience.find_variant(unacknowledged),
                       only=["lint"]).outcomes[0].status == "failed"


def test_an_acknowledged_semantic_finding_passes_and_is_shown(tmp_path):
    text = (MISTAKES / "semantic" / "tail-never-left.yaml").read_text(encoding="utf-8")
    text += "expect:\n  - known: [never-left]\n    why: the tail is a trap in this game\n"
    outcome = run_semantic(patience.find_variant(_write(tmp_path, "trap.yaml", text)))
    assert outcome.status in ("passed", "partial")
    assert "acknowledged: never-left (trap.yaml:" in outcome.message
    assert "why: the tail is a trap in this game" in outcome.message


def test_an_inherited_rule_finding_says_where_the_child_changes_it():
    outcome = run_semantic(patience.find_variant(MISTAKES / "semantic" / "twelve-card-set.yaml"))
    assert outcome.status == "failed"
    assert "(written in tabbycat.yaml, inherited: write win in twelve-card-set.yaml to change " \
           "it, or acknowledge the finding there with expect: - known: [win-unreachable] " \
           "why: …)" in outcome.message


def test_inherited_examples_that_do_not_fit_are_reported_once_with_the_fix(tmp_path):
    outcome = run_expectations(patience.find_variant(_write(tmp_path, "six.yaml",
                                                            SIX_COLUMNS)))
    assert outcome.status == "failed"
    lines = outcome.message.splitlines()
    assert lines[0].startswith(f"{tmp_path / 'six.yaml'}:1: expect[1] 'columns build down in "
                               "alternate colours': 18 examples inherited from freecell.yaml")
    assert "make '- inherited: drop' the first entry of this file's expect: list" in lines[0]
    assert sum("cannot be set up" in line or "do not fit" in line for line in lines) == 1


def test_a_child_clears_its_parents_examples_as_a_whole(tmp_path):
    path = _write(tmp_path, "six-own.yaml", SIX_COLUMNS + (
        "expect:\n  - inherited: drop\n  - name: deal 1\n    deal: 1\n    perft: {1: 10}\n"))
    variant = patience.find_variant(path)
    assert [e.name for e in variant.definition.expectations] == ["deal 1"]
    assert run_expectations(variant).status == "passed"
    cleared = patience.find_variant(_write(tmp_path, "six-none.yaml", SIX_COLUMNS + (
        "expect:\n  - inherited: drop\n")))
    assert cleared.definition.expectations == ()
    assert run_expectations(cleared).status == "skipped"


@pytest.mark.parametrize(("text", "message"), [
    ("extends: freecell\nid: x\nname: X\nexpect:\n  - known: [claim-count]\n",
     "expect[21].known needs a 'why'"),
    ("extends: freecell\nid: x\nname: X\nexpect:\n  - known: [Bad Code]\n    why: w\n",
     "expect[21].known must list finding codes"),
    (("extends: freecell\nid: x\nname: X\nexpect:\n  - known: [claim-count]\n    why: w\n"
     "    deal: 1\n"), "acknowledges findings ('known'); it cannot also have 'deal'"),
])
def test_a_badly_written_acknowledgement_is_refused(tmp_path, text, message):
    with pytest.raises(VariantError) as caught:
        patience.find_variant(_write(tmp_path, "bad.yaml", text))
    assert message in str(caught.value)


def test_inherited_drop_needs_a_parent(tmp_path):
    text = (Path(patience.__file__).parent.parent / "docs" / "examples" /
            "kitten.yaml").read_text(encoding="utf-8")
    text = text.split("\nexpect:", 1)[0] + "\nexpect:\n  - inherited: drop\n"
    with pytest.raises(VariantError) as caught:
        patience.find_variant(_write(tmp_path, "orphan.yaml", text))
    assert "only a file with 'extends' has any" in str(caught.value)
