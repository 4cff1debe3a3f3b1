"""The compact CNF encoding of (deck, h); see encodings/cnf.md for the proofs.

Variables (all over the cards and copies that ``preprocessing.analyse`` keeps):

- ``copy(a, k, q)``       copy q of (a, k) is chosen (absent when only one copy is alive);
- ``played_by(b, k, t)``  T(b, k) <= t, only at positions where T(b, k) can change;
- ``held(a, k, s, e)``    (a, k) may be in the hand after the positions s .. e-1.

Clauses: one copy per card (at least one; choosing more is harmless, the decoder takes
the earliest); ``played_by`` only implies its causes (a chosen copy by t and the value
below played by t); a chosen copy that would be stored must be released before its
deadline; a card chosen and not yet released is ``held``; at every position where a
card can be stored, at most h cards are ``held`` (emitted once per maximal set).

``build`` runs the analysis and ``CnfBuilder``, which has one method per clause
family (the table in encodings/cnf.md §8), and returns a ``CnfEncoding``
(solitaire/encoders/encoding.py: the clauses, the variable map, the decoder of a model).

>>> from hanabi_cp.core.model import Deck
>>> enc = build(Deck.of([(1, 1), (2, 1), (1, 1)]), 1)
>>> enc.status, enc.decode(enc.solve_model()).actions
(None, 'PPD')
"""

from __future__ import annotations

import time
from bisect import bisect_right
from itertools import combinations
from math import comb

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from ...runtime.deadline import EVERY, NEVER, Deadline
from ...core.model import COMPACT_FROM_CARDS, Deck, check_hand
from ...runtime.nogc import without_gc
from ...core.status import Status
from ..preprocessing import Windows, analyse
from .cnf_windows import PHASE, capacity_sets, hold_segments, needed_cards, storable_copies
from .encoding import CnfEncoding, copy_flags
from .flat import Clauses, CopyVars, Names

TRUE, FALSE = True, False


@without_gc
def build(deck: Deck, h: int, windows: Windows | None = None,
          card_encoding: int = EncType.seqcounter, propagate: bool = False,
          collect: bool = False, asap: bool = False, deadline: Deadline = NEVER) -> CnfEncoding:
    """Encode (deck, h); linear in N plus the total size of the hold windows.

    ``propagate`` adds the converse of the ``played_by`` definitions (not needed for
    correctness; more clauses, often fewer conflicts).  ``asap`` adds the clauses of
    the play-as-soon-as-possible normal form (valid, not needed: the aliases already
    rely on the normal form; on reduction images they cost build time and saved no
    solve time).  ``collect`` leaves the hand capacity
    out of the clauses and records each maximal set as (literals, surely held) in
    ``CnfEncoding.capacity`` instead, for callers that vary h (min-hand); ``windows``
    must then come from ``analyse`` at the largest h asked.  ``deadline`` is
    checked every few thousand steps (TimeUp).
    """
    check_hand(h)
    t0 = time.perf_counter()
    win = windows if windows is not None else analyse(deck, h, deadline=deadline)
    t_pre = time.perf_counter() - t0
    if win.reason is not None:
        names: Names | list = Names() if deck.N >= COMPACT_FROM_CARDS else [None]
        return CnfEncoding(deck=deck, h=h, formula=[[]], num_vars=0, names=names, windows=win,
                           status=Status.UNWINNABLE, reason=win.reason,
                           stats=_stats(deck, 0, 1, t_pre, 0.0, win))
    builder = CnfBuilder(deck, h, win, card_encoding=card_encoding, propagate=propagate,
                         collect=collect, deadline=deadline)
    enc = builder.build(asap)
    enc.stats = _stats(deck, enc.num_vars, len(enc.clauses), t_pre,
                       time.perf_counter() - t0, win)
    enc.stats.update(builder.stats())
    return enc


