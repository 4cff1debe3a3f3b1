"""Benchmark: hanab.live's rule-changing variant families beside No Variant, "winnable?"
on the same seeded shuffles (issue 45's speed goal: the new families keep No
Variant's tail).

For each variant of ``VARIANTS`` and each player count (hanab.live's hand sizes, 8
clues, 3 strikes), ``solve_position`` with method ``auto`` on the variant's decks
of seeds 1..``--seeds`` (``generators.variant_deck``: No Variant's is
``standard_deck(seed)``), timed by the wall clock from ``Game.start`` to the
certified answer. Per row: decided, won, lost, unknown, the 50th and 99th
percentiles and the largest time in ms, the referee's part (``ref``: the median
of ``Game.start`` and the replay of the answer's certificate, timed again apart
after each answer), and the ratios of the family's p50 and p99 to No Variant's
at the same player count, measured in the same run.

    .venv/bin/python -m bench.live_families                 # 200 deals, 3-5 players
    .venv/bin/python -m bench.live_families --quick         # 30 deals, 3 players
    .venv/bin/python -m bench.live_families --seeds 1000 --players 3,4,5
    .venv/bin/python -m bench.live_families --only "Up or Down (5 Suits),Sudoku (5 Suits)"
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from bench.live_sweep import percentile

QUICK_ARGS = ["--quick"]
VARIANTS = ("No Variant", "Throw It in a Hole (5 Suits)", "Clue Starved (5 Suits)",
            "Orange (5 Suits)", "Alternating Clues (5 Suits)", "Alternating Clues & White (5 Suits)",
            "Reversed (5 Suits)", "Up or Down (5 Suits)", "Sudoku (5 Suits)")


def sweep(name: str, players: int, seeds: int, time_limit: float) -> dict:
    from hanabi_cp.apps.generators import variant_deck
    from hanabi_cp.real.referee import Game, replay
    from hanabi_cp.real.rules import Rules
    from hanabi_cp.real.solve import solve_position
    from hanabi_cp.real.variants.catalogue import variant
    from hanabi_cp.core.options import SolveOptions
    v = variant(name)
    rules = Rules.for_players(players, variant=v)
    cards = v.model_cards()                 # Up or Down's START as the deck value deck_n
    times, referee, status = [], [], {"WINNABLE": 0, "UNWINNABLE": 0, "UNKNOWN": 0}
    for seed in range(1, seeds + 1):
        deck = variant_deck(seed, cards, v.deck_n, len(v.suits))
        t = time.perf_counter()
        out = solve_position(Game.start(deck, rules), "auto", SolveOptions(time_limit=time_limit))
        times.append(time.perf_counter() - t)
        assert out.status.value == "UNKNOWN" or out.verified or out.actions is None
        status[out.status.value] += 1
        if out.actions is not None:
            t = time.perf_counter()
            replay(deck, rules, out.actions, Game.start(deck, rules))
            referee.append(time.perf_counter() - t)
    return {"times": times, "referee": referee or [0.0], **status}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.live_families",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=200, help="deals per variant and player count")
    ap.add_argument("--players", default="3,4,5", help="comma-separated player counts")
    ap.add_argument("--time-limit", type=float, default=30.0, help="seconds per question")
    ap.add_argument("--quick", action="store_true", help="30 deals, 3 players")
    ap.add_argument("--only", default=None,
                    help="comma-separated variant names (No Variant, the ratios' base, "
                         "always runs first)")
    args = ap.parse_args(argv)
    if args.quick:
        args.seeds, args.players = 30, "3"
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    names = VARIANTS if args.only is None else \
        ("No Variant", *(x for x in args.only.split(",") if x != "No Variant"))
    for name in names:
        sweep(name, 3, 1, args.time_limit)          # imports and caches outside the clock
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
          f"({os.cpu_count()} cores); winnable? on seeds 1..{args.seeds}, auto, "
          f"time limit {args.time_limit} s", flush=True)
    print(f"{'variant':<36} {'p':>2} {'won':>5} {'lost':>5} {'unk':>4} {'p50 ms':>7} "
          f"{'p99 ms':>7} {'max ms':>8} {'ref ms':>7} {'p50 x':>6} {'p99 x':>6}", flush=True)
    for p in (int(x) for x in args.players.split(",")):
        base = None
        for name in names:
            got = sweep(name, p, args.seeds, args.time_limit)
            t = got["times"]
            p50, p99 = statistics.median(t), percentile(t, 99)
            if base is None:
                base = (p50, p99)
            print(f"{name:<36} {p:>2} {got['WINNABLE']:>5} {got['UNWINNABLE']:>5} "
                  f"{got['UNKNOWN']:>4} {p50 * 1e3:>7.2f} {p99 * 1e3:>7.2f} {max(t) * 1e3:>8.1f} "
                  f"{statistics.median(got['referee']) * 1e3:>7.2f} "
                  f"{p50 / base[0]:>6.2f} {p99 / base[1]:>6.2f}", flush=True)
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)


if __name__ == "__main__":
    main()
