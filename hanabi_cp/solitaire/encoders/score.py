"""The score model over Booleans (encodings/pb-maxsat.md): clauses, at-most-k
constraints and the played cards to count, for pseudo-Boolean (OPB) and MaxSAT
(WCNF) solvers.

The same game as the CP-SAT score model (encodings/cpsat.md §2, SPEC fact 3): one
chosen copy per played card, colors played in prefixes, at most h cards waiting.
Without integers, "waiting" is spelled with two running circuits per color, over
the positions of that color only:

- C(a, k) after position t: "the chosen copy of (a, k) is at or before t"
  (C' = C or x_t when card #t is (a, k), else C stays the same literal);
- D(a, k) after t: "(a, k) has been played by t" (D(a) = D(a-1) and C(a), D(0) true);

and a card (a, k), a >= 2, waits after t exactly when C(a, k) and not D(a-1, k).
The hand grows only when a card is stored, so the capacity "at most h waiting" is
stated after every position that holds a card of value >= 2.  Variables change only
at positions of their color, and constants are folded (nothing is chosen before
its first copy), so the model has O(n N) gate variables and its capacity
constraints O(N x cards) literals: for standard and small decks, not for
reduction images (``too_large`` refuses those in one line).

>>> from hanabi_cp.core.model import Deck
>>> m = build(Deck.of([(2, 1), (1, 1), (3, 1)]), 0)
>>> m.num_vars > 0, len(m.played), m.atmost[-1][1]
(True, 3, 0)
>>> m.decode({v: False for v in range(1, m.num_vars + 1)}).actions   # nothing chosen
'DDD'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ...core.errors import LimitError
from ...core.model import Deck, check_hand
from ..play_sequence import PlaySequence
from .encoding import Encoding, decode_picks

# Literals in the capacity constraints (the model's bulk), estimated before building.
MAX_LITERALS = 20_000_000

TRUE, FALSE = "T", "F"     # folded constants; every other literal is a nonzero int


def size_estimate(deck: Deck) -> int:
    """An upper bound on the capacity constraints' literals: cards x positions."""
    return len(deck.counts) * deck.N if deck.N < 10**6 else deck.N * deck.N


def too_large(deck: Deck) -> str | None:
    """Why the score model of ``deck`` is not built, in one line; None if it is."""
    est = size_estimate(deck)
    if est > MAX_LITERALS:
        return (f"the Boolean score model is quadratic (card kinds x positions = {est:,} "
                f"above {MAX_LITERALS:,})")
    return None


@dataclass(kw_only=True)
class ScoreEncoding(Encoding[tuple, Mapping[int, bool]]):
    """``formula`` is ``(clauses, atmost)``; ``played`` maps each card that can be
    played to its variable (the objective counts the true ones); ``variables``
    maps every copy's position to "copy chosen".  A solution is an assignment
    {variable: bool}."""

    num_vars: int
    played: dict = field(default_factory=dict)

    @property
    def clauses(self) -> list[tuple[int, ...]]:
        return self.formula[0]

    @property
    def atmost(self) -> list[tuple[list[int], int]]:
        """(literals, k): at most k of the literals are true."""
        return self.formula[1]

    def score(self, solution: Mapping[int, bool]) -> int:
        return sum(1 for v in self.played.values() if solution.get(v, False))

    def decode(self, solution: Mapping[int, bool]) -> PlaySequence:
        picks = {q for q, v in self.variables.items() if solution.get(v, False)}
        return decode_picks(self.deck, picks)

    def varmap(self) -> dict:
        out = super().varmap()
        out.update({v: f"played {a}:{k}" for (a, k), v in self.played.items()})
        return dict(sorted(out.items()))


