"""Method "cpsat": Solitaire Hanabi as an OR-Tools CP-SAT model (encodings/cpsat.md).

The model follows SPEC fact 3, not a positions x cards time grid: per card (a, k)
the chosen copy p(a, k) and the play time T(a, k) = max(p(a, k), T(a-1, k)); the
card is in the hand over the interval [p, T), and cumulative constraints keep at
most h such intervals open after every position (only over the groups of cards
that could ever overflow the hand at a store point).  A scanned copy q of (a, k) is
then discarded (not chosen), played (chosen, q > T(a-1, k)) or stored (chosen,
q < T(a-1, k)).

Two models:

- ``build_decide`` asks for a win.  It starts from ``windows.analyse`` (dead copies,
  earliest/latest play times, deadlines), which may already prove the deck lost.
- ``build_maximize`` asks for the largest score.  The win-only pruning of
  ``analyse`` would be unsound here (it kills copies a win cannot use, but a
  partial game may use them), so it has a ``played`` flag per card, prefix-closed
  per color, and optional hold intervals.

>>> from hanabi_cp.model import Deck
>>> m = build_decide(Deck.of([(2, 1), (1, 1), (3, 1)]), 1)
>>> m.solve(SolveOptions()).plays.actions
'SPP'
>>> build_decide(Deck.of([(3, 1), (2, 1), (1, 1)]), 1).solve(SolveOptions()).status
<Status.UNWINNABLE: 'UNWINNABLE'>
>>> m = build_maximize(Deck.of([(2, 1), (3, 1), (1, 1)]), 1)
>>> out = m.solve(SolveOptions(maximize=True))
>>> out.score, out.plays.actions
(2, 'SDP')
"""

from __future__ import annotations

import time
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..deadline import EVERY, NEVER, Deadline, TimeUp
from ..errors import SolverBug
from ..model import Deck, check_hand
from ..nogc import without_gc
from ..plays import PlaySequence, play_out
from ..solvers import Method, Outcome, SolveOptions, Status, register
from ..analysis import analyse
from .residual import RESIDUAL_FROM_CARDS

if TYPE_CHECKING:
    from ortools.sat.python import cp_model


def _ortools():
    """OR-Tools, imported on first use: it pulls in numpy and pandas (half a second),
    which every other command and method can do without."""
    from ortools.sat.python import cp_model
    from ortools.util.python.sorted_interval_list import Domain
    return cp_model, Domain


