"""A JSON Schema for variant files, for editors and other tools.

The schema is made from the loader's own key tables (``TOP_KEYS``, ``GROUP_KEYS`` and
``STOCK_KEYS`` of ``patience.definition``) and the words of its settings
(``patience.settings``), so the keys it knows are the keys the loader knows: a key added
there appears here by itself. What each key holds is described in :data:`VALUES`; a key the
loader has and that table does not describe yet is accepted with any value (the schema is a
help while typing; ``patience check`` is the judge). The copy shipped in the package,
``patience/variant.schema.json``, is this module's output (a test keeps it so); editors that
speak the YAML language server read it from a comment at the top of a variant file::

    # yaml-language-server: $schema=../patience/variant.schema.json

>>> schema = variant_schema()
>>> schema["properties"]["piles"]["additionalProperties"]["properties"]["target"]["enum"]
['each', 'first']
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from patience.boards import PYSOL_GAMES
from patience.definition import (
    DISCARD_KEYS,
    GROUP_KEYS,
    MAX_SCORE_POINTS,
    MAX_SCORE_UNIT,
    SCORE_KEYS,
    SOLVER_KEYS,
    STOCK_KEYS,
    TOP_KEYS,
)
from patience.limits import (
    MAX_DISCARD_CARDS,
    MAX_DISCARDS,
    MAX_EXPRESSION_LENGTH,
    MAX_GROUP_PILES,
    MAX_MERCI_DRAWS,
    MAX_PARAMETERS,
    MAX_PILE_GROUPS,
    MAX_PREDICATES,
)
from patience.settings import EmptyPiles, Lands, Removal, Show, Target, words
from patience.solvitaire_mapping import DEAL_KEYS

__all__ = ["SCHEMA_FILE", "VALUES", "shipped_schema", "variant_schema"]

SCHEMA_FILE = "variant.schema.json"  # in the package, beside this module

_NAME = "^[A-Za-z_][A-Za-z0-9_]*$"
_CARD = {"type": "string", "pattern": "^[A23456789TJQKatjqk][CDHScdhs]$",
         "description": "A card code: rank A23456789TJQK and suit CDHS, e.g. 'TS'."}
_RULE = {"type": ["string", "boolean"], "maxLength": MAX_EXPRESSION_LENGTH,
         "description": "A rule expression (docs/language.md); quote it if it holds ': '."}
_TEXTS = {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
_PER_PILE = {"anyOf": [{"type": "integer", "minimum": 0, "maximum": 104},
                       {"type": "array", "items": {"type": "integer", "minimum": 0,
                                                   "maximum": 104}}]}


def _rule(description: str) -> dict[str, Any]:
    return {**_RULE, "description": f"{description} A rule expression (docs/language.md)."}


def _choice(kind: type, description: str) -> dict[str, Any]:
    choices = list(words(kind))
    return {"enum": choices, "default": choices[0],
            "description": f"{description} One of {', '.join(choices)}."}


#: What each key holds, by section ("" for the top level, "group", "stock"), as JSON Schema.
VALUES: dict[str, dict[str, dict[str, Any]]] = {
    "": {
        "id": {"type": "string", "description": "The variant's name on the command line."},
        "name": {"type": "string", "description": "The name shown to players."},
        "family": {"type": "string", "description": "The family it is listed under."},
        "aliases": {**_TEXTS, "description": "Other names for the variant."},
        "description": {"type": "string", "description": (
            "One line: what the game is. The lint reads claims from it.")},
        "sources": {**_TEXTS, "description": "Where the rules come from."},
        "extends": {"type": "string", "description": (
            "A shipped variant or a .yaml file whose keys this file overrides.")},
        "decks": {"type": "integer", "minimum": 1, "maximum": 8, "default": 1,
                  "description": "How many decks are shuffled together."},
        "ranks": {"type": "integer", "minimum": 1, "maximum": 13, "default": 13,
                  "description": "Ranks per suit, from the Ace up."},
        "suits": {"anyOf": [{"type": "string"}, {"type": "array", "items": {
            "enum": ["C", "D", "H", "S"]}}], "description": "The suits of each deck."},
        "parameters": {"type": "object", "maxProperties": MAX_PARAMETERS,
                       "propertyNames": {"pattern": _NAME},
                       "additionalProperties": {"type": ["integer", "boolean"]},
                       "description": "Named constants the rules may use."},
        "predicates": {"type": "object", "maxProperties": MAX_PREDICATES,
                       "additionalProperties": _rule("The predicate's body."),
                       "description": "Named conditions: 'name(a, b: type): expression'."},
        "piles": {"type": "object", "minProperties": 1, "maxProperties": MAX_PILE_GROUPS,
                  "propertyNames": {"pattern": _NAME},
                  "description": "The pile groups, in order."},
        "stock": {"type": "object", "description": "What a deal from the stock does."},
        "discards": {"type": "array", "maxItems": MAX_DISCARDS, "description": (
            "Moves that take the top cards of several piles at once."), "items": {
            "type": "object", "additionalProperties": False, "required": list(DISCARD_KEYS),
            "properties": {
                "cards": {"type": "integer", "minimum": 2, "maximum": MAX_DISCARD_CARDS,
                          "description": "How many piles give their top card."},
                "from": {**_TEXTS, "description": "The pile groups the cards come from."},
                "to": {"type": "string", "description": "The group of one pile they go to."},
                "when": _rule("When the chosen piles (first, second, ...) may discard.")}}},
        "win": _rule("When the game is won."),
        "solver": {"type": "object", "description": (
            "What the author tells the solver (not rules of play): see docs/solver.md.")},
        "score": {"type": "object", "description": (
            "The score the player is shown (not rules of play): docs/authoring.md.")},
        "pysolfc": {
            "type": "object", "additionalProperties": False,
            "description": ("How pysol-cards' board of the game lies on the piles: ms:N and "
                            "pysolfc:N deals, boards in Freecell Solver's format "
                            "(docs/authoring.md)."),
            "properties": {
                "game": {"enum": list(PYSOL_GAMES), "description": "pysol-cards' game id."},
                "columns": {"type": "string", "description": "The group of the columns."},
                "freecells": {"type": "string", "description": "The group of the cells."},
                "foundations": {"type": "string", "description": (
                    "The foundations, one suit per pile (Freecell Solver's H-5).")},
                "foundation": {"type": "string", "description": (
                    "One foundation pile written by its top card (black-hole-solver's).")},
                "talon": {"const": "stock", "description": "The talon is the stock."},
            }},
        "solvitaire": {
            "type": "object", "additionalProperties": False,
            "description": ("How Solvitaire's deal of the game is made from the piles, or why "
                            "Solvitaire cannot play it (docs/authoring.md); not inherited."),
            "properties": {
                "preset": {"type": "string", "description": "A Solvitaire preset."},
                "rules_file": {"type": "string", "description": (
                    "A rules file of bench/solvitaire_rules/.")},
                "deal": {"type": "object", "propertyNames": {"enum": list(DEAL_KEYS)},
                         "additionalProperties": {"type": "string"}, "description": (
                             "Solvitaire's deal keys and the pile group (or stock) of each.")},
                "start_empty": {"type": "array", "items": {"type": "string"}, "description": (
                    "Groups that must be empty at the start.")},
                "left_out": {"type": "string", "description": (
                    "A group of four Aces that Solvitaire places itself.")},
                "expect": {"type": "object", "description": (
                    "Solvitaire's options the match rests on (checked by the bench).")},
                "checked": {"type": "string", "pattern": "^[0-9a-f]{16}$", "description": (
                    "The rules hash the match was checked against.")},
                "not_exact": {"type": "string", "description": (
                    "Why Solvitaire cannot play the game by these rules.")},
            }},
    },
    "group": {
        "id": {"type": "string", "pattern": "^[a-z]+$", "not": {"enum": ["d", "s"]},
               "description": "The letters that name its piles in moves (c1, c2, …)."},
        "count": {"type": "integer", "minimum": 1, "maximum": MAX_GROUP_PILES,
                  "description": "How many piles the group has."},
        "deal": {**_PER_PILE, "description": "Cards dealt to each pile (one number, or one "
                                             "per pile)."},
        "face_down": {"anyOf": [*_PER_PILE["anyOf"], {"const": "covered"}],
                      "description": "Of each pile's dealt cards, how many lie face down (all "
                                     "of them only where no card leaves by a move); or "
                                     "covered (an overlap layout): the cards of a pile "
                                     "covered at the start, until nothing covers it."},
        "place": {"type": "array", "items": {"anyOf": [_CARD, {"type": "array",
                                                               "items": _CARD}]},
                  "description": "Cards put on each pile before the deal, bottom first."},
        "to_bottom": _rule("Dealt cards for which it holds go under the others."),
        "deal_first": _rule("Cards (card, given first_card, the first card of the shuffled "
                            "deck) that lead the deal; this group is dealt from them first."),
        "fill_from": {"type": "string", "description": (
            "A group, a pile or 'stock' that fills an empty pile here at once; 'last': the "
            "next face-down card of the pile the last card went to, turned up.")},
        "fill_when": _rule("The fills (fill_from) are made only while it holds (a rule on "
                           "the table, as stock.deal_when)."),
        "moves": _rule("Which runs may leave a pile of the group."),
        "accepts": _rule("Which runs a pile of the group takes."),
        "target": _choice(Target, "How a move names the receiving pile."),
        "removal": _choice(Removal, "Whether moves here are the player's choice or made at "
                                    "once."),
        "show": _choice(Show, "How the piles are drawn."),
        "lands": _choice(Lands, "Where a move's cards land: on a pile's cards, or under "
                                "them."),
        "merci": {"type": "integer", "minimum": 1, "maximum": MAX_MERCI_DRAWS,
                  "description": ("N times a game the card just under the top card of a pile "
                                  "here may be drawn out and played alone to a pile that "
                                  "takes it, the top card staying (written c3:^-c7).")},
        "close_gaps": {"anyOf": [{"type": "boolean"}, {"const": "deal"}], "default": False,
                       "description": (
            "After a move (true) or when the player deals (deal) its non-empty piles slide "
            "toward its start, the gaps at the end.")},
        "layout": {"type": "object", "additionalProperties": False,
                   "description": ("Where its piles stand: rows and columns of a grid "
                                   "(numbered row by row), or overlap: rows of x positions "
                                   "in half-card units, back row first (a pile is covered "
                                   "by the next row's piles within 1). Without it: one row. "
                                   "Drawn only, read by the rules as one row: ring (its "
                                   "piles round a circle like the hours of a clock) with "
                                   "start, or centre (the middle of another group's ring)."),
                   "properties": {
                       "rows": {"type": "integer", "minimum": 1, "maximum": MAX_GROUP_PILES},
                       "columns": {"type": "integer", "minimum": 1,
                                   "maximum": MAX_GROUP_PILES},
                       "overlap": {"type": "array", "minItems": 1, "items": {
                           "type": "array", "minItems": 1, "items": {
                               "type": "integer", "minimum": 0,
                               "maximum": 4 * MAX_GROUP_PILES}}},
                       "ring": {"type": "integer", "minimum": 3, "maximum": MAX_GROUP_PILES,
                                "description": (
                           "The places round the circle (the group's count), the last at "
                           "the top, like the hours of a clock.")},
                       "start": {"type": "integer", "minimum": 1, "maximum": MAX_GROUP_PILES,
                                 "default": 1, "description": (
                           "The place of the ring's first pile; the others follow "
                           "clockwise.")},
                       "centre": {"type": "string", "description": (
                           "The group in a ring whose middle this group stands in.")}}},
    },
    "stock": {
        "deals_to": {**_TEXTS, "description": "The groups or piles a deal feeds, in order."},
        "turn": {"type": "integer", "minimum": 1, "maximum": 104, "default": 1,
                 "description": "Cards each target receives per deal."},
        "redeals": {"anyOf": [{"type": "integer", "minimum": 0, "maximum": 1000},
                              {"const": "unlimited"}], "default": 0,
                    "description": "Times the waste may turn back into the stock."},
        "empty_piles": _choice(EmptyPiles, "Whether a deal puts cards on empty piles."),
        "deal_when": _rule("When the stock may be dealt."),
        "top": {"type": "string", "description": (
            "A group of one pile on which the stock's top card lies face up, in play: "
            "refilled from the stock at once, dealt first.")},
        "gather": {
            "type": "object", "additionalProperties": False,
            "required": ["from", "deal", "redeals"],
            "description": "A redeal ('d' on the empty stock) that gathers the cards of piles "
                           "and deals them again: docs/authoring.md, \"Redeals that gather "
                           "the tableau\".",
            "properties": {
                "from": {**_TEXTS, "description": "The groups or piles gathered, in order; "
                                                  "dealt again in the same order."},
                "shuffle": {"type": "boolean", "default": False,
                            "description": "Shuffle the gathered cards (by the deal number: "
                                           "docs/rules.md, \"Shuffles during play\")."},
                "deal": {"type": "integer", "minimum": 1, "maximum": 104,
                         "description": "Cards each pile receives."},
                "redeals": {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 1000},
                                      {"const": "unlimited"}],
                            "description": "How many times (a shuffle needs a number)."},
                "keep": _rule("A rule on pile, read in gathering order (a pile gathered "
                              "before reads as empty): the piles it holds for keep their "
                              "cards: docs/authoring.md, \"Redeals that keep some cards\"."),
                "gaps": {"anyOf": [
                    _rule("A rule on pile, read once the cards are gathered: the gathered "
                          "piles it holds for are left empty by the deal."),
                    {"type": "integer", "minimum": 1, "maximum": MAX_GROUP_PILES,
                     "description": "That many gaps shuffled in among the gathered cards "
                                    "(shuffle: true, deal: 1)."}]},
            },
        },
    },
    "score": {
        "start": {"type": "integer", "minimum": -MAX_SCORE_POINTS, "maximum": MAX_SCORE_POINTS,
                  "default": 0, "description": "Points at the deal."},
        "home": {"type": "integer", "minimum": -MAX_SCORE_POINTS, "maximum": MAX_SCORE_POINTS,
                 "default": 0, "description": "Points for each card home (lost again when "
                                              "it leaves)."},
        "unit": {"type": "string", "maxLength": MAX_SCORE_UNIT, "default": "",
                 "description": "Written before the number, e.g. '$'."},
    },
    "solver": {
        "safe": _rule("Moves safe to play at once (an accepts rule's names: pile, source, "
                      "run); the battery checks the claim."),
    },
}

_ANY = {"description": "See docs/authoring.md."}  # a key this table does not describe yet


def _section(keys: tuple[str, ...], values: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False,
            "properties": {key: dict(values.get(key, _ANY)) for key in keys}}


def variant_schema() -> dict[str, Any]:
    """The JSON Schema (draft 7) of a variant file, made from the loader's key tables."""
    top = _section(TOP_KEYS, VALUES[""])
    group = _section(GROUP_KEYS, VALUES["group"])
    if "piles" in top["properties"]:
        top["properties"]["piles"]["additionalProperties"] = group
    if "stock" in top["properties"]:
        top["properties"]["stock"].update(_section(STOCK_KEYS, VALUES["stock"]))
    if "solver" in top["properties"]:
        top["properties"]["solver"].update(_section(SOLVER_KEYS, VALUES["solver"]))
    if "score" in top["properties"]:
        top["properties"]["score"].update(_section(SCORE_KEYS, VALUES["score"]))
    required = [key for key in ("id", "name", "description", "piles", "win") if key in TOP_KEYS]
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "patience variant file",
        "description": "A patience (solitaire) game whose rules are data: docs/authoring.md.",
        **top,
        # a file that extends another inherits everything but its id, and may change a pile
        # group's keys one by one
        "if": {"required": ["extends"]},
        "then": {"required": ["id"]},
        "else": {"required": required, "properties": {"piles": {"additionalProperties": {
            "required": [key for key in ("id", "count") if key in GROUP_KEYS]}}}},
    }


def schema_text() -> str:
    """The schema as the shipped file holds it."""
    return json.dumps(variant_schema(), indent=2, ensure_ascii=False) + "\n"


def shipped_schema() -> str:
    """The text of the schema file shipped in the package."""
    return resources.files("patience").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
