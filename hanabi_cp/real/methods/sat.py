"""Method "sat": the CNF of ``real.encoders.cnf`` (encodings/live-cnf.md) under a pysat solver
(CaDiCaL 1.9.5 by default), through the one sliced entry point
``sat_backend.SatSession`` / ``run_limited`` (deadline checks every ~0.1 s).  The CNF
encodes the rest of the game from the position the method is given (the deal or
any later state); all or nothing is refused (``schedule.refuses``).

First the greedy game of ``real.hint`` is tried as assumptions (its slots, fates and
runs): when the CNF has a model extending it, unit propagation finds it at once, and
that model answers like any other (the game is decoded and replayed); when it has
none, the solver's "no" under those assumptions proves nothing and is not used: the
search starts again without them.  This is CP-SAT's solution hint, for a SAT solver.

The best score (``--maximize``): ask for a win first (an assumption on the
totalizer below), or, given a game to start from (``SolveOptions.incumbent``)
that a model extends, take that model; failing that, find a complete game, then
ask again for at least one more card on the piles (a unit clause on a totalizer
over the piles' top literals), until the solver says no: one solver throughout,
incremental, so what it learned proving one score stays for the next.

With ``SolveOptions.proof``, the last, unsatisfiable, call is made again with proof
logging (``proofs.prove_unsat``): its clauses (the CNF, and with ``maximize`` the
totalizer and the unit clause "more than the best score") are written to FILE.cnf
and the DRUP proof to FILE, checked by ``drup`` before the answer is given.  A proof
the checker rejects, or one it cannot check in time, leaves the answer UNKNOWN.
In Up or Down and Sudoku FILE is a folder: each plan's "no" is proved into it
(``real.plan_proofs``), and the whole is checked before the loss is answered.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import replace

from pysat.card import ITotalizer

from ...runtime.deadline import Deadline, TimeUp
from ...core.errors import SolverBug
from ...solvers.sat_backend import SatSession, built_whole, check_solver
from ...core.options import DEFAULT_SOLVER, SolveOptions
from ...core.status import Status
from ..encoders.cnf import LiveCnf
from ..hint import hint_choices
from ..encoders.schedule import ZERO_ENDS, first_legal_game, refuses
from ..pile_order import in_pile_order
from ..pile_plans import Plan
from ..encoders.plans import best_by_plans, by_plans
from ..referee import Game
from ..solve import LiveMethod, LiveOutcome, decided_now

# Set in a race's lane whose calls run unsliced (``sat_backend.PLAIN``): a lane ended
# at the deadline inside a call returns nothing, so each better game the climb finds
# is handed to this at once (an UNKNOWN outcome with the game), and the lane sends it.
RUNG: ContextVar[Callable[[LiveOutcome], None] | None] = \
    ContextVar("hanabi_cp_sat_rung", default=None)


def run(start: Game, options: SolveOptions) -> LiveOutcome:
    dealt = decided_now(start, options.maximize)
    if dealt is not None:
        return dealt
    deadline = options.clock()
    solver = check_solver(options.solver)
    if start.chosen is not None:        # Up or Down, Sudoku: plan by plan (8.5)
        return _plans(start, options, deadline, solver)
    start = in_pile_order(start)        # reversed suits (encodings/variants.md, 7.5)
    if options.maximize:
        return _best(start, options, deadline, solver)
    return _win(start, options, deadline, solver)


def _plans(start: Game, options: SolveOptions, deadline: Deadline,
           solver: str) -> LiveOutcome:
    """Whether the position can be won, or its best score, plan by plan; with
    ``options.proof`` each plan's "no" refuted again with proof logging into a bundle
    (``real.plan_proofs``), checked as a whole before a loss is answered."""
    bundle = None
    if options.proof:
        from ...solvers.proofs import proof_solver
        from ..plan_proofs import BundleWriter
        bundle = BundleWriter(start, options.proof, proof_solver(solver), deadline,
                              options.workers)
    try:
        if options.maximize:
            # each plan's CNF with hanab.live's early ends read on the real piles,
            # climbed from the best score of the plans before it (encodings/variants.md,
            # 8.5, "The best score in Up or Down" and "The best score in Sudoku")
            plain = replace(options, proof=None)
            out = best_by_plans(start, "SAT solver", lambda plan, floor: _refuted(
                bundle, plan, floor, _best(start, plain, deadline, solver, plan, floor)))
        else:
            out = by_plans(start, "SAT solver", lambda plan: _refuted(
                bundle, plan, None, _win(start, options, deadline, solver, plan)))
        if bundle is None or out.status is not Status.UNWINNABLE:
            return out
        return _bundled(bundle, out, options)
    finally:
        if bundle is not None:
            bundle.discard()


def _refuted(bundle, plan: Plan, floor: int | None, out: LiveOutcome) -> LiveOutcome:
    """A plan's outcome; a "no" (for the best score: no game above its best, or above
    ``floor`` when none scores more) proved into the bundle when there is one."""
    if bundle is not None and out.status is Status.UNWINNABLE:
        bundle.prove(plan, None if floor is None else
                     out.score if out.score is not None else floor)
    return out


def _bundled(bundle, out: LiveOutcome, options: SolveOptions) -> LiveOutcome:
    """The plan loop's loss with its bundle checked and in place, or UNKNOWN."""
    from ...solvers.proofs import unproved
    try:
        checked = bundle.finish(out.score if options.maximize else None)
    except TimeUp as exc:
        return LiveOutcome(Status.UNKNOWN, out.actions, out.score, unproved(exc),
                           stats=out.stats)
    if checked.error is not None:       # no folder written: the loss is unproved
        why = f"SAT solver said no, but its proof bundle is not checked: {checked.error}"
        return LiveOutcome(Status.UNKNOWN, out.actions, out.score, why,
                           stats={**out.stats, "proof_attempt": why})
    stats = {**out.stats, "proof": options.proof, "proof_bundle": checked.text,
             "proof_checked": True}
    return replace(out, stats=stats, reason=f"{out.reason} (proofs: {options.proof}, "
                                            f"checked by drup)")


