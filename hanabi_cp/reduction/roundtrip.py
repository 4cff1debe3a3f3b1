"""Reduce a formula, solve the deck, map the answer back, compare with a SAT solver.

One ``RoundtripRow`` per formula: sizes, the two verdicts, whether they agree,
whether the read-back assignment satisfies the ORIGINAL formula and whether the
proof's play for the SAT solver's model wins (both checked, not assumed), timings.
A formula that cannot be read or reduced is a row too (``agreement`` ``error``,
the message in ``error``).  Rows are identified by ``KEY``: ``roundtrip --csv``
skips formulas whose row is already there.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace

from ..version import __version__
from ..cnf import CNF
from ..deadline import Deadline
from ..errors import HanabiError
from ..limits import MAX_CARDS
from ..satsolver import DEFAULT_SOLVER
from ..solvers import SolveOptions, Status, solve
from .sat3 import reduce_cnf
from .witnesses import ReadbackFailure, assignment_from_play, play_from_assignment


@dataclass
class RoundtripRow:
    file: str
    vars: int | None            # None (empty in the CSV) on an error row
    clauses: int | None
    cards: int | None
    n: int | None
    c: int | None
    r: int | None
    h: int
    variant: str                # the reduction's options: base, or e.g. "copies=3 kappa"
    method: str                 # as asked (auto stays auto)
    deck_verdict: str           # WINNABLE / UNWINNABLE / UNKNOWN
    formula_verdict: str        # SAT / UNSAT (CaDiCaL on the original formula)
    agreement: str              # yes / NO / unknown (deck undecided) / error
    readback_checked: str       # winning play -> assignment satisfies the formula: yes/FAILED/-
    witness_checked: str        # SAT model -> proof's play accepted by the referee: yes/FAILED/-
    reduce_seconds: float | None
    solve_seconds: float | None
    sat_seconds: float | None
    error: str = ""             # why the formula could not be read or reduced
    version: str = __version__

    @classmethod
    def header(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    @classmethod
    def failed(cls, file: str, method: str, h: int, variant: str, error: str) -> RoundtripRow:
        return cls(file, None, None, None, None, None, None, h, variant, method, "", "", "error",
                   "", "", None, None, None, error)

    def row(self) -> list:
        return list(asdict(self).values())

    def as_dict(self) -> dict:
        return asdict(self)

    @property
    def disagrees(self) -> bool:
        return disagrees(self.as_dict())


KEY = ("file", "method", "h", "variant")


def disagrees(row: dict) -> bool:
    """A row (as written, or read back from a CSV) where something does not match."""
    return "NO" in str(row["agreement"]) or "FAILED" in (row["readback_checked"],
                                                         row["witness_checked"])


def variant_name(copies: int | None = None, kappa: bool = False) -> str:
    """``base``, or the reduction options that change the deck.

    >>> variant_name(), variant_name(3, True)
    ('base', 'copies=3 kappa')
    """
    parts = ([f"copies={copies}"] if copies is not None else []) + (["kappa"] if kappa else [])
    return " ".join(parts) or "base"


def formula_sat(cnf: CNF, solver: str = DEFAULT_SOLVER) -> tuple[bool, dict[int, bool] | None]:
    from ..satsolver import sat_solve

    sat, lits, _ = sat_solve([list(c) for c in cnf.clauses], solver)
    if not sat:
        return False, None
    model = {abs(l): l > 0 for l in lits or ()}
    return True, {v: model.get(v, False) for v in range(1, cnf.num_vars + 1)}


def roundtrip(cnf: CNF, name: str = "", method: str = "sat", h: int = 2,
              copies: int | None = None, kappa: bool = False,
              options: SolveOptions | None = None,
              max_cards: int | None = MAX_CARDS) -> RoundtripRow:
    options = options or SolveOptions()
    # The time limit is per formula: the reduction counts, the check on the formula
    # itself (the reference answer) does not.
    deadline = Deadline.after(options.time_limit)
    t0 = time.perf_counter()
    red = reduce_cnf(cnf, h=h, copies=copies, kappa=kappa, max_cards=max_cards)
    t1 = time.perf_counter()
    out = solve(red.deck, red.h, method, replace(options, deadline=deadline))
    t2 = time.perf_counter()
    sat, model = formula_sat(cnf)
    t3 = time.perf_counter()
    readback = witness = "-"
    if out.status is Status.WINNABLE:
        assert out.plays is not None       # solve certifies every WINNABLE play sequence
        try:
            assignment_from_play(red, out.plays)  # raises unless it satisfies the formula
            readback = "yes"
        except ReadbackFailure:
            readback = "FAILED"
    if sat:
        assert model is not None           # formula_sat returns a model exactly when sat
        try:
            play_from_assignment(red, model)      # raises unless the referee accepts
            witness = "yes"
        except HanabiError:
            witness = "FAILED"
    if out.status is Status.UNKNOWN:
        agreement = "unknown"
    else:
        agreement = "yes" if (out.status is Status.WINNABLE) == sat else "NO"
    d = red.deck
    return RoundtripRow(name, cnf.num_vars, cnf.num_clauses, d.N, d.n, d.c, d.r, red.h,
                        variant_name(copies, kappa), method, out.status.value,
                        "SAT" if sat else "UNSAT", agreement, readback, witness,
                        round(t1 - t0, 4), round(t2 - t1, 4), round(t3 - t2, 4))


def roundtrip_row(cnf: CNF, name: str, method: str, h: int, copies: int | None, kappa: bool,
                  options: SolveOptions, max_cards: int | None,
                  names: Mapping[str, str] | None = None) -> dict:
    """``roundtrip`` as a CSV row (a task of ``executors.run_tasks``); a formula that
    cannot be reduced (too many cards) is an error row, not an exception, its message
    naming parameters as ``names`` spells them (the CLI's flags)."""
    try:
        return roundtrip(cnf, name, method=method, h=h, copies=copies, kappa=kappa,
                         options=options, max_cards=max_cards).as_dict()
    except HanabiError as exc:
        if names:
            exc.rename(names)
        return RoundtripRow.failed(name, method, h, variant_name(copies, kappa), str(exc)).as_dict()
