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

``--slowest K`` prints, per player count, the K slowest games (seed, strategy) and
where their time went: the best-score solves of the positions, the alternatives
(``keep``: a question per legal action at a drop), the drops' reasons and the
knowledge rows.  ``--against DIR`` analyses the same games in another checkout too
(a child process per checkout, the two alternating game by game, so both see the
same load) and prints its median and p99 beside, the ratios other / this, and the
games whose answers differ (a position's best score; a drop's ``keep`` that is not
between the other's kept and kept-or-undecided actions; a drop of one side only,
but beside a position the other left undecided).

    .venv/bin/python -m bench.postmortem                  # 100 games per player count
    .venv/bin/python -m bench.postmortem --quick          # 10 games, 3 and 5 players
    .venv/bin/python -m bench.postmortem --games 1000 --players 3,4,5
    .venv/bin/python -m bench.postmortem --games 200 --players 2 --slowest 5 \\
        --against ../main
    .venv/bin/python -m bench.postmortem --files tests/data/hanablive/*_*.json

``--files GAME...`` times real game files instead: each through ``hanabi_cp.analyze``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

# the parts of ``report`` timed for ``--slowest``: its module-level names
PARTS = {"_solve": "solves", "keeps": "keep", "explain": "reasons", "_card_info": "knowledge"}


def measure(p: int, seed: int, limit: float) -> dict:
    """One bot game analysed twice (plain, then with the drops explained), from cold
    caches (the deal's lost-deck reasons are memoised): times and answers."""
    from hanabi_cp.apps.generators import standard_deck
    from hanabi_cp.players.game import play_game
    from hanabi_cp.players.strategy import strategies
    from hanabi_cp.real.postmortem import report
    from hanabi_cp.real.reasons import _sweep_reasons
    from hanabi_cp.real.rules import Rules
    names = [n for n, cls in sorted(strategies().items())
             if cls.min_players <= p <= cls.max_players]
    deck, rules = standard_deck(seed), Rules.for_players(p)
    game = play_game(deck, rules, names[seed % len(names)], seed)
    _sweep_reasons.cache_clear()
    start = time.perf_counter()
    report.analyze(deck, rules, game.actions, position_limit=limit, explain_drops=False)
    plain = time.perf_counter() - start
    _sweep_reasons.cache_clear()
    parts = dict.fromkeys(PARTS.values(), 0.0)
    saved = {name: getattr(report, name) for name in PARTS}

    def timed(name, f):
        def run(*args, **kwargs):
            begun = time.perf_counter()
            try:
                return f(*args, **kwargs)
            finally:
                parts[PARTS[name]] += time.perf_counter() - begun
        return run

    for name, f in saved.items():
        setattr(report, name, timed(name, f))
    try:
        start = time.perf_counter()
        pm = report.analyze(deck, rules, game.actions, position_limit=limit)
        seconds = time.perf_counter() - start
    finally:
        for name, f in saved.items():
            setattr(report, name, f)
    slowest = max(pm.rows, key=lambda r: r.seconds)
    return {"seed": seed, "strategy": names[seed % len(names)], "seconds": seconds,
            "plain": plain, "positions": [r.seconds for r in pm.rows],
            "undecided": sum(r.best is None for r in pm.rows), "parts": parts,
            "slowest": [slowest.position, slowest.seconds],
            "best": [r.best for r in pm.rows],
            "keep": {d.position: [[str(a) for a in d.keep], [str(a) for a in d.undecided]]
                     for d in pm.drops}}


def child(limit: float) -> None:
    """In a child process: ``P SEED`` per line on stdin, ``measure``'s JSON out."""
    for line in sys.stdin:
        p, seed = map(int, line.split())
        print(json.dumps(measure(p, seed, limit)), flush=True)


class Checkout:
    """A child process analysing games with ``path`` first on the path."""

    def __init__(self, path: Path, limit: float):
        env = {**os.environ, "PYTHONPATH": str(path)}
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--child",
             "--position-limit", str(limit)], env=env, cwd=path, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def measure(self, p: int, seed: int) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{p} {seed}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the child analysing game {seed} ({p} players) stopped")
        return json.loads(line)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.postmortem",
                                 description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--games", type=int, default=100, help="games per player count")
    ap.add_argument("--quick", action="store_true", help="10 games, 3 and 5 players")
    ap.add_argument("--players", default="2,3,4,5,6", help="comma-separated player counts")
    ap.add_argument("--position-limit", type=float, default=10.0,
                    help="seconds at most per position")
    ap.add_argument("--slowest", type=int, default=0, metavar="K",
                    help="print the K slowest games and where their time went")
    ap.add_argument("--against", type=Path, metavar="DIR",
                    help="another checkout, its times beside (games alternating)")
    ap.add_argument("--files", nargs="+", metavar="GAME",
                    help="analyse these game files instead (hanab.live exports, "
                         "certificates), each timed once")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return child(args.position_limit)
    if args.files:
        return files(args.files, args.position_limit)
    games = 10 if args.quick else args.games
    players = [3, 5] if args.quick else [int(x) for x in args.players.split(",")]
    other = None if args.against is None else Checkout(args.against.resolve(),
                                                       args.position_limit)
    this = None if other is None else Checkout(Path(__file__).resolve().parent.parent,
                                               args.position_limit)
    print(f"analyze on {games} bot games per player count (strategies in turn, seeds "
          f"0..{games - 1}), position limit {args.position_limit:g} s; load "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    head = (f"{'p':>2} {'games':>5} {'positions':>9} {'undecided':>9} {'game p50':>9} "
            f"{'game p99':>9} {'pos p50':>8} {'pos p99':>8} {'pos max':>8} "
            f"{'plain p50':>9} {'ratio':>5}")
    if other is not None:
        head += f" {'other p50':>9} {'other p99':>9} {'x p50':>6} {'x p99':>6} {'differ':>6}"
    print(head)
    slow: dict[int, list[dict]] = {}
    for p in players:
        mine, theirs, differ = [], [], []
        for seed in range(games):
            if other is not None and this is not None:
                theirs.append(other.measure(p, seed))
                mine.append(this.measure(p, seed))
                if not _same(theirs[-1], mine[-1]):
                    differ.append(seed)
            else:
                mine.append(measure(p, seed, args.position_limit))
        print(_line(p, mine, theirs, differ), flush=True)
        if differ:
            print(f"   answers differ on seeds {differ}")
        slow[p] = sorted(mine, key=lambda m: -m["seconds"])[:args.slowest]
    for p, worst in slow.items():
        if worst:
            print(f"the {len(worst)} slowest games at {p} players (ms):")
        for m in worst:
            parts = " ".join(f"{k} {v * 1000:.0f}" for k, v in m["parts"].items())
            print(f"  seed {m['seed']:>4} ({m['strategy']}): {m['seconds'] * 1000:.0f} = "
                  f"{parts}; slowest position {m['slowest'][0]} "
                  f"({m['slowest'][1] * 1000:.0f}), {len(m['keep'])} drops")
    for side in (other, this):
        if side is not None:
            side.close()
    print(f"load after: {os.getloadavg()[0]:.1f}")


def files(paths: list[str], limit: float) -> None:
    """``--files``: each game file through ``hanabi_cp.analyze`` (the full
    post-mortem), once, in this process, after one untimed run of the first file
    (which pays for the imports)."""
    import statistics

    import hanabi_cp as hc

    print(f"analyze on {len(paths)} game files, position limit {limit:g} s; load "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    hc.analyze(paths[0], position_limit=limit)
    times = []
    for path in paths:
        t = time.perf_counter()
        pm = hc.analyze(path, position_limit=limit)
        times.append(time.perf_counter() - t)
        undecided = sum(r.best is None for r in pm.rows)
        print(f"  {_ms(times[-1]):>9}  {len(pm.rows):>4} positions  "
              f"{undecided} undecided  {path}", flush=True)
    print(f"median {_ms(statistics.median(times))}, slowest {_ms(max(times))}; "
          f"load after: {os.getloadavg()[0]:.1f}")


def _line(p: int, mine: list[dict], theirs: list[dict], differ: list[int]) -> str:
    from hanabi_cp.apps.studies.common import percentile
    per_game = [m["seconds"] for m in mine]
    per_position = [s for m in mine for s in m["positions"]]
    plain = [m["plain"] for m in mine]
    line = (f"{p:>2} {len(mine):>5} {len(per_position):>9} "
            f"{sum(m['undecided'] for m in mine):>9} "
            f"{_ms(percentile(per_game, 50)):>9} {_ms(percentile(per_game, 99)):>9} "
            f"{_ms(percentile(per_position, 50)):>8} "
            f"{_ms(percentile(per_position, 99)):>8} {_ms(max(per_position)):>8} "
            f"{_ms(percentile(plain, 50)):>9} "
            f"{percentile(per_game, 50) / percentile(plain, 50):>5.2f}")
    if theirs:
        before = [m["seconds"] for m in theirs]
        line += (f" {_ms(percentile(before, 50)):>9} {_ms(percentile(before, 99)):>9} "
                 f"{percentile(before, 50) / percentile(per_game, 50):>6.2f} "
                 f"{percentile(before, 99) / percentile(per_game, 99):>6.2f} "
                 f"{len(differ):>6}")
    return line


def _same(before: dict, after: dict) -> bool:
    """Whether two analyses of a game agree: the same best scores where both decided
    one, and each drop's ``keep`` between the other's kept and kept-or-undecided."""
    if any(a is not None and b is not None and a != b
           for a, b in zip(before["best"], after["best"])):
        return False
    # (a drop beside a position one side left undecided at the limit is the other's
    # alone: which side decides a position that takes the whole limit is the clock's)
    for k in before["keep"].keys() ^ after["keep"].keys():
        if None not in (before["best"][int(k) - 1:int(k) + 1]
                        + after["best"][int(k) - 1:int(k) + 1]):
            return False
    for k in before["keep"].keys() & after["keep"].keys():
        kept, undecided = before["keep"][k]
        now, left = after["keep"][k]
        if not set(kept) <= set(now) | set(left) or not set(now) <= set(kept) | set(undecided):
            return False
    return True


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


if __name__ == "__main__":
    main()