class _Circuit:
    """Fresh variables and the clauses of the gates, with constants folded."""

    def __init__(self) -> None:
        self.top = 0
        self.clauses: list[tuple[int, ...]] = []
        self._memo: dict = {}

    def var(self) -> int:
        self.top += 1
        return self.top

    def OR(self, u, x):
        if u == FALSE:
            return x
        if x == FALSE:
            return u
        if TRUE in (u, x):
            return TRUE
        y = self.var()
        self.clauses += [(-y, u, x), (-u, y), (-x, y)]
        return y

    def AND(self, u, v):
        if FALSE in (u, v):
            return FALSE
        if u == TRUE:
            return v
        if v == TRUE:
            return u
        key = ("and", u, v)
        if key not in self._memo:
            y = self.var()
            self.clauses += [(-y, u), (-y, v), (y, -u, -v)]
            self._memo[key] = y
        return self._memo[key]

    def waiting(self, c, d):
        """C and not D, as a literal (only ever counted, so one direction would do;
        the exact gate keeps every variable a function of the copy choice)."""
        nd = TRUE if d == FALSE else FALSE if d == TRUE else -d
        return self.AND(c, nd)


def build(deck: Deck, h: int) -> ScoreEncoding:
    """The score model of ``deck`` with hand size ``h``."""
    check_hand(h)
    why = too_large(deck)
    if why is not None:
        raise LimitError(why)
    n = deck.n
    copies: dict = {}
    for t, card in enumerate(deck.cards):
        copies.setdefault(card, []).append(t)
    # A card can be played only if every lower value of its color has a copy.  Only
    # the colors the deck has are looped over (c may be far above N).
    colors = sorted({k for _, k in copies})
    top = dict.fromkeys(colors, 0)
    for k in colors:
        while top[k] < n and (top[k] + 1, k) in copies:
            top[k] += 1
    g = _Circuit()
    played: dict = {}
    chosen: dict = {}                     # position -> x variable
    for k in colors:
        for a in range(1, top[k] + 1):
            p = played[(a, k)] = g.var()
            xs = [g.var() for _ in copies[(a, k)]]
            for q, x in zip(copies[(a, k)], xs):
                chosen[q] = x
                g.clauses.append((-x, p))                  # a chosen copy is played
            g.clauses.append((-p, *xs))                    # a played card has a copy
            if a >= 2:
                g.clauses.append((-p, played[(a - 1, k)]))  # colors in order
    atmost: list[tuple[list[int], int]] = [
        (xs, 1) for xs in ([chosen[q] for q in copies[(a, k)]]
                           for (a, k) in played if len(copies[(a, k)]) > 1)]
    # The last position of color k holding a value <= a - 1: after it, a card (a, k)
    # chosen earlier cannot still wait (its predecessor would never be played).
    last_below: dict = {}
    for k in colors:
        last = -1
        for a in range(1, top[k] + 1):
            last_below[(a, k)] = last
            last = max(last, copies[(a, k)][-1])
    C = {k: [FALSE] * (top[k] + 1) for k in colors}
    D = {k: [TRUE] + [FALSE] * top[k] for k in colors}
    waiting: dict = {}                    # (a, k) -> its current "waiting" literal
    previous: list[int] | None = None
    for t, (b, k) in enumerate(deck.cards):
        if b > top[k]:
            continue                      # never played: discarded in every game
        Ck, Dk = C[k], D[k]
        Ck[b] = g.OR(Ck[b], chosen[t])
        for a in range(b, top[k] + 1):
            d = g.AND(Dk[a - 1], Ck[a])
            if d == Dk[a] and a > b:
                break
            Dk[a] = d
        # C(b) and D(b..) may have changed: the waits of (b, k) and above.
        for a in range(max(b, 2), top[k] + 1):
            waiting[(a, k)] = g.waiting(Ck[a], Dk[a - 1])
        if b < 2:
            continue                      # a value 1 is never stored
        now = sorted(lit for (a, kk), lit in waiting.items()
                     if lit not in (FALSE, TRUE) and last_below[(a, kk)] > t)
        if len(now) > h and now != previous:
            atmost.append((now, h))
            previous = now
    return ScoreEncoding(deck=deck, h=h, formula=(g.clauses, atmost), num_vars=g.top,
                         variables=chosen, played=played,
                         stats={"variables": g.top, "clauses": len(g.clauses),
                                "atmost": len(atmost),
                                "atmost_literals": sum(len(l) for l, _ in atmost)})
