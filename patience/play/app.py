"""The full-screen terminal game (textual), drawn from the variant's pile groups.

The screen has no knowledge of any variant: the stock and every group shown as a ``stack``
(the foundations) sit in the top row; every group shown as a ``fan`` (columns, tail) lays
its piles side by side below, one card per line from the bottom card down to the top card.
A new variant file with other groups plays here without UI code.

Mouse: a click on a card moves it, with the cards on it, where
:mod:`patience.play.destinations` says; dragging a card onto another pile chooses the
destination; a click on the stock deals. Keyboard: type a move in notation and press Enter,
or press ``d`` deal, ``u`` undo, ``r`` redo, ``h`` hint, ``?`` rules, ``w`` where did I lose,
``q`` quit (the game is saved). All game logic is in :class:`patience.play.session.Session`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from patience.cards import FACE_DOWN, RED_SUITS, SUIT_SYMBOLS, card_code
from patience.play.session import KEY_COMMANDS, Reply, Session
from patience.settings import Show

if TYPE_CHECKING:
    from patience.variant import Group

CARD_WIDTH = 5
RED = Style(color="red3", bgcolor="grey93", bold=True)
BLACK = Style(color="black", bgcolor="grey93", bold=True)
CHOSEN = Style(reverse=True, bold=True)
EMPTY = Style(color="grey50")


BACK = Style(color="white", bgcolor="blue")


def card_text(card: int, chosen: bool = False) -> Text:
    """A card as ' 10♦ ': rank and suit symbol in the suit's colour; a face-down card as
    its back."""
    if card & FACE_DOWN:
        return Text(" ▒▒▒ ", style=BACK + CHOSEN if chosen else BACK)
    rank = card_code(card)[0]
    rank = "10" if rank == "T" else rank
    suit = card & 3
    style = RED if suit in RED_SUITS else BLACK
    return Text(f"{rank:>2}{SUIT_SYMBOLS[suit]} ".rjust(CARD_WIDTH),
                style=style + CHOSEN if chosen else style)


class PileView(Static):
    """One pile: its name, then its cards (a fan) or its top card and count (a stack)."""

    DEFAULT_CSS = """
    PileView { width: 6; height: auto; min-height: 2; margin: 0 1 0 0; }
    """

    def __init__(self, index: int, group: Group) -> None:
        super().__init__(id=f"pile-{index}")
        self.index = index
        self.group = group

    def draw(self, session: Session, chosen_depth: int | None = None) -> None:
        pile = session.game.piles[self.index]
        lines = Text(session.variant.pile_names[self.index].center(CARD_WIDTH), style="dim")
        if not pile:
            lines.append("\n")
            lines.append(" ··· ", style=EMPTY)
        elif self.group.show is Show.STACK:
            lines.append("\n")
            lines.append_text(card_text(pile[-1], chosen_depth is not None))
            lines.append(f"\n ×{len(pile)}", style="dim")
        else:
            for position, card in enumerate(pile):
                depth = len(pile) - 1 - position
                lines.append("\n")
                lines.append_text(card_text(card, chosen_depth is not None
                                            and depth <= chosen_depth))
        self.update(lines)

    def depth_at(self, session: Session, y: int) -> int:
        """Which card a click at line ``y`` is on, as a depth below the top card (0 = top).
        The name line and the space under the pile count as the top card."""
        pile = session.game.piles[self.index]
        if self.group.show is Show.STACK or not pile:
            return 0
        position = y - 1
        if position < 0 or position >= len(pile):
            return 0
        return len(pile) - 1 - position

    def on_mouse_down(self, event: events.MouseDown) -> None:
        app = self.app
        assert isinstance(app, PatienceApp)
        app.begin_drag(self.index, self.depth_at(app.session, event.y))

    def on_mouse_up(self, event: events.MouseUp) -> None:
        app = self.app
        assert isinstance(app, PatienceApp)
        app.end_drag(self.index)

    def on_click(self, event: events.Click) -> None:
        app = self.app
        assert isinstance(app, PatienceApp)
        event.stop()
        app.click_pile(self.index, self.depth_at(app.session, event.y))


class StockView(Static):
    """The stock: how many cards and deals are left. A click deals."""

    DEFAULT_CSS = """
    StockView { width: 9; height: 3; margin: 0 2 0 0; }
    """

    def draw(self, session: Session) -> None:
        game = session.game
        text = Text("stock".center(7), style="dim")
        text.append("\n")
        if game.stock:
            text.append(f" {len(game.stock):>2} ▒▒ ", style=BACK)
        elif game.can_deal():
            text.append("  ↺    ", style=EMPTY)  # a click turns the waste over
        else:
            text.append("  ···  ", style=EMPTY)
        left = game.redeals_left
        redeals = "" if game.variant.redeals == 0 else " ↺∞" if left is None else f" ↺{left}"
        text.append(f"\n {game.deals_left} deals{redeals}", style="dim")
        self.update(text)

    def on_click(self, event: events.Click) -> None:
        app = self.app
        assert isinstance(app, PatienceApp)
        event.stop()
        if not app.thinking:
            app.show(app.session.deal())
        app.focus_command_line()


class CommandInput(Input):
    """The command line. On an empty line the single-key commands act at once, unless the
    key starts a pile name of this variant (then it starts a move in notation)."""

    async def _on_key(self, event: events.Key) -> None:
        app = self.app
        if (not self.value and event.character
                and isinstance(app, PatienceApp) and event.character in app.key_commands):
            event.stop()
            event.prevent_default()
            app.run_command(event.character)
            return
        await super()._on_key(event)


class TextScreen(ModalScreen[None]):
    """A page of text (the rules, the review of a lost game); any of Esc, q, ? closes it."""

    BINDINGS: ClassVar = [Binding("escape,q,question_mark,enter", "close", "close")]
    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > VerticalScroll { width: 90%; height: 90%; border: round $accent;
                                  background: $surface; padding: 0 1; }
    """

    def __init__(self, title: str, body: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text(self.title_text, style="bold"))
            yield Static(Text(self.body), id="page")
            yield Static(Text("Esc, q or ? closes this page", style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)


class PatienceApp(App[None]):
    """The game on a full screen."""

    CSS = """
    #board { height: 1fr; padding: 0 1; }
    .row { height: auto; margin: 0 0 1 0; }
    .group { width: auto; height: auto; margin: 0 3 0 0; }
    .piles { width: auto; height: auto; }
    #status { height: 1; background: $panel; padding: 0 1; }
    #message { height: auto; max-height: 6; padding: 0 1; }
    #message.error { color: $error; }
    #message.end { color: $success; text-style: bold; }
    #command { dock: bottom; }
    """

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.title = session.title()
        self.drag: tuple[int, int] | None = None
        self.thinking = False
        self.quit_message = ""
        starts = {name[0] for name in session.variant.pile_names}
        self.key_commands = {key for key in KEY_COMMANDS if key not in starts}

    # -- layout --

    def compose(self) -> ComposeResult:
        variant = self.session.variant
        with VerticalScroll(id="board"):
            with Horizontal(classes="row", id="top"):
                yield StockView(id="stock")
                for group in variant.groups:
                    if group.show is Show.STACK:
                        yield self._group(group)
            with Horizontal(classes="row", id="fans"):
                for group in variant.groups:
                    if group.show is not Show.STACK:
                        yield self._group(group)
        yield Static(id="message")
        yield Static(id="status")
        yield CommandInput(compact=True, id="command",
                           placeholder="a move (c1:2-c3) or d u r h ? w b q — click a card to "
                           "move it")

    def _group(self, group: Group) -> Vertical:
        views = [PileView(index, group) for index in group.indices]
        return Vertical(Static(Text(group.name, style="dim italic")),
                        Horizontal(*views, classes="piles"), classes="group")

    def on_mount(self) -> None:
        self.redraw()
        opening = self.session.end_message()
        self.set_message(opening or "Click a card to move it; type a move and Enter; "
                         "d deal, u undo, r redo, h hint, ? rules, q quit.",
                         "end" if opening else "")
        self.query_one(CommandInput).focus()

    # -- drawing --

    def redraw(self) -> None:
        for view in self.query(PileView):
            chosen = self.drag[1] if self.drag and self.drag[0] == view.index else None
            view.draw(self.session, chosen)
        self.query_one(StockView).draw(self.session)
        self.query_one("#status", Static).update(
            Text(f"{self.session.title()}  ·  {self.session.status()}"))

    def set_message(self, text: str, kind: str = "") -> None:
        message = self.query_one("#message", Static)
        message.update(Text(text))
        message.set_class(kind == "error", "error")
        message.set_class(kind == "end", "end")

    def show(self, reply: Reply) -> None:
        """Show what a command did and redraw."""
        if reply.changed:
            self.redraw()
        end = self.session.end_message()
        kind = "error" if reply.error else ("end" if end and reply.changed else "")
        self.set_message(reply.text, kind)

    # -- input --

    def click_pile(self, index: int, depth: int) -> None:
        dragged = self.drag
        self.drag = None
        if dragged is not None and dragged[0] != index:
            return
        if self.thinking:
            return
        self.show(self.session.click(index, depth))
        self.redraw()
        self.focus_command_line()

    def begin_drag(self, index: int, depth: int) -> None:
        """A button went down on a card: show the cards that would move."""
        if self.session.game.piles[index]:
            self.drag = (index, depth)
            self.redraw()

    def on_mouse_up(self, event: events.MouseUp) -> None:
        """A drag that ended anywhere else is dropped (a click is handled by on_click)."""
        if self.drag is not None:
            self.drag = None
            self.redraw()

    def end_drag(self, index: int) -> None:
        if self.drag is None or self.drag[0] == index or self.thinking:
            return  # a click: on_click handles it
        source, depth = self.drag
        self.drag = None
        self.show(self.session.drop(source, depth, index))
        self.redraw()
        self.focus_command_line()

    def focus_command_line(self) -> None:
        if self.screen is self.screen_stack[0]:
            self.query_one(CommandInput).focus()

    def on_key(self, event: events.Key) -> None:
        """The single-key commands also work when the command line has no focus."""
        if (event.character in self.key_commands and not isinstance(self.focused, Input)
                and self.screen is self.screen_stack[0]):
            event.stop()
            self.run_command(event.character)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if text:
            self.run_command(text)

    def run_command(self, text: str) -> None:
        word = text.strip().lower()
        if self.thinking:
            self.set_message("the solver is still thinking…")
            return
        if word in ("q", "quit", "exit"):
            self.quit_message = self.session.save()
            self.exit()
            return
        if word in ("?", "rules"):
            self.push_screen(TextScreen(f"The rules of {self.session.variant.name}",
                                        self.session.rules()))
            return
        if word in ("h", "hint"):
            self.set_message("asking the solver for a winning line…")
            self.think("hint")
            return
        if word in ("w", "where", "where did i lose"):
            self.set_message("replaying the game with the solver…")
            self.think("where")
            return
        self.show(self.session.apply(text))

    @work(thread=True, exclusive=True)
    def think(self, question: str) -> None:
        self.thinking = True
        try:
            session = self.session
            reply = session.hint() if question == "hint" else session.where_lost()
        finally:
            self.thinking = False
        self.call_from_thread(self._answer, question, reply)

    def _answer(self, question: str, reply: Reply) -> None:
        if question == "where" and "\n" in reply.text:
            self.push_screen(TextScreen("Where the game was lost", reply.text))
            self.set_message(reply.text.splitlines()[-2])
        else:
            self.show(reply)


def run(session: Session) -> str:
    """Play ``session`` full-screen; the message to print afterwards (where it was saved)."""
    app = PatienceApp(session)
    app.run()
    return app.quit_message
