"""Method "cpsat": the real game as an OR-Tools CP-SAT model (``live.cpmodel``,
encodings/live-cpsat.md) of the rest of the game from the position it is given;
``--maximize`` through the model's objective.  All or nothing is refused
(``schedule.refuses``)."""

from __future__ import annotations

from ...runtime.deadline import TimeUp
from ...method_registry import SolveOptions, Status
from ..hint import hint_choices
from ..schedule import refuses
from ..pile_order import in_pile_order
from ..referee import Game
from ..solve import LiveMethod, LiveOutcome, decided_now


def run(start: Game, options: SolveOptions) -> LiveOutcome:
    dealt = decided_now(start, options.maximize)
    if dealt is not None:
        return dealt
    from ..cpmodel import LiveCpModel      # OR-Tools loads only when this method runs

    start = in_pile_order(start)        # reversed suits (encodings/variants.md, 7.5)

    deadline = options.clock()
    try:
        model = LiveCpModel(start, options.maximize, deadline)
    except TimeUp as exc:
        return LiveOutcome(Status.UNKNOWN, reason=str(exc))
    # The greedy game as a hint: when it wins, CP-SAT confirms it without search.  An
    # earlier stage's best game (``incumbent``, with maximize) hints better.
    hint = hint_choices(start, options.incumbent if options.maximize else None)
    for var, value in model.values(*hint):
        model.m.add_hint(var, value)
    return model.solve(options, deadline)


METHOD = LiveMethod("cpsat", run, "OR-Tools CP-SAT over slots (plays and discards), clue "
                    "runs and card-leaves-at-slot literals; --maximize for the best score",
                    refuses=refuses, maximizes=True)
