"""Safe moves derived from the rules: the no-take-back argument (docs/solver.md, "Derived
safe moves").

:func:`derive_safe` decides, from a variant's compiled rules and never from its name,
whether the argument applies, and returns the rule text it derives or the reason it
refuses. The analysis is conservative: it whitelists the shapes it can prove, and anything
outside them means "no derivation". Card pairings are decided by evaluating each rule over
every (card, card) pair in three-valued logic (anything the pair does not fix is unknown,
and unknown counts as "could").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import attrs

from patience.cards import color_of, rank_of, suit_of
from patience.compiler import inline_calls
from patience.language import (
    BUILTIN_CONSTANTS,
    Arithmetic,
    Attribute,
    Boolean,
    BoolOp,
    Call,
    Compare,
    Count,
    Integer,
    Name,
    Negate,
    Neighbour,
    Node,
    Not,
    Pairs,
    Quantifier,
    Visitor,
    compare,
    fold_arithmetic,
    walk,
)
from patience.places import PLACE_ATTRIBUTES
from patience.settings import Lands, Removal

if TYPE_CHECKING:
    from patience.definition import Definition, GroupDefinition

UNKNOWN = None  # the third truth value (and an unknown number)
Env = Mapping[str, object]

#: the names a move rule may use and stay local (it reads only the move's run, its source
#: and its target pile)
LOCAL_NAMES = frozenset({"pile", "run", "source"})


@attrs.frozen
class Derivation:
    """The outcome: ``text`` the derived ``solver.safe`` (None when refused), ``reason``
    why it was refused (or the one-line argument it rests on)."""

    text: str | None
    reason: str


def _refuse(reason: str) -> Derivation:
    return Derivation(None, reason)


def _conjuncts(node: Node) -> tuple[Node, ...]:
    if isinstance(node, BoolOp) and node.op == "and":
        return tuple(c for v in node.values for c in _conjuncts(v))
    return (node,)


def _is_run_size_one(node: Node) -> bool:
    return (isinstance(node, Compare) and node.op == "==" and isinstance(node.right, Integer)
            and node.right.value == 1 and isinstance(node.left, Attribute)
            and node.left.name == "size" and isinstance(node.left.value, Name)
            and node.left.value.id == "run")


def _local(node: Node, groups: frozenset[str]) -> bool:
    """Whether ``node`` reads nothing but the run, the source and the target pile: no
    quantifier, no count, no pile of a group named directly (membership of the three in a
    group is fine)."""
    for sub in walk(node):
        if isinstance(sub, Quantifier | Count | Pairs | Call):
            return False
        if isinstance(sub, Name) and sub.id not in LOCAL_NAMES and sub.id in groups:
            return False
    return True


class _Values(Visitor[object]):
    """The value of a rule for one assignment (cards as ints, ``pile.empty`` known or not),
    or UNKNOWN: three-valued, so what the assignment does not fix is unknown."""

    # a call is inlined before; a quantifier, a count and which group a pile is in are
    # never decided here (``generic_visit``: unknown)
    generic = frozenset({"Call", "Quantifier", "Pairs", "Count", "Member", "Neighbour"})

    def __init__(self, env: Env, constants: Mapping[str, object]) -> None:
        self.env = env
        self.constants = constants

    def generic_visit(self, node: Node, *args: object) -> object:
        return UNKNOWN

    def visit_Integer(self, node: Integer) -> object:
        return node.value

    def visit_Boolean(self, node: Boolean) -> object:
        return node.value

    def visit_Name(self, node: Name) -> object:
        return self.constants.get(node.id, UNKNOWN)

    def visit_Attribute(self, node: Attribute) -> object:
        path = path_of(node)
        if path is not None and path in self.env:
            return self.env[path]
        inner = path_of(node.value)
        if inner is not None:
            card = self.env.get(inner)
            if isinstance(card, int) and node.name in ("rank", "suit", "color"):
                return {"rank": rank_of, "suit": suit_of, "color": color_of}[node.name](card)
        return UNKNOWN

    def visit_Not(self, node: Not) -> object:
        value = self.visit(node.operand)
        return UNKNOWN if value is UNKNOWN else not value

    def visit_BoolOp(self, node: BoolOp) -> object:
        values = [self.visit(value) for value in node.values]
        if node.op == "and":
            return False if False in values else (UNKNOWN if UNKNOWN in values else True)
        return True if True in values else (UNKNOWN if UNKNOWN in values else False)

    def visit_Compare(self, node: Compare) -> object:
        left, right = self.visit(node.left), self.visit(node.right)
        if not isinstance(left, int) or not isinstance(right, int):
            return UNKNOWN
        return compare(node.op, left, right)

    def visit_Negate(self, node: Negate) -> object:
        value = self.visit(node.operand)
        return -value if isinstance(value, int) else UNKNOWN

    def visit_Arithmetic(self, node: Arithmetic) -> object:
        left, right = self.visit(node.left), self.visit(node.right)
        if node.op in ("+", "-") and isinstance(left, int) and isinstance(right, int):
            return fold_arithmetic(node.op, left, right)  # None (unknown) beyond the limit
        return UNKNOWN


def _value(node: Node, env: Env, constants: Mapping[str, object]) -> object:
    """The value of ``node`` for one assignment, or UNKNOWN (:class:`_Values`)."""
    return _Values(env, constants).visit(node)


def path_of(node: Node) -> str | None:
    """``run.top.rank`` for the node that reads it (names and attributes only), else None."""
    if isinstance(node, Name):
        return node.id
    if isinstance(node, Attribute):
        inner = path_of(node.value)
        return None if inner is None else f"{inner}.{node.name}"
    return None


def _may_accept(node: Node, card: int, base: int | None,
                constants: Mapping[str, object]) -> bool:
    """Whether ``node`` (an ``accepts`` rule) could accept the single card ``card`` onto a
    pile whose top is ``base`` (None: an empty pile): not false for this pair."""
    env: dict[str, object] = {"run.top": card, "run.bottom": card, "run.size": 1,
                              "pile.empty": base is None}
    if base is not None:
        env["pile.top"] = base
    return _value(node, env, constants) is not False


def derive_safe(definition: Definition, deck: tuple[int, ...]) -> Derivation:
    """The no-take-back derivation for ``definition`` (docs/solver.md, "Derived safe
    moves"): the rule text, or why none is derived. Each test below refuses with the first
    reason it finds, in the order the argument needs them."""
    groups = definition.groups
    names = frozenset(g.name for g in groups)
    constants: dict[str, object] = {k: v for k, (_, v) in BUILTIN_CONSTANTS.items()}
    constants.update(definition.parameters)

    def inlined(node: Node) -> Node:
        return inline_calls(node, definition.predicates, lambda p: False)

    reason = _variant_refusal(definition)
    if reason is not None:
        return _refuse(reason)
    moves = {g.name: inlined(g.moves.node) for g in groups}
    accepts = {g.name: inlined(g.accepts.node) for g in groups}
    if any(isinstance(sub, Neighbour) or isinstance(sub, Attribute) and sub.name in (
            *PLACE_ATTRIBUTES, "covered") for node in (*moves.values(), *accepts.values())
           for sub in walk(node)):
        return _refuse("a rule reads where piles stand (a place or a neighbour)")
    home = [g for g in groups
            if isinstance(moves[g.name], Boolean) and not moves[g.name].value]  # type: ignore[attr-defined]
    if len(home) != 1:
        return _refuse("not exactly one group whose cards never leave it (moves: false)")
    h = home[0]
    reason = _home_refusal(h, inlined(definition.win.node), len(deck), len(definition.suits))
    for g in groups:
        if reason is not None:
            break
        reason = _group_refusal(g, h, moves[g.name], accepts[g.name], names)
    if reason is None:
        reason = _card_refusal(h, accepts, groups, deck, constants)
    if reason is None and not _home_placed_in_sequence(h):
        reason = f"{h.name} starts with cards that are not a suit from its Ace"
    if reason is not None:
        return _refuse(reason)
    return Derivation(f"pile in {h.name} and (all f in {h.name}: f.size >= run.top.rank - 1)",
                      f"no card leaves {h.name} and only lower cards are built on a card")


def _variant_refusal(definition: Definition) -> str | None:
    """Why the variant as a whole is outside the argument, or None."""
    if definition.decks != 1:
        return "more than one deck"
    if definition.discards:  # the argument knows moves of one pile's run, not sets of piles
        return ("the variant has discards (moves that take cards from several piles at "
                "once)")
    if definition.stock.deals_to:
        return "the stock deals cards (a deal may put any card on any card)"
    if definition.stock.gather is not None:
        return ("a redeal gathers piles and deals them again (a card sent home earlier "
                "changes what the redeal deals, and where)")
    if any(g.merci for g in definition.groups):
        return ("a group draws buried cards (merci: a card sent home off a pile changes "
                "which card a draw takes from under it)")
    return None


def _home_refusal(h: GroupDefinition, win: Node, total: int, suits: int) -> str | None:
    """Why the home group ``h`` is not where the game is won, one pile a suit, or None."""
    if not (isinstance(win, Quantifier) and win.kind == "all" and isinstance(win.domain, Name)
            and win.domain.id == h.name and isinstance(win.body, Compare)
            and win.body.op == "==" and path_of(win.body.left) == f"{win.names[0]}.size"
            and isinstance(win.body.right, Integer)
            and win.body.right.value * h.count == total):
        return (f"the win is not 'every card on {h.name}' (all f in {h.name}: "
                f"f.size == {total // max(h.count, 1)})")
    if h.count != suits:
        return f"{h.name} has not one pile a suit"
    return None


def _group_refusal(g: GroupDefinition, h: GroupDefinition, moves: Node, accepts: Node,
                   names: frozenset[str]) -> str | None:
    """Why the group ``g`` (with its inlined rules) is outside the argument, or None."""
    if g.close_gaps or g.close_on_deal or (g.layout is not None and g.layout.overlap):
        return f"{g.name} closes its gaps or covers its piles (layout)"
    if g.removal is not Removal.OPTIONAL:
        return f"{g.name} has forced moves (removal: forced)"
    if g.fill_from is not None or g.to_bottom is not None:
        return f"{g.name} fills its empty piles or deals cards under others"
    if g.lands is Lands.BOTTOM:  # (the argument takes a move back off the top)
        return f"{g.name} puts the cards moved to it under its piles (lands: bottom)"
    if g.deal_first is not None:  # (the argument reads where the deal puts cards)
        return f"{g.name} is dealt the cards its deal_first rule picks"
    if any(g.face_down):
        return f"{g.name} deals cards face down"
    if not (_local(moves, names) and _local(accepts, names)):
        return f"a rule of {g.name} reads more than the move's run, source and target pile"
    if g is not h and not any(_is_run_size_one(c) for c in _conjuncts(moves)):
        return f"{g.name} moves runs of more than one card"
    return None


def _card_refusal(h: GroupDefinition, accepts: dict[str, Node],
                  groups: Sequence[GroupDefinition], deck: tuple[int, ...],
                  constants: dict[str, object]) -> str | None:
    """Why some card may go home out of order, or be built on a card not higher, or None:
    every card and pair of cards tried against the home group's and the others' rules."""
    hacc = accepts[h.name]
    builders = [(g, accepts[g.name]) for g in groups if g is not h]
    if not any(_is_run_size_one(c) for c in _conjuncts(hacc)):
        return f"{h.name} accepts runs of more than one card"
    for card in deck:
        if _may_accept(hacc, card, None, constants) and rank_of(card) != 1:
            return f"an empty pile of {h.name} may take a card other than an Ace"
        for base in deck:
            if base == card:
                continue
            if _may_accept(hacc, card, base, constants) and not (
                    suit_of(card) == suit_of(base) and rank_of(card) == rank_of(base) + 1):
                return f"{h.name} may take a card not the next of its suit"
            if rank_of(card) >= rank_of(base):
                for g, rule in builders:
                    if _may_accept(rule, card, base, constants):
                        return f"{g.name} may build a card on one not higher in rank"
    return None


def _home_placed_in_sequence(h: GroupDefinition) -> bool:
    if any(h.deal):
        return False
    for cards in h.place:
        for i, card in enumerate(cards):
            if rank_of(card) != i + 1 or suit_of(card) != suit_of(cards[0]):
                return False
    return True
