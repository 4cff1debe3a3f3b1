"""The space of random instances the harness draws from.

Instance ``i`` of seed ``s`` is generated from its own ``random.Random(f"{s}:{i}")``,
so any one instance can be regenerated without replaying the ones before it, and
the same (seed, count, bounds) always gives byte-identical instances.

The draw mixes shapes on purpose: plain random decks exercise the general methods,
but r = 1 and c = 1 decks are what greedy and lazy accept, decks with missing or
dropped cards are instances that must be lost, and degenerate decks (empty, one
card) are where off-by-ones in bounds and table sizes live.

>>> space = Space(max_n=3, max_c=2, max_r=2, max_h=2)
>>> [i.deck.N for i in space.instances(seed=5, count=6)]
[2, 2, 1, 10, 4, 6]
>>> inst = space.instance(5, 1)
>>> (inst.kind, inst.h, str(inst.deck))
('c1', 1, '1:1 2:1')
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from collections.abc import Iterator

from ...core.errors import InvalidParameter
from ..generators import random_deck
from ...core.model import Deck

# Relative weights of the shapes; "random" carries the general case.
KINDS = (("random", 5), ("r1", 2), ("c1", 2), ("missing", 1), ("dropped", 1), ("tiny", 1))


@dataclass(frozen=True)
class Drawn:
    """An instance of a harness space: its index in the seed's stream, the shape it
    was drawn as, its deck."""

    index: int
    kind: str
    deck: Deck


@dataclass(frozen=True)
class Instance(Drawn):
    h: int

    def describe(self) -> str:
        d = self.deck
        return f"#{self.index} {self.kind}: n={d.n} c={d.c} r={d.r} N={d.N} h={self.h}"


@dataclass(frozen=True)
class Space:
    max_n: int = 4
    max_c: int = 3
    max_r: int = 3
    max_h: int = 3

    def __post_init__(self) -> None:
        require_at_least(self, ("max_n", "max_c", "max_r"), 1)
        require_at_least(self, ("max_h",), 0)

    def instance(self, seed: int, index: int) -> Instance:
        rng = random.Random(f"{seed}:{index}")
        kind = rng.choices([k for k, _ in KINDS], [w for _, w in KINDS])[0]
        deck = self._deck(rng, kind)
        return Instance(index, kind, deck, rng.randint(0, self.max_h))

    def instances(self, seed: int, count: int, start: int = 0) -> Iterator[Instance]:
        for i in range(start, start + count):
            yield self.instance(seed, i)

    def _deck(self, rng: random.Random, kind: str) -> Deck:
        n = rng.randint(1, self.max_n)
        c = rng.randint(1, self.max_c)
        r = rng.randint(1, self.max_r)
        if kind == "r1":
            return random_deck(rng, n, c, 1)
        if kind == "c1":
            # One color is cheap for every method, so allow longer sequences.
            return random_deck(rng, rng.randint(1, 2 * self.max_n), 1, r,
                               exact_copies=rng.random() < 0.3)
        if kind == "missing":
            return random_deck(rng, n, c, r, p_missing=0.2)
        if kind == "dropped":
            deck = random_deck(rng, n, c, r)
            keep = [card for card in deck.cards if rng.random() < 0.8]
            return Deck(tuple(keep), n, c)
        if kind == "tiny":
            # Empty and one-card decks, with n and c possibly larger than what is present.
            cards = [(rng.randint(1, n), rng.randint(1, c)) for _ in range(rng.randint(0, 2))]
            return Deck.of(cards, n, c)
        return random_deck(rng, n, c, r, exact_copies=rng.random() < 0.3)


def require_at_least(bounds: object, names: tuple[str, ...], low: int) -> None:
    """Raise InvalidParameter unless each named field of ``bounds`` is an int >= low."""
    for name in names:
        value = getattr(bounds, name)
        if not isinstance(value, int) or value < low:
            raise InvalidParameter(f"{{{name}}} must be an integer >= {low}, found {value!r}", name)
