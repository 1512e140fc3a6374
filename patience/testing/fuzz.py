"""Random variant files, valid and invalid, to test the loader and the kernel themselves.

:func:`variant_texts` draws whole variant files: random pile groups, counts, deals, stock
settings, parameters, predicates and well-typed rule expressions, with a share of mistakes
mixed in (unknown names, wrong types, missing keys, values out of range, broken YAML).
:func:`probe` loads one: it must either be rejected with a located ``VariantError`` or
load and pass a quick battery. Anything else — a traceback, a hang, an unlocated error —
is a kernel bug.

>>> from hypothesis import given, settings
>>> @settings(max_examples=5, deadline=None, database=None)
... @given(variant_texts())
... def test(text):
...     assert probe(text).status in ("loaded", "rejected")
>>> test()
"""

from __future__ import annotations

import random
import signal
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import attrs
import yaml
from hypothesis import strategies as st

__all__ = ["FuzzResult", "probe", "variant_texts"]

NAMES = ("columns", "tail", "foundations", "reserve", "cells", "waste")
IDS = ("c", "t", "f", "r", "x", "w")
RANK_NAMES = ("A", "J", "Q", "K")
SUITS = ("C", "D", "H", "S", "clubs", "diamonds", "hearts", "spades")
JUNK = ("foo", "run.colour", "pile.top.rank.rank", "1 +", "(", "card", "and", "rank",
        "pile in nowhere", "all x in pairs(run) x", "goes_on(", "13 == ", "source.top",
        "any p in columns: p", "pile.size // run.size", "\u00e9t\u00e9", "")


@attrs.frozen
class _Context:
    variables: dict[str, str]  # name -> type: card, run, pile, int, bool
    nonempty: frozenset[str]
    groups: tuple[str, ...]
    parameters: dict[str, str]  # name -> "int" | "bool"
    predicates: tuple[tuple[str, tuple[str, ...]], ...]  # name, parameter types
    table: bool = True  # may read the stock and the piles (not to_bottom: before the deal)

    def of(self, type_: str) -> list[str]:
        return [n for n, t in self.variables.items() if t == type_]

    def has(self, type_: str) -> bool:
        if type_ == "card":
            return bool(self.of("card") or self.of("run")
                        or any(p in self.nonempty for p in self.of("pile")))
        return bool(self.of(type_)) or type_ == "int"

    def callable(self) -> list[tuple[str, tuple[str, ...]]]:
        return [(name, types) for name, types in self.predicates
                if all(self.has(t) for t in types)]

    def bind(self, names: dict[str, str], nonempty: frozenset[str] = frozenset()) -> _Context:
        return attrs.evolve(self, variables={**self.variables, **names},
                            nonempty=self.nonempty | nonempty)


def _junk(draw: st.DrawFn, chance: float) -> str | None:
    if chance and draw(st.floats(0, 1)) < chance:
        return draw(st.sampled_from(JUNK))
    return None


def _int(draw: st.DrawFn, ctx: _Context, depth: int, junk: float) -> str:
    bad = _junk(draw, junk)
    if bad is not None:
        return bad
    options = ["literal", "rank"]
    if ctx.has("card"):
        options.append("card_rank")
    if ctx.of("run") or ctx.of("pile"):
        options.append("size")
    if [p for p, t in ctx.parameters.items() if t == "int"]:
        options.append("parameter")
    if ctx.table:
        options.append("stock")
    if depth > 0:
        options += ["arithmetic", "arithmetic", "division", "negate"]
        if ctx.table and ctx.groups:
            options.append("count")
    kind = draw(st.sampled_from(options))
    if kind == "stock":
        return "stock.size"
    if kind == "count":
        group = draw(st.sampled_from(ctx.groups))
        body = _bool(draw, ctx.bind({"n": "pile"}), depth - 1, junk)
        return f"count(n in {group}: {body})"
    if kind == "literal":
        return str(draw(st.integers(0, 14)))
    if kind == "rank":
        return draw(st.sampled_from(RANK_NAMES))
    if kind == "card_rank":
        return f"{_card(draw, ctx, junk)}.rank"
    if kind == "size":
        return f"{draw(st.sampled_from(ctx.of('run') + ctx.of('pile')))}.size"
    if kind == "parameter":
        return draw(st.sampled_from([p for p, t in ctx.parameters.items() if t == "int"]))
    if kind == "negate":
        return f"-{_int(draw, ctx, depth - 1, junk)}"
    left = _int(draw, ctx, depth - 1, junk)
    if kind == "division":
        op = draw(st.sampled_from(["//", "%"]))
        return f"({left} {op} {draw(st.sampled_from(['0', '1', '2', '4', '13', 'K']))})"
    op = draw(st.sampled_from(["+", "-", "*"]))
    return f"({left} {op} {_int(draw, ctx, depth - 1, junk)})"


