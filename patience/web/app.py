"""The web server of ``patience serve``: a Starlette app, JSON over HTTP, and one page.

The page (``patience/web/static``) draws the snapshot it is sent and sends back what the
player chose; every rule decision is the Session's. The API:

=======  ==============================  =================================================
GET      /api/variants                   the served variants, by family, and the default
GET      /api/variants/{key}/rules       the rules in words (``plain``, then ``rules``)
GET      /api/stats                      the player's statistics per variant
POST     /api/games                      a new game: ``{"variant", "deal": "random" |
                                         "number" | "winnable" | "daily", "number"}``;
                                         202 ``{"pending": true}`` while a deal is looked
                                         for (ask again)
GET      /api/games/{id}                 the game's snapshot
POST     /api/games/{id}/actions         ``{"version", "action": "click" | "drop" | "deal"
                                         | "undo" | "redo" | "restart" | "back" | "move"
                                         | "finish" | "safe", "pile", "depth", "target",
                                         "move", "auto"}``; ``auto`` (default true): the
                                         safe moves home follow the move by themselves
                                         (``safe``: play them now)
POST     /api/games/{id}/hint            ``{"version", "from": "deal" | "view"}``: the next
                                         move of a winning line found from the full deal,
                                         or from what the player sees (hidden cards
                                         guessed); ``hint.suggestion`` true: the solver
                                         decided nothing in time, the move is a
                                         suggestion (asking again searches longer)
POST     /api/games/{id}/review          ``{"version"}``: where the game was lost
                                         (``back_to``: the moves played at the last
                                         winnable position, for ``"back"``)
=======  ==============================  =================================================

What a player may see is ``patience.visibility``'s answer, and every answer about a game
goes through it (:func:`game_answer`): the snapshot sends a face-down card as ``null`` and
the stock only as a count, and no sentence of a game in progress names a hidden card. A
review of a game in progress names the move that lost it and where to go back to, never a
position or a winning line (they would show the hidden cards); once the game is over (won,
or no move left) it shows the last winnable position and a winning line from there.

Every answer is JSON. A refused request gets a 4xx status and ``{"error": "…"}`` (with the
game's snapshot when there is one): 400 malformed, 403 a post from another origin (another
scheme, host or port than the server's own), 404 unknown, 409 stale version (another tab
moved first), 410 a saved game that cannot be used, 413 too large, 415 not JSON, 422 an
illegal move (``error``: one sentence in the game's words, ``patience.refusal``;
``explanation``: the rule-level explanation) or an impossible request, 503 a new game when
the server already keeps its most games (``patience.limits.MAX_WEB_GAMES``) and every one
is in progress.
"""

from __future__ import annotations

import datetime
import json
import random
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from patience.arguments import check_budget
from patience.cards import MASK64
from patience.errors import DealError, MoveError, PatienceError, SaveError
from patience.game import Move
from patience.moves import DRAW
from patience.plainrules import plain_rules_text
from patience.play import saves
from patience.play.deals import DailyCache, proof_positions
from patience.play.session import (
    VIEW_HINT_POSITIONS,
    AutoMove,
    Reply,
    Session,
    guesses_won,
    went_home,
)
from patience.seeds import MICROSOFT, OURS, PYSOLFC, Seed, deal, parse_seed
from patience.variant import Variant
from patience.visibility import conceal
from patience.web.dealfinder import DealFinder
from patience.web.served import ServedVariants
from patience.web.snapshot import card_name, describe_move, pile_label, snapshot
from patience.web.store import GameStore, WebError, WebGame

#: the largest request body accepted, in bytes
MAX_BODY = 4096
#: solver budgets: a request never waits much longer than these
HINT_POSITIONS = 200_000
HINT_SECONDS = 3.0
REVIEW_POSITIONS = 100_000
REVIEW_SECONDS = 4.0
#: the fields of an answer that hold sentences for the player (see :func:`game_answer`)
SENTENCES = frozenset({"message", "announce", "error", "explanation"})
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
STATIC_FILES = {"app.js": "text/javascript; charset=utf-8",
                "style.css": "text/css; charset=utf-8"}
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
                               "connect-src 'self'; img-src 'self' data:; base-uri 'none'; "
                               "form-action 'none'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-cache",
}


