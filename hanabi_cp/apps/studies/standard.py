"""Study "standard": how winnable are shuffled real Hanabi decks?

For each of ``count`` shuffled 50-card decks (deck i from ``Random(f"{seed}:{i}")``),
and each hand size h in ``hands``: the verdict of every selected decision method
(task ``decide``), the largest number of cards that can be played (task
``maximize``, by the first applicable maximizing method of ``MAXIMIZERS``; brute
force refuses 50-card decks, dp refuses them beyond h = 2, CP-SAT takes ~20 ms), and
once per deck the least winning hand size (task ``min_hand``, ``min_hand.min_hand``
with the incremental SAT method).
"""

from __future__ import annotations

import random
import time
from dataclasses import replace
from collections import Counter, defaultdict
from collections.abc import Sequence

from ...runtime.deadline import TimeUp
from ...runtime.executors import SERIAL, Execution
from ..generators import standard_deck
from ...solitaire.min_hand import min_hand
from ...core.options import SolveOptions
from ...core.status import Status
from ...core.status import DECIDED
from .common import (SIZE_FIELDS, answer_rows, applicable, base_row, check_methods, figure, plot_row, timed_solve,
                     wilson)
from ...io.results_csv import ResultsCSV

STUDY = "standard"
FIELDS = ["study", "instance", "seed", "task", "method", "n", "c", "r", "N", "h", "verdict",
          "score", "min_hand", "seconds", *SIZE_FIELDS, "version"]
KEY = ["seed", "instance", "task", "method", "h"]
DEFAULT_METHODS = ("sat", "cpsat")
MAXIMIZERS = ("cpsat", "dp", "brute")


def run(csv_path: str, seed: int, count: int, hands: Sequence[int] = range(7),
        method_names: Sequence[str] | None = None, maximize: bool = True,
        least_hand: bool = True, colors: int = 5, time_limit: float | None = 60.0,
        progress: bool = False, execution: Execution = SERIAL) -> ResultsCSV:
    names = check_methods(method_names, DEFAULT_METHODS)
    rows = ResultsCSV(csv_path, FIELDS, KEY)
    options = SolveOptions(time_limit=time_limit, seed=seed)
    asked: list[dict] = []      # by task index: the row without its answer
    todo: list[tuple] = []
    for i in range(count):
        deck = standard_deck(random.Random(f"{seed}:{i}"), colors)
        for h in hands:
            base = base_row(STUDY, i, seed, deck, h)
            for m in applicable(names, deck, h):
                if not rows.has(seed=seed, instance=i, task="decide", method=m, h=h):
                    asked.append({**base, "task": "decide", "method": m})
                    todo.append(("decide", deck, h, m, options))
            best = applicable(MAXIMIZERS, deck, h, maximize=True)[:1] if maximize else []
            for m in best:
                if not rows.has(seed=seed, instance=i, task="maximize", method=m, h=h):
                    asked.append({**base, "task": "maximize", "method": m})
                    todo.append(("maximize", deck, h, m, options))
        if least_hand and not rows.has(seed=seed, instance=i, task="min_hand", method="sat", h=None):
            asked.append({**base_row(STUDY, i, seed, deck, None), "task": "min_hand", "method": "sat"})
            todo.append(("min_hand", deck, None, "sat", options))
    return answer_rows(rows, answer, asked, todo, progress, execution)


def answer(task: str, deck, h: int | None, method: str, options: SolveOptions) -> dict:
    """The answer columns of one row (a task of ``run``): ``decide`` or ``maximize``
    ``deck`` at hand size ``h``, or its least winning hand size (``min_hand``)."""
    if task != "min_hand":
        assert h is not None        # run asks decide and maximize at a hand size
        if task == "decide":
            return timed_solve(deck, h, method, options)
        return timed_solve(deck, h, method, replace(options, maximize=True))
    start = time.perf_counter()
    try:
        res = min_hand(deck, method, options)
    except TimeUp:
        res = None
    return {"min_hand": res and res.h, "seconds": round(time.perf_counter() - start, 6),
            "verdict": Status.UNKNOWN.value if res is None else
            "" if res.h is not None else Status.UNWINNABLE.value,
            "variables": res and res.stats.get("variables"),
            "constraints": res and res.stats.get("clauses")}


