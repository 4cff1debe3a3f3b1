"""How to solve, for every method of both wings: ``SolveOptions``.

A time limit for the whole solve, a seed and workers (CP-SAT), the pysat solver of
the CNF methods, a proof path, ``maximize`` for the best score, the command's
deadline and, for real rules, an incumbent game.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..runtime.deadline import Deadline
from .errors import InvalidParameter

# pysat's name of CaDiCaL 1.9.5, the solver of the CNF methods unless one is named
# (solvers/sat_backend.py lists the others and the ones that write proofs).
DEFAULT_SOLVER = "cadical195"

# CP-SAT's random_seed is an int32; more workers than this only cost memory.
SEED_RANGE = (-2**31, 2**31 - 1)
MAX_WORKERS = 256


@dataclass(frozen=True)
class SolveOptions:
    """How to solve: a time limit (seconds, for the whole solve), a seed and
    workers (CP-SAT), a pysat ``solver`` for the CNF methods, a ``proof`` path,
    and ``maximize`` for the best score instead of a yes/no.

    >>> SolveOptions(time_limit=10, maximize=True).clock().bounded
    True
    >>> SolveOptions(time_limit=-1)
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.InvalidParameter: time_limit -1: expected a number of seconds >= 0
    """

    time_limit: float | None = None    # seconds; on expiry a method returns UNKNOWN
    seed: int = 0
    workers: int = 1
    solver: str = DEFAULT_SOLVER       # pysat solver name for CNF methods
    proof: str | None = None           # path for an UNSAT proof (proof-producing methods)
    maximize: bool = False             # return the best score instead of a yes/no
    # The command's deadline when it started before this solve (a CLI that counts
    # reading the deck); else ``solve`` starts one of ``time_limit`` seconds.
    deadline: Deadline | None = None
    # Real rules with ``maximize``: a complete game from the position (its actions,
    # ``real.actions.Action``; the referee replays it first), e.g. one an earlier
    # method found.  The encodings start from it: ``sat`` climbs from its score when
    # a model extends it, ``cpsat`` takes it as its hint; ``auto`` hands each stage
    # the best game so far, so that a score the search has already reached is not
    # asked for again by a SAT call.
    incumbent: tuple | None = None

    def __post_init__(self) -> None:
        # The API allows 0 (a deadline already passed) and inf (none); the CLI's
        # --time-limit is stricter (cli.common.Seconds).  NaN would never expire.
        t = self.time_limit
        if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float))
                              or not t >= 0):
            raise InvalidParameter(f"{{time_limit}} {t!r}: expected a number of seconds >= 0", "time_limit")
        if not SEED_RANGE[0] <= self.seed <= SEED_RANGE[1]:
            raise InvalidParameter(f"{{seed}} {self.seed} is outside CP-SAT's random_seed range "
                                   f"{SEED_RANGE[0]}..{SEED_RANGE[1]}", "seed")
        if self.workers > MAX_WORKERS:
            raise InvalidParameter(f"{{workers}} {self.workers} is more than {MAX_WORKERS}", "workers")

    def clock(self) -> Deadline:
        """The deadline every phase of a method checks: ``deadline`` if set, else
        ``time_limit`` seconds from now (a method run outside ``solve``)."""
        return self.deadline if self.deadline is not None else Deadline.after(self.time_limit)


