"""The native core against the Python kernel, its reference: perft on every golden file,
legal moves and play / take back on random positions, verdicts and won lines.

The tests skip, with the reason, only when the core is not built (``.ci/run`` builds it).
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shipped import variant_params
from test_perft import GOLDEN, SLOW_DEPTH, read_golden, start_game

import patience
from patience import native
from patience.errors import SolverError
from patience.perft import perft
from patience.solver import SolveResult, exhaustive_verdict, shorten, solve
from patience.testing.strategies import positions

pytestmark = pytest.mark.skipif(not native.AVAILABLE, reason=str(native.REASON))

MINI = Path(__file__).parent / "variants"
EVERYTHING = MINI / "native-everything.yaml"


def mini(name: str) -> patience.Variant:
    return patience.find_variant(str(MINI / f"{name}.yaml"))


def everything() -> patience.Variant:
    return patience.find_variant(str(EVERYTHING))


# --- the same position, asked of both ----------------------------------------------------


def core_position(game: patience.Game) -> tuple[list[list[int]], list[int]]:
    """``game``'s position as the core takes it: its piles and its stock, as lists."""
    return [list(p) for p in game.piles], list(game.stock)


def assert_same_position_facts(game: patience.Game) -> None:
    """Moves (as a set), is_won, can_deal, the forced move, and every move played and taken
    back: the core and the kernel agree on all of them at ``game``'s position."""
    variant = game.variant
    core = native.core(variant)
    piles, stock = core_position(game)
    where = f"{variant.id} at {game.text()}"
    python_moves = variant.generate_moves(piles, stock)
    native_moves = core.generate_moves(piles, stock)
    assert len(native_moves) == len(set(native_moves)), where
    assert set(native_moves) == set(python_moves), where
    assert core.is_won(piles, stock) == bool(variant.is_won(piles, stock)), where
    assert core.can_deal(piles, stock) == bool(variant.can_deal(piles, stock)), where
    forced = variant.first_forced(piles, stock) if variant.first_forced else None
    assert core.first_forced(piles, stock) == forced, where
    for move in python_moves:
        (after_piles, after_stock), (back_piles, back_stock) = core.play_and_take_back(
            piles, stock, move)
        probe_piles, probe_stock = [list(p) for p in piles], list(stock)
        variant.play(probe_piles, probe_stock, move)
        assert (after_piles, after_stock) == (probe_piles, probe_stock), f"{where} {move}"
        assert (back_piles, back_stock) == (piles, stock), f"{where} {move}"


def random_playout(game: patience.Game, seed: int, length: int) -> None:
    """Check the position facts along a random legal playout from ``game``."""
    chooser = random.Random(seed)
    assert_same_position_facts(game)
    for _ in range(length):
        moves = game.generate_moves()
        if not moves:
            break
        game.push_unchecked(chooser.choice(sorted(moves)))
        assert_same_position_facts(game)


# --- perft ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", variant_params())
def test_perft_matches_every_golden_line(name):
    variant = patience.find_variant(name)
    checked = 0
    for start, moves, depth, count, number in read_golden(GOLDEN / f"{name}.txt"):
        if depth >= SLOW_DEPTH:
            continue
        game = start_game(variant, start, moves)
        assert native.perft(game, depth) == count, f"{name}.txt line {number}"
        checked += 1
    assert checked


@pytest.mark.slow
@pytest.mark.parametrize("name", variant_params())
def test_perft_matches_the_deep_golden_lines(name):
    variant = patience.find_variant(name)
    for start, moves, depth, count, number in read_golden(GOLDEN / f"{name}.txt"):
        if depth >= SLOW_DEPTH:
            game = start_game(variant, start, moves)
            assert native.perft(game, depth) == count, f"{name}.txt line {number}"


def test_perft_of_the_everything_variant_matches_the_kernel():
    variant = everything()
    for number in range(1, 6):
        game = variant.deal(number)
        assert native.perft(game, 4) == perft(game, 4), f"deal {number}"


# --- legal moves, forced moves, play / take back ----------------------------------------------


@pytest.mark.parametrize("name", variant_params())
def test_random_playouts_of_numbered_deals_agree(name):
    variant = patience.find_variant(name)
    for number in (1, 2, 3):
        random_playout(variant.deal(number), seed=number, length=60)


