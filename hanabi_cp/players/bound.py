"""The bound: a deck's exact best score with open hands, against which bots are scored.

``deck_bound(deck, rules)`` asks the real-rules methods for the best score
(``real.solve.solve_live`` with ``maximize``: its certificate, a complete game
reaching that score, is replayed by the referee before it is returned).  No
hidden-information strategy can score more on that deck under those rules: a
strategy's game is one of the games the maximum ranges over.  The fast exact search
goes first with a quarter of the time limit; if it does not decide, the SAT and
CP-SAT encodings share the rest (``real.solve``'s ``auto``); a deck still undecided
is UNKNOWN (with the best game
found as a lower bound), to be counted as such, never guessed.

``check_bot(game, bound)`` raises ``BoundViolation`` when a bot beat the bound (a
bug in the bot's engine or in the solver), after shrinking the deck to a small one
that still shows it (``harness.shrink``: fewer cards, values, colors, a smaller
hand).

``with_games`` completes an undecided bound with the strategies' own games (each a
refereed legal game: a won one proves the deck winnable).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..core.errors import SolverBug
from ..apps.harness.shrink import shrink
from ..real.referee import replay
from ..real.rules import Rules
from ..real.solve import solve_live
from ..core.model import Deck
from ..core.options import SolveOptions
from ..core.status import Status
from .game import PlayedGame, play_game


@dataclass(frozen=True)
class Bound:
    best: int | None          # the exact best score; None if undecided
    winnable: bool | None     # best == the deck's target; None if undecided
    lower: int | None         # the best score of a refereed game found (== best if decided)
    method: str
    seconds: float

    @property
    def decided(self) -> bool:
        return self.best is not None


def deck_bound(deck: Deck, rules: Rules, time_limit: float | None = 10.0) -> Bound:
    """The best score of ``deck`` under ``rules`` with open hands, certified
    (``solve_live``'s ``auto``: the search, then the SAT and CP-SAT encodings with
    the time it leaves)."""
    start = time.perf_counter()
    out = solve_live(deck, rules, "auto", SolveOptions(time_limit=time_limit, maximize=True))
    seconds = time.perf_counter() - start
    if out.status is Status.UNKNOWN:
        return Bound(None, None, out.score, out.method, seconds)
    assert out.score is not None and out.verified
    return Bound(out.score, out.score == deck.target, out.score, out.method, seconds)


def with_games(bound: Bound, deck: Deck, rules: Rules, games: list[PlayedGame]) -> Bound:
    """An undecided bound completed by the strategies' own games on the deck: each is a
    complete legal game under the same rules (replayed here by the referee), so the
    best of them is a lower bound, and a won one proves the best score is the
    target.  A decided bound is returned as it is."""
    if bound.decided:
        return bound
    lower = bound.lower
    for game in games:
        rep = replay(deck, rules, game.actions)
        if not (rep.legal and rep.complete and rep.score == game.score):
            raise SolverBug(f"strategy {game.strategy!r}: its game does not replay: {rep.error}")
        lower = max(lower or 0, rep.score)
    if lower == deck.target:
        return Bound(lower, True, lower, f"{bound.method} undecided, a strategy's game wins",
                     bound.seconds)
    return Bound(None, None, lower, bound.method, bound.seconds)


class BoundViolation(SolverBug):
    """A bot scored above the exact best score of its deck."""


def check_bot(game: PlayedGame, bound: Bound, shrink_tests: int = 300,
              shrink_limit: float = 5.0) -> None:
    """BoundViolation if ``game`` scored above ``bound`` (shrunk to a small deck, at
    most ``shrink_tests`` variants, each bound within ``shrink_limit`` seconds)."""
    if bound.best is None or game.score <= bound.best:
        return
    rules = game.rules

    def fails(deck: Deck, h: int) -> bool:
        if h < 1:
            return False
        try:
            r = Rules(rules.players, h, rules.clues, rules.strikes, rules.final_round)
            played = play_game(deck, r, game.strategy, game.seed)
            b = deck_bound(deck, r, shrink_limit)
        except Exception:      # another failure (a crash) is not this one
            return False
        return b.best is not None and played.score > b.best

    small = shrink(game.deck, rules.hand_size, fails, max_tests=shrink_tests)
    raise BoundViolation(
        f"strategy {game.strategy!r} scored {game.score} above the best score "
        f"{bound.best} of its deck ({rules.describe()}, seed {game.seed}); smallest "
        f"deck found: {small.deck} with hand size {small.h}")
