"""The two stock reductions (docs/solver.md, "Moves that commute with the deal" and "The
stock as a cycle"): derived from the rules only where their conditions hold, and exact —
the search with them agrees with the plain exhaustive search (which uses neither) on
reduced Klondike decks, both verdicts occurring, and both engines search alike."""

from __future__ import annotations

from pathlib import Path

import pytest

import patience
from patience import native
from patience.solver import RESTART_UNIT, exhaustive_verdict, luby, solve
from patience.solver.rules import solver_rules
from patience.solver.search import AFTER_DEAL, UNLIMITED, Search, pass_key

MINI = Path(__file__).parent / "variants"
needs_core = pytest.mark.skipif(not native.AVAILABLE, reason=str(native.REASON))


def mini(name: str) -> patience.Variant:
    return patience.find_variant(str(MINI / f"{name}.yaml"))


def child(tmp_path: Path, text: str) -> patience.Variant:
    """A variant extending klondike with ``text`` added (made to break one condition)."""
    path = tmp_path / "child.yaml"
    path.write_text("extends: klondike\nid: child\nname: Child\n" + text, encoding="utf-8")
    return patience.find_variant(str(path))


@pytest.mark.parametrize(("name", "after_deal", "cycle"), [
    ("klondike", {"w"}, ("w", 1)), ("klondike-draw3", {"w"}, ("w", 3)),
    ("klondike-vegas", {"w"}, None),  # three passes: the cycle ends
    ("forty-thieves", {"w"}, None),  # no redeal
    ("golf", None, None),  # the waste takes cards from the columns
    ("canfield", None, None),  # the reserve fills empty columns (a forced fill)
    ("spider", None, None),  # the deal feeds the columns, which take cards
    ("tabbycat", None, None), ("fan", None, None), ("freecell", None, None)])
def test_the_reductions_are_derived_where_the_rules_allow_them(name, after_deal, cycle):
    variant = patience.find_variant(name)
    rules = solver_rules(variant)
    names = variant.pile_names
    assert (None if rules.after_deal is None else {names[i] for i in rules.after_deal}) \
        == after_deal
    assert (None if rules.pass_merge is None
            else (names[rules.pass_merge[0]], rules.pass_merge[1])) == cycle


@pytest.mark.parametrize("text", [
    # a column rule that reads the waste: a move's legality would depend on the deal
    ("piles:\n  columns:\n    accepts: \"not pile.empty and goes_on(run.bottom, pile.top)"
     " or pile.empty and (all w in waste: w.empty)\"\n"),
    # a rule that reads the stock
    ("piles:\n  columns:\n    accepts: \"not pile.empty and goes_on(run.bottom, pile.top)"
     " or pile.empty and stock.empty\"\n"),
    # the deal's legality reads the columns: a move could change whether it is legal
    "stock:\n  deal_when: \"all c in columns: not c.empty\"\n",
    # the waste takes cards: a move could land on it
    "piles:\n  waste:\n    accepts: \"pile.empty\"\n"])
def test_a_rule_that_breaks_a_condition_turns_the_reduction_off(tmp_path, text):
    rules = solver_rules(child(tmp_path, text))
    assert rules.after_deal is None and rules.pass_merge is None


def test_a_deal_rule_on_the_stock_alone_keeps_the_restriction_but_not_the_cycle(tmp_path):
    # the deal stays independent of every other move, but it is not always legal, so deals
    # alone need not go round the whole cycle
    rules = solver_rules(child(tmp_path, "stock:\n  deal_when: \"stock.size != 5\"\n"))
    assert rules.after_deal is not None and rules.pass_merge is None


def test_positions_on_one_cycle_share_a_key_unless_reached_by_a_deal():
    variant = patience.find_variant("klondike")
    rules = solver_rules(variant)
    game = variant.deal(1)
    waste, turn = rules.pass_merge or (0, 0)
    key = pass_key(rules.key, waste, turn)
    piles, stock = [list(p) for p in game.piles], list(game.stock)
    start = key(piles, stock)
    for _ in range(5):  # the waste goes round: the same cycle, the same key
        piles[waste].append(stock.pop())
        assert key(piles, stock) == start
        assert rules.key(piles, stock) != rules.key(game.piles, game.stock)
    piles[waste].pop()  # a card gone from the cycle: another key
    assert key(piles, stock) != start
    # a position reached by a deal is keyed as itself, marked
    assert AFTER_DEAL + rules.key(piles, stock) != key(piles, stock)
    # three cards a deal: only waste sizes that are multiples of three merge
    draw3 = solver_rules(patience.find_variant("klondike-draw3"))
    assert draw3.pass_merge == (waste, 3)
    key3 = pass_key(draw3.key, waste, 3)
    piles, stock = [list(p) for p in game.piles], list(game.stock)
    start = key3(piles, stock)
    piles[waste] += [stock.pop(), stock.pop()]
    assert key3(piles, stock) != start
    piles[waste].append(stock.pop())
    assert key3(piles, stock) == start