@pytest.mark.parametrize("name", ["pyramid-discards", "nestor-discards"])
def test_random_playouts_with_discards_from_two_groups_agree(name):
    # Pyramid's discards (tests/variants/pyramid-discards.yaml): pairs from the pyramid and
    # the waste, Kings alone, the stock and its redeals between them; Nestor's: pairs of one
    # rank from the columns and the reserve
    variant = mini(name)
    for number in range(1, 6):
        random_playout(variant.deal(number), seed=number, length=80)
        assert native.perft(variant.deal(number), 3) == perft(variant.deal(number), 3)


def test_random_playouts_with_the_stocks_top_card_in_play_agree():
    # Pyramid's stock.top: the deal takes the talon's card first and the fill turns up the
    # next; the redeals only once both are empty. Three Peaks' face_down: covered: a card
    # turns up once nothing covers it
    for variant in (patience.find_variant("pyramid"), mini("mini-pyramid"),
                    patience.find_variant("three-peaks")):
        for number in range(1, 6):
            random_playout(variant.deal(number), seed=number, length=150)
            assert native.perft(variant.deal(number), 4) == perft(variant.deal(number), 4)


def test_random_playouts_with_draws_of_a_buried_card_agree():
    # merci: the draw (s, -1, t) from under a fan's top card, once a game, before and after
    # the redeals (Three Shuffles and a Draw) and without them (a reduced Fan)
    for variant in (patience.find_variant("three-shuffles-and-a-draw"), mini("mini-fan-draw")):
        for number in range(1, 6):
            game = variant.deal(number)
            assert native.generate_moves(game) == game.generate_moves()
            random_playout(game, seed=number, length=80)
            assert native.perft(variant.deal(number), 3) == perft(variant.deal(number), 3)
    # a position with the draw made: no draw is generated by either engine
    game = patience.find_variant("three-shuffles-and-a-draw").deal(1)
    game.push_text("c15:^-f")
    assert native.generate_moves(game) == game.generate_moves()
    assert not [m for m in game.generate_moves() if m[1] == -1]


def test_random_playouts_of_the_everything_variant_agree():
    variant = everything()
    for number in range(1, 41):
        random_playout(variant.deal(number), seed=number, length=120)


@pytest.mark.parametrize("name", ["tabbycat", "manx-corner", "klondike-draw3", "freecell",
                                  "spider", "canfield", "fortunes-favor", "golf",
                                  "la-belle-lucie", "cruel", "clock"])
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_random_positions_agree(name, data):
    game = data.draw(positions(patience.find_variant(name), max_moves=60))
    assert_same_position_facts(game)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(game=positions(everything(), max_moves=80))
def test_random_positions_of_the_everything_variant_agree(game):
    assert_same_position_facts(game)


# --- target filters (native/src/filter.rs) --------------------------------------------------


def unfiltered(variant: patience.Variant):  # type: ignore[no-untyped-def]
    """The variant's core without target filters: every pairing tests every target."""
    from patience.native.program import rule_program_text

    return native._core.Core(rule_program_text(variant), filters=False)


def assert_filters_change_nothing(game: patience.Game, plain) -> None:  # type: ignore[no-untyped-def]
    piles, stock = core_position(game)
    core = native.core(game.variant)
    where = f"{game.variant.id} at {game.text()}"
    # the same moves in the same order (the order matters for the forced move)
    assert core.generate_moves(piles, stock) == plain.generate_moves(piles, stock), where
    assert core.first_forced(piles, stock) == plain.first_forced(piles, stock), where


@pytest.mark.parametrize("name", [*variant_params(), str(EVERYTHING)])
def test_target_filters_skip_only_targets_without_a_move(name):
    variant = patience.find_variant(name)
    plain = unfiltered(variant)
    assert plain.filtered_pairings == 0
    for number in (1, 2, 3):
        game = variant.deal(number)
        chooser = random.Random(number)
        for _ in range(80):
            assert_filters_change_nothing(game, plain)
            moves = game.generate_moves()
            if not moves:
                break
            game.push_unchecked(chooser.choice(sorted(moves)))


