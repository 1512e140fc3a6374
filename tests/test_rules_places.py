"""Places: a group laid out as a grid (``layout: {rows, columns}``), a pile's place
(``pile.index``, ``.row``, ``.column``) and its neighbours (``left(pile)``, ``below_right(p, 2)``,
…) in the rule language, exact positions with exact move sets worked out by hand
(docs/authoring.md and docs/language.md, "Places"), the loader's located errors, and the
core against the reference on the same positions.

The grid of these tests is 3 × 3, g1–g3 the first row::

    g1 g2 g3
    g4 g5 g6
    g7 g8 g9

with eight cards (Ace and Two of each suit) on every pile but the middle one, g5.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rules_helpers import load_error

import patience
from patience import native
from patience.places import Arrangement

GRID = """\
id: places-test
name: Places (test)
description: A three by three grid whose middle pile takes cards by a rule of places.
sources: [test only]
decks: 1
ranks: 2
parameters:
  two: 2
piles:
  grid:
    id: g
    count: 9
    deal: [1, 1, 1, 1, 0, 1, 1, 1, 1]
    layout: {rows: 3, columns: 3}
    moves: run.size == 1
    accepts: "ACCEPTS"
win: "WIN"
"""

#: every pile but the middle one holds a card
AROUND = "g:AC/AD/AH/AS//2C/2D/2H/2S s:"


def grid(tmp_path: Path, accepts: str, win: str = "false") -> patience.Variant:
    path = tmp_path / "places-test.yaml"
    path.write_text(GRID.replace("ACCEPTS", accepts).replace("WIN", win), encoding="utf-8")
    return patience.find_variant(str(path))


def moves_at(variant: patience.Variant, position: str) -> set[str]:
    game = patience.Game.from_text(variant, position)
    found = {game.notation(move) for move in game.generate_moves()}
    if native.AVAILABLE:  # the core reads the same places
        piles, stock = [list(p) for p in game.piles], list(game.stock)
        core = native.core(variant)
        assert {game.notation(move) for move in core.generate_moves(piles, stock)} == found
    return found


@pytest.mark.parametrize(("neighbour", "source"), [
    ("left(pile)", "g4"), ("right(pile)", "g6"), ("above(pile)", "g2"), ("below(pile)", "g8"),
    ("above_left(pile)", "g1"), ("above_right(pile)", "g3"), ("below_left(pile)", "g7"),
    ("below_right(pile)", "g9"), ("right(pile, -1)", "g4"), ("left(above(pile))", "g1"),
    ("below(pile, 1)", "g8"), ("left(left(pile), -1)", None), ("left(pile, two)", None),
    ("above(pile, 2)", None), ("below_right(pile, 0)", None),
])
def test_a_neighbour_of_the_middle_pile(tmp_path, neighbour, source):
    # the middle pile takes a card only from the pile the neighbour names; past the edge
    # there is no pile, which is no source (and left(pile, 0) is the pile itself)
    variant = grid(tmp_path, f"pile.empty and {neighbour} == source")
    expected = set() if source is None else {f"{source}:1-g5"}
    assert moves_at(variant, AROUND) == expected


def test_no_pile_past_the_edge_reads_as_an_empty_pile(tmp_path):
    # a card may go to g5 from a pile whose left neighbour is empty: the first column (no
    # pile on its left) and g6 (g5 on its left)
    variant = grid(tmp_path, "pile.empty and left(source).empty")
    assert moves_at(variant, AROUND) == {"g1:1-g5", "g4:1-g5", "g7:1-g5", "g6:1-g5"}


def test_a_guarded_neighbour_top_is_read(tmp_path):
    # to g5 from a pile whose right neighbour holds a Two
    variant = grid(tmp_path, "pile.empty and not right(source).empty and "
                             "right(source).top.rank == 2")
    # right neighbours: g1→g2 AD, g2→g3 AH, g4→g5 empty, g7→g8 2D, g8→g9 2H; the last
    # column has none
    assert moves_at(variant, AROUND) == {"g7:1-g5", "g8:1-g5"}


@pytest.mark.parametrize(("rule", "sources"), [
    ("source.row == 1", {"g1", "g2", "g3"}),
    ("source.column == 3", {"g3", "g6", "g9"}),
    ("source.index == 7", {"g7"}),
    ("source.row == pile.row", {"g4", "g6"}),
    ("source.column + source.row == 4", {"g3", "g7"}),  # g5 is the target
])
def test_a_pile_s_place(tmp_path, rule, sources):
    variant = grid(tmp_path, f"pile.empty and {rule}")
    assert moves_at(variant, AROUND) == {f"{source}:1-g5" for source in sources}


def test_places_in_a_quantifier_fold_when_the_variant_compiles(tmp_path):
    # won when each pile of the last column has an empty pile on its left, or holds no
    # card: g5 is empty, so after g6's card moves away (g6:1-g5 is not a move here) …
    variant = grid(tmp_path, "false", win="all p in grid: p.column < 3 or left(p).empty")
    game = patience.Game.from_text(variant, AROUND)
    assert not game.is_won()
    won = patience.Game.from_text(variant, "g:AC//AH/AS//2C/2D//2S s:AD2H")
    assert won.is_won()


def test_the_rules_of_a_row_without_layout_read_places_too(tmp_path):
    # a group without a layout is one row: its piles' column is their index, row 1
    path = tmp_path / "row.yaml"
    path.write_text(GRID.replace("    layout: {rows: 3, columns: 3}\n", "").replace(
        "ACCEPTS", "pile.empty and source.row == 1 and left(source, 3) == pile").replace(
        "WIN", "false"), "utf-8")
    variant = patience.find_variant(str(path))
    assert moves_at(variant, AROUND) == {"g8:1-g5"}


# --- the loader's errors -----------------------------------------------------------------


@pytest.mark.parametrize(("layout", "message", "line"), [
    ("{rows: 2, columns: 4}", ("piles.grid.layout has 2 rows of 4 columns, 8 places, for 9 "
                              "piles: rows × columns must be the group's count"), 14),
    ("{rows: 3}", "piles.grid.layout needs the key 'columns'", 14),
    ("{rows: 3, columns: 3, overlap: [[1]]}", ("piles.grid.layout gives overlap and "
     "rows/columns: an overlap layout's rows are its lists, give one or the other"), 14),
    ("{overlap: [[2], [1, 3]]}", ("piles.grid.layout.overlap places 3 piles for a group of 9: "
                                 "give one x position per pile"), 14),
    ("{overlap: [[1, 1], [0, 2, 4, 6, 8, 10, 12]]}", ("piles.grid.layout.overlap: the x "
     "positions of a row must grow from left to right, not [1, 1]"), 14),
    ("{cols: 3}", ("unknown key 'cols' in piles.grid.layout; did you mean 'columns'? The keys "
                  "of piles.grid.layout are rows, columns, overlap, ring, start, centre"), 14),
    # a ring and its centre (drawing data: docs/authoring.md, "Places")
    ("{ring: 8}", ("piles.grid.layout has a ring of 8 places for 9 piles: a ring's places "
                   "are the group's count"), 14),
    ("{ring: 2}", "piles.grid.layout.ring must be from 3 to 64, not 2", 14),
    ("{ring: 9, start: 10}", "piles.grid.layout.start must be from 1 to 9, not 10", 14),
    ("{start: 3}", ("piles.grid.layout.start is the place of the first pile of a ring: give "
                    "piles.grid.layout.ring too"), 14),
    ("{ring: 9, rows: 3, columns: 3}", ("piles.grid.layout gives ring and rows and columns: a "
     "group stands in a grid, overlapping rows, a ring or the centre of a ring, give one"), 14),
    ("{centre: gird}", ("piles.grid.layout.centre names 'gird', which is no pile group (did "
     "you mean 'grid'?): give the group whose ring it stands in the middle of"), 14),
    ("{centre: grid}", ("piles.grid.layout.centre names 'grid', which stands in no ring: give "
     "piles.grid.layout a ring (ring: its count), or name a group that has one"), 14),
    ("{center: grid}", ("unknown key 'center' in piles.grid.layout; did you mean 'centre'? "
                        "The keys of piles.grid.layout are rows, columns, overlap, ring, "
                        "start, centre"), 14),
])
def test_a_bad_layout_is_a_located_error(tmp_path, layout, message, line):
    text = GRID.replace("{rows: 3, columns: 3}", layout).replace("ACCEPTS", "false") \
        .replace("WIN", "false")
    error = load_error(tmp_path, text)
    messages = [e.message for e in getattr(error, "errors", [error])]
    assert message in messages
    found = next(e for e in getattr(error, "errors", [error]) if e.message == message)
    assert found.location is not None and found.location.line == line
    assert found.code in ("layout", "missing-key", "unknown-key", "out-of-range")


def test_a_bad_x_position_is_said_once(tmp_path):
    """A position that is no whole number is refused, and the row is not then judged with a
    made-up value in its place (no second error about the order)."""
    text = GRID.replace("{rows: 3, columns: 3}", "{overlap: [[1, x, 3], [0, 2, 4, 6, 8, 10]]}") \
        .replace("ACCEPTS", "false").replace("WIN", "false")
    error = load_error(tmp_path, text)
    messages = [e.message for e in getattr(error, "errors", [error])]
    assert messages == [("each x position of piles.grid.layout.overlap must be a whole "
                         "number, not 'x'")]


@pytest.mark.parametrize(("accepts", "message"), [
    ("left(pile).top.rank == 2", ("in piles.grid.accepts: left(pile).top is read where "
     "left(pile) may be empty; check it first, e.g. 'left(pile).empty or …' or "
     "'not left(pile).empty and …'")),
    ("not left(pile).empty and right(pile).top.rank == 2", ("in piles.grid.accepts: "
     "right(pile).top is read where right(pile) may be empty; check it first, e.g. "
     "'right(pile).empty or …' or 'not right(pile).empty and …'")),
    ("left(pile, pile.size).empty", ("in piles.grid.accepts: the distance of left() must be "
     "a constant (a number or a parameter): a neighbour is found when the variant compiles")),
    ("left(pile, 1, 2).empty", ("syntax error in piles.grid.accepts: left() takes a pile and, "
     "if you like, how many places away: left(pile) or left(pile, 2); not 3 arguments")),
    ("left(run).empty", ("in piles.grid.accepts: the first argument of left() must be a pile, "
     "not a run")),
    ("left(stock).empty", ("in piles.grid.accepts: the first argument of left() must be a "
     "pile, not a stock")),
    ("run.bottom.index == 1", ("in piles.grid.accepts: a card has no attribute 'index'; it "
     "has rank, suit, color, face_up")),
])
def test_a_bad_neighbour_is_a_located_error(tmp_path, accepts, message):
    error = load_error(tmp_path, GRID.replace("ACCEPTS", accepts).replace("WIN", "false"))
    messages = [e.message for e in getattr(error, "errors", [error])]
    assert message in messages, messages


def test_a_predicate_may_not_be_named_like_a_neighbour(tmp_path):
    text = GRID.replace("ACCEPTS", "false").replace("WIN", "false").replace(
        "piles:", "predicates:\n  left(card): card.rank == 1\npiles:")
    error = load_error(tmp_path, text)
    messages = [e.message for e in getattr(error, "errors", [error])]
    assert ("predicate 'left' has the name of a neighbour of the rule language (left(pile)); "
            "choose another name") in messages


# --- the arrangement ---------------------------------------------------------------------


def test_an_arrangement_numbers_its_piles_row_by_row():
    grid_ = Arrangement.grid(3, 3)
    assert [grid_.neighbour(4, d, 1) for d in ("left", "right", "above", "below",
                                                "above_left", "above_right", "below_left",
                                                "below_right")] == [3, 5, 1, 7, 0, 2, 6, 8]
    assert grid_.neighbour(0, "left", 1) is None
    assert grid_.neighbour(0, "below", 3) is None
    assert grid_.covering(0) == ()  # a grid covers nothing


# --- covering ----------------------------------------------------------------------------

PYRAMID = """\
id: pyramid-test
name: Pyramid (test)
description: A pyramid of three rows whose uncovered cards go to a waste.
sources: [test only]
decks: 1
ranks: 2
piles:
  pyramid:
    id: p
    count: 6
    deal: 1
    layout: {overlap: [[2], [1, 3], [0, 2, 4]]}
    moves: "MOVES"
    accepts: "false"
  waste:
    id: w
    count: 1
    deal: 2
    accepts: "ACCEPTS"
