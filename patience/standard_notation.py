"""FreeCell's standard move notation, as FreeCell Pro, Freecell Solver and most FreeCell
players write a solution: two characters per move, the source then the target, columns
``1``…``9``, free cells ``a``, ``b``, … and the foundations ``h`` ("home"): ``3a`` puts
column 3's top card in cell a, ``1h`` sends it home, ``26`` moves from column 2 onto
column 6 (a run, as many cards as the move takes), ``a3`` brings cell a's card to column 3.
Where runs of several lengths could make the move (into an empty column), the length follows
a ``v``, as in Freecell Solver's extended notation (``fc-solve -snx``): ``26v3``.

A move that takes a card back off a foundation (our FreeCell allows it; FreeCell Pro does
not, and standard notation cannot say which foundation) is written in our notation
(``f2:1-a``). Which pile group is the columns,
the cells and the foundations comes from the variant file's ``pysolfc:`` key (docs/rules.md,
"Numbered deals of other programs"), for games with free cells and at most nine columns and
seven cells (``h`` is home).

>>> from patience import find_variant
>>> from patience.seeds import deal
>>> game = deal(find_variant("freecell"), "ms:1")
>>> standard_moves(game, ["c6:1-a", "c6:1-a", "c6:1-f"])
['6a', '6b', '6h']
"""

from __future__ import annotations

from collections.abc import Sequence

from patience.boards import mapping_of
from patience.errors import PositionError
from patience.game import Game
from patience.moves import Move

MAX_COLUMNS = 9
MAX_CELLS = 7  # a to g: h is home


def standard_moves(game: Game, moves: Sequence[str | Move]) -> list[str]:
    """``moves`` played from ``game`` (not changed), each in standard notation."""
    variant = game.variant
    mapping = mapping_of(variant)
    if mapping.freecells is None or mapping.foundations is None:
        raise PositionError(f"{variant.id} has no free cells and foundations to write FreeCell's "
                            "standard notation")
    groups = variant.group_by_name
    columns, cells = groups[mapping.columns].indices, groups[mapping.freecells].indices
    home = groups[mapping.foundations].indices
    if len(columns) > MAX_COLUMNS or len(cells) > MAX_CELLS:
        raise PositionError(f"FreeCell's standard notation names at most {MAX_COLUMNS} columns "
                            f"and {MAX_CELLS} cells; {variant.id} has {len(columns)} and "
                            f"{len(cells)}")
    names: dict[int, str] = {}
    names.update({index: str(n + 1) for n, index in enumerate(columns)})
    names.update({index: "abcdefg"[n] for n, index in enumerate(cells)})
    names.update(dict.fromkeys(home, "h"))
    played = game.copy()
    written = []
    for text in moves:
        move = played.parse_move(text) if isinstance(text, str) else Move(*text)
        source, _, target = move
        if source not in names or target not in names:
            raise PositionError(f"move {played.notation(move)!r} has no standard notation "
                                f"in {variant.id}")
        if names[source] == "h":
            written.append(played.notation(move))
            played.push_unchecked(move)
            continue
        counts = {m[1] for m in played.variant.moves_from(played.piles, played.stock, source)
                  if names.get(m[2]) == names[target] and (names[target] == "h"
                                                           or m[2] == target)}
        length = f"v{move[1]}" if counts - {move[1]} else ""
        written.append(names[source] + names[target] + length)
        played.push_unchecked(move)
    return written
