"""The games being played in browsers: one Session per game id, in memory and on disk.

Each game is a file ``<data directory>/web/games/<id>.json`` (the data directory of
``patience.play.saves``), written atomically after every change, so a game survives a page
reload and a server restart. A file is versioned (``"format": "patience-web-game",
"version": 1``) and checked when read: another program's file, a corrupt one, one whose
variant is not served or whose variant file changed since, or whose moves do not replay,
or whose start is not the deal its number says, is refused with a message and left
untouched.

At most ``patience.limits.MAX_WEB_GAMES`` game files are kept, while the server runs as
when it starts: a new game past the limit removes the file changed longest ago among the
finished games (won, or no move left: each file says whether its game is over), and a game
in progress is never removed, so when every kept game is in progress a new game is refused
(503) with a message saying what to do. A file the server cannot read is neither counted
nor removed.

Each game carries a revision number, raised by every change. A request that changes a game
names the revision it was made from; a stale one (another tab moved first) is refused, so
two tabs on one game never interleave moves they did not see.

>>> import tempfile, pathlib
>>> from patience import find_variant
>>> store = GameStore({"tabbycat": find_variant("tabbycat")},
...                   pathlib.Path(tempfile.mkdtemp()), record_stats=False)
>>> game = store.create("tabbycat", find_variant("tabbycat").deal(1))
>>> game.revision, len(game.id)
(0, 22)
>>> store.forget_memory(); store.get(game.id).session.label
'deal 1'
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from patience.cards import MASK64
from patience.errors import PatienceError, SaveError
from patience.limits import MAX_WEB_GAMES
from patience.play import saves
from patience.play.session import Session, restore_seed
from patience.visibility import reveals_all

if TYPE_CHECKING:
    from patience.game import Game
    from patience.variant import Variant

GAME_FORMAT = "patience-web-game"
GAME_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
#: sessions kept in memory; others are read back from their file when asked for
IN_MEMORY = 128
#: a pause between two requests on a game counts as at most this many seconds of play (a
#: page left open overnight does not count the night): ``Session.skip_idle``
IDLE_SECONDS = 300

T = TypeVar("T")


class WebError(PatienceError):
    """A request the server refuses: ``status`` is the HTTP status, the message says why."""

    status = 400

    def __init__(self, message: str, *, status: int | None = None,
                 game: WebGame | None = None, explanation: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.explanation = explanation  # a refused move: the rule-level explanation
        if status is not None:
            self.status = status
        self.game = game  # when set, the reply carries the game's fresh snapshot


class GameNotFound(WebError):
    status = 404


class StaleRevision(WebError):
    status = 409


class StoreFull(WebError):
    status = 503


@attrs.define(eq=False)
class WebGame:
    """A game of one browser: its id, the served variant's key, the session, the revision."""

    id: str
    key: str
    session: Session
    revision: int = 0
    lock: threading.Lock = attrs.field(factory=threading.Lock, repr=False)


