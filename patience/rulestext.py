"""The rules of a variant in words, generated from its definition alone.

Each rule is shown as written in the file, with the author's comment on the same line (or
on the lines just above it) as its words: the variant file is the single source of truth,
and nothing here is written per variant.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from patience.cards import RANK_CHARS, card_code
from patience.settings import Lands, Removal, Target
from patience.source import Origin

if TYPE_CHECKING:
    from collections.abc import Sequence

    from patience.definition import Rule
    from patience.variant import Group, Variant


def comment_at(origin: Origin | None) -> str:
    """The comment written after a value on its line, or on the comment lines above it."""
    if origin is None:
        return ""
    text = origin.source.text
    line_start = text.rfind("\n", 0, origin.start) + 1
    line_end = text.find("\n", origin.end)
    line_end = len(text) if line_end < 0 else line_end
    # a block scalar (``>-``) ends at the start of the next line: nothing follows it there
    rest = "" if text[origin.end - 1:origin.end] == "\n" else text[origin.end:line_end]
    if "#" in rest:
        return rest.split("#", 1)[1].strip()
    above = []
    position = line_start - 1
    while position > 0:
        previous_start = text.rfind("\n", 0, position) + 1
        line = text[previous_start:position].strip()
        if not line.startswith("#"):
            break
        above.append(line.lstrip("#").strip())
        position = previous_start - 1
    return " ".join(reversed(above))


def _rule(label: str, rule: Rule) -> list[str]:
    words = comment_at(rule.origin)
    lines = [f"    {label}: {' '.join(rule.text.split())}"]
    if words:
        lines.append(f"      ({words})")
    return lines


#: what ``close_gaps: deal`` does, in words
CLOSING_ON_DEAL = ("When the player deals ('d'), their gaps close first: the piles after a gap "
                   "slide toward the first, the gaps at the end; a deal is also allowed, even "
                   "with an empty stock, when one of them holds a card after a gap.")

def ring_words(group: Group, player: bool = False) -> str:
    """Where a group drawn round a clock stands, in words: 'round a circle like the hours
    of a clock, c1 at one o'clock and the others clockwise, c12 at twelve o'clock (a row,
    to the rules)'.

    >>> from patience import find_variant
    >>> [ring_words(g) for g in find_variant("clock").groups][1]
    "in the middle of the hours' ring"
    """
    if group.ring is None:
        return f"in the middle of the {group.centre}' ring" if str(group.centre).endswith(
            "s") else f"in the middle of the {group.centre}'s ring"
    hours = group.ring.hours()
    names = group.pile_names
    if group.ring.places == 12:
        first = f"{names[0]} at {_HOURS[hours[0] - 1]} o'clock"
        last = f"{names[-1]} at {_HOURS[hours[-1] - 1]} o'clock"
        where = (f"round a circle like the hours of a clock, {first} and the others "
                 f"clockwise, {last}")
    else:
        where = (f"round a circle of {group.ring.places} places, {names[0]} at place "
                 f"{hours[0]} (place {group.ring.places} at the top) and the others "
                 "clockwise")
    return where if player else f"{where} (to the rules, a row: {names[0]} is its first pile)"


_HOURS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve")

#: what ``close_gaps`` does, in words
CLOSING = ("When one of them is emptied, the gap closes at once: the piles after it slide "
           "toward the first, the gaps at the end (before forced removals and fills).")


def layout_words(group: Group, player: bool = False) -> str | None:
    """Where a laid-out group's piles stand, in words (None for one plain row):
    'in 4 rows of 6, numbered row by row (g1-g6 the first row)'; for a ``player``, a ring
    without what the rules read of it."""
    if group.ring is not None or group.centre is not None:
        return ring_words(group, player)
    layout = group.layout
    if layout is None or len(layout.rows) == 1 and not layout.overlap:
        return None
    names = group.pile_names
    first = len(layout.rows[0])
    row = names[0] if first == 1 else f"{names[0]}-{names[first - 1]}"
    if not layout.overlap:
        return (f"in {len(layout.rows)} rows of {first}, numbered row by row ({row} the "
                "first row)")
    sizes = ", ".join(str(len(xs)) for xs in layout.rows)
    return (f"in {len(layout.rows)} overlapping rows of {sizes} piles, back row first ({row} "
            "the back row); a pile is covered by the piles of the next row that overlap it, "
            "and gives no card while one of them holds a card")


def _dealt(group: Group) -> str:
    """', each dealt 3 cards (2 face down) at the start'."""
    if not any(group.deal):
        return ""

    def cards(n: int) -> str:
        return f"{n} card{'s' if n != 1 else ''}"

    if group.face_down_covered:
        each = "each " if group.count > 1 else ""
        return (f", {each}dealt {cards(group.deal[0])} at the start" if len(set(group.deal)) == 1
                else f", dealt {', '.join(map(cards, group.deal))} at the start, pile by pile") \
            + "; the cards of a pile covered at the start lie face down, and its top card " \
            "turns up as soon as nothing covers it"
    if len(set(group.deal)) == 1 and len(set(group.face_down)) == 1:
        down = group.face_down[0]
        text = f", {'each ' if group.count > 1 else ''}dealt {cards(group.deal[0])}"
        return text + (f" ({down} face down)" if down else "") + " at the start"
    parts = [cards(n) + (f" ({down} face down)" if down else "")
             for n, down in zip(group.deal, group.face_down)]
    return f", dealt {', '.join(parts)} at the start, pile by pile"


def pile_list(variant: Variant, indices: Sequence[int]) -> str:
    """Piles named for a reader: a whole group by its name and range, a run of a group's
    piles as a range, the rest one by one: 'grid (g1-g52)', 'c1-c4, t'."""
    parts: list[str] = []
    at = 0
    while at < len(indices):
        group = variant.group_of_pile[indices[at]]
        end = at
        while (end + 1 < len(indices) and indices[end + 1] == indices[end] + 1
               and variant.group_of_pile[indices[end + 1]] is group):
            end += 1
        first, last = variant.pile_names[indices[at]], variant.pile_names[indices[end]]
        span = first if end == at else f"{first}-{last}"
        whole = end - at + 1 == len(group.indices) and end > at
        parts.append(f"{group.name} ({span})" if whole else
                     f"{first}, {last}" if end == at + 1 else span)
        at = end + 1
    return ", ".join(parts)


def _gather_line(variant: Variant) -> str:
    """The redeal that gathers piles (``stock.gather``), in the rules page's terms."""
    gather = variant.gather
    assert gather is not None
    names = [variant.pile_names[i] for i in gather.piles]
    how = ("shuffled (redeal k's shuffle is drawn from the deal number: docs/rules.md, "
           "\"Shuffles during play\")") if gather.shuffle else \
        "kept in that order"
    times = "as often as you like" if gather.limit is None else \
        f"{gather.limit} time{'s' if gather.limit != 1 else ''}"
    return (f"Redeal ('d' on the empty stock, while a gathered pile has cards): the cards of "
            f"{pile_list(variant, gather.piles)} are gathered, pile by pile, each from its top "
            "card down, "
            f"{how}, and dealt again from {names[0]}, {gather.deal} to a pile, the first of "
            f"them on top (the last pile dealt may get fewer, the rest none); {times}.")


