"""Any CNF -> an equisatisfiable exact 3-CNF (three distinct variables per clause).

The reduction of journal §5 needs every clause to have three literals of three
distinct variables.  ``to_exact3`` gets there from any CNF and keeps the map back
to the original variables (see encodings/reduction-to3cnf.md):

- repeated literals are merged; a clause with complementary literals is dropped;
- variables that no clause mentions are dropped (read back as false), the others
  are renumbered 1..u in increasing original order;
- a clause of 1 or 2 literals is completed with two shared fresh variables p, q:
  (l) -> (l p q)(l p -q)(l -p q)(l -p -q), (a b) -> (a b p)(a b -p); each group is
  equivalent to the short clause whatever p and q are;
- a clause of k > 3 literals becomes the chain (l1 l2 t1)(-t1 l3 t2)...(-t_{k-3} l_{k-1} lk);
- an empty clause makes the formula unsatisfiable: the result is the eight clauses
  over three fresh variables, which no assignment satisfies.

>>> t = to_exact3(CNF.of([(1, 1, -3), (3,)], num_vars=4))
>>> t.cnf.clauses
((1, -2, 3), (1, -2, -3), (2, 3, 4), (2, 3, -4), (2, -3, 4), (2, -3, -4))
>>> t.back
(1, 3, None, None)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from collections.abc import Mapping

from ...solvers.formula import CNF


@dataclass(frozen=True)
class Exact3:
    """The exact 3-CNF and how its variables relate to the original formula's."""

    original: CNF
    cnf: CNF
    back: tuple[int | None, ...]        # back[v-1]: original variable of v, None if auxiliary
    chains: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]  # (clause lits, t vars), new numbering

    def variable_map(self) -> str:
        """Which original variable each variable stands for, in one line (a deck
        file's comment): the moved ones, or counts when there are many."""
        moved = [(i, b) for i, b in enumerate(self.back, 1) if b != i]
        if not moved:
            return "variable i is original variable i"
        if len(moved) > 30:
            aux = sum(b is None for b in self.back)
            return (f"{len(self.back) - aux} variables map to original ones (renumbered or "
                    f"copies), {aux} are auxiliary")
        return "exact -> original: " + ", ".join(f"{i}->{b if b is not None else 'aux'}"
                                                  for i, b in moved)

    @property
    def identity(self) -> bool:
        return self.cnf == self.original and all(b == v for v, b in enumerate(self.back, 1))

    def to_original(self, assignment: Mapping[int, bool]) -> dict[int, bool]:
        """Restrict an assignment of the exact 3-CNF to the original variables
        (variables the transformation dropped are false)."""
        out = dict.fromkeys(range(1, self.original.num_vars + 1), False)
        done = set()
        for v, orig in enumerate(self.back, start=1):
            if orig is not None and orig not in done:   # copies (bound_occurrences): the first
                out[orig] = bool(assignment.get(v, False))
                done.add(orig)
        return out

    def lift(self, assignment: Mapping[int, bool]) -> dict[int, bool]:
        """Extend an assignment of the original formula to the exact 3-CNF.

        If it satisfies the original formula, the result satisfies ``cnf``: padding
        variables are free, and chain variable t_i is true iff l1..l_{i+1} are all false.
        """
        out = dict.fromkeys(range(1, self.cnf.num_vars + 1), False)
        for v, orig in enumerate(self.back, start=1):
            if orig is not None:
                out[v] = bool(assignment.get(orig, False))

        def val(lit: int) -> bool:          # chains are stored in the new numbering
            return out[abs(lit)] == (lit > 0)

        for lits, ts in self.chains:
            carry = not (val(lits[0]) or val(lits[1]))
            for i, t in enumerate(ts):
                out[t] = carry
                if i + 2 < len(lits):
                    carry = carry and not val(lits[i + 2])
        return out


def _clean(clause) -> tuple[int, ...] | None:
    """Merge repeated literals; None for a tautology."""
    lits = tuple(dict.fromkeys(clause))
    return None if any(-l in lits for l in lits) else lits


def is_exact3(cnf: CNF) -> bool:
    """Every clause has three literals of three distinct variables."""
    return all(len(c) == 3 and len({abs(l) for l in c}) == 3 for c in cnf.clauses)


