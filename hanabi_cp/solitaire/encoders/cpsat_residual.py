"""The CP-SAT decision model of a large deck: the residual of its compact CNF.

``build_residual`` runs the windows analysis and the CNF builder (solitaire/encoders/cnf.py),
eliminates variables (solitaire/encoders/residual.py) and writes what is left straight into
the model's CpModelProto in bulk (solitaire/encoders/cpsat_bulk.py): one Boolean per residual variable,
one ``bool_or`` per residual clause.  On a reduction image the residual is the formula
the deck came from, so the CP-SAT model has the formula's size, not the deck's, and a solution
is extended back to the whole CNF and decoded as the "sat" method decodes it
(the ``CpsatEncoding``'s ``decoder``; it has no copy variables of its own);
the method that solves it is ``solitaire/methods/cpsat.py``.
Proofs: encodings/cnf-images.md §6 (elimination), encodings/cpsat.md §3 (use).

>>> from hanabi_cp.core.model import Deck
>>> from hanabi_cp.solitaire.methods.cpsat import solve_model
>>> from hanabi_cp.solitaire.solve import SolveOptions
>>> m = build_residual(Deck.of([(2, 1), (1, 1), (3, 1)]), 1)
>>> solve_model(m, SolveOptions()).plays.actions
'SPP'
"""

from __future__ import annotations

import time

from ...runtime.deadline import NEVER, Deadline
from ...core.model import Deck
from ...core.status import Status
from .cnf import build
from .cpsat import BUILD
from .cpsat_bulk import BulkModel
from .encoding import CpsatEncoding
from .residual import residual_stats, simplify


def build_residual(deck: Deck, h: int, deadline: Deadline = NEVER) -> CpsatEncoding:
    """The residual CNF of (deck, h) as a CP-SAT model (see the module docstring)."""
    t0 = time.perf_counter()
    enc = build(deck, h, deadline=deadline)
    stats = {k: v for k, v in enc.stats.items() if k != "cardinality_sets"}
    stats["cnf_variables"], stats["cnf_clauses"] = stats.pop("variables"), stats.pop("clauses")
    if enc.status is not None:
        return CpsatEncoding(deck=deck, h=h, formula=None, status=Status.UNWINNABLE,
                             reason=enc.reason, stats=stats)
    res = simplify(enc.clauses, enc.num_vars, deadline=deadline)
    stats.update(residual_stats(res))
    if res.unsat:
        return CpsatEncoding(deck=deck, h=h, formula=None, status=Status.UNWINNABLE, stats=stats,
                             reason="variable elimination of the CNF derived the empty clause")
    deadline.check(BUILD)
    t1 = time.perf_counter()
    b = BulkModel()
    used = sorted({abs(lit) for c in res.clauses for lit in c})
    index = {v: b.bool_var() for v in used}
    # CP-SAT literals: variable i is i, its negation -i-1.
    for c in res.clauses:
        lits = ",".join([str(index[lit]) if lit > 0 else str(-index[-lit] - 1) for lit in c])
        b.add(f"bool_or{{literals:[{lits}]}}")
    m = b.model()
    N = max(deck.N, 1)
    stats.update({"variables": len(used), "constraints": len(res.clauses),
                  "variables_per_card": round(len(used) / N, 6),
                  "constraints_per_card": round(len(res.clauses) / N, 6),
                  "proto_seconds": round(time.perf_counter() - t1, 6),
                  "build_seconds": round(time.perf_counter() - t0, 6)})

    def decode(value):
        model = [v if value(i) else -v for i, v in enumerate(used)]
        return enc.decode(res.literals(model))

    return CpsatEncoding(deck=deck, h=h, formula=m, stats=stats, decoder=decode)
