"""Mutation testing of a variant's own rules: ``patience test FILE --mutants``.

Each *mutant* is the variant with one small change an author could make by mistake: a
comparison flipped (``==`` to ``!=``, ``<`` to ``<=`` …), one side of an ``and``/``or``
dropped, a whole number or a rank name changed by one, ``pile.empty`` turned into ``not
pile.empty`` (and back), a ``source in GROUP`` dropped, a subtraction's operands swapped, a
``% 13`` dropped or added, suits compared where colours were (or the other way), a
predicate call's two arguments swapped, a parameter changed (a number by one, true to
false), a pile group's ``count``, ``deal``, ``face_down``, ``fill_from``, ``removal`` or
``lands``, or the stock's ``turn``, ``redeals`` or ``empty_piles``, changed. For each mutant:

1. the loader may refuse it (the change breaks a type or a guard): *caught by the loader*;
2. if it plays exactly like the variant on the sample — the same start, the same legal
   moves, the same position after each move and the same ``is_won`` along random lines
   and the solver's winning lines from several deals, and the same perft 2 at each start —
   and the file's expectations (but ``winnable``) still hold, it is *equivalent* and not
   counted (it may still differ somewhere neither reaches: the sample is reported);
3. otherwise the checks run on it, cheapest first, until one fails: the file's ``expect:``
   entries, the semantic checks (``patience.testing.semantic``, the cheap ones), the lint,
   then the battery on a few examples (its costliest checks, the solver's and the suit
   relabelling, left out). A mutant no check notices *survives*: some rule is
   untested, and the report names it with its file and line, and the ``expect:`` entry
   that the smallest separating position of the sample gives (:func:`separating_example`).

>>> from patience import find_variant
>>> found = mutants(find_variant("tabbycat"))
>>> len(found) > 50, found[0].rule
(True, 'predicate goes_on')
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import attrs

from patience.definition import read_merged
from patience.errors import Location, PatienceError
from patience.language import (
    BUILTIN_CONSTANTS,
    Arithmetic,
    Attribute,
    BoolOp,
    Call,
    Compare,
    Integer,
    Member,
    Name,
    Not,
    walk,
)
from patience.source import Mapping, Origin, Sequence
from patience.testing.changed import load_mutant_flat

if TYPE_CHECKING:
    from patience.testing.semantic import Line
    from patience.variant import Variant

__all__ = ["Mutant", "MutantResult", "MutationReport", "mutants", "run_mutants",
           "separating_example"]

NEGATED = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}
BOUNDARY = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
SAMPLE_DEALS = (1, 2, 3, 4)  # the deals the sample starts from
BATTERY_EXAMPLES = 3  # examples per battery check on a mutant that passes the rest
BATTERY_MAX_COST = 4  # the battery checks a mutant runs: all but the costliest (solver, relabel)


@attrs.frozen
class Mutant:
    """One small change: where, what it changes, and the changed definition as plain data."""

    rule: str  # the key changed: 'piles.columns.accepts', 'predicate goes_on', 'decks'
    change: str  # e.g. "'==' -> '!='"; "drop 'pile.empty'"
    before: str  # the rule's text (or the value) as written
    after: str  # the text (or the value) the mutant has
    location: Location | None
    flat: dict[str, Any] = attrs.field(repr=False, eq=False)
    in_rule: bool = True  # a change inside a rule's text (not a setting such as 'count')

    def __str__(self) -> str:
        where = f"{self.location.path}:{self.location.line}: " if self.location else ""
        return f"{where}{self.rule}: {self.change}"


@attrs.frozen
class MutantResult:
    """What became of one mutant: ``loader`` (refused when it loads), ``equivalent``,
    ``killed`` (``by`` names the check) or ``survived``."""

    mutant: Mutant
    status: str
    by: str = ""
    difference: str = ""  # where it plays differently (for killed and survived mutants)
    seconds: float = 0.0
    example: str = ""  # for a survivor: an expect: entry the smallest separating position gives


@attrs.frozen
class MutationReport:
    variant: Variant
    results: tuple[MutantResult, ...]
    seconds: float
    sample: str  # what the equivalence sample was, in words
    complete: bool  # False when the time budget ran out before every mutant was tried
    #: the file's own first failing example: then no mutant is tried (each would be
    #: "caught" by an example that fails anyway)
    broken: str = ""

    @property
    def survivors(self) -> list[MutantResult]:
        return [r for r in self.results if r.status == "survived"]

    def counts(self) -> dict[str, int]:
        counts = {"loader": 0, "equivalent": 0, "killed": 0, "survived": 0}
        for result in self.results:
            counts[result.status] += 1
        return counts


# --- making mutants ----------------------------------------------------------------------


def mutants(variant: Variant) -> list[Mutant]:
    """Every mutant of the variant's rules, in file order of the rules (predicates first),
    duplicates (the same changed definition) left out."""
    from patience.variant import resolve

    merged = read_merged(variant.path, lambda name, directory: resolve(name, directory),
                         variant.text)
    flat = variant.definition.flat
    found: list[Mutant] = []
    seen: set[str] = set()

    def add(mutant: Mutant) -> None:
        import json

        key = json.dumps(mutant.flat, sort_keys=True, default=str)
        if key not in seen and mutant.after != mutant.before:
            seen.add(key)
            found.append(mutant)

    predicates = flat.get("predicates") or {}
    for key, text in predicates.items():
        if isinstance(text, str):
            name = key.split("(", 1)[0].strip()
            origin = _origin(merged, ("predicates", key))
            for mutant in _rule_mutants(f"predicate {name}", text, origin, flat,
                                        ("predicates", key)):
                add(mutant)
    for group, settings in (flat.get("piles") or {}).items():
        if not isinstance(settings, dict):
            continue
        for field in ("moves", "accepts", "to_bottom"):
            text = settings.get(field)
            if isinstance(text, str):
                path = ("piles", group, field)
                for mutant in _rule_mutants(".".join(path), text, _origin(merged, path),
                                            flat, path):
                    add(mutant)
    for number, entry in enumerate(flat.get("discards") or []):
        text = entry.get("when") if isinstance(entry, dict) else None
        if isinstance(text, str):  # a discard's rule: its path holds the entry's index
            path = ("discards", number, "when")
            for mutant in _rule_mutants(f"discards[{number + 1}].when", text,
                                        _origin(merged, path), flat, path):
                add(mutant)
    where: tuple[str, ...]
    for where in (("stock", "deal_when"), ("stock", "gather", "keep"),
                  ("stock", "gather", "gaps"), ("win",)):
        text = _get(flat, where)
        if isinstance(text, str):
            for mutant in _rule_mutants(".".join(where), text, _origin(merged, where), flat,
                                        where):
                add(mutant)
    for mutant in _setting_mutants(flat, merged):
        add(mutant)
    return found


def _get(flat: dict[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = flat
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value


def _with(flat: dict[str, Any], path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(flat)
    place: Any = changed  # mappings, and lists (the discards) indexed by number
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = value
    return changed


def _origin(merged: Mapping, path: tuple[str | int, ...]) -> Origin | None:
    item: Any = merged
    for key in path:
        if isinstance(key, int):  # an entry of a list (a discard)
            if not isinstance(item, Sequence) or not 0 <= key < len(item.items):
                return None
        elif not isinstance(item, Mapping) or key not in item.items:
            return None
        item = item.items[key]
    return item.origin  # type: ignore[no-any-return]


Edit = tuple[str, str, tuple[int, int]]  # (change in words, new text, span changed)


def _edits(text: str) -> Iterator[Edit]:
    """(change in words, new text, span changed) for each mutation of the expression."""
    from patience.language import parse_expression

    for sub in walk(parse_expression(text)):
        edits = NODE_EDITS.get(type(sub))
        if edits is not None:
            yield from edits(text, sub)


def _compare_edits(text: str, sub: Compare) -> Iterator[Edit]:
    """The comparison negated, its boundary moved, suits read as colours (or back)."""
    start, end = sub.span
    gap = text[sub.left.span[1]:sub.right.span[0]]
    at = sub.left.span[1] + gap.index(sub.op)
    for other in dict.fromkeys((NEGATED[sub.op], BOUNDARY.get(sub.op))):
        if other is not None:
            yield (f"{sub.op!r} -> {other!r} in {text[start:end]!r}",
                   text[:at] + other + text[at + len(sub.op):], (start, end))
    yield from _suit_colour(text, sub)


def _arithmetic_edits(text: str, sub: Arithmetic) -> Iterator[Edit]:
    """Operands swapped where the order matters; a ``%`` dropped, or a ``% 13`` added to
    a sum or difference of ranks."""
    start, end = sub.span
    left = text[sub.left.span[0]:sub.left.span[1]]
    right = text[sub.right.span[0]:sub.right.span[1]]
    shown = text[start:end]
    if sub.op in ("-", "//", "%", "**"):
        yield (f"operands swapped in {shown!r}",
               text[:start] + f"(({right}) {sub.op} ({left}))" + text[end:], sub.span)
    if sub.op == "%":
        yield (f"drop '% {right}' from {shown!r}",
               text[:start] + f"({left})" + text[end:], sub.span)
    elif sub.op in ("+", "-") and "rank" in shown:
        yield (f"add '% 13' to {shown!r}",
               text[:start] + f"(({shown}) % 13)" + text[end:], sub.span)


def _call_edits(text: str, sub: Call) -> Iterator[Edit]:
    """A two-argument call's arguments swapped (unless they are the same)."""
    if len(sub.args) != 2:
        return
    start, end = sub.span
    first = text[sub.args[0].span[0]:sub.args[0].span[1]]
    second = text[sub.args[1].span[0]:sub.args[1].span[1]]
    if first != second:
        yield (f"arguments swapped in {text[start:end]!r}",
               text[:start] + f"{sub.function}({second}, {first})" + text[end:], sub.span)


