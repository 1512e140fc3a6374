"""Semantic checks: mistakes a variant file can make that need no statement of intent.

* **The win is reachable.** A static bound first: when ``win`` asks every pile of a group
  to hold N cards but the group's ``accepts`` lets cards in only while the pile is empty and
  at most M < N at a time (or the deck is smaller than N), no game can be won — reported
  with the rules involved. Then the solver on a few deals: when every one of them is
  proven unwinnable, that is reported too (an undecided deal proves nothing either way).
* **Every rule clause matters.** Each side of an ``and``/``or`` in a pile group's ``moves``
  or ``accepts`` rule, in ``stock.deal_when`` and in the predicates they call must change
  which moves are legal on some position of the sample. A clause is judged within its own
  rule: to test a clause of an ``accepts`` rule, every pile may give any run; to test a
  clause of a ``moves`` rule, every pile takes anything (so a guard that another rule
  happens to make redundant still counts). Clauses a parameter switches off (``wrap and
  …`` under ``wrap: false``), clauses that read a parameter, guards naming piles (``source
  in columns``) and suit comparisons in a one-suit deck are not judged.
* **Every pile group is entered and left, every deal target receives cards.** On the
  sample, some legal move (or forced move) puts cards on each group whose ``accepts`` is not
  ``false``, takes cards from each group whose ``moves`` is not ``false``, and some deal
  puts a card on every pile ``stock.deals_to`` names.

The *sample* is random play (three lines of up to 150 moves) and the solver's winning line
from each of deals 1–4 (20,000 positions each).

>>> from patience import find_variant
>>> semantic_findings(find_variant("tabbycat"))
[]
"""

from __future__ import annotations

import copy
import functools
import random
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import attrs

from patience.errors import Location
from patience.language import (
    Attribute,
    Boolean,
    BoolOp,
    Call,
    Compare,
    Integer,
    Name,
    Node,
    Not,
    Quantifier,
    parse_expression,
)
from patience.moves import Move
from patience.testing.changed import load_mutant_flat

if TYPE_CHECKING:
    from patience.definition import Rule
    from patience.game import Game
    from patience.variant import Variant

__all__ = ["Line", "SemanticFinding", "SemanticReport", "sample_lines", "semantic_findings",
           "semantic_report"]

DEALS = (1, 2, 3, 4)
CONFIRM_DEALS = tuple(range(5, 17))  # random play that confirms a finding of the sample
SOLVER_MORE_DEALS = tuple(range(5, 13))  # solved when deals 1-4 are all proven unwinnable
RANDOM_LINES = 3  # per deal
RANDOM_MOVES = 150
SOLVER_POSITIONS = 20_000
SOLVER_SECONDS = 2.0
CLAUSE_SECONDS = 30.0  # clauses not reached by then are not judged
CLAUSE_POSITIONS = 400  # positions of the sample the clause check looks at
CLAUSE_WON_POSITIONS = 1_500  # positions of the winning lines it looks at (all, mostly)
CLAUSE_SEEDS = 60  # positions whose piles it rearranges (the winning lines' rare moves)
CLAUSE_REARRANGED = 800  # rearranged positions it looks at, of each kind
_RAISED = object()  # a rule raised an error at the position


@attrs.frozen
class SemanticFinding:
    """One semantic problem: the check, the rule it concerns, where, and what is wrong."""

    check: str  # 'win-unreachable', 'unwinnable-sample', 'clause-never-matters',
    #              'never-entered', 'never-left', 'deal-target-empty'
    rule: str
    message: str
    location: Location | None = None

    def __str__(self) -> str:
        where = f"{self.location.path}:{self.location.line}: " if self.location else ""
        return f"{where}{self.rule}: {self.message}"


@attrs.frozen
class Line:
    """A line of play in the sample: a start, the moves made, how it was found."""

    variant: Variant = attrs.field(repr=False)
    deal: int | None
    moves: tuple[Move, ...]
    notation: tuple[str, ...]
    kind: str  # 'random play' or "the solver's winning line"

    def start(self) -> Game:
        assert self.deal is not None
        return self.variant.deal(self.deal)

    def describe(self) -> str:
        return f"deal {self.deal} ({self.kind})"


