"""What every command shares: choosing a variant, a starting position, and failing cleanly.

A command that takes a variant takes a shipped name or a file path. A command that takes a
starting position takes exactly one of ``--seed N``, ``--deal "7D 9C …"`` or
``--position FILE|TEXT``, then optionally ``--moves "m1 m2 …"`` replayed from it. Bad
input exits with status 2 and a message naming it, never a traceback.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import click

from patience.errors import PatienceError
from patience.game import Game
from patience.variant import Variant, find_variant

USAGE_ERROR = 2


def fail(message: str) -> NoReturn:
    """Print ``error: message`` to stderr and exit with status 2."""
    click.echo(f"error: {message}", err=True)
    sys.exit(USAGE_ERROR)


def load_variant(name: str) -> Variant:
    try:
        return find_variant(name)
    except PatienceError as error:
        fail(str(error))


def start_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """Add --seed / --deal / --position / --moves to a command."""
    options = [
        click.option("--seed", type=int, default=None, metavar="N",
                     help="Numbered deal N (the same on every machine)."),
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


def load_game(variant: Variant, seed: int | None, deal_text: str | None,
              position: str | None, moves_text: str = "") -> Game:
    """The starting position the options describe, with the moves replayed."""
    given = [name for name, value in (("--seed", seed), ("--deal", deal_text),
                                      ("--position", position)) if value is not None]
    if len(given) != 1:
        fail("give exactly one of --seed N, --deal \"CARDS\" or --position FILE|TEXT"
             + (f" (got {' and '.join(given)})" if given else ""))
    try:
        if seed is not None:
            game = variant.deal(seed)
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
    path = Path(argument)
    try:
        if len(argument) < 4096 and path.is_file():
            text = path.read_text(encoding="utf-8")
    except OSError:
        pass
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as error:
            fail(f"position JSON is not valid JSON: {error}")
        return variant.from_json(data)
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