class CnfBuilder:
    """The CNF of (deck, h) from its windows, one method per section of encodings/cnf.md.

    ``build`` calls them in the order that fixes the variable numbering and the
    clause order (the DIMACS of ``hanabi-cp encode`` depends on it):
    ``copy_variables`` and ``one_copy`` (F1), ``deadlines`` (F3), ``hand_capacity``
    (F5, with ``held_lit`` for F4), ``play_asap`` (F6), and last ``define_played_by``
    (F2) for the ``played_by`` variables (§3) the others made.  The sweeps that only
    read the windows are ``cnf_windows``'s: ``storable_copies`` (§2, at
    construction), ``needed_cards``, ``hold_segments`` and ``capacity_sets`` (F4, F5).

    Variables are numbered by one pysat ``IDPool``, which also numbers the auxiliary
    variables of ``CardEnc``.  The pool only counts: the readable names go to a list,
    or on decks of COMPACT_FROM_CARDS cards or more to ``flat.Names`` (integer
    arrays), and the clauses to a list or ``flat.Clauses``.  The pool's own dicts
    of names would cost ~70 bytes per card on an image and 12 % of the build on a
    standard deck, and nothing would read them (encodings/cnf.md §8,
    ``python -m bench.cnf_names``).

    >>> from hanabi_cp.core.model import Deck
    >>> from hanabi_cp.solitaire.preprocessing import analyse
    >>> deck = Deck.of([(2, 1), (2, 2), (1, 1), (1, 2), (2, 1), (2, 2)])
    >>> enc = CnfBuilder(deck, 1, analyse(deck, 1)).build()
    >>> enc.varmap(), enc.clauses
    ({1: 'copy 2:1 #1', 2: 'copy 2:2 #2', 3: 'held 2:1 #1..#2', 4: 'held 2:2 #2..#3'}, [[-1, 3], [-2, 4], [-3, -4]])
    """

    def __init__(self, deck: Deck, h: int, win: Windows,
                 card_encoding: int = EncType.seqcounter, propagate: bool = False,
                 collect: bool = False, deadline: Deadline = NEVER):
        if win.reason is not None:
            raise ValueError(f"the windows already decide the deck: {win.reason}")
        self.deck, self.h, self.win, self.deadline = deck, h, win, deadline
        self.card_encoding, self.propagate, self.collect = card_encoding, propagate, collect
        self.n, self.c, self.N = deck.n, deck.c, deck.N
        self.alive, self.E, self.L = win.alive, win.earliest, win.latest
        # Flat arrays pay off in memory on large decks only: on small ones (standard
        # decks, the harness) lists build and load into the solver faster.
        self.compact = deck.N >= COMPACT_FROM_CARDS
        self.pool = IDPool()
        self.names: Names | list = Names() if self.compact else [None]
        self.clauses: Clauses | list = Clauses() if self.compact else []
        self.add = self.clauses.append
        self.copy_vars: dict = {}    # position q -> variable of "copy q chosen"
        self.gvars: dict = {}        # literal of T(b, k) <= t, by (t, b, k) as one int
        self.pending: list = []      # played_by variables whose defining clauses are due
        # Per color: alive positions in deck order with their values (the positions
        # where T(b, k) can change).
        self.cpos, self.cval = win.positions()
        self.storable = storable_copies(win, deadline)      # §2; makes no variable
        self.skeep, self.first_store, self.storable_cards = self.storable
        self.capacity: list = []
        self.ncard = 0
        self.card_sizes: dict = {}
        self.nseg = 0

    def new(self, name: tuple | None) -> int:
        """A fresh variable named ``name`` (None: auxiliary)."""
        self.names.append(name)
        return self.pool.id()

    def build(self, asap: bool = False) -> CnfEncoding:
        """All clause families in order; the ``CnfEncoding`` (stats: see ``stats``)."""
        st = self.storable
        self.copy_variables()
        self.one_copy()
        stores = self.deadlines()
        # min-hand (collect) varies h: every storable card may be needed
        needed = st.cards if self.collect else needed_cards(st, stores, self.N, self.h)
        seg_s, seg_e, seg_spec = hold_segments(self.win, st, needed, self.cpos, self.cval,
                                               self.deadline)
        self.nseg = len(seg_s)
        sets = capacity_sets(seg_s, seg_e, stores, self.h, self.collect, self.deadline)
        self.hand_capacity(sets, seg_e, seg_spec)
        if asap:
            self.play_asap()
        self.define_played_by()
        return self.encoding()

    def encoding(self) -> CnfEncoding:
        alive_flags, single_flags = copy_flags(self.deck, self.win)
        # On large decks the dict's int objects, alive through the solve, would keep
        # the allocator's pages of the builder's transient objects (flat.CopyVars).
        copy_vars = CopyVars(self.copy_vars, self.N) if self.compact else self.copy_vars
        return CnfEncoding(deck=self.deck, h=self.h, formula=self.clauses,
                           variables=copy_vars, num_vars=self.pool.top, names=self.names,
                           windows=None if self.compact else self.win,
                           capacity=self.capacity, alive=alive_flags, single=single_flags)

    def stats(self) -> dict:
        return {"cardinality_clauses": self.ncard, "hold_segments": self.nseg,
                "cardinality_sets": dict(sorted(self.card_sizes.items()))}

    # §3: the played_by literals, with their constants and aliases.
    def played_by(self, k: int, b: int, t: int):
        """Literal for T(b, k) <= t (or a constant).

        While (b, k) has no storable copy <= t, the normal form plays it at its first
        alive copy after T(b-1, k), so T(b, k) <= t iff T(b-1, k) < q* (q* the last
        alive copy <= t): the literal is that of (b-1, q*-1), no new variable.
        """
        seen = []
        lit: int | None = None       # a literal, or TRUE / FALSE
        n, c, gvars = self.n, self.c, self.gvars
        Ek, Lk, ps, vals = self.E[k], self.L[k], self.cpos[k], self.cval[k]
        Ak, fk = self.alive[k], self.first_store[k]
        while True:
            if b == 0 or t >= Lk[b]:
                lit = TRUE
                break
            Eb = Ek[b]
            if t < Eb:
                lit = FALSE
                break
            i = bisect_right(ps, t) - 1
            while vals[i] > b:           # T(b, k) is never at a higher value's position
                i -= 1
            t = ps[i]
            if t < Eb:
                lit = FALSE
                break
            key = (t * (n + 1) + b) * (c + 1) + k     # an int: no tuple per key
            lit = gvars.get(key)
            if lit is not None:
                break
            seen.append(key)
            if fk[b] <= t:
                lit = self.new(("played_by", b, k, t))
                self.pending.append((lit, k, b, t))
                break
            copies = Ak[b]
            j = len(copies) - 1
            while copies[j] > t:
                j -= 1
            b, t = b - 1, copies[j] - 1
        for key in seen:
            gvars[key] = lit
        return lit

    def last_copy_lit(self, k: int, b: int, t: int):
        """T(b-1, k) < q* for the last alive copy q* <= t of (b, k), or FALSE."""
        copies = self.alive[k][b]
        if copies[0] > t:
            return FALSE
        j = len(copies) - 1
        while copies[j] > t:
            j -= 1
        return self.played_by(k, b - 1, copies[j] - 1)

    # F1: one copy per card.
    def copy_variables(self) -> None:
        """``copy`` variables of the storable copies; a single alive copy needs none."""
        alive, skeep, copy_vars = self.alive, self.skeep, self.copy_vars
        for k, a in self.storable_cards:
            if len(alive[k][a]) > 1:
                for q, _ in skeep[k][a]:
                    copy_vars[q] = self.new(("copy", a, k, q))

    def one_copy(self) -> None:
        """A chosen storable copy, or an alive copy after T(a-1, k)."""
        n, N, add, deadline, copy_vars = self.n, self.N, self.add, self.deadline, self.copy_vars
        last_copy_lit = self.last_copy_lit
        for k in range(1, self.c + 1):
            deadline.check(PHASE)
            sk, Ak, Lk = self.skeep[k], self.alive[k], self.L[k]
            for a in range(2, n + 1):
                if not a & EVERY:
                    deadline.check(PHASE)
                lst = sk[a]
                copies = Ak[a]
                if not lst:
                    if copies[-1] <= Lk[a - 1]:      # else T(a-1, k) < last copy surely
                        lit = last_copy_lit(k, a, N)
                        if lit is not TRUE:
                            add([] if lit is FALSE else [lit])
                    continue
                if len(copies) == 1:
                    continue
                seen_lit = last_copy_lit(k, a, N)
                if seen_lit is TRUE:
                    continue
                cl = [copy_vars[q] for q, _ in lst]
                if seen_lit is not FALSE:
                    cl.append(seen_lit)
                add(cl)

    # F3: deadlines.
    def deadlines(self) -> list:
        """A chosen storable copy is released by its deadline; returns the store points
        (positions where a card may be stored)."""
        add, copy_vars, deadline = self.add, self.copy_vars, self.deadline
        stores: list = []
        for i, (k, a) in enumerate(self.storable_cards):
            if not i & EVERY:
                deadline.check(PHASE)
            single = len(self.alive[k][a]) == 1
            Lp = self.L[k][a - 1]
            for q, end in self.skeep[k][a]:
                stores.append(q)
                if end < Lp:
                    lit = self.played_by(k, a - 1, end)
                    if lit is not TRUE:
                        cv = TRUE if single else copy_vars[q]
                        if lit is FALSE:
                            add([-cv] if cv is not TRUE else [])
                        else:
                            add([lit] if cv is TRUE else [-cv, lit])
        return stores

    # F4 clauses, made on demand, and F5 constraints.
    def hand_capacity(self, sets: list, seg_e: list, seg_spec: list) -> None:
        """At most h - (surely held) of each set's ``held`` literals; with ``collect``
        the sets go to ``capacity`` instead.  ``held`` variables exist only for
        segments in a set that can exceed the hand."""
        h, collect, deadline = self.h, self.collect, self.deadline
        seg_lit: list = [None] * len(seg_spec)
        for snap in sets:
            deadline.check(PHASE)
            if len(snap) <= h and not collect:
                continue
            lits, sure = [], 0
            for j in snap:
                lit = seg_lit[j]
                if lit is None:
                    lit = seg_lit[j] = self.held_lit(seg_spec[j], seg_e[j])
                if lit is TRUE:
                    sure += 1
                elif lit is not FALSE:
                    lits.append(lit)
            if collect:
                self.capacity.append((lits, sure))
            else:
                self.ncard += self.at_most(lits, h - sure)

    def held_lit(self, spec: tuple, e: int):
        """The literal "the card is held on the segment [s, e)" and its F4 clauses."""
        k, a, s, act, sure_late = spec
        copy_vars, add = self.copy_vars, self.add
        g = FALSE if sure_late else self.played_by(k, a - 1, s)
        if g is TRUE:
            return FALSE
        if act is None or (len(act) == 1 and act[0] not in copy_vars):
            lit = TRUE if g is FALSE else self.new(("held", a, k, s, e))
            if g is not FALSE:
                add([g, lit])
            return lit
        lit = self.new(("held", a, k, s, e))
        for q in act:
            cl = [-copy_vars[q], lit]
            if g is not FALSE:
                cl.append(g)
            add(cl)
        return lit

    def at_most(self, lits: list, bound: int) -> int:
        """``at_most`` into this CNF; its auxiliary variables are named None."""
        top = self.pool.top
        count = at_most(lits, bound, self.add, self.pool, self.card_encoding, self.card_sizes)
        for _ in range(top, self.pool.top):
            self.names.append(None)
        return count

    # F6: play as soon as possible.
    def play_asap(self) -> None:
        """If T(a-1, k) < q for an alive copy q of (a, k), then T(a, k) <= q."""
        add, played_by = self.add, self.played_by
        for k, a in self.storable_cards:      # played_by aliases the others: implied
            self.deadline.check(PHASE)
            for q in self.alive[k][a]:
                now = played_by(k, a, q)
                if now is TRUE:
                    continue
                before = played_by(k, a - 1, q - 1)
                if before is FALSE or before == now:
                    continue
                if before is TRUE:
                    add([] if now is FALSE else [now])
                else:
                    add([-before] if now is FALSE else [-before, now])

    # F2: the definitions of the played_by variables (made last: every family above
    # creates some, and defining one may create more).
    def define_played_by(self) -> None:
        """v -> played_by(b-1, t), and v -> a chosen storable copy <= t or an alive
        copy <= t after T(b-1, k); with ``propagate`` also the converse."""
        pending, add, copy_vars, skeep = self.pending, self.add, self.copy_vars, self.skeep
        played_by, last_copy_lit, propagate = self.played_by, self.last_copy_lit, self.propagate
        steps = 0
        while pending:
            steps += 1
            if not steps & EVERY:
                self.deadline.check(PHASE)
            v, k, b, t = pending.pop()
            lower = played_by(k, b - 1, t)
            if lower is FALSE:
                add([-v])
                continue
            if lower is not TRUE:
                add([-v, lower])
            seen_lit = last_copy_lit(k, b, t)
            if seen_lit is TRUE:
                continue
            cl: list[int] | None = [-v]
            cvs = []
            for q, _ in skeep[k][b]:
                if q > t:
                    break
                cv = copy_vars.get(q, TRUE)
                if cv is TRUE:
                    cl = None
                    break
                cvs.append(cv)
            if cl is None:
                continue
            cl.extend(cvs)
            if seen_lit is not FALSE:
                cl.append(seen_lit)
            add(cl)
            if propagate:
                lo = [] if lower is TRUE else [-lower]
                for cv in cvs:
                    add(lo + [-cv, v])


