"""Broken variant files (tests/broken/*.yaml): each must fail to load with a VariantError
that names the exact file, line and column of the problem and says what it is."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import patience
from patience.cli.main import main
from patience.errors import VariantError

BROKEN = Path(__file__).parent / "broken"

# file -> the errors it must report, in order: (line, column, a fragment of the message)
EXPECTED: dict[str, list[tuple[int, int, str]]] = {
    # an unclosed flow list: pyyaml notices at the end of the stream
    "bad_yaml.yaml": [(6, 1, "not valid YAML: expected ',' or ']'")],
    "bad_yaml_colon.yaml": [(3, 12, "not valid YAML: mapping values are not allowed here")],
    "duplicate_key.yaml": [(5, 1, "duplicate key 'name' (first written at line 3)")],
    "unknown_key.yaml": [(8, 5, ("unknown key 'removel' in piles.foundations; "
                                 "did you mean 'removal'?"))],
    "wrong_type_count.yaml": [(8, 12, ("piles.columns.count must be a whole number, "
                                       "not 'four'"))],
    "wrong_type_boolean.yaml": [(7, 9, "write true or false, not 'no'")],
    "wrong_type_mapping.yaml": [(7, 9, "piles.tail must be a mapping")],
    "wrong_type_expression.yaml": [(8, 12, ("in piles.tail.moves: this is an int, but a bool "
                                            "is needed"))],
    "bad_expression.yaml": [(8, 31, ("syntax error in piles.columns.accepts: "
                                     "unexpected 'goes_on'"))],
    "unknown_predicate.yaml": [(8, 28, ("unknown predicate 'goes_onto'; "
                                        "did you mean 'goes_on'?"))],
    "unknown_name.yaml": [(8, 29, "unknown name 'sorce'; did you mean 'source'?")],
    "wrong_arity.yaml": [(8, 28, "goes_on(card: card, base: card) takes 2 arguments, not 1")],
    "extends_missing.yaml": [(2, 10, ("'extends' names no variant: unknown variant "
                                      "'tabbycat-nosuchthing'"))],
    "extends_broken_rule.yaml": [(8, 31, ("syntax error in piles.columns.accepts: "
                                          "the expression ends too early"))],
    "cycle_a.yaml": [(1, 10, ("'extends' makes a cycle: "
                              "cycle_a.yaml -> cycle_b.yaml -> cycle_a.yaml"))],
    "cycle_b.yaml": [(1, 10, ("'extends' makes a cycle: "
                              "cycle_b.yaml -> cycle_a.yaml -> cycle_b.yaml"))],
    "extends_itself.yaml": [(2, 10, ("'extends' makes a cycle: "
                                     "extends_itself.yaml -> extends_itself.yaml"))],
    "missing_key.yaml": [(1, 1, "a variant file needs the key 'win'")],
    # said once: not again as an id that is not lower-case letters
    "missing_pile_id.yaml": [(6, 5, "piles.columns needs the key 'id'")],
    "recursive_predicate.yaml": [(7, 3, "predicate 'under' calls itself")],
    "two_errors.yaml": [(5, 8, "decks must be from 1 to 8, not 0"),
                        (9, 24, "in piles.tail.moves: a pile has no attribute 'sise'")],
}


def errors_of(error: VariantError) -> list[VariantError]:
    return list(getattr(error, "errors", [error]))


def test_every_broken_file_has_an_expectation():
    assert sorted(p.name for p in BROKEN.glob("*.yaml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_first_error_is_located_exactly(name):
    path = BROKEN / name
    with pytest.raises(VariantError) as raised:
        patience.find_variant(str(path))
    first = errors_of(raised.value)[0]
    line, column, fragment = EXPECTED[name][0]
    assert first.location is not None
    assert Path(first.location.path).name == name
    assert (first.location.line, first.location.column) == (line, column)
    assert fragment in first.message
    # the rendered error starts with path:line:column and shows the line with a caret
    rendered = first.render()
    assert rendered.startswith(f"{first.location.path}:{line}:{column}: ")
    assert "^" in rendered


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_exactly_the_expected_errors(name):
    """No cascade: a file reports its own problems and nothing else."""
    with pytest.raises(VariantError) as raised:
        patience.find_variant(str(BROKEN / name))
    found = [(Path(e.location.path).name, e.location.line, e.location.column)
             for e in errors_of(raised.value) if e.location is not None]
    assert found == [(name, line, column) for line, column, _ in EXPECTED[name]]
    assert len(errors_of(raised.value)) == len(EXPECTED[name])


def test_a_syntax_error_in_a_rule_causes_no_false_error_in_the_parent():
    # a group whose rule fails to parse must not make the parent's
    # 'stock.deals_to: [columns]' a second, false error in variants/tabbycat.yaml
    with pytest.raises(VariantError) as raised:
        patience.find_variant(str(BROKEN / "bad_expression.yaml"))
    assert len(errors_of(raised.value)) == 1


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_broken_file_is_a_value_error_too(name):
    with pytest.raises(ValueError):
        patience.find_variant(str(BROKEN / name))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_check_reports_located_errors_and_exits_1(name):
    path = str(BROKEN / name)
    result = CliRunner().invoke(main, ["check", path])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    output = result.output  # stdout and stderr together
    for line, column, fragment in EXPECTED[name]:
        assert f"{name}:{line}:{column}: " in output
        assert fragment in output