def _bool_op_edits(text: str, sub: BoolOp) -> Iterator[Edit]:
    """Each operand of an ``and``/``or`` dropped in turn."""
    start, end = sub.span
    for index, value in enumerate(sub.values):
        rest = [text[v.span[0]:v.span[1]] for i, v in enumerate(sub.values) if i != index]
        joined = f" {sub.op} ".join(rest)
        shown = text[value.span[0]:value.span[1]]
        yield (f"drop {shown!r} from {sub.op!r}",
               text[:start] + f"({joined})" + text[end:], value.span)


def _integer_edits(text: str, sub: Integer) -> Iterator[Edit]:
    """A whole number one less (not below 0) and one more."""
    start, end = sub.span
    for step in (-1, 1):
        if sub.value + step >= 0:
            yield (f"{sub.value} -> {sub.value + step}",
                   text[:start] + str(sub.value + step) + text[end:], sub.span)


def _rank_name_edits(text: str, sub: Name) -> Iterator[Edit]:
    """A rank name (A, J, Q, K) one rank lower and one higher."""
    if sub.id not in RANK_NAMES.values():
        return
    start, end = sub.span
    rank = BUILTIN_CONSTANTS[sub.id][1]
    for step in (-1, 1):
        other = RANK_NAMES.get(rank + step, str(rank + step))
        yield (f"{sub.id} -> {other}", text[:start] + other + text[end:], sub.span)