def _card(draw: st.DrawFn, ctx: _Context, junk: float) -> str:
    options = [f"{c}" for c in ctx.of("card")]
    options += [f"{r}.{end}" for r in ctx.of("run") for end in ("top", "bottom")]
    options += [f"{p}.{end}" for p in ctx.of("pile") for end in ("top", "bottom")
                if p in ctx.nonempty or draw(st.floats(0, 1)) < junk]
    if not options:
        return draw(st.sampled_from(JUNK)) if junk else "run.top"
    return draw(st.sampled_from(options))


def _bool_options(ctx: _Context, depth: int) -> list[str]:
    """The kinds of bool expression that can be written in ``ctx`` at ``depth``."""
    options = ["constant", "compare", "compare"]
    if ctx.has("card"):
        options += ["suit", "color"]
    if ctx.of("pile"):
        options += ["empty", "member"]
    if [p for p, t in ctx.parameters.items() if t == "bool"]:
        options.append("parameter")
    if ctx.callable():
        options.append("call")
    if ctx.table:
        options.append("stock")
    if depth > 0:
        options += ["and", "or", "not", "guard"]
        if ctx.of("run") or ctx.of("pile"):
            options.append("pairs")
        if ctx.groups and ctx.table:
            options.append("group")
    return options


def _bool(draw: st.DrawFn, ctx: _Context, depth: int, junk: float) -> str:
    bad = _junk(draw, junk)
    if bad is not None:
        return bad
    kind = draw(st.sampled_from(_bool_options(ctx, depth)))
    return _BOOL_KINDS[kind](draw, ctx, depth, junk, kind)


def _constant(draw: st.DrawFn, ctx: _Context, depth: int, junk: float, kind: str) -> str:
    return draw(st.sampled_from(["true", "false"]))


def _compare(draw: st.DrawFn, ctx: _Context, depth: int, junk: float, kind: str) -> str:
    op = draw(st.sampled_from(["==", "!=", "<", "<=", ">", ">="]))
    return f"{_int(draw, ctx, depth, junk)} {op} {_int(draw, ctx, depth, junk)}"


def _suit_or_color(draw: st.DrawFn, ctx: _Context, depth: int, junk: float, kind: str) -> str:
    card = _card(draw, ctx, junk)
    other = draw(st.sampled_from(SUITS if kind == "suit" else ("red", "black")))
    if draw(st.booleans()):
        other = f"{_card(draw, ctx, junk)}.{kind}"
    return f"{card}.{kind} {draw(st.sampled_from(['==', '!=']))} {other}"


def _stock(draw: st.DrawFn, ctx: _Context, depth: int, junk: float, kind: str) -> str:
    return draw(st.sampled_from(["stock.empty", "not stock.empty"]))


def _empty(draw: st.DrawFn, ctx: _Context, depth: int, junk: float, kind: str) -> str:
    return f"{draw(st.sampled_from(ctx.of('pile')))}.empty"


def _member(draw: st.DrawFn, ctx: _Context, depth: int, junk: float, kind: str) -> str:
    pile = draw(st.sampled_from(ctx.of("pile")))
    group = draw(st.sampled_from(ctx.groups or ("nowhere",)))
    return f"{pile} {draw(st.sampled_from(['in', 'not in']))} {group}"


