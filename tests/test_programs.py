"""Golden rule programs, one per shipped variant (tests/programs/<variant>.json).

The rule program is the variant's rule plan serialised for the native core
(``patience.native.program``, typed in ``patience.native.wire`` and its twin
``native/src/wire.rs``). Every change to the plan or to the wire format shows here as a
reviewed diff of these files. The layout keeps a diff readable: one field per line, each
list of groups, sources, pairings and tables one item per line, expressions on one line.

Regenerate them (after a deliberate change to the plan, never to make a test pass):
``python tests/test_programs.py --regenerate``; then read ``git diff tests/programs``.

The core itself is tested against the wire: a program that does not fit it (an unknown
field, a wrong type, a number out of range) is refused with a ``ValueError``, never a panic.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import patience
from patience.native.program import rule_program_text

GOLDEN = Path(__file__).parent / "programs"
WIDTH = 96  # a value whose JSON is shorter than this stays on one line


def layout(value: Any, depth: int = 0) -> str:
    """JSON text, one field or item per line down to values that fit on a line (and
    expressions, which are lists starting with a name, always on one line)."""
    compact = json.dumps(value, separators=(",", ":"))
    expression = isinstance(value, list) and value and isinstance(value[0], str)
    if len(compact) <= WIDTH or expression or not isinstance(value, (dict, list)) \
            or not value:
        return compact
    pad = " " * (depth + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {layout(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * depth + "}"
    items = [pad + layout(v, depth + 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * depth + "]"


def program_layout(name: str) -> str:
    return layout(json.loads(rule_program_text(patience.find_variant(name)))) + "\n"


def test_there_is_a_golden_program_per_shipped_variant():
    assert sorted(p.stem for p in GOLDEN.glob("*.json")) == sorted(patience.shipped_variants())


@pytest.mark.parametrize("name", patience.shipped_variants())
def test_the_rule_program_is_the_golden_one(name):
    golden = (GOLDEN / f"{name}.json").read_text(encoding="utf-8")
    assert program_layout(name) == golden, (
        f"the rule program of {name} changed: if on purpose, run "
        "'python tests/test_programs.py --regenerate' and review the diff")


def test_the_layout_is_the_program():
    text = rule_program_text(patience.find_variant("klondike"))
    assert json.loads(program_layout("klondike")) == json.loads(text)


# -- the core against the wire --

native = pytest.importorskip("patience.native")


def _core_of(program: dict[str, Any]) -> Any:
    return native._core.Core(json.dumps(program))


@pytest.fixture
def program() -> dict[str, Any]:
    if not native.AVAILABLE:
        pytest.skip(f"{native.REASON}")
    return json.loads(rule_program_text(patience.find_variant("canfield")))  # type: ignore[no-any-return]


def test_the_core_reads_the_program(program):
    assert _core_of(program).id == "canfield"


@pytest.mark.parametrize("change, message", [
    (lambda p: p.update(extra=1), "unknown field `extra`"),
    (lambda p: p["groups"][0].update(colour="red"), "unknown field `colour`"),
    (lambda p: p.update(piles=-1), "invalid value: integer `-1`"),
    (lambda p: p.update(piles="9"), "invalid type: string"),
    (lambda p: p.update(piles=2**70), "bad rule program"),
    (lambda p: p.pop("fills"), "missing field `fills`"),
    (lambda p: p.update(piles=251), "pile count 251"),
    (lambda p: p["groups"][0].update(stop=10**6), "group"),
    (lambda p: p["fills"][0].update(sources=[3, 1]), "fill of piles"),
    (lambda p: p["key"].update(card_table=[0] * 255), "card table of 255 entries"),
    (lambda p: p["key"].update(card_table=[256] * 256), "invalid value: integer `256`"),
    (lambda p: p["sources"].pop(), "one plan per group"),
    (lambda p: p["tables"][0].update(shape=[1, 2, 3]), "shape"),
    (lambda p: p["tables"][0].update(bits="1"), "size"),
    (lambda p: p["sources"][0]["pairings"][0].update(target=99), "target group"),
    (lambda p: p.update(win=["pile", 10**6]), "bad rule program"),
    (lambda p: p.update(win=["int"]), "too few"),
    (lambda p: p.update(deal_targets=[10**6]), "deal target out of range"),
    (lambda p: p.update(guided={"runs": [], "homes": [], "covered": [10**6], "built": [],
                                "narrow": [], "keyed_when_reached": False}),
     "guided covered pile 1000000 out of range"),
    (lambda p: p.update(guided={"runs": [], "homes": [], "covered": [], "built": [],
                                "narrow": [10**6], "keyed_when_reached": False}),
     "guided narrow pile 1000000 out of range"),
    (lambda p: p["ordering"].update(pass_merge=[0, 0]), "pass merge"),
    (lambda p: p["search"]["guided"].update(depth_weights=[1, 2, 3]),
     "3 guided searches: the store marks at most 2"),
    (lambda p: p.update(version=5), "rebuild the native core"),
    (lambda p: p["cards"].update(face_down=128), "card encoding"),
    (lambda p: p["cards"].update(red_suits=[0, 3]), "card encoding"),
    (lambda p: p["cards"].update(blank=0x3F), "card encoding"),  # a real card as the blank
], ids=lambda v: v if isinstance(v, str) else "")
def test_the_core_refuses_a_program_that_does_not_fit_the_wire(program, change, message):
    change(program)
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace("[", r"\[")):
        _core_of(program)


def regenerate() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name in patience.shipped_variants():
        (GOLDEN / f"{name}.json").write_text(program_layout(name), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--regenerate"]:
        regenerate()
    else:
        print(__doc__)
