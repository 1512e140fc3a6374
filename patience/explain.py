"""Why a move is illegal, in the words of the rule that forbids it.

This is the slow path: an interpreter over patience's AST (the generated code is the fast
path). It checks a move the way the rules define legality — the source pile gives the run
(its group's ``moves`` rule), the target pile takes it (its group's ``accepts`` rule), a
group addressed as a whole takes it on its first accepting pile — and for the first check
that fails it quotes the rule from the variant file and says which part of it is false,
with the cards involved. The test battery checks that this interpreter and the generated
move generator agree on every move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from patience.cards import (
    FACE_DOWN,
    RED,
    SUIT_SYMBOLS,
    card_code,
    color_of,
    is_face_up,
    rank_of,
    suit_of,
)
from patience.language import (
    BUILTIN_CONSTANTS,
    DISCARD_PILES,
    Arithmetic,
    Attribute,
    Boolean,
    BoolOp,
    Call,
    Compare,
    Count,
    Integer,
    Member,
    Name,
    Negate,
    Neighbour,
    Node,
    Not,
    Pairs,
    Quantifier,
    Type,
    Visitor,
    arithmetic,
    compare,
)
from patience.moves import DRAW, Move
from patience.places import NO_PILE, PLACE_ATTRIBUTES
from patience.settings import Removal, Target

if TYPE_CHECKING:
    from patience.definition import Rule
    from patience.game import Game
    from patience.variant import Variant


class CardValue(int):
    """A card in the interpreter: an int that prints as its code."""

    def __str__(self) -> str:
        return card_code(self)


@attrs.frozen
class PileValue:
    name: str
    index: int
    cards: tuple[int, ...]
    group: str


#: a neighbour past the edge: no pile, read as an empty one (patience.places)
NOWHERE = PileValue("no pile", NO_PILE, (), "")


@attrs.frozen
class StockValue:
    size: int  # what a rule may know of the stock: how many cards, never which


@attrs.frozen
class RunValue:
    cards: tuple[int, ...]  # bottom (deepest) first


class Interpreter(Visitor[Any]):
    """Evaluates rule expressions of one game's variant on concrete piles and runs."""

    generic = frozenset({"Pairs"})  # a quantifier's domain: read by ``_bindings``

    def __init__(self, game: Game | None, variant: Variant | None = None) -> None:
        self.game = game
        variant = variant or game.variant  # type: ignore[union-attr]
        self.variant = variant
        self.constants = {**{k: v for k, (_, v) in BUILTIN_CONSTANTS.items()},
                          **variant.parameters}
        self.predicates = variant.predicates

    @classmethod
    def for_variant(cls, variant: Variant) -> Interpreter:
        """An interpreter for rules that read no pile (``to_bottom``, on ``card``)."""
        return cls(None, variant)

    def pile(self, index: int) -> PileValue:
        variant = self.variant
        assert self.game is not None
        return PileValue(variant.pile_names[index], index,
                         tuple(map(CardValue, self.game.piles[index])),
                         variant.group_of_pile[index].name)

    # -- evaluation --

    def evaluate(self, node: Node, env: dict[str, Any]) -> Any:
        """The value of ``node`` with the variables ``env`` (dispatched by node class)."""
        return self.visit(node, env)

    def visit_Integer(self, node: Integer, env: dict[str, Any]) -> Any:
        return node.value

    def visit_Boolean(self, node: Boolean, env: dict[str, Any]) -> Any:
        return node.value

    def visit_Name(self, node: Name, env: dict[str, Any]) -> Any:
        if node.id in env:
            return env[node.id]
        if node.id == "stock":
            assert self.game is not None
            return StockValue(len(self.game.stock))
        return self.constants[node.id]

    def visit_Attribute(self, node: Attribute, env: dict[str, Any]) -> Any:
        return self._attribute(self.evaluate(node.value, env), node.name)

    def visit_Not(self, node: Not, env: dict[str, Any]) -> Any:
        return not self.evaluate(node.operand, env)

    def visit_Negate(self, node: Negate, env: dict[str, Any]) -> Any:
        return -self.evaluate(node.operand, env)

    def visit_Arithmetic(self, node: Arithmetic, env: dict[str, Any]) -> Any:
        return arithmetic(node.op, self.evaluate(node.left, env),
                          self.evaluate(node.right, env))

    def visit_Compare(self, node: Compare, env: dict[str, Any]) -> Any:
        a, b = self.evaluate(node.left, env), self.evaluate(node.right, env)
        if isinstance(a, PileValue):  # the same pile, or not
            return (a.index == b.index) == (node.op == "==")
        return compare(node.op, a, b)

    def visit_BoolOp(self, node: BoolOp, env: dict[str, Any]) -> Any:
        if node.op == "and":
            return all(self.evaluate(value, env) for value in node.values)
        return any(self.evaluate(value, env) for value in node.values)

    def visit_Member(self, node: Member, env: dict[str, Any]) -> Any:
        pile = self.evaluate(node.value, env)
        return (pile.group == node.group) != node.negated

    def visit_Call(self, node: Call, env: dict[str, Any]) -> Any:
        predicate = self.predicates[node.function]
        inner = {p.name: self.evaluate(arg, env)
                 for p, arg in zip(predicate.signature.parameters, node.args)}
        return self.evaluate(predicate.body, inner)

    def visit_Quantifier(self, node: Quantifier, env: dict[str, Any]) -> Any:
        test = all if node.kind == "all" else any
        return test(self.evaluate(node.body, {**env, **binding})
                    for binding in self._bindings(node, env))

    def visit_Count(self, node: Count, env: dict[str, Any]) -> Any:
        group = self.variant.group_by_name[node.group]
        return sum(1 for index in group.indices
                   if self.evaluate(node.body, {**env, node.name: self.pile(index)}))

    def visit_Neighbour(self, node: Neighbour, env: dict[str, Any]) -> Any:
        pile = self.evaluate(node.pile, env)
        distance = self.evaluate(node.distance, env)
        index = NO_PILE if pile.index == NO_PILE else \
            self.variant.pile_maps.neighbours(node.direction, distance)[pile.index]
        return NOWHERE if index == NO_PILE else self.pile(index)

    def _attribute(self, owner: Any, attribute: str) -> Any:
        if isinstance(owner, StockValue):
            return {"empty": owner.size == 0, "size": owner.size}[attribute]
        if isinstance(owner, PileValue):
            if attribute == "covered":
                return owner.index != NO_PILE and any(
                    self.game.piles[other]  # type: ignore[union-attr]
                    for other in self.variant.pile_maps.covering()[owner.index])
            if attribute in PLACE_ATTRIBUTES:
                return 0 if owner.index == NO_PILE else \
                    self.variant.pile_maps.place(attribute)[owner.index]
            if attribute == "empty":
                return not owner.cards
            if attribute == "size":
                return len(owner.cards)
            return owner.cards[-1] if attribute == "top" else owner.cards[0]
        if isinstance(owner, RunValue):
            return {"size": len(owner.cards), "top": owner.cards[-1],
                    "bottom": owner.cards[0]}[attribute]
        return {"rank": rank_of(owner), "suit": suit_of(owner), "color": color_of(owner),
                "face_up": is_face_up(owner)}[attribute]

    def _bindings(self, node: Quantifier, env: dict[str, Any]) -> list[dict[str, Any]]:
        if isinstance(node.domain, Pairs):
            run = self.evaluate(node.domain.run, env)  # a run or a pile: its cards
            cards = run.cards
            return [dict(zip(node.names, (cards[i], cards[i + 1])))
                    for i in range(len(cards) - 1)]
        assert isinstance(node.domain, Name)
        group = self.variant.group_by_name[node.domain.id]
        return [{node.names[0]: self.pile(index)} for index in group.indices]

    # -- reasons --

    def reason(self, node: Node, env: dict[str, Any], text: str) -> str:
        """Why ``node`` (which evaluates to false) is false, quoting ``text``."""
        return _Reasons(self).visit(node, env, text)

    def _show(self, value: Any) -> str:
        if isinstance(value, PileValue):
            return value.name
        if isinstance(value, RunValue):
            return " ".join(card_code(c) for c in value.cards)
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)


