"""Redeals that gather the tableau (``stock.gather``): what the loader refuses and where, what
a redeal deals (Cruel's as PySolFC's ``Cruel_Talon.dealCards`` deals it, La Belle Lucie's
fans of three), the shuffle drawn from the deal number (docs/rules.md, "Shuffles during
play"), and the redeal counter and shuffle seed in the position text and JSON."""

from __future__ import annotations

import random

import pytest

import patience
from patience.cards import card_code, parse_cards, redeal_seed, redeal_shuffle, splitmix64
from patience.errors import MoveError, PositionError, VariantError
from patience.plainrules import plain_rules_text
from patience.variant import load_variant_text

HEADER = "extends: tabbycat\nid: probe\nname: Probe\ndescription: A probe.\n"


def errors_of(body: str) -> list[tuple[str, int | None]]:
    with pytest.raises(VariantError) as raised:
        load_variant_text(HEADER + body, "probe.yaml")
    found = getattr(raised.value, "errors", [raised.value])
    return [(e.message, e.location.line if e.location else None) for e in found]


# --- the loader ---------------------------------------------------------------------------


@pytest.mark.parametrize(("body", "message", "line"), [
    (("stock:\n  gather:\n    from: [columns]\n    shuffle: true\n    deal: 4\n"
     "    redeals: unlimited\n"),
     ("stock.gather shuffles, so its redeals must be counted (each redeal's shuffle is drawn "
     "by its number): give a whole number, not 'unlimited'"), 10),
    ("stock:\n  redeals: 1\n  deals_to: [t]\n  gather: {from: [columns], deal: 4, redeals: 1}\n",
     ("stock.redeals turns the waste back into the stock and stock.gather gathers piles to "
     "deal them again: a game has one kind of redeal; drop one of them"), 6),
    ("stock:\n  gather: {from: [colums], deal: 4, redeals: 1}\n",
     ("stock.gather.from names 'colums', which is neither a pile group nor a pile; did you "
     "mean 'columns'?"), 6),
    ("stock:\n  gather: {from: [], deal: 4, redeals: 1}\n",
     ("stock.gather.from names no pile: name the groups (or piles) whose cards a redeal "
     "gathers, e.g. [fans]"), 6),
    ("stock:\n  gather: {from: [columns], deal: 0, redeals: 1}\n",
     "stock.gather.deal must be from 1 to 104, not 0", 6),
    ("stock:\n  gather: {from: [columns], deal: 4}\n",
     "stock.gather needs the key 'redeals'", 6),
    ("stock:\n  gather: {from: [columns], deal: 4, redeals: 1, shuffle: yes}\n",
     "write true or false, not 'yes'", 6),
    ("stock:\n  gather: {from: [columns], deal: 4, redeals: 1, shuffle: 1}\n",
     "stock.gather.shuffle must be true or false", 6),
    (("piles:\n  tail:\n    id: z\nstock:\n  gather: {from: [columns], shuffle: true, deal: 4, "
     "redeals: 2}\n"),
     ("piles.tail.id 'z' is the shuffle seed's field in the position text of a game whose "
     "stock.gather uses it; choose another id"), 9),
])
def test_the_loader_refuses_a_gather_it_cannot_play_and_says_where(body, message, line):
    assert (message, line) in errors_of(body)


def test_a_pile_gathered_twice_is_refused():
    with pytest.raises(VariantError, match="stock.gather.from names pile c1 twice"):
        load_variant_text(HEADER + "stock:\n  gather: {from: [columns, c1], deal: 4, "
                          "redeals: 1}\n", "probe.yaml")


# --- what a redeal deals ------------------------------------------------------------------


def pysolfc_cruel_redeal(rows: list[list[int]]) -> list[list[int]]:
    """PySolFC's Cruel_Talon.dealCards (pysollib/games/bakersdozen.py), step by step on
    lists (bottom card first): every card moved one at a time off each row in turn onto an
    internal stack; that stack moved in packets onto the talon, the odd packet first; then
    the talon dealt one card at a time, four to a row from the first."""
    internal: list[int] = []
    for row in rows:
        while row:
            internal.append(row.pop())
    talon: list[int] = []
    if len(internal) % 4:
        cut = len(internal) - len(internal) % 4
        talon += internal[cut:]
        del internal[cut:]
    while internal:
        talon += internal[-4:]
        del internal[-4:]
    n = len(talon)
    deal = [4] * len(rows)
    extra, i = n - 4 * len(rows), 0
    while extra > 0:
        deal[i] += 1
        i = (i + 1) % len(rows)
        extra -= 1
    for i, row in enumerate(rows):
        for _ in range(min(deal[i], n)):
            row.append(talon.pop())
        n -= min(deal[i], n)
    return rows


