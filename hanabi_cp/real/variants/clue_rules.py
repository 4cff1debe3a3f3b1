"""Which cards a clue touches, and which clues exist, for a deck under some rules.

hanab.live's variants say it for their own decks (``variants.Variant``).  Without a
variant, a game follows No Variant's rule on any deck, whatever its numbers of
colors and values: a color clue names one of the deck's colors and touches the
cards of that color, a rank clue names one of its values and touches the cards of
that value (``OwnClues``).  Both answer the same four questions, so the referee and
the methods ask ``clue_rules(rules, deck)`` and never which kind they hold.

>>> from hanabi_cp.core.model import Deck
>>> from hanabi_cp.real.rules import Rules
>>> own = clue_rules(Rules.for_players(2), Deck.of([(1, 1), (3, 2)]))
>>> list(own.clue_values(True)), list(own.clue_values(False))
([0, 1], [1, 2, 3])
>>> own.touches(True, 1, 1, 3), own.touches(False, 2, 1, 3)
(True, False)
"""

from __future__ import annotations

from typing import Protocol
from collections.abc import Sequence

from ...core.model import Deck
from ..rules import Rules, RulesError
from .catalogue import Variant


class ClueRules(Protocol):
    def touches(self, color_clue: bool, value: int, suit_index: int, rank: int) -> bool: ...

    def clue_values(self, color_clue: bool) -> Sequence[int]: ...

    def always_legal(self, color_clue: bool) -> bool: ...


class OwnClues:
    """No Variant's clues on a deck of ``n`` values and ``c`` colors."""

    every_card_touchable = True

    def __init__(self, n: int, c: int):
        self.n, self.c = n, c

    def touches(self, color_clue: bool, value: int, suit_index: int, rank: int) -> bool:
        return suit_index == value if color_clue else rank == value

    def clue_values(self, color_clue: bool) -> range:
        return range(self.c) if color_clue else range(1, self.n + 1)

    def always_legal(self, color_clue: bool) -> bool:
        return False


class StartAsValue:
    """An Up or Down variant's clues on hanabi-cp's deck values, where START is the
    value ``deck_n`` (hanab.live's rank 7: ``Variant.touches`` takes ranks)."""

    def __init__(self, v: Variant):
        self.variant = v

    def touches(self, color_clue: bool, value: int, suit_index: int, rank: int) -> bool:
        return self.variant.touches(color_clue, value, suit_index, self.variant.live_rank(rank))

    def clue_values(self, color_clue: bool) -> Sequence[int]:
        return self.variant.clue_values(color_clue)

    def always_legal(self, color_clue: bool) -> bool:
        return self.variant.always_legal(color_clue)


def clue_rules(rules: Rules, deck: Deck) -> ClueRules:
    """The clue rules of ``rules`` for ``deck``; a RulesError if the deck does not fit
    the variant (more colors than it has suits, or values above its stacks; in Up
    or Down the value ``stack_size + 1`` is START, encodings/variants.md, 8)."""
    v: Variant | None = rules.variant
    if v is None:
        return OwnClues(deck.n, deck.c)
    if deck.c > len(v.suits) or deck.n > v.deck_n:
        raise RulesError(f"a deck of {deck.c} colors and values 1 to {deck.n} does not fit "
                         f"the variant {v.name!r} ({len(v.suits)} suits, values 1 to "
                         f"{v.deck_n}{', START as ' + str(v.deck_n) if v.up_or_down else ''})")
    return StartAsValue(v) if v.up_or_down else v
