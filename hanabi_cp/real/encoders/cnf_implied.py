"""Implied clauses in the CNF of ``real.encoders.cnf`` (encodings/live-cnf.md §5):
counting facts every model of the encoding already satisfies, stated with
counters so that the solver need not rediscover them conflict by conflict (a
count over slots is a pigeonhole argument, which resolution proves only at great
length without the counter's extra variables).

A mixin of ``LiveCnf``.  ``later[(a, c)][k]`` means "value a of colour c is on
its pile at the end but not before slot k": it is played at slot k or later.
The families (``LiveCnf.implied`` says which are built):

- ``pace``: a slot plays at most one card, so at most S - k values are played
  at slots k..S-1;
- ``hands``: a value played after slot k whose live copies were all drawn before
  slot k has a copy in a hand during slot k, besides the card slot k moves, and
  the hands hold at most p·H cards;
- ``tail``: in the final round a slot v turns after the last draw is moved by
  the player v turns after the last drawer, so the drawer of the last card plays
  it, if at all, on the game's last turn: no slot follows it;
- ``stairs``: a pile that has reached a + 1 before slot k + 1 had reached a
  before slot k (the play of a + 1 came at a slot of its own, on a);
- ``once``: the slots after the last draw are moved by distinct players (the
  final round gives each player one turn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .schedule import Layout

FAMILIES = ("pace", "hands", "tail", "stairs", "once")


class CnfImplied:
    """The implied clauses of ``LiveCnf`` (see the module docstring)."""

    implied: tuple[str, ...] = FAMILIES

    # set by LiveCnf before ``_implied`` runs
    lay: Layout
    used: list[int]
    mover: list[list[int]]
    at: dict[int, dict[int, int]]
    offset: dict[int, list[int]]
    copies: dict
    reached: dict

    if TYPE_CHECKING:                                           # LiveCnf's
        def var(self, *name: object) -> int: ...
        def add(self, *lits: int) -> None: ...
        def _atmost(self, lits: list[int], bound: int) -> None: ...

    def _implied(self) -> None:
        if {"pace", "hands"} & set(self.implied):
            later = self._later()
            if "pace" in self.implied:
                S = self.lay.slots
                for k in range(S):
                    self._atmost([ys[k] for ys in later.values()], S - k)
            if "hands" in self.implied:
                self._hands_held(later)
        if "tail" in self.implied and self.lay.final_round:
            self._tail_turns()
        if "once" in self.implied and self.lay.final_round and self.lay.last_draw >= 0:
            self._once()
        if "stairs" in self.implied:
            for (a, c), r in self.reached.items():
                below = self.reached.get((a - 1, c))
                if below:
                    for k in range(self.lay.slots):
                        self.add(-r[k + 1], below[k])

    def _later(self) -> dict[tuple[int, int], list[int]]:
        """later[(a, c)][k] (k < S) for each value above the position's pile that has
        a live copy: only "if" is stated (reached at the end and not before slot k),
        which is all the counts below need, and the truth in the completeness
        direction."""
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

    def _hands_held(self, later: dict[tuple[int, int], list[int]]) -> None:
        """During slot k (k + 1 < S) the cards drawn before it that leave later or
        stay number at most p·H, less one if slot k moves a card from a hand (with
        deck plays, the last draw's slot may move the deck's card instead)."""
        lay = self.lay
        S, places = lay.slots, lay.players * lay.hand_size
        for k in range(S - 1):
            lits = [ys[k + 1] for (a, c), ys in later.items()
                    if all(lay.draw_slot[i] < k for i in self.copies[(a, c)])]
            if not (lay.deck_play and k == lay.last_draw):
                lits.append(self.used[k])
            self._atmost(lits, places)

    def _tail_turns(self) -> None:
        """offset_{k,v} (k used or the end) -> mover_k is the player v turns after the
        one who moved at the anchor turn A (slot L's mover, or with the deck already
        empty the position's mover moved turn 0 = A - (-A)); and the last card, held
        by slot L's mover, leaves on turn A + p or never."""
        lay = self.lay
        p, L, S = lay.players, lay.last_draw, lay.slots
        for k in lay.tail:
            when = [-self.used[k - 1]] if k else []
            for v, off in enumerate(self.offset[k]):
                if L >= 0:
                    for q in range(p):
                        self.add(*when, -off, -self.mover[L][q], self.mover[k][(q + v) % p])
                else:
                    self.add(*when, -off, self.mover[k][(lay.first + lay.anchor + v) % p])
        if L >= 0:
            for k, x in self.at[lay.N - 1].items():
                if L < k < S - 1:
                    self.add(-x, -self.used[k + 1])

    def _once(self) -> None:
        """Two used slots after the last draw have different movers: their turns are
        distinct turns of A + 1 .. A + p (offsets below p + 1), p turns in a row.
        (With the deck empty at the position, a deal that empties it has p + 1.)"""
        lay = self.lay
        tail = [k for k in lay.tail if k < lay.slots]
        for j, k1 in enumerate(tail):
            for k2 in tail[j + 1:]:
                for q in range(lay.players):
                    self.add(-self.used[k2], -self.mover[k1][q], -self.mover[k2][q])
