"""Benchmark: hidden-information strategies and the bound, at 5 players by default.

For every registered strategy (strategies added later join automatically), plays
``--games`` seeded games (the shuffled standard decks of seeds 1..games, as
``hanabi-cp play --games``) and prints games per second of CPU time of this process
(one core; the wall clock on a shared machine measures the neighbours too) with the
mean score.  Then the bound (``players.bound.deck_bound``: the exact best score with
open hands, certificate replayed) on ``--decks`` of the same decks: median, 95th and
99th percentile and largest CPU time per deck, and how many decks it left undecided
within ``--time-limit``.

    .venv/bin/python -m bench.strategies                    # 400 games, 400 decks
    .venv/bin/python -m bench.strategies --quick            # 60 games, 60 decks
    .venv/bin/python -m bench.strategies --players 3 --games 1000 --decks 0
"""

from __future__ import annotations

import argparse
import time

from hanabi_cp.real.rules import Rules
from hanabi_cp.players.bound import deck_bound
from hanabi_cp.players.game import play_game, seeded_deck
from hanabi_cp.players.strategy import strategies
from hanabi_cp.apps.studies.common import percentile


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.strategies",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--games", type=int, default=400, help="games per strategy")
    ap.add_argument("--decks", type=int, default=400, help="decks for the bound's timing")
    ap.add_argument("--quick", action="store_true", help="60 games and 60 decks")
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds per deck (bound)")
    ap.add_argument("--strategies", default=None, help="comma-separated (default: all)")
    args = ap.parse_args(argv)
    games = 60 if args.quick else args.games
    decks = 60 if args.quick else args.decks
    rules = Rules.for_players(args.players)
    table = strategies()
    names = args.strategies.split(",") if args.strategies else list(table)
    print(f"{args.players} players, seeds 1..{games}: games per second of CPU time (one core)")
    print(f"{'strategy':<16} {'games':>6} {'games/s':>8} {'ms/game':>8} {'mean':>6} "
          f"{'perfect':>8}")
    for name in names:
        cls = table[name]
        if not cls.min_players <= args.players <= cls.max_players:
            continue
        scores = []
        start = time.process_time()
        for seed in range(1, games + 1):
            scores.append(play_game(seeded_deck(seed), rules, cls, seed).score)
        cpu = time.process_time() - start
        print(f"{name:<16} {games:>6} {games / cpu:>8.0f} {1000 * cpu / games:>8.2f} "
              f"{sum(scores) / games:>6.2f} {sum(s == 25 for s in scores) / games:>8.1%}")
    if not decks:
        return
    times, unknown = [], 0
    for seed in range(1, decks + 1):
        deck = seeded_deck(seed)
        start = time.process_time()
        b = deck_bound(deck, rules, args.time_limit)
        times.append(time.process_time() - start)
        unknown += not b.decided
    ms = [1000 * t for t in times]
    print(f"bound on {decks} decks (CPU ms per deck, certificate replay included): "
          f"median {percentile(ms, 50):.2f}, p95 {percentile(ms, 95):.1f}, "
          f"p99 {percentile(ms, 99):.1f}, max {max(ms):.0f}; undecided within "
          f"{args.time_limit:g} s: {unknown}")


if __name__ == "__main__":
    main()
