"""The depth-first search (``LiveSearch.reaches``) and its rounds of limited
discrepancy (``LiveSearch.game``): a complete game reaching a goal, or a proof that
none does, in the transposition table."""

from __future__ import annotations

from ...actions import Action
from ...pile_plans import Plan
from ...referee import Game
from .relaxation import Relaxed
from .state import FREE
from .stops import RootCut
from .table import Memory


class LiveSearch(Relaxed):
    """One game's search state (do/undo) and the depth-first search over it."""

    # Rounds of limited discrepancy search before the unlimited one (see ``game``).
    # No round of 3: the round of 4 tries its games too, and on the hard 6-player
    # wins the round of 3 cost more than it found (encodings/live-search.md, 4.3).
    BUDGETS: tuple[int, ...] = (0, 1, 2, 4)

    def __init__(self, start: Game, deadline: float | None = None, plan: Plan | None = None,
                 memory: Memory | None = None):
        super().__init__(start, deadline, plan)
        if memory is not None and plan is None:
            # the tables of earlier searches on the deal (a plan game's keys read
            # its plan: never shared)
            self.tt, self.cuts, self.relaxed = memory.tables(start)
        self.proved = True
        self.lost: str | None = None      # a reason the position cannot be won, if known

    def reaches(self, goal: int, budget: int = FREE) -> bool:
        """Whether some complete game from here ends with a score of at least
        ``goal``; if so, the state is left at that game's end (``taken_back`` reads
        the game).  Only games that leave the move order at most ``budget`` times
        are tried; ``self.proved`` says whether a False is a proof (no game at all
        reaches ``goal``)."""
        self.nodes += 1
        if self.nodes % self.check_every == 0:
            self.check()
        if self.nodes >= self.root_next:
            self.root_check()
        self.proved = True
        if self.over():
            return self.final_score() >= goal
        # The key is built only when a table is asked or written: on a first dive
        # that wins, never (the state is the same again after the moves are undone).
        key: tuple | None = None
        if self.drawn >= self.N - self.ENDGAME:
            # near the end the bound is costly: the table first, and it keeps the
            # bound of a cut state (an upper bound on its final score, section 4)
            key = self.key()
            known = self.tt.get(key, FREE)
            if known < goal:
                return False
            # before the last draw, a cut carries over to the states its clues
            # lead to (``stall_cut``)
            drawing = self.drawn < self.N
            if drawing:
                stalls = self.stall_key(goal)
                if self.stall_cut(stalls):
                    return False
            b = self.bound(goal)
            if b < goal:
                self.tt[key] = b if b < known else known
                if drawing:
                    self.cuts.setdefault(stalls, []).append((self.turn % self.p, self.clues))
                return False
        else:
            if self.bound(goal) < goal:
                return False
            if self.tt:
                key = self.key()
                if self.tt.get(key, FREE) < goal:
                    return False
        if budget < FREE and self.tried:
            if key is None:
                key = self.key()
            if self.tried.get(key, -1) >= budget:
                self.proved = False     # tried in this search with as much budget: no game
                return False
        b = self.hard_bound(goal)
        if b < goal:
            self.tt[key if key is not None else self.key()] = b
            return False
        if self.free_clues and self.end_turn is None:
            moves = self.moves_through_free_clues()
        else:
            moves = [[m] for m in self.moves()]
        # A round with a budget leaves the order near the top of the tree first: the
        # alternatives to the first move, each charged for leaving it, then the
        # first move with the whole budget (a wrong early move is the usual reason
        # a first dive fails; section 4 of encodings/live-search.md).
        top_first = 0 < budget < FREE and len(moves) > 1
        if top_first:
            moves = moves[1:] + moves[:1]
        proved, spent, last = True, int(top_first), len(moves) - 1
        for i, steps in enumerate(moves):
            if top_first and i == last:
                spent = 0
            elif spent > budget:
                proved = False
                if top_first:
                    continue        # to the first move, which has the whole budget
                break
            for kind, order in steps:
                self.do(kind, order)
            before = self.nodes
            if self.reaches(goal, budget - spent):
                return True
            proved = proved and self.proved
            if self.nodes - before > 1:
                spent += 1      # the next move leaves the order once more
            for _ in steps:
                self.undo()
        if key is None:
            key = self.key()
        if proved:
            self.tt[key] = goal - 1
        elif budget < FREE and self.tried.get(key, -1) < budget:
            self.tried[key] = budget
        self.proved = proved
        return False

    def game(self, goal: int, first: int = 0,
             last: int | None = None) -> tuple[list[Action], int] | None:
        """A complete game from the deal with a final score of at least ``goal`` and
        that score, or None if there is none.  The state is back at the deal after.

        Games that leave the move order at most 0, 1, 2, ... times are tried first
        (limited discrepancy search): a wrong early move is then mended without
        first trying every alternative after it.  The last round has no limit.
        ``first`` and ``last`` choose a slice of the rounds: None is then also the
        answer when the rounds tried proved nothing (``self.proved`` says which).
        From the second round on, the relaxation at the position
        runs beside the search (``start_root_cut``); where it shows the goal out of
        reach, the search ends there and the position's state goes into the table
        with its bound."""
        rounds = (*self.BUDGETS, FREE)
        if goal != self.tried_goal:
            self.tried.clear()
            self.tried_goal = goal
        try:
            return self._rounds(goal, rounds[first:last], first, last is not None)
        except RootCut as cut:
            while self.trail:
                self.undo()
            self.tt[self.key()] = cut.bound
            self.root_cut_goal = goal
            self.proved = True
            return None
        finally:
            self.root_next = FREE

    def _rounds(self, goal: int, rounds: tuple[int, ...], first: int,
                sliced: bool) -> tuple[list[Action], int] | None:
        """``game``'s rounds (RootCut where the relaxation at the position ends them)."""
        for i, budget in enumerate(rounds, start=first):
            if i and (self.p <= self.DEEP_EARLY_PLAYERS
                      or self.N - self.drawn <= self.DEEP_EARLY_LEFT):
                self.deep = True
            if i == max(first, 1):
                # the first dive has failed: the relaxation at the position too
                self.start_root_cut(goal)
            if self.reaches(goal, budget):
                score = self.final_score()
                game = self.taken_back(), score
                if self.found is None or score > self.found[1]:
                    self.found = game
                return game
            if self.proved:
                return None
        if sliced:
            return None
        raise AssertionError("an unlimited search is a proof")