def test_cruel_redeals_as_pysolfc_does():
    variant = patience.find_variant("cruel")
    chooser = random.Random(7)
    checked = 0
    for number in range(1, 30):
        game = variant.deal(number)
        for _ in range(chooser.randrange(0, 40)):  # play some cards: the piles grow uneven
            moves = [m for m in game.generate_moves() if m[0] >= 0]
            if not moves:
                break
            game.push(chooser.choice(sorted(moves)))
        rows = [list(game.piles[i]) for i in range(12)]
        if game.is_won():
            continue
        game.push("d")
        assert [list(game.piles[i]) for i in range(12)] == pysolfc_cruel_redeal(rows)
        checked += 1
    assert checked > 20


def test_a_cruel_redeal_of_untouched_columns_changes_nothing():
    game = patience.find_variant("cruel").deal(1)
    before = game.text()
    game.push("d")
    assert game.text() == before and game.can_deal()  # unlimited: again and again


def test_la_belle_lucie_deals_fans_of_three_and_one_shorter():
    variant = patience.find_variant("la-belle-lucie")
    game = variant.position(
        "c:KHQH/JH/JS/TS/9C/TC/KD/QDJDTD9D/9HTH/9S/QSKS/JCQCKC////// "
        "f:AC2C3C4C5C6C7C8C/AD2D3D4D5D6D7D8D/AH2H3H4H5H6H7H8H/AS2S3S4S5S6S7S8S s: z:5")
    before = sorted(c for i in range(18) for c in game.piles[i])
    game.push("d")
    sizes = [len(game.piles[i]) for i in range(18)]
    assert sizes == [3, 3, 3, 3, 3, 3, 2] + [0] * 11  # 20 cards: six fans of three, one of two
    assert sorted(c for i in range(18) for c in game.piles[i]) == before
    assert game.text().endswith("r:1 z:5")
    game.pop()
    assert game.text().startswith("c:KHQH/JH/JS/")


def test_a_shuffled_redeal_depends_only_on_which_cards_were_gathered():
    # the ground of the solver's sorting of the fans (docs/solver.md, reduction 5)
    variant = patience.find_variant("la-belle-lucie")
    one = variant.position("c:KHQH/JH/JS/TS/9C/TC/KD/QDJDTD9D/9HTH/9S/QSKS/JCQCKC////// "
                           "f:AC2C3C4C5C6C7C8C/AD2D3D4D5D6D7D8D/AH2H3H4H5H6H7H8H/"
                           "AS2S3S4S5S6S7S8S s: z:9")
    two = variant.position("c:JCQCKC/9S/JH/KHQH/JS/TS/9C/TC/KD/QDJDTD9D/9HTH/QSKS////// "
                           "f:AC2C3C4C5C6C7C8C/AD2D3D4D5D6D7D8D/AH2H3H4H5H6H7H8H/"
                           "AS2S3S4S5S6S7S8S s: z:9")
    one.push("d")
    two.push("d")
    assert one.text() == two.text()


def test_the_redeals_are_counted_and_then_refused():
    game = patience.find_variant("la-belle-lucie").deal(1)
    game.push("d")
    game.push("d")
    assert game.redeals_left == 0 and not game.can_deal()
    with pytest.raises(MoveError, match="the 2 redeals of stock.gather are made"):
        game.push("d")


# --- the shuffle, portable ----------------------------------------------------------------


def test_the_shuffle_is_the_one_docs_rules_md_writes_out():
    assert redeal_seed(1, 1) == next(splitmix64(1)) == 10451216379200822465
    assert redeal_seed(1, 2) == 13757245211066428519
    clubs = parse_cards("AC 2C 3C 4C 5C")
    assert [card_code(c) for c in redeal_shuffle(clubs, 1, 1)] == ["AC", "5C", "2C", "3C", "4C"]
    assert [card_code(c) for c in redeal_shuffle(clubs[::-1], 1, 2)] == \
        ["3C", "AC", "5C", "4C", "2C"]  # the order gathered does not matter


