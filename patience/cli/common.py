"""What every command shares: choosing a variant, a starting position, and failing cleanly.

A command that takes a variant takes a shipped name or a file path. A command that takes a
starting position takes exactly one of ``--seed N`` (or ``ms:N``, ``pysolfc:N``),
``--deal "7D 9C …"`` or ``--position FILE|TEXT`` (position text, JSON, or a board in Freecell
Solver's format), then optionally ``--moves "m1 m2 …"`` replayed from it. Bad
input exits with status 2 and a message naming it, never a traceback.

Text that comes from a file (a variant's name, description and rules, an error quoting a
line) can hold terminal control sequences: every command prints it through :func:`echo`,
which shows control characters escaped (``patience.terminal.printable``).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import click

from patience.boards import looks_like_board, read_board
from patience.cli.seed_type import SEED, SEED_HELP
from patience.errors import PatienceError, PositionError
from patience.game import Game
from patience.limits import MAX_POSITION_TEXT
from patience.seeds import Seed, deal
from patience.source import read_variant_file
from patience.terminal import printable
from patience.variant import Variant, find_variant

USAGE_ERROR = 2


def echo(text: object = "", err: bool = False) -> None:
    """``click.echo`` of :func:`printable` text: how commands print anything from a file."""
    click.echo(printable(str(text)), err=err)


def fail(message: str) -> NoReturn:
    """Print ``error: message`` to stderr and exit with status 2."""
    echo(f"error: {message}", err=True)
    sys.exit(USAGE_ERROR)


def find_checked_variant(name: str) -> Variant:
    """``find_variant``, after refusing a variant file too large to read or not UTF-8."""
    path = Path(name)
    try:
        is_file = path.is_file()
    except (OSError, ValueError):
        is_file = False
    if is_file:
        try:
            read_variant_file(path)
        except OSError:
            pass  # find_variant says it cannot be read
    return find_variant(name)


def load_variant(name: str) -> Variant:
    try:
        return find_checked_variant(name)
    except PatienceError as error:
        fail(str(error))


def start_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """Add --seed / --deal / --position / --moves to a command."""
    options = [
        click.option("--seed", type=SEED, default=None, metavar="N|ms:N|pysolfc:N",
                     help=SEED_HELP),
        click.option("--deal", "deal_text", default=None, metavar='"7D 9C …"',
                     help="An explicit deal: card codes in dealing order."),
        click.option("--position", "position", default=None, metavar="FILE|TEXT",
                     help="A position: a file holding position text or JSON, or the text."),
        click.option("--moves", "moves_text", default="", metavar='"m1 m2 …"',
                     help="Moves to play from the start, in notation."),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def load_game(variant: Variant, seed: Seed | int | None, deal_text: str | None,
              position: str | None, moves_text: str = "") -> Game:
    """The starting position the options describe, with the moves replayed."""
    given = [name for name, value in (("--seed", seed), ("--deal", deal_text),
                                      ("--position", position)) if value is not None]
    if len(given) != 1:
        fail("give exactly one of --seed N, --deal \"CARDS\" or --position FILE|TEXT"
             + (f" (got {' and '.join(given)})" if given else ""))
    try:
        if seed is not None:
            game = deal(variant, seed)
        elif deal_text is not None:
            game = variant.deal_cards(deal_text)
        else:
            assert position is not None
            game = read_position(variant, position)
        if moves_text.strip():
            for move in game.parse_moves(moves_text):
                game.push_unchecked(move)
    except PatienceError as error:
        fail(str(error))
    return game


def read_position(variant: Variant, argument: str) -> Game:
    """A position from a file (text or JSON) or from the argument itself."""
    text = argument
    try:
        if len(argument) < 4096 and "\0" not in argument and Path(argument).is_file():
            with open(argument, "rb") as stream:
                data = stream.read(MAX_POSITION_TEXT + 1)
            text = data.decode("utf-8", errors="replace")
    except OSError:
        pass
    if len(text) > MAX_POSITION_TEXT:
        raise PositionError(f"a position is at most {MAX_POSITION_TEXT:_} characters of text "
                            "or JSON")
    stripped = text.strip()
    if stripped.startswith("{"):
        return variant.from_json(stripped)
    if looks_like_board(stripped):
        return read_board(variant, stripped)
    return variant.position(stripped)


def handles_errors(function: Callable[..., Any]) -> Callable[..., Any]:
    """Turn a PatienceError escaping a command into exit status 2 with its message."""
    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except PatienceError as error:
            fail(str(error))
    return wrapper


JSON_HELP = "Print one JSON object instead of text (the same flag on every command that " \
            "reports something)."


def json_option(function: Callable[..., Any]) -> Callable[..., Any]:
    """Add ``--json`` (``as_json``) to a command: its report as one JSON object on stdout."""
    return click.option("--json", "as_json", is_flag=True, help=JSON_HELP)(function)


def numbering_option(function: Callable[..., Any]) -> Callable[..., Any]:
    """Add ``--numbering`` (``numbering``): which program's numbered deals a search counts."""
    from patience.seeds import MICROSOFT, OURS, PYSOLFC

    return click.option(
        "--numbering", type=click.Choice([OURS, MICROSOFT, PYSOLFC]), default=OURS,
        show_default=True,
        help="Count our deals, Microsoft's (ms: Windows FreeCell, KPat) or PySolFC's "
             "(pysolfc), for a variant whose file maps them (docs/rules.md).")(function)


def print_json(data: object) -> None:
    """One JSON object on one line of stdout, non-ASCII escaped (so control characters from
    a file never reach the terminal raw)."""
    import json

    click.echo(json.dumps(data, ensure_ascii=True))