class _Reasons(Visitor[str]):
    """:meth:`Interpreter.reason`: ``visit(node, env, text)`` says why ``node`` is false."""

    # not true or false by themselves: "'…' is false"
    generic = frozenset({"Integer", "Name", "Negate", "Arithmetic", "Count", "Pairs",
                         "Neighbour"})

    def __init__(self, interpreter: Interpreter) -> None:
        self.interpreter = interpreter
        self.evaluate = interpreter.evaluate
        self.show = interpreter._show
        self.types: dict[str, Type] = {}  # the parameters of the predicate being explained

    def generic_visit(self, node: Node, *args: Any) -> str:
        _env, text = args
        return f"{_quote(text, node)} is false"

    def visit_BoolOp(self, node: BoolOp, env: dict[str, Any], text: str) -> str:
        if node.op == "and":
            for value in node.values:
                if not self.evaluate(value, env):
                    return self.visit(value, env, text)
        return "; and ".join(self.visit(value, env, text) for value in node.values)

    def visit_Not(self, node: Not, env: dict[str, Any], text: str) -> str:
        return f"{_quote(text, node.operand)} holds"

    def visit_Boolean(self, node: Boolean, env: dict[str, Any], text: str) -> str:
        return "the rule is 'false': never"

    def visit_Attribute(self, node: Attribute, env: dict[str, Any], text: str) -> str:
        if node.name != "empty":
            return self.generic_visit(node, env, text)
        pile = self.evaluate(node.value, env)
        if isinstance(pile, StockValue):
            return f"the stock is not empty ({pile.size} cards)"
        return f"{pile.name} is not empty"

    def visit_Member(self, node: Member, env: dict[str, Any], text: str) -> str:
        pile = self.evaluate(node.value, env)
        where = "not in" if not node.negated else "in"
        return f"{pile.name} is {where} the {node.group}"

    def visit_Compare(self, node: Compare, env: dict[str, Any], text: str) -> str:
        values = [f"{_quote(text, side)} is {self.shown(side, self.evaluate(side, env))}"
                  for side in (node.left, node.right) if not _is_literal(side)]
        return f"{_quote(text, node)} is false" + (f" ({', '.join(values)})" if values else "")

    def visit_Call(self, node: Call, env: dict[str, Any], text: str) -> str:
        predicate = self.interpreter.predicates[node.function]
        parameters = predicate.signature.parameters
        args = [self.evaluate(arg, env) for arg in node.args]
        shown = ", ".join(_typed(self.show(arg), p.type) for arg, p in zip(args, parameters))
        inner = dict(zip((p.name for p in parameters), args))
        outer, self.types = self.types, {p.name: p.type for p in parameters}
        try:
            why = self.visit(predicate.body, inner, predicate.text)
        finally:
            self.types = outer
        return f"{node.function}({shown}) is false: {why}"

    def visit_Quantifier(self, node: Quantifier, env: dict[str, Any], text: str) -> str:
        bindings = self.interpreter._bindings(node, env)
        if node.kind == "all":
            for binding in bindings:
                if not self.evaluate(node.body, {**env, **binding}):
                    names = ", ".join(f"{k} = {self.show(v)}" for k, v in binding.items())
                    return f"for {names}: " + self.visit(node.body, {**env, **binding}, text)
        return f"{_quote(text, node)} is false: no {', '.join(node.names)} makes it true"


    def shown(self, node: Node, value: Any) -> str:
        """A value as a reason shows it: a suit as its symbol and a colour as its name
        ('card.suit' is ♠, not 3), whether it is read off a card or is a predicate's
        parameter of type suit or color."""
        shown = self.show(value)
        if isinstance(node, Attribute) and node.name in ("suit", "color"):
            return _typed(shown, Type.SUIT if node.name == "suit" else Type.COLOR)
        if isinstance(node, Name) and node.id in self.types:
            return _typed(shown, self.types[node.id])
        return shown