class GameStore:
    """Web games by id: create, look up (memory first, then disk), change under a lock."""

    def __init__(self, variants: Mapping[str, Variant], directory: Path, *,
                 record_stats: bool = True, keep: int = MAX_WEB_GAMES,
                 in_memory: int = IN_MEMORY) -> None:
        self.variants = variants
        self.directory = directory
        self.record_stats = record_stats
        self.keep = keep
        self.in_memory = in_memory
        self._games: OrderedDict[str, WebGame] = OrderedDict()
        self._lock = threading.Lock()
        #: the kept game files by id, the one changed longest ago first: whether the game
        #: is over (None: not known yet, a file written before files said so)
        self._kept: OrderedDict[str, bool | None] | None = None

    # -- files --

    def path(self, game_id: str) -> Path:
        return self.directory / f"{game_id}.json"

    def prune(self) -> int:
        """Remove finished games' files, changed longest ago first, until at most ``keep``
        are kept (never a game in progress); how many were removed."""
        with self._lock:
            return self._make_room(self.keep)

    def write(self, game: WebGame) -> None:
        over = reveals_all(game.session.game)
        data = {"format": GAME_FORMAT, "version": saves.VERSION, "id": game.id,
                "key": game.key, "revision": game.revision, "over": over,
                **game.session.to_save()}
        write_replacing(self.path(game.id), data)
        with self._lock:
            if self._kept is not None:
                self._kept[game.id] = over
                self._kept.move_to_end(game.id)

    def _scan(self) -> OrderedDict[str, bool | None]:
        """The kept game files (read once, then kept up to date by :meth:`write`)."""
        if self._kept is None:
            try:
                paths = [path for path in self.directory.glob("*.json")
                         if GAME_ID.fullmatch(path.stem)]
                dated = sorted((path.stat().st_mtime, path) for path in paths)
            except OSError:
                dated = []
            self._kept = OrderedDict()
            for _, path in dated:
                try:
                    data = saves.read_versioned(path, GAME_FORMAT, "browser game")
                except SaveError:
                    continue  # not counted, never removed
                if data is not None:
                    over = data.get("over")
                    self._kept[path.stem] = over if isinstance(over, bool) else None
        return self._kept

    def _is_over(self, game_id: str) -> bool:
        """Whether the kept game ``game_id`` is over (its file read back when its file does
        not say); a file that cannot be used is no longer counted."""
        kept = self._scan()
        over = kept[game_id]
        if over is None:
            found = self._games.get(game_id)
            try:
                found = found or self.read(game_id)
            except WebError:
                del kept[game_id]
                return False
            over = kept[game_id] = reveals_all(found.session.game)
        return over

    def _make_room(self, most: int) -> int:
        """Remove finished games' files, changed longest ago first, until at most ``most``
        are kept (or only games in progress are left); how many were removed. The store's
        lock is held."""
        kept = self._scan()
        removed = 0
        while len(kept) > most:
            victim = next((game_id for game_id in list(kept) if game_id in kept
                           and self._is_over(game_id)), None)
            if victim is None:
                break
            with contextlib.suppress(OSError):
                self.path(victim).unlink()
            del kept[victim]
            self._games.pop(victim, None)
            removed += 1
        return removed

    def read(self, game_id: str) -> WebGame:
        """The game saved under ``game_id``; GameNotFound, or WebError (410) for a file that
        cannot be used (it is left untouched)."""
        path = self.path(game_id)
        try:
            data = saves.read_versioned(path, GAME_FORMAT, "browser game")
        except SaveError as error:
            raise WebError(str(error), status=410) from None
        if data is None:
            raise GameNotFound(f"there is no game {game_id!r} (it may have been removed); "
                               "start a new one")
        key, session, revision = restore(data, self.variants, str(path), self.record_stats)
        return WebGame(game_id, key, session, revision)

    # -- games --

    def create(self, key: str, game: Game, label: str | None = None, *,
               proven: int | None = None) -> WebGame:
        """A new game, written; StoreFull (503) when ``keep`` games are kept and every one
        is in progress. ``proven``: the budget the deal was proven winnable with
        (``Session.proven``), written with it."""
        session = Session(game, label=label, record_stats=self.record_stats, proven=proven)
        web_game = WebGame(secrets.token_urlsafe(16), key, session)
        with self._lock:
            self._make_room(self.keep - 1)
            kept = self._scan()
            if len(kept) >= self.keep:
                raise StoreFull(
                    f"this server keeps at most {self.keep:,} games and every one of them is "
                    "in progress, so no new game can start; finish one (win it, or play "
                    "until no move is left), or remove old game files from "
                    "'web/games' in patience's data directory, then start a new game")
            kept[web_game.id] = False  # the new game's place, taken now
        try:
            self.write(web_game)
        except BaseException:
            with self._lock:
                self._scan().pop(web_game.id, None)
            raise
        self._remember(web_game)
        return web_game

    def get(self, game_id: str) -> WebGame:
        if not GAME_ID.fullmatch(game_id):
            raise GameNotFound(f"{game_id[:80]!r} is not a game id")
        with self._lock:
            found = self._games.get(game_id)
            if found is not None:
                self._games.move_to_end(game_id)
            else:
                found = self.read(game_id)
                self._remember(found, locked=True)
            found.session.skip_idle(IDLE_SECONDS)
            return found

    def change(self, game_id: str, revision: object,
               action: Callable[[WebGame], tuple[bool, T]]) -> tuple[WebGame, T]:
        """Run ``action`` on the game if ``revision`` is its current revision; when the
        action says it changed the game, raise the revision and write the file."""
        game = self.get(game_id)
        with game.lock:
            check_revision(game, revision)
            changed, result = action(game)
            if changed:
                game.revision += 1
                self.write(game)
        return game, result

    def forget_memory(self) -> None:
        """Drop the sessions held in memory (they are read back from disk when asked for)."""
        with self._lock:
            self._games.clear()

    def _remember(self, game: WebGame, locked: bool = False) -> None:
        if not locked:
            with self._lock:
                self._remember(game, locked=True)
            return
        self._games[game.id] = game
        self._games.move_to_end(game.id)
        while len(self._games) > self.in_memory:
            self._games.popitem(last=False)


