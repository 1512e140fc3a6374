"""Generate a variant's move generator as Python code, decided once per variant.

From the variant's rule plan (``patience.plan``) this module writes one Python function per
job — ``generate_moves``, ``first_forced``, ``can_deal``, ``is_won`` — specialised for the
variant: loops over fixed pile ranges, parameters folded, card predicates turned into table
lookups. The plan's analysis is what makes the generic kernel as fast as a hand-written one,
and this module only prints it:

* a source's run scans (``all below, above in pairs(run): …``) become one scan down the pile
  for the length ``m`` of the longest run, instead of a test for every k;
* a fixed run size (``run.size == E``, in ``moves`` or ``accepts``) fixes k instead of
  looping;
* a pairing's conjuncts that do not read the receiving pile are tested once per run, not
  once per pile; the pairings and sources the plan dropped (``source in columns`` folded to
  false) are never written.

The source is built from our own templates and from ``ast`` nodes that ``patience.compiler``
made from patience's AST; no user text reaches its code. Each block is commented with the
rule it comes from, as the file wrote it (``# piles.columns.moves (tabbycat.yaml:27):
in_sequence(run)``): those comments are the one place where text from the file appears, made
safe by :func:`comment` (one line, control characters escaped), and ``compile()`` drops
them, so they change neither what the code does nor how fast it runs. ``patience compile
FILE`` prints the source. It is compiled with ``compile()`` and the functions are made from
the code objects, so nothing is ever ``exec``-ed.
"""

from __future__ import annotations

import ast
import collections
import hashlib
import itertools
import linecache
import types
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from patience.cards import FACE_DOWN
from patience.compiler import (
    Code,
    Pile,
    Run,
    conjunction,
    constant,
    is_false,
    is_true,
    name,
    rename,
    subscript,
)
from patience.language import BoolOp, Node, Quantifier, guarded_piles, walk
from patience.moves import Gather
from patience.plan import (
    SOURCE_PILE,
    DiscardPlan,
    GroupRules,
    Pairing,
    RulePlan,
    SourcePlan,
    bindings,
    discard_bindings,
    mentions,
)
from patience.pysource import expression_text

DEAL = (-1, 0, -1)  # the deal move (patience.game.DEAL as a plain tuple)


@attrs.frozen
class Generated:
    """The compiled functions of a variant, and the source they came from."""

    generate_moves: Callable[[list[list[int]], list[int]], list[tuple[int, int, int]]]
    #: the legal moves whose source is pile ``s`` (the deal is never among them)
    moves_from: Callable[[list[list[int]], list[int], int], list[tuple[int, int, int]]]
    has_moves: Callable[[list[list[int]], list[int]], bool]
    first_forced: Callable[[list[list[int]], list[int]], tuple[int, int, int] | None] | None
    can_deal: Callable[[list[list[int]], list[int]], bool]
    is_won: Callable[[list[list[int]], list[int]], bool]
    source: str
    filename: str  # the name the source is registered under in ``linecache``
    #: ``solver.safe`` as ``is_safe(piles, stock, s, k, t)`` for a legal pile move; None
    #: when the file declares no safe moves (docs/solver.md, "Safe moves")
    is_safe: Callable[[list[list[int]], list[int], int, int, int], bool] | None = None
    #: the legal discards (moves ``(-2 - set, cards, target)``); None: the variant has none
    discard_moves: Callable[[list[list[int]], list[int]], list[tuple[int, int, int]]] | None \
        = None
    #: ``stock.gather.keep`` and ``.gaps`` as ``gather_keeps(piles, stock, t)`` and
    #: ``gather_gaps(piles, stock, t)`` for pile ``t``; None where the file gives none
    gather_keeps: Callable[[list[list[int]], list[int], int], bool] | None = None
    gather_gaps: Callable[[list[list[int]], list[int], int], bool] | None = None


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
    return expression_text(expr)  # ast.unparse's text, faster


#: generated sources registered in ``linecache`` (so that tracebacks and inspect.getsource
#: show their lines), oldest first; at most this many, the oldest forgotten first
MAX_REGISTERED_SOURCES = 256
_REGISTERED: collections.OrderedDict[str, None] = collections.OrderedDict()


