"""Method "cpsat": the real game as an OR-Tools CP-SAT model (``real.encoders.cpsat``,
encodings/live-cpsat.md) of the rest of the game from the position it is given;
``--maximize`` through the model's objective.  All or nothing is refused
(``schedule.refuses``)."""

from __future__ import annotations

from ...runtime.deadline import Deadline, TimeUp
from ...core.options import SolveOptions
from ...core.status import Status
from ...solvers.cpsat import load_ortools, ortools_loaded
from ..hint import hint_choices
from ..encoders.schedule import refuses
from ..pile_order import in_pile_order
from ..pile_plans import Plan
from ..encoders.plans import best_by_plans, by_plans
from ..referee import Game
from ..solve import LiveMethod, LiveOutcome, decided_now


def run(start: Game, options: SolveOptions) -> LiveOutcome:
    dealt = decided_now(start, options.maximize)
    if dealt is not None:
        return dealt
    deadline = options.clock()
    if start.chosen is not None:        # Up or Down, Sudoku: plan by plan (8.5)
        if not options.maximize:
            return by_plans(start, "CP-SAT",
                            lambda plan: _solve(start, options, deadline, plan))
        return best_by_plans(start, "CP-SAT",
                             lambda plan, floor: _solve(start, options, deadline, plan, floor))
    start = in_pile_order(start)        # reversed suits (encodings/variants.md, 7.5)
    return _solve(start, options, deadline)


def _solve(start: Game, options: SolveOptions, deadline: Deadline,
           plan: Plan | None = None, floor: int = -1) -> LiveOutcome:
    """The model of the position (of one pile plan's game, scoring more than
    ``floor``), solved."""
    from ..encoders.cpsat import LiveCpModel  # OR-Tools loads only when this method runs
    try:
        model = LiveCpModel(start, options.maximize, deadline, plan, floor)
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
                    refuses=refuses, maximizes=True, prepare=load_ortools,
                    ready=ortools_loaded)