def _empty_edits(text: str, sub: Attribute) -> Iterator[Edit]:
    """``pile.empty`` turned into ``not pile.empty``."""
    if sub.name != "empty":
        return
    start, end = sub.span
    shown = text[start:end]
    yield (f"{shown!r} -> 'not {shown}'", text[:start] + f"(not {shown})" + text[end:],
           sub.span)


def _not_empty_edits(text: str, sub: Not) -> Iterator[Edit]:
    """``not pile.empty`` turned into ``pile.empty``."""
    if not (isinstance(sub.operand, Attribute) and sub.operand.name == "empty"):
        return
    start, end = sub.span
    inner = text[sub.operand.span[0]:sub.operand.span[1]]
    yield (f"{text[start:end]!r} -> {inner!r}", text[:start] + inner + text[end:], sub.span)


def _member_edits(text: str, sub: Member) -> Iterator[Edit]:
    """``source in GROUP`` dropped (made true)."""
    start, end = sub.span
    yield (f"drop {text[start:end]!r}", text[:start] + "true" + text[end:], sub.span)


#: the mutations of each kind of node of an expression
NODE_EDITS: dict[type, Callable[[str, Any], Iterator[Edit]]] = {
    Compare: _compare_edits, Arithmetic: _arithmetic_edits, Call: _call_edits,
    BoolOp: _bool_op_edits, Integer: _integer_edits, Name: _rank_name_edits,
    Attribute: _empty_edits, Not: _not_empty_edits, Member: _member_edits,
}