def _bool_parameter(draw: st.DrawFn, ctx: _Context, depth: int, junk: float,
                    kind: str) -> str:
    return draw(st.sampled_from([p for p, t in ctx.parameters.items() if t == "bool"]))


def _call(draw: st.DrawFn, ctx: _Context, depth: int, junk: float, kind: str) -> str:
    name, types = draw(st.sampled_from(ctx.callable()))
    args = []
    for type_ in types:
        if type_ == "card":
            args.append(_card(draw, ctx, junk))
        elif type_ == "int":
            args.append(_int(draw, ctx, 1, junk))
        else:
            candidates = ctx.of(type_)
            args.append(draw(st.sampled_from(candidates)) if candidates else "run")
    return f"{name}({', '.join(args)})"


def _and_or(draw: st.DrawFn, ctx: _Context, depth: int, junk: float, kind: str) -> str:
    return (f"({_bool(draw, ctx, depth - 1, junk)} {kind} "
            f"{_bool(draw, ctx, depth - 1, junk)})")


def _not(draw: st.DrawFn, ctx: _Context, depth: int, junk: float, kind: str) -> str:
    return f"not {_bool(draw, ctx, depth - 1, junk)}"


def _guard(draw: st.DrawFn, ctx: _Context, depth: int, junk: float, kind: str) -> str:
    if not ctx.of("pile"):
        return _bool(draw, ctx, depth - 1, junk)
    guard = draw(st.sampled_from(ctx.of("pile")))
    guarded = _bool(draw, ctx.bind({}, frozenset({guard})), depth - 1, junk)
    if draw(st.booleans()):
        return f"({guard}.empty or {guarded})"
    return f"(not {guard}.empty and {guarded})"


def _pairs(draw: st.DrawFn, ctx: _Context, depth: int, junk: float, kind: str) -> str:
    """Over the pairs of a run, or of all the cards of a pile."""
    run = draw(st.sampled_from(ctx.of("run") + ctx.of("pile")))
    pairs = ctx.bind({"below": "card", "above": "card"})
    quantifier = draw(st.sampled_from(["all", "any"]))
    body = _bool(draw, pairs, depth - 1, junk)
    return f"({quantifier} below, above in pairs({run}): {body})"


def _group(draw: st.DrawFn, ctx: _Context, depth: int, junk: float, kind: str) -> str:
    group = draw(st.sampled_from(ctx.groups))
    piles = ctx.bind({"g": "pile"})
    quantifier = draw(st.sampled_from(["all", "any"]))
    return f"({quantifier} g in {group}: {_bool(draw, piles, depth - 1, junk)})"


_BoolKind = Callable[[st.DrawFn, _Context, int, float, str], str]
_BOOL_KINDS: dict[str, _BoolKind] = {
    "constant": _constant, "compare": _compare, "suit": _suit_or_color,
    "color": _suit_or_color, "stock": _stock, "empty": _empty, "member": _member,
    "parameter": _bool_parameter, "call": _call, "and": _and_or, "or": _and_or,
    "not": _not, "guard": _guard, "pairs": _pairs, "group": _group,
}


def _expression(draw: st.DrawFn, ctx: _Context, junk: float) -> str:
    return _bool(draw, ctx, draw(st.integers(0, 3)), junk)


PLACED = ("AC", "AD", "AH", "AS")  # in every deck (ranks from 1), once a deck


