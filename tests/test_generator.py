"""The generated move generator agrees with the rule interpreter, move for move.

``patience.explain.reason_against`` decides legality by interpreting the rules' AST; the
generated code decides it with compiled, reordered, tabulated code. On every position
below, for every conceivable move (every source, count and target), both must agree.
Positions come from random play and from synthetic layouts rich in long runs, wrapped
runs and complete sets (states random play rarely reaches).
"""

from __future__ import annotations

import random

import pytest
from shipped import variant_params

from patience.explain import reason_against
from patience.game import DEAL, Game, Move
from patience.moves import DRAW
from patience.variant import find_variant

VARIANTS = variant_params()


def candidate_moves(game: Game) -> list[Move]:
    moves = [DEAL]
    for source, pile in enumerate(game.piles):
        for count in range(1, len(pile) + 1):
            for target in range(len(game.piles)):
                if target != source:
                    moves.append(Move(source, count, target))
    for discard in game.variant.discards:  # every set of piles of every discard
        moves += [Move(-2 - number, discard.cards, discard.target)
                  for number in range(discard.start, discard.stop)]
    if game.variant.merci is not None:  # every draw of a buried card (merci)
        real = range(len(game.variant.pile_names))
        moves += [Move(source, DRAW, target) for source in real for target in real
                  if target != source]
    return moves


def assert_agree(game: Game) -> None:
    generated = {tuple(m) for m in game.generate_moves()}
    assert len(generated) == len(game.generate_moves()), "a move was generated twice"
    allowed = {tuple(m) for m in candidate_moves(game) if reason_against(game, m) is None}
    assert generated == allowed, (
        f"position {game.text()!r}: generated only "
        f"{sorted(game.notation(m) for m in generated - allowed)}, "
        f"rules only {sorted(game.notation(m) for m in allowed - generated)}")


def random_walk(game: Game, steps: int, rng: random.Random) -> list[Game]:
    seen = []
    for _ in range(steps):
        moves = game.generate_moves()
        if not moves:
            break
        # prefer non-deal moves so the table fills up before the stock runs out
        choices = [m for m in moves if m[0] >= 0] or moves
        game.push_unchecked(rng.choice(choices) if rng.random() < 0.85 else rng.choice(moves))
        seen.append(game.copy())
    return seen


def synthetic_position(variant, rng: random.Random) -> Game:
    """Cards laid out as long descending runs (some wrapping A->K, some complete K..A sets)
    on the columns, the other piles and the foundations; the rest in the stock or nowhere
    (then the stock is empty and the remaining cards sit on the foundations' side)."""
    ranks = list(range(variant.ranks, 0, -1))  # (a stripped deck: Line Up's Ace to Six)
    piles: list[list[int]] = [[] for _ in range(variant.pile_slots)]  # hidden ones empty
    columns = [i for g in variant.groups if g.deal for i in g.indices]
    spare = [i for g in variant.groups if not g.deal and g.target != "first" for i in g.indices]
    foundations = [i for g in variant.groups if g.target == "first" for i in g.indices]
    for _deck in range(variant.decks):
        for suit in variant.suits:
            start = rng.randrange(len(ranks)) if rng.random() < 0.5 else 0
            run = [rank * 4 + suit for rank in ranks[start:] + ranks[:start]]
            roll = rng.random()
            empty_foundations = [i for i in foundations if not piles[i]]
            if roll < 0.15 and start == 0 and empty_foundations:
                piles[empty_foundations[0]].extend(run)
            elif roll < 0.8:
                cut = rng.randrange(1, len(run) + 1)
                piles[rng.choice(columns)].extend(run[:cut])
                empty_spare = [i for i in spare if not piles[i]]
                if empty_spare and cut < len(run) and rng.random() < 0.4:
                    size = rng.randrange(1, len(run) - cut + 1)
                    piles[empty_spare[0]].extend(run[cut:cut + size])
    remaining = list(variant.deck)
    for card in (c for pile in piles for c in pile):
        remaining.remove(card)
    rng.shuffle(remaining)
    if rng.random() < 0.5:  # no stock: the loose cards lie at the bottom of the columns
        for card in remaining:
            piles[rng.choice(columns)].insert(0, card)
        remaining = []
    return Game(variant, piles, remaining)


@pytest.mark.parametrize("name", variant_params(few=True))
def test_generated_moves_match_the_rules_in_play(name):
    variant = find_variant(name)
    rng = random.Random(name)
    for number in (1, 2):
        for game in random_walk(variant.deal(number), 25, rng):
            assert_agree(game)


@pytest.mark.parametrize("name", variant_params(few=True))
def test_generated_moves_match_the_rules_on_rich_layouts(name):
    variant = find_variant(name)
    rng = random.Random(f"synthetic {name}")
    for _ in range(12 if variant.decks == 1 else 4):
        game = synthetic_position(variant, rng)
        assert_agree(game)
        for later in random_walk(game, 3, rng):
            assert_agree(later)


@pytest.mark.parametrize("name", VARIANTS)
def test_tabulation_does_not_change_moves(name):
    tabulated = find_variant(name)
    inlined = find_variant(name, tabulate=False)
    assert "table_" not in inlined.generated.source
    rng = random.Random(name)
    for game in random_walk(tabulated.deal(7), 40, rng):
        copy = inlined.position(game.text())
        assert sorted(copy.generate_moves()) == sorted(game.generate_moves())


def test_a_remembered_table_is_one_made_from_the_same_predicate_constants_and_cards():
    """Tables of card predicates are remembered across compiles (mutants, child files,
    fresh loads): by everything that decides them, so a changed parameter, deck or
    predicate gets a table of its own, equal to one made afresh."""
    from patience import compiler
    from patience.variant import load_variant_text

    def table(variant):
        return variant.generated.generate_moves.__globals__["table_goes_on"]

    text = find_variant("tabbycat").text
    wrap = load_variant_text(text, "tabbycat.yaml")
    again = load_variant_text(text, "tabbycat.yaml")
    assert table(again) is table(wrap)  # remembered
    nowrap = load_variant_text(text.replace("wrap: true", "wrap: false"), "tabbycat.yaml")
    suited = load_variant_text(text.replace("goes_on(card, base): ",
                                            "goes_on(card, base): card.suit == base.suit and "),
                               "tabbycat.yaml")
    king, ace, queen = 13 * 4 + 3, 1 * 4 + 0, 12 * 4 + 0  # KS, AC, QC
    assert table(wrap)[king][ace] and not table(nowrap)[king][ace]
    assert table(wrap)[queen][king] and not table(suited)[queen][king]
    rest = [card for card in wrap.deck if card not in (ace, king)]
    piles = [[ace], [king], [rest.pop()], [rest.pop()], [], [], [], [], []]
    assert (1, 1, 0) in wrap.generate_moves(piles, rest)  # KS from c2 onto AC in c1
    assert (1, 1, 0) not in nowrap.generate_moves(piles, rest)
    saved = dict(compiler._TABLES)
    compiler._TABLES.clear()
    try:
        for variant in (wrap, nowrap, suited):
            fresh = load_variant_text(variant.text, "tabbycat.yaml")
            assert table(fresh) is not table(variant) and table(fresh) == table(variant)
    finally:
        compiler._TABLES.update(saved)
