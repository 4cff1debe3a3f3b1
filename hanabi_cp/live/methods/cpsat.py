"""Method "cpsat": the real game as an OR-Tools CP-SAT model (``live.cpmodel``,
encodings/live-cpsat.md); ``--maximize`` through the model's objective."""

from __future__ import annotations

from ...deadline import TimeUp
from ...model import Deck
from ...solvers import SolveOptions, Status
from ..hint import greedy_game
from ..referee import Game
from ..rules import Rules
from ..schedule import from_actions, refuses
from ..solve import LiveMethod, LiveOutcome, register


def run(deck: Deck, rules: Rules, options: SolveOptions) -> LiveOutcome:
    start = Game.start(deck, rules)
    if start.over:          # nothing to decide: the deal already ends the game
        status = Status.WINNABLE if start.won else Status.UNWINNABLE
        return LiveOutcome(status, [], start.score if options.maximize else None,
                           reason=None if start.won else "the game is over at the deal")
    from ..cpmodel import LiveCpModel      # OR-Tools loads only when this method runs

    deadline = options.clock()
    try:
        model = LiveCpModel(deck, rules, options.maximize, deadline)
    except TimeUp as exc:
        return LiveOutcome(Status.UNKNOWN, reason=str(exc))
    # The greedy game as a hint: when it wins, CP-SAT confirms it without search.
    for var, value in model.values(*from_actions(deck, rules, greedy_game(deck, rules))):
        model.m.add_hint(var, value)
    return model.solve(options, deadline)


register(LiveMethod("cpsat", run, "OR-Tools CP-SAT over slots (plays and discards), clue "
                    "runs and card-leaves-at-slot literals; --maximize for the best score",
                    refuses=refuses, maximizes=True))
