"""Benchmark: methods "sat" and "cpsat" end to end on reduction images of SATLIB formulas.

For the first N files of each family (uf20-91, uf50-218, uuf50-218 in
instances/satlib), or for the DIMACS files given, one line per (formula, method):

- the formula (v variables, m clauses) and its image under the reduction (h = 2):
  cards N, values n, colors c, reduction time ("reduce s"), the proof's play built
  from CaDiCaL's model of the formula (``play_from_assignment``, "witness s"; "-"
  for an unsatisfiable formula) and CaDiCaL on the formula itself ("formula s");
- the method on the deck: model size per card (CNF variables and clauses for sat;
  CP-SAT variables and constraints for cpsat), the residual CNF after variable
  elimination ("res vars", "res cls": on an image, about the formula's v and m),
  and the parts of ``solve(deck, h, method)``: windows analysis, build (including
  the analysis; for cpsat also the elimination), solve, the referee's replay of
  the certificate (verify); "total" is the whole call;
- the verdict, checked against the formula (satisfiable: WINNABLE, else
  UNWINNABLE; UNKNOWN after ``--time-limit`` is reported as such, not an error),
  "solve ratio" = solve / formula and "ratio" = total / formula.

Each family ends with the medians per method (the verdict column then counts
verdicts: W winnable, U unwinnable, ? unknown).

    .venv/bin/python -m bench.images                          # 3 files per family, sat
    .venv/bin/python -m bench.images --files 3 --methods sat,cpsat   # side by side
    .venv/bin/python -m bench.images --quick                  # uf20-01, uf50-01, uuf50-01
    .venv/bin/python -m bench.images --no-solve               # reduction sizes and times only
    .venv/bin/python -m bench.images instances/satlib/uf50-218/uf50-02.cnf --methods cpsat
    .venv/bin/python -m bench.images --scale      # random 3-SAT v = 50..250: bench/scale.py
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time

from hanabi_cp.solvers.dimacs import read_dimacs
from hanabi_cp.core.model import Deck
from hanabi_cp.solitaire.reduction import play_from_assignment, reduce_cnf
from hanabi_cp.apps.roundtrip import formula_sat
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.status import Status
from hanabi_cp.solitaire.solve import methods, solve

SATLIB = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "instances", "satlib"))
FAMILIES = ("uf20-91", "uf50-218", "uuf50-218")
# What ``python -m bench --quick`` passes: the uf20-01 image, method sat (seconds).
QUICK_ARGS = [os.path.join(SATLIB, "uf20-91", "uf20-01.cnf")]

# (name, width, format) in print order; "i" integer, "f"/"f4" 3/4 decimals, "r" ratio.
FORMULA_COLUMNS = (("v", 3, "i"), ("m", 4, "i"), ("cards", 7, "i"), ("n", 5, "i"),
                   ("c", 4, "i"), ("reduce s", 8, "f"), ("witness s", 9, "f"),
                   ("formula s", 9, "f4"))
METHOD_COLUMNS = (("vars/card", 9, "f"), ("clauses/card", 12, "f"), ("res vars", 8, "i"),
                  ("res cls", 7, "i"), ("analyse s", 9, "f"),
                  ("build s", 7, "f"), ("solve s", 7, "f"), ("verify s", 8, "f"),
                  ("total s", 7, "f"), ("verdict", 10, "s"), ("solve ratio", 11, "r"),
                  ("ratio", 7, "r"))


def family_files(family: str, count: int) -> list:
    """The first ``count`` files of a family, in SATLIB's numbering (-01, -02, ...)."""
    folder = os.path.join(SATLIB, family)
    prefix = family.split("-")[0] + "-"
    names = [f for f in os.listdir(folder) if f.startswith(prefix) and f.endswith(".cnf")]
    names.sort(key=lambda f: int(f[len(prefix):-4]))
    return [os.path.join(folder, f) for f in names[:count]]


def measure_formula(path: str, h: int):
    """(row, reduction, satisfiable) for one DIMACS file."""
    cnf = read_dimacs(path)
    t0 = time.perf_counter()
    red = reduce_cnf(cnf, h=h)
    t_reduce = time.perf_counter() - t0
    t0 = time.perf_counter()
    sat, model = formula_sat(cnf)
    t_formula = time.perf_counter() - t0
    t_witness = math.nan
    if sat:
        t0 = time.perf_counter()
        play_from_assignment(red, model)        # refereed inside
        t_witness = time.perf_counter() - t0
    d = red.deck
    row = {"v": cnf.num_vars, "m": cnf.num_clauses, "cards": d.N, "n": d.n, "c": d.c,
           "reduce s": t_reduce, "witness s": t_witness, "formula s": t_formula}
    return row, red, sat


