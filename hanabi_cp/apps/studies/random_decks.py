"""Study "random": where are the hard random decks?

Two control parameters:

- ``h``: decks with values 1..n, colors 1..c and 1..r copies of each card (uniform),
  the same ``count`` decks asked at every hand size in ``points``;
- ``density``: at a fixed hand size, decks of N = round(x n c) cards, each drawn
  uniformly from the n c kinds (so low x lacks cards and high x has many copies),
  ``count`` fresh decks per x in ``points``.

Every selected method that accepts the instance runs on it (methods are those of
the registry: a method added later joins the sweep by name), one CSV row each.
The figure shows the fraction winnable with 95 % Wilson intervals, and the median
and 95th-percentile solve time of each method, against the control parameter: a
peak of the time where the fraction crosses 1/2 is the easy-hard-easy pattern.
The summary also counts, per method, the rows decided by the preprocessing, by
the model, and not at all (UNKNOWN at the time limit: counted, never a verdict),
and lists first any deck two methods decided differently.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence

from ...runtime.executors import SERIAL, Execution
from ..generators import random_deck
from ...core.model import Deck
from ...core.options import SolveOptions
from ...core.status import Status
from .common import (SIZE_FIELDS, answer_rows, applicable, base_row, check_methods, decided, figure, percentile,
                     plot_row, timed_solve, wilson)
from ...io.results_csv import ResultsCSV

STUDY = "random"
PARAMS = ("h", "density")
FIELDS = ["study", "param", "x", "instance", "seed", "method", "n", "c", "r", "N", "h", "verdict",
          "seconds", *SIZE_FIELDS, "version"]
KEY = ["seed", "param", "x", "instance", "method", "n", "c"]
DEFAULT_METHODS = None      # every registered method (each skips decks it refuses)


def density_deck(rng: random.Random, n: int, c: int, x: float) -> Deck:
    """round(x n c) cards drawn uniformly (with replacement) from the n c kinds."""
    kinds = [(a, k) for a in range(1, n + 1) for k in range(1, c + 1)]
    return Deck.of((rng.choice(kinds) for _ in range(round(x * n * c))), n, c)


def instances(param: str, seed: int, count: int, points: Sequence[float], n: int, c: int,
              r: int, h: int):
    """(x, instance index, deck, hand size) in sweep order."""
    if param == "h":
        for i in range(count):
            deck = random_deck(random.Random(f"{seed}:{i}"), n, c, r)
            for x in points:
                yield x, i, deck, int(x)
    else:
        for x in points:
            for i in range(count):
                yield x, i, density_deck(random.Random(f"{seed}:{x}:{i}"), n, c, x), h


def run(csv_path: str, seed: int, count: int, param: str = "h",
        points: Sequence[float] = range(7), n: int = 5, c: int = 4, r: int = 2, h: int = 2,
        method_names: Sequence[str] | None = None, time_limit: float | None = 30.0,
        progress: bool = False, execution: Execution = SERIAL) -> ResultsCSV:
    if param not in PARAMS:
        from ...core.errors import InvalidParameter
        raise InvalidParameter(f"{{param}}: expected one of {', '.join(PARAMS)}, found {param!r}", "param")
    names = check_methods(method_names, DEFAULT_METHODS)
    rows = ResultsCSV(csv_path, FIELDS, KEY)
    options = SolveOptions(time_limit=time_limit, seed=seed)
    asked: list[dict] = []      # by task index: the row without its answer
    todo: list[tuple] = []
    for x, i, deck, hh in instances(param, seed, count, points, n, c, r, h):
        base = {**base_row(STUDY, i, seed, deck, hh), "param": param, "x": x,
                # The requested n, c (a sparse deck still has them), not the deck's.
                "n": n, "c": c}
        if param == "h":
            base["r"] = r          # the bound on copies, as the figure reports it
        for m in applicable(names, deck, hh):
            if not rows.has(seed=seed, param=param, x=x, instance=i, method=m, n=n, c=c):
                asked.append({**base, "method": m})
                todo.append((deck, hh, m, options))
    return answer_rows(rows, timed_solve, asked, todo, progress, execution)


def by_point(rows: list[dict]):
    """x -> (winnable, decided, {method: [seconds]}) over the rows of one sweep."""
    verdicts: dict = defaultdict(dict)
    times: dict = defaultdict(lambda: defaultdict(list))
    for r in rows:
        x = float(r["x"])
        if decided(r["verdict"]):
            verdicts[x].setdefault(r["instance"], r["verdict"])
            times[x][r["method"]].append(float(r["seconds"]))
    out = {}
    for x in sorted(set(verdicts) | set(times)):
        v = list(verdicts[x].values())
        out[x] = (sum(s == Status.WINNABLE.value for s in v), len(v), dict(times[x]))
    return out


# Methods that run the hold-window preprocessing (solitaire/preprocessing.py) before building
# a model, and record the model's variables in the row when they build one.
PREPROCESSING = ("sat", "cpsat")


def preprocessed(row: dict) -> bool:
    """Decided by the preprocessing, before any model was built or solved (the row
    then records no model: sat 0 variables, cpsat none)."""
    return (row["method"] in PREPROCESSING and decided(row["verdict"])
            and row.get("variables") in ("", "0", None))


def outcomes(rows: list[dict]):
    """x -> method -> counts of rows decided in preprocessing ("pre", see
    ``preprocessed``), decided by the method's model or search ("model"), and not
    decided ("unknown": UNKNOWN at the time limit, or REFUSED): undecided rows are
    counted here, never dropped or folded into a verdict.

    >>> rows = [{"x": "1", "method": "sat", "verdict": v, "variables": n}
    ...         for v, n in [("UNWINNABLE", "0"), ("WINNABLE", "50"), ("UNKNOWN", "")]]
    >>> outcomes(rows)
    {1.0: {'sat': {'pre': 1, 'model': 1, 'unknown': 1}}}
    """
    out: dict = defaultdict(lambda: defaultdict(lambda: {"pre": 0, "model": 0, "unknown": 0}))
    for r in rows:
        cell = out[float(r["x"])][r["method"]]
        cell["unknown" if not decided(r["verdict"]) else
             "pre" if preprocessed(r) else "model"] += 1
    return {x: {m: dict(c) for m, c in sorted(ms.items())} for x, ms in sorted(out.items())}


def undecided_decks(rows: list[dict]) -> dict:
    """x -> decks that no method decided (they are in no winnable fraction)."""
    seen: dict = defaultdict(set)
    done: dict = defaultdict(set)
    for r in rows:
        x = float(r["x"])
        seen[x].add(r["instance"])
        if decided(r["verdict"]):
            done[x].add(r["instance"])
    return {x: len(seen[x] - done[x]) for x in sorted(seen)}


def disagreements(rows: list[dict]) -> list[tuple[float, str, dict]]:
    """(x, instance, {method: verdict}) for every deck two methods decided differently:
    a solver bug, which a study must show rather than average away.

    >>> disagreements([{"x": "2", "instance": "0", "method": m, "verdict": v}
    ...                for m, v in [("sat", "WINNABLE"), ("cpsat", "UNWINNABLE")]])
    [(2.0, '0', {'sat': 'WINNABLE', 'cpsat': 'UNWINNABLE'})]
    """
    by_deck: dict = defaultdict(dict)
    for r in rows:
        if decided(r["verdict"]):
            by_deck[(float(r["x"]), r["instance"])][r["method"]] = r["verdict"]
    return [(x, i, v) for (x, i), v in sorted(by_deck.items()) if len(set(v.values())) > 1]


def plot_winnable(rows, ax=None):
    fig, ax = figure(ax)
    data = by_point(rows)
    xs = list(data)
    p = [w / t if t else float("nan") for w, t, _ in data.values()]
    ci = [wilson(w, t) for w, t, _ in data.values()]
    ax.errorbar(xs, p, yerr=[[a - lo for a, (lo, _) in zip(p, ci)],
                             [hi - a for a, (_, hi) in zip(p, ci)]], marker="o", capsize=3)
    ax.set(xlabel=_label(rows), ylabel="fraction winnable", ylim=(-0.02, 1.02),
           title="Random decks: " + _title(rows))
    ax.grid(alpha=0.3)
    return ax


def plot_times(rows, ax=None):
    fig, ax = figure(ax)
    data = by_point(rows)
    methods = sorted({m for _, _, t in data.values() for m in t}
                     | {r["method"] for r in rows})
    counts = outcomes(rows)
    for j, m in enumerate(methods):
        xs = [x for x, (_, _, t) in data.items() if t.get(m)]
        color = f"C{j}"
        # Undecided rows have no solve time to plot; the legend counts them.
        unknown = sum(c.get(m, {}).get("unknown", 0) for c in counts.values())
        ax.plot(xs, [1000 * percentile(data[x][2][m], 50) for x in xs], "o-", color=color,
                label=f"{m} median" + (f" ({unknown} undecided)" if unknown else ""))
        ax.plot(xs, [1000 * percentile(data[x][2][m], 95) for x in xs], "s--", color=color,
                alpha=0.7, label=f"{m} p95")
    ax.set_yscale("log")
    some_open = any(not decided(r["verdict"]) for r in rows)
    ax.set(xlabel=_label(rows), ylabel="solve time (ms)",
           title="Solve time per method" + (" (decided rows only)" if some_open else ""))
    ax.grid(alpha=0.3, which="both")
    if methods:
        ax.legend(fontsize="small", ncol=2)
    return ax


def plot_undecided(rows, ax=None):
    """Per method, the fraction of its rows left undecided (UNKNOWN at the time
    limit, or REFUSED) at each point: where the time panel's medians, taken over the
    decided rows only, hide the hardest decks."""
    fig, ax = figure(ax)
    counts = outcomes(rows)
    methods = sorted({r["method"] for r in rows})
    for j, m in enumerate(methods):
        xs = [x for x in counts if m in counts[x]]
        ax.plot(xs, [counts[x][m]["unknown"] / sum(counts[x][m].values()) for x in xs],
                "^-", color=f"C{j}", label=m)
    ax.set(xlabel=_label(rows), ylabel="fraction of rows undecided", ylim=(-0.02, 1.02),
           title="Undecided rows (UNKNOWN at the time limit)")
    ax.grid(alpha=0.3)
    if methods:
        ax.legend(fontsize="small")
    return ax


def _label(rows) -> str:
    param = rows[0]["param"] if rows else "h"
    return "hand size h" if param == "h" else "cards per kind N / (n c)"


def _title(rows) -> str:
    if not rows:
        return "no rows"
    r0 = rows[0]
    per = "same decks at every h" if r0["param"] == "h" else f"h = {r0['h']}"
    extra = f", r <= {r0['r']}" if r0["param"] == "h" else ""
    return f"n = {r0['n']}, c = {r0['c']}{extra}, {per}"


def plot(rows, stem: str, csv_path: str | None = None, force: bool = False) -> list[str]:
    """``stem``.png and ``stem``.svg of ``rows`` (drawn from ``csv_path``), with a third
    panel of the undecided rows if there are any."""
    if any(not decided(r["verdict"]) for r in rows):
        return plot_row(rows, stem, (plot_winnable, plot_times, plot_undecided), (18, 4.2),
                        csv_path, force)
    return plot_row(rows, stem, (plot_winnable, plot_times), (12, 4.2), csv_path, force)


def summary(rows) -> str:
    """Per point: decks, the fraction winnable, decks no method decided; per method
    the median / p95 time of its decided rows and its counts of rows decided in
    preprocessing / by the model / undecided.  Methods that disagree on a deck are
    listed first, as a solver bug."""
    data = by_point(rows)
    counts = outcomes(rows)
    open_decks = undecided_decks(rows)
    methods = sorted({m for c in counts.values() for m in c})
    head = ["x", "decks", "winnable", "undecided"]
    for m in methods:
        head += [f"{m} med/p95 ms", f"{m} pre/model/unknown"]
    lines = [f"c BUG: methods disagree at x = {x:g}, deck {i}: "
             + ", ".join(f"{m} {v}" for m, v in verdicts.items())
             for x, i, verdicts in disagreements(rows)]
    lines.append("  ".join(head))
    for x in sorted(set(data) | set(counts)):
        w, t, times = data.get(x, (0, 0, {}))
        cells = [f"{x:g}", str(t), f"{w / t:.3f}" if t else "-", str(open_decks.get(x, 0))]
        for m in methods:
            ts = times.get(m)
            cells.append(f"{1000 * percentile(ts, 50):.2f}/{1000 * percentile(ts, 95):.2f}"
                         if ts else "-")
            c = counts[x].get(m, {"pre": 0, "model": 0, "unknown": 0})
            cells.append(f"{c['pre']}/{c['model']}/{c['unknown']}")
        lines.append("  ".join(cells))
    return "\n".join(lines)
