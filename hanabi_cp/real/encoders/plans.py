"""Up or Down and Sudoku in the encodings (``sat``, ``cpsat``): one encoding per pile
plan (encodings/variants.md, 8.5, "The encodings").

Each plan's game is encoded on the deck renamed by heights: a card's value is its
height in its pile's planned order (``Plan.height``), a dead card (Up or Down: the
rank the order leaves out) the value n + 1, which no pile takes (its play is never
a success).  A clue touches by the real card (the encodings read the position's
own tables) and the decoded game is replayed on the real position, so only the
piles are renamed.  The forbidden plays (``Plan.forbid_rule``: pile k at height
h, and in Sudoku pile j still empty) are the encodings' clauses on their
"reached" literals.  The plans go by their caps' bound (``plans_by_bound``), and
the first plan whose encoding has a model wins: a plan whose caps are below the
target has no winning game (a win plays a copy of every planned card).

A win needs no early end (a real early end before the win leaves some planned
next card with every copy lost, or out of every hand with a turn left, so that
plan's game cannot win either); the best score reads hanab.live's ends on the real
piles as an end of each plan's encoding (``real_next``, and for a speedrun
``real_rests``): in Up or Down its max score, in Sudoku "nothing still needed can
be played", which its max score reached implies (encodings/variants.md, 8.5).

>>> from hanabi_cp.real.rules import Rules
>>> from hanabi_cp.real.variants.catalogue import variant
>>> from hanabi_cp.real.pile_plans import Plan
>>> up = variant("Up or Down (5 Suits)")
>>> g = Game.start(Deck.of([(5, 1), (6, 1), (4, 1), (1, 1)], 6, 1), Rules.for_players(2, hand_size=1, variant=up))
>>> str(plan_deck(g, Plan(up, ((5, 4, 3, 2, 1),))))     # down from 5: START is dead (6)
'1:1 6:1 2:1 5:1'
>>> forbidden_plays(g, Plan(up, ((5, 4, 3, 2, 1),)))    # START or the 1 on the empty pile
[(1, 0, 0, -1), (3, 0, 0, -1)]
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator

from ...core.status import Status
from ...core.model import Deck
from ...runtime.deadline import TimeUp
from ..hint import greedy_game
from .pile_needs import PileNeeds
from ..pile_plans import NEVER, Plan, copies_left, order_cap, plan_count, plans_by_bound, plans_from
from ..variants.pile_rules import next_values, orders
from ..referee import Game
from .schedule import DISCARD, PLAY, ZERO_ENDS, first_legal_game
from ..solve import LiveOutcome


class PlanGame(PileNeeds):
    """Mixin of ``LiveCnf`` and ``LiveCpModel``: a pile plan's game in either
    encoding, which differ only in how a literal is negated (``_not``) and how a
    clause is added (``_clause_of``)."""

    start: Game
    deck: Deck
    top: int                # the value that completes a pile
    fate: dict
    at: dict

    def _clause_of(self, lits: list) -> None:
        raise NotImplementedError

    def _take_plan(self, plan: Plan | None, maximize: bool) -> None:
        """The deck and pile size the encoding builds on: the position's, or with
        ``plan`` the deck renamed by heights, and for the best score the cards the
        real rules take at each height (the early ends on the real piles)."""
        self.deck, self.top = self.start.deck, self.start.deck.n
        if plan is not None:
            self.deck, self.top = plan_deck(self.start, plan), plan.n
            if maximize:
                self.real_next = real_next(self.start, plan)
                self.real_rests = real_rests(self.start, plan)

    def _plan(self, plan: Plan) -> None:
        """A pile plan's game (encodings/variants.md, 8.5): a dead card (value top + 1)
        is never a success, and a play the plan forbids is no move: card i does not
        leave as a play at slot k while its pile stands at height h there (reached h,
        not h + 1) and pile j is empty (j < 0: always)."""
        for i in self.lay.live:
            if self.deck.cards[i].value > self.top:
                self._clause_of([self._not(self.fate[i][PLAY])])
        for i, pile, h, j in forbidden_plays(self.start, plan):
            c = pile + 1
            for k, x in self.at.get(i, {}).items():
                at_h = [self._not(self.reached[(h, c)][k])] if h else []
                above = [self.reached[(h + 1, c)][k]] if h < self.top else []
                empty = [self.reached[(1, j + 1)][k]] if j >= 0 else []
                self._clause_of([self._not(x), self.fate[i][DISCARD], *at_h, *above, *empty])


def plan_deck(start: Game, plan: Plan) -> Deck:
    """The position's deck with each card renamed by its height in the plan (a dead
    card: n + 1); the deck keeps its size and the value range of the real deck."""
    v, n = plan.variant, plan.n
    cards = []
    for a, k in start.deck.cards:
        h = plan.height(k - 1, v.live_rank(a))
        cards.append((h if h else n + 1, k))
    return Deck.of(cards, start.deck.n, start.deck.c)


def forbidden_plays(start: Game, plan: Plan) -> list[tuple[int, int, int, int]]:
    """(card, pile, h, j) per card still held or in the deck whose play is forbidden
    when the pile (0-based) stands at height h and (j < 0, or pile j is empty)."""
    v, gone = plan.variant, set(start.lost_cards)
    out = []
    for i, (a, k) in enumerate(start.deck.cards):
        if i in gone:
            continue
        rule = plan.forbid_rule(k - 1, v.live_rank(a))
        if rule != NEVER:
            out.append((i, k - 1, *rule))
    return out


# (at, c, values): when each pile c' (1-based) of ``at`` stands at height h' at the
# game's end, pile c takes the renamed ``values`` next under the real rules
Needs = list[tuple[tuple[tuple[int, int], ...], int, list[int]]]


def real_next(start: Game, plan: Plan) -> Needs:
    """The cards the real rules take next on each pile, by the heights the piles end
    at (8.5, "The best score"), renamed as ``plan_deck`` renames the deck.  Up or
    Down: pile k at height h (from the position's up to n - 1) takes the ranks that
    follow the plan's first h cards on any order (the real rules read that pile
    only); hanab.live's max score equals the score exactly when every copy of each
    of them is lost.  Sudoku: a started pile takes the plan's next card; an empty
    pile k a first value v no started pile holds, and in the plan's game only the
    pile j planned to begin with v can hold it, so (k, v) is needed while piles k
    and j are both empty (v never planned first: while k is)."""
    v, n = plan.variant, plan.n
    out: Needs = []
    for k, order in enumerate(plan.orders):
        for h in range(start.piles[k], n):
            if v.up_or_down:
                takes = next_values(v, (order[:h],), 0)
                out.append((((k + 1, h),), k + 1,
                            sorted(plan.height(k, r) or n + 1 for r in takes)))
            elif h:
                out.append((((k + 1, h),), k + 1, [h + 1]))
            else:
                out.extend(_first_needs(start, plan, k))
    return out


def _first_needs(start: Game, plan: Plan, k: int) -> Needs:
    """Sudoku: ``real_next``'s entries of pile k, empty at the position."""
    firsts = {o[0]: j for j, o in enumerate(plan.orders)}
    out: Needs = []
    for r in range(1, plan.n + 1):
        j = firsts.get(r, -1)
        if j >= 0 and start.piles[j]:
            continue                    # a started pile holds r: no empty pile takes it
        at = ((k + 1, 0),) + (((j + 1, 0),) if j not in (-1, k) else ())
        out.append((at, k + 1, [plan.height(k, r)]))
    return out


