"""Hand counts, clue targets and the ends of a game in the CP-SAT model of
``real.encoders.cpsat`` (encodings/live-cpsat.md §3.9-3.11).

A mixin of ``LiveCpModel``: it reads the skeleton's variables (slots, runs,
movers, turns, cards, piles, tokens) and adds

- counts per player and slot: of all cards where a hand can run dry (after the
  last draw), of the cards some legal clue touches where a clue can lack a
  target (every slot, when the variant has untouchable cards);
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

from ortools.sat.python import cp_model

from ..referee import Game
from .hand_targets import HandTargets
from .pile_needs import PileNeeds
from .schedule import DISCARD, PLAY, STRIKE, Layout

Var = cp_model.IntVar


class CpEnds(HandTargets, PileNeeds):
    """The part of ``LiveCpModel`` after the skeleton (see the module docstring)."""

    HOLDS = "hand"
    ANY = 1             # a count is (its value, "at least one")

    # set by LiveCpModel before ``_hands`` and ``_ending`` run
    start: Game
    lay: Layout
    maximize: bool
    m: cp_model.CpModel
    used: list[Var]
    run: list[Var]
    is_run: list[list[Var]]
    mover: list[list[Var]]
    turn: list[Var]
    kind: list[tuple[Var, Var, Var]]
    at: dict[int, dict[int, Var]]
    fate: dict[int, dict[str, Var]]
    stay: dict[int, Var]
    copies: dict
    reached: dict
    played: list[Var]
    tok: list[Var]

    if TYPE_CHECKING:                                           # LiveCpModel's
        def movers_before(self, k: int) -> Sequence[int]: ...
        def anchor(self) -> cp_model.LinearExprT: ...

    # ---- counts per player and slot ---------------------------------------------

    def _typed_targets(self) -> None:
        """Alternating Clues where a card is touched by one clue type only
        (encodings/variants.md, 7.4): counts of the cards each type touches,
        ``next_color[k]`` (the type the first clue of run k takes: the types
        alternate over the game) and ``no_clue[k]`` (no clue before run k), and
        each clue's target by its type."""
        m, lay = self.m, self.lay
        S, p = lay.slots, lay.players
        tracks = self._type_tracks()
        nxt = self.next_color = [m.new_bool_var(f"next_color_{k}") for k in range(S + 2)]
        none = self.no_clue = [m.new_bool_var(f"no_clue_{k}") for k in range(S + 2)]
        if lay.last_clue is None:
            m.add(none[0] == 1)
        else:
            m.add(none[0] == 0)
            m.add(nxt[0] == (0 if lay.last_clue else 1))
        for k in range(S + 1):
            # next_color[k + 1] = next_color[k] xor (run k is odd)
            odd = m.new_bool_var(f"odd_run_{k}")
            m.add(odd == sum(x for j, x in enumerate(self.is_run[k]) if j % 2))
            m.add_bool_xor([nxt[k], odd, ~nxt[k + 1]])
            m.add_implication(none[k + 1], none[k])
            m.add_implication(none[k + 1], self.is_run[k][0])
            m.add_bool_or([none[k + 1], ~none[k], ~self.is_run[k][0]])
        for k in range(S + 1):
            has = self._typed_at(k, tracks)
            # the givers repeat after p clues and the types after 2: 2p covers both
            for j in range(1, min(lay.run_cap, 2 * p) + 1):
                ge = m.new_bool_var(f"run_ge_{k}_{j}")
                m.add(self.run[k] >= j).only_enforce_if(ge)
                m.add(self.run[k] <= j - 1).only_enforce_if(~ge)
                for t in (0, 1):
                    ht = has[t]
                    if ht is None:
                        continue
                    # clue j is of type t iff next_color[k] == (t == 1) xor (j even)
                    first_color = (t == 1) != (j % 2 == 0)
                    is_t = nxt[k] if first_color else ~nxt[k]
                    for q0 in self.movers_before(k):
                        others = sum(ht[x] for x in range(p) if x != (q0 + j) % p)
                        when = [self.mover[k - 1][q0]] if k else []
                        m.add(others >= 1).only_enforce_if([*when, ge, is_t])

    def moves(self, k: int) -> list[Var]:
        """Per player q: q moves slot k (one of them iff slot k is used)."""
        got = self._moves.get(k)
        if got is None:
            m = self.m
            got = self._moves[k] = [m.new_bool_var(f"moves_{k}_{q}") for q in range(self.lay.players)]
            m.add(sum(got) == self.used[k])
            for q, x in enumerate(got):
                m.add_implication(x, self.mover[k][q])
        return got

    def _track(self, name: str, first: int, init: list[int],
               member: list[bool] | None) -> dict[int, list[tuple[Var, Var]]]:
        """Per slot k >= ``first`` and player q: (the number of cards of the kind q
        holds before slot k, "at least one"), for the cards ``member`` marks or all
        (None).  Exact: ``init`` at ``first``, then each slot's mover loses the card
        that leaves (if of the kind) and gains the card the slot draws (if of it)."""
        m, lay = self.m, self.lay
        p, H, S, L = lay.players, lay.hand_size, lay.slots, lay.last_draw
        out: dict[int, list[tuple[Var, Var]]] = {}
        count: list = list(init)
        for k in range(first, S + 1):
            row = []
            for q in range(p):
                h = m.new_int_var(0, H, f"{name}_{k}_{q}")
                m.add(h == count[q])
                hp = m.new_bool_var(f"{name}_any_{k}_{q}")
                m.add(h >= 1).only_enforce_if(hp)
                m.add(h == 0).only_enforce_if(~hp)
                row.append((h, hp))
            out[k] = row
            if k == S:
                break
            mv = self.moves(k)
            drawn = lay.N - 1 - L + k              # the card slot k draws, if k <= L
            gains = k <= L and (member is None or member[drawn])
            lose: list = mv
            if member is not None:
                # the mover loses a card of the kind iff the card leaving is one
                leaves = sum(at[k] for i, at in self.at.items() if k in at and member[i])
                lose = [m.new_bool_var(f"{name}_loses_{k}_{q}") for q in range(p)]
                m.add(sum(lose) == leaves)
                for q in range(p):
                    m.add_implication(lose[q], self.mover[k][q])
            count = [row[q][0] - lose[q] + (mv[q] if gains else 0) for q in range(p)]
        return out

    def _clue_targets(self, k: int, has: list[Var]) -> None:
        """Each clue of run k goes to another player who can be clued (``has``): the
        j-th clue of the run is given by the player j turns after slot k-1's mover
        (the givers repeat after p clues, and no hand changes during a run)."""
        m, lay = self.m, self.lay
        p = lay.players
        for j in range(1, min(lay.run_cap, p) + 1):
            at_least = m.new_bool_var(f"run_ge_{k}_{j}")
            m.add(self.run[k] >= j).only_enforce_if(at_least)
            m.add(self.run[k] <= j - 1).only_enforce_if(~at_least)
            for q0 in self.movers_before(k):
                others = sum(has[x] for x in range(p) if x != (q0 + j) % p)
                when = [self.mover[k - 1][q0]] if k else []
                m.add(others >= 1).only_enforce_if([*when, at_least])

    # ---- how the game ends ----------------------------------------------------

    def _ending(self) -> None:
        m, lay = self.m, self.lay
        S, L = lay.slots, lay.last_draw
        won = m.new_bool_var("won")
        m.add_bool_and(self.played).only_enforce_if(won)
        m.add_bool_or([*(~x for x in self.played), won])
        if not self.maximize:
            m.add(won == 1)
        self.end = [m.new_bool_var(f"end_{k}") for k in range(S + 1)]   # exactly k slots used
        early = self.maximize and lay.early_ends
        dead = self._dead() if early else None
        nothing = self._nothing() if early and lay.final_round else None
        for k, end in enumerate(self.end):
            m.add(end == (self.used[k - 1] if k else 1) - (self.used[k] if k < S else 0))
            if k:
                # A win ends with the play that completes the last pile.
                m.add_bool_and([self.kind[k - 1][1], self.is_run[k][0]]).only_enforce_if([won, end])
            else:
                m.add_bool_or([~won, ~end])
            if not self.maximize:
                continue
            over = []
            if dead is not None:
                # The score reaches the best still reachable only at a play or a discard.
                m.add_implication(dead, self.is_run[k][0]).only_enforce_if(end)
                over.append(dead)
            if k > L and lay.final_round:
                fin = m.new_bool_var(f"final_round_over_{k}")
                m.add(self.turn[k] == self.anchor() + lay.players + 1).only_enforce_if(fin)
                over.append(fin)
                if nothing is not None:
                    over.append(nothing)
            if k > L and lay.tail_matters:
                over.append(self._stuck(k))
            if k > L and not lay.final_round:
                over.append(self._empty(k))
            m.add_bool_or([won, ~end, *over])
        if self.maximize and lay.speedrun:
            if self.real_rests is None:
                self._keep_caps()
            else:
                self._keep_real()

    def _not(self, lit: Var) -> cp_model.LiteralT:
        return ~lit

    def _dead(self) -> Var:
        """A literal that forces the final score to equal the best score still
        reachable: every pile complete or its next card's live copies all lost."""
        m = self.m
        dead = m.new_bool_var("dead")
        for unless, copies in self._needs():
            for i in copies:
                m.add_bool_or([*unless, self.fate[i][DISCARD],
                               self.fate[i][STRIKE]]).only_enforce_if(dead)
        return dead

    def _nothing(self) -> Var:
        """A literal that forces, at the end, in the final round: no copy of a card a
        pile still needs is held by a player with a turn left (the deck is empty)."""
        m, lay = self.m, self.lay
        p = lay.players
        nothing = m.new_bool_var("nothing")
        for k in range(lay.last_draw + 1):
            m.add_implication(nothing, ~self.end[k])     # the end is after the last draw
        # left[h]: player h has a turn left at the end (only "if" is needed): player
        # mover + d moves on the turn turn_K + d, before the end anchor + p + 1
        left = [m.new_bool_var(f"turn_left_{h}") for h in range(p)]
        for k in lay.tail:
            for q in range(p):
                for d in range(p):
                    m.add(self.turn[k] + d >= self.anchor() + p + 1).only_enforce_if(
                        [self.end[k], self.mover[k][q], ~left[(q + d) % p]])
        for unless, copies in self._needs():
            for i in copies:
                need = [*unless, ~self.stay[i]]
                owner, d = lay.owner[i], lay.draw_slot[i]
                for h in range(p) if owner is None else [owner]:
                    drew = [~self.mover[d][h]] if owner is None else []
                    m.add_bool_or([*need, *drew, ~left[h]]).only_enforce_if(nothing)
        return nothing

    def _stuck(self, k: int) -> Var:
        """A literal that forces the player to move after run k to have no card and
        no clue (no token, or nobody else who can be clued)."""
        m, p = self.m, self.lay.players
        stuck = m.new_bool_var(f"stuck_{k}")
        no_token = m.new_bool_var(f"no_token_{k}")
        if self.lay.tokens is None:
            m.add(no_token == 0)
        else:
            # fewer tokens than a clue costs (one unit, or two halves in Clue Starved)
            if self.lay.clue_cost == 1:
                m.add(self.tok[k] == 0).only_enforce_if(no_token)
            else:
                m.add(self.tok[k] < self.lay.clue_cost).only_enforce_if(no_token)
        holds, has = self.holds[k], self.cluable.get(k)
        if k in self.typed:
            return self._stuck_typed(k, stuck, no_token)
        if has is None:               # a clue is legal without touching anything
            m.add_implication(stuck, no_token)
        for q in range(p):
            m.add(holds[q][0] == 0).only_enforce_if([stuck, self.mover[k][q]])
            if has is not None:
                others = sum(has[x] for x in range(p) if x != q)
                m.add(others == 0).only_enforce_if([stuck, self.mover[k][q], ~no_token])
        return stuck

    def _stuck_typed(self, k: int, stuck: Var, no_token: Var) -> Var:
        """``_stuck`` where clue types matter: for each type the next clue may take
        (next_color[k + 1], or either before the game's first clue), nobody else
        can be clued by it."""
        m, p, holds, has = self.m, self.lay.players, self.holds[k], self.typed[k]
        nxt, none = self.next_color[k + 1], self.no_clue[k + 1]
        for q in range(p):
            mv = self.mover[k][q]
            m.add(holds[q][0] == 0).only_enforce_if([stuck, mv])
            for t in (0, 1):
                is_t = nxt if t == 1 else ~nxt
                ht = has[t]
                for may in (is_t, none):       # the next clue may be of type t
                    if ht is None:
                        m.add_bool_or([~stuck, ~mv, no_token, ~may])
                    else:
                        others = sum(ht[x] for x in range(p) if x != q)
                        m.add(others == 0).only_enforce_if([stuck, mv, ~no_token, may])
        return stuck

    def _empty(self, k: int) -> Var:
        """Without the final round: every hand is empty before slot k (k > L)."""
        empty = self.m.new_bool_var(f"empty_{k}")
        for h, _ in self.holds[k]:
            self.m.add(h == 0).only_enforce_if(empty)
        return empty

    def _keep_caps(self) -> None:
        """Speedrun: a game that loses every copy of a card still needed scores 0, so
        the best positive game keeps a copy of each (played, or still held)."""
        for _, _, copies in self._open_kinds():
            self.m.add_bool_or([x for i in copies for x in (self.fate[i][PLAY], self.stay[i])])

    def _keep_real(self) -> None:
        """A plan's speedrun: hanab.live's count stays at the target, so
        each pile, at its final height h, has an order it may still follow whose
        every card after h keeps a copy (played, or still held)."""
        assert self.real_rests is not None
        m, S = self.m, self.lay.slots
        for (c, h), rests in self.real_rests.items():
            ways: list[Var] = []
            for rest in rests:
                y = m.new_bool_var(f"keeps_{c}_{h}_{len(ways)}")
                ways.append(y)
                for a in rest:
                    copies = self.copies.get((a, c), [])
                    m.add_bool_or([x for i in copies for x in (self.fate[i][PLAY], self.stay[i])]
                                  ).only_enforce_if(y)
            m.add_bool_or([*([~self.reached[(h, c)][S]] if h else []),
                           self.reached[(h + 1, c)][S], *ways])
