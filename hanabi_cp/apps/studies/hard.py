"""Study "hard": adversarial local search for decks that cost a solver the most.

For each size (n, c, h) with fixed r and copies (exactly r, or 1..r per card) the
study

1. measures ``random`` uniform decks (the baseline), or with ``exhaustive`` every
   distinct deck of the size (phase ``all``);
2. climbs (phase ``search``): from a random deck, propose one change (swap two
   cards, move a card, add or remove a copy) and keep it if the effort (a
   deterministic counter of ``method``, see effort.py; ties broken by the method's
   next counter) does not go down; after ``patience`` steps without a new best,
   or at once from a deck of effort 0, restart (deck_moves.near_sorted_deck: the
   cards in value order, then a random number of random transpositions, so that
   starts range from surely winnable to uniform).

Step s draws its change from its own generator, seeded by (seed, size, s), and
the state after step s follows from the rows before it, so an interrupted search
resumes from its CSV and continues exactly as if it had never stopped.  The
search ends after ``steps`` steps or ``budget`` seconds, whichever comes first
(the budget makes the length, not the steps, depend on the machine).

In parallel (``--jobs``, ``--dask``) the baseline's decks are independent tasks,
their rows written in step order; the climb evaluates the proposals of its next
steps at once, made by guessing the outcomes before them, and keeps an evaluation
only for the step whose real state proposes that deck (``_climb``): the rows are
those of the serial run, in the same order.

The CSV has one row per evaluated deck; a row that beats every earlier one of its
phase (a record) keeps the whole deck, the others a digest of it, so that a trace of
thousands of steps stays small.  ``hardest`` reads the records of largest effort
back, and the figure shows the effort of the hardest deck
found against the size, next to the median and maximum of the baseline.
"""

from __future__ import annotations

import copy
import hashlib
import math
import random
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ...core.version import __version__
from ...core.errors import FileError, LimitError
from ...runtime.executors import SERIAL, Execution, TaskPool, in_order
from ...core.status import Status
from ...io.results_csv import ResultsCSV
from .common import figure, plot_row
from .deck_moves import all_decks, count_decks, deck_text, near_sorted_deck, neighbour, start_deck
from .effort import check_measure, column, evaluate, tie_break

STUDY = "hard"
FIELDS = ["study", "seed", "n", "c", "r", "h", "copies", "method", "measure", "phase", "step",
          "move", "N", "verdict", "effort", "tiebreak", "accepted", "best", "deck", "version"]
KEY = ["seed", "n", "c", "r", "h", "copies", "method", "measure", "phase", "step"]
MAX_EXHAUSTIVE = 200_000


class Config:
    """One size of a sweep and everything that identifies its rows."""

    def __init__(self, seed: int, n: int, c: int, r: int, h: int, exact: bool, method: str,
                 measure: str | None):
        self.seed, self.n, self.c, self.r, self.h, self.exact = seed, n, c, r, h, exact
        self.method, self.measure = method, check_measure(method, measure)
        self.copies = "exact" if exact else "upto"

    @property
    def key(self) -> dict:
        return {"seed": self.seed, "n": self.n, "c": self.c, "r": self.r, "h": self.h,
                "copies": self.copies, "method": self.method, "measure": self.measure}

    def rng(self, *what) -> random.Random:
        return random.Random(":".join(map(str, (self.seed, self.n, self.c, self.r, self.h,
                                                self.copies, *what))))

    def score(self, result: dict) -> tuple[int, int]:
        second = tie_break(self.method, self.measure)
        return (int(result[column(self.method, self.measure)]),
                int(result[column(self.method, second)]) if second else 0)


def digest(cards) -> str:
    """What the ``deck`` cell holds for a deck that set no record: enough to check,
    on resuming, that this version proposes the same deck (the CSV stays small)."""
    return "sha1:" + hashlib.sha1(deck_text(cards).encode()).hexdigest()[:12]


def same_deck(cell: str, cards) -> bool:
    return cell in (deck_text(cards), digest(cards))


class Record:
    """The largest (effort, tie break) of one phase so far; a row that beats it keeps
    its whole deck in the CSV (``hardest`` reads those back)."""

    def __init__(self) -> None:
        self.best: tuple[int, int] = (-1, -1)

    def see(self, score: tuple[int, int]) -> bool:
        if score > self.best:
            self.best = score
            return True
        return False


