"""Why a move is refused, in a player's words: one short sentence, the board's card symbols.

:mod:`patience.explain` says which rule forbids a move and which part of it is false, for
rule authors (``piles.columns.accepts 'pile.empty or goes_on(run.bottom, pile.top)' is
false …``). A player needs one sentence in the game's words. When a card cannot go onto a pile,
the sentence says which cards that pile takes ("8♦ can't go on J♦: only a 10 goes there",
"only a black 10", "only a King" for an empty Klondike column): every card of the deck is
put to the pile's ``accepts`` rule alone, and the ones it takes are said by rank, colour and
suit (:func:`cards_taken`). Cards that cannot move together are told how many of them can
("only 7♥ and the card on it can"). Where that is not the reason (a run too long, cards not in
sequence, a card that may not leave) or the cards taken are too many kinds to say briefly,
the words are the variant file's own: the comment its author wrote beside the predicate that
fails (the outermost one that has a comment), else the comment beside the rule itself
(``rulestext.comment_at``). Nothing here is written per variant. Every front end shows
:attr:`Refusal.words` and keeps :attr:`Refusal.explanation` (the full explanation) one
request away (``why``).

>>> from patience import Game, find_variant
>>> from patience.cards import parse_cards
>>> game = Game(find_variant("tabbycat"), [parse_cards(c) for c in
...             ("7D", "8C", "TS", "", "", "", "", "", "")], [])
>>> refusal(game, game.parse_move("c1:1-c3")).words
"7♦ can't go on 10♠: only a 9 goes there"
>>> refusal(game, game.parse_move("c1:1-c2")) is None
True
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import attrs

from patience.cards import FACE_DOWN, card_symbol, color_of, parse_card
from patience.explain import CardValue, Interpreter, PileValue, RunValue, explain_move
from patience.language import DISCARD_PILES, BoolOp, Call, Node, Quantifier, Visitor
from patience.rulestext import comment_at

if TYPE_CHECKING:
    from patience.definition import Rule
    from patience.game import Game
    from patience.moves import Move

#: a card code in an explanation (``8D``, ``TS``), as a whole word
CARD_CODE = re.compile(r"\b([A2-9TJQK][CDHS])\b")


@attrs.frozen
class Refusal:
    """Why a move is refused: ``words`` for a player, ``explanation`` for a rule author."""

    words: str
    explanation: str


def refusal(game: Game, move: Move) -> Refusal | None:
    """None when ``move`` is legal in ``game``; else what is wrong with it, in two forms."""
    explanation, rule_key = explain_move(game, move)
    if explanation is None:
        return None
    return Refusal(_words(game, move, explanation, rule_key), explanation)


def with_symbols(text: str) -> str:
    """``text`` with every card code in it (``8D``) written as the board draws it (``8♦``)."""
    return CARD_CODE.sub(lambda match: card_symbol(parse_card(match.group(1))), text)


def _words(game: Game, move: Move, explanation: str, rule_key: str | None) -> str:
    variant = game.variant
    interpreter = Interpreter(game)
    if move.source < -1:  # a discard
        if rule_key is None:
            return _structural(game, move, explanation)
        piles = [interpreter.pile(i) for i in variant.discard_sets[-2 - move.source]]
        rule = variant.discard_of(move.source).when
        env: dict[str, Any] = dict(zip(DISCARD_PILES, piles))
        cards = " and ".join(card_symbol(pile.cards[-1]) for pile in piles)
        return f"{cards} can't be discarded together: {_because(interpreter, rule, env)}"
    if move.source < 0:
        rule = variant.deal_when
        if rule_key == rule.key and not interpreter.evaluate(rule.node, {}):
            return f"no deal now: {_because(interpreter, rule, {})}"
        return _structural(game, move, explanation)
    if rule_key is None:
        return _structural(game, move, explanation)
    source = interpreter.pile(move.source)
    target = interpreter.pile(move.target)
    run = RunValue(source.cards[-move.count:])
    cards = _cards(run.cards)
    gives = variant.group_of_pile[move.source].moves
    env = {"pile": source, "run": run}
    if rule_key == gives.key and not interpreter.evaluate(gives.node, env):
        if move.count > 1:
            for count in range(move.count - 1, 0, -1):  # the longest run on top that may go
                shorter = RunValue(source.cards[-count:])
                if interpreter.evaluate(gives.node, {"pile": source, "run": shorter}):
                    return (f"{cards} can't move together: only {_cards(shorter.cards)} "
                            "can")
        what = f"{cards} can't move together" if move.count > 1 else f"{cards} can't leave " \
            f"{source.name}"
        return f"{what}: {_because(interpreter, gives, env)}"
    accepts = variant.group_of_pile[move.target].accepts
    env = {"pile": target, "run": run, "source": source}
    if rule_key == accepts.key and not interpreter.evaluate(accepts.node, env):
        if not target.cards:
            where = f"to empty {target.name}"
        elif target.cards[-1] & FACE_DOWN:
            where = "on a face-down card"
        else:
            where = f"on {card_symbol(target.cards[-1])}"
        taken = cards_taken(interpreter, accepts, target, source, run.cards[0])
        if taken is not None:
            return f"{cards} can't go {where}: " + (
                f"only {taken} goes there" if taken else "no card goes there by itself")
        return f"{cards} can't go {where}: {_because(interpreter, accepts, env)}"
    return _structural(game, move, explanation)


RANK_WORDS = ("Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King")
#: the most kinds of card (a rank, with its suits) a sentence names before it gives up
MOST_KINDS = 3


def cards_taken(interpreter: Interpreter, accepts: Rule, target: PileValue,
                source: PileValue, card: int) -> str | None:
    """Which single cards the ``accepts`` rule lets onto ``target`` from ``source``, in a
    player's words ("a 10", "a black 10", "5♠", "a King"), when ``card`` alone would be
    refused too (so the pairing is the reason); '' when no card goes onto a non-empty
    ``target`` alone (nothing goes on a Spider Ace); None when ``card`` alone would be
    taken (the reason lies in the run), when no card goes alone onto an empty pile (a set
    must go whole: the author's words say it better), or when the cards taken are too many
    kinds to say briefly."""
    def takes(candidate: int) -> bool:
        env = {"pile": target, "run": RunValue((CardValue(candidate),)), "source": source}
        return bool(interpreter.evaluate(accepts.node, env))

    if any(c & FACE_DOWN for c in target.cards):
        return None  # what it takes would tell the face-down cards
    if takes(card & ~FACE_DOWN):
        return None
    kinds = sorted({c & ~FACE_DOWN for c in interpreter.variant.deck})
    taken = [c for c in kinds if takes(c)]
    if not taken:
        return "" if target.cards else None
    if len(taken) == len(kinds):
        return None
    suits_of: dict[int, set[int]] = {}
    for c in taken:
        suits_of.setdefault((c >> 2) & 15, set()).add(c & 3)
    if len(suits_of) > MOST_KINDS:
        return None
    all_suits = {c & 3 for c in kinds}
    words = []
    for rank, suits in sorted(suits_of.items(), reverse=True):
        name = RANK_WORDS[rank - 1]
        article = "an" if name in ("Ace", "8") else "a"
        colors = {color_of(rank << 2 | suit) for suit in suits}
        same_color = {suit for suit in all_suits if color_of(rank << 2 | suit) in colors}
        if suits == all_suits:
            words.append(f"{article} {name}")
        elif len(colors) == 1 and suits == same_color and len(suits) > 1:
            color = "red" if color_of(rank << 2 | next(iter(suits))) else "black"
            words.append(f"a {color} {name}")
        else:
            words.append(" or ".join(card_symbol(rank << 2 | suit) for suit in sorted(suits)))
    return " or ".join(words)


def _cards(cards: tuple[int, ...]) -> str:
    """'7♣', '7♣ and the card on it', or '7♣ and the 2 cards on it'."""
    first = card_symbol(cards[0])
    more = len(cards) - 1
    return first if not more else f"{first} and the card on it" if more == 1 else \
        f"{first} and the {more} cards on it"


def _structural(game: Game, move: Move, explanation: str) -> str:
    """A refusal that is no rule's (an empty pile, a face-down card, no deal left): the
    explanation without the move's notation in front, cards as symbols."""
    written = game.notation(move) if move.source < 0 or (
        0 <= move.source < len(game.piles) and 0 <= move.target < len(game.piles)) else ""
    text = explanation
    for prefix in (f"{written}: ", "d: "):
        if written and text.startswith(prefix):
            text = text[len(prefix):]
            break
    return with_symbols(text)


def _because(interpreter: Interpreter, rule: Rule, env: dict[str, Any]) -> str:
    """The words for why ``rule`` is false: a failing predicate's comment, the rule's
    comment, or (with neither) the part of the rule that is false."""
    words, _ = _blame(interpreter, rule.node, env)
    if words:
        return words
    words = comment_at(rule.origin)
    if words:
        return words
    return with_symbols(interpreter.reason(rule.node, env, rule.text))


def _blame(interpreter: Interpreter, node: Node, env: dict[str, Any]) -> tuple[str, int]:
    """The comment of the outermost failing predicate under ``node`` (which is false), or
    '', and how far the evaluation got before it failed (to choose among the branches of
    an ``or``: the one that got furthest is the one the player meant)."""
    return _Blame(interpreter).visit(node, env)


class _Blame(Visitor[tuple[str, int]]):
    """:func:`_blame`: ``visit(node, env)`` for a false ``node``."""

    # no predicate to blame inside them
    generic = frozenset({"Integer", "Boolean", "Name", "Attribute", "Not", "Negate",
                         "Arithmetic", "Compare", "Member", "Pairs", "Count", "Neighbour"})

    def __init__(self, interpreter: Interpreter) -> None:
        self.interpreter = interpreter

    def generic_visit(self, node: Node, *args: Any) -> tuple[str, int]:
        return "", 0

    def visit_BoolOp(self, node: BoolOp, env: dict[str, Any]) -> tuple[str, int]:
        if node.op == "and":
            held = 0
            for value in node.values:
                if not self.interpreter.evaluate(value, env):
                    words, score = self.visit(value, env)
                    return words, score + held
                held += 1
            return "", held
        branches = [self.visit(value, env) for value in node.values]
        return max(branches, key=lambda branch: (branch[1], bool(branch[0])))

    def visit_Call(self, node: Call, env: dict[str, Any]) -> tuple[str, int]:
        predicate = self.interpreter.predicates[node.function]
        inner = {p.name: self.interpreter.evaluate(arg, env)
                 for p, arg in zip(predicate.signature.parameters, node.args)}
        words, score = self.visit(predicate.body, inner)
        origin = predicate.origin[1] if isinstance(predicate.origin, tuple) else None
        return comment_at(origin) or words, score + 1

    def visit_Quantifier(self, node: Quantifier, env: dict[str, Any]) -> tuple[str, int]:
        if node.kind == "all":
            for binding in self.interpreter._bindings(node, env):
                scope = {**env, **binding}
                if not self.interpreter.evaluate(node.body, scope):
                    return self.visit(node.body, scope)
        return "", 0
