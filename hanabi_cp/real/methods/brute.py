"""Brute force over real-rules games: the oracle for tiny decks.

Every legal move of the referee's ``Game.legal_actions`` is tried from every
reachable state; the best final score of a state is memoised under a key that
forgets only what cannot matter for the rest of the game: which deck positions the
hands hold (only the cards' values and colors count), the absolute turn (only whose
turn it is and how many final-round turns are left count) and the cards already
lost.  In Up or Down and Sudoku the piles are the values played on them, in order
(``Game.played``: a pile's next values turn on them), with the server's max score
(``Game.best``, which ends the game once the score reaches it).
No bound, no dominance, no move ordering: the only shortcut is stopping once
a state's best score reaches the deck's target, which nothing can beat.

With unlimited clue tokens a clue changes nothing but whose turn it is, so before
the final round clues can cycle through the players forever.  Such a cycle adds no
finished game, so the best score of a state is the best score of a play or discard
by any player the chain of clues can hand the turn to (the clue chain stops at a
player who cannot clue: nobody else can be clued).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
import time

from ...core.options import SolveOptions
from ...core.status import Status
from ..actions import Action
from ..referee import Game
from ..solve import LiveMethod, LiveOutcome

MAX_CARDS = 14        # with more cards the reachable states run into the millions
MAX_CLUES = 12        # each token count is another copy of the state space
STATE_LIMIT = 2_000_000
CHECK_EVERY = 1024    # states between two looks at the clock


class _Stop(Exception):
    """The time or state limit was reached (the answer is UNKNOWN)."""


def _refuses(start: Game) -> str | None:
    deck, rules = start.deck, start.rules
    if deck.N > MAX_CARDS:
        return (f"{deck.N} cards: brute force visits every reachable state, which grows "
                f"exponentially with the deck (limit {MAX_CARDS} cards); use search")
    if rules.clues is not None and rules.clues > MAX_CLUES:
        return (f"{rules.clues} clue tokens: every token count multiplies the states "
                f"(limit {MAX_CLUES}, or unlimited); use search")
    return None


def child(g: Game, action: Action) -> Game:
    """The game after ``action``, leaving ``g`` as it was."""
    h = g.copy()
    h.apply(action)
    return h


class BestScore:
    """Best final score of every reachable state of one game, memoised."""

    def __init__(self, start: Game, deadline: float | None = None):
        self.start = start
        self.deck, self.rules, self.deadline = start.deck, start.rules, deadline
        self.memo: dict[tuple, int] = {}

    def key(self, g: Game) -> tuple:
        cards = self.deck.cards
        left = None if g.end_turn is None else g.end_turn - g.turn
        piles = (tuple(g.played), g.best) if g.played else tuple(g.piles)
        return (tuple(tuple(sorted(cards[o] for o in hand)) for hand in g.hands), g.drawn,
                piles, g.clues, g.strikes, g.player, left, g.over,
                g.last_clue if self.rules.alternating_clues else None)

    def clue_cycles(self, g: Game) -> bool:
        # Clues cycle only when they cost nothing and no final-round turn is counted.
        return g.clues is None and g.end_turn is None

    def value(self, g: Game) -> int:
        if g.over:
            return g.score
        key = self.key(g)
        got = self.memo.get(key)
        if got is not None:
            return got
        if len(self.memo) % CHECK_EVERY == 0:
            if len(self.memo) >= STATE_LIMIT:
                raise _Stop(f"brute force reached {STATE_LIMIT:,} states")
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise _Stop("time limit reached")
        target, best = self.start.target, -1
        moves = self.moves_through_free_clues(g) if self.clue_cycles(g) else \
            ((g, a) for a in g.legal_actions())
        for t, a in moves:
            best = max(best, self.value(child(t, a)))
            if best == target:
                break
        if best < 0:
            raise AssertionError("a game that is not over has no legal move")
        self.memo[key] = best
        return best

    def moves_through_free_clues(self, g: Game) -> Iterator[tuple[Game, Action]]:
        """(state, move) for every play and discard of ``g`` and of the states that
        clue after clue hands the turn to, and the clue that ends the game if one does."""
        t, seen = g, {g.player}
        while True:
            yield from ((t, a) for a in t.legal_actions() if not a.is_clue)
            if not t.can_clue():
                return
            clue = t.some_clue(self.some_clued(t))
            nxt = child(t, clue)
            if nxt.over:
                yield t, clue
                return
            if nxt.player in seen:
                return
            t = nxt
            seen.add(t.player)

    @staticmethod
    def some_clued(g: Game) -> int:
        # a player the mover can clue: one holding a card some clue touches, or
        # anyone else where a clue need not touch (not merely one holding a card)
        return next(p for p in range(g.rules.players) if g.cluable(p))

    def best_game(self) -> tuple[int, list[Action]]:
        """The best final score from the start and the rest of a game reaching it."""
        g = self.start.copy()
        best = self.value(g)
        actions: list[Action] = []
        while not g.over:
            step = next((a for a in g.legal_actions() if not a.is_clue
                         and self.value(child(g, a)) == best), None)
            if step is None:   # the best is reached only after a clue
                step = next(a for a in g.legal_actions() if a.is_clue
                            and self.value(child(g, a)) == best)
            actions.append(step)
            g = child(g, step)
        return best, actions


def run(start: Game, options: SolveOptions) -> LiveOutcome:
    deck, rules = start.deck, start.rules
    deadline = None if options.time_limit is None else time.perf_counter() + options.time_limit
    search = BestScore(start, deadline)
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20 * (deck.N + (rules.clues or 0)) + 1000))
    try:
        score, actions = search.best_game()
    except _Stop as stop:
        return LiveOutcome(Status.UNKNOWN, reason=f"{stop}; undecided",
                           stats={"states": len(search.memo)})
    finally:
        sys.setrecursionlimit(old)
    won = score == start.target
    stats = {"states": len(search.memo)}
    if won:
        return LiveOutcome(Status.WINNABLE, actions, score if options.maximize else None,
                           stats=stats)
    reason = f"exhaustive search: the best game scores {score} of {start.target}"
    if options.maximize:
        return LiveOutcome(Status.UNWINNABLE, actions, score, reason, stats=stats)
    return LiveOutcome(Status.UNWINNABLE, reason=reason, stats=stats)


METHOD = LiveMethod("brute", run, "every legal move from every state, memoised "
                    "(the oracle for tiny decks)", refuses=_refuses, maximizes=True)
