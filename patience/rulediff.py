"""The difference between two variants: rule by rule, then in play, then in win rate.

``patience diff A B`` answers "what does my change do?". First the rules: each key of the
merged definitions (after ``extends``) whose value differs, as each file has it. Then the
play: from numbered deals, a breadth-first walk over the positions both variants reach by the
same moves, stopping at the first position where their legal moves differ (or where the same
move leads to different positions), with the moves only one of them allows. With
``--stats N`` it solves deals 1 to N under both and compares the win rates, each with its
95% interval (``patience.studies.report``'s reading: unknown deals widen the interval).

>>> from patience import find_variant
>>> for difference in rule_differences(find_variant("tabbycat"), find_variant("manx")):
...     print(difference)
piles.tail.moves: 'run.size == pile.size' | 'true'
piles.tail.accepts: 'pile.empty and source in columns' | 'pile.empty and source in columns and \
run.size == 1'
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from patience.game import Game
    from patience.variant import Variant

__all__ = ["MoveDifference", "RuleDifference", "WinRates", "first_move_differences",
           "rule_differences", "value_text", "win_rates"]

#: keys that do not change play (the rules hash leaves them out too), and expectations
NOT_RULES = frozenset({"id", "name", "family", "aliases", "description", "sources", "expect",
                       "solvitaire"})
MISSING = object()  # a key one of the files does not have


@attrs.frozen
class RuleDifference:
    """One key of the merged definitions with a different value in each variant (``None``
    where a variant does not have the key)."""

    key: str  # e.g. "piles.tail.accepts"
    first: Any
    second: Any

    def __str__(self) -> str:
        return f"{self.key}: {_shown(self.first)} | {_shown(self.second)}"


def _shown(value: Any) -> str:
    return repr(value) if isinstance(value, str) else value_text(value)


def value_text(value: Any) -> str:
    """A value of a merged definition as YAML's flow style writes it (``[C, H]``,
    ``true``), or ``(not set)``."""
    if value is MISSING:
        return "(not set)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, list):
        return "[" + ", ".join(value_text(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {value_text(item)}" for key, item in value.items()) \
            + "}"
    return str(value)


def _leaves(data: Any, prefix: str) -> Iterator[tuple[str, Any]]:
    """(dotted key, value) of each leaf of a merged definition; lists are one value."""
    if isinstance(data, dict) and data:
        for key, value in data.items():
            yield from _leaves(value, f"{prefix}.{key}" if prefix else str(key))
    else:
        yield prefix, data


def rule_differences(first: Variant, second: Variant) -> list[RuleDifference]:
    """Every key whose value differs between the two merged definitions, in the first
    variant's key order (then the keys only the second has)."""
    def leaves(variant: Variant) -> dict[str, Any]:
        flat = {k: v for k, v in variant.definition.flat.items() if k not in NOT_RULES}
        return dict(_leaves(flat, ""))

    a, b = leaves(first), leaves(second)
    keys = list(a) + [key for key in b if key not in a]
    return [RuleDifference(key, a.get(key, MISSING), b.get(key, MISSING)) for key in keys
            if a.get(key, MISSING) != b.get(key, MISSING)]


@attrs.frozen
class MoveDifference:
    """The first position of a numbered deal where the two variants' moves differ."""

    deal: int
    moves: tuple[str, ...]  # played from the deal (legal in both, same result in both)
    position: str  # the first variant's position text there
    only_first: tuple[str, ...]  # legal in the first variant only
    only_second: tuple[str, ...]
    #: where the deals themselves, or the results of the same move, differ: the second's text
    second_position: str | None = None

    @property
    def reached_by(self) -> str:
        return f"deal {self.deal}" + (f", after {' '.join(self.moves)!r}" if self.moves
                                      else ", at the start")


def _moves(game: Game) -> set[str]:
    return {game.notation(move) for move in game.generate_moves()}


