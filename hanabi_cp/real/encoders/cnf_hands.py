"""Hand counts, clue targets and the ends of a game in the CNF of ``real.encoders.cnf``
(encodings/live-cnf.md §1, rows 9 and 10; encodings/live-cpsat.md §3.9-3.11).

A mixin of ``LiveCnf``: it reads the skeleton's literals (slots, runs, movers,
cards, piles, tokens, final-round offsets) and adds

- order-encoded counts per player and slot: of all cards where a hand can run dry
  (after the last draw), of the cards some legal clue touches where a clue can
  lack a target (every slot, when the variant has untouchable cards);
- "every clue of a run has a target": another player who can be clued;
- the ends: a win; with ``maximize`` also the final round's last turn, a player
  stuck without a move, the deck and hands empty (no final round), and
  hanab.live's early ends: the score equals the best score still reachable
  (``dead``), or in the final round nothing still needed can be played by a
  player with a turn left (``nothing``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..referee import Game
from .hand_targets import HandTargets
from .pile_needs import PileNeeds
from .schedule import DISCARD, PLAY, STRIKE, Layout

Lit = int | bool      # a literal, or a constant where the count is known


class CnfEnds(HandTargets, PileNeeds):
    """The part of ``LiveCnf`` after the skeleton (see the module docstring)."""

    ANY = 0             # a count is order-encoded: "at least 1", "at least 2", ...

    # set by LiveCnf before ``_hands`` and ``_ending`` run
    start: Game
    lay: Layout
    maximize: bool
    used: list[int]
    run: list[list[int]]
    mover: list[list[int]]
    kind: list[list[int]]
    at: dict[int, dict[int, int]]
    fate: dict[int, dict[str, int]]
    stay: dict[int, int]
    copies: dict
    reached: dict
    played: list[int]
    tok: list[list[int]]
    offset: dict[int, list[int]]

    if TYPE_CHECKING:                                           # LiveCnf's
        def var(self, *name: object) -> int: ...
        def add(self, *lits: int) -> None: ...
        def movers_before(self, k: int) -> Sequence[int]: ...

    # ---- counts per player and slot ---------------------------------------------

    def _typed_targets(self) -> None:
        """Alternating Clues where a card is touched by one clue type only
        (encodings/variants.md, 7.4): counts of the cards each type touches,
        ``next_color[k]`` (the type the first clue of run k takes: the types
        alternate over the game) and ``no_clue[k]`` (no clue before run k), and
        each clue's target by its type."""
        lay = self.lay
        S, p = lay.slots, lay.players
        tracks = self._type_tracks()
        nxt = self.next_color = [self.var("next_color", k) for k in range(S + 2)]
        none = self.no_clue = [self.var("no_clue", k) for k in range(S + 2)]
        if lay.last_clue is None:
            self.add(none[0])
        else:
            self.add(-none[0])
            self.add(-nxt[0] if lay.last_clue else nxt[0])
        for k in range(S + 1):
            x, y = nxt[k], nxt[k + 1]
            for j in range(lay.run_cap + 1):
                r = self.run[k][j]
                same = j % 2 == 0           # an even run keeps the next type
                self.add(-r, -x, y if same else -y)
                self.add(-r, x, -y if same else y)
            self.add(-none[k + 1], none[k])
            self.add(-none[k + 1], self.run[k][0])
            self.add(none[k + 1], -none[k], -self.run[k][0])
        for k in range(S + 1):
            has = self._typed_at(k, tracks)
            # the givers repeat after p clues and the types after 2: 2p covers both
            for j in range(1, min(lay.run_cap, 2 * p) + 1):
                ge = self.var("run_ge", k, j)
                for jj in range(j, lay.run_cap + 1):
                    self.add(-self.run[k][jj], ge)
                for t in (0, 1):
                    ht = has[t]
                    if ht is None:
                        continue
                    # clue j is of type t iff next_color[k] == (t == 1) xor (j even)
                    first_color = (t == 1) != (j % 2 == 0)
                    off = -nxt[k] if first_color else nxt[k]
                    for q0 in self.movers_before(k):
                        q = (q0 + j) % p
                        prev = [-self.mover[k - 1][q0]] if k else []
                        self.add(*prev, -ge, off, *(ht[x] for x in range(p) if x != q))

    def moves(self, k: int, q: int) -> int:
        """Player q moves slot k (used_k and mover_{k,q})."""
        got = self._moves.get((k, q))
        if got is None:
            got = self._moves[(k, q)] = self.var("moves", k, q)
            self.add(-got, self.used[k])
            self.add(-got, self.mover[k][q])
            self.add(got, -self.used[k], -self.mover[k][q])
        return got

    def _track(self, name: str, first: int, init: list[int],
               member: list[bool] | None) -> dict[int, list[list[int]]]:
        """Per slot k >= ``first`` and player q, "q holds at least v cards of the kind
        before slot k" (v = 1..H): the cards ``member`` marks, or all (None).  Exact:
        fixed at ``first`` by ``init``, then each slot's mover loses the card that
        leaves (if of the kind) and gains the card the slot draws (if of the kind)."""
        lay = self.lay
        p, H, S, L = lay.players, lay.hand_size, lay.slots, lay.last_draw
        out: dict[int, list[list[int]]] = {}
        for k in range(first, S + 1):
            ck = out[k] = [[self.var(name, k, q, v) for v in range(1, H + 1)] for q in range(p)]
            if k == first:
                for q in range(p):
                    for v in range(1, H + 1):
                        self.add(ck[q][v - 1] if init[q] >= v else -ck[q][v - 1])
                continue
            s = k - 1
            drawn = lay.N - 1 - L + s           # the card slot s draws, if s <= L
            gains = s <= L and (member is None or member[drawn])
            leaves = None if member is None else self._leaves(name, s, member)
            for q in range(p):
                mv = self.moves(s, q)
                lose = mv
                if leaves is not None:
                    lose = self.var(f"{name}_loses", s, q)
                    self.add(-lose, mv)
                    self.add(-lose, leaves)
                    self.add(lose, -mv, -leaves)
                self._step(out[s][q], ck[q], lose, mv if gains else None)
        return out

    def _leaves(self, name: str, k: int, member: list[bool]) -> int:
        """A literal: the card that leaves at slot k is one ``member`` marks."""
        x = self.var(f"{name}_leaves", k)
        ours = [at[k] for i, at in self.at.items() if k in at and member[i]]
        others = [at[k] for i, at in self.at.items() if k in at and not member[i]]
        self.add(-x, *ours)
        for y in ours:
            self.add(-y, x)
        for y in others:
            self.add(-y, -x)
        return x

    def _step(self, cur: list[int], nxt: list[int], lose: int, gain: int | None) -> None:
        """nxt = cur - lose + gain, both order-encoded (v = 1..H)."""
        H = len(cur)

        def c(v: int) -> Lit:           # "at least v" before, with its constant ends
            return True if v <= 0 else False if v > H else cur[v - 1]

        for v in range(1, H + 1):
            x = nxt[v - 1]
            if gain is None:
                # x <-> (at least v and no loss) or at least v + 1
                self._clause(-x, c(v))
                self._clause(-x, -lose, c(v + 1))
                self._clause(x, _neg(c(v)), lose)
                self._clause(x, _neg(c(v + 1)))
                continue
            for lo, ga, was in ((False, False, v), (True, True, v),
                                (True, False, v + 1), (False, True, v - 1)):
                head = [-lose if lo else lose, -gain if ga else gain]
                self._clause(*head, -x, c(was))
                self._clause(*head, x, _neg(c(was)))

    def _clause(self, *lits: Lit) -> None:
        """A clause with constants: satisfied by True, False dropped."""
        if any(x is True for x in lits):
            return
        self.add(*(x for x in lits if x is not False))

    def _clue_targets(self, k: int, has: list[int]) -> None:
        """Each clue of run k goes to another player who can be clued (``has``).  The
        j-th clue of the run is given by the player j turns after slot k-1's mover
        (the givers repeat after p clues, and no hand changes during a run)."""
        lay = self.lay
        p = lay.players
        for j in range(1, min(lay.run_cap, p) + 1):
            ge = self.var("run_ge", k, j)
            for jj in range(j, lay.run_cap + 1):
                self.add(-self.run[k][jj], ge)
            for q0 in self.movers_before(k):
                q = (q0 + j) % p
                prev = [-self.mover[k - 1][q0]] if k else []
                self.add(*prev, -ge, *(has[x] for x in range(p) if x != q))

    # ---- the end ----------------------------------------------------------

    def _ending(self) -> None:
        lay = self.lay
        S, L, p = lay.slots, lay.last_draw, lay.players
        won = self.won = self.var("won")
        for x in self.played:
            self.add(-won, x)
        self.add(won, *(-x for x in self.played))
        if not self.maximize:
            self.add(won)
        self.end = [self.var("end", k) for k in range(S + 1)]   # exactly k slots are used
        early = self.maximize and lay.early_ends
        dead = self._dead() if early else None
        nothing = self._nothing() if early and lay.final_round else None
        for k, end in enumerate(self.end):
            # end_k <-> used_{k-1} and not used_k (used_{-1} true, used_S false)
            before = [self.used[k - 1]] if k else []
            after = [self.used[k]] if k < S else []
            if before:
                self.add(-end, *before)
            for x in after:
                self.add(-end, -x)
            self.add(end, *(-x for x in before), *after)
            if k:
                # A win ends with the play that completes the last pile.
                self.add(-won, -end, self.kind[k - 1][1])
                self.add(-won, -end, self.run[k][0])
            else:
                self.add(-won, -end)
            if not self.maximize:
                continue
            over = []
            if dead is not None:
                # The score reaches the best still reachable only at a play or a discard.
                self.add(-dead, -end, self.run[k][0])
                over.append(dead)
            if k > L and lay.final_round:
                over.append(self.offset[k][p + 1])
                if nothing is not None:
                    over.append(nothing)
            if k > L and lay.tail_matters:
                over.append(self._stuck(k))
            if k > L and not lay.final_round:
                over.append(self._empty(k))
            self.add(won, -end, *over)
        if self.maximize and lay.speedrun:
            if self.real_rests is None:
                self._keep_caps()
            else:
                self._keep_real()

    def _not(self, lit: int) -> int:
        return -lit

    def _dead(self) -> int:
        """A literal that forces the final score to equal the best score still
        reachable: every pile is complete or the next card's copies are all lost
        (every live copy discarded or misplayed; a kind without a live copy above
        the pile has none left)."""
        dead = self.var("dead")
        for unless, copies in self._needs():
            for i in copies:
                self.add(-dead, *unless, self.fate[i][DISCARD], self.fate[i][STRIKE])
        return dead

    def _nothing(self) -> int:
        """A literal that forces, at the end, in the final round: no copy of a card a
        pile still needs is held by a player with a turn left (the deck is empty)."""
        lay = self.lay
        p = lay.players
        nothing = self.var("nothing")
        for k in range(lay.last_draw + 1):
            self.add(-nothing, -self.end[k])             # the end is after the last draw
        # left[h]: player h has a turn left at the end; only "if" is needed, and it
        # is the truth in the completeness direction
        left = [self.var("turn_left", h) for h in range(p)]
        for k in lay.tail:
            for m in range(p):
                for v in range(p + 2):               # turns left: p + 1 - v
                    for d in range(min(p + 1 - v, p)):
                        self.add(-self.end[k], -self.mover[k][m], -self.offset[k][v],
                                 left[(m + d) % p])
        for unless, copies in self._needs():
            for i in copies:
                need = [-nothing, *unless, -self.stay[i]]
                owner, d = lay.owner[i], lay.draw_slot[i]
                if owner is not None:
                    self.add(*need, -left[owner])
                else:
                    for h in range(p):
                        self.add(*need, -self.mover[d][h], -left[h])
        return nothing

    def _stuck(self, k: int) -> int:
        """A literal that forces the player to move after run k to have no card and
        no clue (no token, or nobody else who can be clued)."""
        p, holds = self.lay.players, self.holds[k]
        stuck = self.var("stuck", k)
        # fewer tokens than a clue costs (one unit, or two halves in Clue Starved)
        no_token = self.tok[k][:self.lay.clue_cost] if self.lay.tokens is not None else []
        if k in self.typed:
            return self._stuck_typed(k, stuck, no_token)
        has = self.cluable.get(k)
        if has is None:               # a clue is legal without touching anything
            self.add(-stuck, *no_token)
        for q in range(p):
            m = self.mover[k][q]
            self.add(-stuck, -m, -holds[q][0])
            if has is not None:
                for x in range(p):
                    if x != q:
                        self.add(-stuck, -m, *no_token, -has[x])
        return stuck

    def _stuck_typed(self, k: int, stuck: int, no_token: list[int]) -> int:
        """``_stuck`` where clue types matter: for each type the next clue may take
        (next_color[k + 1], or either before the game's first clue), nobody else
        can be clued by it."""
        p, holds, has = self.lay.players, self.holds[k], self.typed[k]
        nxt, none = self.next_color[k + 1], self.no_clue[k + 1]
        for q in range(p):
            m = self.mover[k][q]
            self.add(-stuck, -m, -holds[q][0])
            for t in (0, 1):
                not_t = -nxt if t == 1 else nxt        # the next clue is not of type t
                ht = has[t]
                for x in [None] if ht is None else [x for x in range(p) if x != q]:
                    target = [] if x is None or ht is None else [-ht[x]]
                    self.add(-stuck, -m, *no_token, *target, not_t)
                    self.add(-stuck, -m, *no_token, *target, -none)
        return stuck

    def _empty(self, k: int) -> int:
        """Without the final round: a literal that forces every hand empty before
        slot k (the deck is: k > L)."""
        empty = self.var("empty", k)
        for q in range(self.lay.players):
            self.add(-empty, -self.holds[k][q][0])
        return empty

    def _keep_caps(self) -> None:
        """Speedrun: a game that loses every copy of a card still needed scores 0, so
        the best positive game keeps a copy of each (played, or still held)."""
        for _, _, copies in self._open_kinds():
            self.add(*(x for i in copies for x in (self.fate[i][PLAY], self.stay[i])))


    def _keep_real(self) -> None:
        """A plan's speedrun: hanab.live's count stays at the target, so
        each pile, at its final height h, has an order it may still follow whose
        every card after h keeps a copy (played, or still held)."""
        assert self.real_rests is not None
        S = self.lay.slots
        for (c, h), rests in self.real_rests.items():
            ways = []
            for j, rest in enumerate(rests):
                y = self.var("keeps", c, h, j)
                ways.append(y)
                for a in rest:
                    copies = self.copies.get((a, c), [])
                    self.add(-y, *(x for i in copies for x in (self.fate[i][PLAY], self.stay[i])))
            self.add(*([-self.reached[(h, c)][S]] if h else []), self.reached[(h + 1, c)][S],
                     *ways)


def _neg(x: Lit) -> Lit:
    return (not x) if isinstance(x, bool) else -x
