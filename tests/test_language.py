"""The rule language: parsing, checking and compiling expressions."""

from __future__ import annotations

import re
import textwrap

import pytest

import patience
from patience.errors import VariantError
from patience.language import (
    BoolOp,
    Checker,
    ParseError,
    Quantifier,
    Scope,
    Type,
    parse_expression,
    parse_signature,
)
from patience.variant import find_variant

SCOPE = Scope(constants={"wrap": (Type.BOOL, True)}, groups=frozenset({"columns", "tail"}),
              predicates={}, variables={"pile": Type.PILE, "run": Type.RUN,
                                        "source": Type.PILE},
              nonempty=frozenset({"source"}))


def problems(text: str) -> list[tuple[str, str]]:
    """(message, the quoted text under the caret) for each problem found."""
    return [(p.message, text[p.span[0]:p.span[1]])
            for p in Checker(SCOPE).check(parse_expression(text))]


def test_and_or_chains_flatten_and_keep_spans():
    node = parse_expression("pile.empty or run.size == 1 or source in columns")
    assert isinstance(node, BoolOp) and node.op == "or" and len(node.values) == 3
    text = "pile.empty or run.size == 1 or source in columns"
    assert [text[v.span[0]:v.span[1]] for v in node.values] == [
        "pile.empty", "run.size == 1", "source in columns"]


def test_quantifier_over_pairs_parses_names_and_body():
    node = parse_expression("all below, above in pairs(run): above.rank < below.rank")
    assert isinstance(node, Quantifier)
    assert (node.kind, node.names) == ("all", ("below", "above"))


def test_keywords_are_not_names_but_longer_names_are():
    assert problems("android and not pile.empty")[0][0].startswith("unknown name 'android'")
    with pytest.raises(ParseError):
        parse_expression("pile.empty and")


@pytest.mark.parametrize("text, message, under", [
    ("pile.sise == 1", ("a pile has no attribute 'sise'; it has empty, size, top, bottom, "
                        "index, row, column, covered"),
     "pile.sise"),
    ("run.bottom.rank == H", "cannot compare an int with a suit", "run.bottom.rank == H"),
    ("run.size", "this is an int, but a bool is needed here", "run.size"),
    ("pile.top.rank == K", ("pile.top is read where pile may be empty; check it first, "
                            "e.g. 'pile.empty or …' or 'not pile.empty and …'"), "pile.top"),
    ("colums", ("unknown name 'colums'; did you mean 'columns'? The names here are pile, "
                "run, source (variables), wrap (parameters), columns, tail (pile groups) "
                "and the built-in A, J, Q, K, C, D, H, S, clubs, diamonds, hearts, spades, "
                "black, red"), "colums"),
    ("source in colums", ("unknown pile group 'colums'; did you mean 'columns'? The pile "
                          "groups are columns, tail"), "source in colums"),
    ("run.size % run.size == 0", ("the right side of '%' must be a constant (a number, a "
                                  "rank name or a parameter)"), "run.size"),
    ("run < pile", "'<' compares numbers, not a run", "run < pile"),
    ("all p in columns: p.size", "the body of 'all' must be a bool, not an int", "p.size"),
])
def test_checker_reports_the_problem_and_where(text, message, under):
    assert problems(text) == [(message, under)]


@pytest.mark.parametrize("text", [
    "pile.empty or pile.top.rank == K",
    "not pile.empty and pile.top.rank == K",
    "pile.size > 0 and pile.bottom.rank == K",
    "pile.size >= 1 and pile.top.rank == K",
    "source.top.rank == K",  # the source of a move always holds the run
    "all p in columns: p.empty or p.top.rank == K",
])
def test_guarded_reads_of_top_are_accepted(text):
    assert problems(text) == []


def test_unguarded_read_inside_a_quantifier_is_rejected():
    assert problems("all p in columns: p.top.rank == K")[0][1] == "p.top"


