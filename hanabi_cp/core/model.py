"""The instance model of Solitaire Hanabi (journal §1.3).

A card is (value, color) with 1-based value in 1..n and color in 1..c.  A deck is a
sequence of cards together with its n and c: a deck may lack some card, and is then
a valid instance that cannot be won.  The hand size h travels separately because
the same deck is asked about many hand sizes.
"""

from __future__ import annotations

from array import array
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from itertools import islice, repeat
from operator import add, itemgetter, mul
from typing import NamedTuple, overload
from collections.abc import Iterable, Iterator, Sequence

from .errors import DeckError


# Decks read from files or built by the reduction keep their cards in two integer
# arrays (CardArray) from this size on; smaller decks keep a tuple of Cards, which
# the algorithms iterate fastest (standard decks: tens of cards).
COMPACT_FROM_CARDS = 5_000


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

    cards: Sequence[Card]        # a tuple of Cards, or a CardArray (two integer arrays)
    n: int
    c: int

    def __post_init__(self) -> None:
        cards = self.cards
        if type(cards) is CardArray:
            self._check_params()
            if not cards or (min(cards.values) >= 1 and max(cards.values) <= self.n
                             and min(cards.colors) >= 1 and max(cards.colors) <= self.c):
                return
            self._name_bad_card()
        if type(cards) is not tuple or any(type(x) is not Card for x in set(map(type, cards))):
            cards = tuple(c if type(c) is Card else Card(*c) for c in cards)
        object.__setattr__(self, "cards", cards)
        self._check_params()
        n, c = self.n, self.c
        if _within(map(itemgetter(0), cards), n) and _within(map(itemgetter(1), cards), c):
            return               # the per-card loop below only words the first bad card
        self._name_bad_card()

    def _check_params(self) -> None:
        if not isinstance(self.n, int) or self.n < 0:
            raise DeckError(f"n must be a non-negative integer, found {self.n!r}")
        if not isinstance(self.c, int) or self.c < 0:
            raise DeckError(f"c must be a non-negative integer, found {self.c!r}")

    def _name_bad_card(self) -> None:
        n, c = self.n, self.c
        for i, (a, k) in enumerate(self.cards, start=1):
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

    @classmethod
    def from_arrays(cls, values: Iterable[int], colors: Iterable[int], n: int, c: int) -> Deck:
        """A compact deck: its values and colors in two ``array('i')`` (8 bytes a card
        instead of ~90 as Card tuples); the same API as any other deck.

        >>> d = Deck.from_arrays([1, 2, 1], [1, 1, 2], 2, 2)
        >>> d.cards[1], str(d), d == Deck.of([(1, 1), (2, 1), (1, 2)]), list(d.missing())
        (Card(value=2, color=1), '1:1 2:1 1:2', True, [Card(value=2, color=2)])
        """
        return cls(CardArray(values, colors), n, c)

    @classmethod
    def packed(cls, cards: Sequence[tuple[int, int]], n: int, c: int) -> Deck:
        """A tuple deck below COMPACT_FROM_CARDS cards, a compact one from there on."""
        if len(cards) < COMPACT_FROM_CARDS:
            return cls(tuple(cards), n, c)           # type: ignore[arg-type]
        return cls.from_arrays(map(itemgetter(0), cards), map(itemgetter(1), cards), n, c)

    @cached_property
    def values(self) -> array:
        """The cards' values in deck order (an ``array('i')``)."""
        cards = self.cards
        if type(cards) is CardArray:
            return cards.values
        return array("i", map(itemgetter(0), cards))

    @cached_property
    def colors(self) -> array:
        """The cards' colors in deck order (an ``array('i')``)."""
        cards = self.cards
        if type(cards) is CardArray:
            return cards.colors
        return array("i", map(itemgetter(1), cards))

    @cached_property
    def N(self) -> int:
        # cached: the referee asks for it several times a move
        return len(self.cards)

    @cached_property
    def counts(self) -> Counter:
        return Counter(self.cards)

    @cached_property
    def r(self) -> int:
        """Multiplicity: the largest number of copies of one card (0 if empty)."""
        if "counts" in self.__dict__ or not self.cards:
            return max(self.counts.values(), default=0)
        # Ints, not Card tuples: no tuple hashed per card, and every report prints r
        # (also after a time limit has run out).
        return max(Counter(self._keys()).values())

    def _keys(self) -> Iterator[int]:
        """One int per card, equal for equal cards: value * (c + 1) + color."""
        cards, base = self.cards, self.c + 1
        if type(cards) is CardArray:
            return map(add, map(mul, cards.values, repeat(base)), cards.colors)
        return map(add, map(mul, map(itemgetter(0), cards), repeat(base)),
                   map(itemgetter(1), cards))

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
        # A compact deck is not given a Counter of Card tuples (~60 bytes a card, for
        # the deck's whole life): its distinct cards are counted as ints, and again
        # when the missing ones are listed.
        self._compact = type(deck.cards) is CardArray and "counts" not in deck.__dict__
        kinds = len(set(deck._keys())) if self._compact else len(deck.counts)
        self._len = deck.n * deck.c - kinds

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[Card]:
        # Every card passed before the first missing one is in the deck: O(N) to it.
        n, c = self._deck.n, self._deck.c
        kinds: set | Counter = set(self._deck._keys()) if self._compact else self._deck.counts
        left = self._len
        for k in range(1, c + 1):
            for a in range(1, n + 1):
                if left == 0:
                    return
                if (a * (c + 1) + k if self._compact else Card(a, k)) not in kinds:
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


class CardArray(Sequence[Card]):
    """A deck's cards as two integer arrays, read as a sequence of Card tuples.

    Equal to (and hashing like) the tuple of the same cards; a slice is a tuple.

    >>> cs = CardArray([3, 1], [2, 1])
    >>> len(cs), cs[0], cs[-1], cs == (Card(3, 2), Card(1, 1)), cs[:1]
    (2, Card(value=3, color=2), Card(value=1, color=1), True, (Card(value=3, color=2),))
    """

    __slots__ = ("values", "colors")

    def __init__(self, values: Iterable[int], colors: Iterable[int]):
        self.values = values if type(values) is array and values.typecode == "i" \
            else array("i", values)
        self.colors = colors if type(colors) is array and colors.typecode == "i" \
            else array("i", colors)
        if len(self.values) != len(self.colors):
            raise DeckError(f"{len(self.values)} values for {len(self.colors)} colors")

    def __len__(self) -> int:
        return len(self.values)

    @overload
    def __getitem__(self, i: int) -> Card: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Card, ...]: ...

    def __getitem__(self, i: int | slice) -> Card | tuple[Card, ...]:
        if isinstance(i, slice):
            return tuple(map(Card, self.values[i], self.colors[i]))
        return Card(self.values[i], self.colors[i])

    def __iter__(self) -> Iterator[Card]:
        return map(Card, self.values, self.colors)

    def __eq__(self, other: object) -> bool:
        if type(other) is CardArray:
            return self.values == other.values and self.colors == other.colors
        if isinstance(other, (tuple, list)):
            return len(self) == len(other) and all(map(tuple.__eq__, self, map(tuple, other)))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"CardArray({self.values.tolist()!r}, {self.colors.tolist()!r})"

    def __reduce__(self):
        return (CardArray, (self.values, self.colors))


def check_hand(h: int) -> int:
    if not isinstance(h, int) or isinstance(h, bool) or h < 0:
        raise DeckError(f"hand size must be a non-negative integer, found {h!r}")
    return h
