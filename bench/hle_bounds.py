"""Benchmark: the exact bound of the HLE study's deals, alone (issue 47: 0 unknown
at 10 s on its 1,000 deals per player count).

``study hle`` plays HLE's agents and bounds each deal; here only the bound is asked
(``players.bound.deck_bound`` under hanab.live's end rules, as the study does), on
HLE's deal of each seed (``interop.hle_agents.play_game``: the deal depends on the
seed only), timed by the wall clock. Per player count: decided, won, lost,
unknown, the 50th and 99th percentiles and the largest time, the mean best score,
the load average before and after; then each unknown deal with its lower bound.
The plain search (``--method search``) can run beside as the baseline: its ratio
of medians and its unknowns.

    .venv/bin/python -m bench.hle_bounds                          # 1,000 seeds, 2-5 players
    .venv/bin/python -m bench.hle_bounds --count 100 --players 2
    .venv/bin/python -m bench.hle_bounds --baseline search
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from dataclasses import replace

from bench.live_sweep import percentile


def bound_times(players: int, seeds: range, limit: float, method: str) -> list[tuple]:
    """(seed, seconds, Bound) of every deal: ``deck_bound``'s question (the best
    score, certified) asked of ``method``."""
    from hanabi_cp.core.options import SolveOptions
    from hanabi_cp.core.status import Status
    from hanabi_cp.interop.hle_agents import play_game
    from hanabi_cp.players.bound import Bound
    from hanabi_cp.real.solve import solve_live

    out = []
    for s in seeds:
        g = play_game("random", players, s).game
        rules = replace(g.rules, early_ends=True)      # as the study (its module text)
        t = time.perf_counter()
        a = solve_live(g.deck, rules, method, SolveOptions(time_limit=limit, maximize=True))
        took = time.perf_counter() - t
        decided = a.status is not Status.UNKNOWN
        out.append((s, took, Bound(a.score if decided else None,
                                   (a.score == g.deck.target) if decided else None,
                                   a.score, a.method, took)))
    return out


def row(players: int, rows: list[tuple]) -> str:
    times = [t for _, t, _ in rows]
    bounds = [b for _, _, b in rows]
    unknown = sum(b.best is None for b in bounds)
    won = sum(b.winnable is True for b in bounds)
    lost = sum(b.winnable is False for b in bounds)
    best = [b.best for b in bounds if b.best is not None]
    return (f"{players:>2} {len(rows):>6} {len(rows) - unknown:>8} {won:>6} {lost:>5} "
            f"{unknown:>7} {statistics.median(times) * 1e3:>8.2f} "
            f"{percentile(times, 99) * 1e3:>8.2f} {max(times):>8.2f} "
            f"{statistics.fmean(best) if best else float('nan'):>9.3f}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.hle_bounds",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=1000, help="seeds per player count")
    ap.add_argument("--seed", type=int, default=1, help="the first HLE seed")
    ap.add_argument("--players", default="2,3,4,5", help="comma-separated, 2 to 5")
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds per deal")
    ap.add_argument("--baseline", default=None, metavar="METHOD",
                    help="also bound every deal with METHOD alone (e.g. search)")
    args = ap.parse_args(argv)
    seeds = range(args.seed, args.seed + args.count)
    print(f"HLE seeds {seeds.start}..{seeds.stop - 1}, {args.time_limit:g} s per deal; "
          "load average before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    print(" p  deals  decided    won  lost unknown   p50 ms   p99 ms    max s mean best")
    unknown = []
    for p in (int(x) for x in args.players.split(",")):
        rows = bound_times(p, seeds, args.time_limit, "auto")
        print(row(p, rows), flush=True)
        unknown += [(p, s, b) for s, _, b in rows if b.best is None]
        if args.baseline:
            base = bound_times(p, seeds, args.time_limit, args.baseline)
            ratio = statistics.median(t for _, t, _ in base) / \
                statistics.median(t for _, t, _ in rows)
            print(row(p, base) + f"   ({args.baseline} alone; its p50 / auto's: {ratio:.2f})",
                  flush=True)
    for p, s, b in unknown:
        print(f"   unknown: {p} players, seed {s}: best found {b.lower} "
              f"(after {b.seconds:.1f} s, {b.method})")
    print("load average after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
