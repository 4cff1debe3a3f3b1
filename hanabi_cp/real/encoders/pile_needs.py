"""The cards the final piles still take, as both real-rules encodings ask it at a
game's end (encodings/live-cnf.md, encodings/live-cpsat.md; in a pile plan's game
encodings/variants.md, 8.5): "unless the final pile is not at height h, these live
copies are the ones the pile takes next". ``LiveCnf`` and ``LiveCpModel`` differ only
in how a literal is negated (``-x`` against ``~x``), which ``_not`` says.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .schedule import Layout


class PileNeeds:
    """Mixin of ``CnfEnds`` and ``CpEnds``: the clauses behind their ``dead`` and
    ``nothing`` ends."""

    lay: Layout
    copies: dict
    reached: dict
    # a pile plan's game: (at, c, values), the (renamed) values the real rules take
    # next on pile c when each pile c' of ``at`` ends at height h' (``plans.real_next``);
    # None: the next value h + 1 (one order per pile)
    real_next: list[tuple[tuple[tuple[int, int], ...], int, list[int]]] | None = None
    # and per (c, h) the renamed rest of each order the pile may still follow
    # (``plan_encodings.real_rests``), for a speedrun
    real_rests: dict[tuple[int, int], list[list[int]]] | None = None

    def _not(self, lit: Any) -> Any:
        raise NotImplementedError

    def _needed(self, a: int, c: int) -> list:
        """Literals of which one holds unless the final pile c is at a - 1."""
        S = self.lay.slots
        below = self.reached.get((a - 1, c))
        return [*([self._not(below[S])] if below else []), self.reached[(a, c)][S]]

    def _needs(self) -> Iterator[tuple[list, list[int]]]:
        """(literals, copies): unless one of ``literals`` holds at the end (the pile is
        not at some height h), the live ``copies`` are those of the cards the piles
        take next (in a plan's game every card the real rules take on the pile at h,
        the plan's next and the others; in Sudoku an empty pile's also read which piles
        are empty)."""
        if self.real_next is None:
            for a, c, copies in self._open_kinds():
                yield self._needed(a, c), copies
            return
        S = self.lay.slots
        for at, c, values in self.real_next:
            copies = [i for a in values for i in self.copies.get((a, c), [])]
            if copies:
                yield [lit for pile, h in at for lit in (
                    *([self._not(self.reached[(h, pile)][S])] if h else []),
                    self.reached[(h + 1, pile)][S])], copies

    def _open_kinds(self) -> Iterator[tuple[int, int, list[int]]]:
        """(a, c, live copies) of the card kinds above the position's piles."""
        for (a, c), copies in self.copies.items():
            if a > self.lay.piles[c - 1]:
                yield a, c, copies
