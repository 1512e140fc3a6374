"""``patience play``: play a variant in the terminal (full screen, or ``--plain`` lines)."""

from __future__ import annotations

import datetime
import random
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from patience.cli.common import (
    echo,
    fail,
    load_game,
    load_variant,
    numbering_option,
    start_options,
)
from patience.cli.main import main
from patience.distribution import install_hint
from patience.errors import DealError, PatienceError, SaveError
from patience.seeds import DAILY_HIGH, OURS, Seed, deal

if TYPE_CHECKING:
    from patience.play.session import Session
    from patience.variant import Variant


@main.command()
@click.argument("variant", required=False)
@start_options
@click.option("--winnable", is_flag=True, help="A random deal the solver proved winnable.")
@click.option("--daily", is_flag=True,
              help="Today's deal: the same for everyone, proved winnable.")
@click.option("--resume", is_flag=True,
              help="Go on with VARIANT's saved game (without VARIANT: the one saved game, or "
                   "a list of them).")
@click.option("--save-file", "save_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, metavar="FILE",
              help="Save to FILE (and --resume from it) instead of the variant's save in the "
                   "data folder, e.g. to resume a game saved to a fallback file.")
@click.option("--plain", is_flag=True,
              help="Line mode: read one command per line from stdin, print the position.")
@numbering_option
def play(variant: str | None, seed: int | None, deal_text: str | None, position: str | None,
         moves_text: str, winnable: bool, daily: bool, resume: bool, save_file: Path | None,
         plain: bool, numbering: str) -> None:
    """Play VARIANT (a shipped name or a .yaml file): a random deal unless told otherwise.

    In the game, click a card to move it (with the cards on it), drag it to choose where it
    goes, click the stock to deal; or type a move (c1:2-c3) and Enter. Keys: d deal, u undo,
    r redo, h hint (from the full deal), v hint from what you see, a auto-finish, w where
    did I lose, n new game, i rules, ? all the keys, q quit; ':' types a command (':help').
    Every way out saves the game.
    """
    from patience.play.session import Session

    chosen = [name for name, value in (("--seed", seed), ("--deal", deal_text),
                                       ("--position", position), ("--winnable", winnable),
                                       ("--daily", daily), ("--resume", resume))
              if value not in (None, False)]
    if len(chosen) > 1:
        fail(f"give at most one of --seed, --deal, --position, --winnable, --daily, --resume "
             f"(got {' and '.join(chosen)})")
    if numbering != OURS and chosen and not (winnable or daily):
        fail(f"--numbering chooses the deal of a random game, --winnable or --daily; with "
             f"{chosen[0]} write the deal as ms:N or pysolfc:N")
    if save_file is not None:
        save_file = save_file.absolute()
    if not plain and not (sys.stdin.isatty() and sys.stdout.isatty()):
        fail("the full-screen game needs a terminal, and standard input or output is not "
             "one; use --plain for line mode (commands on stdin, positions on stdout)")
    if resume:
        path, data = _saved_game(variant, save_file)
        try:
            session = Session.from_save(data, path=path)
        except SaveError as error:
            fail(str(error))
        if variant is not None and save_file is not None and \
                variant not in (session.variant.id, *session.variant.aliases) and \
                load_variant(variant).id != session.variant.id:
            fail(f"the saved game in {str(save_file)!r} is {session.variant.id!r}, not "
                 f"{variant!r}")
        if moves_text.strip():
            fail("--moves needs a starting position, not --resume")
    else:
        if variant is None:
            fail("name a variant to play (see 'patience variants'), or give --resume")
        rules = load_variant(variant)
        label = None
        if winnable or daily:
            number = _proved_deal(rules, daily, numbering)
            game = load_game(rules, number, None, None, moves_text)
            label = (f"daily deal {datetime.date.today().isoformat()} (deal {number})" if daily
                     else f"winnable deal {number}")
        elif seed is None and deal_text is None and position is None:
            game = load_game(rules, Seed(_random_deal(numbering), numbering), None, None,
                             moves_text)
        else:
            game = load_game(rules, seed, deal_text, position, moves_text)
        from patience.play.deals import proof_positions

        # proven winnable: a hint at its start finds the proof's win (kept in the save)
        session = Session(game, label=label, save_file=save_file,
                          proven=proof_positions() if winnable or daily else None)
    _read_preferences(session)
    if plain:
        from patience.play.plain import run_plain, stop_on_signals

        note, _ = session.replacing_note()
        if note:
            echo(f"note: {note}", err=True)
        with stop_on_signals():
            run_plain(session, sys.stdin, sys.stdout)
        return
    try:
        from patience.play.app import run
    except ImportError as error:
        fail(f"the full-screen game needs textual ({error}); install it with "
             f"{install_hint('play')}, or use --plain")
    message = run(session)
    if message:
        try:
            echo(message)
        except OSError:
            pass  # the terminal is gone (SIGHUP): the game is saved all the same


