"""Benchmark: ``auto`` racing the encodings beside the search (``real.race``) against
the sequential portfolio, on the hard set: what the sweeps left undecided at 10 s.

The hard set: the best score of 2 players, seed 4004; "winnable?" on 6 players,
seed 1653; and at 6 players the bot-game positions the sweeps left undecided at
10 s (game 616 after 18-20 actions, 927 after 25-27, 474 after 10-13, 839 after
32; the games of ``bench.live_sweep``), each asked "winnable?" and for its best
score.  Each question is asked of both portfolios in turn in this one process
(``race.ENABLED`` off, then on), with the same ``--time-limit``; the load
average (``os.getloadavg``) is printed beside each pair, since the race needs a
second core (without an idle one, ``auto`` stays sequential unless
``--busy-too``).  Per question: the answer (and the method that gave it; for
the race, how many lanes ran beside the search: 0 when it stayed sequential) and
wall time of each, and the ratio sequential / race (above 1: the race is
faster; an UNKNOWN counts its full time).  Totals at the end: decided by each,
and the ratio of the summed times.

    .venv/bin/python -m bench.live_race                      # the whole set, 10 s each
    .venv/bin/python -m bench.live_race --time-limit 30 --only deals
    .venv/bin/python -m bench.live_race --only positions --questions winnable
    .venv/bin/python -m bench.live_race --only positions --games 616,927 --questions best
"""

from __future__ import annotations

import argparse
import os
import sys
import time

QUICK_ARGS = ["--only", "deals", "--time-limit", "5"]
# (label, players, seed, actions into the bot game (0: the deal), maximize)
DEALS = [("2p 4004 best", 2, 4004, 0, True), ("6p 1653", 6, 1653, 0, False)]
POSITIONS = [(616, k) for k in (18, 19, 20)] + [(927, k) for k in (25, 26, 27)] \
    + [(474, k) for k in (10, 11, 12, 13)] + [(839, 32)]


def questions(only: str, asked: str, games: set[int] | None = None
              ) -> list[tuple[str, int, int, int, bool]]:
    out = list(DEALS) if only in ("all", "deals") else []
    if only in ("all", "positions"):
        for maximize in {"both": (False, True), "winnable": (False,), "best": (True,)}[asked]:
            out += [(f"6p {g} after {k}{' best' if maximize else ''}", 6, g, k, maximize)
                    for g, k in POSITIONS if games is None or g in games]
    return out


def position(p: int, seed: int, k: int):
    from hanabi_cp.apps.generators import standard_deck
    from hanabi_cp.real.referee import Game
    from hanabi_cp.real.rules import Rules
    if not k:
        return Game.start(standard_deck(seed), Rules.for_players(p))
    from bench.live_sweep import bot_game
    deck, rules, actions = bot_game(p, seed)
    return Game.after(deck, rules, actions[:k])


def ask(start, maximize: bool, limit: float, racing: bool) -> tuple[str, float, str]:
    from hanabi_cp.real import race
    from hanabi_cp.real.solve import solve_position
    from hanabi_cp.core.options import SolveOptions
    race.ENABLED = racing
    t = time.perf_counter()
    out = solve_position(start, "auto", SolveOptions(time_limit=limit, maximize=maximize))
    took = time.perf_counter() - t
    answer = out.status.value + (f" {out.score}" if out.score is not None else "")
    lanes = out.stats.get("lanes", 0)
    return answer, took, out.method + (f", {lanes} lane{'s' * (lanes != 1)}" if racing else "")


def load() -> str:
    return " / ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--only", choices=("all", "deals", "positions"), default="all")
    ap.add_argument("--questions", choices=("both", "winnable", "best"), default="both")
    ap.add_argument("--busy-too", action="store_true",
                    help="race even when no core is idle (race.MIN_IDLE_CORES = 0)")
    ap.add_argument("--games", default=None,
                    help="comma-separated bot games: only their positions (e.g. 616,927)")
    args = ap.parse_args(argv)
    games = None if args.games is None else {int(g) for g in args.games.split(",")}
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    from hanabi_cp.real.solve import live_methods
    from hanabi_cp.runtime.compiled import load as compiled
    from hanabi_cp.real.methods import search
    live_methods()
    if args.busy_too:
        from hanabi_cp.real import race
        race.MIN_IDLE_CORES = 0.0
    core = "compiled" if compiled(search.__name__, search.__file__) else "python"
    print(f"# auto, sequential vs race{' (even with no core idle)' if args.busy_too else ''}, "
          f"--time-limit {args.time_limit:g} s; search core: {core}; "
          f"cores: {len(os.sched_getaffinity(0))}")
    print("| question | sequential | s | race | s | seq / race | load (1 / 5 / 15 min) |")
    print("|---|---|---|---|---|---|---|")
    totals = {False: [0.0, 0], True: [0.0, 0]}
    for label, p, seed, k, maximize in questions(args.only, args.questions, games):
        start = position(p, seed, k)
        row = []
        for racing in (False, True):
            answer, took, method = ask(start.copy(), maximize, args.time_limit, racing)
            totals[racing][0] += took
            totals[racing][1] += not answer.startswith("UNKNOWN")
            row.append((f"{answer} ({method})", took))
        (a, ta), (b, tb) = row
        print(f"| {label} | {a} | {ta:.1f} | {b} | {tb:.1f} | {ta / tb:.2f} | {load()} |",
              flush=True)
    (ts, ds), (tr, dr) = totals[False], totals[True]
    print(f"| **total** | {ds} decided | {ts:.1f} | {dr} decided | {tr:.1f} | "
          f"{ts / tr:.2f} | {load()} |")


if __name__ == "__main__":
    main()
