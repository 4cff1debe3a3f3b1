"""Benchmark: the method ``cpsat`` on the hard set with several CP-SAT workers against
one (main's default), each run beside the other on the same question.

The questions are ``bench.live_race``'s hard set ("winnable?" and the best score of
the 6-player bot positions, the best score of 2 players seed 4004 and "winnable?" of
6 players seed 1653).  Each is asked of ``cpsat`` alone with ``--time-limit`` seconds,
once per worker count of ``--workers`` (the first is the baseline), in this one
process; with ``--incumbent`` each best-score question first runs the search for a
quarter of the limit (as ``auto``'s first stage does) and hands ``cpsat`` its best
game (``SolveOptions.incumbent``, CP-SAT's hint) in the rest.  Per question: the
answer and wall time of each; at the end: decided by each and the ratio of summed
times, the baseline's over each (above 1: faster; an UNKNOWN counts its full
time).  CP-SAT's workers are threads: on a machine whose cores are shared, the load
average beside each row says what they had.

    .venv/bin/python -m bench.live_cpsat                          # workers 1 vs 2, 10 s
    .venv/bin/python -m bench.live_cpsat --workers 1,2,4 --only positions --questions best
"""

from __future__ import annotations

import argparse
import os
import sys
import time

QUICK_ARGS = ["--only", "deals", "--time-limit", "2", "--workers", "1,2"]


def ask(start, maximize: bool, limit: float, workers: int, incumbent) -> tuple[str, float]:
    from hanabi_cp.real.solve import solve_position
    from hanabi_cp.core.options import SolveOptions
    t = time.perf_counter()
    out = solve_position(start, "cpsat", SolveOptions(time_limit=limit, maximize=maximize,
                                                      workers=workers, incumbent=incumbent))
    took = time.perf_counter() - t
    bound = out.stats.get("upper_bound")
    return (out.status.value + (f" {out.score}" if out.score is not None else "")
            + (f"..{bound}" if bound is not None else "")), took


def first_game(start, limit: float):
    """The search's best game in ``limit`` seconds (``auto``'s first stage), or None."""
    from hanabi_cp.real.solve import solve_position
    from hanabi_cp.core.options import SolveOptions
    out = solve_position(start, "search", SolveOptions(time_limit=limit, maximize=True))
    return tuple(out.actions) if out.actions else None


def main(argv=None) -> None:
    from bench.live_race import load, position, questions
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    ap.add_argument("--only", choices=("all", "deals", "positions"), default="all")
    ap.add_argument("--questions", choices=("both", "winnable", "best"), default="both")
    ap.add_argument("--incumbent", action="store_true",
                    help="best-score questions start from the search's game (a quarter "
                         "of the limit)")
    ap.add_argument("--games", default=None,
                    help="comma-separated bot games: only their positions (e.g. 616,927)")
    args = ap.parse_args(argv)
    games = None if args.games is None else {int(g) for g in args.games.split(",")}
    counts = [int(w) for w in args.workers.split(",")]
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    print(f"# cpsat, workers {' vs '.join(map(str, counts))}, --time-limit "
          f"{args.time_limit:g} s{', from the search' + chr(39) + 's game' if args.incumbent else ''}; "
          f"cores: {len(os.sched_getaffinity(0))}")
    print("| question | " + " | ".join(f"{w} worker{'s' * (w != 1)} | s" for w in counts)
          + " | load (1 / 5 / 15 min) |")
    print("|---|" + "---|---|" * len(counts) + "---|")
    totals = {w: [0.0, 0] for w in counts}
    for label, p, seed, k, maximize in questions(args.only, args.questions, games):
        start = position(p, seed, k)
        limit, game = args.time_limit, None
        if args.incumbent and maximize:
            t = time.perf_counter()
            game = first_game(start.copy(), args.time_limit / 4)
            limit -= time.perf_counter() - t
        cells = []
        for w in counts:
            answer, took = ask(start.copy(), maximize, limit, w, game)
            totals[w][0] += took
            totals[w][1] += not answer.startswith("UNKNOWN")
            cells.append(f"{answer} | {took:.1f}")
        print(f"| {label} | " + " | ".join(cells) + f" | {load()} |", flush=True)
    base = totals[counts[0]][0]
    print("| **decided, ratio** | " + " | ".join(
        f"{d} | {base / t:.2f}" for t, d in totals.values()) + f" | {load()} |")


if __name__ == "__main__":
    main()