def test_parameter_types_come_from_names_or_annotations():
    signature = parse_signature("f(run, pile, base, n: int)")
    assert [p.type for p in signature.parameters] == [Type.RUN, Type.PILE, Type.CARD, Type.INT]
    with pytest.raises(ParseError, match="unknown parameter type 'runn'"):
        parse_signature("f(r: runn)")


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return str(path)


def test_a_false_parameter_folds_away(tmp_path):
    # with wrap false the King-on-Ace clause is gone from the table, not tested per move
    nowrap = find_variant("tabbycat-nowrap")
    king, ace = 13 * 4, 1 * 4
    table = nowrap.generated.generate_moves.__globals__["table_goes_on"]
    assert table[king][ace] is False
    assert find_variant("tabbycat").generated.generate_moves.__globals__["table_goes_on"][king][ace]


def test_recursive_predicates_are_rejected(tmp_path):
    path = write(tmp_path, "loop.yaml", """\
        extends: tabbycat
        id: loop
        predicates:
          a(card): b(card)
          b(card): a(card)
    """)
    with pytest.raises(VariantError, match="calls itself"):
        find_variant(path)


def test_inlining_does_not_capture_argument_names(tmp_path):
    # q's quantifier binds 'above'; the caller passes its own 'above' as q's card. With
    # capture, q would compare each card with itself and always hold, so a run of three
    # could never move; correctly, q(8, 9 8 7) is false (8 <= 7 fails) and it may move.
    path = write(tmp_path, "capture.yaml", """\
        extends: tabbycat
        id: capture
        predicates:
          q(card, run): "all below, above in pairs(run): card.rank <= above.rank"
        piles:
          columns:
            moves: "in_sequence(run) and (run.size <= 2
                    or not (all below, above in pairs(run): q(above, run)))"
    """)
    variant = find_variant(path)
    rest = [c for c in variant.deck if c not in (9 * 4, 8 * 4, 7 * 4)]
    from patience.cards import card_code
    game = variant.position("c:9C8C7C/// t: f:/// s:" + "".join(card_code(c) for c in rest))
    moves = {game.notation(m) for m in game.generate_moves()}
    assert {"c1:3-c2", "c1:2-c2", "c1:1-c2"} <= moves


def test_generated_code_holds_no_user_identifiers_but_table_names():
    """User text reaches the generated source only in the comments that quote each rule
    (patience.generator.comment: one line each), never in its code."""
    variant = find_variant("tabbycat")
    lines = variant.generated.source.splitlines()
    notes = [line for line in lines if line.lstrip().startswith("#")]
    assert notes and all(line.lstrip().startswith(("# piles.", "# win ", "# stock.",
                                                   "# the rules of tabbycat"))
                         for line in notes)
    source = "\n".join(line for line in lines if line not in notes)
    assert "table_goes_on[" in source  # a predicate's table is named after it
    source = re.sub(r"table_\w+", "table", source)
    for name in ("goes_on", "in_sequence", "complete_set", "wrap", "columns", "foundations"):
        assert name not in source
    assert "eval" not in source and "exec" not in source


def test_every_shipped_tabby_cat_variant_reads_only_ranks():
    # the Tabby Cat / Manx family never looks at suits or colours (Spider's family does)
    family = [name for name in patience.shipped_variants()
              if find_variant(name).family == "Tabby Cat / Manx"]
    assert len(family) == 8
    for name in family:
        assert find_variant(name).card_attributes_read == {"rank"}


@pytest.mark.parametrize("rule, expected", [
    # a one-card run has no pairs: 'any' over no pairs is false, 'all' is true
    ("pile.empty and (any below, above in pairs(run): true)", set()),
    ("pile.empty and source in columns and (all below, above in pairs(run): false)",
     {"c1:1-t", "c2:1-t", "c3:1-t", "c4:1-t"}),
])
def test_quantifier_with_a_constant_body_respects_runs_without_pairs(tmp_path, rule, expected):
    path = write(tmp_path, "constant.yaml", f"""\
        extends: tabbycat
        id: constant
        piles:
          tail:
            accepts: "{rule}"
    """)
    game = find_variant(path).deal(1)
    to_tail = {game.notation(m) for m in game.generate_moves() if game.notation(m).endswith("-t")}
    assert to_tail == expected
    for move in game.legal_moves:
        assert game.explain(move) is None


