"""Study "reduction": how much harder is the image deck than the formula?

For each number of variables v in ``points``, ``count`` uniform random 3-CNF
formulas with m = round(ratio v) clauses (ratio 4.26: the satisfiability threshold,
where random 3-SAT is hardest) are decided by CaDiCaL directly (method
``formula``) and, through ``reduction.reduce_cnf`` (h = 2), by every selected
method on the image deck.  Every image verdict is compared with the formula's:
a mismatch raises (it is a bug, and ``hanabi-cp harness --cnf-count`` shrinks it).
The figure shows the median solve time against v, and the ratio image / formula.
"""

from __future__ import annotations

import random
import time
from collections import defaultdict
from collections.abc import Sequence

from ...core.version import __version__
from ...core.errors import SolverBug
from ...runtime.executors import SERIAL, Execution, run_tasks
from ..generators import random_kcnf
from ..roundtrip import agreement
from ...core.options import SolveOptions
from ...core.status import Status
from .common import SIZE_FIELDS, applicable, check_methods, decided, figure, percentile, plot_row, timed_solve
from ...io.results_csv import ResultsCSV

STUDY = "reduction"
FIELDS = ["study", "instance", "seed", "v", "m", "ratio", "method", "N", "h", "verdict",
          "seconds", "build_seconds", *SIZE_FIELDS, "version"]
KEY = ["seed", "v", "m", "instance", "method"]
DEFAULT_METHODS = None      # every registered method that accepts the images
FORMULA = "formula"        # the method column of the rows that time CaDiCaL on the formula


def _formula_row(cnf, repeats: int = 3) -> dict:
    """CaDiCaL on the formula, best of ``repeats``: these take well under a
    millisecond, where one scheduling hiccup of a shared machine would dominate."""
    from ..roundtrip import formula_status
    from ...solvers.sat_backend import sat_solve

    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        sat, _, _ = sat_solve([list(c) for c in cnf.clauses])
        best = min(best, time.perf_counter() - start)
    return {"verdict": formula_status(sat).value, "seconds": round(best, 6),
            "variables": cnf.num_vars, "constraints": cnf.num_clauses}


def image_row(cnf, method: str, options: SolveOptions) -> dict | None:
    """One method on the image of ``cnf`` (a task of ``run``): its row, or None if the
    method refuses the image.  Each task builds its own image, so the tasks of one
    formula can run on different workers."""
    from ...solitaire.reduction import reduce_cnf

    start = time.perf_counter()
    red = reduce_cnf(cnf)
    build = round(time.perf_counter() - start, 6)
    if not applicable([method], red.deck, red.h):
        return None
    return {"N": red.deck.N, "h": red.h, "build_seconds": build,
            **timed_solve(red.deck, red.h, method, options)}


def run(csv_path: str, seed: int, count: int, points: Sequence[int] = (3, 4, 5, 6),
        ratio: float = 4.26, method_names: Sequence[str] | None = None,
        time_limit: float | None = 120.0, progress: bool = False,
        execution: Execution = SERIAL) -> ResultsCSV:
    names = check_methods(method_names, DEFAULT_METHODS)
    rows = ResultsCSV(csv_path, FIELDS, KEY)
    options = SolveOptions(time_limit=time_limit, seed=seed)
    from ...core.progress import bar as progress_bar

    bar = progress_bar(len(points) * count * len(names), enabled=progress, unit=" rows")
    asked: list[tuple[dict, str, str, str]] = []    # by task index: base row, method, truth, formula

    def tasks():
        for v in points:
            for i in range(count):
                m = max(1, round(ratio * v))
                cnf = random_kcnf(random.Random(f"{seed}:{v}:{m}:{i}"), v, m)
                base = {"study": STUDY, "instance": i, "seed": seed, "v": v, "m": m,
                        "ratio": ratio, "version": __version__}
                timed = rows.has(seed=seed, v=v, m=m, instance=i, method=FORMULA)
                todo_methods = [x for x in names
                                if not rows.has(seed=seed, v=v, m=m, instance=i, method=x)]
                bar.update(len(names) - len(todo_methods))
                if timed and not todo_methods:
                    continue        # a resumed sweep: nothing left to time for this formula
                truth = _formula_row(cnf)
                if not timed:
                    rows.add({**base, "method": FORMULA, "N": "", "h": "", **truth})
                for x in todo_methods:
                    asked.append((base, x, truth["verdict"], f"v={v} m={m} #{i} (seed {seed})"))
                    yield cnf, x, options

    with run_tasks(image_row, tasks(), execution) as done:
        for task, row in done:
            base, x, truth, which = asked[task]
            bar.update(1)
            if row is None:
                continue
            if agreement(row["verdict"], truth == Status.WINNABLE.value) == "NO":
                raise SolverBug(f"{x} says the image of formula {which} is {row['verdict']}, "
                                f"CaDiCaL on the formula says {truth}")
            rows.add({**base, "method": x, **row})
    bar.close()
    return rows


