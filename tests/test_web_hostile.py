"""The web server against hostile use (issue #29): no answer shows a hidden card, posts only
from the server's own page, a bounded number of game files, and a saved game's start
checked against its deal number."""

from __future__ import annotations

import json
import os
import re

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from web_helpers import act, make_app, new_game

from patience import Game, find_variant
from patience.cards import FACE_DOWN, card_code, card_symbol
from patience.settings import Show
from patience.variant import shipped_variants


@pytest.fixture
def served(tmp_path, monkeypatch):
    """A client of a new app over a new data directory, the app, and the directory."""
    monkeypatch.setenv("PATIENCE_DATA_DIR", str(tmp_path / "data"))
    app = make_app(tmp_path / "data")
    with TestClient(app) as client:
        yield client, app, tmp_path / "data"


# -- what an answer may show: an independent reading of "hidden" --

def hidden_names(game: Game) -> set[str]:
    """The codes and symbols of the cards hidden from the player (face down or in the stock)
    and nowhere in view (a two-deck twin in view shows what its card is); none once the game
    is over (won, or no move left: then everything may be shown)."""
    if game.is_won() or not game.has_moves():
        return set()
    # the table's piles (after them come hidden counters, a redeal's seed: no cards)
    table = game.piles[:len(game.variant.pile_names)]
    down = {card & ~FACE_DOWN for pile in table for card in pile if card & FACE_DOWN}
    in_view = {card for pile in table for card in pile if not card & FACE_DOWN}
    return {name for card in (down | set(game.stock)) - in_view
            for name in (card_code(card), card_symbol(card))}


CODE = re.compile(r"[A2-9TJQK][CDHS]")
WORD = re.compile(r"[0-9A-Za-z_]+")
SYMBOL = re.compile(r"(?<![0-9A-Za-z_])(?:10|[A2-9JQK])[♣♦♥♠]")


def shown_hidden_cards(text: str, game: Game, game_id: str) -> list[str]:
    """The hidden cards ``text`` (an answer's JSON) names: a code or symbol standing alone,
    or a code in a row of codes as position text writes a pile (``9D3DAC``; face down in
    lower case). Not a code inside another word (``c10``), nor in the game's id (random
    letters)."""
    text = text.replace(game_id, "")
    named = set(SYMBOL.findall(text))
    for word in WORD.findall(text):
        pairs = [word[i:i + 2].upper() for i in range(0, len(word), 2)]
        if CODE.fullmatch(word) or (len(word) >= 4 and len(word) % 2 == 0
                                    and all(CODE.fullmatch(pair) for pair in pairs)):
            named.update(pairs)
    return sorted(named & hidden_names(game))


def check_snapshot(snap: dict, game: Game) -> None:
    """The snapshot's piles are the piles as the player sees them, and no stock card."""
    for index, pile in enumerate(snap["piles"]):
        seen = [None if card & FACE_DOWN else card_code(card) for card in game.piles[index]]
        group = game.variant.group_of_pile[index]
        assert pile["cards"] == (seen[-1:] if group.show is Show.STACK else seen)
    # the stock's facts are counts, never its cards (and, with draws of a buried card, how
    # many are left)
    assert set(snap["stock"]) == {"exists", "count", "deals_left", "redeals", "redeals_left",
                                  "can_deal", "label"} | (
        set() if game.variant.merci is None else {"draws_left"})


def check_answer(response, app, game_id: str) -> None:
    game = app.state.server.store.get(game_id).session.game
    leaked = shown_hidden_cards(response.text, game, game_id)
    assert not leaked, (leaked, response.text[:2000])
    body = response.json()
    if "snapshot" in body:
        check_snapshot(body["snapshot"], game)


# -- the review of a game in progress --

def test_a_review_of_a_game_in_progress_shows_no_position_and_no_line(served):
    client, app, _ = served
    # Tabby Cat deal 1: ten deals lose it (the last winnable position: after move 9), with
    # 8 cards still in the stock
    snap = new_game(client, "tabbycat", 1)
    for _ in range(10):
        snap = act(client, snap, action="deal").json()["snapshot"]
    assert snap["stock"]["count"] == 8 and not snap["lost"]
    response = client.post(f"/api/games/{snap['game']}/review",
                           json={"version": snap["version"]})
    review = response.json()
    assert review["back_to"] == 9, review["message"]
    assert review["message"].startswith("The last winnable position came after move 9. "
                                        "Move 10, d, lost the game. The game is not over")
    assert "s:" not in review["message"] and "winning line from there:" not in \
        review["message"]
    check_answer(response, app, snap["game"])
    assert act(client, review["snapshot"], action="back").json()["snapshot"]["moves"] == 9


# -- every answer, for random games of every variant that hides cards --

ACTIONS = ["click", "drop", "deal", "deals", "undo", "redo", "restart", "back", "move", "illegal",
           "hint", "view hint", "review", "get"]
steps = st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 2**16),
                           st.integers(0, 2**16), st.integers(0, 2**16)), max_size=14)