@pytest.mark.parametrize(("name", "position", "moves"), [
    # FreeCell's columns take runs of any size, tested pile by pile: the filter of a
    # target is the union over the run sizes, so QS JH TS 9H 8S onto KD (c1:5-c2) stays,
    # though no shorter run of c1 goes there; and the gap c3 takes every size up to 5
    ("freecell", ("c:KHQSJHTS9H8S/KD//8C8D8H/9C9D9S/TCTDTH/JCJDJSQC/QDQHKCKS a:/// "
                  "f:AC2C3C4C5C6C7C/AD2D3D4D5D6D7D/AH2H3H4H5H6H7H/AS2S3S4S5S6S7S s:"),
     ["c1:5-c2", "c1:1-c3", "c1:5-c3", "c1:1-a", "c7:1-c3"]),
    # Fan: a King into the empty fan (its row keeps the gap), a card back off a
    # foundation onto the card above it in suit (a foundation's top is the key card)
    ("fan", ("c:KHQH/JH/JS/TS/9C/TC/KD/QDJDTD9D/9HTH/9S/QSKS/JCQCKC////// "
             "f:AC2C3C4C5C6C7C8C/AD2D3D4D5D6D7D8D/AH2H3H4H5H6H7H8H/AS2S3S4S5S6S7S8S s:"),
     ["c7:1-c18", "c2:1-c1", "f1:1-c5", "f2:1-c8", "c5:1-f"]),
])
def test_target_filters_keep_the_moves_they_are_tempted_to_skip(name, position, moves):
    variant = patience.find_variant(name)
    game = variant.position(position)
    core = native.core(variant)
    assert core.filtered_pairings > 0  # the filters are in use here
    piles, stock = core_position(game)
    legal = core.generate_moves(piles, stock)
    for text in moves:
        assert tuple(game.parse_move(text)) in legal, text
    assert set(legal) == set(variant.generate_moves(piles, stock))
    assert_filters_change_nothing(game, unfiltered(variant))


@pytest.mark.parametrize(("name", "moves"), [
    # Galary's deal 1 (the file's own example): a gap takes the card after its left
    # neighbour's or before its right neighbour's: g2 (AC, JC) takes 2C or TC, g16 (AS,
    # 8C) 2S or 7C, g30 (AH, 3H) 2H, g44 (AD, 3C) 2D or 2C
    ("galary", ["g48:1-g2", "g23:1-g2", "g55:1-g16", "g26:1-g16", "g18:1-g30", "g10:1-g44",
                "g48:1-g44", "d"]),
    # Montana's deal 1: g20 after 2C takes 3C, g33 after 7C 8C, g35 after 5C 6C, g44 after
    # 3S 4S
    ("montana", ["g13:1-g20", "g47:1-g33", "g31:1-g35", "g30:1-g44", "d"]),
])
def test_branch_filters_read_a_gaps_neighbours(name, moves):
    """A grid's gap takes a card by its neighbours' tops: the core's branch filters
    (native/src/filter.rs, BranchFilter) find those moves alone, as the rules list them."""
    variant = patience.find_variant(name)
    game = variant.deal(1)
    core = native.core(variant)
    assert core.branch_pairings > 0  # the branches are in use here
    piles, stock = core_position(game)
    legal = core.generate_moves(piles, stock)
    assert sorted(legal) == sorted(tuple(game.parse_move(text)) for text in moves)
    plain = unfiltered(variant)
    assert plain.branch_pairings == 0
    assert_filters_change_nothing(game, plain)


def test_pair_filters_keep_the_discards_the_rules_list():
    """King Tut's file lists the moves of a position: 6 + 7 twice (p2 with p6 and with the
    waste's 7S); KH lies under 6C, 7 + 7 and the rest do not add up to thirteen. The
    core's pair filter (native/src/filter.rs, PairFilter) passes those two sets over none."""
    variant = patience.find_variant("king-tut")
    game = variant.position(
        "p:KH/6C////7D////////////////////// w:QD7S f:AC2C3C4C5C7C8CTCJCQCKCAD2D3D4D5D6D8D9DTD"
        "KDAH2H3H4H6H7H8H9HTHJHQH2S3S4S5S6S8S9STSJSQSKS s:ASJD9C5H")
    core = native.core(variant)
    assert core.pair_discards == 1
    piles, stock = core_position(game)
    legal = core.generate_moves(piles, stock)
    assert sorted(legal) == sorted(tuple(game.parse_move(text)) for text in ("d", "p2+p6", "p2+w"))
    plain = unfiltered(variant)
    assert plain.pair_discards == 0
    assert_filters_change_nothing(game, plain)


