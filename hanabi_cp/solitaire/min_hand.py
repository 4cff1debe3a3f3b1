"""The least hand size that wins a deck, with a certificate and evidence below it.

``min_hand(deck, method)`` dispatches on ``MIN_HAND``: "sat" builds one CNF (hold
windows from the analysis at an upper bound H, which stays sound for every h <= H
because a win with a smaller hand is also a win with H) with a totalizer per
capacity set, and asks the same incremental solver "at most h" for h = lower bound,
lower bound + 1, ... through assumptions.  Any other method is a binary search
over ``solitaire.solve.solve`` with it.  Every reported certificate is replayed.

``options.time_limit`` (or ``options.deadline``) bounds the whole search, every h
together; when it runs out, ``min_hand`` raises ``deadline.TimeUp``: a least hand
size is only reported once it is proved.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ..runtime.deadline import TimeUp
from ..core.errors import MethodRefused, SolverBug
from ..core.model import Deck
from .play_sequence import PlaySequence, play_out
from ..core.options import SolveOptions
from ..core.registry import Registry
from ..core.status import Status
from .solve import solve
from .referee import replay


@dataclass
class MinHand:
    """The least winning hand size ``h``, a win with it (``plays``) and why
    ``h - 1`` does not win (``below``).

    >>> from hanabi_cp.core.model import Deck
    >>> least = min_hand(Deck.of([(2, 1), (3, 1), (1, 1)]))
    >>> least.h, str(least.plays), least.below
    (2, 'SSP', 'every win holds 2 cards after some position')
    """

    h: int | None                  # least winning hand size; None if no h wins
    plays: PlaySequence | None     # a win with hand size h (replayed)
    below: str | None              # why h - 1 does not win (or why nothing wins)
    method: str
    stats: dict = field(default_factory=dict)
    undecided: str | None = None   # why nothing was proved (the time ran out)

    @classmethod
    def timed_out(cls, method: str, reason: str) -> MinHand:
        """No least hand size: the search stopped (``reason``) before one was proved."""
        return cls(None, None, None, method, undecided=reason)

    @property
    def verdict(self) -> str:
        """MIN-HAND (``h`` wins, ``h - 1`` does not), UNWINNABLE or UNKNOWN."""
        if self.undecided is not None:
            return Status.UNKNOWN.value
        return Status.UNWINNABLE.value if self.h is None else "MIN-HAND"

    @property
    def exit_code(self) -> int:
        """As ``solve``'s: 10 when a least hand size is found, 20 none wins, 0 unknown."""
        if self.undecided is not None:
            return Status.UNKNOWN.exit_code
        return Status.UNWINNABLE.exit_code if self.h is None else Status.WINNABLE.exit_code

    def smaller_loses(self) -> str:
        """Why ``h - 1`` does not win, without the "h = H - 1: " that ``below`` may
        begin with (the line that shows it names h - 1 already)."""
        why = self.below or "no reason recorded"
        return why.removeprefix(f"h = {self.h - 1}: ") if self.h else why

    def to_json(self) -> dict:
        return {"min_hand": self.h, "plays": None if self.plays is None else self.plays.actions,
                "below": self.below, "method": self.method, "stats": self.stats,
                "status": self.verdict} \
            | ({} if self.undecided is None else {"reason": self.undecided})


def first_copy_bound(deck: Deck) -> tuple[int, PlaySequence]:
    """Hand size used by "play or store the first copy of every card": an upper bound.

    The referee measures the largest hand the sequence uses, so the bound is only
    as trusted as the referee, which every certificate goes through anyway.
    """
    first: dict = {}
    for t, card in enumerate(deck.cards):
        first.setdefault(card, t)
    keep = set(first.values())
    plays = play_out(deck.cards, deck.c, keep.__contains__, keep.__contains__)
    return replay(deck, deck.N, plays).max_hand, plays


def _checked(deck: Deck, h: int, plays: PlaySequence | None, who: str) -> PlaySequence:
    if plays is None:
        raise SolverBug(f"{who}: min-hand for h = {h} without a play sequence")
    rep = replay(deck, h, plays)
    if not rep.won:
        raise SolverBug(f"{who}: min-hand certificate for h = {h} rejected: {rep.error}")
    return plays


