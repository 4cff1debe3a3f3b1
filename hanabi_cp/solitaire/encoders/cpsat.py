"""Solitaire Hanabi as OR-Tools CP-SAT models (encodings/cpsat.md): building only.

The method that solves them is ``solitaire/methods/cpsat.py``.  The model follows SPEC fact
3, not a positions x cards time grid: per card (a, k)
the chosen copy p(a, k) and the play time T(a, k) = max(p(a, k), T(a-1, k)); the
card is in the hand over the interval [p, T), and cumulative constraints keep at
most h such intervals open after every position (only over the groups of cards
that could ever overflow the hand at a store point).  A scanned copy q of (a, k) is
then discarded (not chosen), played (chosen, q > T(a-1, k)) or stored (chosen,
q < T(a-1, k)).

Both builders return a ``CpsatEncoding`` (solitaire/encoders/encoding.py): the model, the
copy variables by position, the decoder, and the status when building decided.
Two models:

- ``build_decide`` asks for a win.  It starts from ``preprocessing.analyse`` (dead copies,
  earliest/latest play times, deadlines), which may already prove the deck lost.
- ``build_maximize`` asks for the largest score.  The win-only pruning of
  ``analyse`` would be unsound here (it kills copies a win cannot use, but a
  partial game may use them), so it has a ``played`` flag per card, prefix-closed
  per color, and optional hold intervals.

>>> from hanabi_cp.core.model import Deck
>>> build_decide(Deck.of([(3, 1), (2, 1), (1, 1)]), 1).reason
'after card #2 every win must hold 2 cards (2:1, 3:1); the hand holds 1'
>>> m = build_decide(Deck.of([(2, 1), (1, 1), (3, 1)]), 1)
>>> m.status, m.decode(lambda var: False).actions     # every copy is forced here
(None, 'SPP')
"""

from __future__ import annotations

import time
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...runtime.deadline import EVERY, NEVER, Deadline
from ...core.model import Deck, check_hand
from ...core.status import Status
from ..preprocessing import analyse
from .cpsat_bulk import INT_MAX, INT_MIN, BulkModel, affine
from .encoding import CpsatEncoding

if TYPE_CHECKING:
    from ortools.sat.python import cp_model


def _ortools():
    """OR-Tools, imported on first use: it pulls in numpy and pandas (half a second),
    which every other command and method can do without."""
    from ortools.sat.python import cp_model
    from ortools.util.python.sorted_interval_list import Domain
    return cp_model, Domain


BUILD = "building the CP-SAT model"


def _sizes(deck: Deck, model: cp_model.CpModel, t0: float) -> dict:
    proto = model.Proto()
    nv, nc, N = len(proto.variables), len(proto.constraints), max(deck.N, 1)
    return {"cards": deck.N, "variables": nv, "constraints": nc,
            "variables_per_card": round(nv / N, 3), "constraints_per_card": round(nc / N, 3),
            "build_seconds": round(time.perf_counter() - t0, 6)}


