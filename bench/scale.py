"""Benchmark: reduction images at SAT-competition scale (``python -m bench.images --scale``).

For v = 50, 75, 100, 150, 200, 250 variables and m = round(4.26 v) clauses (the
random 3-SAT threshold), one formula per size from ``random_kcnf(seed, v, m)``; its
image under the reduction (h = 2) is written once as a text deck.  Then, for each
method, a fresh child process reads the deck file and calls ``solve`` (what
``hanabi-cp solve IMAGE --hand 2 --method M`` does), so that its peak RSS (the
whole process: interpreter, libraries, deck, encoding, solver) belongs to that
point alone.  Per (size, method):

- cards N; read / build / solve / total wall seconds (build: windows analysis,
  CNF, variable elimination, and for cpsat the CP-SAT model; solve: the SAT or
  CP-SAT search on the residual; total: reading the deck, ``solve`` and the
  referee) and the CPU seconds of all that ("cpu s": the machine may be shared,
  and wall time then grows with the load; CPU time hardly does);
- peak RSS (the child's own: VmHWM where /proc has it); us (CPU) and bytes per card;
- the residual CNF (variables and clauses per formula clause) and CaDiCaL on the
  formula itself ("formula s", best of 3): "solve x" = solve / formula, "total x"
  = cpu / formula;
- the verdict, checked against the formula.

A method that runs past ``--cap`` seconds at one size (UNKNOWN) is not run at the
larger sizes; the table says so.  ``--csv`` and ``--figure`` write the rows and a
log-log figure of us and bytes per card against N.

    .venv/bin/python -m bench.images --scale                       # the README table
    .venv/bin/python -m bench.images --scale --sizes 50,75 --methods sat
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

SIZES = (50, 75, 100, 150, 200, 250)
RATIO = 4.26
SEED = 2026
CAP = 300.0
# `python -m bench --quick` promises a minute or two: the two smallest images, one method.
QUICK_ARGS = ["--sizes", "50,75", "--methods", "sat"]

COLUMNS = (("v", 4, "d"), ("m", 5, "d"), ("cards", 9, ","), ("method", 6, "s"),
           ("read s", 6, ".2f"), ("build s", 7, ".2f"), ("solve s", 7, ".3f"),
           ("total s", 7, ".2f"), ("cpu s", 6, ".2f"), ("peak MB", 7, ".0f"), ("us/card", 7, ".2f"),
           ("B/card", 6, ".0f"), ("res vars/m", 10, ".3f"), ("res cls/m", 9, ".3f"),
           ("formula s", 9, ".4f"), ("solve x", 7, ".1f"), ("total x", 7, ".0f"),
           ("verdict", 10, "s"))


def point(path: str, method: str, cap: float) -> dict:
    """One measurement, in this (fresh) process: read the deck, solve, referee."""
    from hanabi_cp.io import read_deck_file
    from hanabi_cp.core.options import SolveOptions
    from hanabi_cp.solitaire.solve import get, solve

    get(method).prepare()           # imports (OR-Tools) are not the method's time
    use0 = resource.getrusage(resource.RUSAGE_SELF)
    cpu0 = use0.ru_utime + use0.ru_stime
    t0 = time.perf_counter()
    deck = read_deck_file(path).deck
    t_read = time.perf_counter() - t0
    out = solve(deck, 2, method, SolveOptions(time_limit=cap))
    total = time.perf_counter() - t0
    st = out.stats
    use = resource.getrusage(resource.RUSAGE_SELF)
    peak = _peak_rss(use)
    return {"cards": deck.N, "read s": t_read, "build s": st.get("build_seconds", float("nan")),
            "solve s": st.get("solve_seconds", float("nan")), "total s": total,
            "peak bytes": peak, "verdict": out.status.value,
            "cpu s": use.ru_utime + use.ru_stime - cpu0,
            "residual variables": st.get("residual_variables"),
            "residual clauses": st.get("residual_clauses"), "verified": out.verified}


def _peak_rss(use: resource.struct_rusage) -> int:
    """This process's peak RSS in bytes since it was exec'd.

    ``ru_maxrss`` is not that on Linux: it keeps the high-water mark of the forked
    parent's pages, so a child of a parent that just built a large image reports at
    least the parent's RSS.  VmHWM belongs to the process's own address space."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return use.ru_maxrss * 1024


def _child(path: str, method: str, cap: float) -> dict:
    cmd = [sys.executable, "-m", "bench.scale", "--point", path, method, str(cap)]
    root = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
    res = subprocess.run(cmd, capture_output=True, text=True, cwd=root)
    if res.returncode != 0:
        raise SystemExit(f"bench point {method} {path} failed:\n{res.stderr}")
    return json.loads(res.stdout.splitlines()[-1])


