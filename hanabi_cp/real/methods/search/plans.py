"""Up or Down and Sudoku: the search of each pile plan's game, whose best is the
real game's (``pile_plans``, encodings/variants.md, 8.5)."""

from __future__ import annotations

from collections.abc import Iterator

from ....core.errors import SolverBug
from ....core.status import Status
from ...actions import Action
from ...pile_plans import Plan, copies_left, late_plays, plan_count, plans_by_bound
from ...race import WATCH
from ...referee import Game
from ...solve import LiveOutcome
from .driver import LiveSearch
from .state import after_last
from .stops import Timeout, why_stopped


def start_plans(start: Game) -> Iterator[tuple[int, Plan]]:
    """The plans of the position (``pile_plans``), each with its piles' caps as a
    first upper bound, highest first (``plans_by_bound``)."""
    v = start.chosen
    assert v is not None
    left, first = copies_left(start)
    never = start.deck.N
    # per pile, per rank: the deck position of its first copy not lost
    firsts: list[dict[int, int]] = [{} for _ in start.played]
    for (k, r), o in first.items():
        firsts[k][r] = o

    def late(k: int, order: tuple[int, ...]) -> int:
        # per height, when the deck has dealt a copy of each card up to it: how long
        # the order keeps its pile waiting (every order of a Sudoku pile takes the
        # same cards, and a heuristic's total of them would tie every plan)
        mine = firsts[k]
        at, total = 0, 0
        for r in order:
            o = mine.get(r, never)
            if o > at:
                at = o
            total += at
        return total
    return plans_by_bound(v, start.played, left, late)


def _late_plays(start: Game) -> str | None:
    """The reason no plan's game wins by one bound over every plan
    (``pile_plans.late_plays``), or None."""
    v = start.chosen
    assert v is not None
    got = late_plays(v, start.played, copies_left(start)[1], start.drawn, start.deck.N,
                     after_last(start.rules))
    if got is None:
        return None
    at, must, turns = got
    return (f"no pile plan's game wins: whichever order each pile takes, {must} of the "
            f"cards still to play can only be played once deck card #{at} is drawn, and "
            f"at most {turns} plays follow that draw")


def search_plans(start: Game, maximize: bool, deadline: float | None) -> LiveOutcome:
    """Up or Down and Sudoku: the search of each pile plan's game, whose best is the
    real game's (encodings/variants.md, 8.5).  The plans go in the order of their
    caps' bound, highest first, twice: a first pass dives into each (the search's
    first DIVE_ROUNDS rounds of limited discrepancy, which find most games at once
    but prove little), a second searches each to the end.  A plan whose bound (the
    caps', then the search's at the position) is not above the best score found so
    far (or below the target, without ``maximize``) cannot give a better game and is
    not searched: once the next plan's caps are not above it, no plan is."""
    v = start.chosen
    assert v is not None
    target = start.target
    total = plan_count(v, start.played)
    best: tuple[list[Action], int] | None = None
    searched, dived, nodes, refuted = 0, 0, 0, 0
    floor = -1 if maximize else target - 1      # a game must score above it
    todo: list[tuple[int, Plan]] = []            # the second pass's plans
    # the bound over every plan (``_late_plays``), asked once a first plan did not win
    checked, tried = maximize, False
    for dive in (True, False):
        for cap, plan in (start_plans(start) if dive else todo):
            if cap <= floor:
                break
            if tried and not checked:
                checked, late = True, _late_plays(start)
                if late is not None:
                    return LiveOutcome(Status.UNWINNABLE, reason=late, stats={
                        "plans": total, "plans_dived": dived, "plans_searched": 0,
                        "nodes": nodes})
            tried = True
            s = LiveSearch(start, deadline, plan)
            s.watch = WATCH.get()
            try:
                top = s.bound()
                if top > floor:
                    searched += not dive
                    dived += dive
                    got = _plan_best(s, floor + 1, top, maximize, dive)
                    if got is not None:
                        best, floor = got, got[1]
                    # after the dive, a plan is done once a game reaches its bound,
                    # or (deciding a win) once its rounds prove none wins
                    done = got is not None and got[1] >= top \
                        or not maximize and got is None and s.proved
                    if dive and not done:
                        todo.append((cap, plan))
            except Timeout as stop:
                stats = {"plans": total, "plans_dived": dived, "plans_searched": searched,
                         "upper_bound": max(floor, cap), "nodes": nodes + s.nodes}
                return LiveOutcome(Status.UNKNOWN, None if best is None else best[0],
                                   None if best is None else best[1], stats=stats,
                                   reason=f"{why_stopped(stop)}: {searched} of {total} pile plans "
                                          f"searched to the end" + (
                                              "" if best is None else
                                              f", best score found {best[1]}"))
            nodes += s.nodes
            refuted += len(s.tt)
            if best is not None and best[1] == target:
                break
        if best is not None and best[1] == target:
            break
    stats = {"plans": total, "plans_dived": dived, "plans_searched": searched, "nodes": nodes,
             "refuted": refuted}
    if best is not None and best[1] == target:
        return LiveOutcome(Status.WINNABLE, best[0], best[1] if maximize else None, stats=stats)
    how = (f"exhaustive search of the {total} pile plans' games ({searched} searched to "
           f"the end, the others' bounds too low or their first rounds a proof; {nodes:,} "
           f"states visited)")
    if not maximize and not tried:
        # the best caps (the first plan's) fall short: so does every plan's
        top = next(start_plans(start), (0, None))[0]
        return LiveOutcome(Status.UNWINNABLE, stats=stats, reason=(
            f"no pile plan reaches {target}: the best of the {total} plans can play at "
            f"most {top} cards (each pile stops below its first card with every copy lost)"))
    if not maximize:
        return LiveOutcome(Status.UNWINNABLE, stats=stats, reason=f"{how}: no complete game wins")
    if best is None:
        raise SolverBug("no pile plan's game has a complete game from a position that is not over")
    return LiveOutcome(Status.UNWINNABLE, best[0], best[1], stats=stats,
                       reason=f"{how}: no complete game scores more than {best[1]} of {target}")


DIVE_ROUNDS = 2     # ``search_plans``'s first pass: the search's rounds of budget 0 and 1


def _plan_best(s: LiveSearch, goal: int, top: int, maximize: bool,
               dive: bool = False) -> tuple[list[Action], int] | None:
    """The best game of one plan's game scoring at least ``goal`` (without
    ``maximize``: a win), or None: a dive to its bound first, then upwards.  With
    ``dive``, only the first DIVE_ROUNDS rounds towards the bound (``s.proved`` then
    says whether a None is a proof that no game reaches it)."""
    if dive:
        return s.game(top if maximize else s.target, 0, DIVE_ROUNDS)
    if not maximize:
        return s.game(s.target)
    got = s.game(top, 0, 1)
    if got is None:
        got = s.game(goal)
    while got is not None and got[1] < top:
        more = s.game(got[1] + 1)
        if more is None:
            break
        got = more
    return got