def times(rows) -> dict[str, dict[int, list[float]]]:
    """method -> v -> solve seconds of the decided instances."""
    out: dict = defaultdict(lambda: defaultdict(list))
    for r in rows:
        if decided(r["verdict"]):
            out[r["method"]][int(r["v"])].append(float(r["seconds"]))
    return {m: dict(sorted(d.items())) for m, d in sorted(out.items())}


def ratios(rows) -> dict[str, dict[int, float]]:
    """method -> v -> median over formulas of (image time / formula time)."""
    formula = {(r["seed"], r["v"], r["m"], r["instance"]): float(r["seconds"])
               for r in rows if r["method"] == FORMULA}
    per: dict = defaultdict(lambda: defaultdict(list))
    for r in rows:
        key = (r["seed"], r["v"], r["m"], r["instance"])
        if r["method"] != FORMULA and decided(r["verdict"]) and formula.get(key):
            per[r["method"]][int(r["v"])].append(float(r["seconds"]) / formula[key])
    return {m: {v: percentile(xs, 50) for v, xs in sorted(d.items())} for m, d in sorted(per.items())}


def _color(rows, method: str) -> str:
    """The same color for a method in both panels."""
    return f"C{sorted({r['method'] for r in rows}).index(method)}"


def _log_panel(ax, xlabel: str, ylabel: str, title: str):
    """What both panels share: whole numbers of variables on x, a log scale on y."""
    from matplotlib.ticker import MaxNLocator
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_yscale("log")
    ax.set(xlabel=xlabel, ylabel=ylabel, title=title)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize="small")
    return ax


def plot_times(rows, ax=None):
    fig, ax = figure(ax)
    for m, data in times(rows).items():
        label = "CaDiCaL on the formula (best of 3)" if m == FORMULA else f"{m} on the image"
        ax.plot(list(data), [1000 * percentile(xs, 50) for xs in data.values()], "o-",
                color=_color(rows, m), label=label)
    return _log_panel(ax, "variables v (m = 4.26 v clauses)", "median solve time (ms)",
                      "Random 3-SAT and its Hanabi image (h = 2)")


def plot_ratios(rows, ax=None):
    fig, ax = figure(ax)
    for m, data in ratios(rows).items():
        ax.plot(list(data), list(data.values()), "o-", color=_color(rows, m), label=m)
    return _log_panel(ax, "variables v", "image time / formula time (median)",
                      "Slow-down of solving the image")


def plot(rows, stem: str, csv_path: str | None = None, force: bool = False) -> list[str]:
    """``stem``.png and ``stem``.svg of ``rows`` (drawn from ``csv_path``)."""
    return plot_row(rows, stem, (plot_times, plot_ratios), (12, 4.2), csv_path, force)


def summary(rows) -> str:
    t, q = times(rows), ratios(rows)
    sizes: dict = defaultdict(list)
    for r in rows:
        if r["method"] != FORMULA and r["N"] != "":
            sizes[int(r["v"])].append(int(r["N"]))
    lines = ["v   cards N  " + "  ".join(f"{m} med ms" for m in t) + "  "
             + "  ".join(f"{m}/formula" for m in q)]
    for v in sorted({v for d in t.values() for v in d}):
        cells = [f"{v:<3}", f"{percentile(sizes[v], 50) if sizes[v] else '-':>7}"]
        cells += [f"{1000 * percentile(t[m][v], 50):.2f}" if v in t[m] else "-" for m in t]
        cells += [f"{q[m][v]:.0f}x" if v in q[m] else "-" for m in q]
        lines.append("  ".join(cells))
    return "\n".join(lines)