def measure(v: int, seed: int, methods: list, cap: float, folder: str) -> list:
    from hanabi_cp.io import write_deck
    from hanabi_cp.apps.generators import random_kcnf
    from hanabi_cp.solitaire.reduction import reduce_cnf
    from hanabi_cp.apps.roundtrip import formula_sat

    m = round(RATIO * v)
    formula = random_kcnf(seed, v, m)
    t_formula = float("inf")
    for _ in range(3):              # the best of three: the formula takes milliseconds
        t0 = time.perf_counter()
        sat, _ = formula_sat(formula)
        t_formula = min(t_formula, time.perf_counter() - t0)
    red = reduce_cnf(formula, h=2, max_cards=None)
    path = os.path.join(folder, f"image-v{v}.txt")
    write_deck(path, red.deck, h=2, force=True)
    del red
    rows = []
    for method in methods:
        r = _child(path, method, cap)
        want = "WINNABLE" if sat else "UNWINNABLE"
        if r["verdict"] not in (want, "UNKNOWN"):
            raise SystemExit(f"v={v} seed={seed}: {method} says {r['verdict']}, the formula "
                             f"is {'satisfiable' if sat else 'unsatisfiable'}")
        n = r["cards"]
        rv, rc = r["residual variables"], r["residual clauses"]
        rows.append({"v": v, "m": m, "cards": n, "method": method, "read s": r["read s"],
                     "build s": r["build s"], "solve s": r["solve s"],
                     "total s": r["total s"], "cpu s": r["cpu s"],
                     "peak MB": r["peak bytes"] / 2**20,
                     "us/card": 1e6 * r["cpu s"] / n, "B/card": r["peak bytes"] / n,
                     "res vars/m": rv / m if rv is not None else float("nan"),
                     "res cls/m": rc / m if rc is not None else float("nan"),
                     "formula s": t_formula,
                     "solve x": r["solve s"] / max(t_formula, 1e-6),
                     "total x": r["cpu s"] / max(t_formula, 1e-6),
                     "verdict": r["verdict"], "satisfiable": sat})
    os.remove(path)
    return rows


def _fmt(x, width: int, spec: str) -> str:
    if isinstance(x, float) and x != x:
        return f"{'-':>{width}}"
    return f"{x:>{width}{spec}}" if spec != "s" else f"{x:>{width}}"


def figure(rows: list, path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for method, marker in (("sat", "o"), ("cpsat", "s")):
        pts = [r for r in rows if r["method"] == method and r["verdict"] != "UNKNOWN"]
        if not pts:
            continue
        xs = [r["cards"] for r in pts]
        axes[0].plot(xs, [r["us/card"] for r in pts], marker=marker, label=method)
        axes[1].plot(xs, [r["B/card"] for r in pts], marker=marker, label=method)
    axes[0].set_ylabel("end-to-end CPU time per card (us)")
    axes[1].set_ylabel("peak RSS per card (bytes)")
    axes[1].axhline(300, color="gray", linestyle=":", label="target 300 B/card")
    # Whole decades on both axes: a flat line (linear scaling) must look flat.
    axes[0].set_ylim(1, 100)
    axes[1].set_ylim(100, 10_000)
    for ax in axes:
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(1e5, 1e7)
        ax.set_xlabel("cards N (images of random 3-SAT, v = 50 .. 250, m = 4.26 v)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.suptitle("bench.images --scale: Solitaire Hanabi images of random 3-SAT, h = 2")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)), metavar="V,V",
                    help="numbers of variables (default 50,75,100,150,200,250)")
    ap.add_argument("--methods", default="sat,cpsat", metavar="A,B")
    ap.add_argument("--seed", type=int, default=SEED, help=f"formula seed (default {SEED})")
    ap.add_argument("--cap", type=float, default=CAP, metavar="S",
                    help=f"time limit per point; a method past it stops growing "
                         f"(default {CAP:g})")
    ap.add_argument("--csv", metavar="FILE", help="write the rows as CSV")
    ap.add_argument("--figure", metavar="FILE.png", help="write the log-log figure")
    ap.add_argument("--point", nargs=3, metavar=("DECK", "METHOD", "CAP"),
                    help=argparse.SUPPRESS)
    ap.add_argument("--replot", metavar="CSV", help="only draw --figure from a CSV of --csv")
    args = ap.parse_args(argv)
    if args.replot:
        with open(args.replot, newline="") as f:
            rows = [{k: (x if k in ("method", "verdict", "satisfiable") else float(x))
                     for k, x in r.items()}
                    for r in csv.DictReader(f)]
        figure(rows, args.figure or args.replot[:-4] + ".png")
        return
    if args.point:
        deck, method, cap = args.point
        print(json.dumps(point(deck, method, float(cap))))
        return
    sizes = [int(x) for x in args.sizes.split(",") if x.strip()]
    methods = [x.strip() for x in args.methods.split(",") if x.strip()]
    print(f"random 3-SAT seed {args.seed}, m = round({RATIO} v), h = 2; cap {args.cap:g} s "
          f"per point", flush=True)
    print(" ".join(f"{name:>{w}}" for name, w, _ in COLUMNS), flush=True)
    from hanabi_cp.apps.generators import random_kcnf
    from hanabi_cp.apps.roundtrip import formula_sat
    formula_sat(random_kcnf(0, 5, 20))       # warm-up: pysat's first call is no solve time
    rows: list = []
    stopped: set = set()
    with tempfile.TemporaryDirectory() as folder:
        for v in sizes:
            live = [m for m in methods if m not in stopped]
            for row in measure(v, args.seed, live, args.cap, folder):
                rows.append(row)
                print(" ".join(_fmt(row[name], w, spec) for name, w, spec in COLUMNS),
                      flush=True)
                if row["verdict"] == "UNKNOWN":
                    stopped.add(row["method"])
                    print(f"# {row['method']} passed the cap of {args.cap:g} s at v = {v}: "
                          f"not run at larger sizes", flush=True)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    if args.figure:
        figure(rows, args.figure)


if __name__ == "__main__":
    main()
