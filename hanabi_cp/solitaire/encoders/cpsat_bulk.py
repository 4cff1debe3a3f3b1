"""A CP-SAT model written in bulk: variables, constraints and hints accumulate as
protobuf text and reach the ``CpModelProto`` in a few ``merge_text_format`` calls.

OR-Tools' Python API costs one or more native calls, and a Python wrapper object,
per variable and per constraint (about 2 us each); filling the proto field by
field costs as much.  Parsing text is done in C++ at about 0.5 us a variable and
1.5 us a constraint, and the text itself is cheap to format.  Variables are
proto indices (ints), never ``IntVar`` objects.  The constraints are written as
the API writes them (linear terms sorted by variable, a comparison of constants
as a ``bool_or`` over a literal fixed to true), so a bulk model is the very proto
the call-by-call API builds (tests/test_cpsat_bulk.py).

>>> b = BulkModel()
>>> x, y = b.bool_var(), b.int_var_values([3, 4, 7])
>>> b.add(f"enforcement_literal:{x} linear{{vars:{y} coeffs:1 domain:[7,7]}}")
0
>>> b.hint(x, 1)
>>> m = b.model()
>>> [list(v.domain) for v in m.proto.variables], len(m.proto.constraints)
([[0, 1], [3, 4, 7, 7]], 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

INT_MIN, INT_MAX = -(2 ** 63), 2 ** 63 - 1
# Entries held as text before they are parsed: bounds the transient text (about
# 60 bytes an entry) on decks of 10^5 cards and more.
FLUSH = 1 << 16


def domain_text(values) -> str:
    """The domain of sorted distinct ``values`` as intervals of consecutive runs,
    as ``Domain.from_values`` stores it."""
    out = []
    it = iter(values)
    lo = hi = next(it)
    for x in it:
        if x == hi + 1:
            hi = x
        else:
            out.append(f"{lo},{hi}")
            lo = hi = x
    out.append(f"{lo},{hi}")
    return ",".join(out)


class BulkModel:
    """Variables and constraints by proto index; ``model()`` gives the CpModel."""

    def __init__(self) -> None:
        from ortools.sat.python import cp_model
        self._model = cp_model.CpModel()
        self._vars: list[str] = []
        self._cons: list[str] = []
        self._hint_vars: list[int] = []
        self._hint_values: list[int] = []
        self.num_vars = 0
        self.num_constraints = 0
        self._true: int | None = None

    def _var(self, domain: str) -> int:
        self._vars.append(f"variables{{domain:[{domain}]}}")
        self.num_vars += 1
        if len(self._vars) >= FLUSH:
            self._flush()
        return self.num_vars - 1

    def bool_var(self) -> int:
        return self._var("0,1")

    def int_var(self, lo: int, hi: int) -> int:
        return self._var(f"{lo},{hi}")

    def int_var_values(self, values) -> int:
        return self._var(domain_text(values))

    def true_literal(self) -> int:
        """The API's literal for the constant true: one variable fixed to 1, made
        on first use."""
        if self._true is None:
            self._true = self.int_var(1, 1)
        return self._true

    def add(self, body: str) -> int:
        """A constraint given as the text inside ``constraints { }``; its index."""
        self._cons.append(f"constraints{{{body}}}")
        self.num_constraints += 1
        if len(self._cons) >= FLUSH:
            self._flush()
        return self.num_constraints - 1

    def add_truth(self, holds: bool, enforce: str = "") -> int:
        """A comparison of two constants, as the API adds it: a clause over the
        true literal if it holds, else the empty clause."""
        lits = f"literals:{self.true_literal()}" if holds else ""
        return self.add(f"{enforce}bool_or{{{lits}}}")

    def hint(self, var: int, value: int | bool) -> None:
        self._hint_vars.append(var)
        self._hint_values.append(int(value))

    def _flush(self) -> None:
        # Merging appends to repeated fields, so flushing in pieces keeps the order.
        proto = self._model.proto
        if self._vars:
            proto.merge_text_format("".join(self._vars))
            self._vars = []
        if self._cons:
            proto.merge_text_format("".join(self._cons))
            self._cons = []

    def model(self, objective: str | None = None) -> cp_model.CpModel:
        """The model, with ``objective`` (text inside ``objective { }``) if given."""
        self._flush()
        proto = self._model.proto
        if self._hint_vars:
            proto.merge_text_format(
                f"solution_hint{{vars:[{','.join(map(str, self._hint_vars))}] "
                f"values:[{','.join(map(str, self._hint_values))}]}}")
            self._hint_vars, self._hint_values = [], []
        if objective is not None:
            proto.merge_text_format(f"objective{{{objective}}}")
        return self._model


def affine(x: int, is_var: bool) -> str:
    """A linear expression proto of one variable (coefficient 1) or a constant."""
    return f"vars:{x} coeffs:1" if is_var else f"offset:{x}"
