"""Exact search over real-rules games with sound pruning (method ``search``).

A depth-first search for a complete game whose final score reaches a target, over
one mutable state with do/undo, that

- cuts a state whose upper bound on the final score (``bound``) is below the target:
  the colors' reach (a value with no copy left stops its color), pace (the cards
  that can only be played after a given deck position is drawn against the turns
  that remain after it), the bottom card (only the game's last turn can play it),
  hand size (cards that must be held when a deck position is drawn), and with two
  cards or fewer left in the deck the most plays the remaining turns can make
  (first counted per player without their order, which is cheap and usually
  enough, then exactly in a relaxation); in a search that has grown hard, the
  same relaxation from up to nine cards left, by dynamic programming
  (``deeper_bound``), and in one grown harder still, from up to thirteen, also
  with the clue tokens counted exactly (``exact_window``);
- remembers, in a transposition table keyed on a canonical state, the best score
  each state was proved not to reach (near the end also the bound of a cut state);
- merges moves that lead to the same canonical state: copies of one card, every
  card that can never be played (trash), and every clue (with open hands a clue
  only costs a token);
- tries moves in an order that usually wins at once (plays, then trash, then a clue
  or a discard of a card with a spare copy, the rest last), first in rounds that
  leave that order only a few times, nearest the top of the tree first (limited
  discrepancy search, which skips a state where a round of the same goal already
  failed with as much budget), then without limit.

Nothing is pruned by a move being "probably bad": every rule keeps an optimal game
(the soundness arguments are in encodings/live-search.md).  ``maximize`` first
dives towards the bound (a game reaching it is optimal), then asks for the first
game's score, the bound (on a lost deal at most the lost-deck reasons' bound on
its score, ``score_bound``), and upwards from the best game found.  On the
time limit the answer is UNKNOWN (with the best game found so far when
maximizing), never a guess.
"""

from __future__ import annotations

import gc
import sys
import time
from bisect import bisect_left
from collections.abc import Callable, Iterator

from ...runtime import memory
from ...runtime.compiled import load
from ...core.errors import SolverBug
from ...runtime.deadline import TimeUp, ambient
from ...core.options import SolveOptions
from ...core.status import Status
from ..actions import Action
from ..reasons import lost_reason, score_bound
from ..pile_order import in_pile_order
from ..pile_plans import Plan, copies_left, late_plays, plan_count, plans_by_bound
from ..variants.pile_score import max_score
from ..variants.pile_rules import chosen_in_play
from ..variants.catalogue import START
from ..race import WATCH
from ..referee import Game, some_clue, typed_clues
from ..rules import Rules
from ..solve import LiveMethod, LiveOutcome, decided_now

PLAY, DISCARD, CLUE = 0, 1, 2
CHECK_EVERY = 512          # nodes between two looks at the clock
# A node's bound costs about a step per card: on large decks the clock is looked at
# every CHECK_CARDS / N nodes instead (every node from 2^18 cards on).
CHECK_CARDS = 1 << 18
# Looks at the clock between two looks at the machine's free memory (``check``):
# reading it costs about as much as a few hundred states, the tables grow slowly.
MEMORY_CHECKS = 128
FREE = 10 ** 9             # the token count that stands for "unlimited"


class Timeout(Exception):
    """The time limit was reached."""


class MemoryShort(Timeout):
    """The machine's memory ran short (``runtime.memory``): the search stops as at
    its time limit, before the out-of-memory killer ends the process."""


def _why(stop: Timeout) -> str:
    """What stopped the search, for its answer."""
    if isinstance(stop, MemoryShort):
        return f"memory short (less than {memory.FLOOR:.0%} of the machine's memory available)"
    return "time limit reached"


class RootCut(Exception):
    """The relaxation at the position shows the goal out of reach there
    (``LiveSearch.root_check``): ``bound``, an upper bound on its score."""

    def __init__(self, bound: int):
        super().__init__(bound)
        self.bound = bound


# ``LiveSearch.relaxation``: where the relaxation starts (the arguments of ``_relaxed``
# but the step count)
Relaxation = tuple[int, int, int, int, int, int, list[int], int, list[int],
                   dict[int, int], bool, int, dict[int, int]]


