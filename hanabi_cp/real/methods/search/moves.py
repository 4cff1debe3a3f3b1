"""The rules as the referee has them, read on the search's state (``over``,
``final_score``, who can clue), and the moves: every distinct move of the player
to move, the likely good ones first, and the game found, as actions."""

from __future__ import annotations

from ...actions import Action
from ...referee import some_clue
from .state import CLUE, DISCARD, FREE, PLAY, State


class Moves(State):
    """The referee's rules and the move order over the state."""

    # Deck cards left at most where a clue comes before the discards in the move
    # order when another player can play (``moves``; encodings/live-search.md, 2).
    LATE_CLUE = 6

    def over(self) -> bool:
        """Whether the game is over, by the referee's rules (``referee.Game._check_end``)."""
        r = self.rules
        if self.strikes >= r.strikes or self.failed():
            return True
        me = self.turn % self.p
        if r.all_or_nothing and not self.hands[me] and self.clues < self.clue_cost:
            return True
        if self.end_turn is not None:
            if self.turn >= self.end_turn:
                return True
        elif not self.final_round and self.drawn == self.N and not any(self.hands):
            return True
        if self.score == self.target:
            return True
        if self.early_ends and (self.score == self.capsum and (
                self.plan is None or self.score == self.real_max()) or (
                (self.end_turn is not None or self.plan is not None)
                and self.nothing_playable())):
            return True
        return not self.hands[me] and not self.can_clue() and self.deck_top() < 0

    def failed(self) -> bool:
        """A speedrun or all-or-nothing game that can no longer be won (score 0);
        in a plan game by the real count (which is at least the planned caps')."""
        return self.zero_below_max and self.capsum < self.target and (
            self.plan is None or self.real_max() < self.target)

    def final_score(self) -> int:
        r = self.rules
        if self.strikes >= r.strikes or self.failed():
            return 0
        # hanab.live checks the softlock before the score (even a won game scores 0)
        if r.all_or_nothing and not self.hands[self.turn % self.p] and self.clues < self.clue_cost:
            return 0
        return self.score

    def nothing_playable(self) -> bool:
        """In the final round (a plan game: at any time): no copy of a card the piles
        need is in the deck or in the hand of a player with a turn left."""
        p = self.p
        # turns drew+1 .. turn-1 are done (a plan game asks before the final round too,
        # as hanab.live's server does in Up or Down and Sudoku: nobody is done then)
        first = self.turn if self.end_turn is None else self.end_turn - p
        done = {t % p for t in range(first, self.turn)}
        n, positions, cid = self.n, self.positions, self.cid
        live = {cid[o] for q, hand in enumerate(self.hands) if q not in done for o in hand}
        for k, top in enumerate(self.piles):
            if top == n:
                continue
            x = k * n + top
            if x in live or (positions[x] and positions[x][-1] >= self.drawn):
                return False
            # a plan game: the cards the real rules accept beside the planned one
            for y, h, j in self.alt_kinds[k]:
                if h == top and (j < 0 or self.piles[j] == 0) and (
                        y in live or (positions[y] and positions[y][-1] >= self.drawn)):
                    return False
        return True

    def can_clue(self) -> bool:
        me = self.turn % self.p
        if self.clues < self.clue_cost:
            return False
        if self.by_type is not None:
            return any(self.cluable_by(q, t) for t in self.clue_types()
                       for q in range(self.p) if q != me)
        if self.free_clue:
            return True
        touchable = self.touchable
        return any(touchable[o] for q, h in enumerate(self.hands) if q != me for o in h)

    def cluable(self, q: int) -> bool:
        return self.free_clue or any(self.touchable[o] for o in self.hands[q])

    def clue_types(self) -> tuple[int, ...]:
        """With ``by_type``: the types the next clue may have."""
        return (0, 1) if self.last_clue < 0 else (1 - self.last_clue,)

    def cluable_by(self, q: int, t: int) -> bool:
        assert self.by_type is not None
        touched = self.by_type[t]
        return self.free_type[t] or any(touched[o] for o in self.hands[q])

    def clue_action(self, t: int = -1) -> Action:
        """A legal clue for the player to move: to the next player who can be clued
        (the referee's ``some_clue``); of type ``t`` with ``by_type``."""
        me = self.turn % self.p
        for d in range(1, self.p):
            q = (me + d) % self.p
            if self.cluable(q) if self.by_type is None else self.cluable_by(q, t):
                return some_clue(self.rules, self.clue_rules,
                                 [self.deck.cards[o] for o in self.hands[q]], q,
                                 None if self.by_type is None else t == 0)
        raise AssertionError("no player to clue")

    def deck_top(self) -> int:
        """The deck position a deck play takes now, or -1."""
        return self.N - 1 if self.deck_plays and self.drawn == self.N - 1 else -1

    def moves(self) -> list[tuple[int, int]]:
        """Every distinct move of the player to move, the likely good ones first."""
        me = self.turn % self.p
        hand = self.hands[me]
        piles, val, col, cid = self.piles, self.val, self.col, self.cid
        can_discard = self.free_clues or self.clues < self.max_clues or self.discard_at_max
        plays: list[int] = []
        spare: list[int] = []
        needed: list[int] = []
        seen: list[int] = []           # the kinds met (a hand is short: a list, no set)
        trash: list[int] = []          # one trash card per ``tclass`` (see ``key``)
        caps, keep = self.caps, self.keep
        for o in hand:
            k, v = col[o], val[o]
            if (v <= piles[k] or v > caps[k]) and piles[k] > keep[o]:
                if all(self.tclass[t] != self.tclass[o] for t in trash):
                    trash.append(o)
                continue
            x = cid[o]
            if x in seen:
                continue
            seen.append(x)
            if v == piles[k] + 1:
                plays.append(o)
            elif self.copies_left(x) > 1:
                spare.append(o)
            else:
                needed.append(o)
        if len(plays) > 1:
            plays.sort(key=self.play_rank)
        out = [(PLAY, o) for o in plays]
        top = self.deck_top()
        good_top = top >= 0 and val[top] == piles[col[top]] + 1
        if good_top:
            out.append((PLAY, top))
        if len(spare) > 1:
            spare.sort(key=self.spare_rank)
        if self.by_type is None:
            clue = [(CLUE, -1)] if self.can_clue() else []
        else:
            clue = [(CLUE, t) for t in self.clue_types() if self.clues >= self.clue_cost
                    and any(self.cluable_by(q, t) for q in range(self.p) if q != me)]
        # each list appended in place (compiled, every ``+`` of lists made a new one)
        if clue and self.N - self.drawn <= self.LATE_CLUE and self.clues < FREE \
                and self.others_can_play(me):
            # near the end a discard brings the final round nearer; a clue hands
            # the turn to the players who can play without drawing (section 2)
            out += clue
            if can_discard:
                _append(out, DISCARD, trash)
                _append(out, DISCARD, spare)
        elif self.clues > self.max_clues // 2 or self.clues >= FREE:
            if can_discard:
                _append(out, DISCARD, trash)
            out += clue
            if can_discard:
                _append(out, DISCARD, spare)
        else:
            if can_discard:
                _append(out, DISCARD, trash)
                _append(out, DISCARD, spare)
            out += clue
        _append(out, PLAY, trash)
        if can_discard:
            _append(out, DISCARD, needed)
            _append(out, DISCARD, plays)
        _append(out, PLAY, spare)
        _append(out, PLAY, needed)
        if top >= 0 and not good_top:
            out.append((PLAY, top))
        if self.plan is not None:
            return [m for m in out if m[0] != PLAY or not self.forbidden(m[1])]
        return out

    # The sort keys of ``moves`` are methods, not lambdas: compiled, a closure would
    # move ``moves``' locals into an object made at every call.
    def play_rank(self, o: int) -> tuple[int, int]:
        """A play's place: those whose next card is held first, then lower values."""
        return -self.unlocks(o), self.val[o]

    def spare_rank(self, o: int) -> tuple[int, int]:
        """A discard's place among the spare copies: more copies held first, then
        values further above their pile."""
        return -self.held[self.cid[o]], self.piles[self.col[o]] - self.val[o]

    def others_can_play(self, me: int) -> bool:
        """Whether a player other than ``me`` holds a card its pile takes next."""
        piles, val, col = self.piles, self.val, self.col
        for q, hand in enumerate(self.hands):
            if q != me:
                for o in hand:
                    if piles[col[o]] + 1 == val[o]:
                        return True
        return False

    def moves_through_free_clues(self) -> list[list[tuple[int, int]]]:
        """The moves with unlimited clue tokens before the final round, where a clue
        only passes the turn: some free clues, then a play or a discard of the player
        they hand the turn to (or the clue that ends the game).  Every such move
        changes more than the turn, so no state repeats; each player's likely good
        moves come before anyone's bad ones."""
        ranked: list[tuple[int, int, list[tuple[int, int]]]] = []
        seen, clues = {self.turn % self.p}, 0
        while True:
            for rank, move in enumerate(m for m in self.moves() if m[0] != CLUE):
                ranked.append((rank, clues, [(CLUE, -1)] * clues + [move]))
            if not self.can_clue():
                break
            self.do(CLUE, -1)
            clues += 1
            if self.over():
                ranked.append((0, clues, [(CLUE, -1)] * clues))
                break
            if self.turn % self.p in seen:
                break
            seen.add(self.turn % self.p)
        for _ in range(clues):
            self.undo()
        ranked.sort(key=lambda r: (r[0], r[1]))
        return [steps for _, _, steps in ranked]

    def taken_back(self) -> list[Action]:
        """The moves since the position as actions, each undone: the state is back at
        the position after.  A clue's content is chosen in the state it was given in
        (``clue_action``), reached here by the undo; the search itself records no
        actions, as most of the states it visits are not on the game it returns."""
        out: list[Action] = []
        while self.trail:
            kind, order = self.trail[-1][0], self.trail[-1][1]
            self.undo()
            out.append(self.clue_action(order) if kind == CLUE else
                       Action.discard(order) if kind == DISCARD else Action.play(order))
        out.reverse()
        return out


def _append(out: list[tuple[int, int]], kind: int, cards: list[int]) -> None:
    """Append a move of ``kind`` per card of ``cards`` to ``out``."""
    for o in cards:
        out.append((kind, o))
