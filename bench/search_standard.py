"""Benchmark: method "search" on shuffled standard 50-card decks (target: < 1 ms median).

For each hand size, decides ``--decks`` decks (seeds 0..decks-1 of
``generators.standard_deck``) and prints how many are winnable, how many the
preprocessing alone decided, and the median, 90th percentile and largest time
(wall clock, search only; deck generation not timed) and node count.

    .venv/bin/python -m bench.search_standard
    .venv/bin/python -m bench.search_standard --decks 50 --colors 6
"""

from __future__ import annotations

import argparse
import statistics
import time

from hanabi_cp.solitaire.methods.search import search
from hanabi_cp.apps.generators import standard_deck
from hanabi_cp.core.status import Status
from hanabi_cp.apps.studies.common import percentile

# What ``python -m bench --quick`` passes.
QUICK_ARGS = ["--decks", "50"]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.search_standard",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--decks", type=int, default=250, help="decks per hand size (seeds 0..decks-1)")
    ap.add_argument("--colors", type=int, default=5, choices=(5, 6))
    ap.add_argument("--hands", default="1,2,3,4,5", help="comma-separated hand sizes")
    args = ap.parse_args(argv)
    print(f"search on {args.decks} shuffled standard decks, {args.colors} colors, seeds 0..{args.decks - 1}")
    print(f"{'h':>3} {'won':>5} {'by windows':>10} {'median ms':>10} {'p90 ms':>8} {'max ms':>8} {'max nodes':>9}")
    for h in map(int, args.hands.split(",")):
        times, nodes, won, pre = [], [], 0, 0
        for seed in range(args.decks):
            deck = standard_deck(seed, args.colors)
            t = time.perf_counter()
            out = search(deck, h)
            ok, stats = out.status is Status.WINNABLE, out.stats
            times.append(time.perf_counter() - t)
            nodes.append(stats["nodes"])
            won += ok
            pre += stats.get("decided_by") == "windows"
        p90 = percentile(times, 90)
        print(f"{h:>3} {won:>5} {pre:>10} {statistics.median(times) * 1e3:>10.3f} "
              f"{p90 * 1e3:>8.3f} {max(times) * 1e3:>8.3f} {max(nodes):>9}")


if __name__ == "__main__":
    main()
