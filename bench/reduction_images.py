"""Benchmark: reduction images of SATLIB formulas (journal §5 decks).

For each formula: reduction time and deck size (cards N, n, c), the proof's play
built from CaDiCaL's model of the formula (time), and method "sat" on the deck
(CNF build and solve seconds, as reported by the method), next to CaDiCaL on the
formula itself.  The ratio deck-solve / formula-solve is what an encoder for
images should bring down.

    .venv/bin/python -m bench.reduction_images                   # uf20-01, uf50-01, uuf50-01
    .venv/bin/python -m bench.reduction_images --no-solve        # sizes and build times only
    .venv/bin/python -m bench.reduction_images ../shared/satlib/uf20-91/uf20-02.cnf
"""

from __future__ import annotations

import argparse
import os
import time

from hanabi_cp.formats import read_dimacs
from hanabi_cp.reduction import play_from_assignment, reduce_cnf
from hanabi_cp.reduction.roundtrip import formula_sat
from hanabi_cp.solvers import solve

SATLIB = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "satlib")
DEFAULT = ("uf20-91/uf20-01.cnf", "uf50-218/uf50-01.cnf", "uuf50-218/uuf50-01.cnf")
# What ``python -m bench --quick`` passes: the uf20 image only.
QUICK_ARGS = [os.path.join(SATLIB, DEFAULT[0])]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--no-solve", action="store_true", help="skip method sat on the decks")
    ap.add_argument("--hand", type=int, default=2)
    args = ap.parse_args(argv)
    files = args.files or [os.path.join(SATLIB, f) for f in DEFAULT]
    formula_sat(read_dimacs(files[0]))        # warm-up: pysat's import is not solve time
    print(f"{'formula':<16} {'v':>3} {'m':>4} {'cards N':>8} {'n':>5} {'c':>4} "
          f"{'reduce s':>8} {'witness s':>9} {'formula s':>9} {'sat build s':>11} "
          f"{'sat solve s':>11} {'verdict':>10} {'solve ratio':>11}")
    for path in files:
        cnf = read_dimacs(path)
        t0 = time.perf_counter()
        red = reduce_cnf(cnf, h=args.hand)
        t_reduce = time.perf_counter() - t0
        t0 = time.perf_counter()
        sat, model = formula_sat(cnf)
        t_formula = time.perf_counter() - t0
        t_witness = float("nan")
        if sat:
            t0 = time.perf_counter()
            play_from_assignment(red, model)
            t_witness = time.perf_counter() - t0
        build = solve_s = float("nan")
        verdict = "-"
        if not args.no_solve:
            out = solve(red.deck, red.h, "sat")
            build = out.stats.get("build_seconds", float("nan"))
            solve_s = out.stats.get("solve_seconds", float("nan"))
            verdict = out.status.value
        d = red.deck
        print(f"{os.path.basename(path):<16} {cnf.num_vars:>3} {cnf.num_clauses:>4} {d.N:>8} "
              f"{d.n:>5} {d.c:>4} {t_reduce:>8.2f} {t_witness:>9.2f} {t_formula:>9.4f} "
              f"{build:>11.2f} {solve_s:>11.2f} {verdict:>10} "
              f"{solve_s / max(t_formula, 1e-6):>11.0f}", flush=True)


if __name__ == "__main__":
    main()
