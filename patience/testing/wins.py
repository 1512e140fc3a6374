"""What the description says wins the game, checked against the compiled ``win`` rule.

Each claim ("every card on the foundations", "clear the columns", "until only the four Aces
are left", "won when the columns are empty") is tested on exact tables built for it: the
won table the claim describes must be won, and the same table with one card out of place
(left on another pile, or in the stock) must not be. The verdict is the compiled rule's
(``Variant.is_won``), never the solver's luck; a contradiction quotes the phrase and the
rule (``patience.testing.spec`` reports it).

>>> from patience import find_variant
>>> from patience.testing.spec import read_description
>>> checked = read_description(find_variant("aces-up")).checked[-1]
>>> checked.split(": ", 1)[0]
"'only the four Aces are left' (win)"
>>> for part in checked.split(": ", 1)[1].split("; "):
...     print(part)
won with AC AD AH AS alone on c1-c4 and the other 48 cards on the foundation
not won with a Two beside them or in the stock
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from patience.cards import card_code
from patience.settings import Removal, Target

if TYPE_CHECKING:
    from patience.testing.spec import SpecReader
    from patience.variant import Group, Variant

__all__ = ["all_on", "cleared", "home_of", "only_aces"]

Table = dict[int, list[int]]


def _suits_in_order(variant: Variant, cards: Sequence[int], descending: bool) -> list[list[int]]:
    """``cards`` as runs of one suit, each from the Ace up (or the King down): one run per
    suit and copy of the deck, in new-deck order of the suits."""
    runs = []
    count = Counter(cards)
    for suit in sorted({card & 3 for card in cards}):
        copy = 0
        while True:
            run = [rank * 4 + suit for rank in range(1, variant.ranks + 1)
                   if count[rank * 4 + suit] > copy]
            if not run:
                break
            runs.append(run[::-1] if descending else run)
            copy += 1
    return runs


def _spread(variant: Variant, group: Group, cards: Sequence[int], descending: bool) -> Table:
    """``cards`` laid on the group's piles as the won game has them: one suit a pile, or all
    on one pile, or the suits dealt round the piles when their numbers differ."""
    table: Table = {index: [] for index in group.indices}
    for number, run in enumerate(_suits_in_order(variant, cards, descending)):
        table[group.indices[number % group.count]].extend(run)
    return table


def _won(variant: Variant, table: Table, stock: Sequence[int] = ()) -> bool:
    piles = [list(table.get(index, ())) for index in range(len(variant.pile_names))]
    try:
        return bool(variant.is_won(piles, list(stock)))
    except Exception:  # noqa: BLE001 - a rule that cannot be evaluated wins nothing
        return False


def _why_not(variant: Variant, table: Table) -> str:
    """Why the win rule is false on ``table``, in the rule's words."""
    from patience.explain import Interpreter
    from patience.game import Game

    piles = [list(table.get(index, ())) for index in range(len(variant.pile_names))]
    interpreter = Interpreter(Game(variant, piles, []))
    win = variant.win
    try:
        return interpreter.reason(win.node, {}, win.text)
    except Exception as error:  # noqa: BLE001 - any error is the reason
        return f"the rule cannot be evaluated ({error})"


def _elsewhere(reader: SpecReader, group: Group) -> Group | None:
    """Another group a card could be left on: the tableau, else the first other group."""
    if reader.main is not group:
        return reader.main
    return next((g for g in reader.variant.groups if g is not group), None)


def home_of(reader: SpecReader, cleared: Group) -> Group | None:
    """Where the cards of a cleared group go when the claim does not say: the foundations
    (a group moves go to the first pile of, or a forced one), else a one-pile group (a
    waste, a hole), else the first other group."""
    others = [g for g in reader.variant.groups if g is not cleared and not g.accepts.never]
    for wanted in (lambda g: g.target is Target.FIRST or g.removal is Removal.FORCED,
                   lambda g: g.count == 1, lambda g: True):
        found = next((g for g in others if wanted(g)), None)
        if found is not None:
            return found
    return None


def _won_table(reader: SpecReader, group: Group, cards: Sequence[int],
               base: Table | None = None) -> Table | None:
    """``cards`` spread on ``group`` (over ``base``) in the first order that wins, or None."""
    variant = reader.variant
    for descending in (False, True):
        table = {**(base or {}), **_spread(variant, group, cards, descending)}
        if _won(variant, table):
            return table
    return None


def _one_off(reader: SpecReader, table: Table, group: Group) -> tuple[Table, int, int] | None:
    """The won table with the top card of the group's first pile that has one moved to the
    first pile of another group: (table, card, pile)."""
    source = next((i for i in group.indices if table.get(i)), None)
    other = _elsewhere(reader, group)
    if source is None or other is None:
        return None
    moved = {index: list(cards) for index, cards in table.items()}
    card = moved[source].pop()
    target = other.indices[0]
    moved.setdefault(target, []).append(card)
    return moved, card, target


