"""The real game as CNF (encodings/live-cnf.md): the slot skeleton of
``real.encoders.schedule`` in Boolean form, from any position of a game.

Per card still held or in the deck and per slot a literal "the card leaves the
hand at this slot" (only slots after its draw); per slot the length of the clue
run before it (one-hot) and the player to move (one-hot, a rotation of the
previous one by 1 + run); per pile and slot "the pile has reached value a before
this slot" (monotone); per slot the clue tokens (one-hot, a running count); after
the last draw the final-round offset; hand counts (order encoding) where a hand
can run dry, and counts of touchable cards where a clue can lack a target
(``live.cnf_hands``).  Cardinality: strikes below the limit (sequential counter);
the score through a totalizer, for the best score; the pace, an implied count
(``real.encoders.cnf_implied``).  With ``maximize`` a game may
also end at hanab.live's early ends (``live.cnf_hands.CnfEnds``).

>>> from hanabi_cp.core.model import Deck
>>> from hanabi_cp.real.referee import Game
>>> from hanabi_cp.real.rules import Rules
>>> deal = Game.start(Deck.of([(1, 1), (2, 1), (3, 1)]), Rules.for_players(2, hand_size=1, clues=1))
>>> enc = LiveCnf(deal)
>>> from hanabi_cp.solvers.sat_backend import sat_solve
>>> ok, model, _ = sat_solve(enc.clauses)
>>> [str(a) for a in enc.decode(model)] if ok else None
['play #0', 'play #1', 'play #2']
"""

from __future__ import annotations

import time

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from ...runtime.deadline import NEVER, Deadline
from ..actions import Action
from .cnf_hands import CnfEnds
from .cnf_implied import CnfImplied
from ..pile_plans import Plan
from .plans import PlanGame
from ..referee import Game
from .schedule import DISCARD, PLAY, STRIKE, Layout, to_actions


BUILD = "building the CNF"


