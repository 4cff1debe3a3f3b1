"""The recommendation strategy: every clue recommends one action to every other
player at once, as a hat-guessing code (docs/strategies/recommendation.md).

A hand's *recommendation* is a number 0 .. 2k-1 (k = min(hand size, players - 1)):
r < k "play c_{r+1}", r >= k "discard c_{r-k+1}", where c_1 .. c_k are the hand's k
oldest cards (c_1 the oldest).  The giver sums every other player's recommendation
modulo 2k and says the sum with the clue's shape: the j-th player after the giver
gets a rank clue for sum j - 1, a color clue for sum (p - 1) + j - 1.  Each receiver
subtracts the recommendations it sees (all but its own and the giver's) and learns
its own.
"""

from __future__ import annotations

from ...real.actions import Action, Kind
from ...core.model import Card
from ..strategy import Strategy
from ..view import Turn, View
from .information import need_clue_tokens


def window(view: View) -> int:
    """k: the cards a recommendation can name (the clue shapes say 2(p - 1) numbers)."""
    return min(view.rules.hand_size, view.players - 1)


def recommend(view: View, cards: tuple[Card, ...], k: int) -> int:
    """The paper's priorities over the k oldest cards: the lowest-index playable 5;
    the playable card of lowest rank (lowest index on a tie); the lowest-index dead
    card (its value already played); the highest-rank card that is not
    indispensable (lowest index on a tie); else discard c_1."""
    piles = view.piles
    best_play, best_value = -1, 10 ** 9
    first_dead = -1
    for i, (value, color) in enumerate(cards[:k]):
        top = piles[color - 1]
        if value == top + 1:
            if value == view.n:
                return i                     # the lowest-index playable top card
            if value < best_value:
                best_play, best_value = i, value
        elif value <= top and first_dead < 0:
            first_dead = i
    if best_play >= 0:
        return best_play
    if first_dead >= 0:
        return k + first_dead
    gone = view.discard_counts()
    spare = [(-x.value, i) for i, x in enumerate(cards[:k])
             if gone.get(x, 0) < view.copies.get(x, 0) - 1]
    if spare:
        return k + min(spare)[1]
    return k


class Recommendation(Strategy):
    name = "recommendation"
    reads_variant_clues = True
    summary = "clues as hat-guessing codes that recommend a play or a discard to each player"

    def __init__(self, me, rules, seed=0):
        super().__init__(me, rules, seed)
        need_clue_tokens(rules, self.name)
        self.rec: tuple[Kind, int] | None = None     # (PLAY or DISCARD, order)

    def observe(self, view: View, turn: Turn) -> None:
        clue = turn.clue
        if clue is None:
            return
        if clue.giver == self.me:
            self.rec = None          # the giver's own recommendation is out of date
            return
        p, k = view.players, window(view)
        offset = (clue.target - clue.giver) % p - 1
        said = offset if clue.kind is Kind.RANK_CLUE else (p - 1) + offset
        seen = sum(recommend(view, view.others[q] or (), k)
                   for q in range(p) if q not in (clue.giver, self.me))
        mine = (said - seen) % (2 * k)
        hand = view.my_hand
        slot = mine if mine < k else mine - k
        if slot >= len(hand):        # only if the giver miscounted; keep the rules
            self.rec = None
            return
        self.rec = (Kind.PLAY if mine < k else Kind.DISCARD, hand[slot])

    def act(self, view: View) -> Action:
        rec = self.rec if self.rec is not None and self.rec[1] in view.my_hand else None
        if rec is not None and rec[0] is Kind.PLAY:
            plays = plays_since_clue(view)
            # the paper's "fewer than two errors", read as: never risk the strike
            # that ends the game (so with 3 strikes, never a third error)
            if plays == 0 or (plays == 1 and view.strikes < view.rules.strikes - 1):
                return Action.play(rec[1])
        holders = [q for q in range(view.players) if q != self.me and view.others[q]]
        if (view.clues is None or view.clues > 0) and holders:
            return self.clue(view, holders)
        hand = view.my_hand
        # with the tokens at their maximum (0 of 0 too) no discard is legal: a play is
        can_discard = view.clues is not None and view.clues < (view.max_clues or 0)
        if rec is not None and rec[0] is Kind.DISCARD and can_discard:
            return Action.discard(rec[1])
        return Action.discard(hand[0]) if can_discard else Action.play(hand[0])

    def clue(self, view: View, holders: list[int]) -> Action:
        p, k = view.players, window(view)
        total = sum(recommend(view, view.others[q] or (), k)
                    for q in range(p) if q != self.me) % (2 * k)
        j, color = total % (p - 1), total >= p - 1
        target = (self.me + 1 + j) % p
        cards = view.others[target]
        if not cards:                # an empty hand (no final round): any legal clue
            target = holders[0]
            cards = view.others[target]
        assert cards
        value = view.clue_value(target, color, cards[0])
        assert value is not None, "check_clues: every card takes a clue of either type"
        return Action.color_clue(target, value) if color else Action.rank_clue(target, value)


def plays_since_clue(view: View) -> int:
    """Cards successfully played since the most recent clue."""
    count = 0
    for turn in reversed(view.history):
        if turn.clue is not None:
            break
        count += bool(turn.success)
    return count
