"""Method "search": exact depth-first search for decks of real-game size.

It scans the deck once per branch with the state (position, color levels, hand)
and branches only where a choice exists; everything else is forced by facts that
hold in every win, or in some win whenever one exists:

- a playable card is played (fact 1: never worse);
- a card already played, already held (fact 2) or dead is discarded; dead copies
  and the bounds below come from ``preprocessing.analyse``, which keeps only
  what every winning choice of copies (fact 3) satisfies;
- the last alive copy of a card not yet played nor held must be stored;
- a copy that cannot be stored past the full-hand positions (``storable``) is
  discarded; a stored copy q carries its deadline g from ``stop``: if the card is
  still held after position g, the branch fails; so does a color whose next card
  is past its latest play time.

The remaining choice, store or discard a not-yet-playable alive copy with later
alive copies, is tried store-first; failed states are memoised.  The search is
exponential in the worst case (the problem is NP-complete), so it refuses decks
over MAX_CARDS cards, where the SAT encoding is the better tool, and honours the
time limit with UNKNOWN.

>>> from hanabi_cp.core.model import Deck
>>> out = search(Deck.of([(2, 1), (1, 2), (1, 1), (2, 2), (2, 1)]), 1)
>>> out.status.value, str(out.plays)
('WINNABLE', 'SPPPD')
>>> search(Deck.of([(2, 1), (3, 1), (1, 1)]), 1).reason
'after card #2 every win must hold 2 cards (2:1, 3:1); the hand holds 1'
"""

from __future__ import annotations

import sys

from ...runtime.deadline import NEVER, Deadline
from ..preprocessing import analyse
from ...core.model import Deck
from ..play_sequence import DISCARD, PLAY, STORE, PlaySequence
from ..solve import Method, Outcome
from ...core.options import SolveOptions
from ...core.status import Status

MAX_CARDS = 400


PHASE = "search"


def search(deck: Deck, h: int, deadline: Deadline = NEVER) -> Outcome:
    """A win or why there is none, with stats["nodes"]; TimeUp once ``deadline`` passes."""
    n, c, N, cards = deck.n, deck.c, deck.N, deck.cards
    if c == 0 or n == 0:
        return Outcome(Status.WINNABLE, PlaySequence(DISCARD * N), stats={"nodes": 0})
    w = analyse(deck, h, deadline=deadline)
    if w.decided_lost:
        return Outcome(Status.UNWINNABLE, reason=w.reason,
                       stats={"nodes": 0, "decided_by": "windows"})
    # Per position: is it an alive copy, the last alive one, storable, its deadline.
    alive = [False] * N
    last = [False] * N
    store_ok = [False] * N
    due = [N] * N
    for k in range(1, c + 1):
        for a in range(1, n + 1):
            copies = w.alive[k][a]
            for j, q in enumerate(copies):
                alive[q] = True
                store_ok[q] = w.storable(k, a, j)
                due[q] = w.stop[k][a][j]
            last[copies[-1]] = True
    latest = w.latest
    failed: set = set()
    actions: list[str] = []
    stats = {"nodes": 0}

    def go(t: int, levels: list, hand: dict) -> bool:
        # hand: card -> deadline position (the card must be gone after it)
        while True:
            stats["nodes"] += 1
            if not stats["nodes"] & 1023:
                deadline.check(PHASE)
            for _card, g in hand.items():
                if g < t:
                    return False
            for k in range(1, c + 1):
                if levels[k] < n and latest[k][levels[k] + 1] < t:
                    return False
            if t == N:
                return True            # every level is n: latest[k][a] <= N - 1
            a, k = cards[t]
            if a == levels[k] + 1:
                actions.append(PLAY)
                levels[k] = a
                while (levels[k] + 1, k) in hand:
                    del hand[(levels[k] + 1, k)]
                    levels[k] += 1
                t += 1
                continue
            if not alive[t] or a <= levels[k] or (a, k) in hand:
                actions.append(DISCARD)
                t += 1
                continue
            can_store = store_ok[t] and len(hand) < h
            if last[t] and not can_store:
                return False
            if not can_store:
                actions.append(DISCARD)
                t += 1
                continue
            key = (t, tuple(levels), tuple(sorted(hand.items())))
            if key in failed:
                return False
            mark = len(actions)
            actions.append(STORE)
            h2 = dict(hand)
            h2[(a, k)] = due[t]
            if go(t + 1, list(levels), h2):
                return True
            del actions[mark:]
            if last[t]:
                failed.add(key)
                return False
            actions.append(DISCARD)
            if go(t + 1, list(levels), dict(hand)):
                return True
            del actions[mark:]
            failed.add(key)
            return False

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 2 * N + 100))
    try:
        won = go(0, [0] * (c + 1), {})
    finally:
        sys.setrecursionlimit(old)
    stats["memo"] = len(failed)
    if won:
        return Outcome(Status.WINNABLE, PlaySequence("".join(actions)), stats=stats)
    return Outcome(Status.UNWINNABLE, reason=f"exhaustive search over {stats['nodes']:,} "
                   "nodes found no win", stats=stats)


def _refuses(deck: Deck, h: int) -> str | None:
    if deck.N > MAX_CARDS:
        return f"search is built for decks of at most {MAX_CARDS} cards, this one has {deck.N}; use sat"
    return None


def run(deck: Deck, h: int, options: SolveOptions) -> Outcome:
    return search(deck, h, options.clock())


METHOD = Method("search", run, f"depth-first search with window pruning and memo "
                f"(exact, decks up to {MAX_CARDS} cards)", refuses=_refuses)