def _newer_group_keys(draw: st.DrawFn, group: dict[str, Any], name: str,
                      names: tuple[str, ...], ids: tuple[str, ...], base: _Context,
                      junk: float) -> None:
    """Sometimes ``place``, ``to_bottom``, ``deal_first`` and ``fill_from`` on a group
    (which may loop: the loader must refuse that with a location)."""
    if draw(st.floats(0, 1)) < 0.15:
        cards = draw(st.lists(st.sampled_from(PLACED), min_size=1, max_size=2, unique=True))
        group["place"] = [cards[0]] if len(cards) == 1 or draw(st.booleans()) else [cards]
    before_deal = attrs.evolve(base, groups=(), table=False,  # worked out before the deal
                               predicates=tuple(p for p in base.predicates
                                                if set(p[1]) <= {"card", "int"}))
    if draw(st.floats(0, 1)) < 0.15:  # the card alone
        group["to_bottom"] = _expression(draw, before_deal.bind({"card": "card"}), junk)
    if draw(st.floats(0, 1)) < 0.1:  # the card and the first card of the deck
        group["deal_first"] = _expression(
            draw, before_deal.bind({"card": "card", "first_card": "card"}), junk)
    if draw(st.floats(0, 1)) < 0.2:
        others = [n for n in names if n != name] + [i for n, i in zip(names, ids) if n != name]
        group["fill_from"] = draw(st.sampled_from([*others, "stock"]))


def _scalar_mistake(draw: st.DrawFn) -> Any:
    return draw(st.sampled_from([None, [], {}, "seven", -1, 0, 10**6, 3.5, True, [1, 2],
                                 {"a": 1}, "a\nb"]))


PARENTS = ("tabbycat", "manx", "tabbycat-loosetail", "manx-corner", "mainecoon")
PARENT_PREDICATES = (("goes_on", ("card", "card")), ("in_sequence", ("run",)),
                     ("complete_set", ("run",)))


def _child(draw: st.DrawFn, junk: float, mistakes: bool) -> dict[str, Any]:
    """A file that extends a shipped variant and overrides a few of its rules."""
    groups = ("columns", "tail", "foundations")
    ctx = _Context({}, frozenset(), groups, {"wrap": "bool"}, PARENT_PREDICATES)
    data: dict[str, Any] = {"extends": draw(st.sampled_from(PARENTS)), "id": "fuzz-child"}
    if draw(st.booleans()):
        data["parameters"] = {"wrap": draw(st.booleans())}
    if draw(st.booleans()):
        name = draw(st.sampled_from(["goes_on(card, base)", "in_sequence(run)",
                                     "complete_set(run)"]))
        params = {"goes_on(card, base)": {"card": "card", "base": "card"}}.get(
            name, {"run": "run"})
        data["predicates"] = {name: _expression(draw, ctx.bind(params), junk)}
    piles: dict[str, Any] = {}
    for group in draw(st.lists(st.sampled_from(groups), max_size=2, unique=True)):
        key = draw(st.sampled_from(["moves", "accepts", "removal", "target", "count", "deal"]))
        if key == "moves":
            value: Any = _expression(draw, ctx.bind({"pile": "pile", "run": "run"},
                                                    frozenset({"pile"})), junk)
        elif key == "accepts":
            value = _expression(draw, ctx.bind({"pile": "pile", "run": "run",
                                                "source": "pile"}, frozenset({"source"})),
                                junk)
        elif key == "removal":
            value = draw(st.sampled_from(["optional", "forced"]))
        elif key == "target":
            value = draw(st.sampled_from(["each", "first"]))
        else:
            value = draw(st.integers(0, 5))
        piles[group] = {key: value}
    if piles:
        data["piles"] = piles
    if draw(st.booleans()):
        data["stock"] = {"empty_piles": draw(st.sampled_from(["include", "skip"]))}
    if draw(st.floats(0, 1)) < 0.2:
        data["win"] = _expression(draw, ctx, junk)
    if mistakes and draw(st.booleans()):
        data["extends"] = draw(st.sampled_from(["nosuch", "../nowhere.yaml", 3, ["tabbycat"]]))
    return data


