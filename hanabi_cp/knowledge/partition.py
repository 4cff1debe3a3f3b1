"""The information strategy's hint sets: a possibility table cut into m parts.

The paper's three principles, with its simulator's concrete choice for the rest:
every possibility already played (the paper's "dead") goes into one set, hint
value 0; then as many singletons as the remaining sets allow while every other
set holds at most m possibilities (so a second hint on the card names it); the
rest fill sets of m in table order (rank by rank, colors left to right).  With m
values, i singletons fit when ``i + m * (m - i) >= E`` (E counts the dead set as
one element); the largest such i is taken.  Below 5 players m = 2(P - 1) is too
small for that bound on a fresh card (E > m²): then the live possibilities are
spread evenly over the sets, no singletons.

>>> from hanabi_cp.knowledge.cards import CardSpace
>>> space = CardSpace(5)
>>> ones = space.rank_masks[1]
>>> sets = hint_sets(space.full, ones, 8)              # the 1s played, 20 live left
>>> len(sets), sets[0] == ones, [s.bit_count() for s in sets]
(8, True, [5, 1, 1, 1, 1, 1, 8, 7])
>>> value_of(sets, space.kind(3, 2))
6
"""

from __future__ import annotations

from .cards import bits


def hint_sets(table: int, dead: int, m: int) -> list[int]:
    """The parts of ``table`` (a possibility mask) for hint values 0 .. len - 1;
    ``dead`` marks the possibilities that need no telling apart."""
    dead_part = table & dead
    live = list(bits(table & ~dead))
    sets: list[int] = [dead_part] if dead_part else []
    elements = len(live) + len(sets)
    room = m - len(sets)                      # sets left for the live possibilities
    if not live:
        return sets
    # the dead set counts as one of the singletons (it takes one value of its own)
    singletons = max((i for i in range(len(sets), m + 1) if i + m * (m - i) >= elements), default=None)
    if singletons is None:                   # too many to bound: even spread
        size = -(-len(live) // room)
        for start in range(0, len(live), size):
            sets.append(_mask(live[start:start + size]))
        return sets
    lone = max(0, singletons - len(sets))
    sets.extend(1 << k for k in live[:lone])
    rest = live[lone:]
    for start in range(0, len(rest), m):
        sets.append(_mask(rest[start:start + m]))
    return sets


def value_of(sets: list[int], kind: int) -> int:
    """The hint value whose set holds ``kind``."""
    for i, s in enumerate(sets):
        if s >> kind & 1:
            return i
    raise ValueError(f"kind {kind} is in no hint set")


def _mask(kinds: list[int]) -> int:
    out = 0
    for k in kinds:
        out |= 1 << k
    return out
