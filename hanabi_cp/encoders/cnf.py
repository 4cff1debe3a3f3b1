"""The compact CNF encoding of (deck, h); see encodings/cnf.md for the proofs.

Variables (all over the cards and copies that ``windows.analyse`` keeps):

- ``copy(a, k, q)``       copy q of (a, k) is chosen (absent when only one copy is alive);
- ``played_by(b, k, t)``  T(b, k) <= t, only at positions where T(b, k) can change;
- ``held(a, k, s, e)``    (a, k) may be in the hand after the positions s .. e-1.

Clauses: one copy per card (at least one; choosing more is harmless, the decoder takes
the earliest); ``played_by`` only implies its causes (a chosen copy by t and the value
below played by t); a chosen copy that would be stored must be released before its
deadline; a card chosen and not yet released is ``held``; at every position where a
card can be stored, at most h cards are ``held`` (emitted once per maximal set).

>>> from hanabi_cp.model import Deck
>>> enc = build(Deck.of([(1, 1), (2, 1), (1, 1)]), 1)
>>> enc.status, enc.decode(enc.solve_model()).actions
(None, 'PPD')
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from math import comb

from pysat.card import CardEnc, EncType

from ..model import Deck, check_hand
from ..plays import DISCARD, PLAY, STORE, PlaySequence
from .windows import Windows, analyse

TRUE, FALSE = True, False


@dataclass
class Encoding:
    """A CNF for (deck, h) with its variable map and the decoder of its models.

    ``status`` is None when the formula decides the question, or "UNWINNABLE" when
    preprocessing already proved there is no win (``reason`` says why; the clause
    list is then ``[[]]``).
    """

    deck: Deck
    h: int
    clauses: list
    num_vars: int
    names: list                  # names[v] = readable tuple for variable v (index 0 unused)
    windows: Windows
    copy_vars: dict              # position q -> variable of "copy q chosen"
    status: str | None = None
    reason: str | None = None
    stats: dict = field(default_factory=dict)
    capacity: list = field(default_factory=list)   # with build(collect=True)

    def decode(self, model) -> PlaySequence:
        """The play sequence of a model (list of literals, pysat style)."""
        true = set(l for l in model if l > 0)
        return decode_choice(self.deck, self.windows, lambda q: self.copy_vars[q] in true)

    def solve_model(self, solver: str = "cadical195"):
        """Convenience for doctests and tests: a model, or None if unsatisfiable."""
        from pysat.solvers import Solver
        with Solver(name=solver, bootstrap_with=self.clauses) as s:
            return s.get_model() if s.solve() else None

    def varmap(self) -> dict:
        """Variable -> readable name, e.g. {1: "copy 3:2 #17"} (positions 1-based)."""
        out = {}
        for v in range(1, self.num_vars + 1):
            nm = self.names[v]
            if nm is None:
                out[v] = "aux"
            elif nm[0] == "copy":
                out[v] = f"copy {nm[1]}:{nm[2]} #{nm[3] + 1}"
            elif nm[0] == "played_by":
                out[v] = f"played_by {nm[1]}:{nm[2]} #{nm[3] + 1}"
            else:
                out[v] = f"held {nm[1]}:{nm[2]} #{nm[3] + 1}..#{nm[4]}"
        return out


def decode_choice(deck: Deck, win: Windows, chosen) -> PlaySequence:
    """Play the earliest chosen alive copy of each card; store it if not playable."""
    pick = set()
    for k in range(1, deck.c + 1):
        for a in range(1, deck.n + 1):
            copies = win.alive[k][a]
            if len(copies) == 1:
                pick.add(copies[0])
                continue
            for q in copies:
                if chosen(q):
                    pick.add(q)
                    break
    top = [0] * (deck.c + 1)
    hand = set()
    out = []
    for t, (a, k) in enumerate(deck.cards):
        if t not in pick:
            out.append(DISCARD)
        elif top[k] + 1 == a:
            out.append(PLAY)
            top[k] = a
            while (top[k] + 1, k) in hand:
                hand.discard((top[k] + 1, k))
                top[k] += 1
        else:
            out.append(STORE)
            hand.add((a, k))
    return PlaySequence("".join(out))


def build(deck: Deck, h: int, windows: Windows | None = None,
          card_encoding: int = EncType.seqcounter, propagate: bool = False,
          collect: bool = False, asap: bool = True) -> Encoding:
    """Encode (deck, h); linear in N plus the total size of the hold windows.

    ``propagate`` adds the converse of the ``played_by`` definitions (not needed for
    correctness; more clauses, often fewer conflicts).  ``collect`` leaves the hand
    capacity out of the clauses and records each maximal set as (literals, surely
    held) in ``Encoding.capacity`` instead, for callers that vary h (min-hand);
    ``windows`` must then come from ``analyse`` at the largest h asked.
    """
    check_hand(h)
    t0 = time.perf_counter()
    win = windows if windows is not None else analyse(deck, h)
    t_pre = time.perf_counter() - t0
    names: list = [None]
    if win.reason is not None:
        return Encoding(deck, h, [[]], 0, names, win, {}, "UNWINNABLE", win.reason,
                        stats=_stats(deck, 0, 1, t_pre, 0.0, win))
    n, c, N = deck.n, deck.c, deck.N
    alive, E, L, stop = win.alive, win.earliest, win.latest, win.stop
    clauses: list = []
    add = clauses.append
    copy_vars: dict = {}
    gvars: dict = {}
    pending: list = []           # played_by variables whose defining clauses are due
    top = [0]

    def new(name) -> int:
        top[0] += 1
        names.append(name)
        return top[0]

    # Per color: alive positions in deck order with their values, for the positions
    # where T(b, k) can change (an alive copy of a value <= b).
    cpos = [[] for _ in range(c + 1)]
    cval = [[] for _ in range(c + 1)]
    index = [0] * N
    for k in range(1, c + 1):
        for a in range(1, n + 1):
            for q in alive[k][a]:
                cpos[k].append(q)
    for k in range(1, c + 1):
        cpos[k].sort()
        vals = cval[k]
        for i, q in enumerate(cpos[k]):
            vals.append(deck.cards[q][0])
            index[q] = i

    def locate(k: int, t: int) -> int:
        """Index in cpos[k] of the last alive color-k position <= t (-1 if none)."""
        ps = cpos[k]
        lo, hi = 0, len(ps)
        while lo < hi:
            mid = (lo + hi) >> 1
            if ps[mid] <= t:
                lo = mid + 1
            else:
                hi = mid
        return lo - 1

    def played_by(k: int, b: int, t: int, i: int = -2):
        """Literal for T(b, k) <= t (or a constant); i = locate(k, t) if known."""
        if b == 0 or t >= L[k][b]:
            return TRUE
        Eb = E[k][b]
        if t < Eb:
            return FALSE
        if i == -2:
            i = locate(k, t)
        vals, ps = cval[k], cpos[k]
        while vals[i] > b:          # T(b, k) is never at a higher value's position
            i -= 1
        t = ps[i]
        if t < Eb:
            return FALSE
        key = (k, b, t)
        v = gvars.get(key)
        if v is None:
            v = gvars[key] = new(("played_by", b, k, t))
            pending.append((v, k, b, t, i))
        return v

    def define_pending() -> None:
        while pending:
            v, k, b, t, i = pending.pop()
            lower = played_by(k, b - 1, t, i)
            if lower is FALSE:
                add([-v])
                continue
            if lower is not TRUE:
                add([-v, lower])
            copies = alive[k][b]
            if copies[-1] > t:       # otherwise "some copy by t" is the at-least-one clause
                cl = [-v]
                for q in copies:
                    if q > t:
                        break
                    cl.append(copy_vars[q])
                add(cl)
            if propagate:
                # The converse (not needed for correctness) lets propagation see plays.
                lo = [] if lower is TRUE else [-lower]
                if copies[-1] <= t and len(copies) == 1:
                    add(lo + [v])
                else:
                    for q in copies:
                        if q > t:
                            break
                        add(lo + [-copy_vars[q], v])

    # 1. One copy per card (at least one).
    for k in range(1, c + 1):
        for a in range(1, n + 1):
            copies = alive[k][a]
            if len(copies) > 1:
                cl = []
                for q in copies:
                    v = copy_vars[q] = new(("copy", a, k, q))
                    cl.append(v)
                add(cl)

    # 2. Deadlines and held segments.
    seg_s: list = []             # hold segments [s, e) with their literal (TRUE = surely held)
    seg_e: list = []
    seg_l: list = []
    storepoint = bytearray(N)
    for k in range(1, c + 1):
        ps, vals = cpos[k], cval[k]
        for a in range(1, n + 1):
            copies = alive[k][a]
            Lp = L[k][a - 1]
            if copies[0] >= Lp:
                continue             # every alive copy is played on sight
            single = len(copies) == 1
            gs = stop[k][a]
            ends = []
            for q, g in zip(copies, gs):
                if q >= Lp:
                    ends.append(q)   # never stored
                    continue
                storepoint[q] = 1
                if g < Lp:
                    lit = played_by(k, a - 1, g)
                    if lit is not TRUE:
                        cv = TRUE if single else copy_vars[q]
                        if lit is FALSE:
                            add([-cv] if cv is not TRUE else [])
                        else:
                            add([lit] if cv is TRUE else [-cv, lit])
                    ends.append(g)
                else:
                    ends.append(Lp)
            # Boundaries: own copies, window ends, and the positions in the window
            # where T(a-1, k) can change.
            first, last_end = copies[0], max(ends)
            cuts = set(copies)
            cuts.update(ends)
            i = index[first] + 1
            while i < len(ps) and ps[i] < last_end:
                if vals[i] < a:
                    cuts.add(ps[i])
                i += 1
            cuts = sorted(x for x in cuts if first <= x <= last_end)
            nall = len(copies)
            for j in range(len(cuts) - 1):
                s, e = cuts[j], cuts[j + 1]
                act = [q for q, x in zip(copies, ends) if q <= s < x]
                if not act:
                    continue
                g = played_by(k, a - 1, s)
                if g is TRUE:
                    continue
                if g is FALSE and (single or len(act) == nall):
                    seg_s.append(s); seg_e.append(e); seg_l.append(TRUE)
                    continue
                hv = new(("held", a, k, s, e))
                if len(act) == nall:
                    add([hv] if g is FALSE else [g, hv])
                else:
                    for q in act:
                        cl = [-copy_vars[q], hv]
                        if g is not FALSE:
                            cl.append(g)
                        add(cl)
                seg_s.append(s); seg_e.append(e); seg_l.append(hv)
    # 2b. Play as soon as possible (WLOG, see encodings/cnf.md): if T(a-1, k) < q
    #     for an alive copy q of (a, k), then T(a, k) <= q.
    if asap:
        for k in range(1, c + 1):
            for a in range(1, n + 1):
                for q in alive[k][a]:
                    now = played_by(k, a, q)
                    if now is TRUE:
                        continue
                    before = played_by(k, a - 1, q - 1)
                    if before is FALSE:
                        continue
                    if before is TRUE:
                        add([] if now is FALSE else [now])
                    else:
                        add([-before] if now is FALSE else [-before, now])
    define_pending()

    # 3. Hand capacity at every store point, once per maximal set of overlapping
    #    segments (a set that only grows between two removals needs one constraint).
    starts = [[] for _ in range(N + 1)]
    stops = [[] for _ in range(N + 1)]
    for j in range(len(seg_s)):
        starts[seg_s[j]].append(j)
        stops[seg_e[j]].append(j)
    active: dict = {}
    sure = 0
    snapshot = None
    ncard = [0]
    card_sizes: dict = {}
    capacity: list = []

    def emit(snap) -> None:
        if collect:
            capacity.append(snap)
        else:
            ncard[0] += _at_most(snap[0], h - snap[1], add, new, card_encoding, card_sizes)
    for t in range(N + 1):
        if stops[t]:
            if snapshot is not None:
                emit(snapshot)
                snapshot = None
            for j in stops[t]:
                if seg_l[j] is TRUE:
                    sure -= 1
                else:
                    del active[seg_l[j]]
        for j in starts[t]:
            if seg_l[j] is TRUE:
                sure += 1
            else:
                active[seg_l[j]] = None
        if t < N and storepoint[t]:
            snapshot = (list(active), sure)
    if snapshot is not None:
        emit(snapshot)

    build_s = time.perf_counter() - t0
    enc = Encoding(deck, h, clauses, top[0], names, win, copy_vars, capacity=capacity)
    enc.stats = _stats(deck, top[0], len(clauses), t_pre, build_s, win)
    enc.stats.update({"cardinality_clauses": ncard[0], "hold_segments": len(seg_s),
                      "cardinality_sets": dict(sorted(card_sizes.items()))})
    return enc


def _at_most(lits: list, bound: int, add, new, encoding: int, sizes: dict) -> int:
    """Add "at most ``bound`` of ``lits``"; return the number of clauses added."""
    m = len(lits)
    if m <= bound:
        return 0
    sizes[m] = sizes.get(m, 0) + 1
    if bound < 0:
        add([])
        return 1
    if bound == 0:
        for x in lits:
            add([-x])
        return m
    if comb(m, bound + 1) <= 2 * m * bound:
        count = 0
        for sub in _subsets(lits, bound + 1):
            add([-x for x in sub])
            count += 1
        return count
    top = new(None)
    enc = CardEnc.atmost(lits, bound, top_id=top, encoding=encoding)
    for _ in range(top + 1, enc.nv + 1):
        new(None)
    for cl in enc.clauses:
        add(cl)
    return len(enc.clauses)


def _subsets(lits: list, size: int):
    from itertools import combinations
    return combinations(lits, size)


def _stats(deck: Deck, nv: int, nc: int, pre: float, build: float, win: Windows) -> dict:
    N = max(deck.N, 1)
    return {"cards": deck.N, "variables": nv, "clauses": nc,
            "variables_per_card": round(nv / N, 3), "clauses_per_card": round(nc / N, 3),
            "preprocess_seconds": round(pre, 6), "build_seconds": round(build, 6),
            **win.stats}
