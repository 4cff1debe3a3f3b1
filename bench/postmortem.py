"""Benchmark: ``hanabi-cp analyze`` on bot games, per game and per position.

For each player count, ``--games`` games are played by the hidden-information
strategies in turn (game *i* on the shuffled standard deck of seed *i*, hanab.live's
rules) and each is analysed (``real.postmortem.report.analyze``: the best score after
every action, ``--position-limit`` seconds at most per position).  Printed per
player count: games, positions, undecided positions, the median and p99 time per
game and per position (positions answered by following the previous certificate
cost nothing and count as such), the median of the same games analysed without the
drops' reasons and alternatives (``explain_drops=False``) and the ratio of the two
medians, and the machine's load beside it.

    .venv/bin/python -m bench.postmortem                  # 100 games per player count
    .venv/bin/python -m bench.postmortem --quick          # 10 games, 3 and 5 players
    .venv/bin/python -m bench.postmortem --games 1000 --players 3,4,5
"""

from __future__ import annotations

import argparse
import os
import time

from hanabi_cp.apps.generators import standard_deck
from hanabi_cp.real.postmortem.report import analyze
from hanabi_cp.real.reasons import _sweep_reasons
from hanabi_cp.real.rules import Rules
from hanabi_cp.players.game import play_game
from hanabi_cp.players.strategy import strategies
from hanabi_cp.apps.studies.common import percentile


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.postmortem",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100, help="games per player count")
    ap.add_argument("--quick", action="store_true", help="10 games, 3 and 5 players")
    ap.add_argument("--players", default="2,3,4,5,6", help="comma-separated player counts")
    ap.add_argument("--position-limit", type=float, default=10.0,
                    help="seconds at most per position")
    args = ap.parse_args(argv)
    games = 10 if args.quick else args.games
    players = [3, 5] if args.quick else [int(x) for x in args.players.split(",")]
    print(f"analyze on {games} bot games per player count (strategies in turn, seeds "
          f"0..{games - 1}), position limit {args.position_limit:g} s; load "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'p':>2} {'games':>5} {'positions':>9} {'undecided':>9} {'game p50':>9} "
          f"{'game p99':>9} {'pos p50':>8} {'pos p99':>8} {'pos max':>8} "
          f"{'plain p50':>9} {'ratio':>5}")
    for p in players:
        names = [n for n, cls in sorted(strategies().items())
                 if cls.min_players <= p <= cls.max_players]
        per_game, per_position, undecided, plain = [], [], 0, []
        for seed in range(games):
            deck, rules = standard_deck(seed), Rules.for_players(p)
            game = play_game(deck, rules, names[seed % len(names)], seed)
            # the same game without the drops' reasons and alternatives, for the ratio
            # (each run from cold caches: the deal's lost-deck reasons are memoised)
            _sweep_reasons.cache_clear()
            start = time.perf_counter()
            analyze(deck, rules, game.actions, position_limit=args.position_limit,
                    explain_drops=False)
            plain.append(time.perf_counter() - start)
            _sweep_reasons.cache_clear()
            start = time.perf_counter()
            pm = analyze(deck, rules, game.actions, position_limit=args.position_limit)
            per_game.append(time.perf_counter() - start)
            per_position += [r.seconds for r in pm.rows]
            undecided += sum(r.best is None for r in pm.rows)
        print(f"{p:>2} {games:>5} {len(per_position):>9} {undecided:>9} "
              f"{_ms(percentile(per_game, 50)):>9} {_ms(percentile(per_game, 99)):>9} "
              f"{_ms(percentile(per_position, 50)):>8} "
              f"{_ms(percentile(per_position, 99)):>8} {_ms(max(per_position)):>8} "
              f"{_ms(percentile(plain, 50)):>9} "
              f"{percentile(per_game, 50) / percentile(plain, 50):>5.2f}", flush=True)
    print(f"load after: {os.getloadavg()[0]:.1f}")


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


if __name__ == "__main__":
    main()
