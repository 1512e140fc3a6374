"""The benches against Freecell Solver, Klondike-Solver and black-hole-solver
(bench/fcsolve.py, bench/klondike_solver.py, bench/black_hole_solver.py): the deals both
sides get, and one short run of each.

The runs need the peers: ``fc-solve`` (Debian's freecell-solver-bin), ``pyksolve`` (PyPI) and
``black-hole-solve`` (built by hand, bench/README.md: ``$BLACK_HOLE_SOLVE`` or PATH); without
them those tests skip and say so. Each run is whole processes on 1-2 deals, a few seconds; so
are the batch runs (``--batch``: each side's deals in one process).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"


def _load(name: str) -> ModuleType:
    sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    return subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True,
                          text=True, timeout=120, env=env, check=False)


def test_microsoft_deal_1_is_the_published_one() -> None:
    # Microsoft FreeCell game 1, first row as every FreeCell program shows it
    columns = _load("fcsolve").microsoft_deal(1)
    assert [c[0] for c in columns] == ["JD", "2D", "9H", "JC", "5D", "7H", "7C", "5H"]
    assert [len(c) for c in columns] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert len({card for c in columns for card in c}) == 52


def test_our_ms_boards_are_microsofts() -> None:
    fcsolve = _load("fcsolve")
    for number in (1, 617, 11982):
        board = fcsolve.our_board(number)   # exits when a column differs
        assert board.splitlines()[0].split() == fcsolve.microsoft_deal(number)[0]


def test_fcsolve_output_is_read() -> None:
    fcsolve = _load("fcsolve")
    won = "-=-=-\n\n5a 5b 26v4 8h\nah\n\nThis game is solveable.\n" \
          "Total number of states checked is 96.\nThis scan generated 161 states.\n"
    assert fcsolve.parse_fcsolve(won) == ("won", 96, 5)
    lost = "I could not solve this game.\nTotal number of states checked is 4000.\n"
    assert fcsolve.parse_fcsolve(lost) == ("unwinnable", 4000, None)
    exceeded = "Iterations count exceeded.\nTotal number of states checked is 100000.\n"
    assert fcsolve.parse_fcsolve(exceeded) == ("unknown", 100000, None)


def test_klondike_deal_in_klondike_solvers_format() -> None:
    klondike = _load("klondike_solver")
    position = klondike.our_position("klondike", 5)
    deal = klondike.to_solitaire(position)
    codes = [deal[i:i + 3] for i in range(0, len(deal), 3)]
    assert len(codes) == 52 and len(set(codes)) == 52
    first = position["piles"]["c1"][0]       # the first card dealt: column 1's only card
    assert codes[0] == f"{'A23456789TJQK'.index(first[0]) + 1:02d}{'CDHS'.index(first[1]) + 1}"
    text = klondike.to_pysol(position)
    assert text.splitlines()[0].split()[1:] == position["stock"]        # drawn first first
    assert text.splitlines()[7].count("<") == 6                       # column 7: 6 down


def test_our_klondike_line_is_counted_as_klondike_solver_counts_its_moves() -> None:
    klondike = _load("klondike_solver")
    peers = sys.modules["peers"]  # as the bench imported it
    # three turns of the stock and the waste card they bring, a column's run, a turn back
    moves = ("d", "d", "d", "w:1-f", "c2:3-c5", "d", "w:1-c4")
    run = klondike.ks_length(peers.Run("won", 0.5, 100, len(moves), moves=moves))
    assert run.line == 3  # its moves: DR3 WF, 2-5 of three cards, DR1 W4
    lost = klondike.ks_length(peers.Run("unknown", 0.5, 100, None))
    assert lost.line is None


def test_no_cpu_less_start_up_is_printed_where_the_start_up_exceeds_the_runs(
        capsys: pytest.CaptureFixture[str]) -> None:
    _load("fcsolve")
    peers = sys.modules["peers"]  # as the bench imported it
    rows = [(n, peers.Run("won", 0.30, 100, 90), peers.Run("won", 0.004, 50, 110))
            for n in (1, 2)]
    peers.print_table("t", "fc-solve", rows, startups=(0.25, 0.002))
    assert "less start-up: ours 0.10, fc-solve 0.00, ratio 25.00" in capsys.readouterr().out
    peers.print_table("t", "fc-solve", rows, startups=(0.32, 0.002))  # measured under load
    out = capsys.readouterr().out
    assert "less start-up: none: a side's processes took less" in out and "ours -" not in out


_HEADER = ("deal", "ours", "cpu s", "positions", "line", "ratio cpu ours/peer")


@pytest.mark.skipif(shutil.which("fc-solve") is None,
                    reason="fc-solve not installed (Debian: apt-get install freecell-solver-bin)")
@pytest.mark.slow  # seconds: a bench run as a whole process
def test_fcsolve_bench_runs_and_agrees() -> None:
    done = _run("fcsolve.py", "--deals", "1-2", "--budget", "100000", "--cpu-limit", "5")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(word in lines[1] for word in (*_HEADER, "fc-solve", "states"))
    assert [line.split()[0] for line in lines[2:4]] == ["1", "2"]
    assert all(line.split()[2] == "won" and line.split()[7] == "won" for line in lines[2:4])
    assert "| ours | 2 | 2 |" in done.stdout and "| fc-solve | 2 | 2 |" in done.stdout
    assert "agreement 2 of 2 decided by both; disagreements 0" in done.stdout


@pytest.mark.slow  # seconds: a bench run as a whole process
def test_klondike_solver_bench_runs_and_agrees() -> None:
    pytest.importorskip("pyksolve")
    done = _run("klondike_solver.py", "klondike", "--deals", "2", "--method", "fast",
                "--cpu-limit", "5")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(word in lines[1] for word in (*_HEADER, "ksolve"))
    row = lines[2].split()
    assert row[0] == "2" and row[2] == "won" and row[7] == "won"
    assert "disagreements 0" in done.stdout


def test_golf_and_black_hole_boards_are_our_deals() -> None:
    bhs = _load("black_hole_solver")
    golf = bhs.our_board("golf", 4).splitlines()   # exits when a card differs
    assert golf[0].split()[:2] == ["Talon:", "9C"] and len(golf[0].split()) == 17
    assert golf[1] == "Foundations: 2D" and golf[2].split() == ["7C", "QH", "AS", "QS", "8H"]
    hole = bhs.our_board("black-hole", 4).splitlines()
    assert hole[0] == "Foundations: AS" and len(hole) == 18
    assert all(len(line.split()) == 3 for line in hole[1:])


def test_black_hole_solver_output_is_read_and_replayed() -> None:
    bhs = _load("black_hole_solver")
    steps = ("Solved!\nDeal talon\n\nInfo: Card moved is 9C\n\n\n====================\n\n"
             "Move a card from stack 0 to the foundations\n\nInfo: Card moved is 8H\n\n"
             "\n====================\n\n\n\n--------------------\n"
             "Total number of states checked is 42.\nThis scan generated 43 states.\n")
    assert bhs.parse_output(steps) == ("won", 42, [(None, "9C"), (0, "8H")])
    # golf deal 4: d turns 9C onto 2D, then c1's 8H goes on 9C, and the deal is not won
    assert bhs.replay("golf", 4, [(None, "9C"), (0, "8H")]).endswith("not won")
    assert "moved 8H, it says 7H" in bhs.replay("golf", 4, [(None, "9C"), (0, "7H")])
    assert "illegal" in bhs.replay("golf", 4, [(1, "JH")])
    lost = "Unsolved!\n\n\n--------------------\nTotal number of states checked is 7070.\n"
    assert bhs.parse_output(lost) == ("unwinnable", 7070, [])
    assert bhs.parse_output("Intractable!\n")[0] == "unknown"


_BHS = os.environ.get("BLACK_HOLE_SOLVE") or shutil.which("black-hole-solve")


@pytest.mark.skipif(_BHS is None, reason="black-hole-solve not built (bench/README.md; "
                    "set BLACK_HOLE_SOLVE)")
@pytest.mark.slow  # seconds: a bench run as a whole process
def test_black_hole_solver_bench_runs_and_agrees() -> None:
    done = _run("black_hole_solver.py", "golf", "--deals", "5-6", "--cpu-limit", "20",
                "--black-hole-solve", str(_BHS))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(word in lines[1] for word in (*_HEADER, "bhs", "states"))
    assert [line.split()[2] for line in lines[2:4]] == ["unwinnable", "won"]
    assert [line.split()[7] for line in lines[2:4]] == ["unwinnable", "won"]
    assert "agreement 2 of 2 decided by both; disagreements 0" in done.stdout
    assert "ours: 1 deals searched exhaustively by both, 7,070 positions" in done.stdout
    assert "outside the CPU measured): 1 of 1 end won" in done.stdout  # our line replayed


#: freecell-solver-range-parallel-solve 1 3 1 -l lg -mi 100: deal 2 unsolved, 3 intractable
RANGE_OUTPUT = """Started at 100.000
Reached Board No. 1 at 100.010 (total_num_iters=96)
Unsolved Board No. 2 at 100.030
Reached Board No. 2 at 100.030 (total_num_iters=150)
Intractable Board No. 3 at 100.040
Reached Board No. 3 at 100.041 (total_num_iters=250)
"""


def test_the_range_solvers_status_lines_are_read_board_by_board() -> None:
    runs = _load("fcsolve").parse_range(RANGE_OUTPUT)
    assert {n: (r.verdict, r.positions, r.line) for n, r in runs.items()} == {
        1: ("won", 96, None), 2: ("unwinnable", 54, None), 3: ("unknown", 100, None)}
    assert [round(runs[n].cpu, 3) for n in (1, 2, 3)] == [0.01, 0.02, 0.011]   # wall s


_RANGE = shutil.which("freecell-solver-range-parallel-solve")
_NO_RANGE = "fc-solve not installed (Debian: apt-get install freecell-solver-bin)"


@pytest.mark.skipif(_RANGE is None or shutil.which("fc-solve") is None, reason=_NO_RANGE)
def test_the_range_solver_plays_our_boards(tmp_path: Path) -> None:
    # the range solver deals Microsoft's deals itself: on deals 1-2 it checks as many
    # states as fc-solve does on our board of ms:1 and ms:2 (a different deal would not)
    fcsolve = _load("fcsolve")
    done = subprocess.run(fcsolve.range_command(_RANGE, "lg", 1, 2, 100000),
                          capture_output=True, text=True, check=True, timeout=60)
    ranged = fcsolve.parse_range(done.stdout)
    for number in (1, 2):
        board = tmp_path / f"ms{number}.board"
        board.write_text(fcsolve.our_board(number))
        alone = fcsolve.run_fcsolve("fc-solve", "lg", board, 100000, 10)
        assert (ranged[number].verdict, ranged[number].positions) == \
            (alone.verdict, alone.positions) == ("won", alone.positions)


@pytest.mark.skipif(_RANGE is None, reason=_NO_RANGE)
@pytest.mark.slow  # seconds: a bench run as whole processes
def test_fcsolve_batch_runs_each_side_once_and_agrees() -> None:
    done = _run("fcsolve.py", "--batch", "--deals", "1-2", "--budget", "100000", "--repeat",
                "2")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "batch" in lines[0] and "not shortening" in lines[0] and "2 repeats" in lines[0]
    assert [line.split()[0] for line in lines[2:4]] == ["1", "2"]
    assert all(line.split()[2] == "won" and line.split()[7] == "won" for line in lines[2:4])
    # one whole-process CPU figure per side and repeat
    ours = next(line for line in lines if line.startswith("| ours |"))
    assert ours.startswith("| ours | 2 | 2 | 0 | 0 |") and len(ours.split("|")[6].split(",")) == 2
    assert "| fc-solve | 2 | 2 | 0 | 0 |" in done.stdout
    assert "over 2 repeats" in done.stdout and "disagreements 0" in done.stdout
    assert "2 of 2 end won" in done.stdout


@pytest.mark.slow  # seconds: a bench run as whole processes
def test_klondike_solver_batch_runs_and_agrees() -> None:
    pytest.importorskip("pyksolve")
    done = _run("klondike_solver.py", "klondike", "--batch", "--deals", "2-3", "--method",
                "fast")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines[2:4]] == ["2", "3"]
    assert all(line.split()[2] == "won" and line.split()[7] == "won" for line in lines[2:4])
    assert "| ksolve | 2 | 2 | 0 | 0 |" in done.stdout and "disagreements 0" in done.stdout
