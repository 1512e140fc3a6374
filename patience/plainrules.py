"""The rules of a variant in a player's words, generated from its definition.

:func:`patience.rulestext.rules_text` is the exact page: every rule as written in the file.
This is the page beside it for players: each pile group in one short paragraph, each rule
said in the words its author wrote beside it (``rulestext.comment_at``), or — where the
file has no comment — the rule's expression read out in words (``pile.empty`` → "the pile
is empty", ``run.size == 1`` → "one card moves"). Nothing here is written per variant.

>>> from patience import find_variant
>>> print(plain_rules_text(find_variant("tabbycat")).splitlines()[-1])
To win: Every one of the foundations holds 13 cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from patience.cards import RANK_CHARS
from patience.language import (
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
    Visitor,
)
from patience.rulestext import CLOSING, CLOSING_ON_DEAL, comment_at, draw_example, layout_words
from patience.settings import Lands, Removal, Show, Target

if TYPE_CHECKING:
    from patience.definition import Rule
    from patience.variant import Group, Variant

RANK_NAMES = ("Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King")
SUBJECTS = {"pile": "the pile", "run": "the cards moving", "source": "the pile they come from",
            "stock": "the stock", "first_card": "the first card of the shuffled deck"}
ATTRIBUTES = {"top": "the top card of {}", "bottom": "the bottom card of {}",
              "size": "the number of cards in {}", "rank": "the rank of {}",
              "suit": "the suit of {}", "color": "the colour of {}",
              "empty": "{} is empty", "face_up": "{} is face up",
              "index": "the place of {} in its group", "row": "the row of {}",
              "column": "the column of {}", "covered": "{} is covered"}
#: a neighbour in words: "the pile to the left of …" (patience.places.DIRECTIONS)
NEIGHBOURS = {"left": "to the left of", "right": "to the right of", "above": "above",
              "below": "below", "above_left": "above and to the left of",
              "above_right": "above and to the right of",
              "below_left": "below and to the left of",
              "below_right": "below and to the right of"}
RUN_ATTRIBUTES = {"top": "the top card moving", "bottom": "the bottom card moving",
                  "size": "the number of cards moving"}
COMPARISONS = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
               ">": "is more than", ">=": "is at least"}
CONSTANTS = {"red": "red", "black": "black", "clubs": "clubs", "diamonds": "diamonds",
             "hearts": "hearts", "spades": "spades"}


def plain_rules_text(variant: Variant) -> str:
    """The player's rules page of ``variant``."""
    lines = [variant.name, variant.description, ""]
    deck = "one deck" if variant.decks == 1 else f"{variant.decks} decks"
    lines.append(f"The cards: {deck}, {len(variant.deck)} cards.")
    lines.append("")
    for group in variant.groups:
        lines.append(_group(variant, group))
    lines += _discards(variant)
    draws = _draws(variant)
    if draws:
        lines.append(draws)
    lines.append("")
    stock = _stock(variant)
    if stock:
        lines += [stock, ""]
    win = comment_at(variant.win.origin) or Words(variant).say(variant.win.node)
    lines.append(f"To win: {_sentence(win)}")
    return "\n".join(lines)


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _group(variant: Variant, group: Group) -> str:
    names = group.pile_names
    where = names[0] if len(names) == 1 else f"{names[0]}–{names[-1]}"
    title = group.name[0].upper() + group.name[1:]
    parts = [f"{title} ({where}):"]
    laid_out = layout_words(group, player=True)
    if laid_out is not None:
        parts.append(f"{laid_out}.")
    if group.close_gaps:
        parts.append(CLOSING)
    if group.close_on_deal:
        parts.append(CLOSING_ON_DEAL)
    if any(group.deal):
        counts = set(group.deal)
        dealt = f"{group.deal[0]} card{'s' if group.deal[0] != 1 else ''}" \
            + (" each" if group.count > 1 else "") \
            if len(counts) == 1 else "from " + ", ".join(map(str, group.deal)) + " cards"
        down = sum(group.face_down)
        shown = (", face down where a card covers them; a card turns up as soon as nothing "
                 "covers it." if group.face_down_covered else
                 ", all face down, turned one by one from the top."
                 if group.indices.start in variant.turned_piles else ", the top ones face up.")
        parts.append(f"dealt {dealt}" + (shown if down or group.face_down_covered else "."))
    if group.lands is Lands.BOTTOM:
        parts.append("A card moved here goes under the pile.")
    if group.fill_when is not None:
        parts.append("Its gaps are filled at once only when: "
                     f"{_rule_words(Words(variant), group.fill_when)}")
    if group.fill_last:
        parts.append("When empty, it takes at once the next face-down card of the pile the "
                     "last card went to, turned face up.")
    words = Words(variant)
    if group.deal_first is not None:
        parts.append("Dealt before the other piles, from the cards that lead the deal: "
                     f"{_rule_words(words, group.deal_first)} (Those left over start the "
                     "layout.)")
    if group.removal is Removal.FORCED:
        parts.append("cards go here by themselves, as soon as they can.")
    else:
        parts.append(f"Takes: {_rule_words(words, group.accepts)}")
        if group.target is Target.FIRST:
            parts.append(f"(a move here is written '{group.id}'; it goes to the first one "
                         "that takes the cards.)")
    parts.append(f"Cards leave: {_rule_words(words, group.moves)}")
    if variant.stock_top in group.indices:
        parts.append("(it holds the stock's top card, face up: when it is empty the stock's "
                     "next card turns up here at once, and each deal deals this card first.)")
    if group.show is Show.STACK:
        parts.append("(only the top card shows.)")
    return " ".join(parts)


