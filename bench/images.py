"""Benchmark: method "sat" end to end on reduction images of SATLIB formulas (h = 2).

For the first N files of each family (uf20-91, uf50-218, uuf50-218 in
../shared/satlib) it prints the image size (cards, CNF variables and clauses per
card), the reduction time, and the parts of ``solve(deck, 2, "sat")``: windows
analysis, CNF build (including the analysis), SAT solve, and the referee's replay
of the certificate (verify); "total" is the whole ``solve`` call.  "ratio" is
total / (CaDiCaL on the formula itself).  Each family ends with its medians.  The
answer is checked against the family (uf: WINNABLE, uuf: UNWINNABLE).

    .venv/bin/python -m bench.images                 # 3 files per family
    .venv/bin/python -m bench.images --files 5
    .venv/bin/python -m bench.images --quick         # uf20-01, uf50-01, uuf50-01
    .venv/bin/python -m bench.images ../shared/satlib/uf50-218/uf50-02.cnf
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from hanabi_cp.formats import read_dimacs
from hanabi_cp.model import Deck
from hanabi_cp.reduction import reduce_cnf
from hanabi_cp.reduction.roundtrip import formula_sat
from hanabi_cp.solvers import Status, solve

SATLIB = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "satlib")
FAMILIES = ("uf20-91", "uf50-218", "uuf50-218")
COLUMNS = ("cards", "vars/card", "clauses/card", "reduce s", "analyse s", "build s",
           "solve s", "verify s", "total s", "formula s", "ratio")


def family_files(family: str, count: int) -> list:
    """The first ``count`` files of a family, in SATLIB's numbering (-01, -02, ...)."""
    folder = os.path.join(SATLIB, family)
    prefix = family.split("-")[0] + "-"
    names = [f for f in os.listdir(folder) if f.startswith(prefix) and f.endswith(".cnf")]
    names.sort(key=lambda f: int(f[len(prefix):-4]))
    return [os.path.join(folder, f) for f in names[:count]]


def measure(path: str, h: int = 2) -> dict:
    cnf = read_dimacs(path)
    t0 = time.perf_counter()
    red = reduce_cnf(cnf, h=h)
    t_reduce = time.perf_counter() - t0
    t0 = time.perf_counter()
    sat, _ = formula_sat(cnf)
    t_formula = time.perf_counter() - t0
    t0 = time.perf_counter()
    out = solve(red.deck, h, "sat")
    total = time.perf_counter() - t0
    want = Status.WINNABLE if sat else Status.UNWINNABLE
    if out.status is not want:
        raise SystemExit(f"{path}: method sat says {out.status.value}, the formula is "
                         f"{'satisfiable' if sat else 'unsatisfiable'}")
    st = out.stats
    return {"cards": red.deck.N, "vars/card": st.get("variables_per_card", 0.0),
            "clauses/card": st.get("clauses_per_card", 0.0), "reduce s": t_reduce,
            "analyse s": st.get("preprocess_seconds", 0.0),
            "build s": st.get("build_seconds", 0.0), "solve s": st.get("solve_seconds", 0.0),
            "verify s": total - st["seconds"], "total s": total, "formula s": t_formula,
            "ratio": total / max(t_formula, 1e-6)}


def _row(name: str, row: dict) -> str:
    cells = []
    for col in COLUMNS:
        x = row[col]
        cells.append(f"{x:>7}" if col == "cards" else
                     f"{x:>{len(col)}.0f}" if col == "ratio" else f"{x:>{len(col)}.3f}")
    return f"{name:<14} " + " ".join(cells)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", help="DIMACS files (default: the SATLIB families)")
    ap.add_argument("--files", type=int, default=3, help="files per family (default 3)")
    ap.add_argument("--quick", action="store_true", help="one file per family")
    args = ap.parse_args(argv)
    if args.paths:
        groups = [("given", args.paths)]
    else:
        count = 1 if args.quick else args.files
        groups = [(fam, family_files(fam, count)) for fam in FAMILIES]
    # Warm-up: first-call imports (pysat, the referee) are not solve or verify time.
    formula_sat(read_dimacs(groups[0][1][0]))
    solve(Deck.of([(2, 1), (1, 1)]), 1, "sat")
    print(f"{'formula':<14} " + " ".join(f"{c:>7}" if c == "cards" else c for c in COLUMNS))
    for fam, paths in groups:
        rows = []
        for path in paths:
            row = measure(path)
            rows.append(row)
            print(_row(os.path.basename(path)[:-4], row), flush=True)
        if len(rows) > 1:
            med = {col: statistics.median(r[col] for r in rows) for col in COLUMNS}
            med["cards"] = int(med["cards"])
            print(_row(f"median {fam.split('-')[0]}", med))


if __name__ == "__main__":
    main()
