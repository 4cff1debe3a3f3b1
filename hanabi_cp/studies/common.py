"""What every study shares: a resumable CSV, timed method runs, statistics, figures.

A study writes one CSV row per (instance, method, question) as soon as it has the
answer, so a sweep that is interrupted (or extended with a larger --count) resumes
where it stopped: rows whose key is already in the file are skipped.

>>> [round(x, 3) for x in wilson(7, 10)]
[0.397, 0.892]
>>> wilson(0, 0)
(0.0, 1.0)
>>> percentile([5, 1, 3, 2, 4], 50), percentile([5, 1, 3, 2, 4], 95)
(3, 5)
"""

from __future__ import annotations

import csv
import math
import os
import time
from collections.abc import Iterable, Sequence

from .. import __version__
from ..errors import HanabiError
from ..model import Deck
from ..solvers import SolveOptions, Status, methods, solve

# Columns describing how big the method's model was: CNF/CP-SAT variables and
# clauses/constraints, or dp table entries / brute-force states.
SIZE_FIELDS = ("variables", "constraints", "table")


class ResultsCSV:
    """Append-only CSV whose rows are identified by the ``key`` columns."""

    def __init__(self, path: str, fields: Sequence[str], key: Sequence[str]):
        self.path, self.fields, self.key = path, list(fields), list(key)
        self.rows: list[dict] = []
        if os.path.exists(path) and os.path.getsize(path) > 0:
            with open(path, newline="") as fh:
                reader = csv.DictReader(fh)
                if reader.fieldnames != self.fields:
                    raise HanabiError(f"{path}:1: expected the columns {','.join(self.fields)}, "
                                      f"found {','.join(reader.fieldnames or [])} (another study's "
                                      "CSV? use another --csv path)")
                self.rows = list(reader)
        self.done = {self._key(r) for r in self.rows}
        self.added = 0

    def _key(self, row: dict) -> tuple:
        return tuple(str(row[k]) for k in self.key)

    def has(self, **key) -> bool:
        return self._key({k: "" if v is None else v for k, v in key.items()}) in self.done

    def add(self, row: dict) -> None:
        row = {f: ("" if row.get(f) is None else row.get(f)) for f in self.fields}
        k = self._key(row)
        if k in self.done:
            return
        new = not os.path.exists(self.path) or os.path.getsize(self.path) == 0
        os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        with open(self.path, "a", newline="") as fh:
            writer = csv.DictWriter(fh, self.fields, lineterminator="\n")
            if new:
                writer.writeheader()
            writer.writerow(row)
        self.rows.append({f: str(v) for f, v in row.items()})
        self.done.add(k)
        self.added += 1


def select(rows: list[dict], **fields) -> list[dict]:
    """The rows whose columns equal ``fields`` (compared as CSV text)."""
    want = {k: str(v) for k, v in fields.items()}
    return [r for r in rows if all(r[k] == v for k, v in want.items())]


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
        return {"verdict": "REFUSED", "seconds": round(time.perf_counter() - start, 6),
                "reason": str(exc)}
    seconds = time.perf_counter() - start
    return {"verdict": out.status.value, "seconds": round(seconds, 6), "score": out.score,
            **model_size(out.stats)}


def applicable(names: Iterable[str], deck: Deck, h: int, maximize: bool = False) -> list[str]:
    table = methods()
    return [n for n in names if n in table and (table[n].maximizes or not maximize)
            and table[n].refuses(deck, h) is None]


def check_methods(names: Sequence[str] | None, default: Sequence[str] | None) -> list[str]:
    """The methods to run: ``names``, else ``default`` (None: every registered method)."""
    table = methods()
    if names is None:
        names = sorted(table) if default is None else [n for n in default if n in table]
    names = list(names)
    unknown = [n for n in names if n not in table]
    if unknown:
        raise HanabiError(f"unknown method {unknown[0]!r}; choose from {', '.join(sorted(table))}")
    return names


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95 % by default)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


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


def panels(nrows: int, ncols: int, size):
    """A new Agg figure with a flat list of nrows x ncols axes."""
    import matplotlib
    matplotlib.use("Agg")
    # A fixed salt makes the SVG element ids, hence the files, reproducible.
    matplotlib.rcParams["svg.hashsalt"] = "hanabi-cp"
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(nrows, ncols, figsize=size, squeeze=False)
    return fig, [a for row in axes for a in row]


def plot_row(rows, stem: str, drawers, size) -> list[str]:
    """One figure with a panel per drawer (each ``drawer(rows, ax)``), saved as
    ``stem``.png and ``stem``.svg; returns the paths."""
    fig, axes = panels(1, len(drawers), size)
    for draw, ax in zip(drawers, axes):
        draw(rows, ax)
    return save_figure(fig, stem)


def save_figure(fig, stem: str) -> list[str]:
    """Write ``stem``.png and ``stem``.svg; SVG output has no timestamp, so the same
    data gives the same file."""
    import matplotlib.pyplot as plt

    os.makedirs(os.path.dirname(os.path.abspath(stem)), exist_ok=True)
    fig.tight_layout()
    paths = []
    for ext, extra in (("png", {"dpi": 110, "metadata": {"Software": None}}),
                       ("svg", {"metadata": {"Date": None}})):
        path = f"{stem}.{ext}"
        fig.savefig(path, **extra)
        paths.append(path)
    plt.close(fig)
    return paths