class LiveSearch:
    """One game's search state (do/undo) and the depth-first search over it."""

    # Rounds of limited discrepancy search before the unlimited one (see ``game``).
    BUDGETS: tuple[int, ...] = (0, 1, 2, 3, 4)
    # Deck cards left at most where a clue comes before the discards in the move
    # order when another player can play (``moves``; encodings/live-search.md, 2).
    LATE_CLUE = 6
    # Deck cards left at most for the exact (relaxed) endgame bound.
    ENDGAME = 2
    # Deck cards left at most for the same relaxation by dynamic programming
    # (``deeper_bound``), at every state once the search has visited DEEP_AFTER
    # states (or always with ``deep``: the tests, and see DEEP_EARLY_PLAYERS and
    # DEEP_EARLY_LEFT), with at most RELAX_STEPS steps of it per state (it then
    # cuts nothing there).
    DEEP = 9
    DEEP_AFTER = 2000
    RELAX_STEPS = 500
    # With at most this many players, or from a position with at most this many
    # deck cards left, the deeper bound is used from the second round on (once the
    # first dive has failed): on the lost positions of bot games it proves most
    # losses near the root, long before DEEP_AFTER states.  From a deal with six
    # players (32 cards left, 31 after its first draw) its states cost more than
    # the search states they save (encodings/live-search.md, 3.5, "Deeper").
    DEEP_EARLY_PLAYERS = 5
    DEEP_EARLY_LEFT = 30
    # Once the search has visited EXACT_AFTER states, from at most EXACT_DEEP deck
    # cards left: the deeper bound, and where it does not cut, the same relaxation
    # with exact tokens, EXACT_STEPS states of it at most; while at most a quarter
    # of these tries (and EXACT_WARM / 4 more) run out of their steps: where more
    # do, as on won positions whose dives go on, they cost more than they cut
    # (encodings/live-search.md, 3.5, "Exact tokens during the search").
    EXACT_DEEP = 17
    EXACT_LEAST = 13
    EXACT_AFTER = 10_000
    EXACT_STEPS = 2000
    EXACT_WARM = 256
    # Once the first dive has failed, at the position itself: the relaxation
    # (``start_root_cut``), with the tokens counted exactly from at most ROOT_LEFT
    # deck cards left, as in ``deeper_bound`` from at most ROOT_PLAIN_LEFT:
    # ROOT_STEPS states of it at once, then twice as many each time the search has
    # visited ROOT_NODES, twice as many, ... states more, up to ROOT_MOST.
    ROOT_LEFT = 20
    ROOT_PLAIN_LEFT = 60
    ROOT_PLAIN_AFTER = 20_000
    ROOT_STEPS = 24_000
    ROOT_NODES = 500
    ROOT_MOST = 1 << 22
    # Any relaxation goes in chunks of RELAX_CHUNK steps, the clock read between
    # them: the refutation checker's, at the position, has no limit on its steps.
    RELAX_CHUNK = 1 << 16

    def __init__(self, start: Game, deadline: float | None = None, plan: Plan | None = None):
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
                             f"at a time (``_plans``), never the piles in one fixed order")
        self.plan = plan
        self.deck, self.rules, self.deadline = deck, rules, deadline
        # ``auto`` racing the encodings beside the search (``live.race``): called with
        # the best game found so far, True when they answered (``check``)
        self.watch: Callable[[tuple[list[Action], int] | None], bool] | None = None
        self.found: tuple[list[Action], int] | None = None
        self.check_every = max(1, min(CHECK_EVERY, CHECK_CARDS // max(1, N)))
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
        # the plays an upper bound allows after the last draw: one per player in the
        # final round, else every card still held; one more with a deck play (which
        # draws and plays at once)
        self.after_last = after_last(rules)
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
        self.reach = [0] * c
        self.trail: list[tuple] = []
        self.tt: dict[tuple, int] = {}
        # per ``stall_key``, the (player to move, tokens) of each state the bound cut
        self.cuts: dict[tuple, list[tuple[int, int]]] = {}
        # per state, the largest budget with which a round of the current goal
        # failed there without a proof (``reaches``)
        self.tried: dict[tuple, int] = {}
        self.tried_goal = -1
        self.nodes = 0
        self.deep = False
        # the states after which ``deeper_bound`` with exact tokens is asked too
        # (EXACT_AFTER; the tests set it to 0 to ask it at every state)
        self.exact_after = self.EXACT_AFTER
        self.exact_deep = self.EXACT_DEEP
        self.exact_steps = self.EXACT_STEPS
        # the tries of that relaxation, and those that ran out of their steps
        self.exact_tries = 0
        self.exact_warm = self.EXACT_WARM
        self.exact_spent = 0
        # a deck play takes the last card without holding it: the rules that count
        # on every card passing through a hand (bottom card, hand size, the last
        # draws' relaxations) rest
        self.simple_draws = self.final_round and not self.deck_plays
        # ``relaxed_plays``: a player's part of the hands (one bit per color and
        # value), the piles as one number, and the spans that pack a state's deck
        # position, mover, tokens and piles into one number
        self.width = c * n
        self.part = (1 << self.width) - 1
        # per bit of a player's part (color * n + value - 1): the hands with that
        # value and every lower one of its color cleared in every player's part
        # (``every``: one bit per player, where its part starts)
        every = sum(1 << (q * self.width) for q in range(self.p))
        self.kill = [~((((1 << (b % n + 1)) - 1) << (b - b % n)) * every)
                     for b in range(self.width)]
        self.radix = [(n + 1) ** k for k in range(c)]
        self.code_span = (n + 1) ** c
        self.token_span = (self.p - 1) * N + 1
        # a state of the relaxation as one number: the hands above the rest (one
        # int hashes and compares faster than a pair)
        self.rest_bits = ((N + self.p + 1) * self.p * self.token_span * self.code_span).bit_length()
        self.steps = 0          # what is left of one ``relaxed_plays``'s steps
        # ``relaxed_plays``'s tables per reach (as one number): the bit of each deck
        # position's card, and per state of the relaxation 2 * an upper bound on
        # its most plays, or 2 * a count of plays it reaches + 1
        self.relaxed: dict[int, tuple[list[int], dict[int, int]]] = {}
        self.proved = True
        self.lost: str | None = None      # a reason the position cannot be won, if known
        # ``start_root_cut``: the relaxation's start, the score there, and when (in
        # states of the search) and with how many steps to ask it again
        self.root_from: Relaxation = (0, 0, 0, 0, 0, 0, [], 0, [], {}, True, FREE, {})
        self.root_cut_goal = -1         # the last goal it showed out of reach
        self.root_score = 0
        self.root_next = FREE
        self.root_steps = 0

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

    # ---- the rules, as the referee has them ------------------------------------

    def over(self) -> bool:
        """Whether the game is over, by the referee's rules (``referee.Game._check_end``)."""
        r = self.rules
        if self.strikes >= r.strikes or self.failed():
            return True
        me = self.turn % self.p
        if r.all_or_nothing and not self.hands[me] and self.clues < self.clue_cost:
            return True
        if self.end_turn is not None:
            if self.turn >= self.end_turn:
                return True
        elif not self.final_round and self.drawn == self.N and not any(self.hands):
            return True
        if self.score == self.target:
            return True
        if self.early_ends and (self.score == self.capsum and (
                self.plan is None or self.score == self.real_max()) or (
                (self.end_turn is not None or self.plan is not None)
                and self.nothing_playable())):
            return True
        return not self.hands[me] and not self.can_clue() and self.deck_top() < 0

    def failed(self) -> bool:
        """A speedrun or all-or-nothing game that can no longer be won (score 0);
        in a plan game by the real count (which is at least the planned caps')."""
        return self.zero_below_max and self.capsum < self.target and (
            self.plan is None or self.real_max() < self.target)

    def final_score(self) -> int:
        r = self.rules
        if self.strikes >= r.strikes or self.failed():
            return 0
        # hanab.live checks the softlock before the score (even a won game scores 0)
        if r.all_or_nothing and not self.hands[self.turn % self.p] and self.clues < self.clue_cost:
            return 0
        return self.score

    def nothing_playable(self) -> bool:
        """In the final round (a plan game: at any time): no copy of a card the piles
        need is in the deck or in the hand of a player with a turn left."""
        p = self.p
        # turns drew+1 .. turn-1 are done (a plan game asks before the final round too,
        # as hanab.live's server does in Up or Down and Sudoku: nobody is done then)
        first = self.turn if self.end_turn is None else self.end_turn - p
        done = {t % p for t in range(first, self.turn)}
        n, positions, cid = self.n, self.positions, self.cid
        live = {cid[o] for q, hand in enumerate(self.hands) if q not in done for o in hand}
        for k, top in enumerate(self.piles):
            if top == n:
                continue
            x = k * n + top
            if x in live or (positions[x] and positions[x][-1] >= self.drawn):
                return False
            # a plan game: the cards the real rules accept beside the planned one
            for y, h, j in self.alt_kinds[k]:
                if h == top and (j < 0 or self.piles[j] == 0) and (
                        y in live or (positions[y] and positions[y][-1] >= self.drawn)):
                    return False
        return True

    def can_clue(self) -> bool:
        me = self.turn % self.p
        if self.clues < self.clue_cost:
            return False
        if self.by_type is not None:
            return any(self.cluable_by(q, t) for t in self.clue_types()
                       for q in range(self.p) if q != me)
        if self.free_clue:
            return True
        touchable = self.touchable
        return any(touchable[o] for q, h in enumerate(self.hands) if q != me for o in h)

    def cluable(self, q: int) -> bool:
        return self.free_clue or any(self.touchable[o] for o in self.hands[q])

    def clue_types(self) -> tuple[int, ...]:
        """With ``by_type``: the types the next clue may have."""
        return (0, 1) if self.last_clue < 0 else (1 - self.last_clue,)

    def cluable_by(self, q: int, t: int) -> bool:
        assert self.by_type is not None
        touched = self.by_type[t]
        return self.free_type[t] or any(touched[o] for o in self.hands[q])

    def clue_action(self, t: int = -1) -> Action:
        """A legal clue for the player to move: to the next player who can be clued
        (the referee's ``some_clue``); of type ``t`` with ``by_type``."""
        me = self.turn % self.p
        for d in range(1, self.p):
            q = (me + d) % self.p
            if self.cluable(q) if self.by_type is None else self.cluable_by(q, t):
                return some_clue(self.rules, self.clue_rules,
                                 [self.deck.cards[o] for o in self.hands[q]], q,
                                 None if self.by_type is None else t == 0)
        raise AssertionError("no player to clue")

    def deck_top(self) -> int:
        """The deck position a deck play takes now, or -1."""
        return self.N - 1 if self.deck_plays and self.drawn == self.N - 1 else -1

    def do(self, kind: int, order: int) -> None:
        """Carry out a move of the player to move (``undo`` takes it back)."""
        saved = (kind, order, self.clues, self.strikes, self.end_turn, self.score,
                 self.last_clue)
        if kind == CLUE:
            if not self.free_clues:
                self.clues -= self.clue_cost
            if self.by_type is not None:
                self.last_clue = order
            self.turn += 1
            self.trail.append(saved + (-1, -1, -1))
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
        self.trail.append(saved + (at, drew, old_cap))

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

    # ---- the upper bound ---------------------------------------------------------

    def bound(self, goal: int | None = None) -> int:
        """An upper bound on the final score of every game from here; fills
        ``self.reach`` (per color, the highest value that can still be played).
        With a ``goal``, a cheaper (weaker) bound may be returned when it is
        already below the goal."""
        n, N, drawn, held, positions = self.n, self.N, self.drawn, self.held, self.positions
        seen, simple_draws = self.seen, self.simple_draws
        bottom_rule = simple_draws and drawn < N
        late: list[int] = []        # per needed card: the deck position that must be drawn first
        # per needed card that must be held for a while: the first and the last draw
        # during which it is (two lists of ints: no tuples to make and sort)
        held_from: list[int] = []
        held_to: list[int] = []
        total = 0
        for k in range(self.c):
            top = self.piles[k]
            v, base, gate = top + 1, k * n - 1, -1
            while v <= n:
                pos = positions[base + v]
                j = seen[base + v]
                if held[base + v]:
                    first = -1
                elif j < len(pos):
                    first = pos[j]
                else:
                    break
                if first > gate:
                    gate = first
                if gate >= 0:
                    late.append(gate)
                    last = pos[-1] if j < len(pos) else -1
                    if last < gate:
                        held_from.append(max(last + 1, drawn))
                        held_to.append(gate)
                v += 1
                if bottom_rule and first == N - 1:
                    break       # drawn last, played on the last turn: nothing can follow
            self.reach[k] = v - 1
            total += v - 1
        # with a goal, the plays the relaxations below need to reach it: a count of
        # plays at or below ``floor`` is all they must tell apart (see endgame_bound)
        floor = 0 if goal is None else goal - self.score - 1
        if drawn == N:
            return self.final_round_bound(total, floor) if self.end_turn is not None \
                else total
        loss = 0
        if late:
            # the gates counted per deck position (each is one still to be drawn),
            # then walked from the bottom: at each, the cards gated there or later
            gated = [0] * (N - drawn)
            for gate in late:
                gated[gate - drawn] += 1
            room = N - 1 + self.after_last
            count = 0
            for at in range(N - drawn - 1, -1, -1):
                if gated[at]:
                    count += gated[at]
                    excess = count - (room - drawn - at)
                    if excess > loss:
                        loss = excess
        if not loss and simple_draws and len(held_from) >= self.p * self.H \
                and self.hand_overflow(held_from, held_to):
            loss = 1
        if drawn >= N - self.ENDGAME and simple_draws and loss < total - self.score:
            if goal is not None:
                quick = self.turns_bound(total)
                if quick < goal:
                    return min(total - loss, quick)
            return min(total - loss, self.endgame_bound(total, floor))
        return total - loss

    def turns_bound(self, total: int) -> int:
        """The relaxation of ``endgame_bound`` without the order of the plays: each
        player plays at most once per turn it has (one per draw turn it makes, one
        in the final round) and at most once per distinct card it can still play
        (held now or drawn), maximised over who draws the cards left."""
        N, p, col, val, reach, piles = self.N, self.p, self.col, self.val, self.reach, self.piles
        cards = [len({(col[o], val[o]) for o in hand
                      if piles[col[o]] < val[o] <= reach[col[o]]}) for hand in self.hands]
        now = sum(1 for x in cards if x)
        # per deck position from ``drawn`` on: 1 if its card can still be played
        useful = [1 if piles[col[o]] < val[o] <= reach[col[o]] else 0
                  for o in range(self.drawn, N)]
        best = self._turns(self.turn % p, 0, self.clues, now, [1] * p, cards, useful,
                           total - self.score, 0)
        return min(total, self.score + best)

    def _turns(self, turn: int, at: int, tokens: int, plays: int, turns: list[int],
               cards: list[int], useful: list[int], most: int, best: int) -> int:
        """``turns_bound``'s search over who draws ``useful[at:]``; the most plays
        found, at least ``best`` (a method, not a closure: compiled, much faster)."""
        if at == len(useful):
            return plays if plays > best else best
        got, p = useful[at], self.p
        for s in range(min(tokens, p - 1) + 1):
            if best >= most:
                return best
            x = (turn + s) % p
            t, c = turns[x], cards[x]
            gain = min(t + 1, c + got) - min(t, c)
            turns[x], cards[x] = t + 1, c + got
            best = self._turns(x + 1, at + 1, min(tokens - s + 1, self.max_clues),
                               plays + gain, turns, cards, useful, most, best)
            turns[x], cards[x] = t, c
        return best

    def hand_overflow(self, held_from: list[int], held_to: list[int]) -> bool:
        """Whether, when some deck position is drawn, more cards must be held than the
        p*H - 1 places the hands have just before that draw; card i must be held
        while positions ``held_from[i]`` to ``held_to[i]`` are drawn."""
        # per deck position from ``drawn`` on, the cards that must be held from its
        # draw on less those that need not be any more: the count held at a draw is
        # the sum up to it (a card let go at a draw makes room for one taken there)
        drawn = self.drawn
        change = [0] * (self.N - drawn + 1)
        for i in range(len(held_from)):
            change[held_from[i] - drawn] += 1
            change[held_to[i] + 1 - drawn] -= 1
        now, limit = 0, self.p * self.H - 1
        for step in change:
            now += step
            if now > limit:
                return True
        return False

    def final_round_bound(self, total: int, floor: int = 0) -> int:
        """After the last draw: the most plays the remaining turns can make, each
        turn's player playing one card of their own or none (tokens ignored); a
        count at or below ``floor`` only says that the most is at or below it."""
        left = self.end_turn - self.turn if self.end_turn is not None else 0
        order = [(self.turn + d) % self.p for d in range(left)]
        return min(total, self.score + most_plays(order, self.useful_cards(), self.piles,
                                                  floor=max(floor, 0)))

    def endgame_bound(self, total: int, floor: int = 0) -> int:
        """With few cards left to draw (at most ``ENDGAME``): before each draw, some
        clues (at most p - 1 count, and no more than the tokens), then a play or
        discard that draws the next card; after the last draw, the final round.  The
        most plays over all of these, with every player keeping every card (more
        cards never play fewer) and a draw turn always given a token back.

        A count at or below ``floor`` only says that the most is at or below it:
        the search starts from ``floor`` as if a relaxed game had made that many
        plays, so it drops every branch that cannot make more (it decides "more
        than floor?" without the exact count below it)."""
        hands, piles = self.useful_cards(), list(self.piles)
        best = self._endgame(self.turn % self.p, self.drawn, self.clues, 0, hands, piles,
                             total - self.score, max(floor, 0))
        return min(total, self.score + best)

    def _endgame(self, turn: int, pos: int, tokens: int, gained: int,
                 hands: list[list[tuple[int, int]]], piles: list[int], most: int,
                 best: int) -> int:
        """``endgame_bound``'s search from deck position ``pos``: the most plays
        found, at least ``best`` (a method, not a closure: compiled, much faster)."""
        N, p, col, val, reach = self.N, self.p, self.col, self.val, self.reach
        # each draw turn plays at most one card, each final-round turn too
        if gained + N - pos + p <= best:
            return best
        if pos == N:
            # at most one card per player still holding a card above its pile
            holders = 0
            for h in hands:
                for c, a in h:
                    if piles[c] < a:
                        holders += 1
                        break
            if gained + holders <= best:
                return best
            order = [(turn + d) % p for d in range(p)]
            return max(best, gained + most_plays(order, hands, piles, most - gained,
                                                 best - gained))
        k, v = col[pos], val[pos]
        for s in range(min(tokens, p - 1) + 1):
            if best >= most:
                return best
            x = (turn + s) % p
            mine = hands[x]
            if piles[k] < v <= reach[k]:
                hands[x] = mine + [(k, v)]
            after = min(tokens - s + 1, self.max_clues)
            playable = [(c, a) for c, a in mine if piles[c] + 1 == a]
            for c, a in playable:
                piles[c] = a
                best = self._endgame(x + 1, pos + 1, after, gained + 1, hands, piles, most, best)
                piles[c] = a - 1
            if not playable:     # else playing one now is never worse (note, 3.5)
                best = self._endgame(x + 1, pos + 1, after, gained, hands, piles, most, best)
            hands[x] = mine
        return best

    def deeper_bound(self, goal: int, steps: int, exact: bool = False, hand: int = FREE) -> int:
        """With the final round and no deck plays, an upper bound on the final score
        below ``goal`` where the relaxation of the last draws (``relaxed_plays``,
        at most ``steps`` steps; with exact tokens if ``exact``, hands of at most
        ``hand`` needed cards) shows one, else ``goal``; it reads ``reach`` as
        ``bound`` left it."""
        most = self.relaxed_plays(goal - self.score, steps, exact, hand)
        return self.score + most if self.score + most < goal else goal

    def cut_when_listed(self, goal: int, root: bool = False) -> bool:
        """For a refutation's checker, at a state listed as refuted whose ``bound``
        is not below ``goal``: whether ``deeper_bound`` is, in the window where the
        search uses it, without a limit on its steps (the search lists the states
        it cuts by it, section 5a); at the position the refutation starts from
        (``root``), also the relaxation at the position (``start_root_cut``).  In
        the window of the relaxation with exact tokens (``exact_window``) only that
        one is asked: it is never above the plain one (section 3.5)."""
        if self.exact_window():
            if self.deeper_bound(goal, FREE, exact=True) < goal:
                return True
        elif self.deep_window() and self.deeper_bound(goal, FREE) < goal:
            return True
        return root and self.root_window() \
            and self.deeper_bound(goal, FREE, self.root_exact(), self.root_hand()) < goal

    def root_window(self) -> bool:
        """Whether ``start_root_cut`` applies here: the final round, no deck plays, and
        at least one and at most ROOT_PLAIN_LEFT cards left."""
        return self.simple_draws and self.N - self.ROOT_PLAIN_LEFT <= self.drawn < self.N

    def root_exact(self) -> bool:
        """Whether ``start_root_cut`` counts the tokens exactly here: at most
        ROOT_LEFT cards left (further from the end its states cost too much)."""
        return self.drawn >= self.N - self.ROOT_LEFT

    def root_hand(self) -> int:
        """The most needed cards a hand holds in ``start_root_cut``'s relaxation:
        the hand size without exact tokens, else unlimited (with exact tokens, a
        drawer who can play may pass, and the choices of the card let go on those
        passes cost more than they cut)."""
        return FREE if self.root_exact() else self.H

    def start_root_cut(self, goal: int) -> None:
        """Set up ``root_check`` for a round of ``goal`` (the state must be at the
        position): the relaxation from here, with exact tokens (``root_exact``) or
        hands of at most H needed cards (``root_hand``), asked at once (with exact
        tokens) or once the search has visited ROOT_PLAIN_AFTER states, and again,
        with twice the steps each time, whenever the search has visited as many
        states again (so it costs about as much as the search it may end)."""
        if not self.root_window() or self.bound(goal) < goal:
            return          # outside its window, or the search cuts it at once
        exact = self.root_exact()
        self.root_from = self.relaxation(goal - self.score, exact, self.root_hand())
        self.root_score = self.score
        self.root_steps = self.ROOT_STEPS
        if exact:
            self.root_check()
        else:
            # far from the end its first try costs more than most searches it could
            # end: those past ROOT_PLAIN_AFTER states only
            self.root_next = self.nodes + self.ROOT_PLAIN_AFTER

    def root_check(self) -> None:
        """One more try of the relaxation at the position; RootCut if it shows the
        goal out of reach (the search then ends: ``game``)."""
        most = self._relaxed_chunks(self.root_from, self.root_steps)
        if most < self.root_from[7]:
            raise RootCut(self.root_score + most)
        if self.steps >= 0:
            self.root_next = FREE       # it reaches the goal: it never cuts it
            return
        # the search's states until the next try grow as its steps do
        self.root_next = self.nodes + self.root_steps * self.ROOT_NODES // self.ROOT_STEPS
        self.root_steps *= 2
        if self.root_steps > self.ROOT_MOST:
            self.root_next = FREE       # its table would outgrow the search's

    def deep_window(self) -> bool:
        """Whether ``deeper_bound`` applies here: the final round, no deck plays,
        and more than ENDGAME but at most DEEP cards left."""
        return self.simple_draws and self.N - self.DEEP <= self.drawn < self.N - self.ENDGAME

    def exact_window(self) -> bool:
        """Whether the relaxation with exact tokens applies here during the search:
        the final round, no deck plays, more than ENDGAME and at most ``exact_deep``
        cards left."""
        return self.simple_draws and self.N - self.exact_deep <= self.drawn < self.N - self.ENDGAME

    def exact_pays(self) -> bool:
        """Whether the relaxation with exact tokens is still asked during the search:
        while at most a quarter of its tries (and EXACT_WARM / 4 more, for the
        first ones, whose table is still empty) ran out of their steps."""
        if 4 * self.exact_spent <= self.exact_tries + self.exact_warm:
            return True
        if self.exact_deep - 2 >= self.EXACT_LEAST:
            # this far from the end its tries run out of steps: two cards nearer
            # the end, where they cost less, it starts counting again
            self.exact_deep -= 2
            self.exact_tries = self.exact_spent = 0
            return self.exact_window()
        return False

    def relaxed_plays(self, need: int, steps: int = FREE, exact: bool = False,
                      hand: int = FREE) -> int:
        """``endgame_bound``'s relaxation from any number of cards left, by dynamic
        programming over (deck position, player to move, tokens, hands, piles): an
        upper bound on the plays of every real continuation if below ``need``,
        else at least ``need`` (also when ``steps`` run out first; each step is
        one state of the relaxation) (encodings/live-search.md, 3.5, "Deeper").
        With ``exact``, the tokens are counted as the rules count them (a play
        gives none back, but for the top value) and a player who can play may
        discard instead ("Exact tokens").  A hand of the relaxation holds at most
        ``hand`` needed cards ("Hand size").  Timeout if the clock runs out first."""
        return self._relaxed_chunks(self.relaxation(need, exact, hand), steps)

    def _relaxed_chunks(self, r: Relaxation, left: int) -> int:
        """``_relaxed_from`` with at most ``left`` steps, in chunks of RELAX_CHUNK with
        a look at the clock between them (Timeout); ``steps`` ends below zero if
        they ran out first.  The relaxation keeps its finished states, so each
        chunk goes on where the last one stopped."""
        while True:
            self.steps = min(left, self.RELAX_CHUNK)
            left -= self.steps
            most = self._relaxed_from(r)
            if most < r[7] or self.steps >= 0 or left <= 0:
                return most
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise Timeout
            if self.watch is not None and self.watch(self.found):
                raise Timeout

    def relaxation(self, need: int, exact: bool, hand: int) -> Relaxation:
        """Where ``relaxed_plays`` starts from this state (``bound`` must have set
        ``reach``)."""
        n, c, p, N, width = self.n, self.c, self.p, self.N, self.width
        piles, reach, col, val = list(self.piles), self.reach, self.col, self.val
        hands = 0
        for q, cards in enumerate(self.hands):
            for o in cards:
                k, v = col[o], val[o]
                if piles[k] < v <= reach[k]:
                    hands |= 1 << (q * width + k * n + v - 1)
        radix = self.radix
        code = sum(piles[k] * radix[k] for k in range(c))
        reached = sum(reach[k] * radix[k] for k in range(c))
        # each relaxation has its own table: their values differ
        table = (reached * 2 + (1 if exact else 0)) * 2 + (1 if hand < FREE else 0)
        known = self.relaxed.get(table)
        if known is None:
            # per deck position: its card's bit in a player's part, or -1 (above reach)
            draws = [col[o] * n + val[o] - 1 if val[o] <= reach[col[o]] else -1
                     for o in range(N)]
            known = self.relaxed[table] = (draws, {})
        tokens = min(self.clues, (p - 1) * (N - self.drawn))
        front = 0       # in a player's part, per color below n: the bit of its next value
        for k in range(c):
            if piles[k] < n:
                front |= 1 << (k * n + piles[k])
        # the plain relaxation's table (``table`` without exact tokens or hand limit),
        # which the one with a hand limit asks at each of its states
        plain = self.relaxed.setdefault(reached * 4, (known[0], {})) if hand < FREE else known
        return (self.drawn, self.turn % p, tokens, hands, code, front, piles, need,
                known[0], known[1], exact, hand, plain[1])

    def _relaxed_from(self, r: Relaxation) -> int:
        pos, turn, tokens, hands, code, front, piles, need, draws, memo, exact, hand, plain = r
        # ``_relaxed`` puts back every pile it raises, so ``piles`` serves each try
        return self._relaxed(pos, turn, tokens, hands, code, front, piles, need, draws, memo,
                             exact, hand, plain)

    def _relaxed(self, pos: int, turn: int, tokens: int, hands: int, code: int, front: int,
                 piles: list[int], need: int, draws: list[int],
                 memo: dict[int, int], exact: bool, hand: int, plain: dict[int, int]) -> int:
        """``relaxed_plays`` from deck position ``pos`` (of ``draws``; past the end:
        the final round, ``pos`` counting its turns); ``hands`` holds player q's
        needed (color, value) at bits q * c * n + color * n + value - 1, ``front``
        the bits of the cards the piles take next, ``code`` the piles as one number
        (a method, not a closure: compiled, much faster)."""
        if need <= 0:
            return 0
        self.steps -= 1
        if self.steps < 0:
            return need         # out of steps: as if reached, which cuts nothing
        n, p = self.n, self.p
        L = len(draws)
        left = L + p - pos          # turns that can still play: draws, final round
        if left < need:
            return left
        key = hands << self.rest_bits | ((pos * p + turn) * self.token_span + tokens) \
            * self.code_span + code
        known = memo.get(key, -1)
        if known >= 0:
            # an upper bound on the most plays, below what was asked for then, or
            # (odd) a count of plays reached
            most = known >> 1
            if (most < need) if known & 1 == 0 else (most >= need):
                return most
        if hand < FREE:
            # the same state without the hand limit (and with tokens back on every
            # draw): its most plays bound these ("Hand size")
            most = self._relaxed(pos, turn, tokens, hands, code, front, piles, need, draws,
                                 plain, False, FREE, plain)
            if most < need:
                if self.steps >= 0:
                    memo[key] = most << 1
                return most
        width, part = self.width, self.part
        best = 0
        drawing = pos < L
        stalls = min(tokens, p - 1) if drawing else 0
        # the tokens worth keeping after this draw: at most one clue per other
        # player per draw left (two ``min``s, not one of three: compiled, ``min`` of
        # two ints is a comparison, of three a generic call, in the hottest loop)
        room = min((p - 1) * (L - pos - 1), self.max_clues)
        for s in range(stalls + 1):
            x = (turn + s) % p
            base = x * width
            after = 0
            d = -1
            mine = hands
            if drawing:
                after = min(tokens - s + 1, room)
                d = draws[pos]
                if d >= 0 and piles[d // n] <= d % n:
                    hands |= 1 << (base + d)
            # the mover's playable cards, from its hand before the draw
            playable = (mine >> base) & part & front
            kept = after    # the tokens after a play that is not of the top value
            if exact and drawing:
                kept = min(tokens - s, room)
            # a turn that can play never does better passing (3.5), unless a pass
            # leaves more tokens ("Exact tokens")
            passes = not playable or kept < after
            while playable and best < need:
                bit = playable & -playable
                playable ^= bit
                at = bit.bit_length() - 1
                k, top = at // n, at % n
                piles[k] = top + 1
                # the played value and every copy of it are dead now
                got = 1 + self._relaxed(pos + 1, (x + 1) % p,
                                        after if top + 1 == n else kept,
                                        hands & self.kill[at],
                                        code + self.radix[k],
                                        front ^ bit | (bit << 1 if top + 1 < n else 0),
                                        piles, need - 1, draws, memo, exact, hand, plain)
                piles[k] = top
                if got > best:
                    best = got
            if passes and best < need:
                # a discard draws too: a hand of H distinct needed cards that draws
                # another lets one of them go (any one; "Hand size")
                held = (hands >> base) & part
                if hands != mine and held.bit_count() > hand:
                    drop = held ^ (1 << d)
                    while drop and best < need:
                        bit = drop & -drop
                        drop ^= bit
                        got = self._relaxed(pos + 1, (x + 1) % p, after, hands ^ (bit << base),
                                            code, front, piles, need, draws, memo, exact, hand,
                                            plain)
                        if got > best:
                            best = got
                else:
                    got = self._relaxed(pos + 1, (x + 1) % p, after, hands, code, front, piles,
                                        need, draws, memo, exact, hand, plain)
                    if got > best:
                        best = got
            if best >= need:
                if self.steps >= 0:
                    memo[key] = best << 1 | 1
                return best
            hands = mine
        memo[key] = best << 1
        return best

    def useful_cards(self) -> list[list[tuple[int, int]]]:
        """Per player, the (color index, value) of each card that can still be played."""
        piles, reach, col, val = self.piles, self.reach, self.col, self.val
        return [[(col[o], val[o]) for o in hand if piles[col[o]] < val[o] <= reach[col[o]]]
                for hand in self.hands]

    # ---- moves --------------------------------------------------------------

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

    def moves(self) -> list[tuple[int, int]]:
        """Every distinct move of the player to move, the likely good ones first."""
        me = self.turn % self.p
        hand = self.hands[me]
        piles, val, col, cid = self.piles, self.val, self.col, self.cid
        can_discard = self.free_clues or self.clues < self.max_clues or self.discard_at_max
        plays, spare, needed, seen = [], [], [], set()
        trash: list[int] = []          # one trash card per ``tclass`` (see ``key``)
        caps, keep = self.caps, self.keep
        for o in hand:
            k, v = col[o], val[o]
            if (v <= piles[k] or v > caps[k]) and piles[k] > keep[o]:
                if all(self.tclass[t] != self.tclass[o] for t in trash):
                    trash.append(o)
                continue
            x = cid[o]
            if x in seen:
                continue
            seen.add(x)
            if v == piles[k] + 1:
                plays.append(o)
            elif self.copies_left(x) > 1:
                spare.append(o)
            else:
                needed.append(o)
        plays.sort(key=lambda o: (-self.unlocks(o), val[o]))
        out = [(PLAY, o) for o in plays]
        top = self.deck_top()
        good_top = top >= 0 and val[top] == piles[col[top]] + 1
        if good_top:
            out.append((PLAY, top))
        spare.sort(key=lambda o: (-self.held[cid[o]], piles[col[o]] - val[o]))
        if self.by_type is None:
            clue = [(CLUE, -1)] if self.can_clue() else []
        else:
            clue = [(CLUE, t) for t in self.clue_types() if self.clues >= self.clue_cost
                    and any(self.cluable_by(q, t) for q in range(self.p) if q != me)]
        dead = [(DISCARD, o) for o in trash] if can_discard else []
        discards = [(DISCARD, o) for o in spare] if can_discard else []
        if clue and self.N - self.drawn <= self.LATE_CLUE and self.clues < FREE \
                and self.others_can_play(me):
            # near the end a discard brings the final round nearer; a clue hands
            # the turn to the players who can play without drawing (section 2)
            out += clue + dead + discards
        elif self.clues > self.max_clues // 2 or self.clues >= FREE:
            out += dead + clue + discards
        else:
            out += dead + discards + clue
        out += [(PLAY, o) for o in trash]
        if can_discard:
            out += [(DISCARD, o) for o in needed + plays]
        out += [(PLAY, o) for o in spare + needed]
        if top >= 0 and not good_top:
            out.append((PLAY, top))
        if self.plan is not None:
            return [m for m in out if m[0] != PLAY or not self.forbidden(m[1])]
        return out

    def others_can_play(self, me: int) -> bool:
        """Whether a player other than ``me`` holds a card its pile takes next."""
        piles, val, col = self.piles, self.val, self.col
        for q, hand in enumerate(self.hands):
            if q != me:
                for o in hand:
                    if piles[col[o]] + 1 == val[o]:
                        return True
        return False

    def stall_key(self, goal: int) -> tuple:
        """What the bound of a state before the last draw depends on, besides the
        player to move and the tokens (see ``stall_cut``)."""
        cid, val, col, piles, caps = self.cid, self.val, self.col, self.piles, self.caps
        hands = tuple(tuple(sorted(cid[o] for o in hand if piles[col[o]] < val[o] <= caps[col[o]]))
                      for hand in self.hands)
        return (goal, self.drawn, tuple(piles), tuple(caps), hands)

    def stall_cut(self, stalls: tuple) -> bool:
        """Whether the bound is below the goal here because it was at a state with
        the same ``stall_key`` whose clues lead here: k clues later (k < p) with at
        most k tokens fewer.  Before the last draw the bound depends on the player
        to move and the tokens only through the relaxations of sections 3.5, whose
        choices from here are among those from there (encodings/live-search.md,
        3.5, "Stalls")."""
        me, tokens = self.turn % self.p, self.clues
        for mover, had in self.cuts.get(stalls, ()):
            k = (me - mover) % self.p
            if k <= had and tokens <= had - k:
                return True
        return False

    def copies_left(self, x: int) -> int:
        pos = self.positions[x]
        return self.held[x] + len(pos) - self.seen[x]

    def unlocks(self, o: int) -> int:
        """1 if the card after ``o`` in its color is in some hand."""
        v = self.val[o]
        return 1 if v < self.n and self.held[self.cid[o] + 1] else 0

    # ---- the search -------------------------------------------------------------

    def check(self) -> None:
        """Timeout past the deadline; every MEMORY_CHECKS calls (``reaches`` calls it
        every ``check_every`` states), MemoryShort when the machine's memory runs
        short (the tables keep every refuted state)."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise Timeout
        if self.watch is not None and self.watch(self.found):
            raise Timeout
        if self.nodes // self.check_every % MEMORY_CHECKS == 0 and memory.short():
            raise MemoryShort

    def reaches(self, goal: int, budget: int = FREE) -> bool:
        """Whether some complete game from here ends with a score of at least
        ``goal``; if so, the state is left at that game's end (``taken_back`` reads
        the game).  Only games that leave the move order at most ``budget`` times
        are tried; ``self.proved`` says whether a False is a proof (no game at all
        reaches ``goal``)."""
        self.nodes += 1
        if self.nodes % self.check_every == 0:
            self.check()
        if self.nodes >= self.root_next:
            self.root_check()
        self.proved = True
        if self.over():
            return self.final_score() >= goal
        # The key is built only when a table is asked or written: on a first dive
        # that wins, never (the state is the same again after the moves are undone).
        key: tuple | None = None
        if self.drawn >= self.N - self.ENDGAME:
            # near the end the bound is costly: the table first, and it keeps the
            # bound of a cut state (an upper bound on its final score, section 4)
            key = self.key()
            known = self.tt.get(key, FREE)
            if known < goal:
                return False
            # before the last draw, a cut carries over to the states its clues
            # lead to (``stall_cut``)
            drawing = self.drawn < self.N
            if drawing:
                stalls = self.stall_key(goal)
                if self.stall_cut(stalls):
                    return False
            b = self.bound(goal)
            if b < goal:
                self.tt[key] = b if b < known else known
                if drawing:
                    self.cuts.setdefault(stalls, []).append((self.turn % self.p, self.clues))
                return False
        else:
            if self.bound(goal) < goal:
                return False
            if self.tt:
                key = self.key()
                if self.tt.get(key, FREE) < goal:
                    return False
        if budget < FREE and self.tried:
            if key is None:
                key = self.key()
            if self.tried.get(key, -1) >= budget:
                self.proved = False     # tried in this search with as much budget: no game
                return False
        if self.nodes >= self.exact_after and self.exact_window() and self.exact_pays():
            # a hard search: the deeper bound further from the end, and where it does
            # not cut, the same relaxation with the tokens counted exactly (EXACT_DEEP)
            b = self.deeper_bound(goal, self.RELAX_STEPS)
            if b >= goal:
                b = self.deeper_bound(goal, self.exact_steps, exact=True)
                self.exact_tries += 1
                if b >= goal and self.steps < 0:
                    self.exact_spent += 1
            if b < goal:
                self.tt[key if key is not None else self.key()] = b
                return False
        elif (self.deep or self.nodes >= self.DEEP_AFTER) and self.deep_window():
            # the costlier relaxation once the search has grown hard (see DEEP)
            b = self.deeper_bound(goal, self.RELAX_STEPS)
            if b < goal:
                self.tt[key if key is not None else self.key()] = b
                return False
        if self.free_clues and self.end_turn is None:
            moves = self.moves_through_free_clues()
        else:
            moves = [[m] for m in self.moves()]
        # A round with a budget leaves the order near the top of the tree first: the
        # alternatives to the first move, each charged for leaving it, then the
        # first move with the whole budget (a wrong early move is the usual reason
        # a first dive fails; section 4 of encodings/live-search.md).
        top_first = 0 < budget < FREE and len(moves) > 1
        if top_first:
            moves = moves[1:] + moves[:1]
        proved, spent, last = True, int(top_first), len(moves) - 1
        for i, steps in enumerate(moves):
            if top_first and i == last:
                spent = 0
            elif spent > budget:
                proved = False
                if top_first:
                    continue        # to the first move, which has the whole budget
                break
            for kind, order in steps:
                self.do(kind, order)
            before = self.nodes
            if self.reaches(goal, budget - spent):
                return True
            proved = proved and self.proved
            if self.nodes - before > 1:
                spent += 1      # the next move leaves the order once more
            for _ in steps:
                self.undo()
        if key is None:
            key = self.key()
        if proved:
            self.tt[key] = goal - 1
        elif budget < FREE and self.tried.get(key, -1) < budget:
            self.tried[key] = budget
        self.proved = proved
        return False

    def refuted(self, goal: int) -> dict[tuple, int]:
        """The table's states proved out of reach of ``goal`` (after a search of
        ``goal`` failed: its refutation, with what else the search refuted)."""
        return {key: best for key, best in self.tt.items() if best < goal}

    def moves_through_free_clues(self) -> list[list[tuple[int, int]]]:
        """The moves with unlimited clue tokens before the final round, where a clue
        only passes the turn: some free clues, then a play or a discard of the player
        they hand the turn to (or the clue that ends the game).  Every such move
        changes more than the turn, so no state repeats; each player's likely good
        moves come before anyone's bad ones."""
        ranked: list[tuple[int, int, list[tuple[int, int]]]] = []
        seen, clues = {self.turn % self.p}, 0
        while True:
            for rank, move in enumerate(m for m in self.moves() if m[0] != CLUE):
                ranked.append((rank, clues, [(CLUE, -1)] * clues + [move]))
            if not self.can_clue():
                break
            self.do(CLUE, -1)
            clues += 1
            if self.over():
                ranked.append((0, clues, [(CLUE, -1)] * clues))
                break
            if self.turn % self.p in seen:
                break
            seen.add(self.turn % self.p)
        for _ in range(clues):
            self.undo()
        ranked.sort(key=lambda r: (r[0], r[1]))
        return [steps for _, _, steps in ranked]

    def taken_back(self) -> list[Action]:
        """The moves since the position as actions, each undone: the state is back at
        the position after.  A clue's content is chosen in the state it was given in
        (``clue_action``), reached here by the undo; the search itself records no
        actions, as most of the states it visits are not on the game it returns."""
        out: list[Action] = []
        while self.trail:
            kind, order = self.trail[-1][0], self.trail[-1][1]
            self.undo()
            out.append(self.clue_action(order) if kind == CLUE else
                       Action.discard(order) if kind == DISCARD else Action.play(order))
        out.reverse()
        return out

    def game(self, goal: int, first: int = 0,
             last: int | None = None) -> tuple[list[Action], int] | None:
        """A complete game from the deal with a final score of at least ``goal`` and
        that score, or None if there is none.  The state is back at the deal after.

        Games that leave the move order at most 0, 1, 2, ... times are tried first
        (limited discrepancy search): a wrong early move is then mended without
        first trying every alternative after it.  The last round has no limit.
        ``first`` and ``last`` choose a slice of the rounds: None is then also the
        answer when the rounds tried proved nothing (``self.proved`` says which).
        From the second round on, the relaxation at the position
        runs beside the search (``start_root_cut``); where it shows the goal out of
        reach, the search ends there and the position's state goes into the table
        with its bound."""
        rounds = (*self.BUDGETS, FREE)
        if goal != self.tried_goal:
            self.tried.clear()
            self.tried_goal = goal
        try:
            return self._rounds(goal, rounds[first:last], first, last is not None)
        except RootCut as cut:
            while self.trail:
                self.undo()
            self.tt[self.key()] = cut.bound
            self.root_cut_goal = goal
            self.proved = True
            return None
        finally:
            self.root_next = FREE

    def _rounds(self, goal: int, rounds: tuple[int, ...], first: int,
                sliced: bool) -> tuple[list[Action], int] | None:
        """``game``'s rounds (RootCut where the relaxation at the position ends them)."""
        for i, budget in enumerate(rounds, start=first):
            if i and (self.p <= self.DEEP_EARLY_PLAYERS
                      or self.N - self.drawn <= self.DEEP_EARLY_LEFT):
                self.deep = True
            if i == max(first, 1):
                # the first dive has failed: the relaxation at the position too
                self.start_root_cut(goal)
            if self.reaches(goal, budget):
                score = self.final_score()
                game = self.taken_back(), score
                if self.found is None or score > self.found[1]:
                    self.found = game
                return game
            if self.proved:
                return None
        if sliced:
            return None
        raise AssertionError("an unlimited search is a proof")


def most_plays(order: list[int], hands: list[list[tuple[int, int]]],
               piles: list[int], enough: int = FREE, floor: int = 0) -> int:
    """The most cards the turns of players ``order`` can play from ``hands``
    ((color index, value) pairs), one card or none per turn, from ``piles`` on;
    the search stops once ``enough`` is reached, and a result at or below ``floor``
    only says that the most is at or below it (branches that cannot play more
    than ``floor`` are dropped).  A turn that can play one of its cards is never
    better off passing (encodings/live-search.md, 3.5), so only turns that cannot
    play pass."""
    piles = list(piles)
    L = len(order)
    # per turn, the mover's distinct cards above their piles (piles only grow, so
    # the others never play); ``left[i]``: turns from i on whose mover has one
    # (the order of a turn's cards changes how fast, never what, the search finds)
    cards = [list({(k, v) for k, v in hands[x] if v > piles[k]}) for x in order]
    left = [0] * (L + 1)
    for i in range(L - 1, -1, -1):
        left[i] = left[i + 1] + (1 if cards[i] else 0)
    if left[0] == 0:
        return 0
    # (turn, piles) -> the most cards played on reaching it: the hands never change,
    # so a later visit with no more cards played cannot do better
    seen: dict[tuple, int] = {}
    return min(_most(0, 0, max(floor, 0), cards, left, piles, seen, enough), enough)


def _most(i: int, played: int, best: int, cards: list[list[tuple[int, int]]],
          left: list[int], piles: list[int], seen: dict[tuple, int], enough: int) -> int:
    """``most_plays``'s search from turn ``i``: the most cards played, at least
    ``best`` (a function, not a closure: compiled, much faster)."""
    if played > best:
        best = played
    if played + left[i] <= best or best >= enough:
        return best
    key = (i, *piles)
    if seen.get(key, -1) >= played:
        return best
    seen[key] = played
    passes = True
    for k, v in cards[i]:
        if piles[k] + 1 == v:
            passes = False      # a turn that can play never does better passing
            piles[k] = v
            best = _most(i + 1, played + 1, best, cards, left, piles, seen, enough)
            piles[k] = v - 1
    if passes:
        best = _most(i + 1, played, best, cards, left, piles, seen, enough)
    return best


def run(start: Game, options: SolveOptions) -> LiveOutcome:
    """The search, by this module's compiled copy when one was built from this very
    source (``runtime.compiled``; the same code, about three times faster), else here."""
    core = load(__name__, __file__)
    out = (core or sys.modules[__name__]).search(start, options)
    out.stats["core"] = "compiled" if core is not None else "python"
    return out


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
        return _with_deep_stack(start, lambda: _plans(start, options.maximize, deadline))
    return _with_deep_stack(start, lambda: _one_search(start, options, deadline))


def _one_search(start: Game, options: SolveOptions, deadline: float | None) -> LiveOutcome:
    s = LiveSearch(start, deadline)
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


def after_last(rules: Rules) -> int:
    """The plays an upper bound allows after the last draw: one per player in the
    final round, else every card still held; one more with a deck play (which draws
    and plays at once)."""
    final_round = rules.final_round and not rules.all_or_nothing
    return (rules.players if final_round else rules.players * rules.hand_size) \
        + rules.deck_plays


def start_plans(start: Game) -> Iterator[tuple[int, Plan]]:
    """The plans of the position (``pile_plans``), each with its piles' caps as a
    first upper bound, highest first (``plans_by_bound``)."""
    v = start.chosen
    assert v is not None
    left, first = copies_left(start)
    never = start.deck.N

    def late(k: int, order: tuple[int, ...]) -> int:
        # per height, when the deck has dealt a copy of each card up to it: how long
        # the order keeps its pile waiting (every order of a Sudoku pile takes the
        # same cards, and a heuristic's total of them would tie every plan)
        at, total = 0, 0
        for r in order:
            at = max(at, first.get((k, r), never))
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


def _plans(start: Game, maximize: bool, deadline: float | None) -> LiveOutcome:
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
                                   reason=f"{_why(stop)}: {searched} of {total} pile plans "
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


DIVE_ROUNDS = 2     # ``_plans``'s first pass: the search's rounds of budget 0 and 1


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
        return LiveOutcome(Status.UNKNOWN, reason=f"{_why(stop)}; undecided", stats=_stats(s))
    if game is not None:
        return LiveOutcome(Status.WINNABLE, game[0], stats=_stats(s))
    why = s.lost = _lost(start)
    if why is not None:
        return LiveOutcome(Status.UNWINNABLE, reason=why, stats=_stats(s))
    try:
        game = None if s.proved else s.game(s.target, 1)
    except Timeout as stop:
        return LiveOutcome(Status.UNKNOWN, reason=f"{_why(stop)}; undecided", stats=_stats(s))
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
            return LiveOutcome(Status.UNKNOWN, reason=f"{_why(stop)} before any game was found",
                               stats=_stats(s))
        return LiveOutcome(Status.UNKNOWN, best[0], best[1],
                           stats={**_stats(s), "upper_bound": top},
                           reason=f"{_why(stop)}: best score found {best[1]}, "
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


METHOD = LiveMethod("search", run, "depth-first search with sound bounds (pace, hand "
                    "size, bottom card) and a transposition table", maximizes=True)
