"""Piles whose order is chosen in play: Up or Down and Sudoku, by hanab.live's rules.

In every other variant a pile takes its cards in one fixed order (1 to n, or n down
to 1 in a reversed suit). In these two the first cards played decide it
(hanab.live's server, ``variants_reversible.go`` and ``variants_sudoku.go``):

- **Up or Down**: an empty pile takes a 1 (it then goes up), its top value n (it
  then goes down) or its START card; on a START the pile takes a 2 (up) or an n - 1
  (down). A pile is complete after n cards: 1..n, START 2..n, n..1 or START n-1..1.
- **Sudoku**: an empty pile takes any value that is not the first card of another
  pile, then goes up one by one, wrapping from n to 1, and is complete after n
  cards. The piles' first values are therefore pairwise different.

A pile is described by the values played on it, in order (``played``, a tuple of
real values, START as :data:`START`). These functions are the one statement of the
rules that the referee and the exact methods' pile plans (encodings/variants.md, 8)
share.

>>> from hanabi_cp.real.variants.catalogue import variant
>>> up = variant("Up or Down (5 Suits)")
>>> sorted(next_values(up, ((), (START,), (5, 4)), 0))
[1, 5, 7]
>>> sorted(next_values(up, ((), (START,), (5, 4)), 1)), sorted(next_values(up, ((), (START,), (5, 4)), 2))
([2, 4], [3])
>>> orders(up, (START,))
((7, 2, 3, 4, 5), (7, 4, 3, 2, 1))
>>> su = variant("Sudoku (5 Suits)")
>>> sorted(next_values(su, ((3,), (), (5, 1)), 1))
[1, 2, 4]
>>> orders(su, (5, 1))
((5, 1, 2, 3, 4),)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import product

from .catalogue import START, Variant

Played = tuple[int, ...]


def chosen_in_play(v: Variant | None) -> bool:
    """Whether the variant's piles choose their order in play (Up or Down, Sudoku)."""
    return v is not None and (v.up_or_down or v.sudoku)


def _up_or_down_orders(n: int) -> tuple[Played, ...]:
    up, down = tuple(range(1, n + 1)), tuple(range(n, 0, -1))
    return up, (START,) + up[1:], down, (START,) + down[1:]


def _sudoku_orders(n: int) -> tuple[Played, ...]:
    return tuple(tuple((s - 1 + i) % n + 1 for i in range(n)) for s in range(1, n + 1))


def all_orders(v: Variant) -> tuple[Played, ...]:
    """Every complete order of one pile (in Sudoku, ignoring the other piles)."""
    n = v.stack_size
    return _up_or_down_orders(n) if v.up_or_down else _sudoku_orders(n)


def orders(v: Variant, played: Played) -> tuple[Played, ...]:
    """The complete orders of one pile that begin with ``played`` (for Sudoku,
    whatever the other piles' first values)."""
    return _orders(v.up_or_down, v.stack_size, played)


@cache
def _orders(up_or_down: bool, n: int, played: Played) -> tuple[Played, ...]:
    # cached by what the orders depend on (a Variant's hash reads all its fields)
    k = len(played)
    return tuple(o for o in (_up_or_down_orders(n) if up_or_down else _sudoku_orders(n))
                 if o[:k] == played)


def complete(v: Variant, played: Played) -> bool:
    return len(played) >= v.stack_size


def next_values(v: Variant, piles: Sequence[Played], k: int) -> frozenset[int]:
    """The values pile ``k`` takes next, given what every pile holds (a Sudoku
    pile's first card may not repeat another pile's first card)."""
    played = piles[k]
    if v.sudoku and not played:
        taken = {p[0] for j, p in enumerate(piles) if p and j != k}
        return frozenset(range(1, v.stack_size + 1)) - taken
    return pile_next(v.up_or_down, v.stack_size, played)


@cache
def pile_next(up_or_down: bool, n: int, played: Played) -> frozenset[int]:
    """The values a pile of stack size n holding ``played`` takes next, but for an
    empty Sudoku pile (whose first value may not be another pile's)."""
    if len(played) >= n:
        return frozenset()
    return frozenset(o[len(played)] for o in _orders(up_or_down, n, played))


def plans(v: Variant, piles: tuple[Played, ...]) -> list[tuple[Played, ...]]:
    """Every way to finish all piles: one complete order per pile extending what it
    holds, with pairwise different first values in Sudoku. Every game from this
    position follows one of them on every pile that it completes or starts
    (encodings/variants.md, 8)."""
    choices = [orders(v, p) for p in piles]
    out = []
    for plan in product(*choices):
        if v.sudoku and len({o[0] for o in plan}) < len(plan):
            continue
        out.append(plan)
    return out
