"""``patience solvitaire``: a starting position as Solvitaire's deal file (JSON)."""

from __future__ import annotations

import json

import click

from patience.cli.common import echo, handles_errors, load_game, load_variant, start_options
from patience.cli.main import main


@main.command("solvitaire")
@click.argument("variant")
@start_options
@handles_errors
def solvitaire_command(variant: str, seed: int | None, deal_text: str | None,
                       position: str | None, moves_text: str) -> None:
    """START of VARIANT as a Solvitaire deal file (JSON), for the games Solvitaire plays by
    our rules. Run Solvitaire on it with the preset or rules file the variant file's
    solvitaire: key names (bench/README.md, "Against Solvitaire")."""
    from patience.solvitaire import entry_for, solvitaire_deal

    game = load_game(load_variant(variant), seed, deal_text, position, moves_text)
    entry = entry_for(game.variant)
    echo(json.dumps(solvitaire_deal(game, entry), indent=2))
