"""Pile plans: Up or Down and Sudoku as the exact methods play them
(encodings/variants.md, 8.5).

A **plan** fixes one complete order per pile, extending what the pile holds
(``pile_rules.plans``). Its **plan game** is the real game in which each card is
named by its height in its pile's planned order (``Plan.height``; in Up or Down the
one card of a suit that the order leaves out is *dead*: never playable), with one
rule more: a play that the real rules accept but that is not the plan's next card
of that pile is **forbidden** (the move does not exist). Every other play that is
not the pile's next card in the plan is a misplay, as in the real game. The plan
game ends exactly where the real game would (its ends are read on the real state:
the server's max score, ``pile_score``, and the cards the real rules accept). Then the plan game's complete
games are the real games that follow the plan, action for action with the same
score, and every real game follows some plan: the best real score is the best over
the plans.

Forbidden plays only happen while a pile's order is undecided, and each card's is a
fixed condition (``Plan.forbid_rule``): its pile at one height, and in Sudoku another
pile still empty.

>>> from hanabi_cp.real.variants.catalogue import START, variant
>>> up = variant("Up or Down (5 Suits)")
>>> plan = Plan(up, ((START, 2, 3, 4, 5), (5, 4, 3, 2, 1)))
>>> [plan.height(0, r) for r in (START, 1, 2, 5)], [plan.height(1, r) for r in (5, 1, START)]
([1, 0, 2, 5], [1, 5, 0])
>>> plan.forbid_rule(0, 1), plan.forbid_rule(0, 5), plan.forbid_rule(0, 4), plan.forbid_rule(0, 3)
((0, -1), (0, -1), (1, -1), (-1, -1))
>>> su = variant("Sudoku (5 Suits)")
>>> Plan(su, ((3, 4, 5, 1, 2), (1, 2, 3, 4, 5))).forbid_rule(0, 1)    # while pile 1 is empty
(0, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from bisect import bisect_left
from heapq import heappop, heappush
from itertools import permutations
from math import perm
from operator import getitem

from .variants.pile_rules import Played, next_values, orders, plans
from .variants.catalogue import Variant

TYPE_CHECKING = False             # (typing is not imported for it: see hanabi_cp/__init__.py)
if TYPE_CHECKING:
    from .referee import Game

DEAD = 0           # the height of a card no height of its pile's planned order takes
NEVER = (-1, -1)   # ``forbid_rule`` of a card whose play is never forbidden
SPAN = 1 << 30     # above any sum of ``plans_by_bound``'s lateness (deck positions)


@dataclass(frozen=True)
class Plan:
    """One complete order (real ranks) per pile."""

    variant: Variant
    orders: tuple[Played, ...]

    @property
    def n(self) -> int:
        return self.variant.stack_size

    @cached_property
    def _heights(self) -> tuple[dict[int, int], ...]:
        # per pile, rank -> height: a search's tables ask each card's (once per plan)
        return tuple({r: h for h, r in enumerate(o, 1)} for o in self.orders)

    @cached_property
    def _first_at(self) -> dict[int, int]:
        # per first value of a planned order, the first pile whose order begins so
        got: dict[int, int] = {}
        for j, o in enumerate(self.orders):
            got.setdefault(o[0], j)
        return got

    def height(self, k: int, rank: int) -> int:
        """The height (1..n) at which pile k takes a card of ``rank`` in the plan,
        or DEAD."""
        return self._heights[k].get(rank, DEAD)

    def piles_at(self, heights: Sequence[int]) -> tuple[Played, ...]:
        """The piles' real contents when they stand at these heights of the plan."""
        return tuple(o[:h] for o, h in zip(self.orders, heights))

    def forbidden(self, heights: Sequence[int], k: int, rank: int) -> bool:
        """Whether playing a card of ``rank`` on pile k is forbidden with the piles at
        these heights: the real rules accept it, and it is not the plan's next card
        (the definition, straight from pile_rules)."""
        h = heights[k]
        if h >= self.n:
            return False
        return rank in next_values(self.variant, self.piles_at(heights), k) \
            and rank != self.orders[k][h]

    def forbid_rule(self, k: int, rank: int) -> tuple[int, int]:
        """(h, j): a card of ``rank`` on pile k is forbidden exactly when pile k is at
        height h and (j < 0 or pile j is empty); NEVER if never.  In Up or Down only
        the pile's own height matters (the real rules read one pile); in Sudoku only
        an empty pile accepts a card that is not its planned next, and it accepts
        ``rank`` unless another pile began with it, which in a plan game only the
        pile j whose planned order begins with it can (j = -1: none does)."""
        v = self.variant
        if v.sudoku:
            if self.height(k, rank) == 1:
                return NEVER
            j = self._first_at.get(rank, -1)
            if j == k:      # (a plan's first values differ: not with pile k's own)
                j = next((j for j, o in enumerate(self.orders) if o[0] == rank and j != k), -1)
            return 0, j
        return _one_pile_rule(v, self.orders[k], rank)

    def alternatives(self, k: int) -> list[tuple[int, Played]]:
        """Every complete order of pile k (for Sudoku ignoring the other piles) that
        begins as the planned one does up to some height, with that height: pile k
        may still follow it in the real game while it stands no higher."""
        v, mine = self.variant, self.orders[k]
        key = (v.up_or_down, v.stack_size, mine)
        got = _ALTERNATIVES.get(key)
        if got is None:
            got = _ALTERNATIVES[key] = tuple(_alternatives(orders(v, ()), mine))
        return list(got)


