"""The full-screen terminal game (textual), drawn from the variant's pile groups.

The screen, top to bottom: the status line (variant, deal, deals left, sets or cards home,
moves, time), the board (:mod:`patience.play.layout`: every pile's top cards always in
view, long columns compressed, nothing scrolls), one message line, and the command line.

Keys and typed words never collide: on the board every key in :data:`KEYS` acts at once;
``:`` (or ``/``) opens the command line for a word or a move (``:help``, ``:c1:2-c3``), and
any other printable key opens it with that key typed (so ``c1:2-c3`` can be typed straight
away). On the command line every key is text until Enter (run it) or Esc (back to the
board). Mouse: a click on a card moves it, with the cards on it, where
:mod:`patience.play.destinations` says; dragging it onto another pile chooses the
destination; a click on the stock deals.

The solver (hint, where did I lose, a winnable or today's deal) runs in a worker thread with
a progress line; Esc or ``q`` cancels it at once. Every way out saves the game: ``q``,
Ctrl+Q, Ctrl+C, SIGTERM and SIGHUP (the terminal closed); the game is also saved after every
move, so a save that cannot be written is said on the message line while the game goes on.
All game logic is in :class:`patience.play.session.Session`.
"""

from __future__ import annotations

import asyncio
import datetime
import random
import signal
import textwrap
import threading
import time
from collections.abc import Callable
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Input, Static

from patience.errors import DealError, PatienceError
from patience.play import palette, saves
from patience.play.layout import LABEL, STOCK, BoardLayout, Cell, lay_out
from patience.play.session import HELP, Reply, Session
from patience.seeds import Seed, deal, parse_seed

#: the keys that act at once on the board: key -> (what it does, the command it runs)
KEYS: dict[str, tuple[str, str]] = {
    "d": ("deal (or click the stock)", "d"),
    "u": ("undo", "u"),
    "r": ("redo", "r"),
    "h": ("hint from the full deal, which the solver knows: a winning move, on the board",
          "hint"),
    "v": ("hint from what you see: the hidden cards guessed, never read", "view hint"),
    "a": ("auto-finish: every card or complete set that can go home goes", "finish"),
    "o": ("automatic moves home on or off: the cards proven safe go home by themselves",
          "auto"),
    "w": ("where did I lose: the last position that could be won", "where"),
    "b": ("back to the last winnable position w found", "b"),
    "x": ("restart the deal (redo replays the moves)", "restart"),
    "n": ("new game: random, numbered, winnable or today's deal", "new"),
    "s": ("statistics", "stats"),
    "i": ("the rules: in plain words, then exactly as written", "rules"),
    "m": ("the last message in full", "message"),
    "?": ("this list of keys", "keys"),
    "q": ("quit (the game is saved); while the solver thinks: cancel it", "quit"),
}
OTHER_KEYS = (
    (":  or  /", "type a command or a move, then Enter (Esc: back to the board)"),
    ("any other letter", "starts a move on the command line: c1:2-c3, c2-c4, t-f"),
    ("Esc", "cancel the solver; clear a hint or a chosen card"),
    ("Ctrl+Q, Ctrl+C", "quit (the game is saved)"),
    ("mouse", "click a card to move it; drag it onto a pile; click the stock to deal"),
)
WORDS = {"quit": "quit", "exit": "quit", "q": "quit", "?": "keys", "keys": "keys",
         "help": "help", "commands": "help", "rules": "rules", "i": "rules", "h": "hint",
         "hint": "hint", "v": "view hint", "view hint": "view hint", "w": "where",
         "where": "where", "where did i lose": "where",
         "n": "new", "new": "new", "stats": "stats", "s": "stats", "why": "why",
         "m": "message", "message": "message"}
PROGRESS_SECONDS = 0.2


def style(pair: tuple[str, str], bold: bool = False) -> Style:
    return Style(color=pair[0], bgcolor=pair[1], bold=bold)


#: the widest line of the keys page: it fits an 80-column terminal (the page's frame, its
#: padding and its scroll bar take the rest)
KEYS_PAGE_WIDTH = 66


def described(key: str, words: str, column: int, width: int = KEYS_PAGE_WIDTH) -> list[str]:
    """A key and what it does, the words wrapped to ``width`` under their column (a key
    too wide for the column gets a line of its own)."""
    wrapped = textwrap.wrap(words, width - column) or [""]
    lead = f"  {key} "
    if len(lead) > column:
        return [lead.rstrip(), *(" " * column + part for part in wrapped)]
    return [lead.ljust(column) + wrapped[0], *(" " * column + part for part in wrapped[1:])]


