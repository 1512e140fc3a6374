"""A game being played: the position, undo and redo, commands, messages, saving.

The terminal app (``patience.play.app``), the line mode (``patience.play.plain``) and any
later front end drive a :class:`Session`; none of them holds game logic of its own.

>>> from patience import find_variant
>>> session = Session(find_variant("tabbycat").deal(1), record_stats=False)
>>> session.apply("d").changed
True
>>> session.status()
'deals left 11 · sets 0/4 · moves 1'
>>> session.apply("u").text
'undid d'
>>> session.apply("c1:1-t").text
''
"""

from __future__ import annotations

import re
import shlex
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from patience import visibility
from patience.cards import card_symbol
from patience.errors import (
    DealError,
    MoveError,
    PatienceError,
    SaveError,
    SolverError,
    SolverMissing,
)
from patience.game import DEAL, Game, Move
from patience.play import destinations, preferences, saves
from patience.refusal import refusal, with_symbols
from patience.seeds import parse_seed
from patience.settings import Target

if TYPE_CHECKING:
    from patience.solver import ViewHint
    from patience.variant import Variant

HINT_POSITIONS = 1_000_000
HINT_SECONDS = 20.0
#: the seconds a hint searches before it gives a suggestion instead (a second press of h at
#: the same position searches with the whole budget)
QUICK_HINT_SECONDS = 0.8
REVIEW_POSITIONS = 300_000
#: positions searched for each guess of the hidden cards in a hint from what is seen
VIEW_HINT_POSITIONS = 20_000
REVIEW_SECONDS = 60.0

KEY_COMMANDS = {
    "d": "deal",
    "u": "undo",
    "r": "redo",
    "h": "hint (from the full deal)",
    "v": "hint from what you see (the hidden cards guessed)",
    "?": "rules",
    "w": "where did I lose",
    "b": "back to the last winnable position (after w)",
    "a": "auto-finish: move every card or set that can go home",
    "o": "automatic moves home on or off (the cards proven safe to send home)",
    "q": "quit",
}

#: a move typed without the count: ``c2-c4``
COUNTLESS_MOVE = re.compile(r"^\s*([A-Za-z]+[0-9]*)\s*-\s*([A-Za-z]+[0-9]*)\s*$")

HELP = """\
commands:
  SRC:N-DST      a move in notation, e.g. c1:3-c4, c3:13-f, t:2-c1
  SRC-DST        a move without the count, e.g. c2-c4: the one legal move from SRC to
                 DST (when there are several, they are listed)
  SRC:^-DST      a draw of a buried card, where the game has one (merci): the card under
                 SRC's top card alone onto DST, e.g. c3:^-c17
  d              deal (also: click the stock)
  u / r          undo / redo
  h              hint from the full deal (the solver knows the stock and face-down cards)
  v              hint from what you see (the hidden cards guessed, never read)
  ?              the rules of this variant
  w              where did I lose (after a lost game)
  b              back to the last winnable position w found (redo still works)
  a / finish     auto-finish: move every card or complete set that can go home
  o / auto       automatic moves home on or off: after each move the cards proven safe
                 to send home go there by themselves (each undone on its own)
  why            the full, rule-level explanation of the last refused move
  restart        back to the start of the deal (redo replays the moves)
  click PILE[:N] click the Nth card from the top of PILE (default the top card)
  moves          the legal moves
  stats          your statistics for this variant
  q              quit (the game is saved; resume with 'patience play --resume')"""


class AutoMove(NamedTuple):
    """A safe move played by itself after the player's (:meth:`Session.play_safe_moves`):
    the move and the cards it took home, read before it was made."""

    move: Move
    cards: tuple[int, ...]


def home_moves(game: Game) -> list[Move]:
    """The legal moves that take a card, or a complete set, home (onto
    ``Variant.home_piles`` from a pile that is not one), in sorted order."""
    homes = game.variant.home_piles
    return sorted(Move(*m) for m in game.generate_moves()
                  if m[0] >= 0 and m[2] in homes and m[0] not in homes)


def finishes_by_sending_home(game: Game) -> bool:
    """Whether sending cards home, the first home move each time (:func:`home_moves`, as
    :meth:`Session.finish` does), wins ``game`` from here: played out on a copy, no
    solver. A game that hides cards (face down, or in the stock) is never said to: the
    answer would tell something of the hidden cards."""
    if game.is_won() or visibility.hides_cards(game):
        return False
    probe = game.copy()
    for _ in range(len(game.variant.deck) + 1):  # each move takes at least one card home
        moves = home_moves(probe)
        if not moves:
            break
        probe.push_unchecked(moves[0])
        if probe.is_won():
            return True
    return False


class Reply(NamedTuple):
    """What a command did: a message to show, and whether the position changed."""

    text: str
    changed: bool = False
    quit: bool = False
    error: bool = False
    explanation: str = ""  # for a refused move: the rule-level explanation (``why``)


def guesses_won(seen: ViewHint) -> str:
    """What a hint from what is seen rests on, in words (the player's and the page's)."""
    return (f"it starts a win in {seen.won} of {seen.samples} guesses of the hidden cards; it "
            "may be wrong for the real ones")


def load_solver() -> Any:
    """``patience.solver.solve``, or SolverMissing with a message a player understands."""
    try:
        from patience.solver import solve
    except ImportError as error:
        raise SolverMissing("the solver is not available in this installation "
                            f"({error}); hints, winnable deals and reviews need it") from None
    return solve


