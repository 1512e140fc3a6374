"""The generic kernel against an independent hand-written Tabby Cat move generator.

``bench/handwritten_tabbycat.py`` was written from docs/rules.md, not from the variant file or
the generated code, so agreement on many positions is a real differential test of the
rule compiler and the generator. The positions come from ``bench/movegen.py``: random walks
from numbered deals (uniform and building play) and synthetic positions that random play
rarely reaches (long runs through A -> K, complete sets, full foundations, a loaded tail).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import patience
from patience.perft import perft

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)  # movegen imports handwritten_tabbycat by name
    spec.loader.exec_module(module)
    return sys.modules[name]


handwritten = _load("handwritten_tabbycat")
movegen = _load("movegen")


@pytest.fixture(scope="module")
def tabbycat() -> patience.Variant:
    return patience.find_variant("tabbycat")


def _describe(game, generic, mine) -> str:
    def listed(moves):
        return " ".join(sorted(map(game.notation, moves)))

    return (f"position {game.text()}\n  generic:      {listed(generic)}\n"
            f"  hand-written: {listed(mine)}\n"
            f"  only generic: {listed(set(generic) - set(mine))}\n"
            f"  only hand-written: {listed(set(mine) - set(generic))}")


@pytest.mark.parametrize("seed", [0, 1])
def test_move_sets_agree_on_random_positions(tabbycat, seed):
    seen = 0
    for game in movegen.differential_positions(tabbycat, 300, seed):
        generic = tabbycat.generate_moves(game.piles, game.stock)
        mine = handwritten.generate_moves(game.piles, game.stock)
        assert len(set(generic)) == len(generic), _describe(game, generic, mine)
        assert set(generic) == set(mine), _describe(game, generic, mine)
        seen += 1
    assert seen == 300


def test_the_positions_cover_the_rules(tabbycat):
    """The sample reaches the cases that matter: set moves (also to a later foundation),
    runs longer than 13, the tail in use, empty columns, an empty stock, won positions."""
    found = set()
    for game in movegen.differential_positions(tabbycat, 300, 0):
        moves = game.generate_moves()
        piles = game.piles
        found.update(
            name for name, present in [
                ("set move", any(target >= 5 for _, _, target in moves)),
                ("set to f2..f4", any(target >= 6 for _, _, target in moves)),
                ("run over 13", any(count > 13 for _, count, _ in moves)),
                ("tail to column", any(source == 4 for source, _, _ in moves)),
                ("empty column", any(not piles[i] for i in range(4))),
                ("empty stock", not game.stock),
                ("won", game.is_won()),
            ] if present)
    assert found == {"set move", "set to f2..f4", "run over 13", "tail to column",
                     "empty column", "empty stock", "won"}


@pytest.mark.parametrize(("deal", "moves", "depth"), [(1, 0, 4), (13, 45, 3), (15, 45, 5)])
def test_perft_agrees(tabbycat, deal, moves, depth):
    game = movegen.walked(tabbycat, deal, moves)
    piles, stock = [list(p) for p in game.piles], list(game.stock)
    assert perft(game, depth) == handwritten.perft(piles, stock, depth)
    assert [list(p) for p in game.piles] == piles and game.stock == stock  # both undo exactly