win: "all p in pyramid: p.empty"
"""


def pyramid(tmp_path: Path, moves: str = "true", accepts: str = "true") -> patience.Variant:
    """The pyramid of these tests: p1 at the top, p2 p3, then p4 p5 p6 in front::

          p1
        p2  p3
      p4  p5  p6

    p1 lies under p2 and p3, p2 under p4 and p5, p3 under p5 and p6."""
    path = tmp_path / "pyramid-test.yaml"
    path.write_text(PYRAMID.replace("MOVES", moves).replace("ACCEPTS", accepts), "utf-8")
    return patience.find_variant(str(path))


def test_only_uncovered_piles_give_cards_whatever_the_moves_rule_says(tmp_path):
    variant = pyramid(tmp_path)  # moves: true
    assert moves_at(variant, "p:AC/AD/AH/AS/2C/2D w:2H2S s:") == {
        "p4:1-w", "p5:1-w", "p6:1-w"}
    # p5 gone: p2 still lies under p4, p3 under p6
    assert moves_at(variant, "p:AC/AD/AH/AS//2D w:2H2S2C s:") == {"p4:1-w", "p6:1-w"}
    # p4 and p5 gone: p2 is free
    assert moves_at(variant, "p:AC/AD/AH///2D w:2H2S2CAS s:") == {"p2:1-w", "p6:1-w"}
    # p2 … p6 gone: the top is free
    assert moves_at(variant, "p:AC///// w:2H2S2CAS2DADAH s:") == {"p1:1-w"}


def test_a_covered_move_is_refused_with_the_covering_piles(tmp_path):
    game = patience.Game.from_text(pyramid(tmp_path), "p:AC/AD/AH/AS//2D w:2H2S2C s:")
    assert game.explain("p2:1-w") == ("p2:1-w: p2 is covered by p4: a covered pile gives no "
                                      "card (piles.pyramid.layout)")
    assert game.explain("p3:1-w") == ("p3:1-w: p3 is covered by p6: a covered pile gives no "
                                      "card (piles.pyramid.layout)")


def test_a_rule_reads_whether_a_pile_is_covered(tmp_path):
    # the waste takes a card only from a pile with a covered neighbour on its right
    variant = pyramid(tmp_path, accepts="not right(source).empty and right(source).covered")
    # p4's right, p5, is in the front row: covered by nothing; p2's right, p3, is covered by p6
    assert moves_at(variant, "p:AC/AD/AH/AS//2D w:2H2S2C s:") == set()
    assert moves_at(variant, "p:AC/AD/AH///2D w:2H2S2CAS s:") == {"p2:1-w"}


def test_row_and_column_of_an_overlap_layout_count_its_rows(tmp_path):
    variant = pyramid(tmp_path, accepts="source.row == 3 and source.column == 2")
    assert moves_at(variant, "p:AC/AD/AH/AS/2C/2D w:2H2S s:") == {"p5:1-w"}


# --- closing gaps ------------------------------------------------------------------------

CLOSING = """\
id: closing-test
name: Closing (test)
description: A row that closes its gaps, a waste, and a foundation filled from the row.
sources: [test only]
decks: 1
ranks: 2
piles:
  row:
    id: r
    count: 6
    deal: 1
    close_gaps: CLOSE
    moves: run.size == 1
    accepts: "false"
  out:
    id: o
    count: 1
    deal: 2
    accepts: source in row