class Session:
    """One game being played, with undo/redo and everything a front end asks."""

    def __init__(self, game: Game, *, redo: list[Move] | None = None, recorded: bool = False,
                 record_stats: bool = True, label: str | None = None,
                 save_file: Path | None = None, seconds: int = 0,
                 auto_home: bool = True, proven: int | None = None) -> None:
        self.game = game
        #: play the safe moves home by themselves after each move (:meth:`play_safe_moves`)
        self.auto_home = auto_home
        #: the safe moves played by themselves after the last move
        self.last_auto: list[AutoMove] = []
        #: the time played before this session (read from the save), and when it began
        self.seconds_before = seconds
        self.clock_started = time.monotonic()
        self.last_active = self.clock_started  # the last request (:meth:`skip_idle`)
        #: the time played when the game ended: the clock stands while it is over
        self.stopped_at: int | None = None
        self.save_file = save_file  # where the game is saved (default: the variant's own save)
        #: a hint's solver budget: positions and seconds (the arguments of hint() override)
        self.hint_budget: tuple[int, float | None] = (HINT_POSITIONS, HINT_SECONDS)
        #: the seconds a first hint at a position searches before it suggests a move
        self.quick_seconds = QUICK_HINT_SECONDS
        self.fallback_file: Path | None = None  # where it went when save_file could not be used
        self.variant: Variant = game.variant
        self.redo_stack: list[Move] = list(redo or [])  # the next move to redo is last
        self.recorded = recorded  # the game's result is already in the statistics
        self.record_stats = record_stats
        self.label = label or describe_start(game)
        self._line: list[Move] = []  # the solver's last winning line, if known
        self._line_at: dict[bytes, int] = {}  # each position of it: the move played there
        #: where the last hint was given, and its move when it was a suggestion (no
        #: winning line known)
        self._hint_key: bytes | None = None
        self._suggested: Move | None = None
        #: the suggestion came from a search with the whole budget (a second hint)
        self.searched_longer = False
        #: where a line without take-backs was last looked for with the whole budget (a
        #: second hint at a line that takes cards back): the position's key, the verdict and
        #: the positions searched
        self._without_take_backs: tuple[bytes, str, int] | None = None
        #: the positions budget the solver proved this deal winnable with, from its start
        #: (a winnable or daily deal): a hint at the start searches with it, and finds the win;
        #: kept in the save (``to_save``), so a resumed game's hint finds it too
        self.proven = proven
        # the last hint from what is seen: its move, the position's key, the guesses won
        self._seen: tuple[Move, bytes, ViewHint] | None = None
        self.last_winnable: int | None = None  # moves played at the last winnable position
        self.last_refusal = ""  # the rule-level explanation of the last refused move
        #: what went wrong with the last save (None: it was written where it belongs)
        self.save_problem: str | None = None
        #: this variant's statistics as this game's result left them (None: not recorded)
        self.last_record: dict[str, int] | None = None

    # -- what a front end shows --

    def status(self) -> str:
        """The counters: deals left, the sets or cards home (``Variant.home_piles``, the one
        fact the terminal, the line mode and the web page read), the moves made."""
        game = self.game
        homes = [g for g in self.variant.groups
                 if any(i in self.variant.home_piles for i in g.indices)]
        from patience.solver.rules import requires_empty_pile

        # groups that take a whole set each, into an empty pile (Tabby Cat, Spider), count
        # sets; foundations built card by card (Klondike) count the cards home
        if homes and all(requires_empty_pile(g) for g in homes):
            total = sum(g.count for g in homes)
            home = f"sets {game.sets_completed()}/{total}"
        else:  # foundations built card by card: count the cards home
            home = f"home {game.cards_home()}/{len(self.variant.deck)}"
        stock = f"deals left {game.deals_left}" if self.variant.deal_targets and \
            not self.variant.plan.never_deals else ""
        score = self.score()
        shown = "" if score is None or self.variant.score is None else \
            f"score {self.variant.score.text(score)}"
        return " · ".join(part for part in (stock, home, f"moves {len(game.move_stack)}",
                                            shown) if part)

    def elapsed(self) -> int:
        """The seconds this game has been played, across saves and resumes (the clock). It
        stands still while the game is over (won, or no move left) and goes on from there
        when a move is undone."""
        now = time.monotonic()
        if self.is_over():
            if self.stopped_at is None:
                self.stopped_at = self.seconds_before + int(now - self.clock_started)
            return self.stopped_at
        if self.stopped_at is not None:  # undone after the end: on from where it stood
            self.seconds_before, self.clock_started = self.stopped_at, now
            self.stopped_at = None
        return self.seconds_before + int(now - self.clock_started)

    def skip_idle(self, limit: float) -> None:
        """Count a pause of more than ``limit`` seconds since the last call as ``limit``
        seconds of play: a web page left open overnight, or closed and opened again the
        next day, does not count the night (``patience.web``, at every request)."""
        now = time.monotonic()
        gap = now - self.last_active
        if gap > limit:
            self.clock_started += gap - limit
        self.last_active = now

    def score(self) -> int | None:
        """The score, where the variant file declares one (``score:``: ``Variant.score``),
        else None: ``start`` plus ``home`` for each card home (``Game.cards_home``)."""
        score = self.variant.score
        if score is None:
            return None
        return score.start + score.home * self.game.cards_home()

    def summary(self) -> str:
        """The moves, the time played and the score (where there is one), in words:
        ``'87 moves, 4:12, score -$27'``."""
        moves = len(self.game.move_stack)
        parts = [f"{moves} move{'s' if moves != 1 else ''}", saves.clock(self.elapsed())]
        score = self.score()
        if score is not None:
            assert self.variant.score is not None
            parts.append(f"score {self.variant.score.text(score)}")
        return ", ".join(parts)

    def record_summary(self) -> str:
        """The games won and the streak at this variant as this game's win left them, in
        words (``'won 3 of 5 games (60%), streak 2 (best 3)'``); empty when no win of this
        session was recorded."""
        record = self.last_record
        if record is None or not record["games"] or not self.game.is_won():
            return ""
        return (f"won {record['wins']} of {record['games']} "
                f"game{'s' if record['games'] != 1 else ''} ({saves.win_percent(record)}%), "
                f"streak {record['streak']} (best {record['best_streak']})")

    def win_summary(self) -> str:
        """A won game's summary, a fact a line: the time, the moves, the score (where there
        is one), and the games won and the streak at this variant as this win left them
        (the statistics, ``patience.play.saves``; left out where they were not recorded)."""
        lines = [f"time    {saves.clock(self.elapsed())}",
                 f"moves   {len(self.game.move_stack)}"]
        score = self.score()
        if score is not None:
            assert self.variant.score is not None
            lines.append(f"score   {self.variant.score.text(score)}")
        record = self.last_record
        if record is not None and record["games"]:
            lines.append(f"won     {record['wins']} of {record['games']} "
                         f"game{'s' if record['games'] != 1 else ''} "
                         f"({saves.win_percent(record)}%)")
            lines.append(f"streak  {record['streak']} (best {record['best_streak']})")
        return "\n".join(lines)

    def title(self) -> str:
        return f"{self.variant.name} — {self.label}"

    def drawing(self) -> str:
        return self.game.drawing()

    def is_over(self) -> bool:
        return not self.game.has_moves()

    def end_message(self) -> str:
        if self.game.is_won():
            return "You won!"
        if not self.game.has_moves():
            return "No move is left: the game is lost. Press u to undo, w to see where it was lost."
        return ""

    def rules(self) -> str:
        """The rules in a player's words, then exactly as the variant file writes them."""
        from patience.plainrules import plain_rules_text

        return (f"{plain_rules_text(self.variant)}\n\n— The rules exactly as written —\n\n"
                f"{self.variant.rules_text()}")

    def planned_moves(self) -> list[Move]:
        """The rest of the winning line a hint found, when this position is on it (else
        []): followed move by move, or come back to by undo."""
        at = self._line_at.get(self.game.key())
        return [] if at is None else self._line[at:]

    def take_backs(self) -> int:
        """How many moves of the planned line (:meth:`planned_moves`) take a card back off
        a home pile (``patience.solver.lines.takes_back``)."""
        plan = self.planned_moves()
        if not plan:
            return 0
        from patience.solver.lines import takes_back

        return sum(1 for move in plan if takes_back(self.variant, move))

    def take_back_note(self, again: str = "h again") -> str:
        """What the planned line's take-backs are, in words ('' when it has none): how many
        cards it takes back from home, and whether ``again`` (a second hint here) looks
        longer for a line without, or did and found none, or proved there is none."""
        count = self.take_backs()
        if not count:
            return ""
        cards = f"it takes {count} card{'s' if count != 1 else ''} back from home"
        searched = self._without_take_backs
        if searched is None or searched[0] != self.game.key():
            return f"{cards}; {again} looks longer for a line without"
        _, verdict, positions = searched
        if verdict == "unwinnable":
            return f"{cards}, as every win from here does (the solver proved it)"
        return f"{cards}: no line without was found within {positions:,} positions"

    def hinted_move(self) -> Move | None:
        """The move the last hint gave, of either reading (or its suggestion), when it was
        given at this position."""
        if self.view_hint() is not None:
            assert self._seen is not None
            return self._seen[0]  # given after any plan (a full-deal hint forgets it)
        if self._hint_key != self.game.key():
            return None
        plan = self.planned_moves()
        return plan[0] if plan else self._suggested

    def hint_is_suggestion(self) -> bool:
        """Whether the hint given here is a suggestion: the solver decided nothing in time
        (``patience.solver.lines.suggestion``), so it is no move of a known win."""
        return self._hint_key == self.game.key() and self._suggested is not None \
            and self.view_hint() is None

    def view_hint(self) -> ViewHint | None:
        """The last hint from what is seen (:meth:`hint_from_view`), when it was the last
        hint given and for this position."""
        if self._seen is not None and self._seen[1] == self.game.key():
            return self._seen[2]
        return None

    def hides_cards(self) -> bool:
        """Whether some cards are hidden from the player here: face down, or in the stock.
        Then a hint has two readings (:meth:`hint`, :meth:`hint_from_view`)."""
        return visibility.hides_cards(self.game)

    def legal_moves_text(self) -> list[str]:
        return sorted(self.game.notation(m) for m in self.game.generate_moves())

    # -- commands --

    def apply(self, command: str) -> Reply:
        """Carry out one command line (a move in notation, or a command word)."""
        text = command.strip()
        word = text.lower()
        if not text:
            return Reply("")
        if word in ("u", "undo"):
            return self.undo()
        if word in ("r", "redo"):
            return self.redo()
        if word in ("h", "hint"):
            return self.hint()
        if word in ("v", "view hint", "hint from view"):
            return self.hint_from_view()
        if word in ("?", "rules"):
            return Reply(self.rules())
        if word in ("w", "where", "where did i lose"):
            return self.where_lost()
        if word in ("b", "back"):
            return self.back()
        if word in ("q", "quit", "exit"):
            return Reply("", quit=True)
        if word in ("help", "commands"):
            return Reply(HELP)
        if word == "moves":
            return Reply(" ".join(self.legal_moves_text()) or "no move is left")
        if word == "stats":
            return self.stats()
        if word == "why":
            return Reply(self.last_refusal or "no move was refused yet")
        if word in ("a", "finish", "auto-finish"):
            return self.finish()
        if word in ("o", "auto"):
            return self.toggle_auto_home()
        if word == "restart":
            return self.restart()
        if word.startswith("click"):
            return self._click_command(text[len("click"):].strip())
        countless = COUNTLESS_MOVE.match(text)
        if countless:
            return self._countless_move(text, countless.group(1), countless.group(2))
        try:
            move = self.game.parse_move(text)
        except MoveError as error:
            return Reply(f"{with_symbols(str(error))} (type 'help' for the commands)",
                         error=True)
        return self.play(move)

    def _countless_move(self, text: str, source_name: str, target_name: str) -> Reply:
        """``c2-c4``: the one legal move from pile ``c2`` to ``c4`` (a group id such as ``f``
        names its first pile that takes the cards), or the choices when there are several."""
        variant = self.variant
        game = self.game
        names = " ".join(variant.pile_names)
        if source_name not in variant.pile_index:
            return Reply(f"{text}: there is no pile {source_name!r} (piles: {names})",
                         error=True)
        source = variant.pile_index[source_name]
        groups = {g.id: g for g in variant.groups if g.target is Target.FIRST}
        if target_name in groups:
            targets = set(groups[target_name].indices)
        elif target_name in variant.pile_index:
            targets = {variant.pile_index[target_name]}
        else:
            return Reply(f"{text}: there is no pile {target_name!r} (piles: {names})",
                         error=True)
        moves = sorted({Move(*m) for m in game.generate_moves()
                        if m[0] == source and m[2] in targets}, key=lambda m: m.count)
        if len(moves) == 1:
            return self.play(moves[0])
        if moves:
            choices = ", ".join(game.notation(m) for m in moves)
            return Reply(f"{text} could be {choices}: type one of them", error=True)
        if not game.piles[source]:
            return Reply(f"{source_name} is empty", error=True)
        return self.play(Move(source, 1, min(targets)))

    def restart(self) -> Reply:
        """Back to the start of the deal; redo replays the moves."""
        if not self.game.move_stack:
            return Reply("the game is at its start already", error=True)
        while self.game.move_stack:
            self.redo_stack.append(self.game.pop())
        self.elapsed()  # the clock goes on from now if the game had ended
        return Reply("back at the start; r (redo) replays the moves", changed=True)

    def finish(self) -> Reply:
        """Auto-finish: play every move to a group that takes cards home (the foundations),
        again and again, while there is one: complete sets where removal is optional, cards
        where foundations build up. Each move is undone on its own."""
        game = self.game
        self.last_auto = []
        played = []
        while not game.is_won():
            home = home_moves(game)
            if not home:
                break
            reply = self.play(home[0], auto=False)
            if not reply.changed:
                break
            played.append(game.notation(game.move_stack[-1]))
        if not played:
            return Reply("nothing can go home now", error=True)
        text = f"auto-finish: {' '.join(played)}"
        end = self._after_change("")
        return Reply(f"{text} {end}".strip(), changed=True)

    def can_finish(self) -> bool:
        """Whether the rest of the game is a formality: every card is in view and sending
        cards home (:meth:`finish`) wins (:func:`finishes_by_sending_home`)."""
        return finishes_by_sending_home(self.game)

    def safe_move(self) -> Move | None:
        """The first move home, in sorted order, that the variant's safe moves
        (``Variant.safe``: the file's ``solver.safe``, or the one derived from its rules,
        ``patience.safe_derivation``) call safe: a move that never costs the win (docs/
        solver.md, "Safe moves"). None when there is none, or the variant has no safe
        moves."""
        is_safe = self.variant.is_safe
        if is_safe is None:
            return None
        game = self.game
        for move in home_moves(game):
            if is_safe(game.piles, game.stock, *move):
                return move
        return None

    def toggle_auto_home(self) -> Reply:
        """Turn the automatic safe moves home (:meth:`play_safe_moves`) on or off, and
        remember the choice for the next games (``patience.play.preferences``) unless this
        session keeps no player files (``record_stats`` false). Turned on, the safe moves
        there are now are played at once."""
        self.auto_home = not self.auto_home
        note = ""
        if self.record_stats:
            try:
                preferences.write_preference("auto_home", self.auto_home)
            except SaveError as error:
                note = f" (not remembered for the next games: {error})"
        if not self.auto_home:
            return Reply(f"automatic moves home: off; o turns them on{note}")
        if self.variant.is_safe is None:
            return Reply("automatic moves home: on, but this game has no move proven safe "
                         f"(docs/solver.md, 'Safe moves'){note}")
        went = went_home(self.play_safe_moves())
        text = f"automatic moves home: on{note}" + (f"; {went}" if went else "")
        return Reply(self._after_change(text) if went else text, changed=bool(went))

    def play_safe_moves(self) -> list[AutoMove]:
        """Play every safe move home (:meth:`safe_move`), one after the other, each its own
        step for undo; what was played (also kept in ``last_auto``)."""
        game = self.game
        played: list[AutoMove] = []
        for _ in range(len(self.variant.deck)):  # each takes at least one card home
            if game.is_won():
                break
            move = self.safe_move()
            if move is None:
                break
            played.append(AutoMove(move, tuple(game.piles[move.source][-move.count:])))
            self._push(move)
        self.last_auto = played
        return played

    def play(self, move: tuple[int, int, int], *, auto: bool = True) -> Reply:
        """Make a move if it is legal; otherwise explain which rule forbids it. With
        ``auto`` (and ``auto_home`` on) the safe moves home follow it by themselves
        (:meth:`play_safe_moves`)."""
        move = Move(*move)
        game = self.game
        self.last_auto = []
        if not game.is_legal(move):
            refused = refusal(game, move)
            written = game.notation(move)
            words = refused.words if refused else f"{written} is not legal here"
            self.last_refusal = refused.explanation if refused else words
            return Reply(words, error=True,
                         explanation=self.last_refusal)
        self._push(move)
        went = self.play_safe_moves() if auto and self.auto_home else []
        return Reply(self._after_change(went_home(went)), changed=True)

    def _push(self, move: Move) -> None:
        """Make the legal ``move``: the hint's plan and the redo stack follow."""
        self.game.push_unchecked(move)
        if self.redo_stack and self.redo_stack[-1] == move:
            self.redo_stack.pop()
        else:
            self.redo_stack.clear()

    def deal(self) -> Reply:
        return self.play(DEAL)

    def click(self, source: int, depth: int = 0) -> Reply:
        """A click on the card ``depth`` places below the top of pile ``source``."""
        game = self.game
        name = self.variant.pile_names[source]
        if not game.piles[source]:
            return Reply(f"{name} is empty", error=True)
        hinted = self.hinted_move()
        if hinted is not None and (hinted.source, hinted.count) == (source, depth + 1):
            return self.play(hinted)  # the hinted card makes the hinted move
        move = destinations.click_move(game, source, depth)
        if move is None:
            count = depth + 1
            return self._why_not(source, count)
        return self.play(move)

    def drop(self, source: int, depth: int, target: int) -> Reply:
        """A drag of the card ``depth`` below the top of ``source`` (with the cards on it)
        onto pile ``target``."""
        if source == target:
            return self.click(source, depth)
        if not self.game.piles[source]:
            return Reply(f"{self.variant.pile_names[source]} is empty", error=True)
        return self.play(destinations.drop_move(self.game, source, depth, target))

    def undo(self) -> Reply:
        game = self.game
        if not game.move_stack:
            return Reply("nothing to undo", error=True)
        move = game.pop()
        self.last_auto = []
        self.redo_stack.append(move)
        self.elapsed()  # undone after the end: the clock goes on from now
        return Reply(f"undid {game.notation(move)}", changed=True)

    def redo(self) -> Reply:
        if not self.redo_stack:
            return Reply("nothing to redo", error=True)
        move = self.redo_stack[-1]
        reply = self.play(move, auto=False)  # the safe moves played then are redone one by one
        if reply.changed:
            return reply._replace(text=f"redid {self.game.notation(move)}"
                                  + (f" — {reply.text}" if reply.text else ""))
        self.redo_stack.clear()
        return reply

    def back(self) -> Reply:
        """Undo back to the last winnable position found by :meth:`where_lost`."""
        target = self.last_winnable
        if target is None or target > len(self.game.move_stack):
            return Reply("press w first to find the last winnable position", error=True)
        while len(self.game.move_stack) > target:
            self.redo_stack.append(self.game.pop())
        self.elapsed()  # the clock goes on from now if the game had ended
        return Reply(f"back after move {target}, the last position that could be won; "
                     "press h for a hint", changed=True)

    def _click_command(self, argument: str) -> Reply:
        name, _, count_text = argument.partition(":")
        name = name.strip()
        if name in ("s", "stock"):
            return self.deal()
        if name not in self.variant.pile_index:
            return Reply(f"click {argument!r}: there is no pile {name!r} "
                         f"(piles: {' '.join(self.variant.pile_names)})", error=True)
        try:
            count = int(count_text) if count_text.strip() else 1
        except ValueError:
            return Reply(f"click {argument!r}: write 'click PILE' or 'click PILE:N'", error=True)
        if count < 1:
            return Reply(f"click {argument!r}: N counts cards from the top, from 1", error=True)
        return self.click(self.variant.pile_index[name], count - 1)

    def _why_not(self, source: int, count: int) -> Reply:
        """A stuck click: why the cards cannot go to their most natural destination."""
        game = self.game
        name = self.variant.pile_names[source]
        what = "this card" if count == 1 else "these cards"
        for target in range(len(game.piles)):
            if target == source:
                continue
            group = self.variant.group_of_pile[target]
            if group.target is Target.FIRST or not game.piles[target]:
                continue
            refused = refusal(game, Move(source, count, target))
            if refused:
                self.last_refusal = refused.explanation
                return Reply(f"{name}:{count}: {what} cannot move anywhere now; "
                             f"{refused.words}", error=True,
                             explanation=refused.explanation)
        return Reply(f"{name}:{count}: {what} cannot move anywhere now", error=True)

    def _after_change(self, text: str) -> str:
        end = self.end_message()
        if not end:
            return text
        record = self._record_result(self.game.is_won())
        return " ".join(part for part in (text, end, record) if part)

    def _record_result(self, won: bool) -> str:
        if self.recorded or not self.record_stats:
            return ""
        try:
            record = saves.record_result(self.variant.id, won, self.elapsed(),
                                         moves=len(self.game.move_stack))
        except SaveError as error:
            # the game stays unrecorded (and its save kept): the result can still be counted
            return f"(statistics not recorded: {error})"
        self.recorded = True
        self.last_record = record
        return f"{self.variant.name}: {saves.describe_record(record)}."

    def stats(self) -> Reply:
        try:
            record = saves.read_stats().get(self.variant.id, saves.empty_record())
        except SaveError as error:
            return Reply(str(error), error=True)
        return Reply(f"{self.variant.name}: {saves.describe_record(record)}")

    # -- the solver --

    def _remember_line(self, line: list[Move]) -> None:
        """Keep a winning line from here: each of its positions, the move to play there."""
        probe = self.game.copy()
        self._line, self._line_at = line, {}
        for number, move in enumerate(line):
            self._line_at[probe.key()] = number  # the last visit: the shortest way on
            probe.push_unchecked(move)

    def hint(self, max_positions: int | None = None, time_limit: float | None | str = "budget",
             *, should_stop: Callable[[int], bool] | None = None) -> Reply:
        """The next move of a winning line found by the solver, within ``max_positions`` and
        ``time_limit`` seconds (None: no limit); by default ``hint_budget``'s. ``should_stop``
        is the solver's: called with the positions searched so far, a true answer stops it.

        The first hint at a position searches at most ``quick_seconds``; when that
        decides nothing, the hint is a suggestion (``patience.solver.lines.suggestion``),
        said to be one, and a second hint at the same position searches with the whole
        budget. At the start of a deal proven winnable (``proven``) the search is the
        proof's, so it finds the win. The line is one a player can follow
        (``patience.solver.hint``: no take-back where a line without one is found)."""
        if max_positions is None:
            max_positions = self.hint_budget[0]
        seconds = self.hint_budget[1] if isinstance(time_limit, str) else time_limit
        game = self.game
        if game.is_won():
            return Reply("the game is won")
        if not game.has_moves():
            return Reply("no move is left; press u to undo or w to see where the game was lost")
        self._seen = None
        label = "hint from the full deal" if self.hides_cards() else "hint"
        key = game.key()
        plan = self.planned_moves()
        # a second hint at a line that takes cards back: look longer for a line without
        without = bool(plan) and self._hint_key == key and self.take_backs() > 0 and (
            self._without_take_backs is None or self._without_take_backs[0] != key)
        if plan and not without:
            self._hint_key, self._suggested = key, None
            return Reply(f"{label}: {game.notation(plan[0])} (a win in {len(plan)} more "
                         f"move{'s' if len(plan) != 1 else ''}{self._note()})")
        try:
            load_solver()
            from patience.solver import hint
        except SolverMissing as error:
            return Reply(f"no hint: {error}", error=True)
        if without:
            return self._hint_without_take_backs(label, max_positions, seconds, should_stop)
        again = self._hint_key == key and self._suggested is not None
        if self.proven is not None and not game.move_stack:
            max_positions, seconds = self.proven, None  # the proof's search, found again
        elif not again:
            seconds = self.quick_seconds if seconds is None else min(seconds,
                                                                      self.quick_seconds)
        _, result = hint(game.copy(), max_positions, seconds, should_stop=should_stop)
        if should_stop is not None and result.verdict == "unknown" \
                and should_stop(result.positions):
            return Reply(f"hint cancelled after {result.positions:,} positions")
        self._hint_key, self._suggested = key, None
        if result.verdict == "won" and result.moves:
            self._remember_line(game.parse_moves(" ".join(result.moves)))
            knows = " (the solver knows the hidden cards; v: a hint from what you see)" \
                if self.hides_cards() else ""
            return Reply(f"{label}: {result.moves[0]} (a win in {len(result.moves)} "
                         f"move{'s' if len(result.moves) != 1 else ''}{self._note()}){knows}")
        if result.verdict == "unwinnable":
            return Reply("no move wins from here (the solver proved it): undo, or press w to "
                         "see where the game was lost")
        from patience.solver.lines import suggestion

        self._suggested = suggestion(game)
        assert self._suggested is not None  # the game has moves
        self.searched_longer = again
        longer = "" if again else "; h again searches longer"
        return Reply(f"suggestion: {game.notation(self._suggested)} (the solver has not "
                     f"decided this position within {result.positions:,} positions, so no "
                     f"win is known{longer})")

    def _note(self) -> str:
        """:meth:`take_back_note` after a hint's line, or ''."""
        note = self.take_back_note()
        return f"; {note}" if note else ""

    def _hint_without_take_backs(self, label: str, max_positions: int, seconds: float | None,
                                 should_stop: Callable[[int], bool] | None) -> Reply:
        """The second hint at a line that takes cards back: a line without take-backs
        searched for with the whole budget (``lines.line_without_take_backs``); where none is
        found the line stays, and the reply says so."""
        from patience.solver.lines import line_without_take_backs

        game, key = self.game, self.game.key()
        result = line_without_take_backs(game.copy(), max_positions, seconds,
                                         should_stop=should_stop)
        assert result is not None  # the line takes cards back, so cards can leave home
        if should_stop is not None and result.verdict == "unknown" \
                and should_stop(result.positions):
            return Reply(f"hint cancelled after {result.positions:,} positions")
        self._hint_key, self._suggested = key, None
        self._without_take_backs = (key, result.verdict, result.positions)
        found = result.verdict == "won" and bool(result.moves)
        if found:
            self._remember_line(game.parse_moves(" ".join(result.moves)))
        plan = self.planned_moves()
        words = ", with no card taken back from home" if found else self._note()
        return Reply(f"{label}: {game.notation(plan[0])} (a win in {len(plan)} more "
                     f"move{'s' if len(plan) != 1 else ''}{words})")

    def hint_from_view(self, *, should_stop: Callable[[int], bool] | None = None,
                       max_positions: int = VIEW_HINT_POSITIONS) -> Reply:
        """A hint that uses only what the player sees (``patience.solver.hint_from_view``:
        the hidden cards guessed at random, never read, each guess searched within
        ``max_positions``). Where nothing is hidden it is the full deal's hint.
        ``should_stop`` as for :meth:`hint`."""
        game = self.game
        if game.is_won():
            return Reply("the game is won")
        if not self.hides_cards():
            reply = self.hint(should_stop=should_stop)
            return reply._replace(text=reply.text + " (every card is in view: a hint from "
                                  "what you see is the same)")
        if not game.has_moves():
            return Reply("no move is left; press u to undo or w to see where the game was lost")
        try:
            from patience.solver import hint_from_view
        except ImportError as error:
            return Reply(f"no hint: the solver is not available ({error})", error=True)
        try:
            seen = hint_from_view(game, max_positions=max_positions, should_stop=should_stop)
        except SolverError:
            return Reply("hint cancelled")
        if seen.move is None:
            return Reply(f"no hint from what you see: none of {seen.samples} guesses of the "
                         "hidden cards was won within the budget (h: a hint from the full "
                         "deal)")
        self._seen = (game.parse_move(seen.move), game.key(), seen)
        return Reply(f"hint from what you see: {seen.move} ({guesses_won(seen)})")

    def where_lost(self, max_positions: int = REVIEW_POSITIONS,
                   time_limit: float | None = REVIEW_SECONDS, *,
                   should_stop: Callable[[int], bool] | None = None) -> Reply:
        """Replay the game backwards with the solver: the last position that could still be
        won, and the move that lost it. ``should_stop`` as for :meth:`hint` (it is given
        the positions searched over all the positions replayed).

        Once the game is over (``visibility.reveals_all``) the answer shows that position
        and a winning line from there; while it is in progress it shows neither (both would
        tell hidden cards), only the move that lost the game and where ``b`` goes back to."""
        try:
            solve = load_solver()
        except SolverMissing as error:
            return Reply(f"cannot review the game: {error}", error=True)
        game = self.game
        if game.is_won():
            return Reply("the game is won")
        probe = game.copy()
        deadline = None if time_limit is None else time.monotonic() + time_limit
        moves = list(probe.move_stack)
        spent = 0
        for played in range(len(moves), -1, -1):
            if deadline is not None and played < len(moves) and time.monotonic() >= deadline:
                return Reply(f"the review ran out of time ({time_limit:g} s) at the position "
                             f"after move {played}; the game was lost at move {played + 1} "
                             "or earlier")
            left = None if deadline is None else max(1.0, deadline - time.monotonic())
            stop = None if should_stop is None else \
                (lambda expanded, spent=spent: should_stop(spent + expanded))
            result = solve(probe.copy(), max_positions=max_positions, time_limit=left,
                           should_stop=stop)
            spent += result.positions
            if should_stop is not None and result.verdict == "unknown" \
                    and should_stop(spent):
                return Reply(f"the review was cancelled at the position after move {played}")
            if result.verdict == "won":
                if played == len(moves):
                    return Reply("this position can still be won; press h for a hint")
                lost = game.notation(moves[played])
                self.last_winnable = played
                if not visibility.reveals_all(game):
                    return Reply(
                        f"The last winnable position came after move {played}. "
                        f"Move {played + 1}, {lost}, lost the game. The game is not over, "
                        "so that position and a winning line from there stay hidden (they "
                        "would show the hidden cards).\nPress b to go back there.")
                best = " ".join(result.moves[:8]) + (" …" if len(result.moves) > 8 else "")
                return Reply(
                    f"The last winnable position came after move {played} "
                    f"({probe.text()}):\n{probe.drawing()}\n"
                    f"Move {played + 1}, {lost}, lost the game. "
                    f"A winning line from there: {best}\nPress b to go back there.")
            if result.verdict != "won" and result.verdict != "unwinnable":
                return Reply(f"the solver could not decide the position after move {played} "
                             f"within its budget; the game was lost at move {played + 1} "
                             "or earlier")
            if played:
                probe.pop()
        return Reply("this deal could not be won from the start (the solver proved it)")

    # -- saving --

    def to_save(self) -> dict[str, Any]:
        game = self.game
        variant = self.variant
        return {
            "variant": variant.id,
            "variant_path": str(Path(variant.path).resolve()) if variant.path else None,
            "rules_hash": variant.rules_hash,
            "label": self.label,
            "deal_number": game.deal_number,
            # Microsoft's or PySolFC's number (ours is deal_number); only when there is one,
            # so that a save of our own deal stays readable by earlier versions
            **({"seed": str(game.seed)} if game.seed and not game.seed.is_ours else {}),
            "start": game.start().text(),
            "moves": [game.notation(m) for m in game.move_stack],
            "redo": [game.notation(m) for m in self.redo_stack],
            "recorded": self.recorded,
            "seconds": self.elapsed(),
            "saved": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            # only when the deal was proven winnable, so that other saves stay readable by
            # earlier versions
            **({"proven": self.proven} if self.proven is not None else {}),
        }

    def save(self) -> str:
        """Save the game (or forget the save when this game is over). A message to show.

        A save file that is not ours (corrupt, another program's, not a regular file) is
        never overwritten; neither is the game lost when the file cannot be written (a
        read-only folder, a full disk): it goes to a fallback file
        (:func:`saves.write_fallback_save`) and the message says where.
        """
        path = self.save_path
        existing, problem = self._existing_save(path)
        if self.recorded and self.is_over():
            if existing is not None and self.is_saved_in(existing):
                saves.remove_save(path)  # this game's save; another game's stays
            if self.fallback_file is not None:
                saves.remove_save(self.fallback_file)
            self.save_problem = None
            return ""
        if problem is None:
            try:
                written = saves.write_save(self.to_save(), path)
            except SaveError as error:
                problem = str(error)
            else:
                if self.fallback_file is not None:  # the usual file works again
                    saves.remove_save(self.fallback_file)
                    self.fallback_file = None
                self.save_problem = None
                return (f"saved to {written}; resume with "
                        f"{resume_command(written, self.variant.id)}")
        try:
            written = saves.write_fallback_save(self.to_save(), self.fallback_file)
        except SaveError as error:
            self.save_problem = f"the game was NOT saved: {problem}; {error}"
            return self.save_problem
        self.fallback_file = written
        self.save_problem = (f"{problem}\nthe game was saved to {written} instead; resume "
                             f"with {resume_command(written, self.variant.id)}")
        return self.save_problem

    @property
    def save_path(self) -> Path:
        """Where this game is saved: the file it was given or resumed from, else its
        variant's own save (``saves.save_path(variant id)``)."""
        return self.save_file or saves.save_path(self.variant.id)

    def is_saved_in(self, data: dict[str, Any]) -> bool:
        """Whether the save ``data`` is of this game (same variant, start and label)."""
        return (data.get("variant") == self.variant.id and data.get("label") == self.label
                and data.get("start") == self.game.start().text())

    def _existing_save(self, path: Path) -> tuple[dict[str, Any] | None, str | None]:
        """The save at ``path`` (None: there is none) and None; or None and why it is not
        ours to replace: it cannot be read, or it is another game's that cannot be resumed
        (its variant changed or gone, its start not its deal's), which is the player's to
        keep as much as a corrupt file is."""
        try:
            data = saves.read_save(path)
            if data is not None and not self.is_saved_in(data):
                Session.from_save(data, record_stats=False, path=path)
        except SaveError as error:
            return None, str(error)
        return data, None

    def replacing_note(self) -> tuple[str, bool]:
        """Before the first save: what saving this game will do to the save there is ('' when
        there is none, or it is this game's), and whether that save is another game's (one
        that saving this game would replace)."""
        path = self.save_path
        data, problem = self._existing_save(path)
        if problem is not None:
            return (f"{problem}; this game will be saved to a new file instead (its name is "
                    "shown when it is saved)"), False
        if data is None or self.is_saved_in(data):
            return "", False
        return (f"the saved game ({data['variant']}, {data['label']}, "
                f"{saves.moves_text(data)}) will be replaced when this one is saved; to go "
                f"on with it instead, quit and use {resume_command(path, data['variant'])}"), True

    @classmethod
    def from_save(cls, data: dict[str, Any], *, record_stats: bool = True,
                  path: Path | None = None) -> Session:
        """The session a save describes; SaveError saying what is wrong with it.

        ``data`` is what :func:`saves.read_save` read from ``path`` (default: the usual
        save file), which the session then saves to.
        """
        from patience.variant import find_variant

        where = str(path or saves.save_path(data.get("variant") if isinstance(
            data.get("variant"), str) else None))
        data = saves.check_save(data, where)
        variant_id, rules_hash = data["variant"], data["rules_hash"]
        variant = None
        # a version 1 save's relative variant_path is read as before: from the working folder
        for name in (variant_id, data["variant_path"]):
            if not name:
                continue
            try:
                candidate = find_variant(name)
            except PatienceError:
                continue
            if candidate.rules_hash == rules_hash:
                variant = candidate
                break
        if variant is None:
            raise SaveError(
                f"the saved game {where!r} is of variant {variant_id!r} with rules hash "
                f"{rules_hash!r}, which is not available here (the variant file was changed "
                "or removed); the save was left untouched")
        try:
            game = variant.position(data["start"])
            restore_seed(game, data)
            if not saves.starts_as_dealt(game):
                raise SaveError(
                    f"the saved game {where!r} says it is deal {game.seed} of "
                    f"{variant_id!r}, but it does not start as that deal does; it was left "
                    "untouched")
            for move in game.parse_moves(" ".join(data["moves"])):
                game.push_unchecked(move)
            probe = game.copy()
            replayed = []
            for text in reversed(data["redo"]):  # the stack's last entry is the next to redo
                move = probe.parse_move(text)
                probe.push(move)
                replayed.append(move)
        except SaveError:
            raise
        except PatienceError as error:
            raise SaveError(f"the saved game {where!r} cannot be replayed: {error}; "
                                  "it was left untouched") from None
        return cls(game, redo=replayed[::-1], recorded=data["recorded"],
                   record_stats=record_stats, label=data["label"], save_file=path,
                   seconds=data["seconds"], proven=data["proven"])


