"""The ``patience`` command group and the kernel's commands.

Output meant for other programs is plain and stable: one item per line, sorted where the
order means nothing, the perft total always a bare integer on the last line. Anything taken
from a variant file is printed through ``echo`` (control characters escaped).

Exit status: 0 on success; 1 when ``check`` finds the file wrong; 2 for bad input (an
unknown variant, a wrong deal, position or move, a file that does not load for any other
command) — never a traceback.
"""

from __future__ import annotations

import sys

import click

from patience import distribution, native
from patience.arguments import PERFT_DEPTH
from patience.cli.common import (
    echo,
    fail,
    find_checked_variant,
    handles_errors,
    json_option,
    load_game,
    load_variant,
    print_json,
    start_options,
)
from patience.cli.numbers import Number
from patience.definition import Definition
from patience.errors import PatienceError, VariantError
from patience.variant import find_definition, shipped_variants


def _show_version(context: click.Context, parameter: click.Parameter, value: bool) -> None:
    """``--version``: the distribution's version and the engine in use (looked up only
    when asked: reading the installed metadata costs start-up time)."""
    if not value or context.resilient_parsing:
        return
    echo(f"{context.find_root().info_name}, version {distribution.version()}\n"
         f"{native.describe()}")
    context.exit()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_show_version, help="Show the version and the engine, and exit.")
def main() -> None:
    """Patience card games whose rules are data.

    VARIANT is a shipped variant name (see 'patience variants') or the path of a .yaml file.
    """


@main.command()
@click.option("--plain", is_flag=True,
              help="One 'id<TAB>description' line per variant, no family headings.")
@json_option
def variants(plain: bool, as_json: bool) -> None:
    """List the shipped variants by family: id and one-line description (--json: a list of
    {"id", "name", "family", "description"})."""
    found = [find_definition(name) for name in shipped_variants()]  # no need to compile
    if as_json:
        print_json([{"id": v.id, "name": v.name, "family": v.family,
                     "description": v.description} for v in found])
        return
    if plain:
        for variant in found:
            echo(f"{variant.id}\t{variant.description}")
        return
    families: dict[str, list[Definition]] = {}
    for variant in found:
        families.setdefault(variant.family, []).append(variant)
    width = max(len(variant.id) for variant in found)
    for number, (family, members) in enumerate(sorted(families.items())):
        if number:
            echo("")
        echo(f"{family}:")
        for variant in members:
            echo(f"  {variant.id:<{width}}  {variant.description}")


@main.command()
@click.argument("variant")
@handles_errors
def rules(variant: str) -> None:
    """Print the rules of VARIANT, generated from its definition."""
    echo(load_variant(variant).rules_text())


@main.command()
@click.argument("file")
@click.option("--format", "format_", type=click.Choice(["text", "json"]), default="text",
              help="text: located errors with carets; json: one object with each error's "
                   "file, line, column, code and message.")
@click.option("--json", "as_json", is_flag=True, help="The same as --format json.")
def check(file: str, format_: str, as_json: bool) -> None:
    """Validate a variant file: exit 1 with located errors, 0 with a summary."""
    if as_json:
        format_ = "json"
    try:
        variant = find_checked_variant(file)
    except PatienceError as error:
        if format_ == "json":
            if isinstance(error, VariantError):
                errors = [e.to_json() for e in getattr(error, "errors", [error])]
            else:  # no such variant or file: there is no place in a file to point at
                errors = [{"file": file, "line": None, "column": None,
                           "code": "unknown-variant", "message": str(error)}]
            more = getattr(error, "more", 0)  # errors past MAX_FILE_ERRORS, not listed
            _print_json({"file": file, "ok": False, "errors": errors,
                         **({"more_errors": more} if more else {})})
        elif isinstance(error, VariantError):
            echo(error.render(), err=True)
            count = error.count
            echo(f"{file}: {count} error{'s' if count != 1 else ''}", err=True)
        else:
            echo(f"error: {error}", err=True)
        sys.exit(1)
    if format_ == "json":
        _print_json({"file": file, "ok": True, "id": variant.id,
                     "rules_hash": variant.rules_hash, "errors": []})
        return
    piles = ", ".join(f"{g.count} {g.name}" for g in variant.groups)
    deals = f"{variant.deals} deal{'s' if variant.deals != 1 else ''}"
    safe = "" if variant.safe is None else \
        f"; solver.safe: {'derived: ' if variant.safe_derived else ''}" \
        f"{variant.safe.text.strip()} (see 'patience test --check safe_moves')"
    echo(f"{file}: ok: {variant.id} ({variant.name}): {len(variant.deck)} cards, "
         f"{piles}, {deals}, rules hash {variant.rules_hash}{safe}")