@pytest.mark.parametrize("name", ["pyramid", str(MINI / "wide-fourteen.yaml")])
def test_pair_filters_skip_only_sets_without_a_discard(name):
    """Along random playouts, the core's two-card discards with the pair filter are those of
    the core without it and of the kernel, in order: Pyramid's 30 piles go by the index of
    their tops, Wide Fourteen's 104 (over 64) set by set."""
    variant = patience.find_variant(name)
    plain = unfiltered(variant)
    assert native.core(variant).pair_discards == 1
    for number in (1, 2):
        game = variant.deal(number)
        chooser = random.Random(number)
        for _ in range(60):
            assert_filters_change_nothing(game, plain)
            piles, stock = core_position(game)
            assert set(native.core(variant).generate_moves(piles, stock)) == set(
                game.generate_moves())
            moves = game.generate_moves()
            if not moves:
                break
            game.push_unchecked(chooser.choice(sorted(moves)))


def test_the_core_bounds_discards_as_the_limits_say():
    """The core refuses a program beyond its own bounds; they are the documented limits."""
    from patience import _native, limits
    assert (_native.MAX_DISCARD_CARDS, _native.MAX_DISCARD_SETS) == (
        limits.MAX_DISCARD_CARDS, limits.MAX_DISCARD_SETS)


def test_the_core_marks_a_draw_as_the_kernel_does():
    """A draw of a buried card is ``(s, DRAW, t)`` on both sides of the wire."""
    from patience import _native, moves
    assert _native.DRAW == moves.DRAW


def test_the_everything_variant_uses_every_mechanism():
    from patience.native.program import rule_program_text

    text = rule_program_text(everything())
    for node in ['["count"', '"**"', '"//"', '"%"', '["pairs_all",["src"]', '["same"',
                 '["size",["stock"]]', '"face_up"', '["table"', '["all"', '["any"', '["neg"']:
        assert node in text, node
    variant = everything()
    assert variant.face_down_piles and variant.redeals == 1 and variant.turn == 3
    assert any(g.fill_from is not None and g.fill_from.start < 0 for g in variant.groups)
    assert any(g.to_bottom is not None for g in variant.groups)
    assert any(g.fill_from is not None and g.fill_from.start >= 0 for g in variant.groups)
    assert variant.first_forced is not None and variant.placed


# --- the solver ------------------------------------------------------------------------------


def replays_to_a_win(game: patience.Game, moves: tuple[str, ...]) -> bool:
    probe = game.copy()
    for move in moves:
        probe.push(move)  # checked: raises MoveError on an illegal move
    return probe.is_won()


def assert_same_search(game: patience.Game, budget: int, number: int) -> None:
    """Both engines' restarted solves: the same verdict, positions and line."""
    python = solve(game, budget, engine="python")
    core = solve(game, budget, engine="native")
    assert (core.verdict, core.positions, core.moves) == \
        (python.verdict, python.positions, python.moves), number


def assert_same_proof_search(game: patience.Game, budget: int, number: int) -> SolveResult:
    """Both engines' ``prove`` searches: the same verdict after the same positions; the
    core's result."""
    python = solve(game, budget, prove=True, engine="python", shorten_line=False)
    core = solve(game, budget, prove=True, engine="native", shorten_line=False)
    assert (core.verdict, core.positions) == (python.verdict, python.positions), number
    assert core.engine == "native" and python.engine == "python"
    return core


@pytest.mark.parametrize(("name", "deals"), [
    ("fourteen", range(1, 6)), ("mini-fourteen", range(1, 6)),
    ("tabbycat-corner", range(1, 4)),
    pytest.param("mainecoon", range(1, 3), marks=pytest.mark.slow), ("klondike", range(1, 4)),
    pytest.param("freecell", range(1, 4), marks=pytest.mark.slow), ("spider", range(1, 2)),
    pytest.param("canfield", range(1, 4), marks=pytest.mark.slow),
    # La Belle Lucie's search is Three Shuffles and a Draw's without the draw
    pytest.param("la-belle-lucie", range(1, 3), marks=pytest.mark.slow), ("cruel", range(1, 3)),
    ("three-shuffles-and-a-draw", range(1, 3)), ("mini-fan-draw", range(1, 6))])
def test_restarted_solves_are_the_same_search(name, deals):
    # the orderings with their jitter are Python's exactly: the same positions, the same line
    variant = mini(name) if name.startswith("mini") else patience.find_variant(name)
    for number in deals:
        game = variant.deal(number)
        assert_same_search(game, 20_000, number)


