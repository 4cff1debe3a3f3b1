"""The one place that opens a pysat solver: the default solver name, sliced solving
that keeps deadlines and Ctrl-C, and sessions for what one call does not offer.

``sat_solve(clauses)`` answers one formula.  A ``SatSession`` (a context manager
around one open solver) serves the callers that need more: clauses added between
calls and assumptions (min_hand), proof logging (proofs), a single call under a
fixed conflict budget whose counters do not depend on the machine (apps/studies/effort).

>>> sat_solve([[1, 2], [-1], [-2, 3]])[:2]
(True, [-1, 2, 3])
>>> with SatSession([[1, 2], [-1, 2]]) as s:
...     s.solve(assumptions=[-2])[0], s.solve()[0]
(False, True)
>>> check_solver("nosuch")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
hanabi_cp.core.errors.InvalidParameter: unknown pysat solver 'nosuch'; choose from ...
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from contextvars import ContextVar
from types import TracebackType
from typing import Any, TypeVar

from ..runtime import interrupts
from ..runtime.deadline import NEVER, Deadline
from ..core.errors import InvalidParameter, MethodRefused
from ..core.options import DEFAULT_SOLVER

# The pysat solvers whose DRUP output the proofs module has been checked against.
PROOF_SOLVERS = (DEFAULT_SOLVER, "cadical153")

# CaDiCaL 1.9.5 cannot be interrupted from another thread through pysat, so the
# solver runs in slices bounded by a conflict budget, and Python gets control back
# between slices: to check the deadline, and to let a signal handler run (Ctrl-C).
# The budget adapts so that a slice takes about SLICE_SECONDS (conflicts cost from
# microseconds to milliseconds, depending on the formula).
FIRST_BUDGET = 1_000
SLICE_SECONDS = 0.1
LOAD_CHUNK = 50_000             # clauses handed to the solver between deadline checks
# Set in a race's lane (real/race.py ``_lane_main``), a process its parent ends at the
# deadline: each call runs whole, unsliced, so that CaDiCaL keeps its own restart
# and mode schedule, which the slices cut (2p 4004 "score >= 22?": 0.4-0.7 s plain,
# often none in 15-40 s sliced; encodings/live-search.md, 5b).  The deadline is
# still checked before each call, not during it.
PLAIN: ContextVar[bool] = ContextVar("hanabi_cp_sat_plain", default=False)


# pysat solvers that cannot serve here, and why: every SAT use in hanabi-cp may call
# its solver more than once (a time limit runs it in conflict-budgeted slices; the
# hint, min_hand and --maximize use assumptions), and Kissat in pysat ignores
# assumptions and ends the whole process on a second call.
UNUSABLE = {
    "kissat404": "Kissat in pysat solves only once and ignores assumptions, and "
                 "hanabi-cp calls its SAT solver incrementally",
}


def check_solver(name: str) -> str:
    """``name`` if it is a pysat solver this installation has and hanabi-cp can use,
    else InvalidParameter naming the usable ones."""
    if name not in _listed():
        why = f"unknown pysat solver {name!r}"
    elif name in UNUSABLE:
        why = f"pysat solver {name!r} cannot be used: {UNUSABLE[name]}"
    elif not _installed(name):
        why = f"pysat solver {name!r} is not in this installation of python-sat (built without it)"
    else:
        return name
    raise InvalidParameter(f"{why}; choose from " + ", ".join(usable_solvers()))


def usable_solvers() -> list[str]:
    """The pysat solver names ``check_solver`` accepts here."""
    return [n for n in _listed() if n not in UNUSABLE and _installed(n)]


def _listed() -> list[str]:
    """Every solver name pysat knows of (built into this installation or not)."""
    from pysat.solvers import SolverNames

    return [n for n in vars(SolverNames) if not n.startswith("_")]


@functools.cache
def _installed(name: str) -> bool:
    """Whether this python-sat can open the solver (a name may be listed by pysat
    but left out of its build, as CryptoMiniSat usually is)."""
    from pysat.solvers import NoSuchSolverError, Solver

    try:
        release(built_whole(Solver, name=name))
    except NoSuchSolverError:
        return False
    return True


T = TypeVar("T")


def built_whole(make: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``make(*args, **kwargs)``, a pysat object that frees native memory in its
    ``__del__``, built before an interrupt raises: raised at the start of its
    ``__init__``, Ctrl-C or SIGTERM left an object without the attributes that
    ``__del__`` reads (an "Exception ignored" traceback on stderr)."""
    with interrupts.deferred():
        made = make(*args, **kwargs)
    return made


def release(s) -> None:
    """Delete the pysat object ``s`` (a solver, a totalizer) whole: pysat frees the
    native object, then forgets its pointer, and a Ctrl-C or SIGTERM raised between the two left the
    pointer for ``__del__`` to free a second time (a crash at exit)."""
    with interrupts.deferred():
        s.delete()


def sat_solve(clauses, solver: str = DEFAULT_SOLVER, deadline: Deadline = NEVER,
              assumptions=()):
    """(True, model) / (False, None), plus solver stats; TimeUp at the deadline."""
    with SatSession(clauses, solver, deadline) as s:
        return s.solve(assumptions)