def real_rests(start: Game, plan: Plan) -> dict[tuple[int, int], list[list[int]]]:
    """Per pile c (1-based) and height h from the position's up to n - 1, for each
    complete order the pile may still follow when it holds the plan's first h cards
    (``orders``; in Sudoku, an empty pile's every order), the renamed values of that
    order's cards after the h-th: in a speedrun, the pile's part of hanab.live's
    count is n exactly when one of them has a copy of each left (8.5; in Sudoku,
    when no kind of its suit is dead, as every order of an empty pile takes every
    rank)."""
    v, n = plan.variant, plan.n
    out = {}
    for k, order in enumerate(plan.orders):
        for h in range(start.piles[k], n):
            out[(k + 1, h)] = [[plan.height(k, r) or n + 1 for r in o[h:]]
                               for o in orders(v, order[:h])]
    return out


def start_plans(start: Game) -> Iterator[tuple[int, Plan]]:
    """The plans extending the position's piles, each with its caps' sum (the copies
    not lost count): first those the greedy game's piles follow (the encodings'
    hint, ``real.hint``: when it wins, its one plan's encoding has the hint as a
    model) whose caps reach the target, then the others, highest sum first."""
    v = start.chosen
    assert v is not None
    left, _ = copies_left(start)
    end = start.copy()
    for act in greedy_game(start):
        end.apply(act)
    first = []
    for plan in plans_from(v, end.played):
        bound = sum(order_cap(o, k, left) for k, o in enumerate(plan.orders))
        if bound >= start.target:
            first.append((bound, plan))
            yield bound, plan
    tried = {plan.orders for _, plan in first}
    for bound, plan in plans_by_bound(v, start.played, left):
        if plan.orders not in tried:
            yield bound, plan


def by_plans(start: Game, method: str,
             decide: Callable[[Plan], LiveOutcome]) -> LiveOutcome:
    """Whether the position can be won: ``decide`` (a win of one plan's encoding, or
    a proof that it has none, or UNKNOWN) on each plan whose caps reach the target,
    best first, until one wins."""
    v = start.chosen
    assert v is not None
    total, tried, target = plan_count(v, start.played), 0, start.target
    stats: dict = {"plans": total}
    try:
        for bound, plan in start_plans(start):
            if bound < target:
                break
            out = decide(plan)
            tried += 1
            stats = {**out.stats, "plans": total, "plans_encoded": tried}
            if out.status is Status.WINNABLE:
                out.stats = stats
                return out
            if out.status is Status.UNKNOWN:
                return LiveOutcome(Status.UNKNOWN, stats=stats,
                                   reason=f"{out.reason} ({tried - 1} of {total} pile "
                                          f"plans' encodings refuted)")
    except TimeUp as exc:
        return LiveOutcome(Status.UNKNOWN, stats=stats, reason=f"{exc} ({tried} of {total} "
                                                               f"pile plans' encodings refuted)")
    stats["plans_encoded"] = tried
    rest = total - tried
    return LiveOutcome(Status.UNWINNABLE, stats=stats,
                       reason=f"{method}: no pile plan's game wins: {tried} of the {total} "
                              f"plans' encodings have no model" + (
                                  "" if not rest else f", the other {rest} plans' caps are "
                                  f"below the target {target}"))


