"""The studies as library objects, and the one table of them (``STUDIES``).

Every study answers the same four calls (``Study``): ``check(**params)`` refuses
parameters before any work (``hanabi-cp study NAME`` calls it before it looks at
its output files); ``run(csv_path, **params)`` appends the rows not yet in the CSV
(a rerun resumes) and returns the ``Sweep``: the CSV and the rows of this sweep,
picked from rows of other seeds or sizes the CSV may hold, in key order;
``summary(rows)`` the text table and ``plot(rows, stem)`` the figure (STEM.png,
STEM.svg; the paths written) of such rows.

>>> import hanabi_cp as hc
>>> hc.study("random").check(param="h", points=[1.5])
Traceback (most recent call last):
...
hanabi_cp.core.errors.InvalidParameter: points: hand sizes must be integers >= 0, found [1.5]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ...core.errors import InvalidParameter, UsageError
from ...core.registry import Registry, imported
from ...runtime.executors import SERIAL, Execution
from ...runtime.limits import MAX_SWEEP_POINTS, check_at_most, check_cards, check_kinds

if TYPE_CHECKING:
    from ...io.results_csv import ResultsCSV


@dataclass
class Sweep:
    """A study's run: the CSV (``rows.rows``, ``rows.path``), the rows of this sweep
    in key order (``mine``), how many rows this run added (``new``; None when the
    study does not count them), the columns that picked them (``fields``) and the
    files written beside the CSV (``written``: ``study hard``'s hardest decks, (path,
    check))."""

    rows: ResultsCSV
    mine: list[dict]
    new: int | None = None
    fields: dict = field(default_factory=dict)
    written: list[tuple[str, dict]] = field(default_factory=list)


class Study(Protocol):
    name: str

    def check(self, **params: Any) -> Any: ...

    def run(self, csv_path: str, **params: Any) -> Sweep: ...

    def summary(self, rows: list[dict]) -> str: ...

    def plot(self, rows: list[dict], stem: str, csv_path: str | None = None,
             force: bool = False) -> list[str]: ...


class _ModuleStudy:
    """A study whose rows, summary and figure are one module's of apps/studies."""

    name = ""
    module = ""

    def mod(self) -> Any:
        return imported(f"{__package__}:{self.module}")

    def check(self, **params: Any) -> Any:
        return None

    def summary(self, rows: list[dict]) -> str:
        return self.mod().summary(rows)

    def plot(self, rows: list[dict], stem: str, csv_path: str | None = None,
             force: bool = False) -> list[str]:
        return self.mod().plot(rows, stem, csv_path, force)

    def sweep(self, rows: ResultsCSV, keep: Callable[[dict], bool] | None = None,
              **fields: Any) -> Sweep:
        """The rows with ``fields`` (and for which ``keep`` holds), in key order."""
        from .common import in_key_order, select
        mine = [r for r in select(rows.rows, **fields) if keep is None or keep(r)]
        return Sweep(rows, in_key_order(mine, self.mod().KEY), rows.added, fields)


class Standard(_ModuleStudy):
    """Shuffled standard decks: winnable against h, the best score, the least hand."""

    name, module = "standard", "standard"

    def run(self, csv_path: str, seed: int = 1, count: int = 200,
            hands: Sequence[int] = range(7), methods: Sequence[str] | None = None,
            maximize: bool = True, min_hand: bool = True, colors: int = 5,
            time_limit: float | None = 60.0, progress: bool = False,
            execution: Execution = SERIAL) -> Sweep:
        rows = self.mod().run(csv_path, seed, count, hands, methods, maximize, min_hand,
                              colors, time_limit, progress, execution)
        return self.sweep(rows, seed=seed, c=colors)