class SatSession:
    """One open pysat solver, loaded with ``clauses`` (deadline checked between
    chunks) and deleted on leaving the ``with`` block; ``proof=True`` logs a DRUP
    proof (a solver of PROOF_SOLVERS)."""

    def __init__(self, clauses=(), solver: str = DEFAULT_SOLVER,
                 deadline: Deadline = NEVER, proof: bool = False):
        self.name = check_solver(solver)
        self.deadline = deadline
        self._clauses, self._proof = clauses, proof
        self._s = None

    def __enter__(self) -> SatSession:
        from pysat.solvers import Solver

        s = built_whole(Solver, name=self.name, with_proof=self._proof)
        try:
            load(s, self._clauses, self.deadline)
        except BaseException:
            release(s)
            raise
        self._s = s
        self._clauses = ()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        s, self._s = self._s, None
        if s is not None:
            release(s)

    @property
    def solver(self):
        if self._s is None:
            raise RuntimeError("SatSession used outside its with block")
        return self._s

    def add_clause(self, clause) -> None:
        self.solver.add_clause(clause)

    def solve(self, assumptions=(), phase: str = "SAT search"):
        """(ok, model or None, stats), in slices that keep the session's deadline."""
        return run_limited(self.solver, self.deadline, assumptions, phase)

    def solve_within(self, conflicts: int) -> bool | None:
        """One call under a budget of ``conflicts``: None when it runs out.  No deadline
        and no slicing, so its counters (``stats``) depend on the formula alone."""
        self.solver.conf_budget(conflicts)
        return self.solver.solve_limited()

    def stats(self) -> dict:
        """pysat's counters accumulated over every call (conflicts, decisions, ...)."""
        return self.solver.accum_stats() or {}

    def model(self) -> list[int] | None:
        return self.solver.get_model()

    def proof(self) -> list[str]:
        """The DRUP proof lines of the last unsatisfiable answer (``proof=True``)."""
        return self.solver.get_proof()


def load(s, clauses, deadline: Deadline) -> None:
    """Give ``clauses`` to the solver ``s`` in chunks, checking the deadline."""
    for i in range(0, len(clauses), LOAD_CHUNK):
        deadline.check("loading the CNF into the SAT solver")
        s.append_formula(clauses[i:i + LOAD_CHUNK])


def run_limited(s, deadline: Deadline = NEVER, assumptions=(), phase: str = "SAT search"):
    """Solve with ``s`` in slices of about SLICE_SECONDS until it answers; TimeUp
    once ``deadline`` passes.  Returns (ok, model or None, solver stats).  With
    PLAIN set: one call, its deadline checked only before it."""
    if PLAIN.get():
        deadline.check(phase)
        ok = s.solve(assumptions=assumptions)
    elif _interruptible(s):
        ok = _timed_slices(s, deadline, assumptions, phase)
    else:
        ok = _budgeted_slices(s, deadline, assumptions, phase)
    return ok, (s.get_model() if ok else None), s.accum_stats() or {}


def _budgeted_slices(s, deadline: Deadline, assumptions, phase: str) -> bool | None:
    """``run_limited`` for a solver no other thread can stop (CaDiCaL): each slice
    is bounded by a conflict budget that adapts to about SLICE_SECONDS."""
    budget = FIRST_BUDGET
    while True:
        deadline.check(phase)
        left = deadline.remaining()
        try:
            s.conf_budget(budget)
        except NotImplementedError:
            if deadline.bounded:
                raise MethodRefused("this pysat solver has no conflict budgets, so it cannot "
                                    f"keep a time limit; use {DEFAULT_SOLVER} or leave out "
                                    "{time_limit}", "time_limit") from None
            return s.solve(assumptions=assumptions)
        t0 = time.monotonic()
        ok = s.solve_limited(assumptions=assumptions)
        if ok is not None:
            return ok
        took = max(time.monotonic() - t0, 1e-4)
        goal = max(min(SLICE_SECONDS, left - took), 0.005)
        # At most 4x up or down per slice: one odd slice must not swing the budget.
        budget = max(100, int(min(max(budget * goal / took, budget / 4), budget * 4)))


def _interruptible(s) -> bool:
    """Whether pysat can stop the solver ``s`` from another thread (Glucose, MiniSat
    and their kin can; no CaDiCaL can)."""
    try:
        s.interrupt()
    except NotImplementedError:
        return False
    s.clear_interrupt()
    return True


def _timed_slices(s, deadline: Deadline, assumptions, phase: str) -> bool | None:
    """``run_limited`` for a solver another thread can stop: each slice is ended by
    a timer after SLICE_SECONDS (or at the deadline), not by a conflict budget, whose
    time varies a hundredfold (a Glucose slice of 887 conflicts took 1.6 s on a
    real-rules CNF, 0.1 s being the aim)."""
    import threading

    while True:
        deadline.check(phase)
        timer = threading.Timer(min(SLICE_SECONDS, max(deadline.remaining(), 0.0)),
                                s.interrupt)
        timer.start()
        try:
            ok = s.solve_limited(assumptions=assumptions, expect_interrupt=True)
        finally:
            timer.cancel()
            timer.join()
            s.clear_interrupt()
        if ok is not None:
            return ok