def _typed(shown: str, kind: Type) -> str:
    """A suit's or a colour's number as its symbol or name; any other value as it is."""
    if not shown.isdigit():
        return shown
    if kind is Type.SUIT and int(shown) < len(SUIT_SYMBOLS):
        return SUIT_SYMBOLS[int(shown)]
    if kind is Type.COLOR:
        return "red" if int(shown) == RED else "black"
    return shown


def _is_literal(node: Node) -> bool:
    return isinstance(node, (Integer, Boolean)) or (isinstance(node, Name)
                                                     and node.id in BUILTIN_CONSTANTS)


def _quote(text: str, node: Node) -> str:
    start, end = node.span
    piece = text[start:end].strip() if 0 <= start < end <= len(text) else ""
    return f"'{piece}'" if piece else "it"


def explain(game: Game, move: Move) -> str | None:
    """None if ``move`` is legal in ``game``; otherwise the rule that forbids it, and why."""
    return explain_move(game, move)[0]


def explain_move(game: Game, move: Move) -> tuple[str | None, str | None]:
    """(why ``move`` is illegal, the key of the rule that forbids it), or (None, None)
    for a legal move."""
    reason, rule = _reason_against(game, move)
    if reason is None and tuple(move) not in game.generate_moves():
        # the rules allow it but the generated code did not make it: a kernel bug
        return f"{game.notation(move)}: not generated although the rules allow it", None
    return reason, rule


def reason_against(game: Game, move: Move) -> str | None:
    """The rule that forbids ``move``, found by interpreting the rules (never by looking at
    the generated move list); None when the rules allow it. The test battery compares this
    with the generated moves."""
    return _reason_against(game, move)[0]


