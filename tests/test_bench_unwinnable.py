"""bench/unwinnable_deals.py, which writes docs/data/unwinnable-deals.csv: it keeps each
deal's smallest proof and refuses a deal that one row proves unwinnable and another wins."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "bench" / "unwinnable_deals.py"
HEADER = "game,deal,positions,solver,budget\n"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], check=False, capture_output=True,
                          text=True, timeout=120)


def test_the_smallest_proof_of_each_deal_is_kept_and_the_file_sorted(tmp_path):
    table = tmp_path / "deals.csv"
    table.write_text(HEADER + "golf,5,900,1.4,100000\nblack-hole,7,40,1.3,100000\n"
                     "golf,5,300,1.5,2000000\ngolf,12,80,1.4,100000\n")
    done = run("--csv", str(table))
    assert done.returncode == 0, done.stderr
    assert "3 deals proven unwinnable" in done.stdout
    assert table.read_text() == (HEADER + "black-hole,7,40,1.3,100000\n"
                                 "golf,5,300,1.5,2000000\ngolf,12,80,1.4,100000\n")


def test_a_deal_won_in_a_study_and_listed_as_unwinnable_is_refused(tmp_path):
    db = tmp_path / "study.sqlite"
    subprocess.run([sys.executable, "-m", "patience", "stats", "black-hole", "--deals", "3",
                    "--max-positions", "100000", "--workers", "1", "--quiet", "--db", str(db)],
                   check=True, capture_output=True, timeout=120)  # deal 3 is won
    table = tmp_path / "deals.csv"
    before = HEADER + "black-hole,3,2747,1.6,100000\n"
    table.write_text(before)
    done = run("--csv", str(table), "--db", str(db))
    assert done.returncode != 0
    assert "won and proven unwinnable: black-hole 3" in done.stderr
    assert table.read_text() == before  # nothing written