def _suit_colour(text: str, compare: Compare) -> Iterator[Edit]:
    """``card.suit == base.suit`` <-> ``card.color == base.color``: a comparison of suits
    read as one of colours (or the other way), both sides at once (the types must agree)."""
    sides = (compare.left, compare.right)
    if not all(isinstance(side, Attribute) and side.name in ("suit", "color")
               for side in sides):
        return
    names = {side.name for side in sides if isinstance(side, Attribute)}
    if len(names) != 1:
        return
    name = names.pop()
    other = "color" if name == "suit" else "suit"
    changed = text
    for side in sorted(sides, key=lambda node: -node.span[0]):
        begin, finish = side.span
        piece = text[begin:finish]
        changed = changed[:begin] + piece[:piece.rindex(name)] + other + changed[finish:]
    start, end = compare.span
    yield (f"{name} -> {other} in {text[start:end]!r}", changed, compare.span)


def _rule_mutants(rule: str, text: str, origin: Origin | None, flat: dict[str, Any],
                  path: tuple[str | int, ...]) -> Iterator[Mutant]:
    for change, changed, span in _edits(text):
        location = origin.location_of_span(text, span) if origin is not None else None
        yield Mutant(rule, change, text, changed, location, _with(flat, path, changed))


def _setting_mutants(flat: dict[str, Any], merged: Mapping) -> Iterator[Mutant]:
    """The mutants of the settings: the parameters, then each pile group's, then the
    stock's."""
    def mutant(path: tuple[str, ...], before: Any, after: Any) -> Mutant:
        origin = _origin(merged, path)
        return Mutant(".".join(path), f"{before!r} -> {after!r}", repr(before), repr(after),
                      origin.location() if origin else None, _with(flat, path, after),
                      in_rule=False)

    for path, before, after in _parameter_changes(flat):
        yield mutant(path, before, after)
    for group, settings in (flat.get("piles") or {}).items():
        if not isinstance(settings, dict):
            continue
        for field, before, after in [*_pile_number_changes(settings),
                                     *_fill_changes(flat, group, settings),
                                     *_removal_changes(settings),
                                     *_lands_changes(settings)]:
            yield mutant(("piles", group, field), before, after)
    for path, before, after in [*_stock_changes(flat), *_gather_changes(flat)]:
        yield mutant(path, before, after)


def _parameter_changes(flat: dict[str, Any]) -> Iterator[tuple[tuple[str, ...], Any, Any]]:
    """(path, value, changed value): a true parameter made false (and back), a whole
    number one less and one more."""
    for name, value in (flat.get("parameters") or {}).items():
        path = ("parameters", name)
        if isinstance(value, bool):
            yield path, value, not value
        elif isinstance(value, int):
            for step in (-1, 1):
                yield path, value, value + step


def _pile_number_changes(settings: dict[str, Any]) -> Iterator[tuple[str, Any, Any]]:
    """(field, value, changed value): a pile group's ``count``, ``deal`` or ``face_down``
    one less and one more (for a list, its first and last pile's): never fewer than one
    pile, nor fewer than no cards."""
    # face_down too: a start that differs only in which cards show is told apart by an
    # expect: entry's 'shows' (the position text writes face-down cards in lower case)
    for field in ("count", "deal", "face_down"):
        value = settings.get(field)
        if isinstance(value, int) and not isinstance(value, bool):
            for step in (-1, 1):
                if value + step >= (1 if field == "count" else 0):
                    yield field, value, value + step
        elif isinstance(value, list) and value and all(
                isinstance(v, int) and not isinstance(v, bool) for v in value):
            for index in dict.fromkeys((0, len(value) - 1)):  # the first and last pile
                for step in (-1, 1):
                    if value[index] + step >= 0:
                        changed = list(value)
                        changed[index] += step
                        yield field, value, changed


