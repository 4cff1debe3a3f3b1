"""The one clock behind ``--time-limit S``: a whole command ends within S seconds.

A command creates its ``Deadline`` once, before it reads its input, and every
phase after that (reading, preprocessing, building a model, solving, writing and
checking a proof) checks the same deadline, cooperatively, every few thousand
steps of its loops.  When it has passed, ``check`` raises ``TimeUp``, which names
the phase; ``solitaire.solve.solve`` and the commands turn it into ``s UNKNOWN`` (exit 0).

TimeUp is deliberately not a HanabiError: running out of time is not a mistake of
the user, and it must never be reported as one (nor swallowed as a refusal).

Readers cannot take a deadline argument without threading it through every format,
so a command also makes its deadline *ambient* (``ambient``) and readers ``poll``.

>>> d = Deadline.after(0.5)
>>> d.bounded, 0 < d.remaining() <= 0.5, d.expired()
(True, True, False)
>>> Deadline.after(None).remaining()
inf
>>> Deadline.after(1e-9, start=0.0).check("building the CNF")
Traceback (most recent call last):
...
hanabi_cp.runtime.deadline.TimeUp: time limit of 1e-09 s reached during building the CNF
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass

# How often loops over cards, clauses or segments look at the clock: a power of two
# minus one, used as ``if not i & EVERY: deadline.check(...)``.  A check costs about
# 50 ns; 4096 steps of the slowest loop (cnf.build) take well under 10 ms.
EVERY = 4095


class TimeUp(Exception):
    """The deadline passed during ``phase``; the answer is UNKNOWN.

    >>> str(TimeUp(2.0, "SAT search"))
    'time limit of 2 s reached during SAT search'
    """

    def __init__(self, limit: float, phase: str):
        self.limit, self.phase = limit, phase
        super().__init__(f"time limit of {limit:g} s reached during {phase}")


@dataclass(frozen=True)
class Deadline:
    """An absolute point on the monotonic clock (``at``), ``limit`` seconds after
    the command started; ``limit`` is infinite when no time limit was given."""

    limit: float
    at: float

    @classmethod
    def after(cls, seconds: float | None, start: float | None = None) -> Deadline:
        """The deadline ``seconds`` after ``start`` (default: now); None: never."""
        if seconds is None:
            return NEVER
        return cls(float(seconds), (time.monotonic() if start is None else start) + seconds)

    @property
    def bounded(self) -> bool:
        return not math.isinf(self.limit)

    def remaining(self) -> float:
        """Seconds left (negative once passed; infinite without a limit)."""
        return self.at - time.monotonic() if self.bounded else math.inf

    def share(self, seconds: float | None) -> float | None:
        """The seconds one piece of work may take: at most ``seconds`` (None: no cap
        of its own) and what is left; None when neither bounds it."""
        if not self.bounded:
            return seconds
        left = self.remaining()
        return left if seconds is None else min(seconds, left)

    def expired(self) -> bool:
        return self.bounded and time.monotonic() >= self.at

    def on_perf_counter(self) -> float | None:
        """The deadline on ``time.perf_counter``'s clock, which the real-rules search
        reads; None without a limit."""
        return time.perf_counter() + self.remaining() if self.bounded else None

    def check(self, phase: str) -> None:
        """Raise TimeUp if the deadline has passed."""
        if self.bounded and time.monotonic() >= self.at:
            raise TimeUp(self.limit, phase)


NEVER = NO_DEADLINE = Deadline(math.inf, math.inf)

_AMBIENT: ContextVar[Deadline] = ContextVar("hanabi_cp_deadline", default=NEVER)


@contextlib.contextmanager
def ambient(deadline: Deadline) -> Iterator[Deadline]:
    """Make ``deadline`` the one ``poll`` checks while the block runs."""
    token = _AMBIENT.set(deadline)
    try:
        yield deadline
    finally:
        _AMBIENT.reset(token)


def poll(phase: str) -> None:
    """``check`` the ambient deadline (none outside ``ambient``: a no-op)."""
    _AMBIENT.get().check(phase)
