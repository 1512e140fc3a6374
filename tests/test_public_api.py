"""The public names of ``patience``: one list (``_WHERE``), the type checkers' imports agree
with it, ``__all__`` is exactly what is exported, and every name imports."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import patience

INIT = Path(patience.__file__)


def type_checking_imports() -> dict[str, str]:
    """name -> module of each import inside ``if TYPE_CHECKING:`` in patience/__init__.py;
    every one must be written ``from MODULE import NAME as NAME`` (an explicit re-export)."""
    tree = ast.parse(INIT.read_text(encoding="utf-8"))
    blocks = [node for node in tree.body if isinstance(node, ast.If)
              and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"]
    assert len(blocks) == 1
    found: dict[str, str] = {}
    for statement in blocks[0].body:
        assert isinstance(statement, ast.ImportFrom), ast.dump(statement)
        for alias in statement.names:
            assert alias.asname == alias.name, f"write '{alias.name} as {alias.name}'"
            assert alias.name not in found, f"{alias.name} imported twice"
            assert statement.module is not None
            found[alias.name] = statement.module
    return found


def test_the_type_checking_imports_are_the_public_names():
    assert type_checking_imports() == patience._WHERE


def test_all_is_the_public_names_once_each():
    assert sorted(patience.__all__) == sorted(patience._WHERE)
    assert len(set(patience.__all__)) == len(patience.__all__)


@pytest.mark.parametrize("name", patience.__all__)
def test_each_public_name_imports_from_its_module(name):
    module = importlib.import_module(patience._WHERE[name])
    assert getattr(patience, name) is getattr(module, name)
    assert name in dir(patience)


def test_star_import_gives_exactly_all():
    namespace: dict[str, object] = {}
    exec("from patience import *", namespace)  # noqa: S102 - a fixed statement, no input
    assert sorted(set(namespace) - {"__builtins__"}) == sorted(patience.__all__)


def test_nothing_else_public_is_defined_in_the_package_module():
    # besides the public names, __init__.py defines only its own machinery
    tree = ast.parse(INIT.read_text(encoding="utf-8"))
    defined = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, ast.Assign):
            defined.update(t.id for t in node.targets if isinstance(t, ast.Name))
    public = {name for name in defined if not name.startswith("_")}
    assert public <= set(patience.__all__)


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="'nosuchname'"):
        _ = patience.nosuchname  # type: ignore[attr-defined]


def test_importing_the_package_loads_no_kernel():
    code = ("import sys, patience; "
            "print(sorted(m for m in sys.modules if m.startswith('patience')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["['patience']"]


def test_importing_a_submodule_keeps_the_public_name_of_the_same_name():
    # 'perft' is a public function and the submodule defining it; importing the submodule
    # first (as the command line does) must not turn patience.perft into a module
    code = ("import patience; from patience.perft import divide; import patience.perft; "
            "print(type(patience.perft).__name__, patience.perft is divide.__globals__['perft'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["function", "True"]
