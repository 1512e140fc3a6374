"""Variant files: reading, ``extends`` inheritance, and validation into a definition.

A variant file is YAML (schema in ``docs/authoring.md``). This module reads it with
locations (``patience.source``), merges it over its parent when it says ``extends``,
validates every key and type, parses and checks every rule expression, and returns a
:class:`Definition`: plain data, not yet compiled. All problems found in one pass are
reported together, each with file, line, column and a caret.
"""

from __future__ import annotations

import difflib
import hashlib
import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from patience.boards import BoardMapping, read_mapping
from patience.cards import card_code, parse_card
from patience.compiler import InlinedShapes, Shape
from patience.errors import DealError, FileErrors, Location, VariantError
from patience.language import (
    BUILTIN_CONSTANTS,
    CONTEXT_VARIABLES,
    DISCARD_PILES,
    KEYWORDS,
    Boolean,
    BoolOp,
    Call,
    Checker,
    Member,
    Name,
    Node,
    ParseError,
    Predicate,
    Scope,
    Signature,
    Type,
    integer_overflow,
    is_name,
    listing,
    parse_expression,
    parse_signature,
    table_read,
    walk,
)
from patience.limits import (
    MAX_DISCARD_CARDS,
    MAX_DISCARD_SETS,
    MAX_DISCARDS,
    MAX_EXPECT_BUDGET,
    MAX_EXPECT_MOVES,
    MAX_EXPECT_PERFT_DEPTH,
    MAX_EXPECT_PERFT_LEAVES,
    MAX_EXPECTATIONS,
    MAX_EXTENDS_DEPTH,
    MAX_GROUP_PILES,
    MAX_INLINED_DEPTH,
    MAX_INLINED_NODES,
    MAX_INTEGER,
    MAX_MERCI_DRAWS,
    MAX_PARAMETERS,
    MAX_PILE_GROUPS,
    MAX_PREDICATES,
    MAX_QUANTIFIER_NESTING,
    MAX_VARIANT_INLINED_NODES,
)
from patience.places import DIRECTIONS, Arrangement, Ring
from patience.settings import EmptyPiles, Lands, Removal, Show, Target, words
from patience.solvitaire_mapping import read_solvitaire
from patience.source import (
    Item,
    Mapping,
    Origin,
    Scalar,
    Sequence,
    read_variant_file,
    read_yaml,
    variants_directory,
)

RESERVED_IDS = frozenset({"d", "s"})  # the deal move and the stock in position text
IDENTITY_KEYS = ("id", "aliases")  # never inherited through 'extends'
#: a claim about this file's own rules, never inherited either: how Solvitaire plays it
OWN_KEYS = ("solvitaire",)
PILE_ID = re.compile(r"[a-z]+", re.ASCII)  # what move notation can name
VARIANT_FILE_SUFFIXES = (".yaml", ".yml")


@attrs.frozen
class Rule:
    """One expression from the file: its text, its AST, and where it was written."""

    text: str
    node: Node
    origin: Origin | None
    key: str  # e.g. "piles.columns.accepts", for messages

    @property
    def never(self) -> bool:
        """Whether the rule is the constant ``false`` (no card ever moves by it)."""
        return _never(self.node)


@attrs.frozen
class GroupDefinition:
    name: str
    id: str
    count: int
    deal: tuple[int, ...]  # cards dealt to each pile at the start, pile by pile
    moves: Rule
    accepts: Rule
    target: Target
    removal: Removal
    show: Show
    face_down: tuple[int, ...] = ()  # of each pile's dealt cards, how many lie face down
    place: tuple[tuple[int, ...], ...] = ()  # cards put on each pile before the deal
    to_bottom: Rule | None = None  # dealt cards for which it holds go under the others
    fill_from: str | None = None  # a group or pile that fills an empty pile here at once
    #: the cards for which it holds (reading ``card`` and ``first_card``) lead the deal, and
    #: this group is dealt from them before the others (docs/authoring.md, "Deals that
    #: depend on dealt cards")
    deal_first: Rule | None = None
    layout: Arrangement | None = None  # its piles' places (None: one row)
    close_gaps: bool = False  # after a move its non-empty piles slide toward its start
    #: ``close_gaps: deal``: its gaps close when the player deals, as the deal's first step
    #: (docs/authoring.md, "Closing gaps when the player deals")
    close_on_deal: bool = False
    #: ``face_down: covered``: the cards of a pile covered at the start lie face down, and a
    #: face-down top card turns up when nothing covers its pile any more
    face_down_covered: bool = False
    #: where a move's cards land on its piles: on top, or under the pile's cards
    lands: Lands = Lands.TOP
    #: the fills (``fill_from``) are made only while it holds (a rule on the table)
    fill_when: Rule | None = None
    #: ``layout: {ring: N}``: its piles are drawn round a circle (drawing data only: the
    #: rules read the group as one row; docs/authoring.md, "Places")
    ring: Ring | None = None
    #: ``layout: {centre: GROUP}``: it is drawn at the centre of GROUP's ring
    centre: str | None = None
    #: ``merci: N``: N times a game a card just under a pile's top card may be drawn out
    #: and played (docs/authoring.md, "Drawing a buried card"); 0: never
    merci: int = 0

    @property
    def all_face_down(self) -> bool:
        """Whether some pile of the group is dealt with every card face down (a group whose
        cards leave only when turned: docs/authoring.md, "Cards put under a pile"); not
        the covered piles of ``face_down: covered``, which turn up when uncovered."""
        return not self.face_down_covered and any(
            down and down == dealt for dealt, down in zip(self.deal, self.face_down))


@attrs.frozen
class GatherDefinition:
    """``stock.gather``: a redeal that gathers the cards of named piles into one packet
    (shuffled or not) and deals it out again over the same piles, ``deal`` cards a pile
    (docs/authoring.md, "Redeals that gather the tableau")."""

    sources: tuple[str, ...]  # group names or pile ids, in gathering order
    shuffle: bool
    deal: int  # cards each pile receives
    redeals: int | None  # how many times; None: unlimited (never with a shuffle)
    #: a rule on ``pile``: the piles for which it holds, read in gathering order, keep
    #: their cards and are neither gathered nor dealt to (docs/authoring.md, "Redeals that
    #: keep some cards")
    keep: Rule | None = None
    #: a rule on ``pile``, read once the cards are gathered: the gathered piles for which
    #: it holds are left empty by the deal
    gaps: Rule | None = None
    #: ``gaps: N`` (a number, not a rule): N gaps shuffled in among the gathered cards
    #: (docs/rules.md, "Shuffles during play"), Spaces' random gaps
    blanks: int = 0


@attrs.frozen
class StockDefinition:
    deals_to: tuple[str, ...]  # group names or pile ids, in dealing order
    empty_piles: EmptyPiles
    deal_when: Rule
    turn: int = 1  # cards each deal target receives per deal (a waste: draw N)
    redeals: int | None = 0  # times the waste may turn back into the stock; None: unlimited
    gather: GatherDefinition | None = None  # the redeal that gathers piles, if any
    #: the group of one pile that holds the stock's next card face up (``stock.top``): it
    #: takes the stock's next card at once when empty, and the deal deals its card first
    top: str | None = None


@attrs.frozen
class DiscardDefinition:
    """A ``discards:`` entry: a move that takes the top cards of ``cards`` piles of the
    ``sources`` groups at once onto the one pile of group ``to``, when ``when`` holds for
    the chosen piles (named ``first``, ``second``… in pile order)."""

    cards: int
    sources: tuple[str, ...]  # the 'from' groups, in file order
    to: str
    when: Rule


@attrs.frozen
class WrittenMove:
    """A move as an expectation writes it (``c3-c1``, ``c2:3-c4``, ``deal``), where it was
    written, and (for an ``illegal`` entry) the rule that must forbid it."""

    text: str
    origin: Origin | None = attrs.field(eq=False, repr=False)
    rule: str | None = None


@attrs.frozen
class Expectation:
    """One entry of a variant file's ``expect:`` list: the author's own example.

    Read (and checked for form) when the file loads; played only when asked, by
    ``patience.testing.expectations``. ``number`` counts the merged list from 1.
    """

    number: int
    name: str | None
    why: str | None
    deal: int | None
    position: str | None
    after: tuple[WrittenMove, ...]
    legal: tuple[WrittenMove, ...]
    illegal: tuple[WrittenMove, ...]
    moves: tuple[WrittenMove, ...] | None
    winnable: bool | None
    within: int
    perft: tuple[tuple[int, int], ...]
    origin: Origin | None = attrs.field(default=None, eq=False, repr=False)
    #: finding codes the author acknowledges (``- known: [unwinnable-sample]`` with ``why``):
    #: an entry that names no start and plays nothing
    known: tuple[str, ...] = ()
    #: ``shows``: the position there exactly, as ``patience show --format text`` writes it
    #: (face-down cards in lower case)
    shows: str | None = None

    @property
    def label(self) -> str:
        """``expect[3] 'a King goes on an Ace'``, for reports."""
        return f"expect[{self.number}]" + (f" {self.name!r}" if self.name else "")


@attrs.frozen
class Score:
    """A variant's ``score:`` (docs/authoring.md): ``start`` points at the deal and
    ``home`` for each card home, shown with ``unit`` before the number.

    >>> Score(-52, 5, "$").text(-52 + 5 * 5)
    '-$27'
    """

    start: int
    home: int
    unit: str = ""

    def text(self, value: int) -> str:
        return f"{'-' if value < 0 else ''}{self.unit}{abs(value)}"


