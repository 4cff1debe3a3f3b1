"""The CP-SAT models of solitaire/encoders/cpsat.py built one OR-Tools call per variable and
constraint, as the first release built them (its code, but for the imports and
returning the bare CpModel).  tests/test_cpsat_bulk.py checks that the bulk
builders write the very same protos; bench/cpsat_build.py times both side by side."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from hanabi_cp.solitaire.preprocessing import analyse
from hanabi_cp.runtime.deadline import EVERY, NEVER, Deadline
from hanabi_cp.solitaire.encoders.cpsat import BUILD, capacity_groups, greedy_picks
from hanabi_cp.core.model import Deck, check_hand
from ortools.sat.python import cp_model
from ortools.util.python.sorted_interval_list import Domain


def _ortools():
    return cp_model, Domain


def build_decide(deck: Deck, h: int, windows=None, deadline: Deadline = NEVER) -> cp_model.CpModel | None:
    """The win model: one copy per card, T chains, hold intervals, capacity h."""
    check_hand(h)
    win = windows if windows is not None else analyse(deck, h, deadline=deadline)
    if win.reason is not None:
        return None
    E, L, alive = win.earliest, win.latest, win.alive
    cpm, Domain = _ortools()
    m = cpm.CpModel()
    copy_vars: dict = {}
    intervals = []
    spans = []                   # per interval: (first storable copy, last possible end)
    stores: list[int] = []       # positions where some card may be stored
    cpos, cval = win.positions()
    for k in range(1, deck.c + 1):
        deadline.check(BUILD)
        ps, vals = cpos[k], cval[k]      # alive positions of color k, with their values
        prev = None              # T(a-1, k)
        for a in range(1, deck.n + 1):
            if not a & 63:               # each value adds a few model variables
                deadline.check(BUILD)
            qs = alive[k][a]
            # T(a, k) is the position of an alive copy of a value <= a, within the
            # earliest/latest bounds every win satisfies.
            lo, hi = bisect_left(ps, E[k][a]), bisect_right(ps, L[k][a])
            dom = [ps[i] for i in range(lo, hi) if vals[i] <= a]
            if not dom:
                return None
            # Exactly one copy is chosen; p(a, k) is its position.
            lits: Sequence[cp_model.IntVar | bool]   # [True] for a single alive copy
            v: cp_model.IntVar | bool
            if len(qs) == 1:
                p = qs[0]
                copy_vars[(a, k, p)] = True
                lits = [True]
            else:
                copy_bools = [m.new_bool_var(f"copy_{a}_{k}_{q}") for q in qs]
                lits = copy_bools
                m.add_exactly_one(lits)
                p = m.new_int_var_from_domain(Domain.from_values(qs), f"pos_{a}_{k}")
                for q, v in zip(qs, lits):
                    copy_vars[(a, k, q)] = v
                    m.add(p == q).only_enforce_if(v)
                # A cheap hint: the earliest alive copy of every card.
                m.add_hint(lits[0], True)
            # Storable copies (q < L(a-1) and deadline g > q) are the only ones a
            # win can hold, and only until min(g, L(a-1)) (encodings/cnf.md §2).
            Lp = L[k][a - 1]
            span = win.spans(k, a)
            if prev is None:
                T = p            # value 1 is always played on sight
            elif not span:
                # Every win plays this card on sight: T(a, k) = p(a, k) > T(a-1, k).
                T = p
                m.add(prev < p)
            else:
                T = m.new_int_var_from_domain(Domain.from_values(dom), f"time_{a}_{k}")
                # The card is played when both it and the value below are out.
                m.add_max_equality(T, [p, prev])
                # The card is in the hand after positions p .. T-1 (an empty
                # interval when it is played on sight).
                size = m.new_int_var(0, dom[-1] - qs[0], f"held_{a}_{k}")
                intervals.append(m.new_interval_var(p, size, T, f"hold_{a}_{k}"))
                spans.append((span[0][0], max(e for _, e in span)))
                stores.extend(q for q, _ in span)
            if prev is not None:
                # Deadlines: choosing copy q forces T(a-1, k) <= stop g (windows).
                for q, g, v in zip(qs, win.stop[k][a], lits):
                    if g < Lp and (span or g < q - 1):
                        c = m.add(prev <= g)
                        if v is not True:
                            c.only_enforce_if(v)
            prev = T
    # Hand capacity: at most h cards held after every position, one cumulative per
    # group of intervals that can overlap more than h deep at a store point.
    deadline.check(BUILD)
    groups = capacity_groups(spans, stores, h)
    deadline.check(BUILD)
    for group in groups:
        m.add_cumulative([intervals[j] for j in group], [1] * len(group), h)
    return m



def build_maximize(deck: Deck, h: int, deadline: Deadline = NEVER) -> cp_model.CpModel | None:
    """The score model: played flags, prefix-closed per color; no win-only pruning."""
    check_hand(h)
    cpm, Domain = _ortools()
    m = cpm.CpModel()
    copies: dict = {}
    for t, card in enumerate(deck.cards):
        if not t & EVERY:
            deadline.check(BUILD)
        copies.setdefault(card, []).append(t)
    deadline.check(BUILD)
    hint = greedy_picks(deck, h)
    copy_vars: dict = {}
    played: dict = {}
    intervals = []
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
            pl = played[(a, k)] = m.new_bool_var(f"played_{a}_{k}")
            m.add_hint(pl, any(q in hint for q in qs))
            # A color is played in order: a played card has its predecessor played.
            if prev_played is not None:
                m.add_implication(pl, prev_played)
            # A played card has exactly one chosen copy, an unplayed one none.
            lits = [m.new_bool_var(f"copy_{a}_{k}_{q}") for q in qs]
            m.add(sum(lits) == pl)
            for q, v in zip(qs, lits):
                copy_vars[(a, k, q)] = v
                m.add_hint(v, q in hint)
            p = m.new_int_var_from_domain(Domain.from_values(qs), f"pos_{a}_{k}")
            for q, v in zip(qs, lits):
                m.add(p == q).only_enforce_if(v)
            # T = max(p, T(a-1)) is always one of the copies seen so far; the
            # interval [lo, hi] has the same solutions at a size independent of
            # the copies (a domain of every copy made the model quadratic in N).
            T = m.new_int_var(lo, hi, f"time_{a}_{k}")
            if prev is None:
                m.add(p == T)
            else:
                # Satisfiable whatever pl is; it only matters when the card is played.
                m.add_max_equality(T, [p, prev])
                size = m.new_int_var(0, hi - qs[0], f"held_{a}_{k}")
                intervals.append(m.new_optional_interval_var(p, size, T, pl, f"hold_{a}_{k}"))
            prev, prev_played = T, pl
    if intervals:
        m.add_cumulative(intervals, [1] * len(intervals), h)
    m.maximize(sum(played.values()))
    return m