def _fill_changes(flat: dict[str, Any], group: str,
                  settings: dict[str, Any]) -> Iterator[tuple[str, Any, Any]]:
    """('fill_from', group, other group): a gap filled from another group (or the stock)."""
    fill = settings.get("fill_from")
    if not isinstance(fill, str):
        return
    # not a group that fills from this one: a cycle of fills (a gap filled from a pile that a
    # gap of its own refills) would never stop
    groups = flat.get("piles") or {}
    others = [name for name, other in groups.items() if name not in (group, fill)
              and not (isinstance(other, dict) and other.get("fill_from") == group)]
    for other in ([*others[:2], "stock"] if fill != "stock" else others[:3]):
        yield "fill_from", fill, other


def _removal_changes(settings: dict[str, Any]) -> Iterator[tuple[str, Any, Any]]:
    """('removal', value, other): a written ``removal`` turned from optional to forced or
    back."""
    removal = settings.get("removal", "optional")
    other = {"optional": "forced", "forced": "optional"}.get(removal)
    if other is not None and "removal" in settings:
        yield "removal", removal, other


def _lands_changes(settings: dict[str, Any]) -> Iterator[tuple[str, Any, Any]]:
    """('lands', value, other): a written ``lands`` turned from top to bottom or back."""
    lands = settings.get("lands")
    other = {"top": "bottom", "bottom": "top"}.get(lands) if isinstance(lands, str) else None
    if other is not None:
        yield "lands", lands, other


def _stock_changes(flat: dict[str, Any]) -> Iterator[tuple[tuple[str, ...], Any, Any]]:
    """(path, value, changed value): a stock that deals turning one card fewer or more,
    redealt once fewer or more (unlimited: twice), and passing over empty piles or not."""
    stock = flat.get("stock")
    if not (isinstance(stock, dict) and stock.get("deals_to")):
        return
    for field, low in (("turn", 1), ("redeals", 0)):
        value = stock.get(field, 1 if field == "turn" else 0)
        if value == "unlimited":
            yield ("stock", field), value, 2
        elif isinstance(value, int) and not isinstance(value, bool):
            for step in (-1, 1):
                if value + step >= low:
                    yield ("stock", field), value, value + step
    empty = stock.get("empty_piles", "include")
    other = {"include": "skip", "skip": "include"}.get(empty)
    if other is not None:
        yield ("stock", "empty_piles"), empty, other


def _gather_changes(flat: dict[str, Any]) -> Iterator[tuple[tuple[str, ...], Any, Any]]:
    """The redeal that gathers piles (``stock.gather``): how many cards a pile, how many
    times (each one less and one more), shuffled or not."""
    stock = flat.get("stock")
    gather = stock.get("gather") if isinstance(stock, dict) else None
    if not isinstance(gather, dict):
        return
    for field in ("deal", "redeals"):
        value = gather.get(field)
        if value == "unlimited":
            yield ("stock", "gather", field), value, 2
        elif isinstance(value, int) and not isinstance(value, bool):
            for step in (-1, 1):
                if value + step >= 1:
                    yield ("stock", "gather", field), value, value + step
    shuffle = gather.get("shuffle", False)
    if isinstance(shuffle, bool):
        yield ("stock", "gather", "shuffle"), shuffle, not shuffle


def load_mutant(variant: Variant, mutant: Mutant) -> Variant | None:
    """The mutant compiled, or None when the loader refuses it."""
    return load_mutant_flat(variant, mutant.flat)


# --- the sample and equivalence -----------------------------------------------------------


