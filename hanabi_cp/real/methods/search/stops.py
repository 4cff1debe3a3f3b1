"""What stops a search before its answer: the clock, the race beside it, the
machine's memory, and the relaxation at the position (``RootCut``).  ``Watched``,
the root of the search's classes, holds the clock and the race's watch and
looks at them."""

from __future__ import annotations

import time
from collections.abc import Callable

from ....runtime import memory
from ...actions import Action
from ...referee import Game
from ...pile_plans import Plan

CHECK_EVERY = 512          # nodes between two looks at the clock
# A node's bound costs about a step per card: on large decks the clock is looked at
# every CHECK_CARDS / N nodes instead (every node from 2^18 cards on).
CHECK_CARDS = 1 << 18
# Looks at the clock between two looks at the machine's free memory (``check``):
# reading it costs about as much as a few hundred states, the tables grow slowly.
MEMORY_CHECKS = 128


class Timeout(Exception):
    """The time limit was reached."""


class MemoryShort(Timeout):
    """The machine's memory ran short (``runtime.memory``): the search stops as at
    its time limit, before the out-of-memory killer ends the process."""


def why_stopped(stop: Timeout) -> str:
    """What stopped the search, for its answer."""
    if isinstance(stop, MemoryShort):
        return f"memory short (less than {memory.FLOOR:.0%} of the machine's memory available)"
    return "time limit reached"


class RootCut(Exception):
    """The relaxation at the position shows the goal out of reach there
    (``LiveSearch.root_check``): ``bound``, an upper bound on its score."""

    def __init__(self, bound: int):
        super().__init__(bound)
        self.bound = bound


class Watched:
    """The clock and the race a search answers to, and its count of states."""

    def __init__(self, start: Game, deadline: float | None = None, plan: Plan | None = None):
        self.deadline = deadline
        # ``auto`` racing the encodings beside the search (``real.race``): called with
        # the best game found so far, True when they answered (``check``)
        self.watch: Callable[[tuple[list[Action], int] | None], bool] | None = None
        self.found: tuple[list[Action], int] | None = None
        self.check_every = max(1, min(CHECK_EVERY, CHECK_CARDS // max(1, start.deck.N)))
        self.nodes = 0

    def late(self) -> bool:
        """Whether the clock ran out or the race was answered by another lane."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            return True
        return self.watch is not None and self.watch(self.found)

    def check(self) -> None:
        """Timeout past the deadline; every MEMORY_CHECKS calls (``reaches`` calls it
        every ``check_every`` states), MemoryShort when the machine's memory runs
        short (the tables keep every refuted state)."""
        if self.late():
            raise Timeout
        if self.nodes // self.check_every % MEMORY_CHECKS == 0 and memory.short():
            raise MemoryShort
