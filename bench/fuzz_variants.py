"""Fuzz the variant loader and the kernel with random variant files.

Hypothesis draws variant files (``patience.testing.fuzz.variant_texts``): random pile
groups, counts, deals, stock settings, parameters, predicates and rule expressions, valid
and invalid. Each must either be rejected with a located error or load and pass a quick
battery; a traceback, a hang or an unlocated error is a kernel bug. Prints the counts and
the first example of each kind of problem, with the file that shows it.

    python bench/fuzz_variants.py                 # 10,000 files
    python bench/fuzz_variants.py --examples 500 --show 3
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
import time

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed

from patience.testing.fuzz import FuzzResult, probe, variant_texts

PROBLEMS = ("crashed", "hung", "unlocated", "failed")


def signature(result: FuzzResult) -> str:
    """One line that tells problems of the same kind apart (the last traceback line)."""
    lines = [line for line in result.detail.strip().splitlines() if line.strip()]
    if result.status == "crashed":
        frames = [line for line in lines if line.strip().startswith("File ")]
        where = re.sub(r".*/patience/", "patience/", frames[-1].strip()) if frames else ""
        return f"{lines[-1][:120]} at {where}"
    first = lines[0] if lines else result.status
    first = first.split(" (Game._settle never ends)")[0]
    first = re.sub(r"\b[a-z]+\d*:\d+-[a-z]+\d*\b", "MOVE", first)  # c1:2-f -> MOVE
    first = re.sub(r"\b[a-z]\d+\b", "PILE", first)
    first = re.sub(r"the [a-z]+ go to", "the GROUP go to", first)
    return first[:160]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=1, help="files shown per kind of problem")
    options = parser.parse_args()

    counts: collections.Counter[str] = collections.Counter()
    kinds: dict[str, list[tuple[str, FuzzResult]]] = collections.defaultdict(list)
    started = time.perf_counter()

    @hypothesis_seed(options.seed)
    @settings(max_examples=options.examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck), phases=[Phase.generate])
    @given(variant_texts())
    def run(text: str) -> None:
        result = probe(text, seed=counts.total())
        counts[result.status] += 1
        if result.status in PROBLEMS:
            kinds[f"{result.status}: {signature(result)}"].append((text, result))
        done = counts.total()
        if done % 250 == 0:
            print(f"  {done} files, {time.perf_counter() - started:.0f} s: {dict(counts)}",
                  file=sys.stderr, flush=True)

    run()
    seconds = time.perf_counter() - started
    total = counts.total()
    print(f"{total} random variant files in {seconds:.0f} s: "
          + ", ".join(f"{counts[k]} {k}" for k in ("loaded", "rejected", *PROBLEMS)))
    for kind, examples in sorted(kinds.items(), key=lambda item: -len(item[1])):
        print(f"\n=== {len(examples)} x {kind}")
        for text, result in sorted(examples, key=lambda e: len(e[0]))[:options.show]:
            print("--- file:")
            print(text.rstrip())
            print("--- result:")
            print(result.detail.rstrip()[-2500:])
    return 1 if any(counts[k] for k in PROBLEMS) else 0


if __name__ == "__main__":
    sys.exit(main())
