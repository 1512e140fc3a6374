"""The solver's reductions agree with the plain exhaustive search, on every family.

``docs/solver.md`` argues each reduction sound: the merged position key (symmetric piles
sorted, card attributes no rule reads dropped, the stock keyed by its length), the skipped
exact reverse of the last move, the proven-lost table shared across restarts. Here each is
checked against the reference — ``exhaustive_verdict``: a plain depth-first search over
exact positions with none of them — on a reduced deck of every family of shipped games
(``tests/variants/mini-*.yaml``, each ``extends`` its shipped game with fewer cards). A
disagreement would be an unsound reduction; a deal the reference cannot finish within its
budget is left out, never counted.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import patience
from patience.definition import Definition, load_definition
from patience.solver import exhaustive_verdict, solve
from patience.solver.rules import solver_rules
from patience.solver.search import EXHAUSTED, Search, make_ordering
from patience.variant import resolve

MINI = Path(__file__).parent / "variants"

#: (reduced variant, its shipped game's family): every family of classic games
FAMILIES = [
    ("mini-freecell", "FreeCell"),
    ("mini-bakers-dozen", "Baker's Dozen"),
    ("mini-streets-and-alleys", "Beleaguered Castle"),
    ("mini-king-albert", "Raglan"),
    ("mini-fan", "Fan"),
    ("mini-la-belle-lucie", "Fan"),  # a redeal that gathers the fans and shuffles them
    ("mini-fan-draw", "Fan"),  # the draw of a buried card (merci)
    ("mini-cruel", "Baker's Dozen"),  # a redeal that gathers the columns in order
    ("mini-klondike", "Klondike"),
    ("mini-canfield", "Canfield"),
    ("mini-forty-thieves", "Forty Thieves"),
    ("mini-golf", "Golf"),
    ("mini-black-hole", "Golf"),
    ("mini-aces-up", "Aces Up"),
    ("mini-spider", "Spider"),
    ("mini-scorpion", "Spider"),
    ("mini-yukon", "Yukon"),
    ("mini-miss-milligan", "Gypsy"),
    ("mini-penguin", "FreeCell"),  # a deal that depends on the first card (deal_first)
    ("mini-grandfathers-clock", "Grandfather's Clock"),
    ("mini-fourteen", "Fourteen"),
    ("mini-lineup", "Montana"),
    ("mini-montana", "Montana"),  # a redeal that keeps each row's sequence, gaps after it
    ("mini-monte-carlo", "Monte Carlo"),  # a deal that closes the gaps up, then fills them
    ("mini-three-peaks", "Golf"),
    ("mini-accordion", "Accordion"),
    ("mini-giza", "Pyramid"),  # covering with discards: a covered pile is never chosen
    ("mini-pyramid", "Pyramid"),  # the stock's top card in play (stock.top), two redeals
    ("mini-three-peaks-covered", "Golf"),  # covered cards face down until uncovered
    ("mini-calculation", "Calculation"),
    ("mini-osmosis", "Osmosis"),
    ("mini-numerica", "Numerica"),
    ("mini-clock", "Clock"),  # cards put under a pile, turned from the pile the last went to
    ("mini-terrace", "Terrace"),  # fills that wait for the base card (fill_when)
    ("mini-elevens", "Elevens"),  # a court whose three leave by a forced move, gaps filled
    ("mini-elevens-too", "Elevens"),  # the gaps wait while the court holds a card (fill_when)
    ("mini-napoleon", "Napoleon"),  # cells held back by their own reserve pile (pile.index)
]
BUDGET = 200_000


def definition_of(name: str) -> Definition:
    # read, not compiled: the family is all this needs
    return load_definition(resolve(name), lambda parent, directory: resolve(parent, directory))


def mini(name: str) -> patience.Variant:
    return patience.find_variant(str(MINI / f"{name}.yaml"))


def compare(variant: patience.Variant, deals: range) -> dict[str, int]:
    """Solve each deal both ways; assert agreement where both decided. Returns the
    reference's verdict counts, and how often the solver alone ran out of budget."""
    counts: dict[str, int] = {}
    for number in deals:
        game = variant.deal(number)
        reference = exhaustive_verdict(game, max_positions=BUDGET)
        counts[reference] = counts.get(reference, 0) + 1
        if reference == "unknown":
            continue
        result = solve(game, max_positions=BUDGET, shorten_line=False)
        if result.verdict == "unknown":  # the restarts spent the budget: no claim, no check
            counts["solver unknown"] = counts.get("solver unknown", 0) + 1
            continue
        assert result.verdict == reference, f"{variant.id} deal {number}"
        if result.verdict == "won":
            probe = game.copy()
            for move in result.moves:
                probe.push(move)
            assert probe.is_won(), f"{variant.id} deal {number}: the line does not win"
    return counts


