"""Generate a variant's move generator as Python code, decided once per variant.

From the pile groups and their compiled rules this module writes one Python function
per job — ``generate_moves``, ``first_forced``, ``can_deal``, ``is_won`` — specialised for
the variant: loops over fixed pile ranges, parameters folded, card predicates turned into
table lookups. The rule analysis done here is what makes the generic kernel as fast as a
hand-written one:

* A ``moves`` rule's conjuncts of the form ``all below, above in pairs(run): …`` (whose body
  does not depend on the run's length) hold for the top k cards exactly when k is at most
  the length ``m`` of the longest such run, so ``m`` is found with one scan down the pile
  instead of testing every k.
* A conjunct ``run.size == E`` (in ``moves`` or ``accepts``) fixes k instead of looping.
* ``accepts`` conjuncts that do not read the receiving pile are tested once per run, not
  once per pile; those that fold to false for a source group (``source in columns``) drop
  the whole pairing from the code.

The source is built from our own templates and from ``ast`` nodes that ``patience.compiler``
made from patience's AST; no user text reaches it. It is compiled with ``compile()`` and the
functions are made from the code objects, so nothing is ever ``exec``-ed.
"""

from __future__ import annotations

import ast
import types
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from patience.compiler import (
    Code,
    Compiler,
    Layout,
    Pile,
    Run,
    Tables,
    conjunction,
    constant,
    conjuncts,
    inline_calls,
    is_false,
    is_true,
    name,
    subscript,
)
from patience.language import Attribute, Compare, Name, Node, Pairs, Quantifier, walk

DEAL = (-1, 0, -1)


@attrs.frozen
class GroupPlan:
    """What the generator needs of one pile group."""

    name: str
    indices: range
    moves: Node  # inlined
    accepts: Node  # inlined
    first: bool  # moves to it land on the first pile that accepts
    forced: bool


@attrs.frozen
class Generated:
    """The compiled functions of a variant, and the source they came from."""

    generate_moves: Callable[[list[list[int]], list[int]], list[tuple[int, int, int]]]
    first_forced: Callable[[list[list[int]]], tuple[int, int, int] | None] | None
    can_deal: Callable[[list[list[int]], list[int]], bool]
    is_won: Callable[[list[list[int]], list[int]], bool]
    source: str


def _mentions(node: Node, identifier: str) -> bool:
    return any(isinstance(sub, Name) and sub.id == identifier for sub in walk(node))


def _fixed_size(node: Node, free_of: tuple[str, ...]) -> Node | None:
    """E if ``node`` is ``run.size == E`` (either way round) with E free of those names."""
    if not isinstance(node, Compare) or node.op != "==":
        return None
    for size, other in ((node.left, node.right), (node.right, node.left)):
        if (isinstance(size, Attribute) and size.name == "size"
                and isinstance(size.value, Name) and size.value.id == "run"
                and not any(_mentions(other, n) for n in free_of)):
            return other
    return None


def _is_scan(node: Node) -> bool:
    return (isinstance(node, Quantifier) and node.kind == "all"
            and isinstance(node.domain, Pairs) and isinstance(node.domain.run, Name)
            and node.domain.run.id == "run" and not _mentions(node.body, "run"))


def _cost(node: Node) -> int:
    """Cheap conjuncts first: quantifiers last (reordering 'and' parts of pure rules is safe)."""
    return 1 if any(isinstance(sub, Quantifier) for sub in walk(node)) else 0


class _Writer:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 0

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    def indent(self) -> None:
        self.depth += 1

    def dedent(self) -> None:
        self.depth -= 1


def _source(expr: ast.expr) -> str:
    return ast.unparse(ast.fix_missing_locations(expr))


