"""The rule author's tools, used as people use them: ``patience compile`` (the generated
code, commented with its rules), ``patience diff`` and ``patience schema``. One command runs
as a process of its own; the others through Click's runner in this process (the same
command line, exit status, standard output and error)."""

from __future__ import annotations

import inspect
import json
import os
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest
import yaml
from shipped import variant_params

import patience
import patience.schema
from patience.generator import comment
from patience.rulediff import first_move_differences, rule_differences
from patience.schema import SCHEMA_FILE, schema_text, shipped_schema, variant_schema
from patience.variant import load_variant_text

ROOT = Path(__file__).resolve().parent.parent


def run_process(*arguments: str) -> subprocess.CompletedProcess[str]:
    """``python -m patience ARGUMENTS`` in a process of its own, from the repository."""
    return subprocess.run([sys.executable, "-m", "patience", *arguments], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)


def run(*arguments: str) -> subprocess.CompletedProcess[str]:
    """The same command line, run in this process (Click's runner; seconds faster than a
    process of its own), from the repository."""
    from click.testing import CliRunner

    from patience.cli.main import main

    here = os.getcwd()
    os.chdir(ROOT)
    try:
        result = CliRunner().invoke(main, list(arguments))
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(["patience", *arguments], result.exit_code,
                                       result.stdout, result.stderr)


# --- patience compile --------------------------------------------------------------------


def test_compile_prints_the_generated_code_commented_with_its_rules():
    result = run_process("compile", "tabbycat")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert result.stdout == patience.find_variant("tabbycat").generated.source
    assert lines[:9] == [
        ("# the rules of tabbycat (tabbycat.yaml) compiled to Python by patience.generator (a "
         "table named after a predicate holds its value for every card or pair)"),
        "def generate_moves(piles, stock):",
        "    # win (tabbycat.yaml:47): all f in foundations: f.size == 13",
        ("    if len(piles[5]) == 13 and len(piles[6]) == 13 and (len(piles[7]) == 13) and "
        "(len(piles[8]) == 13):"),
        "        return []  # a won position has no moves",
        "    moves = []",
        "    append = moves.append",
        "    # piles.columns.moves (tabbycat.yaml:28): in_sequence(run)",
        "    for s in range(0, 4):",
    ]
    rules = [line.strip() for line in lines if line.lstrip().startswith("# piles.")]
    assert sorted(set(rules)) == [
        ("# piles.columns.accepts (tabbycat.yaml:29): pile.empty or goes_on(run.bottom, "
        "pile.top)"),
        "# piles.columns.moves (tabbycat.yaml:28): in_sequence(run)",
        ("# piles.foundations.accepts (tabbycat.yaml:41): pile.empty and source in columns "
        "and complete_set(run)"),
        "# piles.tail.accepts (tabbycat.yaml:34): pile.empty and source in columns",
        "# piles.tail.moves (tabbycat.yaml:33): run.size == pile.size",
    ]


def test_compile_names_the_file_a_rule_was_inherited_from():
    source = patience.find_variant("manx").generated.source
    assert "# piles.tail.moves (manx.yaml:" in source
    assert "# piles.columns.moves (tabbycat.yaml:28): in_sequence(run)" in source


def test_compile_of_a_file_that_does_not_load_exits_2():
    result = run("compile", "tests/broken/unknown_key.yaml")
    assert result.returncode == 2
    assert "unknown key 'removel' in piles.foundations" in result.stderr


def _code_objects(source: str, filename: str) -> dict[str, types.CodeType]:
    module = compile(source, filename, "exec")
    return {code.co_name: code for code in module.co_consts if isinstance(code, types.CodeType)}


def _same_code(a: types.CodeType, b: types.CodeType) -> bool:
    """Equal bytecode, constants and names (the line table may differ)."""
    constants = [(x, y) for x, y in zip(a.co_consts, b.co_consts)]
    return (a.co_code == b.co_code and a.co_names == b.co_names
            and a.co_varnames == b.co_varnames and len(a.co_consts) == len(b.co_consts)
            and all(_same_code(x, y) if isinstance(x, types.CodeType) else x == y
                    for x, y in constants))