def build_decide(deck: Deck, h: int, windows=None, deadline: Deadline = NEVER) -> CpsatEncoding:
    """The win model: one copy per card, T chains, hold intervals, capacity h."""
    check_hand(h)
    t0 = time.perf_counter()
    win = windows if windows is not None else analyse(deck, h, deadline=deadline)
    pre = {"preprocess_seconds": round(time.perf_counter() - t0, 6), **win.stats}
    if win.reason is not None:
        return CpsatEncoding(deck=deck, h=h, formula=None, status=Status.UNWINNABLE,
                             reason=win.reason, stats=pre)
    E, L, alive = win.earliest, win.latest, win.alive
    b = BulkModel()
    copy_vars: dict = {}
    intervals: list[int] = []    # constraint indices of the hold intervals
    spans = []                   # per interval: (first storable copy, last possible end)
    stores: list[int] = []       # positions where some card may be stored
    cpos, cval = win.positions()
    for k in range(1, deck.c + 1):
        deadline.check(BUILD)
        ps, vals = cpos[k], cval[k]      # alive positions of color k, with their values
        prev = None              # T(a-1, k): a variable, or a position if prev_var is False
        prev_var = False
        for a in range(1, deck.n + 1):
            if not a & 63:               # each value adds a few model variables
                deadline.check(BUILD)
            qs = alive[k][a]
            # T(a, k) is the position of an alive copy of a value <= a, within the
            # earliest/latest bounds every win satisfies.
            lo, hi = bisect_left(ps, E[k][a]), bisect_right(ps, L[k][a])
            dom = [ps[i] for i in range(lo, hi) if vals[i] <= a]
            if not dom:
                return CpsatEncoding(deck=deck, h=h, formula=None, status=Status.UNWINNABLE,
                                     stats=pre,
                                     reason=f"card {a}:{k}: no alive copy lets it be played "
                                            f"between card #{E[k][a] + 1} and card #{L[k][a] + 1}")
            # Exactly one copy is chosen; p(a, k) is its position.
            lits: Sequence[int | bool]   # [True] for a single alive copy
            if len(qs) == 1:
                p, p_var = qs[0], False
                copy_vars[p] = True
                lits = [True]
            else:
                lits = [b.bool_var() for _ in qs]
                b.add(f"exactly_one{{literals:[{','.join(map(str, lits))}]}}")
                p, p_var = b.int_var_values(qs), True
                for q, v in zip(qs, lits):
                    copy_vars[q] = v
                    b.add(f"enforcement_literal:{v} linear{{vars:{p} coeffs:1 domain:[{q},{q}]}}")
                # A cheap hint: the earliest alive copy of every card.
                b.hint(lits[0], 1)
            # Storable copies (q < L(a-1) and deadline g > q) are the only ones a
            # win can hold, and only until min(g, L(a-1)) (encodings/cnf.md §2).
            Lp = L[k][a - 1]
            span = win.spans(k, a)
            if prev is None:
                T, T_var = p, p_var      # value 1 is always played on sight
            elif not span:
                # Every win plays this card on sight: T(a, k) = p(a, k) > T(a-1, k).
                T, T_var = p, p_var
                _less(b, prev, prev_var, p, p_var)
            else:
                T, T_var = b.int_var_values(dom), True
                # The card is played when both it and the value below are out.
                b.add(f"lin_max{{target{{vars:{T} coeffs:1}} exprs{{{affine(p, p_var)}}} "
                      f"exprs{{{affine(prev, prev_var)}}}}}")
                # The card is in the hand after positions p .. T-1 (an empty
                # interval when it is played on sight).
                size = b.int_var(0, dom[-1] - qs[0])
                intervals.append(b.add(f"interval{{start{{{affine(p, p_var)}}} "
                                       f"end{{vars:{T} coeffs:1}} size{{vars:{size} coeffs:1}}}}"))
                spans.append((span[0][0], max(e for _, e in span)))
                stores.extend(q for q, _ in span)
            if prev is not None:
                # Deadlines: choosing copy q forces T(a-1, k) <= stop g (windows).
                for q, g, v in zip(qs, win.stop[k][a], lits):
                    if g < Lp and (span or g < q - 1):
                        enforce = "" if v is True else f"enforcement_literal:{v} "
                        if prev_var:
                            b.add(f"{enforce}linear{{vars:{prev} coeffs:1 "
                                  f"domain:[{INT_MIN},{g}]}}")
                        else:
                            b.add_truth(prev <= g, enforce)
            prev, prev_var = T, T_var
    # Hand capacity: at most h cards held after every position, one cumulative per
    # group of intervals that can overlap more than h deep at a store point.
    deadline.check(BUILD)
    groups = capacity_groups(spans, stores, h)
    deadline.check(BUILD)
    for group in groups:
        b.add(_cumulative([intervals[j] for j in group], h))
    deadline.check(BUILD)
    m = b.model()
    stats = {**pre, **_sizes(deck, m, t0), "hold_intervals": len(intervals),
             "capacity_groups": len(groups),
             "constrained_intervals": sum(len(g) for g in groups)}
    return CpsatEncoding(deck=deck, h=h, formula=m, variables=copy_vars, stats=stats)


def _less(b: BulkModel, x: int, x_var: bool, y: int, y_var: bool) -> None:
    """x < y over variables or constants, written as the API writes ``x < y``."""
    if x_var and y_var:
        terms = f"vars:[{x},{y}] coeffs:[1,-1]" if x < y else f"vars:[{y},{x}] coeffs:[-1,1]"
        b.add(f"linear{{{terms} domain:[{INT_MIN},-1]}}")
    elif x_var:
        b.add(f"linear{{vars:{x} coeffs:1 domain:[{INT_MIN},{y - 1}]}}")
    elif y_var:
        b.add(f"linear{{vars:{y} coeffs:1 domain:[{x + 1},{INT_MAX}]}}")
    else:
        b.add_truth(x < y)


def _cumulative(intervals: list[int], h: int) -> str:
    demands = " ".join(["demands{offset:1}"] * len(intervals))
    return (f"cumulative{{capacity{{offset:{h}}} "
            f"intervals:[{','.join(map(str, intervals))}] {demands}}}")


def capacity_groups(spans: list, stores: list, h: int) -> list:
    """Groups of span indices that need a capacity constraint.

    The hand grows only at store points, so it suffices that at every store point t
    at most h of the spans [lo, hi) containing t are held.  Between two span ends
    the active set only grows, so only the set just before each removal (a maximal
    set) matters, and one with at most h spans needs nothing.  The spans in larger
    maximal sets are split into groups of overlapping spans (connected components).
    """
    if not spans:
        return []
    by_start = sorted(range(len(spans)), key=lambda j: spans[j][0])
    by_end = sorted(range(len(spans)), key=lambda j: spans[j][1])
    keep: set = set()
    active: set = set()
    i = e = 0
    for t in sorted(set(stores)):
        if e < len(by_end) and spans[by_end[e]][1] <= t and len(active) > h:
            keep |= active                   # the maximal set before a removal
        while e < len(by_end) and spans[by_end[e]][1] <= t:
            active.discard(by_end[e])
            e += 1
        while i < len(by_start) and spans[by_start[i]][0] <= t:
            active.add(by_start[i])
            i += 1
    if len(active) > h:
        keep |= active
    groups: list[list[int]]
    groups, reach = [], -1
    for j in sorted(keep, key=lambda j: spans[j]):
        lo, hi = spans[j]
        if lo >= reach:
            groups.append([])
        groups[-1].append(j)
        reach = max(reach, hi)
    return [g for g in groups if len(g) > h]


