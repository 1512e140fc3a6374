"""Checking a variant file's ``expect:`` list: the author's own examples.

Each entry (read, and checked for form, when the file loads: ``patience.definition``)
names a start — a numbered deal or a position text — and optionally moves played first;
then moves that must be legal or illegal there (optionally naming the rule that must
forbid one), the exact set of legal moves, whether the position is proven won or
unwinnable, and perft counts. Nothing here runs when a variant loads: ``patience test``,
the pytest plugin and mutation testing call :func:`check_expectations`.

>>> from patience import find_variant
>>> [str(failure) for failure in check_expectations(find_variant("tabbycat"))]
[]

A move is written as in docs/rules.md (``c2:3-c4``, ``d``), or without its count
(``c3-c1``: the move from c3 to c1 of whatever count; ``deal`` for ``d``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs

from patience.definition import Expectation, WrittenMove
from patience.errors import Location, MoveError, PatienceError
from patience.moves import DEAL, Move

if TYPE_CHECKING:
    from patience.game import Game
    from patience.variant import Variant

__all__ = ["ExpectationFailure", "check_expectation", "check_expectations"]


@attrs.frozen
class ExpectationFailure:
    """One way an entry of ``expect:`` does not hold, and where it is written."""

    expectation: Expectation
    message: str
    location: Location | None

    def __str__(self) -> str:
        where = f"{self.location.path}:{self.location.line}: " if self.location else ""
        why = f"\n  why: {self.expectation.why}" if self.expectation.why else ""
        return f"{where}{self.expectation.label}: {self.message}{why}"


class _Stop(Exception):
    """The entry cannot be checked further (its start or its 'after' moves fail)."""


def check_expectations(variant: Variant, expectations: tuple[Expectation, ...] | None = None,
                       *, solver: bool = True,
                       on_failure: Callable[[ExpectationFailure], None] | None = None,
                       first_only: bool = False) -> list[ExpectationFailure]:
    """Every way the variant's ``expect:`` entries (or ``expectations``, e.g. a parent's
    entries checked on a changed variant) do not hold; ``[]`` when they all hold.

    ``solver=False`` leaves out the ``winnable`` parts (the costly ones); ``first_only``
    stops at the first failure (mutation testing needs only one).
    """
    entries = variant.definition.expectations if expectations is None else expectations
    failures: list[ExpectationFailure] = []
    for expectation in entries:
        if expectation.known:
            continue  # an acknowledgement, read by the lint and the semantic checks
        for failure in check_expectation(variant, expectation, solver=solver):
            if on_failure is not None:
                on_failure(failure)
            failures.append(failure)
            if first_only:
                return failures
    return _inherited_once(variant, failures)


def _expect_line(variant: Variant) -> Location:
    """Where this file's fix goes: its ``expect:`` line, else its first line."""
    lines = variant.text.splitlines()
    number = next((i for i, line in enumerate(lines, start=1) if line.startswith("expect:")),
                  1)
    return Location(variant.path, number, 1, 1, lines[number - 1] if lines else None)


def _inherited_once(variant: Variant,
                    failures: list[ExpectationFailure]) -> list[ExpectationFailure]:
    """Inherited examples whose positions no longer fit this file's piles (a child that
    changes a pile count), reported once, with the fix, instead of one failure each."""
    from pathlib import Path

    own = Path(variant.path).resolve() if variant.path else None

    def inherited(failure: ExpectationFailure) -> bool:
        origin = failure.expectation.origin
        return own is not None and origin is not None and \
            Path(origin.source.path).resolve() != own and \
            failure.message.startswith("the position cannot be set up")

    unfit = [failure for failure in failures if inherited(failure)]
    if len(unfit) < 2:
        return failures
    first = unfit[0]
    parent = Path(first.location.path).name if first.location else "a parent file"
    labels = ", ".join(failure.expectation.label for failure in unfit[:4]) + \
        (", …" if len(unfit) > 4 else "")
    error = first.message.removeprefix("the position cannot be set up: ")
    once = ExpectationFailure(first.expectation, (
        f"{len(unfit)} examples inherited from {parent} ({labels}) set up positions that do "
        f"not fit this file's piles (the first: {error}). To replace them all, make "
        "'- inherited: drop' the first entry of this file's expect: list and add this file's "
        "own examples after it; to drop one, repeat its name with 'skip: true'"),
        _expect_line(variant))
    kept = [failure for failure in failures if failure not in unfit]
    return [once, *kept]


