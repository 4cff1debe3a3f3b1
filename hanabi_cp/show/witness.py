"""The evidence of a loss, read back from a solver's reason so it can be drawn.

Methods explain UNWINNABLE in a sentence (``Outcome.reason``).  Two forms name
something on the deck: an overfull hand (``after card #32 every win must hold 3
cards (5:2, 4:4, 5:4); the hand holds 2``, also ``... the hand must hold ...`` from
greedy) and a card no copy of which can be used (``card 2:2 has no copy in the
deck``, ``card 3:1: no alive copy lets it be played ...``).  Any other reason (a SAT
solver's UNSAT, a time limit) is drawn as text only.  tests/test_show_timeline.py
runs the methods that write these sentences, so a reworded one fails there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.model import Card

_OVERFULL = re.compile(r"after card #(\d+)\b.*?hold (\d+) cards? \(([^)]*)\)")
_NO_COPY = re.compile(r"\bcard (\d+):(\d+)(?: has no copy|: no alive copy)")
_CARD = re.compile(r"(\d+):(\d+)")


@dataclass(frozen=True)
class Witness:
    position: int | None = None       # 0-based step after which the hand overflows
    needed: int = 0                   # how many cards a win must hold then
    cards: tuple[Card, ...] = ()      # the cards it must hold then (as far as named)
    unusable: Card | None = None      # a card with no usable copy


def parse(reason: str | None) -> Witness:
    """The drawable part of a reason (an empty Witness if there is none).

    >>> parse("after card #32 every win must hold 3 cards (5:2, 4:4, 5:4); the hand holds 2")
    Witness(position=31, needed=3, cards=(Card(value=5, color=2), Card(value=4, color=4), \
Card(value=5, color=4)), unusable=None)
    >>> parse("card 2:2 has no copy in the deck (2 cards missing)").unusable
    Card(value=2, color=2)
    >>> parse("SAT solver: unsatisfiable")
    Witness(position=None, needed=0, cards=(), unusable=None)
    """
    if not reason:
        return Witness()
    m = _OVERFULL.search(reason)
    if m:
        cards = tuple(Card(int(a), int(k)) for a, k in _CARD.findall(m.group(3)))
        return Witness(int(m.group(1)) - 1, int(m.group(2)), cards)
    m = _NO_COPY.search(reason)
    if m:
        return Witness(unusable=Card(int(m.group(1)), int(m.group(2))))
    return Witness()