def best_by_plans(start: Game, method: str,
                  climb: Callable[[Plan, int], LiveOutcome]) -> LiveOutcome:
    """The best score, the best over the plans' games (8.5).  ``climb(plan,
    floor)``: the best game of the plan's encoding scoring above ``floor`` (its
    score and actions), or an outcome without a score when none does, or UNKNOWN.
    A plan whose caps' sum is at most the best score found is skipped: its game
    cannot score more, nor can the plans after it; so is one whose ``late_cap`` is."""
    v = start.chosen
    assert v is not None
    total, tried, target = plan_count(v, start.played), 0, start.target
    best: LiveOutcome | None = None
    floor, late = -1, 0
    stats: dict = {"plans": total}
    first = copies_left(start)[1]
    try:
        for bound, plan in start_plans(start):
            if bound <= floor:
                break
            if floor >= 0 and late_cap(start, plan, first) <= floor:
                late += 1
                continue
            out = climb(plan, floor)
            tried += 1
            stats = {**out.stats, "plans": total, "plans_encoded": tried}
            if out.status is Status.UNKNOWN:
                return _unknown(best, stats, f"{out.reason} ({tried - 1} of {total} pile "
                                             f"plans' encodings decided)")
            if out.score is not None and out.score > floor:
                best, floor = out, out.score
                if floor == target:
                    break
    except TimeUp as exc:
        return _unknown(best, stats, f"{exc} ({tried} of {total} pile plans' encodings "
                                     f"decided)")
    stats.update(plans_encoded=tried, plans_late=late)
    if best is None:
        # no plan's game has a complete game that does not strike out (each encoding
        # is encoded: no caps' sum is at most -1)
        return LiveOutcome(Status.UNWINNABLE, first_legal_game(start), 0, stats=stats,
                           reason=f"{method}: in every pile plan's game every complete "
                                  f"game {ZERO_ENDS[start.rules.speedrun]}")
    assert best.actions is not None and best.score is not None
    if best.score == target:
        return LiveOutcome(Status.WINNABLE, best.actions, best.score, stats=stats)
    rest = total - tried - late
    return LiveOutcome(Status.UNWINNABLE, best.actions, best.score, stats=stats,
                       reason=f"{method}: no pile plan's game scores more than {best.score} "
                              f"of {target}: {tried} of the {total} plans' encodings have "
                              f"no model above it" + (
                                  "" if not late else f", {late} plans' cards come too "
                                  f"late in the deck for more") + (
                                  "" if not rest else f", the other {rest} plans' caps are "
                                  f"at most {best.score}"))


def late_cap(start: Game, plan: Plan, first: dict[tuple[int, int], int]) -> int:
    """An upper bound on the score of the plan's game, by when the deck deals its
    cards (``pile_plans.late_plays``' gates, for one plan and any score): a card of a
    planned order is played only after a copy of it and of each card below it was
    drawn (its gate: the latest of their first copies not lost, ``first``), and at
    most N - 1 - P + ``after_last`` plays follow the draw of deck position P.  The
    cards on the piles and those held (gate below the draw pile) count; of the
    others, the most that keep every P's count within its plays are those of the
    lowest gates (a pile's gates only grow along its order, so they are its first
    cards): the largest m whose m lowest gates fit (encodings/variants.md, 8.5,
    "The plans' loop and its bounds")."""
    from ..methods.search.state import after_last
    room = start.deck.N - 1 + after_last(start.rules)
    held, gates = 0, []
    for k, order in enumerate(plan.orders):
        gate = -1
        for r in order[start.piles[k]:]:
            at = first.get((k, r))
            if at is None:
                break                   # every copy lost: the pile stops below it
            gate = max(gate, at)
            if gate < start.drawn:
                held += 1
            else:
                gates.append(gate)
    gates.sort()
    fit = 0
    # the m lowest gates fit when, for each of them, those gated at it or later
    # (m - bisect_left) are at most the plays after its draw
    while fit < len(gates) and all(fit + 1 - bisect_left(gates, g) <= room - g
                                   for g in gates[:fit + 1]):
        fit += 1
    return sum(start.piles) + held + fit


def _unknown(best: LiveOutcome | None, stats: dict, reason: str) -> LiveOutcome:
    if best is None:
        return LiveOutcome(Status.UNKNOWN, stats=stats, reason=reason)
    return LiveOutcome(Status.UNKNOWN, best.actions, best.score, stats=stats,
                       reason=f"{reason}, best score found {best.score}")
