"""The description read as a specification.

Each claim the ``description`` makes in the words authors use (docs/authoring.md, "The
description is checked") is tested against the compiled rules on exact positions built for
it — made-up piles with the interpreter of ``patience.explain``, or the deal and stock
settings themselves — never on the solver's luck. A contradiction is a finding that quotes
the phrase and the rule (with the file and line to change). A phrase no claim of the
vocabulary reads is listed as unchecked: nothing is passed silently.

>>> from patience import find_variant
>>> report = read_description(find_variant("klondike"))
>>> report.findings
()
>>> report.checked[0]
"'Seven columns' (count): the columns have 7 piles"
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from patience.cards import card_code
from patience.settings import Removal, Target
from patience.testing.probe import Finding, Probe, holds_one, negated

if TYPE_CHECKING:
    from patience.definition import Rule
    from patience.variant import Group, Variant

__all__ = ["VOCABULARY", "SpecReport", "read_description"]

WORDS = {"a": 1, "an": 1, "one": 1, "single": 1, "two": 2, "three": 3, "four": 4, "five": 5,
         "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
         "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "eighteen": 18,
         "twenty": 20, "once": 1, "twice": 2, "thrice": 3}
N = r"(\d+|a|an|one|single|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|" \
    r"thirteen|fourteen|fifteen|sixteen|eighteen|twenty)"


def _number(word: str) -> int:
    return int(word) if word.isdigit() else WORDS[word.lower()]


@attrs.frozen
class SpecReport:
    """The description's claims: findings, what was checked, and the phrases not read."""

    findings: tuple[Finding, ...]
    checked: tuple[str, ...]  # "'built down in suit' (building): …", for ``-v``
    unchecked: tuple[str, ...]  # phrases of the description no claim reads


class SpecReader:
    """One description being read: the variant, the probe, and what was found."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.probe: Probe = Probe(variant)
        self.findings: list[Finding] = []
        self.checked: list[str] = []
        self.where = "description"  # the text being read: the description, or a comment
        # the tableau: dealt to, not named as a store of single cards, the most piles
        self.main = max(variant.groups, key=lambda g: (
            any(g.deal), not re.search(r"cell|reserve|waste|stock", g.name), g.count,
            sum(g.deal)))

    # -- where things are written --

    def rule(self, rule: Rule) -> str:
        """``piles.columns.accepts 'TEXT' (klondike.yaml:31)``; an inherited rule names the
        parent's line and the key the child can set to change it."""
        shown = f"{rule.key} '{rule.text.strip()}'"
        if rule.origin is None:
            return shown
        location = rule.origin.location()
        where = f"{Path(location.path).name}:{location.line}"
        if self.variant.path and Path(location.path).resolve() != \
                Path(self.variant.path).resolve():
            return f"{shown} (inherited from {where}; set {rule.key} in this file to change it)"
        return f"{shown} ({where})"

    def setting(self, section: str, key: str) -> str:
        """``stock.redeals (klondike.yaml:40)``, or how to set an inherited or default
        value in this file."""
        return self._written((section,), key)

    def group_setting(self, group: Group, key: str) -> str:
        """``piles.columns.deal (forty-thieves.yaml:30)``, likewise."""
        return self._written(("piles", group.name), key)

    def _written(self, sections: tuple[str, ...], key: str) -> str:
        name = Path(self.variant.path).name if self.variant.path else "the file"
        path = [*sections, key]
        depth, indents = 0, [-1]
        for number, line in enumerate(self.variant.text.splitlines(), start=1):
            match = re.match(r"(\s*)([\w-]+)\s*:", line)
            if not match or line.lstrip().startswith("#"):
                continue
            indent = len(match.group(1))
            while depth and indent <= indents[depth]:
                depth -= 1
            if match.group(2) == path[depth] and indent > indents[depth]:
                depth += 1
                indents = indents[:depth] + [indent]
                if depth == len(path):
                    return f"{'.'.join(path)} ({name}:{number})"
        return (f"{'.'.join(path)} (not written in {name}: a parent's value or the default; "
                "write it in this file to change it)")

    def find(self, code: str, phrase: str, message: str) -> None:
        self.findings.append(Finding(code, self.where, f"says {phrase!r}, but {message}"))

    def ok(self, phrase: str, kind: str, what: str) -> None:
        where = "" if self.where == "description" else f"{self.where}: "
        self.checked.append(f"{where}{phrase!r} ({kind}): {what}")

    # -- groups --

    def named(self, text: str) -> list[Group]:
        """The groups a phrase names (by name, singular, or 'free cells'/'tableau')."""
        found = []
        lowered = text.lower()
        for group in self.variant.groups:
            name = group.name.lower()
            if re.search(rf"\b{re.escape(name.rstrip('s'))}s?\b", lowered):
                found.append(group)
        return found

    def group(self, word: str) -> Group | None:
        """The group a word names; 'tableau', 'fans', 'piles', 'cascades' name the main
        group when no group has that name."""
        word = word.lower()
        for group in self.variant.groups:
            name = group.name.lower()
            if word in (name, name.rstrip("s"), name + "s", group.id):
                return group
        if word.rstrip("s") in ("tableau", "fan", "pile", "cascade", "stack"):
            return self.main
        return None

    def sources(self, target: Group) -> list[Group]:
        return [g for g in self.variant.groups if g is not target or g.count > 1]

    def takes(self, target: Group, base: Sequence[int], card: int) -> Group | None:
        """The first group ``card`` may come from onto ``base`` in ``target``."""
        for source in self.sources(target):
            if self.probe.moves(target, base, [card], source):
                return source
        return None

    def cards(self, rank: int) -> list[int]:
        return [rank * 4 + suit for suit in self.variant.suits]

    def allows(self, piles: dict[int, list[int]], source: int, count: int,
               target: int) -> bool:
        """Whether the top ``count`` cards of pile ``source`` may go onto pile ``target``
        when the table holds exactly ``piles`` (every other pile empty)."""
        from patience.explain import CardValue, RunValue

        probe = self.probe
        for cards in probe.game.piles:
            cards.clear()
        for index, cards in piles.items():
            probe.game.piles[index].extend(map(CardValue, cards))
        run = RunValue(tuple(map(CardValue, piles[source][len(piles[source]) - count:])))
        interpreter = probe.interpreter
        giving, taking = self.variant.group_of_pile[source], self.variant.group_of_pile[target]
        source_pile = interpreter.pile(source)
        try:
            return bool(interpreter.evaluate(giving.moves.node,
                                             {"pile": source_pile, "run": run})) and \
                bool(interpreter.evaluate(taking.accepts.node, {
                    "pile": interpreter.pile(target), "run": run, "source": source_pile}))
        except Exception:  # noqa: BLE001 - a rule that cannot be evaluated lets nothing go
            return False

    def leaves(self, source: Group, run: Sequence[int]) -> bool:
        """Whether the source's ``moves`` rule lets ``run`` (a whole pile) leave."""
        probe = self.probe
        target = next((g for g in self.variant.groups if g is not source or g.count > 1),
                      None)
        if target is None:
            return False
        setup = probe._setup(target, [], run, source)
        if setup is None:
            return False
        try:
            return bool(probe.interpreter.evaluate(source.moves.node, setup[0]))
        except Exception:  # noqa: BLE001 - a rule that cannot be evaluated lets nothing go
            return False


