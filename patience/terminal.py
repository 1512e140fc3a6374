"""Text from files, shown on a terminal: control characters escaped.

A variant file's name, description, comments and rules, a save file's labels, a line quoted
in an error: any of them can hold terminal control sequences (``\\x1b[2J`` clears the screen,
``\\u202e`` reverses the text after it). Everything the command line and the line mode print
goes through :func:`printable` (the CLI's ``echo`` does it), so such characters are shown
as their escapes and never act on the terminal.
"""

from __future__ import annotations


def printable(text: str) -> str:
    """``text`` with every unprintable character (escape, carriage return, bidi controls
    …) written as its Python escape; line breaks and tabs stay.

    >>> printable("\\x1b[2Jname\\tok\\n\\u202eevil")
    '\\\\x1b[2Jname\\tok\\n\\\\u202eevil'
    """
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() or char in "\n\t"
                   else char.encode("unicode_escape").decode("ascii") for char in text)
