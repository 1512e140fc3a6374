"""A variant file's own ``solvitaire:`` key (issue #33): how Solvitaire's deal of the game is
made from its piles, or why Solvitaire cannot play it. ``patience solvitaire`` and
bench/solvitaire.py read it from the variant; a file declares its own (it is not inherited
through ``extends``), and a wrong mapping is a load error at its line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import patience
from patience.cli.main import main
from patience.errors import VariantError
from patience.solvitaire import SolvitaireError, entry_for
from patience.variant import load_variant_text

ROOT = Path(__file__).resolve().parent.parent
HEADER = "extends: tabbycat\nid: mapped\nname: Mapped\ndescription: A test.\n"
MAPPING = ("solvitaire:\n  preset: some-preset\n"
           "  deal: {tableau piles: columns, stock: stock}\n"
           "  start_empty: [tail, foundations]\n")


def test_a_variant_with_the_key_declares_its_own_deal(tmp_path):
    path = tmp_path / "mapped.yaml"
    path.write_text(HEADER + MAPPING, encoding="utf-8")
    variant = patience.find_variant(path)
    assert entry_for(variant) == {"preset": "some-preset",
                                  "deal": {"tableau piles": "columns", "stock": "stock"},
                                  "start_empty": ["tail", "foundations"]}
    result = CliRunner().invoke(main, ["solvitaire", str(path), "--seed", "1"])
    assert result.exit_code == 0, result.output
    deal = json.loads(result.stdout)
    assert deal["tableau piles"] == [["7D"], ["9C"], ["4D"], ["8H"]]
    assert len(deal["stock"]) == 48
    # not part of the rules: the rules hash is tabbycat's
    assert variant.rules_hash == patience.find_variant("tabbycat").rules_hash


def test_a_variant_without_the_key_is_not_compared():
    with pytest.raises(SolvitaireError, match="'tabbycat' has no solvitaire: mapping in its "
                                              "file"):
        entry_for(patience.find_variant("tabbycat"))


def test_the_key_is_not_inherited(tmp_path):
    """bakers-game extends freecell and declares its own; a child that declares none has
    none, since its rules may differ."""
    assert entry_for(patience.find_variant("bakers-game"))["rules_file"] == "bakers-game.json"
    path = tmp_path / "child.yaml"
    path.write_text("extends: freecell\nid: child\n", encoding="utf-8")
    assert patience.find_variant(path).definition.solvitaire is None
    assert patience.find_variant("freecell").definition.solvitaire is not None


def test_not_exact_says_why():
    with pytest.raises(SolvitaireError, match="'yukon' is not compared with Solvitaire: No "
                                              "Solvitaire rule moves"):
        entry_for(patience.find_variant("yukon"))


@pytest.mark.parametrize(("mapping", "message"), [
    ("solvitaire:\n  preset: p\n  deal: {tableau piles: column}\n",
     ("solvitaire.deal.tableau piles names 'column', which is not a pile group or 'stock'; the "
     "pile groups are columns, tail, foundations")),
    ("solvitaire:\n  preset: p\n  rules_file: r.json\n  deal: {tableau piles: columns}\n",
     "solvitaire needs exactly one of 'preset' (a Solvitaire preset) and 'rules_file'"),
    ("solvitaire:\n  preset: p\n  deal: {tableau: columns}\n",
     "solvitaire.deal has 'tableau', which is not a key of a Solvitaire deal"),
    ("solvitaire:\n  not_exact: no such rule\n  preset: p\n",
     ("solvitaire.not_exact says Solvitaire cannot play the game by these rules; it cannot "
     "also have 'preset'")),
    ("solvitaire:\n  preset: p\n  deal: {tableau piles: columns}\n  checked: abc\n",
     "solvitaire.checked must be the 16-digit rules hash"),
    ("solvitaire:\n  preset: p\n  deal: {tableau piles: columns}\n  left_out: cells\n",
     "solvitaire.left_out names 'cells', which is not a pile group"),
    ("solvitaire:\n  presets: p\n  deal: {tableau piles: columns}\n",
     "unknown key 'presets' in solvitaire"),
])
def test_a_wrong_mapping_is_a_load_error(mapping, message):
    with pytest.raises(VariantError) as caught:
        load_variant_text(HEADER + mapping, str(ROOT / "docs" / "examples" / "probe.yaml"))
    errors = getattr(caught.value, "errors", [caught.value])
    assert any(e.message.startswith(message) for e in errors), [e.message for e in errors]
    assert all(e.code == "solvitaire" for e in errors)