def _register_lines(filename: str, source_text: str) -> None:
    linecache.cache[filename] = (len(source_text), None, source_text.splitlines(True),
                                 filename)
    _REGISTERED[filename] = None
    _REGISTERED.move_to_end(filename)
    while len(_REGISTERED) > MAX_REGISTERED_SOURCES:
        old, _ = _REGISTERED.popitem(last=False)
        linecache.cache.pop(old, None)


def comment(text: str) -> str:
    """``text`` as one line of a Python comment: every run of white space (line breaks and
    line separators included) becomes one space, and any other character that is not
    printable is written as its escape, so the text can neither end the comment nor shift
    the lines a traceback shows.

    >>> comment("pile.empty or\\n  goes_on(x)\\u2028y = 1\\x1b")
    '# pile.empty or goes_on(x) y = 1\\\\x1b'
    """
    flat = " ".join(text.split())
    return "# " + "".join(char if char.isprintable() else repr(char)[1:-1] for char in flat)


class Generator:
    """Prints a variant's Python functions from its rule plan."""

    def __init__(self, plan: RulePlan, notes: Mapping[str, str] | None = None) -> None:
        self.plan = plan
        self.compiler = plan.compiler
        #: the rules as written, for comments: "win", "stock.deal_when", and a "title"
        self.notes = notes or {}
        #: each discard's sets of piles as a tree (``_discard_tree``), by its name in the code
        self.discard_trees: dict[str, tuple[Any, ...]] = {}

    def _note(self, out: _Writer, note: str) -> None:
        if note:
            out.line(comment(note))

    # -- pieces of a source group's loop --

    def _bindings(self, source: GroupRules, target: GroupRules | None) -> dict[str, Any]:
        return bindings(source.name, None if target is None else target.name)

    def _expr(self, nodes: Sequence[Node], bindings: dict[str, Any]) -> ast.expr:
        parts = []
        for node in sorted(nodes, key=_cost):
            value = self.compiler.value(node, bindings)
            expr = self.compiler.to_expr(value)
            if is_false(expr):
                return expr
            if not is_true(expr):
                parts.append(expr)
        return conjunction(parts)

    def _source_loop(self, out: _Writer, plan: SourcePlan | None,
                     found: Callable[[_Writer, GroupRules], None], *,
                     given_source: bool = False) -> bool:
        """Write the code for one source group's piles; False when it can give nothing.

        With ``given_source`` the code is for the one pile ``s`` (a parameter of the
        function), when it belongs to this group.
        """
        if plan is None:
            return False
        source, scans, fixed, pairings = plan.source, plan.scans, plan.fixed, plan.pairings
        # The source's own conditions are tested beside the target's, where 'pile' means the
        # target: in them the source pile goes by a name no rule can write.
        rest = [rename(node, {"pile": SOURCE_PILE}) for node in plan.rest]
        self._note(out, source.moves_note)

        # When every target takes runs of a constant size (sets of 13), shorter piles are
        # skipped and the run scan stops at the largest size: no k beyond it is used.
        cap, floor = plan.cap, plan.floor

        lo, hi = source.indices.start, source.indices.stop
        if given_source or hi - lo == 1:  # one pile: straight-line code
            if given_source:
                out.line(f"if {lo} <= s < {hi}:" if hi - lo > 1 else f"if s == {lo}:")
                out.indent()
            else:
                out.line(f"s = {lo}")
            out.line("src = piles[s]")
            out.line("n = len(src)")
            out.line("if n:" if floor is None or floor <= 1 else f"if n >= {floor}:")
            out.indent()
        else:
            out.line(f"for s in range({lo}, {hi}):")
            out.indent()
            out.line("src = piles[s]")
            out.line("n = len(src)")
            out.line("if not n:" if floor is None or floor <= 1 else f"if n < {floor}:")
            out.line("    continue")
        # 'up': how many cards can move at most: the face-up ones, above any face-down
        up = "n"
        if source.face_down:
            out.line("d = 0")
            out.line(f"while d < n and src[d] >= {FACE_DOWN}:")
            out.line("    d += 1")
            out.line("u = n - d")
            up = "u"
        source_bindings = self._bindings(source, None)
        if scans:
            depth = ast.BinOp(name("n"), ast.Sub(), name("m"))
            below = Code(subscript(name("src"), ast.BinOp(depth, ast.Sub(), constant(1))))
            above = Code(subscript(name("src"), depth))
            body_parts = []
            for scan in scans:
                assert isinstance(scan, Quantifier)
                inner = {**source_bindings, scan.names[0]: below, scan.names[1]: above}
                body_parts.append(self.compiler.expression(scan.body, inner))
            out.line("m = 1")
            limit = f"m < {up}" if cap is None else f"m < {up} and m < {cap}"
            out.line(f"while {limit} and ({_source(conjunction(body_parts))}):")
            out.line("    m += 1")
            whole = "m"
        else:
            whole = up  # no sequence rule: any number of face-up cards, up to the whole pile
        single_k: str | None = None
        checked = False
        if fixed is not None:
            size = _source(self.compiler.expression(fixed, source_bindings))
            out.line(f"k0 = {size}")
            # 'k0 = n' with no sequence rule and no face-down card always fits: no test needed
            checked = bool(scans) or source.face_down or size not in ("len(src)", "n")
            if checked:
                out.line(f"if 1 <= k0 <= {whole}:")
                out.indent()
            single_k = "k0"
        for pairing in pairings:
            if pairing.k_outer:
                self._k_outer(out, source, pairing, rest, whole, single_k, found)
            else:
                self._target_outer(out, source, pairing, rest, whole, single_k, found)
        if fixed is not None and checked:
            out.dedent()
        out.dedent()
        if given_source:
            out.dedent()
        return True

    def _k_outer(self, out: _Writer, source: GroupRules, pairing: Pairing, rest: list[Node],
                 whole: str, single_k: str | None,
                 found: Callable[[_Writer, GroupRules], None]) -> None:
        """k outside, targets inside: for a fixed run size, or a group taking the first pile
        that accepts (so the search stops at the first pile for each k)."""
        target = pairing.target
        self._note(out, target.accepts_note)
        bindings = self._bindings(source, target)
        opened = 0
        if pairing.fixed is not None:
            size = _source(self.compiler.expression(pairing.fixed, bindings))
            if single_k is not None:
                out.line(f"if {single_k} == {size}:")
                out.line(f"    k = {single_k}")
            else:
                out.line(f"k = {size}")
                out.line(f"if 1 <= k <= {whole}:")
            out.indent()
            opened += 1
        elif single_k is not None:
            out.line(f"k = {single_k}")
        else:
            out.line(f"for k in range(1, {whole} + 1):")
            out.indent()
            opened += 1
        condition = self._expr(rest + list(pairing.hoisted), bindings)
        if not is_true(condition):
            out.line(f"if {_source(condition)}:")
            out.indent()
            opened += 1
        self._emit_targets(out, source, target, self._expr(pairing.per_pile, bindings), found)
        for _ in range(opened):
            out.dedent()

    def _emit_targets(self, out: _Writer, source: GroupRules, target: GroupRules,
                      condition: ast.expr, found: Callable[[_Writer, GroupRules], None]) -> None:
        loops = self._open_targets(out, source, target)
        self._found_if(out, condition, target, found)
        for _ in range(loops):
            out.dedent()

    def _open_targets(self, out: _Writer, source: GroupRules, target: GroupRules) -> int:
        """Open the loop over the target group's piles (straight-line for one pile); returns
        how many levels to close."""
        lo, hi = target.indices.start, target.indices.stop
        if hi - lo == 1:
            out.line(f"t = {lo}")
            out.line("tgt = piles[t]")
            return 0
        out.line(f"for t in range({lo}, {hi}):")
        out.indent()
        if target is source:
            out.line("if t == s:")
            out.line("    continue")
        out.line("tgt = piles[t]")
        return 1

    def _found_if(self, out: _Writer, condition: ast.expr, target: GroupRules,
                  found: Callable[[_Writer, GroupRules], None]) -> None:
        if is_false(condition):
            out.line("pass")
        elif is_true(condition):
            found(out, target)
        else:
            out.line(f"if {_source(condition)}:")
            out.indent()
            found(out, target)
            out.dedent()

    def _target_outer(self, out: _Writer, source: GroupRules, pairing: Pairing,
                      rest: list[Node], whole: str, single_k: str | None,
                      found: Callable[[_Writer, GroupRules], None]) -> None:
        """Targets outside, k inside: what does not depend on the run is tested once per
        target; an 'or' whose other side ignores the run takes every k at once."""
        target = pairing.target
        self._note(out, target.accepts_note)
        bindings = self._bindings(source, target)
        loops = self._open_targets(out, source, target)
        run_free = list(pairing.run_free)
        run_bound = list(pairing.run_bound)
        opened = 0
        free_expr = self._expr(run_free, bindings)
        if not is_true(free_expr):
            out.line(f"if {_source(free_expr)}:")
            out.indent()
            opened += 1
        common = rest + list(pairing.hoisted)
        split = next((n for n in run_bound if isinstance(n, BoolOp) and n.op == "or"
                      and any(not mentions(v, "run") for v in n.values)
                      and any(mentions(v, "run") for v in n.values)), None)
        if split is None:
            self._k_loop(out, source, target, bindings, common + run_bound, whole, single_k,
                         found)
        else:
            assert isinstance(split, BoolOp)
            others = [n for n in run_bound if n is not split]
            free_side = [v for v in split.values if not mentions(v, "run")]
            bound_side = [v for v in split.values if mentions(v, "run")]
            free_node = free_side[0] if len(free_side) == 1 else BoolOp(split.span, "or",
                                                                         tuple(free_side))
            bound_node = bound_side[0] if len(bound_side) == 1 else BoolOp(
                split.span, "or", tuple(bound_side))
            out.line(f"if {_source(self.compiler.expression(free_node, bindings))}:")
            out.indent()
            self._k_loop(out, source, target, bindings, common + others, whole, single_k,
                         found)
            out.dedent()
            out.line("else:")
            out.indent()
            inner = bindings
            if "pile" in guarded_piles(free_node, False):  # here the pile is not empty
                out.line("top = tgt[-1]")
                pile = bindings["pile"]
                inner = {**bindings, "pile": Pile(pile.cards, pile.index, pile.group,
                                                  name("top"))}
            self._k_loop(out, source, target, inner, common + others + [bound_node], whole,
                         single_k, found)
            out.dedent()
        for _ in range(opened + loops):
            out.dedent()

    def _k_loop(self, out: _Writer, source: GroupRules, target: GroupRules,
                bindings: dict[str, Any], conditions: list[Node], whole: str,
                single_k: str | None, found: Callable[[_Writer, GroupRules], None]) -> None:
        """Every k (1..whole, or the one fixed k) for which the conditions hold."""
        def body(k_bindings: dict[str, Any]) -> None:
            self._found_if(out, self._expr(conditions, k_bindings), target, found)

        if single_k is not None:
            out.line(f"k = {single_k}")
            body(bindings)
            return
        one = {**bindings, "run": Run(name("src"), 1)}
        out.line(f"if {whole} == 1:")  # runs of one card are by far the most common
        out.indent()
        out.line("k = 1")
        body(one)
        out.dedent()
        out.line("else:")
        out.indent()
        out.line(f"for k in range(1, {whole} + 1):")
        out.indent()
        body(bindings)
        out.dedent()
        out.dedent()

    # -- discards --

    def _discard_tree(self, discard: DiscardPlan) -> tuple[Any, ...]:
        """The discard's sets as a tree in pile order: ``(pile, subtree)`` for each chosen
        pile but the last, ``(pile, move source)`` for the last (``-2 - set``)."""
        sets = itertools.combinations(discard.sources, discard.cards)
        root: dict[int, Any] = {}
        for number, chosen in enumerate(sets, start=discard.start):
            node = root
            for pile in chosen[:-1]:
                node = node.setdefault(pile, {})
            node[chosen[-1]] = -2 - number

        def frozen(node: dict[int, Any]) -> tuple[Any, ...]:
            return tuple((pile, below if isinstance(below, int) else frozen(below))
                         for pile, below in node.items())
        return frozen(root)

    def _discards(self, out: _Writer, found: Callable[[_Writer, int, int], None]) -> None:
        """The code of every discard: a walk down its tree of sets, a chosen pile at a
        time (an empty pile cuts its branch), the rule tested at the leaves."""
        for number, discard in enumerate(self.plan.discards):
            n = discard.cards
            piles = [name(f"p{j}") for j in range(n)]
            names = discard_bindings(discard, piles, [name(f"i{j}") for j in range(n)],
                                     [name(f"c{j}") for j in range(n)])
            condition = self._expr([discard.when], dict(names))
            if is_false(condition):
                continue
            tree = f"discard_sets_{number}"  # not a card table: made whether or not tables are
            self.discard_trees[tree] = self._discard_tree(discard)
            self._note(out, discard.note)
            below = tree
            for j in range(n):
                last = j == n - 1
                out.line(f"for i{j}, {'m' if last else f'below{j}'} in {below}:")
                out.indent()
                out.line(f"p{j} = piles[i{j}]")
                out.line(f"if not p{j}:")
                out.line("    continue")
                out.line(f"c{j} = p{j}[-1]")
                below = f"below{j}"
            if is_true(condition):
                found(out, n, discard.target)
            else:
                out.line(f"if {_source(condition)}:")
                out.indent()
                found(out, n, discard.target)
                out.dedent()
            for _ in range(n):
                out.dedent()

    # -- the functions --

    def generate(self, label: str) -> Generated:
        out = _Writer()
        plan = self.plan
        win_expr = self.compiler.expression(plan.win, {})
        deal_test = self._deal_test()
        self._note(out, self.notes.get("title", ""))
        win_note, deal_note = self.notes.get("win", ""), self._deal_note()
        self._move_functions(out, win_expr, win_note, deal_test, deal_note)
        has_forced = self._first_forced(out)
        out.line("def can_deal(piles, stock):")
        out.indent()
        self._note(out, deal_note)
        out.line(f"return bool({deal_test})")
        out.dedent()
        out.line("")
        out.line("def is_won(piles, stock):")
        out.indent()
        self._note(out, win_note)
        out.line(f"return {_source(win_expr)}")
        out.dedent()
        self._is_safe(out)
        self._gather_rules(out)
        functions, source_text, filename = self._compile("\n".join(out.lines) + "\n", label)
        return Generated(functions["generate_moves"], functions["moves_from"],
                         functions["has_moves"],
                         functions["first_forced"] if has_forced else None,
                         functions["can_deal"], functions["is_won"], source_text, filename,
                         functions.get("is_safe"), functions.get("discard_moves"),
                         functions.get("gather_keeps"), functions.get("gather_gaps"))

    def _deal_test(self) -> str:
        """When the deal is legal, as Python: ``stock.deal_when`` with cards in the stock;
        or, the stock empty, a redeal of the waste or of gathered piles left."""
        plan = self.plan
        deal_expr = self.compiler.expression(plan.deal_when, {})
        # with stock.top the stock's next card lies on its own pile: the stock holds a card
        # while that pile or the rest of the stock does
        held = "stock" if plan.stock_top is None else f"(stock or piles[{plan.stock_top}])"
        deal_test = held if is_true(deal_expr) else f"{held} and ({_source(deal_expr)})"
        redeal = plan.redeal
        if redeal is not None:  # the deal of an empty stock turns the waste over
            again = f"not {held} and piles[{redeal.waste}]"
            if redeal.counter is not None:
                again += f" and len(piles[{redeal.counter}]) < {redeal.limit}"
            deal_test = f"({deal_test}) or ({again})"
        if plan.gather is not None:  # the deal of an empty stock gathers piles again
            deal_test = f"({deal_test}) or ({_gather_test(plan.gather, held)})"
        for indices in plan.deal_closing:  # the deal closes a gap: a card after an empty pile
            deal_test = (f"({deal_test}) or any(piles[w] and not piles[w - 1] for w in "
                         f"range({indices.start + 1}, {indices.stop}))")
        return deal_test

    def _deal_note(self) -> str:
        deal_note = self.notes.get("stock.deal_when", "")
        redeal, gather = self.plan.redeal, self.plan.gather
        if redeal is not None and deal_note:
            limit = "unlimited" if redeal.counter is None else str(redeal.limit)
            deal_note += f"; or, the stock empty, stock.redeals ({limit}) turns the waste over"
        if gather is not None and deal_note:
            limit = "unlimited" if gather.limit is None else str(gather.limit)
            deal_note += f"; or, the stock empty, stock.gather ({limit}) deals its piles again"
        return deal_note

    def _move_functions(self, out: _Writer, win_expr: ast.expr, win_note: str,
                        deal_test: str, deal_note: str) -> None:
        """Every legal move; the legal moves of one source pile; whether there is any; and,
        with discards, the legal discards alone."""
        def add_move(writer: _Writer, target: GroupRules) -> None:
            writer.line("append((s, k, t))")
            if target.first and len(target.indices) > 1:  # a single pile is not looped over
                writer.line("break")

        def return_true(writer: _Writer, target: GroupRules) -> None:
            writer.line("return True")

        def add_discard(writer: _Writer, cards: int, target: int) -> None:
            writer.line(f"append((m, {cards}, {target}))")

        def return_discard(writer: _Writer, cards: int, target: int) -> None:
            writer.line("return True")

        for header, given, found in (("generate_moves(piles, stock)", False, add_move),
                                     ("moves_from(piles, stock, s)", True, add_move),
                                     ("has_moves(piles, stock)", False, return_true)):
            listing = found is add_move
            out.line(f"def {header}:")
            out.indent()
            self._note(out, win_note)
            out.line(f"if {_source(win_expr)}:")
            out.line(f"    return {'[]' if listing else 'False'}  # a won position has no moves")
            if listing:
                out.line("moves = []")
                out.line("append = moves.append")
            for source in self.plan.sources:
                self._source_loop(out, source, found, given_source=given)
            if self.plan.merci is not None:  # the draws of a buried card (merci)
                self._merci_call(out, listing, given)
            if not given:
                self._discards(out, add_discard if listing else return_discard)
                self._note(out, deal_note)
                out.line(f"if {deal_test}:")
                out.line(f"    append({DEAL!r})" if listing else "    return True")
            out.line("return moves" if listing else "return False")
            out.dedent()
            out.line("")

        if self.plan.merci is not None:
            self._merci_moves(out)
        if self.plan.discards:  # the legal discards alone: whether a discard move is legal
            out.line("def discard_moves(piles, stock):")
            out.indent()
            out.line(f"if {_source(win_expr)}:")
            out.line("    return []")
            out.line("moves = []")
            out.line("append = moves.append")
            self._discards(out, add_discard)
            out.line("return moves")
            out.dedent()
            out.line("")

    # -- draws of a buried card (merci) --

    def _merci_call(self, out: _Writer, listing: bool, given: bool) -> None:
        """The draws in the move functions: all of them, those from pile ``s``, or any."""
        if not listing:
            out.line("if merci_moves(piles, stock):")
            out.line("    return True")
        elif given:
            out.line("moves += [m for m in merci_moves(piles, stock) if m[0] == s]")
        else:
            out.line("moves += merci_moves(piles, stock)")

    def _merci_moves(self, out: _Writer) -> None:
        """``merci_moves(piles, stock)``: the draws of a buried card while one is left (the
        generated functions' win test came first). Each pile of two cards or more has its
        top card lifted while the card under it is tried as a run of one, then put back:
        ``(s, -1, t)`` for each pile ``t`` that takes it (patience.moves.DRAW)."""
        merci = self.plan.merci
        assert merci is not None

        def add_draw(writer: _Writer, target: GroupRules) -> None:
            writer.line("append((s, -1, t))")
            if target.first and len(target.indices) > 1:
                writer.line("break")

        out.line("def merci_moves(piles, stock):")
        out.indent()
        out.line("moves = []")
        out.line(f"if len(piles[{merci.counter}]) >= {merci.limit}:")
        out.line("    return moves")
        out.line("append = moves.append")
        for plan in merci.sources:
            source = plan.source
            self._note(out, source.moves_note)
            rest = [rename(node, {"pile": SOURCE_PILE}) for node in plan.rest]
            out.line(f"for s in range({source.indices.start}, {source.indices.stop}):")
            out.indent()
            out.line("src = piles[s]")
            out.line("if len(src) >= 2:")
            out.indent()
            out.line("lifted = src.pop()")
            out.line("n = len(src)")
            out.line("k0 = 1")
            for pairing in plan.pairings:
                if pairing.k_outer:
                    self._k_outer(out, source, pairing, rest, "n", "k0", add_draw)
                else:
                    self._target_outer(out, source, pairing, rest, "n", "k0", add_draw)
            out.line("src.append(lifted)")
            out.dedent()
            out.dedent()
        out.line("return moves")
        out.dedent()
        out.line("")

    def _first_forced(self, out: _Writer) -> bool:
        """``first_forced``: gaps closing, forced removals, then fills. Whether any forced
        move can be made at all."""
        plan = self.plan
        has_forced = False
        fills = plan.fills
        fills_last = any(group.fill_last for group in plan.groups)
        if not (any(group.forced for group in plan.groups) or fills or plan.closing
                or fills_last):
            return False
        out.line("def first_forced(piles, stock):")
        out.indent()
        has_forced |= _closing_lines(out, plan.closing)

        def return_move(writer: _Writer, target: GroupRules) -> None:
            writer.line("return (s, k, t)")

        # Sources are the piles outside forced groups: each forced move then adds cards
        # to the forced groups, so forced removals always come to an end.
        for source in plan.forced_sources:
            has_forced |= self._source_loop(out, source, return_move)
        for group in fills:  # an empty pile takes the top card of the first source
            assert group.fill_from is not None
            has_forced = True
            self._fill_lines(out, group, group.fill_from)
        # 'fill_from: last' is the kernel's, after these (patience.moves.turn_from_last)
        has_forced |= fills_last
        out.line("return None")
        out.dedent()
        out.line("")
        return has_forced

    def _fill_lines(self, out: _Writer, group: GroupRules, fill_from: range) -> None:
        taken = ("the stock's next card" if fill_from.start < 0 else
                 "the top card of the first source pile that has one")
        self._note(out, f"piles.{group.name}.fill_from: an empty pile here takes {taken}")
        if group.fill_when is not None:  # fill_when: the fills wait for it
            self._note(out, f"piles.{group.name}.fill_when: the fills are made while it holds")
            out.line(f"if {_source(self._expr([group.fill_when], {}))}:")
            out.indent()
            self._fill_lines(out, attrs.evolve(group, fill_when=None), fill_from)
            out.dedent()
            return
        out.line(f"for t in range({group.indices.start}, {group.indices.stop}):")
        if fill_from.start < 0:  # from the stock
            out.line("    if not piles[t] and stock:")
            out.line("        return (-1, 1, t)")
            return
        out.line("    if not piles[t]:")
        out.line(f"        for s in range({fill_from.start}, {fill_from.stop}):")
        out.line("            if piles[s]:")
        out.line("                return (s, 1, t)")

    def _is_safe(self, out: _Writer) -> None:
        """``is_safe(piles, stock, s, k, t)`` for a legal move (s, k, t): pile s has at
        least k cards, pile t is another."""
        if self.plan.safe is None:
            return
        out.line("")
        out.line("def is_safe(piles, stock, s, k, t):")
        out.indent()
        self._note(out, self.notes.get("solver.safe", ""))
        out.line("src = piles[s]")
        out.line("tgt = piles[t]")
        names: dict[str, Any] = {"run": Run(name("src"), name("k")),
                                 "pile": Pile(name("tgt"), name("t"), None),
                                 "source": Pile(name("src"), name("s"), None)}
        out.line(f"return bool({_source(self._expr([self.plan.safe], names))})")
        out.dedent()

    def _gather_rules(self, out: _Writer) -> None:
        """``gather_keeps(piles, stock, t)`` and ``gather_gaps(piles, stock, t)``: the
        gathering redeal's rules on pile ``t`` (``stock.gather.keep`` and ``.gaps``)."""
        plan = self.plan
        for function, key, rule in (("gather_keeps", "stock.gather.keep", plan.gather_keep),
                                    ("gather_gaps", "stock.gather.gaps", plan.gather_gaps)):
            if rule is None:
                continue
            out.line("")
            out.line(f"def {function}(piles, stock, t):")
            out.indent()
            self._note(out, self.notes.get(key, ""))
            out.line("tgt = piles[t]")
            names: dict[str, Any] = {"pile": Pile(name("tgt"), name("t"), None)}
            out.line(f"return bool({_source(self._expr([rule], names))})")
            out.dedent()

    def _compile(self, source_text: str,
                 label: str) -> tuple[dict[str, types.FunctionType], str, str]:
        """The functions of the source text, compiled once, with the tables they read; the
        text and the name it is registered under."""
        namespace: dict[str, Any] = {"__builtins__": {
            "len": len, "range": range, "all": all, "any": any, "sum": sum, "zip": zip,
            "bool": bool, "enumerate": enumerate}}
        namespace.update(self.compiler.tables.values)
        namespace.update(self.discard_trees)
        # one name per source text: variants of one id (a file's mutants, an edited file
        # compiled again) each keep their own lines in tracebacks and inspect.getsource
        digest = hashlib.sha256(source_text.encode()).hexdigest()[:12]
        filename = f"<patience variant {label}: generated rules {digest}>"
        _register_lines(filename, source_text)
        # compile the text itself: compile(ast.parse(text)) builds Python AST objects, which
        # CPython 3.11 cannot do in two threads at once (a spurious "AST constructor
        # recursion depth mismatch" SystemError, seen in threaded Dask workers)
        module = compile(source_text, filename, "exec")
        functions = {code.co_name: types.FunctionType(code, namespace)
                     for code in module.co_consts if isinstance(code, types.CodeType)}
        if "merci_moves" in functions:  # the move functions call it
            namespace["merci_moves"] = functions["merci_moves"]
        return functions, source_text, filename


