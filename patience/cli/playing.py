"""``patience play``: play a variant in the terminal (full screen, or ``--plain`` lines)."""

from __future__ import annotations

import datetime
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from patience.cli.common import echo, fail, load_game, load_variant, start_options
from patience.cli.main import main
from patience.errors import PatienceError, SaveError

if TYPE_CHECKING:
    from patience.variant import Variant


@main.command()
@click.argument("variant", required=False)
@start_options
@click.option("--winnable", is_flag=True, help="A random deal the solver proved winnable.")
@click.option("--daily", is_flag=True,
              help="Today's deal: the same for everyone, proved winnable.")
@click.option("--resume", is_flag=True, help="Go on with the saved game.")
@click.option("--save-file", "save_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, metavar="FILE",
              help="Save to FILE (and --resume from it) instead of save.json in the data "
                   "folder, e.g. to resume a game saved to a fallback file.")
@click.option("--plain", is_flag=True,
              help="Line mode: read one command per line from stdin, print the position.")
def play(variant: str | None, seed: int | None, deal_text: str | None, position: str | None,
         moves_text: str, winnable: bool, daily: bool, resume: bool, save_file: Path | None,
         plain: bool) -> None:
    """Play VARIANT (a shipped name or a .yaml file): a random deal unless told otherwise.

    In the game, click a card to move it (with the cards on it), drag it to choose where it
    goes, click the stock to deal; or type a move (c1:2-c3) and Enter, d deal, u undo,
    r redo, h hint, ? rules, w where did I lose, q quit. Quitting saves the game.
    """
    from patience.play import saves
    from patience.play.session import Session

    chosen = [name for name, value in (("--seed", seed), ("--deal", deal_text),
                                       ("--position", position), ("--winnable", winnable),
                                       ("--daily", daily), ("--resume", resume))
              if value not in (None, False)]
    if len(chosen) > 1:
        fail(f"give at most one of --seed, --deal, --position, --winnable, --daily, --resume "
             f"(got {' and '.join(chosen)})")
    if save_file is not None:
        save_file = save_file.absolute()
    if resume:
        try:
            data = saves.read_save(save_file)
        except SaveError as error:
            fail(str(error))
        if data is None:
            fail("there is no saved game to resume (looked in "
                 f"{str(save_file or saves.save_path())!r})")
        try:
            session = Session.from_save(data, path=save_file)
        except SaveError as error:
            fail(str(error))
        if variant is not None and load_variant(variant).id != session.variant.id:
            fail(f"the saved game is {session.variant.id!r}, not {variant!r}: run "
                 "'patience play --resume' without a variant")
        if moves_text.strip():
            fail("--moves needs a starting position, not --resume")
    else:
        if variant is None:
            fail("name a variant to play (see 'patience variants'), or give --resume")
        rules = load_variant(variant)
        label = None
        if winnable or daily:
            number = _proved_deal(rules, daily)
            game = load_game(rules, number, None, None, moves_text)
            label = (f"daily deal {datetime.date.today().isoformat()} (deal {number})" if daily
                     else f"winnable deal {number}")
        elif seed is None and deal_text is None and position is None:
            game = load_game(rules, random.randrange(1, 1_000_000_000), None, None, moves_text)
        else:
            game = load_game(rules, seed, deal_text, position, moves_text)
        session = Session(game, label=label, save_file=save_file)
        _warn_about_replacing_a_save(save_file)
    if plain:
        from patience.play.plain import run_plain

        run_plain(session, sys.stdin, sys.stdout)
        return
    try:
        from patience.play.app import run
    except ImportError as error:
        fail(f"the full-screen game needs textual ({error}); install it with "
             "pip install 'patience[play]', or use --plain")
    message = run(session)
    if message:
        echo(message)


def _warn_about_replacing_a_save(save_file: Path | None) -> None:
    """Say before the game what saving it will do to the save file there is."""
    from patience.play import saves
    from patience.play.session import resume_command

    try:
        data = saves.read_save(save_file)
    except SaveError as error:
        echo(f"note: {error}; this game will be saved to a new file instead (its name "
                   "is shown when you quit)", err=True)
        return
    if data is not None:
        echo(f"note: the saved game ({data['variant']}, {data['label']}) will be "
                   "replaced when this one is saved; quit and use "
                   f"{resume_command(save_file or saves.save_path())} to go on with it",
                   err=True)


def _proved_deal(variant: Variant, daily: bool) -> int:
    """A deal number the solver proved winnable: today's (--daily) or a random one."""
    from patience.play.deals import daily_deal, daily_start, first_winnable

    today = datetime.date.today()
    start = daily_start(variant, today) if daily else random.randrange(1, 1_000_000_000)
    echo(f"looking for {'today’s deal' if daily else 'a winnable deal'}…", err=True)
    try:
        return daily_deal(variant, today) if daily else first_winnable(variant, start)
    except PatienceError as error:  # the solver is missing: play the deal unproved
        echo(f"warning: {error}; playing deal {start}, which is not proved winnable",
                   err=True)
        return start
