"""Perft golden files, one per variant (tests/perft/<variant>.txt), as python-chess keeps them.

Each line is ``START | MOVES | DEPTH | COUNT``: START is ``seed:N`` (numbered deal N) or a
position text, MOVES (maybe empty) are replayed from it, and COUNT is perft(DEPTH) there.
Lines starting with ``#`` are comments. The counts are regression data from the kernel,
except where a test below checks them by hand. Lines of depth 6 or more are marked slow,
and so are the files of the games outside ``shipped.REPRESENTATIVES`` (one game of each
family and mechanism).

On a mismatch the failure shows the per-move breakdown (divide) at that position.

Regenerate the counts (after a deliberate rule change, never to make a test pass):
``python tests/test_perft.py --regenerate``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from shipped import REPRESENTATIVES

import patience
from patience.perft import divide, perft

GOLDEN = Path(__file__).parent / "perft"
SLOW_DEPTH = 6


def read_golden(path: Path) -> list[tuple[str, str, int, int, int]]:
    """(start, moves, depth, count, line number) of each data line."""
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        start, moves, depth, count = (field.strip() for field in line.split("|"))
        rows.append((start, moves, int(depth), int(count), number))
    return rows


def start_game(variant: patience.Variant, start: str, moves: str) -> patience.Game:
    game = variant.deal(int(start[5:])) if start.startswith("seed:") else variant.position(start)
    for move in moves.split():
        game.push(move)  # checked: a golden line's moves must all be legal
    return game


def cases():
    for path in sorted(GOLDEN.glob("*.txt")):
        for start, moves, depth, count, number in read_golden(path):
            slow = depth >= SLOW_DEPTH or path.stem not in REPRESENTATIVES
            marks = [pytest.mark.slow] if slow else []
            yield pytest.param(path.stem, start, moves, depth, count,
                               id=f"{path.stem}:{number}", marks=marks)


def test_there_is_a_golden_file_per_shipped_variant():
    assert sorted(p.stem for p in GOLDEN.glob("*.txt")) == patience.shipped_variants()
    # and each has fast lines: an empty file would quietly run no test
    for path in GOLDEN.glob("*.txt"):
        assert any(depth < SLOW_DEPTH for _, _, depth, _, _ in read_golden(path)), path.name


@pytest.mark.parametrize(("variant", "start", "moves", "depth", "count"), list(cases()))
def test_perft(variant, start, moves, depth, count):
    game = start_game(patience.find_variant(variant), start, moves)
    before = game.text()
    found = perft(game, depth)
    assert game.text() == before, "perft must leave the position as it found it"
    if found != count:
        rows = "\n".join(f"  {text} {leaves}" for text, leaves in divide(game, depth))
        pytest.fail(f"perft({depth}) = {found}, golden {count}\nposition {game.text()}\n"
                    f"divide:\n{rows}")


# --- counts checked by hand from docs/rules.md ---------------------------------------------------

# Deal 1 is c:7D/9C/4D/8H with 8D 5S JD 6D next in the stock. The seven first moves and
# how many moves follow each (worked out move by move):
#   c1:1-c4  c:/9C/4D/8H7D     -> 9C, 4D, 7D and 8H7D to c1 / t, 8H7D on 9C, d   = 10
#   c1:1-t   c:/9C/4D/8H t:7D  -> 9C, 4D, 8H to c1, 8H on 9C, 7D to c1 or on 8H, d = 7
#   c2:1-t   c:7D//4D/8H t:9C  -> 7D to c2 or on 8H, 4D, 8H to c2, 9C to c2, d     = 6
#   c3:1-t   c:7D/9C//8H t:4D  -> 7D to c3 or on 8H, 9C to c3, 8H to c3 or on 9C,
#                                 4D to c3, d                                       = 7
#   c4:1-c2  c:7D/9C8H/4D/     -> 7D on 8H / c4 / t, 8H and 9C8H to c4 / t,
#                                 4D to c4 / t, d                                   = 10
#   c4:1-t   c:7D/9C/4D/ t:8H  -> 7D, 9C, 4D to c4, 8H to c4 or on 9C, d            = 6
#   d        c:7D8D/9C5S/4DJD/8H6D -> each top card to t, 5S on 6D, d               = 6
# Manx: the tail takes one card, so 8H7D (first line) and 9C8H (fifth) cannot go to it.
DEAL_1_DIVIDE_2 = {"c1:1-c4": 10, "c1:1-t": 7, "c2:1-t": 6, "c3:1-t": 7, "c4:1-c2": 10,
                   "c4:1-t": 6, "d": 6}
DEAL_1_DIVIDE_2_MANX = {**DEAL_1_DIVIDE_2, "c1:1-c4": 9, "c4:1-c2": 9}


@pytest.mark.parametrize("variant", ["tabbycat", "tabbycat-autoremove", "tabbycat-corner",
                                     "tabbycat-loosetail", "tabbycat-nowrap"])
def test_deal_1_divide_by_hand(variant):
    game = patience.find_variant(variant).deal(1)
    assert dict(divide(game, 2)) == DEAL_1_DIVIDE_2
    assert perft(game, 2) == 52


@pytest.mark.parametrize("variant", ["manx", "manx-corner"])
def test_deal_1_divide_by_hand_manx(variant):
    game = patience.find_variant(variant).deal(1)
    assert dict(divide(game, 2)) == DEAL_1_DIVIDE_2_MANX
    assert perft(game, 2) == 50


@pytest.mark.parametrize(("variant", "expected"), [
    ("tabbycat", 379), ("tabbycat-autoremove", 379),
    # partial exit: after c1:1-c4 c4:2-t (tail 8H 7D, c1 and c4 empty) the 7D alone may also
    # go to c1 or c4; after c4:1-c2 c2:2-t (tail 9C 8H, c2 and c4 empty) the 8H alone may go
    # to c2 or c4: 4 more leaves than the whole-exit dialects
    ("tabbycat-corner", 383), ("tabbycat-loosetail", 383), ("tabbycat-nowrap", 383),
])
def test_deal_1_depth_3_whole_versus_partial_exit(variant, expected):
    assert perft(patience.find_variant(variant).deal(1), 3) == expected


def test_perft_counts_nothing_below_a_won_position():
    from rules_helpers import build

    won = build("tabbycat", ["", "", "", ""], rest="foundations")
    assert perft(won, 1) == 0 and perft(won, 3) == 0 and perft(won, 0) == 1


def regenerate() -> None:
    """Recount every golden line with the kernel, keeping starts, moves, depths, comments."""
    for path in sorted(GOLDEN.glob("*.txt")):
        variant = patience.find_variant(path.stem)
        out = []
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.startswith("#"):
                out.append(line)
                continue
            start, moves, depth, _ = (field.strip() for field in line.split("|"))
            count = perft(start_game(variant, start, moves), int(depth))
            out.append(f"{start} | {moves} | {depth} | {count}")
        path.write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--regenerate"]:
        regenerate()
    else:
        print(__doc__)
