"""Method "cpsat": the real game as an OR-Tools CP-SAT model (``live.cpmodel``,
encodings/live-cpsat.md); ``--maximize`` through the model's objective."""

from __future__ import annotations

from ...deadline import TimeUp
from ...model import Deck
from ...solvers import SolveOptions, Status
from ..hint import greedy_game
from ..rules import Rules
from ..schedule import decided_at_deal, from_actions, refuses
from ..solve import LiveMethod, LiveOutcome, register


def run(deck: Deck, rules: Rules, options: SolveOptions) -> LiveOutcome:
    dealt = decided_at_deal(deck, rules, options.maximize)
    if dealt is not None:
        return dealt
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