def _row(cfg: Config, phase: str, step: int, cards, result: dict, record: bool,
         move: str = "", accepted: bool | None = None, best: int | None = None) -> dict:
    effort, tb = cfg.score(result)
    return {"study": STUDY, **cfg.key, "phase": phase, "step": step, "move": move,
            "N": len(cards), "verdict": result["verdict"], "effort": effort, "tiebreak": tb,
            "accepted": "" if accepted is None else int(accepted), "best": best,
            "deck": deck_text(cards) if record else digest(cards), "version": __version__}


def _old_score(row: dict) -> tuple[int, int]:
    return int(row["effort"]), int(row["tiebreak"])


@dataclass
class Sweep:
    """What ``sweep`` returns: the CSV, the rows of this sweep, and the hardest decks
    written (path, ``hard_decks.confirm``'s check)."""

    rows: ResultsCSV
    mine: list[dict]
    written: list[tuple[str, dict]]


def sweep(csv_path: str, seed: int, sizes: Sequence[tuple[int, int, int]], r: int,
          exact: bool, method: str, measure: str, steps: int, budget: float | None,
          random_count: int, exhaustive: bool, patience: int, caps: dict,
          out_dir: str, keep: int, command: str, force: bool = False, progress: bool = False,
          execution: Execution = SERIAL,
          on_swept: Callable[[ResultsCSV, list[dict]], None] | None = None) -> Sweep:
    """The ``study hard`` command's work: ``run`` on every size, then the ``keep``
    hardest decks of each written to ``out_dir`` (``hard_decks.write_hardest``), all
    tasks on one pool of ``execution`` (the climb runs many small batches);
    ``on_swept(rows, mine)`` between the two.  ``caps``: each method's cap
    (``sat``: conflicts, the others: seconds)."""
    from ...runtime.executors import task_pool
    from . import hard_decks

    keys = [Config(seed, n, c, r, h, exact, method, measure).key for n, c, h in sizes]
    with task_pool(execution) as pool:
        rows = run(csv_path, seed, sizes, r, exact, method, measure, steps, budget,
                   random_count, exhaustive, patience, caps[method], progress, pool)
        mine = [row for row in rows.rows if any(sweep_rows([row], k) for k in keys)]
        if on_swept is not None:
            on_swept(rows, mine)
        written = hard_decks.write_hardest(mine, out_dir, keep, command, force, caps, pool)
    return Sweep(rows, mine, written)


def run(csv_path: str, seed: int, sizes: Sequence[tuple[int, int, int]], r: int,
        exact: bool, method: str, measure: str | None = None, steps: int = 1000,
        budget: float | None = None, random_count: int = 50, exhaustive: bool = False,
        patience: int = 200, cap: float | None = None, progress: bool = False,
        pool: TaskPool | None = None) -> ResultsCSV:
    """Baseline and search for every (n, c, h) of ``sizes``; the CSV's rows (the same
    rows, in the same order, on any ``pool``: see ``_climb``; None: this process)."""
    rows = ResultsCSV(csv_path, FIELDS, KEY)
    pool = pool or TaskPool(SERIAL)
    for n, c, h in sizes:
        cfg = Config(seed, n, c, r, h, exact, method, measure)
        if exhaustive:
            _exhaustive(rows, cfg, cap, progress, pool)
        else:
            _baseline(rows, cfg, random_count, cap, progress, pool)
        _climb(rows, cfg, steps, budget, patience, cap, progress, pool)
    return rows


def _bar(total: int, desc: str, progress: bool):
    from ...core.progress import bar
    return bar(total, desc=desc, enabled=progress, unit=" decks")


def _baseline(rows: ResultsCSV, cfg: Config, count: int, cap, progress: bool,
              pool: TaskPool) -> None:
    decks = (start_deck(cfg.rng("random", i), cfg.n, cfg.c, cfg.r, cfg.exact) for i in range(count))
    _measure(rows, cfg, "random", decks, count, f"random n={cfg.n} c={cfg.c}", cap, progress, pool)


def _exhaustive(rows: ResultsCSV, cfg: Config, cap, progress: bool, pool: TaskPool) -> None:
    total = count_decks(cfg.n, cfg.c, cfg.r, cfg.exact, above=MAX_EXHAUSTIVE)
    if total > MAX_EXHAUSTIVE:
        raise LimitError(f"n = {cfg.n}, c = {cfg.c}, r = {cfg.r} has more than "
                         f"{MAX_EXHAUSTIVE:,} decks; an exhaustive sweep takes at most "
                         f"{MAX_EXHAUSTIVE:,}")
    _measure(rows, cfg, "all", all_decks(cfg.n, cfg.c, cfg.r, cfg.exact), total,
             f"all n={cfg.n} c={cfg.c}", cap, progress, pool)