def check_expectation(variant: Variant, expectation: Expectation, *,
                      solver: bool = True) -> list[ExpectationFailure]:
    """The ways one entry does not hold (``[]`` when it holds)."""
    failures: list[ExpectationFailure] = []

    def fail(message: str, written: WrittenMove | None = None) -> None:
        origin = written.origin if written is not None else expectation.origin
        failures.append(ExpectationFailure(expectation, message,
                                           origin.location() if origin else None))

    try:
        game = _start(variant, expectation, fail)
    except _Stop:
        return failures
    if expectation.shows is not None and game.text() != expectation.shows.strip():
        fail(f"the position should be {expectation.shows.strip()} but is {game.text()}")
    for written in expectation.legal:
        _check_legal(game, written, fail)
    for written in expectation.illegal:
        _check_illegal(game, written, fail)
    if expectation.moves is not None:
        _check_move_set(game, expectation.moves, fail)
    for depth, expected in expectation.perft:
        counted = _perft_upto(game, depth, expected + 1)
        if counted != expected:
            shown = f"more than {expected:_}" if counted > expected else f"{counted:_}"
            extra = ""
            if depth == 1:
                extra = " (" + " ".join(sorted(map(game.notation, game.generate_moves()))) + ")"
            fail(f"perft {depth} should be {expected:_} but is {shown}{extra}")
    if solver and expectation.winnable is not None:
        _check_winnable(game, expectation, fail)
    return failures


# --- the start --------------------------------------------------------------------------


def _start(variant: Variant, expectation: Expectation,
           fail: Callable[..., None]) -> Game:
    try:
        if expectation.deal is not None:
            game = variant.deal(expectation.deal)
        else:
            game = variant.position(expectation.position or "")
    except PatienceError as error:
        fail(f"the position cannot be set up: {error}", None)
        raise _Stop from None
    for number, written in enumerate(expectation.after, start=1):
        try:
            candidates = _candidates(game, written.text)
        except MoveError as error:
            fail(f"after: move {number}, {written.text!r}, cannot be read: {error.message}",
                 written)
            raise _Stop from None
        legal = [move for move in candidates if game.is_legal(move)]
        if not legal:
            fail(f"after: move {number}, {written.text!r}, is not legal: "
                 f"{_reason(game, candidates)} (in {game.text()})", written)
            raise _Stop from None
        if len(legal) > 1:
            fail(f"after: move {number}, {written.text!r}, is ambiguous: "
                 f"{', '.join(map(game.notation, legal))} are legal; write the count",
                 written)
            raise _Stop from None
        game.push(legal[0])
    return game


# --- moves ------------------------------------------------------------------------------


def _candidates(game: Game, text: str) -> list[Move]:
    """The moves ``text`` stands for: one, or one per count for ``SRC-DST``."""
    stripped = text.strip()
    if stripped in ("d", "deal"):
        return [DEAL]
    if ":" in stripped or "-" not in stripped:
        return [game.parse_move(stripped)]
    source, _, target = stripped.partition("-")
    try:
        game.parse_move(f"{source}:1-{target}")  # the names, or a MoveError saying why not
    except MoveError as error:
        raise MoveError(error.message.replace(f"move '{source}:1-{target}'",
                                              f"move {stripped!r}"), move=stripped) from None
    size = len(game.pile(source.strip()))
    moves = []
    for count in range(1, max(size, 1) + 1):
        move = game.parse_move(f"{source}:{count}-{target}")
        if move not in moves:
            moves.append(move)
    return moves


def _explained(game: Game, move: Move) -> tuple[str, str | None]:
    from patience.explain import explain_move

    reason, rule = explain_move(game, move)
    return reason or f"{game.notation(move)} is legal", rule


