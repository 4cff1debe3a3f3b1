"""The search's state: the deal's tables, the position as it changes move by move
(``do`` / ``undo``), and its canonical key (``key``), which two states share when
every continuation of one is a continuation of the other."""

from __future__ import annotations

from bisect import bisect_left
from typing import Final

from ...pile_order import in_pile_order
from ...pile_plans import Plan
from ...variants.pile_score import max_score
from ...variants.catalogue import START
from ...referee import Game
from ...rules import Rules
from .stops import Watched

# Final: mypyc inlines them, where a plain module variable is looked up at each use
PLAY: Final = 0
DISCARD: Final = 1
CLUE: Final = 2
FREE: Final = 10 ** 9      # the token count that stands for "unlimited"


# What ``undo`` puts back: the move (kind, card), the tokens, strikes, end turn,
# score and last clue type before it, where in the hand the card was (-1: a deck
# play or a clue), the deck position drawn (-1: none) and the color's old cap
# (-1: unchanged).  Typed, not ``tuple``: compiled, its fields are read unboxed.
Step = tuple[int, int, int, int, int | None, int, int, int, int, int]


def after_last(rules: Rules) -> int:
    """The plays an upper bound allows after the last draw: one per player in the
    final round, else every card still held; one more with a deck play (which draws
    and plays at once)."""
    final_round = rules.final_round and not rules.all_or_nothing
    return (rules.players if final_round else rules.players * rules.hand_size) \
        + rules.deck_plays


