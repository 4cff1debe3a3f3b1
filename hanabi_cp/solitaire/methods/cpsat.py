"""Method "cpsat": CP-SAT on the models of ``solitaire/encoders/cpsat.py`` (encodings/cpsat.md).

Small decks get the interval model (``build_decide``, or ``build_maximize`` for the
score); from RESIDUAL_FROM_CARDS cards on the decision model is the residual of the
compact CNF (``solitaire/encoders/cpsat_residual.py``): on reduction images it has the
formula's size, where the interval model grows with the deck (20-33 s on a uf50
image against 2-3 s for "sat").  Below it the interval model costs milliseconds
and, being a second encoding, keeps the harness's cross-check of "sat" and "cpsat"
independent.  Every solver parameter is set in ``configure``.

>>> from hanabi_cp.core.model import Deck
>>> from hanabi_cp.solitaire.encoders.cpsat import build_decide, build_maximize
>>> solve_model(build_decide(Deck.of([(2, 1), (1, 1), (3, 1)]), 1), SolveOptions()).plays.actions
'SPP'
>>> solve_model(build_decide(Deck.of([(3, 1), (2, 1), (1, 1)]), 1), SolveOptions()).status
<Status.UNWINNABLE: 'UNWINNABLE'>
>>> out = solve_model(build_maximize(Deck.of([(2, 1), (3, 1), (1, 1)]), 1),
...                   SolveOptions(maximize=True))
>>> out.score, out.plays.actions
(2, 'SDP')
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ...runtime.deadline import Deadline, TimeUp
from ..encoders.cpsat import _ortools, build_decide, build_maximize, greedy_picks
from ..encoders.encoding import CpsatEncoding, decode_picks
from ..encoders.residual import RESIDUAL_FROM_CARDS
from ...solvers.cpsat import configure
from ...core.errors import SolverBug
from ...core.model import Deck
from ...runtime.nogc import without_gc
from ..solve import Method, Outcome
from ...core.options import SolveOptions
from ...core.status import Status

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

SEARCH = "CP-SAT search"
# CP-SAT looks at its time limit only between its own phases, and loading a model
# takes about LOAD_RATIO times what Python took to build it (0.27-0.37 measured on
# reduction images of 10^5 cards; bench.time_limits), uninterruptibly.  With less
# time left than that, CP-SAT would stop right after loading, UNKNOWN, having
# overrun the limit by seconds: the method answers UNKNOWN at once instead.
LOAD_RATIO = 0.25


def solve_model(enc: CpsatEncoding, options: SolveOptions,
                deadline: Deadline | None = None) -> Outcome:
    """Run CP-SAT on the model ``enc.formula`` until it decides or ``deadline``
    (default ``options.clock()``)."""
    stats = dict(enc.stats)
    if enc.status is not None:
        return Outcome(enc.status, reason=enc.reason, stats=stats)
    deadline = options.clock() if deadline is None else deadline
    # What went into the model itself (the residual model: only its proto).
    built = stats.get("proto_seconds",
                      stats.get("build_seconds", 0.0) - stats.get("preprocess_seconds", 0.0))
    if deadline.remaining() <= LOAD_RATIO * built:
        out = Outcome(Status.UNKNOWN, reason=str(TimeUp(deadline.limit, SEARCH)), stats=stats)
        return with_greedy_bound(enc.deck, enc.h, out) if enc.maximize else out
    cp_model, _ = _ortools()
    solver = cp_model.CpSolver()
    configure(solver, options, deadline)
    t0 = time.perf_counter()
    assert enc.formula is not None      # None only when building decided the question
    code = solver.solve(enc.formula)
    stats.update({"solve_seconds": round(time.perf_counter() - t0, 6),
                  "cpsat_status": solver.status_name(code),
                  "cpsat_wall_seconds": round(solver.wall_time, 6),
                  "cpsat_branches": solver.num_branches,
                  "cpsat_conflicts": solver.num_conflicts})
    return (_maximize_outcome if enc.maximize else _decide_outcome)(
        enc, solver, code, options, stats)


def solution(solver: cp_model.CpSolver):
    """value(index) -> int of the solver's solution: the models name their variables
    by proto index (solitaire/encoders/cpsat_bulk.py)."""
    return list(solver.response_proto.solution).__getitem__


def _decide_outcome(enc: CpsatEncoding, solver, code, options, stats) -> Outcome:
    cp_model, _ = _ortools()
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Outcome(Status.WINNABLE, enc.decode(solution(solver)), stats=stats)
    if code == cp_model.INFEASIBLE:
        return Outcome(Status.UNWINNABLE, reason="CP-SAT: infeasible (no choice of one "
                       "copy per card keeps the hand within h)", stats=stats)
    return _unknown(enc, code, options, stats)


def _maximize_outcome(enc: CpsatEncoding, solver, code, options, stats) -> Outcome:
    cp_model, _ = _ortools()
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        value = solution(solver)
        plays = enc.decode(value)
        score = sum(value(v) for v in enc.played.values())
        target = enc.deck.target
        bound = int(round(solver.best_objective_bound))
        stats["objective_bound"] = bound
        if score == target:
            return Outcome(Status.WINNABLE, plays, score=score, stats=stats)
        if code == cp_model.OPTIMAL:
            return Outcome(Status.UNWINNABLE, plays, score=score, stats=stats,
                           reason=f"CP-SAT: at most {score} of {target} cards can be "
                                  f"played (proved optimal)")
        return Outcome(Status.UNKNOWN, plays, score=score, stats=stats,
                       reason=f"{_time_up(options)}: best score found {score}, "
                              f"upper bound {bound} of {target}")
    if code == cp_model.INFEASIBLE:
        # Playing nothing is always feasible: this is our bug, not the user's.
        raise SolverBug("cpsat: the maximize model is infeasible")
    return with_greedy_bound(enc.deck, enc.h, _unknown(enc, code, options, stats))


def _unknown(enc: CpsatEncoding, code, options, stats) -> Outcome:
    cp_model, _ = _ortools()
    if code == cp_model.UNKNOWN:
        return Outcome(Status.UNKNOWN, reason=_time_up(options), stats=stats)
    if code == cp_model.MODEL_INVALID:
        assert enc.formula is not None  # CP-SAT only reports on a model it was given
        return Outcome(Status.UNKNOWN, reason="CP-SAT rejected the model: "
                       + (enc.formula.validate() or "no reason given"), stats=stats)
    raise SolverBug(f"cpsat: unexpected CP-SAT status {code!r}")


def _time_up(options: SolveOptions) -> str:
    return str(TimeUp(options.clock().limit, SEARCH))


def with_greedy_bound(deck: Deck, h: int, out: Outcome) -> Outcome:
    """A maximize outcome without a solution still gets a verified lower bound: the
    greedy game (linear time, so also affordable once the time limit has passed)."""
    picks = greedy_picks(deck, h)
    out.plays, out.score = decode_picks(deck, picks), len(picks)
    out.reason = f"{out.reason}; a greedy game plays {len(picks)} of {deck.target} cards"
    return out


@without_gc
def run(deck: Deck, h: int, options: SolveOptions) -> Outcome:
    deadline = options.clock()
    large = deck.N >= RESIDUAL_FROM_CARDS
    if not options.maximize:
        if large:
            from ..encoders.cpsat_residual import build_residual
            return solve_model(build_residual(deck, h, deadline), options, deadline)
        return solve_model(build_decide(deck, h, deadline=deadline), options, deadline)
    try:
        if large:
            # A win is a largest score: decide first, on the formula-sized model; the
            # score model (one interval per card, no pruning) only for a lost deck.
            from ..encoders.cpsat_residual import build_residual
            won = solve_model(build_residual(deck, h, deadline), options, deadline)
            if won.status is Status.WINNABLE:
                won.score = deck.target
                return won
        return solve_model(build_maximize(deck, h, deadline), options, deadline)
    except TimeUp as exc:
        return with_greedy_bound(deck, h, Outcome(Status.UNKNOWN, reason=str(exc)))


METHOD = Method("cpsat", run, "OR-Tools CP-SAT: one copy per card, play-time chains, "
                "hold intervals under cumulatives of capacity h; --maximize for the score",
                maximizes=True, prepare=_ortools)