@attrs.frozen
class _Sample:
    lines: tuple[Line, ...]
    verdicts: tuple[tuple[int, str], ...]  # (deal, solver verdict)


@functools.lru_cache(maxsize=16)
def _sample(variant: Variant, deals: tuple[int, ...], solved: bool = True) -> _Sample:
    lines: list[Line] = []
    verdicts = []
    try:
        from patience.solver import solve
    except ImportError:  # pragma: no cover - the solver ships with patience
        solve = None  # type: ignore[assignment]
    for deal in deals:
        chooser = random.Random(deal)
        for _ in range(RANDOM_LINES):
            game = variant.deal(deal)
            moves, written = [], []
            for _ in range(RANDOM_MOVES):
                legal = game.generate_moves()
                if not legal:
                    break
                move = Move(*chooser.choice(sorted(legal)))
                written.append(game.notation(move))
                game.push_unchecked(move)
                moves.append(move)
            lines.append(Line(variant, deal, tuple(moves), tuple(written), "random play"))
        if solve is None or not solved:
            continue
        game = variant.deal(deal)
        result = solve(game, max_positions=SOLVER_POSITIONS, time_limit=SOLVER_SECONDS,
                       shorten_line=False)
        verdicts.append((deal, result.verdict))
        if result.verdict == "won":
            moves = []
            for word in result.moves:
                move = game.parse_move(word)
                game.push_unchecked(move)
                moves.append(move)
            lines.append(Line(variant, deal, tuple(moves), tuple(result.moves),
                              "the solver's winning line"))
    return _Sample(tuple(lines), tuple(verdicts))


def sample_lines(variant: Variant, deals: tuple[int, ...] = DEALS,
                 solved: bool = True) -> list[Line]:
    """Random play and (unless not ``solved``) the solver's winning lines from ``deals``
    (computed once per variant)."""
    return list(_sample(variant, tuple(deals), solved).lines)


def _positions(lines: list[Line]) -> Iterator[tuple[Game, Move | None]]:
    """Every position along the lines, with the move made from it (None at the end)."""
    for line in lines:
        game = line.start()
        for move in line.moves:
            yield game, move
            game.push_unchecked(move)
        yield game, None


# --- the checks --------------------------------------------------------------------------


@attrs.frozen
class SemanticReport:
    """What the semantic checks found, what each tried, and what could not run (and why)."""

    findings: tuple[SemanticFinding, ...]
    tried: tuple[str, ...]
    skipped: tuple[str, ...]


def semantic_findings(variant: Variant, *, cheap: bool = False,
                      lines: list[Line] | None = None) -> list[SemanticFinding]:
    """Every semantic finding (``[]`` for a sound variant). ``cheap`` leaves out the
    solver's search and the clause check (what mutation testing runs on each mutant);
    ``lines`` is the sample to use (by default: :func:`sample_lines`)."""
    return list(semantic_report(variant, cheap=cheap, lines=lines).findings)


