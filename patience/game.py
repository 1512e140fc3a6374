"""The kernel: a game in progress, its moves, notation and position formats.

Modelled on python-chess's ``Board``: mutable state (piles as lists of int cards, the stock
as a list whose last card is dealt next), ``push``/``pop`` with a move stack, and legal
moves made by the variant's generated move generator.

>>> from patience import find_variant
>>> game = find_variant("tabbycat").deal(1)
>>> sorted(game.notation(move) for move in game.legal_moves)
['c1:1-c4', 'c1:1-t', 'c2:1-t', 'c3:1-t', 'c4:1-c2', 'c4:1-t', 'd']
>>> game.push_text("d")
>>> game.text()[:40]
'c:7D8D/9C5S/4DJD/8H6D t: f:/// s:9SJC5DK'
>>> game.pop()
Move(source=-1, count=0, target=-1)

Position text (one line): the pile groups in order, each as ``ID:`` followed by its piles
separated by ``/``, each pile its cards from bottom to top as two-character codes run
together, then ``s:`` and the stock in dealing order (next card first), then ``r:`` and
the redeals made (when they are counted) and ``z:`` and a gathering redeal's shuffle seed
(when it shuffles; read as 0 when left out), then ``m:`` and the draws of a buried card made
(``merci``; read as 0 when left out). Reading a position makes any forced removals
it calls for, as a deal would.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from patience.cards import FACE_DOWN, card_code, check_deck, parse_card
from patience.errors import DealError, MoveError, PositionError
from patience.explain import Interpreter, explain, explain_move
from patience.limits import (
    MAX_MOVE_COUNT_DIGITS,
    MAX_MOVE_TEXT,
    MAX_POSITION_JSON_DEPTH,
    MAX_POSITION_TEXT,
)
from patience.moves import (
    DEAL,
    DRAW,
    Move,
    MoveTuple,
    Undo,
    deal_from_stock,
    runaway,
    settle_steps,
    uncovers_of,
)
from patience.seeds import Seed
from patience.settings import Show, Target

if TYPE_CHECKING:
    from patience.definition import Rule
    from patience.variant import Group, Variant


_COUNT = f"[0-9]{{1,{MAX_MOVE_COUNT_DIGITS}}}"  # ASCII digits only, and few of them
_PILE = re.compile(r"^[a-z]+[0-9]*$", re.ASCII)  # a pile's name in a discard (c1+c4)
_MOVE = re.compile(rf"^\s*([a-z]+)([0-9]*):({_COUNT}|\^)-([a-z]+)([0-9]*)\s*$", re.ASCII)


__all__ = ["DEAL", "Game", "LegalMoves", "Move", "deal_from_stock"]


class Game:
    """A position of a variant plus the moves that led to it."""

    def __init__(self, variant: Variant, piles: list[list[int]], stock: list[int],
                 deal_number: int | None = None) -> None:
        self.variant = variant
        self.piles = piles
        self.stock = stock  # the next card to deal is stock[-1]
        #: the numbered deal this game started from (ours, ms: or pysolfc:), if any
        self.seed: Seed | None = None if deal_number is None else Seed(deal_number)
        self._moves: list[MoveTuple] = []  # as pushed (Moves or plain tuples)
        self._undo: list[Undo] = []
        self._initial = (tuple(map(tuple, piles)), tuple(stock))

    @property
    def deal_number(self) -> int | None:
        """The number of our numbered deal this game started from (None for Microsoft's and
        PySolFC's numbers: see ``seed``)."""
        return self.seed.number if self.seed is not None and self.seed.is_ours else None

    @deal_number.setter
    def deal_number(self, number: int | None) -> None:
        self.seed = None if number is None else Seed(number)

    # -- construction --

    @classmethod
    def from_cards(cls, variant: Variant, cards: Sequence[int],
                   deal_number: int | None = None) -> Game:
        """Deal ``cards`` (in dealing order, the placed cards left out): first the cards the
        variant places, then each group with ``deal_first`` (the cards its rule picks, given
        the first card, move to the front of what is left, in their order, and its piles are
        dealt from there), then the layout, in rounds over the other piles (round r gives a
        card to every pile dealt more than r cards; each pile's first ``face_down`` cards lie
        face down), then the arrangement (``to_bottom``), then the stock."""
        piles: list[list[int]] = [[] for _ in range(variant.pile_slots)]
        for index, card in variant.placed:
            piles[index].append(card)
        cards = list(cards)
        dealt: list[list[int]] = [[] for _ in variant.pile_names]
        position = 0
        for group in variant.groups:
            if group.deal_first is not None and cards:
                leading = _cards_where(variant, group.deal_first, cards[0])
                rest = cards[position:]
                cards[position:] = [c for c in rest if c in leading] + [c for c in rest
                                                                       if c not in leading]
                position = _deal_rounds([group], cards, position, dealt)
        position = _deal_rounds([g for g in variant.groups if g.deal_first is None], cards,
                                position, dealt)
        for group in variant.groups:
            sinks = _cards_where(variant, group.to_bottom)
            for index, down in zip(group.indices, group.face_down):
                pile = dealt[index]
                if sinks:  # stable: the chosen cards go under the others, in dealt order
                    pile[:] = [c for c in pile if c in sinks] + [c for c in pile
                                                                if c not in sinks]
                piles[index] += [card | FACE_DOWN for card in pile[:down]] + pile[down:]
        stock = list(reversed(cards[position:]))
        if variant.gather is not None and variant.gather.seed is not None:
            piles[variant.gather.seed] = _seed_pile(deal_number or 0)
        game = cls(variant, piles, stock, deal_number)
        game._settle()  # a layout may complete a set under forced removal
        game._initial = (tuple(map(tuple, game.piles)), tuple(game.stock))
        return game

    def copy(self) -> Game:
        """An independent copy of the position and its move stack."""
        other = Game(self.variant, [list(p) for p in self.piles], list(self.stock))
        other.seed = self.seed
        other._moves = list(self._moves)
        other._undo = list(self._undo)
        other._initial = self._initial
        return other

    def start(self) -> Game:
        """A new game at this game's starting position."""
        piles, stock = self._initial
        game = Game(self.variant, [list(p) for p in piles], list(stock))
        game.seed = self.seed
        return game

    # -- moves --

    @property
    def move_stack(self) -> list[Move]:
        """The moves made since the start, oldest first."""
        return [Move(*move) for move in self._moves]

    def generate_moves(self) -> list[MoveTuple]:
        """The legal moves as plain tuples (the fast path used by perft and the solver)."""
        return self.variant.generate_moves(self.piles, self.stock)

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves here, as a lazy view: ``bool()`` stops at the first move and
        ``in`` checks one move's source only; iterating or ``len()`` lists them all."""
        return LegalMoves(self)

    def has_moves(self) -> bool:
        """Whether any move is left (stops at the first one found)."""
        return bool(self.variant.has_moves(self.piles, self.stock))

    def is_legal(self, move: MoveTuple) -> bool:
        """Whether ``move`` is legal here, generating only the moves from its source."""
        source, count, target = move
        if source < -1:
            discards = self.variant.generated.discard_moves
            return discards is not None and (source, count, target) in discards(self.piles,
                                                                                self.stock)
        if source < 0:
            return (source, count, target) == DEAL and self.can_deal()
        if not 0 <= source < len(self.variant.pile_names):
            return False
        return (source, count, target) in self.variant.moves_from(self.piles, self.stock,
                                                                   source)

    def is_won(self) -> bool:
        return bool(self.variant.is_won(self.piles, self.stock))

    def can_deal(self) -> bool:
        """Whether the deal (or the redeal of the waste) is a legal move here."""
        return not self.is_won() and bool(self.variant.can_deal(self.piles, self.stock))

    def is_lost(self) -> bool:
        """Not won, and no move is left."""
        return not self.is_won() and not self.has_moves()

    def push(self, move: MoveTuple | str) -> None:
        """Make a legal move (a Move, a 3-tuple, or notation); MoveError explains an illegal
        one (with the position, python-chess style) and leaves the game unchanged."""
        if isinstance(move, str):
            move = self.parse_move(move)
        move = Move(*move)
        if not self.is_legal(move):
            reason, rule = explain_move(self, move)
            raise MoveError(reason or f"{self.notation(move)} is not legal here",
                            move=self.notation(move), position=self.text(), rule=rule)
        self.push_unchecked(move)

    def push_text(self, text: str) -> None:
        self.push(self.parse_move(text))

    def push_unchecked(self, move: MoveTuple) -> None:
        """Make a move known to be legal (no check: the caller generated it)."""
        self._undo.append(self.variant.play(self.piles, self.stock, move))
        self._moves.append(move)

    def pop(self) -> Move:
        """Take back the last move and return it."""
        move = self._moves.pop()
        self.variant.take_back(self.piles, self.stock, move, self._undo.pop())
        return move if type(move) is Move else Move(*move)

    def _settle(self) -> None:
        """Make every forced move (complete sets leaving, gaps filled), in order, until
        none is left: what a position read from text or a fresh layout calls for."""
        if not self.variant.plan.forces:
            return
        first_forced = self.variant.first_forced
        if first_forced is None:
            return
        variant = self.variant
        if not settle_steps(variant, first_forced, self.piles, self.stock, None, [],
                            variant.face_down_piles, bool(variant.fill_last_piles),
                            uncovers_of(variant)):
            raise runaway("at the start")  # a loop the loader could not see

    def forced_moves_of_last_move(self) -> list[Move]:
        """The forced moves the last move (or deal) caused, in order."""
        if not self._undo:
            return []
        return [Move(*m) for m in self._undo[-1][1] if m[1] > 0]

    # -- notation --

    def notation(self, move: MoveTuple) -> str:
        """A move in docs/rules.md's notation, e.g. ``c1:3-c4``, ``c3:13-f``, ``d``."""
        source, count, target = move
        names = self.variant.pile_names
        if source < -1:  # a discard: its piles, in pile order
            return "+".join(names[i] for i in self.variant.discard_sets[-2 - source])
        if source < 0:
            return "d"
        target_group = self.variant.group_of_pile[target]
        target_name = target_group.id if target_group.target is Target.FIRST else names[target]
        return f"{names[source]}:{'^' if count == DRAW else count}-{target_name}"

    def parse_move(self, text: str) -> Move:
        """The move written ``text`` in this position; MoveError if it cannot be read.

        The move need not be legal. A move into a group whose moves name the group (the
        foundations' ``f``) goes to the first pile there that accepts it, or to the group's
        first pile when none does.
        """
        stripped = text.strip()
        if stripped == "d":
            return DEAL
        if len(stripped) > MAX_MOVE_TEXT:
            raise MoveError(f"cannot read move {stripped[:MAX_MOVE_TEXT]!r}…: a move is at most "
                            f"{MAX_MOVE_TEXT} characters, e.g. 'c1:3-c4'")
        if "+" in stripped:
            return self._parse_discard(text, stripped)
        match = _MOVE.match(stripped)
        if not match:
            raise MoveError(f"cannot read move {text!r}: write 'd' to deal or SOURCE:N-TARGET, "
                            "e.g. 'c1:3-c4'", move=text)
        source_name = match.group(1) + match.group(2)
        count = DRAW if match.group(3) == "^" else int(match.group(3))
        target_name = match.group(4) + match.group(5)
        variant = self.variant
        if source_name not in variant.pile_index:
            raise MoveError(f"move {text!r}: there is no pile {source_name!r} "
                            f"(piles: {' '.join(variant.pile_names)})", move=text)
        source = variant.pile_index[source_name]
        first_groups = {g.id: g for g in variant.groups if g.target is Target.FIRST}
        if target_name in first_groups:
            group = first_groups[target_name]
            for move in self.generate_moves():
                if move[0] == source and move[1] == count and move[2] in group.indices:
                    return Move(*move)
            return Move(source, count, group.indices.start)
        if target_name not in variant.pile_index:
            raise MoveError(f"move {text!r}: there is no pile {target_name!r} "
                            f"(piles: {' '.join(variant.pile_names)})", move=text)
        target = variant.pile_index[target_name]
        group = variant.group_of_pile[target]
        if group.target is Target.FIRST:
            raise MoveError(f"move {text!r}: a move to the {group.name} names the group: "
                            f"write '{group.id}', not {target_name!r}", move=text)
        if count < 1 and count != DRAW:
            raise MoveError(f"move {text!r}: a move takes at least one card", move=text)
        return Move(source, count, target)

    def _parse_discard(self, text: str, stripped: str) -> Move:
        """A discard written as its piles joined by '+' (``c1+c4``), in any order."""
        variant = self.variant
        names = stripped.split("+")
        if not all(_PILE.match(name) for name in names):
            raise MoveError(f"cannot read move {text!r}: a discard names its piles joined by "
                            "'+', e.g. 'c1+c4'", move=text)
        unknown = next((name for name in names if name not in variant.pile_index), None)
        if unknown is not None:
            raise MoveError(f"move {text!r}: there is no pile {unknown!r} "
                            f"(piles: {' '.join(variant.pile_names)})", move=text)
        chosen = tuple(sorted(variant.pile_index[name] for name in names))
        if len(set(chosen)) != len(chosen):
            raise MoveError(f"move {text!r}: a discard names each pile once", move=text)
        number = variant.discard_numbers.get(chosen)
        if number is None:
            taken = sorted({d.cards for d in variant.discards})
            why = ("this variant has no discards" if not taken else
                   f"no discard takes the top cards of {' and '.join(names)} "
                   f"(its discards take {' or '.join(map(str, taken))} cards: "
                   "see 'patience rules')")
            raise MoveError(f"move {text!r}: {why}", move=text)
        discard = variant.discard_of(-2 - number)
        return Move(-2 - number, discard.cards, discard.target)

    def parse_moves(self, text: str) -> list[Move]:
        """Parse and play a space-separated move list on a copy; MoveError at the first bad
        move, naming it and its position in the list."""
        probe = self.copy()
        moves = []
        for number, word in enumerate(text.split(), start=1):
            try:
                move = probe.parse_move(word)
                probe.push(move)
            except MoveError as error:
                reason = error.message
                for stated in (f"move {word!r}: ", f"{word}: ",
                               f"{error.move}: " if error.move else None):
                    if stated and reason.startswith(stated):  # say the move once
                        reason = reason[len(stated):]
                raise MoveError(f"move {number} of the list, {word!r}: {reason}", move=word,
                                position=error.position or probe.text(),
                                rule=error.rule) from None
            moves.append(move)
        return moves

    def explain(self, move: tuple[int, int, int] | str) -> str | None:
        """None when the move is legal; otherwise which rule forbids it, in the rule's words."""
        if isinstance(move, str):
            try:
                move = self.parse_move(move)
            except MoveError as error:
                return str(error)
        return explain(self, Move(*move))

    # -- state queries --

    def key(self) -> bytes:
        """The exact position as bytes (piles then stock): equal keys, equal positions."""
        return b"\0".join(map(bytes, self.piles)) + b"\1" + bytes(self.stock)

    def pile(self, name: str) -> list[int]:
        return self.piles[self.variant.pile_index[name]]

    @property
    def deals_left(self) -> int:
        """Deals the stock has left before it is empty (redeals not counted)."""
        per_deal = len(self.variant.deal_targets)
        if self.variant.plan.never_deals:
            return 0
        top = self.variant.stock_top  # (stock.top: the stock's next card on its own pile)
        cards = len(self.stock) + (top is not None and bool(self.piles[top]))
        return -(-cards // per_deal) if per_deal else 0

    @property
    def redeals_left(self) -> int | None:
        """How many more times the waste may turn back into the stock, or the gathered
        piles be dealt again (None: unlimited)."""
        variant = self.variant
        limit = variant.redeal_limit
        if limit is None:
            return None
        if variant.redeal_counter is None:
            return 0
        return limit - len(self.piles[variant.redeal_counter])

    @property
    def draws_made(self) -> int:
        """How many draws of a buried card (``merci``) were made (0 without them)."""
        merci = self.variant.merci
        return 0 if merci is None else len(self.piles[merci.counter])

    @property
    def draws_left(self) -> int:
        """How many draws of a buried card (``merci``) are left (0 without them)."""
        merci = self.variant.merci
        return 0 if merci is None else merci.limit - self.draws_made

    @property
    def shuffle_seed(self) -> int | None:
        """The seed a gathering redeal's shuffle is drawn from (the deal number; 0 for a
        game dealt from cards or a position that gives none), or None when no redeal of
        this variant shuffles (docs/rules.md, "Shuffles during play")."""
        gather = self.variant.gather
        if gather is None or gather.seed is None:
            return None
        return int.from_bytes(bytes(self.piles[gather.seed]), "little")

    def cards_home(self) -> int:
        """How many cards are home: face up on the piles of ``Variant.home_piles`` (the
        foundations, or where the win rule's cards go: Golf's waste, Clock's hours, whose
        cards are home once turned up), never in a free cell."""
        return sum(1 for index in self.variant.home_piles for card in self.piles[index]
                   if not card & FACE_DOWN)

    def sets_completed(self) -> int:
        """How many piles of groups that only receive whole sets (foundations) are full."""
        return sum(1 for group in self.variant.groups if group.target is Target.FIRST
                   for index in group.indices if self.piles[index])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.variant is other.variant and self.key() == other.key()

    # mutable, so not hashable (as python-chess's Board): a game pushed after being put
    # in a set would be lost in it. Use ``key()`` for tables.
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Game {self.variant.id} {self.text()!r}>"

    # -- position formats --

    def text(self) -> str:
        """The one-line position text (see the module docstring); round-trips through
        ``variant.position(text)``."""
        parts = []
        for group in self.variant.groups:
            piles = ("".join(map(_written, self.piles[i])) for i in group.indices)
            parts.append(f"{group.id}:{'/'.join(piles)}")
        parts.append("s:" + "".join(card_code(c) for c in reversed(self.stock)))
        counter = self.variant.redeal_counter
        if counter is not None:
            parts.append(f"r:{len(self.piles[counter])}")
        if self.shuffle_seed is not None:
            parts.append(f"z:{self.shuffle_seed}")
        if self.variant.merci is not None:
            parts.append(f"m:{self.draws_made}")
        return " ".join(parts)

    @classmethod
    def from_text(cls, variant: Variant, text: str) -> Game:
        fields: dict[str, str] = {}
        for word in text.split():
            if ":" not in word:
                raise PositionError(f"position {text!r}: {word!r} is not 'ID:piles'")
            key, _, value = word.partition(":")
            if key in fields:
                raise PositionError(f"position {text!r}: {key!r} appears twice")
            fields[key] = value
        piles: list[list[int]] = []
        for group in variant.groups:
            if group.id not in fields:
                raise PositionError(f"position {text!r}: the {group.name} ({group.id}:) are "
                                    "missing")
            values = fields.pop(group.id).split("/")
            if len(values) != group.count:
                raise PositionError(f"position {text!r}: {group.id}: has {len(values)} "
                                    f"pile{'s' if len(values) != 1 else ''}; the {group.name} "
                                    f"have {group.count}")
            piles.extend(_cards(value, text) for value in values)
        stock = list(reversed(_cards(fields.pop("s", ""), text)))
        redeals = fields.pop("r", "0") if variant.redeal_counter is not None else "0"
        shuffled = variant.gather is not None and variant.gather.seed is not None
        seed = fields.pop("z", "0") if shuffled else "0"
        draws = fields.pop("m", "0") if variant.merci is not None else "0"
        if fields:
            raise PositionError(f"position {text!r}: unknown field {next(iter(fields))!r}:")
        return cls._checked(variant, piles, stock, text, redeals, seed, draws)

    @classmethod
    def from_piles(cls, variant: Variant, piles: list[list[int]], stock: list[int],
                   shown: str) -> Game:
        """The game at a position given pile by pile (the variant's piles in order, face-down
        cards marked; the stock's next card last), checked as ``from_text`` checks a text;
        ``shown`` names the position in an error."""
        if len(piles) != len(variant.pile_names):
            raise PositionError(f"position {shown!r}: {len(piles)} piles; {variant.id} has "
                                f"{len(variant.pile_names)}")
        return cls._checked(variant, piles, stock, shown)

    @classmethod
    def _checked(cls, variant: Variant, piles: list[list[int]], stock: list[int],
                 shown: str, redeals: object = 0, seed: object = 0,
                 draws: object = 0) -> Game:
        try:
            check_deck([c & ~FACE_DOWN for pile in piles for c in pile] + stock,
                       variant.decks, variant.ranks, variant.suits)
        except DealError as error:
            raise PositionError(f"position {shown!r}: {error}") from None
        face_down_piles = set(variant.face_down_piles)
        # face_down: covered: a covered pile's top card lies face down until uncovered
        covering = dict(variant.uncovering)
        for index, pile in enumerate(piles):
            name = variant.pile_names[index]
            if any(c & FACE_DOWN for c in pile) and index not in face_down_piles:
                raise PositionError(f"position {shown!r}: {name} holds a face-down card, but "
                                    "no card of that pile is ever dealt face down")
            if index in variant.turned_piles:  # face-down cards on top, turned from there
                if any(d & FACE_DOWN and not c & FACE_DOWN for d, c in itertools.pairwise(pile)):
                    raise PositionError(f"position {shown!r}: {name} has a face-up card above "
                                        "a face-down one; its face-down cards lie on top, "
                                        "the cards turned under them")
                continue
            covered = any(piles[other] for other in covering.get(index, ()))
            if pile and pile[-1] & FACE_DOWN and not covered:
                raise PositionError(f"position {shown!r}: the top card of {name} is face "
                                    "down; a pile's top card is face up (unless a covered "
                                    "pile's, under face_down: covered)")
            if any(c & FACE_DOWN and not d & FACE_DOWN for d, c in itertools.pairwise(pile)):
                raise PositionError(f"position {shown!r}: {name} has a face-down card above "
                                    "a face-up one; face-down cards lie at the bottom")
        if variant.redeal_counter is not None:
            piles.append(_counted(shown, "r", redeals, variant.redeal_limit or 0, "redeals"))
        if variant.gather is not None and variant.gather.seed is not None:
            written = str(seed)
            if not (written.isascii() and written.isdigit() and len(written) <= 20
                    and int(written) < 1 << 64):
                raise PositionError(f"position {shown!r}: z:{written} is not a shuffle seed "
                                    "(a deal number from 0 to 2^64 - 1)")
            piles.append(_seed_pile(int(written)))
        if variant.merci is not None:
            piles.append(_counted(shown, "m", draws, variant.merci.limit,
                                  "draws of a buried card (merci)"))
        game = cls(variant, piles, stock)
        game._settle()  # a complete set on the table under forced removal leaves at once
        game._initial = (tuple(map(tuple, game.piles)), tuple(game.stock))
        return game

    def to_json(self) -> dict[str, Any]:
        """The position as JSON-ready data; round-trips through ``variant.from_json``."""
        data: dict[str, Any] = {
            "variant": self.variant.id,
            "piles": {name: [_written(c) for c in self.piles[i]]
                      for i, name in enumerate(self.variant.pile_names)},
            "stock": [card_code(c) for c in reversed(self.stock)],
        }
        if self.variant.redeal_counter is not None:
            data["redeals"] = len(self.piles[self.variant.redeal_counter])
        if self.shuffle_seed is not None:
            data["shuffle_seed"] = self.shuffle_seed
        if self.variant.merci is not None:
            data["draws"] = self.draws_made
        return data

    @classmethod
    def from_json(cls, variant: Variant, data: dict[str, Any] | str) -> Game:
        if isinstance(data, str):
            data = _read_json(data)
        if not isinstance(data, dict) or not isinstance(data.get("piles"), dict):
            raise PositionError("position JSON needs an object with 'piles' and 'stock'")
        piles_data = data["piles"]
        unknown = set(piles_data) - set(variant.pile_names)
        if unknown:
            raise PositionError(f"position JSON names unknown piles: {sorted(unknown)[:8]}")
        for key, value in [*piles_data.items(), ("stock", data.get("stock", []))]:
            if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
                what = "the stock" if key == "stock" else f"pile {key!r}"
                raise PositionError(f"position JSON: {what} must be a list of card codes "
                                    f"such as [\"7D\", \"KS\"], not {_shown_json(value)}")
        shown = json.dumps(data)
        try:
            piles = [[_read(c) for c in piles_data.get(name, [])]
                     for name in variant.pile_names]
            stock = [parse_card(c) for c in reversed(data.get("stock", []))]
        except (DealError, TypeError, AttributeError) as error:
            raise PositionError(f"position JSON: {error}") from None
        return cls._checked(variant, piles, stock, shown, data.get("redeals", 0),
                            data.get("shuffle_seed", 0), data.get("draws", 0))

    # -- drawing --

    def __str__(self) -> str:
        return self.drawing()

    def drawing(self, reveal: bool = False) -> str:
        """The position drawn as text, one pile per line; face-down cards are drawn ``##``
        unless ``reveal`` (for authors and tests) shows them, in lower case."""
        lines = []
        width = max(len(name) for name in self.variant.pile_names)
        for group in self.variant.groups:
            for index in group.indices:
                pile = self.piles[index]
                name = self.variant.pile_names[index]
                lines.append(f"{name:<{width}} | {_pile_text(pile, group.show, reveal)}"
                             .rstrip())
        deals = self.deals_left
        stock = f"{'s':<{width}} | {len(self.stock)} cards" + (
            "" if self.variant.plan.never_deals else
            f", {deals} deal{'s' if deals != 1 else ''} left")
        if self.variant.redeal_limit != 0:
            left = self.redeals_left
            stock += ", redeals unlimited" if left is None else \
                f", {left} redeal{'s' if left != 1 else ''} left"
        if self.variant.merci is not None:
            draws = self.draws_left
            stock += f", {draws} draw{'s' if draws != 1 else ''} of a buried card left"
        lines.append(stock)
        return "\n".join(lines)


class LegalMoves:
    """The legal moves of a game, lazily (python-chess's ``LegalMoveGenerator``).

    >>> from patience import find_variant
    >>> game = find_variant("tabbycat").deal(1)
    >>> bool(game.legal_moves), len(game.legal_moves), (0, 1, 3) in game.legal_moves
    (True, 7, True)
    """

    __slots__ = ("game",)

    def __init__(self, game: Game) -> None:
        self.game = game

    def __bool__(self) -> bool:
        return self.game.has_moves()

    def __len__(self) -> int:
        return len(self.game.generate_moves())

    def __iter__(self) -> Iterator[Move]:
        return (Move(*move) for move in self.game.generate_moves())

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, tuple) or len(move) != 3 or not all(
                isinstance(x, int) for x in move):
            return False
        return self.game.is_legal(move)

    def __repr__(self) -> str:
        moves = ", ".join(self.game.notation(move) for move in self)
        return f"<LegalMoves at {self.game.text()!r} ({moves})>"


def _counted(shown: str, field: str, value: object, limit: int, what: str) -> list[int]:
    """The hidden pile counting what a position's field ``r:`` or ``m:`` says was made (a
    card each), refused unless it is a number from 0 to ``limit``."""
    made = str(value)
    if not (made.isascii() and made.isdigit() and len(made) <= 4 and int(made) <= limit):
        raise PositionError(f"position {shown!r}: {field}:{made} is not a number of {what} "
                            f"made from 0 to {limit}")
    return [0] * int(made)


def _seed_pile(seed: int) -> list[int]:
    """The hidden pile holding a shuffle seed: its eight bytes, least significant first."""
    return list(seed.to_bytes(8, "little"))


def _read_json(text: str) -> Any:
    """JSON text of a position, refused before parsing when it is too long or nests too
    deeply, and with whole numbers parsed only when short (a position holds none)."""
    if len(text) > MAX_POSITION_TEXT:
        raise PositionError(f"position JSON is {len(text):_} characters long; a position "
                            f"has at most {MAX_POSITION_TEXT:_}")
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    if deepest > MAX_POSITION_JSON_DEPTH:
        raise PositionError(f"position JSON nests {deepest} deep; a position needs 3 and may "
                            f"have at most {MAX_POSITION_JSON_DEPTH}")

    def number(digits: str) -> int:
        if len(digits) > 20:
            raise ValueError("a number in position JSON is too long")
        return int(digits)

    try:
        return json.loads(text, parse_int=number)
    except json.JSONDecodeError as error:
        raise PositionError(f"position JSON is not valid JSON: {error}") from None
    except (ValueError, RecursionError) as error:
        raise PositionError(f"position JSON: {error}") from None


def _shown_json(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:40] + "…"


def _pile_text(pile: list[int], show: Show, reveal: bool = False) -> str:
    def shown(card: int) -> str:
        return card_code(card) if not card & FACE_DOWN else _written(card) if reveal else "##"

    if not pile:
        return ""
    if show is Show.STACK and len(pile) > 1:
        return f"{shown(pile[0])}…{shown(pile[-1])} ({len(pile)} cards)"
    return " ".join(map(shown, pile))


def _written(card: int) -> str:
    """A card as position text writes it: its code, in lower case when face down."""
    return card_code(card).lower() if card & FACE_DOWN else card_code(card)


def _read(code: str) -> int:
    """A card as position text writes it (lower case: face down)."""
    card = parse_card(code)
    return card | FACE_DOWN if code.strip().islower() else card


def _cards_where(variant: Variant, rule: Rule | None,
                 first_card: int | None = None) -> frozenset[int]:
    """The cards of the deck for which a rule about ``card`` (and ``first_card``, the first
    card of the shuffled deck, for ``deal_first``) holds (empty for no rule)."""
    if rule is None:
        return frozenset()
    interpreter = Interpreter.for_variant(variant)
    known = {} if first_card is None else {"first_card": first_card}
    return frozenset(card for card in set(variant.deck)
                     if interpreter.evaluate(rule.node, {**known, "card": card}))


def _deal_rounds(groups: Sequence[Group], cards: Sequence[int], position: int,
                 dealt: list[list[int]]) -> int:
    """Deal ``cards`` from ``position`` to the piles of ``groups`` in rounds (round r gives a
    card to every pile dealt more than r cards, in order); returns the next position."""
    needs = [(count, index) for group in groups
             for count, index in zip(group.deal, group.indices)]
    for round_ in range(max((n for n, _ in needs), default=0)):
        for count, index in needs:
            if round_ < count:
                dealt[index].append(cards[position])
                position += 1
    return position


def _cards(text: str, shown: str) -> list[int]:
    if len(text) % 2:
        raise PositionError(f"position {shown!r}: {text!r} is not a list of two-character "
                            "card codes")
    try:
        return [_read(text[i:i + 2]) for i in range(0, len(text), 2)]
    except DealError as error:
        raise PositionError(f"position {shown!r}: {error}") from None