NUMBER_WORDS = ("no", "one", "two", "three", "four")


def _discards(variant: Variant) -> list[str]:
    """A paragraph for each discard: which cards leave together, where to, and when."""
    lines = []
    words = Words(variant)
    for discard in variant.discards:
        n = NUMBER_WORDS[discard.cards]
        groups = " and the ".join(discard.groups)
        example = "+".join(variant.pile_names[i] for i in discard.sources[:discard.cards])
        target = variant.group_of_pile[discard.target].name
        lines.append(f"Discards: {n} cards leave together, the top cards of {n} of the "
                     f"{groups}, to the {target} (a move written with their piles joined by "
                     f"'+', e.g. '{example}'), when: {_rule_words(words, discard.when)}")
    return lines


def _draws(variant: Variant) -> str | None:
    """The draws of a buried card (``merci``), in a player's words."""
    merci = variant.merci
    if merci is None:
        return None
    named = " or the ".join(g.name for g in variant.groups if g.merci)
    times = "Once a game" if merci.limit == 1 else "Twice a game" if merci.limit == 2 \
        else f"{merci.limit} times a game"
    return (f"The draw: {times}, you may take the card just "
            f"under the top card of one of the {named} and play it alone wherever it could "
            "go as a top card; the top card stays where it was (a move written with '^' for "
            f"the number of cards, e.g. '{draw_example(variant)}').")


def _rule_words(words: Words, rule: Rule) -> str:
    return _sentence(comment_at(rule.origin) or words.say(rule.node))


