"""UNSAT proofs: write a DRUP proof beside its CNF and check it independently.

The proof comes from a proof-producing pysat solver (CaDiCaL 1.9.5 with
``with_proof=True``); the check is done by the ``drup`` package (a separate
implementation of RUP/RAT checking), never by the solver that produced it.

>>> import os, tempfile
>>> cnf = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
>>> d = tempfile.mkdtemp()
>>> res = prove_unsat(cnf, 2, os.path.join(d, "p.drup"))
>>> res.unsat, res.valid
(True, True)
>>> check_files(res.cnf_path, res.proof_path)
True
>>> _ = open(res.proof_path, "w").write("0\\n")  # skips the lemmas
>>> check_files(res.cnf_path, res.proof_path)
False
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from .errors import HanabiError
from .formats.outputs import open_output

PROOF_SOLVERS = ("cadical195", "cadical153")


@dataclass(frozen=True)
class ProofResult:
    unsat: bool                 # False: the formula is satisfiable, no proof written
    valid: bool | None          # the checker's verdict (None when satisfiable)
    cnf_path: str | None
    proof_path: str | None
    model: list | None = None   # when satisfiable
    lines: int = 0              # proof lines written


def cnf_path_for(proof_path: str) -> str:
    """The CNF that a proof refers to is written next to it: ``P.cnf`` for ``P``."""
    return proof_path + ".cnf"


def write_cnf(clauses, num_vars: int, path: str, comments=()) -> None:
    with open_output(path, force=True) as out:
        for c in comments:
            out.write(f"c {c}\n")
        out.write(f"p cnf {num_vars} {len(clauses)}\n")
        out.write("".join(" ".join(map(str, cl)) + " 0\n" for cl in clauses))


def prove_unsat(clauses, num_vars: int, proof_path: str, solver: str = "cadical195",
                comments=()) -> ProofResult:
    """Solve with proof logging; if unsatisfiable, write CNF + proof and check them."""
    from pysat.solvers import Solver

    if solver not in PROOF_SOLVERS:
        raise HanabiError(f"solver {solver!r} cannot write proofs; use one of {', '.join(PROOF_SOLVERS)}")
    with Solver(name=solver, with_proof=True) as s:
        s.append_formula(clauses)
        if s.solve():
            return ProofResult(False, None, None, None, model=s.get_model())
        proof = s.get_proof()
    cnf_path = cnf_path_for(proof_path)
    write_cnf(clauses, num_vars, cnf_path, comments)
    with open_output(proof_path, force=True) as out:
        out.write("\n".join(proof) + "\n")
    return ProofResult(True, check_files(cnf_path, proof_path), cnf_path, proof_path,
                       lines=len(proof))


def check_files(cnf_path: str, proof_path: str) -> bool:
    """True iff ``drup`` accepts the proof as a refutation of the CNF."""
    import drup

    for p in (cnf_path, proof_path):
        if not os.path.exists(p):
            raise HanabiError(f"{p}: no such file")
    if os.path.getsize(proof_path) == 0:
        return False
    # drup's parser glues everything before the first " 0" into one chunk and drops it
    # when it starts with "c": a leading comment would silently drop the first clause.
    with open(cnf_path) as f:
        formula = "".join(line for line in f if not line.startswith("c"))
    with open(proof_path) as f:
        proof = f.read()
    try:
        res = drup.check_proof_from_strings(formula, proof)
    except ValueError as exc:
        raise HanabiError(f"{proof_path}: cannot check proof: {exc}") from None
    return res.outcome == drup.Outcome.VALID
