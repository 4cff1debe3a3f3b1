"""Method "sat": the compact CNF (solitaire/encoders/cnf.py) under any pysat solver.

On decks of RESIDUAL_FROM_CARDS cards or more the solver gets the residual of the
CNF (solitaire/encoders/residual.py: bounded variable elimination; on reduction images it is
the formula itself), and its model is extended back to the whole CNF before
decoding.  A model is decoded
into a play sequence (the registry replays it); unsatisfiable means UNWINNABLE,
with a DRUP proof (of the whole CNF) checked by ``drup`` when SolveOptions.proof
names a file; a time limit runs out as UNKNOWN, never as a guess.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from ...runtime.deadline import Deadline, TimeUp
from ...core.model import Deck
from ...runtime.nogc import without_gc
from ..play_sequence import PlaySequence
from ...solvers.sat_backend import check_solver, sat_solve
from ..solve import Method, Outcome
from ...core.options import SolveOptions
from ...core.status import Status
from ...core.status import Reason
from ..encoders.cnf import build
from ..encoders.encoding import CnfEncoding
from ..encoders.residual import RESIDUAL_FROM_CARDS, residual_stats, simplify

# How an UNWINNABLE without a proof says to ask for one (``hc.solve``'s keyword; the
# CLI spells it as its flag).
PROOF = "proof=FILE"


@without_gc
def run(deck: Deck, h: int, options: SolveOptions) -> Outcome:
    deadline = options.clock()
    solver = check_solver(options.solver)
    t0 = time.perf_counter()
    enc = build(deck, h, deadline=deadline)
    t_build = time.perf_counter() - t0
    stats = dict(enc.stats)
    stats["build_seconds"] = round(t_build, 6)
    stats["solver"] = solver
    if enc.status is Status.UNWINNABLE:
        return Outcome(Status.UNWINNABLE, reason=enc.reason, stats=stats)
    stats.pop("cardinality_sets", None)
    t1 = time.perf_counter()
    if options.proof:
        # The proof is of the whole CNF: drup checks it without trusting elimination.
        return _with_proof(deck, h, enc, options, deadline, stats, t1)
    if deck.N < RESIDUAL_FROM_CARDS:
        # A small deck: its whole CNF goes to the solver (elimination would cost more).
        return _solve(enc.clauses, solver, deadline, stats, enc.decode)
    try:
        # Elimination belongs to building: it makes the encoding formula-sized.
        res = simplify(enc.clauses, enc.num_vars, deadline=deadline)
    except TimeUp as exc:
        stats["solve_seconds"] = round(time.perf_counter() - t1, 6)
        return Outcome(Status.UNKNOWN, reason=str(exc), stats=stats)
    stats.update(residual_stats(res))
    stats["build_seconds"] = round(t_build + res.seconds, 6)
    if res.unsat:
        stats["solve_seconds"] = 0.0
        return Outcome(Status.UNWINNABLE, reason=Reason(
            "SAT solver: unsatisfiable (variable elimination derived the empty clause; no "
            "proof requested, use {proof})", proof=PROOF), stats=stats)
    return _solve(res.clauses, solver, deadline, stats,
                  lambda model: enc.decode(res.literals(model)))


def _solve(clauses: Sequence[Sequence[int]], solver: str, deadline: Deadline, stats: dict,
           decode: Callable[[list[int]], PlaySequence]) -> Outcome:
    """The solver on ``clauses`` (the whole CNF or its residual); ``decode`` turns a
    model into the play sequence."""
    t1 = time.perf_counter()
    try:
        ok, model, sstats = sat_solve(clauses, solver, deadline)
    except TimeUp as exc:
        stats["solve_seconds"] = round(time.perf_counter() - t1, 6)
        return Outcome(Status.UNKNOWN, reason=str(exc), stats=stats)
    stats["solve_seconds"] = round(time.perf_counter() - t1, 6)
    stats.update({f"sat_{k}": v for k, v in sstats.items()})
    if ok:
        return Outcome(Status.WINNABLE, decode(model), stats=stats)
    return Outcome(Status.UNWINNABLE, reason=Reason(
        "SAT solver: unsatisfiable (no proof requested; use {proof})", proof=PROOF), stats=stats)


def _with_proof(deck: Deck, h: int, enc: CnfEncoding, options: SolveOptions, deadline: Deadline,
                stats: dict, t1: float) -> Outcome:
    from ...solvers.proofs import proof_solver, proof_stats, prove_unsat, rejected, unproved
    assert options.proof is not None
    try:
        res = prove_unsat(enc.clauses, enc.num_vars, options.proof,
                          solver=proof_solver(options.solver),
                          comments=[f"hanabi-cp sat encoding of a {deck.N}-card deck, h = {h}"],
                          deadline=deadline)
    except TimeUp as exc:
        stats["solve_seconds"] = round(time.perf_counter() - t1, 6)
        return Outcome(Status.UNKNOWN, reason=unproved(exc), stats=stats)
    stats["solve_seconds"] = round(time.perf_counter() - t1, 6)
    if not res.unsat:
        assert res.model is not None    # prove_unsat keeps the model of a satisfiable CNF
        return Outcome(Status.WINNABLE, enc.decode(res.model), stats=stats)
    stats.update(proof_stats(res))
    if not res.valid:
        return Outcome(Status.UNKNOWN, reason=rejected(res), stats=stats)
    return Outcome(Status.UNWINNABLE, reason=f"SAT solver: unsatisfiable (proof: "
                   f"{res.proof_path}, checked by drup)", stats=stats)


METHOD = Method("sat", run, "compact CNF + pysat solver (CaDiCaL 1.9.5 by default); "
                "DRUP proofs with --proof")