class RandomDecks(_ModuleStudy):
    """Random decks: winnable share and solve times against h or the density."""

    name, module = "random", "random_decks"

    def check(self, param: str = "h", points: Sequence[float] = range(13), n: int = 6,
              c: int = 5, r: int = 3, **_: Any) -> None:
        if param == "h" and any(x != int(x) or x < 0 for x in points):
            raise InvalidParameter(f"{{points}}: hand sizes must be integers >= 0, found "
                                   f"{points}", "points")
        if param == "density" and any(x <= 0 for x in points):
            raise InvalidParameter(f"{{points}}: densities must be > 0, found {points}", "points")
        check_kinds(n, c, "study random --n, --c")
        check_cards(n * c * r if param == "h" else round(max(points) * n * c),
                    "study random: the largest deck", option=None)

    def run(self, csv_path: str, seed: int = 1, count: int = 40, param: str = "h",
            points: Sequence[float] = range(13), n: int = 6, c: int = 5, r: int = 3,
            hand: int = 2, methods: Sequence[str] | None = None,
            time_limit: float | None = 60.0, progress: bool = False,
            execution: Execution = SERIAL) -> Sweep:
        self.check(param, points, n, c, r)
        rows = self.mod().run(csv_path, seed, count, param, points, n, c, r, hand, methods,
                              time_limit, progress, execution)
        fields: dict[str, Any] = {"seed": seed, "param": param, "n": n, "c": c}
        fields.update({"r": r} if param == "h" else {"h": hand})
        return self.sweep(rows, **fields)


class Reduction(_ModuleStudy):
    """Random 3-SAT near the threshold: the reduction's image against the formula."""

    name, module = "reduction", "reduction"

    def check(self, points: Sequence[int] = (3, 4, 5, 6), ratio: float = 4.26,
              **_: Any) -> None:
        from ...solitaire.reduction.size import random_image_size
        v = max(points)
        check_cards(random_image_size(v, max(1, round(ratio * v))).cards,
                    f"study reduction --vars {v}: the image", option=None)

    def run(self, csv_path: str, seed: int = 1, count: int = 3,
            points: Sequence[int] = (3, 4, 5, 6), ratio: float = 4.26,
            methods: Sequence[str] | None = None, time_limit: float | None = 60.0,
            progress: bool = False, execution: Execution = SERIAL) -> Sweep:
        self.check(points, ratio)
        rows = self.mod().run(csv_path, seed, count, points, ratio, methods, time_limit,
                              progress, execution)
        return self.sweep(rows, seed=seed, ratio=ratio)


class Live(_ModuleStudy):
    """Standard decks under real rules: what the clue tokens and the final round cost."""

    name, module = "live", "live"

    def check(self, methods: Sequence[str] | None = None,
              variants: Sequence[str] | None = None, **_: Any) -> tuple[str, ...]:
        """The rule sets asked (``variants``, default all)."""
        live = self.mod()
        if methods is not None:
            raise UsageError("study live: {methods} does not apply (the real-rules method is "
                             f"{live.LIVE_METHOD}; the solitaire model uses "
                             f"{live.SOLITAIRE_DECIDE} and {live.SOLITAIRE_MAXIMIZE})", "methods")
        chosen = tuple(variants or live.VARIANTS)
        unknown = [v for v in chosen if v not in live.VARIANTS]
        if unknown:
            raise InvalidParameter(f"{{variants}}: unknown {unknown[0]!r}; choose from "
                                   + ", ".join(live.VARIANTS), "variants")
        return chosen

    def run(self, csv_path: str, seed: int = 1, count: int = 500,
            players: Sequence[int] = range(2, 7), variants: Sequence[str] | None = None,
            time_limit: float | None = 2.0, progress: bool = False,
            execution: Execution = SERIAL) -> Sweep:
        chosen = self.check(variants=variants)
        rows = self.mod().run(csv_path, seed, count, players, chosen, time_limit, progress,
                              execution)
        return self.sweep(rows, keep=lambda r: int(r["instance"]) < count
                          and int(r["players"]) in players and r["variant"] in chosen,
                          seed=seed)


