"""Benchmark: the encoders (cpsat, sat) against the exact algorithms on standard decks.

On ``--count`` shuffled standard 50-card decks (seeds 0..count-1 of
``generators.standard_deck``) at each hand size, every available method among
cpsat, sat, dp, search and brute that accepts the deck decides it through
``solitaire.solve.solve`` (so the time includes the referee's replay of the certificate).
Printed per method and h: decks decided, median and p95 wall time per deck, the
fraction winnable, the fraction settled by preprocessing alone (no model built),
and, over the decks that needed a model, the median time ("model ms") and the
median model size per card (cpsat: variables and constraints; sat: variables and
clauses).  Then, per h, the median
over common decks of time(A) / time(B) for every pair of methods.  A slow method
stops after ``--budget`` seconds per hand size (its deck count says so).  Answers
of all methods must agree deck by deck, else the benchmark fails.

    .venv/bin/python -m bench.encoders                  # 1000 decks, h = 1..4
    .venv/bin/python -m bench.encoders --count 200 --hands 2,4 --methods cpsat,sat
"""

from __future__ import annotations

import argparse
import statistics
import time

from hanabi_cp.apps.generators import standard_deck
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.status import Status
from hanabi_cp.solitaire.solve import methods, solve
from hanabi_cp.apps.studies.common import percentile

CANDIDATES = ("cpsat", "sat", "dp", "search", "brute")
# What ``python -m bench --quick`` passes.
QUICK_ARGS = ["--count", "100"]
QUICK_ARGS = ["--count", "100"]
SIZE_KEYS = {"cpsat": ("variables", "constraints"), "sat": ("variables", "clauses")}


def run_method(name: str, decks: list, h: int, budget: float) -> dict:
    """Per deck index: (status, seconds, stats), until the time budget runs out."""
    method = methods()[name]
    out: dict = {}
    spent = 0.0
    options = SolveOptions(workers=1)
    for i, deck in enumerate(decks):
        if spent > budget:
            break
        if method.refuses(deck, h) is not None:
            continue
        t = time.perf_counter()
        res = solve(deck, h, name, options)
        dt = time.perf_counter() - t
        spent += dt
        if res.status is Status.UNKNOWN:
            raise SystemExit(f"{name}: UNKNOWN on standard deck seed {i}, h = {h}: {res.reason}")
        out[i] = (res.status, dt, res.stats)
    return out


def size_of(name: str, stats: list) -> str:
    keys = SIZE_KEYS.get(name)
    built = [s for s in stats if s.get("variables")]
    if not keys or not built:
        return "-"
    return " / ".join(f"{statistics.median(s[k] / s['cards'] for s in built):.2f}" for k in keys)


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(prog="python -m bench.encoders", description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=1000, help="decks per hand size (default 1000)")
    ap.add_argument("--hands", default="1,2,3,4", help="comma-separated hand sizes")
    ap.add_argument("--methods", default=",".join(CANDIDATES), help="methods to compare, if registered")
    ap.add_argument("--budget", type=float, default=15.0,
                    help="seconds per method and hand size before it stops (default 15)")
    args = ap.parse_args(argv)
    table = methods()
    names = [m for m in args.methods.split(",") if m in table]
    decks = [standard_deck(seed) for seed in range(args.count)]
    print(f"{args.count} shuffled standard decks (seeds 0..{args.count - 1}), methods: "
          f"{', '.join(names)}; time per deck includes the referee")
    print(f"{'h':>2} {'method':<7} {'decks':>6} {'median ms':>10} {'p95 ms':>8} {'winnable':>9} "
          f"{'no model':>9} {'model ms':>9}  size per card (vars / constraints or clauses)")
    results: dict = {}
    for h in map(int, args.hands.split(",")):
        runs = {name: run_method(name, decks, h, args.budget) for name in names}
        for name, res in runs.items():
            if not res:
                print(f"{h:>2} {name:<7} {'refused':>6}")
                continue
            times = [dt for _, dt, _ in res.values()]
            stats = [s for _, _, s in res.values()]
            won = sum(st is Status.WINNABLE for st, _, _ in res.values())
            key = SIZE_KEYS.get(name, ("variables",))[0]
            nomodel = sum(1 for s in stats if not s.get(key)) if name in SIZE_KEYS else None
            # Median over the decks that needed a model (preprocessing did not settle them).
            built = [dt for _, dt, s in res.values() if s.get(key)] if name in SIZE_KEYS else []
            model_ms = f"{1000 * statistics.median(built):.3f}" if built else "-"
            print(f"{h:>2} {name:<7} {len(res):>6} {1000 * statistics.median(times):>10.3f} "
                  f"{1000 * percentile(times, 95):>8.3f} {won / len(res):>9.3f} "
                  f"{'-' if nomodel is None else f'{nomodel / len(res):.3f}':>9} {model_ms:>9}  "
                  f"{size_of(name, stats)}")
            results[(h, name)] = {"decks": len(res), "median": statistics.median(times),
                                  "p95": percentile(times, 95), "winnable": won / len(res)}
        # Every method must give the same answer on every deck.
        for i in range(len(decks)):
            answers = {name: res[i][0] for name, res in runs.items() if i in res}
            if len(set(answers.values())) > 1:
                raise SystemExit(f"disagreement on standard deck seed {i}, h = {h}: "
                                 + ", ".join(f"{m} {s.value}" for m, s in answers.items()))
        for x, a in enumerate(names):
            for b in names[x + 1:]:
                common = [i for i in runs[a] if i in runs[b]]
                if common:
                    ratio = statistics.median(runs[a][i][1] / runs[b][i][1] for i in common)
                    print(f"   h = {h}: {a} / {b} = {ratio:.3g}x (median over {len(common)} decks)")
    return results


if __name__ == "__main__":
    main()
