"""A short proof that no game from a position reaches a score, from the deal alone.

The lost-deck reasons (``reasons.short_reason``) speak of every game on a deal: no
game plays every card of color k up to value ``caps[k - 1]``.  A game through a
position has lost that position's lost cards (``Game.lost_cards``: it never plays
them, so the reasons hold with those copies left out) and ends with each pile
between its height now and the values still reachable (``Game.caps``).  A game
that scores ``goal`` or more stacks every card of some way to pile ``goal`` cards
within those heights; if a reason refutes each such way, no game from the
position scores ``goal``: that answers "does some game reach ``goal``?" without a
search where the search would have to exhaust the position to say no (a bot game's
hardest alternatives: 2 to 10 seconds each, bench/postmortem.py).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..reasons import short_reason
from ..referee import Game

# At most this many ways to stack ``goal`` cards are asked (each a few sweeps of the
# deck, memoised per deal); a position with more gets no answer here.
MOST_WAYS = 40


def refuted(g: Game, goal: int) -> str | None:
    """A reason no game from ``g`` scores ``goal`` or more, or None (none found:
    not a proof of the contrary)."""
    tables = g.tables
    if g.over or tables is None or tables.chosen is not None or any(tables.down):
        return None     # the reasons read values in pile order, one pile per color
    lows = g.piles
    highs = [min(cap, g.deck.n) for cap in g.caps]
    if sum(lows) >= goal:
        return None
    ways = []
    for way in _ways(lows, highs, goal):
        ways.append(way)
        if len(ways) > MOST_WAYS:
            return None
    lost = frozenset(g.lost_cards)
    whys = []
    for way in ways:
        why = short_reason(g.deck, g.rules, way, lost)
        if why is None:
            return None
        whys.append(why)
    if not ways:
        return f"the piles can reach {sum(highs)} at most"
    return "; ".join(whys)


def _ways(lows: list[int], highs: list[int], total: int) -> Iterator[tuple[int, ...]]:
    """Every tuple of pile heights from ``lows`` to ``highs`` adding up to ``total``."""
    if not lows:
        if total == 0:
            yield ()
        return
    rest_low, rest_high = sum(lows[1:]), sum(highs[1:])
    for h in range(max(lows[0], total - rest_high), min(highs[0], total - rest_low) + 1):
        for rest in _ways(lows[1:], highs[1:], total - h):
            yield (h, *rest)
