"""Benchmark: every shuffled standard deck (and every position of bot games) decided
under hanab.live's rules, with the time per question.

Sweeps (``--sweeps``, default all four):

- ``deals``: ``solve --rules live`` (winnable or not, method ``auto``) on the decks
  of seeds 1..``--seeds`` of ``generators.standard_deck``, for each player count
  (hanab.live's hand sizes, 8 clues, 3 strikes);
- ``deals-max``: the best score (``--maximize``) of the same deals;
- ``positions``: the same question on every position of ``--games`` bot games per
  player count (game g: the deck of seed g, ``players.game.play_game`` with the
  strategies recommendation, information, infobot and cheat in turn, seed g): a
  game of k actions gives the k + 1 positions after 0..k of its actions;
- ``positions-max``: the best final score from each of those positions.

The time of one question is the wall clock of building the referee's state
(``Game.start``; positions are built outside the clock) and ``solve_position``:
lost-deck reasons, the search (or the encodings on its tail) and the referee's
replay of the certificate.  Every answer is certified or a proof; an UNKNOWN
(``--time-limit`` reached by every method of ``auto``) is listed by seed.  Per
player count the table gives decided, won, lost, unknown, the 50th/95th/99th
percentiles and the largest wall-clock time in ms, the total in seconds, the
median and 99th percentile of the process's CPU time (less sensitive to other jobs
on the machine than the wall clock, which is what the time limit counts), and the
load average of the machine beside it (``--jobs`` processes side by side).
``lost by r/s/e`` splits the losses by their evidence (``evidence``): a reason, the
search's exhaustive refutation, or an encoding with no solution (with ``--proof``
``solve`` backs the last two by a checked DRUP proof); ``--rewalk`` writes the
refutation of each loss the search shows and walks it again (``real.refutation``).
``--retry S`` asks each question left unknown again with S seconds and prints
the answer, its time and method under the table (which stays that of the limit).

    .venv/bin/python -m bench.live_sweep                        # the whole sweep
    .venv/bin/python -m bench.live_sweep --quick                # 100 deals, 4 games, 5 s
    .venv/bin/python -m bench.live_sweep --sweeps deals --seeds 1000 --jobs 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import time
from collections import Counter

QUICK_ARGS = ["--quick"]
SWEEPS = ("deals", "deals-max", "positions", "positions-max")
STRATEGIES = ("recommendation", "information", "infobot", "cheat")


# With --rewalk: write and re-walk the refutation behind every loss the search shows
# (``real.refutation``), outside the clock of the question.
REWALK = False


def _setup(rewalk: bool = False) -> None:
    global REWALK
    from hanabi_cp.real.solve import live_methods
    live_methods()
    REWALK = rewalk
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))


def _ask(start, maximize: bool, time_limit: float | None, built: float = 0.0):
    from hanabi_cp.real.solve import solve_position
    from hanabi_cp.core.options import SolveOptions
    t, c = time.perf_counter(), time.process_time()
    out = solve_position(start, "auto", SolveOptions(time_limit=time_limit, maximize=maximize))
    seconds = built + time.perf_counter() - t
    cpu = time.process_time() - c      # this process's CPU time (the encodings run in it too)
    assert out.status.value == "UNKNOWN" or out.verified or out.actions is None
    shown = evidence(out)
    walked = REWALK and shown == "search" and _rewalk(start, out)
    return (out.status.value, seconds, out.method, out.stats.get("nodes", 0), out.score, cpu,
            shown, walked)


def _rewalk(start, out) -> bool:
    """The search's refutation of the loss, walked again by the checker (inside
    ``refute``); one that does not check stops the benchmark (it would be a bug)."""
    from hanabi_cp.real import refutation
    from hanabi_cp.runtime.deadline import NEVER
    refutation.refute_claim(start, refutation.goal_of(start, out), NEVER, out.method)
    return True


def evidence(out) -> str:
    """How a loss was shown: ``reason`` (a lost-deck reason or the position's upper
    bound), ``search`` (the search's exhaustive refutation) or ``encoding`` (the SAT
    or CP-SAT model has no solution); "" for anything else."""
    if out.status.value != "UNWINNABLE":
        return ""
    if out.method != "search":
        return "encoding"
    return "search" if "exhaustive search" in (out.reason or "") else "reason"


def _deal_task(task):
    p, seed, maximize, time_limit = task
    from hanabi_cp.apps.generators import standard_deck
    from hanabi_cp.real.referee import Game
    from hanabi_cp.real.rules import Rules
    deck, rules = standard_deck(seed), Rules.for_players(p)
    t = time.perf_counter()
    start = Game.start(deck, rules)
    built = time.perf_counter() - t
    return [(p, seed, 0, *_ask(start, maximize, time_limit, built))]


def bot_game(p: int, seed: int):
    """Game ``seed`` of ``p`` players as the sweep plays it: (deck, rules, actions),
    the deck of seed ``seed`` played by STRATEGIES[seed % 4] with seed ``seed``."""
    from hanabi_cp.apps.generators import standard_deck
    from hanabi_cp.real.rules import Rules
    from hanabi_cp.players.game import play_game
    deck, rules = standard_deck(seed), Rules.for_players(p)
    return deck, rules, play_game(deck, rules, STRATEGIES[seed % len(STRATEGIES)], seed).actions


def _game_task(task):
    p, seed, maximize, time_limit = task
    from hanabi_cp.real.referee import Game
    deck, rules, actions = bot_game(p, seed)
    g = Game.start(deck, rules)
    rows = []
    for k in range(len(actions) + 1):
        if k:
            g.apply(actions[k - 1])
        rows.append((p, seed, k, *_ask(g.copy(), maximize, time_limit)))
    return rows


def _position_task(task):
    """One position again (``--retry``): game ``seed`` after ``k`` of its actions,
    as ``_game_task`` plays it (k = 0: the deal)."""
    p, seed, k, maximize, time_limit = task
    if not k:
        return _deal_task((p, seed, maximize, time_limit))[0]
    from hanabi_cp.real.referee import Game
    deck, rules, actions = bot_game(p, seed)
    return (p, seed, k, *_ask(Game.after(deck, rules, actions[:k]), maximize, time_limit))


def _retried(pool, rows: list[tuple], deals: bool, maximize: bool, retry: float,
             out) -> None:
    """Each question left unknown asked again with ``retry`` seconds, one line each;
    the table above stays that of ``--time-limit``."""
    unknown = [r for r in rows if r[3] == "UNKNOWN"]
    if not unknown:
        return
    tasks = [(r[0], r[1], r[2], maximize, retry) for r in unknown]
    again = list(pool.imap(_position_task, tasks))
    for r in again:
        where = f"seed {r[1]}" + ("" if deals else f" after {r[2]} actions")
        best = f", best {r[7]}" if maximize and r[7] is not None else ""
        print(f"     again at {retry:g} s: {where}: {r[3]}{best} in {r[4]:.1f} s by {r[5]}"
              + (f" ({r[9]})" if r[9] else ""), file=out, flush=True)
    print(f"     again at {retry:g} s: {sum(r[3] != 'UNKNOWN' for r in again)} of "
          f"{len(again)} decided", file=out, flush=True)


def lost_by(rows: list[tuple]) -> str:
    """The losses shown by a reason / the search's refutation / an encoding."""
    by = Counter(r[9] for r in rows)
    return f"{by['reason']}/{by['search']}/{by['encoding']}"


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    if not xs:
        return float("nan")
    i = min(len(xs) - 1, max(0, int(round(q / 100 * len(xs) + 0.5)) - 1))
    return xs[i]


