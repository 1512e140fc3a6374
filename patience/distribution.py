"""The name patience is installed under, and the install hints that name it.

The import name and the command are ``patience``; the distribution on PyPI is
``patience-cards`` (``pip install patience`` brings an unrelated 2014 program with the same
import name and command). Every hint that tells a person what to install says this name.
"""

from __future__ import annotations

NAME = "patience-cards"


def install_hint(extra: str) -> str:
    """The command that installs ``extra``: ``pip install 'patience-cards[play]'``."""
    return f"pip install '{NAME}[{extra}]'"


def version() -> str:
    """The installed distribution's version; ``0+unknown`` when the sources run without
    being installed (``PYTHONPATH`` pointing at a checkout)."""
    from importlib import metadata

    try:
        return metadata.version(NAME)
    except metadata.PackageNotFoundError:
        return "0+unknown (not installed)"
