"""Progress and Ctrl+C for the commands that search (``solve``, ``hint``, ``deal``,
``daily``).

A :class:`SearchProgress` is the solver's ``should_stop``: after the search has run a second
it writes positions, rate and elapsed time to stderr (rewriting one line on a terminal, a
line every few seconds elsewhere), unless ``--quiet``. While it is installed, Ctrl+C does not
kill the command: the search stops at its next check (within 1,024 positions), the command
prints what it found so far and exits with status 130.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, NoReturn

import click

INTERRUPTED = 130
SHOW_AFTER = 1.0  # seconds: a search quicker than this prints no progress
EVERY_ON_TERMINAL = 0.5
EVERY_ELSEWHERE = 5.0


def quiet_option(function: Callable[..., Any]) -> Callable[..., Any]:
    """Add ``--quiet`` (no progress on stderr) to a searching command."""
    return click.option("--quiet", is_flag=True,
                        help="No progress on stderr while the search runs.")(function)


class SearchProgress:
    """The solver's ``should_stop``: progress on stderr, and stop once Ctrl+C was pressed."""

    def __init__(self, what: str, quiet: bool = False) -> None:
        self.what = what
        self.quiet = quiet
        self.started = time.monotonic()
        self.shown = 0.0
        self.on_terminal = sys.stderr.isatty()
        self.interrupted = False
        self.positions = 0  # the last count the search reported

    def __call__(self, positions: int) -> bool:
        self.positions = positions
        if not self.quiet:
            now = time.monotonic()
            elapsed = now - self.started
            every = EVERY_ON_TERMINAL if self.on_terminal else EVERY_ELSEWHERE
            if elapsed >= SHOW_AFTER and now - self.shown >= every:
                self.shown = now
                total = positions
                line = (f"{self.what}: {total:,} positions, {total / elapsed:,.0f}/s, "
                        f"{elapsed:.0f} s (Ctrl+C stops)")
                if self.on_terminal:
                    click.echo(f"\r{line}\x1b[K", err=True, nl=False)
                else:
                    click.echo(line, err=True)
        return self.interrupted

    def end(self) -> None:
        """Finish the progress line (a terminal's cursor goes back to the line's start)."""
        if self.on_terminal and self.shown:
            click.echo("\r\x1b[K", err=True, nl=False)
        self.shown = 0.0

    @contextmanager
    def catching_interrupts(self) -> Iterator[SearchProgress]:
        """Ctrl+C sets :attr:`interrupted` (the search then stops) instead of raising, while
        inside; the progress line is finished on the way out. A SIGINT that was ignored
        (a command started in the background) stays ignored."""
        def interrupt(number: int, frame: FrameType | None) -> None:
            self.interrupted = True

        previous = signal.getsignal(signal.SIGINT)
        # (only the main thread may set a handler: a command run from another thread, as
        # a test may, keeps Python's)
        replace = previous is signal.default_int_handler and \
            threading.current_thread() is threading.main_thread()
        if replace:
            signal.signal(signal.SIGINT, interrupt)
        try:
            yield self
        finally:
            if replace:
                signal.signal(signal.SIGINT, previous)
            self.end()


def exit_interrupted() -> NoReturn:
    """Exit with status 130, as a shell does for a command stopped by Ctrl+C."""
    sys.exit(INTERRUPTED)