def first_move_differences(first: Variant, second: Variant, deals: range,
                           max_positions: int = 2000) -> list[MoveDifference]:
    """For each numbered deal, the first position (fewest moves, breadth first) that both
    variants reach by the same moves where their legal moves differ; a deal where none is
    found within ``max_positions`` positions is left out."""
    found = []
    for number in deals:
        difference = _first_difference(first, second, number, max_positions)
        if difference is not None:
            found.append(difference)
    return found


def _first_difference(first: Variant, second: Variant, number: int,
                      max_positions: int) -> MoveDifference | None:
    a, b = first.deal(number), second.deal(number)
    if a.text() != b.text():
        return MoveDifference(number, (), a.text(), (), (), b.text())
    queue: deque[tuple[str, ...]] = deque([()])
    seen = {a.text()}
    while queue and len(seen) <= max_positions:
        line = queue.popleft()
        for move in line:
            a.push(move)
            b.push(move)
        try:
            moves_a, moves_b = _moves(a), _moves(b)
            if moves_a != moves_b:
                return MoveDifference(number, line, a.text(), tuple(sorted(moves_a - moves_b)),
                                      tuple(sorted(moves_b - moves_a)))
            for move in sorted(moves_a):
                a.push(move)
                b.push(move)
                text_a, text_b = a.text(), b.text()
                a.pop()
                b.pop()
                if text_a != text_b:  # the same move does different things (forced moves)
                    return MoveDifference(number, (*line, move), text_a, (), (), text_b)
                if text_a not in seen:
                    seen.add(text_a)
                    queue.append((*line, move))
        finally:
            for _ in line:
                a.pop()
                b.pop()
    return None


# --- win rates -------------------------------------------------------------------------


@attrs.frozen
class WinRates:
    """Both variants' solver verdicts on the same deals."""

    deals: int
    won: tuple[int, int]
    unknown: tuple[int, int]
    only_first: tuple[int, ...]  # deals won by the first and proven lost by the second
    only_second: tuple[int, ...]

    def rate(self, which: int) -> float:
        return self.won[which] / self.deals if self.deals else 0.0

    def interval(self, which: int) -> tuple[float, float]:
        """The 95% interval of a win rate: Wilson's, from the deals won alone to the deals
        won or undecided (as ``patience report`` reads it)."""
        from patience.studies.report import wilson_interval

        return (wilson_interval(self.won[which], self.deals)[0],
                wilson_interval(self.won[which] + self.unknown[which], self.deals)[1])

    def difference(self) -> tuple[float, float, float]:
        """The first rate minus the second, with an approximate 95% interval (Newcombe's
        hybrid score method from the two Wilson intervals; it treats the two samples as
        independent, which the shared deals are not, so it is wider than it need be)."""
        d = self.rate(0) - self.rate(1)
        (low_a, high_a), (low_b, high_b) = self.interval(0), self.interval(1)
        low = d - math.sqrt((self.rate(0) - low_a) ** 2 + (high_b - self.rate(1)) ** 2)
        high = d + math.sqrt((high_a - self.rate(0)) ** 2 + (self.rate(1) - low_b) ** 2)
        return d, max(-1.0, low), min(1.0, high)


def win_rates(first: Variant, second: Variant, deals: int, max_positions: int,
              progress: Callable[[int], None] | None = None) -> WinRates:
    """Solve deals 1 to ``deals`` under both variants within ``max_positions`` each."""
    from patience.solver import solve

    won = [0, 0]
    unknown = [0, 0]
    only: tuple[list[int], list[int]] = ([], [])
    for number in range(1, deals + 1):
        verdicts = []
        for which, variant in enumerate((first, second)):
            verdict = solve(variant.deal(number), max_positions).verdict
            verdicts.append(verdict)
            won[which] += verdict == "won"
            unknown[which] += verdict == "unknown"
        if verdicts == ["won", "unwinnable"]:
            only[0].append(number)
        elif verdicts == ["unwinnable", "won"]:
            only[1].append(number)
        if progress is not None:
            progress(number)
    return WinRates(deals, (won[0], won[1]), (unknown[0], unknown[1]), tuple(only[0]),
                    tuple(only[1]))