def semantic_report(variant: Variant, *, cheap: bool = False,
                    lines: list[Line] | None = None) -> SemanticReport:
    """:func:`semantic_findings`, with what each check tried and which could not run."""
    tried = ["the static bound: what 'win' needs against what the piles can hold"]
    skipped: list[str] = []
    findings = win_bound(variant)
    if findings:  # no game can be won: what else the rules do hardly matters
        return SemanticReport(tuple(findings), tuple(tried),
                              (("the other checks: the static bound already finds no game "
                               "can be won"),))
    given = lines is not None
    if lines is None:
        lines = sample_lines(variant)
    won = [line for line in lines if line.kind != "random play"]
    played = len(lines) - len(won)
    deals = sorted({line.deal for line in lines if line.deal is not None})
    shown = ", ".join(map(str, deals))
    tried.append(f"the sample: {played} lines of random play and {len(won)} winning "
                 f"line{'s' if len(won) != 1 else ''} of the solver, from deals {shown}")
    # a sample without a won game cannot tell which piles a game needs to enter or leave
    findings += entered_and_left(variant, lines, groups=bool(won))
    if findings and not given:
        # a small sample can miss a rare move: confirm on a larger one before reporting
        more = sample_lines(variant, CONFIRM_DEALS, solved=False)
        confirmed = entered_and_left(variant, lines + more, groups=bool(won))
        tried.append(f"a larger sample to confirm {len(findings)} finding(s): random play "
                     f"from deals {CONFIRM_DEALS[0]}-{CONFIRM_DEALS[-1]} as well")
        dropped = len(findings) - len(confirmed)
        if dropped:
            skipped.append(f"{dropped} finding(s) of the small sample not confirmed by the "
                           "larger one (not reported)")
        findings = confirmed
    tried.append("every group entered and left, every deal target fed, on the sample"
                 if won else "every group left that cards entered, every deal target fed")
    if not won:
        skipped.append("which groups must be entered and left: the solver won none of "
                       f"deals {shown} ({SOLVER_POSITIONS:,} positions each), and without a "
                       "won game the sample cannot tell")
    if cheap:
        return SemanticReport(tuple(findings), tuple(tried), tuple(skipped))
    if not findings:
        verdict = win_by_solver(variant)
        findings += verdict.findings
        tried += verdict.tried
        skipped += verdict.skipped
    if won:
        clauses = clause_report(variant, lines)
        findings += clauses.findings
        tried += clauses.tried
        skipped += clauses.skipped
    else:
        skipped.append(f"the clause check: the solver won none of deals {shown} "
                       f"({SOLVER_POSITIONS:,} positions each), and a clause is judged on "
                       "positions where games are won")
    return SemanticReport(tuple(findings), tuple(tried), tuple(skipped))


def _location(rule: Rule | None) -> Location | None:
    return rule.origin.location() if rule is not None and rule.origin is not None else None


# -- the win --


def _conjuncts(node: Node, variant: Variant, renaming: dict[str, Node] | None = None,
               depth: int = 0) -> Iterator[tuple[Node, dict[str, Node]]]:
    """The parts of an 'and' chain, predicates written out (each with its renaming)."""
    renaming = renaming or {}
    if isinstance(node, BoolOp) and node.op == "and":
        for value in node.values:
            yield from _conjuncts(value, variant, renaming, depth)
        return
    if isinstance(node, Call) and node.function in variant.predicates and depth < 8:
        predicate = variant.predicates[node.function]
        inner = {p.name: renaming.get(a.id, a) if isinstance(a, Name) else a
                 for p, a in zip(predicate.signature.parameters, node.args)}
        yield from _conjuncts(predicate.body, variant, inner, depth + 1)
        return
    yield node, renaming


def _is(node: Node, renaming: dict[str, Node], variable: str, attribute: str) -> bool:
    if not isinstance(node, Attribute) or node.name != attribute:
        return False
    value = node.value
    if isinstance(value, Name) and value.id in renaming:
        value = renaming[value.id]
    return isinstance(value, Name) and value.id == variable


def _size_bound(node: Node, renaming: dict[str, Node], variable: str,
                upper: bool) -> int | None:
    """N when ``node`` says ``VARIABLE.size == N`` (or ``<= N`` for an upper bound,
    ``>= N`` for a lower one)."""
    if not isinstance(node, Compare):
        return None
    left, op, right = node.left, node.op, node.right
    if isinstance(left, Integer):
        left, right = right, left
        op = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(op, op)
    if not (_is(left, renaming, variable, "size") and isinstance(right, Integer)):
        return None
    value = right.value
    if op == "==":
        return value
    if upper:
        return {"<=": value, "<": value - 1}.get(op)
    return {">=": value, ">": value + 1}.get(op)