@pytest.mark.parametrize("fragment, message", [
    ("piles:\n  columns:\n    accepts: \"pile.empty or pile.top.rank % 0 == 1\"\n",
     "division by zero: the right side of '%' is 0"),
    (("parameters:\n  zero: 0\npiles:\n  columns:\n"
      "    accepts: \"pile.empty or pile.top.rank // zero == 1\"\n"),
     "division by zero: the right side of '//' is 0"),
    ("parameters:\n  K: 3\n", "parameter name 'K' is a built-in constant; choose another name"),
    ("parameters:\n  pairs: 3\n", "parameter name 'pairs' is a word of the rule language"),
    ("parameters:\n  columns: 3\n", "parameter 'columns' has the name of a pile group"),
    ("stock:\n  deals_to: []\n", "48 cards are left for the stock, but no stock.deals_to"),
])
def test_loader_rejects(tmp_path, fragment, message):
    path = write(tmp_path, "bad.yaml", "extends: tabbycat\nid: bad\n" + fragment)
    with pytest.raises(VariantError) as caught:
        find_variant(path)
    assert message in str(caught.value)
    assert "Traceback" not in str(caught.value)


def test_a_broken_signature_does_not_cascade(tmp_path):
    path = write(tmp_path, "sig.yaml", """\
        extends: tabbycat
        id: sig
        predicates:
          "goes_on(card, base: deck)": card.rank == base.rank - 1
    """)
    with pytest.raises(VariantError) as caught:
        find_variant(path)
    assert "unknown parameter type 'deck'" in str(caught.value)
    assert "unknown predicate" not in str(caught.value)


def test_a_moves_rule_reads_the_source_pile_even_beside_a_target_rule(tmp_path):
    # found by the variant fuzzer: 'pile' in a moves rule is the source pile, never the
    # target, also where the generator tests it together with the target's accepts rule
    path = write(tmp_path, "source-pile.yaml", """\
        id: source-pile
        name: Source pile
        description: Cards may leave only piles of at most two cards.
        ranks: 2
        piles:
          columns:
            id: c
            count: 3
            deal: 1
            moves: pile.size <= 2 and run.size == 1
            accepts: "true"
        stock:
          deals_to: [columns]
        win: "false"
    """)
    game = find_variant(path).deal(0)
    game.push("d")
    game.push("d")  # 8 cards: c1 and c2 hold 3, c3 holds 2
    assert [len(game.pile(name)) for name in ("c1", "c2", "c3")] == [3, 3, 2]
    assert {game.notation(m) for m in game.generate_moves()} == {"c3:1-c1", "c3:1-c2"}
    for move in game.legal_moves:
        assert game.explain(move) is None


@pytest.mark.parametrize("fixed_size", [False, True])
def test_a_single_pile_group_addressed_as_a_group(tmp_path, fixed_size):
    # found by the variant fuzzer: a one-pile 'target: first' group (here the tail) must
    # neither break out of the loops around it nor make invalid code
    accepts = "pile.empty and source in columns" + (" and run.size == 1" if fixed_size else "")
    path = write(tmp_path, "first-tail.yaml", f"""\
        extends: tabbycat
        id: first-tail
        piles:
          tail:
            target: first
            accepts: {accepts}
    """)
    game = find_variant(path).deal(1)
    assert {game.notation(m) for m in game.generate_moves()} == {
        "c1:1-c4", "c4:1-c2", "c1:1-t", "c2:1-t", "c3:1-t", "c4:1-t", "d"}
    for move in game.legal_moves:
        assert game.explain(move) is None