@attrs.frozen
class Definition:
    """A validated variant definition (what the file says, merged over its parents)."""

    id: str
    name: str
    aliases: tuple[str, ...]
    description: str
    sources: tuple[str, ...]
    decks: int
    ranks: int
    parameters: dict[str, int | bool]
    family: str
    suits: tuple[int, ...]
    predicates: dict[str, Predicate]
    groups: tuple[GroupDefinition, ...]
    stock: StockDefinition
    win: Rule
    path: str
    flat: dict[str, Any]  # the merged definition as plain data (for hashing and export)
    expectations: tuple[Expectation, ...] = ()  # the 'expect:' list (not rules of play)
    #: ``solver.safe``: the moves the author declares safe to play at once (docs/solver.md,
    #: "Safe moves"); None when the file declares none. Not a rule of play.
    safe: Rule | None = None
    #: ``pysolfc:``: how pysol-cards' board of this game maps onto the piles (numbered deals
    #: of the ecosystem and board formats, patience.boards); None when the file has none.
    #: Not a rule of play.
    pysolfc: BoardMapping | None = None
    #: ``solvitaire:``: how Solvitaire's deal of this game is made from our piles, as plain
    #: data (``patience.solvitaire_mapping``), or why Solvitaire cannot play it
    #: (``not_exact``); None when the file has none. Not a rule of play, not inherited.
    solvitaire: dict[str, Any] | None = None
    #: ``discards:``: moves that take the top cards of several piles at once
    discards: tuple[DiscardDefinition, ...] = ()
    #: ``score:``: the score the player is shown (docs/authoring.md); None when the file
    #: declares none. Not a rule of play.
    score: Score | None = None

    @property
    def rules_hash(self) -> str:
        """A hash of everything that affects play (not names, descriptions, sources or
        the author's expectations)."""
        rules = {k: v for k, v in self.flat.items()
                 if k not in ("id", "name", "family", "aliases", "description", "sources",
                              "expect", "solver", "pysolfc", "solvitaire", "score")}
        if isinstance(rules.get("piles"), dict):  # a ring or a centre is drawing data only
            rules["piles"] = {name: _without_drawing(group)
                              for name, group in rules["piles"].items()}
        blob = json.dumps(rules, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _without_drawing(group: Any) -> Any:
    """A group's plain data without a ``layout`` that only says where it is drawn (a ring,
    a centre: no rule reads it, so it does not change the rules hash)."""
    if not isinstance(group, dict) or not isinstance(group.get("layout"), dict) or \
            not set(group["layout"]) <= set(DRAWING_KEYS):
        return group
    return {key: value for key, value in group.items() if key != "layout"}


# --- reading and merging ---------------------------------------------------------------


def load_definition(path: str | Path, resolve: Callable[[str, Path], Path],
                    text: str | None = None,
                    record: Callable[[Path], None] | None = None) -> Definition:
    """Read, merge and validate the variant file at ``path``.

    ``resolve(name, directory)`` finds the file of a shipped variant name or alias; a parent
    written as a path (it must end in ``.yaml`` or ``.yml``) is found relative to the
    child's directory (an absolute path as it is). See :func:`_read_merged`. ``record`` is
    called with each parent file before it is read (the definitions' cache checks them).
    """
    merged = _read_merged(Path(path), resolve, [], text, record)
    return _Validator(str(path)).definition(merged)


def read_merged(path: str | Path, resolve: Callable[[str, Path], Path],
                text: str | None = None) -> Mapping:
    """The file at ``path`` merged over its parents, as located YAML items (each value with
    the file, line and column it was written at): what mutation testing changes."""
    return _read_merged(Path(path), resolve, [], text)


class _ChainError(VariantError):
    """A problem of the 'extends' chain as a whole (a cycle, too many files): reported at
    the 'extends' line of the file that was asked for."""


def _read_merged(path: Path, resolve: Callable[[str, Path], Path], chain: list[Path],
                 text: str | None = None,
                 record: Callable[[Path], None] | None = None) -> Mapping:
    """The file at ``path`` merged over its parents.

    A parent must be a variant file that loads on its own: when it does not, the error is
    reported at the child's 'extends' line without quoting the parent, which need not be a
    variant file at all (nothing is shown from a file before it is known to be one).
    """
    if text is None:
        text = read_variant_file(path)
    item = read_yaml(str(path), text, shipped=_is_shipped(path))
    if not isinstance(item, Mapping):
        raise VariantError("a variant file is a mapping of keys to values (id: …, name: …)",
                           item.origin.location(), code="not-a-mapping")
    parent_item = item.items.get("extends")
    if parent_item is None:
        return item
    if not isinstance(parent_item, Scalar) or parent_item.tag != "str":
        raise VariantError("'extends' names one variant (a name or a path)",
                           parent_item.origin.location(), code="extends-unknown")
    where = parent_item.origin.location()
    chain = [*chain, _canonical(path)]
    if len(chain) > MAX_EXTENDS_DEPTH:
        raise _ChainError(f"'extends' chains more than {MAX_EXTENDS_DEPTH} files: "
                          + " -> ".join(p.name for p in chain) + " -> …", where,
                          code="extends-chain")
    parent_path = _parent_path(parent_item.value, path.parent, resolve, where)
    if _canonical(parent_path) in chain:
        cycle = " -> ".join(p.name for p in [*chain, _canonical(parent_path)])
        raise _ChainError(f"'extends' makes a cycle: {cycle}", where, code="extends-cycle")
    if record is not None:
        record(parent_path)
    try:
        parent = _read_merged(parent_path, resolve, chain, None, record)
        _Validator(str(parent_path)).definition(parent)  # the parent loads on its own
    except _ChainError as error:
        raise _ChainError(error.message, where, code=error.code) from None
    except VariantError as error:
        raise VariantError(_unusable_parent(parent_item.value, parent_path, error),
                           where, code="extends-parent") from None
    except OSError as error:
        raise VariantError(f"cannot read {str(parent_path)!r}: {error.strerror}",
                           where, code="extends-unreadable") from None
    return _merge(parent, item)


def _is_shipped(path: Path) -> bool:
    """Whether ``path`` is one of the shipped variant files."""
    return _canonical(path).parent == _canonical(variants_directory())


def _canonical(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def _parent_path(name: str, directory: Path, resolve: Callable[[str, Path], Path],
                 where: Location) -> Path:
    """The file 'extends: NAME' refers to: a shipped variant, or a .yaml/.yml file."""
    if not name.isprintable() or not name.strip():
        raise VariantError(f"'extends' names {name!r}, which is not a variant name", where,
                           code="extends-unknown")
    if "/" in name or "\\" in name or name.lower().endswith(VARIANT_FILE_SUFFIXES):
        if not name.lower().endswith(VARIANT_FILE_SUFFIXES):
            raise VariantError(f"'extends' names {name!r}: a parent is a shipped variant "
                               "(e.g. tabbycat) or a variant file ending in .yaml or .yml",
                               where, code="extends-unknown")
        candidate = directory / name
        try:
            found = candidate.is_file()
        except (OSError, ValueError):
            found = False
        if not found:
            raise VariantError(f"'extends' names no variant: no variant file at {name!r}",
                               where, code="extends-unknown")
        return candidate
    try:
        return resolve(name, directory)
    except Exception as error:  # noqa: BLE001 (the resolver's message names the variant)
        raise VariantError(f"'extends' names no variant: {error}", where,
                           code="extends-unknown") from None


def _unusable_parent(name: str, path: Path, error: VariantError) -> str:
    """Why a parent cannot be used, without a word of its content."""
    first = getattr(error, "errors", [error])[0].location
    at = ""
    if first is not None:
        shown = "" if Path(first.path) == path else f" of {first.path}"
        at = f", the first at line {first.line}, column {first.column}{shown}"
    count = f"{error.count} error{'s' if error.count != 1 else ''}"
    return (f"'extends' names {name!r}, which is not a variant file that loads on its own "
            f"({count}{at}); run 'patience check {path}' to see them")


def _merge(parent: Mapping, child: Mapping, top: bool = True) -> Mapping:
    items: dict[str, Item] = {}
    keys: dict[str, Origin] = {}
    for key, value in parent.items.items():
        if top and (key in IDENTITY_KEYS or key in OWN_KEYS or key == "extends"):
            continue
        items[key], keys[key] = value, parent.keys[key]
    for key, value in child.items.items():
        if top and key == "extends":
            continue
        old = items.get(key)
        if top and key == "predicates" and isinstance(old, Mapping) and isinstance(value, Mapping):
            items[key] = _merge_predicates(old, value)
        elif top and key == "expect" and isinstance(old, Sequence) and \
                isinstance(value, Sequence):
            items[key] = _merge_expectations(old, value)
        elif isinstance(old, Mapping) and isinstance(value, Mapping):
            items[key] = _merge(old, value, top=False)
        else:
            items[key] = value
        keys[key] = child.keys[key]
    return Mapping(items, keys, child.origin)


def _merge_predicates(parent: Mapping, child: Mapping) -> Mapping:
    """Predicates are overridden by name, whatever their parameter lists look like."""
    def name_of(key: str) -> str:
        return key.split("(", 1)[0].strip()

    overridden = {name_of(key) for key in child.items}
    items = {k: v for k, v in parent.items.items() if name_of(k) not in overridden}
    keys = {k: parent.keys[k] for k in items}
    items.update(child.items)
    keys.update(child.keys)
    return Mapping(items, keys, child.origin)


def _merge_expectations(parent: Sequence, child: Sequence) -> Sequence:
    """A child's ``expect`` entry replaces the parent's of the same ``name`` (in its place);
    with ``skip: true`` it drops it; other entries are added after the parent's. A skip
    that names no inherited entry stays, for the validator to report."""
    def name_of(entry: Item) -> str | None:
        if isinstance(entry, Mapping):
            name = entry.items.get("name")
            if isinstance(name, Scalar) and name.tag == "str":
                return name.value
        return None

    def skips(entry: Item) -> bool:
        flag = entry.items.get("skip") if isinstance(entry, Mapping) else None
        return isinstance(flag, Scalar) and flag.tag == "bool" and \
            flag.value.lower() == "true"

    items = list(parent.items)
    if any(_drops_inherited(entry) for entry in child.items):
        items = []  # '- inherited: drop': the parent's entries go, the child's stay
    for entry in child.items:
        if _drops_inherited(entry):
            continue
        name = name_of(entry)
        place = next((i for i, old in enumerate(items) if name is not None
                      and name_of(old) == name), None)
        if place is None:
            items.append(entry)
        elif skips(entry):
            del items[place]
        else:
            items[place] = entry
    return Sequence(tuple(items), child.origin)


def _drops_inherited(entry: Item) -> bool:
    """``- inherited: drop`` in a child's ``expect`` list: none of the parent's entries."""
    if not isinstance(entry, Mapping) or len(entry.items) != 1:
        return False
    flag = entry.items.get("inherited")
    return isinstance(flag, Scalar) and flag.value == "drop"


# --- validation ------------------------------------------------------------------------

TOP_KEYS = ("id", "name", "family", "aliases", "description", "sources", "extends", "decks",
            "ranks", "suits",
            "parameters", "predicates", "piles", "stock", "discards", "win", "solver", "expect",
            "pysolfc", "solvitaire", "score")
GROUP_KEYS = ("id", "count", "deal", "face_down", "place", "to_bottom", "deal_first",
              "fill_from", "moves", "accepts", "target", "removal", "show", "layout",
              "close_gaps", "lands", "fill_when", "merci")
LAYOUT_KEYS = ("rows", "columns", "overlap", "ring", "start", "centre")
#: the keys of a layout that only says where the front ends draw a group: no rule reads
#: them, so they are not in the rules hash (``Definition.rules_hash``)
DRAWING_KEYS = ("ring", "start", "centre")
SOLVER_KEYS = ("safe",)
DISCARD_KEYS = ("cards", "from", "to", "when")
SCORE_KEYS = ("start", "home", "unit")
#: the largest points a ``score:`` entry may give (either way)
MAX_SCORE_POINTS = 1_000_000
MAX_SCORE_UNIT = 4  # characters of ``score.unit``
STOCK_KEYS = ("deals_to", "turn", "redeals", "empty_piles", "deal_when", "gather", "top")
GATHER_KEYS = ("from", "shuffle", "deal", "redeals", "keep", "gaps")
EXPECT_KEYS = ("name", "why", "skip", "deal", "position", "after", "shows", "legal", "illegal",
               "moves", "winnable", "within", "perft", "known", "inherited")
KNOWN_CODE = re.compile(r"[a-z][a-z0-9-]{0,39}")
DEFAULT_EXPECT_BUDGET = 200_000  # positions the solver may search for 'winnable'
#: What ``to_bottom`` may read, for the error when it reads more (docs/language.md, "What
#: each rule can see"): the other rules are worked out on a position and may read it all.
TO_BOTTOM_READS = ("to_bottom is worked out for each card before the deal, when there is no "
                   "pile or stock to read: it may read card (its rank, suit and color), the "
                   "parameters and constants, and predicates that read no more")
#: What ``deal_first`` may read (the same place in docs/language.md).
DEAL_FIRST_READS = ("deal_first is worked out for each card before the deal, when there is no "
                    "pile or stock to read: it may read card and first_card (their rank, suit "
                    "and color), the parameters and constants, and predicates that read no more")



class _Validator:
    def __init__(self, path: str) -> None:
        self.path = path
        self.errors = FileErrors(self._order)  # bounded: MAX_FILE_ERRORS shown
        self.shapes = InlinedShapes({})
        self.oversized: frozenset[str] = frozenset()  # predicates too large when inlined
        self.largest_size = 8 * 52  # the most cards a pile can hold (set from the deck)
        self.group_sizes: dict[str, int] = {}  # piles per group, as far as the file says
        self.inlined: list[tuple[int, Rule]] = []  # each rule's inlined size

    # -- helpers --

    def _order(self, error: VariantError) -> tuple[Any, ...]:
        """This file's errors first, in line order; then those found in parent files."""
        location = error.location
        if location is None:
            return (1, "", 0, 0)
        return (location.path != self.path, location.path, location.line, location.column)

    def error(self, message: str, origin: Origin | None, code: str | None = None) -> None:
        """Record a problem; ``code`` is its kind (one of docs/errors.md's entries)."""
        self.errors.append(VariantError(message, origin.location() if origin else None,
                                        code=code))

    def unknown_keys(self, mapping: Mapping, allowed: tuple[str, ...], where: str) -> None:
        for key, origin in mapping.keys.items():
            if key not in allowed:
                close = difflib.get_close_matches(key, allowed, n=1)
                keys = f"the keys of {where} are {listing(list(allowed))}"
                hint = f"; did you mean {close[0]!r}? {keys[0].upper()}{keys[1:]}" if close \
                    else f"; {keys}"
                self.error(f"unknown key {key!r} in {where}{hint}", origin, code="unknown-key")

    def required(self, mapping: Mapping, key: str, where: str) -> Item | None:
        item = mapping.items.get(key)
        if item is None:
            self.error(f"{where} needs the key {key!r}", mapping.origin, code="missing-key")
        return item

    def string(self, item: Item | None, what: str, default: str | None = None) -> str | None:
        if item is None:
            return default
        if not isinstance(item, Scalar) or item.tag == "null":
            self.error(f"{what} must be text", item.origin, code="wrong-type")
            return default
        return item.value

    def integer(self, item: Item | None, what: str, default: int, low: int = 0,
                high: int | None = None) -> int:
        if item is None:
            return default
        if not isinstance(item, Scalar) or item.tag != "int":
            shown = item.value if isinstance(item, Scalar) else type(item).__name__.lower()
            self.error(f"{what} must be a whole number, not {shown!r}", item.origin,
                       code="wrong-type")
            return default
        value = item.integer
        if value < low or (high is not None and value > high):
            bound = f"from {low} to {high}" if high is not None else f"at least {low}"
            self.error(f"{what} must be {bound}, not {value}", item.origin, code="out-of-range")
            return default
        return value

    def printable(self, item: Item | None, what: str, value: str | None) -> None:
        """Refuse control (and other unprintable) characters in a name-like value."""
        if item is None or value is None or value.isprintable():
            return
        bad = next(char for char in value if not char.isprintable())
        self.error(f"{what} {value!r} contains the unprintable character {bad!r}",
                   item.origin, code="unprintable")

    def count_or_unlimited(self, item: Item | None, what: str, default: int) -> int | None:
        """A number of redeals from ``default`` to 1000, or None for 'unlimited'."""
        if isinstance(item, Scalar) and item.value == "unlimited":
            return None
        if item is not None and (not isinstance(item, Scalar) or item.tag != "int"):
            self.error(f"{what} must be a whole number or 'unlimited'", item.origin,
                       code="wrong-type")
            return default
        return self.integer(item, what, default, low=default, high=1000)

    def choice(self, item: Item | None, what: str, choices: tuple[str, ...]) -> str:
        value = self.string(item, what)
        if value is None:
            return choices[0]
        if value not in choices:
            assert item is not None
            self.error(f"{what} must be one of {', '.join(choices)}; not {value!r}",
                       item.origin, code="bad-choice")
            return choices[0]
        return value

    def strings(self, item: Item | None, what: str) -> tuple[str, ...]:
        if item is None:
            return ()
        if isinstance(item, Scalar) and item.tag == "str":
            return (item.value,)
        if not isinstance(item, Sequence):
            self.error(f"{what} must be a list of text", item.origin, code="wrong-type")
            return ()
        values = []
        for element in item.items:
            value = self.string(element, f"each entry of {what}")
            if value is not None:
                values.append(value)
        return tuple(values)

    def mapping(self, item: Item | None, what: str) -> Mapping | None:
        if item is None:
            return None
        if not isinstance(item, Mapping):
            self.error(f"{what} must be a mapping (key: value lines)", item.origin,
                       code="wrong-type")
            return None
        return item

    def expression_text(self, item: Item | None, what: str,
                        default: str) -> tuple[str, Origin | None]:
        if item is None:
            return default, None
        if isinstance(item, Scalar) and item.tag == "bool":
            return item.value.lower(), item.origin
        if not isinstance(item, Scalar) or item.tag not in ("str", "int"):
            self.error(f"{what} must be a rule expression (text)", item.origin,
                       code="wrong-type")
            return default, None
        return item.value, item.origin

    def located(self, origin: Origin | None, text: str,
                span: tuple[int, int]) -> Location | None:
        if origin is None:
            return None
        return origin.location_of_span(text, span)

    def parse(self, text: str, origin: Origin | None, key: str) -> Rule | None:
        try:
            node = parse_expression(text)
        except ParseError as error:
            self.errors.append(VariantError(f"syntax error in {key}: {error.message}",
                                            self.located(origin, text, error.span),
                                            code=error.code))
            return None
        return Rule(text, node, origin, key)

    def check(self, rule: Rule | None, scope: Scope, inlined: bool = True) -> bool:
        """Type-check a rule; then (``inlined``, for rules, not predicates) its size once
        its predicates are written out, and the size of the numbers it computes. Whether
        the rule type-checked."""
        if rule is None:
            return False
        problems = Checker(scope).check(rule.node, Type.BOOL)
        for problem in problems:
            self.errors.append(VariantError(f"in {rule.key}: {problem.message}",
                                            self.located(rule.origin, rule.text,
                                                         problem.span), code=problem.code))
        if inlined and not problems:
            self.check_inlined(rule, scope)
        return not problems

    def check_inlined(self, rule: Rule, scope: Scope) -> None:
        """Refuse a rule too large once its predicates are written out (unless a predicate
        it calls is too large itself: that is reported at the predicate), and a rule that
        can compute a whole number beyond the limit."""
        shapes = self.shapes
        self.inlined.append((min(shapes.of(rule.node).nodes, MAX_INLINED_NODES), rule))
        if not shapes.of(rule.node).fits():
            calls = shapes.calls(rule.node)
            if any(call.function in self.oversized for call, _ in calls):
                return
            shape = shapes.of(rule.node)
            culprit = f"; the largest part is {calls[0][0].function}(…)" if calls else ""
            span = calls[0][0].span if calls else (0, len(rule.text))
            self.errors.append(VariantError(
                f"{rule.key} {_too_large(shape)} once the predicates it calls are written "
                f"out{culprit}", self.located(rule.origin, rule.text, span),
                code="rule-too-large"))
            return
        if any(call.function in scope.broken for call in walk(rule.node)
               if isinstance(call, Call)):
            return
        overflow = integer_overflow(rule.node, scope, self.largest_size, self.group_sizes)
        if overflow is None:
            return
        if overflow.bound is None:
            bound = "more than 2^64"
        elif overflow.bound < 10**40:
            bound = f"{overflow.bound:_}"
        else:
            bound = f"about 10^{len(str(overflow.bound)) - 1}"
        message = (f"this can compute a whole number as large as {bound}, beyond 2^63 - 1, "
                   "the largest a rule may use")
        predicate = scope.predicates.get(overflow.predicate or "")
        if predicate is None:
            self.errors.append(VariantError(f"in {rule.key}: {message}", self.located(
                rule.origin, rule.text, overflow.span), code="number-overflow"))
        else:
            origin = predicate.origin[0] if isinstance(predicate.origin, tuple) else None
            self.errors.append(VariantError(
                f"in predicate {overflow.predicate} (called from {rule.key}): {message}",
                self.located(origin, predicate.text, overflow.span)
                or self.located(rule.origin, rule.text, (0, len(rule.text))),
                code="number-overflow"))

    # -- the definition --

    def definition(self, top: Mapping) -> Definition:
        self.unknown_keys(top, TOP_KEYS, "a variant file")
        too_many = False
        for key, limit, what in (("piles", MAX_PILE_GROUPS, "pile groups"),
                                 ("predicates", MAX_PREDICATES, "predicates"),
                                 ("parameters", MAX_PARAMETERS, "parameters")):
            counted = top.items.get(key)
            if isinstance(counted, Mapping) and len(counted.items) > limit:
                self.error(f"{key} has {len(counted.items)} {what}; a variant has at most "
                           f"{limit}", counted.origin, code="too-many")
                too_many = True
        if too_many:
            self.raise_errors()  # not a word more about a file this large
        id_ = self.string(self.required(top, "id", "a variant file"), "id") or "?"
        self.printable(top.items.get("id"), "id", id_)
        name = self.string(self.required(top, "name", "a variant file"), "name") or id_
        self.printable(top.items.get("name"), "name", name)
        description = self.string(self.required(top, "description", "a variant file"),
                                  "description") or ""
        if "\n" in description.strip():
            self.error("description must be one line", top.items["description"].origin,
                       code="not-one-line")
        aliases = self.strings(top.items.get("aliases"), "aliases")
        aliases_item = top.items.get("aliases")
        for index, alias in enumerate(aliases):
            element = (aliases_item.items[index] if isinstance(aliases_item, Sequence)
                       and index < len(aliases_item.items) else aliases_item)
            self.printable(element, "alias", alias)
        sources = self.strings(top.items.get("sources"), "sources")
        family = self.string(top.items.get("family"), "family") or name
        decks = self.integer(top.items.get("decks"), "decks", 1, low=1, high=8)
        ranks = self.integer(top.items.get("ranks"), "ranks", 13, low=1, high=13)
        suits = self.suits(top.items.get("suits"))
        self.largest_size = decks * len(suits) * ranks  # no pile or run holds more cards

        parameters = self.parameters(self.mapping(top.items.get("parameters"), "parameters"))
        groups_item = self.mapping(self.required(top, "piles", "a variant file"), "piles")
        for gname, value in (groups_item.items.items() if groups_item else ()):
            count = value.items.get("count") if isinstance(value, Mapping) else None
            size = count.integer if isinstance(count, Scalar) and count.tag == "int" else 0
            self.group_sizes[gname] = size if 1 <= size <= MAX_GROUP_PILES else MAX_GROUP_PILES
        group_names = tuple(groups_item.items) if groups_item else ()
        predicates = self.predicates(self.mapping(top.items.get("predicates"), "predicates"),
                                     parameters, group_names)
        base = Scope(constants={k: (Type.BOOL if isinstance(v, bool) else Type.INT, v)
                                for k, v in parameters.items()},
                     groups=frozenset(group_names), predicates=predicates,
                     variables={"stock": Type.STOCK},
                     broken=getattr(self, "broken_predicates", frozenset()))
        for clash in sorted(set(parameters) & set(group_names)):
            self.error(f"parameter {clash!r} has the name of a pile group",
                       top.items["parameters"].keys[clash],  # type: ignore[union-attr]
                       code="name-clash")
        groups = self.groups(groups_item, base) if groups_item else ()
        stock = self.stock(self.mapping(top.items.get("stock"), "stock"), groups, base,
                           group_names)
        groups = self.stock_top(self.mapping(top.items.get("stock"), "stock"), stock, groups)
        if groups_item is None or len(groups) == len(groups_item.items):
            # (a group that failed to read deals no cards: counting without it would
            # report a shortfall that is not in the file)
            self.check_sizes(top, groups, stock, decks, ranks, suits)
        discards = self.discards(top.items.get("discards"), groups, base, group_names)
        self.stock_top_fed(top, stock, discards)
        win_text, win_origin = self.expression_text(
            self.required(top, "win", "a variant file"), "win", "false")
        win = self.parse(win_text, win_origin, "win")
        self.check(win, base)
        total = sum(nodes for nodes, _ in self.inlined)
        if total > MAX_VARIANT_INLINED_NODES and not self.errors:
            _, largest = max(self.inlined, key=lambda pair: pair[0])
            self.error(f"the rules of this variant are more than {MAX_VARIANT_INLINED_NODES:_} "
                       "nodes long together once the predicates they call are written out "
                       f"(the limit); the largest is {largest.key}", largest.origin,
                       code="rule-too-large")
        safe = self.safe(self.mapping(top.items.get("solver"), "solver"), base)
        expectations = self.expectations(top.items.get("expect"))
        pysolfc = read_mapping(top.items.get("pysolfc"), self.group_sizes,
                               lambda message, item: self.error(message, item.origin,
                                                                code="pysolfc"))
        solvitaire = read_solvitaire(top.items.get("solvitaire"), self.group_sizes,
                                     lambda message, item: self.error(message, item.origin,
                                                                      code="solvitaire"))
        score = self.score(self.mapping(top.items.get("score"), "score"))
        self.raise_errors()
        assert win is not None
        flat = _plain(top)
        return Definition(id_, name, aliases, description.strip(), sources, decks, ranks,
                          parameters, family.strip(), suits, predicates, groups, stock, win,
                          self.path, flat, expectations, safe, pysolfc,
                          flat["solvitaire"] if solvitaire else None, discards, score)

    # -- moves that take cards from several piles at once --

    def discards(self, item: Item | None, groups: tuple[GroupDefinition, ...], base: Scope,
                 group_names: tuple[str, ...]) -> tuple[DiscardDefinition, ...]:
        """``discards:``: a list of ``{cards, from, to, when}`` (docs/authoring.md,
        "Discarding several cards at once")."""
        if item is None:
            return ()
        if not isinstance(item, Sequence):
            self.error("discards must be a list of discards, each with cards, from, to and "
                       "when", item.origin, code="wrong-type")
            return ()
        if len(item.items) > MAX_DISCARDS:
            self.error(f"discards has {len(item.items)} entries; a variant has at most "
                       f"{MAX_DISCARDS} (MAX_DISCARDS)", item.origin, code="too-many")
            return ()
        by_name = {g.name: g for g in groups}
        found: list[DiscardDefinition] = []
        sets = 0
        taken: dict[tuple[int, str], int] = {}  # (cards, a from group) -> the discard's number
        for number, element in enumerate(item.items, start=1):
            where = f"discards[{number}]"
            entry = self.mapping(element, where)
            if entry is None:
                continue
            self.unknown_keys(entry, DISCARD_KEYS, where)
            cards = self.integer(self.required(entry, "cards", where), f"{where}.cards", 2,
                                 low=2, high=MAX_DISCARD_CARDS)
            sources_item = self.required(entry, "from", where)
            sources = self.strings(sources_item, f"{where}.from")
            good = self._discard_sources(sources, sources_item or entry, by_name, group_names,
                                         where)
            to_item = self.required(entry, "to", where)
            to = self.string(to_item, f"{where}.to") or ""
            if to_item is not None:
                good &= self._discard_target(to, to_item, sources, by_name, group_names,
                                             where)
            text, origin = self.expression_text(self.required(entry, "when", where),
                                                f"{where}.when", "false")
            when = self.parse(text, origin, f"{where}.when")
            names = DISCARD_PILES[:cards]
            self.check(when, base.with_variables(dict.fromkeys(names, Type.PILE),
                                                 nonempty=frozenset(names)))
            if not good or when is None or not sources:
                if good and not sources and sources_item is not None:
                    self.error(f"{where}.from must name at least one pile group",
                               sources_item.origin, code="discard")
                continue
            piles = sum(by_name[name].count for name in sources)
            if piles < cards:
                self.error(f"{where} takes {cards} cards, but its groups have {piles} "
                           f"pile{'s' if piles != 1 else ''}", entry.origin, code="discard")
                continue
            for name in sources:
                if by_name[name].all_face_down:
                    self.error(f"{where}.from names {name!r}, whose cards are dealt all face "
                               f"down (piles.{name}.face_down): a discard takes top cards, "
                               "which must lie face up", sources_item.origin if sources_item
                               else entry.origin, code="discard")
                    good = False
                other = taken.get((cards, name))
                if other is not None:
                    self.error(f"{where} and discards[{other}] both take {cards} cards from "
                               f"{name!r}: one set of piles belongs to one discard, so write "
                               "the two rules as one, joined by 'or'",
                               sources_item.origin if sources_item else entry.origin,
                               code="discard")
                    good = False
                taken[(cards, name)] = number
            sets += math.comb(piles, cards)
            if sets > MAX_DISCARD_SETS:
                self.error(f"{where}: the discards choose among {sets:_} sets of piles so far; "
                           f"a variant has at most {MAX_DISCARD_SETS:_} (MAX_DISCARD_SETS)",
                           entry.origin, code="too-many")
                break
            if good:
                found.append(DiscardDefinition(cards, sources, to, when))
        return tuple(found)

    def _discard_sources(self, sources: tuple[str, ...], item: Item,
                         by_name: dict[str, GroupDefinition], group_names: tuple[str, ...],
                         where: str) -> bool:
        """Whether a discard's ``from`` names pile groups, each once (errors at ``item``)."""
        good = True
        for name in sources:
            if name not in by_name:
                if name not in group_names:  # (a group that failed is reported already)
                    close = difflib.get_close_matches(name, list(by_name), n=1)
                    hint = f" (did you mean {close[0]!r}?)" if close else ""
                    self.error(f"{where}.from names {name!r}, which is not a pile group"
                               f"{hint}; the pile groups are {listing(list(by_name))}",
                               item.origin, code="discard")
                good = False
        if len(set(sources)) != len(sources):
            self.error(f"{where}.from names a group twice", item.origin, code="discard")
            good = False
        return good

    def _discard_target(self, to: str, item: Item, sources: tuple[str, ...],
                        by_name: dict[str, GroupDefinition], group_names: tuple[str, ...],
                        where: str) -> bool:
        """Whether a discard's ``to`` is a group of one pile it takes no card from."""
        if to not in by_name:
            if to not in group_names:
                self.error(f"{where}.to names {to!r}, which is not a pile group; the pile "
                           f"groups are {listing(list(by_name))}", item.origin,
                           code="discard")
            return False
        if by_name[to].count != 1:
            self.error(f"{where}.to names {to!r}, a group of {by_name[to].count} piles: "
                       "the discarded cards go to one pile, so name a group of one pile "
                       "(count: 1)", item.origin, code="discard")
            return False
        if to in sources:
            self.error(f"{where}.to names {to!r}, one of the groups it takes cards from",
                       item.origin, code="discard")
            return False
        return True

    # -- the score the player is shown (docs/authoring.md, "score") --

    def score(self, item: Mapping | None) -> Score | None:
        """``score:``: points at the deal (``start``), for each card home (``home``), and
        the unit written before the number (``unit``, e.g. ``$``)."""
        if item is None:
            return None
        self.unknown_keys(item, SCORE_KEYS, "score")
        low, high = -MAX_SCORE_POINTS, MAX_SCORE_POINTS
        start = self.integer(item.items.get("start"), "score.start", 0, low, high)
        home = self.integer(item.items.get("home"), "score.home", 0, low, high)
        unit_item = item.items.get("unit")
        unit = self.string(unit_item, "score.unit", "") or ""
        self.printable(unit_item, "score.unit", unit)
        if len(unit) > MAX_SCORE_UNIT or unit.strip() != unit or any(c.isdigit() for c in unit):
            self.error(f"score.unit {unit!r} must be at most {MAX_SCORE_UNIT} characters, "
                       "without digits or spaces at its ends (e.g. '$')",
                       unit_item.origin if unit_item is not None else None,
                       code="out-of-range")
        return Score(start, home, unit)

    # -- what the file tells the solver (docs/solver.md, "Safe moves") --

    def safe(self, item: Mapping | None, base: Scope) -> Rule | None:
        """``solver.safe``: a rule over a move with the names of an ``accepts`` rule."""
        if item is None:
            return None
        self.unknown_keys(item, SOLVER_KEYS, "solver")
        if "safe" not in item.items:
            return None
        text, origin = self.expression_text(item.items["safe"], "solver.safe", "false")
        rule = self.parse(text, origin, "solver.safe")
        self.check(rule, base.with_variables(
            {"pile": Type.PILE, "run": Type.RUN, "source": Type.PILE},
            nonempty=frozenset({"source"})))
        return rule

    # -- expectations (the author's examples; see docs/authoring.md) --

    def expectations(self, item: Item | None) -> tuple[Expectation, ...]:
        if item is None:
            return ()
        if not isinstance(item, Sequence):
            self.error("expect must be a list of examples, each a mapping (- deal: 1 …)",
                       item.origin, code="expect-not-a-list")
            return ()
        if len(item.items) > MAX_EXPECTATIONS:
            self.error(f"expect has {len(item.items)} entries; a variant has at most "
                       f"{MAX_EXPECTATIONS}", item.origin, code="expect-too-many")
            return ()
        found = []
        for number, entry in enumerate(item.items, start=1):
            expectation = self.expectation(number, entry)
            if expectation is not None:
                found.append(expectation)
        return tuple(found)

    def expectation(self, number: int, item: Item) -> Expectation | None:
        where = f"expect[{number}]"
        entry = self.mapping(item, where)
        if entry is None:
            return None
        self.unknown_keys(entry, EXPECT_KEYS, where)
        name = self.string(entry.items.get("name"), f"{where}.name")
        self.printable(entry.items.get("name"), f"{where}.name", name)
        skip = entry.items.get("skip")
        if skip is not None:
            if not isinstance(skip, Scalar) or skip.tag != "bool":
                self.error(f"{where}.skip must be true or false", skip.origin, code="expect-skip")
            elif skip.value.lower() == "true":
                self.error(f"{where}.skip drops an inherited entry of the same name, but the "
                           f"parent files have no expect entry named {name!r}"
                           if name is not None else
                           f"{where}.skip needs a name: it drops the parent's entry of that "
                           "name", skip.origin, code="expect-skip")
                return None
        why = self.string(entry.items.get("why"), f"{where}.why")
        if "inherited" in entry.items:
            self.error(f"{where}.inherited: drop (alone in its entry) drops every entry of the "
                       "parent files' expect lists, and only a file with 'extends' has any",
                       entry.items["inherited"].origin, code="expect-inherited")
            return None
        if "known" in entry.items:
            return self.known(number, name, why, entry, where)
        deal_item, position_item = entry.items.get("deal"), entry.items.get("position")
        if (deal_item is None) == (position_item is None):
            self.error(f"{where} needs exactly one of 'deal' (a deal number) and 'position' "
                       "(a position text)", entry.origin, code="expect-start")
        deal = None
        if deal_item is not None:
            deal = self.integer(deal_item, f"{where}.deal", 0, low=0, high=MAX_INTEGER)
        position = self.string(position_item, f"{where}.position")
        after = self.written_moves(entry.items.get("after"), f"{where}.after")
        legal = self.written_moves(entry.items.get("legal"), f"{where}.legal")
        illegal = self.written_moves(entry.items.get("illegal"), f"{where}.illegal",
                                     rules=True)
        moves = (self.written_moves(entry.items["moves"], f"{where}.moves")
                 if "moves" in entry.items else None)
        winnable = None
        winnable_item = entry.items.get("winnable")
        if winnable_item is not None:
            if not isinstance(winnable_item, Scalar) or winnable_item.tag != "bool":
                self.error(f"{where}.winnable must be true (proven won) or false (proven "
                           "unwinnable)", winnable_item.origin, code="expect-winnable")
            else:
                winnable = winnable_item.value.lower() == "true"
        within_item = entry.items.get("within")
        if within_item is not None and winnable_item is None:
            self.error(f"{where}.within is the solver's budget for 'winnable', which this "
                       "entry does not have", within_item.origin, code="expect-winnable")
        within = self.integer(within_item, f"{where}.within", DEFAULT_EXPECT_BUDGET, low=1,
                              high=MAX_EXPECT_BUDGET)
        perft = self.perft_counts(entry.items.get("perft"), f"{where}.perft")
        shows = self.string(entry.items.get("shows"), f"{where}.shows")
        return Expectation(number, name, why, deal, position, after, legal, illegal, moves,
                           winnable, within, perft, entry.origin, shows=shows)

    def known(self, number: int, name: str | None, why: str | None, entry: Mapping,
              where: str) -> Expectation | None:
        """``- known: [unwinnable-sample]`` with ``why``: findings the author acknowledges."""
        item = entry.items["known"]
        codes = self.strings(item, f"{where}.known")
        bad = [code for code in codes if not KNOWN_CODE.fullmatch(code)]
        if bad or not codes:
            self.error(f"{where}.known must list finding codes such as 'unwinnable-sample' or "
                       f"'claim-count' (got {bad[0] if bad else 'none'!r})", item.origin,
                       code="expect-known")
            return None
        if not why:
            self.error(f"{where}.known needs a 'why': the reason the finding is acknowledged, "
                       "shown in the report", entry.origin, code="expect-known")
            return None
        others = sorted(set(entry.items) - {"known", "why", "name"})
        if others:
            self.error(f"{where} acknowledges findings ('known'); it cannot also have "
                       f"{others[0]!r}: write the example as an entry of its own",
                       entry.items[others[0]].origin, code="expect-known")
            return None
        return Expectation(number, name, why, None, None, (), (), (), None, None,
                           DEFAULT_EXPECT_BUDGET, (), entry.origin, tuple(codes))

    def written_moves(self, item: Item | None, what: str,
                      rules: bool = False) -> tuple[WrittenMove, ...]:
        if item is None:
            return ()
        if not isinstance(item, Sequence):
            self.error(f"{what} must be a list of moves, e.g. [c1-c2, 'c3:2-t', deal]",
                       item.origin, code="expect-moves")
            return ()
        if len(item.items) > MAX_EXPECT_MOVES:
            self.error(f"{what} lists {len(item.items)} moves; at most {MAX_EXPECT_MOVES}",
                       item.origin, code="expect-moves")
            return ()
        moves = []
        for element in item.items:
            rule = None
            if rules and isinstance(element, Mapping):
                self.unknown_keys(element, ("move", "rule"), f"each entry of {what}")
                rule = self.string(element.items.get("rule"), f"{what}: the rule")
                element = self.required(element, "move", f"each entry of {what}") or element
            if not isinstance(element, Scalar) or element.tag not in ("str", "int"):
                self.error(f"each entry of {what} must be a move in notation, e.g. c1-c2"
                           + (", or {move: c1-c2, rule: piles.columns.accepts}" if rules
                              else ""), element.origin, code="expect-moves")
                continue
            moves.append(WrittenMove(element.value, element.origin, rule))
        return tuple(moves)

    def perft_counts(self, item: Item | None, what: str) -> tuple[tuple[int, int], ...]:
        if item is None:
            return ()
        if not isinstance(item, Mapping):
            self.error(f"{what} must map depths to leaf counts, e.g. {{1: 20, 2: 380}}",
                       item.origin, code="expect-perft")
            return ()
        counts = []
        for key, value in item.items.items():
            depth = int(key) if key.isascii() and key.isdigit() and len(key) < 4 else 0
            if not 1 <= depth <= MAX_EXPECT_PERFT_DEPTH:
                self.error(f"{what}: a depth is a whole number from 1 to "
                           f"{MAX_EXPECT_PERFT_DEPTH}, not {key!r}", item.keys[key],
                           code="expect-perft")
                continue
            leaves = self.integer(value, f"{what}[{depth}]", -1, low=0,
                                  high=MAX_EXPECT_PERFT_LEAVES)
            if leaves >= 0:
                counts.append((depth, leaves))
        return tuple(sorted(counts))

    def suits(self, item: Item | None) -> tuple[int, ...]:
        """The suits each deck has (``suits: [S, H]``), in C D H S order; all four by
        default."""
        if item is None:
            return (0, 1, 2, 3)
        found: set[int] = set()
        said: set[str] = set()  # each wrong entry is one error, however often it is listed
        for code in self.strings(item, "suits"):
            suit = "CDHS".find(code.strip().upper()[:1]) if len(code.strip()) == 1 else -1
            if code in said:
                continue
            if suit < 0:
                said.add(code)
                self.error(f"suits lists {code!r}: a suit is one of C, D, H, S", item.origin,
                           code="bad-suit")
            elif suit in found:
                said.add(code)
                self.error(f"suits lists {code!r} twice", item.origin, code="bad-suit")
            found.add(suit)
        if not found:
            self.error("suits must list at least one suit (C, D, H, S)", item.origin,
                       code="bad-suit")
            return (0, 1, 2, 3)
        return tuple(sorted(found))

    def raise_errors(self) -> None:
        if self.errors:
            raise self.errors.combined()

    def parameters(self, item: Mapping | None) -> dict[str, int | bool]:
        values: dict[str, int | bool] = {}
        if item is None:
            return values
        for key, value in item.items.items():
            if not is_name(key):
                self.error(f"parameter name {key!r} is not a name (ASCII letters, digits and "
                           "_, not starting with a digit)", item.keys[key], code="bad-name")
            elif key in KEYWORDS or key in BUILTIN_CONSTANTS or key in CONTEXT_VARIABLES:
                kind = ("a word of the rule language" if key in KEYWORDS else
                        "a built-in constant" if key in BUILTIN_CONSTANTS else
                        "a variable every rule sees")
                self.error(f"parameter name {key!r} is {kind}; choose another name",
                           item.keys[key], code="reserved-name")
            elif not isinstance(value, Scalar) or value.tag not in ("int", "bool"):
                self.error(f"parameter {key!r} must be true, false or a whole number",
                           value.origin, code="wrong-type")
            elif value.tag == "bool":
                if value.value not in ("true", "false", "True", "False"):
                    self.error(f"write true or false, not {value.value!r}", value.origin,
                               code="yaml-boolean")
                values[key] = value.value.lower() == "true"
            else:
                values[key] = value.integer
        return values

    def predicates(self, item: Mapping | None, parameters: dict[str, int | bool],
                   group_names: tuple[str, ...]) -> dict[str, Predicate]:
        predicates: dict[str, Predicate] = {}
        if item is None:
            return predicates
        signatures: dict[str, tuple[Signature, str, Origin, str, Origin | None]] = {}
        unreadable: set[str] = set()
        for key, value in item.items.items():
            key_origin = item.keys[key]
            try:
                signature = parse_signature(key)
            except ParseError as error:
                self.errors.append(VariantError(
                    f"a predicate is written 'name(a, b: type): expression': {error.message}",
                    key_origin.location_of_span(key, error.span), code=error.code))
                unreadable.add(key.split("(", 1)[0].strip())
                continue
            text, origin = self.expression_text(value, f"predicate {signature.name}", "false")
            if signature.name in signatures:
                self.error(f"predicate {signature.name!r} is defined twice", key_origin,
                           code="predicate-twice")
                continue
            if signature.name in parameters or signature.name in group_names:
                self.error(f"predicate {signature.name!r} has the name of a "
                           f"{'parameter' if signature.name in parameters else 'pile group'}",
                           key_origin, code="name-clash")
                continue
            if signature.name in DIRECTIONS:
                self.error(f"predicate {signature.name!r} has the name of a neighbour of the "
                           f"rule language ({signature.name}(pile)); choose another name",
                           key_origin, code="reserved-name")
                continue
            signatures[signature.name] = (signature, key, key_origin, text, origin)
        parsed: dict[str, Predicate] = {}
        broken: set[str] = set()
        for pname, (signature, key, key_origin, text, origin) in signatures.items():
            rule = self.parse(text, origin, f"predicate {pname}")
            if rule is None:  # reported; a stand-in keeps calls to it from cascading
                broken.add(pname)
                rule = Rule("true", parse_expression("true"), origin, f"predicate {pname}")
            parsed[pname] = Predicate(signature, rule.node, rule.text, (origin, key_origin))
        cyclic = _cycles(parsed)
        self.broken_predicates = frozenset(broken | unreadable | set(cyclic))
        self.shapes = InlinedShapes(parsed, self.broken_predicates)
        self.oversized = self.check_predicate_sizes(parsed, signatures)
        scope = Scope(constants={k: (Type.BOOL if isinstance(v, bool) else Type.INT, v)
                                 for k, v in parameters.items()},
                      groups=frozenset(group_names), predicates=parsed,
                      variables={"stock": Type.STOCK}, broken=self.broken_predicates)
        for pname, predicate in parsed.items():
            if pname in broken:
                continue
            variables = {p.name: p.type for p in predicate.signature.parameters}
            rule = Rule(predicate.text, predicate.body, predicate.origin[0], f"predicate {pname}")
            self.check(rule, scope.with_variables(variables), inlined=False)
        for pname in cyclic:
            origin = signatures[pname][2]
            self.error(f"predicate {pname!r} calls itself (directly or through others); "
                       "predicates cannot be recursive", origin, code="predicate-recursive")
        return parsed

    def check_predicate_sizes(self, parsed: dict[str, Predicate],
                              signatures: dict[str, tuple[Any, ...]]) -> frozenset[str]:
        """The predicates too large once the predicates they call are written out; each is
        reported unless one it calls is too large already (so only the first is named)."""
        shapes = self.shapes
        oversized = {pname for pname in shapes.forms
                     if not shapes.of_predicate(pname).fits()}
        for pname in oversized:
            calls = shapes.calls(parsed[pname].body)
            if any(call.function in oversized for call, _ in calls):
                continue
            self.error(f"predicate {pname!r} {_too_large(shapes.of_predicate(pname))} once "
                       "the predicates it calls are written out", signatures[pname][2],
                       code="rule-too-large")
        return frozenset(oversized)

    def pile_id(self, group: Mapping, where: str, ids: dict[str, str]) -> str:
        """The group's ``id`` ("?" when it is refused), each problem said once."""
        given = self.string(self.required(group, "id", where), f"{where}.id")
        if given is None:
            return "?"                              # missing or not text: said once above
        if not PILE_ID.fullmatch(given) or given in RESERVED_IDS:
            self.error(f"{where}.id must be lower-case ASCII letters other than "
                       f"{', '.join(sorted(RESERVED_IDS))}, e.g. 'c'",
                       group.items["id"].origin, code="bad-pile-id")
        elif given in ids:
            self.error(f"{where}.id {given!r} is already the id of piles.{ids[given]}",
                       group.items["id"].origin, code="pile-id-taken")
        return given or "?"

    def groups(self, item: Mapping, base: Scope) -> tuple[GroupDefinition, ...]:
        groups = []
        ids: dict[str, str] = {}
        for gname, value in item.items.items():
            where = f"piles.{gname}"
            group = self.mapping(value, where)
            if group is None:
                continue
            self.unknown_keys(group, GROUP_KEYS, where)
            if not is_name(gname):
                self.error(f"pile group name {gname!r} must be a name (ASCII letters, digits "
                           "and _, not starting with a digit)", item.keys[gname],
                           code="bad-name")
            pid = self.pile_id(group, where, ids)
            ids[pid] = gname
            count = self.integer(self.required(group, "count", where), f"{where}.count", 1,
                                 low=1, high=MAX_GROUP_PILES)
            deal = self.per_pile(group.items.get("deal"), f"{where}.deal", count)
            face_down, face_down_covered = self.face_down(group.items.get("face_down"), where,
                                                          count)
            for index, (dealt, down) in enumerate(zip(deal, face_down)):
                if down and down > dealt:
                    self.error(f"{where}.face_down: pile {index + 1} is dealt {dealt} "
                               f"card{'s' if dealt != 1 else ''}, so at most {max(dealt - 1, 0)} "
                               f"of them can lie face down (the top card is dealt face up)",
                               group.items["face_down"].origin, code="face-down")
                    break
            place = self.placed(group.items.get("place"), f"{where}.place", count)
            for index, (cards, down) in enumerate(zip(place, face_down)):
                if cards and down:  # (the placed cards lie face up under the dealt ones)
                    self.error(f"{where}.face_down: pile {index + 1} has cards placed on it "
                               f"({where}.place), face up, so none of the cards dealt onto "
                               "them can lie face down: face-down cards lie at the bottom of "
                               "a pile", group.items["face_down"].origin, code="face-down")
                    break
            to_bottom = None
            if "to_bottom" in group.items:
                text, origin = self.expression_text(group.items["to_bottom"],
                                                    f"{where}.to_bottom", "false")
                to_bottom = self.parse(text, origin, f"{where}.to_bottom")
                if self.check(to_bottom, base.with_variables({"card": Type.CARD})):
                    assert to_bottom is not None  # (it type-checked)
                    self.check_reads_no_table(to_bottom, base, TO_BOTTOM_READS)
            deal_first = self.deal_first(group, where, base)
            fill_from = self.string(group.items.get("fill_from"), f"{where}.fill_from")
            layout = self.layout(group.items.get("layout"), f"{where}.layout", count)
            ring, centre = self.drawing(group.items.get("layout"), f"{where}.layout", count)
            face_down = self.covered_face_down(group.items.get("face_down"), where, deal, place,
                                               layout, face_down)
            close_gaps, close_on_deal = self.closing(group.items.get("close_gaps"),
                                                     f"{where}.close_gaps")
            lands = Lands(self.choice(group.items.get("lands"), f"{where}.lands", words(Lands)))
            fill_when = self.fill_when(group, where, base, fill_from)
            target = Target(self.choice(group.items.get("target"), f"{where}.target",
                                        words(Target)))
            removal = Removal(self.choice(group.items.get("removal"), f"{where}.removal",
                                          words(Removal)))
            show = Show(self.choice(group.items.get("show"), f"{where}.show", words(Show)))
            moves_text, moves_origin = self.expression_text(group.items.get("moves"),
                                                            f"{where}.moves", "false")
            accepts_text, accepts_origin = self.expression_text(group.items.get("accepts"),
                                                                f"{where}.accepts", "false")
            moves = self.parse(moves_text, moves_origin, f"{where}.moves")
            accepts = self.parse(accepts_text, accepts_origin, f"{where}.accepts")
            self.check(moves, base.with_variables({"pile": Type.PILE, "run": Type.RUN},
                                                  nonempty=frozenset({"pile"})))
            self.check(accepts, base.with_variables(
                {"pile": Type.PILE, "run": Type.RUN, "source": Type.PILE},
                nonempty=frozenset({"source"})))
            if moves is None or accepts is None:
                continue
            merci = self.merci(group, where, face_down, face_down_covered)
            defined = GroupDefinition(gname, pid, count, deal, moves, accepts, target,
                                      removal, show, face_down, place, to_bottom,
                                      fill_from, deal_first, layout, close_gaps,
                                      close_on_deal, face_down_covered, lands, fill_when,
                                      ring, centre, merci)
            if self.face_down_tops(defined, group, where):
                groups.append(defined)
        if not groups and not self.errors:
            self.error("piles must define at least one pile group", item.origin,
                       code="no-piles")
        self.fill_sources(item, tuple(groups))
        self.centres(item, tuple(groups))
        if not self.errors:
            self.fill_loops(item, tuple(groups))
        self.merci_counts(item, tuple(groups))
        return tuple(groups)

    def merci(self, group: Mapping, where: str, face_down: tuple[int, ...],
              covered: bool) -> int:
        """A group's ``merci: N``: how many times a game the card just under a pile's top
        card may be drawn out and played (docs/authoring.md, "Drawing a buried card"). A
        drawn card is shown to the player, so no pile of the group may hold a face-down
        card: the group deals none face down."""
        item = group.items.get("merci")
        if item is None:
            return 0
        draws = self.integer(item, f"{where}.merci", 0, low=1, high=MAX_MERCI_DRAWS)
        if draws and (covered or any(face_down)):
            self.error(f"{where}.merci draws the card under a pile's top card, which must lie "
                       f"face up, but {where}.face_down deals cards face down there: drop one "
                       "of the two", item.origin, code="merci")
            return 0
        return draws

    def merci_counts(self, item: Mapping, groups: tuple[GroupDefinition, ...]) -> None:
        """The groups with ``merci`` share one count of draws a game: they give the same N."""
        counts = {g.merci for g in groups if g.merci}
        if len(counts) > 1:
            named = ", ".join(f"piles.{g.name}.merci: {g.merci}" for g in groups if g.merci)
            self.error(f"the groups with merci share one count of draws a game, so they give "
                       f"the same number; here {named}", item.origin, code="merci")

    def fill_when(self, group: Mapping, where: str, base: Scope,
                  fill_from: str | None) -> Rule | None:
        """A group's ``fill_when``: a rule on the table (as ``stock.deal_when`` reads it)
        that must hold for its ``fill_from`` fills to be made."""
        if "fill_when" not in group.items:
            return None
        item = group.items["fill_when"]
        if fill_from is None:
            self.error(f"{where}.fill_when says when the group's empty piles are filled, but "
                       f"the group has no fill_from: give {where}.fill_from", item.origin,
                       code="fill-from")
            return None
        text, origin = self.expression_text(item, f"{where}.fill_when", "true")
        rule = self.parse(text, origin, f"{where}.fill_when")
        self.check(rule, base)
        return rule

    def face_down_tops(self, defined: GroupDefinition, group: Mapping, where: str) -> bool:
        """Whether a group dealt with every card of a pile face down may be: only when no
        card leaves it by a move (docs/authoring.md, "Cards put under a pile")."""
        if not defined.all_face_down or defined.moves.never:
            return True
        index = next(i for i, (dealt, down) in enumerate(zip(defined.deal, defined.face_down))
                     if down and down == dealt)
        dealt = defined.deal[index]
        self.error(f"{where}.face_down: pile {index + 1} is dealt {dealt} "
                   f"card{'s' if dealt != 1 else ''}, so at most {max(dealt - 1, 0)} of them "
                   "can lie face down (the top card is dealt face up), unless the group gives "
                   "no card by a move (moves: false): then its cards are turned one by one by "
                   "a 'fill_from: last'", group.items["face_down"].origin, code="face-down")
        return False

    def fill_sources(self, item: Mapping, groups: tuple[GroupDefinition, ...]) -> None:
        """Each group's ``fill_from`` names a pile group, a pile, ``stock`` or ``last``."""
        known = {g.name for g in groups} | _pile_ids(groups)
        for defined in groups:
            if defined.fill_from is None:
                continue
            written = item.items[defined.name]
            assert isinstance(written, Mapping)  # a group that read is a mapping
            origin = written.items["fill_from"].origin
            if defined.fill_from in ("stock", "last"):
                continue
            given = next((g for g in groups if defined.fill_from in (g.name, *pile_names(g))),
                         None)
            if given is not None and given.all_face_down:
                self.error(f"piles.{defined.name}.fill_from names {defined.fill_from!r}, "
                           f"whose cards are dealt all face down (piles.{given.name}.face_down):"
                           " a fill would take a face-down card; 'fill_from: last' turns "
                           "them up one by one", origin, code="fill-from")
            elif defined.fill_from not in known:
                others = [g for g in groups if g is not defined]
                self.error(f"piles.{defined.name}.fill_from names {defined.fill_from!r}, which "
                           "is neither a pile group, nor a pile, nor the stock; the other pile "
                           f"groups are {listing([g.name for g in others]) or 'none'} and "
                           f"their piles {listing([p for g in others for p in pile_names(g)])}",
                           origin, code="fill-from")
            elif defined.fill_from == defined.name or defined.fill_from in pile_names(defined):
                self.error(f"piles.{defined.name}.fill_from names the group itself", origin,
                           code="fill-from")

    def face_down(self, item: Item | None, where: str,
                  count: int) -> tuple[tuple[int, ...], bool]:
        """A group's ``face_down``: the face-down cards of each pile, and whether it is the
        word ``covered`` (then worked out by :meth:`covered_face_down`, all 0 until then)."""
        if isinstance(item, Scalar) and item.tag == "str" and item.value == "covered":
            return (0,) * count, True
        return self.per_pile(item, f"{where}.face_down", count), False

    def covered_face_down(self, item: Item | None, where: str, deal: tuple[int, ...],
                          place: tuple[tuple[int, ...], ...], layout: Arrangement | None,
                          face_down: tuple[int, ...]) -> tuple[int, ...]:
        """``face_down: covered``: how many cards lie face down on each pile, all of a pile
        that a dealt pile covers at the start (docs/authoring.md, "Covered cards face
        down"); refused without an overlapping layout or with placed cards. Any other
        ``face_down`` is ``face_down`` as it was read."""
        if not (isinstance(item, Scalar) and item.tag == "str" and item.value == "covered"):
            return face_down
        if layout is None or not layout.overlap:
            self.error(f"{where}.face_down: covered lays the cards of covered piles face down, "
                       f"but {where} has no overlapping layout (layout: {{overlap: …}}): "
                       "give one, or a number of face-down cards", item.origin,
                       code="face-down")
            return (0,) * len(deal)
        if any(place):
            self.error(f"{where}.face_down: covered lays covered piles face down, but "
                       f"{where}.place puts cards face up on them: drop one of the two",
                       item.origin, code="face-down")
            return (0,) * len(deal)
        return tuple(dealt if any(deal[other] for other in layout.covering(index)) else 0
                     for index, dealt in enumerate(deal))

    def fill_loops(self, item: Mapping, groups: tuple[GroupDefinition, ...]) -> None:
        """Refuse fills that can pass cards round a loop for ever (docs/authoring.md,
        "Forced fills"): a group that fills, directly or through other groups' fills and
        forced removals, from a group that is fed from it. Reported once per loop, at the
        ``fill_from`` of its first group in file order."""
        takes = _forced_takes(groups)
        reported: set[frozenset[str]] = set()
        for defined in groups:
            loop = _loop_through(defined.name, takes)
            if loop is None or frozenset(name for name, _, _ in loop) in reported:
                continue
            reported.add(frozenset(name for name, _, _ in loop))
            written = item.items[defined.name]
            assert isinstance(written, Mapping)  # a group that read is a mapping
            steps = ", ".join(f"{taker} {how} {giver}" for taker, how, giver in loop)
            self.error(f"piles.{defined.name}.fill_from makes a loop of forced moves: {steps}; "
                       "a card could go round it for ever: fill from a group outside the loop",
                       written.items["fill_from"].origin, code="fill-loop")

    def deal_first(self, group: Mapping, where: str, base: Scope) -> Rule | None:
        """A group's ``deal_first``: a rule on ``card`` and ``first_card`` (the first card
        of the shuffled deck), worked out before the deal, so it may read no pile."""
        if "deal_first" not in group.items:
            return None
        text, origin = self.expression_text(group.items["deal_first"], f"{where}.deal_first",
                                            "false")
        rule = self.parse(text, origin, f"{where}.deal_first")
        if self.check(rule, base.with_variables({"card": Type.CARD, "first_card": Type.CARD})):
            assert rule is not None  # (it type-checked)
            self.check_reads_no_table(rule, base, DEAL_FIRST_READS)
            return rule
        return None

    def check_reads_no_table(self, rule: Rule, scope: Scope, context: str) -> None:
        """Refuse a rule that reads the stock or the piles (itself or through a predicate)
        where there are none to read; ``context`` says what it may read there."""
        found = table_read(rule.node, scope.predicates, scope.broken)
        if found is None:
            return
        node, what = found
        self.errors.append(VariantError(f"in {rule.key}: it {what}, but {context}",
                                        self.located(rule.origin, rule.text, node.span),
                                        code="reads-table"))

    def closing(self, item: Item | None, what: str) -> tuple[bool, bool]:
        """A group's ``close_gaps``: ``true`` (at once, after every move), ``false``, or
        ``deal`` (when the player deals): (closes at once, closes on the deal)."""
        if isinstance(item, Scalar) and item.tag == "str":
            if item.value == "deal":
                return False, True
            self.error(f"{what} must be true, false or deal, not {item.value!r}", item.origin,
                       code="wrong-type")
            return False, False
        return self.truth(item, what), False

    def truth(self, item: Item | None, what: str) -> bool:
        """A true/false key (false when absent)."""
        if item is None:
            return False
        if not isinstance(item, Scalar) or item.tag != "bool" or item.value not in (
                "true", "false", "True", "False"):
            shown = item.value if isinstance(item, Scalar) else type(item).__name__.lower()
            self.error(f"{what} must be true or false, not {shown!r}", item.origin,
                       code="wrong-type")
            return False
        return item.value.lower() == "true"

    def layout(self, item: Item | None, what: str, count: int) -> Arrangement | None:
        """A group's ``layout``: ``rows`` and ``columns`` of a grid (piles numbered row by
        row), or ``overlap``, the x positions of each row's piles in half-card units, back
        row first (docs/authoring.md, "Places")."""
        layout = self.mapping(item, what)
        if layout is None:
            return None
        self.unknown_keys(layout, LAYOUT_KEYS, what)
        if any(key in layout.items for key in DRAWING_KEYS):
            return None  # a ring or a centre (:meth:`drawing`): the piles stand in one row
        if "overlap" in layout.items:
            if "rows" in layout.items or "columns" in layout.items:
                self.error(f"{what} gives overlap and rows/columns: an overlap layout's rows "
                           "are its lists, give one or the other", layout.origin,
                           code="layout")
                return None
            return self.overlap(layout.items["overlap"], f"{what}.overlap", count)
        if "rows" not in layout.items and "columns" not in layout.items:
            self.error(f"{what} needs rows and columns (a grid), overlap (rows of x "
                       "positions), ring (piles round a circle) or centre (the middle of a "
                       "ring)", layout.origin, code="layout")
            return None
        rows = self.integer(self.required(layout, "rows", what), f"{what}.rows", 0,
                            low=1, high=MAX_GROUP_PILES)
        columns = self.integer(self.required(layout, "columns", what), f"{what}.columns", 0,
                               low=1, high=MAX_GROUP_PILES)
        if rows and columns and rows * columns != count:
            self.error(f"{what} has {rows} rows of {columns} columns, {rows * columns} "
                       f"places, for {count} pile{'s' if count != 1 else ''}: rows × "
                       "columns must be the group's count", layout.origin, code="layout")
            return None
        return Arrangement.grid(rows, columns) if rows and columns else None

    def drawing(self, item: Item | None, what: str,
                count: int) -> tuple[Ring | None, str | None]:
        """A group's ``layout`` when it says only where the group is drawn: ``ring`` (the
        number of places round the circle: the group's count) with ``start`` (the place of
        its first pile, from 1; the last place is the top), or ``centre`` (the group whose
        ring it stands in the middle of, checked by :meth:`centres`). (None, None) for any
        other layout (docs/authoring.md, "Places")."""
        if not isinstance(item, Mapping) or not any(key in item.items
                                                    for key in DRAWING_KEYS):
            return None, None
        given = [key for key in item.items if key in LAYOUT_KEYS]
        kinds = [key for key in given if key != "start"]
        if "start" in given and "ring" not in given:
            self.error(f"{what}.start is the place of the first pile of a ring: give "
                       f"{what}.ring too", item.items["start"].origin, code="layout")
            return None, None
        if len([key for key in kinds if key not in ("rows", "columns")]) + \
                ("rows" in kinds or "columns" in kinds) > 1:
            self.error(f"{what} gives {' and '.join(kinds)}: a group stands in a grid, "
                       "overlapping rows, a ring or the centre of a ring, give one",
                       item.origin, code="layout")
            return None, None
        if "centre" in given:
            return None, self.string(item.items["centre"], f"{what}.centre")
        places = self.integer(item.items["ring"], f"{what}.ring", 0, low=3,
                              high=MAX_GROUP_PILES)
        if places and places != count:
            self.error(f"{what} has a ring of {places} places for {count} "
                       f"pile{'s' if count != 1 else ''}: a ring's places are the group's "
                       "count", item.origin, code="layout")
            return None, None
        start = self.integer(item.items.get("start"), f"{what}.start", 1, low=1,
                             high=max(places, 1))
        return (Ring(places, start) if places else None), None

    def centres(self, item: Mapping, groups: tuple[GroupDefinition, ...]) -> None:
        """Each ``layout: {centre: GROUP}`` names another group, one that stands in a
        ring."""
        rings = {g.name for g in groups if g.ring is not None}
        for defined in groups:
            if defined.centre is None or defined.centre in rings:
                continue
            layout = item.items[defined.name]
            assert isinstance(layout, Mapping)
            written = layout.items["layout"]
            assert isinstance(written, Mapping)
            where = f"piles.{defined.name}.layout.centre"
            known = [g.name for g in groups]
            if defined.centre not in known:
                close = difflib.get_close_matches(defined.centre, known, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                self.error(f"{where} names {defined.centre!r}, which is no pile group"
                           f"{hint}: give the group whose ring it stands in the middle of",
                           written.items["centre"].origin, code="layout")
            else:
                self.error(f"{where} names {defined.centre!r}, which stands in no ring: "
                           f"give piles.{defined.centre}.layout a ring (ring: its count), or "
                           "name a group that has one", written.items["centre"].origin,
                           code="layout")

    def overlap(self, item: Item, what: str, count: int) -> Arrangement | None:
        if not isinstance(item, Sequence) or not item.items or not all(
                isinstance(row, Sequence) and row.items for row in item.items):
            self.error(f"{what} must be a list of rows, each a list of x positions in "
                       "half-card units, back row first, e.g. [[2], [1, 3]]", item.origin,
                       code="layout")
            return None
        rows = []
        for row in item.items:
            assert isinstance(row, Sequence)
            xs = tuple(self.integer(x, f"each x position of {what}", -1, low=0,
                                    high=4 * MAX_GROUP_PILES) for x in row.items)
            if -1 in xs:  # a position refused above (-1: the integer's error is said)
                return None
            if any(b <= a for a, b in itertools.pairwise(xs)):
                self.error(f"{what}: the x positions of a row must grow from left to right, "
                           f"not {list(xs)}", row.origin, code="layout")
                return None
            rows.append(xs)
        places = sum(len(row) for row in rows)
        if places != count:
            self.error(f"{what} places {places} pile{'s' if places != 1 else ''} for a group "
                       f"of {count}: give one x position per pile", item.origin,
                       code="layout")
            return None
        return Arrangement.overlapping(rows)

    def per_pile(self, item: Item | None, what: str, count: int) -> tuple[int, ...]:
        """A number for each pile: one number for all, or a list with one per pile."""
        if isinstance(item, Sequence):
            values = tuple(self.integer(element, f"each entry of {what}", 0, low=0, high=104)
                           for element in item.items)
            if len(values) != count:
                self.error(f"{what} lists {len(values)} number{'s' if len(values) != 1 else ''}"
                           f" for {count} pile{'s' if count != 1 else ''}: give one per pile "
                           "(or one number for all)", item.origin, code="per-pile")
                return (0,) * count
            return values
        return (self.integer(item, what, 0, low=0, high=104),) * count

    def placed(self, item: Item | None, what: str, count: int) -> tuple[tuple[int, ...], ...]:
        """Cards placed on each pile before the deal: a list with one entry per pile (from
        the first), each a card code or a list of codes, bottom first."""
        if item is None:
            return ()
        if not isinstance(item, Sequence):
            self.error(f"{what} must be a list with one entry per pile: a card code such as "
                       "AS, or a list of codes", item.origin, code="place")
            return ()
        if len(item.items) > count:
            self.error(f"{what} lists {len(item.items)} piles, but the group has {count}",
                       item.origin, code="place")
            return ()
        piles: list[tuple[int, ...]] = []
        for entry in item.items:
            codes = entry.items if isinstance(entry, Sequence) else [entry]
            cards = []
            for code in codes:
                text = self.string(code, f"each card of {what}")
                if text is None:
                    continue
                try:
                    cards.append(parse_card(text))
                except DealError as error:
                    self.error(f"{what}: {error.message}", code.origin, code="place")
            piles.append(tuple(cards))
        return tuple(piles)

    def check_sizes(self, top: Mapping, groups: tuple[GroupDefinition, ...],
                    stock: StockDefinition, decks: int, ranks: int,
                    suits: tuple[int, ...] = (0, 1, 2, 3)) -> None:
        deck = decks * len(suits) * ranks
        layout = sum(sum(group.deal) for group in groups)
        placed = Counter(card for group in groups for pile in group.place for card in pile)
        for card, times in sorted(placed.items()):
            in_deck = card >> 2 <= ranks and card & 3 in suits
            if not in_deck or times > decks:
                self.error(f"the piles' place lists put {card_code(card)} on the table "
                           f"{times} time{'s' if times != 1 else ''}, but the deck holds it "
                           f"{decks if in_deck else 0} time"
                           f"{'s' if decks != 1 else ''}", top.origin, code="card-count")
        layout += sum(placed.values())
        piles = top.items.get("piles")
        where = piles.origin if piles is not None else top.origin
        if layout > deck:
            self.error(f"the initial deal needs {layout} cards but the deck has {deck}", where,
                       code="card-count")
        elif layout < deck and not stock.deals_to and groups:
            stock_item = top.items.get("stock")
            self.error(f"{deck - layout} cards are left for the stock, but no stock.deals_to "
                       "says which piles a deal feeds", stock_item.origin if stock_item
                       else where, code="stock-unused")

    def stock(self, item: Mapping | None, groups: tuple[GroupDefinition, ...],
              base: Scope, group_names: tuple[str, ...] = ()) -> StockDefinition:
        if item is None:
            return StockDefinition((), EmptyPiles.INCLUDE, Rule("true", parse_expression("true"),
                                                       None, "stock.deal_when"))
        self.unknown_keys(item, STOCK_KEYS, "stock")
        targets = self.strings(item.items.get("deals_to"), "stock.deals_to")
        known = {g.name for g in groups} | _pile_ids(groups)
        for target in targets:
            if target in group_names:  # a group that failed to read is reported already
                continue
            if target not in known and groups:
                close = difflib.get_close_matches(target, sorted(known), n=1)
                names = (f"the pile groups are {listing([g.name for g in groups])} and the piles "
                         f"{listing([p for g in groups for p in pile_names(g)])}")
                hint = f"; did you mean {close[0]!r}? {names[0].upper()}{names[1:]}" if close \
                    else f"; {names}"
                self.error(f"stock.deals_to names {target!r}, which is neither a pile group "
                           f"nor a pile{hint}", item.items["deals_to"].origin,
                           code="unknown-pile")
        empty = EmptyPiles(self.choice(item.items.get("empty_piles"), "stock.empty_piles",
                                       words(EmptyPiles)))
        turn = self.integer(item.items.get("turn"), "stock.turn", 1, low=1, high=104)
        redeals_item = item.items.get("redeals")
        redeals = self.count_or_unlimited(redeals_item, "stock.redeals", 0)
        clash = next((g for g in groups if g.id == "r"), None)
        if redeals is not None and redeals > 0 and clash is not None:
            assert redeals_item is not None
            self.error(f"piles.{clash.name}.id 'r' is the redeal count's field in the position "
                       "text of a game with a limited number of redeals; choose another id",
                       redeals_item.origin, code="pile-id-taken")
        if redeals != 0:
            single = [g for g in groups if g.count == 1 and (g.name in targets or g.id in
                                                             targets)]
            if len(targets) != 1 or not (single or any(t in _pile_ids(groups)
                                                       for t in targets)):
                assert redeals_item is not None
                self.error("stock.redeals turns the waste back into the stock: stock.deals_to "
                           "must then name the one waste pile", redeals_item.origin,
                           code="redeals")
        text, origin = self.expression_text(item.items.get("deal_when"), "stock.deal_when",
                                            "true")
        deal_when = self.parse(text, origin, "stock.deal_when")
        self.check(deal_when, base)
        gather = self.gather(self.mapping(item.items.get("gather"), "stock.gather"), groups,
                             group_names, base)
        closing = next((g for g in groups if g.close_on_deal), None)
        if closing is not None and (gather is not None or redeals != 0):
            self.error(f"piles.{closing.name}.close_gaps: deal closes its gaps as the deal's "
                       "first step, and a redeal (stock.redeals or stock.gather) has no such "
                       "step: drop one of them", item.origin, code="close-gaps")
        if gather is not None and redeals != 0:
            assert redeals_item is not None
            self.error("stock.redeals turns the waste back into the stock and stock.gather "
                       "gathers piles to deal them again: a game has one kind of redeal; "
                       "drop one of them", redeals_item.origin, code="gather")
        top = self.string(item.items.get("top"), "stock.top")
        return StockDefinition(targets, empty, deal_when or Rule(
            "true", parse_expression("true"), None, "stock.deal_when"), turn, redeals, gather,
            top)

    def stock_top(self, item: Mapping | None, stock: StockDefinition,
                  groups: tuple[GroupDefinition, ...]) -> tuple[GroupDefinition, ...]:
        """``stock.top``: the group of one pile on which the stock's next card lies face up
        (docs/authoring.md, "A stock whose top card is in play"). The group is given its
        fill from the stock here, so every later step sees an ordinary forced fill."""
        if stock.top is None or item is None:
            return groups
        origin = item.items["top"].origin
        by_name = {g.name: g for g in groups}
        group = by_name.get(stock.top)
        if group is None:
            if stock.top not in self.group_sizes:  # (a group that failed is reported)
                close = difflib.get_close_matches(stock.top, list(by_name), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                self.error(f"stock.top names {stock.top!r}, which is not a pile group{hint}; "
                           f"the pile groups are {listing(list(by_name))}", origin,
                           code="stock-top")
            return groups
        wrong = self._stock_top_wrong(group, stock)
        if wrong is not None:
            self.error(f"stock.top names {group.name!r}, {wrong}: the stock's top card lies "
                       "alone on a group of one pile (count: 1) that is dealt nothing, takes "
                       "no card (accepts: false) and is filled only from the stock", origin,
                       code="stock-top")
            return groups
        return tuple(attrs.evolve(g, fill_from="stock") if g is group else g for g in groups)

    def stock_top_fed(self, top: Mapping, stock: StockDefinition,
                      discards: tuple[DiscardDefinition, ...]) -> None:
        """Refuse a discard or a gathering redeal that would put cards on ``stock.top``'s
        pile: only the stock fills it."""
        if stock.top is None:
            return
        feeders = [f"discards[{n}].to" for n, d in enumerate(discards, start=1)
                   if d.to == stock.top]
        if stock.gather is not None and stock.top in stock.gather.sources:
            feeders.append("stock.gather.from")
        if feeders:
            item = top.items["stock"]
            assert isinstance(item, Mapping)
            self.error(f"stock.top names {stock.top!r}, which {' and '.join(feeders)} also "
                       "names: only the stock puts cards on the pile of its top card",
                       item.items["top"].origin, code="stock-top")

    @staticmethod
    def _stock_top_wrong(group: GroupDefinition, stock: StockDefinition) -> str | None:
        """What keeps ``group`` from holding the stock's top card, or None."""
        if group.count != 1:
            return f"a group of {group.count} piles"
        if sum(group.deal) or any(group.place):
            return "which is dealt cards at the start"
        if not group.accepts.never:
            return f"whose accepts rule is {group.accepts.text!r}"
        if group.fill_from is not None:
            return f"which fills from {group.fill_from!r}"
        if group.name in stock.deals_to or group.id in stock.deals_to:
            return "which the stock deals to"
        if group.removal is Removal.FORCED:
            return "whose removal is forced"
        return None

    def gather(self, item: Mapping | None, groups: tuple[GroupDefinition, ...],
               group_names: tuple[str, ...], base: Scope) -> GatherDefinition | None:
        """``stock.gather``: which piles a redeal gathers, whether it shuffles, how many
        cards it deals a pile, and how many times."""
        if item is None:
            return None
        self.unknown_keys(item, GATHER_KEYS, "stock.gather")
        from_item = self.required(item, "from", "stock.gather")
        sources = self.strings(from_item, "stock.gather.from")
        known = {g.name for g in groups} | _pile_ids(groups)
        for source in sources:
            if source not in known and source not in group_names and groups:
                assert from_item is not None
                close = difflib.get_close_matches(source, sorted(known), n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                self.error(f"stock.gather.from names {source!r}, which is neither a pile "
                           f"group nor a pile{hint}", from_item.origin, code="unknown-pile")
        if from_item is not None and not sources:
            self.error("stock.gather.from names no pile: name the groups (or piles) whose "
                       "cards a redeal gathers, e.g. [fans]", from_item.origin, code="gather")
        shuffle_item = item.items.get("shuffle")
        shuffle = False
        if shuffle_item is not None:
            if not isinstance(shuffle_item, Scalar) or shuffle_item.tag != "bool":
                self.error("stock.gather.shuffle must be true or false", shuffle_item.origin,
                           code="wrong-type")
            elif shuffle_item.value not in ("true", "false", "True", "False"):
                self.error(f"write true or false, not {shuffle_item.value!r}",
                           shuffle_item.origin, code="yaml-boolean")
            else:
                shuffle = shuffle_item.value.lower() == "true"
        deal_item = self.required(item, "deal", "stock.gather")
        deal = self.integer(deal_item, "stock.gather.deal", 1, low=1, high=104)
        redeals_item = self.required(item, "redeals", "stock.gather")
        redeals = self.count_or_unlimited(redeals_item, "stock.gather.redeals", 1)
        if shuffle and redeals is None:
            assert redeals_item is not None
            self.error("stock.gather shuffles, so its redeals must be counted (each "
                       "redeal's shuffle is drawn by its number): give a whole number, not "
                       "'unlimited'", redeals_item.origin, code="gather")
        for field, used, what in (("r", redeals is not None, "redeal count"),
                                  ("z", shuffle, "shuffle seed")):
            clash = next((g for g in groups if g.id == field), None)
            if used and clash is not None:
                self.error(f"piles.{clash.name}.id {field!r} is the {what}'s field in the "
                           "position text of a game whose stock.gather uses it; choose "
                           "another id", item.origin, code="pile-id-taken")
        keep = self.gather_rule(item, "keep", base)
        gaps_item = item.items.get("gaps")
        if isinstance(gaps_item, Scalar) and gaps_item.tag == "int":
            blanks = self.integer(gaps_item, "stock.gather.gaps", 0, low=1, high=MAX_GROUP_PILES)
            if not shuffle or deal != 1:
                self.error("stock.gather.gaps as a number shuffles that many gaps in among "
                           "the gathered cards, one card a pile: give shuffle: true and "
                           "deal: 1, or write gaps as a rule on pile", gaps_item.origin,
                           code="gather")
            return GatherDefinition(sources, shuffle, deal, redeals, keep, None, blanks)
        gaps = self.gather_rule(item, "gaps", base)
        return GatherDefinition(sources, shuffle, deal, redeals, keep, gaps)

    def gather_rule(self, item: Mapping, key: str, base: Scope) -> Rule | None:
        """``stock.gather.keep`` or ``.gaps``: a rule on ``pile``, one of the gathered piles
        (docs/authoring.md, "Redeals that keep some cards")."""
        if key not in item.items:
            return None
        text, origin = self.expression_text(item.items[key], f"stock.gather.{key}", "false")
        rule = self.parse(text, origin, f"stock.gather.{key}")
        if self.check(rule, base.with_variables({"pile": Type.PILE})):
            return rule
        return None


def pile_names(group: GroupDefinition) -> list[str]:
    """The notation names of a group's piles: 'c1'…'c4', or just 't' for a single pile."""
    if group.count == 1:
        return [group.id]
    return [f"{group.id}{i}" for i in range(1, group.count + 1)]


def _pile_ids(groups: tuple[GroupDefinition, ...]) -> set[str]:
    return {pile for group in groups for pile in pile_names(group)}


def _forced_takes(groups: tuple[GroupDefinition, ...]) -> dict[str, list[tuple[str, str]]]:
    """Where each group's forced moves can take cards from: ``{taker: [(how, giver)]}``.

    A group with ``fill_from`` takes from the group of its source (the stock is left out: it
    only empties). A ``removal: forced`` group takes from every group outside the forced ones
    (where forced removals start, see ``patience.generator``) unless the giver's ``moves`` or
    its own ``accepts`` is ``false``, or its ``accepts`` demands ``source in`` another group.
    """
    group_of = {pile: g.name for g in groups for pile in pile_names(g)}
    group_of.update((g.name, g.name) for g in groups)
    takes: dict[str, list[tuple[str, str]]] = {g.name: [] for g in groups}
    for taker in groups:
        if taker.fill_from is not None and taker.fill_from in group_of:
            takes[taker.name].append(("fills from", group_of[taker.fill_from]))
        if taker.removal is not Removal.FORCED or _never(taker.accepts.node):
            continue
        for giver in groups:
            if giver.removal is Removal.FORCED or _never(giver.moves.node):
                continue
            if _only_from_others(taker.accepts.node, giver.name):
                continue
            takes[taker.name].append(("takes by forced removal from", giver.name))
    return takes


def _never(node: Node) -> bool:
    return isinstance(node, Boolean) and not node.value


def _only_from_others(accepts: Node, giver: str) -> bool:
    """Whether an ``accepts`` rule says, as one of its ``and`` parts, that the cards come
    from a group other than ``giver`` (``source in columns``, ``source not in tail``)."""
    parts = accepts.values if isinstance(accepts, BoolOp) and accepts.op == "and" \
        else (accepts,)
    return any(isinstance(part, Member) and isinstance(part.value, Name)
               and part.value.id == "source" and (part.group == giver) == part.negated
               for part in parts)


def _loop_through(start: str, takes: dict[str, list[tuple[str, str]]]
                  ) -> list[tuple[str, str, str]] | None:
    """The shortest loop of forced moves that starts with ``start``'s fill: the steps
    ``(taker, how, giver)``, each giver the next step's taker and the last giver ``start``.
    None when ``start`` does not fill from a group, or nothing leads back to it."""
    fill = next((giver for how, giver in takes[start] if how == "fills from"), None)
    if fill is None:
        return None
    came_from: dict[str, tuple[str, str]] = {fill: (start, "fills from")}
    queue = [fill]
    for taker in queue:  # breadth first: the queue grows as it is read
        for how, giver in takes[taker]:
            if giver in came_from:
                continue
            came_from[giver] = (taker, how)
            if giver == start:
                steps = []
                node = start
                while True:
                    previous, step = came_from[node]
                    steps.append((previous, step, node))
                    node = previous
                    if node == start:
                        return steps[::-1]
            queue.append(giver)
    return None


def _too_large(shape: Shape) -> str:
    """What is too large about a shape, to follow the name of a rule or predicate."""
    if shape.nodes > MAX_INLINED_NODES:
        return f"is more than {MAX_INLINED_NODES:_} nodes long (the limit)"
    if shape.depth > MAX_INLINED_DEPTH:
        return f"is more than {MAX_INLINED_DEPTH} levels deep (the limit)"
    return (f"nests quantifiers {shape.quantifiers} deep ('all'/'any' inside 'all'/'any'; "
            f"the limit is {MAX_QUANTIFIER_NESTING})")


def _cycles(predicates: dict[str, Predicate]) -> list[str]:
    """The predicates that call themselves, directly or through others, in file order.

    Tarjan's strongly connected components, iterative: linear in the number of calls.
    """
    calls = {name: sorted({n.function for n in walk(p.body)
                           if isinstance(n, Call) and n.function in predicates})
             for name, p in predicates.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    cyclic: set[str] = set()
    for root in predicates:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, position = work.pop()
            if position == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if position < len(calls[node]):
                work.append((node, position + 1))
                callee = calls[node][position]
                if callee not in index:
                    work.append((callee, 0))
                elif callee in on_stack:
                    low[node] = min(low[node], index[callee])
                continue
            for callee in calls[node]:
                if callee in on_stack:
                    low[node] = min(low[node], low[callee])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in calls[node]:
                    cyclic.update(component)
    return [name for name in predicates if name in cyclic]


def _plain(item: Item) -> Any:
    if isinstance(item, Mapping):
        return {key: _plain(value) for key, value in item.items.items()}
    if isinstance(item, Sequence):
        return [_plain(value) for value in item.items]
    if item.tag == "int":
        return item.integer
    if item.tag == "bool":
        return item.value.lower() == "true"
    if item.tag == "null":
        return None
    return item.value