class HleAgents(_ModuleStudy):
    """DeepMind's HLE agents against each deal's exact bound (no figure)."""

    name, module = "hle", "hle_agents"

    def check(self, agents: Sequence[str] = ("random", "simple"),
              players: Sequence[int] = range(2, 6), seed: int = 1, count: int = 100,
              **_: Any) -> None:
        from ...interop.hle import require
        from ...interop.hle_agents import AGENTS, check_seed
        require()
        bad = [a for a in agents if a not in AGENTS]
        if bad:
            raise UsageError(f"study hle: {{agents}} {bad[0]}: expected one of "
                             + ", ".join(AGENTS), "agents")
        wrong = [p for p in players if not 2 <= p <= 5]
        if wrong:
            raise UsageError(f"study hle: {{players}} {wrong[0]}: HLE has 2 to 5 players",
                             "players")
        check_seed(seed, max(count, 1))

    def run(self, csv_path: str, seed: int = 1, count: int = 100,
            players: Sequence[int] = range(2, 6), agents: Sequence[str] = ("random", "simple"),
            time_limit: float | None = 10.0, progress: bool = False,
            execution: Execution = SERIAL) -> Sweep:
        self.check(agents, players, seed, count)
        rows = self.mod().run(csv_path, seed, count, players, agents, time_limit, progress,
                              execution)
        return self.sweep(rows, keep=lambda r: int(r["players"]) in players
                          and r["agent"] in agents and seed <= int(r["seed"]) < seed + count)

    def plot(self, rows: list[dict], stem: str, csv_path: str | None = None,
             force: bool = False) -> list[str]:
        return []


class Strategies(_ModuleStudy):
    """Hidden-information strategies against each deck's exact bound."""

    name, module = "strategies", "strategies"

    def check(self, players: Sequence[int] = range(2, 7),
              strategies: Sequence[str] | None = None, **_: Any) -> list[str]:
        """The strategies asked (default: every registered one)."""
        from ...players.strategy import get_strategy, strategies as table
        bad = [p for p in players if not 2 <= p <= 6]
        if bad:
            raise InvalidParameter(f"study strategies: {{players}} {bad[0]}: expected 2 to 6",
                                   "players")
        chosen = list(strategies or table())
        for name in chosen:
            get_strategy(name)          # an unknown name: its one-line error
        return chosen

    def run(self, csv_path: str, seed: int = 1, count: int | Callable[[int], int] = 200,
            players: Sequence[int] = range(2, 7), strategies: Sequence[str] | None = None,
            bound: bool = True, time_limit: float | None = 10.0, progress: bool = False,
            execution: Execution = SERIAL) -> Sweep:
        """``count``: decks per player count, or a function of the player count."""
        from ...io.results_csv import ResultsCSV
        from ...players.strategy import strategies as table
        chosen = self.check(players, strategies)
        counts = count if callable(count) else (lambda _: count)
        mod, registered = self.mod(), table()
        for p in players:
            fit = [n for n in chosen if registered[n].min_players <= p <= registered[n].max_players]
            mod.run(csv_path, seed, counts(p), [p], fit, bound, time_limit, progress,
                    execution=execution)
        rows = ResultsCSV(csv_path, mod.FIELDS, mod.KEY)
        return Sweep(rows, self.games(rows.rows, seed, counts, players, chosen))

    @staticmethod
    def games(rows: list[dict], seed: int, count: Callable[[int], int],
              players: Sequence[int], strategies: Sequence[str], strikes: int = 3,
              variant: str | None = None) -> list[dict]:
        """The rows of ``count(p)`` games from ``seed`` on for each player count ``p``
        (``play --games`` as well as this study), in the CSV's order."""
        return [r for r in rows if int(r["players"]) in players and r["strategy"] in strategies
                and int(r["strike_limit"]) == strikes
                and (variant is None or r["variant"] == variant)
                and seed <= int(r["seed"]) < seed + count(int(r["players"]))]


