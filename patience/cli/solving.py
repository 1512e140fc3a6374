"""The solver's commands: ``solve``, ``hint``, ``deal --winnable`` and ``daily``."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from typing import Any

import click

from patience import native
from patience.arguments import MAX_MEMORY_BOUND, MAX_POSITIONS_BOUND, TIME_LIMIT
from patience.cli.common import (
    echo,
    fail,
    handles_errors,
    json_option,
    load_game,
    load_variant,
    numbering_option,
    print_json,
    start_options,
)
from patience.cli.main import main
from patience.cli.numbers import Number
from patience.cli.progress import SearchProgress, exit_interrupted, quiet_option
from patience.cli.seed_type import SEED
from patience.errors import SolverError
from patience.native import ENGINES, EngineChoice
from patience.seeds import Seed
from patience.solver import (
    DEFAULT_MAX_POSITIONS,
    SolveResult,
    daily_deal,
    first_winnable_deal,
    hint,
    hint_from_view,
    solve,
)


def budget_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """Add --max-positions / --time-limit to a command."""
    function = click.option("--time-limit", type=Number(TIME_LIMIT),
                            default=None, metavar="S",
                            help="Give up after S seconds (the verdict is then unknown).")(function)
    return click.option("--max-positions", type=Number(MAX_POSITIONS_BOUND),
                        default=DEFAULT_MAX_POSITIONS, show_default=True, metavar="N",
                        help="Give up after N positions (the verdict is then unknown).")(function)


@main.command("solve")
@click.argument("variant")
@start_options
@budget_options
@click.option("--prove", is_flag=True,
              help="One exhaustive search with the whole budget, no restarts: the mode for "
                   "proving a deal unwinnable.")
@click.option("--engine", type=click.Choice(list(ENGINES)), default="auto", show_default=True,
              help="native: the compiled core; python: the reference; auto: native when "
                   "built (PATIENCE_ENGINE=python forces python).")
@click.option("--max-memory", type=Number(MAX_MEMORY_BOUND), default=None, metavar="BYTES",
              help="End the search as unknown before its stored positions and its stacks "
                   "together pass BYTES (e.g. 2G, 512M; native engine).")
@click.option("--json", "as_json", is_flag=True,
              help='One JSON object: {"variant", "deal", "verdict", "moves", "positions", '
                   '"seconds", "information", "engine"}.')
@click.option("--notation", type=click.Choice(["patience", "standard"]), default="patience",
              show_default=True,
              help="How the winning line is written: ours (c6:1-a), or FreeCell's standard "
                   "notation (6a, 1h, 26) for the FreeCell family.")
@quiet_option
@handles_errors
def solve_command(variant: str, seed: int | None, deal_text: str | None,
         position: str | None, moves_text: str, max_positions: int,
                  time_limit: float | None, prove: bool, engine: EngineChoice,
                  max_memory: int | None, as_json: bool, notation: str, quiet: bool) -> None:
    """Solve START: won (with a winning line), unwinnable (proved), or unknown (budget).

    The solver knows every card: the stock's order and the face-down cards ("thoughtful"
    solitaire, as published win rates count it). A search over a second shows its progress
    on stderr (--quiet: none); Ctrl+C stops it, prints the result so far (unknown) and exits
    with status 130.
    """
    game = load_game(load_variant(variant), seed, deal_text, position, moves_text)
    if max_memory is not None and native.engine(engine) != "native":
        fail("--max-memory needs the native engine")
    if notation == "standard":
        from patience.standard_notation import standard_moves

        standard_moves(game, [])  # refuse a game without it before searching
    progress = SearchProgress("solving", quiet)
    with progress.catching_interrupts():
        result = solve(game, max_positions=max_positions, time_limit=time_limit, prove=prove,
                       engine=engine, max_memory=max_memory, should_stop=progress)
    line = list(result.moves)
    if notation == "standard":
        line = standard_moves(game, line)
    if as_json:
        echo(json.dumps({
            "variant": game.variant.id,
            "deal": (game.deal_number if game.deal_number is not None
                     else str(game.seed) if game.seed is not None else game.start().text()),
            "verdict": result.verdict,
            "moves": " ".join(line),
            "positions": result.positions,
            "seconds": round(result.seconds, 3),
            "information": "full",  # the solver sees face-down cards and the stock's order
            "engine": result.engine,
            **({"interrupted": True} if progress.interrupted else {}),
        }))
    else:
        echo(result.verdict + (" (interrupted)" if progress.interrupted else ""))
        if result.verdict == "won":
            echo(" ".join(line) if line else "(already won)")
        engine_note = f" ({result.engine} engine)" if engine != "auto" else ""
        echo(f"{result.positions} positions, {result.seconds:.2f} s{engine_note}")
    if progress.interrupted:
        exit_interrupted()



@main.command("hint")
@click.argument("variant")
@start_options
@budget_options
@click.option("--from-view", is_flag=True,
              help="A hint from what a player sees: the face-down cards and the stock are "
                   "guessed (8 random guesses), never read.")
@json_option
@quiet_option
@handles_errors
def hint_command(variant: str, seed: int | None, deal_text: str | None,
                 position: str | None, moves_text: str, max_positions: int,
                 time_limit: float | None, from_view: bool, as_json: bool,
                 quiet: bool) -> None:
    """The next move of a winning line from START (after --moves), or why there is none.

    The first word printed is the move. By default the hint comes from the full deal: the
    solver sees the stock's order and the face-down cards, which a player does not, and the
    line says so. --from-view uses only what the player sees. --json: {"variant", "move"
    (null when none), "verdict", "positions", "information" ("full" or "view"), with
    --from-view "won_guesses", "guesses", and where the search decided nothing
    "suggestion": a sensible move, first in the solver's ordering, that is no move of a
    known win}. The winning line has no card taken back off the foundations where the
    solver finds one without. Ctrl+C stops the search: exit status 130.
    """
    game = load_game(load_variant(variant), seed, deal_text, position, moves_text)
    report: dict[str, Any] = {"variant": game.variant.id, "move": None}
    if game.is_won():
        if as_json:
            print_json({**report, "verdict": "won", "positions": 0, "information": "full"})
        else:
            echo("the game is already won")
        return
    progress = SearchProgress("looking for a hint", quiet)
    if from_view:
        try:
            with progress.catching_interrupts():
                seen = hint_from_view(game, max_positions=min(max_positions, 20_000),
                                      should_stop=progress)
        except SolverError:
            if not progress.interrupted:
                raise
            echo(f"interrupted: no hint yet after {progress.positions:,} positions", err=True)
            exit_interrupted()
        if as_json:
            print_json({**report, "move": seen.move,
                        "verdict": "won" if seen.move else "unknown",
                        "positions": progress.positions, "information": "view",
                        "won_guesses": seen.won, "guesses": seen.samples})
        elif seen.move is None:
            echo(f"no hint: none of {seen.samples} guesses of the hidden cards was won "
                       "within the budget")
        else:
            echo(f"{seen.move}  (from what you see: it starts a win in {seen.won} of "
                       f"{seen.samples} guesses of the hidden cards)")
        return
    with progress.catching_interrupts():
        move, result = hint(game, max_positions, time_limit, should_stop=progress)
    suggested = None
    if result.verdict == "unknown" and not progress.interrupted:
        from patience.solver.lines import suggestion

        found = suggestion(game)  # a sensible move: no win is known
        suggested = None if found is None else game.notation(found)
    if as_json:
        print_json({**report, "move": move, "verdict": result.verdict,
                    "positions": result.positions, "information": "full",
                    **({"suggestion": suggested} if suggested else {}),
                    **({"interrupted": True} if progress.interrupted else {})})
    elif move is not None:
        echo(f"{move}  (from the full deal: the solver sees the stock's order and any "
                   "face-down cards)")
    elif result.verdict == "unwinnable":
        echo(f"no winning line: the position is lost (searched all "
                   f"{result.positions} positions)")
    else:
        echo(f"undecided: no winning line found within {result.positions} positions"
             + (" (interrupted)" if progress.interrupted else "")
             + (f"; a suggestion (no win known): {suggested}" if suggested else ""))
    if progress.interrupted:
        exit_interrupted()


@main.command("deal")
@click.argument("variant")
@click.option("--winnable", is_flag=True, required=True,
              help="Find a deal the solver proves winnable.")
@click.option("--from", "start", type=SEED, default="1", show_default=True,
              metavar="N|ms:N|pysolfc:N",
              help="Start looking at deal number N (ms:N: Microsoft's deals, pysolfc:N: "
                   "PySolFC's).")
@click.option("--max-positions", type=Number(MAX_POSITIONS_BOUND), default=DEFAULT_MAX_POSITIONS,
              show_default=True, metavar="N", help="The solver's budget per deal.")
@json_option
@quiet_option
@handles_errors
def deal_command(variant: str, winnable: bool, start: Seed, max_positions: int,
                 as_json: bool, quiet: bool) -> None:
    """The first deal number ≥ N that the solver proves winnable; prints it, a tab, and
    its winning line (--json: {"variant", "deal", "moves", "positions"})."""
    progress = SearchProgress("looking for a winnable deal", quiet)
    number, result = _searching(progress, lambda: first_winnable_deal(
        load_variant(variant), start.number, max_positions, numbering=start.numbering,
        should_stop=progress))
    found = Seed(number, start.numbering)
    if as_json:
        print_json({"variant": load_variant(variant).id, "deal": str(found),
                    "moves": " ".join(result.moves), "positions": result.positions})
        return
    echo(f"{found}\t{' '.join(result.moves)}")


@main.command("daily")
@click.argument("variant")
@click.option("--date", "date_text", default=None, metavar="YYYY-MM-DD",
              help="The day (default: today, local time).")
@numbering_option
@json_option
@quiet_option
@handles_errors
def daily_command(variant: str, date_text: str | None, numbering: str, as_json: bool,
                  quiet: bool) -> None:
    """The day's deal: the same for everyone that day, proven winnable.

    From sha256("patience-daily:VARIANT-ID:YYYY-MM-DD"), first 8 bytes big-endian, count up
    to the first deal the solver proves winnable with the default position budget.
    --numbering ms or pysolfc: the day's deal among Microsoft's or PySolFC's numbered deals
    (docs/rules.md), to play in another program too.
    --json: {"variant", "date", "deal"} (the deal "ms:N" or "pysolfc:N" in those numberings).
    """
    if date_text is None:
        date = datetime.date.today()
    else:
        try:
            date = datetime.date.fromisoformat(date_text)
        except ValueError:
            fail(f"--date {date_text!r} is not a date written YYYY-MM-DD")
    loaded = load_variant(variant)
    progress = SearchProgress("looking for the day's deal", quiet)
    number, _ = _searching(progress, lambda: daily_deal(loaded, date, should_stop=progress,
                                                        numbering=numbering))
    found = Seed(number, numbering)
    if as_json:
        print_json({"variant": loaded.id, "date": date.isoformat(),
                    "deal": number if found.is_ours else str(found)})
        return
    echo(f"{found}\t{loaded.id} {date.isoformat()}")


def _searching(progress: SearchProgress,
               search: Callable[[], tuple[int, SolveResult]]) -> tuple[int, SolveResult]:
    """Run a search over deals with progress; Ctrl+C: say so and exit with status 130."""
    try:
        with progress.catching_interrupts():
            return search()
    except SolverError:
        if not progress.interrupted:
            raise
        echo(f"interrupted: no deal proven winnable yet after {progress.positions:,} "
             "positions", err=True)
        exit_interrupted()
