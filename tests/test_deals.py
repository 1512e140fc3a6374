"""Numbered deals of the ecosystem (``ms:N``, ``pysolfc:N``) and boards in Freecell Solver's
and black-hole-solver's formats (``show --format fcs``, ``--position`` reading them back).

Every shipped variant whose file maps pysol-cards' layout (the ``pysolfc:`` key) is checked
card by card against pysol-cards' own board objects: every pile, bottom to top, face-down
cards, the talon in dealing order and the foundations.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from patience import find_variant
from patience.boards import read_board, write_board
from patience.cards import FACE_DOWN, card_code
from patience.cli.main import main
from patience.errors import DealError, PositionError, VariantError
from patience.limits import MAX_MS_DEAL_NUMBER, MAX_PYSOLFC_DEAL_NUMBER
from patience.seeds import Seed, deal, external_board, parse_seed
from patience.variant import load_variant_text, shipped_variants

pysol_cards = pytest.importorskip("pysol_cards")
from pysol_cards.deal_game import Game as PysolGame
from pysol_cards.random_base import RandomBase

REPOSITORY = Path(__file__).resolve().parent.parent

#: the shipped variants that pysol-cards deals, and its game for each
MAPPED = {
    "bakers-dozen": "bakers_dozen", "bakers-game": "bakers_game",
    "beleaguered-castle": "beleaguered_castle", "black-hole": "black_hole",
    "dead-king-golf": "golf",
    "eight-off": "eight_off", "fan": "fan", "freecell": "freecell", "golf": "golf",
    "klondike": "klondike", "klondike-draw3": "klondike_by_threes",
    "klondike-vegas": "vegas_klondike", "seahaven-towers": "seahaven_towers",
    "simple-simon": "simple_simon", "streets-and-alleys": "streets_and_alleys",
    "thumb-and-pouch": "thumb_and_pouch",
    "yukon": "yukon",
    "gypsy": "gypsy",
    # PySolFC deals Russian Solitaire as Yukon (the same startGame and shuffle)
    "russian-solitaire": "yukon",
    "relaxed-freecell": "relaxed_freecell", "forecell": "forecell",
    # and Moosehide, Alaska and Roslin too; Scotch Patience, Shamrocks and Free Fan as Fan
    "moosehide": "yukon", "alaska": "yukon", "roslin": "yukon",
    "scotch-patience": "fan", "shamrocks": "fan", "free-fan": "fan",
    "all-in-a-row": "all_in_a_row",
    "relaxed-golf": "golf",  # PySolFC deals Relaxed Golf as Golf
}
SEEDS = ["ms:1", "ms:2", "ms:617", "ms:11982", "ms:32000", "ms:1000000", f"ms:{2**31}",
         f"ms:{MAX_MS_DEAL_NUMBER}", "pysolfc:1", "pysolfc:32001", "pysolfc:123456789",
         f"pysolfc:{MAX_PYSOLFC_DEAL_NUMBER}"]


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def pysol_board(game_id: str, seed: Seed):
    """pysol-cards' own Board object for the deal (not its text)."""
    which = RandomBase.DEALS_MS if seed.numbering == "ms" else RandomBase.DEALS_PYSOLFC
    game = PysolGame(game_id, seed.number, which)
    game.deal()
    getattr(game, game.game_class)()
    return game.board


def code(card) -> str:
    """A pysol-cards card as our code, face-down ones in lower case (its suits are CSHD)."""
    text = "A23456789TJQK"[card.rank - 1] + "CSHD"[card.suit]
    return text.lower() if card.flipped else text


def ours(pile: list[int]) -> list[str]:
    return [card_code(c & ~FACE_DOWN).lower() if c & FACE_DOWN else card_code(c) for c in pile]


def test_the_mapped_variants_are_those_pysol_cards_deals() -> None:
    mapped = {name: find_variant(name).definition.pysolfc for name in shipped_variants()}
    assert {name: m.game for name, m in mapped.items() if m is not None} == MAPPED