class State(Watched):
    """One game's position, changed in place by ``do`` and put back by ``undo``."""

    def __init__(self, start: Game, deadline: float | None = None, plan: Plan | None = None):
        super().__init__(start, deadline, plan)
        # reversed suits: the search plays the deck renamed by pile order, whose
        # games are the real deck's (encodings/variants.md, 7.5); Up or Down and
        # Sudoku: the game of one pile plan (``pile_plans``, encodings/variants.md,
        # 8.5), each card by its height in its pile's planned order
        start = in_pile_order(start)
        deck, rules = start.deck, start.rules
        n, c, N = deck.n, deck.c, deck.N
        if plan is not None:
            n = plan.n
        elif start.chosen is not None:
            raise ValueError(f"{start.chosen.name}: the search plays one pile plan's game "
                             f"at a time (``search_plans``), never the piles in one fixed order")
        self.plan = plan
        self.deck, self.rules = deck, rules
        self.n, self.c, self.N, self.p, self.H = n, c, N, rules.players, rules.hand_size
        self.target = n * c
        self.free_clues = rules.clues is None
        # the token rules (encodings/variants.md, 7): tokens are counted in the units
        # a clue spends ``clue_cost`` of (Clue Starved: halves); the bounds below
        # count a clue as one unit, which only lets them clue more
        self.max_clues = FREE if rules.max_tokens is None else rules.max_tokens
        self.clue_cost = rules.clue_cost
        self.top_token = rules.top_gives_token
        self.discard_at_max = rules.discard_at_max
        # all or nothing has no final round; a deck play draws and plays the last card
        self.final_round = rules.final_round and not rules.all_or_nothing
        self.deck_plays = rules.deck_plays
        self.zero_below_max = rules.speedrun or rules.all_or_nothing
        self.early_ends = rules.early_ends
        tables = start.tables
        assert tables is not None
        self.touchable, self.free_clue = tables.touchable, tables.free_clue
        # Alternating Clues where a card is touched by one clue type only: a clue
        # move carries its type (1: colour, 0: rank), the last one is part of the
        # state (-1: none yet) (encodings/variants.md, 7.4)
        self.by_type = tables.by_type
        self.free_type = tables.free_type
        self.last_clue = -1 if start.last_clue is None or self.by_type is None \
            else int(start.last_clue)
        # per card, what a trash card (see ``key``) counts by: which clues can touch
        # it (whether any does, or with ``by_type`` which types do)
        by_type = self.by_type
        self.tclass = [-1 - (by_type[0][o] + 2 * by_type[1][o]) if by_type is not None
                       else -1 if tables.all_touchable else -1 - (not tables.touchable[o])
                       for o in range(N)]
        self.clue_rules = tables.clues
        self.all_touchable = tables.all_touchable
        self.totals = tables.totals
        self.lost_counts = list(start.lost_counts)
        self.caps = list(start.caps)
        self.val = [a for a, _ in deck.cards]
        self.col = [k - 1 for _, k in deck.cards]
        self.cid = [(k - 1) * n + a - 1 for a, k in deck.cards]
        # per card, when its play is forbidden (a plan game, ``Plan.forbid_rule``): its
        # pile at height fh[o] and (fj[o] < 0 or pile fj[o] empty); fh[o] = -1: never
        self.fh = [-1] * N
        self.fj = [-1] * N
        # per card, the pile height up to which it is never trash (``key``)
        self.keep = [-1] * N
        # per pile, per card kind whose play the real rules accept beside the planned
        # next card: (kind, height, pile that must be empty or -1); per pile, the
        # orders it may still follow in the real game as (height up to which it may,
        # start rank, kinds in order) (``real_max``)
        self.alt_kinds: list[list[tuple[int, int, int]]] = [[] for _ in range(c)]
        self.alts: list[list[tuple[int, int, list[int]]]] = [[] for _ in range(c)]
        self.kind_of: dict[tuple[int, int], int] = {}
        if plan is not None:
            self.plan_tables(start, plan, n, c)
        self.capsum = sum(self.caps)
        self.positions: list[list[int]] = [[] for _ in range(len(self.totals))]
        for i, x in enumerate(self.cid):
            self.positions[x].append(i)
        # the state, copied from the position; ``turn`` counts from the first
        # player's first turn, so ``turn % p`` is the player to move
        self.hands = [list(hand) for hand in start.hands]
        self.held = [0] * len(self.totals)
        for hand in self.hands:
            for o in hand:
                self.held[self.cid[o]] += 1
        self.drawn = start.drawn
        # per card kind, its copies drawn so far: positions[x][seen[x]] is the next
        # one still in the deck (kept by do/undo; a bisection per value was slower)
        self.seen = [bisect_left(pos, self.drawn) for pos in self.positions]
        self.piles = list(start.piles)      # in a plan game too: the cards on each pile
        self.score = sum(self.piles)
        self.clues = FREE if start.clues is None else start.clues
        self.strikes = start.strikes
        shift = rules.first_player
        self.turn = start.turn + shift
        self.end_turn: int | None = None if start.end_turn is None else start.end_turn + shift
        self.trail: list[Step] = []

    def plan_tables(self, start: Game, plan: Plan, n: int, c: int) -> None:
        """The plan game's tables (``pile_plans``): each card by its height in its
        pile's planned order (a dead card: value n + 2, which no pile ever takes, and
        a kind of its own per pile, after the n * c others), the copies and losses per
        kind, the caps, the forbidden plays and the orders each pile may still follow."""
        v, cards = plan.variant, start.deck.cards
        kinds = n * c + c
        self.totals = [0] * kinds
        self.lost_counts = [0] * kinds
        self.kind_of = kind_of = {}      # (pile, rank) -> kind
        for k in range(c):
            for rank in set(plan.orders[k]) | ({START, 1, n} if v.up_or_down else set()):
                h = plan.height(k, rank)
                kind_of[(k, rank)] = k * n + h - 1 if h else n * c + k
        rule: dict[tuple[int, int], tuple[int, int, int]] = {}   # per (pile, rank), as cards
        for o, (a, kk) in enumerate(cards):
            k, rank = kk - 1, v.live_rank(a)
            got = rule.get((k, rank))
            if got is None:
                got = rule[(k, rank)] = (plan.height(k, rank), *plan.forbid_rule(k, rank))
            h, self.fh[o], self.fj[o] = got
            self.val[o] = h if h else n + 2
            self.cid[o] = x = kind_of[(k, rank)]
            self.totals[x] += 1
        for o in start.lost_cards:
            self.lost_counts[self.cid[o]] += 1
        seen: list[set[tuple[int, int, int]]] = [set() for _ in range(c)]
        for o in range(len(cards)):
            if self.fh[o] >= 0:
                seen[self.col[o]].add((self.cid[o], self.fh[o], self.fj[o]))
        for k in range(c):
            self.alt_kinds[k] = sorted(seen[k])
            self.alts[k] = [(same, o[0], [kind_of[(k, r)] for r in o])
                            for same, o in plan.alternatives(k)]
        self.caps = [self.order_cap(kinds_) for k in range(c)
                     for same, _, kinds_ in self.alts[k] if same == n]
        # A card is trash (``key``, ``moves``) only once its play can no longer be
        # forbidden and its pile follows no other order than the planned one: the
        # real ends read the other orders' copies (``real_max``), and two hands whose
        # trash differs in kind then differ in what is lost.
        # In Sudoku the server's count for a started pile reads every value's copies
        # (``pile_score.sudoku_runs``: two dead values beyond the cap count less than
        # one), so there no card is ever trash.
        undecided = [n if v.sudoku else
                     max([same for same, _, _ in self.alts[k] if same < n], default=-1)
                     for k in range(c)]
        self.keep = [max(self.fh[o], undecided[self.col[o]]) for o in range(len(cards))]

    def order_cap(self, kinds: list[int]) -> int:
        """How many of an order's kinds, from its first, each have a copy not lost."""
        h = 0
        while h < len(kinds) and self.lost_counts[kinds[h]] < self.totals[kinds[h]]:
            h += 1
        return h

    def real_max(self) -> int:
        """A plan game: the real game's best score still reachable, hanab.live's
        server's count (``pile_score.max_score``, the referee's ``Game.best``) on the
        real piles and the kinds lost.  (The referee keeps the lowest value it has
        had; the count only falls as piles start and copies are lost, so it is the
        count now.)"""
        assert self.plan is not None
        return max_score(self.plan.variant, self.plan.piles_at(self.piles), self.is_dead)

    def is_dead(self, k: int, rank: int) -> bool:
        """Whether every copy of pile k's card of ``rank`` is lost (or none is dealt)."""
        x = self.kind_of.get((k, rank), -1)
        return x < 0 or self.lost_counts[x] >= self.totals[x]

    def forbidden(self, o: int) -> bool:
        """Whether playing card ``o`` is forbidden now (a plan game)."""
        j = self.fj[o]
        return self.piles[self.col[o]] == self.fh[o] and (j < 0 or self.piles[j] == 0)

    def do(self, kind: int, order: int) -> None:
        """Carry out a move of the player to move (``undo`` takes it back)."""
        clues, strikes, end_turn, score, last_clue = self.clues, self.strikes, \
            self.end_turn, self.score, self.last_clue
        if kind == CLUE:
            if not self.free_clues:
                self.clues -= self.clue_cost
            if self.by_type is not None:
                self.last_clue = order
            self.turn += 1
            self.trail.append((kind, order, clues, strikes, end_turn, score, last_clue,
                               -1, -1, -1))
            return
        hand = self.hands[self.turn % self.p]
        from_deck = order == self.drawn
        if from_deck:           # a deck play: the last card, drawn and played at once
            at = -1
            self.drawn += 1
            self.seen[self.cid[order]] += 1
            if self.final_round:    # as after any last draw (none in all or nothing)
                self.end_turn = self.turn + self.p + 1
        else:
            at = hand.index(order)
            del hand[at]
            self.held[self.cid[order]] -= 1
        old_cap = -1
        if kind == DISCARD:
            if self.clues < self.max_clues:     # always, unless tokens are unlimited
                self.clues += 1
            old_cap = self.lose(order)
        else:
            k = self.col[order]
            if self.piles[k] + 1 == self.val[order]:
                self.piles[k] += 1
                self.score += 1
                if self.val[order] == self.n and self.clues < self.max_clues and self.top_token:
                    self.clues += 1
            else:
                self.strikes += 1
                old_cap = self.lose(order)
        drew = -1
        if not from_deck and self.drawn < self.N:
            drew = self.drawn
            hand.append(drew)
            self.held[self.cid[drew]] += 1
            self.seen[self.cid[drew]] += 1
            self.drawn += 1
            if self.drawn == self.N and self.final_round:
                self.end_turn = self.turn + self.p + 1
        self.turn += 1
        self.trail.append((kind, order, clues, strikes, end_turn, score, last_clue,
                           at, drew, old_cap))

    def lose(self, order: int) -> int:
        """Count a lost copy; the color's old cap if this loss lowered it, else -1."""
        x, k = self.cid[order], self.col[order]
        self.lost_counts[x] += 1
        a = self.val[order]
        if self.lost_counts[x] == self.totals[x] and a <= self.caps[k]:
            old = self.caps[k]
            self.caps[k] = a - 1
            self.capsum -= old - a + 1
            return old
        return -1

    def undo(self) -> None:
        kind, order, self.clues, self.strikes, self.end_turn, score, self.last_clue, at, drew, \
            old_cap = self.trail.pop()
        self.turn -= 1
        if kind == CLUE:
            return
        x = self.cid[order]
        if score == self.score:             # lost: a discard or a strike
            self.lost_counts[x] -= 1
            if old_cap >= 0:
                k = self.col[order]
                self.capsum += old_cap - self.caps[k]
                self.caps[k] = old_cap
        else:
            self.piles[self.col[order]] -= 1
            self.score = score
        if at < 0:                          # a deck play
            self.drawn -= 1
            self.seen[x] -= 1
            return
        hand = self.hands[self.turn % self.p]
        if drew >= 0:
            hand.pop()
            self.held[self.cid[drew]] -= 1
            self.seen[self.cid[drew]] -= 1
            self.drawn -= 1
        hand.insert(at, order)
        self.held[x] += 1

    def key(self) -> tuple:
        cid, val, col, piles, caps = self.cid, self.val, self.col, self.piles, self.caps
        # A trash card (already played, or above its color's cap: losing it changes
        # nothing) counts only by which clues can touch it (``tclass``).
        # (In a plan game a card counts by its kind while its pile is at most at
        # height ``keep``: see ``plan_tables``.)
        tclass, keep = self.tclass, self.keep
        hands = tuple(tuple(sorted(
            cid[o] if piles[col[o]] < val[o] <= caps[col[o]] or piles[col[o]] <= keep[o]
            else tclass[o] for o in hand)) for hand in self.hands)
        left = None if self.end_turn is None else self.end_turn - self.turn
        if self.by_type is not None:
            return (self.drawn, tuple(piles), self.clues, self.strikes, self.turn % self.p,
                    left, hands, self.last_clue)
        return (self.drawn, tuple(piles), self.clues, self.strikes, self.turn % self.p,
                left, hands)

    def copies_left(self, x: int) -> int:
        pos = self.positions[x]
        return self.held[x] + len(pos) - self.seen[x]

    def unlocks(self, o: int) -> int:
        """1 if the card after ``o`` in its color is in some hand."""
        v = self.val[o]
        return 1 if v < self.n and self.held[self.cid[o] + 1] else 0
