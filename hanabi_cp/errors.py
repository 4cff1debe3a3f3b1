"""Errors for user mistakes.  The CLI turns each into one line on stderr and a
non-zero exit; anything that is not a HanabiError is a bug in hanabi-cp."""

from __future__ import annotations


class HanabiError(Exception):
    """Base class of every error caused by the user's input."""


class InputError(HanabiError):
    """A file that cannot be read as the format it claims to be.

    The message reads ``path:line: expected ..., found ...``.
    """

    def __init__(self, path: str, line: int | None, expected: str, found: str):
        self.path, self.line, self.expected, self.found = path, line, expected, found
        where = f"{path}:{line}" if line is not None else f"{path}"
        super().__init__(f"{where}: expected {expected}, found {found}")


class DeckError(HanabiError):
    """An instance that violates the model (a value above n, a negative h...)."""


class CertificateError(HanabiError):
    """A play sequence that does not win; the message names the first bad step."""


class LimitError(HanabiError):
    """A method refuses an instance it cannot handle within its resources."""


class SolverBug(Exception):
    """A solver reported a certificate the independent verifier rejects.

    Deliberately not a HanabiError: it is our fault, never the user's.
    """