# ``Plan.alternatives`` by what it reads (Up or Down?, stack size, the planned order):
# a search asks it per pile of every plan it tries, and a Variant hashes slowly
_ALTERNATIVES: dict[tuple[bool, int, Played], tuple[tuple[int, Played], ...]] = {}


def _alternatives(every: Sequence[Played], mine: Played) -> Iterator[tuple[int, Played]]:
    for o in every:
        same = 0
        while same < len(mine) and o[same] == mine[same]:
            same += 1
        yield same, o


_ONE_PILE: dict[tuple[int, Played, int], tuple[int, int]] = {}


def _one_pile_rule(v: Variant, order: Played, rank: int) -> tuple[int, int]:
    """``Plan.forbid_rule`` in Up or Down, where it turns on the pile's own order only
    (cached: a search builds the rules of every card of every plan it tries; by the
    stack size, all an Up or Down pile's rules read, as a Variant hashes slowly)."""
    key = (v.stack_size, order, rank)
    got = _ONE_PILE.get(key)
    if got is None:
        plan = Plan(v, (order,))
        hs = [h for h in range(v.stack_size) if plan.forbidden([h], 0, rank)]
        assert len(hs) <= 1, (order, rank, hs)
        got = _ONE_PILE[key] = (hs[0], -1) if hs else NEVER
    return got


def plans_from(v: Variant, played: Sequence[Played]) -> list[Plan]:
    """Every plan extending the piles' contents (``pile_rules.plans``)."""
    return [Plan(v, p) for p in plans(v, tuple(played))]


def plan_count(v: Variant, played: Sequence[Played]) -> int:
    """How many plans extend the piles (``plans_from``'s length, without listing the
    4^c of Up or Down)."""
    if v.sudoku:
        free = sum(1 for p in played if not p)
        return perm(v.stack_size - (len(played) - free), free)
    count = 1
    for p in played:
        count *= len(orders(v, p))
    return count


def order_cap(order: Played, k: int, left: dict[tuple[int, int], int]) -> int:
    """How many of pile k's ``order``, from its first rank, each have a copy not lost
    (``left[(pile, rank)]``: copies dealt and not lost)."""
    h = 0
    while h < len(order) and left.get((k, order[h]), 0) > 0:
        h += 1
    return h


