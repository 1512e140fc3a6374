"""The ``--seed`` option's value: our deal number, ``ms:N`` or ``pysolfc:N``
(:class:`patience.seeds.Seed`), parsed once here for every command that takes a seed."""

from __future__ import annotations

import sys
from typing import Any

import click

from patience.errors import DealError
from patience.seeds import Seed, parse_seed
from patience.terminal import printable


class SeedType(click.ParamType):  # type: ignore[type-arg, unused-ignore]
    """A numbered deal: N (ours), ms:N (Microsoft's) or pysolfc:N (PySolFC's)."""

    name = "seed"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Seed:
        try:
            return parse_seed(value)
        except DealError as error:  # one line, as every other bad input (patience.cli.common)
            option = param.opts[0] if param is not None and param.opts else "--seed"
            click.echo(printable(f"error: {option}: {error.message}"), err=True)
            sys.exit(2)


SEED = SeedType()
SEED_HELP = ("Numbered deal N (the same on every machine); ms:N is Microsoft's game N "
             "(Windows FreeCell, KPat), pysolfc:N PySolFC's.")
