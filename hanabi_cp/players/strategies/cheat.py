"""The cheating player of "How to Make the Perfect Fireworks Display": it sees its
own hand and follows the information strategy's action rule with full knowledge.

Its clues carry nothing (everyone already knows their cards): it gives one only
to spend a token where the action rule says to hint, which stalls the deck.
"""

from __future__ import annotations

from ...real.actions import Action
from ...real.rules import Rules
from ...core.model import Card
from ..strategy import Strategy
from ..view import CheatView, View
from .information import EARLY_DISCARDS, need_clue_tokens


class Cheat(Strategy):
    name = "cheat"
    reads_variant_clues = True
    summary = "sees its own cards; the information strategy's action rule"
    cheats = True

    def __init__(self, me: int, rules: Rules, seed: int = 0) -> None:
        super().__init__(me, rules, seed)
        need_clue_tokens(rules, self.name)

    def act(self, view: View) -> Action:
        assert isinstance(view, CheatView)
        own, hand, piles = view.own, view.my_hand, view.piles
        for slot, x in enumerate(own):
            if piles[x.color - 1] + 1 == x.value:
                return Action.play(hand[slot])
        played = [piles[x.color - 1] >= x.value for x in own]
        can_discard = view.clues is not None and view.clues < (view.max_clues or 0)
        if len(view.discards) < EARLY_DISCARDS and can_discard and any(played):
            return Action.discard(hand[played.index(True)])
        later = [(self.me + i) % view.players for i in range(1, view.players)]
        listeners = [q for q in later if view.others[q]]
        if (view.clues is None or view.clues > 0) and listeners:
            cards = view.others[listeners[0]]
            assert cards is not None
            rank = view.clue_value(listeners[0], False, cards[0])
            if rank is not None:
                return Action.rank_clue(listeners[0], rank)
            color = view.clue_value(listeners[0], True, cards[0])
            assert color is not None, "check_clues: every card takes a clue of either type"
            return Action.color_clue(listeners[0], color)
        slot = self._discard_slot(view, own, played)
        # no discard at the maximum and nobody to clue: only after the last draw
        # with one-card hands
        return Action.discard(hand[slot]) if can_discard else Action.play(hand[slot])

    @staticmethod
    def _discard_slot(view: CheatView, own: tuple[Card, ...], played: list[bool]) -> int:
        if any(played):
            return played.index(True)
        in_hands: dict[Card, int] = {}
        for cards in (*view.others, own):
            for x in cards or ():
                in_hands[x] = in_hands.get(x, 0) + 1
        for slot, x in enumerate(own):
            if in_hands[x] > 1:
                return slot
        gone = view.discard_counts()
        for slot, x in enumerate(own):
            if view.copies.get(x, 0) - gone.get(x, 0) > 1:      # not the last copy
                return slot
        return 0
