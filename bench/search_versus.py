"""Benchmark: the real-rules search of this checkout against another's (or against
its own pure-Python search), deal by deal.

Runs the search (``real.methods.search_core()``: the compiled copy where one is
current in that checkout, else the pure-Python search) on shuffled standard decks
(seeds 0..decks-1 of ``generators.standard_deck``, hanab.live's rules for each
player count), or with ``--positions`` on positions of the sweeps' bot games
(``bench.live_sweep.bot_game``; GAME:ACTIONS, e.g. 616:18, the hard set of
``bench.live_race``), in a child process per checkout with that checkout first on
the path, the two alternating for ``--rounds`` rounds (each question's time: the
CPU time of its search, less sensitive to other jobs on the machine than the wall
clock, and its least over the rounds).  Without
``--against`` the other side is this checkout with ``HANABI_CP_PURE=1``: what the
compiled copy gains.

Prints per player count the CPU seconds of each, the ratio of the times other / this
and of the states visited per second this / other (above 1: this checkout is
faster; on a question left undecided at ``--time-limit`` only the second means
anything), and whether every decided answer (status, score, states visited) is
the same in both.

    .venv/bin/python -m bench.search_versus                  # compiled vs pure Python
    .venv/bin/python -m bench.search_versus --against ../main-copy --decks 1000 --maximize
    .venv/bin/python -m bench.search_versus --against ../main-copy --players 6 \\
        --positions 616:18,616:19,927:25 --time-limit 10 --maximize
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
QUICK_ARGS = ["--decks", "20", "--rounds", "1"]


def _start(p: int, question: str):
    """The position of ``question``: a deck's seed, or GAME:ACTIONS of a bot game."""
    from hanabi_cp.apps.generators import standard_deck
    from hanabi_cp.real.referee import Game
    from hanabi_cp.real.rules import Rules
    if ":" not in question:
        return Game.start(standard_deck(int(question)), Rules.for_players(p))
    from bench.live_sweep import bot_game
    game, k = map(int, question.split(":"))
    deck, rules, actions = bot_game(p, game)
    return Game.after(deck, rules, actions[:k])


def child(players: list[int], questions: list[str], time_limit: float, maximize: bool) -> None:
    """In a child process: each question's search, as JSON lines on stdout."""
    from hanabi_cp.core.options import SolveOptions
    from hanabi_cp.real.methods import search_core
    core = search_core()
    print(json.dumps({"core": "python" if core.__name__.endswith(".search") else "compiled"}))
    for p in players:
        # a first search off the clock: imports and tables built once per process
        core.search(_start(p, "0"), SolveOptions(time_limit=time_limit))
        for question in questions:
            start = _start(p, question)
            clock = time.process_time()
            out = core.search(start, SolveOptions(time_limit=time_limit, maximize=maximize))
            spent = time.process_time() - clock
            print(json.dumps({"p": p, "q": question, "s": spent, "nodes": out.stats.get("nodes", 0),
                              "answer": [out.status.name, out.score, out.stats.get("nodes")]}),
                  flush=True)


def run_child(tree: Path, pure: bool, args: argparse.Namespace) -> tuple[str, dict[tuple, dict]]:
    got = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child",
                          "--players", args.players, "--positions", args.positions,
                          "--time-limit", str(args.time_limit)]
                         + (["--maximize"] if args.maximize else []),
                         cwd=tree, env={**os.environ, "PYTHONPATH": str(tree),
                                        "HANABI_CP_PURE": "1" if pure else ""},
                         capture_output=True, text=True, check=True)
    lines = [json.loads(line) for line in got.stdout.splitlines()]
    return lines[0]["core"], {(d["p"], d["q"]): d for d in lines[1:]}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.search_versus",
                                 description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--against", type=Path,
                    help="the other checkout (its root folder); default: this one, pure Python")
    ap.add_argument("--decks", type=int, default=60, help="decks per player count")
    ap.add_argument("--positions", default=None,
                    help="comma-separated questions instead of the decks' seeds 0..decks-1: "
                         "a seed, or GAME:ACTIONS of a bot game")
    ap.add_argument("--players", default="2,3,4,5,6", help="comma-separated player counts")
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds per question")
    ap.add_argument("--rounds", type=int, default=3, help="runs of each checkout, alternating")
    ap.add_argument("--maximize", action="store_true", help="ask for the best score")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    players = [int(x) for x in args.players.split(",")]
    if args.positions is None:
        args.positions = ",".join(map(str, range(args.decks)))
    questions = args.positions.split(",")
    if args.child:
        child(players, questions, args.time_limit, args.maximize)
        return
    trees = {"this": HERE, "other": HERE if args.against is None else args.against.resolve()}
    best: dict[str, dict[tuple, dict]] = {}
    cores: dict[str, str] = {}
    for r in range(args.rounds):
        for name in (("this", "other") if r % 2 == 0 else ("other", "this")):
            cores[name], runs = run_child(trees[name], name == "other" and args.against is None,
                                          args)
            for key, d in runs.items():
                if key not in best.setdefault(name, {}) or d["s"] < best[name][key]["s"]:
                    best[name][key] = d
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    what = "best score" if args.maximize else "winnable?"
    print(f"search ({what}), {len(questions)} questions per player count, best of {args.rounds} "
          f"rounds; this: {trees['this']} ({cores['this']}), other: {trees['other']} "
          f"({cores['other']}); load (1 / 5 / 15 min) {load}; cores {os.cpu_count()}")
    print(f"{'p':>3} {'this s':>9} {'other s':>9} {'other / this':>13} {'states/s this / other':>22}"
          f" {'p99 states this / other':>24} {'p99 ms this / other':>20}")
    this, other = best["this"], best["other"]
    decided = [k for k in this if "UNKNOWN" not in (this[k]["answer"][0], other[k]["answer"][0])]
    same = all(this[k]["answer"] == other[k]["answer"] for k in decided)
    # an order of the moves changes the states visited, never a decided status or score
    verdicts = [k for k in decided if this[k]["answer"][:2] != other[k]["answer"][:2]]
    for p in [*players, None]:
        keys = [k for k in this if p is None or k[0] == p]
        a, b = sum(this[k]["s"] for k in keys), sum(other[k]["s"] for k in keys)
        rate = (sum(this[k]["nodes"] for k in keys) / a) / (sum(other[k]["nodes"] for k in keys) / b)
        states = f"{_p99(this, keys, 'nodes'):,.0f} / {_p99(other, keys, 'nodes'):,.0f}"
        ms = f"{1000 * _p99(this, keys, 's'):.1f} / {1000 * _p99(other, keys, 's'):.1f}"
        print(f"{'all' if p is None else p:>3} {a:>9.3f} {b:>9.3f} {b / a:>13.3f} {rate:>22.3f}"
              f" {states:>24} {ms:>20}")
    unknown = {name: sum(d["answer"][0] == "UNKNOWN" for d in runs.values())
               for name, runs in best.items()}
    print(f"unknown: this {unknown['this']}, other {unknown['other']}")
    print("decided answers: " + ("the same (status, score, states visited)" if same else
                                 "the same status and score, other states visited"
                                 if not verdicts else f"DIFFERENT: {sorted(verdicts)}"))


def _p99(runs: dict[tuple, dict], keys: list[tuple], field: str) -> float:
    """The 99th percentile of ``field`` over the questions ``keys``."""
    values = sorted(runs[k][field] for k in keys)
    return values[min(len(values) - 1, (99 * len(values)) // 100)]


if __name__ == "__main__":
    main()
