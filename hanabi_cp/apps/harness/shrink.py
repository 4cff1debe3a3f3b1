"""Delta debugging for decks: the smallest instance that still fails.

``shrink(deck, h, fails)`` repeatedly tries smaller variants of the instance and
keeps the first one on which ``fails(deck, h)`` is still true, until no variant
fails: lower h; drop a whole color or value (renumbering those above it, so n and
c stay consistent with the cards); remove chunks of cards, halving the chunk size
as in Zeller's ddmin; finally lower one card's value or color.  Every variant is
strictly smaller (in h, N, n + c, or the sum of the card labels), so the loop ends;
``max_tests`` bounds the work when ``fails`` is expensive.

>>> from hanabi_cp.core.model import Deck
>>> deck = Deck.of([(3, 2), (1, 1), (2, 2), (2, 1), (1, 2), (3, 1)])
>>> has_unplayable_two = lambda d, h: any(a >= 2 for a, _ in d.cards) and h >= 1
>>> small = shrink(deck, 3, has_unplayable_two)
>>> (str(small.deck), small.deck.n, small.deck.c, small.h)
('2:1', 2, 1, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable, Iterator

from ...core.model import Card, Deck

Predicate = Callable[[Deck, int], bool]


@dataclass(frozen=True)
class Shrunk:
    deck: Deck
    h: int
    tests: int          # calls of the predicate (cache misses)


def shrink(deck: Deck, h: int, fails: Predicate, max_tests: int = 5000) -> Shrunk:
    cache: dict = {}
    tests = 0

    def still_fails(d: Deck, hh: int) -> bool:
        nonlocal tests
        key = (d.cards, d.n, d.c, hh)
        if key not in cache:
            tests += 1
            cache[key] = bool(fails(d, hh))
        return cache[key]

    progress = True
    while progress and tests < max_tests:
        progress = False
        for d2, h2 in variants(deck, h):
            if tests >= max_tests:
                break
            if still_fails(d2, h2):
                deck, h, progress = d2, h2, True
                break
    return Shrunk(deck, h, tests)


def variants(deck: Deck, h: int) -> Iterator[tuple[Deck, int]]:
    """Smaller instances, the largest reductions first."""
    for h2 in range(h):
        yield deck, h2
    for k in range(deck.c, 0, -1):
        yield drop_color(deck, k), h
    for a in range(deck.n, 0, -1):
        yield drop_value(deck, a), h
    cards = list(deck.cards)
    size = len(cards) // 2
    while size >= 1:
        for start in range(0, len(cards), size):
            rest = cards[:start] + cards[start + size:]
            yield Deck(tuple(rest), deck.n, deck.c), h
        size //= 2
    for i, (a, k) in enumerate(cards):
        if a > 1:
            yield Deck(tuple(cards[:i] + [Card(a - 1, k)] + cards[i + 1:]), deck.n, deck.c), h
        if k > 1:
            yield Deck(tuple(cards[:i] + [Card(a, k - 1)] + cards[i + 1:]), deck.n, deck.c), h


def drop_color(deck: Deck, k: int) -> Deck:
    """Remove color k and renumber the colors above it."""
    cards = tuple(Card(a, x - (x > k)) for a, x in deck.cards if x != k)
    return Deck(cards, deck.n, deck.c - 1)


def drop_value(deck: Deck, a: int) -> Deck:
    """Remove value a of every color and renumber the values above it."""
    cards = tuple(Card(v - (v > a), k) for v, k in deck.cards if v != a)
    return Deck(cards, deck.n - 1, deck.c)