def _relevant(game: Game, candidates: list[Move]) -> list[tuple[Move, str, str | None]]:
    """The candidates with why each is illegal; for a count-less move, those whose run may
    leave its pile come first (a reason about the target is the one that tells)."""
    explained = [(move, *_explained(game, move)) for move in candidates]
    if len(explained) <= 1:
        return explained
    gives = {group.moves.key for group in game.variant.groups}
    told = [entry for entry in explained if entry[2] not in gives]
    return told or explained


def _reason(game: Game, candidates: list[Move]) -> str:
    return _relevant(game, candidates)[0][1]


def _check_legal(game: Game, written: WrittenMove,
                 fail: Callable[..., None]) -> None:
    try:
        candidates = _candidates(game, written.text)
    except MoveError as error:
        fail(f"legal: {written.text!r} cannot be read: {error.message}", written)
        return
    if not any(game.is_legal(move) for move in candidates):
        fail(f"{written.text} should be legal but {_reason(game, candidates)} "
             f"(in {game.text()})", written)


def _check_illegal(game: Game, written: WrittenMove,
                   fail: Callable[..., None]) -> None:
    try:
        candidates = _candidates(game, written.text)
    except MoveError as error:
        fail(f"illegal: {written.text!r} cannot be read: {error.message}", written)
        return
    legal = [move for move in candidates if game.is_legal(move)]
    if legal:
        fail(f"{written.text} should be illegal but {game.notation(legal[0])} is legal "
             f"(in {game.text()})", written)
        return
    if written.rule is None:
        return
    wrong = [(reason, rule) for _, reason, rule in _relevant(game, candidates)
             if rule != written.rule]
    if wrong:
        reason, rule = wrong[0]
        by = f"by {rule}" if rule else "by no rule of the file"
        fail(f"{written.text} should be forbidden by {written.rule} but is forbidden {by}: "
             f"{reason}", written)


def _check_move_set(game: Game, written: tuple[WrittenMove, ...],
                    fail: Callable[..., None]) -> None:
    legal = {Move(*move) for move in game.generate_moves()}
    listed: set[Move] = set()
    for entry in written:
        try:
            candidates = _candidates(game, entry.text)
        except MoveError as error:
            fail(f"moves: {entry.text!r} cannot be read: {error.message}", entry)
            return
        matched = [move for move in candidates if move in legal]
        if not matched:
            fail(f"moves: {entry.text} is listed but not legal: {_reason(game, candidates)}",
                 entry)
        listed.update(matched)
    missing = sorted(game.notation(move) for move in legal - listed)
    if missing:
        fail(f"moves: {', '.join(missing)} {'is' if len(missing) == 1 else 'are'} legal but "
             f"not listed (in {game.text()})")


# --- counts and verdicts ----------------------------------------------------------------


class _Enough(Exception):
    pass


def _perft_upto(game: Game, depth: int, limit: int) -> int:
    """Perft ``depth``, but stop counting at ``limit`` leaves (the work stays bounded by
    the count the author stated)."""
    from patience.perft import perft

    generate = game.variant.generate_moves
    total = 0

    def count(level: int) -> None:
        nonlocal total
        moves = generate(game.piles, game.stock)
        if level == 1:
            total += len(moves)
            if total >= limit:
                raise _Enough
            return
        for move in moves:
            game.push_unchecked(move)
            try:
                count(level - 1)
            finally:
                game.pop()

    if depth <= 0:
        return perft(game, depth)
    try:
        count(depth)
    except _Enough:
        return max(total, limit)
    return total


def _check_winnable(game: Game, expectation: Expectation,
                    fail: Callable[..., None]) -> None:
    from patience.solver import solve

    budget = expectation.within
    if expectation.winnable:
        result = solve(game, max_positions=budget, shorten_line=False)
        if result.verdict == "unwinnable":
            fail("should be won, but the solver proved it unwinnable "
                 f"({result.positions:_} positions)", None)
        elif result.verdict == "unknown":
            fail(f"should be won, but the solver found no win within {budget:_} positions",
                 None)
        return
    result = solve(game, max_positions=budget, shorten_line=False, prove=True)
    if result.verdict == "won":
        fail(f"should be unwinnable, but the solver won it: {' '.join(result.moves)}", None)
    elif result.verdict == "unknown":
        fail(f"should be unwinnable, but the solver could not prove it within {budget:_} "
             "positions", None)