def _gather(variant: Variant) -> str:
    """The redeal that gathers piles (``stock.gather``), in a player's words."""
    gather = variant.gather
    if gather is None:
        return ""
    groups = [g for g in variant.groups if set(g.indices) <= set(gather.piles)]
    named = " and ".join(g.name for g in groups) if \
        sum(g.count for g in groups) == len(gather.piles) else \
        ", ".join(variant.pile_names[i] for i in gather.piles)
    first = variant.pile_names[gather.piles[0]]
    shuffled = "shuffle them, " if gather.shuffle else "keep their order (each pile " \
        "picked up from its top card down), "
    times = "as often as you like" if gather.limit is None else \
        "once" if gather.limit == 1 else "twice" if gather.limit == 2 else \
        f"{gather.limit} times"
    if variant.gather_keep is None and variant.gather_gaps is None and not gather.blanks:
        return (f"Redeal (d, or a click on the stock): pick up all the cards of the {named}, "
                f"{shuffled}and deal them out again from {first}, {gather.deal} cards to "
                f"each pile{'' if gather.shuffle else ', the first of them on top'} (the last "
                f"one may get fewer); {times}.")
    words = Words(variant)
    kept = "" if variant.gather_keep is None else (
        " Going through the piles in order (one picked up already counts as empty), a pile "
        f"stays when: {_rule_words(words, variant.gather_keep)}")
    gaps = "" if variant.gather_gaps is None else (
        " Once the cards are picked up, a place stays empty when: "
        f"{_rule_words(words, variant.gather_gaps)}")
    if gather.blanks:
        gaps += (f" {gather.blanks} of the places they left, chosen by the shuffle, stay "
                 "empty.")
    return (f"Redeal (d, or a click on the stock): pick up the cards of the {named} that do "
            f"not stay, {shuffled}and deal them out again into the places they left, "
            f"{gather.deal} card{'s' if gather.deal != 1 else ''} to each; {times}."
            f"{kept}{gaps}")


def _stock(variant: Variant) -> str:
    targets = list(dict.fromkeys(variant.pile_names[i] for i in variant.deal_targets))
    if not (targets and variant.stock_size):
        return _gather(variant)
    if variant.plan.never_deals:
        return (f"The stock: {variant.stock_size} cards. It is never dealt: its cards fill "
                "the gaps, as the piles above say.")
    each = "a card" if variant.turn == 1 else f"{variant.turn} cards"
    where = targets[0] if len(targets) == 1 else f"each of {', '.join(targets)}"
    text = (f"The stock: {variant.stock_size} cards. Each deal (d, or a click on the stock) "
            f"gives {each} to {where}; {variant.deals} deal{'s' if variant.deals != 1 else ''}.")
    if variant.deal_fills_empty:
        text = (f"The stock: {variant.stock_size} cards. Each deal (d, or a click on the "
                f"stock) gives {each} to each empty one of {', '.join(targets)}, in order, "
                "while the stock lasts.")
    if variant.redeals is None:
        text += " The waste turns back into the stock as often as you like."
    elif variant.redeals:
        text += f" The waste turns back into the stock {variant.redeals} more time(s)."
    if variant.deal_when.text.strip() != "true":
        words = comment_at(variant.deal_when.origin)
        text += " Dealing: " + _sentence(
            words or "only when " + Words(variant).say(variant.deal_when.node))
    gather = _gather(variant)
    return f"{text} {gather}" if gather else text


class Words(Visitor[str]):
    """An expression of the rule language read out in words: :meth:`say` reads it as a
    sentence, :meth:`noun` as the thing it names (the two fall back on each other)."""

    # what names a thing (a number, a card, a pile) is read as one
    generic = frozenset({"Integer", "Name", "Arithmetic", "Negate", "Count", "Pairs",
                         "Neighbour"})

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.nouns = _Nouns(self)

    def say(self, node: Node) -> str:
        return self.visit(node)

    def noun(self, node: Node) -> str:
        return self.nouns.visit(node)

    def generic_visit(self, node: Node, *args: object) -> str:
        return self.noun(node)

    def visit_BoolOp(self, node: BoolOp) -> str:
        joined = f" {node.op} " if node.op == "and" else ", or "
        return joined.join(self.say(value) for value in node.values)

    def visit_Not(self, node: Not) -> str:
        inner = node.operand
        if isinstance(inner, Attribute) and inner.name == "empty":
            return f"{self.noun(inner.value)} is not empty"
        return f"not ({self.say(inner)})"

    def visit_Boolean(self, node: Boolean) -> str:
        return "always" if node.value else "never"

    def visit_Attribute(self, node: Attribute) -> str:
        if node.name in ("empty", "face_up"):
            return ATTRIBUTES[node.name].format(self.noun(node.value))
        return self.noun(node)

    def visit_Member(self, node: Member) -> str:
        where = "not one of" if node.negated else "one of"
        return f"{self.noun(node.value)} is {where} the {node.group}"

    def visit_Compare(self, node: Compare) -> str:
        if isinstance(node.left, Attribute) and node.left.name == "size" \
                and _is_name(node.left.value, "run") and isinstance(node.right, Integer) \
                and node.op == "==":
            count = node.right.value
            return "one card moves" if count == 1 else f"{count} cards move together"
        return f"{self.noun(node.left)} {COMPARISONS[node.op]} {self.noun(node.right)}"

    def visit_Call(self, node: Call) -> str:
        predicate = self.variant.predicates.get(node.function)
        origin = predicate.origin[1] if predicate is not None and isinstance(
            predicate.origin, tuple) else None
        words = comment_at(origin)
        arguments = ", ".join(self.noun(arg) for arg in node.args)
        return f"{node.function.replace('_', ' ')} ({arguments})" + \
            (f": {words}" if words else "")

    def visit_Quantifier(self, node: Quantifier) -> str:
        if isinstance(node.domain, Pairs):
            return (f"for each two cards next to each other in {self.noun(node.domain.run)}"
                    f": {self.say(node.body)}")
        assert isinstance(node.domain, Name)
        every = "every one" if node.kind == "all" else "one"
        body = self.say(node.body)
        name = node.names[0]
        body = body.replace(f"the number of cards in {name} is ", "holds ")
        body = body.replace(f"{name} ", "")
        if body.startswith("holds ") and body[6:].isdigit():
            body += " cards"
        return f"{every} of the {node.domain.id} {body}"


