"""What the page is sent: a snapshot of a game, made from the Session, and words for moves.

The page decides no rule. Everything it shows or offers comes from here: the piles as the
player may see them (``patience.visibility.seen_cards``: a face-down card is sent as
``None``, without rank or suit; the stock only as a count), which piles a drag of each
face-up card may drop onto, the status, and whether the game is won or stuck.

>>> from patience import find_variant
>>> from patience.play.session import Session
>>> session = Session(find_variant("docs/examples/little-klondike.yaml").deal(1),
...                   record_stats=False)
>>> data = snapshot(session)
>>> [pile["cards"] for pile in data["piles"][:3]]
[['2C'], [None, '5S'], [None, None, '2S']]
>>> data["stock"]["count"], "cards" in data["stock"]
(10, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from patience.cards import FACE_DOWN, SUIT_NAMES
from patience.game import Game, Move
from patience.moves import DRAW
from patience.play.table import covered_piles, in_top_row, is_waste_like, layout_facts
from patience.settings import Show, Target
from patience.visibility import seen_cards

if TYPE_CHECKING:
    from patience.play.session import Session
    from patience.variant import Variant

RANK_NAMES = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king")


def card_name(card: int) -> str:
    """``'seven of hearts'``; ``'face-down card'`` for a card lying face down.

    >>> from patience.cards import parse_card
    >>> card_name(parse_card("7H")), card_name(parse_card("TS") | FACE_DOWN)
    ('seven of hearts', 'face-down card')
    """
    if card & FACE_DOWN:
        return "face-down card"
    return f"{RANK_NAMES[((card >> 2) & 15) - 1]} of {SUIT_NAMES[card & 3]}"


def singular(word: str) -> str:
    """``'columns'`` → ``'column'``: a group's name said of one of its piles."""
    word = word.replace("_", " ").replace("-", " ")
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def pile_label(variant: Variant, index: int) -> str:
    """The spoken name of a pile: ``'column 3'``, ``'tail'``, ``'foundation 1'``."""
    group = variant.group_of_pile[index]
    word = singular(group.name)
    if group.count == 1:
        return word
    return f"{word} {index - group.indices.start + 1}"


def drop_targets(session: Session) -> dict[int, dict[int, list[int]]]:
    """For each pile and depth (0 = the top card), the piles a drag of that card (with the
    cards on it) may drop onto: ``{pile: {depth: [targets]}}``, only where there is one.

    This is :meth:`Session.drop`'s rule (``destinations.drop_move``) over the kernel's legal
    moves, worked out once per position instead of once per pair of piles:
    ``tests/test_web_snapshot.py`` checks that the two always agree. A pile the stock does
    not deal to lets a deeper run leave when the dragged cards alone may not (as a click
    does); a group whose moves name the group (foundations) takes a drop on any of its piles
    when one of them accepts; a top card that a legal discard of two pairs with another
    drops on that one (and it on this).
    """
    game = session.game
    variant = session.variant
    deal_targets = set(variant.deal_targets)
    found: dict[int, dict[int, set[int]]] = {}
    for source, count, target in game.generate_moves():
        if source < -1 and count == 2:  # a discard of two: either top card onto the other
            first, second = variant.discard_sets[-2 - source]
            found.setdefault(first, {}).setdefault(0, set()).add(second)
            found.setdefault(second, {}).setdefault(0, set()).add(first)
            continue
        if source < 0:
            continue
        group = variant.group_of_pile[target]
        targets = group.indices if group.target is Target.FIRST else (target,)
        # a draw (merci) drags the card under the top card alone
        depths = (1,) if count == DRAW else (count - 1,) if source in deal_targets \
            else range(count)
        by_depth = found.setdefault(source, {})
        for depth in depths:
            by_depth.setdefault(depth, set()).update(t for t in targets if t != source)
    return {source: {depth: sorted(targets) for depth, targets in sorted(by_depth.items())
                     if targets}
            for source, by_depth in sorted(found.items())}


def _pairs_only(session: Session) -> frozenset[int]:
    """The piles whose top card a legal discard of two takes, and no other move."""
    moves = session.game.generate_moves()
    paired = {pile for source, count, _ in moves if source < -1 and count == 2
              for pile in session.variant.discard_sets[-2 - source]}
    return frozenset(paired - {source for source, _, _ in moves if source >= 0})


