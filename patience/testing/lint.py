"""Checks that compare a variant's rules with what its file says it means.

The battery proves the kernel does what the rules say; it cannot know what the author
*meant*. This module reads the file's own words — the ``description``, and the comments
marked ``# claim: …`` — for a few kinds of claim ("King on Ace", "Kings may be played on
Aces", "the tail holds one run", "the tail can store a single sequence", "empty columns
receive a card too", "a finished sequence departs at once", "four columns", "twelve deals
in all") and probes the compiled rules (with the interpreter of ``patience.explain``) for
each one. Other comments are not claims: they often summarise the rules of other games or
of the source ("Klondike deals 28 cards to seven columns"). It also finds pile groups that
no run of cards can ever enter, such as foundations whose set pattern cannot be completed.
Beyond these claims, :func:`lint_report` reads the whole description as a specification
(``patience.testing.spec``): each claim of its vocabulary checked on exact positions, each
phrase it cannot read listed as unchecked.

>>> from patience import find_variant
>>> lint(find_variant("tabbycat"))
[]
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import attrs

from patience.cards import card_code
from patience.settings import Removal, Target
from patience.testing.probe import (
    Finding,
    Probe,
    bases,
    candidate_runs,
    cards_text,
    holds_one,
    negated,
    sources,
)

if TYPE_CHECKING:
    from patience.variant import Group, Variant

__all__ = ["Finding", "LintReport", "claims", "lint", "lint_report", "never_entered"]


def _entered_in_play(variant: Variant, target: Group, deals: int = 6,
                     moves: int = 300) -> bool:
    """Whether random games of a few numbered deals ever put a card on the group: the built
    runs above only try the receiving pile against its own neighbours, and some rules (Aces
    Up's discard: a card leaves when another pile shows a higher card of its suit) look at
    the rest of the table."""
    import random

    indices = set(target.indices)
    for number in range(1, deals + 1):
        rng = random.Random(number)
        game = variant.deal(number)
        for _ in range(moves):
            if any(game.piles[i] for i in indices):
                return True
            legal = game.generate_moves()
            if not legal:
                break
            if any(move[2] in indices for move in legal):
                return True
            game.push_unchecked(rng.choice(legal))
    return False


def never_entered(variant: Variant) -> list[Finding]:
    """Pile groups that no run of cards can ever enter (nor the deal reach)."""
    probe = Probe(variant)
    findings = []
    dealt = set(variant.deal_targets)
    for target in variant.groups:
        if target.accepts.text.strip() == "false" or any(target.deal) or \
                any(i in dealt for i in target.indices):
            continue
        entered = any(probe.moves(target, base, run, source)
                      for run in candidate_runs(variant, variant.ranks)
                      for base in bases(run, variant.ranks)
                      for source in sources(variant, target))
        if entered or _entered_in_play(variant, target):
            continue
        needed = target.name in variant.win.text
        message = (f"no card can ever go to the {target.name}: no run I built (1 to "
                   f"{variant.ranks} cards going down or up, in one suit or mixed, with and "
                   f"without wrap, from any other pile) passes this rule and the source's "
                   f"'moves' rule")
        if needed:
            message += f"; and 'win: {variant.win.text}' needs the {target.name}, so no game " \
                       "can be won"
        king_to_ace = [rank * 4 for rank in range(variant.ranks, 0, -1)]
        example = probe.why_not(target, [], king_to_ace, sources(variant, target)[0])
        message += f". For example, for {cards_text(king_to_ace)}: {example}"
        findings.append(Finding("never-entered", f"piles.{target.name}.accepts", message))
    return findings


# --- claims in the file's words ----------------------------------------------------------

NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}


@attrs.frozen
class _Text:
    where: str
    text: str


CLAIM_COMMENT = re.compile(r"(?:^|\s)#\s*claim:\s*(.+)$", re.IGNORECASE)


def _texts(variant: Variant) -> list[_Text]:
    """The description and the file's own comments marked ``# claim: …`` (not a
    parent's)."""
    texts = [_Text("description", variant.description)]
    name = variant.path.rsplit("/", 1)[-1] if variant.path else "<file>"
    for number, line in enumerate(variant.text.splitlines(), start=1):
        match = CLAIM_COMMENT.search(line)
        if match and match.group(1).strip():
            texts.append(_Text(f"{name}:{number} (claim)", match.group(1).strip()))
    return texts


_PLACED = r"(?:played|placed|put|built|laid|moved)"
WRAP_YES = re.compile(r"\bkings? (?:(?:may|can) )?(?:also )?(?:(?:be|is|are) " + _PLACED
                      + r" |go(?:es)? |sits? )?on(?:to)? (?:an? |the )?aces?\b"
                      r"|\bK on A\b|\bwrap(?:s|ping)?\b", re.IGNORECASE)
WRAP_NO = re.compile(r"\bkings? (?:may|can)(?:not| not| never|'t)\b[^.;]{0,30}\bon(?:to)? "
                     r"(?:an? |the )?aces?\b", re.IGNORECASE)
HOLDS = re.compile(r"\b(\w+) (?:(?:can|may) (?:only )?(?:hold|take|store|keep|carry)|holds|"
                   r"takes|stores|keeps) (?:only )?(?:one|a single|1) (run|card|sequence)\b",
                   re.IGNORECASE)
DEAL_INCLUDE = re.compile(r"\bempty (?:columns|piles)(?: \w+){0,3} (?:too|included|as well)\b"
                          r"|\bempty or not\b|\bempty (?:columns|piles) included\b",
                          re.IGNORECASE)
DEAL_SKIP = re.compile(r"\bskip(?:s|ping)? (?:the )?empty\b|\bnot (?:on|onto) (?:an |the )?"
                       r"empty\b|\bempty (?:columns|piles) (?:get|receive) no\b", re.IGNORECASE)
FORCED = re.compile(r"\b(?:leaves?|departs?|(?:is|are) removed|goe?s? off)(?: the table)? "
                    r"(?:at once|immediately|automatically|by (?:it|them)sel(?:f|ves))\b",
                    re.IGNORECASE)
ANY_SUIT = re.compile(r"\bany suit\b", re.IGNORECASE)
#: "complete sets go to the foundations only from the columns", "… from the columns only"
SET_FROM = re.compile(r"\b(?:complete |finished |full )?(?:sets?|suits?)\b[^.;]{0,50}?\b"
                      r"(?:only from (?:the )?(\w+)|from (?:the )?(\w+) only)\b", re.IGNORECASE)
COUNT = re.compile(r"\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d+)"
                   r"[ -](\w+?)s?\b", re.IGNORECASE)


def _wrap_allowed(variant: Variant, probe: Probe) -> str | None:
    """How a King goes on an Ace, in the words of the rule that lets it, or None."""
    kings = [variant.ranks * 4 + suit for suit in range(4)]
    aces = [4 + suit for suit in range(4)]
    for target in variant.groups:
        if target.removal is Removal.FORCED:
            continue
        for source in sources(variant, target):
            for ace in aces:
                for king in kings:
                    if probe.moves(target, [ace], [king], source):
                        return (f"piles.{target.name}.accepts '{target.accepts.text}' lets "
                                f"{card_code(king)} from the {source.name} go onto "
                                f"{card_code(ace)}")
    return None


def _group_named(variant: Variant, word: str) -> Group | None:
    word = word.lower()
    for group in variant.groups:
        if word in (group.name.lower(), group.name.lower().rstrip("s"), group.id):
            return group
    return None


class _Reading:
    """One variant's rules read against the claims of its texts: the probe, the main group
    (the examples' piles) and, worked out once when a claim needs it, how a King goes on an
    Ace."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.probe = Probe(variant)
        self.main = max(variant.groups, key=lambda g: (any(g.deal), g.count))

    @functools.cached_property
    def wrap(self) -> str | None:
        """How a King goes on an Ace, in the words of the rule that lets it, or None."""
        return _wrap_allowed(self.variant, self.probe)


def _says_no_wrap(reading: _Reading, item: _Text) -> Iterator[Finding]:
    """'Kings cannot go on Aces' when a rule lets one."""
    for match in WRAP_NO.finditer(item.text):
        if reading.wrap is not None:
            yield Finding("claim-no-wrap", item.where, (
                f"says {match.group(0)!r}, but the rules let a King go on an Ace: "
                f"{reading.wrap}"))


def _says_wrap(reading: _Reading, item: _Text) -> Iterator[Finding]:
    """'King on Ace' (the first such phrase not negated) when no rule lets one."""
    text = item.text
    for match in WRAP_YES.finditer(text):
        if negated(text, match.start()) or WRAP_NO.search(text):
            continue
        if reading.wrap is None:
            main = reading.main
            king, ace = [reading.variant.ranks * 4 + 3], [4]
            why = reading.probe.why_not(main, ace, king, main)
            yield Finding("claim-wrap", item.where, (
                f"says {match.group(0)!r}, but no pile ever takes a King on an Ace; "
                f"for KS onto AC in the {main.name}: {why}"))
        return


def _says_holds_one(reading: _Reading, item: _Text) -> Iterator[Finding]:
    """'the tail holds one run' when a pile of the group that holds cards takes more."""
    text = item.text
    for match in HOLDS.finditer(text):
        group = _group_named(reading.variant, match.group(1))
        if group is None or negated(text, match.start()):
            continue
        what = "run" if match.group(2).lower() == "sequence" else match.group(2).lower()
        finding = holds_one(reading.variant, reading.probe, group, what, match.group(0),
                             item.where)
        if finding is not None:
            yield finding


def _says_deal_empty(reading: _Reading, item: _Text) -> Iterator[Finding]:
    """'empty columns receive a card too' (or 'skip empty') against stock.empty_piles."""
    variant, text = reading.variant, item.text
    if not variant.deal_targets:
        return
    for match in DEAL_INCLUDE.finditer(text):
        if not negated(text, match.start()) and variant.deal_skips_empty:
            yield Finding("claim-deal-empty", item.where, (
                f"says {match.group(0)!r}, but stock.empty_piles is 'skip': a deal passes "
                "over empty piles"))
    for match in DEAL_SKIP.finditer(text):
        if not variant.deal_skips_empty:
            yield Finding("claim-deal-empty", item.where, (
                f"says {match.group(0)!r}, but stock.empty_piles is 'include': a deal puts a "
                "card on empty piles too"))


def _says_forced(reading: _Reading, item: _Text) -> Iterator[Finding]:
    """'a finished sequence departs at once' when no group has 'removal: forced'."""
    text = item.text
    for match in FORCED.finditer(text):
        if negated(text, match.start()):
            continue
        if not any(group.removal is Removal.FORCED for group in reading.variant.groups):
            yield Finding("claim-forced", item.where, (
                f"says {match.group(0)!r}, but no pile group has 'removal: forced', so cards "
                "only leave when the player moves them"))


def _says_any_suit(reading: _Reading, item: _Text) -> Iterator[Finding]:
    """'any suit' when no pile takes a card on a card of another suit."""
    text = item.text
    for match in ANY_SUIT.finditer(text):
        if negated(text, match.start()):
            continue
        if not _any_suit(reading.variant, reading.probe):
            main = reading.main
            card, base = [9 * 4 + 1], [10 * 4]
            why = reading.probe.why_not(main, base, card, main)
            yield Finding("claim-any-suit", item.where, (
                f"says {match.group(0)!r}, but no pile takes a card on a card of another "
                f"suit; for 9D onto TC in the {main.name}: {why}"))


def _says_sets_from(reading: _Reading, item: _Text) -> Iterator[Finding]:
    """'complete sets go to the foundations only from the columns' when they may come
    from elsewhere."""
    text = item.text
    for match in SET_FROM.finditer(text):
        group = _group_named(reading.variant, match.group(1) or match.group(2))
        if group is not None and not negated(text, match.start()):
            yield from _sets_from_elsewhere(reading.variant, reading.probe, group,
                                            match.group(0), item.where)


def _says_count(reading: _Reading, item: _Text) -> Iterator[Finding]:
    """'four columns', 'two decks', 'twelve deals' against the variant's counts."""
    text = item.text
    for match in COUNT.finditer(text):
        finding = _count(reading.variant, match, item.where)
        if finding is not None and not negated(text, match.start()):
            yield finding


#: the kinds of claim, in the order each text's findings are reported
CLAIM_CHECKS: tuple[Callable[[_Reading, _Text], Iterator[Finding]], ...] = (
    _says_no_wrap, _says_wrap, _says_holds_one, _says_deal_empty, _says_forced,
    _says_any_suit, _says_sets_from, _says_count)


def claims(variant: Variant) -> list[Finding]:
    """Claims in the description and comments that the rules contradict."""
    reading = _Reading(variant)
    return [finding for item in _texts(variant) for check in CLAIM_CHECKS
            for finding in check(reading, item)]


def _sets_from_elsewhere(variant: Variant, probe: Probe, source: Group, said: str,
                         where: str) -> list[Finding]:
    """A claim that complete sets leave only from ``source``: a finding for each other
    group a complete set (King down to Ace of clubs) may go from onto an empty pile."""
    complete = [rank * 4 for rank in range(variant.ranks, 0, -1)]  # KC deepest … AC on top
    # the piles the claim is about: those it names ("to the foundations"), else the groups
    # a move lands on the first pile of (where sets go in every shipped game)
    named = [g for g in variant.groups if g is not source and re.search(
        rf"\b{re.escape(g.name.lower().rstrip('s'))}", said.lower())]
    targets = named or [g for g in variant.groups if g.target is Target.FIRST]
    findings = []
    for target in targets:
        for other in variant.groups:
            if other is source or other is target or not probe.moves(target, [], complete,
                                                                      other):
                continue
            rule = target.accepts
            findings.append(Finding("claim-set-source", where, (
                f"says {said!r}, but piles.{target.name}.accepts '{rule.text}' lets a complete "
                f"set ({cards_text(complete)}) go from the {other.name} onto an empty "
                f"{target.name} pile; add 'source in {source.name}' to the rule")))
    return findings


def _any_suit(variant: Variant, probe: Probe) -> bool:
    ranks = variant.ranks
    for target in variant.groups:
        if target.removal is Removal.FORCED:
            continue
        for source in sources(variant, target):
            for rank in range(1, ranks + 1):
                for base_rank in (rank % ranks + 1, (rank - 2) % ranks + 1, rank):
                    for suit in range(4):
                        for base_suit in ((suit + 1) & 3, (suit + 2) & 3, (suit + 3) & 3):
                            if probe.moves(target, [base_rank * 4 + base_suit],
                                           [rank * 4 + suit], source):
                                return True
    return False


def _count(variant: Variant, match: re.Match[str], where: str) -> Finding | None:
    word, noun = match.group(1).lower(), match.group(2).lower()
    said = NUMBERS.get(word) if not word.isdigit() else int(word)
    if said is None:
        return None
    if noun == "deck":
        actual, what = variant.decks, "decks"
    elif noun == "deal":
        actual, what = variant.deals, "deals (stock size / cards per deal)"
    else:
        group = _group_named(variant, noun)
        if group is None or group.name.lower().rstrip("s") != noun:
            return None
        actual, what = group.count, f"{group.name} (piles.{group.name}.count)"
    if actual == said:
        return None
    return Finding("claim-count", where, f"says {match.group(0)!r}, but the variant has "
                                         f"{actual} {what}")


def won_at_the_start(variant: Variant, deals: int = 3) -> list[Finding]:
    """A win rule that already holds when the cards are dealt."""
    for number in range(1, deals + 1):
        game = variant.deal(number)
        if game.is_won():
            return [Finding("won-at-start", "win", (
                f"'win: {variant.win.text}' already holds at deal {number} before any move "
                f"({game.text()}): every game is won at once"))]
    return []


def lint(variant: Variant) -> list[Finding]:
    """Every finding: groups nothing can enter, a win at the deal, claims the rules
    contradict (each reported once, at the first place that makes it), and the claims of the
    description read as a specification (``patience.testing.spec``)."""
    return list(lint_report(variant).findings)


@attrs.frozen
class LintReport:
    """The lint's findings, the description's claims it checked, and the phrases it could
    not read (``patience test -v`` lists them)."""

    findings: tuple[Finding, ...]
    checked: tuple[str, ...]
    unchecked: tuple[str, ...]


def lint_report(variant: Variant) -> LintReport:
    """:func:`lint`, with what the description's reading checked and left unchecked."""
    from patience.testing.spec import read_description

    findings = never_entered(variant) + won_at_the_start(variant)
    seen: dict[tuple[str, str], Finding] = {}
    for finding in claims(variant):
        key = (finding.code, finding.message.split("', ", 1)[-1])
        if key not in seen:
            seen[key] = finding
    findings += list(seen.values())
    spec = read_description(variant, _understood(variant))
    said = {finding.message.split("'", 2)[1] for finding in findings
            if finding.where == "description" and finding.message.startswith("says '")}
    # a phrase the lint's own claims already found wrong is reported once
    findings += [f for f in spec.findings
                 if not any(s in f.message.split("', but", 1)[0] or
                            f.message.split("'", 2)[1] in s for s in said)]
    return LintReport(tuple(findings), spec.checked, spec.unchecked)


def _understood(variant: Variant) -> list[re.Pattern[str]]:
    """The lint's own claim patterns, and the counts it reads (of decks, deals and named
    groups): phrases these match are checked by :func:`claims`."""
    names = {"decks?", "deals?"}
    for group in variant.groups:
        names.add(re.escape(group.name.lower().rstrip("s")) + "s?")
    count = re.compile(r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                       rf"\d+)[ -](?:{'|'.join(sorted(names))})\b", re.IGNORECASE)
    return [WRAP_YES, WRAP_NO, HOLDS, DEAL_INCLUDE, DEAL_SKIP, FORCED, ANY_SUIT, SET_FROM,
            count]