def _predicates(draw: st.DrawFn, base: _Context,
                junk: float) -> tuple[dict[str, str], list[tuple[str, tuple[str, ...]]]]:
    """Up to three predicates, each calling only those before it."""
    predicates: dict[str, str] = {}
    known: list[tuple[str, tuple[str, ...]]] = []
    for index in range(draw(st.integers(0, 3))):
        params = draw(st.lists(st.sampled_from(["card", "run", "pile", "int"]), min_size=1,
                               max_size=2))
        variables = {f"a{i}": t for i, t in enumerate(params)}
        signature = ", ".join(f"a{i}: {t}" if t != "card" else f"a{i}"
                              for i, t in enumerate(params))
        ctx = attrs.evolve(base, predicates=tuple(known)).bind(variables)
        predicates[f"q{index}({signature})"] = _expression(draw, ctx, junk)
        known.append((f"q{index}", tuple(params)))
    return predicates, known


def _pile_group(draw: st.DrawFn, name: str, id_: str, names: tuple[str, ...],
                ids: tuple[str, ...], base: _Context, junk: float) -> dict[str, Any]:
    group: dict[str, Any] = {
        "id": id_,
        "count": draw(st.integers(1, 5)),
        "moves": _expression(draw, base.bind({"pile": "pile", "run": "run"},
                                             frozenset({"pile"})), junk),
        "accepts": _expression(draw, base.bind(
            {"pile": "pile", "run": "run", "source": "pile"}, frozenset({"source"})),
            junk),
    }
    if draw(st.booleans()):
        group["deal"] = draw(st.integers(0, 3))
        if group["deal"] >= 2 and draw(st.booleans()):
            group["face_down"] = draw(st.integers(1, group["deal"] - 1))
    for key, values in (("target", ("each", "first")), ("removal", ("optional", "forced")),
                        ("show", ("fan", "stack"))):
        if draw(st.booleans()):
            group[key] = draw(st.sampled_from(values))
    _newer_group_keys(draw, group, name, names, ids, base, junk)
    return group


def _stock_section(draw: st.DrawFn, names: tuple[str, ...], ids: tuple[str, ...],
                   piles: dict[str, Any], base: _Context, junk: float) -> dict[str, Any]:
    targets = draw(st.lists(st.sampled_from(list(names) + [f"{ids[0]}1", ids[0]]),
                            min_size=1, max_size=2, unique=True))
    stock: dict[str, Any] = {"deals_to": targets}
    if draw(st.booleans()):
        stock["empty_piles"] = draw(st.sampled_from(["include", "skip"]))
    if draw(st.booleans()):
        stock["deal_when"] = _expression(draw, base, junk)
    if draw(st.floats(0, 1)) < 0.3:  # a waste: one pile, drawn 'turn' at a time, redealt
        waste = draw(st.sampled_from(names))
        piles[waste]["count"] = 1
        stock["deals_to"] = [waste]
        stock["turn"] = draw(st.integers(1, 3))
        stock["redeals"] = draw(st.sampled_from([0, 1, 2, "unlimited"]))
    return stock


def _file_mistakes(draw: st.DrawFn, data: dict[str, Any], piles: dict[str, Any],
                   names: tuple[str, ...]) -> None:
    """Up to two wrong values or missing keys, at the top, in a group or in the stock."""
    for _ in range(draw(st.integers(0, 2))):
        where = draw(st.sampled_from(["top", "group", "stock"]))
        if where == "top":
            key = draw(st.sampled_from(["id", "name", "description", "decks", "ranks",
                                        "piles", "win", "parameters", "predicates",
                                        "extras", "stock"]))
            if draw(st.booleans()):
                data.pop(key, None)
            else:
                data[key] = _scalar_mistake(draw)
        elif where == "group":
            group = piles[draw(st.sampled_from(names))]
            key = draw(st.sampled_from(["id", "count", "deal", "moves", "accepts",
                                        "target", "removal", "show", "colour"]))
            if draw(st.booleans()):
                group.pop(key, None)
            else:
                group[key] = draw(st.one_of(st.just(_scalar_mistake(draw)),
                                            st.integers(-2, 120)))
        elif isinstance(data.get("stock"), dict):
            data["stock"][draw(st.sampled_from(["deals_to", "empty_piles", "deal_when",
                                                "when"]))] = _scalar_mistake(draw)