def _measure(rows: ResultsCSV, cfg: Config, phase: str, decks: Iterable, total: int, desc: str,
             cap, progress: bool, pool: TaskPool) -> None:
    """Evaluate the ``phase`` decks that have no row yet, as independent tasks; their
    rows are written in step order, since whether a row is a record (keeps its deck)
    depends on the rows before it."""
    plan = [(step, rows.get(**cfg.key, phase=phase, step=step), cards)
            for step, cards in enumerate(decks)]
    todo = [(cards, cfg.n, cfg.c, cfg.h, cfg.method, cap) for _, old, cards in plan if old is None]
    record = Record()
    with _bar(total, desc, progress) as bar:
        results = in_order(pool.run(evaluate, todo))
        for step, old, cards in plan:
            if old is not None:
                record.see(_old_score(old))
            else:
                _, res = next(results)
                rows.add(_row(cfg, phase, step, cards, res, record.see(cfg.score(res))))
            bar.update()
        for _ in results:       # none left: lets the run see its end
            raise AssertionError("more results than decks")


class Climb:
    """The state of the local search after the rows so far."""

    def __init__(self) -> None:
        self.current: tuple = ()
        self.score: tuple[int, int] = (-1, -1)
        self.best: tuple[int, int] = (-1, -1)
        self.stale = 0

    def proposal(self, cfg: Config, step: int, patience: int):
        # A deck of effort 0 (refuted by preprocessing, or solved without a branch)
        # has no direction to climb in: walking its plateau drifts to uniform decks,
        # nearly all of effort 0 too.  Such a start is dropped at once.
        if step == 0 or self.stale >= patience or self.score == (0, 0):
            return near_sorted_deck(cfg.rng("start", step), cfg.n, cfg.c, cfg.r,
                                    cfg.exact), "restart"
        return neighbour(cfg.rng("step", step), self.current, cfg.n, cfg.c, cfg.r, cfg.exact)

    def take(self, cards, move: str, score: tuple[int, int]) -> bool:
        accepted = move == "restart" or score >= self.score
        if accepted:
            self.current, self.score = cards, score
        if move == "restart":
            self.stale = 0
        if score > self.best:
            self.best, self.stale = score, 0
        else:
            self.stale += 1
        return accepted

    def guess(self, cards, move: str, zero_restart: bool) -> None:
        """Step as if this proposal's effort were known: a neighbour rejected (the
        usual case: two steps in three), a restart of effort 0 or not as the last
        restart was.  Only to propose the decks worth evaluating ahead (``_climb``)."""
        if move != "restart":
            self.take(cards, move, (-1, -1))
        else:
            self.take(cards, move, (0, 0) if zero_restart else (UNKNOWN_EFFORT, 0))


UNKNOWN_EFFORT = 1 << 62         # a guessed restart effort: above any real one


def _climb(rows: ResultsCSV, cfg: Config, steps: int, budget: float | None, patience: int,
           cap, progress: bool, pool: TaskPool) -> None:
    """The climb, step after step, each step's proposal following from the real
    efforts before it.  With ``pool.width`` > 1 the decks of the next ``width`` steps
    are evaluated at once, proposed from a copy of the state that guesses their
    outcomes; a step then uses an evaluation only if the real state proposes that
    same deck (the effort is a function of the deck; only a run cut by the time cap,
    UNKNOWN, may count differently, as between any two runs), so a wrong guess costs
    time, never a different trace: the rows are those of the serial run, in its order."""
    state = Climb()
    zero_restart = False
    start = time.monotonic()
    step = 0
    with _bar(steps, f"search n={cfg.n} c={cfg.c}", progress) as bar:
        while step < steps:
            if budget is not None and not rows.has(**cfg.key, phase="search", step=step) \
                    and time.monotonic() - start >= budget:
                break
            ahead: dict[tuple, tuple] = {}
            sim = copy.copy(state)
            for s in range(step, min(steps, step + pool.width)):
                if rows.has(**cfg.key, phase="search", step=s):
                    break
                cards, move = sim.proposal(cfg, s, patience)
                ahead.setdefault(cards, (cards, cfg.n, cfg.c, cfg.h, cfg.method, cap))
                sim.guess(cards, move, zero_restart)
            tasks = list(ahead.values())
            known = {tasks[i][0]: res for i, res in pool.run(evaluate, tasks)}
            while step < steps:
                cards, move = state.proposal(cfg, step, patience)
                old = rows.get(**cfg.key, phase="search", step=step)
                if old is not None:
                    if not same_deck(old["deck"], cards):
                        raise FileError(f"{rows.path}: search step {step} holds another deck "
                                        "than this version proposes; use another {csv_path}",
                                        "csv_path")
                    score = _old_score(old)
                    state.take(cards, move, score)
                elif cards in known:      # a deck proposed twice is evaluated once
                    res = known[cards]
                    before = state.best
                    score = cfg.score(res)
                    accepted = state.take(cards, move, score)
                    rows.add(_row(cfg, "search", step, cards, res, state.best > before, move,
                                  accepted, state.best[0]))
                else:
                    break
                if move == "restart":
                    zero_restart = score == (0, 0)
                step += 1
                bar.update()


