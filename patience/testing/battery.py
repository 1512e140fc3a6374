"""The invariant battery every variant must pass, run on random reachable positions.

Each :class:`Check` states one promise the kernel makes for *any* variant file (every card
exactly once, ``pop`` undoes ``push`` exactly, the move generator and the rule interpreter of
``patience.explain`` agree, …) and tests it with hypothesis on positions reached by random
legal play. A failure is shrunk by hypothesis and reported as a position and a move list in
notation, with the command line that reproduces it.

>>> from patience import find_variant
>>> outcome = run_check(find_variant("manx"), CHECKS["cards_exactly_once"], examples=5)
>>> outcome.status
'passed'

The same checks run three ways: ``patience test FILE`` (:func:`run_battery`), ``pytest
--patience-variant FILE`` (the pytest plugin) and directly from a test with
:func:`run_check` or :func:`assert_check`.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
import traceback
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from patience.cards import FACE_DOWN, card_code, redeal_shuffle
from patience.game import DEAL, Game, Move
from patience.moves import DRAW
from patience.settings import Removal
from patience.testing.failures import (
    BatteryFailure,
    check_cards_exactly_once,
    counterexample,
    notations,
    replay,
)
from patience.testing.strategies import deal_numbers, positions

if TYPE_CHECKING:
    from patience.variant import Variant

__all__ = [
    "CHECKS",
    "BatteryFailure",
    "Check",
    "Outcome",
    "Report",
    "assert_check",
    "check_cards_exactly_once",
    "counterexample",
    "run_battery",
    "run_check",
    "run_play_machine",
]

MAX_MOVES = 40  # the longest random path to a position


# --- helpers -----------------------------------------------------------------------------


def _interpreter(game: Game) -> Any:
    from patience.explain import Interpreter

    return Interpreter(game)


def _rule_allows(game: Game, source: int, count: int, target: int) -> bool:
    """Whether the rules (read by the interpreter, not the generated code) let the top
    ``count`` cards of ``source`` go onto ``target`` — ignoring 'first' and 'forced'. A
    run never holds a face-down card."""
    from patience.explain import RunValue

    interpreter = _interpreter(game)
    variant = game.variant
    pile = game.piles[source]
    if source == target or not 1 <= count <= len(pile):
        return False
    if any(card & FACE_DOWN for card in pile[-count:]):
        return False  # a run never holds a face-down card (docs/language.md)
    run = RunValue(tuple(pile[-count:]))
    source_pile = interpreter.pile(source)
    if not interpreter.evaluate(variant.group_of_pile[source].moves.node,
                                {"pile": source_pile, "run": run}):
        return False
    return bool(interpreter.evaluate(variant.group_of_pile[target].accepts.node,
                                     {"pile": interpreter.pile(target), "run": run,
                                      "source": source_pile}))


def _with_end(game: Game) -> Iterable[tuple[Game, Move | None]]:
    """Like :func:`replay`, then the final position with no move."""
    yield from replay(game)
    yield game, None


def _fail(message: str) -> None:
    raise BatteryFailure(message)


# --- the checks --------------------------------------------------------------------------


def check_arrivals_obey_rules(game: Game) -> None:
    """Pile capacities: every card that lands on a pile was let in by the rules.

    Along the path to the position, a move changes only its source and target, by exactly
    its run, and the interpreter agrees that the source gives it and the target accepts it;
    each forced removal likewise; a deal puts one card on each of ``stock.deals_to``'s piles
    (skipping empty ones only under ``empty_piles: skip``, the others under ``only``; the
    card on ``stock.top``'s pile first), after the gaps of ``close_gaps: deal`` groups
    closed up, and nothing elsewhere.
    """
    variant = game.variant
    for position, move in replay(game):
        before = [list(pile) for pile in position.piles]
        shown = position.notation(move)
        if move.is_deal:
            stock = list(position.stock)
            position.push_unchecked(move)
            if not stock and variant.gather is not None:
                _check_gather(position, before)
                position.pop()
                continue
            expected = [list(pile) for pile in before]
            top = variant.stock_top
            if top is not None and expected[top]:  # the stock's top card is dealt first
                stock.append(expected[top].pop())
            redealt = not stock and variant.redeal_pile is not None
            if redealt:  # the waste turns over into the stock, and that is the whole move
                assert variant.redeal_pile is not None
                waste = expected[variant.redeal_pile]
                stock = [card & ~FACE_DOWN for card in reversed(waste)]
                waste.clear()
                if variant.redeal_counter is not None:
                    expected[variant.redeal_counter].append(0)
            for indices in variant.deal_closing:  # close_gaps: deal: the piles close up
                held = [pile for pile in expected[indices.start:indices.stop] if pile]
                expected[indices.start:indices.stop] = \
                    held + [[] for _ in range(len(indices) - len(held))]
            for index in variant.deal_targets:
                if not stock or redealt:
                    break
                if variant.deal_skips_empty and not before[index] or \
                        variant.deal_fills_empty and expected[index]:
                    continue
                expected[index].append(stock.pop())
            after = _forced_piles(position, expected, position.forced_moves_of_last_move(),
                                  stock)
            if after != position.piles:
                changed = [variant.pile_names[i] for i, (a, b) in
                           enumerate(zip(after, position.piles)) if a != b]
                empty = "skip" if variant.deal_skips_empty else \
                    "only" if variant.deal_fills_empty else "include"
                _fail(f"the deal did not put one card on each of stock.deals_to's piles "
                      f"(empty_piles: {empty}): "
                      f"{', '.join(changed)} differ from what the file says, after "
                      f"{position.start().text()} and {len(position.move_stack) - 1} moves")
            position.pop()
            continue
        source, count, target = move
        if move.is_discard:
            _check_discard(position, move, before, shown)
            continue
        if count == DRAW:
            _check_draw(position, move, before, shown)
            continue
        if not _rule_allows(position, source, count, target):
            _fail(f"{shown} was played although the rules do not allow it: "
                  f"{position.explain(move) or 'the interpreter says no'} "
                  f"(in {position.text()})")
        stock = list(position.stock)
        position.push_unchecked(move)
        expected = [list(pile) for pile in before]
        _apply(expected, move, target in variant.bottom_piles)
        _turn_up(variant, expected, source)
        _expect_piles(position, expected, stock, shown, "move", target)


def _pushed_if_explained(position: Game, move: Move, before: list[list[int]],
                         shown: str) -> tuple[list[int], list[list[int]]]:
    """Push ``move`` once the interpreter lets it be; the stock before it, and a copy of
    the piles before it to build the expected piles on."""
    reason = position.explain(move)
    if reason is not None:
        _fail(f"{shown} was played although the rules do not allow it: {reason} "
              f"(in {position.text()})")
    stock = list(position.stock)
    position.push_unchecked(move)
    return stock, [list(pile) for pile in before]


def _check_discard(position: Game, move: Move, before: list[list[int]], shown: str) -> None:
    """A discard: the interpreter lets it be, and it moves the top card of each chosen
    pile, in pile order, onto its target (face-down cards left on top turning up), then
    what is forced follows."""
    variant = position.variant
    stock, expected = _pushed_if_explained(position, move, before, shown)
    chosen = variant.discard_sets[-2 - move.source]
    for index in chosen:
        expected[move.target].append(expected[index].pop())
    for index in chosen:
        _turn_up(variant, expected, index)
    _expect_piles(position, expected, stock, shown, "discard", move.target)


def _check_draw(position: Game, move: Move, before: list[list[int]], shown: str) -> None:
    """A draw of a buried card (``merci``): the interpreter lets it be, and it moves the
    card under the source's top card alone onto its target, the top card staying and one
    draw counted, then what is forced follows."""
    variant = position.variant
    assert variant.merci is not None
    stock, expected = _pushed_if_explained(position, move, before, shown)
    top = expected[move.source].pop()
    _apply(expected, (move.source, 1, move.target), move.target in variant.bottom_piles)
    expected[move.source].append(top)
    expected[variant.merci.counter].append(0)
    _expect_piles(position, expected, stock, shown, "draw", move.target)


def _expect_piles(position: Game, expected: list[list[int]], stock: list[int], shown: str,
                  what: str, last: int) -> None:
    """After the move just pushed (its cards went to pile ``last``): the piles are
    ``expected`` and then what its forced moves did (``stock`` as it was before the move);
    the move is taken back."""
    variant = position.variant
    after = _forced_piles(position, expected, position.forced_moves_of_last_move(), stock,
                          last)
    if after != position.piles:
        changed = [variant.pile_names[i] for i, (a, b) in
                   enumerate(zip(after, position.piles)) if a != b]
        _fail(f"after {shown} piles {', '.join(changed)} hold other cards than the {what} "
              f"and its forced removals put there: {position.text()}")
    position.pop()


def _apply(piles: list[list[int]], move: tuple[int, int, int], under: bool = False) -> None:
    """A move's cards onto its target (``under``: under the target's cards)."""
    source, count, target = move
    cut = len(piles[source]) - count
    if under:
        piles[target][:0] = piles[source][cut:]
    else:
        piles[target].extend(piles[source][cut:])
    del piles[source][cut:]


def _turn_up(variant: Any, piles: list[list[int]], index: int) -> None:
    """What the rules say of a face-down card a move leaves on top: it turns up, unless its
    pile is covered (``face_down: covered``); and when a move empties a pile, each covered
    face-down card that nothing covers now turns up too."""
    covering = dict(variant.uncovering)
    if index in variant.face_down_piles and piles[index] and piles[index][-1] & FACE_DOWN \
            and not any(piles[other] for other in covering.get(index, ())):
        piles[index][-1] &= ~FACE_DOWN
    if not piles[index]:
        for pile, over in variant.uncovering:
            if index in over and piles[pile] and piles[pile][-1] & FACE_DOWN and \
                    not any(piles[other] for other in over):
                piles[pile][-1] &= ~FACE_DOWN


def _forced_piles(position: Game, piles: list[list[int]], forced: list[Move],
                  stock: list[int], last: int | None = None) -> list[list[int]]:
    """The piles after ``forced`` moves from ``piles`` (``stock`` as it was before them;
    ``last`` the pile the move's cards went to): removals, each checked against the rules,
    fills, each checked against the group's ``fill_from``, closed gaps, each checked
    against the group's ``close_gaps``, and cards turned from the pile the last card went
    to (``fill_from: last``)."""
    variant = position.variant
    scratch = Game(variant, [list(p) for p in piles], list(stock))
    for f in forced:
        group = variant.group_of_pile[f.target]
        previous, last = last, f.target
        if group.fill_last and f.count == 1 and f.source >= 0 and not scratch.piles[f.target]:
            giver = scratch.piles[f.source]
            if f.source != previous or not giver or not giver[-1] & FACE_DOWN:
                _fail(f"{scratch.notation(f)} is no fill from the pile the last card went to "
                      f"({'none' if previous is None else variant.pile_names[previous]}), "
                      f"with its face-down top card, in {scratch.text()}")
            scratch.piles[f.target].append(giver.pop() & ~FACE_DOWN)
            continue
        if group.close_gaps and f.source >= 0 and f.source in group.indices:
            # a gap closes: the first pile after the group's first gap moves whole into it
            gap = next((i for i in group.indices if not scratch.piles[i]), None)
            after = None if gap is None else next(
                (i for i in range(gap + 1, group.indices.stop) if scratch.piles[i]), None)
            if (f.target, f.source, f.count) != (gap, after, len(scratch.piles[f.source])):
                _fail(f"{scratch.notation(f)} is no closing of piles.{group.name}'s first gap "
                      f"in {scratch.text()}")
            _apply(scratch.piles, f)
            continue
        if group.fill_from is not None and f.count == 1 and not scratch.piles[f.target] and (
                f.source in group.fill_from or (f.source < 0 and group.fill_from.start < 0)):
            if f.source < 0:
                if not scratch.stock:
                    _fail(f"{variant.pile_names[f.target]} was filled from an empty stock")
                scratch.piles[f.target].append(scratch.stock.pop())
            else:
                _apply(scratch.piles, f)
                _turn_up(variant, scratch.piles, f.source)
            continue
        if group.removal is not Removal.FORCED:
            _fail(f"cards went to {variant.pile_names[f.target]} by themselves, but "
                  f"piles.{group.name}.removal is optional")
        if not _rule_allows(scratch, *f):
            _fail(f"the forced removal {scratch.notation(f)} happened although the rules do "
                  f"not allow it in {scratch.text()}")
        _apply(scratch.piles, f, f.target in variant.bottom_piles)
        _turn_up(variant, scratch.piles, f.source)
    return scratch.piles


def check_push_pop_restores(game: Game) -> None:
    """Every generated move is accepted by ``push``, and ``pop`` restores the exact position
    and its key."""
    key, text = game.key(), game.text()
    depth = len(game.move_stack)
    for raw in game.generate_moves():
        move = Move(*raw)
        shown = game.notation(move)
        try:
            game.push(move)
        except Exception as error:  # noqa: BLE001 - any error is a finding
            _fail(f"push refused the generated move {shown}: {error}")
        popped = game.pop()
        if popped != move:
            _fail(f"pop() after {shown} returned {popped}, not the move")
        if game.key() != key or game.text() != text or len(game.move_stack) != depth:
            _fail(f"pop() after {shown} left {game.text()}, not the position before it")


def check_generated_iff_explained(game: Game) -> None:
    """A move is generated if and only if ``explain`` finds no rule against it.

    Tried: the deal, every count of cards from every pile onto every pile, and every
    discard (each set of piles of each discard, onto its pile).
    """
    from patience.explain import reason_against  # the interpreter alone

    generated = {(s, k, t) for s, k, t in game.generate_moves()}
    candidates: list[tuple[int, int, int]] = [(DEAL.source, DEAL.count, DEAL.target)]
    size = len(game.piles)
    for source in range(size):
        for count in range(1, len(game.piles[source]) + 1):
            candidates.extend((source, count, target) for target in range(size))
    for discard in game.variant.discards:
        candidates.extend((-2 - number, discard.cards, discard.target)
                          for number in range(discard.start, discard.stop))
    if game.variant.merci is not None:  # every draw of a buried card, from every pile
        real = len(game.variant.pile_names)
        candidates.extend((source, DRAW, target) for source in range(real)
                          for target in range(real))
    for move in candidates:
        why = reason_against(game, Move(*move))
        legal = move in generated
        if legal and why is not None:
            _fail(f"{game.notation(move)} is generated, but explain says: {why}")
        if not legal and why is None:
            _fail(f"{game.notation(move)} is not generated, but explain finds no rule against "
                  f"it (moves: {' '.join(sorted(game.notation(m) for m in generated))})")
    stray = generated - set(candidates)
    if stray:
        _fail(f"the move generator made moves that name no real pile or card count: "
              f"{sorted(stray)}")


def check_round_trips(game: Game) -> None:
    """Position text, JSON and move notation read back to the same position and moves."""
    variant = game.variant
    text = game.text()
    again = variant.position(text)
    if again.key() != game.key() or again.text() != text:
        _fail(f"position text does not round-trip: {text!r} reads back as {again.text()!r}")
    data = json.loads(json.dumps(game.to_json()))
    from_json = variant.from_json(data)
    if from_json.key() != game.key():
        _fail(f"position JSON does not round-trip: {data} reads back as {from_json.text()}")
    for raw in game.generate_moves():
        move = Move(*raw)
        written = game.notation(move)
        read = game.parse_move(written)
        if read != move or game.notation(read) != written:
            _fail(f"move notation does not round-trip: {move} is written {written!r}, which "
                  f"reads back as {read} ({game.notation(read)!r})")
    words = notations(game)
    moves = game.start().parse_moves(" ".join(words))
    if moves != game.move_stack:
        _fail(f"the move list {' '.join(words)!r} reads back as other moves: "
              f"{' '.join(map(str, moves))}")


def _check_gather(position: Game, before: list[list[int]]) -> None:
    """A gathering redeal (``stock.gather``) just made: only the gathered piles and the
    redeal counter changed; the packet (the gathered piles, each read from its top card
    down, one after another, or those cards shuffled by the redeal's seed), cut into
    parcels of ``deal`` cards each turned over, is the gathered piles read from the bottom,
    one after another; each pile holds ``deal`` cards from the first, the last pile dealt
    fewer, the rest none. With ``keep`` or ``gaps`` (some piles stay, some stay empty): the
    gathered piles hold the same cards as before."""
    variant = position.variant
    gather = variant.gather
    assert gather is not None
    after = position.piles
    kept = set(gather.piles) | {gather.counter}
    changed = [variant.pile_names[i] for i in range(len(variant.pile_names))
               if i not in kept and before[i] != after[i]]
    read = [card for i in gather.piles for card in reversed(before[i])]
    if gather.shuffle:
        assert gather.counter is not None and position.shuffle_seed is not None
        packet = redeal_shuffle(read, position.shuffle_seed, len(before[gather.counter]) + 1)
    else:
        packet = [card & ~FACE_DOWN for card in read]
    turned = [card for start in range(0, len(packet), gather.deal)
              for card in reversed(packet[start:start + gather.deal])]
    dealt = [card for i in gather.piles for card in after[i]]
    sizes = [len(after[i]) for i in gather.piles]
    full = len(packet) // gather.deal
    shaped = len(packet) > gather.deal * len(sizes) or sizes == [gather.deal] * full + (
        [len(packet) % gather.deal] if len(packet) % gather.deal else []) + [0] * (
        len(sizes) - full - (len(packet) % gather.deal > 0))
    counted = gather.counter is None or len(after[gather.counter]) == \
        len(before[gather.counter]) + 1
    if variant.gather_keep is not None or variant.gather_gaps is not None:
        # some piles stay and some are left empty: the same cards, face up where dealt
        kept_cards = sorted(card & ~FACE_DOWN for card in read)
        dealt, turned = sorted(card & ~FACE_DOWN for card in dealt), kept_cards
        shaped = True
    if changed or dealt != turned or not shaped or not counted:
        _fail(f"the redeal did not gather {', '.join(variant.pile_names[i] for i in gather.piles)} "
              f"and deal them again {gather.deal} a pile as stock.gather says"
              f"{' (it changed ' + ', '.join(changed) + ')' if changed else ''}, after "
              f"{position.start().text()} and {len(position.move_stack) - 1} moves")


def check_forced_removal_complete(game: Game) -> None:
    """Under forced removal, no forced move is left undone (no complete set is left on a
    column): neither the generated ``first_forced`` nor the interpreter finds one."""
    variant = game.variant
    forced = [group for group in variant.groups if group.removal is Removal.FORCED]
    if variant.first_forced is not None:
        left = variant.first_forced(game.piles, game.stock)
        if left is not None:
            _fail(f"{game.notation(left)} should have happened by itself "
                  f"(piles.{variant.group_of_pile[left[2]].name}.removal: forced)")
    forced_piles = {index for group in forced for index in group.indices}
    for group in forced:
        for source in range(len(variant.pile_names)):  # (not the count of redeals made)
            if source in forced_piles:  # forced moves start outside the forced groups
                continue
            for count in range(1, len(game.piles[source]) + 1):
                for target in group.indices:
                    if _rule_allows(game, source, count, target):
                        _fail(f"the rules let the top {count} cards of "
                              f"{variant.pile_names[source]} go to "
                              f"{variant.pile_names[target]}, which piles.{group.name}.removal: "
                              "forced makes happen at once, but they are still there")


def check_won_has_no_moves(game: Game) -> None:
    """``is_won`` agrees with the interpreter's reading of ``win``; a won position has no
    moves."""
    variant = game.variant
    won = game.is_won()
    interpreted = bool(_interpreter(game).evaluate(variant.win.node, {}))
    if won != interpreted:
        _fail(f"is_won() says {won} but 'win: {variant.win.text}' reads {interpreted}")
    if won and game.generate_moves():
        moves = " ".join(sorted(game.notation(m) for m in game.generate_moves()))
        _fail(f"the position is won but has moves: {moves}")


def check_deals_deterministic(game: Game) -> None:
    """Numbered deal N is docs/rules.md's SplitMix64 + Fisher–Yates order, every time."""
    number = game.deal_number
    assert number is not None
    variant = game.variant
    expected = reference_deck(number, variant.decks, variant.ranks, variant.suits,
                              [card for _, card in variant.placed])
    again = variant.deal(number)
    if again.key() != game.key():
        _fail(f"deal {number} came out differently the second time: {again.text()}")
    # the same cards dealt as deal N (a gathering redeal's shuffle seed is N)
    explicit = Game.from_cards(variant, expected, deal_number=number)
    if game.shuffle_seed not in (None, number):
        _fail(f"deal {number} shuffles its redeals with seed {game.shuffle_seed}, not "
              f"{number} (docs/rules.md, \"Shuffles during play\")")
    if explicit.key() != game.key():
        _fail(f"deal {number} is not the deck order docs/rules.md specifies: expected "
              f"{explicit.text()}, got {game.text()}")
    if variant.first_forced is None:  # (forced moves may carry dealt cards away)
        _check_dealt_first(game, expected)


def _check_dealt_first(game: Game, cards: list[int]) -> None:
    """Each group with ``deal_first`` is dealt, before the layout, the cards its rule picks
    (given the first card) in the order they came, then, if they run short, the next cards
    (docs/authoring.md, "Deals that depend on dealt cards"): its piles hold those cards."""
    variant = game.variant
    rest = list(cards)
    for group in variant.groups:
        if group.deal_first is None or not cards:
            continue
        interpreter = _interpreter(game)
        picked = [c for c in rest if interpreter.evaluate(
            group.deal_first.node, {"card": c, "first_card": cards[0]})]
        lead = (picked + [c for c in rest if c not in picked])[:sum(group.deal)]
        for card in lead:
            rest.remove(card)
        dealt = sorted(card & ~FACE_DOWN for index, placed in zip(
            group.indices, group.place or ((),) * group.count)
            for card in game.piles[index][len(placed):])
        if dealt != sorted(lead):
            _fail(f"piles.{group.name}.deal_first picks "
                  f"{' '.join(card_code(c) for c in picked)} (given the first card, "
                  f"{card_code(cards[0])}), so its piles should be dealt "
                  f"{' '.join(card_code(c) for c in lead)}, but hold "
                  f"{' '.join(card_code(c) for c in dealt)}: {game.text()}")


def reference_deck(number: int, decks: int, ranks: int,
                   suits: Sequence[int] = (0, 1, 2, 3), placed: Sequence[int] = ()) -> list[int]:
    """docs/rules.md's numbered deal written out again, independently of ``patience.cards``:
    new-deck order (the suits the deck has), less the first copy of each placed card, then
    SplitMix64 + Fisher–Yates."""
    mask = (1 << 64) - 1
    cards = [rank * 4 + suit for _ in range(decks) for suit in sorted(suits)
             for rank in range(1, ranks + 1)]
    for card in placed:
        cards.remove(card)
    state = number
    for i in range(len(cards) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        j = (z ^ (z >> 31)) % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


SOLVER_POSITIONS = 20_000
SOLVER_SECONDS = 2.0


def _solver() -> Any:
    try:
        from patience import solver
    except ImportError:
        return None
    return solver if hasattr(solver, "solve") else None


def check_solver_lines_replay(game: Game) -> None:
    """Where the solver finds a win cheaply, its line replays with ``push`` to a won
    position."""
    solver = _solver()
    result = solver.solve(game, max_positions=SOLVER_POSITIONS, time_limit=SOLVER_SECONDS)
    if result.verdict != "won":
        return
    replay = game.copy()
    for number, word in enumerate(result.moves, start=1):
        try:
            replay.push(word)
        except Exception as error:  # noqa: BLE001 - any error is a finding
            _fail(f"the solver's winning line fails at move {number} ({word!r}): {error}; "
                  f"line: {' '.join(result.moves)}")
    if not replay.is_won():
        _fail(f"the solver's winning line does not end in a won position: "
              f"{' '.join(result.moves)} ends at {replay.text()}")


def check_engines_agree(game: Game, max_positions: int = 2_000) -> None:
    """The native core and the pure-Python reference agree on the position and on every
    position of a short solve: the same legal moves in the same order, the same win test,
    and the same search (verdict, positions expanded and line) of ``max_positions``."""
    from patience import native
    from patience.solver import solve

    for position, _ in _with_end(game):
        piles, stock = [list(p) for p in position.piles], list(position.stock)
        reference = position.variant.generate_moves(piles, stock)
        compiled = native.generate_moves(position)
        if compiled != reference:
            _fail(f"the native core generates {_words(position, compiled)} but the reference "
                  f"{_words(position, reference)} at {position.text()}")
    mine = solve(game, max_positions=max_positions, time_limit=None, engine="python",
                 shorten_line=False)
    theirs = solve(game, max_positions=max_positions, time_limit=None, engine="native",
                   shorten_line=False)
    if (mine.verdict, mine.positions, mine.moves) != \
            (theirs.verdict, theirs.positions, theirs.moves):
        _fail(f"the engines search differently: the reference says {mine.verdict} after "
              f"{mine.positions} positions ({' '.join(mine.moves) or 'no line'}), the native "
              f"core {theirs.verdict} after {theirs.positions} "
              f"({' '.join(theirs.moves) or 'no line'})")


def _words(game: Game, moves: Sequence[Any]) -> str:
    return "[" + ", ".join(game.notation(move) for move in moves) + "]"


# --- metamorphic checks ------------------------------------------------------------------


def suit_relabellings(variant: Variant) -> st.SearchStrategy[tuple[int, ...]]:
    """Permutations of the four suits that the variant's rules cannot tell apart."""
    read = variant.card_attributes_read
    if "color" in read:  # only colour-preserving relabellings: C<->S, D<->H
        return st.sampled_from([(3, 1, 2, 0), (0, 2, 1, 3), (3, 2, 1, 0)])
    return st.permutations((0, 1, 2, 3)).map(tuple).filter(lambda p: p != (0, 1, 2, 3))


def check_suits_relabelled(game: Game, relabel: tuple[int, ...]) -> None:
    """For a variant that never reads suits, relabelling the suits of a deal changes no
    move, no perft count and no solver verdict."""
    from patience.perft import perft

    variant = game.variant

    def swap(cards: Iterable[int]) -> list[int]:
        return [card & ~3 | relabel[card & 3] for card in cards]

    start = game.start()
    other = Game(variant, [swap(pile) for pile in start.piles], swap(start.stock))
    shown = "".join("CDHS"[s] for s in relabel)
    for position, move in _with_end(game):
        mine = position.generate_moves()
        theirs = other.generate_moves()
        if mine != theirs:
            _fail(f"with the suits relabelled CDHS -> {shown} the legal moves differ at "
                  f"{position.text()}: {sorted(map(position.notation, mine))} against "
                  f"{sorted(map(other.notation, theirs))} (the rules never read suits)")
        if move is not None:
            other.push_unchecked(move)
    if perft(game, 2) != perft(other, 2):
        _fail(f"with the suits relabelled CDHS -> {shown}, perft 2 differs "
              f"({perft(game, 2)} against {perft(other, 2)})")
    solver = _solver()
    if solver is not None:
        a = solver.solve(game, max_positions=2_000, time_limit=1.0).verdict
        b = solver.solve(other, max_positions=2_000, time_limit=1.0).verdict
        if "unknown" not in (a, b) and a != b:
            _fail(f"with the suits relabelled CDHS -> {shown} the solver's verdict changes "
                  f"from {a!r} to {b!r}")


@cache
def _empty_child(path: str, text: str, parent_id: str) -> Variant:
    """A child file that extends ``path`` (whose content is ``text``: a changed file is
    another parent) and overrides nothing but its id."""
    from patience.variant import find_variant

    directory = Path(tempfile.mkdtemp(prefix="patience-child-"))
    atexit.register(shutil.rmtree, directory, ignore_errors=True)
    child = directory / "child.yaml"
    child.write_text(f"extends: {json.dumps(str(Path(path).resolve()))}\n"
                     f"id: {parent_id}-child\n", encoding="utf-8")
    return find_variant(child)


def check_child_matches_parent(game: Game) -> None:
    """A file that says only ``extends: PARENT`` (and an id) plays exactly like PARENT."""
    variant = game.variant
    child = _empty_child(str(variant.path), variant.text, variant.id)
    if child.rules_hash != variant.rules_hash:
        _fail(f"a child file that overrides nothing has rules hash {child.rules_hash}, its "
              f"parent {variant.rules_hash}")
    if child.pile_names != variant.pile_names or child.deck != variant.deck:
        _fail("a child file that overrides nothing has other piles or another deck")
    start = game.start()
    other = Game(child, [list(p) for p in start.piles], list(start.stock))
    for position, move in _with_end(game):
        if position.generate_moves() != other.generate_moves() or \
                position.text() != other.text():
            _fail(f"a child file that overrides nothing plays differently at "
                  f"{position.text()}: moves {sorted(map(other.notation, other.generate_moves()))}")
        if move is not None:
            other.push_unchecked(move)
    if game.deal_number is not None and child.deal(game.deal_number).text() != \
            variant.deal(game.deal_number).text():
        _fail(f"a child file that overrides nothing deals deal {game.deal_number} differently")


# --- the registry ------------------------------------------------------------------------


def _always(variant: Variant) -> str | None:
    return None


def _needs_forced(variant: Variant) -> str | None:
    if any(group.removal is Removal.FORCED for group in variant.groups):
        return None
    return "no pile group has removal: forced"


def _needs_solver(variant: Variant) -> str | None:
    return None if _solver() is not None else "patience.solver is not available"


def _needs_native(variant: Variant) -> str | None:
    from patience import native

    return None if native.AVAILABLE else native.REASON


def _needs_suitless(variant: Variant) -> str | None:
    if "suit" in variant.card_attributes_read:
        return "the rules read card suits"
    return None


def _needs_file(variant: Variant) -> str | None:
    if not variant.path or not Path(variant.path).is_file():
        return "the variant has no file to extend"
    return None


@attrs.frozen
class Check:
    """One promise of the battery, the strategy that tests it, and when it applies."""

    name: str
    promise: str
    function: Callable[..., None]
    strategy: Callable[[Variant, bool], st.SearchStrategy[tuple[Any, ...]]]  # (variant,
    # near_wins) -> the arguments of ``function``
    skip_reason: Callable[[Variant], str | None] = _always
    cost: int = 1  # examples are divided by this


def _positions(variant: Variant, near_wins: bool) -> st.SearchStrategy[tuple[Any, ...]]:
    return st.tuples(positions(variant, MAX_MOVES, near_wins=near_wins))


def _short_positions(variant: Variant, near_wins: bool) -> st.SearchStrategy[tuple[Any, ...]]:
    return st.tuples(positions(variant, 12))


def _numbered(variant: Variant, near_wins: bool) -> st.SearchStrategy[tuple[Any, ...]]:
    return st.tuples(deal_numbers().map(variant.deal))


def _relabelled(variant: Variant, near_wins: bool) -> st.SearchStrategy[tuple[Any, ...]]:
    return st.tuples(positions(variant, 12, near_wins=near_wins), suit_relabellings(variant))


#: what each strategy draws, for ``patience test -v``
STRATEGY_WORDS = {
    "_positions": f"positions reached by up to {MAX_MOVES} random moves from numbered deals",
    "_short_positions": "positions reached by up to 12 random moves from numbered deals",
    "_numbered": "numbered deals",
    "_relabelled": "positions reached by up to 12 random moves, with the suits relabelled",
}

_CHECK_LIST = [
    Check("cards_exactly_once", "every card exactly once across all piles and the stock",
          check_cards_exactly_once, _positions),
    Check("pile_capacities", "every card that lands on a pile was let in by that pile's rules "
          "(moves, forced removals, deals)", check_arrivals_obey_rules, _positions, cost=2),
    Check("push_pop_restores", "every generated move is accepted by push, and pop restores "
          "the exact position and its key", check_push_pop_restores, _positions),
    Check("generated_iff_explained", "a move is generated if and only if explain finds no "
          "rule against it", check_generated_iff_explained, _positions, cost=4),
    Check("round_trips", "position text, JSON, move notation and move lists round-trip",
          check_round_trips, _positions),
    Check("deals_deterministic", "numbered deals are docs/rules.md's deck order, every time",
          check_deals_deterministic, _numbered),
    Check("forced_removal_complete", "under forced removal no complete set is left where it "
          "could leave", check_forced_removal_complete, _positions, _needs_forced, cost=2),
    Check("won_has_no_moves", "is_won agrees with the win rule, and a won position has no "
          "moves", check_won_has_no_moves, _positions),
    Check("solver_lines_replay", "solver lines replay to a win (where cheap)",
          check_solver_lines_replay, _numbered, _needs_solver, cost=20),
    Check("engines_agree", "the native core generates the same moves and searches the same "
          "way as the pure-Python reference", check_engines_agree, _short_positions,
          _needs_native, cost=10),
    Check("suits_relabelled", "relabelling suits changes no move, perft or verdict (variants "
          "that never read suits)", check_suits_relabelled, _relabelled, _needs_suitless,
          cost=10),
    Check("child_matches_parent", "a child file that overrides nothing plays exactly like "
          "its parent", check_child_matches_parent, _short_positions, _needs_file, cost=2),
]
CHECKS: dict[str, Check] = {check.name: check for check in _CHECK_LIST}
#: every name ``patience test --check`` and the pytest plugin know, in the order they run
ALL_CHECKS = (*CHECKS, "play_undo_redo", "lint", "expect", "semantic", "safe_moves")


# --- running -----------------------------------------------------------------------------


@attrs.frozen
class Outcome:
    """The result of one check: ``passed``, ``failed``, ``skipped`` (could not run) or
    ``partial`` (ran, but some of its parts could not: the message says which, and why),
    the message, and what the check tried (``patience test -v`` lists it)."""

    name: str
    status: str
    message: str = ""
    examples: int = 0
    tried: tuple[str, ...] = ()


def _settings(examples: int, derandomize: bool) -> settings:
    return settings(max_examples=max(1, examples), deadline=None, database=None,
                    derandomize=derandomize, report_multiple_bugs=False,
                    suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
                    phases=[Phase.explicit, Phase.generate, Phase.shrink])


def _wrapped(check: Check) -> Callable[..., None]:
    def test(subject: tuple[Any, ...]) -> None:
        game = subject[0]
        try:
            check.function(*subject)
        except BatteryFailure as failure:
            raise BatteryFailure(f"{check.name}: {failure}\n{counterexample(game)}") from None
        except Exception as error:  # noqa: BLE001 - any error is a finding
            where = "".join(traceback.format_exception(type(error), error,
                                                       error.__traceback__)[-3:])
            raise BatteryFailure(f"{check.name}: the kernel raised {type(error).__name__}: "
                                 f"{error}\n{counterexample(game)}\n{where}") from None
    return test


def run_check(variant: Variant, check: Check, *, examples: int = 100, seed: int | None = None,
              derandomize: bool = False, near_wins: bool | None = None) -> Outcome:
    """Run one check with hypothesis; a failure comes back shrunk, as text.

    ``near_wins`` (default: when ``examples`` is at least 50) adds positions on winning
    lines the solver finds, where sets complete and games are won.
    """
    reason = check.skip_reason(variant)
    if reason is not None:
        return Outcome(check.name, "skipped", reason)
    count = max(1, examples // check.cost)
    near = examples >= 50 if near_wins is None else near_wins
    test = given(check.strategy(variant, near))(_wrapped(check))
    test = _settings(count, derandomize)(test)
    if seed is not None:
        test = hypothesis_seed(seed)(test)
    tried = (f"{count} example{'s' if count != 1 else ''} of "
             f"{STRATEGY_WORDS[check.strategy.__name__]}"
             + (", and positions on the solver's winning lines" if near and
                check.strategy in (_positions, _relabelled) else "")
             + f": {check.promise}",)
    try:
        test()
    except BatteryFailure as failure:
        return Outcome(check.name, "failed", str(failure), count, tried)
    return Outcome(check.name, "passed", "", count, tried)


def assert_check(variant: Variant, check: Check, *, examples: int = 100,
                 seed: int | None = None) -> None:
    """Run one check and raise :class:`BatteryFailure` if it fails (skips are passes)."""
    outcome = run_check(variant, check, examples=examples, seed=seed)
    if outcome.status == "failed":
        raise BatteryFailure(outcome.message)


def run_play_machine(variant: Variant, *, examples: int = 100, seed: int | None = None,
                     derandomize: bool = False) -> Outcome:
    """Run the generic state machine (deal, play, undo, redo) on ``variant``."""
    from hypothesis.stateful import run_state_machine_as_test

    from patience.testing.strategies import play_machine

    machine = play_machine(variant)
    count = max(1, examples // 5)
    options = _settings(count, derandomize)
    options = settings(options, stateful_step_count=25)
    try:
        run_state_machine_as_test(machine, settings=options)
    except Exception as error:  # noqa: BLE001 - any error is a finding
        kind = "" if isinstance(error, BatteryFailure) else f"{type(error).__name__}: "
        return Outcome("play_undo_redo", "failed", f"play_undo_redo: {kind}{error}", count)
    return Outcome("play_undo_redo", "passed", "", count,
                   (f"{count} runs of up to 25 steps of deal, play, undo and redo",))


def run_expectations(variant: Variant) -> Outcome:
    """The file's own ``expect:`` entries (``patience.testing.expectations``)."""
    from patience.testing.expectations import check_expectations

    entries = tuple(e for e in variant.definition.expectations if not e.known)
    if not entries:
        return Outcome("expect", "skipped", "the file has no expect: examples")
    failures = check_expectations(variant)
    tried = tuple(entry.label for entry in entries)
    return Outcome("expect", "failed" if failures else "passed",
                   "\n".join(map(str, failures)), len(entries), tried)


def run_semantic(variant: Variant) -> Outcome:
    """The semantic checks that need no statement of intent (``patience.testing.semantic``)."""
    from patience.testing.semantic import semantic_report

    report = semantic_report(variant)
    tried = report.tried + tuple(f"skipped: {why}" for why in report.skipped)
    known = acknowledged(variant)
    open_findings = [f for f in report.findings if f.check not in known]
    notes = [f"acknowledged: {f.check} ({known[f.check]})" for f in report.findings
             if f.check in known]
    if open_findings:
        return Outcome("semantic", "failed", "\n".join(
            [_with_inherited(variant, str(f), f.location, f.rule, f.check)
             for f in open_findings] + notes), tried=tried)
    if notes:
        tried += tuple(str(f) for f in report.findings)
        skipped = [f"skipped: {why}" for why in report.skipped]
        return Outcome("semantic", "partial" if skipped else "passed",
                       "; ".join(notes + skipped), tried=tried)
    if report.skipped:
        return Outcome("semantic", "partial", "skipped: " + "; skipped: ".join(report.skipped),
                       tried=tried)
    return Outcome("semantic", "passed", tried=tried)


def acknowledged(variant: Variant) -> dict[str, str]:
    """Finding codes the file acknowledges (``expect: - known: [CODE] why: …``), each with
    its reason and where it is written."""
    found = {}
    for entry in variant.definition.expectations:
        where = ""
        if entry.origin is not None:
            location = entry.origin.location()
            where = f"{Path(location.path).name}:{location.line}: "
        for code in entry.known:
            found[code] = f"{where}why: {entry.why}"
    return found


def _with_inherited(variant: Variant, text: str, location: Any, rule: str, code: str) -> str:
    """A finding about a rule written in a parent file: say where the child changes it."""
    if location is None or not variant.path or \
            Path(location.path).resolve() == Path(variant.path).resolve():
        return text
    child = Path(variant.path).name
    return (f"{text}\n  (written in {Path(location.path).name}, inherited: write {rule} in "
            f"{child} to change it, or acknowledge the finding there with expect: - known: "
            f"[{code}] why: …)")


def run_safe_moves(variant: Variant, examples: int = 100) -> Outcome:
    """The check of the file's ``solver.safe`` (``patience.testing.safety``): with the
    default 100 examples, 12 deals and at most 150 positions; fewer with fewer."""
    if variant.safe is None:
        return Outcome("safe_moves", "skipped", "the file declares no safe moves (solver.safe)")
    from patience.testing.safety import check_safe_moves

    report = check_safe_moves(variant, deals=max(1, min(12, examples // 8)),
                              max_checked=max(1, examples * 3 // 2))
    if report.failure is not None:
        return Outcome("safe_moves", "failed", f"safe_moves: {report.failure}",
                       report.positions)
    return Outcome("safe_moves", "passed", report.summary(), report.positions,
                   (report.summary(),))


@attrs.frozen
class Report:
    """Everything ``patience test`` found for one variant."""

    variant: Variant
    outcomes: tuple[Outcome, ...]
    findings: tuple[Any, ...]  # patience.testing.lint.Finding

    @property
    def failed(self) -> bool:
        return any(o.status == "failed" for o in self.outcomes) or bool(self.findings)


def run_battery(variant: Variant, *, examples: int = 100, seed: int | None = None,
                derandomize: bool = False, near_wins: bool | None = None,
                only: Iterable[str] | None = None,
                on_outcome: Callable[[Outcome], None] | None = None) -> Report:
    """Run every check (or those named in ``only``), the state machine and the lint."""
    from patience.testing.lint import lint_report

    names = list(only) if only is not None else list(ALL_CHECKS)
    outcomes = []
    findings: tuple[Any, ...] = ()
    for name in names:
        if name == "lint":
            linted = lint_report(variant)
            known = acknowledged(variant)
            findings = tuple(f for f in linted.findings if f.code not in known)
            notes = [f"acknowledged: {f.code} ({known[f.code]})" for f in linted.findings
                     if f.code in known]
            tried = linted.checked + tuple(f"unchecked: {phrase!r}"
                                           for phrase in linted.unchecked)
            tried += tuple(str(f) for f in linted.findings if f.code in known)
            counted = (f"{len(linted.checked)} claim{'s' if len(linted.checked) != 1 else ''}"
                       f" checked, {len(linted.unchecked)} phrase"
                       f"{'s' if len(linted.unchecked) != 1 else ''} unchecked")
            outcome = Outcome("lint", "failed" if findings else "passed",
                              "\n".join([*map(str, findings), *notes]) if findings else
                              "; ".join([counted, *notes]), tried=tried)
        elif name == "expect":
            outcome = run_expectations(variant)
        elif name == "semantic":
            outcome = run_semantic(variant)
        elif name == "safe_moves":
            outcome = run_safe_moves(variant, examples)
        elif name == "play_undo_redo":
            outcome = run_play_machine(variant, examples=examples, seed=seed,
                                       derandomize=derandomize)
        else:
            outcome = run_check(variant, CHECKS[name], examples=examples, seed=seed,
                                derandomize=derandomize, near_wins=near_wins)
        outcomes.append(outcome)
        if on_outcome is not None:
            on_outcome(outcome)
    return Report(variant, tuple(outcomes), findings)


def default_examples() -> int:
    """Examples per check: ``PATIENCE_EXAMPLES`` from the environment, else 100."""
    try:
        return max(1, int(os.environ.get("PATIENCE_EXAMPLES", "100")))
    except ValueError:
        return 100
