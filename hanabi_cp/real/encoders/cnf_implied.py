"""Implied clauses in the CNF of ``real.encoders.cnf`` (encodings/live-cnf.md §5):
a count every model of the encoding already satisfies, stated with a counter so
that the solver need not rediscover it conflict by conflict (a count over slots
is a pigeonhole argument, which resolution proves only at great length without
the counter's extra variables).

A mixin of ``LiveCnf``.  ``later_{a,c,k}`` means "value a of colour c is on its
pile at the end but not before slot k": it is played at slot k or later.  The
family ``pace``: a slot plays at most one card, so at most S - k of them are
true.  ``LiveCnf.implied`` names the families built (the benchmark
``bench.live_solvers`` builds the CNF without them to compare).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .schedule import Layout

FAMILIES = ("pace",)


class CnfImplied:
    """The implied clauses of ``LiveCnf`` (see the module docstring)."""

    implied: tuple[str, ...] = FAMILIES

    # set by LiveCnf before ``_implied`` runs
    lay: Layout
    copies: dict
    reached: dict
    clauses: list[list[int]]

    if TYPE_CHECKING:                                           # LiveCnf's
        def var(self, *name: object) -> int: ...
        def add(self, *lits: int) -> None: ...
        def _atmost(self, lits: list[int], bound: int) -> None: ...

    implied_deferred = False

    def add_implied(self) -> list[list[int]]:
        """The implied clauses of a CNF built with ``defer_implied``, built now: also
        appended to ``clauses`` (none if they are there already)."""
        if not self.implied_deferred:
            return []
        self.implied_deferred = False
        n = len(self.clauses)
        self._implied()
        return self.clauses[n:]

    def _implied(self) -> None:
        if "pace" in self.implied:
            later = self._later()
            S = self.lay.slots
            for k in range(S):
                self._atmost([ys[k] for ys in later.values()], S - k)

    def _later(self) -> dict[tuple[int, int], list[int]]:
        """later[(a, c)][k] (k < S) for each value above the position's pile that has
        a live copy: only "if" is stated (reached at the end and not before slot k),
        which is all the count needs, and the truth in the completeness direction."""
        S, piles = self.lay.slots, self.lay.piles
        later: dict[tuple[int, int], list[int]] = {}
        for (a, c), r in self.reached.items():
            if a <= piles[c - 1] or not self.copies.get((a, c)):
                continue
            ys = later[(a, c)] = [r[S]]         # k = 0: the pile starts below a
            for k in range(1, S):
                y = self.var("later", a, c, k)
                self.add(-r[S], r[k], y)
                ys.append(y)
        return later