def all_on(reader: SpecReader, group: Group, said: str) -> None:
    """'every card on the foundations': won with every card there, not with one elsewhere."""
    variant = reader.variant
    rule = reader.rule(variant.win)
    table = _won_table(reader, group, variant.deck)
    if table is None:
        shown = {**_spread(variant, group, variant.deck, False)}
        order = "one suit a pile, " if group.count > 1 else "suit by suit, "
        reader.find("claim-win", said, (
            f"{rule} does not hold with every card on the {group.name} ({order}from the Ace "
            f"up or from the King down): {_why_not(variant, shown)}"))
        return
    off = _one_off(reader, table, group)
    if off is not None and _won(variant, off[0]):
        _moved, card, target = off
        reader.find("claim-win", said, (
            f"{rule} holds with {card_code(card)} on {variant.pile_names[target]} and the "
            f"other {len(variant.deck) - 1} cards on the {group.name}"))
        return
    source = next(i for i in group.indices if table[i])
    short = {**table, source: table[source][:-1]}
    if variant.stock_size and _won(variant, short, table[source][-1:]):
        reader.find("claim-win", said, (
            f"{rule} holds with a card still in the stock and the others on the "
            f"{group.name}"))
        return
    reader.ok(said, "win", f"won with every card on the {group.name}; not won with one card "
              "left elsewhere" + (" or in the stock" if variant.stock_size else ""))


def cleared(reader: SpecReader, group: Group, onto: Group | None, said: str) -> None:
    """'clear the columns' (onto the waste): won with the group empty and every card on the
    other group, not with one card left in the group."""
    variant = reader.variant
    rule = reader.rule(variant.win)
    home = onto or home_of(reader, group)
    if home is None:
        return
    table = _won_table(reader, home, variant.deck, {i: [] for i in group.indices})
    if table is None:
        shown: Table = {i: [] for i in group.indices} | _spread(variant, home, variant.deck,
                                                                 False)
        reader.find("claim-win", said, (
            f"{rule} does not hold with the {group.name} empty and every card on the "
            f"{home.name}: {_why_not(variant, shown)}"))
        return
    left = {index: list(cards) for index, cards in table.items()}
    source = next(i for i in home.indices if left[i])
    card = left[source].pop()
    left[group.indices[0]].append(card)
    if _won(variant, left):
        reader.find("claim-win", said, (
            f"{rule} holds with {card_code(card)} still on {variant.pile_names[group.indices[0]]}"
            f" (the other cards on the {home.name})"))
        return
    reader.ok(said, "win", f"won with the {group.name} empty (every card on the {home.name}); "
              f"not won with one card left on {variant.pile_names[group.indices[0]]}")


def only_aces(reader: SpecReader, said_count: int | None, said: str) -> None:
    """'until only the four Aces are left': won with the Aces alone on the tableau, one a
    pile, and every other card discarded; not won with a Two beside them or in the stock."""
    variant = reader.variant
    rule = reader.rule(variant.win)
    aces = [card for card in variant.deck if card >> 2 == 1]
    if said_count is not None and said_count != len(aces):
        reader.find("claim-count", said, f"the deck has {len(aces)} Aces")
        return
    main = reader.main
    discard = next((g for g in variant.groups if g is not main and not g.accepts.never), None)
    if discard is None or not aces:
        return
    rest = [card for card in variant.deck if card >> 2 != 1]
    table: Table = {index: [] for index in main.indices}
    for number, ace in enumerate(aces):
        table[main.indices[number % main.count]].append(ace)
    won = _won_table(reader, discard, rest, table)
    where = f"{variant.pile_names[main.indices[0]]}-" \
        f"{variant.pile_names[main.indices[min(len(aces), main.count) - 1]]}"
    if won is None:
        shown = table | _spread(variant, discard, rest, False)
        reader.find("claim-win", said, (
            f"{rule} does not hold with {' '.join(map(card_code, aces))} alone on {where} and "
            f"the other cards on the {discard.name}: {_why_not(variant, shown)}"))
        return
    two = next(c for c in won[discard.indices[0]] if c >> 2 == 2)
    without = {i: [c for c in cards if c != two] if i in discard.indices else list(cards)
               for i, cards in won.items()}
    first = main.indices[0]
    under = (f"{card_code(two)} under {card_code(without[first][0])} on "
             f"{variant.pile_names[first]}")
    tables: list[tuple[Table, str, tuple[int, ...]]] = [
        ({**without, first: [two, *without[first]]}, under, ())]
    if main.count > len(aces):
        spare = main.indices[len(aces)]
        tables.append(({**without, spare: [two]}, (f"{card_code(two)} on "
                       f"{variant.pile_names[spare]}"), ()))
    if variant.stock_size:
        tables.append((without, f"{card_code(two)} still in the stock", (two,)))
    for candidate, shown_table, stock in tables:
        if _won(variant, candidate, stock):
            reader.find("claim-win", said, (
                f"{rule} holds with {shown_table} beside the Aces"))
            return
    reader.ok(said, "win", f"won with {' '.join(map(card_code, aces))} alone on {where} and "
              f"the other {len(rest)} cards on the {discard.name}; not won with a Two beside "
              "them" + (" or in the stock" if variant.stock_size else ""))
