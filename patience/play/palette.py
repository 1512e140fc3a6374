"""The terminal board's colours: every (text, background) pair it draws, in one table.

Each colour is one of the xterm 256-colour palette's, so a 256-colour terminal shows the
same colour a true-colour one does (rich maps it to the nearest palette entry, which is
itself, or for greys a neighbour); ``tests/test_play_layout.py`` computes the WCAG contrast
ratio of every pair, both ways, and requires at least 4.5:1.
"""

from __future__ import annotations

from patience.play.layout import BACK, BLACK, COUNT, EMPTY, LABEL, MORE, RED

BOARD = "#1c1c1c"  # the board's background (xterm 234)
CARD = "#eeeeee"  # a face-up card (255)
HIGHLIGHT = "#ffd75f"  # chosen cards, a hint's cards and destination (221)
PANEL = "#303030"  # the status and command lines (236)

#: kind of board cell -> (text colour, background), and the same when highlighted
COLOURS: dict[str, tuple[str, str]] = {
    RED: ("#af0000", CARD),  # hearts and diamonds (xterm 124)
    BLACK: ("#000000", CARD),
    BACK: ("#ffffff", "#005f87"),  # a face-down card and the stock (231 on 24)
    LABEL: ("#bcbcbc", BOARD),  # pile names (250)
    EMPTY: ("#a8a8a8", BOARD),  # the dots of an empty pile (248)
    COUNT: ("#a8a8a8", BOARD),
    MORE: ("#bcbcbc", BOARD),  # '+12': cards under those shown
}
MARKED: dict[str, tuple[str, str]] = {
    RED: ("#870000", HIGHLIGHT),  # (88)
    BLACK: ("#000000", HIGHLIGHT),
    BACK: ("#000000", HIGHLIGHT),
    LABEL: ("#000000", HIGHLIGHT),
    EMPTY: ("#000000", HIGHLIGHT),
    COUNT: ("#000000", HIGHLIGHT),
    MORE: ("#000000", HIGHLIGHT),
}
#: the lines around the board: status, messages, the command line
TEXT: dict[str, tuple[str, str]] = {
    "status": ("#eeeeee", PANEL),
    "message": ("#eeeeee", BOARD),
    "error": ("#ff8787", BOARD),  # (210)
    "end": ("#87d787", BOARD),  # (114)
    "command": ("#eeeeee", PANEL),
    "placeholder": ("#a8a8a8", PANEL),
    "page": ("#eeeeee", BOARD),
}


def all_pairs() -> dict[str, tuple[str, str]]:
    """Every pair drawn, by name."""
    return {**{f"card {k}": v for k, v in COLOURS.items()},
            **{f"marked {k}": v for k, v in MARKED.items()},
            **{f"line {k}": v for k, v in TEXT.items()}}
