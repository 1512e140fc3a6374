"""The compiled :class:`Variant`, and finding variants by name, alias or path.

A variant file compiles into one ``Variant``: its settings (pile groups, deal, win) plus the
generated functions of ``patience.generator``. The kernel (``patience.game``), the solver,
the player and the test battery only ever see this object; nothing outside the loader
branches on a variant's name.

>>> tabbycat = find_variant("tabbycat")
>>> tabbycat.pile_names
('c1', 'c2', 'c3', 'c4', 't', 'f1', 'f2', 'f3', 'f4')
>>> game = tabbycat.deal(1)
>>> game.text()[:36]
'c:7D/9C/4D/8H t: f:/// s:8D5SJD6D9SJ'
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import attrs

from patience.cards import check_deck, new_deck, numbered_deck, parse_cards
from patience.definition import Definition, Rule, Score, load_definition, pile_names
from patience.errors import UnknownVariantError, VariantError
from patience.game import Game
from patience.generator import Generated, generate
from patience.language import (
    Attribute,
    Boolean,
    Name,
    Node,
    Predicate,
    Quantifier,
    guarded_piles,
    parse_expression,
    walk,
)
from patience.moves import FROM_STOCK, Gather, Merci, Play, TakeBack, make_player, merci_of
from patience.places import Arrangement, PileMaps, Ring
from patience.plan import RulePlan, make_plan, rule_note
from patience.rulestext import rules_text
from patience.safe_derivation import Derivation, derive_safe
from patience.settings import EmptyPiles, Lands, Removal, Show, Target
from patience.source import read_variant_file, variants_directory

if TYPE_CHECKING:
    from patience.solver.constants import Scores


@attrs.frozen
class Discard:
    """A discard compiled: ``cards`` top cards of the ``sources`` piles (any ``cards`` of
    them, chosen in pile order) onto pile ``target`` when ``when`` holds. Its sets of piles
    are ``variant.discard_sets[start:stop]``, the move of set ``i`` is ``(-2 - i, cards,
    target)``."""

    cards: int
    sources: tuple[int, ...]
    groups: tuple[str, ...]  # the 'from' groups
    target: int
    when: Rule
    start: int
    stop: int


def discard_sets(discards: Sequence[Discard]) -> tuple[tuple[int, ...], ...]:
    """Every discard's sets of piles, discard by discard, each in pile order and the sets
    in lexicographic order (``itertools.combinations``)."""
    return tuple(chosen for discard in discards
                 for chosen in itertools.combinations(discard.sources, discard.cards))


@attrs.frozen
class Group:
    """One group of piles (columns, tail, foundations…) with its place in the pile list."""

    name: str
    id: str
    indices: range
    deal: tuple[int, ...]  # cards dealt to each pile at the start
    target: Target
    removal: Removal
    show: Show
    moves: Rule
    accepts: Rule
    pile_names: tuple[str, ...]
    face_down: tuple[int, ...] = ()  # of those, how many lie face down
    place: tuple[tuple[int, ...], ...] = ()  # cards put on each pile before the deal
    to_bottom: Rule | None = None
    fill_from: range | None = None
    deal_first: Rule | None = None  # the cards that lead the deal, dealt here first
    #: where its piles stand (docs/authoring.md, "Places"): one row unless laid out
    layout: Arrangement | None = None
    #: after a move (and each forced step) its non-empty piles slide toward its start
    close_gaps: bool = False
    close_on_deal: bool = False  # ``close_gaps: deal``: its gaps close when the player deals
    #: ``face_down: covered``: a face-down top card turns up once nothing covers its pile
    face_down_covered: bool = False
    #: a move's cards land under the cards of its piles (``lands: bottom``)
    lands: Lands = Lands.TOP
    #: an empty pile here takes, turned up, the next face-down card of the pile the last
    #: card went to (``fill_from: last``)
    fill_last: bool = False
    #: the fills are made only while it holds (``fill_when``; None: always)
    fill_when: Rule | None = None
    #: drawn round a circle (``layout: {ring: N}``); the rules read it as one row
    ring: Ring | None = None
    #: drawn at the centre of the ring of the group of this name (``layout: {centre: …}``)
    centre: str | None = None
    #: ``merci: N``: the card just under a pile's top card may be drawn out, N times a
    #: game (``Variant.merci``); 0: never
    merci: int = 0

    @property
    def arrangement(self) -> Arrangement:
        return self.layout or Arrangement.row(self.count)

    @property
    def count(self) -> int:
        return len(self.indices)


#: the generated code's ``first_forced`` (None: the variant forces no move)
Forced = Callable[[list[list[int]], list[int]], tuple[int, int, int] | None] | None


class Variant:
    """A variant compiled from its definition. Load one with :func:`find_variant`."""

    def __init__(self, definition: Definition, text: str, tabulate: bool = True) -> None:
        self.definition = definition
        self.text = text  # the file as written (a child file still names its parent)
        self.id = definition.id
        self.name = definition.name
        self.aliases = definition.aliases
        self.description = definition.description
        self.sources = definition.sources
        self.family = definition.family  # e.g. 'FreeCell': 'patience variants' groups by it
        self.path = definition.path
        self.decks = definition.decks
        self.ranks = definition.ranks
        # read-only views: a Variant is shared (cached by find_variant) between games
        self.parameters: Mapping[str, int | bool] = MappingProxyType(dict(definition.parameters))
        self.predicates: Mapping[str, Predicate] = MappingProxyType(dict(definition.predicates))
        self.suits = definition.suits
        self.deck = tuple(new_deck(self.decks, self.ranks, self.suits))
        groups = []
        start = 0
        ranges = {}
        for group in definition.groups:
            ranges[group.name] = range(start, start + group.count)
            for offset, pile in enumerate(pile_names(group)):
                ranges[pile] = range(start + offset, start + offset + 1)
            start += group.count
        for group in definition.groups:
            groups.append(Group(group.name, group.id, ranges[group.name], group.deal,
                                group.target, group.removal, group.show, group.moves,
                                group.accepts, tuple(pile_names(group)),
                                group.face_down or (0,) * group.count, group.place,
                                group.to_bottom,
                                FROM_STOCK if group.fill_from == "stock" else
                                None if group.fill_from in (None, "last") else
                                ranges[group.fill_from],
                                group.deal_first, group.layout, group.close_gaps,
                                group.close_on_deal, group.face_down_covered,
                                group.lands, group.fill_from == "last", group.fill_when,
                                group.ring, group.centre, group.merci))
        self.groups: tuple[Group, ...] = tuple(groups)
        #: the solver's move ordering scores where they are not the search's own
        #: (``patience.solver.constants.SEARCH.scores``, read by both engines through
        #: ``SolverRules.scores``): only a variant a hint derives to look for a line without
        #: take-backs has its own (``patience.solver.lines.without_take_backs``)
        self.ordering_scores: Scores | None = None
        self.group_by_name: Mapping[str, Group] = MappingProxyType(
            {group.name: group for group in groups})
        self.pile_names: tuple[str, ...] = tuple(n for g in groups for n in g.pile_names)
        self.pile_index: Mapping[str, int] = MappingProxyType(
            {pile: i for i, pile in enumerate(self.pile_names)})
        self.group_of_pile: tuple[Group, ...] = tuple(g for g in groups for _ in g.indices)
        self.discards: tuple[Discard, ...] = self._discards(definition, ranges)
        #: every discard's sets of piles (the move ``(-2 - i, cards, target)`` takes set i)
        self.discard_sets: tuple[tuple[int, ...], ...] = discard_sets(self.discards)
        #: every pile's place, neighbours and covering piles (docs/authoring.md, "Places")
        self.pile_maps = PileMaps(tuple((g.indices.start, g.arrangement) for g in groups))
        self.turn = definition.stock.turn
        self.deal_targets: tuple[int, ...] = tuple(
            index for index in self._deal_targets(definition) for _ in range(self.turn))
        self.deal_skips_empty = definition.stock.empty_piles is EmptyPiles.SKIP
        #: ``empty_piles: only``: a deal gives a card to the empty deal targets alone
        self.deal_fills_empty = definition.stock.empty_piles is EmptyPiles.ONLY
        #: the groups whose gaps close when the player deals (``close_gaps: deal``), as
        #: pile ranges: the deal's first step (docs/authoring.md, "Closing gaps when the
        #: player deals")
        self.deal_closing: tuple[range, ...] = tuple(g.indices for g in groups
                                                     if g.close_on_deal)
        #: the cards put on the piles before the deal, pile by pile (they leave the deck
        #: before it is shuffled: see docs/authoring.md, "Cards placed before the deal")
        self.placed: tuple[tuple[int, int], ...] = tuple(
            (g.indices.start + offset, card) for g in groups
            for offset, cards in enumerate(g.place) for card in cards)
        self.layout_size = sum(sum(g.deal) for g in groups)
        self.shuffled_size = len(self.deck) - len(self.placed)
        if self.layout_size > self.shuffled_size:
            raise VariantError(f"the initial deal needs {self.layout_size} cards but the deck "
                               f"has {self.shuffled_size}", None, code="card-count")
        self.stock_size = self.shuffled_size - self.layout_size
        self.win = definition.win
        #: ``solver.safe`` (None: no move declared safe); see docs/solver.md, "Safe moves"
        self.safe: Rule | None = definition.safe
        #: ``score:`` (docs/authoring.md): what the player's score is; None: no score
        self.score: Score | None = definition.score
        #: the derivation of safe moves from the rules (docs/solver.md, "Derived safe
        #: moves"); a file's own ``solver.safe`` (or ``safe: false``) wins over it
        self.safe_derivation: Derivation | None = None
        self.safe_derived = False
        if self.safe is None:
            self.safe_derivation = derive_safe(definition, self.deck)
            if self.safe_derivation.text is not None:
                text = self.safe_derivation.text
                self.safe = Rule(text, parse_expression(text), None, "solver.safe")
                self.safe_derived = True
        if self.safe is not None and isinstance(self.safe.node, Boolean) \
                and not self.safe.node.value:
            self.safe = None  # 'safe: false' (a child taking back its parent's safe moves)
        #: the pile on which the stock's next card lies face up (``stock.top``): it takes the
        #: stock's next card at once when empty (a fill), and the deal deals its card first
        self.stock_top: int | None = None if definition.stock.top is None else \
            self.group_by_name[definition.stock.top].indices.start
        self.deal_when = definition.stock.deal_when
        if not self.deal_targets:  # no deal at all, whatever a position's stock holds
            self.deal_when = Rule("false", Boolean((0, 5), False), None, "stock.deal_when")
        self.face_down_piles = tuple(i for g in groups for i, down in zip(g.indices, g.face_down)
                                     if down)
        #: ``face_down: covered``: each pile dealt face down because it is covered, with the
        #: piles covering it: its face-down top card turns up once they are all empty
        covering = self.pile_maps.covering()
        self.uncovering: tuple[tuple[int, tuple[int, ...]], ...] = tuple(
            (i, covering[i]) for g in groups if g.face_down_covered
            for i, down in zip(g.indices, g.face_down) if down)
        #: the piles whose cards land under them (``lands: bottom``) and those filled from
        #: the pile the last card went to (``fill_from: last``): docs/authoring.md, "Cards
        #: put under a pile"
        self.bottom_piles = frozenset(i for g in groups if g.lands is Lands.BOTTOM
                                      for i in g.indices)
        self.fill_last_piles = tuple(i for g in groups if g.fill_last for i in g.indices)
        #: the piles of groups dealt all face down, whose cards are turned from the top and
        #: whose face-down cards lie on the turned ones
        self.turned_piles = frozenset(i for g in definition.groups if g.all_face_down
                                      for i in self.group_by_name[g.name].indices)
        #: the redeals allowed (None: unlimited); the waste they turn over; the hidden pile
        #: after the real ones whose length counts the redeals made, when they are limited
        self.redeals: int | None = definition.stock.redeals
        self.redeal_pile: int | None = None
        self.redeal_counter: int | None = None
        if self.redeals != 0:
            self.redeal_pile = self.deal_targets[0]
            if self.redeals is not None:
                self.redeal_counter = len(self.pile_names)
        #: the redeal that gathers piles and deals them again (``stock.gather``), if any;
        #: its counter is ``redeal_counter``, its shuffle seed the hidden pile after it
        self.gather: Gather | None = self._gather(definition)
        if self.gather is not None:
            self.redeal_counter = self.gather.counter
        #: the gathering redeal's rules on ``pile``: the piles that keep their cards, and
        #: the gathered piles the deal leaves empty (docs/authoring.md, "Redeals that keep
        #: some cards"); None where the file gives none
        written_gather = definition.stock.gather
        self.gather_keep: Rule | None = None if written_gather is None else written_gather.keep
        self.gather_gaps: Rule | None = None if written_gather is None else written_gather.gaps
        slots = len(self.pile_names) + (self.redeal_counter is not None) + (
            self.gather is not None and self.gather.seed is not None)
        #: the draws of a buried card (``merci``: docs/authoring.md, "Drawing a buried
        #: card"), counted by the hidden pile after the others; None: the variant has none
        self.merci: Merci | None = merci_of(groups, slots)
        #: how many entries ``Game.piles`` has: the piles, then the redeal counter if any,
        #: then the shuffle seed of a gathering redeal if it shuffles, then the count of
        #: draws made (``merci``) if any
        self.pile_slots = slots + (self.merci is not None)
        #: the rules analysed once for both engines (patience.plan)
        self.plan: RulePlan = make_plan(self, tabulate)
        self._player: tuple[Play, TakeBack] | None = None

    # The generated Python (and the player built on it) is made the first time something
    # asks for it: a command that solves with the native core, or only shows the rules,
    # never needs it (docs/architecture.md, "Start-up").
    @functools.cached_property
    def generated(self) -> Generated:
        """The rules compiled to Python from the plan (``patience compile ID`` shows it)."""
        return generate(
            self.plan, self.id,
            notes={"win": rule_note(self.win), "stock.deal_when": rule_note(self.deal_when),
                   "solver.safe": "" if self.safe is None else rule_note(self.safe),
                   **{rule.key: rule_note(rule) for rule in (self.gather_keep, self.gather_gaps)
                      if rule is not None},
                   "title": f"the rules of {self.id} ({Path(self.path).name}) compiled to "
                            "Python by patience.generator (a table named after a predicate "
                            "holds its value for every card or pair)"})

    # the fast interface used by the kernel, the solver and perft: each a plain attribute
    # once read (a cached_property stores it in the instance)
    @functools.cached_property
    def generate_moves(self) -> Callable[[list[list[int]], list[int]], list[tuple[int, int, int]]]:
        return self.generated.generate_moves

    @functools.cached_property
    def moves_from(self) -> Callable[[list[list[int]], list[int], int], list[tuple[int, int, int]]]:
        return self.generated.moves_from

    @functools.cached_property
    def has_moves(self) -> Callable[[list[list[int]], list[int]], bool]:
        return self.generated.has_moves

    @functools.cached_property
    def first_forced(self) -> Forced:
        return self.generated.first_forced

    @functools.cached_property
    def can_deal(self) -> Callable[[list[list[int]], list[int]], bool]:
        return self.generated.can_deal

    @functools.cached_property
    def is_won(self) -> Callable[[list[list[int]], list[int]], bool]:
        return self.generated.is_won

    @functools.cached_property
    def is_safe(self) -> Callable[[list[list[int]], list[int], int, int, int], bool] | None:
        return self.generated.is_safe

    @functools.cached_property
    def play(self) -> Play:
        """Play a move and what follows from it (patience.moves.make_player)."""
        return self._players[0]

    @functools.cached_property
    def take_back(self) -> TakeBack:
        """Take back a move played by :attr:`play`."""
        return self._players[1]

    @property
    def _players(self) -> tuple[Play, TakeBack]:
        if self._player is None:
            self._player = make_player(self)
        return self._player

    @functools.cached_property
    def tabulated_plan(self) -> RulePlan:
        """The plan with card-only predicates as tables, as the native core reads it, even
        when this variant was compiled without them (``tabulate=False``)."""
        return self.plan if self.plan.tabulate else make_plan(self, True)

    @functools.cached_property
    def rule_nodes(self) -> tuple[tuple[str, Node], ...]:
        """Every rule of the variant as ``(key, expression)``: each group's ``moves``,
        ``accepts``, ``to_bottom`` and ``deal_first``, each discard's ``when``,
        ``stock.gather``'s ``keep`` and ``gaps``, ``win``,
        ``stock.deal_when``, ``solver.safe`` (what it reads matters too: keys that merged
        cards it tells apart would merge positions whose single safe child differs) and the
        predicates' bodies (``predicates.NAME``)."""
        rules: list[tuple[str, Node]] = []
        for g in self.groups:
            rules += [(g.moves.key, g.moves.node), (g.accepts.key, g.accepts.node)]
            rules += [(rule.key, rule.node) for rule in (g.to_bottom, g.deal_first, g.fill_when)
                      if rule is not None]
        rules += [(d.when.key, d.when.node) for d in self.discards]
        rules += [(rule.key, rule.node) for rule in (self.gather_keep, self.gather_gaps)
                  if rule is not None]
        rules += [("win", self.win.node), ("stock.deal_when", self.deal_when.node)]
        if self.safe is not None:
            rules.append(("solver.safe", self.safe.node))
        rules += [(f"predicates.{name}", p.body) for name, p in self.predicates.items()]
        return tuple(rules)

    @functools.cached_property
    def home_piles(self) -> frozenset[int]:
        """The piles whose cards are home: what the status counts ('home 12/52') and where
        auto-finish sends cards. A group is home when cards go there and never leave (its
        ``moves`` is ``false``: Golf's waste, Black Hole's hole), or when it is a group of
        ``target: first`` whose every pile the win rule needs filled (the foundations;
        FreeCell's cells, which the win rule does not read, are not home)."""
        needed = {node.domain.id for node in walk(self.win.node)
                  if isinstance(node, Quantifier) and node.kind == "all"
                  and isinstance(node.domain, Name)
                  and node.names[0] in guarded_piles(node.body, True)}
        return frozenset(
            index for g in self.groups
            if not g.accepts.never
            and (g.moves.never or (g.target is Target.FIRST and g.name in needed))
            for index in g.indices)

    @functools.cached_property
    def card_attributes_read(self) -> frozenset[str]:
        """Which card attributes ('rank', 'suit', 'color') any rule of the variant reads.

        A solver may treat cards that agree on these as identical: a variant that never
        reads suits plays the same with the suits relabelled.
        """
        return frozenset(sub.name for _, node in self.rule_nodes for sub in walk(node)
                         if isinstance(sub, Attribute) and sub.name in ("rank", "suit", "color"))

    @property
    def redeal_limit(self) -> int | None:
        """How many redeals a game allows, of the waste (``stock.redeals``) or of the
        gathered piles (``stock.gather``): 0 for none, None for unlimited."""
        return self.redeals if self.gather is None else self.gather.limit

    def _gather(self, definition: Definition) -> Gather | None:
        """``stock.gather`` in pile indices, with its hidden piles after the real ones."""
        written = definition.stock.gather
        if written is None:
            return None
        piles: list[int] = []
        for name in written.sources:
            indices = self.group_by_name[name].indices if name in self.group_by_name \
                else range(self.pile_index[name], self.pile_index[name] + 1)
            for index in indices:
                if index in piles:
                    raise VariantError(f"stock.gather.from names pile "
                                       f"{self.pile_names[index]} twice (through {name!r}); "
                                       "name each pile once", None, code="gather")
                piles.append(index)
        slot = len(self.pile_names)
        counter = None if written.redeals is None else slot
        seed = (slot + (counter is not None)) if written.shuffle else None
        return Gather(tuple(piles), written.shuffle, written.deal, written.redeals, counter,
                      seed, written.blanks)
    @staticmethod
    def _discards(definition: Definition, ranges: Mapping[str, range]) -> tuple[Discard, ...]:
        discards = []
        start = 0
        for written in definition.discards:
            sources = tuple(sorted(i for name in written.sources for i in ranges[name]))
            stop = start + math.comb(len(sources), written.cards)
            discards.append(Discard(written.cards, sources, written.sources,
                                    ranges[written.to].start, written.when, start, stop))
            start = stop
        return tuple(discards)

    @functools.cached_property
    def discard_numbers(self) -> Mapping[tuple[int, ...], int]:
        """Each set of piles of a discard (in pile order) to its number in
        ``discard_sets``."""
        return MappingProxyType({chosen: i for i, chosen in enumerate(self.discard_sets)})

    def discard_of(self, source: int) -> Discard:
        """The discard whose move has the source ``source`` (at most -2)."""
        number = -2 - source
        return next(d for d in self.discards if d.start <= number < d.stop)

    def _deal_targets(self, definition: Definition) -> tuple[int, ...]:
        targets: list[int] = []
        for name in definition.stock.deals_to:
            if name in self.group_by_name:
                targets.extend(self.group_by_name[name].indices)
            else:
                targets.append(self.pile_index[name])
        return tuple(targets)

    def __repr__(self) -> str:
        return f"<Variant {self.id!r} from {self.path}>"

    @property
    def rules_hash(self) -> str:
        """A short hash of everything in the definition that affects play."""
        return self.definition.rules_hash

    def flat_text(self) -> str:
        """The whole definition as one self-contained YAML text (parents merged in).

        ``load_variant_text(variant.flat_text())`` compiles the same rules (same
        ``rules_hash``) without needing the parent files: this is what to send to a worker.
        """
        import yaml

        return str(yaml.safe_dump(self.definition.flat, sort_keys=False, allow_unicode=True,
                                  width=1000))

    @property
    def deals(self) -> int:
        """How many deals the stock makes when every deal target receives a card (before
        any redeal)."""
        per_deal = len(self.deal_targets)
        return -(-self.stock_size // per_deal) if per_deal else 0

    # -- starting games --

    def deal(self, number: int) -> Game:
        """The game of numbered deal ``number`` (docs/rules.md: SplitMix64 + Fisher–Yates)."""
        cards = numbered_deck(number, self.decks, self.ranks,
                              without=[card for _, card in self.placed], suits=self.suits)
        return Game.from_cards(self, cards, deal_number=number)

    def deal_cards(self, cards: str | Sequence[str] | Sequence[int]) -> Game:
        """The game dealt from an explicit card list, in dealing order."""
        if isinstance(cards, str) or (cards and isinstance(cards[0], str)):
            values = parse_cards(cards)  # type: ignore[arg-type]
        else:
            values = list(cards)  # type: ignore[arg-type]
        check_deck(values + [card for _, card in self.placed], self.decks, self.ranks,
                   self.suits)
        return Game.from_cards(self, values)

    def position(self, text: str) -> Game:
        """The game at a position written in the one-line text form (see ``Game.text``)."""
        return Game.from_text(self, text)

    def from_piles(self, piles: list[list[int]], stock: list[int], shown: str) -> Game:
        """The game at a position given pile by pile (``Game.from_piles``)."""
        return Game.from_piles(self, piles, stock, shown)

    def from_json(self, data: dict[str, Any] | str) -> Game:
        return Game.from_json(self, data)

    def rules_text(self) -> str:
        """The rules in words, generated from the definition."""
        return rules_text(self)


# --- finding variants ------------------------------------------------------------------


def _shipped() -> dict[str, Path]:
    """Every name and alias of the shipped variants, lower-cased, to its file."""
    import yaml

    # libyaml's safe loader where pyyaml has it: the same data, several times faster (only
    # ids and aliases are read here; definitions are loaded with their marks elsewhere)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    names: dict[str, Path] = {}
    for path in sorted(variants_directory().glob("*.yaml")):
        names[path.stem.lower()] = path
        try:
            data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)
        except yaml.YAMLError:
            continue
        if isinstance(data, dict):
            for alias in [data.get("id"), *(data.get("aliases") or [])]:
                if isinstance(alias, str):
                    names.setdefault(alias.lower(), path)
    return names


