"""Brute force: exhaustive search over every legal action, with memoisation.

The oracle for tiny instances.  It assumes none of the facts the fast methods use
(it may store useless cards, hold duplicates, discard playable ones); the only
shortcut is that storing a playable card is the same move as playing it, because
the referee plays stored cards as soon as they are playable.

>>> from hanabi_cp.core.model import Deck
>>> brute(Deck.of([(2, 1), (1, 1)]), 1).plays.actions
'SP'
>>> out = brute(Deck.of([(3, 1), (2, 1), (1, 1)]), 1, maximize=True)
>>> out.status.value, out.score, out.plays.actions
('UNWINNABLE', 2, 'DSP')
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ...runtime.deadline import EVERY, NEVER, Deadline
from ...runtime.limits import effective_hand
from ...core.model import Deck
from ..play_sequence import DISCARD, PLAY, STORE, PlaySequence
from ..solve import Method, Outcome
from ...core.options import SolveOptions
from ...core.status import Status

STATE_LIMIT = 2_000_000


def state_bound(deck: Deck, h: int, cap: int | None = None) -> int:
    """An upper bound on memoised states: positions x color levels x hands.

    Past ``cap`` it returns cap + 1 without finishing the count, so huge decks and
    hand sizes never build the giant integers an exact count would.
    """
    h = effective_hand(h, deck.N)       # no hand holds more than the deck
    kinds = len(deck.counts)
    total = deck.N + 1
    # (n+1)^c >= 2^(c (bits(n+1) - 1)), which past bits(cap) is above cap
    if cap is not None and (total > cap or
                            deck.c * ((deck.n + 1).bit_length() - 1) >= cap.bit_length()):
        return cap + 1
    total *= (deck.n + 1) ** deck.c
    # sum_j C(kinds + j - 1, j), j <= h: multisets of j card kinds (empty deck: 1).
    hands = term = 1
    for j in range(1, h + 1 if kinds else 1):
        term = term * (kinds + j - 1) // j
        hands += term
        if cap is not None and total * hands > cap:
            return cap + 1
    total *= hands
    return total if cap is None or total <= cap else cap + 1


def _refuses(deck: Deck, h: int) -> str | None:
    bound = state_bound(deck, h, cap=STATE_LIMIT)
    if bound > STATE_LIMIT:
        return f"more than {STATE_LIMIT:,} states (the limit); use dp, sat or cpsat"
    return None


def brute(deck: Deck, h: int, deadline: Deadline = NEVER, maximize: bool = False) -> Outcome:
    """Decide (deck, h), or with ``maximize`` find the largest score and a play
    reaching it; TimeUp once ``deadline`` passes."""
    score, actions = _best_play(deck, h, deadline)
    won = score == deck.target
    reason = None if won else f"exhaustive search: at most {score} of {deck.target} cards can be played"
    return Outcome(Status.WINNABLE if won else Status.UNWINNABLE,
                   PlaySequence(actions) if (won or maximize) else None, reason,
                   score=score if maximize else None, stats={"states": state_bound(deck, h)})


def _best_play(deck: Deck, h: int, deadline: Deadline) -> tuple[int, str]:
    """The largest score reachable and an action string reaching it."""
    cards, n_cards = deck.cards, deck.N
    memo: dict = {}

    def advance(tops: Sequence[int], hand: Sequence[tuple[int, int]], k: int,
                a: int) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...], int]:
        """Play (a, k) and cascade from the hand; return new tops, hand, cards played."""
        tops = list(tops)
        tops[k] = a
        hand = list(hand)
        played = 1
        while (tops[k] + 1, k) in hand:
            hand.remove((tops[k] + 1, k))
            tops[k] += 1
            played += 1
        return tuple(tops), tuple(hand), played

    def go(i: int, tops: tuple, hand: tuple) -> int:
        if i == n_cards:
            return 0
        key = (i, tops, hand)
        if key in memo:
            return memo[key][0]
        a, k = cards[i]
        best, act = go(i + 1, tops, hand), DISCARD
        if tops[k] + 1 == a:
            t2, h2, gained = advance(tops, hand, k, a)
            val = gained + go(i + 1, t2, h2)
            if val > best:
                best, act = val, PLAY
        elif len(hand) < h:
            val = go(i + 1, tops, tuple(sorted(hand + ((a, k),))))
            if val > best:
                best, act = val, STORE
        memo[key] = (best, act)
        if not len(memo) & EVERY:
            deadline.check("exhaustive search")
        return best

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 4 * n_cards + 100))
    try:
        tops0 = (0,) * (deck.c + 1)
        score = go(0, tops0, ())
        hand: tuple[tuple[int, int], ...]
        actions, tops, hand = [], tops0, ()
        for i in range(n_cards):
            act = memo[(i, tops, hand)][1]
            a, k = cards[i]
            actions.append(act)
            if act == PLAY:
                tops, hand, _ = advance(tops, hand, k, a)
            elif act == STORE:
                hand = tuple(sorted(hand + ((a, k),)))
        return score, "".join(actions)
    finally:
        sys.setrecursionlimit(old)


def run(deck: Deck, h: int, options: SolveOptions) -> Outcome:
    return brute(deck, h, options.clock(), options.maximize)


METHOD = Method("brute", run, "exhaustive search with memo (oracle for tiny decks)",
                refuses=_refuses, maximizes=True)
