"""CP-SAT's parameters, set in one place for every CP-SAT model of both wings.

The seed and workers come from ``SolveOptions``; the rest are choices measured on
our models (encodings/cpsat.md), and the time is what is left of the command's.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ..core.options import SolveOptions
from ..runtime.deadline import NEVER, Deadline

if TYPE_CHECKING:
    from ortools.sat.python import cp_model


# OR-Tools' CP-SAT module: its first import also loads numpy and pandas, 1.5-1.9 s
# on a loaded 2-core machine (pandas alone 1.3 s), more than a short stage's share.
CP_MODEL = "ortools.sat.python.cp_model"


def load_ortools() -> None:
    """Import CP-SAT now (a method's ``prepare``)."""
    __import__(CP_MODEL)


def ortools_loaded() -> bool:
    """Whether CP-SAT is imported already (a method's ``ready``)."""
    return CP_MODEL in sys.modules


def configure(solver: cp_model.CpSolver, options: SolveOptions,
              deadline: Deadline = NEVER) -> None:
    """Every solver parameter the method sets, in one place."""
    p = solver.parameters
    p.num_workers = max(1, options.workers)
    p.random_seed = options.seed
    # The models are small and propagation-driven: presolve, probing, symmetry
    # detection and LP relaxations cost more than they save (measured by
    # bench/encoders.py: median solve 13 ms -> 1.4 ms on standard decks, h = 4,
    # and 4x less on random r = 2 decks; see encodings/cpsat.md).
    p.cp_model_presolve = False
    p.cp_model_probing_level = 0
    p.symmetry_level = 0
    p.linearization_level = 0
    # CP-SAT would otherwise take SIGINT for itself and return its best answer so far
    # as if the search had ended; Ctrl-C must end the command, not shape its answer.
    p.catch_sigint_signal = False
    # What is left of the command's time, not the whole limit: building and
    # preprocessing have used some of it already.
    if deadline.bounded:
        p.max_time_in_seconds = max(deadline.remaining(), 0.0)
    elif options.time_limit is not None:
        p.max_time_in_seconds = float(options.time_limit)
