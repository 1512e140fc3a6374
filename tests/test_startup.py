"""What a command costs before it does its work (issue #30; ``bench/startup.py`` times it).

A command imports only what it uses: ``patience solve`` never loads the web server, the
terminal player, the studies' database or the test tools. What the variant derives for
every card or pair of cards (the tables of card predicates, the solver's sequence rows) is
computed by calling compiled code, and must be exactly what folding the rule with the cards
as constants gives, which is how it was computed before.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from shipped import REPRESENTATIVES

import patience
from patience import compiler as compiler_module
from patience.compiler import Compiler, Layout, Pile, Tables, name
from patience.language import parse_expression
from patience.solver import rules as solver_rules_module
from patience.variant import Variant

#: modules that other commands (or the tests) use, never a solve
NOT_FOR_SOLVING = ("textual", "starlette", "uvicorn", "dask", "distributed", "matplotlib",
                   "hypothesis", "pytest", "rich", "sqlite3", "socket", "webbrowser",
                   "patience.studies", "patience.web", "patience.play", "patience.testing",
                   # the rules come from the compiled cache: no rule text is parsed
                   "lark")

ODD_ARITHMETIC = """\
extends: tabbycat
id: odd-arithmetic
name: Odd arithmetic
description: Tabby Cat with card predicates that use every operator on cards.
parameters:
  step: 2
predicates:
  goes_on(card, base): "(base.rank - card.rank) % 13 == 1 and (card.color != base.color
    or card.suit == base.suit) and -card.rank < 0 and base.rank ** step >= base.rank
    and card.face_up and near(card, base) and low(card)
    or base.rank // step == 6 and card.rank * 2 + 1 > 3"
  near(a, b): "a.rank - b.rank <= 1 and not a == b"
  low(c): "c.rank <= K - 1 or c.suit == hearts"
expect: []
"""


def imported_modules(*args: str) -> set[str]:
    """The modules a ``patience`` command imports, read from ``python -X importtime``."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "patience", *args],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
            if line.startswith("import time:") and "|" in line}


def test_solve_imports_only_what_it_needs() -> None:
    # the first run may compile the variant into the cache (parsing its rules: lark); a
    # solve is the second
    imported_modules("solve", "freecell", "--seed", "1", "--json")
    modules = imported_modules("solve", "freecell", "--seed", "1", "--json")
    assert "patience.solver" in modules  # the output was read
    unneeded = sorted(module for module in modules
                      if module.startswith(tuple(f"{name}." for name in NOT_FOR_SOLVING))
                      or module in NOT_FOR_SOLVING)
    assert unneeded == []


def compiler_of(variant: Variant) -> Compiler:
    """A compiler of the variant's rules, as ``patience.solver.rules.sequence_rows`` makes."""
    layout = Layout({group.name: group.indices for group in variant.groups})
    face_down = any(any(group.face_down) for group in variant.groups)
    return Compiler(dict(variant.parameters), dict(variant.predicates), layout, Tables(),
                    variant.deck, tabulate=True, face_down=face_down)


def folded_table(compiler: Compiler, predicate: patience.language.Predicate) -> tuple:
    """The predicate's table with every value folded from the rule, card by card."""
    cards = compiler.cards
    size = max(cards) + 1
    if len(predicate.signature.parameters) == 1:
        return tuple(c in cards and compiler.evaluate_on(predicate, [c]) for c in range(size))
    return tuple(tuple(a in cards and b in cards and compiler.evaluate_on(predicate, [a, b])
                       for b in range(size)) for a in range(size))


def variants_to_check(tmp_path: Path, everything: bool = True) -> list[Variant]:
    """The shipped variants (without ``everything``: the representatives of
    tests/shipped.py, the rest run with the slow tests) and one of odd arithmetic."""
    odd = tmp_path / "odd.yaml"
    odd.write_text(ODD_ARITHMETIC, encoding="utf-8")
    names = patience.shipped_variants() if everything else sorted(REPRESENTATIVES)
    return [*(patience.find_variant(name) for name in names), patience.find_variant(odd)]


#: the default run checks the representatives; the slow run every shipped variant
EVERYTHING = pytest.mark.parametrize("everything", [
    False, pytest.param(True, marks=pytest.mark.slow)])


@EVERYTHING
def test_card_tables_are_the_folded_rules(tmp_path: Path, everything: bool) -> None:
    checked = 0
    for variant in variants_to_check(tmp_path, everything):
        compiler = compiler_of(variant)
        for predicate in dict(variant.predicates).values():
            if compiler._is_tabulable(predicate) and \
                    1 <= len(predicate.signature.parameters) <= 2:
                assert compiler._make_table(predicate) == folded_table(compiler, predicate), \
                    (variant.id, predicate.signature.name)
                checked += 1
    assert checked >= (40 if everything else 10)