def difference(variant: Variant, other: Variant, lines: list[Line]) -> str | None:
    """Where ``other`` plays differently from ``variant`` on the sampled lines (in words),
    or None when it plays the same everywhere on them."""
    from patience.perft import perft

    for line in lines:
        mine = line.start()
        try:
            theirs = other.position(mine.text()) if line.deal is None else \
                other.deal(line.deal)
        except PatienceError as error:
            return f"the start {line.describe()} cannot be set up: {error}"
        if theirs.text() != mine.text():
            return f"the start {line.describe()} differs: {theirs.text()}"
        if perft(mine, 2) != perft(theirs, 2):
            return (f"perft 2 at {line.describe()} is {perft(theirs, 2)}, not "
                    f"{perft(mine, 2)}")
        for number, move in enumerate([*line.moves, None]):
            a = sorted(mine.generate_moves())
            b = sorted(theirs.generate_moves())
            if a != b:
                extra = sorted(_written(variant, m) for m in set(b) - set(a))
                missing = sorted(_written(variant, m) for m in set(a) - set(b))
                parts = ([f"also allows {' '.join(extra)}"] if extra else []) + \
                    ([f"forbids {' '.join(missing)}"] if missing else [])
                return (f"at {line.describe()} after {number} moves ({mine.text()}) it "
                        f"{' and '.join(parts)}")
            if mine.is_won() != theirs.is_won():
                return (f"at {line.describe()} after {number} moves the game is "
                        f"{'won' if theirs.is_won() else 'not won'} ({mine.text()})")
            if move is None:
                break
            mine.push_unchecked(move)
            theirs.push_unchecked(move)
            if mine.text() != theirs.text():
                return (f"at {line.describe()}, move {number + 1} ({_shown(line, number)}) "
                        f"leaves {theirs.text()}, not {mine.text()}")
    return None


def separating_example(variant: Variant, other: Variant, lines: list[Line]) -> str | None:
    """The smallest position of the sample (the fewest moves from its deal) where ``other``
    allows different moves, written as an ``expect:`` entry that tells the two apart."""
    best: tuple[int, str] | None = None
    for line in lines:
        mine = line.start()
        try:
            theirs = other.deal(line.deal) if line.deal is not None else \
                other.position(mine.text())
        except PatienceError:
            return None
        if theirs.text() != mine.text():
            return (f"- name: deal {line.deal}\n  deal: {line.deal}\n"
                    f"  shows: \"{mine.text()}\"")
        for number, move in enumerate([*line.moves, None]):
            if best is not None and number >= best[0]:
                break
            a, b = set(mine.generate_moves()), set(theirs.generate_moves())
            if a != b:
                legal = sorted(mine.notation(m) for m in a - b)
                illegal = sorted(mine.notation(m) for m in b - a)
                entry = [(f"- name: after {number} move{'s' if number != 1 else ''} of "
                         f"{line.describe()}"),
                         f"  position: \"{mine.text()}\""]
                if legal:
                    entry.append(f"  legal: [{', '.join(legal[:3])}]")
                if illegal:
                    entry.append(f"  illegal: [{', '.join(illegal[:3])}]")
                best = (number, "\n".join(entry))
                break
            if move is None:
                break
            mine.push_unchecked(move)
            theirs.push_unchecked(move)
    return best[1] if best is not None else None


def _written(variant: Variant, move: tuple[int, int, int]) -> str:
    """A move with its real target pile (``c3:13-f2``): two moves to the first empty
    foundation are told apart."""
    source, count, target = move
    if source < -1:  # a discard: its piles
        return "+".join(variant.pile_names[i] for i in variant.discard_sets[-2 - source])
    if source < 0:
        return "d"
    return f"{variant.pile_names[source]}:{count}-{variant.pile_names[target]}"


def _shown(line: Line, number: int) -> str:
    return line.notation[number] if number < len(line.notation) else "?"


# --- running -----------------------------------------------------------------------------


