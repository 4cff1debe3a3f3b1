"""A position's best score when the position before it bounds it.

Along a game the best score never rises, so the previous position's best ``upper``
bounds this one's: where the action kept it (the common case: a bot rarely follows
the previous certificate move for move, and rarely loses a point), one game that
reaches ``upper`` decides the position, and the search finds such a game in a few
milliseconds where its best-score climb must also show that no game scores
``upper + 1`` (hundreds of milliseconds in a bot game's middle, bench/postmortem.py).
Below the first level found out of reach one more is asked (a drop of one point is
the common drop), then the caller's best-score solve decides.  (The deal's reasons,
``deal_bounds``, are not asked here: a few milliseconds per position, where the
search's own bound of the deal settles most drops.)
"""

from __future__ import annotations

from ...core.status import Status
from ...runtime.deadline import Deadline
from ..older_games import under_today
from ..referee import Game
from ..solve import LiveOutcome, certify_live
from .alternatives import UNDECIDED, by_sat, reaches

# The levels found out of reach before the best-score solve takes over.
LEVELS = 2
# The part of a position's time these questions may take: the rest is the
# best-score solve's, which then decides every position it decided without them.
BELOW_SHARE = 0.05
# CaDiCaL's part of it, where the search leaves the first level open.
SAT_SHARE = 0.2


def best_below(g: Game, upper: int | None, method: str, deadline: Deadline,
               sat: Deadline | None = None) -> LiveOutcome | None:
    """The best score of ``g`` given that no game from it scores more than ``upper``,
    with its certificate (replayed by the referee), or None where this does not
    decide it (then the position is solved as any other).  ``sat``: under
    ``auto``, CaDiCaL's time for the first level where the search leaves it."""
    if upper is None or g.over or method not in ("auto", "search") or g.chosen is not None:
        return None
    h = under_today(g)
    # no pile passes its first value with every copy lost: hanab.live's max score
    # bounds the best too, and where the action lost such a copy it is often the best
    goal, noes = min(upper, g.max_reachable), 0
    while noes < LEVELS and goal >= 0:
        # the search alone, under ``auto`` too (``reaches`` would give a long share
        # to CaDiCaL): its quick games are the point, the portfolio comes after
        rest, by = reaches(h, goal, "search", deadline), "search"
        if rest is UNDECIDED and sat is not None and not noes and method == "auto":
            # the previous best, which the search did not reach in its share: a game
            # it misses CaDiCaL often finds in a second, where the portfolio would
            # give the search a first share again before its SAT stage
            rest, by = by_sat(h, goal, sat), "sat"
        if rest is UNDECIDED:
            return None
        if rest is None:
            noes += 1
            goal -= 1
            continue
        assert isinstance(rest, list)
        status = Status.WINNABLE if goal >= h.target else Status.UNWINNABLE
        why = f"no action raises the best score, and no game scores {goal + 1} or more"
        out = LiveOutcome(status, rest, goal, None if status is Status.WINNABLE else why,
                          method=by)
        return certify_live(h, out)
    return None
