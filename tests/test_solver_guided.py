"""The guided search (patience.solver.guided): what it reads of the rules, the estimate it
ranks by, when a solve runs it and how it takes turns with the restarts, its proofs
against the plain exhaustive search, and the same search in both engines."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

import patience
from patience import native
from patience.cards import FACE_DOWN, parse_card
from patience.game import Game
from patience.solver import exhaustive_verdict, solve
from patience.solver.constants import SEARCH
from patience.solver.guided import Guided, make_estimate
from patience.solver.rules import home_run_rows, sequence_rows, solver_rules
from patience.solver.search import BUDGET, EXHAUSTED, WON

MINI = Path(__file__).parent / "variants"
needs_native = pytest.mark.skipif(not native.AVAILABLE, reason=str(native.REASON))


def mini(name: str) -> patience.Variant:
    return patience.find_variant(str(MINI / f"{name}.yaml"))


def cards(*names: str) -> set[int]:
    return {parse_card(name) for name in names}


def members(bits: int) -> set[int]:
    return {card for card in range(64) if bits >> card & 1}


# --- what it reads of the rules -----------------------------------------------------------


def test_the_home_tables_are_the_cards_a_foundation_may_take():
    guided = solver_rules(patience.find_variant("freecell")).guided
    assert guided is not None
    [(start, stop, on_empty, rows)] = guided.homes
    assert (start, stop) == (12, 16)  # f1-f4, after eight columns and four cells
    assert members(on_empty) == cards("AC", "AD", "AH", "AS")
    assert members(rows[parse_card("5S")]) == cards("6S")
    assert members(rows[parse_card("KH")]) == set()
    # Penguin's foundations start at the beak's rank, which no rule fixes before the deal:
    # an empty one may take any card, which tells nothing (0); on a card, the next of its
    # suit, round the corner
    [(_, _, on_empty, rows)] = solver_rules(patience.find_variant("penguin")).guided.homes
    assert on_empty == 0
    assert members(rows[parse_card("KH")]) == cards("AH")


def test_it_applies_where_runs_tell_order_and_nothing_is_gathered():
    # Fan, Yukon and Beleaguered Castle move no runs a pairs rule tells, but their columns
    # are built by a rule and no stock is dealt (their built rows); Forty Thieves' columns
    # are built too, but a stock is dealt; Golf's columns take nothing
    for name, guided in [("freecell", True), ("bakers-game", True), ("seahaven-towers", True),
                         ("simple-simon", True), ("penguin", True), ("free-fan", True),
                         ("klondike", True), ("klondike-draw3", True), ("spider", True),
                         ("fan", True), ("yukon", True), ("beleaguered-castle", True),
                         ("golf", False), ("black-hole", False), ("forty-thieves", False),
                         ("la-belle-lucie", False)]:
        rules = solver_rules(patience.find_variant(name))
        assert (rules.guided is not None) is guided, name


def test_the_estimate_of_a_position_worked_by_hand():
    variant = patience.find_variant("freecell")
    game = Game.from_text(variant, "c:KHQSJH/TS/KD/QCJD/KSTH/QHTC/JCTD/KCQDJS a:9D/// "
                          "f:AC2C3C4C5C6C7C8C9C/AD2D3D4D5D6D7D8D/AH2H3H4H5H6H7H8H9H/"
                          "AS2S3S4S5S6S7S8S9S s:")
    estimate = make_estimate(solver_rules(variant).guided, len(variant.pile_names))
    # 35 cards home; three empty cells; one card parked (9D); two cards under a top run
    # (KS under TH, QH under TC); the cards the foundations take next (TC, 9D, TH, TS) all
    # lie on top: 2 x 2 + 2 x 1 + 1 x 0 - 5 x 35 - 3 x 3
    assert estimate(game.piles, game.stock) == -178
    # the same cards, the King of Spades on the Ten of Spades: the Ten one card deep
    buried = Game.from_text(variant, "c:KHQSJH/TSKS/KD/QCJD/TH/QHTC/JCTD/KCQDJS a:9D/// "
                            "f:AC2C3C4C5C6C7C8C9C/AD2D3D4D5D6D7D8D/AH2H3H4H5H6H7H8H9H/"
                            "AS2S3S4S5S6S7S8S9S s:")
    # TS under KS (1) and QH under TC (1) under top runs, TS one deep: 4 + 2 + 1 - 175 - 9
    assert estimate(buried.piles, buried.stock) == -177


def test_the_estimate_counts_face_down_cards_and_the_stock():
    variant = patience.find_variant("klondike")
    rules = solver_rules(variant)
    estimate = make_estimate(rules.guided, len(variant.pile_names))
    # c1 two cards face down under 5H, c2-c7 empty, the waste 9C, the foundations empty,
    # the stock 7D 8D. The foundations take an Ace: none is in sight. run_weight x 2 (the
    # two cards under 5H) + parked_weight x 1 (9C) + down_weight x 2 + stock_weight x 2;
    # c2-c7 take only Kings when empty: narrow_empty_weight (0) x 6
    c1 = [parse_card("KD") | FACE_DOWN, parse_card("KS") | FACE_DOWN, parse_card("5H")]
    piles = [c1, [], [], [], [], [], [], [parse_card("9C")], [], [], [], []]
    assert estimate(piles, [parse_card("7D"), parse_card("8D")]) == 2 * 2 + 2 * 1 + 3 * 2 + 3 * 2
    assert (SEARCH.guided.run_weight, SEARCH.guided.parked_weight, SEARCH.guided.down_weight,
            SEARCH.guided.stock_weight, SEARCH.guided.narrow_empty_weight) == (2, 2, 3, 3, 0)


def test_a_gap_only_some_cards_may_fill_is_narrow():
    # an empty pile not home counts as a gap (empty_weight) only where any card may fill
    # it, its accepts rule read for one card: Klondike's and Fan's columns take Kings, the
    # waste and King Albert's reserve take none; FreeCell's columns and cells, Beleaguered
    # Castle's and King Albert's columns take any card
    for name, narrow in [("klondike", {"c1", "c2", "c3", "c4", "c5", "c6", "c7", "w"}),
                         ("fan", {f"c{i}" for i in range(1, 19)}),
                         ("freecell", set()), ("beleaguered-castle", set()),
                         ("king-albert", {f"a{i}" for i in range(1, 8)})]:
        variant = patience.find_variant(name)
        guided = solver_rules(variant).guided
        assert {variant.pile_names[index] for index in guided.narrow} == narrow, name


# --- a solve's turns ---------------------------------------------------------------------------


def test_it_takes_turns_with_the_restarts():
    # Free Fan's deal 46: the guided search's first turn (2,000 positions: its first is at
    # least GuidedConstants.first_turn) finds nothing, the first restart (500) wins in 165;
    # FreeCell's deal 1 is won within the first turn
    fan = patience.find_variant("free-fan").deal(46)
    alone = solve(fan, 100_000, shorten_line=False, guides=False, engine="python")
    both = solve(fan, 100_000, shorten_line=False, engine="python")
    assert (alone.verdict, alone.positions) == ("won", 165)
    assert (both.verdict, both.positions) == ("won", 2_000 + 165)
    assert both.moves == alone.moves
    freecell = patience.find_variant("freecell").deal(1)
    result = solve(freecell, 100_000, shorten_line=False, engine="python")
    assert result.verdict == "won" and result.positions < 500
    assert solve(freecell, 100_000, shorten_line=False, guides=False,
                 engine="python").positions > 500


@pytest.mark.parametrize(("name", "numbers", "lost"), [
    ("mini-freecell", range(4, 12), 3),  # three lost (4, 8, 10)
    ("mini-klondike", range(1, 7), 1),  # deal 6 lost; moves after a deal restricted
    ("mini-klondike-draw3", (1, 2, 20, 22, 24, 82), 4),  # the stock keyed as a cycle too
    ("mini-spider", range(1, 7), 3),  # 2, 3 and 5 lost; the stock dealt once
])
def test_a_guided_search_that_runs_out_of_positions_is_a_proof(name, numbers, lost):
    # run alone to the end on a reduced deck, it wins where the plain exhaustive search
    # finds a win and is exhausted exactly where that search proves the deal lost (each
    # reference search quick)
    variant = mini(name)
    rules = solver_rules(variant)
    outcomes: dict[tuple[str, str], int] = {}
    for number in numbers:
        game = variant.deal(number)
        guided = Guided(rules, game.piles, game.stock)
        outcome = guided.run(10**6)
        reference = exhaustive_verdict(game, max_positions=200_000)
        outcomes[outcome, reference] = outcomes.get((outcome, reference), 0) + 1
        if outcome == WON:
            probe = game.copy()
            for move in guided.line:
                probe.push(probe.notation(move))
            assert probe.is_won()
    assert set(outcomes) == {(WON, "won"), (EXHAUSTED, "unwinnable")}
    assert outcomes[EXHAUSTED, "unwinnable"] == lost


def test_on_a_pile_a_deal_covers_the_estimate_counts_breaks():
    # Spider deals onto its columns, burying every run: there the breaks count (adjacent
    # face-up cards that are not a run), not the cards under the top run. c1 a face-down
    # card, then 9H 8H (a run: one suit), 7S (a break), KC (a break); c2-c10 empty; two
    # cards in the stock: break_weight x 2 + covered_down_weight x 1 + stock_weight x 2 -
    # empty_weight x 9
    variant = patience.find_variant("spider")
    guided = solver_rules(variant).guided
    assert guided.covered == frozenset(range(10))  # c1-c10
    estimate = make_estimate(guided, len(variant.pile_names))
    c1 = [parse_card("2D") | FACE_DOWN] + [parse_card(name) for name in ("9H", "8H", "7S", "KC")]
    piles = [c1] + [[] for _ in range(17)]
    stock = [parse_card("3D"), parse_card("4D")]
    assert (SEARCH.guided.break_weight, SEARCH.guided.covered_down_weight) == (4, 4)
    assert estimate(piles, stock) == 4 * 2 + 4 * 1 + 3 * 2 - 3 * 9
    # not covered by a deal, the same column counts the four cards under its top run (KC),
    # and its face-down card weighs down_weight (3)
    uncovered = make_estimate(attrs.evolve(guided, covered=frozenset()), len(variant.pile_names))
    assert uncovered(piles, stock) == 2 * 4 + 3 * 1 + 3 * 2 - 3 * 9


def test_a_run_counts_as_ordered_only_as_far_as_the_home_piles_take_it():
    # Tarantula moves runs of one colour (9H 8D is a run that moves) but takes home only
    # finished suits (its foundations' rule: every pair in suit), so the estimate reads
    # its columns' runs by suit: 9H 8D is a break there, 9H 8H is not. c1: 9H 8D 7D, the
    # rest empty: break_weight x 1 (9H 8D; 8D 7D is in suit) - empty_weight x 9
    variant = patience.find_variant("tarantula")
    (start, stop, moving), = sequence_rows(variant)
    guided = solver_rules(variant).guided
    (_, _, ordered), = guided.runs
    nine, eight_d, eight_h = (parse_card(name) for name in ("9H", "8D", "8H"))
    assert (start, stop) == (0, 10)
    assert moving[nine] >> eight_d & 1 and moving[nine] >> eight_h & 1
    assert not ordered[nine] >> eight_d & 1 and ordered[nine] >> eight_h & 1
    cards = sorted(set(variant.deck))
    assert ordered == tuple(m & h for m, h in zip(moving, home_run_rows(variant, cards)))
    estimate = make_estimate(guided, len(variant.pile_names))
    piles = [[nine, eight_d, parse_card("7D")]] + [[] for _ in range(17)]
    assert estimate(piles, []) == 4 * 1 - 3 * 9
    # Spider's runs move in suit, as its home piles take them: nothing changes
    spider = patience.find_variant("spider")
    assert solver_rules(spider).guided.runs == sequence_rows(spider)
    # where the home piles take single cards, the runs are the moving ones (FreeCell)
    freecell = patience.find_variant("freecell")
    assert home_run_rows(freecell, sorted(set(freecell.deck))) is None
    assert solver_rules(freecell).guided.runs == sequence_rows(freecell)


def test_a_pile_built_one_card_at_a_time_is_ordered_as_its_rule_builds_it():
    # Beleaguered Castle moves one card at a time, so no pairs rule tells its runs; its
    # columns take a card one rank lower, any suit (their accepts rule read for one card),
    # and no stock is dealt: the guided search reads them by that rule. c1: 9H 8S 2D (2D
    # does not lie on 8S: two cards under the top run), c2: 7C 6C (none), the other six
    # columns empty; the foundations hold the Aces, so 2D, which a foundation may take now,
    # lies on top (depth 0): built_weight (1) x 2 - home_weight x 4 - empty_weight x 6
    variant = patience.find_variant("beleaguered-castle")
    assert sequence_rows(variant) == ()
    guided = solver_rules(variant).guided
    (start, stop, rows), = guided.runs
    assert (start, stop) == (0, 8) and guided.built == set(range(8))
    nine, eight = parse_card("9H"), parse_card("8S")
    assert rows[nine] >> eight & 1 and not rows[eight] >> parse_card("2D") & 1
    estimate = make_estimate(guided, len(variant.pile_names))
    piles = [[nine, eight, parse_card("2D")], [parse_card("7C"), parse_card("6C")]] + \
        [[] for _ in range(6)] + [[parse_card(ace)] for ace in ("AC", "AD", "AH", "AS")]
    assert estimate(piles, []) == 1 * 2 - 5 * 4 - 3 * 6


def test_where_a_stock_is_dealt_the_restarts_search_alone_first():
    # Klondike's deal 4: the restarts win in 268 positions, long before the guided search's
    # first turn (SEARCH.guided.stock_from), so the solve is the same with it or without it
    game = patience.find_variant("klondike").deal(4)
    both = solve(game, 1_000_000, shorten_line=False, engine="python")
    alone = solve(game, 1_000_000, shorten_line=False, guides=False, engine="python")
    assert SEARCH.guided.stock_from == 100_000
    assert (both.verdict, both.positions, both.moves) == ("won", 268, alone.moves)
    assert alone.positions == 268


def test_a_turn_goes_on_where_the_last_stopped():
    game = patience.find_variant("freecell").deal(3)
    rules = solver_rules(game.variant)
    whole = Guided(rules, game.piles, game.stock)
    assert whole.run(10**6) == WON
    turns = Guided(rules, game.piles, game.stock)
    spent = 0
    while (outcome := turns.run(7)) == BUDGET:
        spent += turns.expanded
    assert outcome == WON and spent + turns.expanded == whole.expanded
    assert turns.line == whole.line


def test_a_position_the_restarts_proved_lost_is_never_pushed():
    # every position one move from FreeCell's deal 1 proven lost: the guided search expands
    # the deal alone and has nothing left, a proof (each child's own is in the set)
    game = patience.find_variant("freecell").deal(1)
    rules = solver_rules(game.variant)
    lost = set()
    for move in game.variant.generate_moves(game.piles, game.stock):
        piles, stock = [list(pile) for pile in game.piles], list(game.stock)
        game.variant.play(piles, stock, move)
        lost.add(rules.key(piles, stock))
    assert len(lost) > 1
    guided = Guided(rules, game.piles, game.stock, lost)
    assert guided.run(10) == EXHAUSTED and guided.expanded == 1
    assert Guided(rules, game.piles, game.stock).run(10) == BUDGET


def test_the_guided_turns_build_on_the_restarts_proofs():
    # Fan's deal 6 at 40,000 positions: the restarts alone prove it lost in 11,427; the
    # guided turns take about half the positions, and skipping what the restarts proved
    # lost they prove it in 21,243 together (a guided search that did not skip them, as in
    # solver 1.12, runs out of positions; one guided search alone, as until solver 1.14,
    # had all the guided turns and proved it in 14,577)
    game = patience.find_variant("fan").deal(6)
    alone = solve(game, 40_000, shorten_line=False, guides=False, engine="python")
    both = solve(game, 40_000, shorten_line=False, engine="python")
    assert (alone.verdict, alone.positions) == ("unwinnable", 11_427)
    assert (both.verdict, both.positions) == ("unwinnable", 21_243)


@needs_native
def test_the_core_builds_on_the_restarts_proofs_too():
    # the core's guided search keys its positions in the restarts' store and skips those
    # they proved lost: the same proof, position for position
    game = patience.find_variant("fan").deal(6)
    core = solve(game, 40_000, shorten_line=False, engine="native")
    assert (core.verdict, core.positions) == ("unwinnable", 21_243)


# --- both engines ------------------------------------------------------------------------------


@needs_native
@pytest.mark.parametrize("name", ["freecell", "bakers-game", "seahaven-towers", "penguin",
                                  "simple-simon", "free-fan", "king-albert", "bonaparte", "fan"])
def test_both_engines_run_the_same_search(name):
    variant = patience.find_variant(name)
    for number in (1, 2, 3):
        game = variant.deal(number)
        reference = solve(game, 5_000, shorten_line=False, engine="python")
        core = solve(game, 5_000, shorten_line=False, engine="native")
        assert (core.verdict, core.positions, core.moves) == \
            (reference.verdict, reference.positions, reference.moves), (name, number)


@needs_native
@pytest.mark.slow
@pytest.mark.parametrize(("name", "number", "budget"), [
    ("whitehead", 45, 200_000),  # moves after a deal restricted; won by the guided search
    ("klondike-draw3", 34, 200_000),  # the stock keyed as a cycle too (won at 100,420)
    ("spider", 3, 260_000),  # four suits, the breaks of the columns (won at 249,313)
    ("tarantula", 4, 280_000),  # runs read by suit, as its home piles take them (269,320)
])
def test_both_engines_run_the_same_search_with_a_stock(name, number, budget):
    # where a stock is dealt, the guided search's first turn comes at 100,000 positions
    game = patience.find_variant(name).deal(number)
    reference = solve(game, budget, shorten_line=False, engine="python")
    core = solve(game, budget, shorten_line=False, engine="native")
    assert reference.verdict == "won" and reference.positions > 100_000
    assert (core.verdict, core.positions, core.moves) == \
        (reference.verdict, reference.positions, reference.moves)
    assert solve(game, budget, engine="native", guides=False).verdict == "unknown"


@pytest.fixture
def guided_constants():
    """Set the guided search's constants for a test (both engines read them: the core in
    the rule program, made again), and put them back after."""
    saved = SEARCH.guided

    def set_them(**changes: object) -> None:
        object.__setattr__(SEARCH, "guided", attrs.evolve(saved, **changes))
        native.core.cache_clear()

    yield set_them
    object.__setattr__(SEARCH, "guided", saved)
    native.core.cache_clear()


@needs_native
def test_a_guided_search_gets_its_share_of_a_large_budget(guided_constants):
    # FreeCell's deal 4 at 5,000 positions, one guided search: its budget cut to 300, the
    # restarts leave the deal unknown; where a quarter of the solve's budget (1,250) is
    # more than that, the guided search has it and wins at 468 positions, in both engines
    game = patience.find_variant("freecell").deal(4)
    guided_constants(budget=300, depth_weights=(1,), budget_share=1_000_000)
    assert solve(game, 5_000, engine="native").verdict == "unknown"
    assert solve(game, 5_000, engine="python").verdict == "unknown"
    guided_constants(budget=300, depth_weights=(1,), budget_share=4)
    reference = solve(game, 5_000, shorten_line=False, engine="python")
    core = solve(game, 5_000, shorten_line=False, engine="native")
    assert (reference.verdict, reference.positions) == ("won", 468)
    assert (core.verdict, core.positions, core.moves) == \
        (reference.verdict, reference.positions, reference.moves)


@needs_native
def test_a_second_guided_search_goes_beside_the_first(guided_constants):
    # Fan's deal 56 at 5,000 positions, each guided search's budget cut to 300: one guided
    # search and the restarts leave it unknown; a second from the root, ranking by a depth
    # weight of 2 and taking every other guided turn, wins it at 1,022, in both engines
    game = patience.find_variant("fan").deal(56)
    guided_constants(budget=300, depth_weights=(1,), budget_share=1_000_000)
    assert solve(game, 5_000, shorten_line=False, engine="native").verdict == "unknown"
    assert solve(game, 5_000, shorten_line=False, engine="python").verdict == "unknown"
    guided_constants(budget=300, depth_weights=(1, 2), budget_share=1_000_000)
    reference = solve(game, 5_000, shorten_line=False, engine="python")
    core = solve(game, 5_000, shorten_line=False, engine="native")
    assert (reference.verdict, reference.positions) == ("won", 1_022)
    assert (core.verdict, core.positions, core.moves) == \
        (reference.verdict, reference.positions, reference.moves)
    probe = game.copy()
    for move in core.moves:
        probe.push(move)  # checked: an illegal move raises
    assert probe.is_won()
    # with none, no guided search runs: the restarts' search (guides=False)
    guided_constants(depth_weights=())
    for engine in ("python", "native"):
        assert solve(game, 5_000, shorten_line=False, engine=engine).positions == \
            solve(game, 5_000, shorten_line=False, engine=engine, guides=False).positions


@needs_native
def test_the_two_guided_searches_take_their_turns_side_by_side(guided_constants):
    # FreeCell's deal 11: the guided search ranking by a depth weight of 1, alone beside
    # the restarts, wins it at 24,087 positions; with the one ranking by 2 beside it,
    # taking the guided turns in order (solver 1.15), the second wins it after the first's
    # first turn (2,000) and a restart (500), at 2,825, the same line in both engines. One
    # after the other, as in solver 1.14, the second would not begin before the first had
    # spent its 200,000.
    game = patience.find_variant("freecell").deal(11)
    reference = solve(game, 1_000_000, shorten_line=False, engine="python")
    core = solve(game, 1_000_000, shorten_line=False, engine="native")
    assert (reference.verdict, reference.positions) == ("won", 2_825)
    assert (core.verdict, core.positions, core.moves) == \
        (reference.verdict, reference.positions, reference.moves)
    guided_constants(depth_weights=(1,))
    assert solve(game, 1_000_000, shorten_line=False, engine="native").positions == 24_087
    with pytest.raises(ValueError, match="depth_weights"):
        guided_constants(depth_weights=(1, 2, 3))  # the core has a mark for two


@needs_native
def test_the_core_keeps_the_guided_search_within_the_memory_cap():
    game = patience.find_variant("freecell").deal(1)
    result = solve(game, 1_000_000, engine="native", max_memory=20_000)
    assert result.verdict == "unknown"
    assert solve(game, 1_000_000, engine="native").verdict == "won"


@needs_native
def test_where_the_estimate_counts_breaks_a_child_is_keyed_when_reached(guided_constants):
    # the Spiders, Gypsy and the Tabby Cat dialects (piles dealt onto and read for runs)
    # key a child when the search reaches it, as until solver 1.16; the others when its
    # turn comes (Klondike's waste is dealt onto but not read for runs)
    for name, when_reached in [("spider", True), ("gypsy", True), ("tabbycat", True),
                               ("freecell", False), ("klondike", False), ("mrs-mop", False),
                               ("fan", False)]:
        guided = solver_rules(patience.find_variant(name)).guided
        assert guided.keyed_when_reached is when_reached, name
    # both engines alike, the guided search from the start
    guided_constants(stock_from=0)
    variant = patience.find_variant("spider-1suit")
    for number in (1, 2):
        game = variant.deal(number)
        reference = solve(game, 3_000, shorten_line=False, engine="python")
        core = solve(game, 3_000, shorten_line=False, engine="native")
        assert (core.verdict, core.positions, core.moves) == \
            (reference.verdict, reference.positions, reference.moves), number