def _damaged(draw: st.DrawFn, text: str) -> str:
    position = draw(st.integers(0, len(text)))
    cut = draw(st.integers(0, 8))
    insert = draw(st.sampled_from(["", ":", "- ", "\t", "{", "'", "\n  ", "#", "&a", "*a",
                                   "\n- x\n", "!!python/object:os.system ''"]))
    return text[:position] + insert + text[position + cut:]


@st.composite
def variant_texts(draw: st.DrawFn, junk: float = 0.01) -> str:
    """The text of a random variant file: mostly valid, sometimes wrong on purpose."""
    mistakes = draw(st.floats(0, 1)) < 0.25
    junk = junk if mistakes else 0.0
    if draw(st.floats(0, 1)) < 0.2:
        return str(yaml.safe_dump(_child(draw, junk, mistakes), sort_keys=False))
    count = draw(st.integers(1, 4))
    order = draw(st.permutations(range(len(NAMES))))[:count]
    names = tuple(NAMES[i] for i in order)
    ids = tuple(IDS[i] for i in order)
    parameters: dict[str, Any] = {}
    for index in range(draw(st.integers(0, 2))):
        parameters[f"p{index}"] = draw(st.one_of(st.booleans(), st.integers(-3, 14)))
    types = {k: ("bool" if isinstance(v, bool) else "int") for k, v in parameters.items()}
    base = _Context({}, frozenset(), names, types, ())
    predicates, known = _predicates(draw, base, junk)
    base = attrs.evolve(base, predicates=tuple(known))
    piles = {name: _pile_group(draw, name, id_, names, ids, base, junk)
             for name, id_ in zip(names, ids)}
    data: dict[str, Any] = {
        "id": draw(st.sampled_from(["fuzz", "fuzz-cat", "f1"])),
        "name": "Fuzz",
        "description": "A random variant.",
        "decks": draw(st.sampled_from([1, 1, 1, 2])),
        "ranks": draw(st.sampled_from([13, 13, 4, 2, 1, 7])),
        "piles": piles,
        "win": _expression(draw, base, junk),
    }
    if parameters:
        data["parameters"] = parameters
    if predicates:
        data["predicates"] = predicates
    if draw(st.floats(0, 1)) < 0.9:
        data["stock"] = _stock_section(draw, names, ids, piles, base, junk)
    if mistakes:
        _file_mistakes(draw, data, piles, names)
    text = str(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    if mistakes and draw(st.floats(0, 1)) < 0.15:  # damage the text itself
        text = _damaged(draw, text)
    return text


# --- probing one file --------------------------------------------------------------------


@attrs.frozen
class FuzzResult:
    """What happened to one random file.

    ``status``: ``loaded`` (and passed the quick battery), ``rejected`` (a located
    VariantError), ``unlocated`` (an error without file, line and column), ``failed`` (loaded
    but the quick battery found a broken promise), ``crashed`` (a traceback) or ``hung``.
    """

    status: str
    detail: str = ""


class _Timeout(BaseException):  # not an Exception: no check may take it for a finding
    pass


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    if not hasattr(signal, "setitimer"):
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise _Timeout()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.25)  # again, should one be swallowed
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _located(error: Exception) -> bool:
    errors = getattr(error, "errors", None) or [error]
    return all(getattr(e, "location", None) is not None for e in errors)


def probe(text: str, moves: int = 25, seconds: float = 2.0, seed: int = 0) -> FuzzResult:
    """Load ``text`` as a variant and, if it loads, run a quick battery on it.

    A file that takes longer than ``seconds`` is tried once more with five times as long
    before it counts as ``hung`` (a busy machine is not a kernel bug).
    """
    result = _probe(text, moves, seconds, seed)
    if result.status == "hung":
        result = _probe(text, moves, seconds * 5, seed)
    return result