def _print_json(data: object) -> None:
    """JSON on stdout, non-ASCII escaped (so control characters from a file never reach the
    terminal raw)."""
    import json

    click.echo(json.dumps(data, indent=2, ensure_ascii=True))


@main.command()
@click.argument("variant")
@start_options
@click.option("--format", "format_", type=click.Choice(["board", "text", "json", "fcs"]),
              default="board", help="board: drawn; text: one-line position; json; fcs: "
                                    "Freecell Solver's board (black-hole-solver's for a game "
                                    "with one foundation pile).")
@click.option("--reveal", is_flag=True,
              help="Draw face-down cards too (in lower case), for authors and tests. The text "
                   "and json formats always record them.")
@click.option("--json", "as_json", is_flag=True, help="The same as --format json.")
def show(variant: str, seed: int | None, deal_text: str | None,
         position: str | None, moves_text: str, format_: str,
         reveal: bool, as_json: bool) -> None:
    """Draw the position of VARIANT at START (--seed/--deal/--position), after --moves.

    The board hides face-down cards (##) unless --reveal; the one-line text and the JSON
    record the whole position, face-down cards in lower case."""
    if as_json:
        format_ = "json"
    game = load_game(load_variant(variant), seed, deal_text, position, moves_text)
    if format_ == "text":
        echo(game.text())
    elif format_ == "fcs":
        from patience.boards import write_board

        try:
            click.echo(write_board(game), nl=False)
        except PatienceError as error:
            fail(str(error))
    elif format_ == "json":
        import json

        echo(json.dumps(game.to_json()))
    else:
        echo(game.drawing(reveal=reveal))
        if game.is_won():
            echo("won")
        elif not game.has_moves():
            echo("no move is left")


@main.command()
@click.argument("variant")
@start_options
@json_option
def moves(variant: str, seed: int | None, deal_text: str | None,
         position: str | None, moves_text: str, as_json: bool) -> None:
    """The legal moves at START after --moves, one per line, sorted as plain strings
    (--json: {"variant", "position", "moves": [...]})."""
    game = load_game(load_variant(variant), seed, deal_text, position, moves_text)
    found = sorted(game.notation(move) for move in game.generate_moves())
    if as_json:
        print_json({"variant": game.variant.id, "position": game.text(), "moves": found})
        return
    for text in found:
        echo(text)


@main.command()
@click.argument("variant")
@start_options
@click.option("--depth", type=Number(PERFT_DEPTH), required=True, help="Plies to count.")
@click.option("--divide", is_flag=True, help="First one 'MOVE COUNT' line per legal move.")
@json_option
@handles_errors
def perft(variant: str, seed: int | None, deal_text: str | None,
         position: str | None, moves_text: str, depth: int,
          divide: bool, as_json: bool) -> None:
    """Count the leaves of the move tree of --depth plies; the total is the last line
    (--json: {"variant", "depth", "leaves", and with --divide "divide": {MOVE: COUNT}})."""
    from patience.perft import divide as divide_rows
    from patience.perft import perft as count

    game = load_game(load_variant(variant), seed, deal_text, position, moves_text)
    if as_json:
        report: dict[str, object] = {"variant": game.variant.id, "depth": depth}
        if divide and depth >= 1:
            rows = divide_rows(game, depth)
            report |= {"leaves": sum(leaves for _, leaves in rows), "divide": dict(rows)}
        else:
            report["leaves"] = count(game, depth)
        print_json(report)
        return
    if divide and depth >= 1:
        rows = divide_rows(game, depth)
        for text, leaves in rows:
            click.echo(f"{text} {leaves}")
        click.echo(sum(leaves for _, leaves in rows))
    else:
        click.echo(count(game, depth))


# --- commands of other areas register here ---------------------------------------------
def _register_optional() -> None:
    import importlib

    for module in ("patience.cli.solving", "patience.cli.playing", "patience.cli.testing",
                   "patience.cli.authoring", "patience.cli.studies", "patience.cli.web",
                   "patience.cli.exporting"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            if error.name != module:
                raise


_register_optional()

if __name__ == "__main__":  # pragma: no cover
    main()

__all__ = ["fail", "main"]