def _piles_named(variant: Variant, indices: range) -> str:
    if indices.start < 0:
        return "the stock"
    names = [variant.pile_names[i] for i in indices]
    return names[0] if len(names) == 1 else f"the first of {', '.join(names)} that has cards"


def _range(group: Group) -> str:
    names = group.pile_names
    return names[0] if len(names) == 1 else f"{names[0]}-{names[-1]}"


def _discards(variant: Variant) -> list[str]:
    """Each discard: which piles' top cards leave together, where to, and its rule."""
    if not variant.discards:
        return []
    lines = ["", ("Discards (the top cards of several piles leave together; in a rule, "
                  "'first', 'second'... are the chosen piles, in pile order):")]
    for discard in variant.discards:
        groups = " and ".join(discard.groups)
        example = "+".join(variant.pile_names[i] for i in discard.sources[:discard.cards])
        lines.append(f"  {discard.cards} cards, one from each of {discard.cards} piles of "
                     f"{groups}, to {variant.pile_names[discard.target]}, written e.g. "
                     f"'{example}'.")
        lines += _rule("When", discard.when)
    return lines


def merci_words(variant: Variant) -> str | None:
    """The draws of a buried card (``merci``) in words, or None without them."""
    merci = variant.merci
    if merci is None:
        return None
    groups = [g for g in variant.groups if g.merci]
    named = " and the ".join(g.name for g in groups)
    times = "Once a game" if merci.limit == 1 else "Twice a game" if merci.limit == 2 \
        else f"{merci.limit} times a game"
    return (f"{times}, the card just under the top card of one of the {named} may be drawn "
            "out and played alone to any pile that takes it (by that pile's accepts rule, "
            "the drawn card moving and the pile it lies in its source), the top card "
            f"staying where it was: written with '^' for the count, e.g. "
            f"'{draw_example(variant)}'.")


def draw_example(variant: Variant) -> str:
    """A draw of a buried card as notation: from the first pile with draws to another."""
    pile = next(g for g in variant.groups if g.merci).pile_names[0]
    return f"{pile}:^-{next(name for name in variant.pile_names if name != pile)}"