def measure_method(path: str, red, sat: bool, method: str, t_formula: float,
                   time_limit: float | None) -> dict:
    t0 = time.perf_counter()
    out = solve(red.deck, red.h, method, SolveOptions(time_limit=time_limit))
    total = time.perf_counter() - t0
    want = Status.WINNABLE if sat else Status.UNWINNABLE
    if out.status not in (want, Status.UNKNOWN):
        raise SystemExit(f"{path}: method {method} says {out.status.value}, the formula is "
                         f"{'satisfiable' if sat else 'unsatisfiable'}")
    st = out.stats
    solve_s = st.get("solve_seconds", math.nan)
    return {"vars/card": st.get("variables_per_card", math.nan),
            "clauses/card": st.get("constraints_per_card", st.get("clauses_per_card", math.nan)),
            "res vars": st.get("residual_variables", math.nan),
            "res cls": st.get("residual_clauses", math.nan),
            "analyse s": st.get("preprocess_seconds", math.nan),
            "build s": st.get("build_seconds", math.nan), "solve s": solve_s,
            "verify s": total - st["seconds"], "total s": total, "verdict": out.status.value,
            "solve ratio": solve_s / max(t_formula, 1e-6),
            "ratio": total / max(t_formula, 1e-6)}


def _cell(x, width: int, kind: str) -> str:
    if isinstance(x, str):
        return f"{x:>{width}}"
    if isinstance(x, float) and math.isnan(x):
        return f"{'-':>{width}}"
    if kind == "i":
        return f"{int(x):>{width}}"
    if kind == "r":
        return f"{x:>{width}.0f}"
    if kind == "f4":
        return f"{x:>{width}.4f}"
    return f"{x:>{width}.3f}"


def _line(name: str, method: str, row: dict, with_method: bool) -> str:
    cells = [_cell(row[col], w, k) for col, w, k in FORMULA_COLUMNS]
    if with_method:
        cells.append(f"{method:<6}")
        cells += [_cell(row[col], w, k) for col, w, k in METHOD_COLUMNS]
    return f"{name:<14} " + " ".join(cells)


def _header(with_method: bool) -> str:
    cells = [f"{col:>{w}}" for col, w, _ in FORMULA_COLUMNS]
    if with_method:
        cells.append(f"{'method':<6}")
        cells += [f"{col:>{w}}" for col, w, _ in METHOD_COLUMNS]
    return f"{'formula':<14} " + " ".join(cells)


def _median(rows: list) -> dict:
    med = {}
    for col in rows[0]:
        if col == "verdict":
            counts = {v: sum(r[col] == v for r in rows) for v in ("WINNABLE", "UNWINNABLE",
                                                                   "UNKNOWN")}
            med[col] = " ".join(f"{k}{v[0] if v != 'UNKNOWN' else '?'}"
                                for v, k in counts.items() if k)
        else:
            vals = [r[col] for r in rows if not math.isnan(r[col])]
            med[col] = statistics.median(vals) if vals else math.nan
    return med


def main(argv=None) -> None:
    argv = sys.argv[1:] if argv is None else list(argv)
    if "--scale" in argv:
        from . import scale
        scale.main([a for a in argv if a != "--scale"])
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", help="DIMACS files (default: the SATLIB families)")
    ap.add_argument("--files", type=int, default=3, help="files per family (default 3)")
    ap.add_argument("--quick", action="store_true", help="one file per family")
    ap.add_argument("--methods", default="sat", metavar="A,B",
                    help="methods to run on each image (default: sat; e.g. sat,cpsat)")
    ap.add_argument("--time-limit", type=float, default=60.0, metavar="S",
                    help="seconds per solve; then UNKNOWN (default 60)")
    ap.add_argument("--hand", type=int, default=2, help="hand size of the images (default 2)")
    ap.add_argument("--no-solve", action="store_true",
                    help="reduction sizes and times only, no method on the decks")
    ap.add_argument("--scale", action="store_true",
                    help="instead: images of random 3-SAT at v = 50..250 "
                         "(bench/scale.py; `--scale --help` for its options)")
    args = ap.parse_args(argv)
    names = [] if args.no_solve else [m.strip() for m in args.methods.split(",") if m.strip()]
    unknown = [m for m in names if m not in methods()]
    if unknown:
        ap.error(f"unknown method {unknown[0]!r}; choose from {', '.join(sorted(methods()))}")
    if args.paths:
        groups = [("given", args.paths)]
    else:
        count = 1 if args.quick else args.files
        groups = [(fam, family_files(fam, count)) for fam in FAMILIES]
    # Warm-up: first-call imports (pysat, OR-Tools, the referee) are not solve or verify time.
    formula_sat(read_dimacs(groups[0][1][0]))
    for m in names:
        solve(Deck.of([(2, 1), (1, 1)]), 1, m)
    with_method = bool(names)
    print(_header(with_method), flush=True)
    for fam, paths in groups:
        per_method: dict = {m: [] for m in names}
        formulas = []
        for path in paths:
            frow, red, sat = measure_formula(path, args.hand)
            formulas.append(frow)
            name = os.path.basename(path)[:-4]
            if not names:
                print(_line(name, "", frow, False), flush=True)
            for m in names:
                row = {**frow, **measure_method(path, red, sat, m, frow["formula s"],
                                                args.time_limit)}
                per_method[m].append(row)
                print(_line(name, m, row, True), flush=True)
        if len(paths) > 1:
            label = f"median {fam.split('-')[0]}"
            if not names:
                print(_line(label, "", _median(formulas), False))
            for m in names:
                print(_line(label, m, _median(per_method[m]), True))


if __name__ == "__main__":
    main()