class _Nouns(Visitor[str]):
    """The nouns of :class:`Words`: what an expression names, in words."""

    # what is true or false is read as a sentence
    generic = frozenset({"Boolean", "Not", "Compare", "BoolOp", "Member", "Call",
                         "Quantifier"})

    def __init__(self, words: Words) -> None:
        self.words = words
        self.variant = words.variant

    def generic_visit(self, node: Node, *args: object) -> str:
        return self.words.say(node)

    def visit_Integer(self, node: Integer) -> str:
        return str(node.value)

    def visit_Name(self, node: Name) -> str:
        if node.id in SUBJECTS:
            return SUBJECTS[node.id]
        if node.id in self.variant.parameters:
            return f"{node.id.replace('_', ' ')} ({self.variant.parameters[node.id]!s}"\
                .lower() + ")"
        if len(node.id) == 1 and node.id in RANK_CHARS:
            return RANK_NAMES[RANK_CHARS.index(node.id)]
        return CONSTANTS.get(node.id, node.id)

    def visit_Attribute(self, node: Attribute) -> str:
        if _is_name(node.value, "run") and node.name in RUN_ATTRIBUTES:
            return RUN_ATTRIBUTES[node.name]
        if node.name == "top" and isinstance(node.value, Name) \
                and node.value.id in DISCARD_PILES:  # a discard's chosen pile
            return f"the {node.value.id} card"
        return ATTRIBUTES.get(node.name, "{} ." + node.name).format(self.visit(node.value))

    def visit_Arithmetic(self, node: Arithmetic) -> str:
        if node.op in "+-" and isinstance(node.right, Integer):
            more = "plus" if node.op == "+" else "minus"
            return f"{self.visit(node.left)} {more} {node.right.value}"
        return f"({self.visit(node.left)} {node.op} {self.visit(node.right)})"

    def visit_Negate(self, node: Negate) -> str:
        return f"minus {self.visit(node.operand)}"

    def visit_Count(self, node: Count) -> str:
        return f"the number of {node.group} where {self.words.say(node.body)}"

    def visit_Pairs(self, node: Pairs) -> str:
        return f"each two cards next to each other in {self.visit(node.run)}"

    def visit_Neighbour(self, node: Neighbour) -> str:
        away = "" if isinstance(node.distance, Integer) and node.distance.value == 1 \
            else f"{self.visit(node.distance)} places "
        return f"the pile {away}{NEIGHBOURS[node.direction]} {self.visit(node.pile)}"


def _is_name(node: Node, name: str) -> bool:
    return isinstance(node, Name) and node.id == name
