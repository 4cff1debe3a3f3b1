"""Method "dp": the general-case dynamic program of journal §4, Theorem 4.2.

DP[s, H, p_1..p_{c-1}] is the largest number of cards of color c playable over the
first s cards while having played exactly p_i cards of color i < c and holding
exactly the set H (|H| <= h).  With (a, k) the s-th card, DP = max(D, S, P):

- D (discard): DP[s-1, H, p];
- S (store):   DP[s-1, H - {(a, k)}, p] if (a, k) in H, else -inf (the journal's
  rule; the conference version's test |H| >= h is wrong);
- P (play):    for k < c and a <= p_k, DP[s-1, H + {(a+1, k)..(p_k, k)}, p with
  p_k = a-1]; for k = c, the largest a+t with DP[s-1, H + {(a+1, c)..(a+t, c)}, p]
  = a-1.

Won iff DP[N, {}, n, .., n] = n.  The table is kept as one dict per column s of its
finite entries, keyed by an int (H as a bit set over the n*c cards, p_1..p_{c-1} as
digits base n+1 above it), filled forward from column s-1: each finite entry of
column s-1 is the source of the D, S and P terms above.

Entries that can never reach H = {} are not stored: a held card (b, k) with
b <= p_k + 1 (already played, or playable and not played) is never removed again,
because a play of color k from the deck has value p_k + 1 and removes only values
above it.  So S adds (a, k) only when a >= p_k + 2, and P removes the whole run
(a+1, k), (a+2, k), ... from H, as the referee's cascade does; a shorter run, or a
run overlapping the H that remains, leaves such a card in H.

Before filling, ``table_bound`` counts the entries that can exist (per column: the
hands of at most h cards already seen, with values >= p_k + 2, times the
prefix-complete p vectors); over ENTRY_LIMIT the method refuses rather than exhaust
memory.  Every column is kept to backtrack a play sequence from the final entry.

>>> from hanabi_cp.core.model import Deck
>>> d = Deck.of([(2, 1), (1, 2), (1, 1), (2, 2), (2, 1)])
>>> dp(d, 1).plays.actions, dp(d, 0).plays.actions
('SPPPD', 'DPPPP')
>>> out = dp(Deck.of([(3, 1), (2, 1), (1, 1)]), 1, maximize=True)
>>> out.status.value, out.score, out.plays.actions
('UNWINNABLE', 2, 'DSP')
"""

from __future__ import annotations

from math import comb, lgamma, log, log10

from ...runtime.deadline import NEVER, Deadline
from ...core.errors import LimitError, SolverBug
from ...runtime.limits import effective_hand
from ...core.model import Deck
from ..play_sequence import DISCARD, PLAY, STORE, PlaySequence
from ..solve import Method, Outcome
from ...core.options import SolveOptions
from ...core.status import Status

ENTRY_LIMIT = 3_000_000     # stored table entries, all columns together (~100 bytes each)
# Bits of one table key (the hand over n c cards, then p_1..p_{c-1} in base n + 1),
# and of the c - 1 digit weights: their sizes grow as c^2, so a deck with millions
# of colors must be refused before them.  A standard deck takes 37 bits.
KEY_BITS_LIMIT = 16_384
BOUND_SAMPLES = 256         # columns at which table_bound evaluates its count


def paper_bound(deck: Deck, h: int) -> int:
    """The journal's table size N * sum_{i<=h} C(nc, i) * (n+1)^(c-1).

    Exact, so only for small decks; messages use :func:`paper_bound_text`.
    """
    cards = deck.n * deck.c
    hands = sum(comb(cards, i) for i in range(min(h, cards) + 1))
    return deck.N * hands * (deck.n + 1) ** max(deck.c - 1, 0)