@pytest.mark.parametrize(("name", "deals", "budget"), [
    ("tabbycat-autoremove", range(1, 9), 20_000), ("manx", range(1, 6), 20_000),
    ("mini-tight", range(1, 13), 200_000), ("klondike", range(1, 4), 5_000),
    ("mini-fourteen", range(1, 13), 200_000),
    ("freecell", range(1, 3), 5_000), ("canfield", range(1, 4), 5_000),
    ("mini-la-belle-lucie", range(1, 9), 50_000), ("mini-cruel", range(1, 6), 50_000),
    ("mini-fan-draw", range(1, 9), 50_000)])
def test_prove_mode_is_the_same_search(name, deals, budget):
    # one search with the main ordering: the same verdict after the same positions
    variant = mini(name) if name.startswith("mini") else patience.find_variant(name)
    verdicts = set()
    for number in deals:
        game = variant.deal(number)
        core = assert_same_proof_search(game, budget, number)
        verdicts.add(core.verdict)
        if core.verdict == "won":
            assert replays_to_a_win(game, core.moves)
    if name == "mini-tight":
        assert verdicts == {"won", "unwinnable"}


@pytest.mark.parametrize("name", ["mini-tight", "mini-tight-autoremove",
                                  pytest.param("mini-tabbycat-autoremove",
                                               marks=pytest.mark.slow),
                                  pytest.param("mini-suited", marks=pytest.mark.slow),
                                  "mini-penguin",
                                  # its redeal is mini-three-shuffles-and-a-draw's too
                                  pytest.param("mini-la-belle-lucie", marks=pytest.mark.slow),
                                  "mini-montana",
                                  "mini-monte-carlo", "mini-pyramid",
                                  pytest.param("mini-three-peaks-covered", marks=pytest.mark.slow),
                                  "mini-fan-draw", "mini-three-shuffles-and-a-draw",
                                  pytest.param("mini-cruel", marks=pytest.mark.slow)])
def test_verdicts_agree_with_the_exhaustive_reference(name):
    variant = mini(name)
    verdicts = set()
    for number in range(1, 21):
        game = variant.deal(number)
        reference = exhaustive_verdict(game, max_positions=300_000)
        if reference == "unknown":
            continue
        assert exhaustive_verdict(game, max_positions=300_000, engine="native") == reference
        result = solve(game, max_positions=500_000, engine="native")
        assert result.verdict == reference, f"{name} deal {number}"
        if result.verdict == "won":
            assert replays_to_a_win(game, result.moves)
        verdicts.add(reference)
    if name.startswith("mini-tight") or name in ("mini-montana", "mini-monte-carlo",
                                                 "mini-fan-draw"):
        assert verdicts == {"won", "unwinnable"}


@pytest.mark.parametrize(("name", "deals"), [
    ("tabbycat-autoremove", (1, 2, 3)), ("tabbycat", (1, 2)), ("manx", (1, 2)),
    ("mainecoon", (4,)), ("tabbycat-corner", (2, 3)), ("klondike", (14,)), ("freecell", (1, 7)),
    ("spider-1suit", (1, 5))])
def test_native_won_lines_replay_through_the_kernel(name, deals):
    variant = patience.find_variant(name)
    for number in deals:
        game = variant.deal(number)
        result = solve(game, max_positions=100_000, engine="native")
        assert result.engine == "native"
        assert result.verdict == "won", f"{name} deal {number}"
        assert replays_to_a_win(game, result.moves), f"{name} deal {number}"


def test_the_everything_variant_solves_alike():
    variant = everything()
    verdicts = set()
    for number in range(1, 13):
        game = variant.deal(number)
        python = solve(game, 20_000, prove=True, engine="python", shorten_line=False)
        core = solve(game, 20_000, prove=True, engine="native")
        assert (core.verdict, core.positions) == (python.verdict, python.positions), number
        verdicts.add(core.verdict)
        if core.verdict == "won":
            assert replays_to_a_win(game, core.moves)
        if number <= 4:
            assert exhaustive_verdict(game, 200_000, engine="native") == \
                exhaustive_verdict(game, 200_000) == core.verdict
    assert "won" in verdicts