def _read_preferences(session: Session) -> None:
    """The player's preferences (``patience.play.preferences``) for ``session``; a file
    that cannot be read is said on standard error and the defaults are used."""
    from patience.play.preferences import read_preferences

    try:
        session.auto_home = read_preferences()["auto_home"]
    except SaveError as error:
        echo(f"note: {error}; the defaults are used", err=True)


def _saved_game(variant: str | None, save_file: Path | None) -> tuple[Path, dict[str, Any]]:
    """The save to resume, and where it is: ``save_file``; else the named variant's own save
    (a saved game whose variant id is the name, else the variant that the name loads); else
    the one saved game there is (several: a list of them, and how to resume each)."""
    from patience.play import saves
    from patience.play.session import resume_command

    if save_file is not None:
        try:
            data = saves.read_save(save_file)
        except SaveError as error:
            fail(str(error))
        if data is None:
            fail(f"there is no saved game to resume in {str(save_file)!r}")
        return save_file, data
    found = saves.saved_games()
    if variant is not None:
        named = [(p, d) for p, d, _ in found if d is not None and d["variant"] == variant]
        if not named:
            wanted = load_variant(variant).id
            named = [(p, d) for p, d, _ in found if d is not None and d["variant"] == wanted]
        if not named:
            broken = [problem for p, d, problem in found if p == saves.save_path(variant)
                      and problem]
            fail(broken[0] if broken else f"there is no saved game of {variant} to resume "
                 f"(looked in {str(saves.data_directory())!r})")
        return named[0]
    games = [(p, d) for p, d, _ in found if d is not None]
    if len(games) == 1:
        return games[0]
    if not games:
        problems = [problem for _, _, problem in found]
        fail(problems[0] if problems else "there is no saved game to resume (looked in "
             f"{str(saves.data_directory())!r})")
    lines = [f"  {resume_command(p, d['variant']).strip(chr(39))}   "
             f"({d['label']}, {saves.moves_text(d)})" for p, d in games]
    fail(f"there are {len(games)} saved games; name the one to resume:\n" + "\n".join(lines))


def _proved_deal(variant: Variant, daily: bool, numbering: str) -> Seed:
    """A deal the solver proved winnable, in ``numbering``: today's (--daily, from the
    daily-deal cache when it was found before) or a random one. A progress line on stderr
    while it searches; Ctrl+C stops the search."""
    from patience.play.deals import DailyCache, cached_daily_deal, daily_start, first_winnable

    today = datetime.date.today()
    start = daily_start(variant, today, numbering) if daily else _random_deal(numbering)
    what = "today's deal" if daily else "a winnable deal"
    try:
        deal(variant, Seed(start, numbering))   # a numbering the variant cannot deal: say so
    except DealError as error:
        fail(str(error))
    if daily and DailyCache.default().get(variant, today, numbering) is not None:
        return Seed(cached_daily_deal(variant, today, numbering=numbering), numbering)
    progress = Progress(f"looking for {what} of {variant.name}")
    try:
        if daily:
            return Seed(cached_daily_deal(variant, today, progress, numbering=numbering),
                        numbering)
        return Seed(first_winnable(variant, start, progress, numbering), numbering)
    except KeyboardInterrupt:
        progress.end()
        fail(f"the search for {what} was stopped")
    except PatienceError as error:  # the solver is missing: play the deal unproved
        progress.end()
        found = Seed(start, numbering)
        echo(f"warning: {error}; playing deal {found}, which is not proved winnable",
             err=True)
        return found
    finally:
        progress.end()


def _random_deal(numbering: str) -> int:
    """A random deal number: ours up to a billion, the others' among their first million."""
    return random.randrange(1, (1_000_000_000 if numbering == OURS else DAILY_HIGH) + 1)


class Progress:
    """The solver's ``should_stop``: a progress line on stderr, rewritten every half second
    on a terminal (every ten seconds, one line each, elsewhere); it never stops a search."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.started = time.monotonic()
        self.shown = 0.0
        self.on_terminal = sys.stderr.isatty()
        self.ended = False
        echo(f"{what}… (Ctrl+C stops)", err=True)

    def __call__(self, positions: int) -> bool:
        now = time.monotonic()
        if now - self.shown >= (0.5 if self.on_terminal else 10.0):
            self.shown = now
            line = f"{self.what}… {positions:,} positions, {now - self.started:.0f} s"
            if self.on_terminal:
                click.echo(f"\r{line}\x1b[K", err=True, nl=False)
            else:
                echo(line, err=True)
        return False

    def end(self) -> None:
        if self.on_terminal and not self.ended and self.shown:
            click.echo("", err=True)
        self.ended = True