def win_bound(variant: Variant) -> list[SemanticFinding]:
    """The static bound: what ``win`` needs against what the piles can ever hold."""
    findings = []
    targets = set(variant.deal_targets)
    for node, renaming in _conjuncts(variant.win.node, variant):
        if not (isinstance(node, Quantifier) and node.kind == "all" and len(node.names) == 1
                and isinstance(node.domain, Name) and node.domain.id in variant.group_by_name):
            continue
        group = variant.group_by_name[node.domain.id]
        need = None
        for part, inner in _conjuncts(node.body, variant, renaming):
            bound = _size_bound(part, inner, node.names[0], upper=False)
            if bound is not None:
                need = bound if need is None else max(need, bound)
        if need is None:
            continue
        deck = len(variant.deck)
        if need > deck:
            findings.append(SemanticFinding(
                "win-unreachable", "win",
                f"no game can be won: the win needs each of the {group.name} to hold {need} "
                f"cards, but the deck has {deck}", _location(variant.win)))
            continue
        fed = any(i in targets for i in group.indices) or any(group.deal) or group.place \
            or group.fill_from is not None
        if fed:
            continue
        parts = list(_conjuncts(group.accepts.node, variant))
        empty = [p for p, r in parts if _is(p, r, "pile", "empty")]
        sizes = [(b, p) for p, r in parts
                 if (b := _size_bound(p, r, "run", upper=True)) is not None]
        if empty and sizes:
            most, part = min(sizes, key=lambda pair: pair[0])
            if most < need:
                text = _text(variant, part)
                findings.append(SemanticFinding(
                    "win-unreachable", "win",
                    f"no game can be won: the win needs each of the {group.name} to hold "
                    f"{need} cards, but piles.{group.name}.accepts lets cards in only while "
                    f"the pile is empty, at most {most} at a time ({text}): a pile there "
                    f"never holds more than {most}", _location(variant.win)))
    return findings


def _text(variant: Variant, node: Node) -> str:
    """The text of a node, found in the rule or predicate it was written in."""
    from patience.language import walk

    texts = [g.accepts.text for g in variant.groups] + [g.moves.text for g in variant.groups]
    texts += [p.text for p in variant.predicates.values()]
    bodies = [g.accepts.node for g in variant.groups] + [g.moves.node for g in variant.groups]
    bodies += [p.body for p in variant.predicates.values()]
    for text, body in zip(texts, bodies):
        if any(sub is node for sub in walk(body)):
            return repr(text[node.span[0]:node.span[1]])
    return "a size limit"


def win_by_solver(variant: Variant) -> SemanticReport:
    """A finding when every deal the solver tries is proven unwinnable: deals 1-4, then (when
    those four are) deals 5-12 too, so that a hard game's unlucky start is no alarm; any
    deal won or undecided leaves the win unjudged (reported as inconclusive)."""
    verdicts = list(_sample(variant, DEALS).verdicts)
    tried = [f"the solver on deals 1-4 ({SOLVER_POSITIONS:,} positions, "
             f"{SOLVER_SECONDS:g} s each): " + _verdicts(verdicts)]
    if not verdicts:
        return SemanticReport((), (), ("the win by the solver: no solver",))
    if not all(verdict == "unwinnable" for _, verdict in verdicts):
        skipped = () if any(v == "won" for _, v in verdicts) else (
            "the win by the solver: inconclusive (no deal won or proven unwinnable)",)
        return SemanticReport((), tuple(tried), skipped)
    more = [(deal, _solve_verdict(variant, deal)) for deal in SOLVER_MORE_DEALS]
    tried.append(f"deals {SOLVER_MORE_DEALS[0]}-{SOLVER_MORE_DEALS[-1]} too: " + _verdicts(more))
    if any(verdict == "won" for _, verdict in more):
        return SemanticReport((), tuple(tried), ())
    if not all(verdict == "unwinnable" for _, verdict in more):
        return SemanticReport((), tuple(tried), (
            (f"the win by the solver: inconclusive (deals 1-4 proven unwinnable, but of deals "
            f"{SOLVER_MORE_DEALS[0]}-{SOLVER_MORE_DEALS[-1]} none won and not all proven "
            "unwinnable)"),))
    shown = ", ".join(str(deal) for deal, _ in verdicts + more)
    return SemanticReport((SemanticFinding(
        "unwinnable-sample", "win",
        f"the solver proved each of deals {shown} unwinnable: check that the win can be "
        f"reached at all (a game this hard can say so: expect: - known: [unwinnable-sample] "
        f"why: …)", _location(variant.win)),), tuple(tried), ())