def test_a_memory_cap_ends_the_search_as_unknown():
    # deal 4 in prove mode takes more than 400,000 positions: far more than 1 MiB holds
    # (some 40,000 with numbered keys and a capped table filled up to 95%)
    game = patience.find_variant("tabbycat-autoremove").deal(4)
    result = solve(game, 10_000_000, prove=True, engine="native", max_memory=1 << 20)
    assert result.verdict == "unknown" and 1_000 < result.positions < 60_000
    with pytest.raises(SolverError, match="max_memory must be a number of bytes from 1 to"):
        solve(game, 1_000, engine="native", max_memory=0)


@pytest.mark.parametrize("name", [*variant_params(few=True), str(EVERYTHING)])
def test_numbered_keys_merge_what_byte_keys_merge(name):
    # A solve writes each key as the numbers of its piles' parts in tables kept for the
    # solve (native/src/parts.rs); `byte_keys` writes the parts themselves, one byte a card,
    # as Python's key has them. Both searches must store and expand the same positions and
    # give the same verdict and line, which they do only if both merge the same positions
    # (the Rust tests read numbered keys back on random positions). Capped and not: the
    # cap adds the tables' bytes to what it counts, and changes nothing else.
    variant = patience.find_variant(name)
    core = native.core(variant)
    for number in (1, 2, 3):
        game = variant.deal(number)
        piles, stock = core_position(game)
        by_bytes = core.solve(piles, stock, 30_000, None, True, None, None, byte_keys=True)
        keep = ("outcome", "positions", "stored", "line")
        for cap in (None, 1 << 36):
            numbered = core.solve(piles, stock, 30_000, None, True, cap, None)
            assert {k: numbered[k] for k in keep} == {k: by_bytes[k] for k in keep}, (name, number)
            assert numbered["parts"] > 0 and by_bytes["parts"] == 0
        # the numbered keys are shorter: the records hold a quarter to two thirds less
        assert numbered["record_bytes"] < by_bytes["record_bytes"], (name, number)


@pytest.mark.parametrize(("name", "number"), [("spider", 1), ("klondike", 1), ("fan", 31)])
def test_a_small_memory_cap_ends_any_search_as_unknown(name, number):
    game = patience.find_variant(name).deal(number)
    for cap in (1, 1 << 16, 1 << 20):
        result = solve(game, 10_000_000, prove=True, engine="native", max_memory=cap)
        assert result.verdict == "unknown" and result.positions < 100_000, (cap, result)


@pytest.mark.parametrize(("name", "number"),
                         [("spider", 1), ("klondike", 1), ("fan", 31), ("freecell", 3)])
def test_a_memory_cap_bounds_the_store_and_the_search_stacks_together(name, number):
    # The search's own stacks (frames, their moves, the line, Tarjan's stack) grow with its
    # depth: on FreeCell deal 3 they pass 150 MB within 300,000 positions, and a Spider
    # search of 10^8 positions held some 6 GB of them. A cap bounds both: the search ends
    # as `unknown` before the store and the stacks together would pass it.
    variant = patience.find_variant(name)
    core = native.core(variant)
    game = variant.deal(number)
    piles, stock = core_position(game)
    for cap in (1 << 20, 1 << 22):
        found = core.solve(piles, stock, 300_000, None, True, cap, None)
        assert found["outcome"] == "memory", (cap, found["outcome"])
        assert 0 < found["stack_bytes"] and found["bytes"] + found["stack_bytes"] <= cap, cap
    free = core.solve(piles, stock, 20_000, None, True, None, None)
    assert free["stack_bytes"] > 0


@pytest.mark.parametrize("name", [*variant_params(few=True), str(EVERYTHING)])
def test_children_dropped_and_a_path_packed_change_nothing(name):
    # A deep search drops the children of its shallowest frames from the move stack and
    # makes them again when it comes back to them (`Path::drop_moves` in search.rs), and
    # packs the shallowest positions of its path into a few bytes each, unpacking them when
    # it comes back (`Path::freeze`, `Path::thaw`). With a stack of 16 moves and 2 positions
    # kept plain that happens at nearly every step; the searches (one proof with the main
    # ordering, and the restarts, whose jittered orderings keep their children) must
    # expand, store and find exactly what they do with everything kept.
    variant = patience.find_variant(name)
    core = native.core(variant)
    game = variant.deal(1)
    piles, stock = core_position(game)
    keep = ("outcome", "positions", "stored", "line")
    for prove in (True, False):
        kept = core.solve(piles, stock, 20_000, None, prove, path_kept=1 << 30)
        for moves_kept, path_kept in ((16, 1 << 30), (None, 2), (16, 2)):
            changed = core.solve(piles, stock, 20_000, None, prove, moves_kept=moves_kept,
                                 path_kept=path_kept)
            assert {k: changed[k] for k in keep} == {k: kept[k] for k in keep}, \
                (name, prove, moves_kept, path_kept)


