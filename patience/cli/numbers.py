"""Every numeric option of the command line, read through one click type.

:class:`Number` reads an option's text as the number its
:class:`~patience.arguments.Bound` takes — the same bounds the Python API checks — and
refuses anything else (NaN, infinity, a number out of range, text) with one line and exit
status 2, e.g. ``error: --time-limit must be a number of seconds above 0 and at most
1_000_000_000, not 'inf'``.
"""

from __future__ import annotations

import math
from typing import IO, Any, ClassVar

import click

from patience.arguments import Bound
from patience.cli.common import echo
from patience.errors import PatienceError
from patience.limits import MAX_INTEGER_TEXT


class NumberRefused(click.BadParameter):
    """A number refused: shown as one ``error:`` line (no usage lines), exit status 2."""

    def format_message(self) -> str:
        return self.message

    def show(self, file: IO[Any] | None = None) -> None:
        echo(f"error: {self.message}", err=True)


class Number(click.ParamType):  # type: ignore[type-arg, unused-ignore]
    """An option's number within ``bound``: a whole number, seconds (``1.5``), or bytes
    (``2000000``, ``512K``, ``64M``, ``2G``: powers of 1024) as ``bound.unit`` says."""

    _UNITS: ClassVar[dict[str, int]] = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30,
                                        "T": 1 << 40}

    def __init__(self, bound: Bound) -> None:
        self.bound = bound
        self.name = {"seconds": "seconds", "bytes": "bytes"}.get(bound.unit or "", "integer")

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int | float:
        option = param.opts[0] if param is not None and param.opts else self.bound.name
        number = value if isinstance(value, (int, float)) else self.read(str(value))
        try:
            return self.bound.check(number, name=option)
        except PatienceError as error:
            if number is not value:  # quote the text as it was written
                shown = str(value) if len(str(value)) <= 60 else str(value)[:60] + "…"
                message = f"{option} must be {self.bound.describe()}, not {shown!r}"
            else:
                message = str(error)
            raise NumberRefused(message, ctx, param) from None

    def read(self, text: str) -> int | float | None:
        """The number ``text`` writes, or None; never converts more than
        ``MAX_INTEGER_TEXT`` characters."""
        text = text.strip()
        if len(text) > MAX_INTEGER_TEXT or not text.isascii():
            return None
        unit = 1
        if self.bound.unit == "bytes":
            text = text.upper().removesuffix("B").removesuffix("I")
            suffix = text[-1:] if text[-1:] in self._UNITS else ""
            text, unit = text[:len(text) - len(suffix)], self._UNITS[suffix]
        try:
            return int(text) * unit
        except ValueError:
            pass
        if self.bound.unit is None:  # a whole number is written in digits
            return None
        try:
            number = float(text) * unit
        except ValueError:
            return None
        return int(number) if self.bound.whole and math.isfinite(number) else number
