"""Probing a variant's rules on made-up piles, for the checks that read a file's words
(``patience.testing.lint`` and the description reader ``patience.testing.spec``): a
finding, the probe, the runs and piles tried, and a word's negation."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from patience.cards import card_code
from patience.explain import CardValue, Interpreter, RunValue
from patience.game import Game

if TYPE_CHECKING:
    from patience.variant import Group, Variant

NEGATION = re.compile(r"\b(no|not|never|without|nor|cannot|can't|won't)\b", re.IGNORECASE)


@attrs.frozen
class Finding:
    """One place where the rules and the file's words (or common sense) disagree."""

    code: str  # e.g. "claim-wrap", "never-entered"
    where: str  # "description", "tabbycat.yaml:12 (comment)", "piles.foundations.accepts"
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


# --- probing the rules -------------------------------------------------------------------


class Probe:
    """Evaluates a group's rules for made-up piles, without playing a game."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.game = Game(variant, [[] for _ in variant.pile_names], [])
        self.interpreter = Interpreter(self.game)
        self.gives: dict[tuple[str, tuple[int, ...]], bool] = {}

    def _setup(self, target: Group, pile: Sequence[int], run: Sequence[int],
               source: Group) -> tuple[dict[str, Any], dict[str, Any]] | None:
        t = target.indices[0]
        s = next((index for index in source.indices if index != t), None)
        if s is None:
            return None
        piles = self.game.piles
        for cards in piles:
            cards.clear()
        piles[t].extend(map(CardValue, pile))
        piles[s].extend(map(CardValue, run))
        value = RunValue(tuple(map(CardValue, run)))
        source_pile = self.interpreter.pile(s)
        gives = {"pile": source_pile, "run": value}
        takes = {"pile": self.interpreter.pile(t), "run": value, "source": source_pile}
        return gives, takes

    def moves(self, target: Group, pile: Sequence[int], run: Sequence[int],
              source: Group) -> bool:
        """Whether ``run`` (all of a pile of ``source``) may go onto ``pile`` of ``target``."""
        key = (source.name, tuple(run))
        if self.gives.get(key) is False:
            return False
        setup = self._setup(target, pile, run, source)
        if setup is None:
            return False
        gives, takes = setup
        evaluate = self.interpreter.evaluate
        try:
            if key not in self.gives:
                self.gives[key] = bool(evaluate(source.moves.node, gives))
            return self.gives[key] and bool(evaluate(target.accepts.node, takes))
        except Exception:  # noqa: BLE001 - a rule that cannot be evaluated lets nothing in
            return False

    def why_not(self, target: Group, pile: Sequence[int], run: Sequence[int],
                source: Group) -> str:
        """The rule that stops ``run`` going onto ``pile``, in the rule's words."""
        setup = self._setup(target, pile, run, source)
        if setup is None:
            return "no pile to move from"
        gives, takes = setup
        interpreter = self.interpreter
        try:
            if not interpreter.evaluate(source.moves.node, gives):
                rule = source.moves
                return (f"piles.{source.name}.moves '{rule.text}' is false: "
                        + interpreter.reason(rule.node, gives, rule.text))
            rule = target.accepts
            return (f"piles.{target.name}.accepts '{rule.text}' is false: "
                    + interpreter.reason(rule.node, takes, rule.text))
        except Exception as error:  # noqa: BLE001 - any error is a finding
            return f"the rules cannot be evaluated ({error})"


def cards_text(cards: Sequence[int]) -> str:
    return " ".join(card_code(c) for c in cards) or "nothing"


def _rank_runs(ranks: int, longest: int) -> Iterator[list[int]]:
    """Rank sequences going down or up by one, wrapping K -> A: one card, a whole suit,
    then the lengths between."""
    lengths = dict.fromkeys([1, longest, *range(2, longest)])
    for length in lengths:
        for start in range(ranks, 0, -1):
            for step in (-1, 1):
                if length == 1 and step == 1:
                    continue
                yield [(start - 1 + i * step) % ranks + 1 for i in range(length)]


SUIT_PATTERNS = ((0,), (3,), (0, 1), (1, 3), (0, 1, 2, 3))


def candidate_runs(variant: Variant, longest: int) -> Iterator[list[int]]:
    for ranks in _rank_runs(variant.ranks, longest):
        for pattern in SUIT_PATTERNS:
            yield [rank * 4 + pattern[i % len(pattern)] for i, rank in enumerate(ranks)]


def bases(run: Sequence[int], ranks: int) -> Iterator[list[int]]:
    """Piles to try under ``run``: empty, then one card near the run's bottom card."""
    yield []
    bottom = run[0]
    rank, suit = bottom >> 2, bottom & 3
    for other in (rank % ranks + 1, (rank - 2) % ranks + 1, rank):
        for other_suit in (suit, (suit + 1) & 3):
            yield [other * 4 + other_suit]


def sources(variant: Variant, target: Group) -> list[Group]:
    return [g for g in variant.groups if g is not target or g.count > 1]


def negated(text: str, start: int) -> bool:
    before = text[max(0, start - 24):start]
    before = re.split(r"[.;:,(]", before)[-1]
    return bool(NEGATION.search(before))



def holds_one(variant: Variant, probe: Probe, group: Group, what: str, said: str,
               where: str) -> Finding | None:
    for run in candidate_runs(variant, 3):
        for base in bases(run, variant.ranks):
            if not base:
                continue
            for source in sources(variant, group):
                if probe.moves(group, base, run, source):
                    return Finding("claim-capacity", where, (
                        f"says {said!r}, but piles.{group.name}.accepts "
                        f"'{group.accepts.text}' lets a {group.name} pile that already holds "
                        f"{cards_text(base)} take {cards_text(run)} from the "
                        f"{source.name}; add 'pile.empty' to the rule"))
    if what == "card":
        for run in candidate_runs(variant, 3):
            if len(run) < 2:
                continue
            for source in sources(variant, group):
                if probe.moves(group, [], run, source):
                    return Finding("claim-capacity", where, (
                        f"says {said!r}, but piles.{group.name}.accepts "
                        f"'{group.accepts.text}' lets an empty {group.name} take "
                        f"{len(run)} cards ({cards_text(run)}) from the {source.name}"))
    return None
