"""Run every benchmark in one go, then print a table of time ratios.

    .venv/bin/python -m bench            # what `make bench` runs
    .venv/bin/python -m bench --quick    # a small run (a minute or two)
    .venv/bin/python -m bench --only linear_algorithms --skip-ratios

1. Every module ``bench/NAME.py`` with a ``main(argv)`` function is a benchmark
   (modules written later are picked up without change here).  With ``--quick``
   a module gets ``QUICK_ARGS`` if it defines that list, else ``["--quick"]`` if
   it mentions that option, else its defaults.  Its output is shown as it runs; a
   benchmark that fails is reported and the others still run (exit code 1 at the end).
2. The ratio table: the same seeded instances are decided by every registered method
   that accepts them (methods added later join automatically), and for each pair
   (baseline, method) the median over instances of time(method) / time(baseline)
   is printed; for reduction images, time(method on the image) / time(CaDiCaL on
   the formula).  Instances come from the study generators (hanabi_cp.apps.studies).
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import os
import pkgutil
import sys
import tempfile
import time
import traceback
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))


def discover() -> list[str]:
    names = []
    for info in pkgutil.iter_modules([HERE]):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"bench.{info.name}")
        if callable(getattr(mod, "main", None)):
            names.append(info.name)
    return sorted(names)


def quick_args(name: str) -> list[str]:
    mod = importlib.import_module(f"bench.{name}")
    if hasattr(mod, "QUICK_ARGS"):
        return list(mod.QUICK_ARGS)
    return ["--quick"] if "--quick" in inspect.getsource(mod) else []


def run_module(name: str, quick: bool) -> tuple[bool, float, object]:
    mod = importlib.import_module(f"bench.{name}")
    argv = quick_args(name) if quick else []
    print(f"==== bench.{name} {' '.join(argv)}".rstrip(), flush=True)
    start = time.perf_counter()
    try:
        result = mod.main(argv)
        ok = True
    except SystemExit as exc:
        ok, result = exc.code in (None, 0), None
    except Exception:
        traceback.print_exc()
        ok, result = False, None
    elapsed = time.perf_counter() - start
    print(flush=True)
    return ok, elapsed, result


def paired_ratios(rows, key_fields, baseline: str) -> dict[str, tuple[int, float, float, float]]:
    """method -> (instances, baseline total s, method total s, median per-instance ratio)
    over the instances that both decided."""
    from hanabi_cp.apps.studies.common import decided, percentile

    by_key: dict = defaultdict(dict)
    for r in rows:
        if decided(r["verdict"]):
            by_key[tuple(r[k] for k in key_fields)][r["method"]] = float(r["seconds"])
    out = {}
    methods = sorted({m for d in by_key.values() for m in d} - {baseline})
    for m in methods:
        pairs = [(d[baseline], d[m]) for d in by_key.values() if baseline in d and m in d]
        if pairs:
            ratios = [b / a for a, b in pairs if a > 0]
            out[m] = (len(pairs), sum(a for a, _ in pairs), sum(b for _, b in pairs),
                      percentile(ratios, 50) if ratios else float("nan"))
    return out


def ratio_table(quick: bool, seed: int) -> list[tuple]:
    """(comparison, baseline, method, instances, baseline s, method s, median ratio)."""
    from hanabi_cp.apps.studies import random_decks, reduction, standard

    table = []
    from hanabi_cp.solitaire.solve import methods

    # Inapplicable ones are skipped instance by instance; the external solvers have
    # their own table (bench.model_formats).
    every = sorted(n for n, m in methods().items() if not m.external)
    with tempfile.TemporaryDirectory() as tmp:
        count = 4 if quick else 20
        rows = random_decks.run(os.path.join(tmp, "r.csv"), seed, count, "h", range(0, 13, 2),
                                n=6, c=5, r=3, method_names=every).rows
        rows += random_decks.run(os.path.join(tmp, "s.csv"), seed, count, "h", [1, 2],
                                 n=3, c=3, r=2, method_names=every).rows
        for m, (k, a, b, q) in paired_ratios(rows, ("param", "x", "instance", "n", "c"),
                                             "sat").items():
            table.append(("random decks", "sat", m, k, a, b, q))
        rows = standard.run(os.path.join(tmp, "std.csv"), seed, 4 if quick else 25, [2, 4, 6],
                            every, maximize=False, least_hand=False).rows
        for m, (k, a, b, q) in paired_ratios(rows, ("instance", "h"), "sat").items():
            table.append(("standard decks", "sat", m, k, a, b, q))
        points = [3, 4] if quick else [3, 4, 5, 6]
        names = [m for m in ("sat", "cpsat") if m in every] if quick else \
            [m for m in every if m not in ("brute", "greedy", "lazy")]
        rows = reduction.run(os.path.join(tmp, "red.csv"), seed, 1 if quick else 3, points,
                             method_names=names).rows
        for m, (k, a, b, q) in paired_ratios(rows, ("v", "m", "instance"),
                                             reduction.FORMULA).items():
            table.append(("reduction images", "formula (CaDiCaL)", m, k, a, b, q))
    return table


def print_ratio_table(table) -> None:
    head = ("instances", "baseline", "method", "count", "baseline s", "method s", "median ratio")
    rows = [head] + [(c, a, m, str(k), f"{x:.4g}", f"{y:.4g}", f"{q:,.0f}x" if q >= 100 else f"{q:.2f}x")
                     for c, a, m, k, x, y, q in table]
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    for j, r in enumerate(rows):
        print("  ".join(v.ljust(w) if i < 3 else v.rjust(w) for i, (v, w) in enumerate(zip(r, widths))))
        if j == 0:
            print("  ".join("-" * w for w in widths))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (a minute or two)")
    ap.add_argument("--only", default=None, metavar="A,B", help="run only these bench modules")
    ap.add_argument("--skip", default="", metavar="A,B", help="skip these bench modules")
    ap.add_argument("--skip-ratios", action="store_true", help="no method-vs-method ratio table")
    ap.add_argument("--seed", type=int, default=1, help="seed of the ratio table's instances")
    args = ap.parse_args(argv)
    sys.path.insert(0, os.path.dirname(HERE))
    names = discover()
    if args.only:
        wanted = [n.strip() for n in args.only.split(",") if n.strip()]
        unknown = [n for n in wanted if n not in names]
        if unknown:
            ap.error(f"unknown bench module {unknown[0]!r}; choose from {', '.join(names)}")
        names = wanted
    names = [n for n in names if n not in {s.strip() for s in args.skip.split(",")}]
    start = time.perf_counter()
    done = [(n, *run_module(n, args.quick)) for n in names]
    print("==== summary")
    for name, ok, sec, _ in done:
        print(f"bench.{name:<24} {'ok' if ok else 'FAILED':<7} {sec:8.1f} s")
    if not args.skip_ratios:
        print("\n==== time ratios (median over instances of method time / baseline time)")
        print_ratio_table(ratio_table(args.quick, args.seed))
    load = "; load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()) \
        if hasattr(os, "getloadavg") else ""
    print(f"\n==== total: {time.perf_counter() - start:.1f} s "
          f"({'--quick' if args.quick else 'full run'}{load})", flush=True)
    return 0 if all(ok for _, ok, _, _ in done) else 1


if __name__ == "__main__":
    sys.exit(main())