@pytest.mark.parametrize("name", sorted(MAPPED))
@pytest.mark.parametrize("text", SEEDS)
def test_a_deal_is_pysol_cards_deal_card_by_card(name: str, text: str) -> None:
    variant = find_variant(name)
    seed = parse_seed(text)
    game = deal(variant, seed)
    board = pysol_board(MAPPED[name], seed)
    mapping = variant.definition.pysolfc
    assert mapping is not None
    piles = {g.name: [game.piles[i] for i in g.indices] for g in variant.groups}
    columns = board.columns.cols
    assert [ours(p) for p in piles[mapping.columns]] == [[code(c) for c in col]
                                                          for col in columns]
    if board.with_freecells:
        cells = [[] if c.empty else [code(c)] for c in board.freecells]
        assert mapping.freecells is not None
        got = [ours(p) for p in piles[mapping.freecells]]
        assert got[:len(cells)] == cells and not any(got[len(cells):])
    elif mapping.freecells is not None:
        assert not any(piles[mapping.freecells])
    if board.with_talon:
        assert mapping.talon
        talon = [code(c) for c in board.talon]  # (Golf's first card went to the waste)
        assert [card_code(c) for c in reversed(game.stock)] == talon
    else:
        assert game.stock == []
    if board.with_foundations:  # Beleaguered Castle's Aces
        assert mapping.foundations is not None
        tops = sorted(code(c) for c in board.foundations if not c.empty)
        assert sorted(code for pile in piles[mapping.foundations] for code in ours(pile)) == tops
    if mapping.foundation is not None:  # one card, on top of the foundation pile
        line = next(line for line in board.calc_string(pysol_cards.cards.CardRenderer(True))
                    .splitlines() if line.startswith("Foundations:"))
        top = line.split()[1]  # '-': an empty foundation (All in a Row's row)
        assert ours(piles[mapping.foundation][0]) == ([] if top == "-" else [top])
    # every card is somewhere exactly once, and the deal has the shape of our own deals
    reference = variant.deal(1)
    assert [(len(p), sum(c & FACE_DOWN != 0 for c in p)) for p in game.piles] == \
        [(len(p), sum(c & FACE_DOWN != 0 for c in p)) for p in reference.piles]
    assert len(game.stock) == len(reference.stock)
    assert game.seed == seed and game.deal_number is None


@pytest.mark.parametrize("name", sorted(MAPPED))
@pytest.mark.parametrize("text", ["ms:1", "ms:11982", "pysolfc:40000", "7"])
def test_a_board_reads_back_as_the_same_position(name: str, text: str) -> None:
    variant = find_variant(name)
    game = deal(variant, text)
    written = write_board(game)
    assert read_board(variant, written).text() == game.text()


def test_a_board_of_a_game_under_way_reads_back() -> None:
    variant = find_variant("freecell")
    game = deal(variant, "ms:1")
    # moves that fill cells, empty a column and send cards home
    for move in ["c6:1-a", "c6:1-a", "c6:1-f", "c6:1-f", "c6:1-a", "c5:1-c6"]:
        game.push(move)
    written = write_board(game)
    assert written.startswith("Foundations: ") and "Freecells: " in written
    assert read_board(variant, written).text() == game.text()


def test_a_game_made_from_its_piles_is_checked_as_its_text_is() -> None:
    variant = find_variant("freecell")
    game = variant.deal(1)
    assert variant.from_piles([list(p) for p in game.piles], list(game.stock), "deal 1").text() \
        == game.text()
    with pytest.raises(PositionError, match="'mine': 1 piles; freecell has 16"):
        variant.from_piles([[4]], [], "mine")
    with pytest.raises(PositionError, match="'mine': a deal has 52 cards"):
        variant.from_piles([[4]] + [[] for _ in game.piles[1:]], [], "mine")


