"""Benchmark: how many steps of `study hard`'s climb one round of N workers settles.

With --jobs N the climb evaluates the decks of its next N steps at once, proposed
from guessed outcomes, and a step uses an evaluation only if its real state
proposes that deck (hanabi_cp/apps/studies/hard.py, ``_climb``).  A round costs the time
of one evaluation when the evaluations dominate, so

    steps per round = steps / rounds

is the climb's speed-up with N workers on an idle machine (the baseline and the
confirmations, independent tasks, gain N).  It is a count, not a time: the same on
any machine.  Each run is made in this process by a pool that only claims to be N
wide, and its CSV is checked to be the serial one byte for byte.

    .venv/bin/python -m bench.hard_lookahead                # 400 steps, N = 2, 4, 8
    .venv/bin/python -m bench.hard_lookahead --quick        # 100 steps
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from hanabi_cp.runtime.executors import SERIAL, TaskPool
from hanabi_cp.apps.studies import hard

# (method, n, c, h): sizes of the README's figures.
CASES = (("cpsat", 10, 3, 2), ("cpsat", 3, 8, 1), ("search", 8, 3, 1), ("sat", 10, 3, 1))


class Claimed(TaskPool):
    """Runs here, one task after another, but reports ``width``; counts the rounds."""

    def __init__(self, width: int):
        super().__init__(SERIAL)
        self.claimed, self.rounds, self.evaluated = width, 0, 0

    @property
    def width(self) -> int:
        return self.claimed

    def run(self, func, tasks, window=None):
        tasks = list(tasks)
        if tasks:
            self.rounds += 1
            self.evaluated += len(tasks)
        return super().run(func, tasks, window)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.hard_lookahead",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--widths", default="2,4,8", help="comma-separated N")
    ap.add_argument("--quick", action="store_true", help="100 steps")
    args = ap.parse_args(argv)
    steps = 100 if args.quick else args.steps
    widths = [int(w) for w in args.widths.split(",")]
    print(f"study hard climb, seed 1, r = 2 exactly, {steps} steps, no baseline")
    print(f"{'method':<7} {'n':>3} {'c':>3} {'h':>2} {'N workers':>9} {'rounds':>7} "
          f"{'evaluated':>9} {'steps/round':>11}")
    with tempfile.TemporaryDirectory() as tmp:
        for method, n, c, h in CASES:
            serial = os.path.join(tmp, f"{method}-{n}-{c}-{h}-1.csv")
            hard.run(serial, 1, [(n, c, h)], 2, True, method, steps=steps, random_count=0)
            want = Path(serial).read_text()
            for width in widths:
                pool = Claimed(width)
                path = os.path.join(tmp, f"{method}-{n}-{c}-{h}-{width}.csv")
                hard.run(path, 1, [(n, c, h)], 2, True, method, steps=steps, random_count=0,
                         pool=pool)
                if Path(path).read_text() != want:
                    raise SystemExit(f"{method} n={n} c={c} h={h} N={width}: not the serial trace")
                print(f"{method:<7} {n:>3} {c:>3} {h:>2} {width:>9} {pool.rounds:>7} "
                      f"{pool.evaluated:>9} {steps / pool.rounds:>11.2f}")


if __name__ == "__main__":
    main()
