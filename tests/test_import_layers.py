"""The package's modules form layers, and every import goes down (or across, without a
cycle): no module needs a function-level import to hide a cycle (issue #30).

The layers, lowest first (a module may import from its own layer and the ones before):

1. foundations: errors, limits and the checks of numbers (arguments), the distribution's
   name, settings, cards, moves, places (where piles stand) and the search's numbers;
2. files: reading YAML with positions (source), boards, Solvitaire's mapping
   (solvitaire_mapping), deal numbers (seeds);
3. the rule language: its parser, checker and compiler;
4. the definition: a file read, checked and merged (definition, schema), and kept on disk
   (defcache);
5. the rule plan (plan) and what is derived from it alone (safe_derivation);
6. code and words from the plan: the generated Python (generator), the interpreter that
   explains refusals (explain), the rules in words (rulestext, plainrules, refusal) and
   what a player may see of a position (visibility);
7. the game: the kernel (game, which is handed a Variant and imports none), perft,
   notation;
8. the variant: a definition compiled, with the games it deals (variant);
9. the engines: the rule program for the native core (native) and the solver;
10. players, the battery, studies and tools (play, testing, studies, rulediff, solvitaire,
    the pytest plugin);
11. the CLI and the web server, and the package's lazy front door.

Imports inside functions count too (they stay for start-up time, never to dodge a cycle);
imports under ``if TYPE_CHECKING:`` do not.
"""

from __future__ import annotations

import ast
from pathlib import Path

import patience

LAYERS = [
    ["errors", "limits", "arguments", "distribution", "settings", "terminal", "pysource",
     "cards", "moves", "places",
     "solver.constants"],
    ["source", "boards", "solvitaire_mapping", "seeds"],
    ["_rules_parser", "language", "compiler"],
    ["definition", "schema", "defcache"],
    ["plan", "safe_derivation"],
    ["generator", "explain", "rulestext", "plainrules", "refusal", "visibility"],
    ["game", "perft", "standard_notation"],
    ["variant"],
    ["native", "solver"],
    ["play", "testing", "studies", "rulediff", "solvitaire", "pytest_plugin"],
    ["cli", "web", "__main__", ""],
]

ROOT = Path(patience.__file__).parent


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path  # "" is the package itself
    return found


def layer_of(module: str) -> int:
    """The layer of a module: that of the longest entry naming it or a package above it."""
    best = None
    for number, entries in enumerate(LAYERS):
        for entry in entries:
            if (module == entry or module.startswith(entry + ".")) and (
                    best is None or len(entry) > len(best[1])):
                best = (number, entry)
    assert best is not None, f"patience.{module} has no layer: add it to LAYERS"
    return best[0]


def _is_type_checking(node: ast.If) -> bool:
    return "TYPE_CHECKING" in ast.unparse(node.test)


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The patience modules ``path`` imports at run time, at the top or in a function."""
    found: set[str] = set()

    def resolve(name: str) -> str | None:
        name = name.removeprefix("patience").removeprefix(".")
        while name not in known:
            if not name:
                return None
            name = name.rpartition(".")[0]
        return name

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            return
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            whole = [f"{node.module}.{alias.name}" for alias in node.names]
            names = [n for n in whole if resolve(n) == n.removeprefix("patience.")] or \
                [node.module]
        else:
            names = []
        for name in names:
            if name == "patience" or name.startswith("patience."):
                target = resolve(name)
                if target is not None:
                    found.add(target)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def graph() -> dict[str, set[str]]:
    """Module -> the modules it imports; a package's own modules run its ``__init__``
    first anyway, so an import of a package above a module is not an edge."""
    known = modules()
    return {module: {target for target in imports(path, known)
                     if target != module and not module.startswith(f"{target}.")
                     and target != ""}
            for module, path in known.items()}


def test_every_module_has_a_layer() -> None:
    for module in modules():
        layer_of(module)


def test_imports_go_down_the_layers() -> None:
    upward = sorted(f"patience.{module} (layer {layer_of(module) + 1}) imports "
                    f"patience.{target} (layer {layer_of(target) + 1})"
                    for module, targets in graph().items() for target in targets
                    if layer_of(target) > layer_of(module))
    assert upward == []


def test_no_import_cycle() -> None:
    edges = graph()
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(edges[module]):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        path.pop()
        state[module] = 2
        return None

    for module in sorted(edges):
        if module not in state:
            cycle = visit(module)
            assert cycle is None, "import cycle: " + " -> ".join(f"patience.{m}" for m in cycle)


def test_no_module_reaches_into_another_modules_private_names():
    # issue #30: "No module reaches into another's private helpers": a name another module
    # needs is public in its home (the generated parser and the native core aside)
    reached = []
    root = Path(patience.__file__).parent
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("patience"):
                reached += [f"{path.relative_to(root)}: {node.module}.{alias.name}"
                            for alias in node.names
                            if alias.name.startswith("_") and not alias.name.startswith("__")
                            and alias.name not in ("_rules_parser", "_native")]
    assert reached == []