def write_replacing(path: Path, data: dict[str, Any]) -> None:
    """Write JSON through a temporary file and ``os.replace``: a reader sees the old file
    or the new one, never half of one. Unlike ``saves.write_atomically`` it does not wait
    for the disk (``fsync`` took 5–40 ms here, most of a move's time): a power cut may lose
    the last moves, a crash of the server loses nothing."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp",
                                         dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(data, file, separators=(",", ":"))
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def check_revision(game: WebGame, revision: object) -> None:
    if type(revision) is not int:
        raise WebError(f"'version' must be the game's version number (an integer), got "
                       f"{revision!r:.80}", status=400, game=game)
    if revision != game.revision:
        raise StaleRevision(f"this game has changed (version {game.revision}, the request was "
                            f"made at version {revision}), perhaps in another tab; here it is "
                            "as it is now", game=game)


def restore(data: dict[str, Any], variants: Mapping[str, Variant], where: str,
            record_stats: bool = True) -> tuple[str, Session, int]:
    """The served key, session and revision a game file describes; WebError (410) saying
    what is wrong with it otherwise."""
    def refuse(why: str) -> WebError:
        return WebError(f"the browser game {where!r} {why}; it was left untouched — start a "
                        "new game", status=410)

    key, start, moves, redo = (data.get(name) for name in ("key", "start", "moves", "redo"))
    revision = data.get("revision")
    if not (isinstance(key, str) and isinstance(start, str) and type(revision) is int
            and isinstance(moves, list) and isinstance(redo, list)
            and all(isinstance(m, str) for m in moves + redo)):
        raise refuse("is incomplete")
    variant = variants.get(key)
    if variant is None:
        raise refuse(f"is of variant {key!r}, which this server does not serve")
    if data.get("rules_hash") != variant.rules_hash:
        raise refuse(f"was played with other rules of {variant.id!r} (the variant file has "
                     "changed since)")
    proven = data.get("proven")  # absent in a file written before it was kept
    if proven is not None and not saves.is_proof_budget(proven):
        raise refuse(f"has the proof budget {proven!r:.40}, which is no budget (a whole "
                     f"number of positions from 1 to {saves.MAX_PROVEN_POSITIONS:,})")
    number = data.get("deal_number")
    if number is not None and (type(number) is not int or not 0 <= number <= MASK64):
        raise refuse(f"has the deal number {number!r:.40}, which is no deal number (a whole "
                     f"number from 0 to {MASK64})")
    try:
        game = variant.position(start)
        restore_seed(game, data)
        if not saves.starts_as_dealt(game):
            raise refuse(f"says it is deal {game.seed} of {variant.id!r}, but it does not "
                         f"start as that deal does")
        for move in game.parse_moves(" ".join(moves)):
            game.push_unchecked(move)
        probe = game.copy()
        replayed = []
        for text in reversed(redo):  # the stack's last entry is the next to redo
            move = probe.parse_move(text)
            probe.push(move)
            replayed.append(move)
    except WebError:
        raise
    except PatienceError as error:  # the first line: a MoveError's second is the position
        raise refuse(f"cannot be replayed ({str(error).splitlines()[0]})") from None
    label, seconds = data.get("label"), data.get("seconds")
    session = Session(game, redo=replayed[::-1], recorded=data.get("recorded") is True,
                      label=label if isinstance(label, str) else None,
                      record_stats=record_stats,
                      seconds=seconds if type(seconds) is int and 0 <= seconds <= MASK64 else 0,
                      proven=proven)
    return key, session, revision
