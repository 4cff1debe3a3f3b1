"""The search's answers (method ``search``): a win or a proof of loss, or the best
score with its evidence, from the position's first dive, the lost-deck reasons and
the rounds of ``LiveSearch.game``; UNKNOWN on the time limit, never a guess."""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable
from contextvars import ContextVar

from ....core.options import SolveOptions
from ....core.status import Status
from ....runtime.deadline import TimeUp, ambient
from ...actions import Action
from ...race import WATCH
from ...reasons import lost_reason, score_bound
from ...referee import Game, typed_clues
from ...solve import LiveOutcome, decided_now
from ...variants.pile_rules import chosen_in_play
from .driver import LiveSearch
from .plans import search_plans
from .stops import Timeout, why_stopped
from .table import Memory

# The tables a caller lends the searches it runs through the portfolio (the
# post-mortem: one per game, ``Memory``); None: each search starts empty.
MEMORY: ContextVar[Memory | None] = ContextVar("search_memory", default=None)


def recursion_needed(start: Game) -> int:
    """The recursion limit a search of the position ``start`` may need: its depth
    grows with the cards and the clue tokens of the game."""
    return 4 * start.deck.N + 4 * (start.rules.clues or 0) + 1000


def search(start: Game, options: SolveOptions) -> LiveOutcome:
    over = decided_now(start, options.maximize)
    if over is not None:
        return over
    # the earlier of its own limit and the command's deadline: a caller that spent
    # part of the limit before this call (the race's set-up) keeps its promise
    left = options.time_limit
    if options.deadline is not None and options.deadline.bounded:
        left = options.deadline.remaining() if left is None else min(left, options.deadline.remaining())
    deadline = None if left is None else time.perf_counter() + left
    if chosen_in_play(start.rules.variant):
        return _with_deep_stack(start, lambda: search_plans(start, options.maximize, deadline))
    return _with_deep_stack(start, lambda: _one_search(start, options, deadline))


def _one_search(start: Game, options: SolveOptions, deadline: float | None) -> LiveOutcome:
    s = LiveSearch(start, deadline, None, MEMORY.get())
    s.watch = WATCH.get()
    with ambient(options.clock()):      # the lost-deck reasons poll it
        out = _maximize(s, start) if options.maximize else _decide(s, start)
    if out.actions is not None and start.rules.alternating_clues:
        out.actions = typed_clues(start, out.actions)
    return out


def _with_deep_stack(start: Game, body: Callable[[], LiveOutcome]) -> LiveOutcome:
    """``body()`` with the recursion limit a search of the position needs and the
    garbage collector off."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, recursion_needed(start)))
    # The search makes no reference cycles, but its tables' millions of tuples
    # trigger the cycle collector again and again: about 8 % of a hard search.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return body()
    finally:
        sys.setrecursionlimit(old)
        if collecting:
            gc.enable()


def _lost(start: Game) -> str | None:
    """A lost-deck reason for the position.  The reasons speak of the deal, and a
    position (reached from its deal by the referee, as every ``Game`` is) of a deal
    that cannot be won cannot be won either: the actions that led to it, then a win
    from it, would win the deal."""
    assert start.tables is not None
    if any(start.tables.down):
        return None     # the reasons read values in pile order: not a reversed suit's
    why = lost_reason(start.deck, start.rules)
    if why is None or start.turn == 0:
        return why
    return f"the deal cannot be won, so no position of a game on it can: {why}"


def _deal_bound(start: Game, floor: int) -> tuple[int, str | None]:
    """The lost-deck reasons' upper bound on the final score of the deal's games
    (``score_bound``), no lower than ``floor``, and its reason; it bounds every
    position of a game on the deal as ``_lost`` says.  (target, None) when the
    clock runs out first: the search's own clock then stops it."""
    assert start.tables is not None
    if any(start.tables.down):
        return start.deck.target, None      # as in ``_lost``
    try:
        bound, why = score_bound(start.deck, start.rules, floor)
    except TimeUp:
        return start.deck.target, None
    if why is None or start.turn == 0:
        return bound, why
    return bound, (f"no game on the deal scores more than {bound}, so no game from a "
                   f"position of one does: {why}")


def _stats(s: LiveSearch) -> dict:
    return {"nodes": s.nodes, "refuted": len(s.tt)}