def _killed_by(variant: Variant, mutated: Variant, lines: list[Line]) -> str | None:
    """The first check that notices the mutant, cheapest first, or None."""
    from patience.testing.expectations import check_expectations
    from patience.testing.lint import lint
    from patience.testing.semantic import semantic_findings

    expectations = variant.definition.expectations
    failures = check_expectations(mutated, expectations, solver=False, first_only=True)
    if failures:
        return f"expect ({failures[0]})"
    failures = check_expectations(mutated, tuple(e for e in expectations
                                                 if e.winnable is not None),
                                  first_only=True)
    if failures:
        return f"expect ({failures[0]})"
    known = {(f.check, f.rule) for f in semantic_findings(variant, cheap=True,
                                                          lines=lines)}
    findings = [f for f in semantic_findings(mutated, cheap=True)
                if (f.check, f.rule) not in known]
    if findings:
        return f"semantic ({findings[0]})"
    found = lint(mutated)
    if found:
        return f"lint ({found[0]})"
    from patience.testing.battery import CHECKS, run_check, run_play_machine

    for check in CHECKS.values():
        if check.cost > BATTERY_MAX_COST:
            continue
        outcome = run_check(mutated, check, examples=BATTERY_EXAMPLES, derandomize=True,
                            near_wins=False)
        if outcome.status == "failed":
            return f"battery {check.name} ({outcome.message.splitlines()[0]})"
    outcome = run_play_machine(mutated, examples=BATTERY_EXAMPLES, derandomize=True)
    if outcome.status == "failed":
        return "battery play_undo_redo"
    return None


def try_mutant(variant: Variant, mutant: Mutant, lines: list[Line]) -> MutantResult:
    """What becomes of one mutant, judged against ``lines`` (the variant's sample)."""
    began = time.perf_counter()
    mutated = load_mutant(variant, mutant)
    if mutated is None:
        result = MutantResult(mutant, "loader")
    else:
        differs = difference(variant, mutated, lines)
        if differs is None:  # the expectations' positions extend the sample
            from patience.testing.expectations import check_expectations

            failures = check_expectations(mutated, variant.definition.expectations,
                                          solver=False, first_only=True)
            if failures:
                differs = f"at {failures[0].expectation.label}'s position"
        if differs is None:
            result = MutantResult(mutant, "equivalent")
        else:
            by = _killed_by(variant, mutated, lines)
            result = MutantResult(mutant, "killed" if by else "survived", by or "", differs)
            if not by:
                example = separating_example(variant, mutated, lines)
                result = attrs.evolve(result, example=example or "")
    return attrs.evolve(result, seconds=time.perf_counter() - began)


def run_mutants(variant: Variant, *, seconds: float | None = None,
                on_result: Callable[[MutantResult], None] | None = None) -> MutationReport:
    """Make every mutant and try it; stop trying new ones after ``seconds``."""
    from patience.testing.expectations import check_expectations
    from patience.testing.semantic import sample_lines

    started = time.perf_counter()
    failures = check_expectations(variant, variant.definition.expectations, solver=False,
                                  first_only=True)
    if failures:
        return MutationReport(variant, (), time.perf_counter() - started, "", False,
                              broken=str(failures[0]).splitlines()[0])
    lines = sample_lines(variant, SAMPLE_DEALS)
    moves = sum(len(line.moves) for line in lines)
    sample = (f"{len(lines)} lines from deals {', '.join(map(str, SAMPLE_DEALS))} "
              f"({moves} moves: random play and the solver's winning lines)")
    results = []
    complete = True
    for mutant in mutants(variant):
        if seconds is not None and time.perf_counter() - started > seconds:
            complete = False
            break
        result = try_mutant(variant, mutant, lines)
        results.append(result)
        if on_result is not None:
            on_result(result)
    return MutationReport(variant, tuple(results), time.perf_counter() - started, sample,
                          complete)


def describe(result: MutantResult) -> str:
    """A surviving (or other) mutant in the report's words."""
    mutant = result.mutant
    lines = [f"{mutant}"]
    if mutant.in_rule:
        lines.append(f"  {mutant.before}  ->  {mutant.after}")
    if result.difference:
        lines.append(f"  plays differently: {result.difference}")
    if result.example:
        lines.append("  an expect: entry that catches it (the smallest position that tells "
                     "them apart):")
        lines += [f"    {line}" for line in result.example.splitlines()]
    return "\n".join(lines)