@pytest.mark.slow  # 3 s
def test_a_deep_search_keeps_its_path_small():
    # FreeCell deal 3 is won after 1.8 million positions of one path nearly as deep. With
    # every sibling kept, its stacks held 154 MB after 300,000 positions (600 MB at the
    # win, seven times its store); without the siblings, 31 MB of 58-byte positions; with
    # 35-byte positions, 19 MB; with the shallow ones packed in about 5 bytes, 6 MB (the
    # packed path, Tarjan's stack of 5-byte ids, as allocated)
    game = patience.find_variant("freecell").deal(3)
    core = native.core(game.variant)
    piles, stock = core_position(game)
    found = core.solve(piles, stock, 300_000, None, True)
    assert found["outcome"] == "budget"
    assert found["stack_bytes"] < 8_000_000, found["stack_bytes"]
    plain = core.solve(piles, stock, 300_000, None, True, path_kept=1 << 30)
    assert plain["stack_bytes"] > 2 * found["stack_bytes"], plain["stack_bytes"]


def walked(name: str, length: int):
    """Deal 1 of variant ``name``, its core and position, and up to ``length`` legal moves
    from there chosen at random (seed 7) with the game they reach (a copy)."""
    variant = patience.find_variant(name)
    game = variant.deal(1)
    walk, probe, chooser = [], game.copy(), random.Random(7)
    for _ in range(length):
        moves = probe.generate_moves()
        if not moves:
            break
        move = chooser.choice(moves)
        probe.push(move)
        walk.append(move)
    return game, native.core(variant), *core_position(game), walk, probe


@pytest.mark.parametrize("name", [*variant_params(few=True), str(EVERYTHING)])
def test_native_lines_are_cut_as_python_cuts_them(name):
    # The core cuts a line's detours (native/src/shorten.rs) as `shorten` does, move for
    # move: a random walk of 300 legal moves from deal 1 (it wanders: detours to cut), and
    # the first won line of deals 1-5 found within 100,000 positions, if any; a native
    # solve's line comes back cut so, and still wins
    game, core, piles, stock, walk, _ = walked(name, 300)
    variant = game.variant
    cut = [tuple(move) for move in core.shorten(piles, stock, walk)]
    assert cut == shorten(game, walk), name
    for number in range(1, 6):
        game = variant.deal(number)
        piles, stock = core_position(game)
        found = core.solve(piles, stock, 100_000)
        if found["outcome"] == "won":
            line = [tuple(move) for move in found["line"]]
            cut = [tuple(move) for move in core.shorten(piles, stock, line)]
            assert cut == shorten(game, line), (name, number)
            cut_by_solve = core.solve(piles, stock, 100_000, shorten=True)["line"]
            assert [tuple(move) for move in cut_by_solve] == cut, (name, number)
            result = solve(game, 100_000, engine="native")
            assert result.verdict == "won" and replays_to_a_win(game, result.moves)
            assert len(result.moves) == len(cut), (name, number)
            break


@pytest.mark.parametrize("name", ["freecell", "klondike", "tabbycat", "spider-1suit"])
def test_native_lines_are_cut_two_moves_at_a_time_as_python_cuts_them(name):
    # a hint's line (patience.solver.lines.cut_deeper): a random walk of 60 legal moves from
    # deal 1 cut with depth 2, move for move the same by both engines, never longer than
    # the cut of depth 1, and no cut at all with no time
    game, core, piles, stock, walk, probe = walked(name, 60)
    deeper = [tuple(move) for move in core.shorten(piles, stock, walk, None, 2)]
    assert deeper == shorten(game, walk, 2), name
    assert len(deeper) <= len(shorten(game, walk))
    replayed = game.copy()
    for move in deeper:
        replayed.push(move)
    assert replayed.key() == probe.key()  # the same last position: a won line still wins
    assert [tuple(m) for m in core.shorten(piles, stock, walk, None, 2, 0.0)] == \
        [tuple(m) for m in walk]
    assert shorten(game, walk, 2, 0.0) == walk


