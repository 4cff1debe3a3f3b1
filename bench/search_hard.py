"""Benchmark: the search on the hard set, this checkout against another one (``--against``).

The questions are those of ``bench.live_race`` (the best score of 2 players seed
4004, 6 players seed 1653, and the 6-player bot positions 616 after 18-20, 927
after 25-27, 474 after 10-13, 839 after 32, "winnable?" and best score).  Each is
asked of this checkout's code and of the checkout given by ``--against`` (a git
worktree of the commit to compare with, e.g. the main branch), in turn, each in a
fresh process (this file run with ``--child`` and that checkout first on the
path, so each runs its own compiled search where its build matches
its source), with the same ``--time-limit``; ``--method search`` (the default)
asks the search alone, ``--method auto`` the whole portfolio.  Per question: each
answer (status and score), wall time and the search's states, the ratio of the
times (against / this: above 1, this checkout is faster; an UNKNOWN counts its full
time) and the load average beside it.  Totals at the end: decided by each, and
the ratio of the summed times.

    .venv/bin/python -m bench.search_hard --against ../main
    .venv/bin/python -m bench.search_hard --against ../main --only positions --games 474,839
    .venv/bin/python -m bench.search_hard --against ../main --method auto --questions best
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def child(p: int, seed: int, k: int, maximize: bool, limit: float, method: str) -> None:
    """One question, asked of the checkout this process imports: a line of JSON."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    from bench.live_race import position
    from hanabi_cp.real import race
    from hanabi_cp.real.solve import live_methods, solve_position
    from hanabi_cp.core.options import SolveOptions
    live_methods()
    race.ENABLED = False        # the sequential portfolio: one core each, comparable
    start = position(p, seed, k)
    t = time.perf_counter()
    out = solve_position(start, method, SolveOptions(time_limit=limit, maximize=maximize))
    took = time.perf_counter() - t
    print(json.dumps({"status": out.status.value, "score": out.score, "seconds": took,
                      "nodes": out.stats.get("nodes"), "core": out.stats.get("core"),
                      "method": out.method}))


def ask(checkout: Path, question: tuple[str, int, int, int, bool], limit: float,
        method: str) -> dict:
    _, p, seed, k, maximize = question
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    # this file run as a script: the child imports hanabi_cp and bench from ``checkout``
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child",
           f"{p},{seed},{k},{int(maximize)},{limit},{method}"]
    done = subprocess.run(cmd, env=env, cwd=checkout, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _answer(r: dict) -> str:
    score = "" if r["score"] is None else f" {r['score']}"
    nodes = "" if r["nodes"] is None else f", {r['nodes']:,} states"
    return f"{r['status']}{score} ({r['method']}, {r['core']}{nodes})"


def main(argv=None) -> None:
    from bench.live_race import questions
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", type=Path, help="the checkout to compare with")
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--method", choices=("search", "auto"), default="search")
    ap.add_argument("--only", choices=("all", "deals", "positions"), default="all")
    ap.add_argument("--questions", choices=("both", "winnable", "best"), default="both")
    ap.add_argument("--games", default=None,
                    help="comma-separated bot games: only their positions (e.g. 616,927)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        p, seed, k, maximize, limit, method = args.child.split(",")
        child(int(p), int(seed), int(k), maximize == "1", float(limit), method)
        return
    if args.against is None:
        ap.error("--against: the checkout to compare with is required")
    against = args.against.resolve()
    if not (against / "hanabi_cp").is_dir():
        ap.error(f"--against {args.against}: no hanabi_cp package there")
    games = None if args.games is None else {int(g) for g in args.games.split(",")}
    print(f"# {args.method}, this checkout ({HERE}) against {against}, --time-limit "
          f"{args.time_limit:g} s, one process per question, in turn")
    print("| question | against | s | this | s | against / this | load (1 / 5 / 15 min) |")
    print("|---|---|---|---|---|---|---|")
    totals = {False: [0.0, 0], True: [0.0, 0]}
    for q in questions(args.only, args.questions, games):
        row = []
        for mine in (False, True):
            r = ask(HERE if mine else against, q, args.time_limit, args.method)
            totals[mine][0] += r["seconds"]
            totals[mine][1] += r["status"] != "UNKNOWN"
            row.append(r)
        a, b = row
        load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"| {q[0]} | {_answer(a)} | {a['seconds']:.2f} | {_answer(b)} | "
              f"{b['seconds']:.2f} | {a['seconds'] / b['seconds']:.2f} | {load} |", flush=True)
    (ta, da), (tb, db) = totals[False], totals[True]
    print(f"| **total** | {da} decided | {ta:.1f} | {db} decided | {tb:.1f} | "
          f"{ta / tb:.2f} | |")


if __name__ == "__main__":
    main()
