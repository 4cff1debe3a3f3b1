"""The verdict of a decision, below everything that produces one: the encoders
(a model that preprocessing already decided), the methods and the registry
(``solvers``, which re-exports it), so that a builder never imports the registry."""

from __future__ import annotations

import enum


class Status(enum.Enum):
    """The verdict of a solve, with SAT-competition exit codes.

    >>> Status.WINNABLE.value, Status.UNWINNABLE.exit_code
    ('WINNABLE', 20)
    """

    WINNABLE = "WINNABLE"
    UNWINNABLE = "UNWINNABLE"
    UNKNOWN = "UNKNOWN"

    @property
    def exit_code(self) -> int:
        """SAT-competition exit codes: 10 yes, 20 no, 0 unknown."""
        return {"WINNABLE": 10, "UNWINNABLE": 20, "UNKNOWN": 0}[self.value]