def _verdicts(verdicts: list[tuple[int, str]]) -> str:
    counts: dict[str, int] = {}
    for _, verdict in verdicts:
        counts[verdict] = counts.get(verdict, 0) + 1
    return ", ".join(f"{n} {verdict}" for verdict, n in counts.items()) or "none"


def _solve_verdict(variant: Variant, deal: int) -> str:
    from patience.solver import solve

    result = solve(variant.deal(deal), max_positions=SOLVER_POSITIONS,
                   time_limit=SOLVER_SECONDS, shorten_line=False)
    return str(result.verdict)


# -- groups and deals --


def entered_and_left(variant: Variant, lines: list[Line],
                     groups: bool = True) -> list[SemanticFinding]:
    """Groups that nothing enters or leaves on the sample (unless not ``groups``), deal
    targets no deal feeds."""
    entered: set[int] = set()
    left: set[int] = set()
    fed: set[int] = set()
    dealt = False
    for game, move in _positions(lines):
        for source, _, target in game.generate_moves():
            if source >= 0:
                entered.add(target)
                left.add(source)
            elif source < -1:  # a discard: its piles' top cards leave for its target
                entered.add(target)
                left.update(variant.discard_sets[-2 - source])
        if move is None:
            continue
        sizes = [len(pile) for pile in game.piles]
        game.push_unchecked(move)
        for forced in game.forced_moves_of_last_move():
            entered.add(forced.target)
            if forced.source >= 0:
                left.add(forced.source)
        if move.source == -1:
            dealt = True
            fed.update(i for i, size in enumerate(sizes)
                       if i < len(game.piles) and len(game.piles[i]) > size)
        game.pop()
    findings = []
    sample = _sample_words(lines)
    for group in variant.groups:
        piles = set(group.indices)
        held = bool(entered & piles) or any(group.deal) or bool(group.place)
        if group.moves.text.strip() != "false" and not left & piles and (groups or held):
            them = "it" if group.count == 1 else "them"
            findings.append(SemanticFinding(
                "never-left", f"piles.{group.name}.moves",
                f"no card left the {group.name} on the sample ({sample})"
                + (f", though cards entered {them}" if held else ""), _location(group.moves)))
        if not groups:
            continue
        if group.accepts.text.strip() != "false" and not entered & piles:
            findings.append(SemanticFinding(
                "never-entered", f"piles.{group.name}.accepts",
                f"no card entered the {group.name} on the sample ({sample})",
                _location(group.accepts)))
    starts = [line.start() for line in lines]
    if variant.deal_targets and any(game.stock for game in starts):
        if not dealt:
            findings.append(SemanticFinding(
                "deal-target-empty", "stock.deal_when",
                "no deal happened on the sample although the stock holds cards",
                _location(variant.deal_when)))
        else:
            hungry = [variant.pile_names[i] for i in dict.fromkeys(variant.deal_targets)
                      if i not in fed]
            if hungry:
                findings.append(SemanticFinding(
                    "deal-target-empty", "stock.deals_to",
                    f"no deal on the sample put a card on {', '.join(hungry)}, which "
                    "stock.deals_to names", None))
    return findings


def _sample_words(lines: list[Line]) -> str:
    """'random play from deals 1-16 and the solver's winning lines from deals 1, 3'."""
    def spans(deals: list[int]) -> str:
        deals = sorted(set(deals))
        if deals and deals == list(range(deals[0], deals[-1] + 1)) and len(deals) > 2:
            return f"{deals[0]}-{deals[-1]}"
        return ", ".join(map(str, deals))

    played = [line.deal for line in lines if line.kind == "random play" and line.deal]
    won = [line.deal for line in lines if line.kind != "random play" and line.deal]
    text = f"random play from deals {spans(played)}"
    return text + (f" and the solver's winning lines from deals {spans(won)}" if won else "")


# -- clauses --