def _log10_paper_bound(deck: Deck, h: int) -> float:
    """log10 of :func:`paper_bound` within about 0.3, without big integers."""
    cards, t = deck.n * deck.c, min(h, deck.n * deck.c)
    if 2 * t >= cards:                         # sum of C(cards, i), i <= t: 2^(cards-1)..2^cards
        hands = cards * log10(2)
    else:                                      # C(cards, t) <= sum <= 2 C(cards, t) here
        hands = (lgamma(cards + 1) - lgamma(t + 1) - lgamma(cards - t + 1)) / log(10)
    return log10(max(deck.N, 1)) + hands + max(deck.c - 1, 0) * log10(deck.n + 1)


def paper_bound_text(deck: Deck, h: int) -> str:
    """The journal's table size for messages: exact below 10^12, else its magnitude.

    >>> from hanabi_cp.apps.generators import standard_deck
    >>> paper_bound_text(standard_deck(1), 1), paper_bound_text(standard_deck(1), 10**9)
    ('1,684,800', 'about 10^12')
    """
    h = effective_hand(h, deck.N)
    if deck.N == 0 or _log10_paper_bound(deck, h) < 11:
        return f"{paper_bound(deck, h):,}"
    return f"about 10^{_log10_paper_bound(deck, h):.0f}"


def _sat_add(x: int, y: int, cap: int | None) -> int:
    return x + y if cap is None else min(x + y, cap + 1)


def _color_poly(K: int, top: int, h: int, cap: int | None) -> list[int] | None:
    """sum over p = 0..top of C(m_p, d), d = 0..h: the hands of color k by size.

    m_p, the seen values >= p + 2, is K for the two largest p and K + j for
    p = top - 1 - j (values 1..top are seen and top + 1 is not), so the sum over
    p is K's term (once if top = 0, else twice) plus a hockey-stick sum.
    None if the sum exceeds ``cap``.
    """
    deg = min(h, K + max(top - 1, 0))
    poly = []
    total = 0
    for d in range(deg + 1):
        v = comb(K, d) * (2 if top >= 1 else 1)
        if top >= 2:                           # sum_{i=K+1}^{K+top-1} C(i, d)
            v += comb(K + top, d + 1) - comb(K + 1, d + 1)
        poly.append(v)
        total += v
        if cap is not None and total > cap:
            return None
    return poly


def _column_count(h: int, colors: list[tuple[int, int]], cap: int | None = None) -> int | None:
    """Entries possible after some prefix: for color k < c, p_k ranges over
    0..top_k (the complete prefix of values seen) and the hand may hold seen values
    >= p_k + 2; color c's hand cards are seen values >= 2 (top = 0).  ``colors``
    holds (K, top) per color, K = seen values >= top + 2.  Past ``cap`` the count
    stops early and returns None: every partial product is at most the count,
    because each color's polynomial has a constant term >= 1."""
    total = [1]                                # polynomial in x = hand size
    for K, top in colors:
        poly = _color_poly(K, top, h, cap)
        if poly is None:
            return None
        if len(poly) == 1 and poly[0] == 1:
            continue
        size = min(h, len(total) + len(poly) - 2) + 1
        nxt = [0] * size
        for i, x in enumerate(total):
            if x:
                for d, y in enumerate(poly[:size - i]):
                    nxt[i + d] = _sat_add(nxt[i + d], x * y, cap)
        total = nxt
        if cap is not None and sum(total) > cap:
            return None
    return sum(total)


