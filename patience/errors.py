"""The exceptions patience raises, rooted in one base class.

Every error a user can cause by what they write (a variant file, a deal, a move, a
position) is a :class:`PatienceError` mixed with the builtin that fits, so callers can catch
either. Errors about a place in a file carry a :class:`Location` and render the offending
line with a caret under the problem, as lark and compilers do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from patience.limits import MAX_EXCERPT_WIDTH, MAX_FILE_ERRORS


class PatienceError(Exception):
    """Base class of every error patience raises on purpose."""


@attrs.frozen
class Location:
    """A span in a text file: 1-based line and column, plus the span's width on that line."""

    path: str
    line: int
    column: int
    width: int = 1
    source_line: str | None = None

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    def excerpt(self) -> str:
        """The line of the file with carets under the span, or '' when the text is unknown.

        A line longer than ``MAX_EXCERPT_WIDTH`` is shown cut to that many characters
        around the span, with an ellipsis where it was cut:

        >>> line, carets = Location("f.yaml", 3, 299, 2, "x" * 298 + "[]" + "y" * 500).excerpt(
        ...     ).splitlines()
        >>> line[:12], len(line), line[carets.index("^"):][:4], carets.count("^")
        ('    3 | …xxx', 110, '[]yy', 2)
        """
        if self.source_line is None:
            return ""
        text = self.source_line.rstrip("\n")  # a tab is shown as one space: cut, then expand
        start = 0
        if len(text) > MAX_EXCERPT_WIDTH:  # a window around the span, a quarter before it
            start = max(0, min(self.column - 1 - MAX_EXCERPT_WIDTH // 4,
                               len(text) - MAX_EXCERPT_WIDTH))
        stop = start + MAX_EXCERPT_WIDTH
        shown = (("…" if start else "") + text[start:stop].expandtabs(1)
                 + ("…" if stop < len(text) else ""))
        column = self.column - start + (1 if start else 0)
        width = max(1, min(self.width, len(text) - self.column + 1, stop - self.column + 1))
        gutter = f"{self.line:>5} | "
        caret = " " * (len(gutter) - 2) + "| " + " " * (column - 1) + "^" * width
        return f"{gutter}{shown}\n{caret}"


class VariantError(PatienceError, ValueError):
    """A variant definition is wrong; says where (file, line, column) and what.

    ``code`` names the kind of mistake, stable from release to release (``unknown-key``,
    ``syntax``); each code is explained in ``docs/errors.md``.
    """

    #: how many problems the error reports (more for :class:`VariantErrors`)
    count = 1

    def __init__(self, message: str, location: Location | None = None, *,
                 code: str | None = None) -> None:
        self.message = message
        self.location = location
        self.code = code
        super().__init__(self.render())

    def to_json(self) -> dict[str, object]:
        """The error as plain data: file, line, column, code and message (for tools)."""
        location = self.location
        return {"file": location.path if location else None,
                "line": location.line if location else None,
                "column": location.column if location else None,
                "code": self.code, "message": self.message}

    def render(self) -> str:
        if self.location is None:
            return self.message
        excerpt = self.location.excerpt()
        head = f"{self.location}: {self.message}"
        return f"{head}\n{excerpt}" if excerpt else head


class VariantErrors(VariantError):
    """Several independent problems found in one file, reported together: ``errors``, and
    ``more`` found after them and not shown (a file shows at most ``MAX_FILE_ERRORS``)."""

    def __init__(self, errors: list[VariantError], more: int = 0) -> None:
        self.errors = errors
        self.more = more
        self.count = len(errors) + more
        self.message = errors[0].message
        self.location = errors[0].location
        self.code = errors[0].code
        PatienceError.__init__(self, self.render())

    def render(self) -> str:
        lines = [error.render() for error in self.errors]
        if self.more:
            lines.append(f"and {self.more} more error{'s' if self.more != 1 else ''} (a file "
                         f"shows at most {MAX_FILE_ERRORS})")
        return "\n".join(lines)


class FileErrors(list[VariantError]):
    """The errors of one variant file as they are found, in bounded memory: past
    ``2 * MAX_FILE_ERRORS`` the list keeps the first ``MAX_FILE_ERRORS`` by ``order`` (where
    they are in the file) and only counts the others (``dropped``)."""

    def __init__(self, order: Callable[[VariantError], Any]) -> None:
        super().__init__()
        self.order = order
        self.dropped = 0

    def append(self, error: VariantError) -> None:
        super().append(error)
        if len(self) > 2 * MAX_FILE_ERRORS:
            self.sort(key=self.order)
            self.dropped += len(self) - MAX_FILE_ERRORS
            del self[MAX_FILE_ERRORS:]

    def combined(self) -> VariantError:
        """The error to raise: the first ``MAX_FILE_ERRORS`` in the file, and how many more."""
        self.sort(key=self.order)
        shown = self[:MAX_FILE_ERRORS]
        more = len(self) - len(shown) + self.dropped
        return shown[0] if len(shown) == 1 and not more else VariantErrors(shown, more)


class UnknownVariantError(PatienceError, ValueError):
    """No shipped variant has that name or alias, and no file has that path."""


class DealError(PatienceError, ValueError):
    """A deal's card list is malformed: wrong count, unknown or duplicate card.

    ``token`` is the bad card code and ``index`` its place in the list (from 0), where one
    card is at fault.
    """

    def __init__(self, message: str, *, token: str | None = None,
                 index: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.token = token
        self.index = index


class MoveError(PatienceError, ValueError):
    """A move is malformed (cannot be parsed) or illegal in the position.

    ``move`` is the move as written (or its notation), ``position`` the one-line text of
    the position it was tried in (python-chess style: the message alone reproduces it),
    ``rule`` the key of the rule that forbids it (``piles.columns.accepts``) when one does.
    ``message`` is the reason without the position, for front ends.
    """

    def __init__(self, message: str, *, move: str | None = None,
                 position: str | None = None, rule: str | None = None) -> None:
        self.message = message
        self.move = move
        self.position = position
        self.rule = rule
        super().__init__(message if position is None else f"{message}\n  in position {position}")


class PositionError(PatienceError, ValueError):
    """A position's text or JSON form cannot be read, or does not fit the variant."""


class ArgumentError(PatienceError, ValueError):
    """A number given to a function or a command is out of its range (``patience.arguments``):
    the message names the parameter, the value and the range."""


class SolverError(PatienceError, ValueError):
    """The solver was asked something it cannot answer: a budget that is not a positive
    number, say."""


class NoWinnableDealError(SolverError, LookupError):
    """No deal in the range searched was proven winnable within the budget."""


class SaveError(PatienceError, ValueError):
    """A save or statistics file that cannot be used (or written); says which and why."""


class StudyError(PatienceError, RuntimeError):
    """A winnability study cannot go on: a bad database, a variant that does not match."""


class StudyStopped(StudyError):
    """A study stopped part-way for a reason outside its input — its workers were lost
    (killed, out of memory, the cluster gone) or the database could not be written. What
    was stored stays; running the study again goes on from there."""


class SolverMissing(PatienceError, RuntimeError):
    """The solver cannot be loaded (a broken install): the player goes on without hints."""


class ForcedMovesError(MoveError):
    """The forced moves after a move or deal, or at the start, went on past
    ``MAX_FORCED_MOVES`` (``patience.limits``): the variant's rules pass cards round a loop.
    A move is not made (what catches an illegal move catches this too). The loader refuses
    the loops it can see; this bounds any other (docs/limits.md, "Playing")."""
