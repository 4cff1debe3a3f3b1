"""The neighbourhood of a deck for local search: swaps, moves and copy changes.

A deck is a tuple of (value, color) pairs over values 1..n and colors 1..c; with
``exact`` every card has exactly r copies (only the order changes), otherwise each
card keeps between 1 and r copies.  Every function takes its own
``random.Random``, so a step is reproducible from its seed alone.

>>> import random
>>> d = start_deck(random.Random(1), 2, 2, 2, exact=True)
>>> sorted(d) == sorted([(a, k) for a in (1, 2) for k in (1, 2)] * 2)
True
>>> e, move = neighbour(random.Random(3), d, 2, 2, 2, exact=True)
>>> sorted(e) == sorted(d), move in ("swap", "move")
(True, True)
>>> count_decks(2, 2, 2, exact=True)          # 8! / 2^4
2520
>>> sum(1 for _ in all_decks(2, 1, 2, exact=False)) == count_decks(2, 1, 2, exact=False)
True
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator
from itertools import product

Cards = tuple[tuple[int, int], ...]


def kinds(n: int, c: int) -> list[tuple[int, int]]:
    return [(a, k) for a in range(1, n + 1) for k in range(1, c + 1)]


def start_deck(rng: random.Random, n: int, c: int, r: int, exact: bool) -> Cards:
    """A uniform random deck: r copies of each card (exact), else 1..r each."""
    cards = [kind for kind in kinds(n, c) for _ in range(r if exact else rng.randint(1, r))]
    rng.shuffle(cards)
    return tuple(cards)


def near_sorted_deck(rng: random.Random, n: int, c: int, r: int, exact: bool) -> Cards:
    """A start for the climb: the copies of ``start_deck``, in value order (winnable at
    every h: each card is playable when drawn), then k uniform random transpositions,
    k uniform in 0..N.  Uniform decks are mostly refuted by preprocessing at small h
    (effort 0, a plateau with no direction); these starts span the whole way from
    surely winnable to uniform, where the boundary and its hard decks lie."""
    cards = sorted(start_deck(rng, n, c, r, exact))
    for _ in range(rng.randint(0, len(cards))):
        i, j = rng.randrange(len(cards)), rng.randrange(len(cards))
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


def neighbour(rng: random.Random, cards: Cards, n: int, c: int, r: int,
              exact: bool) -> tuple[Cards, str]:
    """One random change of ``cards`` and its name (swap, move, add, remove; ``none``
    when the deck has no neighbour, e.g. one kind of card with exact copies)."""
    deck = list(cards)
    counts = Counter(deck)
    moves = ["swap", "move"] if len(counts) > 1 else []
    if not exact:
        room = [kind for kind in kinds(n, c) if counts[kind] < r]
        spare = [i for i, kind in enumerate(deck) if counts[kind] > 1]
        moves += ["add"] * bool(room) + ["remove"] * bool(spare)
    if not moves:
        return cards, "none"
    move = rng.choice(moves)
    if move == "swap":
        i, j = rng.sample(range(len(deck)), 2)
        while deck[i] == deck[j]:
            i, j = rng.sample(range(len(deck)), 2)
        deck[i], deck[j] = deck[j], deck[i]
    elif move == "move":
        i, j = rng.sample(range(len(deck)), 2)
        deck.insert(j, deck.pop(i))
    elif move == "add":
        deck.insert(rng.randint(0, len(deck)), rng.choice(room))
    else:
        deck.pop(rng.choice(spare))
    return tuple(deck), move


def copy_vectors(n: int, c: int, r: int, exact: bool) -> Iterator[tuple[int, ...]]:
    if exact:
        yield (r,) * (n * c)
    else:
        yield from product(range(1, r + 1), repeat=n * c)


def count_decks(n: int, c: int, r: int, exact: bool, above: int | None = None) -> int:
    """How many distinct decks (card orders) there are with these parameters.

    Counted, not enumerated: decks of L cards in which each of the k = n c kinds has
    1..r copies (exactly r when ``exact``), built up one kind at a time (a kind with
    j copies goes into a deck of L cards in C(L + j, j) ways).  With ``above``, the
    count stops as soon as it passes ``above`` and returns a number that does (the
    guard of an exhaustive sweep needs no more): every kind added only multiplies.

    >>> count_decks(3, 6, 3, exact=False, above=200_000) > 200_000   # 3^18 copy vectors
    True
    >>> count_decks(1, 1, 5, exact=False), count_decks(2, 1, 2, exact=False)
    (5, 14)
    """
    ways = [1]                  # ways[L]: decks of L cards of the kinds added so far
    for _ in range(n * c):
        grown = [0] * (len(ways) + r)
        copies = range(r, r + 1) if exact else range(1, r + 1)
        total = 0
        for size, w in enumerate(ways):
            if not w:
                continue
            for j in copies:
                more = w * _comb(size + j, j, above)
                grown[size + j] += more
                total += more
                # partial counts only grow: a deck of fewer kinds extends to at least one
                if above is not None and total > above:
                    return total
        ways = grown
    return sum(ways)


def _comb(a: int, b: int, above: int | None) -> int:
    """C(a, b), or with ``above`` any number above it once C(a, b) passes it (the
    factors of C(a, b) = prod (a - m + i) / i, m = min(b, a - b), only grow the
    partial products, so a huge C is cut off after a few steps)."""
    if above is None:
        return math.comb(a, b)
    m, value = min(b, a - b), 1
    for i in range(1, m + 1):
        value = value * (a - m + i) // i
        if value > above:
            return value
    return value


def all_decks(n: int, c: int, r: int, exact: bool) -> Iterator[Cards]:
    """Every distinct deck, in a fixed order (multiset permutations per copy vector)."""
    ks = kinds(n, c)
    for copies in copy_vectors(n, c, r, exact):
        yield from _arrangements(ks, list(copies), [], sum(copies))


def _arrangements(ks: list, left: list[int], out: list, size: int) -> Iterator[Cards]:
    if size == 0:
        yield tuple(out)
        return
    for i, kind in enumerate(ks):
        if left[i]:
            left[i] -= 1
            out.append(kind)
            yield from _arrangements(ks, left, out, size - 1)
            out.pop()
            left[i] += 1


def deck_text(cards: Cards) -> str:
    """Compact one-line form for a CSV cell: ``1:2 3:1 ...``."""
    return " ".join(f"{a}:{k}" for a, k in cards)


def parse_deck_text(text: str) -> Cards:
    return tuple((int(a), int(k)) for a, _, k in (t.partition(":") for t in text.split()))