def rules_text(variant: Variant) -> str:
    """The rules of ``variant`` as ``patience rules`` prints them: the cards, each pile
    group, the discards, the stock, the win, the solver's safe moves and the definitions."""
    lines = [f"{variant.name} ({variant.id})", variant.description, ""]
    lines += _cards_lines(variant)
    lines += ["", ("Piles (in a rule, 'pile' is the pile itself, 'run' the cards moving, "
                   "'source' the pile they come from):")]
    for group in variant.groups:
        lines += _group_lines(variant, group)
    lines += _discards(variant)
    draws = merci_words(variant)
    if draws is not None:
        lines += ["", f"Draws (merci): {draws}"]
    lines.append("")
    lines += _stock_lines(variant)
    lines.append("")
    lines.append(f"Win: {variant.win.text.strip()}")
    words = comment_at(variant.win.origin)
    if words:
        lines.append(f"  ({words})")
    if variant.safe is not None and variant.safe_derived:
        lines += ["", (f"The solver plays at once (safe moves: derived: {variant.safe.text}; "
                  "docs/solver.md, \"Derived safe moves\"; checked by 'patience test')")]
    elif variant.safe is not None:
        lines += [""] + _rule("The solver plays at once (solver.safe, checked by 'patience "
                              "test')", variant.safe)
    lines += _definition_lines(variant)
    example = f"{variant.pile_names[0]}:1-{variant.pile_names[1]}"
    lines += ["", f"Moves are written 'd' (deal) or SOURCE:N-TARGET, e.g. '{example}'"
              + (", and discards as their piles joined by '+'." if variant.discards else ".")
              + (f" A draw of a buried card is written '{draw_example(variant)}'."
                 if variant.merci is not None else "")]
    return "\n".join(lines)


#: what a group that holds the stock's top card (``stock.top``) is, in words
STOCK_TOP = ("It holds the stock's top card, face up and in play: when empty it takes the "
             "stock's next card at once, and a deal ('d') deals its card first.")


def _stock_faces(variant: Variant) -> str:
    """How the stock lies: face down, or (``stock.top``) face down but for its top card."""
    if variant.stock_top is None:
        return " The stock lies face down."
    return (" The stock lies face down but for its top card, which lies face up on "
            f"{variant.pile_names[variant.stock_top]}.")


def _cards_lines(variant: Variant) -> list[str]:
    ranks = RANK_CHARS[: variant.ranks]
    deck = "one deck" if variant.decks == 1 else f"{variant.decks} decks"
    values = "A=1 ... K=13" if variant.ranks == 13 else f"A=1 ... {ranks[-1]}={variant.ranks}"
    suits = " ".join("CDHS"[suit] for suit in variant.suits)
    faces = "face-down cards where the piles say so, the others face up" \
        if variant.face_down_piles else "all face up"
    lines = [f"Cards: {deck}, {len(variant.deck)} cards, ranks {ranks[0]}-{ranks[-1]} "
             f"({values}) in suits {suits}, {faces}."
             + (_stock_faces(variant) if variant.stock_size else "")]
    if variant.parameters:
        shown = ", ".join(f"{k} = {str(v).lower()}" for k, v in variant.parameters.items())
        lines.append(f"Parameters: {shown}")
    return lines


def _group_lines(variant: Variant, group: Group) -> list[str]:
    """A pile group: how many piles, what is dealt and placed, where they stand, how they
    are filled, and its two rules."""
    plural = "s" if group.count > 1 else ""
    lines = [f"  {group.name} ({_range(group)}): {group.count} pile{plural}{_dealt(group)}."]
    where = layout_words(group)
    if where is not None:
        lines.append(f"    They stand {where}.")
    if group.close_gaps:
        lines.append(f"    {CLOSING}")
    if group.close_on_deal:
        lines.append(f"    {CLOSING_ON_DEAL}")
    if group.place:
        placed = "; ".join(f"{name}: {' '.join(card_code(c) for c in cards)}"
                           for name, cards in zip(group.pile_names, group.place) if cards)
        lines.append(f"    Before the deal these cards are put on them: {placed}.")
    if group.deal_first is not None:
        lines.append("    These piles are dealt first, before the others: the cards for "
                     f"which '{group.deal_first.text}' holds (first_card: the first card "
                     "of the shuffled deck) lead the deal, in the order dealt, and what "
                     "is left of them starts the layout.")
        words = comment_at(group.deal_first.origin)
        if words:
            lines.append(f"      ({words})")
    if group.to_bottom is not None:
        lines.append(f"    After the deal, the cards for which '{group.to_bottom.text}' "
                     "holds go to the bottom of their pile, in the order dealt.")
    if variant.stock_top in group.indices:
        lines.append(f"    {STOCK_TOP}")
    elif group.fill_from is not None:
        lines.append("    An empty one is filled at once with the top card of "
                     f"{_piles_named(variant, group.fill_from)}, while it has cards.")
    if group.fill_when is not None:
        lines.append(f"    It is filled only while '{group.fill_when.text}' holds.")
        words = comment_at(group.fill_when.origin)
        if words:
            lines.append(f"      ({words})")
    lines += _turning_lines(variant, group)
    if group.target is Target.FIRST and group.removal is not Removal.FORCED:
        lines.append(f"    A move to them is written '{group.id}' and goes to the first "
                     "one that takes the cards.")
    if group.removal is Removal.FORCED:
        lines.append("    Cards go to them by themselves, at once: after every move and "
                     "every deal, pile by pile, until none is left (forced removal).")
    lines += _rule("Cards may leave when", group.moves)
    lines += _rule("Takes cards when", group.accepts)
    return lines


