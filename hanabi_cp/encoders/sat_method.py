"""Method "sat": the compact CNF (encoders/cnf.py) under any pysat solver.

A model is decoded into a play sequence (the registry replays it); unsatisfiable
means UNWINNABLE, with a DRUP proof checked by ``drup`` when SolveOptions.proof
names a file; a time limit runs out as UNKNOWN, never as a guess.
"""

from __future__ import annotations

import time

from ..errors import HanabiError
from ..model import Deck
from ..solvers import Method, Outcome, SolveOptions, Status, register
from .cnf import build

# CaDiCaL 1.9.5 cannot be interrupted from another thread through pysat, so time
# limits are enforced with conflict budgets that grow geometrically.
FIRST_BUDGET = 2_000


def sat_solve(clauses, solver: str = "cadical195", time_limit: float | None = None,
              assumptions=()):
    """(True, model) / (False, None) / (None, None) on time-out; plus solver stats."""
    from pysat.solvers import Solver, SolverNames

    if not hasattr(SolverNames, solver):
        names = ", ".join(n for n in vars(SolverNames) if not n.startswith("_"))
        raise HanabiError(f"unknown pysat solver {solver!r}; choose from {names}")
    with Solver(name=solver) as s:
        s.append_formula(clauses)
        return run_limited(s, time_limit, assumptions)


def run_limited(s, time_limit: float | None, assumptions=()):
    """Solve with ``s`` within ``time_limit`` seconds (None: no limit)."""
    if time_limit is None:
        ok = s.solve(assumptions=assumptions)
    else:
        deadline = time.perf_counter() + time_limit
        budget, ok = FIRST_BUDGET, None
        while ok is None and time.perf_counter() < deadline:
            s.conf_budget(budget)
            ok = s.solve_limited(assumptions=assumptions)
            budget *= 2
    stats = s.accum_stats() or {}
    return ok, (s.get_model() if ok else None), stats


def run(deck: Deck, h: int, options: SolveOptions) -> Outcome:
    t0 = time.perf_counter()
    enc = build(deck, h)
    t_build = time.perf_counter() - t0
    stats = dict(enc.stats)
    stats["build_seconds"] = round(t_build, 6)
    stats["solver"] = options.solver
    if enc.status == "UNWINNABLE":
        return Outcome(Status.UNWINNABLE, reason=enc.reason, stats=stats)
    stats.pop("cardinality_sets", None)
    t1 = time.perf_counter()
    if options.proof:
        from ..proofs import prove_unsat
        res = prove_unsat(enc.clauses, enc.num_vars, options.proof,
                          solver=options.solver if options.solver.startswith("cadical") else "cadical195",
                          comments=[f"hanabi-cp sat encoding of a {deck.N}-card deck, h = {h}"])
        stats["solve_seconds"] = round(time.perf_counter() - t1, 6)
        if not res.unsat:
            return Outcome(Status.WINNABLE, enc.decode(res.model), stats=stats)
        stats.update({"proof": res.proof_path, "proof_cnf": res.cnf_path,
                      "proof_lines": res.lines, "proof_checked": res.valid})
        if not res.valid:
            return Outcome(Status.UNKNOWN, reason=f"SAT solver said unsatisfiable but drup "
                           f"rejected its proof {res.proof_path}", stats=stats)
        return Outcome(Status.UNWINNABLE, reason=f"SAT solver: unsatisfiable (proof: "
                       f"{res.proof_path}, checked by drup)", stats=stats)
    ok, model, sstats = sat_solve(enc.clauses, options.solver, options.time_limit)
    stats["solve_seconds"] = round(time.perf_counter() - t1, 6)
    stats.update({f"sat_{k}": v for k, v in sstats.items()})
    if ok is None:
        return Outcome(Status.UNKNOWN, reason=f"time limit of {options.time_limit} s reached",
                       stats=stats)
    if ok:
        return Outcome(Status.WINNABLE, enc.decode(model), stats=stats)
    return Outcome(Status.UNWINNABLE, reason="SAT solver: unsatisfiable (no proof requested; "
                   "use --proof FILE)", stats=stats)


register(Method("sat", run, "compact CNF + pysat solver (CaDiCaL 1.9.5 by default); "
                "DRUP proofs with --proof"))