def _rearranged(variant: Variant,
                positions: list[tuple[list[list[int]], list[int]]]
                ) -> list[tuple[list[list[int]], list[int]]]:
    """The positions with the cards of two piles of different groups exchanged, or one's
    put on top of the other's: a clause is judged within its own rule, and these put what
    one group holds where another is (a complete set in the tail, say) without playing
    there."""
    from patience.cards import FACE_DOWN

    real = len(variant.pile_names)
    pairs = [(i, j) for i in range(real) for j in range(i + 1, real)
             if variant.group_of_pile[i] is not variant.group_of_pile[j]]
    down = set(variant.face_down_piles)
    found = []
    for piles, stock in positions:
        for i, j in pairs:
            if not piles[i] and not piles[j]:
                continue
            if any(c & FACE_DOWN for c in piles[i] + piles[j]) and not {i, j} <= down:
                continue
            changed = [list(pile) for pile in piles]
            changed[i], changed[j] = changed[j], changed[i]
            found.append((changed, list(stock)))
            for low, high in ((i, j), (j, i)):
                if piles[low] and piles[high] and not any(c & FACE_DOWN for c in piles[high]):
                    stacked = [list(pile) for pile in piles]
                    stacked[low] = stacked[low] + stacked[high]
                    stacked[high] = []
                    found.append((stacked, list(stock)))
    return found


def _constant(node: Node, parameters: Any) -> bool | None:
    """The value of a clause a parameter (or a literal) fixes, else None."""
    if isinstance(node, Boolean):
        return node.value
    if isinstance(node, Name) and isinstance(parameters.get(node.id), bool):
        return bool(parameters[node.id])
    if isinstance(node, Not):
        inner = _constant(node.operand, parameters)
        return None if inner is None else not inner
    if isinstance(node, BoolOp):
        values = [_constant(v, parameters) for v in node.values]
        absorbing = node.op == "or"  # True absorbs an 'or', False an 'and'
        if absorbing in values:
            return absorbing
        if all(v is not None for v in values):
            return not absorbing
    return None


def _is_pile_guard(node: Node) -> bool:
    """``source in columns``, ``c != source``: a guard about which piles are meant, which
    other rules often settle already (mutation testing still drops it)."""
    from patience.language import Member

    if isinstance(node, Member):
        return True
    return isinstance(node, Compare) and node.op in ("==", "!=") and \
        isinstance(node.left, Name) and isinstance(node.right, Name) and \
        "source" in (node.left.id, node.right.id)


def _reads_parameter(node: Node, variant: Variant) -> bool:
    """A clause that reads a parameter may matter only for another value of it
    (``run.bottom.rank == set_size`` where ``set_size`` is the top rank)."""
    from patience.language import walk

    return any(isinstance(sub, Name) and sub.id in variant.parameters for sub in walk(node))


def _fixed_by_deck(node: Node, variant: Variant) -> bool:
    """A clause that compares only suits in a one-suit deck (or colours in a one-colour
    deck): a shared predicate that this deck makes constant."""
    from patience.language import walk

    read = {sub.name for sub in walk(node) if isinstance(sub, Attribute)}
    if not read or not read <= {"suit", "color"}:
        return False
    colours = {0 if suit in (0, 3) else 1 for suit in variant.suits}
    return len(variant.suits) == 1 or (read == {"color"} and len(colours) == 1)


def _clauses(text: str, variant: Variant) -> Iterator[tuple[str, str, tuple[int, int]]]:
    """(the clause's text, the rule without it, its span) for each clause worth judging."""
    from patience.language import walk

    root = parse_expression(text)
    dead: set[int] = set()
    for sub in walk(root):
        if id(sub) in dead:
            for child in walk(sub):
                dead.add(id(child))
            continue
        if not isinstance(sub, BoolOp):
            continue
        if _constant(sub, variant.parameters) is not None:
            for child in walk(sub):
                dead.add(id(child))
            continue
        start, end = sub.span
        for index, value in enumerate(sub.values):
            if _constant(value, variant.parameters) is not None or _is_pile_guard(value) or \
                    _fixed_by_deck(value, variant) or _reads_parameter(value, variant):
                continue
            rest = [text[v.span[0]:v.span[1]] for i, v in enumerate(sub.values) if i != index]
            yield (text[value.span[0]:value.span[1]],
                   text[:start] + "(" + f" {sub.op} ".join(rest) + ")" + text[end:],
                   value.span)