win: "all p in row: p.empty"
"""


def closing(tmp_path: Path, close: str = "true") -> patience.Variant:
    path = tmp_path / "closing-test.yaml"
    path.write_text(CLOSING.replace("CLOSE", close), "utf-8")
    return patience.find_variant(str(path))


ROW = "r:AC/AD/AH/AS/2C/2D o:2H2S s:"


def test_the_piles_after_a_gap_slide_toward_the_start(tmp_path):
    variant = closing(tmp_path)
    game = patience.Game.from_text(variant, ROW)
    game.push("r2:1-o")
    assert game.text() == "r:AC/AH/AS/2C/2D/ o:2H2SAD s:"
    # one forced step a pile: each moves whole into the first gap
    assert [game.notation(step) for step in game.forced_moves_of_last_move()] == [
        "r3:1-r2", "r4:1-r3", "r5:1-r4", "r6:1-r5"]
    game.push("r5:1-o")  # the last pile: no gap after it, nothing slides
    assert game.text() == "r:AC/AH/AS/2C// o:2H2SAD2D s:"
    game.pop()
    game.pop()
    assert game.text() == ROW  # taken back exactly
    without = patience.Game.from_text(closing(tmp_path, "false"), ROW)
    without.push("r2:1-o")
    assert without.text() == "r:AC//AH/AS/2C/2D o:2H2SAD s:"


def test_a_gap_written_into_a_position_closes_at_once(tmp_path):
    # a position is settled as it is read: its forced steps, closing gaps among them
    game = patience.Game.from_text(closing(tmp_path), "r:AC//AH//2C/2D o:2H2SADAS s:")
    assert game.text() == "r:AC/AH/2C/2D// o:2H2SADAS s:"
    assert moves_at(closing(tmp_path), "r:AC//AH//2C/2D o:2H2SADAS s:") == {
        "r1:1-o", "r2:1-o", "r3:1-o", "r4:1-o"}


def test_the_core_closes_gaps_as_the_reference(tmp_path):
    if not native.AVAILABLE:
        pytest.skip(str(native.REASON))
    from test_native import assert_same_position_facts, random_playout

    variant = closing(tmp_path)
    assert_same_position_facts(patience.Game.from_text(variant, ROW))
    assert_same_position_facts(patience.Game.from_text(variant, "r:AC/AH/AS/2C/2D/ o:2H2SAD s:"))
    for number in (1, 2, 3):
        random_playout(variant.deal(number), seed=number, length=10)


def test_close_gaps_is_true_false_or_deal(tmp_path):
    error = load_error(tmp_path, CLOSING.replace("CLOSE", "yes please"))
    messages = [e.message for e in getattr(error, "errors", [error])]
    assert "piles.row.close_gaps must be true, false or deal, not 'yes please'" in messages


# --- a ring and its centre: drawing data, no rule -----------------------------------------


def test_a_ring_is_read_by_the_rules_as_one_row_that_does_not_wrap(tmp_path):
    text = GRID.replace("{rows: 3, columns: 3}", "{ring: 9, start: 4}")
    ring = tmp_path / "ring.yaml"
    ring.write_text(text.replace("ACCEPTS", "pile.empty and pile.row == 1 and "
                                 "pile.column == 5 and right(pile).index == 6 and "
                                 "left(pile, 4).index == 1 and left(pile, 5).empty and "
                                 "right(pile, 5).empty").replace("WIN", "false"))
    variant = patience.find_variant(str(ring))
    ring_of = variant.groups[0].ring
    assert (ring_of.places, ring_of.start) == (9, 4) and variant.groups[0].layout is None
    assert variant.pile_maps.place("row") == (1,) * 9
    assert variant.pile_maps.place("column") == tuple(range(1, 10))
    assert moves_at(variant, AROUND) == {f"g{n}:1-g5" for n in (1, 2, 3, 4, 6, 7, 8, 9)}


def test_a_ring_or_a_centre_does_not_change_the_rules_hash_and_a_grid_does(tmp_path):
    def hashed(layout: str, extra: str = "") -> str:
        path = tmp_path / "hashed.yaml"
        path.write_text(GRID.replace("    layout: {rows: 3, columns: 3}\n", layout)
                        .replace("ACCEPTS", "false").replace('win: "WIN"', extra + "win: false"))
        return patience.find_variant(str(path)).rules_hash

    centre = "  middle:\n    id: m\n    count: 1\n    layout: {centre: grid}\n"
    plain = hashed("")
    assert hashed("    layout: {ring: 9, start: 5}\n") == plain
    assert hashed("    layout: {ring: 9}\n", centre.replace("    layout: {centre: grid}\n", "")) \
        == hashed("    layout: {ring: 9}\n", centre)
    assert hashed("    layout: {rows: 3, columns: 3}\n") != plain


@pytest.mark.parametrize("name", ["clock", "grandfathers-clock"])
def test_the_clocks_play_as_they_did_before_they_were_drawn_round(tmp_path, name):
    shipped = patience.find_variant(name)
    text = Path(shipped.path).read_text(encoding="utf-8")
    path = tmp_path / f"{name}.yaml"
    path.write_text("\n".join(line for line in text.splitlines()
                              if not line.strip().startswith("layout:")))
    unlaid = patience.find_variant(str(path))
    assert all(group.ring is None and group.centre is None for group in unlaid.groups)
    assert any(group.ring is not None for group in shipped.groups)
    assert unlaid.rules_hash == shipped.rules_hash
    assert unlaid.pile_maps == shipped.pile_maps
