"""A CNF formula: the input of the reduction and the output of the CNF encoder.

Literals are non-zero ints in DIMACS convention (pysat's too).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain
from collections.abc import Iterable, Mapping, Sequence

from ..core.errors import FormulaError


@dataclass(frozen=True)
class CNF:
    """A formula in conjunctive normal form over variables 1..num_vars.

    >>> f = CNF.of([(1, -2), (2, 3)])
    >>> f.num_vars, f.num_clauses, f.satisfied_by([1, 2, -3]), f.first_falsified({1: False})
    (3, 2, True, 2)
    """

    num_vars: int
    clauses: tuple[tuple[int, ...], ...]
    comments: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        clauses = tuple(tuple(c) for c in self.clauses)
        object.__setattr__(self, "clauses", clauses)
        # C-level passes over millions of literals; the loop below only names the culprit.
        lits = list(chain.from_iterable(clauses))
        if lits and (max(lits) > self.num_vars or min(lits) < -self.num_vars or 0 in lits):
            for j, clause in enumerate(clauses, start=1):
                for lit in clause:
                    if lit == 0 or abs(lit) > self.num_vars:
                        raise FormulaError(f"clause {j}: literal {lit} outside 1..{self.num_vars}")

    @classmethod
    def of(cls, clauses: Iterable[Sequence[int]], num_vars: int | None = None) -> CNF:
        clause_tuples = [tuple(c) for c in clauses]
        if num_vars is None:
            num_vars = max((abs(l) for c in clause_tuples for l in c), default=0)
        return cls(num_vars, tuple(clause_tuples))

    @property
    def num_clauses(self) -> int:
        return len(self.clauses)

    def satisfied_by(self, assignment: Mapping[int, bool] | Sequence[int]) -> bool:
        """True iff every clause has a true literal.

        ``assignment`` is a map var -> bool, or a list of literals (pysat model style);
        unassigned variables count as false.
        """
        if not isinstance(assignment, Mapping):
            assignment = {abs(l): l > 0 for l in assignment}
        return all(any(assignment.get(abs(l), False) == (l > 0) for l in c) for c in self.clauses)

    def first_falsified(self, assignment: Mapping[int, bool]) -> int | None:
        """1-based index of the first clause the assignment falsifies, or None."""
        for j, c in enumerate(self.clauses, start=1):
            if not any(assignment.get(abs(l), False) == (l > 0) for l in c):
                return j
        return None