def _turning_lines(variant: Variant, group: Group) -> list[str]:
    """Cards put under a pile (``lands: bottom``), dealt all face down, turned from the
    pile the last card went to (``fill_from: last``)."""
    lines = []
    if group.indices.start in variant.turned_piles:
        lines.append("    Their cards stay face down until they are turned, from the top, and "
                     "the cards turned lie under them.")
    if group.lands is Lands.BOTTOM:
        lines.append("    Cards moved to one go under its cards, in their order.")
    if group.fill_last:
        lines.append("    An empty one is filled at once with the top card of the pile the "
                     "last card went to, turned face up, when it lies face down (the next "
                     "card turned).")
    return lines


def _stock_lines(variant: Variant) -> list[str]:
    """What a deal gives, how often, and when; the redeal that gathers piles."""
    lines = []
    targets = list(dict.fromkeys(variant.pile_names[i] for i in variant.deal_targets))
    if variant.stock_size and variant.plan.never_deals:
        lines.append(f"Stock: {variant.stock_size} cards, never dealt: they fill the gaps the "
                     "piles say (fill_from: stock).")
    elif targets and variant.stock_size:
        empty = "skipping empty piles" if variant.deal_skips_empty else \
            "to the empty piles alone" if variant.deal_fills_empty else "empty piles included"
        each = "one card" if variant.turn == 1 else f"{variant.turn} cards, one by one,"
        if variant.redeals is None:
            again = "then the waste turns back into the stock as often as you like (a 'd' " \
                "on the empty stock)"
        elif variant.redeals:
            again = (f"then the waste may turn back into the stock {variant.redeals} "
                     f"time{'s' if variant.redeals != 1 else ''} (a 'd' on the empty stock)")
        else:
            again = "no redeal"
        where = targets[0] if len(targets) == 1 else \
            f"each of {pile_list(variant, list(dict.fromkeys(variant.deal_targets)))} in order"
        deals = "while the stock lasts" if variant.deal_fills_empty else \
            f"{variant.deals} deal{'s' if variant.deals != 1 else ''}"
        lines.append(f"Stock: {variant.stock_size} cards. A deal ('d') gives {each} to "
                     f"{where}, {empty}: {deals}; {again}.")
        if variant.deal_when.text.strip() != "true":
            lines += _rule("A deal is allowed when", variant.deal_when)
    else:
        lines.append("Stock: none.")
    if variant.gather is not None:
        lines.append(_gather_line(variant))
        lines += _gather_rules(variant)
    return lines


def _gather_rules(variant: Variant) -> list[str]:
    """The gathering redeal's ``keep`` and ``gaps`` rules, if any."""
    lines = []
    if variant.gather_keep is not None:
        lines += _rule("A pile keeps its cards (read in that order; a pile gathered before "
                       "reads as empty) when", variant.gather_keep)
    if variant.gather_gaps is not None:
        lines += _rule("A gathered pile is left empty (read once all are gathered) when",
                       variant.gather_gaps)
    blanks = variant.gather.blanks if variant.gather is not None else 0
    if blanks:
        lines.append(f"    {blanks} gaps are shuffled in among the gathered cards and dealt "
                     "like them: the piles they fall on stay empty.")
    return lines


def _definition_lines(variant: Variant) -> list[str]:
    """The predicates, each with its signature and the comment on it."""
    if not variant.predicates:
        return []
    lines = ["", "Definitions:"]
    for name, predicate in variant.predicates.items():
        parameters = ", ".join(f"{p.name}" if p.type.value == "card" or p.name == p.type.value
                               else f"{p.name}: {p.type.value}"
                               for p in predicate.signature.parameters)
        lines.append(f"  {name}({parameters}) = {predicate.text.strip()}")
        origin = predicate.origin[1] if isinstance(predicate.origin, tuple) else None
        words = comment_at(origin)
        if words:
            lines.append(f"    ({words})")
    return lines
