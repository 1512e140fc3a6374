"""Every load error has a stable code with an entry in docs/errors.md, and
``patience check --format json`` gives each error's file, line, column, code and message."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import patience
from patience.errors import VariantError

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "patience"
BROKEN = Path(__file__).parent / "broken"
ERRORS_PAGE = ROOT / "docs" / "errors.md"

# The calls that make a load error, and where their code is when it is not 'code=...'.
RAISERS = {"VariantError", "_ChainError", "error", "_problem"}
POSITIONAL_CODE = {"_unknown": 4, "_Refused": 2}
CODED = {"ParseError"}  # code= optional: a ParseError is a "syntax" error unless it says
DEFAULT_CODES = {"syntax", "type-mismatch"}  # ParseError's and Problem's defaults


def _called(node: ast.Call) -> str:
    function = node.func
    return function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")


def _calls() -> list[tuple[str, int, ast.Call]]:
    found = []
    for path in sorted(PACKAGE.glob("*.py")):  # the loader's modules (not the CLI's, etc.)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _called(node) in RAISERS | CODED | set(
                    POSITIONAL_CODE):
                found.append((f"{path.relative_to(ROOT)}:{node.lineno}", node.lineno, node))
    return found


def _codes_in_source() -> set[str]:
    codes = set(DEFAULT_CODES)
    for _, _, node in _calls():
        values = [k.value for k in node.keywords if k.arg == "code"]
        index = POSITIONAL_CODE.get(_called(node))
        if index is not None and len(node.args) > index:
            values.append(node.args[index])
        codes |= {v.value for v in values if isinstance(v, ast.Constant)}
    for path in sorted((PACKAGE / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values):
                    if isinstance(key, ast.Constant) and key.value == "code" \
                            and isinstance(value, ast.Constant):
                        codes.add(value.value)
    return codes


def test_every_error_is_made_with_a_code():
    missing = []
    for where, _, node in _calls():
        name = _called(node)
        if name in CODED:
            continue
        if name in ("VariantError", "_ChainError") and node.args and \
                isinstance(node.args[0], ast.Name) and node.args[0].id == "message":
            continue  # the one that passes its caller's code on (_Validator.error)
        if name in POSITIONAL_CODE:
            ok = len(node.args) > POSITIONAL_CODE[name] or any(k.arg == "code"
                                                               for k in node.keywords)
        else:
            ok = any(k.arg == "code" for k in node.keywords)
        if not ok and not (name == "_problem" and len(node.args) >= 3):
            missing.append(where)
    assert missing == []


def test_every_code_has_a_docs_entry_and_every_entry_a_code():
    documented = set(re.findall(r"^### `([a-z0-9-]+)`$", ERRORS_PAGE.read_text(encoding="utf-8"),
                                re.MULTILINE))
    assert _codes_in_source() - documented == set()
    assert documented - _codes_in_source() == set()


# each broken file's errors, in order, as codes
CODES = {
    "bad_yaml.yaml": ["yaml"],
    "bad_yaml_colon.yaml": ["yaml"],
    "duplicate_key.yaml": ["duplicate-key"],
    "unknown_key.yaml": ["unknown-key"],
    "wrong_type_count.yaml": ["wrong-type"],
    "wrong_type_boolean.yaml": ["yaml-boolean"],
    "wrong_type_mapping.yaml": ["wrong-type"],
    "wrong_type_expression.yaml": ["type-mismatch"],
    "bad_expression.yaml": ["syntax"],
    "extends_broken_rule.yaml": ["syntax"],
    "unknown_predicate.yaml": ["unknown-predicate"],
    "unknown_name.yaml": ["unknown-name"],
    "wrong_arity.yaml": ["wrong-arity"],
    "extends_missing.yaml": ["extends-unknown"],
    "cycle_a.yaml": ["extends-cycle"],
    "cycle_b.yaml": ["extends-cycle"],
    "extends_itself.yaml": ["extends-cycle"],
    "missing_key.yaml": ["missing-key"],
    "missing_pile_id.yaml": ["missing-key"],
    "recursive_predicate.yaml": ["predicate-recursive"],
    "two_errors.yaml": ["out-of-range", "unknown-attribute"],
}


def test_every_broken_file_has_its_codes():
    assert sorted(p.name for p in BROKEN.glob("*.yaml")) == sorted(CODES)


@pytest.mark.parametrize("name", sorted(CODES))
def test_broken_file_errors_have_their_codes(name):
    with pytest.raises(VariantError) as raised:
        patience.find_variant(str(BROKEN / name))
    assert [e.code for e in getattr(raised.value, "errors", [raised.value])] == CODES[name]
    assert raised.value.code == CODES[name][0]


def _check_json(*arguments: str) -> tuple[int, dict[str, object]]:
    result = subprocess.run([sys.executable, "-m", "patience", "check", "--format", "json",
                             *arguments], cwd=ROOT, capture_output=True, text=True,
                            timeout=60, check=False)
    return result.returncode, json.loads(result.stdout)


def test_check_json_lists_each_error_with_its_place_and_code():
    status, report = _check_json("tests/broken/two_errors.yaml")
    assert status == 1
    assert report == {"file": "tests/broken/two_errors.yaml", "ok": False, "errors": [
        {"file": "tests/broken/two_errors.yaml", "line": 5, "column": 8,
         "code": "out-of-range", "message": "decks must be from 1 to 8, not 0"},
        {"file": "tests/broken/two_errors.yaml", "line": 9, "column": 24,
         "code": "unknown-attribute",
         "message": "in piles.tail.moves: a pile has no attribute 'sise'; it has empty, size, "
                    "top, bottom, index, row, column, covered"}]}


def test_check_json_of_a_good_file_and_of_no_file():
    status, report = _check_json("variants/tabbycat.yaml")
    assert status == 0
    assert report == {"file": "variants/tabbycat.yaml", "ok": True, "id": "tabbycat",
                      "rules_hash": patience.find_variant("tabbycat").rules_hash,
                      "errors": []}
    status, report = _check_json("no/such/file.yaml")
    assert status == 1
    assert report == {"file": "no/such/file.yaml", "ok": False, "errors": [
        {"file": "no/such/file.yaml", "line": None, "column": None, "code": "unknown-variant",
         "message": "no variant file at 'no/such/file.yaml'"}]}
