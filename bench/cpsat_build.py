"""Benchmark: building the CP-SAT models of reduction images, call by call against bulk.

On the images (h = 2) of the first ``--files`` formulas of uf50-218 and uuf50-218,
in one process and interleaved, the CPU seconds (``time.process_time``) of:

- "callwise": the decision model built one OR-Tools call per variable and
  constraint, as the first release did (bench/cpsat_callwise.py), windows
  analysis included;
- "bulk": the same model written into the proto as text (solitaire/encoders/cpsat.py,
  ``build_decide``; tests/test_cpsat_bulk.py checks the protos are identical);
- "residual": what method "cpsat" builds on a deck of 5,000 cards or more
  (solitaire/encoders/cpsat_residual.py: analysis, compact CNF, variable elimination and
  the formula-sized model);
- with ``--maximize``, the score model (``build_maximize``) both ways.

Ratios are callwise / bulk and callwise / residual, per file and as medians.

    .venv/bin/python -m bench.cpsat_build                   # 2 files per family
    .venv/bin/python -m bench.cpsat_build --files 3 --maximize
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time

from bench import cpsat_callwise
from bench.images import family_files
from hanabi_cp.solitaire.encoders import cpsat
from hanabi_cp.solitaire.encoders.cpsat_residual import build_residual
from hanabi_cp.solvers.dimacs import read_dimacs
from hanabi_cp.solitaire.reduction import reduce_cnf

FAMILIES = ("uf50-218", "uuf50-218")
QUICK_ARGS = ["--files", "1"]


def cpu(f) -> float:
    gc.collect()
    t = time.process_time()
    f()
    return time.process_time() - t


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(prog="python -m bench.cpsat_build",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--files", type=int, default=2, help="files per family (default 2)")
    ap.add_argument("--maximize", action="store_true", help="also the score model")
    args = ap.parse_args(argv)
    cpsat._ortools()                           # imports are not build time
    cols = ["callwise", "bulk", "residual"] + (["max callwise", "max bulk"]
                                               if args.maximize else [])
    print(f"{'image':<10} {'cards':>8} " + " ".join(f"{c:>12}" for c in cols)
          + f" {'call/bulk':>9} {'call/res':>8}" + (f" {'max c/b':>7}" if args.maximize else ""),
          flush=True)
    rows = []
    for fam in FAMILIES:
        for path in family_files(fam, args.files):
            deck = reduce_cnf(read_dimacs(path), h=2).deck
            t = {"callwise": cpu(lambda: cpsat_callwise.build_decide(deck, 2)),
                 "bulk": cpu(lambda: cpsat.build_decide(deck, 2)),
                 "residual": cpu(lambda: build_residual(deck, 2))}
            if args.maximize:
                t["max callwise"] = cpu(lambda: cpsat_callwise.build_maximize(deck, 2))
                t["max bulk"] = cpu(lambda: cpsat.build_maximize(deck, 2))
            t["call/bulk"] = t["callwise"] / t["bulk"]
            t["call/res"] = t["callwise"] / t["residual"]
            line = (f"{path.rsplit('/', 1)[-1][:-4]:<10} {deck.N:>8} "
                    + " ".join(f"{t[c]:>12.3f}" for c in cols)
                    + f" {t['call/bulk']:>9.2f} {t['call/res']:>8.2f}")
            if args.maximize:
                t["max c/b"] = t["max callwise"] / t["max bulk"]
                line += f" {t['max c/b']:>7.2f}"
            print(line, flush=True)
            rows.append(t)
    med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
    print(f"{'median':<10} {'':>8} " + " ".join(f"{med[c]:>12.3f}" for c in cols)
          + f" {med['call/bulk']:>9.2f} {med['call/res']:>8.2f}"
          + (f" {med['max c/b']:>7.2f}" if args.maximize else ""))
    return med


if __name__ == "__main__":
    main()