@dataclass
class HanabiModel:
    """A CP-SAT model of (deck, h) with the variables the decoder reads.

    ``decided`` is set (with ``reason``) when building already settled the
    question, e.g. preprocessing proved the deck lost; ``model`` is then None.
    """

    deck: Deck
    h: int
    maximize: bool
    model: cp_model.CpModel | None
    copy_vars: dict = field(default_factory=dict)   # (a, k, q) -> BoolVar, or True if forced
    played: dict = field(default_factory=dict)      # (a, k) -> BoolVar (maximize only)
    decided: Status | None = None
    reason: str | None = None
    stats: dict = field(default_factory=dict)
    # The decoder of a model over other variables (cpsat_residual): value(var) -> plays.
    decode: Callable[[Callable[[int], bool]], PlaySequence] | None = None

    def picks(self, value) -> set:
        """Positions of the chosen copies, given ``value(var) -> int``."""
        return {q for (_, _, q), v in self.copy_vars.items() if v is True or value(v)}

    def solve(self, options: SolveOptions, deadline: Deadline | None = None) -> Outcome:
        """Run CP-SAT until it decides or ``deadline`` (default ``options.clock()``)."""
        stats = dict(self.stats)
        if self.decided is not None:
            return Outcome(self.decided, reason=self.reason, stats=stats)
        deadline = options.clock() if deadline is None else deadline
        # What went into the model itself (the residual model: only its proto).
        built = stats.get("proto_seconds",
                          stats.get("build_seconds", 0.0) - stats.get("preprocess_seconds", 0.0))
        if deadline.remaining() <= LOAD_RATIO * built:
            out = Outcome(Status.UNKNOWN, reason=str(TimeUp(deadline.limit, SEARCH)),
                          stats=stats)
            return with_greedy_bound(self.deck, self.h, out) if self.maximize else out
        cp_model, _ = _ortools()
        solver = cp_model.CpSolver()
        configure(solver, options, deadline)
        t0 = time.perf_counter()
        assert self.model is not None      # None only when building decided the question
        code = solver.solve(self.model)
        stats.update({"solve_seconds": round(time.perf_counter() - t0, 6),
                      "cpsat_status": solver.status_name(code),
                      "cpsat_wall_seconds": round(solver.wall_time, 6),
                      "cpsat_branches": solver.num_branches,
                      "cpsat_conflicts": solver.num_conflicts})
        return (self._maximize_outcome if self.maximize else self._decide_outcome)(
            solver, code, options, stats)

    def _decide_outcome(self, solver, code, options, stats) -> Outcome:
        cp_model, _ = _ortools()
        if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            plays = self.decode(solver.boolean_value) if self.decode is not None else \
                decode_picks(self.deck, self.picks(solver.boolean_value))
            return Outcome(Status.WINNABLE, plays, stats=stats)
        if code == cp_model.INFEASIBLE:
            return Outcome(Status.UNWINNABLE, reason="CP-SAT: infeasible (no choice of one "
                           "copy per card keeps the hand within h)", stats=stats)
        return self._unknown(code, options, stats)

    def _maximize_outcome(self, solver, code, options, stats) -> Outcome:
        cp_model, _ = _ortools()
        if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            plays = decode_picks(self.deck, self.picks(solver.boolean_value))
            score = sum(solver.boolean_value(v) for v in self.played.values())
            target = self.deck.target
            bound = int(round(solver.best_objective_bound))
            stats["objective_bound"] = bound
            if score == target:
                return Outcome(Status.WINNABLE, plays, score=score, stats=stats)
            if code == cp_model.OPTIMAL:
                return Outcome(Status.UNWINNABLE, plays, score=score, stats=stats,
                               reason=f"CP-SAT: at most {score} of {target} cards can be "
                                      f"played (proved optimal)")
            return Outcome(Status.UNKNOWN, plays, score=score, stats=stats,
                           reason=f"{_time_up(options)}: best score found {score}, "
                                  f"upper bound {bound} of {target}")
        if code == cp_model.INFEASIBLE:
            # Playing nothing is always feasible: this is our bug, not the user's.
            raise SolverBug("cpsat: the maximize model is infeasible")
        return with_greedy_bound(self.deck, self.h, self._unknown(code, options, stats))

    def _unknown(self, code, options, stats) -> Outcome:
        cp_model, _ = _ortools()
        if code == cp_model.UNKNOWN:
            return Outcome(Status.UNKNOWN, reason=_time_up(options), stats=stats)
        if code == cp_model.MODEL_INVALID:
            assert self.model is not None  # CP-SAT only reports on a model it was given
            return Outcome(Status.UNKNOWN, reason="CP-SAT rejected the model: "
                           + (self.model.validate() or "no reason given"), stats=stats)
        raise SolverBug(f"cpsat: unexpected CP-SAT status {code!r}")


SEARCH = "CP-SAT search"
# CP-SAT looks at its time limit only between its own phases, and loading a model
# takes about LOAD_RATIO times what Python took to build it (0.27-0.37 measured on
# reduction images of 10^5 cards; bench.time_limits), uninterruptibly.  With less
# time left than that, CP-SAT would stop right after loading, UNKNOWN, having
# overrun the limit by seconds: the method answers UNKNOWN at once instead.
LOAD_RATIO = 0.25
BUILD = "building the CP-SAT model"


def _time_up(options: SolveOptions) -> str:
    return str(TimeUp(options.clock().limit, SEARCH))


def with_greedy_bound(deck: Deck, h: int, out: Outcome) -> Outcome:
    """A maximize outcome without a solution still gets a verified lower bound: the
    greedy game (linear time, so also affordable once the time limit has passed)."""
    picks = greedy_picks(deck, h)
    out.plays, out.score = decode_picks(deck, picks), len(picks)
    out.reason = f"{out.reason}; a greedy game plays {len(picks)} of {deck.target} cards"
    return out


