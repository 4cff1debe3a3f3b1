"""Flat containers for the CNF builder: clauses and variable names in integer arrays.

A clause held as a Python list of int objects costs about 150 bytes for two literals
(the list, one 28-byte int per literal above 256, the pointer to it); on a reduction
image lists of them would be the CNF builder's peak (bench/scale.py prints bytes
per card).  ``Clauses`` keeps every literal in one ``array('i')`` and the clause
ends in another: 4 bytes per literal and 8 per clause.  It reads like a list of
lists (``len``, indexing, iteration yield fresh lists), so pysat's ``Solver`` and ``Processor`` take it as
``bootstrap_with``.

>>> cs = Clauses([[1, -2], [3]])
>>> cs.append([-1])
>>> len(cs), cs[0], cs[-1], list(cs), cs == [[1, -2], [3], [-1]]
(3, [1, -2], [-1], [[1, -2], [3], [-1]], True)
>>> names = Names()
>>> names.append(("copy", 2, 1, 7)); names.append(None); names.append(("held", 1, 2, 3, 9))
>>> len(names), names[0], names[1], names[2], names[3]
(4, None, ('copy', 2, 1, 7), None, ('held', 1, 2, 3, 9))
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import overload


class Clauses(Sequence[list[int]]):
    """A list of clauses (lists of non-zero ints) stored in two flat arrays."""

    __slots__ = ("lits", "ends")

    def __init__(self, clauses: Iterable[Iterable[int]] = ()):
        self.lits = array("i")
        self.ends = array("q")
        for c in clauses:
            self.append(c)

    def append(self, clause: Iterable[int]) -> None:
        self.lits.extend(clause)
        self.ends.append(len(self.lits))

    def __len__(self) -> int:
        return len(self.ends)

    @overload
    def __getitem__(self, i: int) -> list[int]: ...

    @overload
    def __getitem__(self, i: slice) -> list[list[int]]: ...

    def __getitem__(self, i: int | slice) -> list[int] | list[list[int]]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        m = len(self.ends)
        j = i + m if i < 0 else i
        if not 0 <= j < m:
            raise IndexError("clause index out of range")
        start = self.ends[j - 1] if j else 0
        return self.lits[start:self.ends[j]].tolist()

    def __iter__(self) -> Iterator[list[int]]:
        lits, start = self.lits, 0
        for end in self.ends:
            yield lits[start:end].tolist()
            start = end

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple, Clauses)):
            return len(self) == len(other) and all(
                a == list(b) for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Clauses({list(self)!r})" if len(self) <= 10 else \
            f"<{len(self):,} clauses, {len(self.lits):,} literals>"


_KINDS = (None, "copy", "played_by", "held")


class Names(Sequence):
    """names[v]: the readable tuple of variable v (``(kind, ...)`` or None for an
    auxiliary variable), stored as a kind code and four integer arrays.  Index 0
    (no variable) is None, as in the list it replaces."""

    __slots__ = ("kind", "cols")

    def __init__(self) -> None:
        self.kind = bytearray(b"\x00")
        self.cols = tuple(array("i", [0]) for _ in range(4))

    def append(self, name: tuple | None) -> None:
        if name is None:
            self.kind.append(0)
            fields: tuple = ()
        else:
            self.kind.append(_KINDS.index(name[0]))
            fields = name[1:]
        for col, x in zip(self.cols, fields + (0,) * (4 - len(fields))):
            col.append(x)

    def __len__(self) -> int:
        return len(self.kind)

    def __getitem__(self, v):
        kind = _KINDS[self.kind[v]]
        if kind is None:
            return None
        width = 4 if kind == "held" else 3
        return (kind, *(col[v] for col in self.cols[:width]))


class CopyVars(Mapping[int, int]):
    """The builder's map position -> ``copy`` variable, as one int32 array over the
    deck's positions (0: no variable).

    A dict would hold two int objects per entry, allocated among the builder's
    transient objects; alive through the solve, they would keep the allocator's
    memory of those objects too (bench/scale.py prints the bytes per card).

    >>> cv = CopyVars({7: 3, 2: 5}, 10)
    >>> len(cv), cv[7], 2 in cv, 4 in cv, 11 in cv, dict(cv) == {2: 5, 7: 3}, cv == {7: 3, 2: 5}
    (2, 3, True, False, False, True, True)
    """

    __slots__ = ("var", "count")

    def __init__(self, copy_vars: Mapping[int, int], positions: int):
        self.var = array("i", bytes(4 * positions))
        for q, v in copy_vars.items():
            self.var[q] = v
        self.count = len(copy_vars)

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, q: int) -> int:
        v = self.var[q] if 0 <= q < len(self.var) else 0
        if not v:
            raise KeyError(q)
        return v

    def __contains__(self, q: object) -> bool:
        return isinstance(q, int) and 0 <= q < len(self.var) and self.var[q] != 0

    def __iter__(self) -> Iterator[int]:
        return (q for q, v in enumerate(self.var) if v)