def _probe(text: str, moves: int, seconds: float, seed: int) -> FuzzResult:
    from patience.errors import PatienceError, VariantError
    from patience.variant import load_variant_text

    try:
        with _time_limit(seconds):
            try:
                variant = load_variant_text(text, "fuzz.yaml")
            except VariantError as error:
                if _located(error):
                    return FuzzResult("rejected", str(error))
                return FuzzResult("unlocated", str(error))
            except PatienceError as error:
                return FuzzResult("unlocated", f"{type(error).__name__}: {error}")
            _guard_forced_removals(variant)
            return _quick_battery(variant, moves, seed)
    except _ForcedLoop as loop:
        return FuzzResult("hung", str(loop))
    except _Timeout:
        return FuzzResult("hung", f"no answer within {seconds} s")
    except Exception as error:  # noqa: BLE001 - any error is a finding
        return FuzzResult("crashed", "".join(traceback.format_exception(
            type(error), error, error.__traceback__)))


class _ForcedLoop(Exception):
    pass


def _guard_forced_removals(variant: Any) -> None:
    """Make forced removals that come back to a position they left raise, not loop."""
    real = variant.first_forced
    if real is None:
        return
    seen: set[tuple[tuple[int, ...], ...]] = set()
    trail: list[tuple[int, int, int]] = []

    def first_forced(piles: list[list[int]], stock: list[int]) -> tuple[int, int, int] | None:
        move = real(piles, stock)
        if move is None:
            seen.clear()
            trail.clear()
            return None
        key = tuple(map(tuple, piles))
        if key in seen:
            names = variant.pile_names
            shown = " ".join(f"{names[s]}:{k}-{names[t]}" for s, k, t in trail[-6:])
            raise _ForcedLoop(f"forced removals loop forever (Game._settle never ends): "
                              f"... {shown} comes back to the same piles")
        seen.add(key)
        trail.append((move[0], move[1], move[2]))
        return (move[0], move[1], move[2])

    variant.first_forced = first_forced
    from patience.moves import make_player

    variant.play, variant.take_back = make_player(variant)  # they call first_forced


def _quick_battery(variant: Any, moves: int, seed: int) -> FuzzResult:
    from patience import native
    from patience.testing.battery import (
        BatteryFailure,
        check_cards_exactly_once,
        check_engines_agree,
        check_forced_removal_complete,
        check_generated_iff_explained,
        check_push_pop_restores,
        check_round_trips,
        check_won_has_no_moves,
        counterexample,
    )

    chooser = random.Random(seed)
    for number in (seed, seed + 1):
        game = variant.deal(number)
        try:
            for step in range(moves + 1):
                check_cards_exactly_once(game)
                check_won_has_no_moves(game)
                check_forced_removal_complete(game)
                if step % 8 == 0:
                    check_push_pop_restores(game)
                legal = game.generate_moves()
                if not legal or step == moves:
                    break
                game.push_unchecked(chooser.choice(legal))
            if sum(map(len, game.piles)) <= 60:
                check_generated_iff_explained(game)
            check_round_trips(game)
            if native.AVAILABLE:
                check_engines_agree(game, max_positions=ENGINES_BUDGET)
                _check_perft_agrees(game.start())
        except BatteryFailure as failure:
            return FuzzResult("failed", f"{failure}\n{counterexample(game)}")
    return FuzzResult("loaded")


#: positions of the short solve both engines make on each loaded file (``check_engines_agree``)
ENGINES_BUDGET = 300
PERFT_DEPTH = 2


def _check_perft_agrees(game: Any) -> None:
    """Perft at ``PERFT_DEPTH`` from ``game``: the same count from the kernel and the core."""
    from patience import native
    from patience.perft import perft
    from patience.testing.battery import BatteryFailure

    mine, theirs = perft(game, PERFT_DEPTH), native.perft(game, PERFT_DEPTH)
    if mine != theirs:
        raise BatteryFailure(f"perft {PERFT_DEPTH} is {mine} in the kernel but {theirs} in the "
                             f"native core at {game.text()}")
