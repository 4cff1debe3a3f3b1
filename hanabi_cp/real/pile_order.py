"""Reversed suits as the exact methods see them: every card renamed by its place on
its pile (encodings/variants.md, 7.5).

A reversed suit is played from the top value n down to 1. The referee plays it so
(``Game.value_at``). The search and the encodings instead take the position on a
deck where each card of a reversed suit of value a is renamed n + 1 - a: then every
pile is played 1 to n, as in No Variant, and each of their rules (piles, caps,
early ends, bounds, reasons) holds unchanged. A clue still touches a card by its
value on the real deck: the renamed game's variant (``PileOrderVariant``) renames
it back before asking the real variant. Cards keep their deck positions, so a game
of the renamed position is a game of the real one, action for action, and the
referee replays it there.

>>> from hanabi_cp.core.model import Deck
>>> from hanabi_cp.real.referee import Game
>>> from hanabi_cp.real.rules import Rules
>>> from hanabi_cp.real.variants.catalogue import variant
>>> deal = Game.start(Deck.of([(3, 1), (1, 3), (2, 3), (3, 3)], 3, 3),
...                   Rules.for_players(2, hand_size=2, variant=variant("Reversed (3 Suits)")))
>>> str(in_pile_order(deal).deck)        # Blue Reversed: 1:3 becomes 3:3, 3:3 becomes 1:3
'3:1 3:3 2:3 1:3'
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from ..core.model import Deck
from .referee import Game, Tables
from .variants.catalogue import Variant


@dataclass(frozen=True, repr=False)
class PileOrderVariant(Variant):
    """``Variant`` on a deck renamed by pile order: ``flipped[k]`` says that suit k's
    values are renamed (n + 1 - a, for values 1..``top``); a clue touches as on the
    real deck."""

    flipped: tuple[bool, ...] = ()
    top: int = 5

    def touches(self, color_clue: bool, value: int, suit_index: int, rank: int) -> bool:
        if suit_index < len(self.flipped) and self.flipped[suit_index] and 1 <= rank <= self.top:
            rank = self.top + 1 - rank
        return super().touches(color_clue, value, suit_index, rank)


def in_pile_order(g: Game) -> Game:
    """The position ``g`` on the deck renamed by pile order (``g`` itself when no
    suit of its deck is reversed)."""
    assert g.tables is not None
    down, v = g.tables.down, g.rules.variant
    if not any(down) or v is None:
        return g
    n, c = g.deck.n, g.deck.c
    deck = Deck.of([(n + 1 - a if down[k - 1] else a, k) for a, k in g.deck.cards], n, c)
    kept = {f.name: getattr(v, f.name) for f in fields(Variant)}
    kept["suits"] = tuple(replace(s, reversed=False) for s in v.suits)
    rules = replace(g.rules, variant=PileOrderVariant(**kept, flipped=tuple(down), top=n))
    h = g.copy()
    h.deck, h.rules, h.tables = deck, rules, Tables(deck, rules)
    lost = h.lost_counts
    for k in range(c):
        if down[k]:
            lost[k * n:(k + 1) * n] = lost[k * n:(k + 1) * n][::-1]
    h.caps = [h._cap(k) for k in range(c)]
    return h