def greedy_picks(deck: Deck, h: int) -> set:
    """Positions a simple greedy game ends up playing: play when playable, store a
    card not yet held while the hand has room, discard the rest.  Feeds add_hint."""
    top = [0] * (deck.c + 1)
    hand: dict = {}
    picks = set()
    for t, (a, k) in enumerate(deck.cards):
        if top[k] + 1 == a:
            picks.add(t)
            top[k] = a
            while (top[k] + 1, k) in hand:
                picks.add(hand.pop((top[k] + 1, k)))
                top[k] += 1
        elif a > top[k] + 1 and (a, k) not in hand and len(hand) < h:
            hand[(a, k)] = t
    return picks


def build_maximize(deck: Deck, h: int, deadline: Deadline = NEVER) -> CpsatEncoding:
    """The score model: played flags, prefix-closed per color; no win-only pruning."""
    check_hand(h)
    t0 = time.perf_counter()
    b = BulkModel()
    copies: dict = {}
    for t, card in enumerate(deck.cards):
        if not t & EVERY:
            deadline.check(BUILD)
        copies.setdefault(card, []).append(t)
    deadline.check(BUILD)
    hint = greedy_picks(deck, h)
    copy_vars: dict = {}
    played: dict = {}
    intervals: list[int] = []
    # Colors without a card play nothing: only those with one are looped over (c
    # may be far above N on a deck that lacks cards).
    for k in sorted({k for _, k in copies}):
        deadline.check(BUILD)
        lo = hi = None           # the first and last copy of any value so far
        prev = prev_played = None
        for a in range(1, deck.n + 1):
            if not a & 63:
                deadline.check(BUILD)
            qs = copies.get((a, k))
            if not qs:
                break            # this card and every higher one stay unplayed
            lo = qs[0] if lo is None else min(lo, qs[0])
            hi = qs[-1] if hi is None else max(hi, qs[-1])
            pl = played[(a, k)] = b.bool_var()
            b.hint(pl, any(q in hint for q in qs))
            # A color is played in order: a played card has its predecessor played.
            if prev_played is not None:
                b.add(f"enforcement_literal:{pl} bool_and{{literals:{prev_played}}}")
            # A played card has exactly one chosen copy, an unplayed one none.
            lits = [b.bool_var() for _ in qs]
            b.add(f"linear{{vars:[{pl},{','.join(map(str, lits))}] "
                  f"coeffs:[-1{',1' * len(lits)}] domain:[0,0]}}")
            for q, v in zip(qs, lits):
                copy_vars[q] = v
                b.hint(v, q in hint)
            p = b.int_var_values(qs)
            for q, v in zip(qs, lits):
                b.add(f"enforcement_literal:{v} linear{{vars:{p} coeffs:1 domain:[{q},{q}]}}")
            # T = max(p, T(a-1)) is always one of the copies seen so far; the
            # interval [lo, hi] has the same solutions at a size independent of
            # the copies (a domain of every copy made the model quadratic in N).
            T = b.int_var(lo, hi)
            if prev is None:
                b.add(f"linear{{vars:[{p},{T}] coeffs:[1,-1] domain:[0,0]}}")
            else:
                # Satisfiable whatever pl is; it only matters when the card is played.
                b.add(f"lin_max{{target{{vars:{T} coeffs:1}} exprs{{vars:{p} coeffs:1}} "
                      f"exprs{{vars:{prev} coeffs:1}}}}")
                size = b.int_var(0, hi - qs[0])
                intervals.append(b.add(
                    f"enforcement_literal:{pl} interval{{start{{vars:{p} coeffs:1}} "
                    f"end{{vars:{T} coeffs:1}} size{{vars:{size} coeffs:1}}}}"))
            prev, prev_played = T, pl
    if intervals:
        b.add(_cumulative(intervals, h))
    deadline.check(BUILD)
    # Maximize the number of played cards (the API stores it negated; a model
    # without a card maximizes the constant 0).
    ps = ",".join(map(str, played.values()))
    m = b.model(f"vars:[{ps}] coeffs:[{','.join(['-1'] * len(played))}] scaling_factor:-1"
                if played else "scaling_factor:1")
    stats = {**_sizes(deck, m, t0), "hold_intervals": len(intervals)}
    return CpsatEncoding(deck=deck, h=h, formula=m, variables=copy_vars, stats=stats,
                         maximize=True, played=played)