def origin_of(scheme: str, authority: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of a scheme and ``host[:port]`` (the default port of the
    scheme when none is written); None when it cannot be read.

    >>> origin_of("http", "localhost:8000"), origin_of("https", "[::1]")
    (('http', 'localhost', 8000), ('https', '::1', 443))
    >>> origin_of("http", "localhost:x") is None
    True
    """
    scheme = scheme.lower()
    try:
        parts = urlsplit(f"{scheme}://{authority.strip()}")
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname or parts.username is not None or parts.password is not None \
            or parts.path or parts.query or parts.fragment:
        return None
    if port is None:
        port = {"http": 80, "https": 443}.get(scheme)
        if port is None:
            return None
    return scheme, parts.hostname.lower(), port


def same_origin(origin: str, scheme: str, host: str) -> bool:
    """Whether the page at ``origin`` (an Origin header) is this server's own: the same
    scheme, host and port as the request was sent to (``scheme`` and the Host header), not
    merely another loopback port — a page on ``http://localhost:9`` is another server's."""
    written, _, authority = origin.strip().partition("://")
    mine = origin_of(scheme, host)
    return mine is not None and origin_of(written, authority) == mine


def host_of(value: str) -> str:
    """The host of a Host header (``'127.0.0.1:8000'`` → ``'127.0.0.1'``, ``[::1]`` →
    ``::1``)."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].partition("]")[0]
    return value.rpartition(":")[0] if value.count(":") == 1 else value


class Guard:
    """ASGI middleware: answers only to the allowed Host names (so a page elsewhere cannot
    reach the server by DNS rebinding), refuses posts from another origin (another scheme,
    host or port than the request's: :func:`same_origin`), adds the
    security headers (the Content-Security-Policy lets the page fetch nothing but this
    server)."""

    def __init__(self, app: ASGIApp, allowed_hosts: frozenset[str]) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = host_of(headers.get("host", ""))
        problem = None
        if host not in self.allowed_hosts and "*" not in self.allowed_hosts:
            problem = (400, f"this server answers only to {', '.join(sorted(self.allowed_hosts))}")
        elif scope["method"] not in ("GET", "HEAD") and "origin" in headers \
                and not same_origin(headers["origin"], scope.get("scheme", "http"),
                                    headers.get("host", "")):
            problem = (403, (f"requests from the page at {headers['origin'][:100]!r} are "
                             "refused: only this server's own page (the same scheme, host "
                             "and port) may change a game"))
        if problem is not None:
            response = JSONResponse({"error": problem[1]}, status_code=problem[0],
                                    headers=SECURITY_HEADERS)
            await response(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [
                    (k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()
                    if k.encode() not in present]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def error_response(error: WebError) -> JSONResponse:
    body: dict[str, Any] = {"error": error.message}
    if error.explanation:
        body["explanation"] = error.explanation
    if error.game is not None:
        return game_answer(error.game, body, error.status)
    return JSONResponse(body, status_code=error.status)


def game_snapshot(game: WebGame) -> dict[str, Any]:
    return snapshot(game.session, game_id=game.id, version=game.revision, key=game.key)


def game_answer(game: WebGame, body: dict[str, Any], status: int = 200) -> JSONResponse:
    """Every answer about a game: ``body`` and the game's snapshot, with each sentence of
    ``body`` (a message, an announcement, an error, an explanation) as the player may read
    it (``patience.visibility.conceal``: no hidden card of a game in progress)."""
    position = game.session.game
    answer = {name: conceal(position, value) if name in SENTENCES and isinstance(value, str)
              else value for name, value in body.items()}
    answer["snapshot"] = game_snapshot(game)
    return JSONResponse(answer, status_code=status)


async def read_json(request: Request) -> dict[str, Any]:
    """The request's JSON object, read at most MAX_BODY bytes far; WebError otherwise."""
    kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if kind != "application/json":
        raise WebError("send a JSON object with 'Content-Type: application/json'", status=415)
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise WebError(f"the request body is larger than {MAX_BODY} bytes", status=413)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise WebError(f"the request body is larger than {MAX_BODY} bytes", status=413)
    try:
        data = json.loads(bytes(body))
    except (ValueError, RecursionError) as error:
        raise WebError(f"the request body is not valid JSON ({str(error)[:100]})") from None
    if not isinstance(data, dict):
        raise WebError("the request body must be a JSON object")
    return data


def integer(data: dict[str, Any], name: str, low: int, high: int) -> int:
    value = data.get(name)
    if type(value) is not int or not low <= value <= high:
        raise WebError(f"{name!r} must be an integer from {low} to {high}, got "
                       f"{_short(value)}")
    return value


def text_field(data: dict[str, Any], name: str, options: Sequence[str] | None = None,
               longest: int = 100) -> str:
    value = data.get(name)
    if not isinstance(value, str) or len(value) > longest:
        raise WebError(f"{name!r} must be a string of at most {longest} characters, got "
                       f"{_short(value)}")
    if options is not None and value not in options:
        raise WebError(f"{name!r} must be one of {', '.join(map(repr, options))}, got "
                       f"{_short(value)}")
    return value


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class WebServer:
    """The state behind the routes: the served variants, the games, the deal finder."""

    def __init__(self, variants: ServedVariants, directory: Path, *,
                 finder: DealFinder | None = None, record_stats: bool = True,
                 hint_budget: tuple[int, float] = (HINT_POSITIONS, HINT_SECONDS),
                 review_budget: tuple[int, float] = (REVIEW_POSITIONS, REVIEW_SECONDS),
                 view_hint_positions: int = VIEW_HINT_POSITIONS) -> None:
        self.variants = variants
        self.default = variants.default
        self.store = GameStore(variants, directory / "games", record_stats=record_stats)
        self.store.prune()
        self.finder = finder or DealFinder(directory, daily_cache=DailyCache.default())
        check_budget(*hint_budget)  # refused here, when the server starts, not at a hint
        check_budget(*review_budget)
        self.hint_budget = hint_budget
        self.review_budget = review_budget
        self.view_hint_positions = view_hint_positions
        static = resources.files("patience.web").joinpath("static")
        self.page = static.joinpath("index.html").read_bytes()
        self.static = {name: static.joinpath(name).read_bytes() for name in STATIC_FILES}

    # -- pages --

    async def index(self, request: Request) -> Response:
        return Response(self.page, media_type="text/html; charset=utf-8")

    async def static_file(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in self.static:
            raise WebError(f"there is no file {name[:80]!r}", status=404)
        return Response(self.static[name], media_type=STATIC_FILES[name])

    # -- variants and statistics --

    def variant_key(self, key: object) -> str:
        """``key`` if it is a served variant's; a WebError (404) otherwise."""
        if not isinstance(key, str) or key not in self.variants:
            raise WebError(f"there is no variant {_short(key)} here (served: "
                           f"{', '.join(sorted(self.variants))})", status=404)
        return key

    def variant(self, key: object) -> Variant:
        """The served variant ``key``, compiled (on its first use: call from a worker
        thread, never the event loop)."""
        return self.variants[self.variant_key(key)]

    async def list_variants(self, request: Request) -> Response:
        return await run_in_threadpool(self._list_variants)  # may read the definitions

    def _list_variants(self) -> Response:
        families: dict[str, list[dict[str, Any]]] = {}
        for key in self.variants:  # definitions only: nothing compiles for the list
            variant = self.variants.definition(key)
            families.setdefault(variant.family, []).append(
                {"key": key, "name": variant.name, "description": variant.description,
                 "numberings": [MICROSOFT, PYSOLFC] if variant.pysolfc is not None else []})
        return JSONResponse({
            "default": self.default,
            "families": [{"family": family, "variants": sorted(members,
                                                               key=lambda m: m["name"])}
                         for family, members in sorted(families.items())],
        })

    async def rules(self, request: Request) -> Response:
        key = request.path_params["key"]
        return await run_in_threadpool(self._rules, key)  # may compile the variant

    def _rules(self, key: str) -> Response:
        variant = self.variant(key)
        return JSONResponse({"key": key, "name": variant.name, "rules": variant.rules_text(),
                             "plain": plain_rules_text(variant)})

    async def stats(self, request: Request) -> Response:
        return await run_in_threadpool(self._stats)

    def _stats(self) -> Response:
        try:
            records = saves.read_stats()
        except SaveError as error:
            return JSONResponse({"variants": [], "error": str(error)})
        rows = []
        for key in self.variants:
            variant = self.variants.definition(key)
            record = records.get(variant.id, saves.empty_record())
            rows.append({"key": key, "name": variant.name, **record,
                         "text": saves.describe_record(record)})
        return JSONResponse({"variants": rows})

    # -- games --

    async def new_game(self, request: Request) -> Response:
        data = await read_json(request)
        key = data.get("variant")
        self.variant_key(key)
        assert isinstance(key, str)
        kind = text_field(data, "deal", ("random", "number", "winnable", "daily"))
        return await run_in_threadpool(self._new_game, key, kind, data)  # may compile

    def _new_game(self, key: str, kind: str, data: dict[str, Any]) -> Response:
        variant = self.variant(key)
        label: str | None = None
        proven: int | None = None  # the budget a winnable or daily deal was proven with
        if kind == "number" and isinstance(data.get("number"), str):  # ms:N, pysolfc:N
            try:
                dealt = deal(variant, parse_seed(text_field(data, "number", longest=40)))
            except DealError as error:
                raise WebError(error.message, status=422) from None
            return JSONResponse({"snapshot": game_snapshot(self.store.create(key, dealt))},
                                status_code=201)
        if kind == "number":
            number = integer(data, "number", 0, MASK64)
        elif kind == "random":
            number = random.randrange(1, 1_000_000_000)
        else:
            today = datetime.date.today()
            numbering = self.numbering(variant, data) if kind == "daily" else OURS
            found = (self.finder.daily(variant, today, numbering) if kind == "daily"
                     else self.finder.winnable(key, variant))
            if found.pending:
                what = "today's deal" if kind == "daily" else "a deal the solver proves winnable"
                return JSONResponse({"pending": True, "message": f"looking for {what} of "
                                     f"{variant.name}…"}, status_code=202)
            if found.number is None:
                raise WebError(found.error or "no deal was found", status=422)
            number = found.number
            # the budget the deal was proven winnable with: a hint at its start finds the win
            proven = proof_positions() if kind == "daily" else self.finder.positions
            if numbering != OURS:                  # the day's deal in ms: or pysolfc:
                seed = Seed(number, numbering)
                game = self.store.create(key, deal(variant, seed),
                                         f"daily deal {today.isoformat()} (deal {seed})",
                                         proven=proven)
                return game_answer(game, {}, 201)
            label = (f"daily deal {today.isoformat()} (deal {number})" if kind == "daily"
                     else f"winnable deal {number}")
        game = self.store.create(key, variant.deal(number), label, proven=proven)
        return game_answer(game, {}, 201)

    @staticmethod
    def numbering(variant: Variant, data: dict[str, Any]) -> str:
        """The request's ``numbering`` for the day's deal (ours when absent); one the
        variant cannot deal is refused before any search."""
        if data.get("numbering") is None:
            return OURS
        numbering = text_field(data, "numbering", (OURS, MICROSOFT, PYSOLFC))
        if numbering != OURS and variant.definition.pysolfc is None:
            raise WebError(f"{variant.name} has no {numbering}: deals (its file maps no "
                           "other program's deals)", status=422)
        return numbering

    async def get_game(self, request: Request) -> Response:
        game_id = request.path_params["game"]
        game = await run_in_threadpool(self.store.get, game_id)
        return game_answer(game, {})

    async def action(self, request: Request) -> Response:
        game_id = request.path_params["game"]
        data = await read_json(request)
        name = text_field(data, "action", ("click", "drop", "deal", "undo", "redo",
                                           "restart", "back", "move", "finish", "safe"))
        if not isinstance(data.get("auto", True), bool):
            raise WebError(f"'auto' must be true or false, got {_short(data.get('auto'))}")
        game, (message, announce) = await run_in_threadpool(
            self.store.change, game_id, data.get("version"),
            lambda game: self._act(game, name, data))
        return game_answer(game, {"message": message, "announce": announce})

    def _act(self, web_game: WebGame, name: str,
             data: dict[str, Any]) -> tuple[bool, tuple[str, str]]:
        session = web_game.session
        game = session.game
        before = [list(pile) for pile in game.piles]
        stock_before = len(game.stock)
        session.auto_home = data.get("auto", True)  # the page's choice (kept in the browser)
        outcome = _ACTIONS.get(name, _redo)(web_game, data)
        if not isinstance(outcome, Reply):  # the action said all there is to say
            return outcome
        if outcome.error or not outcome.changed:
            raise WebError(outcome.text or "nothing happened", status=422, game=web_game,
                           explanation=outcome.explanation)
        return True, (outcome.text, _announce(session, name, before, stock_before))

    async def hint(self, request: Request) -> Response:
        game_id = request.path_params["game"]
        data = await read_json(request)
        reading = text_field(data, "from", ("deal", "view")) if "from" in data else "deal"
        game, hint = await run_in_threadpool(self.store.change, game_id, data.get("version"),
                                             lambda web_game: self._hint(web_game, reading))
        return game_answer(game, hint)

    def _hint(self, web_game: WebGame, reading: str) -> tuple[bool, dict[str, Any]]:
        session = web_game.session
        game = session.game
        hidden = session.hides_cards()
        seen = None
        plan: list[Move] = []
        if reading == "view" and hidden:
            reply = session.hint_from_view(max_positions=self.view_hint_positions)
            seen = session.view_hint()  # None when no guess was won
            move = None if seen is None else session.hinted_move()
        else:
            positions, seconds = self.hint_budget
            reply = session.hint(positions, seconds)
            plan = session.planned_moves()
            move = session.hinted_move()
        if move is None:
            return False, {"message": reply.text, "hint": None, "from": reading}
        words = "deal" if move.source == -1 else describe_move(session.variant, game.piles, move)
        notation = game.notation(move)
        suggested = seen is None and session.hint_is_suggestion()
        if seen is not None:
            message = f"Hint from what you see: {words} ({notation}) — {guesses_won(seen)}."
        elif suggested:
            message = (f"Suggestion: {words} ({notation}) — the solver has not decided this "
                       "position " + ("within its budget, so no win is known." if
                                      session.searched_longer else
                                      "yet, so no win is known; Hint again searches longer."))
        else:
            label = "Hint from the full deal" if hidden else "Hint"
            message = (f"{label}: {words} ({notation}) — a win in {len(plan)} "
                       f"move{'s' if len(plan) != 1 else ''}.")
            note = session.take_back_note("Hint again")  # its take-backs, if any
            if note:
                message += f" {note[0].upper()}{note[1:]}."
            if hidden:
                message += " The solver knows the hidden cards; 'Hint (what I see)' does not."
        hint = {"source": move.source, "count": move.count, "target": move.target,
                "notation": notation, "suggestion": suggested}
        if move.source < -1:  # a discard: the piles whose top cards leave together
            hint["piles"] = list(session.variant.discard_sets[-2 - move.source])
        if move.count == DRAW:  # a draw (merci): the card under the top card, alone
            hint["depth"] = 1
        return False, {"message": message, "moves_to_win": len(plan) or None, "from": reading,
                       "hint": hint}

    async def review(self, request: Request) -> Response:
        game_id = request.path_params["game"]
        data = await read_json(request)
        game, result = await run_in_threadpool(self.store.change, game_id,
                                               data.get("version"), self._review)
        return game_answer(game, result)

    def _review(self, web_game: WebGame) -> tuple[bool, dict[str, Any]]:
        session = web_game.session
        positions, seconds = self.review_budget
        session.last_winnable = None
        reply = session.where_lost(positions, seconds)
        text = reply.text.replace("Press b to go back there.",
                                  "Press b (or 'Go back there') to go back there.")
        return False, {"message": text, "back_to": session.last_winnable}


def gone_home(auto: AutoMove) -> str:
    """A safe move played by itself, in words: ``'Ace of spades went home by itself.'``."""
    more = len(auto.cards) - 1
    return (f"{card_name(auto.cards[0]).capitalize()} went home by itself"
            + (f" with the {more} cards on it." if more else "."))


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    messages = {404: f"there is nothing at {request.url.path[:100]!r}",
                405: f"{request.method} is not allowed at {request.url.path[:100]!r}"}
    return JSONResponse({"error": messages.get(error.status_code, error.detail)},
                        status_code=error.status_code, headers=error.headers)


async def web_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, WebError)
    return error_response(error)


async def patience_error(request: Request, error: Exception) -> Response:
    return JSONResponse({"error": str(error)}, status_code=422)


async def internal_error(request: Request, error: Exception) -> Response:
    return JSONResponse({"error": f"the server failed: {type(error).__name__} (a bug; the "
                                  "server's log has the details)"}, status_code=500)


def create_app(names: Sequence[str] = (), *, allowed_hosts: Sequence[str] = (),
               finder: DealFinder | None = None,
               record_stats: bool = True,
               hint_budget: tuple[int, float] = (HINT_POSITIONS, HINT_SECONDS),
               review_budget: tuple[int, float] = (REVIEW_POSITIONS, REVIEW_SECONDS),
               view_hint_positions: int = VIEW_HINT_POSITIONS,
               warm: bool = False) -> Starlette:
    """The app serving the shipped variants and the files ``names`` (the first named is
    the page's default). ``allowed_hosts`` ``["*"]`` answers to any Host (for a server
    listening on every address). Games live under ``web/`` in the data directory of
    ``patience.play.saves`` (``$PATIENCE_DATA_DIR`` overrides it), beside the statistics;
    the server answers to the loopback names and ``allowed_hosts``. Variants compile on
    first use; ``warm`` compiles them all in a background thread from the start."""
    variants = ServedVariants(names)
    directory = saves.data_directory() / "web"
    server = WebServer(variants, directory, finder=finder, record_stats=record_stats,
                       hint_budget=hint_budget, review_budget=review_budget,
                       view_hint_positions=view_hint_positions)
    if warm:
        variants.warm()
    routes = [
        Route("/", server.index, methods=["GET"]),
        Route("/static/{name}", server.static_file, methods=["GET"]),
        Route("/api/variants", server.list_variants, methods=["GET"]),
        Route("/api/variants/{key}/rules", server.rules, methods=["GET"]),
        Route("/api/stats", server.stats, methods=["GET"]),
        Route("/api/games", server.new_game, methods=["POST"]),
        Route("/api/games/{game}", server.get_game, methods=["GET"]),
        Route("/api/games/{game}/actions", server.action, methods=["POST"]),
        Route("/api/games/{game}/hint", server.hint, methods=["POST"]),
        Route("/api/games/{game}/review", server.review, methods=["POST"]),
    ]
    hosts = frozenset(LOOPBACK_HOSTS | {host_of(h) for h in allowed_hosts})
    app = Starlette(routes=routes, middleware=[Middleware(Guard, allowed_hosts=hosts)],
                    exception_handlers={HTTPException: http_error, WebError: web_error,
                                        PatienceError: patience_error,
                                        Exception: internal_error})
    app.state.server = server
    return app


__all__ = ["MAX_BODY", "WebServer", "create_app"]


# --- the actions of a game's page (WebServer._act) -----------------------------------------

def _card_at(web_game: WebGame, data: dict[str, Any], name: str) -> tuple[int, int]:
    """The pile named by ``data[name]`` and the depth ``data["depth"]`` of a card in it."""
    game = web_game.session.game
    variant = web_game.session.variant
    pile = integer(data, name, 0, len(variant.pile_names) - 1)
    size = len(game.piles[pile])
    if not size:
        raise WebError(f"{pile_label(variant, pile)} is empty", status=422, game=web_game)
    return pile, integer(data, "depth", 0, size - 1)


def _click(web_game: WebGame, data: dict[str, Any]) -> Reply:
    return web_game.session.click(*_card_at(web_game, data, "pile"))


def _drop(web_game: WebGame, data: dict[str, Any]) -> Reply:
    pile, depth = _card_at(web_game, data, "pile")
    target = integer(data, "target", 0, len(web_game.session.variant.pile_names) - 1)
    return web_game.session.drop(pile, depth, target)


def _deal(web_game: WebGame, data: dict[str, Any]) -> Reply:
    return web_game.session.deal()


def _move(web_game: WebGame, data: dict[str, Any]) -> Reply:
    session = web_game.session
    try:
        return session.play(session.game.parse_move(text_field(data, "move")))
    except MoveError as error:
        raise WebError(error.message, status=422, game=web_game) from None


def _undo(web_game: WebGame, data: dict[str, Any]) -> Reply | tuple[bool, tuple[str, str]]:
    session = web_game.session
    reply = session.undo()
    if not reply.changed:
        return reply
    move = session.redo_stack[-1]
    words = "the deal" if move.source == -1 else \
        describe_move(session.variant, session.game.piles, move)
    return True, (reply.text, f"Undid {words}.")


def _restart(web_game: WebGame, data: dict[str, Any]) -> tuple[bool, tuple[str, str]]:
    session = web_game.session
    if not session.game.move_stack:
        raise WebError("the game is at its start already", status=422, game=web_game)
    while session.game.move_stack:
        session.undo()
    return True, ("back at the start; redo replays the moves", "Back at the start.")


def _back(web_game: WebGame, data: dict[str, Any]) -> Reply | tuple[bool, tuple[str, str]]:
    reply = web_game.session.back()
    return (True, (reply.text, reply.text)) if reply.changed else reply


def _safe(web_game: WebGame, data: dict[str, Any]) -> tuple[bool, tuple[str, str]]:
    """The page turned the automatic moves on, or began a game."""
    session = web_game.session
    played = session.play_safe_moves() if session.auto_home else []
    if not played:
        return False, ("", "")
    words = " ".join(gone_home(auto) for auto in played)
    return True, (went_home(played), (words + " " + session.end_message()).strip())


def _finish(web_game: WebGame, data: dict[str, Any]) -> Reply | tuple[bool, tuple[str, str]]:
    session = web_game.session
    moves_before = len(session.game.move_stack)
    reply = session.finish()
    if not reply.changed:
        return reply
    count = len(session.game.move_stack) - moves_before
    words = (f"Finished: {count} move{'s' if count != 1 else ''} home. "
             + session.end_message()).strip()
    return True, (reply.text, words)


def _redo(web_game: WebGame, data: dict[str, Any]) -> Reply:
    return web_game.session.redo()


_ACTIONS: dict[str, Callable[[WebGame, dict[str, Any]],
                             Reply | tuple[bool, tuple[str, str]]]] = {
    "click": _click, "drop": _drop, "deal": _deal, "move": _move, "undo": _undo,
    "restart": _restart, "back": _back, "safe": _safe, "finish": _finish, "redo": _redo,
}


def _announce(session: Session, name: str, before: list[list[int]], stock_before: int) -> str:
    """What a screen reader hears after a move the session made for the page: the move (or
    the deal), the cards that went by themselves, the cards that went home, and the end."""
    game = session.game
    variant = session.variant
    auto = session.last_auto
    move = game.move_stack[-1 - len(auto)]
    if move.source == -1:
        words = ("Dealt" if stock_before else "Turned the waste back into the stock") + \
            f"; {len(game.stock)} card{'s' if len(game.stock) != 1 else ''} in the stock."
    else:
        words = describe_move(variant, before, move)
        words = words[0].upper() + words[1:] + "."
        if name == "redo":
            words = "Redid: " + words
    for forced in game.forced_moves_of_last_move():
        if forced.source >= 0:
            words += (f" {forced.count} cards went from {pile_label(variant, forced.source)}"
                      f" to {pile_label(variant, forced.target)} by themselves.")
    for went in auto:
        words += " " + gone_home(went)
    end = session.end_message()
    if end:
        words += " " + end
    return words
