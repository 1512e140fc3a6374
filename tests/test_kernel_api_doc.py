"""docs/kernel-api.md, held to the code so that it cannot drift.

Every name the page shows in backticks under "Variant" and "Game" is an attribute of a
compiled variant or of a game; a call shown as ``name(a, b)`` names the parameters the
function really takes, in order; the ``Group(...)`` field list is the class's fields.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import attrs
import pytest

import patience
import patience.boards
import patience.seeds
from patience.variant import Group

PAGE = Path(__file__).parent.parent / "docs" / "kernel-api.md"
_SPAN = re.compile(r"`([^`]+)`")
_NAME = re.compile(r"^[a-z_][a-z0-9_]*$")
_CALL = re.compile(r"^([a-z_][a-z0-9_]*)\(([^()]*)\)(?:\s*->.*)?$")
#: words the page shows in backticks that are values or notation, not attributes
VALUES = {"each", "first", "optional", "forced", "int", "range", "c3", "f"}


def section(title: str) -> str:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else None]


def shown(title: str) -> list[str]:
    """Each comma-separated piece of each backticked span of the section."""
    pieces = []
    for span in _SPAN.findall(section(title)):
        depth, piece = 0, ""
        for char in span:  # split on commas outside parentheses
            depth += (char == "(") - (char == ")")
            if char == "," and depth == 0:
                pieces.append(piece.strip())
                piece = ""
            else:
                piece += char
        pieces.append(piece.strip())
    return [piece for piece in pieces if piece]


def parameters(text: str) -> list[str]:
    names = []
    for argument in filter(None, (a.strip() for a in text.split(","))):
        name = re.split(r"[:=]", argument)[0].strip().lstrip("*")
        if not _NAME.match(name):
            return []  # an example call with values, not a signature
        names.append(name)
    return names


def check(owners: list[object], pieces: list[str]) -> list[str]:
    """What is wrong with ``pieces``, each an attribute of the first of ``owners`` that has
    it (the page mentions a group's fields and the modules' functions beside a variant's)."""
    wrong = []
    for piece in pieces:
        call = _CALL.match(piece)
        name = call.group(1) if call else piece if _NAME.match(piece) else None
        if name is None or name in VALUES or name == "Group":
            continue
        owner = next((o for o in owners if hasattr(o, name)), None)
        if owner is None:
            wrong.append(f"{piece!r}: no attribute {name!r}")
            continue
        if not call:
            continue
        function = getattr(owner, name)
        try:
            signature = inspect.signature(function).parameters.values()
        except (TypeError, ValueError):
            continue
        real = [p.name for p in signature]
        required = [p for p in signature if p.default is p.empty
                    and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        said = parameters(call.group(2))
        if said and (said != real[:len(said)] or len(said) < len(required)):
            wrong.append(f"{piece!r}: the function takes ({', '.join(real)})")
    return wrong


def test_the_variant_section_names_what_a_variant_has():
    variant = patience.find_variant("canfield")  # forced fills: first_forced is a function
    assert check([variant, variant.groups[0], patience.seeds, patience.boards],
                 shown("Variant")) == []


def test_the_game_section_names_what_a_game_has():
    game = patience.find_variant("klondike").deal(1)
    assert check([game, game.variant], shown("Game")) == []


def test_the_group_fields_are_the_class_fields():
    listed = re.search(r"`Group\(([^`]*)\)`", section("Variant").replace("\n", " "))
    assert listed is not None
    said = [re.split(r"[:=]", f)[0].strip() for f in listed.group(1).split(",")]
    assert said == [field.name for field in attrs.fields(Group)]


@pytest.mark.parametrize("piece, wrong", [
    ("first_forced(piles)", True),  # the page once said this: the function takes stock too
    ("first_forced(piles, stock)", False),
    ("no_such_thing", True),
])
def test_the_check_can_fail(piece, wrong):
    assert bool(check([patience.find_variant("canfield")], [piece])) is wrong
