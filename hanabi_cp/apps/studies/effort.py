"""Deterministic solver effort: what ``study hard`` maximises, never wall time.

``evaluate(cards, n, c, h, method, cap)`` decides one deck with one method and
returns its verdict and counters that depend only on the instance (and a fixed
seed), so the same deck gives the same effort on any machine and under any load:

- ``sat``: the compact CNF (solitaire/encoders/cnf.py) given to CaDiCaL 1.9.5 in ONE call
  under a conflict budget of ``cap`` (the ``sat`` method slices its solve by wall
  time to keep time limits, which would make the counts depend on the machine);
  counters from pysat's ``accum_stats()``: conflicts, propagations, decisions.  A
  deck refuted by the window preprocessing costs 0 conflicts.
- ``cpsat``: the ``cpsat`` method with one worker and a fixed seed (CP-SAT is then
  deterministic); counters ``num_branches`` and ``num_conflicts``.
- ``search``: the ``search`` method's node count (``cap`` bounds the wall time).

A run that reaches its cap is UNKNOWN, its counters a lower bound.  Every
WINNABLE answer is replayed by the referee (``solitaire.solve.certify`` / ``solve``).
The function is top level and takes only plain values, so a process pool or a
dask cluster can run it.

>>> cards = ((2, 1), (1, 2), (1, 1), (2, 2), (2, 1))
>>> e = evaluate(cards, 2, 2, 1, "search")
>>> e
{'verdict': 'WINNABLE', 'search_nodes': 6}
>>> evaluate(((2, 1), (3, 1), (1, 1)), 3, 1, 1, "sat")["verdict"]
'UNWINNABLE'
"""

from __future__ import annotations

from ...core.errors import InvalidParameter
from ...core.model import Deck
from ...solitaire.solve import Outcome, certify, methods, solve
from ...core.options import SolveOptions
from ...core.status import Status

# method -> measures it can report (the first is the default objective); the tie
# break is the next counter of the same method, so that plateaus of the objective
# (e.g. 0 conflicts) still have a direction to climb.
MEASURES = {"sat": ("conflicts", "propagations", "decisions"),
            "cpsat": ("branches", "conflicts"),
            "search": ("nodes",)}
EFFORT_METHODS = tuple(MEASURES)
DEFAULT_CAP = {"sat": 2_000_000, "cpsat": 60.0, "search": 60.0}
CPSAT_SEED = 1                   # fixed: with one worker CP-SAT's counts repeat


def column(method: str, measure: str) -> str:
    """The CSV / stats name of a counter, e.g. ``sat_conflicts``."""
    return f"{method}_{measure}"


def check_measure(method: str, measure: str | None) -> str:
    if method not in MEASURES:
        raise InvalidParameter(f"method {method!r} has no deterministic effort measure; "
                          f"choose from {', '.join(EFFORT_METHODS)}")
    if measure is None:
        return MEASURES[method][0]
    if measure not in MEASURES[method]:
        raise InvalidParameter(f"method {method!r} measures {', '.join(MEASURES[method])}, "
                          f"not {measure!r}")
    return measure


def tie_break(method: str, measure: str) -> str | None:
    others = [m for m in MEASURES[method] if m != measure]
    return others[0] if others else None


def applicable(deck: Deck, h: int) -> list[str]:
    """The effort methods that accept (deck, h) (search refuses large decks)."""
    table = methods()
    return [m for m in EFFORT_METHODS if m in table and table[m].refuses(deck, h) is None]


def evaluate(cards, n: int, c: int, h: int, method: str, cap: float | None = None) -> dict:
    """{"verdict", every counter of ``method`` as ``method_measure``}; see the module."""
    deck = Deck.of([tuple(x) for x in cards], n, c)
    cap = DEFAULT_CAP[method] if cap is None else cap
    if method == "sat":
        return _sat(deck, h, int(cap))
    opts = SolveOptions(time_limit=float(cap), seed=CPSAT_SEED, workers=1)
    out = solve(deck, h, method, opts)
    if method == "cpsat":
        return {"verdict": out.status.value,
                "cpsat_branches": out.stats.get("cpsat_branches", 0),
                "cpsat_conflicts": out.stats.get("cpsat_conflicts", 0)}
    return {"verdict": out.status.value, "search_nodes": out.stats.get("nodes", 0)}


def _sat(deck: Deck, h: int, budget: int) -> dict:
    from ...solitaire.encoders.cnf import build
    from ...solvers.sat_backend import SatSession

    enc = build(deck, h)
    zero = {"sat_conflicts": 0, "sat_propagations": 0, "sat_decisions": 0}
    if enc.status is Status.UNWINNABLE:
        return {"verdict": Status.UNWINNABLE.value, **zero}
    with SatSession(enc.clauses) as s:
        ok = s.solve_within(budget)
        stats = s.stats()
        model = s.model() if ok else None
    counts = {column("sat", k): int(stats.get(k, 0)) for k in MEASURES["sat"]}
    if ok is None:
        return {"verdict": Status.UNKNOWN.value, **counts}
    if ok:
        assert model is not None        # a satisfiable session has a model
        certify(deck, h, Outcome(Status.WINNABLE, enc.decode(model), method="sat"))
        return {"verdict": Status.WINNABLE.value, **counts}
    return {"verdict": Status.UNWINNABLE.value, **counts}


def score(result: dict, method: str, measure: str) -> tuple[int, int]:
    """(objective, tie break) of an ``evaluate`` result, compared as a pair."""
    second = tie_break(method, measure)
    return (int(result[column(method, measure)]),
            int(result[column(method, second)]) if second else 0)