def test_the_shuffle_seed_is_the_deal_number():
    variant = patience.find_variant("la-belle-lucie")
    assert variant.deal(77).shuffle_seed == 77
    cards = [card_code(c) for c in patience.cards.numbered_deck(77)]
    assert variant.deal_cards(cards).shuffle_seed == 0  # an explicit deal: seed 0
    assert patience.find_variant("cruel").deal(77).shuffle_seed is None  # no shuffle


# --- the position text and JSON -----------------------------------------------------------


def test_positions_keep_the_redeals_made_and_the_seed():
    variant = patience.find_variant("la-belle-lucie")
    game = variant.deal(12345678901234)
    game.push("d")
    text = game.text()
    assert text.endswith(" r:1 z:12345678901234")
    assert variant.position(text).key() == game.key()
    assert variant.from_json(game.to_json()).key() == game.key()
    assert game.to_json()["shuffle_seed"] == 12345678901234
    again = variant.position(text)
    again.push("d")
    game.push("d")
    assert again.key() == game.key()  # the same second redeal from the text alone


def test_a_position_without_a_seed_has_seed_zero():
    variant = patience.find_variant("la-belle-lucie")
    text = variant.deal(3).text()
    assert variant.position(text.replace(" z:3", "")).shuffle_seed == 0


@pytest.mark.parametrize(("field", "message"), [
    ("z:-1", "z:-1 is not a shuffle seed"), ("z:18446744073709551616", "is not a shuffle seed"),
    ("z:x", "z:x is not a shuffle seed"), ("r:3", ("r:3 is not a number of redeals made from 0 "
                                                 "to 2"))])
def test_a_bad_seed_or_count_in_a_position_is_refused(field, message):
    variant = patience.find_variant("la-belle-lucie")
    text = variant.deal(3).text().replace(" r:0 z:3", "")
    with pytest.raises(PositionError, match=message):
        variant.position(f"{text} {field}")


def test_cruel_positions_have_neither_field():
    text = patience.find_variant("cruel").deal(2).text()
    assert " r:" not in text and " z:" not in text
    with pytest.raises(PositionError, match="unknown field 'z'"):
        patience.find_variant("cruel").position(text + " z:1")


# --- in words -----------------------------------------------------------------------------


def test_the_rules_say_the_redeal_in_a_players_words():
    assert ("Redeal (d, or a click on the stock): pick up all the cards of the fans, shuffle "
            "them, and deal them out again from c1, 3 cards to each pile (the last one may "
            "get fewer); twice.") in plain_rules_text(patience.find_variant("la-belle-lucie"))
    assert ("keep their order (each pile picked up from its top card down), and deal them "
            "out again from c1, 4 cards to each pile, the first of them on top (the last one "
            "may get fewer); as often as you like.") in plain_rules_text(
        patience.find_variant("cruel"))


def test_mutation_testing_changes_the_gather_too():
    from patience.testing.mutants import mutants

    changes = {(m.rule, m.change) for m in mutants(patience.find_variant("la-belle-lucie"))
               if m.rule.startswith("stock.gather")}
    assert changes == {("stock.gather.deal", "3 -> 2"), ("stock.gather.deal", "3 -> 4"),
                       ("stock.gather.redeals", "2 -> 1"), ("stock.gather.redeals", "2 -> 3"),
                       ("stock.gather.shuffle", "True -> False")}


def test_the_shuffles_to_come_are_hidden_from_the_player():
    from patience.solver import hint_from_view
    from patience.visibility import hides_cards

    game = patience.find_variant("la-belle-lucie").deal(3)
    assert hides_cards(game)  # no card face down, no stock: the next shuffles are unknown
    hint = hint_from_view(game, samples=2, max_positions=2_000)
    assert hint.samples == 2
    game.push("d")
    game.push("d")
    assert not hides_cards(game)  # no shuffle left: everything is in view
    assert not hides_cards(patience.find_variant("cruel").deal(3))  # no shuffle at all