def compare(variant: patience.Variant, deals: range | tuple[int, ...],
            engine: str) -> set[str]:
    """The solver (restarts, both reductions) against the exhaustive reference on each
    deal; the verdicts seen."""
    verdicts = set()
    for number in deals:
        game = variant.deal(number)
        reference = exhaustive_verdict(game, max_positions=300_000, engine=engine)
        assert reference != "unknown", number
        result = solve(game, max_positions=300_000, shorten_line=False, engine=engine)
        assert result.verdict == reference, f"{variant.id} deal {number}"
        if result.verdict == "won":
            probe = game.copy()
            for move in result.moves:
                probe.push(move)
            assert probe.is_won()
        verdicts.add(reference)
    return verdicts


@pytest.mark.parametrize(("name", "deals"), [
    ("mini-klondike-redeal", (23, 28)), ("mini-klondike-draw3", (20, 21))])
def test_the_reductions_agree_with_exhaustive_search(name, deals):
    variant = mini(name)
    rules = solver_rules(variant)
    assert rules.after_deal is not None
    assert (rules.pass_merge is not None) == (name == "mini-klondike-draw3")  # one redeal
    assert compare(variant, deals, "python") == {"won", "unwinnable"}


@pytest.mark.slow
@needs_core
@pytest.mark.parametrize("name", ["mini-klondike-redeal", "mini-klondike-draw3",
                                  "mini-klondike"])
def test_the_reductions_agree_with_exhaustive_search_on_two_hundred_deals(name):
    # the core runs the same search as the reference engine (test_native), so it can
    # afford many deals here
    assert compare(mini(name), range(1, 201), "native") == {"won", "unwinnable"}


@needs_core
@pytest.mark.parametrize(("name", "deals"), [
    ("mini-klondike-redeal", range(20, 26)), ("mini-klondike-draw3", range(18, 24)),
    ("klondike", range(2, 5)), ("klondike-draw3", range(3, 6)),
    ("klondike-vegas", range(1, 3))])
def test_both_engines_search_alike_with_the_reductions(name, deals):
    variant = mini(name) if name.startswith("mini") else patience.find_variant(name)
    for number in deals:
        game = variant.deal(number)
        python = solve(game, 3_000, engine="python")
        core = solve(game, 3_000, engine="native")
        assert (core.verdict, core.positions, core.moves) == \
            (python.verdict, python.positions, python.moves), number


@pytest.mark.parametrize("engine", ["python", pytest.param("native", marks=needs_core)])
def test_positions_reached_by_a_deal_are_steps_of_a_macro_move_and_not_counted(engine):
    # solver 1.8 (docs/solver.md, "Stock macro moves"): the same search, but the deals
    # that turn the stock towards the card played next cost nothing. Klondike deal 4 was
    # won after 1,701 positions counting them (unknown at 400); 148 without them.
    game = patience.find_variant("klondike").deal(4)
    result = solve(game, 400, shorten_line=False, engine=engine)
    assert (result.verdict, result.positions) == ("won", 148)
    probe = game.copy()
    for move in result.moves:
        probe.push(move)
    assert probe.is_won()
    # a budget still stops the search: positions never pass it
    assert solve(game, 100, shorten_line=False, engine=engine).positions <= 100


def test_the_restart_schedule_counts_every_position_a_run_expands(monkeypatch):
    # The restarts come where they came before solver 1.8 (a run's budget is of all the
    # positions it expands, those reached by a deal too), so the search is the one of 1.7
    # and only its count is smaller: Klondike's deal 4 is won by the same line, 1,701
    # positions counting the deals' (1.7's count), 268 without (as Emperor's deal 5, its
    # example's, is won by 1.7's line in 9,901 positions, not 11,109).
    runs: list[tuple[int, int, int, str]] = []
    original = Search.run

    def run(self, order, budget, deadline=None, should_stop=None, cap=UNLIMITED):
        outcome = original(self, order, budget, deadline, should_stop, cap)
        runs.append((budget, self.walked, self.expanded, outcome))
        return outcome

    monkeypatch.setattr(Search, "run", run)
    game = patience.find_variant("klondike").deal(4)
    result = solve(game, 30_000, shorten_line=False, engine="python")
    assert result.verdict == "won" and len(runs) > 2
    for number, (budget, walked, expanded, outcome) in enumerate(runs[:-1]):
        assert outcome == "budget" and walked == budget == RESTART_UNIT * luby(number + 1)
        assert expanded < walked  # some positions of the run were reached by a deal
    assert result.positions == sum(expanded for _, _, expanded, _ in runs) == 268
    assert sum(walked for _, walked, _, _ in runs) == 1_701
