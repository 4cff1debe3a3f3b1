"""The CP-SAT decision model of a large deck: the residual of its compact CNF.

``build_residual`` runs the windows analysis and the CNF builder (encoders/cnf.py),
eliminates variables (encoders/residual.py) and writes what is left straight into
the model's CpModelProto: one Boolean per residual variable, one ``bool_or`` per
residual clause.  On a reduction image the residual is the formula the deck came
from, so the CP-SAT model has the formula's size, not the deck's, and a solution
is extended back to the whole CNF and decoded as the "sat" method decodes it.
Proofs: encodings/cnf-images.md §6 (elimination), encodings/cpsat.md §3 (use).

>>> from hanabi_cp.model import Deck
>>> from hanabi_cp.solvers import SolveOptions
>>> m = build_residual(Deck.of([(2, 1), (1, 1), (3, 1)]), 1)
>>> m.solve(SolveOptions()).plays.actions
'SPP'
"""

from __future__ import annotations

import time

from ..deadline import NEVER, Deadline
from ..model import Deck
from ..solvers import Status
from .cnf import build
from .cpsat import BUILD, HanabiModel, _ortools
from .residual import simplify
from .sat_method import residual_stats


def build_residual(deck: Deck, h: int, deadline: Deadline = NEVER) -> HanabiModel:
    """The residual CNF of (deck, h) as a CP-SAT model (see the module docstring)."""
    t0 = time.perf_counter()
    enc = build(deck, h, deadline=deadline)
    stats = {k: v for k, v in enc.stats.items() if k != "cardinality_sets"}
    stats["cnf_variables"], stats["cnf_clauses"] = stats.pop("variables"), stats.pop("clauses")
    if enc.status is not None:
        return HanabiModel(deck, h, False, None, decided=Status.UNWINNABLE, reason=enc.reason,
                           stats=stats)
    res = simplify(enc.clauses, enc.num_vars, deadline=deadline)
    stats.update(residual_stats(res))
    if res.unsat:
        return HanabiModel(deck, h, False, None, decided=Status.UNWINNABLE, stats=stats,
                           reason="variable elimination of the CNF derived the empty clause")
    deadline.check(BUILD)
    cp_model, _ = _ortools()
    t1 = time.perf_counter()
    m = cp_model.CpModel()
    proto = m.proto
    used = sorted({abs(lit) for c in res.clauses for lit in c})
    index = {v: i for i, v in enumerate(used)}
    for _ in used:
        proto.variables.add().domain.extend((0, 1))
    # CP-SAT literals: variable i is i, its negation -i-1.
    for c in res.clauses:
        proto.constraints.add().bool_or.literals.extend(
            [index[lit] if lit > 0 else -index[-lit] - 1 for lit in c])
    N = max(deck.N, 1)
    stats.update({"variables": len(used), "constraints": len(res.clauses),
                  "variables_per_card": round(len(used) / N, 6),
                  "constraints_per_card": round(len(res.clauses) / N, 6),
                  "proto_seconds": round(time.perf_counter() - t1, 6),
                  "build_seconds": round(time.perf_counter() - t0, 6)})

    def decode(value):
        # value() takes variables: a bare int would be read as a constant.
        model = [v if value(m.get_bool_var_from_proto_index(i)) else -v
                 for i, v in enumerate(used)]
        return enc.decode(res.literals(model))

    return HanabiModel(deck, h, False, m, stats=stats, decode=decode)
