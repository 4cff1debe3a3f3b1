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

CPU time per card still rises a few times from 10^4 to 10^6 cards: the algorithms
index per-value and per-color arrays at random, which stop fitting in the caches.
``--instructions`` separates that from the work done: it also counts the machine
instructions of each run, in a subprocess under ``valgrind --tool=callgrind``, and
prints instructions per card and their ratio, which do not depend on the caches
(nor on the load of the machine).  Only the algorithm is counted: the child builds
the deck with collection off and calls the algorithm through ``functools.reduce``,
the one C function toggled on (``--toggle-collect=functools_reduce``).  It takes
about 50 times the native time (mostly building the decks), so its default sizes
stop at 3*10^5 (about 2 minutes).  The child runs with PYTHONHASHSEED=0, so the
counts repeat to within 0.1 %.

    .venv/bin/python -m bench.linear_algorithms            # N = 10^4 .. 10^6
    .venv/bin/python -m bench.linear_algorithms --max-n 100000
    .venv/bin/python -m bench.linear_algorithms --instructions   # N = 10^4 .. 3*10^5
    .venv/bin/python -m bench.linear_algorithms --instructions --callgrind-dir cg
    callgrind_annotate --inclusive=no cg/greedy-300000.callgrind.out    # where they go
"""

from __future__ import annotations

import argparse
import functools
import gc
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

from hanabi_cp.solitaire.methods.greedy import greedy
from hanabi_cp.solitaire.methods.lazy import lazy
from hanabi_cp.core.model import Deck
from hanabi_cp.core.status import Status

SIZES = (10_000, 30_000, 100_000, 300_000, 1_000_000)
INSTRUCTION_MAX_N = 300_000     # callgrind is ~50x slower than native Python
# What ``python -m bench --quick`` passes: sizes up to 10^5 (seconds, not minutes).
QUICK_ARGS = ["--max-n", "100000"]
WINDOW = 4
COLORS = 100      # greedy's decks
COPIES = 10       # lazy's decks
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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


def greedy_case(seed: int, N: int):
    """(deck, h, run) for greedy's row of size N: run() -> won."""
    deck = staircase(seed, N // COLORS, COLORS, 1)
    h = WINDOW * COLORS
    return deck, h, lambda: greedy(deck, h).status is Status.WINNABLE


def lazy_case(seed: int, N: int):
    deck = staircase(seed, N // COPIES, 1, COPIES)
    return deck, WINDOW, lambda: lazy(deck, WINDOW).status is Status.WINNABLE


# name -> (case builder, seed offset, table title)
CASES = {
    "greedy": (greedy_case, 0, f"greedy, r = 1, c = {COLORS} colors, values in blocks of {WINDOW}"),
    "lazy": (lazy_case, 100, f"lazy, c = 1, {COPIES} copies of each value, values in blocks of {WINDOW}"),
}


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


def callgrind_total(text: str) -> int:
    """The instruction count of a callgrind output file: its ``totals:`` line, else
    its ``summary:`` line (first event, Ir by default).

    >>> callgrind_total("events: Ir\\nfl=x\\n1 5\\nsummary: 41968638\\ntotals: 41968638\\n")
    41968638
    """
    found = {}
    for line in text.splitlines():
        m = re.match(r"(totals|summary):\s*(\d+)", line)
        if m:
            found[m.group(1)] = int(m.group(2))
    for key in ("totals", "summary"):
        if key in found:
            return found[key]
    raise ValueError("no 'totals:' or 'summary:' line in callgrind output")


def child(name: str, N: int, seed: int) -> None:
    """Run inside valgrind: build the deck (not counted), then run the algorithm
    inside functools.reduce, the function callgrind toggles collection on."""
    build, _, _ = CASES[name]
    deck, _, run = build(seed, N)
    gc.collect()
    gc.disable()      # as in timed(): no full collections billed to the algorithm
    won = functools.reduce(lambda _acc, _x: run(), [None], None)
    print(deck.N, won)


def count_instructions(name: str, N: int, seed: int, valgrind: str,
                       keep: str | None = None) -> tuple[int, int, bool]:
    """(instructions, deck size, won) of one run of the algorithm, under callgrind;
    the output file is kept in ``keep`` (for callgrind_annotate) when given."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(keep or tmp, f"{name}-{N}.callgrind.out")
        cmd = [valgrind, "--tool=callgrind", f"--callgrind-out-file={out}",
               "--collect-atstart=no", "--toggle-collect=functools_reduce",
               sys.executable, "-m", "bench.linear_algorithms", "--child", f"{name}:{N}:{seed}"]
        # A fixed hash seed: str hashes (dict probes) are otherwise drawn per process.
        env = dict(os.environ, PYTHONHASHSEED="0")
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
            raise SystemExit(f"bench.linear_algorithms: valgrind run for {name} N={N} failed: {last}")
        with open(out) as f:
            instructions = callgrind_total(f.read())
    size, won = proc.stdout.split()
    if instructions == 0:
        raise SystemExit("bench.linear_algorithms: callgrind counted no instructions "
                         "(is libpython built without symbols?)")
    return instructions, int(size), won == "True"


def table(title: str, rows: list) -> None:
    counted = bool(rows) and len(rows[0]) > 5
    print(title)
    head = f"{'N':>9} {'seed':>6} {'h':>4} {'won':>5} {'seconds':>9} {'us/card':>8} {'ratio':>6}"
    print(head + (f" {'instr/card':>10} {'ratio':>6}" if counted else ""))
    base = rows[0][4] / rows[0][0] if rows else 1.0
    ibase = rows[0][5] / rows[0][0] if counted else 1.0
    for N, seed, h, won, sec, *instr in rows:
        per = sec / N
        line = f"{N:>9} {seed:>6} {h:>4} {str(won):>5} {sec:>9.4f} {per * 1e6:>8.3f} {per / base:>6.2f}"
        if instr:
            iper = instr[0] / N
            line += f" {iper:>10.1f} {iper / ibase:>6.3f}"
        print(line)
    print()


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.linear_algorithms", description=__doc__.split("\n")[0])
    ap.add_argument("--max-n", type=int, default=None,
                    help=f"largest deck size (default 10^6, or {INSTRUCTION_MAX_N} with --instructions)")
    ap.add_argument("--seed", type=int, default=1, help="base seed; row i uses seed + i (greedy), seed + 100 + i (lazy)")
    ap.add_argument("--instructions", action="store_true",
                    help="also count instructions per card under valgrind's callgrind (cache-independent)")
    ap.add_argument("--callgrind-dir", metavar="DIR",
                    help="with --instructions: keep callgrind's output files in DIR (for callgrind_annotate)")
    ap.add_argument("--child", help=argparse.SUPPRESS)    # NAME:N:SEED, run under valgrind
    args = ap.parse_args(argv)
    if args.child:
        name, N, seed = args.child.split(":")
        child(name, int(N), int(seed))
        return
    valgrind = None
    if args.instructions:
        valgrind = shutil.which("valgrind")
        if valgrind is None:
            raise SystemExit("bench.linear_algorithms: --instructions needs valgrind, which is not on PATH")
        if args.callgrind_dir:
            os.makedirs(args.callgrind_dir, exist_ok=True)
            args.callgrind_dir = os.path.abspath(args.callgrind_dir)
    max_n = args.max_n if args.max_n is not None else (INSTRUCTION_MAX_N if valgrind else SIZES[-1])
    sizes = [N for N in SIZES if N <= max_n] or [max_n]

    start = time.perf_counter()
    for name, (build, offset, title) in CASES.items():
        rows = []
        for i, N in enumerate(sizes):
            seed = args.seed + offset + i
            deck, h, run = build(seed, N)
            sec, won = timed(run, 3 if N <= 100_000 else 1)
            row = [deck.N, seed, h, won, sec]
            del deck, run
            if valgrind:
                instructions, size, cwon = count_instructions(name, N, seed, valgrind, args.callgrind_dir)
                if (size, cwon) != (row[0], won):
                    raise SystemExit(f"bench.linear_algorithms: the valgrind child of {name} N={N} "
                                     f"built another deck ({size} cards, won {cwon})")
                row.append(instructions)
            rows.append(row)
        table(title, rows)
    if valgrind:
        print(f"instruction counts by callgrind (--toggle-collect=functools_reduce); "
              f"wall time {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