# ---- reading the rows back ------------------------------------------------------

def sweep_rows(rows: list[dict], cfg_fields: dict) -> list[dict]:
    want = {k: str(v) for k, v in cfg_fields.items()}
    return [r for r in rows if all(r[k] == v for k, v in want.items())]


def sizes_of(rows: list[dict]) -> list[tuple[int, int, int]]:
    return sorted({_size(r) for r in rows})


def _size(row: dict) -> tuple[int, int, int]:
    return int(row["n"]), int(row["c"]), int(row["h"])


def hardest(rows: list[dict], keep: int) -> list[dict]:
    """The ``keep`` distinct decks of largest (effort, tie break) among the records
    (rows that beat every earlier row of their phase and size: the only rows whose
    deck the CSV keeps), decided ones first among equals."""
    seen: dict[str, dict] = {}
    for r in rows:
        # Only records keep their deck; the K hardest decks are the last K records.
        if r["phase"] in ("search", "all") and not r["deck"].startswith("sha1:"):
            seen.setdefault(r["deck"], r)
    ranked = sorted(seen.values(), key=lambda r: (-int(r["effort"]), -int(r["tiebreak"]),
                                                  r["verdict"] == Status.UNKNOWN.value, int(r["step"])))
    return ranked[:keep]


def size_summary(rows: list[dict]) -> list[dict]:
    """Per (n, c): baseline median / max, hardest found, and their ratios."""
    out = []
    for n, c, h in sizes_of(rows):
        mine = [r for r in rows if _size(r) == (n, c, h)]
        base = [int(r["effort"]) for r in mine if r["phase"] in ("random", "all")]
        found = [int(r["effort"]) for r in mine if r["phase"] in ("search", "all")]
        if not found and not base:
            continue
        best = max(found or base)
        med = statistics.median(base) if base else float("nan")
        top = max(base) if base else float("nan")
        r0 = mine[0]
        out.append({"n": n, "c": c, "h": h, "size": n * c * int(r0["r"]), "baseline": len(base),
                    "exhaustive": any(r["phase"] == "all" for r in mine),
                    "steps": sum(r["phase"] == "search" for r in mine),
                    "median": med, "max": top, "best": best,
                    "winnable": sum(r["verdict"] == Status.WINNABLE.value for r in mine
                                    if r["phase"] in ("random", "all")),
                    "x_median": best / med if med else float("inf") if best else 1.0,
                    "x_max": best / top if top else float("inf") if best else 1.0})
    return out


def fits(points: list[tuple[float, float]]) -> dict:
    """Least-squares fits of log(effort + 1) against size (exponential) and against
    log size (polynomial): slope, R^2, and the range of sizes they cover."""
    pts = [(x, y) for x, y in points if x > 0]
    if len(pts) < 3:
        return {}
    out: dict = {"range": (min(x for x, _ in pts), max(x for x, _ in pts))}
    ly = [math.log(y + 1) for _, y in pts]
    for name, xs in (("exponential", [x for x, _ in pts]),
                     ("polynomial", [math.log(x) for x, _ in pts])):
        out[name] = _least_squares(xs, ly)
    return out


def _least_squares(xs: list[float], ys: list[float]) -> tuple[float, float, float]:
    """(slope, intercept, R^2)."""
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
    icpt = my - slope * mx
    sst = sum((y - my) ** 2 for y in ys)
    sse = sum((y - icpt - slope * x) ** 2 for x, y in zip(xs, ys))
    return slope, icpt, 1 - sse / sst if sst else 1.0


def fit_text(f: dict) -> str:
    if not f:
        return "fit: fewer than 3 sizes"
    es, _, er2 = f["exponential"]
    ps, _, pr2 = f["polynomial"]
    lo, hi = f["range"]
    return (f"fit over N = {lo:g}..{hi:g}: effort+1 ~ {math.exp(es):.3f}^N (R^2 {er2:.2f}); "
            f"~ N^{ps:.2f} (R^2 {pr2:.2f})")


# ---- figure and summary -----------------------------------------------------------