def went_home(moves: list[AutoMove]) -> str:
    """What the safe moves played by themselves did, in words: ``'A♠ 2♠ went home by
    themselves'`` ('' when there were none)."""
    if not moves:
        return ""
    cards = " ".join(card_symbol(card) for auto in moves for card in auto.cards[:1])
    return f"{cards} went home by {'itself' if len(moves) == 1 else 'themselves'}"


def resume_command(path: Path, variant_id: str) -> str:
    """The command that resumes the game of variant ``variant_id`` saved at ``path``."""
    if path in (saves.save_path(variant_id), saves.save_path()) and \
            shlex.quote(variant_id) == variant_id:
        return f"'patience play {variant_id} --resume'"
    quoted = shlex.quote(str(path))
    command = f"patience play --resume --save-file {quoted}"
    return f"'{command}'" if quoted == str(path) else f"this command: {command}"


def describe_start(game: Game) -> str:
    if game.seed is not None:
        return f"deal {game.seed}"
    return "a chosen deal"


def restore_seed(game: Game, data: dict[str, Any]) -> None:
    """Give a game read back from a save (the terminal's or the web's) the numbered deal it
    was: ``seed`` (``ms:11982``) where the save has one, else ``deal_number``."""
    number, seed = data.get("deal_number"), data.get("seed")
    game.deal_number = number if type(number) is int else None
    if isinstance(seed, str):
        try:
            game.seed = parse_seed(seed)
        except DealError:
            pass  # a save is checked when read (saves.check_save); the web's store is ours

