"""Method "lazy": one color (c = 1), journal §3, Theorem 3.3.

A copy of value a is *useless* if h+1 values above a have no copy after it: playing
it would leave those h+1 cards to be held at once.  Removing useless copies can
make lower copies useless, so the filter runs from the top value down, keeping

- P[i]: the previous copy of the value of card i (fixed);
- L[v]: the last copy of value v not yet found useless;
- a max-heap of the h+1 smallest L[w] over the values w already filtered: a copy
  of the current value after the heap's top has h+1 witnesses and is useless.

It starts at value n-h-1 (no higher value can have h+1 values above it).  If every
copy of some value is useless the deck is lost; otherwise playing only the last
surviving copy of each value, at once if playable and else stored, wins.
Cost O(N + n log h).

>>> from hanabi_cp.core.model import Deck
>>> str(lazy(Deck.of([(1, 1), (3, 1), (2, 1), (1, 1), (2, 1)]), 1).plays)
'DSDPP'
>>> print(lazy(Deck.of([(3, 1), (2, 1), (1, 1)]), 1).reason)
value 1 cannot be played: its only copy (#3) comes after the last usable copies of 2, 3 (#2, #1); h = 1
"""

from __future__ import annotations

import heapq

from ...core.model import Deck
from ..play_sequence import DISCARD, PLAY, STORE, PlaySequence
from ..solve import Method, Outcome
from ...core.options import SolveOptions
from ...core.status import Status

NONE = -1


def _lost(deck: Deck, reason: str, useless: int) -> Outcome:
    return Outcome(Status.UNWINNABLE, reason=reason,
                   stats={"cards": deck.N, "useless_copies": useless})


def lazy(deck: Deck, h: int, options: SolveOptions | None = None) -> Outcome:
    """The lazy play when it wins, else why no play wins; stats["useless_copies"]
    counts the copies the filter removed (O(N + n log h): no options)."""
    cards, n, N = deck.cards, deck.n, deck.N
    if deck.c == 0 or n == 0:
        return _won(deck, DISCARD * N, 0)
    missing = deck.missing()       # before the vectors over n: n may be far above N
    if missing:
        more = f" ({len(missing)} values missing)" if len(missing) > 1 else ""
        return _lost(deck, f"card {missing[0]} has no copy in the deck{more}", 0)
    # P and L in one scan (0-based positions; NONE for "no such card").
    prev = [NONE] * N
    last = [NONE] * (n + 1)
    for i, (a, _) in enumerate(cards):
        prev[i] = last[a]
        last[a] = i
    removed = 0
    top = n - h - 1                  # the highest value that can be useless
    if top >= 1:
        heap = [-last[w] for w in range(top + 1, n + 1)]   # h+1 indices, negated
        heapq.heapify(heap)
        for v in range(top, 0, -1):
            bound = -heap[0]
            i = last[v]
            while i != NONE and i > bound:     # useless: all h+1 witnesses precede it
                i = prev[i]
                removed += 1
            if i == NONE:
                return _lost(deck, _no_copy_left(deck, h, v, heap), removed)
            last[v] = i
            heapq.heapreplace(heap, -i)        # i < bound: i joins the h+1 smallest
    # Only the last surviving copy of each value is used.
    actions = [DISCARD] * N
    level = 0
    waiting = [False] * (n + 2)
    for i, (a, _) in enumerate(cards):
        if last[a] != i:
            continue
        if a == level + 1:
            actions[i] = PLAY
            level = a
            while waiting[level + 1]:
                level += 1
        else:
            actions[i] = STORE
            waiting[a] = True
    return _won(deck, "".join(actions), removed)


def _won(deck: Deck, actions: str, useless: int) -> Outcome:
    return Outcome(Status.WINNABLE, PlaySequence(actions),
                   stats={"cards": deck.N, "useless_copies": useless})


def _no_copy_left(deck: Deck, h: int, v: int, heap: list) -> str:
    by_value = sorted((-x for x in heap), key=lambda i: deck.cards[i][0])
    values = [deck.cards[i][0] for i in by_value]
    copies = [i + 1 for i, (a, _) in enumerate(deck.cards) if a == v]
    which = f"its only copy (#{copies[0]})" if len(copies) == 1 else (
        "each of its copies (" + ", ".join(f"#{p}" for p in copies[:8])
        + (", ..." if len(copies) > 8 else "") + ")")
    return (f"value {v} cannot be played: {which} comes after the last usable copies of "
            f"{', '.join(map(str, values))} ({', '.join(f'#{i + 1}' for i in by_value)}); h = {h}")


def _refuses(deck: Deck, h: int) -> str | None:
    if deck.c > 1:
        return f"lazy needs a single color (c = 1), this deck has c = {deck.c}"
    return None


METHOD = Method("lazy", lazy, "c = 1: filter useless copies, play last copies (Theorem 3.3, "
                "O(N + n log h))", refuses=_refuses)
