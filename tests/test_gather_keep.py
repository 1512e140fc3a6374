"""Redeals that keep some cards (``stock.gather.keep`` and ``.gaps``, docs/authoring.md):
what the loader refuses and where, and Montana's redeal as PySolFC's ``Montana_Talon``
makes it — the cards in sequence from a Two in the first column stay, the rest are
gathered and dealt again with a gap after each row's sequence — in both engines."""

from __future__ import annotations

import random

import pytest
from test_gather import HEADER, errors_of

import patience
from patience import native
from patience.cards import parse_cards, redeal_shuffle
from patience.moves import BLANK
from patience.plainrules import plain_rules_text
from patience.solver.rules import solver_rules
from patience.variant import load_variant_text

GATHER = "stock:\n  gather:\n    from: [columns]\n    deal: 4\n    redeals: 1\n"


# --- the loader ---------------------------------------------------------------------------


@pytest.mark.parametrize(("body", "message", "line"), [
    (GATHER + "    keep: run.size == 1\n", "in stock.gather.keep: unknown name 'run'", 10),
    (GATHER + "    gaps: pile.size\n",
     "in stock.gather.gaps: this is an int, but a bool is needed", 10),
    (GATHER + "    keep: pile.empty and\n", "syntax error in stock.gather.keep", 10),
])
def test_the_loader_refuses_a_keep_or_gaps_rule_it_cannot_read_and_says_where(body, message,
                                                                             line):
    found = errors_of(body)
    assert any(text.startswith(message) and at == line for text, at in found), found


def test_keep_and_gaps_are_rules_of_play():
    plain = load_variant_text(HEADER + GATHER, "probe.yaml")
    kept = load_variant_text(HEADER + GATHER + "    keep: pile.size > 3\n", "probe.yaml")
    assert kept.rules_hash != plain.rules_hash
    assert [key for key, _ in kept.rule_nodes if key.startswith("stock.gather")] == \
        ["stock.gather.keep"]


# --- Montana's redeal, as PySolFC makes it ------------------------------------------------

ROWS, COLUMNS = 4, 13


def gathered_places(grid: list[list[int]]) -> tuple[list[int], list[int]]:
    """Montana_Talon.dealCards' first half on ``grid`` (changed in place): in each row, while
    the row runs in sequence from a Two in the first column (one suit, one rank a place) its
    cards stay; from the first place out of sequence on, every place is a 'stack' and its
    card goes to the talon. Returns the stacks and the talon, in that order."""
    stacks, talon = [], []
    for row in range(ROWS):
        first = grid[row * COLUMNS]
        in_sequence = bool(first) and first[-1] >> 2 == 2
        suit = first[-1] & 3 if in_sequence else None
        for column in range(COLUMNS):
            pile = grid[row * COLUMNS + column]
            if in_sequence and (not pile or pile[-1] & 3 != suit or pile[-1] >> 2 != 2 + column):
                in_sequence = False
            if not in_sequence:
                stacks.append(row * COLUMNS + column)
                if pile:
                    talon.append(pile.pop())
    return stacks, talon