def _best(start: Game, options: SolveOptions, deadline: Deadline, solver: str,
          plan: Plan | None = None, floor: int = -1, ceiling: int | None = None
          ) -> LiveOutcome:
    """The best score of the position's CNF (of one pile plan's game, scoring more
    than ``floor``; the climb stopped at ``ceiling``), by ``_maximize``'s climb."""
    try:
        enc = LiveCnf(start, True, deadline, plan)
    except TimeUp as exc:
        return LiveOutcome(Status.UNKNOWN, reason=str(exc))
    try:
        return _maximize(enc, solver, deadline, {**enc.stats, "solver": solver},
                         time.perf_counter(), options, floor, ceiling)
    except TimeUp as exc:
        # loading the CNF into the solver, before its first call (the climb's own
        # calls answer their time-outs with the best game so far)
        return LiveOutcome(Status.UNKNOWN, stats=dict(enc.stats), reason=str(exc))


def at_least(start: Game, goal: int, deadline: Deadline,
             solver: str = DEFAULT_SOLVER) -> LiveOutcome:
    """Whether some complete game from ``start`` scores ``goal`` or more: such a
    game (its actions and score, for the caller's referee to replay), UNWINNABLE
    without a score when no game does, UNKNOWN without one at the deadline.  The
    climb stops at ``goal``: the post-mortem asks it where ``goal`` is known to be
    the most any game scores (an alternative at a drop)."""
    return _best(start, SolveOptions(), deadline, solver, floor=goal - 1, ceiling=goal)


def _win(start: Game, options: SolveOptions, deadline: Deadline, solver: str,
         plan: Plan | None = None) -> LiveOutcome:
    """Whether the CNF of the position (of one pile plan's game) has a winning model."""
    try:
        # the implied clauses only if the greedy game is no model: a win found at
        # once need not build and load them (encodings/live-cnf.md §5)
        enc = LiveCnf(start, False, deadline, plan, defer_implied=True)
    except TimeUp as exc:
        return LiveOutcome(Status.UNKNOWN, reason=str(exc))
    stats = {**enc.stats, "solver": solver}
    t0 = time.perf_counter()
    try:
        ok, model = solve_hinted(enc, enc.clauses, solver, deadline, stats)
    except TimeUp as exc:
        stats["solve_seconds"] = round(time.perf_counter() - t0, 6)
        return LiveOutcome(Status.UNKNOWN, stats=stats, reason=str(exc))
    stats["solve_seconds"] = round(time.perf_counter() - t0, 6)
    if ok and model is not None:
        return LiveOutcome(Status.WINNABLE, enc.decode(model), stats=stats)
    lost = LiveOutcome(Status.UNWINNABLE, stats=stats,
                       reason="SAT solver: unsatisfiable (no legal game wins)")
    if plan is not None:
        return lost         # one plan's "no": ``_plans`` proves it into the bundle
    return _proved(lost, enc.clauses, enc, options, deadline, "no legal game wins")