@pytest.fixture(scope="module")
def hidden_client(tmp_path_factory):
    data = tmp_path_factory.mktemp("hidden")
    old = os.environ.get("PATIENCE_DATA_DIR")
    os.environ["PATIENCE_DATA_DIR"] = str(data)
    app = make_app(data, record_stats=False, hint_budget=(300, 0.3),
                   review_budget=(5_000, 0.5), view_hint_positions=50)
    app.state.server.store.keep = 100_000  # the long run starts more games than are kept
    with TestClient(app) as client:
        yield client, app
    if old is None:
        del os.environ["PATIENCE_DATA_DIR"]
    else:
        os.environ["PATIENCE_DATA_DIR"] = old


def request_for(game: Game, step: tuple[str, int, int, int]) -> tuple[str, dict]:
    """The request a step makes: its path's end and its body (without the version)."""
    name, a, b, c = step
    piles = len(game.variant.pile_names)
    if name in ("hint", "view hint"):
        return "hint", {"from": "view" if name == "view hint" else "deal"}
    if name == "review":
        return "review", {}
    if name == "deals":
        return "actions", {"action": "deal"}
    if name == "move":
        moves = sorted(game.generate_moves())
        move = moves[a % len(moves)] if moves else (0, 1, 1)
        return "actions", {"action": "move", "move": game.notation(move)}
    if name == "illegal":  # any move at all, mostly illegal: the refusal is checked
        move = (a % piles, 1 + b % 4, c % piles)
        return "actions", {"action": "move", "move": game.notation(move)}
    if name in ("click", "drop"):
        pile = a % piles
        depth = b % max(1, len(game.piles[pile]))
        return "actions", {"action": name, "pile": pile, "depth": depth, "target": c % piles}
    return "actions", {"action": name}


def check_random_game(client, app, name: str, number: int, moves) -> None:
    response = client.post("/api/games", json={"variant": name, "deal": "number",
                                               "number": number})
    snap = response.json()["snapshot"]
    game_id = snap["game"]
    check_answer(response, app, game_id)
    for step in moves:
        # "deals": up to 12 deals in a row, the moves most likely to lose a game (and so to
        # give a review of a game in progress something to say)
        for _ in range(1 + step[1] % 12 if step[0] == "deals" else 1):
            game = app.state.server.store.get(game_id).session.game
            if step[0] == "get":
                response = client.get(f"/api/games/{game_id}")
            else:
                path, body = request_for(game, step)
                response = client.post(f"/api/games/{game_id}/{path}",
                                       json={"version": snap["version"], **body})
            assert response.status_code < 500, response.text
            check_answer(response, app, game_id)
            snap = response.json().get("snapshot", snap)


#: variants that hide cards each their own way: face down and a stock with a waste turned
#: back (Klondike), a reserve (Canfield), face down with a small stock (Scorpion), face down
#: and no stock (Yukon), a stock dealt to the columns (Spider, Tabby Cat), to one pile (Golf)
SAMPLE = ["little-klondike", "klondike", "klondike-draw3", "canfield", "scorpion", "yukon",
          "spiderette", "tabbycat", "golf", "aces-up", "will-o-the-wisp"]


@settings(max_examples=12, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(SAMPLE), number=st.integers(0, 10_000), moves=steps)
# always tried: ten deals lose Tabby Cat deal 1 with 8 cards left in the stock, and the
# review finds the last winnable position (after move 9)
@example(name="tabbycat", number=1, moves=[("deals", 9, 0, 0), ("review", 0, 0, 0)])
def test_no_answer_shows_a_hidden_card(hidden_client, name, number, moves):
    client, app = hidden_client
    check_random_game(client, app, name, number, moves)


