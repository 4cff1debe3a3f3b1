"""Benchmark: real-rules methods on shuffled standard 50-card decks, 2 to 6 players.

For each player count (hanab.live's hand sizes, 8 clues, 3 strikes) and each
chosen real-rules method (default: search; the encodings have their own benchmark,
bench/live_encoders.py), decides ``--decks`` decks (seeds
0..decks-1 of ``generators.standard_deck``, the decks of ``hanabi-cp generate
standard --seed S``) and prints how many are winnable / unwinnable / undecided
within ``--time-limit`` and the median, 95th percentile and largest time per deck
(wall clock of ``solve_live``, certificate check included; an undecided deck
counts with its full time limit).

    .venv/bin/python -m bench.live_search                 # 200 decks per player count
    .venv/bin/python -m bench.live_search --quick         # 30 decks
    .venv/bin/python -m bench.live_search --maximize --methods search
"""

from __future__ import annotations

import argparse
import statistics
import time

from hanabi_cp.apps.generators import standard_deck
from hanabi_cp.real.referee import Game
from hanabi_cp.real.rules import Rules
from hanabi_cp.real.solve import live_methods, solve_live
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.status import Status
from hanabi_cp.apps.studies.common import percentile


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.live_search",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--decks", type=int, default=200, help="decks per player count")
    ap.add_argument("--quick", action="store_true", help="30 decks per player count")
    ap.add_argument("--players", default="2,3,4,5,6", help="comma-separated player counts")
    ap.add_argument("--time-limit", type=float, default=2.0, help="seconds per deck")
    ap.add_argument("--methods", default="search",
                    help="comma-separated methods (default: search)")
    ap.add_argument("--maximize", action="store_true", help="ask for the best score")
    args = ap.parse_args(argv)
    decks = 30 if args.quick else args.decks
    players = [int(x) for x in args.players.split(",")]
    table = live_methods()
    names = args.methods.split(",")
    what = "best score" if args.maximize else "winnable?"
    print(f"real rules ({what}) on {decks} shuffled standard decks per player count, "
          f"seeds 0..{decks - 1}, time limit {args.time_limit:g} s")
    print(f"{'method':<8} {'p':>2} {'won':>5} {'lost':>5} {'undecided':>9} "
          f"{'median ms':>10} {'p95 ms':>8} {'max ms':>8}")
    for name in names:
        for p in players:
            rules = Rules.for_players(p)
            if table[name].refuses(Game.start(standard_deck(0), rules)) is not None:
                continue
            times, count = [], dict.fromkeys(Status, 0)
            for seed in range(decks):
                deck = standard_deck(seed)
                start = time.perf_counter()
                out = solve_live(deck, rules, name, SolveOptions(time_limit=args.time_limit,
                                                                 maximize=args.maximize))
                times.append(time.perf_counter() - start)
                count[out.status] += 1
            print(f"{name:<8} {p:>2} {count[Status.WINNABLE]:>5} {count[Status.UNWINNABLE]:>5} "
                  f"{count[Status.UNKNOWN]:>9} {statistics.median(times) * 1e3:>10.1f} "
                  f"{percentile(times, 95) * 1e3:>8.1f} {max(times) * 1e3:>8.1f}", flush=True)


if __name__ == "__main__":
    main()
