"""The ``patience`` command line. Each area registers its commands in its own module."""

from __future__ import annotations

from patience.cli.main import main

__all__ = ["main"]