def plans_by_bound(v: Variant, played: Sequence[Played], left: dict[tuple[int, int], int],
                   late: Callable[[int, Played], int] = lambda k, o: 0,
                   ) -> Iterator[tuple[int, Plan]]:
    """The plans extending the piles, each with the sum of its orders' caps (an upper
    bound on its game's score), in order of that bound, highest first; among equal
    bounds, the lowest sum of ``late(pile, order)`` first (the search's guess: how
    late the deck lets that order be played).  In Up or Down the piles' orders are
    independent: the plans come from a heap over the per-pile orders sorted so (the
    best plan at once, where listing the 4^c plans first would cost more than its
    search); Sudoku's at most 5! are sorted."""
    if v.sudoku:
        yield from _sudoku_by_bound(v, played, left, late)
        return
    per = [sorted(((-order_cap(o, k, left), late(k, o), o) for o in orders(v, pl)),
                  key=lambda x: (x[0], x[1])) for k, pl in enumerate(played)]
    if any(not x for x in per):
        return
    first = tuple(0 for _ in per)
    heap = [(sum(x[0][0] for x in per), sum(x[0][1] for x in per), first)]
    seen = {first}
    while heap:
        neg, slow, at = heappop(heap)
        yield -neg, Plan(v, tuple(per[k][i][2] for k, i in enumerate(at)))
        for k, i in enumerate(at):
            if i + 1 < len(per[k]):
                nxt = at[:k] + (i + 1,) + at[k + 1:]
                if nxt not in seen:
                    seen.add(nxt)
                    a, b = per[k][i], per[k][i + 1]
                    heappush(heap, (neg + b[0] - a[0], slow + b[1] - a[1], nxt))


def _sudoku_by_bound(v: Variant, played: Sequence[Played], left: dict[tuple[int, int], int],
                     late: Callable[[int, Played], int]) -> Iterator[tuple[int, Plan]]:
    """``plans_by_bound`` in Sudoku: the started piles keep their order; the empty
    ones take distinct first values among those no pile began with
    (``pile_rules.plans``, listed directly).  The at most 5! plans go sorted by
    their key, ties in the order of ``permutations``; the first is found alone
    (``_first_choice``), as it usually wins, and the others are sorted only if it
    does not."""
    n = v.stack_size
    mine = [orders(v, p) for p in played]
    free = [k for k, p in enumerate(played) if not p]
    taken = {p[0] for p in played if p}
    cap = sum(order_cap(mine[k][0], k, left) for k in range(len(played)) if played[k])
    # per empty pile, per first value s (its order mine[k][s - 1]): its cap, and
    # one key that sorts as (-cap, lateness) does (lateness < SPAN); the started
    # piles add the same to every plan
    caps = [_caps(mine[k], k, left) for k in free]
    keys = [[-c * SPAN + late(k, o) for c, o in zip(cs, mine[k])]
            for cs, k in zip(caps, free)]
    values = [s - 1 for s in range(1, n + 1) if s not in taken]

    def plan_of(choice: Sequence[int]) -> tuple[int, Plan]:
        chosen = dict(zip(free, choice))
        plan = tuple(mine[k][chosen[k]] if k in chosen else mine[k][0]
                     for k in range(len(played)))
        return cap + sum(map(getitem, caps, choice)), Plan(v, plan)

    best = _first_choice(keys, values)
    if best is None:
        return
    yield plan_of(best)
    perms = list(permutations(values, len(free)))
    score = [sum(map(getitem, keys, p)) for p in perms]
    order = sorted(range(len(perms)), key=score.__getitem__)    # stable: ties in order
    assert perms[order[0]] == best, (perms[order[0]], best)
    for i in order[1:]:
        yield plan_of(perms[i])


def _caps(os: Sequence[Played], k: int, left: dict[tuple[int, int], int]) -> list[int]:
    """``order_cap`` of each of pile k's orders ``os`` (all of the same ranks): each
    its length when no rank has lost every copy."""
    if all(left.get((k, r), 0) > 0 for r in os[0]):
        return [len(o) for o in os]
    return [order_cap(o, k, left) for o in os]


