"""Piles keyed by what the rules can read of them (``top_piles``), in both engines.

A pile no move, fill or redeal takes a card from, read by every rule only as ``top``,
``empty`` or ``size``, is keyed by its top card and size (or its top alone): docs/solver.md,
"The position key". Here: the derivation on shipped games and on variants made to break
each condition, the keys it gives, and agreement with the plain exhaustive search.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import patience
from patience import native
from patience.solver import exhaustive_verdict, solve
from patience.solver.rules import solver_rules, top_piles
from patience.variant import load_variant_text

MINI = Path(__file__).parent / "variants"


def mini(name: str) -> patience.Variant:
    return patience.find_variant(str(MINI / f"{name}.yaml"))


def named(variant: patience.Variant) -> dict[str, bool]:
    return {variant.pile_names[i]: size for i, size in top_piles(variant).items()}


def golf_with(change: dict[str, object]) -> patience.Variant:
    """Golf with parts of its definition replaced (``"piles.waste.accepts": "…"``)."""
    flat = yaml.safe_load(patience.find_variant("golf").flat_text())
    flat.pop("expect", None)
    for path, value in change.items():
        *parents, last = path.split(".")
        place = flat
        for part in parents:
            place = place[part]
        place[last] = value
    flat["id"] = "golf-changed"
    return load_variant_text(yaml.safe_dump(flat, sort_keys=False))


def test_golf_and_black_hole_key_their_foundation_by_its_top_card():
    # nothing leaves the waste (the hole); the rules read its top and whether it is empty
    assert named(patience.find_variant("golf")) == {"w": False}
    assert named(patience.find_variant("black-hole")) == {"h": False}
    assert named(mini("mini-golf")) == {"w": False}
    assert named(mini("mini-black-hole")) == {"h": False}


def test_one_way_foundations_keep_their_size_when_the_win_reads_it():
    # Tabby Cat: sets never leave; 'all f in foundations: f.size == 13' reads the size
    assert named(patience.find_variant("tabbycat")) == {f"f{i}": True for i in range(1, 5)}
    assert named(patience.find_variant("spider")) == {f"f{i}": True for i in range(1, 9)}


@pytest.mark.parametrize("name", ["freecell", "tabbycat-corner", "klondike", "canfield",
                                  "bakers-dozen", "manx-corner"])
def test_piles_cards_can_leave_are_keyed_whole(name):
    # FreeCell's foundations are read only by their top, but a card may be taken back:
    # what lies under it matters then
    assert top_piles(patience.find_variant(name)) == {}


@pytest.mark.parametrize("change", [
    {"piles.waste.accepts": "source in columns and run.size == 1 and not pile.empty and "
                            "next_to(run.top, pile.top) and pile.bottom.rank != 7"},
    {"piles.waste.moves": "run.size == 1"},
    {"stock.redeals": 1},
    {"piles.columns.accepts": "any w in waste: all a, b in pairs(w): a.rank != b.rank"},
    {"predicates.far(pile)": "not pile.empty and pile.bottom.rank == 1",
     "piles.columns.accepts": "any w in waste: far(w)"},
], ids=["bottom read", "cards may leave", "redeal turns it over", "all its cards read",
        "bottom read in a predicate"])
def test_each_condition_is_needed(change):
    assert named(golf_with(change)) == {}


def test_a_size_read_anywhere_keeps_the_size():
    assert named(golf_with({"win": "all c in columns: c.empty and count(w in waste: "
                                   "w.size > 1) == 1"})) == {"w": True}
    assert named(golf_with({"stock.deal_when": "all w in waste: w.size < 40"})) == {"w": True}


def test_positions_differing_below_the_top_share_a_key_unless_the_size_is_read():
    golf = patience.find_variant("golf")
    key = solver_rules(golf).key
    waste = golf.pile_index["w"]
    game = golf.deal(1)
    piles = [list(p) for p in game.piles]
    stock = list(game.stock)

    def with_waste(cards: list[int], column: list[int] | None = None) -> bytes:
        changed = [list(p) for p in piles]
        changed[waste] = cards
        if column is not None:
            changed[0] = column
        return key(changed, stock)

    top = piles[waste][-1]
    a, b = piles[1][0], piles[2][0]  # two other cards
    assert with_waste([a, top]) == with_waste([b, top]) == with_waste([a, b, top]) \
        == with_waste([top])
    assert with_waste([a, top]) != with_waste([top, a])  # another top card
    assert with_waste([a, top]) != with_waste([a, top], column=piles[0][1:])
    assert with_waste([]) != with_waste([top])
    # Tabby Cat's win reads the foundations' size: a set of 13 is not a pile of one card
    tabbycat = patience.find_variant("tabbycat")
    game = tabbycat.deal(1)
    piles = [list(p) for p in game.piles]
    foundation = tabbycat.pile_index["f1"]
    king = piles[0][-1]
    full = [list(p) for p in piles]
    full[foundation] = [piles[1][0], king]
    short = [list(p) for p in piles]
    short[foundation] = [king]
    other = [list(p) for p in piles]
    other[foundation] = [piles[2][0], king]
    key = solver_rules(tabbycat).key
    assert key(full, []) == key(other, []) != key(short, [])


@pytest.mark.slow
@pytest.mark.parametrize("name", ["mini-golf", "mini-black-hole"])
def test_the_solver_agrees_with_exhaustive_search(name):
    variant = mini(name)
    verdicts = set()
    for number in range(1, 31):
        game = variant.deal(number)
        reference = exhaustive_verdict(game, max_positions=200_000)
        if reference == "unknown":
            continue
        result = solve(game, max_positions=200_000, engine="python", shorten_line=False)
        assert result.verdict == reference, number
        verdicts.add(reference)
    assert verdicts == {"won", "unwinnable"}


@pytest.mark.skipif(not native.AVAILABLE, reason=f"native core: {native.REASON}")
@pytest.mark.parametrize(("name", "deals"), [("golf", range(1, 6)), ("black-hole", range(1, 4)),
                                             ("mini-golf", range(1, 21)),
                                             ("tabbycat", range(1, 4))])
def test_both_engines_merge_the_same_positions(name, deals):
    variant = mini(name) if name.startswith("mini") else patience.find_variant(name)
    for number in deals:
        game = variant.deal(number)
        python = solve(game, 5_000, prove=True, engine="python", shorten_line=False)
        core = solve(game, 5_000, prove=True, engine="native", shorten_line=False)
        assert (core.verdict, core.positions) == (python.verdict, python.positions), number
