"""The line mode: one command per line from a stream, the position printed after each.

For scripts, screen readers and tests. The commands are the keyboard's (``help`` lists
them); each command is echoed as ``> COMMAND``, followed by its message, if any, and the
position (:meth:`patience.game.Game.drawing`) with the status line. At ``q``, the end of the
input, Ctrl+C, SIGTERM or SIGHUP the game is saved, as in the full-screen game.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TextIO

from patience.play.session import Session
from patience.terminal import printable


def _print(text: str, out: TextIO) -> None:
    """Print a line that may hold text from a file (rules, names), control characters
    escaped."""
    print(printable(text), file=out)


def show_position(session: Session, out: TextIO) -> None:
    _print(session.drawing(), out)
    _print(session.status(), out)


def run_plain(session: Session, lines: TextIO, out: TextIO, save: bool = True) -> None:
    """Read commands from ``lines`` until ``q`` or the end; print to ``out``."""
    _print(f"{session.title()} (type 'help' for the commands)", out)
    show_position(session, out)
    opening = session.end_message()
    if opening:
        _print(opening, out)
    try:
        for line in lines:
            command = line.strip()
            if not command:
                continue
            _print(f"> {command}", out)
            reply = session.apply(command)
            if reply.quit:
                break
            if reply.text:
                _print(("error: " if reply.error else "") + reply.text, out)
            if reply.changed:
                show_position(session, out)
            out.flush()
    except KeyboardInterrupt:  # Ctrl+C, or SIGTERM / SIGHUP (see stop_on_signals): save
        pass
    if save:
        message = session.save()
        if message:
            _print(message, out)
    out.flush()


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """While inside: SIGTERM and SIGHUP stop the line mode as Ctrl+C does (so the game is
    saved); the handlers before are put back after."""
    import signal

    def stop(number: int, frame: object) -> None:
        raise KeyboardInterrupt

    before = {}
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            try:
                before[name] = signal.signal(getattr(signal, name), stop)
            except ValueError:  # not the main thread: leave the signals alone
                pass
    try:
        yield
    finally:
        for name, handler in before.items():
            signal.signal(getattr(signal, name), handler)