def table_bound(deck: Deck, h: int, stop_at: int | None = None) -> int:
    """An upper bound on the entries dp stores (all columns), at most ``stop_at``
    plus one column's worth once that is exceeded.  Per-column counts never
    decrease with s, so a block of columns is bounded by its last column."""
    c, N = deck.c, deck.N
    if c == 0 or N == 0:
        return N + 1
    if stop_at is not None and stop_at < N + 1:
        return N + 1                           # at least one entry per column
    h = effective_hand(h, N)                   # no hand holds more than the deck
    # Per color seen so far (a color without a card adds a factor 1): its values,
    # and the complete prefix 1..top of them.
    seen: dict[int, set[int]] = {}
    complete: dict[int, int] = {}
    step = max(1, -(-N // BOUND_SAMPLES))
    total, s = 1, 0
    while s < N:
        end = min(N, s + step)
        for a, k in deck.cards[s:end]:
            values = seen.setdefault(k, set())
            values.add(a)
            top = complete.get(k, 0)
            while top + 1 in values:
                top += 1
            complete[k] = top
        # K = seen values >= top + 2: all seen values but 1..top (top + 1 is unseen);
        # color c is never played by a p, so its top is 0 and K its values >= 2.
        colors = [(len(seen[k]) - complete[k], complete[k]) if k < c else
                  (len(seen[k]) - (1 in seen[k]), 0) for k in sorted(seen)]
        count = _column_count(h, colors, stop_at)
        if count is None:                      # past stop_at (only given one)
            return total + (end - s) * (1 + (stop_at or 0))
        total += (end - s) * count
        s = end
        if stop_at is not None and total > stop_at:
            break
    return total


def key_bits(deck: Deck) -> int:
    """Bits of a table key: n c for the hand, (c - 1) digits of p in base n + 1."""
    return deck.n * deck.c + max(deck.c - 1, 0) * deck.n.bit_length()


def _too_large(deck: Deck, h: int) -> str | None:
    """Why the table would not fit, or None."""
    if key_bits(deck) > KEY_BITS_LIMIT:
        return (f"a dp table key would take {key_bits(deck):,} bits (n c + (c-1) log2(n+1); "
                f"limit {KEY_BITS_LIMIT:,}); use sat or cpsat")
    bound = table_bound(deck, h, stop_at=ENTRY_LIMIT)
    if bound > ENTRY_LIMIT:
        return (f"the dp table may need more than {bound:,} entries (limit "
                f"{ENTRY_LIMIT:,}; the journal's bound: {paper_bound_text(deck, h)}); "
                f"use sat or cpsat")
    return None


def _refuses(deck: Deck, h: int) -> str | None:
    if deck.c == 0 or deck.missing():
        return None                            # decided without a table
    return _too_large(deck, h)


def dp(deck: Deck, h: int, deadline: Deadline = NEVER, maximize: bool = False) -> Outcome:
    """Decide (deck, h), or with ``maximize`` find the best score and a play
    reaching it; TimeUp once ``deadline`` passes.  A deck missing a card is lost
    without a table unless the score is asked for."""
    missing = deck.missing()
    if missing and deck.c and not maximize:
        more = f" ({len(missing)} cards missing)" if len(missing) > 1 else ""
        return Outcome(Status.UNWINNABLE, reason=f"card {missing[0]} has no copy in the deck{more}",
                       stats={"entries": 0})
    if missing and deck.c:                     # maximize: the table is needed after all
        why = _too_large(deck, h)
        if why is not None:
            raise LimitError(f"dp: {why}")
    score, actions, entries, widest = _fill(deck, h, deadline)
    stats = {"entries": entries, "widest_column": widest,
             "paper_bound": paper_bound_text(deck, h)}
    plays = PlaySequence(actions)
    if score == deck.target:
        return Outcome(Status.WINNABLE, plays, stats=stats, score=score if maximize else None)
    reason = (f"dynamic program: DP[N, {{}}, n, .., n] < n; at most {score} of "
              f"{deck.target} cards can be played")
    if missing:
        reason = f"card {missing[0]} has no copy in the deck; " + reason
    return Outcome(Status.UNWINNABLE, plays if maximize else None, reason,
                   stats=stats, score=score if maximize else None)


def _fill(deck: Deck, h: int, deadline: Deadline) -> tuple[int, str, int, int]:
    """Fill the table and backtrack from the best final entry (the win if any):
    the score, its actions, the entries stored and the widest column."""
    n, c, N = deck.n, deck.c, deck.N
    if c == 0 or n == 0:
        return 0, DISCARD * N, 0, 0
    nc = n * c
    W = n + 1
    hand_mask = (1 << nc) - 1
    weight = [0] + [W ** (k - 1) for k in range(1, c)]      # digit of p_k, k < c

    def bit(a: int, k: int) -> int:
        return 1 << ((k - 1) * n + (a - 1))

    def run_end(H: int, a: int, k: int) -> tuple[int, int]:
        """Play (a, k) with hand H: the level reached and the hand after the cascade."""
        while a < n and H & bit(a + 1, k):
            H &= ~bit(a + 1, k)
            a += 1
        return a, H

    columns = [{0: 0}]
    entries = widest = 1
    for a, k in deck.cards:
        deadline.check("the dynamic program")   # a column costs O(its entries)
        old = columns[-1]
        new = dict(old)                                      # D
        b = bit(a, k)
        if k < c:
            wk = weight[k]
            for key, v in old.items():
                H = key & hand_mask
                pk = (key >> nc) // wk % W
                if pk == a - 1:                              # P
                    q, H2 = run_end(H, a, k)
                    nk = H2 | (((key >> nc) + (q - pk) * wk) << nc)
                elif a >= pk + 2 and not H & b and H.bit_count() < h:   # S
                    nk = key | b
                else:
                    continue
                if new.get(nk, -1) < v:
                    new[nk] = v
        else:
            for key, v in old.items():
                H = key & hand_mask
                if v == a - 1:                               # P, color c
                    q, H2 = run_end(H, a, k)
                    nk, nv = (key & ~hand_mask) | H2, q
                elif a >= v + 2 and not H & b and H.bit_count() < h:    # S
                    nk, nv = key | b, v
                else:
                    continue
                if new.get(nk, -1) < nv:
                    new[nk] = nv
        columns.append(new)
        entries += len(new)
        widest = max(widest, len(new))

    full = sum(n * weight[k] for k in range(1, c)) << nc
    final = columns[-1]
    if final.get(full, -1) == n:
        key, score = full, n * c
    else:
        def played(item):
            key, v = item
            p = key >> nc
            return v + sum(p // weight[k] % W for k in range(1, c))
        key, v = max(final.items(), key=played)
        score = played((key, v))
    actions = _backtrack(deck, h, columns, key, final[key], bit, weight, nc, W)
    return score, actions, entries, widest


def _backtrack(deck, h, columns, key, v, bit, weight, nc, W) -> str:
    """Walk back from (key, v) in column N, choosing at each s a term of the
    recurrence whose source entry in column s-1 has exactly the required value."""
    n, c = deck.n, deck.c
    hand_mask = (1 << nc) - 1
    actions = []
    for s in range(deck.N, 0, -1):
        a, k = deck.cards[s - 1]
        col = columns[s - 1]
        H = key & hand_mask
        b = bit(a, k)
        pk = v if k == c else (key >> nc) // weight[k] % W
        if col.get(key) == v:
            actions.append(DISCARD)
            continue
        if H & b and a >= pk + 2 and col.get(key ^ b) == v:
            # a >= pk + 2 held after s, and p_k is unchanged by a store: legal then.
            actions.append(STORE)
            key ^= b
            continue
        # P: the run (a+1..pk, k) came out of the hand, and the cascade stopped at pk.
        if pk < a:
            raise SolverBug(f"dp backtrack: no term of the recurrence explains column {s}")
        run = 0
        for x in range(a + 1, pk + 1):
            run |= bit(x, k)
        if H & run or (pk < n and H & bit(pk + 1, k)):
            raise SolverBug(f"dp backtrack: column {s} holds an entry no cascade yields")
        if k == c:
            src, sv = key | run, a - 1
        else:
            src, sv = (key | run) - ((pk - a + 1) * weight[k] << nc), v
        if col.get(src) != sv:
            raise SolverBug(f"dp backtrack: the play term of column {s} has no source")
        actions.append(PLAY)
        key, v = src, sv
    if key != 0 or v != 0:
        raise SolverBug("dp backtrack did not end at the empty start entry")
    return "".join(reversed(actions))


def run(deck: Deck, h: int, options: SolveOptions) -> Outcome:
    return dp(deck, h, options.clock(), options.maximize)


METHOD = Method("dp", run, "general case: dynamic program over (s, hand, levels) "
                "(Theorem 4.2), exact, exponential in h and c", refuses=_refuses,
                maximizes=True)
