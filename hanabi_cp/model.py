"""The instance model of Solitaire Hanabi (journal §1.3).

A card is (value, color) with 1-based value in 1..n and color in 1..c.  A deck is a
sequence of cards together with its n and c: a deck may lack some card, and is then
a valid instance that cannot be won.  The hand size h travels separately because
the same deck is asked about many hand sizes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from itertools import islice, repeat
from operator import add, itemgetter, mul
from typing import NamedTuple, overload
from collections.abc import Iterable, Iterator, Sequence

from .errors import DeckError


class Card(NamedTuple):
    """One card: its value (1..n) and color (1..c), written ``value:color``.

    >>> card = Card(3, 2)
    >>> card.value, card.color, str(card), card == (3, 2)
    (3, 2, '3:2', True)
    """

    value: int
    color: int

    def __str__(self) -> str:
        return f"{self.value}:{self.color}"


@dataclass(frozen=True)
class Deck:
    """An ordered deck with its explicit parameters n (values) and c (colors).

    >>> deck = Deck.of([(1, 1), (2, 1), (1, 2), (1, 2)])
    >>> deck.n, deck.c, deck.N, deck.r, deck.target, str(deck)
    (2, 2, 4, 2, 4, '1:1 2:1 1:2 1:2')
    >>> list(deck.missing())
    [Card(value=2, color=2)]
    """

    cards: tuple[Card, ...]
    n: int
    c: int

    def __post_init__(self) -> None:
        cards = self.cards
        if type(cards) is not tuple or any(type(x) is not Card for x in set(map(type, cards))):
            cards = tuple(c if type(c) is Card else Card(*c) for c in cards)
        object.__setattr__(self, "cards", cards)
        if not isinstance(self.n, int) or self.n < 0:
            raise DeckError(f"n must be a non-negative integer, found {self.n!r}")
        if not isinstance(self.c, int) or self.c < 0:
            raise DeckError(f"c must be a non-negative integer, found {self.c!r}")
        n, c = self.n, self.c
        if _within(map(itemgetter(0), cards), n) and _within(map(itemgetter(1), cards), c):
            return               # the per-card loop below only words the first bad card
        for i, (a, k) in enumerate(cards, start=1):
            if not (isinstance(a, int) and 1 <= a <= n):
                raise DeckError(f"card #{i} ({a}:{k}): value must be in 1..{n}")
            if not (isinstance(k, int) and 1 <= k <= c):
                raise DeckError(f"card #{i} ({a}:{k}): color must be in 1..{c}")

    @classmethod
    def of(cls, cards: Iterable[tuple[int, int]], n: int | None = None, c: int | None = None) -> Deck:
        """Build a deck; n and c default to the largest value and color seen."""
        deck_cards = [x if type(x) is Card else Card(*x) for x in cards]
        if n is None:
            n = max((a for a, _ in deck_cards), default=0)
        if c is None:
            c = max((k for _, k in deck_cards), default=0)
        return cls(tuple(deck_cards), n, c)

    @property
    def N(self) -> int:
        return len(self.cards)

    @cached_property
    def counts(self) -> Counter:
        return Counter(self.cards)

    @cached_property
    def r(self) -> int:
        """Multiplicity: the largest number of copies of one card (0 if empty)."""
        if "counts" in self.__dict__ or not self.cards:
            return max(self.counts.values(), default=0)
        # Counting ints instead of Card tuples: 2-3x faster on a million cards, and
        # every report prints r (also after a time limit has run out).
        cards, base = self.cards, self.c + 1
        keys = map(add, map(mul, map(itemgetter(0), cards), repeat(base)),
                   map(itemgetter(1), cards))
        return max(Counter(keys).values())

    @property
    def target(self) -> int:
        """Number of plays a win takes: every value of every color."""
        return self.n * self.c

    def missing(self) -> MissingCards:
        """Cards (a, k) with a <= n, k <= c that have no copy: each makes the deck lost.

        A lazy sequence: its length and first card cost O(N), never O(n c), so a
        deck of one card declaring n = 10^7 is answered without a pass over n.
        """
        return MissingCards(self)

    def __len__(self) -> int:
        return len(self.cards)

    def __str__(self) -> str:
        return " ".join(map(str, self.cards))


def _within(numbers: Iterable, top: int) -> bool:
    """Is every one of ``numbers`` an int (not a bool) in 1..top?  C-speed on a
    million cards, where a Python loop over them takes most of a second."""
    numbers = list(numbers)
    if set(map(type, numbers)) - {int}:      # (a set of the numbers would merge 1 and 1.0)
        return False
    return not numbers or (min(numbers) >= 1 and max(numbers) <= top)


class MissingCards(Sequence[Card]):
    """The cards of 1..n x 1..c with no copy in a deck, by color then value.

    >>> m = Deck.of([(1, 1), (3, 2)], n=3, c=2).missing()
    >>> len(m), m[0], m == [Card(2, 1), Card(3, 1), Card(1, 2), Card(2, 2)]
    (4, Card(value=2, color=1), True)
    """

    def __init__(self, deck: Deck):
        self._deck = deck
        self._len = deck.n * deck.c - len(deck.counts)

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[Card]:
        # Every card passed before the first missing one is in the deck: O(N) to it.
        counts, n, c = self._deck.counts, self._deck.n, self._deck.c
        left = self._len
        for k in range(1, c + 1):
            for a in range(1, n + 1):
                if left == 0:
                    return
                if Card(a, k) not in counts:
                    left -= 1
                    yield Card(a, k)

    @overload
    def __getitem__(self, i: int) -> Card: ...

    @overload
    def __getitem__(self, i: slice) -> list[Card]: ...

    def __getitem__(self, i: int | slice) -> Card | list[Card]:
        if isinstance(i, slice):        # islice stops at the slice's end: no full pass
            start, stop, step = i.indices(self._len)
            return list(islice(iter(self), start, stop, step)) if step > 0 else list(self)[i]
        j = i + self._len if i < 0 else i
        if not 0 <= j < self._len:
            raise IndexError("missing card index out of range")
        return next(islice(iter(self), j, None))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple, MissingCards)):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self)) if self._len <= 10 else \
            f"<{self._len:,} missing cards, the first {self[0]}>"


def check_hand(h: int) -> int:
    if not isinstance(h, int) or isinstance(h, bool) or h < 0:
        raise DeckError(f"hand size must be a non-negative integer, found {h!r}")
    return h
