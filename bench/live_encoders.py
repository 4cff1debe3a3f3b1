"""Benchmark: the real-rules encodings (cpsat, sat) and the search on shuffled standard decks.

On ``--count`` shuffled standard 50-card decks (seeds 0..count-1 of
``generators.standard_deck``) for each number of players (hanab.live hand sizes,
8 clue tokens, 3 strikes), every chosen real-rules method decides the deck through
``real.solve.solve_live`` (so the time includes the referee's replay of the
certificate), with ``--time-limit`` seconds per deck.  Printed per method and p:
decks, median and p95 wall time, the fraction winnable, decks left UNKNOWN (an
undecided deck counts with its full time), and the model size per card (cpsat:
variables / constraints; sat: variables / clauses).  Decided answers must agree
deck by deck, else the benchmark fails.

    .venv/bin/python -m bench.live_encoders                  # 30 decks, p = 2..6
    .venv/bin/python -m bench.live_encoders --quick          # 5 decks
    .venv/bin/python -m bench.live_encoders --count 50 --players 2,4 --methods sat
    .venv/bin/python -m bench.live_encoders --quick --maximize
"""

from __future__ import annotations

import argparse
import statistics
import time

from hanabi_cp.apps.generators import standard_deck
from hanabi_cp.real.rules import Rules
from hanabi_cp.real.solve import live_methods, solve_live
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.status import Status
from hanabi_cp.apps.studies.common import percentile

CANDIDATES = ("search", "sat", "cpsat")
# `python -m bench --quick`: 5 decks per player count, an undecided deck costs 5 s.
QUICK_ARGS = ["--quick", "--time-limit", "5"]
SIZE_KEYS = {"cpsat": ("variables", "constraints"), "sat": ("variables", "clauses")}


def run_method(name: str, decks: list, rules: Rules, limit: float, maximize: bool) -> dict:
    """Per deck index: (status, seconds, stats)."""
    out = {}
    options = SolveOptions(time_limit=limit, workers=1, maximize=maximize)
    for i, deck in enumerate(decks):
        t = time.perf_counter()
        res = solve_live(deck, rules, name, options)
        out[i] = (res.status, time.perf_counter() - t, res.stats)
    return out


def size_of(name: str, stats: list) -> str:
    keys = SIZE_KEYS.get(name)
    if not keys or not stats:
        return "-"
    return " / ".join(f"{statistics.median(s[k] / s['cards'] for s in stats):.1f}" for k in keys)


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(prog="python -m bench.live_encoders",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=30, help="decks per player count (default 30)")
    ap.add_argument("--players", default="2,3,4,5,6", help="comma-separated player counts")
    ap.add_argument("--methods", default=",".join(CANDIDATES), help="real-rules methods to run")
    ap.add_argument("--time-limit", type=float, default=20.0,
                    help="seconds per deck and method (default 20)")
    ap.add_argument("--quick", action="store_true", help="5 decks per player count")
    ap.add_argument("--maximize", action="store_true", help="ask for the best score")
    args = ap.parse_args(argv)
    count = 5 if args.quick else args.count
    table = live_methods()
    names = [m for m in args.methods.split(",") if m in table]
    decks = [standard_deck(seed) for seed in range(count)]
    what = "best score" if args.maximize else "winnable?"
    print(f"{count} shuffled standard decks (seeds 0..{count - 1}), hanab.live rules, {what}, "
          f"methods: {', '.join(names)}, time limit {args.time_limit:g} s per deck; the time "
          f"includes the referee's replay")
    print(f"{'p':>2} {'method':<7} {'decks':>6} {'median s':>9} {'p95 s':>8} {'winnable':>9} "
          f"{'unknown':>8}  size per card (vars / constraints or clauses)")
    results: dict = {}
    for p in map(int, args.players.split(",")):
        rules = Rules.for_players(p)
        runs = {name: run_method(name, decks, rules, args.time_limit, args.maximize) for name in names}
        for name, res in runs.items():
            times = [dt for _, dt, _ in res.values()]
            won = sum(st is Status.WINNABLE for st, _, _ in res.values())
            unknown = sum(st is Status.UNKNOWN for st, _, _ in res.values())
            stats = [s for _, _, s in res.values() if s.get("variables")]
            print(f"{p:>2} {name:<7} {len(res):>6} {statistics.median(times):>9.3f} "
                  f"{percentile(times, 95):>8.3f} {won / len(res):>9.3f} {unknown:>8}  "
                  f"{size_of(name, stats)}")
            results[(p, name)] = {"decks": len(res), "median": statistics.median(times),
                                  "p95": percentile(times, 95), "winnable": won / len(res),
                                  "unknown": unknown}
        for i in range(count):
            answers = {name: res[i][0] for name, res in runs.items()
                       if res[i][0] is not Status.UNKNOWN}
            if len(set(answers.values())) > 1:
                raise SystemExit(f"disagreement on standard deck seed {i}, {p} players: "
                                 + ", ".join(f"{m} {s.value}" for m, s in answers.items()))
    return results


if __name__ == "__main__":
    main()