def _closing_lines(out: _Writer, groups: Sequence[GroupRules]) -> bool:
    """The first forced steps: a gap of a ``close_gaps`` group closes, the first non-empty
    pile after its first empty one moving whole into it (RulePlan.closing)."""
    for group in groups:
        out.line(f"# piles.{group.name}.close_gaps: the piles after a gap slide toward the "
                 "start")
        out.line(f"for w in range({group.indices.start}, {group.indices.stop}):")
        out.line("    if not piles[w]:")
        out.line(f"        for s in range(w + 1, {group.indices.stop}):")
        out.line("            if piles[s]:")
        out.line("                return (s, len(piles[s]), w)")
        out.line("        break")
    return bool(groups)


def generate(plan: RulePlan, label: str, notes: Mapping[str, str] | None = None) -> Generated:
    """Compile a variant's rule plan into its generated functions. ``notes`` has the rules
    as written, for the comments of the source ("win", "stock.deal_when", "solver.safe",
    and a "title")."""
    return Generator(plan, notes).generate(label)


def _gather_test(gather: Gather, stock: str = "stock") -> str:
    """Whether the gathering redeal is legal: the stock (``stock``, as Python) is empty, a
    redeal is left and a gathered pile holds a card."""
    runs: list[list[int]] = []
    for index in gather.piles:
        if runs and runs[-1][1] == index:
            runs[-1][1] = index + 1
        else:
            runs.append([index, index + 1])
    held = " or ".join(f"piles[{start}]" if stop == start + 1 else f"any(piles[{start}:{stop}])"
                       for start, stop in runs)
    test = f"not {stock} and ({held})"
    if gather.counter is not None:
        test += f" and len(piles[{gather.counter}]) < {gather.limit}"
    return test