def _proved(out: LiveOutcome, clauses: list[list[int]], enc: LiveCnf, options: SolveOptions,
            deadline: Deadline, claim: str) -> LiveOutcome:
    """``out`` (an answer resting on ``clauses`` being unsatisfiable) with a checked
    DRUP proof of that when ``options.proof`` asks for one; UNKNOWN if the proof
    cannot be written and checked in time."""
    if not options.proof:
        return out
    from ...solvers.proofs import proof_solver, proof_stats, prove_unsat, rejected, unproved
    stats = dict(out.stats)
    top = max((abs(x) for c in clauses for x in c), default=0)
    try:
        res = prove_unsat(clauses, top, options.proof, solver=proof_solver(options.solver),
                          deadline=deadline,
                          comments=[f"hanabi-cp live CNF: {enc.start.rules.describe()}, "
                                    f"{enc.start.deck.N} cards; unsatisfiable: {claim}"])
    except TimeUp as exc:
        return LiveOutcome(Status.UNKNOWN, out.actions, out.score, unproved(exc), stats=stats)
    if not res.unsat:       # the solvers disagree: never an answer
        raise SolverBug("sat: the CNF was unsatisfiable, then satisfiable with proof logging")
    stats.update(proof_stats(res))
    if not res.valid:
        return LiveOutcome(Status.UNKNOWN, out.actions, out.score, rejected(res), stats=stats)
    return replace(out, stats=stats,
                   reason=f"{out.reason} (proof: {res.proof_path}, checked by drup)")


def solve_hinted(enc: LiveCnf, clauses: list[list[int]], solver: str, deadline: Deadline,
                 stats: dict) -> tuple[bool, list[int] | None]:
    """A model of ``clauses`` if there is one: first one extending the greedy game
    from the encoded position, else any (``stats["hint"]`` says which answered)."""
    with SatSession(clauses, solver, deadline) as session:
        return hinted(session, enc, stats)


def hinted(session: SatSession, enc: LiveCnf, stats: dict) -> tuple[bool, list[int] | None]:
    """``solve_hinted`` in an open session (what the solver learns under the hint's
    assumptions follows from the clauses, so the second call keeps it)."""
    hint = enc.literals(*hint_choices(enc.start))
    ok, model, _ = session.solve(hint)
    if ok:
        stats["hint"] = "greedy game extended"
        return True, model
    stats["hint"] = "greedy game not a model"
    implied = enc.add_implied()
    for clause in implied:
        session.add_clause(clause)
    if implied:
        stats["implied_clauses"] = len(implied)
    ok, model, _ = session.solve()
    return bool(ok), model