@pytest.mark.parametrize("name", variant_params())
def test_the_comments_change_no_byte_of_the_compiled_code(name):
    """The comments are the only difference between the source and the same source without
    them: the code objects the kernel runs are the same, so behaviour and speed are too."""
    generated = patience.find_variant(name).generated
    bare = "\n".join(line for line in generated.source.splitlines()
                     if not line.lstrip().startswith("# ")) + "\n"
    assert bare != generated.source
    with_notes = _code_objects(generated.source, generated.filename)
    without = _code_objects(bare, generated.filename)
    assert with_notes.keys() == without.keys()
    assert all(_same_code(with_notes[n], without[n]) for n in with_notes)
    assert generated.is_won.__code__.co_code == with_notes["is_won"].co_code


def test_a_traceback_through_generated_code_shows_its_lines_and_rules():
    generated = patience.find_variant("tabbycat").generated
    source = inspect.getsource(generated.is_won)
    assert source.splitlines()[:2] == [
        "def is_won(piles, stock):",
        "    # win (tabbycat.yaml:47): all f in foundations: f.size == 13"]
    with pytest.raises(TypeError) as raised:
        generated.is_won(None, [])
    frame = raised.traceback[-1]
    assert str(frame.path) == generated.filename
    assert generated.filename.startswith("<patience variant tabbycat: generated rules ")
    assert "len(piles[5]) == 13" in str(frame.statement)


def test_rule_text_in_a_comment_cannot_end_the_comment():
    assert comment("pile.empty\nor x\r\n\u2028import os\x00\x1b[2J") == \
        "# pile.empty or x import os\\x00\\x1b[2J"
    text = (ROOT / "variants" / "tabbycat.yaml").read_text(encoding="utf-8")
    text = text.replace('    accepts: pile.empty and source in columns       # any movable run, '
                        'only while empty',
                        "    accepts: |\n      pile.empty\n      and source in columns")
    variant = load_variant_text(text, str(ROOT / "variants" / "multiline.yaml"))
    lines = variant.generated.source.splitlines()
    assert "        # piles.tail.accepts (multiline.yaml:34): pile.empty and source in columns" \
        in lines
    assert not any(line.strip() in ("and source in columns", "pile.empty") for line in lines)


# --- patience diff -----------------------------------------------------------------------


def test_diff_shows_rules_then_the_first_positions_whose_moves_differ():
    result = run("diff", "tabbycat", "manx", "--deals", "2")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "rules: 2 differences",
        "  piles.tail.moves",
        "    tabbycat: run.size == pile.size",
        "    manx:     true",
        "  piles.tail.accepts",
        "    tabbycat: pile.empty and source in columns",
        "    manx:     pile.empty and source in columns and run.size == 1",
        "moves: differ on 2 of 2 deals (deals 1-2)",
        "  deal 1, after 'c1:1-c4':",
        ("    position: c:/9C/4D/8H7D t: f:/// s:8D5SJD6D9SJC5DKD3C2DJH5H7H4H2CAD6SKCKHTHTSJSTD8S"
        "QC4S6C7CAS5CAHKS6HQSQHQD9D3D3SAC4C2H8CTC3H2S9H7S"),
        "    only tabbycat: c4:2-t",
        "    only manx: (none)",
        "  deal 2, after 'c2:1-c3':",
        ("    position: c:QH//4C3S/5H t: f:/// s:7H2DKHTDAC6C7S3CQC7D6HJHTC9SJD8C4D5S2S4HADQD6S8H"
        "3H9D6DJSAS5CJCAHKC2H7C4S9CTH5DTSQSKS8SKD3D2C8D9H"),
        "    only tabbycat: c3:2-t",
        "    only manx: (none)",
    ]


def test_the_moves_shown_are_the_moves_each_variant_allows():
    tabbycat, manx = patience.find_variant("tabbycat"), patience.find_variant("manx")
    (difference,) = first_move_differences(tabbycat, manx, range(1, 2))
    games = [variant.deal(1) for variant in (tabbycat, manx)]
    for game in games:
        for move in difference.moves:
            game.push(move)
    allowed = [{game.notation(m) for m in game.generate_moves()} for game in games]
    assert games[0].text() == difference.position
    assert tuple(sorted(allowed[0] - allowed[1])) == difference.only_first == ("c4:2-t",)
    assert tuple(sorted(allowed[1] - allowed[0])) == difference.only_second == ()


def test_diff_of_a_variant_with_itself_finds_nothing():
    result = run("diff", "tabbycat", "variants/tabbycat.yaml", "--deals", "2",
                 "--max-positions", "300")
    assert result.returncode == 0
    assert result.stdout.splitlines() == [
        f"rules: the same (rules hash {patience.find_variant('tabbycat').rules_hash})",
        "moves: the same in every position reached from deals 1-2 (up to 300 positions each)"]


