"""Solver times on the same instances in every format, as ratios to CaDiCaL.

    .venv/bin/python -m bench.model_formats [--quick]

Each instance (reduction images of seeded random 3-CNF formulas, h = 2, and the
bundled standard decks) is written by `hanabi-cp encode --format F` and solved by
its community's solver on the file: CaDiCaL (pysat) on the DIMACS, CP-SAT on the
proto (1 worker, default parameters), Gecode through MiniZinc on model + data,
minisat+ on the OPB, RC2 on the WCNF (the score model; the others decide).  Times
are wall seconds of the solver alone (CP-SAT in this process, reading the file
included; a process start included for the others: MiniZinc's flattening,
minisat+, RC2's Python); the table prints each as a
ratio to CaDiCaL on the formula the image came from (for a standard deck, on the
deck's own CNF); CaDiCaL's times are the least of 7 runs, the others one run.  Solvers not installed are left out.  No assertion: a benchmark.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _cadical(clauses, repeat: int = 7) -> float:
    """The least of ``repeat`` runs: a sub-millisecond baseline is all noise otherwise
    (the first call, a busy machine)."""
    from pysat.solvers import Solver
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        with Solver(name="cadical195", bootstrap_with=clauses) as s:
            s.solve()
        best = min(best, time.perf_counter() - t0)
    return best


def _timed(argv) -> float:
    t0 = time.perf_counter()
    subprocess.run(argv, capture_output=True, text=True, timeout=3600, check=False)
    return time.perf_counter() - t0


def instances(quick: bool):
    from hanabi_cp.io import read_deck_file
    from hanabi_cp.apps.generators import random_kcnf
    from hanabi_cp.solitaire.reduction import reduce_cnf
    for name in ("standard-winnable-h2.txt", "standard-unwinnable-h2.txt"):
        df = read_deck_file(os.path.join(ROOT, "instances", name))
        yield name.removesuffix(".txt"), df.deck, df.h, None
    sizes = [(3, 13, 1), (3, 13, 2)] + ([] if quick else [(4, 17, 1), (5, 21, 3), (10, 43, 1)])
    for v, m, seed in sizes:
        cnf = random_kcnf(seed, v, m, 3)
        yield f"image v{v} m{m} s{seed}", reduce_cnf(cnf, h=2).deck, 2, [list(c) for c in cnf.clauses]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.model_formats")
    ap.add_argument("--quick", action="store_true", help="two small images only")
    args = ap.parse_args(argv)
    from hanabi_cp.solitaire.encoders import pbmodels, score
    from hanabi_cp.solitaire.encoders.cnf import build
    from hanabi_cp.solitaire.encoders.mzn import MODEL_PATH, build as mzn_build
    from hanabi_cp.solitaire.exports import export
    from hanabi_cp.solitaire.methods import minizinc, pb
    have_mzn, have_pb = minizinc.missing() is None, pb.missing() is None
    cols = ["cards", "cadical formula s", "cadical dimacs", "cpsat", "gecode mzn", "minisat+ opb",
            "rc2 wcnf"]
    print(" | ".join(cols))
    for name, deck, h, formula in instances(args.quick):
        enc = build(deck, h)
        cnf = [list(c) for c in enc.clauses]
        base = _cadical(formula if formula is not None else cnf)
        row = {"dimacs": _cadical(cnf)}
        with tempfile.TemporaryDirectory() as tmp:
            proto = os.path.join(tmp, "m.pb")
            with open(proto, "wb") as f:
                f.write(dict(export("cpsat", deck, h, False, [], True).files)["model"])
            # In this process (OR-Tools is imported already): read the file and solve.
            from bench.cpsat_proto import solve_file
            t0 = time.perf_counter()
            solve_file([proto, os.path.join(tmp, "r.pb")])
            row["cpsat"] = time.perf_counter() - t0
            if have_mzn:
                data = os.path.join(tmp, "d.dzn")
                with open(data, "w") as f:
                    f.write(mzn_build(deck, h).formula)
                row["mzn"] = _timed(["minizinc", "--solver", "gecode", MODEL_PATH, data])
            if have_pb:
                opb = os.path.join(tmp, "m.opb")
                with open(opb, "w") as f:
                    f.write(pbmodels.opb_win(deck, h)[1])
                row["opb"] = _timed(["minisat+", opb])
            if score.too_large(deck) is None:
                wcnf = os.path.join(tmp, "m.wcnf")
                with open(wcnf, "w") as f:
                    f.write(pbmodels.wcnf(deck, h)[1])
                row["wcnf"] = _timed([sys.executable, "-m", "pysat.examples.rc2", wcnf])
        cells = [f"{name} ({deck.N})", f"{base * 1000:.3f} ms"]
        for key in ("dimacs", "cpsat", "mzn", "opb", "wcnf"):
            cells.append(f"{row[key] / base:,.0f}x ({row[key]:.3g} s)" if key in row else "-")
        print(" | ".join(cells), flush=True)


if __name__ == "__main__":
    main()