def _shipped_file_named(name: str) -> Path | None:
    """The shipped file whose name without ``.yaml`` is ``name`` (any case), found without
    reading every file for its aliases as `_shipped` does: a file's own name wins over any
    alias there too."""
    wanted = name.lower()
    found = sorted(path for path in variants_directory().glob("*.yaml")
                   if path.stem.lower() == wanted)
    return found[-1] if found else None


def shipped_variants() -> list[str]:
    """The ids of the shipped variants (file names without .yaml), sorted."""
    return sorted(path.stem for path in variants_directory().glob("*.yaml"))


def resolve(name_or_path: str, directory: Path | None = None) -> Path:
    """The file a variant name, alias or path refers to; UnknownVariantError otherwise."""
    looks_like_path = name_or_path.endswith((".yaml", ".yml")) or "/" in name_or_path
    if looks_like_path:
        candidates = [Path(name_or_path)]
        if directory is not None and not Path(name_or_path).is_absolute():
            candidates.insert(0, directory / name_or_path)
        for candidate in candidates:
            if candidate.is_file():
                return candidate
        raise UnknownVariantError(f"no variant file at {name_or_path!r}")
    path = _shipped_file_named(name_or_path)
    if path is not None:
        return path
    shipped = _shipped()
    path = shipped.get(name_or_path.lower())
    if path is None:
        import difflib

        close = difflib.get_close_matches(name_or_path.lower(), list(shipped), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise UnknownVariantError(
            f"unknown variant {name_or_path!r}{hint} (shipped: {', '.join(shipped_variants())};"
            " or give the path of a .yaml file)")
    return path


def find_definition(name_or_path: str | Path) -> Definition:
    """The definition of a shipped name or alias or a file path, not compiled: its id, name,
    family, description and rules as read (a tenth of the time :func:`find_variant` takes;
    what a list of variants needs). Raises as :func:`find_variant` does."""
    path = resolve(str(name_or_path))
    try:
        text = read_variant_file(path)
    except OSError as error:
        raise UnknownVariantError(f"cannot read {str(path)!r}: {error.strerror}") from None
    return _definition(path, text)


@functools.lru_cache(maxsize=64)
def _definition(path: Path, text: str) -> Definition:
    from patience.defcache import cached_definition

    def load(record: Callable[[Path], None]) -> Definition:
        return load_definition(path, lambda name, directory: resolve(name, directory), text,
                               record)

    return cached_definition(path, text, load)


@functools.lru_cache(maxsize=64)
def _load(path: Path, text: str, tabulate: bool) -> Variant:
    return Variant(_definition(path, text), text, tabulate=tabulate)


def find_variant(name_or_path: str | Path, *, tabulate: bool = True) -> Variant:
    """The compiled variant for a shipped name or alias (case-insensitive) or a file path.

    Raises UnknownVariantError for a name that is not shipped and no file, and
    VariantError (with file, line and column) for a file that is wrong.
    """
    path = resolve(str(name_or_path))
    try:
        text = read_variant_file(path)  # bounded, and UTF-8 or a located VariantError
    except OSError as error:
        raise UnknownVariantError(f"cannot read {str(path)!r}: {error.strerror}") from None
    return _load(path, text, tabulate)


def load_variant_text(text: str, path: str = "<text>", *, tabulate: bool = True) -> Variant:
    """Compile a variant from its file content (e.g. sent to a worker process)."""
    definition = load_definition(Path(path), lambda name, directory: resolve(name, directory),
                                 text)
    return Variant(definition, text, tabulate=tabulate)
