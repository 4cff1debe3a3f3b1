"""Method "greedy": decks without repeated cards (r = 1), journal §2, Lemma 2.1.

With one copy per card nothing can be discarded, so the only freedom is when to
play, and playing as soon as possible is best (fact 1): play a card when it is
playable, else store it.  Card i waits in the hand over the interval (i, f_i],
where f_i is the last position of a card of its color with value <= a_i; the deck
is won iff no position lies in more than h intervals (and no card is missing).
Everything is one pass over the deck plus one over each color: O(N).

>>> from hanabi_cp.core.model import Deck
>>> out = greedy(Deck.of([(2, 1), (1, 2), (1, 1), (2, 2)]), 1)
>>> out.status.value, str(out.plays)
('WINNABLE', 'SPPP')
>>> greedy(Deck.of([(2, 1), (2, 2), (1, 1), (1, 2)]), 1).reason
'after card #2 (2:2) the hand must hold 2 cards (2:1, 2:2); h = 1'
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core.model import Card, Deck
from ..play_sequence import PLAY, STORE, PlaySequence
from ..solve import Method, Outcome
from ...core.options import SolveOptions
from ...core.status import Status

SHOWN = 8   # cards named in an overfull-hand witness


def release_positions(deck: Deck) -> tuple[list[int], Sequence[Card]]:
    """(f, missing): f_i (0-based) for every card i of a deck with r = 1, or the
    cards with no copy (then f is empty)."""
    missing = deck.missing()
    if missing:          # before the table per kind: n x c may be far above N
        return [], missing
    pos = [[-1] * (deck.n + 1) for _ in range(deck.c + 1)]
    for i, (a, k) in enumerate(deck.cards):
        pos[k][a] = i
    for k in range(1, deck.c + 1):
        row = pos[k]
        for a in range(2, deck.n + 1):     # prefix maximum over values
            if row[a - 1] > row[a]:
                row[a] = row[a - 1]
    return [pos[k][a] for a, k in deck.cards], []


def greedy(deck: Deck, h: int, options: SolveOptions | None = None) -> Outcome:
    """The greedy play when it wins, else why no play wins (O(N): no options)."""
    stats = {"cards": deck.N}
    f, missing = release_positions(deck)
    if missing:
        more = f" ({len(missing)} cards missing)" if len(missing) > 1 else ""
        return Outcome(Status.UNWINNABLE, reason=f"card {missing[0]} has no copy in the "
                       f"deck{more}", stats=stats)
    N = deck.N
    # Card i is in the hand after positions i .. f_i - 1 (the interval (i, f_i]).
    diff = [0] * (N + 1)
    for i, fi in enumerate(f):
        if fi > i:
            diff[i] += 1
            diff[fi] -= 1
    held = 0
    for t in range(N):
        held += diff[t]
        if held > h:
            return Outcome(Status.UNWINNABLE, reason=_witness(deck, h, f, t, held), stats=stats)
    return Outcome(Status.WINNABLE, PlaySequence("".join(STORE if fi > i else PLAY
                                                         for i, fi in enumerate(f))), stats=stats)


def _witness(deck: Deck, h: int, f: list[int], t: int, held: int) -> str:
    cards = [str(deck.cards[i]) for i in range(t + 1) if f[i] > t]
    shown = ", ".join(cards[:SHOWN]) + (", ..." if len(cards) > SHOWN else "")
    return (f"after card #{t + 1} ({deck.cards[t]}) the hand must hold {held} cards "
            f"({shown}); h = {h}")


def _refuses(deck: Deck, h: int) -> str | None:
    if deck.r > 1:
        return f"greedy needs every card at most once (r = 1), this deck has r = {deck.r}"
    return None


METHOD = Method("greedy", greedy, "r = 1: play when playable, else store (Lemma 2.1, O(N))",
                refuses=_refuses)