def snapshot(session: Session, *, game_id: str = "", version: int = 0,
             key: str = "") -> dict[str, Any]:
    """The game as the page draws it. Face-down cards and the stock's cards are not in it."""
    game = session.game
    variant = session.variant
    drops = drop_targets(session)
    groups = []
    for group in variant.groups:
        # where it stands (patience.play.table): the top row, or a block drawn as its
        # layout says (a row of fans, a grid, overlapping rows)
        groups.append({"name": group.name, "id": group.id, "show": group.show.value,
                       "row": "top" if in_top_row(variant, group) else "main",
                       "waste": is_waste_like(variant, group),
                       "layout": layout_facts(group),
                       "piles": list(group.indices)})
    pairs_only = _pairs_only(session)
    covered = covered_piles(game)
    piles = []
    for index, name in enumerate(variant.pile_names):
        group = variant.group_of_pile[index]
        cards = seen_cards(game, index)
        piles.append({
            "name": name,
            "label": pile_label(variant, index),
            "count": len(cards),
            "cards": cards[-1:] if group.show is Show.STACK else cards,
            "drops": {str(depth): targets for depth, targets in drops.get(index, {}).items()},
            # its top card goes only in a pair: a click picks it, a click on the other plays
            "pairs_only": index in pairs_only,
            # a pile of an overlap layout with a card lying on it: it gives no card
            "covered": index in covered,
        })
    won = game.is_won()
    stuck = not won and not game.has_moves()
    redeals = game.redeals_left
    return {
        "game": game_id,
        "version": version,
        "variant": {"key": key or variant.id, "id": variant.id, "name": variant.name,
                    "family": variant.family},
        "title": session.title(),
        "label": session.label,
        "groups": groups,
        "piles": piles,
        "stock": {
            # a redeal that gathers piles is made on the stock too
            "exists": variant.stock_size > 0 or variant.gather is not None,
            "count": len(game.stock),
            "deals_left": game.deals_left,
            "redeals": variant.redeal_limit != 0,
            "redeals_left": redeals,  # None: unlimited
            "can_deal": game.can_deal(),
            "label": stock_label(len(game.stock), game.deals_left, variant.redeal_limit,
                                 redeals, dealt=not variant.plan.never_deals) + draws_label(game),
            # the draws of a buried card left, for a variant with draws (merci)
            **({} if variant.merci is None else {"draws_left": game.draws_left}),
        },
        "status": session.status(),
        "moves": len(game.move_stack),
        "can_undo": bool(game.move_stack),
        "can_redo": bool(session.redo_stack),
        "won": won,
        "lost": stuck,
        # only sending cards home is left, and it wins (every card in view: nothing told)
        "can_finish": session.can_finish(),
        # the clock (it stands while the game is over) and the score the file declares
        "seconds": session.elapsed(),
        "score": None if variant.score is None else variant.score.text(session.score() or 0),
        "summary": session.summary(),  # moves, time, score: what a won game says
        "record": session.record_summary(),  # games won and the streak, once a win is kept
        "hidden": session.hides_cards(),  # a hint then has two readings (deal, view)
        "end": session.end_message(),
    }


def stock_label(count: int, deals_left: int, redeals: int | None,
                redeals_left: int | None, dealt: bool = True) -> str:
    """``'stock, 44 cards, 11 deals left'``: what the stock button says (no deals where the
    player never deals: its cards only fill gaps)."""
    text = f"stock, {count} card{'s' if count != 1 else ''}" if count else "stock, empty"
    if count and dealt:
        text += f", {deals_left} deal{'s' if deals_left != 1 else ''} left"
    if redeals != 0:
        text += (", redeals unlimited" if redeals_left is None else
                 f", {redeals_left} redeal{'s' if redeals_left != 1 else ''} left")
    return text


def draws_label(game: Game) -> str:
    """``', 1 draw of a buried card left'`` after the stock's label, for a variant with
    draws (``merci``); empty for the others."""
    if game.variant.merci is None:
        return ""
    left = game.draws_left
    return f", {left} draw{'s' if left != 1 else ''} of a buried card left"


def describe_move(variant: Variant, piles: Sequence[Sequence[int]], move: Move) -> str:
    """A move in words, read off the position before it: ``'seven of hearts from column 1
    to column 3'``, ``'the deal'``, a discard ``'four of clubs from column 9 and ten of
    clubs from column 12 to foundation'``."""
    source, count, target = move
    if source < -1:  # a discard: the top card of each of its piles
        chosen = variant.discard_sets[-2 - source]
        names = [f"{card_name(piles[i][-1]) if piles[i] else 'no card'} from "
                 f"{pile_label(variant, i)}" for i in chosen]
        return f"{', '.join(names[:-1])} and {names[-1]} to {pile_label(variant, target)}"
    if source < 0:
        return "the deal"
    if count == DRAW:  # the card under the top card, alone (merci)
        pile = piles[source]
        drawn = card_name(pile[-2]) if len(pile) >= 2 else "no card"
        return (f"{drawn} drawn from under the top card of {pile_label(variant, source)} to "
                f"{pile_label(variant, target)}")
    cards = piles[source][-count:]
    bottom = card_name(cards[0]) if cards else "no card"
    what = bottom if count == 1 else f"{bottom} with the card on it" if count == 2 else \
        f"{bottom} with the {count - 1} cards on it"
    return f"{what} from {pile_label(variant, source)} to {pile_label(variant, target)}"


__all__ = ["card_name", "describe_move", "draws_label", "drop_targets", "pile_label",
           "snapshot", "stock_label"]