def configure(solver: cp_model.CpSolver, options: SolveOptions,
              deadline: Deadline = NEVER) -> None:
    """Every solver parameter the method sets, in one place."""
    p = solver.parameters
    p.num_workers = max(1, options.workers)
    p.random_seed = options.seed
    # The models are small and propagation-driven: presolve, probing, symmetry
    # detection and LP relaxations cost more than they save (measured by
    # bench/encoders.py: median solve 13 ms -> 1.4 ms on standard decks, h = 4,
    # and 4x less on random r = 2 decks; see encodings/cpsat.md).
    p.cp_model_presolve = False
    p.cp_model_probing_level = 0
    p.symmetry_level = 0
    p.linearization_level = 0
    # CP-SAT would otherwise take SIGINT for itself and return its best answer so far
    # as if the search had ended; Ctrl-C must end the command, not shape its answer.
    p.catch_sigint_signal = False
    # What is left of the command's time, not the whole limit: building and
    # preprocessing have used some of it already.
    if deadline.bounded:
        p.max_time_in_seconds = max(deadline.remaining(), 0.0)
    elif options.time_limit is not None:
        p.max_time_in_seconds = float(options.time_limit)


def decode_picks(deck: Deck, picks) -> PlaySequence:
    """Actions for a set of chosen positions: play a chosen card when playable, else
    store it; discard every other card.  Stored cards leave the hand by cascade."""
    return play_out(deck.cards, deck.c, picks.__contains__, picks.__contains__)


def _sizes(deck: Deck, model: cp_model.CpModel, t0: float) -> dict:
    proto = model.Proto()
    nv, nc, N = len(proto.variables), len(proto.constraints), max(deck.N, 1)
    return {"cards": deck.N, "variables": nv, "constraints": nc,
            "variables_per_card": round(nv / N, 3), "constraints_per_card": round(nc / N, 3),
            "build_seconds": round(time.perf_counter() - t0, 6)}


def build_decide(deck: Deck, h: int, windows=None, deadline: Deadline = NEVER) -> HanabiModel:
    """The win model: one copy per card, T chains, hold intervals, capacity h."""
    check_hand(h)
    t0 = time.perf_counter()
    win = windows if windows is not None else analyse(deck, h, deadline=deadline)
    pre = {"preprocess_seconds": round(time.perf_counter() - t0, 6), **win.stats}
    if win.reason is not None:
        return HanabiModel(deck, h, False, None, decided=Status.UNWINNABLE,
                           reason=win.reason, stats=pre)
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
                return HanabiModel(deck, h, False, None, decided=Status.UNWINNABLE, stats=pre,
                                   reason=f"card {a}:{k}: no alive copy lets it be played "
                                          f"between card #{E[k][a] + 1} and card #{L[k][a] + 1}")
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
    stats = {**pre, **_sizes(deck, m, t0), "hold_intervals": len(intervals),
             "capacity_groups": len(groups),
             "constrained_intervals": sum(len(g) for g in groups)}
    return HanabiModel(deck, h, False, m, copy_vars, stats=stats)


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


def build_maximize(deck: Deck, h: int, deadline: Deadline = NEVER) -> HanabiModel:
    """The score model: played flags, prefix-closed per color; no win-only pruning."""
    check_hand(h)
    t0 = time.perf_counter()
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
    stats = {**_sizes(deck, m, t0), "hold_intervals": len(intervals)}
    return HanabiModel(deck, h, True, m, copy_vars, played, stats=stats)


# From RESIDUAL_FROM_CARDS cards on, the decision model is the residual of the
# compact CNF (cpsat_residual.py): on reduction images it has the formula's size,
# where the interval model above grows with the deck (20-33 s on a uf50 image
# against 2-3 s for "sat").  Below it the interval model costs milliseconds and,
# being a second encoding, keeps the harness's cross-check of "sat" and "cpsat"
# independent.


@without_gc
def run(deck: Deck, h: int, options: SolveOptions) -> Outcome:
    deadline = options.clock()
    large = deck.N >= RESIDUAL_FROM_CARDS
    if not options.maximize:
        if large:
            from .cpsat_residual import build_residual
            return build_residual(deck, h, deadline).solve(options, deadline)
        return build_decide(deck, h, deadline=deadline).solve(options, deadline)
    try:
        if large:
            # A win is a largest score: decide first, on the formula-sized model; the
            # score model (one interval per card, no pruning) only for a lost deck.
            from .cpsat_residual import build_residual
            won = build_residual(deck, h, deadline).solve(options, deadline)
            if won.status is Status.WINNABLE:
                won.score = deck.target
                return won
        return build_maximize(deck, h, deadline).solve(options, deadline)
    except TimeUp as exc:
        return with_greedy_bound(deck, h, Outcome(Status.UNKNOWN, reason=str(exc)))


register(Method("cpsat", run, "OR-Tools CP-SAT: one copy per card, play-time chains, "
                "hold intervals under cumulatives of capacity h; --maximize for the score",
                maximizes=True, prepare=_ortools))