def test_diff_of_different_layouts_shows_the_deals():
    five = patience.find_variant(str(ROOT / "tests" / "mistakes" / "deals-in-all.yaml"))
    tabbycat = patience.find_variant("tabbycat")
    assert [str(d) for d in rule_differences(tabbycat, five)] == ["piles.columns.count: 4 | 6"]
    (difference,) = first_move_differences(tabbycat, five, range(1, 2))
    assert difference.moves == () and difference.position == tabbycat.deal(1).text()
    assert difference.second_position == five.deal(1).text()


def test_rule_differences_show_values_as_the_file_writes_them():
    spider, two_suits = patience.find_variant("spider"), patience.find_variant("spider-2suits")
    assert [str(d) for d in rule_differences(spider, two_suits)] == [
        "decks: 2 | 4", "suits: (not set) | [C, H]"]


def test_diff_stats_compares_the_win_rates():
    result = run("diff", "tabbycat", "manx", "--deals", "1", "--stats", "3",
                 "--max-positions", "2000")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-4:] == [
        "win rate over deals 1-3 (2,000 positions per deal, 95% intervals):",
        "  tabbycat: 66.7% (20.8% to 100.0%); 2 won, 1 undecided",
        "  manx:     66.7% (20.8% to 100.0%); 2 won, 1 undecided",
        "  difference: +0.0 points (-56.7 points to +56.7 points)"]


def test_diff_of_an_unknown_variant_exits_2():
    result = run("diff", "tabbycat", "no-such-variant")
    assert result.returncode == 2
    assert result.stderr.startswith("error: unknown variant 'no-such-variant'")


# --- patience schema ---------------------------------------------------------------------


def test_the_shipped_schema_is_the_generated_one():
    assert shipped_schema() == schema_text(), (
        f"patience/{SCHEMA_FILE} is stale: regenerate it with "
        f"'patience schema > patience/{SCHEMA_FILE}'")
    result = run("schema")
    assert result.returncode == 0
    assert result.stdout == schema_text()
    path = run("schema", "--path").stdout.strip()
    assert Path(path).read_text(encoding="utf-8") == schema_text()


def test_the_schema_has_every_key_the_loader_knows(monkeypatch):
    from patience.definition import GROUP_KEYS, STOCK_KEYS, TOP_KEYS

    schema = variant_schema()
    group = schema["properties"]["piles"]["additionalProperties"]
    assert list(schema["properties"]) == list(TOP_KEYS)
    assert list(group["properties"]) == list(GROUP_KEYS)
    assert list(schema["properties"]["stock"]["properties"]) == list(STOCK_KEYS)
    # a key the loader gains appears by itself, accepting any value until it is described
    monkeypatch.setattr(patience.schema, "TOP_KEYS", (*TOP_KEYS, "expect"))
    monkeypatch.setattr(patience.schema, "GROUP_KEYS", (*GROUP_KEYS, "limit"))
    schema = variant_schema()
    assert schema["properties"]["expect"] == {"description": "See docs/authoring.md."}
    assert "limit" in schema["properties"]["piles"]["additionalProperties"]["properties"]


VARIANT_FILES = sorted([*(ROOT / "variants").glob("*.yaml"),
                        *(ROOT / "docs" / "examples").glob("*.yaml")])


def test_every_shipped_and_example_file_is_valid_by_the_schema():
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft7Validator(json.loads(shipped_schema()))
    jsonschema.Draft7Validator.check_schema(validator.schema)
    invalid = {path.name: [e.message for e in validator.iter_errors(
        yaml.safe_load(path.read_text(encoding="utf-8")))] for path in VARIANT_FILES}
    assert {name: errors for name, errors in invalid.items() if errors} == {}


@pytest.mark.parametrize("name, message", [
    ("unknown_key.yaml", "Additional properties are not allowed ('removel' was unexpected)"),
    ("wrong_type_count.yaml", "'four' is not of type 'integer'"),
    ("missing_key.yaml", "'win' is a required property"),
    ("two_errors.yaml", "0 is less than the minimum of 1"),
])
def test_the_schema_catches_what_an_editor_can_see(name, message):
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft7Validator(json.loads(shipped_schema()))
    data = yaml.safe_load((ROOT / "tests" / "broken" / name).read_text(encoding="utf-8"))
    assert [e.message for e in validator.iter_errors(data)] == [message]


def test_the_docs_show_the_editor_line():
    text = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    assert re.search(r"^# yaml-language-server: \$schema=\S+variant\.schema\.json$", text,
                     re.MULTILINE)