def rewrapped(text: str, column: int, width: int = KEYS_PAGE_WIDTH) -> list[str]:
    """``text`` (a list of commands: each a line indented by two with its words from
    ``column`` on, and lines that carry its words on from there) wrapped to ``width``."""
    entries: list[tuple[str, str]] = []  # (command, words); ("", line) for a plain line
    for line in text.splitlines():
        if line.startswith("  ") and not line[:column].strip() and entries:
            command, words = entries[-1]
            entries[-1] = (command, f"{words} {line.strip()}")
        elif line.startswith("  "):
            entries.append((line[:column].strip(), line[column:].strip()))
        else:
            entries.append(("", line))
    lines = []
    for command, words in entries:
        lines += described(command, words, column, width) if command else [words]
    return lines


def key_help() -> str:
    lines = ["On the board each key acts at once:", ""]
    for key, (words, _) in KEYS.items():
        lines += described(key, words, 6)
    lines += ["", "Besides:", ""]
    for key, words in OTHER_KEYS:
        lines += described(key, words, 18)
    lines += ["", "Words typed after ':' (':help' lists them all):", "", *rewrapped(HELP, 17)]
    return "\n".join(lines)


class Board(Widget, can_focus=True):
    """The piles, drawn by :func:`patience.play.layout.lay_out` to fit the widget."""

    DEFAULT_CSS = f"Board {{ height: 1fr; background: {palette.BOARD}; }}"

    def __init__(self) -> None:
        super().__init__(id="board")
        self.board_layout: BoardLayout | None = None
        self.pressed: tuple[int, int] | None = None  # a mouse button is down on this card

    def current_layout(self) -> BoardLayout:
        app = self.app
        assert isinstance(app, PatienceApp)
        width, height = max(1, self.size.width), max(1, self.size.height)
        self.board_layout = lay_out(app.session.game, width, height, app.marked(),
                                    app.hint_targets())
        return self.board_layout

    def render(self) -> Text:
        board = self.current_layout()
        text = Text(no_wrap=True, overflow="crop")
        background = Style(bgcolor=palette.BOARD)
        rows: list[list[Any]] = [[] for _ in range(board.height)]
        for cell in board.cells:
            if 0 <= cell.y < board.height:
                rows[cell.y].append(cell)
        if board.too_small:  # the last line says so, over whatever it held
            note = (f"↕ this table needs {board.lines_needed} lines: make the terminal "
                    "taller to see every card")
            rows[-1] = [Cell(0, board.height - 1, note[:board.width], LABEL)]
        for number, row in enumerate(rows):
            at = 0
            for cell in sorted(row, key=lambda c: c.x):
                if cell.x > at:
                    text.append(" " * (cell.x - at), background)
                colours = (palette.MARKED if cell.marked else palette.COLOURS)[cell.kind]
                text.append(cell.text, style(colours, bold=cell.kind in ("red", "black")))
                at = cell.x + len(cell.text)
            if number < board.height - 1:
                text.append("\n")
        return text

    def _hit(self, event: events.MouseEvent) -> tuple[int | None, int]:
        board = self.board_layout or self.current_layout()
        pile = board.pile_at(event.x, event.y)
        return pile, (board.depth_at(event.x, event.y) if pile is not None else 0)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        pile, depth = self._hit(event)
        self.pressed = None if pile is None else (pile, depth)
        app = self.app
        assert isinstance(app, PatienceApp)
        app.press(self.pressed)

    def on_mouse_up(self, event: events.MouseUp) -> None:
        pile, _ = self._hit(event)
        pressed, self.pressed = self.pressed, None
        app = self.app
        assert isinstance(app, PatienceApp)
        app.release(pressed, pile)

    def on_key(self, event: events.Key) -> None:
        app = self.app
        assert isinstance(app, PatienceApp)
        if app.board_key(event.key, event.character):
            event.stop()
            event.prevent_default()

    def on_paste(self, event: events.Paste) -> None:
        app = self.app
        assert isinstance(app, PatienceApp)
        app.paste(event.text)
        event.stop()


class CommandInput(Input):
    """The command line: text until Enter; Esc goes back to the board."""

    BINDINGS: ClassVar = [Binding("escape", "leave", "back to the board", show=False)]

    def action_leave(self) -> None:
        self.value = ""
        app = self.app
        assert isinstance(app, PatienceApp)
        app.typing = False
        app.focus_board()

    def on_blur(self, event: events.Blur) -> None:
        app = self.app
        assert isinstance(app, PatienceApp)
        app.typing = False  # the board was clicked: its keys are board keys again


