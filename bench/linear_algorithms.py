"""Benchmark: greedy (r = 1) and lazy (c = 1) are linear in the number of cards N.

Both run on "staircase" decks that they must scan to the end: every color holds its
values in order up to shuffles inside blocks of ``window`` consecutive values, the
colors interleaved at random; lazy's decks add r-1 extra copies of every value at
uniformly random places, about half of which its filter removes as useless.  The
hand size is the block size times the number of colors (greedy) or the block size
(lazy), so the decks are won and the whole play sequence is built.

Prints, per N: CPU seconds of the process (best of a few runs; deck generation
not timed; CPU rather than wall time, because the machine may be shared),
microseconds per card, and the ratio of that to the smallest N's, which stays
roughly flat when the algorithm is linear.

    .venv/bin/python -m bench.linear_algorithms            # N = 10^4 .. 10^6
    .venv/bin/python -m bench.linear_algorithms --max-n 100000
"""

from __future__ import annotations

import argparse
import gc
import random
import time

from hanabi_cp.algorithms.greedy import greedy
from hanabi_cp.algorithms.lazy import lazy
from hanabi_cp.model import Deck

SIZES = (10_000, 30_000, 100_000, 300_000, 1_000_000)
# What ``python -m bench --quick`` passes: sizes up to 10^5 (seconds, not minutes).
QUICK_ARGS = ["--max-n", "100000"]
WINDOW = 4


def staircase(seed: int, n: int, c: int, copies: int, window: int = WINDOW) -> Deck:
    """n values x c colors; see the module docstring."""
    rng = random.Random(seed)
    keyed = []
    for k in range(1, c + 1):
        for start in range(0, n, window):
            block = list(range(start + 1, min(n, start + window) + 1))
            rng.shuffle(block)
            keyed += [(start + j + rng.random(), a, k) for j, a in enumerate(block)]
        for a in range(1, n + 1):
            keyed += [(rng.uniform(0, n), a, k) for _ in range(copies - 1)]
    keyed.sort()
    return Deck(tuple((a, k) for _, a, k in keyed), n, c)


def timed(fn, repeats: int) -> tuple[float, object]:
    """Best of ``repeats`` runs with the cyclic GC off (as timeit does): its full
    collections rescan the million cards of the deck and would bill the algorithm
    for the size of the heap rather than for its own work."""
    best, out = float("inf"), None
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeats):
            t = time.process_time()
            out = fn()
            best = min(best, time.process_time() - t)
    finally:
        gc.enable()
    return best, out


def table(title: str, rows: list) -> None:
    print(title)
    print(f"{'N':>9} {'seed':>6} {'h':>4} {'won':>5} {'seconds':>9} {'us/card':>8} {'ratio':>6}")
    base = rows[0][4] / rows[0][0] if rows else 1.0
    for N, seed, h, won, sec in rows:
        per = sec / N
        print(f"{N:>9} {seed:>6} {h:>4} {str(won):>5} {sec:>9.4f} {per * 1e6:>8.3f} {per / base:>6.2f}")
    print()


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.linear_algorithms", description=__doc__.split("\n")[0])
    ap.add_argument("--max-n", type=int, default=SIZES[-1], help="largest deck size (default 10^6)")
    ap.add_argument("--seed", type=int, default=1, help="base seed; row i uses seed + i")
    args = ap.parse_args(argv)
    sizes = [N for N in SIZES if N <= args.max_n] or [args.max_n]
    colors, copies = 100, 10

    rows = []
    for i, N in enumerate(sizes):
        seed = args.seed + i
        deck = staircase(seed, N // colors, colors, 1)
        h = WINDOW * colors
        sec, (won, _, _) = timed(lambda: greedy(deck, h), 3 if N <= 100_000 else 1)
        rows.append((deck.N, seed, h, won, sec))
    table(f"greedy, r = 1, c = {colors} colors, values in blocks of {WINDOW}", rows)

    rows = []
    for i, N in enumerate(sizes):
        seed = args.seed + 100 + i
        deck = staircase(seed, N // copies, 1, copies)
        sec, res = timed(lambda: lazy(deck, WINDOW), 3 if N <= 100_000 else 1)
        rows.append((deck.N, seed, WINDOW, res.won, sec))
    table(f"lazy, c = 1, {copies} copies of each value, values in blocks of {WINDOW}", rows)


if __name__ == "__main__":
    main()