def test_every_family_of_classic_games_has_a_reduced_deck():
    families = {definition_of(name).family for name in patience.shipped_variants()}
    covered = {family for _, family in FAMILIES}
    assert families - covered == {"Tabby Cat / Manx"}  # tested in test_solver.py
    for name, family in FAMILIES:
        assert mini(name).family == family


#: the reduced decks whose first deals both searches settle in well under a second
QUICK = ["mini-bakers-dozen", "mini-streets-and-alleys", "mini-klondike", "mini-canfield",
         "mini-forty-thieves", "mini-golf", "mini-black-hole", "mini-spider", "mini-scorpion",
         "mini-yukon", "mini-miss-milligan", "mini-penguin", "mini-grandfathers-clock",
         "mini-la-belle-lucie", "mini-fan-draw", "mini-three-shuffles-and-a-draw",
         "mini-cruel", "mini-fourteen", "mini-lineup", "mini-montana",
         "mini-monte-carlo",
         "mini-three-peaks", "mini-accordion", "mini-calculation", "mini-osmosis",
         "mini-numerica", "mini-pyramid", "mini-three-peaks-covered", "mini-clock",
         "mini-elevens", "mini-elevens-too", "mini-napoleon"]
# (mini-terrace, 5 s for three deals, runs with the hundred-deal slow test only)


@pytest.mark.parametrize("name", QUICK)
def test_the_solver_agrees_with_exhaustive_search_on_a_few_deals(name):
    compare(mini(name), range(1, 4))


@pytest.mark.slow
@pytest.mark.parametrize("name", [name for name, _ in FAMILIES])
def test_the_solver_agrees_with_exhaustive_search_on_a_hundred_deals(name):
    counts = compare(mini(name), range(1, 101))
    assert counts.get("won", 0) and counts.get("unwinnable", 0), counts  # both verdicts
    assert counts.get("unknown", 0) <= 20, counts
    assert counts.get("solver unknown", 0) <= 10, counts


@pytest.mark.parametrize(("name", "number", "expanded"), [
    ("mini-tight", 29, 191), ("mini-tight", 4, 936)])
def test_every_member_of_a_lost_component_is_proven_lost(name, number, expanded):
    # An unwinnable deal searched to the end: every position expanded lies in a component
    # that closed without a win, so every one is proven lost, not only the components'
    # roots. (Proving only the roots left 150 of 191 and 912 of 936: the members below a
    # root, which reach back up to it, were left out.)
    variant = mini(name)
    game = variant.deal(number)
    rules = solver_rules(variant)
    search = Search(rules, game.piles, game.stock)
    assert search.run(make_ordering(rules, 0), 100_000) == EXHAUSTED
    assert search.expanded == expanded
    assert len(search.lost) == expanded
    # a second run sharing the table starts from a proven-lost root's children: each of
    # them is lost already, so only the root is expanded again
    again = Search(rules, game.piles, game.stock, lost=search.lost)
    assert again.run(make_ordering(rules, 1), 100_000) == EXHAUSTED
    assert again.expanded == 1