@pytest.mark.slow
@pytest.mark.parametrize("name", shipped_variants())  # those hiding no card: vacuously
@settings(max_examples=40, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(number=st.integers(0, 2**64 - 1), moves=steps)
def test_no_answer_shows_a_hidden_card_in_any_variant(hidden_client, name, number, moves):
    client, app = hidden_client
    check_random_game(client, app, name, number, moves)


def test_a_refusal_never_names_a_hidden_card():
    # a rule's explanation may name any card it looked at: conceal() is the net under it
    from patience.visibility import conceal

    game = find_variant("klondike").deal(1)
    down = next(card & ~FACE_DOWN for pile in game.piles for card in pile if card & FACE_DOWN)
    text = f"for c = {card_code(down)}: {card_symbol(down)} is not red"
    assert conceal(game, text) == "for c = ##: ## is not red"
    assert conceal(game, f"c10 and x{card_code(down)}") == f"c10 and x{card_code(down)}"


# -- Origin: the server's own scheme, host and port --

@pytest.mark.parametrize("origin, host, status", [
    ("http://localhost:9", "localhost:8000", 403),
    ("http://localhost:8000", "localhost:8000", 201),
    ("http://LOCALHOST:8000", "localhost:8000", 201),
    ("https://localhost:8000", "localhost:8000", 403),
    ("http://127.0.0.1:8000", "localhost:8000", 403),
    ("http://[::1]:8000", "[::1]:8000", 201),
    ("http://[::1]:8001", "[::1]:8000", 403),
    ("http://localhost", "localhost:80", 201),
    ("http://localhost:80", "localhost", 201),
    ("http://localhost:8000", "localhost", 403),
    ("null", "localhost:8000", 403),
    ("http://localhost:99999", "localhost:8000", 403),
    ("http://user@localhost:8000", "localhost:8000", 403),
])
def test_a_post_is_accepted_only_from_the_servers_own_origin(served, origin, host, status):
    client = served[0]
    response = client.post("/api/games", json={"variant": "tabbycat", "deal": "random"},
                           headers={"origin": origin, "host": host})
    assert response.status_code == status, response.text
    if status == 403:
        assert "same scheme, host and port" in response.json()["error"]


# -- game files: a bounded number, finished ones removed first --

#: Golf deal 2 is lost once its stock is dealt: a game played to its end in 16 moves
LOST = ("golf", 2)


def files(data) -> set[str]:
    return {path.stem for path in (data / "web" / "games").glob("*.json")}


def finished(store):
    """A new game that is over (lost)."""
    game = find_variant(LOST[0]).deal(LOST[1])
    while game.can_deal():
        game.push("d")
    web_game = store.create(LOST[0], game)
    assert web_game.session.is_over()
    return web_game


def test_game_files_are_capped_while_the_server_runs(served):
    client, app, data = served
    store = app.state.server.store
    store.keep = 5
    first = [finished(store).id for _ in range(4)]
    playing = new_game(client)["game"]
    assert files(data) == {*first, playing}
    for _ in range(3):  # each new game removes the finished game changed longest ago
        new_game(client)
    assert len(files(data)) == 5 and playing in files(data)
    assert files(data) & set(first) == {first[3]}


def test_a_game_in_progress_is_never_removed_and_a_full_store_says_so(served):
    client, app, data = served
    store = app.state.server.store
    store.keep = 3
    lost = new_game(client, *LOST)
    games = [lost["game"], new_game(client)["game"], new_game(client)["game"]]
    response = client.post("/api/games", json={"variant": "tabbycat", "deal": "random"})
    assert response.status_code == 503
    assert response.json()["error"].startswith("this server keeps at most 3 games and every "
                                               "one of them is in progress")
    assert files(data) == set(games)
    # a game played to its end makes room, and only that game goes
    while lost["stock"]["can_deal"]:
        lost = act(client, lost, action="deal").json()["snapshot"]
    assert lost["lost"]
    assert new_game(client)["game"] in files(data)
    assert games[0] not in files(data) and files(data) >= set(games[1:])
    assert client.get(f"/api/games/{games[0]}").status_code == 404


def test_a_restart_keeps_every_game_in_progress_and_reads_older_files(served):
    client, app, data = served
    store = app.state.server.store
    games = [new_game(client)["game"] for _ in range(3)]
    over = finished(store).id
    for game_id in (*games, over):  # files written before they said whether they are over
        path = data / "web" / "games" / f"{game_id}.json"
        saved = json.loads(path.read_text())
        del saved["over"]
        path.write_text(json.dumps(saved))
    again = make_app(data)
    again.state.server.store.keep = 2
    assert again.state.server.store.prune() == 1  # the finished game, read back to know it
    assert files(data) == set(games)


def test_the_limit_is_documented():
    import inspect
    from pathlib import Path

    from patience.limits import MAX_WEB_GAMES
    from patience.web.store import GameStore

    assert inspect.signature(GameStore).parameters["keep"].default == MAX_WEB_GAMES
    limits = Path(__file__).resolve().parent.parent / "docs" / "limits.md"
    assert "`MAX_WEB_GAMES`" in limits.read_text(encoding="utf-8")


# -- a saved game's start, its deal number and its proof budget --

def test_a_saved_game_whose_start_is_not_its_deal_is_refused_and_left_alone(served):
    client, _, data = served
    snap = new_game(client, "tabbycat", 1)
    path = data / "web" / "games" / f"{snap['game']}.json"
    saved = json.loads(path.read_text())
    for change, says in (
            ({"start": find_variant("tabbycat").deal(2).text()},
             "says it is deal 1 of 'tabbycat', but it does not start as that deal does"),
            ({"deal_number": -1}, "which is no deal number"),
            ({"deal_number": 2**64}, "which is no deal number"),
            ({"deal_number": "1"}, "which is no deal number"),
            ({"proven": 0}, "which is no budget"),
            ({"proven": 10**12}, "which is no budget"),
            ({"proven": "1000000"}, "which is no budget"),
            ({"proven": True}, "which is no budget")):
        content = json.dumps({**saved, **change})
        path.write_text(content)
        with TestClient(make_app(data)) as again:
            response = again.get(f"/api/games/{snap['game']}")
        assert response.status_code == 410 and says in response.json()["error"], response.text
        assert path.read_text() == content
    # a chosen position (no deal number) is read as before
    path.write_text(json.dumps({**saved, "deal_number": None, "label": "a chosen deal"}))
    with TestClient(make_app(data)) as again:
        assert again.get(f"/api/games/{snap['game']}").status_code == 200