class TextScreen(ModalScreen[None]):
    """A page of text (keys, rules, the review of a lost game); Esc, q or Enter closes it."""

    BINDINGS: ClassVar = [Binding("escape,q,enter,question_mark", "close", "close")]
    DEFAULT_CSS = f"""
    TextScreen {{ align: center middle; }}
    TextScreen > VerticalScroll {{ width: 94%; height: 94%; border: round #bcbcbc;
                                  background: {palette.BOARD}; color: #eeeeee;
                                  padding: 0 1; }}
    """

    def __init__(self, title: str, body: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text(self.title_text, style="bold"))
            yield Static(Text(self.body), id="page")
            yield Static(Text("Esc, q or Enter closes this page; ↑ ↓ scroll",
                              style=style(palette.TEXT["page"])))

    def action_close(self) -> None:
        self.dismiss(None)


class NumberInput(Input):
    """The deal number (ours, ``ms:N`` or ``pysolfc:N``): r, w and t choose the other kinds
    of deal instead (no numbering's name holds one of them)."""

    async def _on_key(self, event: events.Key) -> None:
        if event.character and event.character in "rwt":
            event.stop()
            event.prevent_default()
            screen = self.screen
            assert isinstance(screen, NewGameScreen)
            screen.choose(event.character)
            return
        await super()._on_key(event)


