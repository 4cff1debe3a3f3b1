"""The relaxation of the last draws by dynamic programming (``relaxed_plays``).

``endgame_bound``'s relaxation from any number of cards left (encodings/live-search.md,
3.5): during the search from up to ``DEEP`` cards left (``deeper_bound``), with the
tokens counted exactly from up to ``EXACT_DEEP`` (``exact_window``), and at the
position itself beside the search (``start_root_cut``, ``root_check``)."""

from __future__ import annotations

from ...pile_plans import Plan
from ...referee import Game
from .bounds import Bounds
from .state import FREE
from .stops import RootCut, Timeout

# Where ``relaxed_plays`` starts: the arguments of ``Relaxed._relaxed`` but the step
# count.  ``pos``: the deck position (of ``draws``; past the end: the final round,
# ``pos`` counting its turns); ``hands``: player q's needed (color, value) at bits
# q * c * n + color * n + value - 1; ``code``: the piles as one number; ``front``:
# the bits of the cards the piles take next.  A table of the relaxation's states
# (``Memo``) has two levels: the deck position, mover, tokens and piles as one
# number, then the hands.  Each key fits a machine word where the hands do (2
# players: 50 or 60 bits); one number of both had more than 64 bits, built and
# hashed as a Python int (encodings/live-search.md, 6.1, "The relaxation's table
# in two levels").
Memo = dict[int, dict[int, int]]
Relaxation = tuple[int, int, int, int, int, int, list[int], int, list[int],
                   Memo, bool, int, Memo]


class Relaxed(Bounds):
    """The costlier bounds: the relaxation, asked once the search has grown hard."""

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
        super().__init__(start, deadline, plan)
        n, c, N = self.n, self.c, self.N
        # set from the second round on (``LiveSearch._rounds``): the deeper bound
        # without waiting for DEEP_AFTER states
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
        # annotated: ``**`` of two ints is ``Any`` to mypy, and compiled, every sum
        # over them would be a generic one
        self.radix: list[int] = [(n + 1) ** k for k in range(c)]
        self.code_span: int = (n + 1) ** c
        self.token_span = (self.p - 1) * N + 1
        self.steps = 0          # what is left of one ``relaxed_plays``'s steps
        # ``relaxed_plays``'s tables per reach (as one number): the bit of each deck
        # position's card, and per state of the relaxation (``Memo``) 2 * an upper
        # bound on its most plays, or 2 * a count of plays it reaches + 1
        self.relaxed: dict[int, tuple[list[int], Memo]] = {}
        # ``start_root_cut``: the relaxation's start, the score there, and when (in
        # states of the search) and with how many steps to ask it again
        self.root_from: Relaxation = (0, 0, 0, 0, 0, 0, [], 0, [], {}, True, FREE, {})
        self.root_cut_goal = -1         # the last goal it showed out of reach
        self.root_score = 0
        self.root_next = FREE
        self.root_steps = 0

    def hard_bound(self, goal: int) -> int:
        """Once the search has grown hard, an upper bound on the final score below
        ``goal`` where the relaxation shows one, else ``goal``: the deeper bound, and
        from EXACT_AFTER states on, where it does not cut, the same relaxation with
        the tokens counted exactly (EXACT_DEEP)."""
        if self.nodes >= self.exact_after and self.exact_window() and self.exact_pays():
            b = self.deeper_bound(goal, self.RELAX_STEPS)
            if b >= goal:
                b = self.deeper_bound(goal, self.exact_steps, exact=True)
                self.exact_tries += 1
                if b >= goal and self.steps < 0:
                    self.exact_spent += 1
            return b
        if (self.deep or self.nodes >= self.DEEP_AFTER) and self.deep_window():
            # the costlier relaxation once the search has grown hard (see DEEP)
            return self.deeper_bound(goal, self.RELAX_STEPS)
        return goal

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
            if self.late():
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

    def _relaxed(self, pos: int, turn: int, tokens: int, hands: int, code: int, front: int, piles: list[int],
                 need: int, draws: list[int], memo: Memo, exact: bool, hand: int,
                 plain: Memo) -> int:
        """``relaxed_plays`` from one state of the relaxation (``Relaxation`` says
        what each argument holds; a method, not a closure: compiled, much faster)."""
        if need <= 0:
            return 0
        self.steps -= 1
        if self.steps < 0:
            return need         # out of steps: as if reached, which cuts nothing
        n, p, L = self.n, self.p, len(draws)
        left = L + p - pos          # turns that can still play: draws, final round
        if left < need:
            return left
        rest = ((pos * p + turn) * self.token_span + tokens) * self.code_span + code
        sub = memo.get(rest)
        if sub is None:
            sub = memo[rest] = {}
        known = sub.get(hands, -1)
        if known >= 0:
            # (even) an upper bound below what was asked for then, (odd) plays reached
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
                    sub[hands] = most << 1
                return most
        width, part = self.width, self.part
        best = 0
        drawing = pos < L
        stalls = min(tokens, p - 1) if drawing else 0
        # the tokens worth keeping after this draw: at most one clue per other player per draw
        # left (two ``min``s, not one of three: compiled, ``min`` of two ints is a comparison)
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
                        got = self._relaxed(pos + 1, (x + 1) % p, after, hands ^ (bit << base), code, front, piles,
                                            need, draws, memo, exact, hand, plain)
                        if got > best:
                            best = got
                else:
                    got = self._relaxed(pos + 1, (x + 1) % p, after, hands, code, front, piles,
                                        need, draws, memo, exact, hand, plain)
                    if got > best:
                        best = got
            if best >= need:
                if self.steps >= 0:
                    sub[mine] = best << 1 | 1     # ``mine``: the key's hands
                return best
            hands = mine
        sub[hands] = best << 1
        return best