def pysolfc_montana_redeal(piles: list[list[int]], seed: int, redeal: int) -> list[list[int]]:
    """PySolFC's Montana_Talon.dealCards (pysollib/games/montana.py) on the grid's piles,
    step by step: in each row, while the row runs in sequence from a Two in the first
    column (one suit, one rank a place) its cards stay; from the first place out of
    sequence on, every place is a 'stack' and its card goes to the talon, and that first
    place is the row's gap. The talon is shuffled (here by our own shuffle, the one
    docs/rules.md writes out) and dealt into the stacks in order, the gaps skipped."""
    grid = [list(pile) for pile in piles]
    stacks, talon = gathered_places(grid)
    gaps = [next(i for i in stacks if i // COLUMNS == row) for row in range(ROWS)]
    assert len(stacks) == len(talon) + len(gaps)
    packet = redeal_shuffle(talon, seed, redeal)
    for index in stacks:
        if index not in gaps:
            grid[index].append(packet.pop(0))
    return grid


def montana_positions(count: int) -> list[patience.Game]:
    """Deals, and positions with rows that run in sequence part of the way (the Aces out)."""
    variant = patience.find_variant("montana")
    games = [variant.deal(number) for number in range(1, 6)]
    chooser = random.Random(31)
    deck = [card for card in range(8, 56)]  # Two to King of each suit
    while len(games) < count:
        order = deck[:]
        chooser.shuffle(order)
        for row in range(ROWS):  # a sequence from a Two in some rows, of random length
            length = chooser.choice([0, 0, 1, 3, 7, 11, 12])
            suit = chooser.randrange(4)
            run = [(2 + column) * 4 + suit for column in range(length)]
            rest = [card for card in order if card not in run]
            order = rest[:row * COLUMNS] + run + rest[row * COLUMNS:]
        places = order[:48]
        gaps = sorted(chooser.sample(range(52), 4))
        grid = []
        for index in range(52):
            grid.append("" if index in gaps else places.pop(0) if places else "")
        codes = "/".join("" if card == "" else patience.cards.card_code(card) for card in grid)
        text = f"g:{codes} x:ACADAHAS s: r:{chooser.randrange(2)} z:{chooser.randrange(1, 99)}"
        games.append(variant.position(text))
    return games


def test_the_random_positions_hold_every_card_once():
    for game in montana_positions(30):
        cards = sorted(card for pile in game.piles[:53] for card in pile)
        assert cards == sorted(parse_cards("AC AD AH AS") + list(range(8, 56)))


@pytest.mark.parametrize("engine", ["python", "native"])
def test_montanas_redeal_is_pysolfcs(engine):
    seen_kept = seen_gap_inside = False
    for game in montana_positions(40):
        if not game.can_deal():
            continue
        piles, stock = [list(p) for p in game.piles], list(game.stock)
        made = len(piles[53])
        expected = pysolfc_montana_redeal(piles[:52], game.shuffle_seed, made + 1)
        if engine == "python":
            after = [list(p) for p in piles]
            game.variant.play(after, list(stock), (-1, 0, -1))
        else:
            (after, _), (back, _) = native.core(game.variant).play_and_take_back(
                piles, stock, (-1, 0, -1))
            assert back == piles, game.text()
        assert after[:52] == expected, game.text()
        assert after[52:54] == [piles[52], piles[53] + [0]]
        seen_kept |= any(after[i] and after[i] == piles[i] and after[i][-1] >> 2 == 2
                         for i in range(0, 52, COLUMNS))
        seen_gap_inside |= any(not expected[i] and i % COLUMNS not in (0, 12)
                               for i in range(52))
    assert seen_kept and seen_gap_inside  # the sample has sequences kept and gaps inside rows


def test_a_redeal_taken_back_restores_every_pile():
    for game in montana_positions(10):
        if not game.can_deal():
            continue
        before = game.text()
        game.push(game.parse_move("d"))
        game.pop()
        assert game.text() == before


def test_the_gathered_piles_are_never_sorted_in_the_key():
    rules = solver_rules(patience.find_variant("montana"))
    assert rules.always_sorted == () and rules.sorted_when_stock_empty == ()


def test_the_rules_say_which_cards_stay_and_where_the_gaps_are():
    variant = patience.find_variant("montana")
    plain = plain_rules_text(variant)
    assert "pick up the cards of the grid that do not stay" in plain
    assert "a pile stays when: Read row by row from the first column" in plain
    assert "a place stays empty when: The first gathered place of each row stays a gap" in plain


def test_the_rules_page_names_a_gathered_group_by_its_name_and_range():
    from patience.rulestext import pile_list, rules_text

    variant = patience.find_variant("montana")
    text = rules_text(variant)
    assert "the cards of grid (g1-g52) are gathered" in text and "g2, g3" not in text
    # a rule written over two lines of the file reads as one line
    assert "run.bottom.rank == first or not left(pile).empty" in text
    freecell = patience.find_variant("freecell")
    index = freecell.pile_index
    assert pile_list(freecell, [index["c1"], index["c2"], index["c3"]]) == "c1-c3"
    assert pile_list(freecell, [index["c1"], index["c2"]]) == "c1, c2"
    assert pile_list(freecell, [index["c8"], index["a1"]]) == "c8, a1"


# --- Spaces: gaps at random, shuffled in among the cards ----------------------------------


def test_a_number_of_gaps_needs_a_shuffle_of_one_card_a_pile():
    found = errors_of(GATHER + "    gaps: 4\n")
    message = ("stock.gather.gaps as a number shuffles that many gaps in among the gathered "
               "cards, one card a pile: give shuffle: true and deal: 1, or write gaps as a "
               "rule on pile")
    assert (message, 10) in found


def spaces_redeal(piles: list[list[int]], seed: int, redeal: int) -> list[list[int]]:
    """Spaces_Talon's redeal as docs/rules.md draws it: Montana's kept sequences, then the
    gathered cards and four gaps shuffled together, dealt one a place over the gathered
    places in order (a place dealt a gap stays empty)."""
    grid = [list(pile) for pile in piles]
    stacks, talon = gathered_places(grid)
    packet = redeal_shuffle(talon + [BLANK] * 4, seed, redeal)
    for index, card in zip(stacks, packet):
        if card != BLANK:
            grid[index].append(card)
    return grid


@pytest.mark.parametrize("engine", ["python", "native"])
def test_spaces_redeal_leaves_four_gaps_drawn_by_the_shuffle(engine):
    spaces = patience.find_variant("spaces")
    inside = 0
    for game in montana_positions(30):
        game = spaces.position(game.text())
        if not game.can_deal():
            continue
        piles, stock = [list(p) for p in game.piles], list(game.stock)
        expected = spaces_redeal(piles[:52], game.shuffle_seed, len(piles[53]) + 1)
        if engine == "python":
            after = [list(p) for p in piles]
            spaces.play(after, list(stock), (-1, 0, -1))
        else:
            (after, _), (back, _) = native.core(spaces).play_and_take_back(
                piles, stock, (-1, 0, -1))
            assert back == piles
        assert after[:52] == expected, game.text()
        assert sum(not pile for pile in after[:52]) == 4
        inside += any(not after[i] and i % COLUMNS not in (0, 12) for i in range(52))
    assert inside  # some gaps fall inside the rows, not after a sequence