def test_freecell_solvers_own_board_is_read() -> None:
    """Freecell Solver writes every foundation (H-0 for none) and puts ':' before a column."""
    board = ("Foundations: H-0 C-0 D-0 S-A\nFreecells:  JD - 8H\n"
             ": 4C 2C 9C 8C QS 4S 2H\n: 5H QH 3C AC 3H 4H QD\n: QC 9S 6H 9H 3S KS 3D\n"
             ": 5D 2S JC 5C JH 6D\n: 2D KD TH TC TD 8D\n: 7H JS KH TS KC 7C\n"
             ": AH 5S 6S AD\n: 7S 6C 7D 4D 8S 9D\n")
    game = read_board(find_variant("freecell"), board)
    assert game.text().startswith("c:4C2C9C8CQS4S2H/")
    assert " a:JD//8H/ f:///AS " in game.text() + " "


@pytest.mark.parametrize("board, message", [
    ("Foundations: H-0 C-0 D-0 S-0\n: AS", "it has 1 columns; freecell's columns are 8"),
    ("Foundations: X-3\n" + "KS\n" * 8, "foundation 'X-3' is not SUIT-RANK"),
    ("Talon: AS\n" + "KS\n" * 8, "freecell has no talon"),
    ("Freecells: ZZ\n" + "KS\n" * 8, "unknown card 'ZZ'"),
    # read, but not a deal: the message shows the position read
    ("KS\n" * 8, "position 'c:KS/KS/KS/KS/KS/KS/KS/KS a:/// f:/// s:': a deal has 52 cards"),
])
def test_a_wrong_board_is_refused(board: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        read_board(find_variant("freecell"), board)


# --- the command line ---------------------------------------------------------------------


def test_microsoft_deal_11982_is_unwinnable() -> None:
    result = run("solve", "freecell", "--seed", "ms:11982", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["verdict"] == "unwinnable" and answer["deal"] == "ms:11982"


def test_show_fcs_is_pysol_cards_board_of_microsoft_deal_1() -> None:
    result = run("show", "freecell", "--seed", "ms:1", "--format", "fcs")
    assert result.exit_code == 0, result.output
    assert result.output == external_board("freecell", parse_seed("ms:1"))
    assert result.output.splitlines()[0] == "JD KD 2S 4C 3S 6D 6S"  # the famous game 1


def test_position_reads_a_board_file(tmp_path: Path) -> None:
    board = tmp_path / "ms617.board"
    board.write_text(run("show", "freecell", "--seed", "ms:617", "--format", "fcs").output)
    by_board = run("show", "freecell", "--position", str(board), "--format", "text")
    by_seed = run("show", "freecell", "--seed", "ms:617", "--format", "text")
    assert by_board.exit_code == 0, by_board.output
    assert by_board.output == by_seed.output


@pytest.mark.parametrize("args, message", [
    (["show", "tabbycat", "--seed", "ms:1"], "tabbycat has no ms: deals"),
    (["show", "freecell", "--seed", "ms:0"], "out of range"),
    (["show", "freecell", "--seed", f"ms:{MAX_MS_DEAL_NUMBER + 1}"], "out of range"),
    (["show", "freecell", "--seed", "xp:3"], "unknown numbering 'xp'"),
    (["show", "freecell", "--seed", "ms:"], "is not a number"),
    (["show", "tabbycat", "--seed", "1", "--format", "fcs"],
     "tabbycat has no board in Freecell Solver's format"),
    (["show", "klondike", "--seed", "1", "--moves", "d", "--format", "fcs"],
     "its waste hold cards"),
])
def test_bad_seeds_and_boards_are_one_line_errors(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert message in result.output
    assert result.stderr.startswith("error: ") and len(result.stderr.splitlines()) == 1


def test_without_pysol_cards_the_error_names_the_extra() -> None:
    code = ("import sys; sys.modules['pysol_cards'] = None; "
            "from patience.cli import main; main(['show', 'freecell', '--seed', 'ms:1'])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=REPOSITORY, timeout=120, check=False)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: deal 'ms:1' needs the package pysol-cards: pip install 'patience-cards[deals]'"]


def test_our_numbering_is_unchanged() -> None:
    freecell = find_variant("freecell")
    assert deal(freecell, "1").text() == freecell.deal(1).text()
    assert deal(freecell, 1).deal_number == 1
    assert str(parse_seed(" MS:0011982 ")) == "ms:11982"
    with pytest.raises(DealError, match="too long"):
        parse_seed("9" * 100)


@pytest.mark.skipif(shutil.which("fc-solve") is None, reason="fc-solve is not installed")
@pytest.mark.parametrize("text", ["ms:1", "ms:617"])
def test_fc_solve_reads_our_boards(tmp_path: Path, text: str) -> None:
    game = deal(find_variant("freecell"), text)
    for move in ["c6:1-a", "c6:1-a", "c6:1-f", "c7:1-a"]:  # on ms:1, AC goes home
        if game.is_legal(game.parse_move(move)):
            game.push(move)
    board = tmp_path / "board"
    board.write_text(write_board(game))
    if text == "ms:1":
        assert board.read_text().startswith("Foundations: C-A H-0 D-0 S-0\nFreecells: 3D 2C")
    done = subprocess.run(["fc-solve", str(board)], capture_output=True, text=True,
                          timeout=120, check=False)
    assert "This game is solveable." in done.stdout, done.stdout + done.stderr


# --- the variant file's key -----------------------------------------------------------------

BASE = (REPOSITORY / "variants" / "golf.yaml").read_text()


@pytest.mark.parametrize("mapping, message", [
    ("pysolfc:\n  game: golfing\n  columns: columns\n", "pysolfc.game 'golfing' is not one of"),
    ("pysolfc:\n  game: golf\n  columns: colums\n",
     "pysolfc.columns names 'colums', which is not a pile group"),
    ("pysolfc:\n  game: golf\n", "pysolfc needs the key 'columns'"),
    ("pysolfc:\n  game: golf\n  columns: columns\n  talon: waste\n",
     "pysolfc.talon must be 'stock'"),
    ("pysolfc:\n  game: golf\n  columns: columns\n  foundation: columns\n",
     "pysolfc.foundation names 'columns', which has 7 piles"),
    ("pysolfc:\n  game: golf\n  columns: columns\n  cells: waste\n",
     "unknown key 'cells' in pysolfc"),
])
def test_a_wrong_mapping_is_a_located_error(mapping: str, message: str) -> None:
    text = BASE.split("\npysolfc:")[0] + "\n" + mapping
    with pytest.raises(VariantError, match=message) as raised:
        load_variant_text(text, "golfish.yaml")
    error = raised.value
    errors = getattr(error, "errors", [error])
    assert errors[0].code == "pysolfc" and errors[0].location is not None


# --- FreeCell's standard notation -------------------------------------------------------------


def replay_standard(game, line: list[str]):
    """Play a line written in standard notation: each move is the one legal move from the
    named source to the named column or cell (any foundation for h), of the length after
    'v' if one is written."""
    variant = game.variant
    names = {}
    for group, letters in (("columns", "123456789"), ("cells", "abcdefg"), ("foundations", "")):
        for n, index in enumerate(variant.group_by_name[group].indices):
            names.setdefault(letters[n] if letters else "h", []).append(index)
    for text in line:
        if ":" in text:  # a card back off a foundation, in our notation
            game.push(text)
            continue
        sources, targets = names[text[0]], names[text[1]]
        choices = [m for m in game.generate_moves() if m[0] in sources and m[2] in targets
                   and (len(text) == 2 or m[1] == int(text[3:]))]
        assert len({m[1] for m in choices}) == 1, f"{text} at {game.text()}: {choices}"
        game.push_unchecked(choices[0])
    return game


@pytest.mark.parametrize("text", ["ms:1", "ms:2", "ms:3", "ms:5", "pysolfc:40000"])
def test_standard_notation_replays_to_the_win(text: str) -> None:
    result = run("solve", "freecell", "--seed", text, "--notation", "standard", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["verdict"] == "won"
    line = answer["moves"].split()
    assert all(len(move) == 2 or move[2] == "v" or move.startswith("f") for move in line)
    assert replay_standard(deal(find_variant("freecell"), text), line).is_won()


def test_standard_notation_needs_free_cells() -> None:
    result = run("solve", "golf", "--seed", "1", "--notation", "standard")
    assert result.exit_code == 2
    assert "golf has no free cells" in result.stderr


# --- saves, studies and the web page ------------------------------------------------------------

PLAY = [sys.executable, "-c", "from patience.cli.main import main; main()", "play"]


def play(data_directory: Path, *arguments: str, commands: str = ""):
    return subprocess.run([*PLAY, *arguments], input=commands, capture_output=True, check=False,
                          text=True, timeout=120,
                          env={"PATIENCE_DATA_DIR": str(data_directory), "PATH": "",
                               "PYTHONPATH": ":".join(sys.path)})


def test_a_saved_microsoft_deal_resumes_as_that_deal(tmp_path: Path) -> None:
    data = tmp_path / "data"
    started = play(data, "freecell", "--seed", "ms:11982", "--plain", commands="c1:1-a\nq\n")
    assert started.returncode == 0, started.stderr
    assert started.stdout.startswith("FreeCell — deal ms:11982")
    save = json.loads((data / "saves" / "freecell.json").read_text())
    assert save["seed"] == "ms:11982" and save["deal_number"] is None
    assert save["start"] == deal(find_variant("freecell"), "ms:11982").text()
    resumed = play(data, "--resume", "--plain", commands="q\n")
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.startswith("FreeCell — deal ms:11982")
    from patience.play.session import Session

    session = Session.from_save(save, path=data / "saves" / "freecell.json",
                                record_stats=False)
    assert session.game.seed == Seed(11982, "ms") and session.game.deal_number is None


def test_a_save_with_a_wrong_seed_is_refused(tmp_path: Path) -> None:
    from patience.play.saves import check_save

    data = {"format": "patience-save", "version": 2, "variant": "freecell",
            "rules_hash": "x", "start": "", "moves": [], "seed": "ms:0"}
    with pytest.raises(Exception, match="numbered deal such as 'ms:11982'"):
        check_save(data, tmp_path / "save.json")


def test_the_web_pages_new_dialog_takes_a_microsoft_number(tmp_path: Path, monkeypatch) -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx2")
    from starlette.testclient import TestClient

    sys.path.insert(0, str(Path(__file__).parent))
    from web_helpers import make_app

    monkeypatch.setenv("PATIENCE_DATA_DIR", str(tmp_path / "data"))
    app = make_app(tmp_path / "data", names=("freecell",))
    with TestClient(app) as client:
        made = client.post("/api/games", json={"variant": "freecell", "deal": "number",
                                               "number": "ms:11982"})
        assert made.status_code == 201, made.text
        snap = made.json()["snapshot"]
        assert snap["label"] == "deal ms:11982"
        wrong = client.post("/api/games", json={"variant": "freecell", "deal": "number",
                                                "number": "ms:0"})
        assert wrong.status_code == 422 and "out of range" in wrong.text
    # a new server reads the stored game back as the same deal
    with TestClient(make_app(tmp_path / "data", names=("freecell",))) as client:
        again = client.get(f"/api/games/{snap['game']}")
        assert again.status_code == 200, again.text
        assert again.json()["snapshot"]["label"] == "deal ms:11982"
    assert "ms|pysolfc" in (REPOSITORY / "patience/web/static/app.js").read_text()


def test_a_study_of_microsoft_deals_is_kept_apart_from_ours(tmp_path: Path) -> None:
    db = str(tmp_path / "results.sqlite")
    ms = run("stats", "freecell", "--deals", "ms:11982,ms:1", "--db", db, "--workers", "1",
             "--max-positions", "200000", "--prove", "--quiet")
    assert ms.exit_code == 2 and "ms:1" in ms.output  # one numbering per --deals
    ms = run("stats", "freecell", "--deals", "ms:11982", "--db", db, "--workers", "1",
             "--max-positions", "200000", "--prove", "--quiet")
    assert ms.exit_code == 0, ms.output
    assert "won 0, unwinnable 1, unknown 0" in ms.output
    assert f"'patience report freecell --deals ms:11982 --db {db}'" in ms.output
    ours = run("stats", "freecell", "--deals", "11982", "--db", db, "--workers", "1",
               "--max-positions", "200000", "--prove", "--quiet")
    assert ours.exit_code == 0 and "already stored" in ours.output
    assert "(0 already stored" in ours.output  # not taken for Microsoft's 11982
    both = run("report", "--db", db, "--json")
    rows = [json.loads(line) for line in both.output.splitlines()]
    assert sorted(row["rules_hash"].partition(":")[2] for row in rows) == ["", "ms"]
    shown = run("report", "freecell", "--db", db, "--deals", "ms:1-32000")
    assert shown.exit_code == 0, shown.output
    assert shown.output.startswith("freecell (Microsoft's deals) (rules ")
    assert "unwinnable  1" in shown.output
    wrong = run("stats", "freecell", "--deals", "ms:0-3", "--db", db)
    assert wrong.exit_code == 2 and "ms: deals are numbered from 1" in wrong.output


# --- Solvitaire's deal files ---------------------------------------------------------------------


@pytest.mark.parametrize("name, text", [("freecell", "ms:1"), ("klondike", "3"),
                                        ("black-hole", "pysolfc:7"), ("golf", "ms:2")])
def test_solvitaire_prints_the_bench_deal_file(name: str, text: str) -> None:
    from patience.solvitaire import card_of_solvitaire, entry_for, solvitaire_deal

    result = run("solvitaire", name, "--seed", text)
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    game = deal(find_variant(name), text)
    assert printed == solvitaire_deal(game, entry_for(find_variant(name)))
    if "tableau piles" in printed:
        first = [card_of_solvitaire(code)[0] for code in printed["tableau piles"][0]]
        assert first == [c & ~FACE_DOWN for c in game.piles[0]]


def test_solvitaire_refuses_a_game_it_does_not_play() -> None:
    result = run("solvitaire", "tabbycat", "--seed", "1")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: 'tabbycat' has no solvitaire: mapping in its file")
    result = run("solvitaire", "canfield", "--seed", "1")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: 'canfield' is not compared with Solvitaire: Our "
                                    "columns move their top card or the whole column")


@pytest.mark.parametrize("name", sorted(n for n in MAPPED if find_variant(n).definition.pysolfc
                                        .foundation is None))
def test_boards_of_random_games_read_back(name: str) -> None:
    """Random legal moves from a few deals: every position a board can hold (its stock and
    unmapped piles empty, as in the FreeCell family always) reads back the same."""
    import random

    variant = find_variant(name)
    chooser = random.Random(name)
    written = 0
    for text in ["ms:1", "ms:2", "pysolfc:99"]:
        game = deal(variant, text)
        for _ in range(60):
            try:
                board = write_board(game)
            except PositionError:
                assert variant.definition.pysolfc.talon or variant.stock_size == 0
            else:
                assert read_board(variant, board).text() == game.text(), board
                written += 1
            moves = game.generate_moves()
            if not moves:
                break
            game.push_unchecked(chooser.choice(moves))
    assert written >= 3


def test_deal_winnable_counts_microsoft_deals() -> None:
    # (the progress line of a search past a second goes to stderr: a loaded machine)
    result = run("deal", "freecell", "--winnable", "--from", "ms:11982")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("ms:11983\t")  # 11982 is lost
    ours = run("deal", "freecell", "--winnable", "--from", "1")
    assert ours.exit_code == 0 and ours.stdout.split("\t")[0].isdigit()


def test_any_board_text_is_read_or_refused_in_one_line() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    freecell = find_variant("freecell")
    pieces = st.sampled_from(["Foundations:", "Freecells:", "Talon:", ":", "-", "H-0", "S-K",
                              "X-1", "<7H>", "7H", "10S", "AS", "KD", "\n", " ", "H-", "<", ">"])

    @settings(max_examples=300, deadline=None)
    @given(st.lists(pieces, max_size=60).map("".join))
    def check(text: str) -> None:
        try:
            read_board(freecell, text)
        except PositionError as error:
            assert "\n" not in str(error).strip() or text in str(error)

    check()


def test_the_days_deal_in_microsofts_numbering_is_proven_and_played_as_that_deal(
        tmp_path: Path) -> None:
    import datetime
    import hashlib

    from patience.seeds import DAILY_HIGH, daily_start
    from patience.solver import solve

    day = datetime.date(2026, 12, 5)
    h = int.from_bytes(hashlib.sha256(b"patience-daily:freecell:2026-12-05").digest()[:8], "big")
    assert daily_start("freecell", day) == Seed(h)                    # ours: unchanged
    assert daily_start("freecell", day, "ms") == Seed(1 + h % DAILY_HIGH, "ms")
    result = run("daily", "freecell", "--date", "2026-12-05", "--numbering", "ms", "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert found["deal"].startswith("ms:")
    number = int(found["deal"][3:])
    assert 1 + h % DAILY_HIGH <= number < 1 + h % DAILY_HIGH + 50
    assert solve(deal(find_variant("freecell"), found["deal"])).verdict == "won"
    # a variant without other numberings says so, at once
    refused = run("daily", "tabbycat", "--numbering", "ms")
    assert refused.exit_code == 2 and "has no ms: deals" in refused.output
    # the terminal's random game in Microsoft's numbering, and --numbering with --seed
    data = tmp_path / "data"
    started = play(data, "freecell", "--numbering", "ms", "--plain", commands="q\n")
    assert started.returncode == 0, started.stderr
    assert started.stdout.startswith("FreeCell — deal ms:")
    mixed = play(data, "freecell", "--seed", "3", "--numbering", "ms", "--plain")
    assert mixed.returncode == 2 and "write the deal as ms:N" in mixed.stderr


def test_the_web_pages_daily_deal_in_microsofts_numbering(tmp_path: Path, monkeypatch) -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx2")
    import datetime

    from starlette.testclient import TestClient

    sys.path.insert(0, str(Path(__file__).parent))
    from web_helpers import make_app

    monkeypatch.setenv("PATIENCE_DATA_DIR", str(tmp_path / "data"))
    from patience.play.deals import daily_deal

    today = datetime.date.today()
    number = daily_deal(find_variant("freecell"), today, numbering="ms")
    app = make_app(tmp_path / "data", names=("freecell", "tabbycat"))
    with TestClient(app) as client:
        listed = {v["key"]: v["numberings"] for f in client.get("/api/variants").json()["families"]
                  for v in f["variants"]}
        assert (listed["freecell"], listed["tabbycat"]) == (["ms", "pysolfc"], [])
        made = client.post("/api/games", json={"variant": "freecell", "deal": "daily",
                                               "numbering": "ms"})
        assert made.status_code == 201, made.text
        snap = made.json()["snapshot"]
        assert snap["label"] == f"daily deal {today.isoformat()} (deal ms:{number})"
        ours = client.post("/api/games", json={"variant": "freecell", "deal": "daily"})
        assert ours.status_code == 201 and "(deal ms:" not in ours.json()["snapshot"]["label"]
        refused = client.post("/api/games", json={"variant": "tabbycat", "deal": "daily",
                                                  "numbering": "ms"})
        assert refused.status_code == 422 and "no ms: deals" in refused.text
        wrong = client.post("/api/games", json={"variant": "freecell", "deal": "daily",
                                                "numbering": "kpat"})
        assert wrong.status_code == 400