def _first_choice(keys: list[list[int]], values: list[int]) -> tuple[int, ...] | None:
    """The first of ``permutations(values, len(keys))`` (``values`` ascending: the
    order is lexicographic) with the least ``sum(keys[i][p[i]])``, or None when there
    is no such permutation: per set of values taken by the first rows, the least sum
    the later rows can add (over the subsets, larger sets first), then row by row
    the lowest value that keeps to the least sum."""
    rows, m = len(keys), len(values)
    if rows > m:
        return None
    full = 1 << m
    bits = [(1 << j, values[j]) for j in range(m)]
    least = [0] * full      # the masks with more than ``rows`` bits are never read
    for mask in range(full - 1, -1, -1):
        i = mask.bit_count()
        if i < rows:
            row, low = keys[i], None
            for bit, x in bits:
                if not mask & bit:
                    t = row[x] + least[mask | bit]
                    if low is None or t < low:
                        low = t
            assert low is not None
            least[mask] = low
    mask, total, out = 0, least[0], []
    for row in keys:
        for bit, x in bits:
            if not mask & bit and row[x] + least[mask | bit] == total:
                total -= row[x]
                mask |= bit
                out.append(x)
                break
    return tuple(out)


def late_plays(v: Variant, played: Sequence[Played], first: dict[tuple[int, int], int],
               drawn: int, N: int, after_last: int) -> tuple[int, int, int] | None:
    """One bound that no plan's game wins (encodings/variants.md, 8.5, "every plan at
    once"): (P, must, turns) when, whichever complete order each pile takes, at least
    ``must`` of the cards still to play can only be played once deck position P is
    drawn, more than the ``turns`` plays that can follow that draw; else None.

    ``first[(pile, rank)]``: the deck position of the first copy not lost (below
    ``drawn``: held), absent when every copy is lost.  A card's *gate* in an order is
    the latest first copy of it and the cards below it in that order; per pile the
    fewest cards gated at P or later over its orders that can still complete (one
    that cannot leaves its plans to the caps) is a lower bound for every plan."""
    room = N - 1 + after_last          # plays after deck position P is drawn: room - P
    piles: list[list[list[int]]] = []  # per pile, per order that can complete: its gates
    for k, pl in enumerate(played):
        mine = []
        for o in orders(v, pl):
            rest = o[len(pl):]
            if any((k, r) not in first for r in rest):
                continue
            gates, gate = [], -1
            for r in rest:
                gate = max(gate, first[(k, r)])
                if gate >= drawn:
                    gates.append(gate)      # ascending: a running maximum
            mine.append(gates)
        if not mine:
            return None
        piles.append(mine)
    # the cards gated at P or later only grow fewer as P grows, the plays after it
    # too, one a position: the most excess is at some order's gate
    for at in sorted({g for mine in piles for gates in mine for g in gates}):
        must = sum(min(len(gates) - bisect_left(gates, at) for gates in mine) for mine in piles)
        if must > room - at:
            return at, must, room - at
    return None


def copies_left(start: Game) -> tuple[dict[tuple[int, int], int], dict[tuple[int, int], int]]:
    """Per (pile, rank): the copies not lost, and the deck position of the first
    copy not lost (held or not; absent when there is none)."""
    v = start.chosen
    assert v is not None
    cards = start.deck.cards
    rank = {a: v.live_rank(a) for a in {a for a, _ in cards}}
    kinds = [(k - 1, rank[a]) for a, k in cards]
    left: dict[tuple[int, int], int] = {}
    first: dict[tuple[int, int], int] = {}
    lost = set(start.lost_cards)
    for o, key in enumerate(kinds):
        if o not in lost:
            left[key] = left.get(key, 0) + 1
            if key not in first:
                first[key] = o
        elif key not in left:
            left[key] = 0
    return left, first