Reason = tuple[str | None, str | None]  # (why a move is illegal, the rule's key), or Nones


def _reason_against(game: Game, move: Move) -> Reason:
    variant = game.variant
    interpreter = Interpreter(game)
    shown = game.notation(move) if _valid_indices(game, move) else repr(tuple(move))
    if interpreter.evaluate(variant.win.node, {}):
        return f"{shown}: the game is won; no move is left", None
    if move.source < -1:
        return _discard_against(game, interpreter, move, shown)
    if move.source < 0:
        return _deal_against(game, interpreter)
    if not _valid_indices(game, move):
        return f"{shown}: no such pile", None
    if move.count == DRAW:
        return _draw_against(game, interpreter, move, shown)
    why = _shape_against(game, interpreter, move, shown)
    if why is not None:
        return why, None
    return _rules_against(game, interpreter, move, shown)


def _deal_against(game: Game, interpreter: Interpreter) -> Reason:
    """Why the deal is illegal: no card and no redeal left, or ``stock.deal_when``."""
    variant = game.variant
    if not game.stock:
        if game.can_deal():  # the waste turns back into the stock
            return None, None
        if variant.redeal_pile is not None and game.piles[variant.redeal_pile]:
            return "d: the stock is empty and no redeal is left", None
        gather = variant.gather
        if gather is not None:
            if any(game.piles[i] for i in gather.piles):
                return (f"d: the {gather.limit} redeal{'s' if gather.limit != 1 else ''} "
                        "of stock.gather are made; no redeal is left"), "stock.gather"
            return "d: the piles stock.gather deals again are empty", "stock.gather"
        return "d: the stock is empty; there is no deal left", None
    rule = variant.deal_when
    if interpreter.evaluate(rule.node, {}):
        return None, None
    return f"d: no deal now: {_rule_words(rule)} is false: " + \
        interpreter.reason(rule.node, {}, rule.text), rule.key


def _shape_against(game: Game, interpreter: Interpreter, move: Move, shown: str) -> str | None:
    """Why the move cannot be made whatever the rules say (onto itself, no such cards,
    face-down or covered cards, a forced group), or None."""
    variant = game.variant
    source_pile = interpreter.pile(move.source)
    target_group = variant.group_of_pile[move.target]
    if move.source == move.target:
        return f"{shown}: a pile cannot move onto itself"
    if move.count < 1:
        return f"{shown}: a move takes at least one card"
    if move.count > len(source_pile.cards):
        held = len(source_pile.cards)
        return (f"{shown}: {source_pile.name} holds only {held} card{'s' if held != 1 else ''}"
                if held else f"{shown}: {source_pile.name} is empty")
    if target_group.removal is Removal.FORCED:
        return (f"{shown}: cards go to the {target_group.name} only by themselves, at once "
                f"(piles.{target_group.name}.removal: forced); that is not a move to make")
    if any(card & FACE_DOWN for card in source_pile.cards[-move.count:]):
        down = sum(1 for card in source_pile.cards if card & FACE_DOWN)
        return (f"{shown}: only the face-up cards of a pile move, and {source_pile.name} has "
                f"{len(source_pile.cards) - down}")
    return _covered_against(game, interpreter, move.source, source_pile, shown)


def _covered_against(game: Game, interpreter: Interpreter, index: int, pile: PileValue,
                     shown: str) -> str | None:
    """Why pile ``index`` gives no card: the piles covering it (None: it is not covered)."""
    variant = game.variant
    group = variant.group_of_pile[index]
    if not (group.arrangement.overlap and interpreter._attribute(pile, "covered")):
        return None
    over = [variant.pile_names[i] for i in variant.pile_maps.covering()[index] if game.piles[i]]
    return (f"{shown}: {pile.name} is covered by {' and '.join(over)}: a covered pile gives "
            f"no card (piles.{group.name}.layout)")