def clauses_that_never_matter(variant: Variant, lines: list[Line]) -> list[SemanticFinding]:
    """Each clause of a rule that never changes a move set on the sample (judged within its
    own rule: see the module's docstring)."""
    return list(clause_report(variant, lines).findings)


Positions = list[tuple[list[list[int]], list[int]]]
#: a rule judged clause by clause: its name, its text, its path in the flat file, the
#: relaxations it is judged under, and where it is written
Judged = tuple[str, str, tuple[str, ...], tuple[str, ...], Location | None]


def _snapshot(game: Game) -> tuple[list[list[int]], list[int]]:
    return [list(pile) for pile in game.piles], list(game.stock)


def _rare_seeds(variant: Variant, lines: list[Line]) -> Positions:
    """On the winning lines, the positions before each move into a group that seldom
    receives cards (the foundations): where the rare rules decide."""
    winning = [line for line in lines if line.kind != "random play"]
    arrivals: dict[str, int] = {}
    for line in winning:
        game = line.start()
        for move in line.moves:
            game.push_unchecked(move)
            for arrival in [move, *game.forced_moves_of_last_move()]:
                if arrival.source >= 0:
                    name = variant.group_of_pile[arrival.target].name
                    arrivals[name] = arrivals.get(name, 0) + 1
    rare = {name for name, times in arrivals.items() if times <= 40}
    seeds: Positions = []
    for line in winning:
        game = line.start()
        for move in line.moves:
            before = _snapshot(game)
            game.push_unchecked(move)
            forced = game.forced_moves_of_last_move()
            if any(variant.group_of_pile[m.target].name in rare
                   for m in [move, *forced] if m.source >= 0):
                seeds.append(before)
                if forced and move.source >= 0:  # the move made, the removals not yet
                    source, count, target = move
                    raw = [list(pile) for pile in before[0]]
                    raw[target].extend(raw[source][len(raw[source]) - count:])
                    del raw[source][len(raw[source]) - count:]
                    seeds.append((raw, before[1]))
    return seeds


