"""Every walker over the rule AST is a ``language.Visitor`` and handles every node class.

A walker says, for each node class of the language, what it does with it: a
``visit_<ClassName>`` method, or the class named in its ``generic`` set (walked through its
parts, or never reaching it). A node class added to ``patience/language.py`` fails
:func:`test_each_walker_handles_every_node_class` by the walker's name until each walker
says what it does with the new class, rather than failing a user's file at run time.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import attrs
import pytest

import patience
from patience.language import Node, Visitor, children, node_classes, parse_expression

#: every walker over the rule AST, by module and class: a new walker is added here (the
#: last test below finds any Visitor subclass missing from this list)
WALKERS = {
    "patience.language": ["Checker", "_ConstantValues", "_Sizes", "_Guards"],
    "patience.compiler": ["Compiler", "InlinedShapes", "_Inlining", "_Renaming"],
    "patience.native.program": ["_Lowering"],
    "patience.explain": ["Interpreter", "_Reasons"],
    "patience.safe_derivation": ["_Values"],
    "patience.plainrules": ["Words", "_Nouns"],
    "patience.refusal": ["_Blame"],
    "patience.solver.rules": ["_PileReads"],
}

NODE_CLASSES = ["Integer", "Boolean", "Name", "Attribute", "Call", "Not", "Negate",
                "Arithmetic", "Compare", "BoolOp", "Member", "Quantifier", "Pairs", "Count",
                "Neighbour"]


def walker_classes() -> list[type[Visitor[object]]]:
    return [getattr(importlib.import_module(module), name)
            for module, names in WALKERS.items() for name in names]


def all_visitor_subclasses() -> set[type]:
    found: set[type] = set()
    pending: list[type] = [Visitor]
    while pending:
        for subclass in pending.pop().__subclasses__():
            if subclass not in found:
                found.add(subclass)
                pending.append(subclass)
    return found


def test_the_language_has_the_node_classes_listed() -> None:
    """``node_classes`` finds every node class (a new one shows up here first)."""
    assert sorted(c.__name__ for c in node_classes()) == sorted(NODE_CLASSES)


@pytest.mark.parametrize("walker", walker_classes(), ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_each_walker_handles_every_node_class(walker: type[Visitor[object]]) -> None:
    assert issubclass(walker, Visitor), f"{walker.__name__} is not a language.Visitor"
    missing = walker.missing()
    assert not missing, (f"{walker.__module__}.{walker.__name__} says nothing about "
                         f"{', '.join(missing)}: give it a visit_<ClassName> method, or name "
                         "the class in its 'generic' set")


def test_a_new_node_class_fails_each_walker_by_name() -> None:
    @attrs.frozen
    class Modulo:  # stands in for a node class added to the language (not a Node, so
        span: tuple[int, int]  # that it stays out of node_classes() for the other tests)

    for walker in walker_classes():
        assert walker.missing([*node_classes(), Modulo]) == ["Modulo"], walker.__name__


def test_a_visit_method_for_no_node_class_fails_at_once() -> None:
    with pytest.raises(TypeError, match=r"Misspelt names Intger, Pair, which the rule "
                                        r"language has no node class for"):
        class Misspelt(Visitor[int]):
            generic = frozenset({"Pair"})

            def visit_Intger(self, node: Node) -> int:
                return 0


def test_dispatch_by_class_and_generic_visit() -> None:
    class Depth(Visitor[int]):
        generic = frozenset(name for name in NODE_CLASSES if name != "Integer")

        def generic_visit(self, node: Node, *args: object) -> int:
            return 1 + max((self.visit(child) for child in children(node)), default=0)

        def visit_Integer(self, node: Node) -> int:
            return 100

    assert Depth().visit(parse_expression("1 + 2 == 3")) == 102
    assert Depth().visit(parse_expression("true")) == 1

    class Strict(Visitor[int]):
        generic = frozenset(NODE_CLASSES)

    with pytest.raises(TypeError, match="Strict cannot visit Boolean"):
        Strict().visit(parse_expression("true"))


def test_every_visitor_subclass_is_listed() -> None:
    """Import the modules that read rules; any Visitor subclass there must be in WALKERS."""
    skip = ("patience.web", "patience.play", "patience.studies", "patience.cli",
            "patience.__main__", "patience.pytest_plugin")
    for module in pkgutil.walk_packages([str(Path(patience.__file__).parent)], "patience."):
        if not module.name.startswith(skip):
            importlib.import_module(module.name)
    listed = {f"{module}.{name}" for module, names in WALKERS.items() for name in names}
    found = {f"{c.__module__}.{c.__qualname__}" for c in all_visitor_subclasses()
             if c.__module__.startswith("patience.")}
    assert found - listed == set(), "add these walkers to WALKERS in tests/test_walkers.py"


def test_no_walker_dispatches_on_its_own() -> None:
    """The dispatch on a node's class name lives in language.Visitor only."""
    root = Path(patience.__file__).parent
    own = [str(path.relative_to(root)) for path in root.rglob("*.py")
           if path.name != "language.py" and "type(node).__name__" in path.read_text("utf-8")]
    assert own == []