def _draw_against(game: Game, interpreter: Interpreter, move: Move, shown: str) -> Reason:
    """Why the draw of a buried card ``move`` is illegal (``merci``): none in this variant
    or from this group, none left, no card under the top card, or the target's rules with
    the top card lifted (the drawn card is the run, the source moves by no ``moves`` rule)."""
    variant = game.variant
    merci = variant.merci
    group = variant.group_of_pile[move.source]
    if merci is None:
        return f"{shown}: this variant has no draw of a buried card (no merci)", None
    if not group.merci:
        return (f"{shown}: no card is drawn from under the top card of the {group.name} "
                f"(piles.{group.name} has no merci)"), None
    key = f"piles.{group.name}.merci"
    if game.draws_left <= 0:
        made = "the one draw of a buried card a game is made" if merci.limit == 1 else \
            f"the {merci.limit} draws of a buried card a game are made"
        return f"{shown}: {made}; none is left", key
    pile = interpreter.pile(move.source)
    if move.source == move.target:
        return f"{shown}: a pile cannot move onto itself", None
    if len(pile.cards) < 2:
        return f"{shown}: {pile.name} has no card under its top card", None
    target_group = variant.group_of_pile[move.target]
    if target_group.removal is Removal.FORCED:
        return (f"{shown}: cards go to the {target_group.name} only by themselves, at once "
                f"(piles.{target_group.name}.removal: forced); that is not a move to make"), None
    covered = _covered_against(game, interpreter, move.source, pile, shown)
    if covered is not None:
        return covered, None
    lifted = game.copy()
    lifted.piles[move.source].pop()
    return _rules_against(lifted, Interpreter(lifted), Move(move.source, 1, move.target),
                          shown, gives=False)


def _rules_against(game: Game, interpreter: Interpreter, move: Move, shown: str,
                   gives: bool = True) -> Reason:
    """Which rule refuses the move: the source group's ``moves`` (unless ``gives`` is
    false: a drawn card moves by no such rule), the target group's ``accepts``, or a
    group whose moves go to the first pile that takes them."""
    variant = game.variant
    source_pile = interpreter.pile(move.source)
    target_pile = interpreter.pile(move.target)
    source_group = variant.group_of_pile[move.source]
    target_group = variant.group_of_pile[move.target]
    run = RunValue(source_pile.cards[-move.count:])
    cards = " ".join(card_code(c) for c in run.cards)
    what = f"the top {move.count} cards of {source_pile.name} ({cards})" if move.count > 1 \
        else f"{cards} from {source_pile.name}"
    moves = source_group.moves
    env = {"pile": source_pile, "run": run}
    if gives and not interpreter.evaluate(moves.node, env):
        return (f"{shown}: {what} may not move: {_rule_words(moves)} is false: "
                + interpreter.reason(moves.node, env, moves.text), moves.key)
    accepts = target_group.accepts
    env = {"pile": target_pile, "run": run, "source": source_pile}
    if not interpreter.evaluate(accepts.node, env):
        return (f"{shown}: {target_pile.name} does not take {what}: {_rule_words(accepts)} "
                f"is false: " + interpreter.reason(accepts.node, env, accepts.text), accepts.key)
    if target_group.target is Target.FIRST:
        for index in target_group.indices:
            if index == move.target:
                break
            if index == move.source:
                continue
            env = {"pile": interpreter.pile(index), "run": run, "source": source_pile}
            if interpreter.evaluate(accepts.node, env):
                return (f"{shown}: moves to the {target_group.name} go to the first pile that "
                        f"takes them, {variant.pile_names[index]}"), accepts.key
    return None, None


def _discard_against(game: Game, interpreter: Interpreter, move: Move,
                     shown: str) -> tuple[str | None, str | None]:
    """Why the discard ``move`` is illegal (None: it is legal)."""
    variant = game.variant
    if not _valid_indices(game, move):
        return f"{shown}: no discard of this variant", None
    discard = variant.discard_of(move.source)
    if (move.count, move.target) != (discard.cards, discard.target):
        return (f"{shown}: this discard takes {discard.cards} cards to "
                f"{variant.pile_names[discard.target]}"), None
    chosen = variant.discard_sets[-2 - move.source]
    piles = [interpreter.pile(index) for index in chosen]
    empty = next((pile for pile in piles if not pile.cards), None)
    if empty is not None:
        return f"{shown}: {empty.name} is empty", None
    for index, pile in zip(chosen, piles):
        covered = _covered_against(game, interpreter, index, pile, shown)
        if covered is not None:
            return covered, None
    env = dict(zip(DISCARD_PILES, piles))
    rule = discard.when
    if not interpreter.evaluate(rule.node, env):
        cards = " ".join(card_code(pile.cards[-1]) for pile in piles)
        return (f"{shown}: {cards} may not be discarded together: {_rule_words(rule)} is "
                "false: " + interpreter.reason(rule.node, env, rule.text), rule.key)
    return None, None


def _rule_words(rule: Rule) -> str:
    return f"{rule.key} '{rule.text.strip()}'"


def _valid_indices(game: Game, move: Move) -> bool:
    count = len(game.variant.pile_names)
    if move.source < -1:  # a discard: a set of piles of the variant's discards
        return -2 - move.source < len(game.variant.discard_sets)
    return move.source < 0 or (0 <= move.source < count and 0 <= move.target < count)
