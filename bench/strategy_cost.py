"""Benchmark: where a strategy's games go, the strategy's own thinking vs the engine.

Plays ``--games`` seeded games per strategy (the shuffled standard decks of
``hanabi-cp play --games``) and times them in CPU seconds of this process (one
core); then replays
the very same action lists through the same engine (``players.game.play_game``:
views for every seat, the referee, every seat told every turn) with a scripted
player that only looks its moves up.  The difference is what the strategy itself
costs; the replay's rate is the ceiling any strategy could reach on this engine.
Each figure is the best of ``--repeat`` runs on disjoint seed ranges (1..games,
games+1..2·games, ...): neighbours on a shared machine slow a run down but never
speed one up, and disjoint seeds keep the strategies' caches from seeing a game twice.

    .venv/bin/python -m bench.strategy_cost                      # 5 players, 300 games
    .venv/bin/python -m bench.strategy_cost --quick
    .venv/bin/python -m bench.strategy_cost --players 3 --strategies infobot
"""

from __future__ import annotations

import argparse
import time

from hanabi_cp.real.actions import Action
from hanabi_cp.real.rules import Rules
from hanabi_cp.players.game import play_game, seeded_deck
from hanabi_cp.players.strategy import Strategy, strategies
from hanabi_cp.players.view import View

QUICK_ARGS = ["--games", "40"]


def _scripted(actions: tuple[Action, ...]) -> type[Strategy]:
    class Scripted(Strategy):
        name = "scripted"

        def act(self, view: View) -> Action:
            return actions[view.turn]
    return Scripted


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.strategy_cost",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--games", type=int, default=300, help="games per strategy")
    ap.add_argument("--quick", action="store_true", help="40 games")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measure (the fastest counts)")
    ap.add_argument("--strategies", default="information,cheat,infobot", help="comma-separated")
    args = ap.parse_args(argv)
    games = 40 if args.quick else args.games
    rules = Rules.for_players(args.players)
    table = strategies()
    print(f"{args.players} players, {games} games per run, best of {args.repeat} runs, CPU time of one core")
    print(f"{'strategy':<14} {'games/s':>8} {'ms/game':>8} {'engine ms':>10} {'own ms':>8} "
          f"{'replay games/s':>15} {'turns':>6}")
    for name in args.strategies.split(","):
        cls = table[name]
        cpu = engine = float("inf")
        for r in range(args.repeat):
            seeds = range(1 + r * games, 1 + (r + 1) * games)
            start = time.process_time()
            played = [play_game(seeded_deck(seed), rules, cls, seed) for seed in seeds]
            cpu = min(cpu, time.process_time() - start)
            start = time.process_time()
            for g in played:
                again = play_game(g.deck, rules, _scripted(g.actions), g.seed)
                assert again.actions == g.actions
            engine = min(engine, time.process_time() - start)
        turns = sum(g.turns for g in played) / games
        print(f"{name:<14} {games / cpu:>8.0f} {1000 * cpu / games:>8.2f} {1000 * engine / games:>10.2f} "
              f"{1000 * (cpu - engine) / games:>8.2f} {games / engine:>15.0f} {turns:>6.1f}")


if __name__ == "__main__":
    main()
