"""What every study shares: a resumable CSV, timed method runs, statistics, figures.

A study writes one CSV row per (instance, method, question) as soon as it has the
answer (io.results_csv), so a sweep that is interrupted (or extended with a
larger --count) resumes where it stopped: rows whose key is already in the file are
skipped.  Figures are written by figure_files.

>>> [round(x, 3) for x in wilson(7, 10)]
[0.397, 0.892]
>>> wilson(0, 0)
(0.0, 1.0)
>>> percentile([5, 1, 3, 2, 4], 50), percentile([5, 1, 3, 2, 4], 95)
(3, 5)
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence

from ...core.version import __version__
from ...core.errors import HanabiError, InvalidParameter
from ...runtime.executors import Execution, run_tasks
from ...io.results_csv import ResultsCSV as ResultsCSV
from ...core.model import Deck
from ...core.options import SolveOptions
from ...core.status import Status
from ...solitaire.solve import methods, solve
from ...core.status import RunStatus
from .figure_files import panels as panels
from .figure_files import save_figure

# Columns describing how big the method's model was: CNF/CP-SAT variables and
# clauses/constraints, or dp table entries / brute-force states.
SIZE_FIELDS = ("variables", "constraints", "table")


def select(rows: list[dict], **fields) -> list[dict]:
    """The rows whose columns equal ``fields`` (compared as CSV text)."""
    want = {k: str(v) for k, v in fields.items()}
    return [r for r in rows if all(r[k] == v for k, v in want.items())]


def in_key_order(rows: list[dict], key: Sequence[str]) -> list[dict]:
    """``rows`` sorted by their ``key`` columns, numbers as numbers: with ``--jobs`` or
    ``--dask`` a CSV holds its rows in the order they finished, so summaries and
    figures are computed from this order, the same for every run of the sweep.

    >>> [r["x"] for r in in_key_order([{"x": "10"}, {"x": "9"}, {"x": ""}, {"x": "b"}], ["x"])]
    ['', '9', '10', 'b']
    """
    def cell(text: str) -> tuple:
        try:
            return (0, float(text), "") if text != "" else (-1, 0.0, "")
        except ValueError:
            return (1, 0.0, text)
    return sorted(rows, key=lambda r: tuple(cell(str(r[k])) for k in key))


def model_size(stats: dict) -> dict:
    return {"variables": stats.get("variables"),
            "constraints": stats.get("clauses", stats.get("constraints")),
            "table": stats.get("entries", stats.get("states"))}


def timed_solve(deck: Deck, h: int, method: str, options: SolveOptions) -> dict:
    """Run one (registered) method; the verdict, seconds, score and model size as a row."""
    start = time.perf_counter()
    try:
        out = solve(deck, h, method, options)
    except HanabiError as exc:
        # Declined at run time (a resource limit): recorded, not fatal to the sweep.
        return {"verdict": RunStatus.REFUSED.value, "seconds": round(time.perf_counter() - start, 6),
                "reason": str(exc)}
    seconds = time.perf_counter() - start
    return {"verdict": out.status.value, "seconds": round(seconds, 6), "score": out.score,
            **model_size(out.stats)}


def answer_rows(rows: ResultsCSV, task, asked: list[dict], todo: list[tuple], progress: bool,
                execution: Execution) -> ResultsCSV:
    """Run ``task(*todo[i])`` for each i on ``execution``, adding ``asked[i]`` (the row
    without its answer) with the answer columns to ``rows`` as each finishes."""
    from ...core.progress import bar as progress_bar

    with progress_bar(len(todo), enabled=progress, unit=" rows") as bar, \
            run_tasks(task, todo, execution) as done:
        for index, answer in done:
            rows.add({**asked[index], **answer})
            bar.update(1)
    return rows


def applicable(names: Iterable[str], deck: Deck, h: int, maximize: bool = False) -> list[str]:
    table = methods()
    return [n for n in names if n in table and (table[n].maximizes or not maximize)
            and table[n].refuses(deck, h) is None]


def check_methods(names: Sequence[str] | None, default: Sequence[str] | None) -> list[str]:
    """The methods to run: ``names``, else ``default`` (None: every registered method
    but the external ones, which only run when named)."""
    table = methods()
    if names is None:
        names = sorted(n for n, m in table.items() if not m.external) if default is None \
            else [n for n in default if n in table]
    names = list(names)
    unknown = [n for n in names if n not in table]
    if unknown:
        raise InvalidParameter(f"unknown method {unknown[0]!r}; choose from {', '.join(sorted(table))}")
    return names


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95 % by default)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # The interval always holds p; rounding can put a bound a few ulps past it (0 of 11
    # gave a lower bound of 3e-17), which error bars cannot draw.
    return min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half))


def percentile(values: Sequence[float], q: float):
    """Nearest-rank percentile (no interpolation: every value reported was measured)."""
    if not values:
        return float("nan")
    xs = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(xs)))
    return xs[rank - 1]


def base_row(study: str, instance: int, seed: int, deck: Deck, h: int | None) -> dict:
    return {"study": study, "instance": instance, "seed": seed, "n": deck.n, "c": deck.c,
            "r": deck.r, "N": deck.N, "h": h, "version": __version__}


def decided(verdict: str) -> bool:
    return verdict in (Status.WINNABLE.value, Status.UNWINNABLE.value)


def figure(ax=None, size=(6.4, 4.2)):
    """(figure, axes): a new Agg figure unless ``ax`` is given."""
    if ax is not None:
        return ax.figure, ax
    fig, axes = panels(1, 1, size)
    return fig, axes[0]


def plot_row(rows, stem: str, drawers, size, csv_path: str | None = None,
             force: bool = False) -> list[str]:
    """One figure with a panel per drawer (each ``drawer(rows, ax)``), saved as
    ``stem``.png and ``stem``.svg (see figure_files); returns the paths."""
    fig, axes = panels(1, len(drawers), size)
    for draw, ax in zip(drawers, axes):
        draw(rows, ax)
    return save_figure(fig, stem, csv_path, force)