class LiveCnf(CnfEnds, CnfImplied, PlanGame):
    """Clauses for the rest of the game from the position ``start``: a win, or with
    ``maximize`` any complete game that does not strike out (the score literals
    are ``played``).  With ``plan`` (Up or Down, Sudoku), the game of that pile
    plan (``encoders.plans``): the deck renamed by heights, a dead card never a
    success, the forbidden plays left out, and the early ends read on the real
    piles.  With ``defer_implied`` the implied clauses (``cnf_implied``) wait for
    ``add_implied``."""

    def __init__(self, start: Game, maximize: bool = False, deadline: Deadline = NEVER,
                 plan: Plan | None = None, defer_implied: bool = False):
        t0 = time.perf_counter()
        deadline.check(BUILD)
        self.start, self.maximize = start, maximize
        self._take_plan(plan, maximize)
        self.lay = lay = Layout.of(start)
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        self._slots()
        self._cards()
        self._piles()
        if plan is not None:
            self._plan(plan)
        deadline.check(BUILD)
        if lay.tokens is not None:
            self._tokens()
        if lay.strikes_left < len(lay.live):
            self._atmost([self.fate[i][STRIKE] for i in lay.live], lay.strikes_left)
        if lay.final_round:
            self._final_round()
        self._hands()
        self._ending()
        self.implied_deferred = defer_implied
        if not defer_implied:
            self._implied()
        deadline.check(BUILD)
        N = max(lay.N, 1)
        self.stats = {"cards": lay.N, "players": lay.players, "variables": self.pool.top,
                      "clauses": len(self.clauses),
                      "variables_per_card": round(self.pool.top / N, 2),
                      "clauses_per_card": round(len(self.clauses) / N, 2),
                      "build_seconds": round(time.perf_counter() - t0, 6)}

    # ---- helpers -----------------------------------------------------------

    def var(self, *name: object) -> int:
        return self.pool.id(name)

    def add(self, *lits: int) -> None:
        self.clauses.append(list(lits))

    def exactly_one(self, lits: list[int]) -> None:
        self.add(*lits)
        self._atmost(lits, 1)

    def _atmost(self, lits: list[int], bound: int) -> None:
        if len(lits) <= bound:
            return
        if bound == 0:                  # pysat's encoders want a positive bound
            for x in lits:
                self.add(-x)
            return
        enc = CardEnc.atmost(lits, bound, top_id=self.pool.top,
                             encoding=EncType.pairwise if bound == 1 and len(lits) <= 6
                             else EncType.seqcounter)
        self.pool.top = max(self.pool.top, enc.nv)
        self.clauses.extend(enc.clauses)

    # ---- slots, runs, movers -------------------------------------------------

    def _slots(self) -> None:
        lay = self.lay
        S, p, cap = lay.slots, lay.players, lay.run_cap
        self.used = [self.var("used", k) for k in range(S)]
        for k in range(S - 1):
            self.add(-self.used[k + 1], self.used[k])
        self.run = [[self.var("run", k, j) for j in range(cap + 1)] for k in range(S + 1)]
        self.mover = [[self.var("mover", k, q) for q in range(p)] for k in range(S + 1)]
        for k in range(S + 1):
            self.exactly_one(self.run[k])
            self.exactly_one(self.mover[k])
            if k:
                self.add(self.used[k - 1], self.run[k][0])
            for j in range(cap + 1):
                for q0 in self.movers_before(k):
                    prev = [-self.mover[k - 1][q0]] if k else []
                    self.add(*prev, -self.run[k][j], self.mover[k][(q0 + 1 + j) % p])
        self.kind = []          # per slot: discard, success of a top card, other play
        for k in range(S):
            kinds = [self.var(x, k) for x in ("discard", "top", "other")]
            self._atmost(kinds, 1)
            self.add(-self.used[k], *kinds)
            for x in kinds:
                self.add(-x, self.used[k])
            self.kind.append(kinds)

    def movers_before(self, k: int) -> list[int] | range:
        """The players who may have moved slot k-1; before slot 0, the turn before the
        position's "was" the player before the one to move (a fixed rotation)."""
        return range(self.lay.players) if k else [(self.lay.first - 1) % self.lay.players]

    # ---- cards ------------------------------------------------------------

    def _cards(self) -> None:
        lay, n, S = self.lay, self.top, self.lay.slots
        self.at: dict[int, dict[int, int]] = {}
        self.fate: dict[int, dict[str, int]] = {}
        self.stay: dict[int, int] = {}
        by_slot: list[list[int]] = [[] for _ in range(S)]
        for i in lay.live:
            a = self.deck.cards[i].value
            owner, d = lay.owner[i], lay.draw_slot[i]
            # A deck play: the last card leaves at the slot that draws it, as a play.
            first = d if lay.deck_play and i == lay.N - 1 else d + 1
            at = {k: self.var("at", i, k) for k in range(first, S)}
            fate = {x: self.var(x, i) for x in (PLAY, DISCARD, STRIKE)}
            stay = self.stay[i] = self.var("stay", i)
            self.exactly_one([*at.values(), stay])
            self.exactly_one([*fate.values(), stay])
            for k, x in at.items():
                by_slot[k].append(x)
                self.add(-x, self.used[k])
                if owner is not None:
                    self.add(-x, self.mover[k][owner])
                elif k == d:
                    self.add(-x, -fate[DISCARD])
                else:      # the mover of the drawing slot owns the card
                    for q in range(lay.players):
                        self.add(-x, -self.mover[d][q], self.mover[k][q])
                dis, top, oth = self.kind[k]
                self.add(-x, -fate[DISCARD], dis)
                self.add(-x, -fate[PLAY], top if a == n else oth)
                self.add(-x, -fate[STRIKE], oth)
            self.at[i] = at
            self.fate[i] = fate
        for k in range(S):
            self.add(-self.used[k], *by_slot[k])
            self._atmost(by_slot[k], 1)

    # ---- piles ------------------------------------------------------------

    def _piles(self) -> None:
        deck, S = self.deck, self.lay.slots
        self.copies: dict = {}          # (a, c) -> the live cards of that identity
        for i in self.lay.live:
            self.copies.setdefault(deck.cards[i], []).append(i)
        # reached[(a, c)][k]: pile c has reached a before slot k (k = S: at the end)
        self.reached: dict = {}
        for c in range(1, deck.c + 1):
            base = self.lay.piles[c - 1]
            for a in range(1, self.top + 1):
                r = self.reached[(a, c)] = [self.var("reached", a, c, k) for k in range(S + 1)]
                below = self.reached.get((a - 1, c))
                self.add(r[0] if a <= base else -r[0])
                for k in range(S):
                    self.add(-r[k], r[k + 1])
                    if below:
                        self.add(-r[k + 1], below[k + 1])
                copies = self.copies.get((a, c), [])
                if a > base:
                    # Redundant: one copy of each card on the piles is a successful play.
                    self.add(-r[S], *(self.fate[i][PLAY] for i in copies))
                self._atmost([self.fate[i][PLAY] for i in copies], 1)
                for k in range(S):
                    here = [i for i in copies if k in self.at[i]]
                    # The pile grows at slot k only by a successful play of a copy.
                    self.add(-r[k + 1], r[k], *(self.at[i][k] for i in here))
                    for i in here:
                        x, f = self.at[i][k], self.fate[i]
                        self.add(-x, -r[k + 1], r[k], f[PLAY])
                        self.add(-x, -f[PLAY], -r[k])
                        self.add(-x, -f[PLAY], r[k + 1])
                        if below:
                            self.add(-x, -f[PLAY], below[k])
                            self.add(-x, -f[STRIKE], -below[k], r[k])
                        else:
                            self.add(-x, -f[STRIKE], r[k])
        self.played = [r[S] for r in self.reached.values()]

    def _clause_of(self, lits: list) -> None:
        self.add(*lits)

    # ---- clue tokens ----------------------------------------------------------

    def _tokens(self) -> None:
        lay = self.lay
        S, M, cap, now, cost = lay.slots, lay.tokens, lay.run_cap, lay.tokens_now, lay.clue_cost
        assert M is not None and now is not None
        self.tok = [[self.var("tokens", k, v) for v in range(M + 1)] for k in range(S + 1)]
        self.gain = [self.var("gain", k) for k in range(S)]
        for k in range(S + 1):
            self.exactly_one(self.tok[k])
            for j in range(cap + 1):
                if k == 0:
                    after = now - cost * j
                    self.add(-self.run[0][j], *([self.tok[0][after]] if after >= 0 else []))
                    continue
                for v in range(M + 1):
                    for g in (0, 1):
                        after = v + g - cost * j
                        lits = [-self.tok[k - 1][v], self.gain[k - 1] if g == 0 else -self.gain[k - 1],
                                -self.run[k][j]]
                        self.add(*lits, *([self.tok[k][after]] if 0 <= after <= M else []))
            if k == S:
                break
            dis, top, _ = self.kind[k]
            full = self.tok[k][M]
            if not (lay.top_token and not lay.discard_at_max):
                self._gains(k, dis, top, full)
                continue
            self.add(-dis, -full)
            # A discard gives a token back; the play of a top card one if below the max.
            self.add(-self.gain[k], dis, top)
            self.add(-self.gain[k], dis, -full)
            self.add(-dis, self.gain[k])
            self.add(-top, full, self.gain[k])

    def _gains(self, k: int, dis: int, top: int, full: int) -> None:
        """The token slot k gains where a variant changes the rule (encodings/variants.md,
        7): gain <-> (a discard, or a top card where it gives one) and below the max;
        a discard at the max only where the variant allows it."""
        lay, gain = self.lay, self.gain[k]
        if not lay.discard_at_max:
            self.add(-dis, -full)
        sources = [dis, top] if lay.top_token else [dis]
        self.add(-gain, *sources)
        self.add(-gain, -full)
        for x in sources:
            self.add(-x, full, gain)

    # ---- final round --------------------------------------------------------

    def _final_round(self) -> None:
        lay = self.lay
        p, L, cap = lay.players, lay.last_draw, lay.run_cap
        limit = p + 1
        # offset[k][v]: slot k (or the end, k = K) is v turns after the last draw
        self.offset = {k: [self.var("offset", k, v) for v in range(limit + 1)] for k in lay.tail}
        # Before the tail's first slot: the slot that drew the last card (offset 0), or
        # with the deck already empty the turn before the position's (anchor -1 + 1).
        start = 0 if L >= 0 else -1 - lay.anchor
        for k in lay.tail:
            self.exactly_one(self.offset[k])
            when = [-self.used[k - 1]] if k else []      # only up to the end
            prevs = [(self.offset[k - 1][v], v) for v in range(limit + 1)] if k - 1 > L else \
                [(None, start)]
            for lit, v in prevs:
                for j in range(cap + 1):
                    after = v + 1 + j
                    head = [*when, *([-lit] if lit else []), -self.run[k][j]]
                    self.add(*head, *([self.offset[k][after]] if after <= limit else []))

    def literals(self, order: list[int], fates: list[str], runs: list[int]) -> list[int]:
        """The literals of a game's choices given as (cards by slot, fates, runs), e.g.
        by ``schedule.from_actions``: its slots, fates, runs and used slots."""
        slot_of = {i: k for k, i in enumerate(order)}
        out: list[int] = []
        for i, at in self.at.items():
            out += [x if slot_of.get(i) == k else -x for k, x in at.items()]
            mine = fates[slot_of[i]] if i in slot_of else None
            out += [x if f == mine else -x for f, x in self.fate[i].items()]
        for k, one in enumerate(self.run):
            r = runs[k] if k < len(runs) else 0
            out += [x if j == r else -x for j, x in enumerate(one)]
        out += [u if k < len(order) else -u for k, u in enumerate(self.used)]
        return out

    # ---- decoding -------------------------------------------------------------

    def decode(self, model: list[int]) -> list[Action]:
        true = {lit for lit in model if lit > 0}
        moved = sorted((k, i) for i, at in self.at.items() for k, x in at.items() if x in true)
        order = [i for _, i in moved]
        fates = [next(f for f, x in self.fate[i].items() if x in true) for i in order]
        runs = [next(j for j, x in enumerate(self.run[k]) if x in true)
                for k in range(len(order) + 1)]
        first = None
        if self.lay.by_type is not None and self.lay.last_clue is None:
            first = self.next_color[0] in true
        return to_actions(self.start, order, fates, runs, first)
