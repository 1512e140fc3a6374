"""A variant file's ``solvitaire:`` key, read and checked when the file loads.

It says how the game's starting position becomes a deal of Solvitaire (the C++ solver of
Charlie Blake and Ian Gent), which plays it by exactly our rules with one of its presets or
a rules file of ``bench/solvitaire_rules/`` — or, with ``not_exact``, why Solvitaire cannot
(docs/authoring.md, "`solvitaire`: Solvitaire's deal of this game"). ``patience
solvitaire`` and ``bench/solvitaire.py`` read it from the variant (``patience.solvitaire``
turns a position into the deal). Each file declares its own: the key is not inherited
through ``extends``, since the claim is about this file's rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from patience.source import Item

__all__ = ["DEAL_KEYS", "SOLVITAIRE_KEYS", "read_solvitaire"]

#: the keys of ``solvitaire:``
SOLVITAIRE_KEYS = ("preset", "rules_file", "deal", "start_empty", "left_out", "expect",
                   "checked", "not_exact")
#: the keys of a Solvitaire deal file that ``deal:`` may fill from our piles
DEAL_KEYS = ("tableau piles", "hole", "reserve", "waste", "foundations", "stock")
RULES_HASH = re.compile(r"[0-9a-f]{16}")


def read_solvitaire(item: Item | None, groups: dict[str, int],
                    report: Callable[[str, Item], None]) -> bool:
    """Check the ``solvitaire:`` mapping of a variant file against its pile groups (name →
    number of piles); each problem is reported with ``report(message, item)``. True when
    there is a mapping and it is sound (the definition keeps it as plain data)."""
    from patience.source import Mapping, Scalar, Sequence

    if item is None:
        return False
    if not isinstance(item, Mapping):
        report("solvitaire must be a mapping (preset: or rules_file:, deal:, …; or "
               "not_exact: the reason Solvitaire cannot play the game by these rules)", item)
        return False
    ok = True

    def text(key: str) -> str | None:
        nonlocal ok
        value = item.items.get(key)
        if value is None:
            return None
        if not isinstance(value, Scalar) or value.tag != "str" or not value.value.strip():
            report(f"solvitaire.{key} must be text", value)
            ok = False
            return None
        return value.value

    def group(value: Item, where: str, stock: bool = False) -> None:
        nonlocal ok
        name = value.value if isinstance(value, Scalar) and value.tag == "str" else None
        if name is None or (name not in groups and not (stock and name == "stock")):
            shown = repr(name) if name is not None else "something else"
            report(f"{where} names {shown}, which is not a pile group"
                   + (" or 'stock'" if stock else "") + f"; the pile groups are "
                   f"{', '.join(groups)}", value)
            ok = False

    for key, value in item.items.items():
        if key not in SOLVITAIRE_KEYS:
            report(f"unknown key {key!r} in solvitaire; its keys are "
                   f"{', '.join(SOLVITAIRE_KEYS)}", value)
            ok = False
    if "not_exact" in item.items:
        text("not_exact")
        others = [key for key in item.items if key != "not_exact"]
        if others:
            report(f"solvitaire.not_exact says Solvitaire cannot play the game by these "
                   f"rules; it cannot also have {others[0]!r}", item.items[others[0]])
            ok = False
        return ok
    if ("preset" in item.items) == ("rules_file" in item.items):
        report("solvitaire needs exactly one of 'preset' (a Solvitaire preset) and "
               "'rules_file' (a file of bench/solvitaire_rules/)", item)
        ok = False
    text("preset")
    text("rules_file")
    checked = text("checked")
    if checked is not None and not RULES_HASH.fullmatch(checked):
        report(f"solvitaire.checked must be the 16-digit rules hash of the file the match was "
               f"checked against (patience check prints it), not {checked!r}",
               item.items["checked"])
        ok = False
    deal = item.items.get("deal")
    if not isinstance(deal, Mapping) or not deal.items:
        report("solvitaire needs 'deal': Solvitaire's deal keys and the pile group (or "
               "'stock') each is filled from, e.g. {tableau piles: columns}",
               deal if deal is not None else item)
        ok = False
    else:
        for key, value in deal.items.items():
            if key not in DEAL_KEYS:
                report(f"solvitaire.deal has {key!r}, which is not a key of a Solvitaire "
                       f"deal; they are {', '.join(DEAL_KEYS)}", value)
                ok = False
            else:
                group(value, f"solvitaire.deal.{key}", stock=True)
    empty = item.items.get("start_empty")
    if empty is not None:
        if not isinstance(empty, Sequence):
            report("solvitaire.start_empty must be a list of pile groups", empty)
            ok = False
        else:
            for value in empty.items:
                group(value, "solvitaire.start_empty")
    if "left_out" in item.items:
        group(item.items["left_out"], "solvitaire.left_out")
    expect = item.items.get("expect")
    if expect is not None and not isinstance(expect, Mapping):
        report("solvitaire.expect must map Solvitaire's rule sections to the options the "
               "match rests on", expect)
        ok = False
    return ok