class NewGameScreen(ModalScreen[tuple[str, Seed | None] | None]):
    """Which deal to play next: r random, w winnable, t today's, or a number and Enter."""

    BINDINGS: ClassVar = [Binding("escape", "cancel", "cancel")]
    DEFAULT_CSS = f"""
    NewGameScreen {{ align: center middle; }}
    NewGameScreen > VerticalScroll {{ width: 64; height: 12; border: round #bcbcbc;
                                     background: {palette.BOARD}; color: #eeeeee;
                                     padding: 0 1; }}
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text("A new game (it replaces this one and its save)", style="bold"))
            yield Static("  r  a random deal\n  w  a deal the solver proves winnable\n"
                         "  t  today's deal (the same for everyone)\n"
                         "  or type a deal number (ms:N Microsoft's, pysolfc:N PySolFC's) and "
                         "Enter · Esc: back to the game")
            yield NumberInput(placeholder="deal number", id="number", compact=True,
                              restrict=r"[0-9a-z:]*", select_on_focus=False)

    def on_mount(self) -> None:
        self.query_one("#number", Input).focus()

    def choose(self, key: str) -> None:
        self.dismiss(({"r": "random", "w": "winnable", "t": "daily"}[key], None))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            seed = parse_seed(event.value.strip())
        except DealError:
            event.input.value = ""
            event.input.placeholder = "a deal number, e.g. 42, ms:11982 or pysolfc:7"
        else:
            self.dismiss(("number", seed))

    def action_cancel(self) -> None:
        self.dismiss(None)


class PatienceApp(App[None]):
    """The game on a full screen."""

    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar = [
        Binding("ctrl+q", "save_and_quit", "save and quit", priority=True, show=False),
        Binding("ctrl+c", "save_and_quit", "save and quit", priority=True, show=False),
    ]
    CSS = f"""
    Screen {{ background: {palette.BOARD}; }}
    #status {{ height: 1; color: {palette.TEXT["status"][0]};
               background: {palette.TEXT["status"][1]}; padding: 0 1; }}
    #message {{ height: 1; color: {palette.TEXT["message"][0]}; padding: 0 1; }}
    #message.error {{ color: {palette.TEXT["error"][0]}; }}
    #message.end {{ color: {palette.TEXT["end"][0]}; text-style: bold; }}
    #command {{ height: 1; color: {palette.TEXT["command"][0]};
                background: {palette.TEXT["command"][1]}; }}
    #command > .input--placeholder {{ color: {palette.TEXT["placeholder"][0]}; }}
    """

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.quit_message = ""
        self.last_message = ""
        self.chosen: tuple[int, int] | None = None  # a card pressed (a drag begins)
        self.hint: tuple[int, int, int] | None = None  # the hinted move, shown on the board
        self.thinking = ""  # what the solver is doing ('' when it is not)
        self.cancel = threading.Event()
        self.progress = 0
        self.think_started = 0.0
        #: the command line was opened: keys of the same burst that still reach the board
        #: (focus moves after them) are typed into it, not taken as board keys
        self.typing = False
        note, other_game = session.replacing_note()
        self.opening_note = note
        #: another game's save is kept until this game makes a move
        self.keep_other_save = other_game

    # -- layout --

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Board()
        yield Static(id="message")
        yield CommandInput(compact=True, id="command", select_on_focus=False,
                           placeholder="press : to type a command or a move · ? keys · "
                           "click a card to move it")

    def on_mount(self) -> None:
        self.title = self.session.title()
        self.redraw()
        opening = self.session.end_message()
        self.set_message(opening or "Click a card to move it, or type a move (c1:2-c3); "
                         "d deal, u undo, h hint, ? keys, q quit.", "end" if opening else "")
        self.focus_board()
        self.set_interval(1.0, self.draw_status)
        try:
            loop = asyncio.get_running_loop()
            for number in (signal.SIGTERM, signal.SIGHUP):
                loop.add_signal_handler(number, self.action_save_and_quit)
        except (NotImplementedError, RuntimeError, AttributeError, ValueError):
            pass  # no signals here (Windows, or not the main thread): q and Ctrl+Q still save
        if self.opening_note:
            self.set_message(self.opening_note, "error")
            self.push_screen(TextScreen("Before you play", self.opening_note + (
                "\n\nNothing is replaced until you make a move." if self.keep_other_save
                else "")))

    # -- drawing --

    def marked(self) -> dict[int, int]:
        if self.chosen is not None:
            return {self.chosen[0]: self.chosen[1]}
        if self.hint is not None and self.hint[0] >= 0:
            return {self.hint[0]: self.hint[1] - 1}
        return {}

    def hint_targets(self) -> frozenset[int]:
        if self.hint is None:
            return frozenset()
        return frozenset({self.hint[2] if self.hint[0] >= 0 else STOCK})

    def redraw(self) -> None:
        self.query_one(Board).refresh()
        self.draw_status()

    def draw_status(self) -> None:
        clock = saves.clock(self.session.elapsed())
        self.query_one("#status", Static).update(
            Text(f"{self.session.title()}  ·  {self.session.status()}  ·  {clock}",
                 no_wrap=True, overflow="ellipsis"))

    def set_message(self, text: str, kind: str = "") -> None:
        self.last_message = text
        first = text.strip().splitlines()[0] if text.strip() else ""
        if "\n" in text.strip():
            first += "  (m: all of it)"
        message = self.query_one("#message", Static)
        message.update(Text(first, no_wrap=True, overflow="ellipsis"))
        message.set_class(kind == "error", "error")
        message.set_class(kind == "end", "end")

    def show(self, reply: Reply) -> None:
        """Show what a command did, redraw, and save after a change."""
        if reply.changed:
            self.hint = None
            self.redraw()
        end = self.session.end_message()
        kind = "error" if reply.error else ("end" if end and reply.changed else "")
        if "\n" in reply.text.strip():
            self.push_screen(TextScreen(self.session.variant.name, reply.text))
        elif reply.changed and self.session.game.is_won():
            self.push_screen(TextScreen(f"You won! {self.session.title()}",
                                        self.session.win_summary()))
        text = reply.text
        if reply.changed and not end and self.session.can_finish():
            offer = "only sending cards home is left: a finishes the game"
            text = f"{text}; {offer}" if text else offer
        self.set_message(text, kind)
        if reply.changed:
            self.autosave()

    def autosave(self) -> None:
        self.keep_other_save = False
        self.session.save()
        problem = self.session.save_problem
        if problem:
            self.set_message(problem.replace("\n", " — "), "error")

    # -- mouse --

    def press(self, card: tuple[int, int] | None) -> None:
        """A button went down on a card: show the cards that would move."""
        self.chosen = None
        if card is not None and card[0] != STOCK and self.session.game.piles[card[0]]:
            self.chosen = card
        self.query_one(Board).refresh()

    def release(self, pressed: tuple[int, int] | None, pile: int | None) -> None:
        """The button came up over ``pile``: a click when it is the pile pressed, else a
        drop there."""
        self.chosen = None
        self.query_one(Board).refresh()
        if pressed is None or pile is None:
            return
        if self.thinking:
            self.set_message(f"{self.thinking}… Esc or q cancels")
            return
        source, depth = pressed
        if source == STOCK:
            if pile == STOCK:
                self.show(self.session.deal())
            return
        if pile == source:
            self.show(self.session.click(source, depth))
        elif pile != STOCK:
            self.show(self.session.drop(source, depth, pile))

    # -- keys --

    def focus_board(self) -> None:
        if self.screen is self.screen_stack[0]:
            self.query_one(Board).focus()

    def board_key(self, key: str, character: str | None) -> bool:
        """A key pressed on the board; whether it was used."""
        if self.thinking:
            if key in ("escape", "q"):
                self.cancel_thinking()
            elif character or key in ("enter", "space"):
                self.set_message(f"{self.thinking}… Esc or q cancels")
            return bool(character) or key == "escape"
        if self.typing:
            return self.type_key(key, character)
        if key == "escape":
            self.hint = None
            self.chosen = None
            self.query_one(Board).refresh()
            return True
        if character in (":", "/"):
            self.open_command_line("")
            return True
        if character and character in KEYS:
            self.run_command(KEYS[character][1])
            return True
        if character and character.isprintable() and not character.isspace():
            self.open_command_line(character)
            return True
        return False

    def open_command_line(self, text: str) -> None:
        command = self.query_one(CommandInput)
        command.value = text
        command.focus()
        command.cursor_position = len(text)
        self.typing = True

    def type_key(self, key: str, character: str | None) -> bool:
        """A key that reached the board after the command line opened: typed into it."""
        command = self.query_one(CommandInput)
        if key == "enter":
            self.submit(command)
        elif key == "escape":
            command.action_leave()
        elif key == "backspace":
            self.open_command_line(command.value[:-1])
        elif character and character.isprintable():
            self.open_command_line(command.value + character)
        else:
            return False
        return True

    def paste(self, text: str) -> None:
        """Text pasted on the board: each whole line is a command (a leading ':' is the key
        that opens the command line, not part of the command); the rest is left typed."""
        *lines, rest = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        command = self.query_one(CommandInput)
        for line in lines:
            command.value += line
            self.submit(command)
        if rest.strip():
            self.open_command_line(command.value + rest)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if isinstance(event.input, CommandInput):
            self.submit(event.input)

    def submit(self, command: Input) -> None:
        """Run what the command line holds, and go back to the board."""
        # a leading ':' or '/' is the key that opens the command line, pasted or typed again
        text = command.value.strip().lstrip(":/").strip()
        command.value = ""
        self.typing = False
        self.focus_board()
        if text:
            self.run_command(text)

    def run_command(self, text: str) -> None:
        word = WORDS.get(text.strip().lower(), "")
        if self.thinking:
            if word == "quit":
                self.cancel_thinking()
            else:
                self.set_message(f"{self.thinking}… Esc or q cancels")
            return
        session = self.session
        if word == "quit":
            self.action_save_and_quit()
        elif word == "keys":
            self.push_screen(TextScreen("Keys", key_help()))
        elif word == "help":
            self.push_screen(TextScreen("Commands", HELP))
        elif word == "rules":
            self.push_screen(TextScreen(f"The rules of {session.variant.name}",
                                        session.rules()))
        elif word == "message":
            self.push_screen(TextScreen("The last message", self.last_message or "(none)"))
        elif word == "why":
            self.push_screen(TextScreen("Why the last move was refused",
                                        session.last_refusal or "no move was refused yet"))
        elif word == "stats":
            self.push_screen(TextScreen("Statistics", self.statistics()))
        elif word == "hint":
            self.think("looking for a winning line", lambda stop: session.hint(
                should_stop=stop), self._hinted)
        elif word == "view hint":
            self.think("guessing the hidden cards", lambda stop: session.hint_from_view(
                should_stop=stop), self._hinted)
        elif word == "where":
            self.think("replaying the game with the solver", lambda stop: session.where_lost(
                should_stop=stop), self._reviewed)
        elif word == "new":
            self.push_screen(NewGameScreen(), self._new_game)
        else:
            self.show(session.apply(text))

    def statistics(self) -> str:
        try:
            records = saves.read_stats()
        except PatienceError as error:
            return str(error)
        mine = self.session.variant.id
        record = records.get(mine, saves.empty_record())
        lines = [f"{self.session.variant.name}: {saves.describe_record(record)}"]
        others = [f"{name}: {saves.describe_record(record)}"
                  for name, record in sorted(records.items()) if name != mine]
        if others:
            lines += ["", "Other variants:"] + others
        return "\n".join(lines)

    # -- the solver, in a worker thread --

    def think(self, what: str, job: Callable[[Callable[[int], bool]], Any],
              done: Callable[[Any], None]) -> None:
        self.thinking = what
        self.cancel.clear()
        self.progress = 0
        self.think_started = time.monotonic()
        self.show_progress()
        timer = self.set_interval(PROGRESS_SECONDS, self.show_progress)

        def should_stop(positions: int) -> bool:
            self.progress = positions
            return self.cancel.is_set()

        def work() -> None:
            try:
                result: Any = job(should_stop)
            except PatienceError as error:
                result = error
            try:
                self.call_from_thread(finish, result)
            except RuntimeError:
                pass  # the app has gone

        def finish(result: Any) -> None:
            timer.stop()
            self.thinking = ""
            if self.cancel.is_set():
                self.set_message(f"cancelled after {self.progress:,} positions")
                return
            if isinstance(result, PatienceError):
                self.set_message(str(result), "error")
                return
            done(result)

        threading.Thread(target=work, name="patience-solver", daemon=True).start()

    def show_progress(self) -> None:
        if self.thinking:
            seconds = time.monotonic() - self.think_started
            self.set_message(f"{self.thinking}… {self.progress:,} positions, {seconds:.0f} s "
                             "— Esc or q cancels")

    def cancel_thinking(self) -> None:
        self.cancel.set()
        self.set_message(f"cancelling {self.thinking}…")

    def _hinted(self, reply: Reply) -> None:
        move = self.session.hinted_move()
        self.hint = tuple(move) if move else None  # type: ignore[assignment]
        self.query_one(Board).refresh()
        self.show(reply)

    def _reviewed(self, reply: Reply) -> None:
        if "\n" in reply.text:
            self.push_screen(TextScreen("Where the game was lost", reply.text))
            self.set_message(reply.text.splitlines()[-2])
        else:
            self.show(reply)

    # -- new games --

    def _new_game(self, choice: tuple[str, Seed | None] | None) -> None:
        if choice is None:
            return
        kind, number = choice
        variant = self.session.variant
        if kind == "random":
            self.start(random.randrange(1, 1_000_000_000), None)
        elif kind == "number":
            assert number is not None
            self.start(number, None)
        elif kind == "winnable":
            from patience.play.deals import first_winnable

            start = random.randrange(1, 1_000_000_000)
            self.think("looking for a winnable deal",
                       lambda stop: first_winnable(variant, start, stop),
                       lambda found: self.start(found, f"winnable deal {found}", proven=True))
        else:
            from patience.play.deals import cached_daily_deal

            today = datetime.date.today()
            self.think("looking for today's deal",
                       lambda stop: cached_daily_deal(variant, today, stop),
                       lambda found: self.start(
                           found, f"daily deal {today.isoformat()} (deal {found})", proven=True))

    def start(self, number: Seed | int, label: str | None, *, proven: bool = False) -> None:
        """Play deal ``number`` of this variant instead (saved where this game was): ours, or
        a ``Seed`` of another numbering (``ms:N``); a deal that cannot be made here (``ms:N``
        without pysol-cards, a variant pysol-cards does not deal) is said, and this game
        goes on. ``proven``: the solver proved the deal winnable (a winnable or today's
        deal), so a hint at its start finds the win (``Session.proven``)."""
        old = self.session
        try:
            game = deal(old.variant, number)
        except PatienceError as error:
            self.set_message(str(error))
            return
        from patience.play.deals import proof_positions

        self.session = Session(game, label=label, save_file=old.save_file,
                               record_stats=old.record_stats, auto_home=old.auto_home,
                               proven=proof_positions() if proven else None)
        self.session.fallback_file = old.fallback_file
        self.hint = None
        self.title = self.session.title()
        self.redraw()
        self.set_message(f"a new game: {self.session.label}")
        self.autosave()

    # -- the ways out --

    def action_save_and_quit(self) -> None:
        """q, Ctrl+Q, Ctrl+C, SIGTERM, SIGHUP: save and leave."""
        self.cancel.set()
        if self.keep_other_save and not self.session.game.move_stack:
            self.quit_message = ("this game was not saved (no move was made); the saved game "
                                 "was kept")
        else:
            self.quit_message = self.session.save()
        self.exit()


def run(session: Session) -> str:
    """Play ``session`` full-screen; the message to print afterwards (where it was saved)."""
    app = PatienceApp(session)
    app.run()
    return app.quit_message
