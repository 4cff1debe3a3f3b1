"""The search's memory of what failed: the transposition table (per canonical
state, the best score proved out of its reach), the cuts before the last draw that
carry over to the states their clues lead to, and the states a round of limited
discrepancy already tried with as much budget; and ``Memory``, the tables the
searches of one game's positions share."""

from __future__ import annotations

from ...pile_plans import Plan
from ...referee import Game
from .moves import Moves

# The tables a ``Memory`` keeps per deal and rules: the transposition table, the
# cuts before the last draw (``Table.cuts``) and the relaxation's tables
# (``Relaxed.relaxed``).
Shared = tuple[dict[tuple, int], dict[tuple, list[tuple[int, int]]],
               dict[int, tuple[list[int], dict[int, dict[int, int]]]]]


class Memory:
    """What the searches of positions of one deal may share: every entry of these
    tables is a fact about a state of the deal under its rules, whatever position
    the search started from (encodings/live-search.md, 4, "One table per game"):
    the transposition table's "no game from this state scores more than b", a
    state the bound cut before the last draw, and the relaxation's states.  The
    rounds' memory of budgets tried (``Table.tried``) is a heuristic of one search
    and one goal, never shared.  Kept per (deck, rules): an older game's positions
    are asked under two end rules (``older_games.under_today``)."""

    def __init__(self) -> None:
        self.deals: dict[tuple, Shared] = {}

    def tables(self, start: Game) -> Shared:
        """The shared tables of ``start``'s deal and rules (empty the first time)."""
        key = (start.deck, start.rules)
        got = self.deals.get(key)
        if got is None:
            got = self.deals[key] = ({}, {}, {})
        return got


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