class Hard(_ModuleStudy):
    """Adversarial search for decks that are hard for one method."""

    name, module = "hard", "hard"

    def check(self, ns: Sequence[int] = (4,), cs: Sequence[int] = (2,), r: int = 2,
              hands: Sequence[int] = (1,), method: str = "search",
              measure: str | None = None, **_: Any) -> str:
        """The effort counter to maximise (``measure``, default the method's first)."""
        from .effort import check_measure
        measure = check_measure(method, measure)
        sizes = [(n, c, h) for h in hands for c in cs for n in ns]
        check_at_most("study hard: --n x --c x --hand is", len(sizes), MAX_SWEEP_POINTS,
                      "sizes of one sweep")
        for n, c, _h in sizes:
            check_kinds(n, c, "study hard --n, --c")
            check_cards(n * c * r, f"study hard: n = {n}, c = {c}, r = {r}", option=None)
        return measure

    def run(self, csv_path: str, seed: int = 1, ns: Sequence[int] = (4,),
            cs: Sequence[int] = (2,), r: int = 2, copies: str = "exact",
            hands: Sequence[int] = (1,), method: str = "search", measure: str | None = None,
            steps: int = 500, budget: float | None = None, patience: int = 200,
            random_count: int = 50, exhaustive: bool = False, conflict_limit: int = 2_000_000,
            keep: int = 3, out_dir: str = "results/hard", time_limit: float | None = 60.0,
            force: bool = False, progress: bool = False, execution: Execution = SERIAL,
            on_swept: Callable[[ResultsCSV, list[dict]], None] | None = None) -> Sweep:
        """The search on every size, then the ``keep`` hardest decks of each written to
        ``out_dir`` (``on_swept(rows, mine)`` between the two)."""
        import shlex

        from . import hard_decks
        hard = self.mod()
        measure = self.check(ns, cs, r, hands, method, measure)
        sizes = [(n, c, h) for h in hands for c in cs for n in ns]
        keys = [hard.Config(seed, n, c, r, h, copies == "exact", method, measure).key
                for n, c, h in sizes]
        hard_decks.check_out(out_dir, keys, keep, force)
        cap = {"sat": conflict_limit, "cpsat": time_limit, "search": time_limit}
        argv = ["hanabi-cp", "study", "hard", "--n", ",".join(map(str, ns)),
                "--c", ",".join(map(str, cs)), "--r", r, "--copies", copies,
                "--hand", ",".join(map(str, hands)), "--method", method, "--measure", measure,
                "--seed", seed, "--patience", patience]
        command = " ".join(shlex.quote(str(a)) for a in argv)
        done = hard.sweep(csv_path, seed, sizes, r, copies == "exact", method, measure, steps,
                          budget, random_count, exhaustive, patience, cap, out_dir, keep,
                          command, force, progress, execution, on_swept=on_swept)
        return Sweep(done.rows, done.mine, done.rows.added,
                     {"seed": seed, "r": r, "copies": copies, "method": method,
                      "measure": measure}, done.written)


STANDARD, RANDOM, REDUCTION, LIVE = Standard(), RandomDecks(), Reduction(), Live()
HLE, STRATEGIES, HARD = HleAgents(), Strategies(), Hard()

# The one table of studies, in the order ``hanabi-cp study --help`` lists them.
STUDIES: Registry[Study] = Registry("study", [
    (name, f"{__name__}:{attr}") for name, attr in (
        ("standard", "STANDARD"), ("random", "RANDOM"), ("reduction", "REDUCTION"),
        ("live", "LIVE"), ("hard", "HARD"), ("hle", "HLE"), ("strategies", "STRATEGIES"))])


def study(name: str) -> Study:
    """The study called ``name`` (``STUDIES``); InvalidParameter naming the others."""
    if name not in STUDIES:
        raise InvalidParameter(f"no study {name!r}; choose from {', '.join(STUDIES.names())}")
    return STUDIES.load(name)