class Generator:
    def __init__(self, plans: Sequence[GroupPlan], compiler: Compiler,
                 deal_when: Node, win: Node) -> None:
        self.plans = plans
        self.compiler = compiler
        self.deal_when = deal_when
        self.win = win

    # -- pieces of a source group's loop --

    def _bindings(self, source: GroupPlan, target: GroupPlan | None) -> dict[str, Any]:
        run = Run(name("src"), name("k"))
        bindings: dict[str, Any] = {"run": run}
        source_pile = Pile(name("src"), name("s"), source.name)
        if target is None:
            bindings["pile"] = source_pile
        else:
            bindings["pile"] = Pile(name("tgt"), name("t"), target.name)
            bindings["source"] = source_pile
        return bindings

    def _expr(self, nodes: list[Node], bindings: dict[str, Any]) -> ast.expr:
        parts = []
        for node in sorted(nodes, key=_cost):
            value = self.compiler.value(node, bindings)
            expr = self.compiler.to_expr(value)
            if is_false(expr):
                return expr
            if not is_true(expr):
                parts.append(expr)
        return conjunction(parts)

    def _source_loop(self, out: _Writer, source: GroupPlan, targets: list[GroupPlan],
                     found: Callable[[_Writer, GroupPlan], None]) -> bool:
        """Write the loop over one source group's piles; False when it can give nothing."""
        gives = conjuncts(source.moves)
        scans = [node for node in gives if _is_scan(node)]
        fixed = next((e for e in map(lambda n: _fixed_size(n, ("run",)), gives) if e), None)
        rest = [node for node in gives if node not in scans
                and (fixed is None or _fixed_size(node, ("run",)) is not fixed)]
        source_bindings = self._bindings(source, None)
        rest_expr = self._expr(rest, source_bindings)
        if is_false(rest_expr):
            return False
        pairings = []
        for target in targets:
            accepts = conjuncts(target.accepts)
            target_fixed = next((e for e in (_fixed_size(n, ("run", "pile")) for n in accepts)
                                 if e is not None), None)
            others = [n for n in accepts if target_fixed is None
                      or _fixed_size(n, ("run", "pile")) is not target_fixed]
            hoisted = [n for n in others if not _mentions(n, "pile")]
            per_pile = [n for n in others if _mentions(n, "pile")]
            bindings = self._bindings(source, target)
            guard_parts = []
            if target_fixed is not None:
                size = self.compiler.expression(target_fixed, bindings)
                guard_parts.append(ast.Compare(name("k"), [ast.Eq()], [size]))
            hoisted_expr = self._expr(hoisted, bindings)
            if is_false(hoisted_expr):
                continue
            per_pile_expr = self._expr(per_pile, bindings)
            if is_false(per_pile_expr):
                continue
            if not is_true(hoisted_expr):
                guard_parts.append(hoisted_expr)
            pairings.append((target, conjunction(guard_parts), per_pile_expr))
        if not pairings:
            return False

        lo, hi = source.indices.start, source.indices.stop
        out.line(f"for s in range({lo}, {hi}):")
        out.indent()
        out.line("src = piles[s]")
        out.line("n = len(src)")
        out.line("if not n:")
        out.line("    continue")
        if scans:
            depth = ast.BinOp(name("n"), ast.Sub(), name("m"))
            below = Code(subscript(name("src"), ast.BinOp(depth, ast.Sub(), constant(1))))
            above = Code(subscript(name("src"), depth))
            body_parts = []
            for scan in scans:
                assert isinstance(scan, Quantifier)
                inner = {**source_bindings, scan.names[0]: below, scan.names[1]: above}
                body_parts.append(self.compiler.expression(scan.body, inner))
            body = _source(conjunction(body_parts))
            out.line("m = 1")
            out.line(f"while m < n and {body}:")
            out.line("    m += 1")
        else:
            out.line("m = n")
        if fixed is not None:
            out.line(f"k = {_source(self.compiler.expression(fixed, source_bindings))}")
            out.line("if 1 <= k <= m:")
        else:
            out.line("for k in range(1, m + 1):")
        out.indent()
        if not is_true(rest_expr):
            out.line(f"if not ({_source(rest_expr)}):")
            out.line("    continue")
        for target, guard, per_pile_expr in pairings:
            if not is_true(guard):
                out.line(f"if {_source(guard)}:")
                out.indent()
            lo2, hi2 = target.indices.start, target.indices.stop
            out.line(f"for t in range({lo2}, {hi2}):")
            out.indent()
            if target is source:
                out.line("if t == s:")
                out.line("    continue")
            out.line("tgt = piles[t]")
            if is_true(per_pile_expr):
                found(out, target)
            else:
                out.line(f"if {_source(per_pile_expr)}:")
                out.indent()
                found(out, target)
                out.dedent()
            out.dedent()
            if not is_true(guard):
                out.dedent()
        out.dedent()
        out.dedent()
        return True

    # -- the functions --

    def generate(self, label: str) -> Generated:
        out = _Writer()
        chosen = [plan for plan in self.plans if not plan.forced]
        forced = [plan for plan in self.plans if plan.forced]

        out.line("def generate_moves(piles, stock):")
        out.indent()
        win_expr = self.compiler.expression(self.win, {})
        out.line(f"if {_source(win_expr)}:")
        out.line("    return []  # a won position has no moves")
        out.line("moves = []")
        out.line("append = moves.append")

        def add_move(writer: _Writer, target: GroupPlan) -> None:
            writer.line("append((s, k, t))")
            if target.first:
                writer.line("break")

        for source in self.plans:
            self._source_loop(out, source, chosen, add_move)
        deal_expr = self.compiler.expression(self.deal_when, {})
        if is_true(deal_expr):
            out.line("if stock:")
        else:
            out.line(f"if stock and {_source(deal_expr)}:")
        out.line(f"    append({DEAL!r})")
        out.line("return moves")
        out.dedent()
        out.line("")

        has_forced = False
        if forced:
            out.line("def first_forced(piles):")
            out.indent()

            def return_move(writer: _Writer, target: GroupPlan) -> None:
                writer.line("return (s, k, t)")

            for source in self.plans:
                has_forced |= self._source_loop(out, source, forced, return_move)
            out.line("return None")
            out.dedent()
            out.line("")

        out.line("def can_deal(piles, stock):")
        out.line(f"    return bool(stock) and {_source(deal_expr)}" if not is_true(deal_expr)
                 else "    return bool(stock)")
        out.line("")
        out.line("def is_won(piles, stock):")
        out.line(f"    return {_source(win_expr)}")
        source_text = "\n".join(out.lines) + "\n"

        namespace: dict[str, Any] = {"__builtins__": {"len": len, "range": range, "all": all,
                                                      "any": any, "zip": zip, "bool": bool,
                                                      "enumerate": enumerate}}
        namespace.update(self.compiler.tables.values)
        module = compile(ast.parse(source_text), f"<patience variant {label}>", "exec")
        functions = {code.co_name: types.FunctionType(code, namespace)
                     for code in module.co_consts if isinstance(code, types.CodeType)}
        return Generated(functions["generate_moves"],
                         functions["first_forced"] if has_forced else None,
                         functions["can_deal"], functions["is_won"], source_text)


def build(definition_groups: Sequence[tuple[str, range, Node, Node, str, str]],
          predicates: dict, parameters: dict, cards: Sequence[int], deal_when: Node,
          win: Node, label: str, tabulate: bool = True) -> Generated:
    """Compile a variant's rules into its generated functions."""
    tables = Tables()
    layout = Layout({name_: indices for name_, indices, *_ in definition_groups})
    compiler = Compiler(parameters, predicates, layout, tables, cards, tabulate=tabulate)

    def keep(predicate) -> bool:
        return tabulate and compiler._is_tabulable(predicate) and \
            1 <= len(predicate.signature.parameters) <= 2

    plans = [GroupPlan(gname, indices, inline_calls(moves, predicates, keep),
                       inline_calls(accepts, predicates, keep), target == "first",
                       removal == "forced")
             for gname, indices, moves, accepts, target, removal in definition_groups]
    generator = Generator(plans, compiler, inline_calls(deal_when, predicates, keep),
                          inline_calls(win, predicates, keep))
    return generator.generate(label)