def winnable_by_hand(rows: list[dict], method: str | None = None) -> dict[int, tuple[int, int]]:
    """h -> (winnable decks, decided decks) for one decision method (default: the first
    of DEFAULT_METHODS in the rows, else the first by name)."""
    decide = [r for r in rows if r["task"] == "decide"]
    if method is None and decide:
        # Not the first row's: rows of a parallel run come in the order they finished.
        present = {r["method"] for r in decide}
        method = next((m for m in DEFAULT_METHODS if m in present), min(present))
    out: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for r in decide:
        if r["method"] == method and r["verdict"] in DECIDED:
            out[int(r["h"])][0] += r["verdict"] == Status.WINNABLE.value
            out[int(r["h"])][1] += 1
    return {h: (v[0], v[1]) for h, v in sorted(out.items())}


def scores_by_hand(rows: list[dict]) -> dict[int, list[int]]:
    out: dict[int, list[int]] = defaultdict(list)
    for r in rows:
        if r["task"] == "maximize" and r["score"] != "":
            out[int(r["h"])].append(int(r["score"]))
    return dict(sorted(out.items()))


def min_hands(rows: list[dict]) -> Counter:
    return Counter(int(r["min_hand"]) for r in rows if r["task"] == "min_hand" and r["min_hand"] != "")


def plot_winnable(rows, ax=None, method: str | None = None):
    fig, ax = figure(ax)
    data = winnable_by_hand(rows, method)
    hs = list(data)
    p = [w / t for w, t in data.values()]
    lo, hi = zip(*(wilson(w, t) for w, t in data.values())) if data else ((), ())
    ax.errorbar(hs, p, yerr=[[a - b for a, b in zip(p, lo)], [b - a for a, b in zip(p, hi)]],
                marker="o", capsize=3)
    total = max((t for _, t in data.values()), default=0)
    ax.set(xlabel="hand size h", ylabel="fraction winnable",
           title=f"Shuffled standard decks ({total} per h, 95% Wilson CI)", ylim=(-0.02, 1.02))
    ax.grid(alpha=0.3)
    return ax


def plot_scores(rows, ax=None):
    fig, ax = figure(ax)
    data = scores_by_hand(rows)
    if data:
        ax.boxplot(list(data.values()), positions=list(data), widths=0.6)
    methods = sorted({r["method"] for r in rows if r["task"] == "maximize"})
    ax.set(xlabel="hand size h", ylabel="largest playable score",
           title="Best score (" + (", ".join(methods) or "no maximizing method") + ")")
    ax.grid(alpha=0.3)
    return ax


def plot_min_hand(rows, ax=None):
    fig, ax = figure(ax)
    counts = min_hands(rows)
    if counts:
        xs = sorted(counts)
        ax.bar(xs, [counts[x] for x in xs])
        ax.set_xticks(xs)
    ax.set(xlabel="least winning hand size", ylabel="decks", title="Least winning hand size")
    ax.grid(alpha=0.3, axis="y")
    return ax


def plot(rows, stem: str, csv_path: str | None = None, force: bool = False) -> list[str]:
    """``stem``.png and ``stem``.svg of ``rows`` (drawn from ``csv_path``)."""
    return plot_row(rows, stem, (plot_winnable, plot_scores, plot_min_hand), (13, 3.8), csv_path, force)


def summary(rows) -> str:
    lines = ["h  decks  winnable  95% CI          median best score"]
    scores = scores_by_hand(rows)
    for h, (w, t) in winnable_by_hand(rows).items():
        lo, hi = wilson(w, t)
        s = sorted(scores.get(h, []))
        med = s[len(s) // 2] if s else "-"
        lines.append(f"{h:<2} {t:>5}  {w / t:>8.3f}  [{lo:.3f}, {hi:.3f}]  {med!s:>17}")
    counts = min_hands(rows)
    if counts:
        lines.append("least winning hand size: " + ", ".join(f"{k}: {counts[k]}" for k in sorted(counts)))
    return "\n".join(lines)
