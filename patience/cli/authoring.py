"""Commands for rule authors: ``compile`` (the Python a file's rules become), ``diff`` (two
variants rule by rule and move by move) and ``schema`` (the JSON Schema for editors).

Exit status: 0 on success (``diff`` included, whether or not the variants differ), 2 when a
variant does not load or an option is wrong.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from patience.arguments import DIFF_DEALS, DIFF_POSITIONS, DIFF_STATS
from patience.cli.common import echo, fail, json_option, load_variant, print_json
from patience.cli.main import main
from patience.cli.numbers import Number
from patience.variant import Variant

if TYPE_CHECKING:
    from patience.rulediff import MoveDifference, RuleDifference, WinRates


@main.command("compile")
@click.argument("variant")
def compile_command(variant: str) -> None:
    """Print the Python code VARIANT's rules compile to.

    Each block is commented with the rule it comes from, with its file and line. Tracebacks
    through this code show the same lines (it is registered with linecache as
    '<patience variant ID: generated rules>')."""
    echo(load_variant(variant).generated.source.rstrip("\n"))


def _label(variant: Variant, other: Variant) -> str:
    return variant.id if variant.id != other.id else variant.path


@main.command("diff")
@click.argument("first")
@click.argument("second")
@click.option("--deals", type=Number(DIFF_DEALS), default=5, show_default=True,
              help="Numbered deals (1 to N) to look for the first positions whose moves "
                   "differ.")
@click.option("--max-positions", type=Number(DIFF_POSITIONS), default=2000,
              show_default=True, help="Positions to visit per deal looking for a difference "
                                      "(and, with --stats, the solver's budget per deal).")
@click.option("--stats", type=Number(DIFF_STATS), default=None, metavar="N",
              help="Also solve deals 1 to N under both and compare the win rates.")
@json_option
def diff_command(first: str, second: str, deals: int, max_positions: int,
                 stats: int | None, as_json: bool) -> None:
    """Show how variant SECOND differs from FIRST: rule by rule (after 'extends'), then the
    first position of each numbered deal where their legal moves differ.

    --json: {"first", "second", "rules": [{"key", "first", "second"}], "moves": [{"deal",
    "moves", "position", "second_position", "only_first", "only_second"}], and with --stats
    "win_rates": {"deals", "won", "unknown", "only_first", "only_second"}}."""
    from patience.rulediff import (
        first_move_differences,
        rule_differences,
        value_text,
        win_rates,
    )

    a, b = load_variant(first), load_variant(second)
    name_a, name_b = _label(a, b), _label(b, a)
    rules = rule_differences(a, b)
    if as_json:
        _print_diff(a, b, rules, first_move_differences(a, b, range(1, deals + 1),
                                                        max_positions),
                    None if stats is None else win_rates(a, b, stats, max_positions))
        return
    if not rules:
        echo(f"rules: the same (rules hash {a.rules_hash})")
    else:
        echo(f"rules: {len(rules)} difference{'s' if len(rules) != 1 else ''}")
        width = max(len(name_a), len(name_b)) + 1
        for rule in rules:
            echo(f"  {rule.key}")
            for name, value in ((name_a, rule.first), (name_b, rule.second)):
                echo(f"    {name + ':':<{width}} {value_text(value)}")
    found = first_move_differences(a, b, range(1, deals + 1), max_positions)
    searched = f"deals 1-{deals}" if deals > 1 else "deal 1"
    if not found:
        echo(f"moves: the same in every position reached from {searched} "
             f"(up to {max_positions:,} positions each)")
    else:
        echo(f"moves: differ on {len(found)} of {deals} deal{'s' if deals != 1 else ''} "
             f"({searched})")
        for moves in found:
            echo(f"  {moves.reached_by}:")
            if moves.second_position is not None:
                what = "the deal" if not moves.moves else "the last move"
                echo(f"    {what} gives different positions")
                echo(f"    {name_a}: {moves.position}")
                echo(f"    {name_b}: {moves.second_position}")
                continue
            echo(f"    position: {moves.position}")
            echo(f"    only {name_a}: {' '.join(moves.only_first) or '(none)'}")
            echo(f"    only {name_b}: {' '.join(moves.only_second) or '(none)'}")
    if stats is not None:
        from patience.studies.report import percent

        rates = win_rates(a, b, stats, max_positions)
        echo(f"win rate over deals 1-{stats} ({max_positions:,} positions per deal, 95% "
             "intervals):")
        width = max(len(name_a), len(name_b)) + 1
        for which, name in enumerate((name_a, name_b)):
            low, high = rates.interval(which)
            unknown = rates.unknown[which]
            echo(f"  {name + ':':<{width}} {percent(rates.rate(which))} "
                 f"({percent(low)} to {percent(high)}); {rates.won[which]} won"
                 + (f", {unknown} undecided" if unknown else ""))
        change, low, high = rates.difference()
        echo(f"  difference: {_signed(change)} ({_signed(low)} to {_signed(high)})")
        for name, numbers in ((name_a, rates.only_first), (name_b, rates.only_second)):
            if numbers:
                echo(f"  won only under {name}: deal{'s' if len(numbers) != 1 else ''} "
                     + ", ".join(map(str, numbers)))


def _print_diff(a: Variant, b: Variant, rules: list[RuleDifference],
                moves: list[MoveDifference], rates: WinRates | None) -> None:
    """``diff --json``: the differences as one JSON object."""
    report: dict[str, object] = {
        "first": _label(a, b), "second": _label(b, a),
        "rules": [{"key": r.key, "first": _set(r.first), "second": _set(r.second)}
                  for r in rules],
        "moves": [{"deal": m.deal, "moves": " ".join(m.moves), "position": m.position,
                   "second_position": m.second_position,
                   "only_first": list(m.only_first), "only_second": list(m.only_second)}
                  for m in moves]}
    if rates is not None:
        report["win_rates"] = {"deals": rates.deals, "won": list(rates.won),
                               "unknown": list(rates.unknown),
                               "only_first": list(rates.only_first),
                               "only_second": list(rates.only_second)}
    print_json(report)


def _set(value: object) -> object:
    """A definition's value for JSON: null where the variant does not set the key."""
    from patience.rulediff import MISSING

    return None if value is MISSING else value


def _signed(value: float) -> str:
    return f"{value * 100:+.1f} points"


@main.command("schema")
@click.option("--path", "show_path", is_flag=True,
              help="Print where the installed schema file is instead of the schema.")
def schema_command(show_path: bool) -> None:
    """Print the JSON Schema of variant files (for editors: see docs/authoring.md)."""
    from importlib import resources

    from patience.schema import SCHEMA_FILE, schema_text

    if show_path:
        path = resources.files("patience").joinpath(SCHEMA_FILE)
        if not path.is_file():
            fail(f"the package has no {SCHEMA_FILE}: a broken install")
        echo(str(path))
        return
    click.echo(schema_text().rstrip("\n"))