def min_hand_sat(deck: Deck, options: SolveOptions, max_hand: int | None = None) -> MinHand:
    from pysat.card import ITotalizer

    from .encoders.cnf import build
    from ..solvers.sat_backend import SatSession, built_whole, check_solver
    from .preprocessing import analyse

    deadline = options.clock()
    solver = check_solver(options.solver)
    t0 = time.perf_counter()
    missing = deck.missing()
    if missing:
        return MinHand(None, None, f"card {missing[0]} has no copy: no hand size wins", "sat")
    H, plays = first_copy_bound(deck)
    _checked(deck, H, plays, "first-copy bound")
    if max_hand is not None and max_hand < H:
        H = max_hand
    win = analyse(deck, H, deadline=deadline)
    if win.reason is not None:
        return MinHand(None, None, f"not winnable with hand {H}: {win.reason}", "sat")
    lb = max(win.forced, default=0)
    enc = build(deck, H, windows=win, collect=True, deadline=deadline)
    top = enc.num_vars
    clauses = list(enc.clauses)
    totals = []                   # (rhs literals, surely held) per capacity set
    for lits, sure in enc.capacity:
        deadline.check("building the min-hand totalizers")
        if len(lits) + sure <= lb:
            continue
        tot = built_whole(ITotalizer, lits, ubound=max(0, H - sure) + 1, top_id=top)
        top = tot.top_id
        clauses.extend(tot.cnf.clauses)
        totals.append((tot.rhs, sure))
    stats = {"upper_bound": H, "lower_bound": lb, "variables": top, "clauses": len(clauses),
             "build_seconds": round(time.perf_counter() - t0, 6), "calls": 0}
    below = f"every win holds {lb} cards after some position" if lb else None
    with SatSession(clauses, solver, deadline) as s:
        for h in range(lb, H + 1):
            top += 1
            sel = top
            for rhs, sure in totals:
                j = h - sure
                if j < 0:
                    s.add_clause([-sel])
                elif j < len(rhs):
                    s.add_clause([-sel, -rhs[j]])
            stats["calls"] += 1
            ok, model, _ = s.solve([sel], phase=f"SAT search at h = {h}")
            if ok:
                stats["seconds"] = round(time.perf_counter() - t0, 6)
                return MinHand(h, enc.decode(model), below, "sat", stats)
            below = f"h = {h}: SAT solver: unsatisfiable"
    if max_hand is not None and max_hand == H:
        return MinHand(None, None, f"no hand size up to {max_hand} wins ({below})", "sat", stats)
    raise SolverBug(f"sat min-hand: the first-copy play wins with {H} but the CNF says no")


def min_hand_search(deck: Deck, method: str, options: SolveOptions,
                    max_hand: int | None = None) -> MinHand:
    """Binary search over h with any decision method (all calls share one deadline)."""
    deadline = options.clock()
    options = replace(options, deadline=deadline)

    def decide(h: int):
        out = solve(deck, h, method, options)
        if out.status is Status.UNKNOWN:
            if deadline.expired():
                raise TimeUp(deadline.limit, f"deciding h = {h} with {method}")
            raise MethodRefused(f"min-hand: {method} could not decide h = {h}: {out.reason}")
        return out

    missing = deck.missing()
    if missing:
        return MinHand(None, None, f"card {missing[0]} has no copy: no hand size wins", method)
    plays: PlaySequence | None
    best: tuple[int, PlaySequence | None]
    H, plays = first_copy_bound(deck)
    best, below = (H, plays), None
    if max_hand is not None and max_hand < H:
        out = decide(max_hand)
        if out.status is not Status.WINNABLE:
            return MinHand(None, None, f"h = {max_hand}: {out.reason}", method)
        H, best = max_hand, (max_hand, out.plays)
    lo, hi, calls = 0, H, 0        # invariant: hi wins, everything below lo loses
    while lo < hi:
        mid = (lo + hi) // 2
        out = decide(mid)
        calls += 1
        if out.status is Status.WINNABLE:
            hi, best = mid, (mid, out.plays)
        else:
            lo, below = mid + 1, (mid, out.reason)
    h = hi
    plays = best[1] if best[0] == h else None
    why = below[1] if below and below[0] == h - 1 else None
    if h > 0 and why is None and below is not None:
        out = solve(deck, h - 1, method, options)
        # h is proved either way (a loss at below[0] >= h - 1 is a loss at h - 1);
        # only the wording of the evidence needs the extra call.
        why = out.reason if out.status is Status.UNWINNABLE else \
            f"h = {below[0]} does not win, so no smaller hand does: {below[1]}"
    return MinHand(h, plays, why if h > 0 else None, method, {"calls": calls})


# The methods with a least-hand search of their own: (deck, options, max_hand) -> MinHand.
MIN_HAND: Registry[Callable[[Deck, SolveOptions, int | None], MinHand]] = Registry(
    "least-hand search", [("sat", "hanabi_cp.solitaire.min_hand:min_hand_sat")])


def min_hand(deck: Deck, method: str = "sat", options: SolveOptions | None = None,
             max_hand: int | None = None) -> MinHand:
    """The least hand size that wins ``deck``, found with ``method``; its certificate
    replayed by the referee here, whichever search found it (a rejected one is a
    SolverBug)."""
    options = options or SolveOptions()
    if method in MIN_HAND:
        least = MIN_HAND.load(method)(deck, options, max_hand)
    else:
        least = min_hand_search(deck, method, options, max_hand)
    if least.h is not None:
        _checked(deck, least.h, least.plays, least.method)
    return least