def at_most(lits: list, bound: int, add, pool: IDPool, encoding: int, sizes: dict) -> int:
    """Add "at most ``bound`` of ``lits``", auxiliary variables from ``pool``; return
    the number of clauses added.

    >>> pool, out = IDPool(start_from=4), []
    >>> at_most([1, 2, 3], 1, out.append, pool, EncType.seqcounter, {}), out
    (3, [[-1, -2], [-1, -3], [-2, -3]])
    """
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
    # comb(m, j) >= 2**j for j = min(bound + 1, m - bound - 1), which beats 2 m bound
    # once j > 64 (m < 2**31): skipping the comparison then gives the same choice
    # without computing a binomial of 10^5 digits (seconds, uninterruptible).
    if min(bound + 1, m - bound - 1) <= 64 and comb(m, bound + 1) <= 2 * m * bound:
        count = 0
        for sub in combinations(lits, bound + 1):
            add([-x for x in sub])
            count += 1
        return count
    # One unused variable before each counter: the DIMACS of ``hanabi-cp encode``
    # keeps its variable numbers, so files written earlier still compare equal
    # (encodings/cnf.md §8).
    pool.id()
    enc = CardEnc.atmost(lits, bound, vpool=pool, encoding=encoding)
    for cl in enc.clauses:
        add(cl)
    return len(enc.clauses)


def _stats(deck: Deck, nv: int, nc: int, pre: float, build: float, win: Windows) -> dict:
    N = max(deck.N, 1)
    return {"cards": deck.N, "variables": nv, "clauses": nc,
            "variables_per_card": round(nv / N, 3), "clauses_per_card": round(nc / N, 3),
            "preprocess_seconds": round(pre, 6), "build_seconds": round(build, 6),
            **win.stats}