def _clause_positions(variant: Variant, lines: list[Line]) -> Positions:
    """The positions the clauses are judged on: a share of the random play's, of the
    winning lines', every rearrangement of the rare moves' positions and a share of the
    others'."""
    played = [line for line in lines if line.kind == "random play"]
    positions = [_snapshot(game) for game, _ in _positions(played)]
    step = max(1, len(positions) // CLAUSE_POSITIONS)
    spread = positions[::max(1, step * 8)]
    winning = [_snapshot(game)
               for game, _ in _positions([line for line in lines if line not in played])]
    positions = positions[::step] + winning[::max(1, len(winning) // CLAUSE_WON_POSITIONS)]
    rare_rearranged = _rearranged(variant, _rare_seeds(variant, lines)[:CLAUSE_SEEDS])
    positions += rare_rearranged[::max(1, len(rare_rearranged) // CLAUSE_REARRANGED)]
    rearranged = _rearranged(variant, spread)
    positions += rearranged[::max(1, len(rearranged) // CLAUSE_REARRANGED)]
    return positions


class _Judge:
    """Whether dropping a clause changes what the rules say on the positions: the rules
    relaxed one way (or not at all), compiled (without tables: each is used for a few
    thousand positions only), and what they say at each position, worked out once for all
    the clauses judged under them (as far as a judgement has needed)."""

    def __init__(self, variant: Variant, positions: Positions) -> None:
        self.variant = variant
        self.flat = variant.definition.flat
        self.positions = positions
        self.bases: dict[str, tuple[dict[str, Any], Variant | None, list[Any]]] = {}

    def _relaxed(self, field: str) -> dict[str, Any]:
        changed = copy.deepcopy(self.flat)
        if field:
            for settings in (changed.get("piles") or {}).values():
                if isinstance(settings, dict):
                    settings[field] = "true"
        return changed

    def _base(self, field: str) -> tuple[dict[str, Any], Variant | None, list[Any]]:
        if field not in self.bases:
            changed = self._relaxed(field)
            self.bases[field] = (changed, load_mutant_flat(self.variant, changed,
                                                           tabulate=False), [])
        return self.bases[field]

    @staticmethod
    def _says(compiled: Variant, pile_state: list[list[int]], stock: list[int]) -> Any:
        """The sorted legal moves and the first forced move (a raised error stands for
        itself: it differs from any answer)."""
        try:
            forced = None if compiled.first_forced is None else \
                compiled.first_forced(pile_state, stock)
            return sorted(compiled.generate_moves(pile_state, stock)), forced
        except (IndexError, KeyError, ValueError):
            return _RAISED

    def matters(self, field: str, path: tuple[str, ...], without: str) -> bool:
        changed, compiled, answers = self._base(field)
        if compiled is None:
            return True  # cannot judge: say nothing
        other = copy.deepcopy(changed)
        place = other
        for key in path[:-1]:
            place = place[key]
        place[path[-1]] = without
        mutated = load_mutant_flat(self.variant, other, tabulate=False)
        if mutated is None:
            return True  # the loader refuses the rule without it: it matters
        both_force = compiled.first_forced is not None and mutated.first_forced is not None
        for index, (pile_state, stock) in enumerate(self.positions):
            if index == len(answers):
                answers.append(self._says(compiled, pile_state, stock))
            mine, theirs = answers[index], self._says(mutated, pile_state, stock)
            if mine is _RAISED or theirs is _RAISED or mine[0] != theirs[0] or \
                    (both_force and mine[1] != theirs[1]):
                return True
        return False


def _judged_rules(variant: Variant) -> list[Judged]:
    """Which rules are judged, and under which relaxations each."""
    flat = variant.definition.flat
    judged: list[Judged] = []
    for group, settings in (flat.get("piles") or {}).items():
        rule = variant.group_by_name.get(group)
        if not isinstance(settings, dict) or rule is None:
            continue
        for field, relax in (("accepts", "moves"), ("moves", "accepts")):
            text = settings.get(field)
            if isinstance(text, str):
                judged.append((f"piles.{group}.{field}", text, ("piles", group, field),
                               (relax,), _location(getattr(rule, field))))
    deal_when = (flat.get("stock") or {}).get("deal_when")
    if isinstance(deal_when, str):
        judged.append(("stock.deal_when", deal_when, ("stock", "deal_when"), ("",),
                       _location(variant.deal_when)))
    for key, text in (flat.get("predicates") or {}).items():
        if isinstance(text, str):
            name = key.split("(", 1)[0].strip()
            predicate = variant.predicates.get(name)
            origin = predicate.origin[0] if predicate is not None and isinstance(
                predicate.origin, tuple) else None
            judged.append((f"predicate {name}", text, ("predicates", key),
                           ("moves", "accepts", ""),
                           origin.location() if origin is not None else None))
    return judged


def clause_report(variant: Variant, lines: list[Line]) -> SemanticReport:
    """:func:`clauses_that_never_matter`, with how many clauses and positions it judged."""
    positions = _clause_positions(variant, lines)
    judge = _Judge(variant, positions)
    findings: list[SemanticFinding] = []
    deadline = time.perf_counter() + CLAUSE_SECONDS
    clauses = [(rule_name, clause, without, path, relaxations, location)
               for rule_name, text, path, relaxations, location in _judged_rules(variant)
               for clause, without, _span in _clauses(text, variant)]
    tried = ((f"each of {len(clauses)} clauses of the rules dropped in turn, on "
             f"{len(positions):,} positions of the sample (and rearranged ones)"),)
    for number, (rule_name, clause, without, path, relaxations, location) in \
            enumerate(clauses):
        if time.perf_counter() > deadline:  # not judged: no finding, never a false one
            return SemanticReport(tuple(findings), tried, (
                (f"{len(clauses) - number} of {len(clauses)} clauses: not judged within "
                f"{CLAUSE_SECONDS:g} s"),))
        if any(judge.matters(relax, path, without) for relax in relaxations):
            continue
        findings.append(SemanticFinding(
            "clause-never-matters", rule_name,
            f"the clause {clause!r} never changes which moves are legal on the sample "
            f"(random play and the solver's winning lines from deals 1-4): the rule "
            f"reads the same without it", location))
    return SemanticReport(tuple(findings), tried, ())