def _label(rows: list[dict]) -> str:
    r = rows[0]
    return (f"{r['method']} {r['measure']}, r = {r['r']} "
            f"({'exactly' if r['copies'] == 'exact' else 'at most'})")


def series(table: list[dict]) -> dict[str, list[dict]]:
    """Lines of the size figure: one per fixed c (n grows) and h, or per fixed n (c
    grows) when every size has the same n."""
    by_n = len({t["n"] for t in table}) == 1 and len({t["c"] for t in table}) > 1
    out: dict[str, list[dict]] = {}
    for t in table:
        label = (f"n = {t['n']}" if by_n else f"c = {t['c']}") + f", h = {t['h']}"
        out.setdefault(label, []).append(t)
    return out


def plot_sizes(rows, ax=None):
    fig, ax = figure(ax)
    table = size_summary(rows)
    for label, mine in series(table).items():
        xs = [t["size"] for t in mine]
        line, = ax.plot(xs, [t["best"] + 1 for t in mine], "o-", label=f"{label}: hardest found")
        ax.plot(xs, [t["max"] + 1 for t in mine], "^:", color=line.get_color(),
                label=f"{label}: baseline max")
        ax.plot(xs, [t["median"] + 1 for t in mine], "s--", color=line.get_color(), alpha=0.6,
                label=f"{label}: baseline median")
    ax.set_yscale("log")
    ax.set(xlabel="cards N (n c r; at most, with copies 1..r)", ylabel="effort + 1",
           title=("Hardest decks vs baseline: " + _label(rows)) if rows else "no rows")
    ax.grid(alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7)
    return ax


def plot_trace(rows, ax=None):
    fig, ax = figure(ax)
    for n, c, h in sizes_of(rows):
        steps = sorted((int(r["step"]), int(r["best"] or 0)) for r in rows
                       if r["phase"] == "search" and _size(r) == (n, c, h))
        if steps:
            ax.plot([s for s, _ in steps], [b + 1 for _, b in steps],
                    label=f"n = {n}, c = {c}, h = {h}")
    ax.set_yscale("log")
    ax.set(xlabel="search step", ylabel="best effort so far + 1", title="Local search trace")
    ax.grid(alpha=0.3)
    handles = ax.get_legend_handles_labels()[0]
    if handles:
        ax.legend(fontsize=6, ncol=2 if len(handles) > 8 else 1, loc="lower right")
    return ax


def plot_distribution(rows, ax=None):
    """Histogram of the baseline's effort (every deck, with --exhaustive), by verdict."""
    fig, ax = figure(ax)
    base = [r for r in rows if r["phase"] in ("random", "all")]
    efforts = sorted({int(r["effort"]) for r in base})
    width = 0.4
    for i, verdict in enumerate((Status.WINNABLE.value, Status.UNWINNABLE.value)):
        counts = [sum(1 for r in base if r["verdict"] == verdict and int(r["effort"]) == e)
                  for e in efforts]
        ax.bar([j + (i - 0.5) * width for j in range(len(efforts))], counts, width,
               label=f"{verdict.lower()} ({sum(counts)})")
    ax.set_xticks(range(len(efforts)), [str(e) for e in efforts])
    kind = "every deck" if any(r["phase"] == "all" for r in base) else "random decks"
    ax.set(xlabel="effort", ylabel="decks", title=f"Effort of {kind} ({len(base)})")
    ax.grid(alpha=0.3, axis="y")
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7)
    return ax


def plot(rows, stem: str, csv_path: str | None = None, force: bool = False) -> list[str]:
    """Effort against size, and the search trace (or, without a search, the
    distribution of the baseline's effort)."""
    second = plot_trace if any(r["phase"] == "search" for r in rows) else plot_distribution
    return plot_row(rows, stem, (plot_sizes, second), (13, 4.6), csv_path, force)


def summary(rows) -> str:
    lines = ["n  c  h   N   baseline  winnable    median       max   hardest  x median    x max"
             "  steps"]
    table = size_summary(rows)
    for t in table:
        kind = "all" if t["exhaustive"] else "rnd"
        lines.append(f"{t['n']:<2} {t['c']:<2} {t['h']:<2} {t['size']:>3}  {t['baseline']:>5} "
                     f"{kind}  {t['winnable']:>8}  {t['median']:>8g} {t['max']:>9g} {t['best']:>9}  "
                     f"{t['x_median']:>8.3g} {t['x_max']:>8.3g}  {t['steps']:>5}")
    for label, mine in series(table).items():
        lines.append(f"{label}: hardest found, " + fit_text(fits([(t["size"], t["best"])
                                                                 for t in mine])))
    return "\n".join(lines)
