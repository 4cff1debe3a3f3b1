"""The search's memory of what failed: the transposition table (per canonical
state, the best score proved out of its reach), the cuts before the last draw that
carry over to the states their clues lead to, and the states a round of limited
discrepancy already tried with as much budget."""

from __future__ import annotations

from ...pile_plans import Plan
from ...referee import Game
from .moves import Moves


class Table(Moves):
    """The tables the search fills as it goes (``reaches``)."""

    def __init__(self, start: Game, deadline: float | None = None, plan: Plan | None = None):
        super().__init__(start, deadline, plan)
        self.tt: dict[tuple, int] = {}
        # per ``stall_key``, the (player to move, tokens) of each state the bound cut
        self.cuts: dict[tuple, list[tuple[int, int]]] = {}
        # per state, the largest budget with which a round of the current goal
        # failed there without a proof (``reaches``)
        self.tried: dict[tuple, int] = {}
        self.tried_goal = -1

    def stall_key(self, goal: int) -> tuple:
        """What the bound of a state before the last draw depends on, besides the
        player to move and the tokens (see ``stall_cut``)."""
        cid, val, col, piles, caps = self.cid, self.val, self.col, self.piles, self.caps
        hands = tuple(tuple(sorted(cid[o] for o in hand if piles[col[o]] < val[o] <= caps[col[o]]))
                      for hand in self.hands)
        return (goal, self.drawn, tuple(piles), tuple(caps), hands)

    def stall_cut(self, stalls: tuple) -> bool:
        """Whether the bound is below the goal here because it was at a state with
        the same ``stall_key`` whose clues lead here: k clues later (k < p) with at
        most k tokens fewer.  Before the last draw the bound depends on the player
        to move and the tokens only through the relaxations of sections 3.5, whose
        choices from here are among those from there (encodings/live-search.md,
        3.5, "Stalls")."""
        me, tokens = self.turn % self.p, self.clues
        for mover, had in self.cuts.get(stalls, ()):
            k = (me - mover) % self.p
            if k <= had and tokens <= had - k:
                return True
        return False

    def refuted(self, goal: int) -> dict[tuple, int]:
        """The table's states proved out of reach of ``goal`` (after a search of
        ``goal`` failed: its refutation, with what else the search refuted)."""
        return {key: best for key, best in self.tt.items() if best < goal}
