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

from patience.source import Mapping, Scalar, Sequence

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
    if item is None:
        return False
    if not isinstance(item, Mapping):
        report("solvitaire must be a mapping (preset: or rules_file:, deal:, …; or "
               "not_exact: the reason Solvitaire cannot play the game by these rules)", item)
        return False
    check = _SolvitaireCheck(item, groups, report)
    check.keys()
    if "not_exact" in item.items:
        check.not_exact()
    else:
        for part in (check.rules, check.deal, check.start_empty, check.left_out,
                     check.expect):
            part()
    return check.ok


class _SolvitaireCheck:
    """One ``solvitaire:`` mapping being checked: ``ok`` turns False at the first problem
    reported."""

    def __init__(self, item: Mapping, groups: dict[str, int],
                 report: Callable[[str, Item], None]) -> None:
        self.item = item
        self.groups = groups
        self.report = report
        self.ok = True

    def problem(self, message: str, where: Item) -> None:
        self.report(message, where)
        self.ok = False

    def text(self, key: str) -> str | None:
        """The text of ``key``, or None when it is absent or not text (a problem)."""
        value = self.item.items.get(key)
        if value is None:
            return None
        if not isinstance(value, Scalar) or value.tag != "str" or not value.value.strip():
            self.problem(f"solvitaire.{key} must be text", value)
            return None
        return value.value

    def group(self, value: Item, where: str, stock: bool = False) -> None:
        """``value`` must name a pile group (or, with ``stock``, the stock)."""
        name = value.value if isinstance(value, Scalar) and value.tag == "str" else None
        if name is None or (name not in self.groups and not (stock and name == "stock")):
            shown = repr(name) if name is not None else "something else"
            self.problem(f"{where} names {shown}, which is not a pile group"
                         + (" or 'stock'" if stock else "") + f"; the pile groups are "
                         f"{', '.join(self.groups)}", value)

    def keys(self) -> None:
        """Only the keys of :data:`SOLVITAIRE_KEYS`."""
        for key, value in self.item.items.items():
            if key not in SOLVITAIRE_KEYS:
                self.problem(f"unknown key {key!r} in solvitaire; its keys are "
                             f"{', '.join(SOLVITAIRE_KEYS)}", value)

    def not_exact(self) -> None:
        """The reason Solvitaire cannot play the game, and nothing else."""
        self.text("not_exact")
        others = [key for key in self.item.items if key != "not_exact"]
        if others:
            self.problem(f"solvitaire.not_exact says Solvitaire cannot play the game by these "
                         f"rules; it cannot also have {others[0]!r}",
                         self.item.items[others[0]])

    def rules(self) -> None:
        """Exactly one of a preset and a rules file, and the rules hash they were checked
        against."""
        items = self.item.items
        if ("preset" in items) == ("rules_file" in items):
            self.problem("solvitaire needs exactly one of 'preset' (a Solvitaire preset) and "
                         "'rules_file' (a file of bench/solvitaire_rules/)", self.item)
        self.text("preset")
        self.text("rules_file")
        checked = self.text("checked")
        if checked is not None and not RULES_HASH.fullmatch(checked):
            self.problem(f"solvitaire.checked must be the 16-digit rules hash of the file the "
                         f"match was checked against (patience check prints it), not "
                         f"{checked!r}", items["checked"])

    def deal(self) -> None:
        """Solvitaire's deal keys, each filled from a pile group or the stock."""
        deal = self.item.items.get("deal")
        if not isinstance(deal, Mapping) or not deal.items:
            self.problem("solvitaire needs 'deal': Solvitaire's deal keys and the pile group "
                         "(or 'stock') each is filled from, e.g. {tableau piles: columns}",
                         deal if deal is not None else self.item)
            return
        for key, value in deal.items.items():
            if key not in DEAL_KEYS:
                self.problem(f"solvitaire.deal has {key!r}, which is not a key of a "
                             f"Solvitaire deal; they are {', '.join(DEAL_KEYS)}", value)
            else:
                self.group(value, f"solvitaire.deal.{key}", stock=True)

    def start_empty(self) -> None:
        """The pile groups Solvitaire's deal starts empty."""
        empty = self.item.items.get("start_empty")
        if empty is None:
            return
        if not isinstance(empty, Sequence):
            self.problem("solvitaire.start_empty must be a list of pile groups", empty)
            return
        for value in empty.items:
            self.group(value, "solvitaire.start_empty")

    def left_out(self) -> None:
        """The pile group Solvitaire's deal leaves out."""
        if "left_out" in self.item.items:
            self.group(self.item.items["left_out"], "solvitaire.left_out")

    def expect(self) -> None:
        """Solvitaire's rule sections and the options the match rests on."""
        expect = self.item.items.get("expect")
        if expect is not None and not isinstance(expect, Mapping):
            self.problem("solvitaire.expect must map Solvitaire's rule sections to the "
                         "options the match rests on", expect)
