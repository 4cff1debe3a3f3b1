"""Seeded random instances: decks, shuffled standard decks, random k-CNF formulas.

Every function takes a seed (an int) or a ``random.Random`` and never touches the
global generator, so the same seed always gives the same instance.

>>> str(random_deck(7, n=2, c=2, r=1))
'1:2 2:2 2:1 1:1'
>>> standard_deck(1).N, standard_deck(1).r
(50, 3)
>>> random_kcnf(3, num_vars=4, num_clauses=2).clauses
((2, -3, -1), (-1, 3, -4))
"""

from __future__ import annotations

import random

from ..solvers.formula import CNF
from ..core.errors import InvalidParameter
from ..core.model import Deck

# Copies of values 1..5 in a real Hanabi deck (three 1s, two 2s/3s/4s, one 5).
STANDARD_COPIES = (3, 2, 2, 2, 1)
STANDARD_COLORS = "rygbwm"


def rng_of(seed: int | random.Random) -> random.Random:
    return seed if isinstance(seed, random.Random) else random.Random(seed)


def _positive(name: str, value: int, low: int = 1) -> None:
    if not isinstance(value, int) or value < low:
        raise InvalidParameter(f"{{{name}}} must be an integer >= {low}, found {value!r}", name)


def random_deck(seed: int | random.Random, n: int, c: int, r: int,
                exact_copies: bool = False, p_missing: float = 0.0) -> Deck:
    """A shuffled deck over values 1..n and colors 1..c.

    Each card gets a uniform number of copies in 1..r (exactly r with
    ``exact_copies``); with probability ``p_missing`` a card gets none, which makes
    the deck lost (a valid instance all the same).

    >>> deck = random_deck(7, n=4, c=3, r=2, exact_copies=True)
    >>> deck.N, deck.r, deck == random_deck(7, n=4, c=3, r=2, exact_copies=True)
    (24, 2, True)
    """
    _positive("n", n)
    _positive("c", c)
    _positive("r", r)
    rng = rng_of(seed)
    cards = []
    for a in range(1, n + 1):
        for k in range(1, c + 1):
            if p_missing and rng.random() < p_missing:
                continue
            copies = r if exact_copies else rng.randint(1, r)
            cards.extend([(a, k)] * copies)
    rng.shuffle(cards)
    return Deck.of(cards, n, c)


def standard_deck(seed: int | random.Random, colors: int = 5) -> Deck:
    """A shuffled real Hanabi deck: ``colors`` colors (5, or 6 for the variant), values
    1..5 with 3, 2, 2, 2, 1 copies.

    >>> deck = standard_deck(59)
    >>> deck.N, deck.n, deck.c, deck.r
    (50, 5, 5, 3)
    """
    if colors not in (5, 6):
        raise InvalidParameter(f"a standard deck has 5 or 6 {{colors}}, found {colors!r}", "colors")
    rng = rng_of(seed)
    cards = [(a, k) for k in range(1, colors + 1)
             for a, copies in enumerate(STANDARD_COPIES, start=1) for _ in range(copies)]
    rng.shuffle(cards)
    return Deck.of(cards, 5, colors)


def variant_deck(seed: int | random.Random, cards: list[tuple[int, int]], n: int,
                 c: int) -> Deck:
    """A variant's deck (``cards`` as ``Variant.deck_cards()`` lists them, suit by suit)
    shuffled as ``standard_deck`` shuffles: No Variant's is ``standard_deck(seed)``.

    >>> variant_deck(59, standard_deck(0).cards and sorted(standard_deck(0).cards,
    ...     key=lambda card: (card[1], card[0])), 5, 5) == standard_deck(59)
    True
    """
    rng = rng_of(seed)
    shuffled = list(cards)
    rng.shuffle(shuffled)
    return Deck.of(shuffled, n, c)


def random_kcnf(seed: int | random.Random, num_vars: int, num_clauses: int, k: int = 3) -> CNF:
    """Uniform random k-CNF (as SATLIB's uf/uuf families): each clause draws k distinct
    variables and negates each with probability 1/2.

    >>> f = random_kcnf(1, num_vars=20, num_clauses=91)
    >>> f.num_vars, f.num_clauses, {len(c) for c in f.clauses}
    (20, 91, {3})
    """
    _positive("num_vars", num_vars)
    _positive("num_clauses", num_clauses, 0)
    _positive("k", k)
    if k > num_vars:
        raise InvalidParameter(f"k = {k} distinct variables per clause need num_vars >= k, found {num_vars}")
    rng = rng_of(seed)
    clauses = []
    for _ in range(num_clauses):
        vs = rng.sample(range(1, num_vars + 1), k)
        clauses.append(tuple(v if rng.random() < 0.5 else -v for v in vs))
    return CNF(num_vars, tuple(clauses))