@EVERYTHING
def test_sequence_rows_are_the_folded_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            everything: bool) -> None:
    variants = variants_to_check(tmp_path, everything)
    compiled = [solver_rules_module.sequence_rows(variant) for variant in variants]
    # without compiled card functions every pair is folded by the compiler, as before
    monkeypatch.setattr(compiler_module.Compiler, "card_function",
                        lambda *args, **kwargs: None)
    folded = [solver_rules_module.sequence_rows(variant) for variant in variants]
    assert compiled == folded
    assert sum(len(rows) for rows in compiled) >= (25 if everything else 8)


def test_card_function_refuses_what_reads_more_than_cards() -> None:
    variant = patience.find_variant("tabbycat")
    compiler = compiler_of(variant)
    pile = {"pile": Pile(name("src"), name("s"), "columns")}
    reads_pile = parse_expression("a.rank == b.rank - 1 and pile.size > 2")
    assert compiler.card_function(reads_pile, ["a", "b"], pile) is None
    cards_only = parse_expression("goes_on(a, b) and a.suit == b.suit")
    function = compiler.card_function(cards_only, ["a", "b"], pile)
    assert function is not None
    assert function(4 * 3, 4 * 4) and not function(4 * 4, 4 * 3)  # a 3 on a 4, not back
    assert not function(4 * 3 + 1, 4 * 4)  # not on another suit


def test_saved_parser_is_the_grammars() -> None:
    """``patience/_rules_parser.py`` was written from today's ``rules.lark`` (write it again
    as its docstring says), and parses every text of the shipped files as the parser built
    from the grammar does: the same trees with the same places, the same errors."""
    import hashlib

    import lark
    import yaml

    from patience import _rules_parser, language

    grammar = language._grammar()
    assert _rules_parser.GRAMMAR_SHA256 == hashlib.sha256(grammar.encode()).hexdigest(), \
        "rules.lark changed: write patience/_rules_parser.py again (see its docstring)"
    if _rules_parser.LARK_VERSION != lark.__version__:
        pytest.skip(f"saved by lark {_rules_parser.LARK_VERSION}, not {lark.__version__}: "
                    "the parser is built from the grammar")
    saved = lark.Lark.load(_rules_parser.PARSER)
    built = language._build_parser(grammar)
    assert language._parser().source_path == "<deserialized>"  # the saved one is used

    def strings(data: object) -> list[str]:
        if isinstance(data, str):
            return [data]
        if isinstance(data, dict):
            return [s for key, value in data.items() for s in strings(key) + strings(value)]
        if isinstance(data, list):
            return [s for item in data for s in strings(item)]
        return []

    texts = {text for path in patience.variant.variants_directory().glob("*.yaml")
             for text in strings(yaml.safe_load(path.read_text(encoding="utf-8")))}
    texts |= {"all a, b in pairs(run): a.rank ==", "f(", "x +* 2", "pile.top.rank = 3", ""}

    def outcome(parser: lark.Lark, text: str, start: str) -> object:
        try:
            tree = parser.parse(text, start=start)
        except lark.exceptions.UnexpectedInput as error:
            return (type(error).__name__, error.pos_in_stream,
                    sorted(getattr(error, "expected", None) or ()))
        return language._to_ast()().transform(tree)

    for text in sorted(texts):
        for start in ("start", "signature"):
            assert outcome(saved, text, start) == outcome(built, text, start), (text, start)
    assert len(texts) > 300


@pytest.mark.slow  # seconds: every rule of every shipped file
def test_expression_text_is_ast_unparse(monkeypatch: pytest.MonkeyPatch) -> None:
    """The generator writes each compiled expression with ``expression_text``: the text
    ``ast.unparse`` writes, for every expression of every shipped variant."""
    import ast

    from patience import generator
    from patience.pysource import expression_text
    from patience.variant import load_variant_text, resolve

    written: list[ast.expr] = []

    def source(expr: ast.expr) -> str:
        written.append(expr)
        return expression_text(expr)

    monkeypatch.setattr(generator, "_source", source)
    for variant_name in patience.shipped_variants():
        path = resolve(variant_name)
        assert load_variant_text(path.read_text(encoding="utf-8"), str(path)).generated
    assert len(written) > 1000
    for expr in written:
        assert expression_text(expr) == ast.unparse(expr)
    # what it does not write itself, ast.unparse does
    odd = ast.Compare(ast.Constant("x"), [ast.In()], [ast.Name("y", ast.Load())])
    assert expression_text(odd) == ast.unparse(odd) == "'x' in y"