def to_exact3(cnf: CNF) -> Exact3:
    """Transform ``cnf`` into an equisatisfiable exact 3-CNF (identity if it already is one
    and uses every variable)."""
    used = sorted({abs(l) for c in cnf.clauses for l in c})
    # distinct, sorted, within 1..num_vars: all of them iff there are num_vars
    # (never a list of num_vars items: the header may declare billions)
    if is_exact3(cnf) and len(used) == cnf.num_vars:
        return Exact3(cnf, cnf, tuple(range(1, cnf.num_vars + 1)), ())
    if any(len(c) == 0 for c in cnf.clauses):
        clauses = [tuple(s * v for s, v in zip(signs, (1, 2, 3)))
                   for signs in itertools.product((1, -1), repeat=3)]
        return Exact3(cnf, CNF(3, tuple(clauses)), (None, None, None), ())
    cleaned = [c for c in (_clean(c) for c in cnf.clauses) if c is not None]
    used = sorted({abs(l) for c in cleaned for l in c})
    new_of = {orig: i for i, orig in enumerate(used, start=1)}
    back: list[int | None] = list(used)

    def fresh() -> int:
        back.append(None)
        return len(back)

    pads: list[int] = []

    def pad(i: int) -> int:
        while len(pads) <= i:
            pads.append(fresh())
        return pads[i]

    out: list[tuple[int, ...]] = []
    chains = []
    for clause in cleaned:
        lits = tuple(new_of[abs(l)] * (1 if l > 0 else -1) for l in clause)
        if len(lits) == 1:
            p, q = pad(0), pad(1)
            out += [(lits[0], sp * p, sq * q) for sp in (1, -1) for sq in (1, -1)]
        elif len(lits) == 2:
            p = pad(0)
            out += [(*lits, p), (*lits, -p)]
        elif len(lits) == 3:
            out.append(lits)
        else:
            ts = tuple(fresh() for _ in range(len(lits) - 3))
            out.append((lits[0], lits[1], ts[0]))
            for i in range(1, len(ts)):
                out.append((-ts[i - 1], lits[i + 1], ts[i]))
            out.append((-ts[-1], lits[-2], lits[-1]))
            chains.append((lits, ts))
    return Exact3(cnf, CNF(len(back), tuple(out)), tuple(back), tuple(chains))


def occurrences(cnf: CNF) -> dict[int, int]:
    """Number of clauses each variable occurs in."""
    occ = dict.fromkeys(range(1, cnf.num_vars + 1), 0)
    for c in cnf.clauses:
        for v in {abs(l) for l in c}:
            occ[v] += 1
    return occ


def bound_occurrences(e: Exact3, kappa: int = 5) -> Exact3:
    """Make every variable occur in at most ``kappa`` (>= 5) clauses, keeping exact 3-CNF.

    A variable x with k > kappa occurrences gets copies x = x_1, x_2, ..., x_k, one per
    occurrence, tied by the cycle x_1 -> x_2 -> ... -> x_k -> x_1 of 2-clauses, each
    completed to (-x_i x_{i+1} y)(-x_i x_{i+1} -y) with its own fresh y.  Each copy then
    occurs 1 + 2 + 2 = 5 times, each y twice.  Copies map back to x's original variable.

    >>> e = bound_occurrences(to_exact3(CNF.of([(1, 2, 3)] * 6)))
    >>> max(occurrences(e.cnf).values()), e.cnf.num_clauses, e.back[:4]
    (5, 42, (1, 2, 3, 1))
    """
    if kappa < 5:
        raise ValueError("the occurrence bound needs kappa >= 5")
    occ = occurrences(e.cnf)
    back = list(e.back)
    clauses = [list(c) for c in e.cnf.clauses]
    extra: list[tuple[int, ...]] = []

    def fresh(orig: int | None) -> int:
        back.append(orig)
        return len(back)

    for x in range(1, e.cnf.num_vars + 1):
        if occ[x] <= kappa:
            continue
        copies = [x]
        seen = False
        for clause in clauses:
            for i, lit in enumerate(clause):
                if abs(lit) == x:
                    if seen:
                        cp = fresh(back[x - 1])
                        copies.append(cp)
                        clause[i] = cp if lit > 0 else -cp
                    seen = True
        for i, a in enumerate(copies):
            b = copies[(i + 1) % len(copies)]
            y = fresh(None)
            extra += [(-a, b, y), (-a, b, -y)]
    cnf = CNF(len(back), tuple(tuple(c) for c in clauses) + tuple(extra))
    return Exact3(e.original, cnf, tuple(back), e.chains)