def run_sweep(name: str, players: list[int], count: int, jobs: int,
              time_limit: float | None, out=sys.stdout, rewalk: bool = False,
              retry: float | None = None) -> list[tuple]:
    maximize = name.endswith("-max")
    task = _deal_task if name.startswith("deals") else _game_task
    what = (f"seeds 1..{count}" if name.startswith("deals")
            else f"every position of {count} bot games")
    question = "best score" if maximize else "winnable?"
    print(f"== {name}: {question} on {what} per player count, auto, "
          f"time limit {time_limit} s, {jobs} process(es)", file=out, flush=True)
    head = (f"{'p':>2} {'questions':>9} {'decided':>8} {'won':>7} {'lost':>7} {'unknown':>7} "
            f"{'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'max ms':>8} {'total s':>8} "
            f"{'cpu p50':>7} {'cpu p99':>7} {'lost by r/s/e':>13}  load")
    print(head, file=out, flush=True)
    every = []
    with multiprocessing.get_context("fork").Pool(jobs, initializer=_setup,
                                                  initargs=(rewalk,)) as pool:
        for p in players:
            tasks = [(p, seed, maximize, time_limit) for seed in range(1, count + 1)]
            rows = [r for chunk in pool.imap_unordered(task, tasks, chunksize=8) for r in chunk]
            every += rows
            times = [r[4] for r in rows]
            cpu = [r[8] for r in rows]
            st = Counter(r[3] for r in rows)
            unknown = st["UNKNOWN"]
            load = os.getloadavg()
            print(f"{p:>2} {len(rows):>9} {len(rows) - unknown:>8} {st['WINNABLE']:>7} "
                  f"{st['UNWINNABLE']:>7} {unknown:>7} {statistics.median(times) * 1e3:>7.2f} "
                  f"{percentile(times, 95) * 1e3:>7.2f} {percentile(times, 99) * 1e3:>7.2f} "
                  f"{max(times) * 1e3:>8.1f} {sum(times):>8.1f} "
                  f"{statistics.median(cpu) * 1e3:>7.2f} {percentile(cpu, 99) * 1e3:>7.2f} "
                  f"{lost_by(rows):>13}  "
                  f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", file=out, flush=True)
            if rewalk:
                print(f"     re-walked: {sum(r[10] for r in rows)} refutations of the search, "
                      f"every one checked", file=out, flush=True)
            for r in sorted(rows, key=lambda r: -r[4])[:3]:
                where = f"seed {r[1]}" + (f" after {r[2]} actions" if task is _game_task else "")
                print(f"     slowest: {where}: {r[3]} in {r[4] * 1e3:.1f} ms by {r[5]} "
                      f"({r[6]} nodes)", file=out, flush=True)
            for r in rows:
                if r[3] == "UNKNOWN":
                    print(f"     UNKNOWN: seed {r[1]} position {r[2]} (best found {r[7]})",
                          file=out, flush=True)
            if retry:
                _retried(pool, rows, task is _deal_task, maximize, retry, out)
    return every


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.live_sweep",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--sweeps", default=",".join(SWEEPS),
                    help=f"comma-separated, from {', '.join(SWEEPS)}")
    ap.add_argument("--seeds", type=int, default=10_000, help="deals per player count")
    ap.add_argument("--games", type=int, default=1000, help="bot games per player count")
    ap.add_argument("--players", default="2,3,4,5,6", help="comma-separated player counts")
    ap.add_argument("--jobs", type=int, default=2, help="processes")
    ap.add_argument("--time-limit", type=float, default=60.0,
                    help="seconds per question (auto: the search, then the encodings)")
    ap.add_argument("--quick", action="store_true",
                    help="100 deals and 4 games per player count, 5 s per question")
    ap.add_argument("--rewalk", action="store_true",
                    help="write and re-walk the refutation of every loss the search shows "
                         "(outside the timed question)")
    ap.add_argument("--retry", type=float, default=None, metavar="S",
                    help="ask each question left unknown again with S seconds (after the "
                         "table, which stays that of --time-limit)")
    args = ap.parse_args(argv)
    if args.quick:
        args.seeds, args.games, args.time_limit = 100, 4, 5.0
    players = [int(x) for x in args.players.split(",")]
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
          f"({os.cpu_count()} cores)", flush=True)
    began = time.perf_counter()
    for name in args.sweeps.split(","):
        if name not in SWEEPS:
            ap.error(f"unknown sweep {name!r}; choose from {', '.join(SWEEPS)}")
        count = args.seeds if name.startswith("deals") else args.games
        t = time.perf_counter()
        run_sweep(name, players, count, args.jobs, args.time_limit, rewalk=args.rewalk,
                  retry=args.retry)
        print(f"   ({time.perf_counter() - t:.1f} s wall clock)", flush=True)
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
          f"{time.perf_counter() - began:.1f} s in all", flush=True)


if __name__ == "__main__":
    main()