# --- the claims --------------------------------------------------------------------------

Handler = Callable[[SpecReader, str, "re.Match[str]", str], None]
#: (name, pattern, handler, what it claims) — the vocabulary, in the order it is read
VOCABULARY: list[tuple[str, re.Pattern[str], Handler, str]] = []


def claim(name: str, pattern: str, words: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        VOCABULARY.append((name, re.compile(pattern, re.IGNORECASE), handler, words))
        return handler
    return register


SUIT_RULES = tuple((re.compile(pattern, re.IGNORECASE), rule) for pattern, rule in (
    (r"\b(?:in|by|following) (?:the same )?suit\b|\bsame suit\b", "suit"),
    (r"\balternat(?:e|ing) colou?rs?\b|\bred on black\b", "alternate"),
    (r"\bregardless of suit\b|\b(?:in )?any suit\b|\bof any suit\b", "any"),
    (r"\bin colou?r\b|\bsame colou?r\b", "colour"),
))
#: how a card's suit may stand to its base's: each suit rule's relations
ALL_RELATIONS = ("same suit", "same colour", "other colour")
RELATIONS = {"suit": ("same suit",), "alternate": ("other colour",),
             "colour": ("same suit", "same colour"), "any": ALL_RELATIONS}
STEPS = {"down": -1, "up": 1}  # the rank a card one rank down or up is off by


def _relation(reader: SpecReader, base: int, relation: str) -> list[int]:
    """Suits a card may have against ``base``'s suit, in the deck."""
    suit = base & 3
    red = suit in (1, 2)
    found = []
    for other in reader.variant.suits:
        same_colour = (other in (1, 2)) == red
        kind = "same suit" if other == suit else "same colour" if same_colour else \
            "other colour"
        if kind == relation:
            found.append(other)
    return found


@claim("building", r"\b(?:built|build(?:s|ing)?|building)(?:\s+\w+){0,2}?\s+(down|up)"
       r"(?:\s+or\s+(down|up))?"
       r"|\bone rank (up or down|down or up|up|down)", "the direction a pile builds and the suit"
       " rule (in suit, alternate colours, regardless of suit / any suit, in colour)")
def _building(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    words = match.group(0).lower()
    directions = {d for d in ("down", "up") if d in words}
    rule = next((r for pattern, r in SUIT_RULES if pattern.search(phrase)), None)
    targets = reader.named(phrase) or reader.named(sentence[:max(0, sentence.find(phrase))])
    candidates = targets or [g for g in reader.variant.groups if g.removal is not Removal.FORCED]
    ranks = reader.variant.ranks
    middle = [r for r in (ranks // 2 + 1, ranks // 2) if 2 <= r < ranks]
    results = []
    for group in candidates:
        problem = _builds(reader, group, directions, rule, middle)
        if problem is None:
            said = f"piles.{group.name}.accepts takes a card one rank " \
                f"{' or '.join(sorted(directions))}" + (f" ({rule})" if rule else "")
            reader.ok(match.group(0) if rule is None else phrase.strip(), "building",
                      f"{said}, and nothing the phrase excludes, on made-up piles")
            return
        results.append((group, problem))
    builders = [(g, p) for g, p in results if not p.startswith("takes no")]
    group, problem = (builders or results)[0]
    reader.find("claim-building", phrase.strip(), f"{reader.rule(group.accepts)} {problem}")


def _builds(reader: SpecReader, group: Group, directions: set[str], rule: str | None,
            middle: list[int]) -> str | None:
    """None when ``group`` builds as claimed on made-up piles, else what it does instead."""
    relations = RELATIONS[rule] if rule else ALL_RELATIONS
    for direction in sorted(directions):
        problem = _takes_none(reader, group, direction, rule, relations, middle)
        if problem is None and rule is not None:
            problem = _takes_excluded(reader, group, direction, relations, middle)
        if problem is None and rule == "any":
            problem = _never_takes(reader, group, direction, relations, middle)
        if problem is not None:
            return problem
    return _builds_other_way(reader, group, directions, relations, middle)


def _one_rank_away(reader: SpecReader, middle: list[int], direction: str,
                   relations: Sequence[str]) -> Iterator[tuple[int, int]]:
    """(base, card): each card of the ``middle`` ranks, and each card one rank
    ``direction`` from it in one of the ``relations`` to its suit."""
    for rank in middle:
        for base in reader.cards(rank):
            for relation in relations:
                for suit in _relation(reader, base, relation):
                    yield base, (rank + STEPS[direction]) * 4 + suit


def _takes_none(reader: SpecReader, group: Group, direction: str, rule: str | None,
                relations: Sequence[str], middle: list[int]) -> str | None:
    """When no card one rank ``direction`` in the claimed relations goes on a card of the
    group: why not, for an example; else None."""
    taken = [reader.takes(group, [base], card)
             for base, card in _one_rank_away(reader, middle, direction, relations)]
    if any(source is not None for source in taken):
        return None
    base = reader.cards(middle[0])[0] if middle else 4
    suit = next((s for r in relations for s in _relation(reader, base, r)), base & 3)
    card = ((base >> 2) + STEPS[direction]) * 4 + suit
    why = reader.probe.why_not(group, [base], [card], reader.sources(group)[0])
    return (f"takes no card one rank {direction} "
            + (f"({' or '.join(relations)}) " if rule else "")
            + f"on another; for {card_code(card)} onto {card_code(base)}: {why}")


def _takes_excluded(reader: SpecReader, group: Group, direction: str,
                    relations: Sequence[str], middle: list[int]) -> str | None:
    """The first card one rank ``direction`` in a relation the suit rule excludes that
    goes on a card of the group, in words; else None."""
    for relation in ALL_RELATIONS:
        if relation in relations:
            continue
        for base, card in _one_rank_away(reader, middle, direction, (relation,)):
            source = reader.takes(group, [base], card)
            if source is not None:
                return (f"lets {card_code(card)} from the {source.name} go onto "
                        f"{card_code(base)} ({relation}) in the {group.name}")
    return None


def _never_takes(reader: SpecReader, group: Group, direction: str, relations: Sequence[str],
                 middle: list[int]) -> str | None:
    """For 'any suit': the first relation the deck has whose cards never go one rank
    ``direction`` on a card of the group, in words; else None."""
    for relation in relations:
        if not any(reader.takes(group, [base], card) is not None
                   for base, card in _one_rank_away(reader, middle, direction, (relation,))) \
                and any(_relation(reader, base, relation) for rank in middle
                        for base in reader.cards(rank)):
            return (f"never lets a card of the {relation} go one rank {direction} in the "
                    f"{group.name}")
    return None


def _builds_other_way(reader: SpecReader, group: Group, directions: set[str],
                      relations: Sequence[str], middle: list[int]) -> str | None:
    """The first card one rank in a direction not claimed that goes on a card of the
    group, in words; else None."""
    for direction in ("down", "up"):
        if direction in directions:
            continue
        for base, card in _one_rank_away(reader, middle, direction, relations):
            source = reader.takes(group, [base], card)
            if source is not None:
                return (f"lets {card_code(card)} from the {source.name} go onto "
                        f"{card_code(base)} (one rank {direction}) in the {group.name}")
    return None


@claim("one at a time", r"\bone card at a time\b|\bsingle cards? only\b",
       "only single cards move (or, said of the stock, one card turned a deal)")
def _one_at_a_time(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    before = sentence[:sentence.find(phrase) + match.start()]
    last = re.split(r"[,;]", before)[-1] if "," in before or ";" in before else phrase
    if re.search(r"\bstock\b|\bturn", phrase[:match.start()] + last, re.IGNORECASE):
        _turned(reader, phrase, 1, match.group(0))
        return
    groups = reader.named(phrase) or reader.named(before) or [reader.main]
    group = groups[-1]
    for rank in range(reader.variant.ranks, 2, -1):
        for top in reader.cards(rank):
            for suit in reader.variant.suits:
                run = [top, (rank - 1) * 4 + suit]
                if reader.leaves(group, run):
                    for target in reader.variant.groups:
                        for base in ([], *[[b] for b in reader.cards(rank + 1)
                                           if rank < reader.variant.ranks]):
                            if reader.probe.moves(target, base, run, group):
                                onto = f"onto {card_code(base[0])}" if base else \
                                    "onto an empty pile"
                                reader.find("claim-one-at-a-time", match.group(0), (
                                    f"{reader.rule(group.moves)} lets the run "
                                    f"{card_code(run[0])} {card_code(run[1])} leave the "
                                    f"{group.name} together, {onto} in the {target.name}"))
                                return
    reader.ok(match.group(0), "one at a time", f"no two-card run leaves the {group.name}")


def _turned(reader: SpecReader, phrase: str, said: int, words: str) -> None:
    turn = reader.variant.turn
    if turn != said:
        reader.find("claim-turn", words, (
            f"{reader.setting('stock', 'turn')} is {turn}: a deal turns {turn} "
            f"card{'s' if turn != 1 else ''}"))
        return
    reader.ok(words, "cards turned", f"stock.turn is {turn}")


@claim("cards turned", rf"\b(?:turn(?:s|ed|ing)?|deals?|draw(?:s|ing)?)\b[^,;]{{0,20}}?\b{N} "
       r"(?:cards? )?at a time\b", "how many cards the stock turns ('three at a time')")
def _turn(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    _turned(reader, phrase, _number(match.group(1)), match.group(0))


@claim("draw N", rf"\b(?:draw|drawing|draws|turning|turn) {N}\b(?! (?:cards? )?at a time)"
       r"(?! \w+ (?:of|to|cards? at))", "how many cards the stock turns ('draw three', "
       "'drawing one')")
def _draw(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    _turned(reader, phrase, _number(match.group(1)), match.group(0))


REDEALS = (
    ((r"\bas often as you like\b|\bunlimited redeals?\b|\bany number of redeals\b|"
     r"\bredeals? without (?:a )?limit\b|\bwithout limit\b"), None),
    (r"\bonce through\b|\bno redeals?\b|\bturned once\b|\bnever redealt\b|\bnot redealt\b", 0),
)


@claim("redeals", r"\bas often as you like\b|\bunlimited redeals?\b|\bany number of redeals\b|"
       r"\bredeals? without (?:a )?limit\b|\bonce through\b|\bno redeals?\b|\bturned once\b|"
       rf"\bnever redealt\b|\bnot redealt\b|\b{N} redeals?\b|\bredeal(?:s|t|ed)? "
       rf"(once|twice|thrice|{N} times)\b|\b(twice|thrice|{N} times) through\b",
       "the number of redeals: 'no redeal', 'once through', 'two redeals', 'redealt twice', "
       "'three times through', 'as often as you like'")
def _redeals(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    words = match.group(0).lower()
    said: int | None
    if re.search(REDEALS[0][0], words):
        said = None
    elif re.search(REDEALS[1][0], words):
        said = 0
    elif "through" in words:
        said = _number(words.split()[0]) - 1
    elif words.startswith("redeal"):
        said = _number(words.split()[1])
    else:
        said = _number(words.split()[0])
    gather = reader.variant.gather
    if gather is not None:  # the redeals gather piles and deal them again
        if gather.limit != said:
            shown = "unlimited" if gather.limit is None else str(gather.limit)
            reader.find("claim-redeals", match.group(0),
                        f"stock.gather.redeals is {shown}")
            return
        reader.ok(match.group(0), "redeals", "stock.gather.redeals is "
                  f"{'unlimited' if gather.limit is None else gather.limit}")
        return
    actual = reader.variant.redeals
    if not reader.variant.stock_size:
        reader.find("claim-redeals", match.group(0), "the game has no stock to redeal")
        return
    if actual != said:
        shown = "unlimited" if actual is None else str(actual)
        reader.find("claim-redeals", match.group(0), (
            f"{reader.setting('stock', 'redeals')} is {shown}: the waste turns back into the "
            + ("stock as often as one likes" if actual is None else
               f"stock {actual} time{'s' if actual != 1 else ''}")))
        return
    reader.ok(match.group(0), "redeals", f"stock.redeals is "
              f"{'unlimited' if actual is None else actual}")


@claim("cards per pile", rf"\b(?:{N}[ -])?(\w+) of {N}(?!,\s*\d)(?: to {N})?(?: cards?)?"
       rf"(?: \(the last of {N}\))?", "how many cards each pile of a group is dealt "
       "('columns of four', 'fans of three cards (the last of one)', 'columns of 1 to 7 "
       "cards')")
def _per_pile(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    group = reader.group(match.group(2))
    if group is None:
        return
    low = _number(match.group(3))
    high = _number(match.group(4)) if match.group(4) else None
    last = _number(match.group(5)) if match.group(5) else None
    deal = list(group.deal)
    if high is not None:
        wanted = list(range(low, high + 1))
        fits = sorted(deal) == wanted
        said = f"{low} to {high} cards, one pile each"
    else:
        wanted = [low] * len(deal)
        if last is not None and deal:
            wanted[-1] = last
        fits = deal == wanted
        said = f"{low} cards each" + (f", the last {last}" if last is not None else "")
    shown = ", ".join(map(str, deal))
    if not fits:
        reader.find("claim-deal-count", match.group(0), (
            f"{reader.group_setting(group, 'deal')} deals the {group.name} {shown} cards, not "
            f"{said}"))
        return
    reader.ok(match.group(0), "cards per pile", f"the {group.name} are dealt {shown}")


@claim("face down", rf"\b{N} face[ -]down(?: cards?)?(?: under {N} face[ -]up)?|"
       r"\bonly the top card(?: of each)? face[ -]up|\bdealt face[ -]up\b|\ball face[ -]up\b",
       "how many cards lie face down: 'two face down under one face up', 'only the top card "
       "of each face up', 'dealt face up'")
def _face_down(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    words = match.group(0).lower()
    groups = reader.named(phrase) or [reader.main]
    for group in groups:
        down, deal = list(group.face_down) or [0] * group.count, list(group.deal)
        if "only the top" in words:
            wanted = [max(0, n - 1) for n in deal]
        elif "dealt face" in words or "all face" in words:
            wanted = [0] * len(deal)
        else:
            wanted = [_number(match.group(1))] * len(deal)
            if match.group(2) is not None and any(
                    n - d != _number(match.group(2)) for n, d in zip(deal, down)):
                reader.find("claim-face-down", match.group(0), (
                    f"{reader.group_setting(group, 'face_down')} with "
                    f"{reader.group_setting(group, 'deal')} deals the {group.name} "
                    f"{', '.join(map(str, deal))} cards, {', '.join(map(str, down))} face down"))
                return
        if down != wanted:
            reader.find("claim-face-down", match.group(0), (
                f"{reader.group_setting(group, 'face_down')} lays "
                f"{', '.join(map(str, down))} cards face down on the {group.name}"))
            return
    reader.ok(match.group(0), "face down", "the face-down counts of "
              + ", ".join(g.name for g in groups))


@claim("cells", rf"\b{N} (?:free )?cells?\b(?: \({N} dealt an? cards?\))?",
       "the number of cells ('four free cells', 'eight free cells (four dealt a card)')")
def _cells(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    group = reader.group("cells") or reader.group("cell")
    said = _number(match.group(1))
    if group is None:
        reader.find("claim-count", match.group(0), "the variant has no pile group named cells")
        return
    if group.count != said:
        reader.find("claim-count", match.group(0), (
            f"{reader.group_setting(group, 'count')} is {group.count}"))
        return
    if match.group(2) is not None:
        dealt = sum(1 for n in group.deal if n)
        if dealt != _number(match.group(2)):
            reader.find("claim-deal-count", match.group(0), (
                f"{reader.group_setting(group, 'deal')} deals a card to {dealt} of the "
                f"{group.name}"))
            return
    reader.ok(match.group(0), "cells", f"{group.count} {group.name}")


@claim("cards in a group", rf"\b{N}[ -]card (\w+)\b|\b{N} (\w+) cards\b",
       "how many cards a group is dealt in all ('a 13-card reserve', 'seven reserve cards'), "
       "or the stock's size ('a 24-card stock')")
def _total(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    said = _number(match.group(1) or match.group(3))
    word = match.group(2) or match.group(4)
    if word.lower() == "stock":
        actual, where = reader.variant.stock_size, "the stock holds"
    else:
        group = reader.group(word)
        if group is None or not any(group.deal):  # 'a one-card tail': what it holds
            return
        actual, where = sum(group.deal), f"{reader.group_setting(group, 'deal')} deals"
    if actual != said:
        reader.find("claim-deal-count", match.group(0), f"{where} {actual} cards")
    else:
        reader.ok(match.group(0), "cards in a group", f"{actual} cards")


@claim("stock size", rf"\bstock of {N} cards\b", "the stock's size ('a stock of 24 cards')")
def _stock(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    said, actual = _number(match.group(1)), reader.variant.stock_size
    if said != actual:
        reader.find("claim-deal-count", match.group(0), f"the stock holds {actual} cards")
    else:
        reader.ok(match.group(0), "stock size", f"{actual} cards")


GAP = r"(?:gaps?|spaces?|empty (\w+)|an empty (\w+))"


@claim("Kings into gaps", rf"\b(?:only (?:a )?)?Kings?(?: only| alone)? (?:into|on|onto|to|fills?|"
       rf"may fill|go(?:es)? (?:in)?to) (?:the |a |an )?{GAP}"
       rf"|\b{GAP} (?:take|takes|for) Kings? only\b",
       "only a King fills a gap ('Kings into gaps', 'Kings fill gaps', 'only a King fills a "
       "gap', 'a King alone fills a gap', 'Kings into empty columns')")
def _kings(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    word = next((w for w in match.groups() if w), None)
    group = (reader.group(word) if word else None) or \
        (reader.named(phrase[:match.start()]) or [reader.main])[-1]
    ranks = reader.variant.ranks
    king = next((source for card in reader.cards(ranks)
                 if (source := reader.takes(group, [], card)) is not None), None)
    if king is None:
        card = reader.cards(ranks)[0]
        why = reader.probe.why_not(group, [], [card], reader.sources(group)[0])
        reader.find("claim-gap", match.group(0), (
            f"{reader.rule(group.accepts)} lets no King into an empty {group.name} pile; for "
            f"{card_code(card)}: {why}"))
        return
    for rank in range(ranks - 1, 0, -1):
        for card in reader.cards(rank):
            source = reader.takes(group, [], card)
            if source is not None:
                reader.find("claim-gap", match.group(0), (
                    f"{reader.rule(group.accepts)} lets {card_code(card)} from the "
                    f"{source.name} into an empty {group.name} pile"))
                return
    reader.ok(match.group(0), "Kings into gaps", f"an empty {group.name} pile takes a King "
              "and no other rank")


@claim("gaps stay empty", rf"\b{GAP} (?:stay|stays|remain|remains) empty\b|\bgaps? are never "
       r"filled\b", "no card may go into a gap ('gaps stay empty')")
def _gaps_empty(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    word = next((w for w in match.groups() if w), None)
    group = (reader.group(word) if word else None) or reader.main
    if group.fill_from is not None:
        reader.find("claim-gap", match.group(0), (
            f"{reader.group_setting(group, 'fill_from')} fills a gap in the {group.name} at "
            "once"))
        return
    for rank in range(reader.variant.ranks, 0, -1):
        for card in reader.cards(rank):
            source = reader.takes(group, [], card)
            if source is not None:
                reader.find("claim-gap", match.group(0), (
                    f"{reader.rule(group.accepts)} lets {card_code(card)} from the "
                    f"{source.name} into an empty {group.name} pile"))
                return
    reader.ok(match.group(0), "gaps stay empty", f"no card enters an empty {group.name} pile")


@claim("any card into a gap", rf"\b(?:an? |the )?(?:open )?{GAP} (?:takes?|may take|can take) "
       r"any card\b|\bany card (?:fills|may fill|into) (?:a |the )?gaps?\b",
       "any card may fill a gap ('a gap takes any card')")
def _any_card(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    word = next((w for w in match.groups() if w), None)
    group = (reader.group(word) if word else None) or reader.main
    for rank in range(1, reader.variant.ranks + 1):
        card = reader.cards(rank)[0]
        if reader.takes(group, [], card) is None:
            why = reader.probe.why_not(group, [], [card], reader.sources(group)[0])
            reader.find("claim-gap", match.group(0), (
                f"an empty {group.name} pile does not take {card_code(card)}: {why}"))
            return
    reader.ok(match.group(0), "any card into a gap", f"an empty {group.name} pile takes any "
              "rank")


def _fill_source(reader: SpecReader, group: Group, word: str, said: str) -> None:
    fill = group.fill_from
    if word.lower() == "stock":
        wanted: Sequence[int] | None = None
        fits = fill is not None and fill.start < 0
    else:
        named = reader.group(word)
        if named is None:
            return
        wanted = named.indices
        fits = fill is not None and fill.start >= 0 and set(fill) <= set(named.indices)
    if fits:
        reader.ok(said, "fill source", f"piles.{group.name}.fill_from is the {word}")
        return
    if fill is None:
        actual = "nothing: a gap there is not filled by itself"
    elif fill.start < 0:
        actual = "the stock"
    else:
        actual = ", ".join(reader.variant.pile_names[i] for i in fill)
    del wanted
    reader.find("claim-fill", said, (
        f"{reader.group_setting(group, 'fill_from')} fills a gap in the {group.name} from "
        f"{actual}"))


@claim("fill source", rf"\b{GAP} (?:fill|fills|are filled|is filled)(?: at once| by "
       r"(?:it|them)sel(?:f|ves))? from (?:the )?(\w+)|(?:the |a |an )?(?:\d+-card )?(\w+) "
       r"fills? (?:the )?gaps\b",
       "where a gap is filled from at once ('gaps fill at once from the waste', 'a reserve "
       "fills gaps')")
def _fill(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    gap_word = match.group(1) or match.group(2)
    if match.group(3):
        group = (reader.group(gap_word) if gap_word else None) or reader.main
        _fill_source(reader, group, match.group(3), match.group(0))
    elif match.group(4):
        _fill_source(reader, reader.main, match.group(4), match.group(0))


@claim("refill source", r"\b(\w+),? which (?:re)?fills from (?:the )?(\w+)",
       "where a pile is refilled from at once ('the waste, which refills from the stock')")
def _refill(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    group = reader.group(match.group(1))
    if group is not None:
        _fill_source(reader, group, match.group(2), match.group(0))


@claim("no stock", r"\bno stock\b", "the game has no stock ('no stock')")
def _no_stock(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    if reader.variant.stock_size:
        reader.find("claim-stock", match.group(0), (
            f"the stock holds {reader.variant.stock_size} cards after the deal"))
    else:
        reader.ok(match.group(0), "no stock", "no card is left in the stock after the deal")


@claim("which runs move", r"\bany (?:face[ -]up )?card moves(?: with (?:all the cards|everything|"
       r"the cards) on it)?|\bonly (?:one|same)[ -]suit runs "
       r"move\b|\ba run of one colou?r\b[^.;]*\bmoves? as a unit\b|\bruns? of one suit moves?\b",
       "which runs may leave a pile: 'any (face-up) card moves (with all the cards on it)', "
       "'only one-suit runs move', 'a run of one colour moves as a unit'")
def _runs(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    words = match.group(0).lower()
    group = (reader.named(phrase) or [reader.main])[0]
    ranks = reader.variant.ranks
    top = (ranks - 2) * 4 + reader.variant.suits[0]
    suits = reader.variant.suits

    def run(suit: int, step: int = 1) -> list[int]:
        return [top, ((top >> 2) - step) * 4 + suit]

    same_colour = [s for s in suits if s != top & 3 and (s in (1, 2)) == ((top & 3) in (1, 2))]
    other_colour = [s for s in suits if (s in (1, 2)) != ((top & 3) in (1, 2))]
    checks: list[tuple[list[int], bool]] = []
    if "any" in words:
        checks = [([top, 4 + (top & 3)], True)]  # out of sequence (an Ace on a Jack): moves
    elif "colo" in words:
        checks = [(run(s), True) for s in same_colour[:1]] + \
            [(run(s), False) for s in other_colour[:1]]
    else:
        checks = [(run(top & 3), True)] + [(run(s), False) for s in
                                           (same_colour + other_colour)[:1]]
    for cards, moves in checks:
        if reader.leaves(group, cards) != moves:
            shown = " ".join(card_code(c) for c in cards)
            reader.find("claim-runs", match.group(0), (
                f"{reader.rule(group.moves)} {'does not let' if moves else 'lets'} the run "
                f"{shown} leave a {group.name} pile"))
            return
    reader.ok(match.group(0), "which runs move", f"the {group.name}' moves rule, on "
              f"{len(checks)} made-up runs")


@claim("cards only onto a group", r"\b(?:clear|play)(?: the| all| every)?(?: \w+)? (\w+) "
       r"(?:onto|into|to) (?:the )?(\w+)\b",
       "the cards of a group go only to another ('clear seven columns onto the waste')")
def _only_onto(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    source, target = reader.group(match.group(1)), reader.group(match.group(2))
    if source is None or target is None:
        return
    for other in reader.variant.groups:
        if other is target or other.removal is Removal.FORCED:
            continue
        for rank in range(reader.variant.ranks, 0, -1):
            for card in reader.cards(rank):
                bases: list[list[int]] = [[]]
                bases += [[b] for r in (rank - 1, rank + 1) if 1 <= r <= reader.variant.ranks
                          for b in reader.cards(r)]
                for base in bases:
                    if reader.probe.moves(other, base, [card], source):
                        onto = f"onto {card_code(base[0])}" if base else "into an empty pile"
                        reader.find("claim-only-onto", match.group(0), (
                            f"{reader.rule(other.accepts)} lets {card_code(card)} from the "
                            f"{source.name} go {onto} in the {other.name}"))
                        return
    reader.ok(match.group(0), "cards only onto a group", f"cards of the {source.name} go "
              f"only to the {target.name}")


@claim("placed cards", r"\b(?:the )?aces (?:start|begin|are placed|are put) (?:on|in) "
       r"(?:the )?(\w+)|\bthe aces are dealt with the rest\b|\bstarts? with the (ace|two|"
       r"three|king|queen|jack) of (\w+)", "cards placed before the deal ('the Aces start on "
       "the foundations', 'the Aces are dealt with the rest', 'starts with the Ace of Spades')")
def _placed(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    from patience.cards import RANK_CHARS, SUIT_NAMES

    placed = {card for group in reader.variant.groups for pile in group.place for card in pile}
    words = match.group(0).lower()
    if "dealt with the rest" in words:
        aces = sorted(c for c in placed if c >> 2 == 1)
        if aces:
            reader.find("claim-placed", match.group(0), (
                f"{', '.join(map(card_code, aces))} are placed before the deal (place:)"))
            return
        reader.ok(match.group(0), "placed cards", "no Ace is placed")
        return
    if match.group(1):
        group = reader.group(match.group(1))
        if group is None:
            return
        on = {c for pile in group.place for c in pile}
        missing = [card_code(c) for s in reader.variant.suits if (c := 4 + s) not in on]
        if missing:
            reader.find("claim-placed", match.group(0), (
                f"{reader.group_setting(group, 'place')} puts no {', '.join(missing)} on the "
                f"{group.name}"))
            return
        reader.ok(match.group(0), "placed cards", f"the Aces are placed on the {group.name}")
        return
    rank = {"ace": 1, "two": 2, "three": 3, "jack": 11, "queen": 12, "king": 13}[match.group(2)
                                                                              .lower()]
    suit_word = match.group(3).lower().rstrip("s")
    suits = [i for i, name in enumerate(SUIT_NAMES) if name.rstrip("s") == suit_word]
    if not suits:
        return
    card = rank * 4 + suits[0]
    if card not in placed:
        reader.find("claim-placed", match.group(0), (
            f"no pile starts with {RANK_CHARS[rank - 1]}{'CDHS'[suits[0]]} (place:)"))
        return
    reader.ok(match.group(0), "placed cards", f"{card_code(card)} is placed")


@claim("turning the corner", r"\bking and ace next to each other\b|\b(?:turn(?:s|ing)?|round) "
       r"the corner\b|\bace on (?:a |the )?king\b|\bfrom the rank of the first card\b",
       "a King and an Ace are next ranks on a pile ('King and Ace next to each other', "
       "'turning the corner', 'Ace on King', 'up from the rank of the first card dealt')")
def _corner(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    if "round the corner" in match.group(0).lower() and "set" in sentence.lower():
        return  # sets round the corner: the lint's set claims, not a pile's building
    groups = reader.named(phrase) or [g for g in reader.variant.groups
                                      if g.removal is not Removal.FORCED]
    ranks = reader.variant.ranks
    for group in groups:
        for king in reader.cards(ranks):
            for ace in reader.cards(1):
                if reader.takes(group, [king], ace) or reader.takes(group, [ace], king):
                    reader.ok(match.group(0), "turning the corner",
                              f"the {group.name} take {card_code(ace)} on {card_code(king)} "
                              "or the other way")
                    return
    # the pile that builds at all (one rank up or down) is the one the claim is about
    middle = ranks // 2
    group = next((g for g in groups for base in reader.cards(middle)
                  for step in (-1, 1) for card in reader.cards(middle + step)
                  if reader.takes(g, [base], card)), groups[0])
    king, ace = reader.cards(ranks)[0], reader.cards(1)[0]
    why = reader.probe.why_not(group, [king], [ace], reader.sources(group)[0])
    reader.find("claim-corner", match.group(0), (
        f"no pile takes an Ace on a King or a King on an Ace; for {card_code(ace)} onto "
        f"{card_code(king)} in the {group.name}: {why}"))


@claim("beaten by a higher card", r"\b(?:beaten|topped|discarded) by a higher (?:top )?card "
       r"of (?:its|the same) suit\b|\bwhen a higher card of its suit shows\b",
       "a card leaves (is discarded) when another pile shows a higher card of its suit "
       "('Discard any top card beaten by a higher top card of its suit'; with 'Aces high', "
       "an Ace beats every card and is never beaten)")
def _beaten(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    _beaten_cases(reader, match, aces_only=False)


@claim("Aces high", r"\baces (?:are )?high\b", "with a card beaten by a higher one of its suit: "
       "an Ace beats every card and is never beaten ('Aces high')")
def _aces_high(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    _beaten_cases(reader, match, aces_only=True)


def _beaten_cases(reader: SpecReader, match: re.Match[str], aces_only: bool) -> None:
    variant = reader.variant
    aces_high = bool(re.search(r"\baces? (?:are )?high\b", variant.description, re.IGNORECASE))
    discards = [g for g in variant.groups if g is not reader.main and g.count == 1]
    if not discards or reader.main.count < 2:
        return
    pile, discard = reader.main.indices, discards[0].indices[0]
    first, second = pile[0], pile[1]

    def discarded(card: int, other: int | None) -> bool:
        piles = {first: [card]}
        if other is not None:
            piles[second] = [other]
        return reader.allows(piles, first, 1, discard)

    low = 5
    cases = [(low * 4 + 2, (low + 3) * 4 + 2, True, "a higher card of its suit shows"),
             (low * 4 + 2, (low + 3) * 4 + 0, False, ("only a higher card of another suit "
              "shows")),
             ((low + 3) * 4 + 2, low * 4 + 2, False, "only a lower card of its suit shows"),
             (low * 4 + 2, None, False, "no other card shows")]
    if aces_only:
        cases = []
    if aces_high:
        cases += [(variant.ranks * 4 + 2, 4 + 2, True, ("the Ace of its suit shows (Aces "
                   "high)")),
                  (4 + 2, variant.ranks * 4 + 2, False, "an Ace is never beaten (Aces high)")]
    rule = reader.rule(discards[0].accepts)
    for card, other, expected, why in cases:
        if discarded(card, other) != expected:
            shown = f"{card_code(card)} on {variant.pile_names[first]}" + (
                f" and {card_code(other)} on {variant.pile_names[second]}" if other else
                " alone")
            verb = "does not let" if expected else "lets"
            reader.find("claim-beaten", match.group(0), (
                f"with {shown}, {rule} {verb} {card_code(card)} go to the "
                f"{discards[0].name} ({why})"))
            return
    reader.ok(match.group(0), "beaten by a higher card", f"{len(cases)} made-up tables")


@claim("runs limited by free spaces", r"\bruns? (?:are )?limited by the free (?:spaces|cells)"
       r"\b|\bsupermoves?\b", "a run moves as far as free cells (and, for 'free spaces', empty "
       "columns) allow: (free cells + 1) × 2^(empty columns)")
def _supermove(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    variant = reader.variant
    cells = reader.group("cells")
    main = reader.main
    if cells is None or main.count < 3:
        return
    target, source = main.indices[0], main.indices[1]
    fillers = list(main.indices[2:])
    rule = reader.rule(main.accepts)
    # the run: down from a Queen in the first colouring the rules build (alternate colours,
    # one suit); the target shows the King of clubs below it
    length_most = min(variant.ranks - 1, 6)
    king = variant.ranks * 4 + 0
    for suits in ((1, 0), (0, 0), (3, 0)):
        run = [(variant.ranks - 1 - i) * 4 + suits[i % 2] for i in range(length_most)]
        if reader.allows({target: [king], source: run[:1]}, source, 1, target):
            break
    else:
        return  # no one card goes onto a King here: the claim is not read (unchecked)
    # 'free spaces' (or empty columns) double the limit for each empty column; 'free cells'
    # alone, or a bare 'supermove', say nothing of the columns: judged with none empty
    doubled = bool(re.search(r"\bspaces?\b|\bcolumns?\b", phrase, re.IGNORECASE))
    for free_cells in range(min(cells.count, 3) + 1):
        for empty_columns in ((0, 1) if doubled else (0,)):
            if empty_columns > len(fillers):
                continue
            allowed = (free_cells + 1) * 2 ** empty_columns
            if allowed + 1 > length_most:
                continue
            piles: dict[int, list[int]] = {}
            for count, index in enumerate(fillers[empty_columns:]):
                piles[index] = [(2 + count % 3) * 4 + (count % 4)]
            for count, index in enumerate(list(cells.indices)[free_cells:]):
                piles[index] = [(2 + count % 3) * 4 + ((count + 1) % 4)]
            piles[target] = [king]
            for size, expected in ((allowed, True), (allowed + 1, False)):
                piles[source] = run[:size]
                moved = reader.allows(piles, source, size, target)
                if moved != expected:
                    verb = "does not let" if expected else "lets"
                    reader.find("claim-supermove", match.group(0), (
                        f"with {free_cells} free cell{'s' if free_cells != 1 else ''} and "
                        f"{empty_columns} empty column{'s' if empty_columns != 1 else ''}, "
                        f"{rule} {verb} a run of {size} move (the limit is {allowed})"))
                    return
    reader.ok(match.group(0), "runs limited by free spaces", "runs at and one past the limit, "
              "for 0-3 free cells" + (" and 0-1 empty columns" if doubled else ""))


@claim("one-card pile", r"\b(?:a |the )?one-card (\w+)\b", "a group whose piles hold one card "
       "at most ('a one-card tail')")
def _one_card(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    group = reader.group(match.group(1))
    if group is None or any(group.deal):
        return
    finding = holds_one(reader.variant, reader.probe, group, "card", match.group(0),
                         "description")
    if finding is not None:
        reader.findings.append(finding)
    else:
        reader.ok(match.group(0), "one-card pile", f"a {group.name} pile takes one card, and "
                  "none while it holds one")


@claim("sets of one suit", r"\bsets? (?:must be |is |are )?(?:all )?(?:of |in )?one suit\b|"
       r"\bsuited sets?\b|\bsets? in suit\b", "a complete set must be of one suit ('a set "
       "must be all one suit')")
def _suited_sets(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    variant = reader.variant
    ranks = variant.ranks
    if len(variant.suits) < 2:
        return
    first, second = variant.suits[0], variant.suits[1]
    suited = [rank * 4 + first for rank in range(ranks, 0, -1)]
    mixed = [rank * 4 + (first if rank % 2 else second) for rank in range(ranks, 0, -1)]
    # a mixed set of one colour where the deck has one: colour for suit is the likely slip
    same_colour = [s for s in variant.suits if s != first and (s in (1, 2)) == (first in (1, 2))]
    if same_colour:
        mixed = [rank * 4 + (first if rank % 2 else same_colour[0])
                 for rank in range(ranks, 0, -1)]
    homes = [g for g in variant.groups
             if g.target is Target.FIRST or g.removal is Removal.FORCED]
    for home in homes:
        for source in reader.sources(home):
            if not reader.probe.moves(home, [], suited, source):
                continue
            if reader.probe.moves(home, [], mixed, source):
                reader.find("claim-set-suit", match.group(0), (
                    f"{reader.rule(home.accepts)} lets the mixed set "
                    f"{' '.join(map(card_code, mixed))} go from the {source.name} to the "
                    f"{home.name}"))
                return
            reader.ok(match.group(0), "sets of one suit", f"the {home.name} take a suited "
                      "set and refuse a mixed one")
            return


@claim("deck size", rf"\bwith (?!(?:a|an|one|single) ){N} cards\b|\b{N}-card deck\b|"
       rf"\bdeck of {N} cards\b",
       "how many cards the deck has ('with twenty cards', 'a 104-card deck')")
def _deck_size(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    said = _number(next(g for g in match.groups() if g))
    actual = len(reader.variant.deck)
    if said != actual:
        reader.find("claim-count", match.group(0), (
            f"the deck has {actual} cards (decks, ranks and suits)"))
        return
    reader.ok(match.group(0), "deck size", f"{actual} cards")


@claim("ranks", r"\branks A-(\w)\b|\branks? (?:Ace|A) to (\w+)\b", "the highest rank "
       "('ranks A-7')")
def _ranks(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    from patience.cards import RANK_CHARS

    word = (match.group(1) or match.group(2)).upper()
    names = {"KING": "K", "QUEEN": "Q", "JACK": "J", "TEN": "T"}
    word = names.get(word, word)
    if word not in RANK_CHARS:
        return
    said = RANK_CHARS.index(word) + 1
    if said != reader.variant.ranks:
        reader.find("claim-count", match.group(0), (
            f"ranks is {reader.variant.ranks}"))
        return
    reader.ok(match.group(0), "ranks", f"ranks is {said}")


@claim("suits", r"\bwith (one|two|three|four) suits?\b(?!-)|\b(one|two|three|four) suits, ",
       "how many suits the deck has ('Spider with two suits')")
def _suits(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    said = _number(match.group(1) or match.group(2))
    actual = len(reader.variant.suits)
    if said != actual:
        reader.find("claim-count", match.group(0), f"the deck has {actual} suits (suits:)")
        return
    reader.ok(match.group(0), "suits", f"{actual} suits")


# --- what wins (patience.testing.wins) ---------------------------------------------------

#: the claims of what wins, which also read the comment on the ``win`` rule
WIN_CLAIMS = ("every card on a group", "clear a group", "only the Aces left")


def _group_in(reader: SpecReader, words: str) -> Group | None:
    """The first of a few words that names a group ('Black Hole' names the hole)."""
    for word in words.split():
        group = reader.group(word)
        if group is not None:
            return group
    return None


@claim("every card on a group", r"\b(?:every card|all (?:the )?cards|all (\d+) cards)"
       r"(?: (?:is|are))?(?: (?:played|built|moved|put|laid))? (?:on|onto|into|to|in) (?:the )?"
       r"(\w+(?: \w+){0,2})|\b(?:won|over|done|finished) when (?:all )?(?:the )?(\w+) "
       r"(?:are|is) full(?=\s*(?:[,.;)]|$))|\b(?:every|each) (\w+) holds? an? (?:finished|"
       rf"complete|full) (?:suit|set)\b|\ball (?:{N} )?suits (?:are )?(?:finished|complete|"
       r"home)\b",
       "the game is won with every card on a group, and not before ('every card on the "
       "foundations', 'all 104 cards on the foundations', 'play every card into the Black "
       "Hole', 'won when the foundations are full', 'every foundation holds a finished suit', "
       "'all four suits finished')")
def _every_card(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    from patience.testing.wins import all_on, home_of

    if match.group(1) and int(match.group(1)) != len(reader.variant.deck):
        reader.find("claim-count", match.group(0), (
            f"the deck has {len(reader.variant.deck)} cards (decks, ranks and suits)"))
        return
    words = match.group(2) or match.group(3) or match.group(4)
    group = _group_in(reader, words) if words else home_of(reader, reader.main)
    if group is not None:
        all_on(reader, group, match.group(0))


@claim("clear a group", rf"\bclear(?:s|ing)? (?:the |all |every |all the )?(?:{N} )?(\w+)"
       r"(?: (?:onto|into|to) (?:the )?(\w+))?|\b(?:won|over|done|finished) when (?:all |every )?"
       r"(?:the )?(\w+) (?:are|is) (?:empty|cleared|clear|gone)(?=\s*(?:[,.;)]|$))"
       r"|\b(?:every|all (?:the )?) ?(\w+) cleared\b",
       "the game is won when a group is empty, and not before ('clear the columns', 'clear "
       "seven columns onto the waste', 'won when the columns are empty', 'every column "
       "cleared')")
def _clear(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    from patience.testing.wins import cleared

    group = reader.group(match.group(2) or match.group(4) or match.group(5))
    onto = reader.group(match.group(3)) if match.group(3) else None
    if group is not None and (match.group(3) is None or onto is not None):
        cleared(reader, group, onto, match.group(0))


@claim("only the Aces left", rf"\bonly (?:the )?(?:{N} )?aces (?:are |stay |remain )?"
       r"(?:left|remain)\b(?:,? one (?:to an?|per|a|on each|in each) (?:pile|column)\b)?",
       "the game is won when the Aces alone are left on the table, one a pile ('until only the "
       "four Aces are left', 'only the four Aces left, one to a pile')")
def _only_aces(reader: SpecReader, phrase: str, match: re.Match[str], sentence: str) -> None:
    from patience.testing.wins import only_aces

    only_aces(reader, _number(match.group(1)) if match.group(1) else None, match.group(0))


# --- reading ---------------------------------------------------------------------------


def _phrases(sentence: str) -> Iterator[tuple[int, int]]:
    """The spans of a sentence's phrases (split at commas, semicolons and brackets)."""
    start = 0
    for match in re.finditer(r"[,;()]|\bwith\b|\band\b|\bwhere\b|\bwhich\b", sentence):
        if match.start() > start:
            yield start, match.start()
        start = match.end()
    if start < len(sentence):
        yield start, len(sentence)


def read_description(variant: Variant, lint_patterns: Sequence[re.Pattern[str]] = ()
                     ) -> SpecReport:
    """Every claim of the description checked against the rules (see the module); then the
    comment on the ``win`` rule, which ``patience rules`` and the players' rules show as what
    wins, read with the claims of what wins (``WIN_CLAIMS``)."""
    from patience.rulestext import comment_at

    reader = SpecReader(variant)
    unchecked = _read(reader, variant.description, VOCABULARY, lint_patterns)
    comment = comment_at(variant.win.origin)
    if comment and variant.win.origin is not None:
        location = variant.win.origin.location()
        reader.where = f"{Path(location.path).name}:{location.line} (the comment on win)"
        wins = [entry for entry in VOCABULARY if entry[0] in WIN_CLAIMS]
        unchecked += [f"the comment on win: {piece}" for piece in _read(reader, comment, wins)]
    return SpecReport(tuple(reader.findings), tuple(reader.checked), tuple(unchecked))


def _read(reader: SpecReader, text: str,
          vocabulary: Sequence[tuple[str, re.Pattern[str], Handler, str]],
          lint_patterns: Sequence[re.Pattern[str]] = ()) -> list[str]:
    """Check every claim of ``text`` in ``vocabulary``; the phrases no claim read."""
    covered: list[tuple[int, int]] = []
    for sentence_match in re.finditer(r"[^.;]+", text):
        sentence = sentence_match.group(0)
        offset = sentence_match.start()
        for name, pattern, handler, _words in vocabulary:
            for match in pattern.finditer(sentence):
                if name not in ("redeals", "no stock") and negated(sentence, match.start()):
                    continue  # 'a King may not …': listed as unchecked unless read elsewhere
                before = len(reader.findings) + len(reader.checked)
                handler(reader, _phrase_of(sentence, match), match, sentence)
                if len(reader.findings) + len(reader.checked) > before:
                    covered.append((offset + match.start(), offset + match.end()))
        for pattern in lint_patterns:
            for match in pattern.finditer(sentence):
                covered.append((offset + match.start(), offset + match.end()))
    unchecked = []
    for sentence_match in re.finditer(r"[^.;]+", text):
        sentence = sentence_match.group(0)
        offset = sentence_match.start()
        for start, end in _phrases(sentence):
            piece = sentence[start:end].strip(" ,;")
            if not re.search(r"[A-Za-z]{3}", piece):
                continue
            s, e = offset + start, offset + end
            if not any(a < e and s < b for a, b in covered):
                unchecked.append(piece)
    return unchecked


def _phrase_of(sentence: str, match: re.Match[str]) -> str:
    """The part of the sentence around a match, between commas (the claim's context)."""
    start = max(sentence.rfind(",", 0, match.start()), sentence.rfind(";", 0, match.start()))
    end_candidates = [i for i in (sentence.find(",", match.end()), sentence.find(";", match.end()))
                      if i >= 0]
    end = min(end_candidates) if end_candidates else len(sentence)
    return sentence[start + 1:end].strip()


def vocabulary_table() -> str:
    """The vocabulary as a Markdown table (docs/authoring.md shows it; a test compares)."""
    lines = ["| claim | what the description may say |", "|---|---|"]
    lines += [f"| {name} | {words} |" for name, _pattern, _handler, words in VOCABULARY]
    return "\n".join(lines)