def _decide(s: LiveSearch, start: Game) -> LiveOutcome:
    # The first dive wins most deals at once; a reason is looked for only after it
    # fails (a reason is a proof, so it never fires where a game wins).
    try:
        game = s.game(s.target, 0, 1)
    except Timeout as stop:
        return LiveOutcome(Status.UNKNOWN, reason=f"{why_stopped(stop)}; undecided", stats=_stats(s))
    if game is not None:
        return LiveOutcome(Status.WINNABLE, game[0], stats=_stats(s))
    why = s.lost = _lost(start)
    if why is not None:
        return LiveOutcome(Status.UNWINNABLE, reason=why, stats=_stats(s))
    try:
        game = None if s.proved else s.game(s.target, 1)
    except Timeout as stop:
        return LiveOutcome(Status.UNKNOWN, reason=f"{why_stopped(stop)}; undecided", stats=_stats(s))
    if game is not None:
        return LiveOutcome(Status.WINNABLE, game[0], stats=_stats(s))
    return LiveOutcome(Status.UNWINNABLE, stats=_stats(s),
                       reason=f"{_searched(s, s.target)}: no complete game wins")


def _maximize(s: LiveSearch, start: Game) -> LiveOutcome:
    best: tuple[list[Action], int] | None = None
    lost: str | None = None         # a reason no game scores more than ``shows``
    shows = s.target - 1
    top = s.bound()
    try:
        # the first dive towards the bound reaches it on most deals: done at once
        best = s.game(top, 0, 1)
        if best is not None:
            if best[1] == s.target:
                return LiveOutcome(Status.WINNABLE, best[0], best[1], stats=_stats(s))
            why = _best_reason(_lost(start), top, shows,
                               f"the upper bound of the position (reach, pace, hand size, "
                               f"the last draws) is {top} of {s.target}")
            return LiveOutcome(Status.UNWINNABLE, best[0], best[1], why, stats=_stats(s))
        best = s.game(0)           # the move order's first game: at once, a lower bound
        assert best is not None, "a game from a position that is not over always exists"
        if best[1] < s.target:
            lost = s.lost = _lost(start)
            if lost:
                top = min(top, s.target - 1)
                if best[1] < top:
                    # a bound below target - 1 proves the best found optimal at once
                    # on most lost deals (encodings/live-search.md, section 3.8)
                    under, short = _deal_bound(start, best[1])
                    if short is not None and under < top:
                        top, lost, shows = under, short, under
        if best[1] < top:
            best = s.game(top) or best
        while best[1] + 1 < top:   # upwards from the best game so far
            got = s.game(best[1] + 1)
            if got is None:
                break
            best = got
    except Timeout as stop:
        if best is None:
            return LiveOutcome(Status.UNKNOWN, reason=f"{why_stopped(stop)} before any game was found",
                               stats=_stats(s))
        return LiveOutcome(Status.UNKNOWN, best[0], best[1],
                           stats={**_stats(s), "upper_bound": top},
                           reason=f"{why_stopped(stop)}: best score found {best[1]}, "
                                  f"upper bound {top} of {s.target}")
    game, score = best
    if score == s.target:
        return LiveOutcome(Status.WINNABLE, game, score, stats=_stats(s))
    reason = _best_reason(lost, score, shows,
                          f"{_searched(s, score + 1)}: no complete game scores more "
                          f"than {score} of {s.target}")
    stats = _stats(s)
    if lost is not None and score == shows < s.target - 1:
        stats["shown_by"] = SHOWN_BY_WAYS       # the proof is the reason, no search
    return LiveOutcome(Status.UNWINNABLE, game, score, reason, stats=stats)


# ``stats["shown_by"]`` of a best score that ``score_bound``'s reason alone proves
SHOWN_BY_WAYS = "the lost-deck reasons' bound on the score"


def _searched(s: LiveSearch, goal: int) -> str:
    """What showed ``goal`` out of reach: the search, and the relaxation at the
    position where it ended the search (the state is back at the position)."""
    how = "exact tokens" if s.root_exact() else "hand size"
    cut = f"; the last draws' relaxation with {how} cuts the position" \
        if s.root_cut_goal == goal else ""
    return f"exhaustive search ({s.nodes:,} states visited{cut})"


def _best_reason(lost: str | None, score: int, shows: int, shown: str) -> str:
    """The evidence for a best score below the target: ``shown`` (the bound or the
    search that proves it), with ``lost``, the deal's reason that no game scores
    more than ``shows`` (a lost-deck reason: the target - 1; ``_deal_bound``'s: its
    bound), which alone is the evidence when ``score`` reaches ``shows``."""
    if not lost:
        return shown
    return lost if score == shows else f"{lost}; {shown}"