def test_a_line_too_big_for_the_memory_cap_is_left_uncut():
    game = patience.find_variant("freecell").deal(1)
    core = native.core(game.variant)
    piles, stock = core_position(game)
    # the restarts' line (the guided search's is short already): one shortening cuts
    line = [tuple(move) for move in core.solve(piles, stock, 100_000, guides=False)["line"]]
    assert [tuple(m) for m in core.shorten(piles, stock, line, max_memory=1)] == line
    assert len(core.shorten(piles, stock, line)) < len(line)


def test_a_time_limit_ends_the_native_search_as_unknown():
    game = patience.find_variant("tabbycat-autoremove").deal(4)  # > 400,000 positions
    started = time.perf_counter()
    result = solve(game, 10**9, time_limit=0.05, prove=True, engine="native")
    assert result.verdict == "unknown" and 0 < result.positions < 10**9
    assert time.perf_counter() - started < 5


def test_should_stop_is_asked_and_obeyed_by_the_native_search():
    game = patience.find_variant("tabbycat-autoremove").deal(4)
    asked = []

    def should_stop(positions):
        asked.append(positions)
        return positions >= 5_000

    result = solve(game, 10**7, prove=True, engine="native", should_stop=should_stop)
    assert result.verdict == "unknown" and 5_000 <= result.positions < 7_000
    assert asked == sorted(asked) and asked[0] == 1024

    def broken(positions):
        raise KeyError("from the callback")

    with pytest.raises(KeyError, match="from the callback"):
        solve(game, 10**7, prove=True, engine="native", should_stop=broken)


def test_engine_choice(monkeypatch):
    assert native.engine("auto") == "native"
    assert native.engine("python") == "python"
    monkeypatch.setenv("PATIENCE_ENGINE", "python")
    assert native.engine("auto") == "python"
    assert solve(patience.find_variant("tabbycat").deal(1), 2_000).engine == "python"
    assert native.engine("native") == "native"  # asked for by name: still native
    with pytest.raises(SolverError, match="engine must be one of"):
        native.engine("fast")


def run_cli(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "patience", *args], capture_output=True,
                          text=True, check=True)
    return done.stdout


def test_the_cli_names_the_engine():
    import json

    assert "solver engine: native core" in run_cli("--version")
    data = json.loads(run_cli("solve", "tabbycat-autoremove", "--seed", "2", "--json",
                              "--max-memory", "2G"))
    assert data["engine"] == "native" and data["verdict"] == "won"
    text = run_cli("solve", "tabbycat-autoremove", "--seed", "2", "--engine", "python")
    assert text.splitlines()[-1].endswith("(python engine)")


@pytest.mark.parametrize("safe, changes", [
    # every construct the core evaluates, over a move of any group (sound or not: both
    # engines must still search alike)
    (("pile in foundations or (source in cells and pile in columns and not pile.empty and "
     "goes_on(run.bottom, pile.top)) or (count(c in columns: c.empty) >= 2 and run.size == 1 "
     "and (all a, b in pairs(source): a.face_up) and stock.size % cap == 0 and pile != source)"),
     True),
    # Aces and Twos home: the ordering tries these first anyway, so the search is unchanged
    ("pile in foundations and run.top.rank <= 2", False),
])
def test_declared_safe_moves_are_the_same_search(safe, changes):
    from patience.variant import load_variant_text

    variant = load_variant_text(f"extends: {EVERYTHING}\nid: everything-safe\n"
                                f"solver:\n  safe: \"{safe}\"\n", "everything-safe.yaml")
    assert variant.safe is not None
    spent = set()
    for number in range(1, 5):
        game = variant.deal(number)
        assert_same_search(game, 1_500, number)
        core = assert_same_proof_search(game, 1_500, number)
        plain = solve(everything().deal(number), 1_500, prove=True, engine="native",
                      shorten_line=False)
        spent.add(core.positions != plain.positions)
    assert (True in spent) == changes  # whether the declaration changed the search


@pytest.mark.parametrize(("name", "deals"), [
    ("bakers-game", range(1, 3)), ("fan", range(1, 3)), ("streets-and-alleys", range(1, 3))])
def test_restarted_solves_with_safe_moves_are_the_same_search(name, deals):
    variant = patience.find_variant(name)
    assert variant.safe is not None
    for number in deals:
        game = variant.deal(number)
        assert_same_search(game, 2_000, number)
