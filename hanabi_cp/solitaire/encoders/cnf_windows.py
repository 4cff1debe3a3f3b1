"""The sweeps over the hold windows that decide which clauses the CNF needs.

``cnf.CnfBuilder`` makes the variables and clauses; these functions only read the
windows of ``preprocessing.analyse`` and return plain tables (encodings/cnf.md §2,
and for F4/F5 §8's code map): which copies may be stored and over which window
(``storable_copies``), which cards can take part in an overfull hand
(``needed_cards``), their windows cut into hold segments (``hold_segments``), and
the maximal sets of segments active at a store point (``capacity_sets``).
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from itertools import accumulate
from typing import NamedTuple

from ...runtime.deadline import EVERY, Deadline
from ..preprocessing import Windows

PHASE = "building the CNF"


class Storable(NamedTuple):
    """The copies a win may hold: ``skeep[k][a]`` = [(q, end)], storable copy q held at
    most over [q, end) ([] if none); ``first_store[k][a]`` its first storable copy (N
    if none); ``cards`` the (k, a) with a storable copy, color-major."""

    skeep: list[list[list[tuple[int, int]]]]
    first_store: list[list[int]]
    cards: list[tuple[int, int]]


def storable_copies(win: Windows, deadline: Deadline) -> Storable:
    """Storable copies: those a win may hold (q < L(a-1, k) and a deadline after q).
    Every other alive copy is played on sight whenever it is chosen."""
    deck = win.deck
    n, c, N = deck.n, deck.c, deck.N
    # One shared empty list per color: entries are replaced, never appended to (a
    # fresh list per kind costs ~40 bytes per image card).
    skeep: list[list[list[tuple[int, int]]]] = [[[]] * (n + 1) for _ in range(c + 1)]
    first_store = [[N] * (n + 1) for _ in range(c + 1)]
    cards: list[tuple[int, int]] = []
    for k in range(1, c + 1):
        deadline.check(PHASE)
        Lk, Ak, sk, fk = win.latest[k], win.alive[k], skeep[k], first_store[k]
        Sk = win.stop[k]
        for a in range(2, n + 1):
            if not a & EVERY:
                deadline.check(PHASE)
            copies, Lp = Ak[a], Lk[a - 1]
            if copies[0] >= Lp:
                continue         # every copy is played on sight
            # Windows.spans(k, a), from the row already read
            lst = [(q, g if g < Lp else Lp) for q, g in zip(copies, Sk[a])
                   if q < Lp and g > q]
            if lst:
                sk[a] = lst
                fk[a] = lst[0][0]
                cards.append((k, a))
    return Storable(skeep, first_store, cards)


def needed_cards(st: Storable, stores: list, N: int, h: int) -> list:
    """Cards with a window covering a store point that more than h windows cover.

    At any other store point the hand holds at most h cards anyway (each held card
    is inside the window of its copy), so the other cards need no hold segments.
    """
    skeep = st.skeep
    # Integer arrays, not lists: a list holds an int object per position (~60 bytes
    # per card on an image).
    diff = array("i", bytes(4 * (N + 1)))
    for k, a in st.cards:
        for q, end in skeep[k][a]:
            diff[q] += 1
            diff[end] -= 1
    cover = array("i", accumulate(diff))
    del diff
    bad = array("i", bytes(4 * (N + 1)))
    for q in stores:
        if cover[q] > h:
            bad[q + 1] = 1
    del cover
    bad = array("i", accumulate(bad))      # bad[t]: overfull store points before t
    return [(k, a) for k, a in st.cards
            if any(bad[end] > bad[q] for q, end in skeep[k][a])]


def hold_segments(win: Windows, st: Storable, needed: list, cpos: list, cval: list,
                  deadline: Deadline) -> tuple[list, list, list]:
    """Each needed card's window cut at its storable copies, their ends, and the
    positions inside where T(a-1, k) can change: (starts, ends, specs), a spec
    being (k, a, s, active storable copies or None = surely chosen, s < E(a-1)).
    ``cpos``, ``cval``: ``Windows.positions()``."""
    seg_s: list = []
    seg_e: list = []
    seg_spec: list = []
    for i, (k, a) in enumerate(needed):
        if not i & EVERY:
            deadline.check(PHASE)
        ps, vals = cpos[k], cval[k]
        lst = st.skeep[k][a]
        Lp = win.latest[k][a - 1]
        last_end = max(end for _, end in lst)
        cuts = [q for q, _ in lst]
        cuts.extend(end for _, end in lst)
        i = bisect_right(ps, lst[0][0])
        m = len(ps)
        while i < m and ps[i] < last_end:
            if vals[i] < a:
                cuts.append(ps[i])
            i += 1
        cuts = sorted(set(cuts))
        last_copy = win.alive[k][a][-1]
        Eprev = win.earliest[k][a - 1]
        for j in range(len(cuts) - 1):
            # a segment lists the copies active in it: up to all of the card's,
            # thousands on decks of many copies, so the clock is read more often
            if not j & 63:
                deadline.check(PHASE)
            s, e = cuts[j], cuts[j + 1]
            if s >= Lp:
                break
            if s >= last_copy:
                act = None           # every alive copy is <= s: one is chosen
            else:
                act = [q for q, x in lst if q <= s < x]
                if not act:
                    continue
            seg_s.append(s)
            seg_e.append(e)
            seg_spec.append((k, a, s, act, s < Eprev))
    return seg_s, seg_e, seg_spec


def capacity_sets(seg_s: list, seg_e: list, stores: list, h: int, keep_all: bool,
                  deadline: Deadline) -> list:
    """The maximal sets of segments active at a store point, as lists of segment
    indices.  Sweep the positions; a set that only grows between two removals needs
    one constraint.  Only sets that can overflow the hand are kept (``keep_all``,
    for min-hand, keeps all): a copy per store point of the others would cost
    memory quadratic in the deck."""
    storeset = set(stores)
    nseg = len(seg_s)
    by_start = sorted(range(nseg), key=seg_s.__getitem__)
    by_end = sorted(range(nseg), key=seg_e.__getitem__)
    points = sorted(set(seg_s).union(seg_e, stores))
    active: dict = {}
    snapshot = None
    sets: list = []
    i_s = i_e = 0
    for i, t in enumerate(points):
        if not i & EVERY:
            deadline.check(PHASE)
        if i_e < nseg and seg_e[by_end[i_e]] == t:
            if snapshot is not None:
                sets.append(snapshot)
                snapshot = None
            while i_e < nseg and seg_e[by_end[i_e]] == t:
                del active[by_end[i_e]]
                i_e += 1
        while i_s < nseg and seg_s[by_start[i_s]] == t:
            active[by_start[i_s]] = None
            i_s += 1
        if t in storeset and (keep_all or len(active) > h):
            deadline.check(PHASE)
            snapshot = list(active)
    if snapshot is not None:
        sets.append(snapshot)
    return sets