def _maximize(enc: LiveCnf, solver: str, deadline: Deadline, stats: dict,
              t0: float, options: SolveOptions, floor: int = -1,
              ceiling: int | None = None) -> LiveOutcome:
    """The climb (see the module's docstring); with ``floor`` >= 0 only the games
    scoring more than it (none: an outcome without a score, no proof asked); with
    ``ceiling``, it stops at a game scoring that much (UNKNOWN: nothing proved)."""
    target = len(enc.played)
    top = target if ceiling is None else min(ceiling, target)
    best: tuple[int, list[int]] | None = None       # (score, model)
    tot = built_whole(ITotalizer, [-x for x in enc.played], ubound=target, top_id=enc.pool.top)
    clauses = enc.clauses + tot.cnf.clauses
    calls = 0
    with SatSession(clauses, solver, deadline) as session:
        if floor >= 0:
            if floor >= target:
                return LiveOutcome(Status.UNWINNABLE, stats=stats)
            session.add_clause([-tot.rhs[target - floor - 1]])
        if options.incumbent is not None:
            try:
                best = _extend(session, enc, options.incumbent, stats)
            except TimeUp as exc:
                stats.update(solve_seconds=round(time.perf_counter() - t0, 6), sat_calls=0)
                return LiveOutcome(Status.UNKNOWN, stats=stats, reason=str(exc))
            calls += 1
        while best is None or best[0] < top:
            # One solver throughout: each better score is asked for by a unit clause
            # (score >= best + 1 <=> at most target - best - 1 piles short of the top),
            # kept since no later call wants less, and what the solver learned stays.
            try:
                if best is None and top < target:      # a climb with a ceiling
                    ok, model = hinted(session, enc, stats)
                elif best is None:      # the first call: later ones have a best game
                    # a win first: on a winnable deal the one call that matters (the
                    # climb's last step costs as much), on a lost one the first "no"
                    ok, model, _ = session.solve([-tot.rhs[0]])
                    if not ok:
                        calls += 1
                        ok, model = hinted(session, enc, stats)
                else:
                    session.add_clause([-tot.rhs[target - best[0] - 1]])
                    ok, model, _ = session.solve()
            except TimeUp as exc:
                stats.update(solve_seconds=round(time.perf_counter() - t0, 6),
                             sat_calls=calls)
                if best is None:
                    return LiveOutcome(Status.UNKNOWN, stats=stats, reason=str(exc))
                # The best game found so far is still a lower bound (the referee checks it).
                return LiveOutcome(Status.UNKNOWN, enc.decode(best[1]), best[0], stats=stats,
                                   reason=f"{exc}: best score found {best[0]} of {target}")
            calls += 1
            if not ok or model is None:
                break
            best = (_score(enc, model), model)
            rung = RUNG.get()
            if rung is not None and best[0] < target:
                rung(LiveOutcome(Status.UNKNOWN, enc.decode(model), best[0], method="sat",
                                 reason=f"best score found {best[0]} of {target}"))
    stats.update(solve_seconds=round(time.perf_counter() - t0, 6), sat_calls=calls)
    if best is None and floor >= 0:
        return LiveOutcome(Status.UNWINNABLE, stats=stats,
                           reason=f"SAT solver: no complete game scores more than {floor}")
    if best is None:
        # No complete game keeps below the strike limit (and, in a speedrun, a copy of
        # every card still needed): every one scores 0.
        zero = ZERO_ENDS[enc.lay.speedrun]
        return _proved(LiveOutcome(Status.UNWINNABLE, first_legal_game(enc.start), 0,
                                   stats=stats, reason=f"SAT solver: every complete game {zero}"),
                       clauses, enc, options, deadline, f"every complete game {zero}")
    score, model = best
    if score == target:
        return LiveOutcome(Status.WINNABLE, enc.decode(model), score, stats=stats)
    if score >= top:        # stopped at the ceiling: a game, no bound proved
        return LiveOutcome(Status.UNKNOWN, enc.decode(model), score, stats=stats,
                           reason=f"a game scoring {score} (the climb stops at {top})")
    lost = LiveOutcome(Status.UNWINNABLE, enc.decode(model), score, stats=stats,
                       reason=f"SAT solver: no complete game plays more than {score} of "
                              f"{target} cards")
    return _proved(lost, clauses + [[-tot.rhs[target - score - 1]]], enc, options, deadline,
                   f"no complete game plays more than {score} of {target} cards")


def _score(enc: LiveCnf, model: list[int]) -> int:
    true = {lit for lit in model if lit > 0}
    return sum(x in true for x in enc.played)


def _extend(session: SatSession, enc: LiveCnf, game: tuple,
            stats: dict) -> tuple[int, list[int]] | None:
    """(score, model) of the model extending the complete game ``game`` from the
    encoded position (``SolveOptions.incumbent``), or None when the CNF has none
    that does (a run of clues longer than the encoding's cap, say): the "no" under
    those assumptions proves nothing, and the climb starts without it."""
    ok, model, _ = session.solve(enc.literals(*hint_choices(enc.start, game)))
    stats["incumbent"] = "extended" if ok else "not a model"
    return (_score(enc, model), model) if ok and model is not None else None


METHOD = LiveMethod("sat", run, "CNF over slots, clue runs and card-leaves-at-slot literals "
                    "+ pysat solver (CaDiCaL 1.9.5 by default); --maximize by a totalizer",
                    refuses=refuses, maximizes=True)
