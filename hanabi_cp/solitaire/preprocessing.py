"""Sound preprocessing below every encoder and algorithm: dead copies, forced holds, hold windows.

Everything here follows from SPEC §1 facts 1-4 in the form of fact 3: a win chooses
one copy p(a, k) per card and plays the card at T(a, k) = max(p(a, k), T(a-1, k));
the card is in the hand after positions p .. T-1.  ``analyse`` computes, for every
card, bounds that every winning choice satisfies (proofs in encodings/cnf.md):

- ``earliest[k][a]``  E: T(a, k) >= E in every win;
- ``latest[k][a]``    L: T(a, k) <= L in every win;
- ``alive[k][a]``     the copies a win may choose (the others are dead);
- ``stop[k][a]``      per alive copy q, a position g with T(a-1, k) <= g whenever q
                      is chosen (the card must be released before the next position
                      where the hand is certainly full without it);
- ``forced``          per position, how many cards every win holds there.

If a bound shows that no win exists, ``reason`` says why in words and the caller
can answer UNWINNABLE at once.  Cost: each pass is linear in N + n*c; passes repeat
until nothing changes (``stats["passes"]`` counts them; at most ``max_passes``).

>>> from hanabi_cp.core.model import Deck
>>> w = analyse(Deck.of([(2, 1), (1, 1)]), 0)
>>> w.reason
'after card #1 every win must hold 1 card (2:1); the hand holds 0'
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Iterator, MutableSequence, Sequence
from itertools import accumulate
from operator import index
from dataclasses import dataclass, field
from typing import cast, overload

from ..runtime.deadline import EVERY, NO_DEADLINE, Deadline
from ..core.model import COMPACT_FROM_CARDS, Deck
from ..runtime.nogc import without_gc

NEVER = -1    # "played before the deck starts": T(0, k)
CHAIN_CAP = 32  # longest same-color chain the chain rule follows (large h only)


class Ragged(Sequence[Sequence[int]]):
    """One color's table per value as one flat int32 array cut by offsets: row a is
    ``flat[offsets[a]:offsets[a + 1]]``, a fresh array on every access.

    On an image a tuple per card kind and an int object per position cost ~65 bytes
    a card for ``alive`` alone, and an array per kind more than that (~80 bytes of
    header each); one array per color costs 4 bytes per entry and per kind.

    >>> r = Ragged([[], [3, 5], [7]])
    >>> len(r), list(r[1]), r[2][-1], [list(x) for x in r[1:]]
    (3, [3, 5], 7, [[3, 5], [7]])
    """

    __slots__ = ("flat", "offsets")

    def __init__(self, rows: Sequence[Sequence[int]], offsets: array | None = None):
        self.flat = array("i")
        for row in rows:
            self.flat.extend(row)
        if offsets is None:
            offsets = array("i", [0])
            offsets.extend(accumulate(map(len, rows)))
        self.offsets = offsets

    def __len__(self) -> int:
        return len(self.offsets) - 1

    @overload
    def __getitem__(self, a: int) -> Sequence[int]: ...
    @overload
    def __getitem__(self, a: slice) -> list[Sequence[int]]: ...

    def __getitem__(self, a):
        off = self.offsets
        if a.__class__ is int and a >= 0:     # the builders' hot path
            return self.flat[off[a]:off[a + 1]]   # IndexError past the end
        if isinstance(a, slice):
            return [self[i] for i in range(*a.indices(len(self)))]
        a = index(a)
        if a < 0:
            a += len(self)
            if a < 0:
                raise IndexError("Ragged index out of range")
        return self.flat[off[a]:off[a + 1]]

    def __iter__(self) -> Iterator[Sequence[int]]:
        flat, off = self.flat, self.offsets
        return (flat[off[a]:off[a + 1]] for a in range(len(off) - 1))


@dataclass
class Windows:
    deck: Deck
    h: int
    # alive[k][a]: sorted positions (k, a 1-based; index 0 unused); stop[k][a] parallel.
    # Lists per value, or on decks of COMPACT_FROM_CARDS cards or more a Ragged per color.
    alive: list[Sequence[Sequence[int]]]
    earliest: list[MutableSequence[int]]   # earliest[k][a], earliest[k][0] = NEVER
    latest: list[MutableSequence[int]]     # latest[k][a], latest[k][0] = NEVER
    stop: list[Sequence[Sequence[int]]]
    forced: Sequence[int]         # forced[t]: cards held after position t in every win
    reason: str | None = None
    passes: int = 0
    stats: dict[str, int] = field(default_factory=dict)
    # Per color: alive positions in deck order and their values (None if unknown).
    cpos: list[Sequence[int]] | None = None
    cval: list[Sequence[int]] | None = None

    @property
    def decided_lost(self) -> bool:
        return self.reason is not None

    def positions(self) -> tuple[list[Sequence[int]], list[Sequence[int]]]:
        """Per color: alive positions in deck order and their values (cpos, cval);
        from the last pass when still exact, else recomputed."""
        if self.cpos is not None and self.cval is not None:
            return self.cpos, self.cval
        cpos: list[Sequence[int]] = [[]]
        cval: list[Sequence[int]] = [[]]
        for Ak in self.alive[1:]:
            ps = sorted(q for copies in Ak for q in copies)
            cpos.append(ps)
            cval.append(array("i", map(self.deck.values.__getitem__, ps)))
        return cpos, cval

    def spans(self, k: int, a: int) -> list[tuple[int, int]]:
        """(q, end) for every copy q of (a, k) a win may store: q < L(a-1, k) and its
        deadline g > q; it is held at most over [q, end), end = min(g, L(a-1, k))."""
        Lp = self.latest[k][a - 1]
        return [(q, g if g < Lp else Lp) for q, g in zip(self.alive[k][a], self.stop[k][a])
                if q < Lp and g > q]

    def storable(self, k: int, a: int, j: int) -> bool:
        """Can the j-th alive copy of (a, k) be stored (not played at once)?"""
        return self.alive[k][a][j] < self.latest[k][a - 1]


PHASE = "preprocessing (hold windows)"


def _by_color(deck: Deck, deadline: Deadline = NO_DEADLINE) -> list[list[list[int]]]:
    """copies[k][a] = positions of (a, k) in deck order."""
    copies: list[list[list[int]]] = []
    for _ in range(deck.c + 1):
        deadline.check(PHASE)
        copies.append([[] for _ in range(deck.n + 1)])
    for t, a, k in zip(range(deck.N), deck.values, deck.colors):
        if not t & EVERY:
            deadline.check(PHASE)
        copies[k][a].append(t)
    return copies


@without_gc
def analyse(deck: Deck, h: int, max_passes: int = 50,
            deadline: Deadline = NO_DEADLINE) -> Windows:
    """Shrink the deck to what a win may use; see the module docstring.

    Checks ``deadline`` every few thousand steps (TimeUp)."""
    c, N = deck.c, deck.N
    missing = deck.missing()
    if missing:            # decided before any table per kind: n x c may be far above N
        return Windows(deck, h, [], [], [], [], [0] * N, reason=f"card {missing[0]} has no "
                       "copy in the deck" + (f" ({len(missing)} cards missing)"
                                             if len(missing) > 1 else ""))
    w = _initial_windows(deck, h, deadline)
    removed = 0
    for w.passes in range(1, max_passes + 1):
        deadline.check(PHASE)
        _earliest_pass(w, deadline)
        forced = w.forced = _forced_holds(w, deadline)
        if N and max(forced) > h:
            w.reason = _overfull(deck, h, w, next(t for t, x in enumerate(forced) if x > h),
                                 deadline)
            return w
        nxt = _next_full(forced, h, N)
        cpos: list[Sequence[int]] = [[] for _ in range(c + 1)]
        cval: list[Sequence[int]] = [[] for _ in range(c + 1)]
        died = 0
        for k in range(1, c + 1):
            deadline.check(PHASE)
            dead, cpos[k], cval[k] = _color_pass(w, k, nxt, deadline)
            if w.reason is not None:
                return w
            died += dead
        removed += died
        if not died:
            w.cpos, w.cval = cpos, cval    # no copy died in this pass: still exact
            break
    if N >= COMPACT_FROM_CARDS:
        _compact(w, deadline)
    w.stats = {"passes": w.passes, "dead_copies": removed,
               "forced_full_positions": sum(1 for x in w.forced if x == h)}
    return w


def _initial_windows(deck: Deck, h: int, deadline: Deadline) -> Windows:
    """Every copy alive, E and L unbounded, no deadline yet."""
    n, c, N = deck.n, deck.c, deck.N
    alive = _by_color(deck, deadline)
    earliest = [[NEVER] * (n + 1) for _ in range(c + 1)]
    latest = [[NEVER] + [N - 1] * n for _ in range(c + 1)]
    stop: list[list[list[int]]] = []
    for _ in range(c + 1):
        deadline.check(PHASE)
        # One shared empty list per color: the pass replaces every entry and nothing
        # appends to one (a fresh list per kind costs ~30 bytes per image card).
        stop.append([[]] * (n + 1))
    return Windows(deck, h, cast(list, alive), cast(list, earliest),
                   cast(list, latest), cast(list, stop), [0] * N)


def _earliest_pass(w: Windows, deadline: Deadline) -> None:
    """E: the chosen copy is no earlier than the first alive one (fact 3)."""
    n = w.deck.n
    for k in range(1, w.deck.c + 1):
        deadline.check(PHASE)
        Ek, Ak = w.earliest[k], w.alive[k]
        for a in range(1, n + 1):
            Ek[a] = max(Ak[a][0], Ek[a - 1])


def _forced_holds(w: Windows, deadline: Deadline) -> list[int]:
    """Per position, the cards every win holds after it: if every alive copy of
    (a, k) precedes E(a-1, k), the card is in the hand from its last copy until at
    least E(a-1, k) - 1."""
    n, N = w.deck.n, w.deck.N
    diff = [0] * (N + 1)
    for k in range(1, w.deck.c + 1):
        deadline.check(PHASE)
        Ek, Ak = w.earliest[k], w.alive[k]
        for a in range(2, n + 1):
            last = Ak[a][-1]
            if last < Ek[a - 1]:
                diff[last] += 1
                diff[Ek[a - 1]] -= 1
    deadline.check(PHASE)
    return list(accumulate(diff[:N]))


def _next_full(forced: Sequence[int], h: int, N: int) -> list[int]:
    """nxt[t]: the first position >= t where the forced cards alone fill the hand (N: none)."""
    nxt = [N] * (N + 1)
    prev = 0
    for f in [t for t, x in enumerate(forced) if x == h]:
        nxt[prev:f + 1] = [f] * (f + 1 - prev)
        prev = f + 1
    return nxt


def _color_pass(w: Windows, k: int, nxt: list[int],
                deadline: Deadline) -> tuple[int, list[int], array]:
    """Color k top-down: deadlines g, dead copies, latest play times L; then L
    bottom-up.  Returns the copies found dead and the color's alive positions in deck
    order with their values; sets ``w.reason`` if a card has no usable copy left."""
    n, N, h, dv = w.deck.n, w.deck.N, w.h, w.deck.values
    Ek, Lk = w.earliest[k], w.latest[k]
    Ak = cast(list, w.alive[k])
    Sk = cast(list, w.stop[k])
    # T(b, k) is always the position of an alive copy of a value <= b of color k, so
    # a deadline g for it can be lowered to the last such position <= g.
    ps = sorted(q for a in range(1, n + 1) for q in Ak[a])
    # An int32 array: a list would hold one int object per card (values > 256).
    vals = array("i", map(dv.__getitem__, ps))
    dead = 0
    below: list[int] = []   # the h+1 smallest last-copy positions of values above a
    for a in range(n, 0, -1):
        if not a & EVERY:
            deadline.check(PHASE)
        La, Eprev = Lk[a], Ek[a - 1]
        copies = Ak[a]
        last = copies[-1]
        # Same-color useless rule: choosing q keeps every value above a whose copies
        # all precede q in the hand at q-1.
        limit = below[h] if len(below) > h else N
        keep, gs = [], []
        for q in copies:
            if q > La or q > limit:
                continue
            g = nxt[q]
            if last <= g < Eprev:
                # (a, k) is itself one of the forced cards at g.
                g = nxt[Eprev]
            if g > q:
                G = Lk[a - 1] if Lk[a - 1] < g else g
                cb = Ak[a - 1]   # fast path: a copy of a-1 in (q, G]
                i = bisect_right(cb, q) if a > 1 else 0
                if not (a > 1 and i < len(cb) and cb[i] <= G) and \
                        _chain_overflows(Ak, a, q, G, h):
                    g = q        # q can only be played on sight
            if Eprev > g:
                continue
            if g < N and a > 1:
                i = bisect_right(ps, g) - 1
                while vals[i] >= a:
                    i -= 1
                g = ps[i]
            keep.append(q)
            gs.append(g)
        if not keep:
            w.reason = f"card {a}:{k} has no usable copy: every copy must be stored past a full hand"
            return dead, ps, vals
        if len(keep) != len(copies):
            dead += len(copies) - len(keep)
            Ak[a] = keep
        Sk[a] = gs
        Lk[a - 1] = min(La, max(gs)) if a > 1 else NEVER
        below.append(keep[-1])
        below.sort()
        del below[h + 1:]
    # Bottom-up: T(a, k) <= max(last alive copy, T(a-1, k)).
    for a in range(1, n + 1):
        bound = max(Ak[a][-1], Lk[a - 1])
        if bound < Lk[a]:
            Lk[a] = bound
    return dead, ps, vals


def _compact(w: Windows, deadline: Deadline) -> None:
    """The tables as flat int32 arrays per color, once nothing changes them: positions
    are ints above 256, one object each in a list (the CNF is built while these live).
    stop[k][a] is parallel to alive[k][a]: the same offsets serve both."""
    for k in range(1, w.deck.c + 1):
        deadline.check(PHASE)
        w.alive[k] = rk = Ragged(w.alive[k])
        w.stop[k] = Ragged(w.stop[k], rk.offsets)
        w.earliest[k] = array("i", w.earliest[k])
        w.latest[k] = array("i", w.latest[k])
        if w.cpos is not None:
            w.cpos[k] = array("i", w.cpos[k])
    w.forced = array("i", w.forced)


def _chain_overflows(Ak: list[list[int]], a: int, q: int, G: int, h: int) -> bool:
    """Would storing copy q of (a, k) hold more than h cards of color k after q?

    Stored means T(a-1, k) > q, and the deadline gives T(a-1, k) <= G.  While value
    b has no alive copy in (q, G], its chosen copy p < q and T(b, k) >= T(a-1, k) > q
    forces T(b-1, k) = T(b, k) > q, so (b, k) is held after q too (p < q < T(b, k)).
    The chain ends at a value with a copy in (q, G]; reaching value 0 or a value
    without any copy <= G is a contradiction (storing q is impossible outright).
    """
    held = 1
    for b in range(a - 1, 0, -1):
        cb = Ak[b]
        i = bisect_right(cb, q)
        if i < len(cb) and cb[i] <= G:
            return False
        if i == 0:
            return True
        held += 1
        if held > h:
            return True
        if held > CHAIN_CAP:
            return False         # giving up is sound (weaker) and keeps analyse linear
    return True


def _overfull(deck: Deck, h: int, w: Windows, t: int, deadline: Deadline) -> str:
    held = []
    for k in range(1, deck.c + 1):
        deadline.check(PHASE)
        for a in range(2, deck.n + 1):
            if w.alive[k][a][-1] <= t < w.earliest[k][a - 1]:
                held.append(f"{a}:{k}")
    shown = ", ".join(held[:6]) + (", ..." if len(held) > 6 else "")
    cards = "card" if len(held) == 1 else "cards"
    return (f"after card #{t + 1} every win must hold {len(held)} {cards} ({shown}); "
            f"the hand holds {h}")
