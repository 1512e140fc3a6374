"""The Solvitaire bench's deal converter (bench/solvitaire.py), without the binary.

For one deal of each game whose variant file has a solvitaire: mapping: the Solvitaire deal
holds every card exactly once (twice with two decks; the Aces Solvitaire places itself left
out), the piles have the sizes Solvitaire's game has, face-down cards (and only they) have a
lower-case suit letter, each pile is our pile bottom card first, and the stock is written
so that dealing our stock out turns its cards last to first. The layouts below are
Solvitaire's games (research notes), written independently of our variant files.

The games' variant files are found by shipped name or, until they are shipped, in
``$BENCH_VARIANTS_DIR``; a game whose file is in neither is skipped. The tests that run
the binary are skipped when ``SOLVITAIRE`` is not set.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections import Counter
from pathlib import Path

import pytest

import patience
from patience.cards import FACE_DOWN, new_deck
from patience.errors import UnknownVariantError

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"


def _load_bench():
    spec = importlib.util.spec_from_file_location("bench_solvitaire", BENCH / "solvitaire.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_solvitaire", module)
    spec.loader.exec_module(module)
    return sys.modules["bench_solvitaire"]


bench = _load_bench()
MAPPED = bench.mapped_games()
TABLE = {"games": {k: v for k, v in MAPPED.items() if "not_exact" not in v},
         "not_exact": {k: v["not_exact"] for k, v in MAPPED.items() if "not_exact" in v}}
DEAL = 7

KLONDIKE = {"tableau piles": [1, 2, 3, 4, 5, 6, 7], "face down": [0, 1, 2, 3, 4, 5, 6],
            "stock": 24, "waste": 0}
#: Solvitaire's layout of each game: tableau pile sizes, face-down cards per pile (default
#: none), stock, waste and reserve sizes, the hole card, the Aces it places itself
LAYOUTS = {
    "freecell": {"tableau piles": [7, 7, 7, 7, 6, 6, 6, 6]},
    "bakers-game": {"tableau piles": [7, 7, 7, 7, 6, 6, 6, 6]},
    "beleaguered-castle": {"tableau piles": [6] * 8, "aces placed": True},
    "streets-and-alleys": {"tableau piles": [7, 7, 7, 7, 6, 6, 6, 6]},
    "bakers-dozen": {"tableau piles": [4] * 13, "kings at bottom": True},
    "fan": {"tableau piles": [3] * 17 + [1]},
    "king-albert": {"tableau piles": [1, 2, 3, 4, 5, 6, 7, 8, 9], "reserve": 7},
    "black-hole": {"tableau piles": [3] * 17, "hole": "AS"},
    "golf": {"tableau piles": [5] * 7, "hole": True, "stock": 16},
    "klondike": KLONDIKE,
    "klondike-draw3": KLONDIKE,
    "klondike-vegas": KLONDIKE,
    "forty-thieves": {"tableau piles": [4] * 10, "stock": 64, "waste": 0},
    "fortunes-favor": {"tableau piles": [1] * 12, "stock": 35, "waste": 1,
                       "aces placed": True},
    # the rule readings of bench/readings/
    "spider-singles": {"tableau piles": [6, 5, 5, 6, 5, 5, 6, 5, 5, 6],
                       "face down": [5, 4, 4, 5, 4, 4, 5, 4, 4, 5], "stock": 50},
    "spiderette-singles": {"tableau piles": [1, 2, 3, 4, 5, 6, 7],
                           "face down": [0, 1, 2, 3, 4, 5, 6], "stock": 24},
    "will-o-the-wisp-singles": {"tableau piles": [3] * 7, "stock": 31},
    "simple-simon-singles": {"tableau piles": [8, 8, 8, 7, 6, 5, 4, 3, 2, 1]},
    "mrs-mop-singles": {"tableau piles": [8] * 13},
}


def test_every_mapped_game_has_a_layout_here():
    assert sorted(LAYOUTS) == sorted(TABLE["games"])


def _variant(game_id: str) -> patience.Variant:
    try:
        return bench.load_variant(game_id)
    except UnknownVariantError:
        pytest.skip(f"no variant file for {game_id!r} yet (shipped, or in $BENCH_VARIANTS_DIR)")


def _cards(codes):
    return [bench.card_of_solvitaire(code) for code in codes]


@pytest.mark.parametrize("game_id", sorted(LAYOUTS))
def test_deal_converts(game_id):
    variant = _variant(game_id)
    entry = TABLE["games"][game_id]
    layout = LAYOUTS[game_id]
    game = variant.deal(DEAL)
    deal = bench.solvitaire_deal(game, entry)
    json.dumps(deal)  # plain JSON

    # every card exactly once (twice with two decks), but for the Aces Solvitaire places
    deck = Counter(new_deck(variant.decks))
    if layout.get("aces placed"):
        deck -= Counter(card for card in new_deck(1) if card >> 2 == 1)
    assert Counter(card for card, _ in _cards(bench.deal_cards(deal))) == deck
    assert "foundations" not in deal

    # pile sizes, and the tableau count Solvitaire's rules expect
    tableau = deal["tableau piles"]
    assert [len(pile) for pile in tableau] == layout["tableau piles"]
    assert len(tableau) == entry["expect"]["tableau piles"]["count"]
    for key in ("stock", "waste", "reserve"):
        if key in layout:
            assert len(deal[key]) == layout[key], key
        else:
            assert key not in deal, key
    if "reserve" in layout:
        assert layout["reserve"] == entry["expect"]["reserve"]["size"]
    if "stock" in layout:
        assert len(deal["stock"]) + len(deal.get("waste", [])) <= \
            entry["expect"]["stock"]["size"]
    if "hole" in layout:
        assert isinstance(deal["hole"], str)
        if layout["hole"] is not True:
            assert deal["hole"] == layout["hole"]
    else:
        assert "hole" not in deal

    # face-down marks: the first k cards of each pile, and nothing outside the tableau
    down = layout.get("face down", [0] * len(tableau))
    for pile, k in zip(tableau, down):
        assert [flag for _, flag in _cards(pile)] == [True] * k + [False] * (len(pile) - k)
    for key in ("stock", "waste", "reserve"):
        assert not any(flag for _, flag in _cards(deal.get(key, [])))

    # each Solvitaire pile is our pile, bottom card first, with our face-down flags
    columns = variant.group_by_name[entry["deal"]["tableau piles"]]
    for pile, index in zip(tableau, columns.indices):
        ours = [(card & ~FACE_DOWN, bool(card & FACE_DOWN)) for card in game.piles[index]]
        assert _cards(pile) == ours

    if layout.get("kings at bottom"):
        for pile in tableau:
            ranks = [card >> 2 for card, _ in _cards(pile)]
            kings = ranks.count(13)
            assert ranks[:kings] == [13] * kings

    # the stock: dealing ours out turns the Solvitaire stock's cards last to first
    turned = [card for card, _ in _cards(reversed(deal.get("stock", [])))]
    if "stock" in deal and ("waste" in entry["deal"] or "hole" in entry["deal"]):
        group = variant.group_by_name[entry["deal"].get("waste") or entry["deal"]["hole"]]
        waste = game.piles[group.indices[0]]
        before = list(waste)
        while game.stock:
            game.push("d")
        assert waste == before + turned
    elif "stock" in deal:  # dealt to the tableau: one card a column, c1 first
        dealt = []
        while game.stock:
            sizes = [len(game.piles[index]) for index in columns.indices]
            game.push("d")
            dealt += [game.piles[index][-1] & ~FACE_DOWN
                      for index, size in zip(columns.indices, sizes)
                      if len(game.piles[index]) > size]
        assert dealt == turned


def test_card_codes_round_trip():
    for card in new_deck(1):
        for flag in (False, True):
            code = bench.solvitaire_card(card | FACE_DOWN if flag else card)
            assert bench.card_of_solvitaire(code) == (card, flag)
    assert bench.solvitaire_card(patience.cards.parse_card("TH")) == "10H"
    assert bench.solvitaire_card(patience.cards.parse_card("KD") | FACE_DOWN) == "Kd"


def test_a_missing_or_doubled_card_is_refused():
    variant = patience.find_variant(ROOT / "docs/examples/little-klondike.yaml")
    entry = {"deal": {"tableau piles": "columns", "waste": "waste", "stock": "stock"},
             "start_empty": ["foundations"]}
    deal = bench.solvitaire_deal(variant.deal(1), entry)
    bench.check_complete(deal, variant)
    deal["stock"][0] = deal["stock"][1]
    with pytest.raises(bench.BenchError, match="missing"):
        bench.check_complete(deal, variant)


def test_the_mapping_must_cover_every_group():
    variant = patience.find_variant(ROOT / "docs/examples/little-klondike.yaml")
    with pytest.raises(bench.BenchError, match="not in the mapping"):
        bench.solvitaire_deal(variant.deal(1), {"deal": {"tableau piles": "columns",
                                                         "stock": "stock"}})
    with pytest.raises(bench.BenchError, match="does not have"):
        bench.solvitaire_deal(variant.deal(1), {"deal": {"tableau piles": "tableau"}})


def test_rules_files_agree_with_their_expectations():
    for game_id, entry in TABLE["games"].items():
        if "rules_file" not in entry:
            continue
        with open(bench.RULES_DIR / entry["rules_file"], encoding="utf-8") as file:
            rules = json.load(file)
        for section, options in rules.items():
            want = entry["expect"].get(section)
            if isinstance(options, dict):
                for key, value in options.items():
                    if isinstance(want, dict) and key in want:
                        assert want[key] == value, (game_id, section, key)
            elif want is not None:
                assert want == options, (game_id, section)


def test_games_left_out_say_why():
    assert set(TABLE["not_exact"]).isdisjoint(TABLE["games"])
    with pytest.raises(bench.BenchError, match="not compared"):
        bench.entry_for(patience.find_variant("canfield"))


# --- with the binary ------------------------------------------------------------------

needs_binary = pytest.mark.skipif(not os.environ.get("SOLVITAIRE"),
                                  reason="SOLVITAIRE (a Solvitaire binary) is not set")


@needs_binary
def test_solvitaire_rules_are_the_ones_checked():
    binary = bench.solvitaire_binary()
    for game_id, entry in TABLE["games"].items():
        assert bench.check_expected(bench.effective_rules(binary, entry),
                                    entry["expect"]) == [], game_id


@needs_binary
@pytest.mark.parametrize("game_id", ["king-albert", "fortunes-favor"])
def test_solvitaire_runs_on_a_converted_deal(game_id, tmp_path):
    variant = _variant(game_id)
    entry = TABLE["games"][game_id]
    game = variant.deal(1)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(bench.solvitaire_deal(game, entry)))
    peer = bench.run_solvitaire(bench.solvitaire_binary(), entry, path, 5.0)
    ours = bench.run_ours(variant, game_id, 1, 5.0, 10**6)
    assert peer.verdict != "unknown" and peer.unique > 0 and peer.cpu >= 0
    if ours.verdict != "unknown":
        assert ours.verdict == peer.verdict


# --- fairness (issue #34): whole processes, one CPU budget, taking turns -----------------
# A stand-in for the binary, a script that answers like `solvitaire --classify` or burns
# CPU without end; no Solvitaire needed.


def _fake_solvitaire(tmp_path: Path, body: str) -> str:
    script = tmp_path / "fake-solvitaire"
    script.write_text(f"#!{sys.executable}\n{body}\n")
    script.chmod(0o755)
    return str(script)


def test_solvitaire_is_a_whole_process_with_its_counts(tmp_path):
    binary = _fake_solvitaire(tmp_path, 'print(", solved, 12, 100, 90")')
    peer = bench.run_solvitaire(binary, TABLE["games"]["freecell"], tmp_path / "deal.json", 1.0)
    assert (peer.verdict, peer.outcome, peer.states, peer.unique) == ("won", "solved", 100, 90)
    assert peer.counted and peer.cpu > 0


def test_solvitaire_gets_a_cpu_budget_not_a_wall_clock_one(tmp_path):
    # a peer that ignores its --timeout is stopped when it has used the CPU budget (1 s),
    # and its verdict is unknown, left out of the positions per CPU second
    binary = _fake_solvitaire(tmp_path, "while True:\n    pass")
    peer = bench.run_solvitaire(binary, TABLE["games"]["freecell"], tmp_path / "deal.json", 0.5)
    assert peer.verdict == "unknown" and peer.outcome == "cpu-limit" and not peer.counted
    assert 0.9 <= peer.cpu <= 2.5


def test_ours_is_a_whole_process_that_stops_at_the_cpu_budget():
    variant = patience.find_variant("freecell")
    ours = bench.run_ours(variant, "freecell", 1, 1.0, 10**6)
    assert ours.verdict == "won" and ours.replay == "won" and ours.positions > 0
    assert ours.cpu > 0.05          # the whole process: the interpreter's start-up counts
    # klondike deal 1: a million positions do not decide it, one CPU second gives fewer
    hard = bench.run_ours(patience.find_variant("klondike"), "klondike", 1, 1.0, 10**9)
    assert hard.verdict == "unknown" and 0.9 <= hard.cpu <= 2.0   # deal 1 takes longer


def test_the_two_sides_take_turns(tmp_path, monkeypatch):
    order = []
    peer_run = bench.PeerRun("won", "solved", 1, 1, 1, 0.1, 0.1, 1.0)
    our_run = bench.OurRun("won", 1, 0.1, 0.1, ())
    monkeypatch.setattr(bench, "run_solvitaire",
                        lambda *args: order.append("peer") or peer_run)
    monkeypatch.setattr(bench, "run_ours", lambda *args: order.append("ours") or our_run)
    variant = patience.find_variant("freecell")
    bench.bench_game(variant, TABLE["games"]["freecell"], "unused", [1, 2, 3, 4], 1.0, 10**6,
                     False, tmp_path, quiet=True)
    assert order == ["ours", "peer", "peer", "ours", "ours", "peer", "peer", "ours"]


def _child(stdout, cpu, returncode=0):
    return bench.Child(stdout, "", returncode, cpu, cpu, 10.0)


def test_a_verdict_of_ours_past_the_cpu_budget_is_unknown(monkeypatch):
    # ours runs under a hard limit a second above the budget (to print its unknown):
    # a win reached in that extra second is one Solvitaire, killed at the budget, could
    # not have reached, so it counts as unknown
    variant = patience.find_variant("freecell")
    late = json.dumps({"verdict": "won", "positions": 5, "seconds": 1.4, "moves": [],
                       "cpu": 1.4})
    monkeypatch.setattr(bench, "run_child", lambda *args: _child(late, 1.5))
    assert bench.run_ours(variant, "freecell", 1, 1.0, 10**6).verdict == "unknown"
    in_time = late.replace('"cpu": 1.4', '"cpu": 0.9')
    monkeypatch.setattr(bench, "run_child", lambda *args: _child(in_time, 1.0))
    assert bench.run_ours(variant, "freecell", 1, 1.0, 10**6).verdict == "won"


def test_a_side_killed_at_its_limit_is_left_out_of_the_rate(monkeypatch):
    # killed at the hard limit, ours printed no counts: its CPU seconds must not lower its
    # positions per CPU second, as Solvitaire's do not lower Solvitaire's
    variant = patience.find_variant("freecell")
    monkeypatch.setattr(bench, "run_child", lambda *args: _child("", 2.0, -9))
    killed = bench.run_ours(variant, "freecell", 1, 1.0, 10**6)
    assert killed.verdict == "unknown" and not killed.counted
    done = bench.OurRun("won", 1000, 1.0, 1.0, ())
    peer = bench.PeerRun("won", "solved", 10, 500, 5, 1.0, 1.0, 1.0)
    report = bench.GameReport(variant, TABLE["games"]["freecell"], 1.0,
                              [bench.DealResult(1, peer, done), bench.DealResult(2, peer, killed)])
    assert bench.summary(report)["ours_rate"] == "1,000"


def test_the_overview_compares_cpu_not_wall_time(capsys):
    variant = patience.find_variant("freecell")
    ours = bench.OurRun("won", 1000, 9.0, 2.0, ())           # wall 9 s, CPU 2 s
    peer = bench.PeerRun("won", "solved", 10, 500, 5, 0.5, 1.0, 1.0)  # wall 0.5 s, CPU 1 s
    report = bench.GameReport(variant, TABLE["games"]["freecell"], 1.0,
                              [bench.DealResult(1, peer, ours)])
    bench.print_overview([report])
    row = capsys.readouterr().out.splitlines()[-1]
    assert "| 1.00 / 2.00 | 2.00 |" in row and "9.00" not in row
