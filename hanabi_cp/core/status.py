"""The result model, below everything that produces a result: the encoders (a model
that preprocessing already decided), the methods and their runners (``solitaire.solve``
and ``real.solve``, which re-export these names), so that a builder never imports a
registry.

- ``Status``: the verdict of a decision (WINNABLE, UNWINNABLE, UNKNOWN);
- ``RunStatus``: what one run of a method came to, a ``Status`` or why there is
  none (a refusal, a bug, a crash): the text of the CSVs' ``verdict`` columns,
  parsed back with ``RunStatus.parse`` when a CSV is read;
- ``PositionStatus``: what the post-mortem knows of one position's best score
  (DECIDED, UNKNOWN, OVER): the text of its rows' ``status`` column;
- ``Decision``: what ``Outcome`` (solitaire) and ``LiveOutcome`` (real rules)
  share: status, reason, method, stats, score, verified, ``to_json``.

This is the only module that spells the verdicts and the post-mortem's status
words; everything else names them through these enums (tests/test_layout.py checks
it).
"""

from __future__ import annotations

import enum

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar


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

    @property
    def decided(self) -> bool:
        """WINNABLE or UNWINNABLE."""
        return self is not Status.UNKNOWN


DECIDED = (Status.WINNABLE.value, Status.UNWINNABLE.value)     # the decisive verdicts' text


class RunStatus(enum.StrEnum):
    """What one run of a method came to (a harness check, a study's row): the
    solve's ``Status``, or why there is none.  The values are the text of the CSVs'
    ``verdict`` columns (read back on resume) and of the reports, so a member prints
    as its value.

    >>> RunStatus.of(Status.UNWINNABLE), f"{RunStatus.CRASH}"
    (<RunStatus.UNWINNABLE: 'UNWINNABLE'>, 'CRASH')
    >>> [s.decisive for s in (RunStatus.WINNABLE, RunStatus.UNKNOWN, RunStatus.BUG)]
    [True, False, False]
    >>> RunStatus.parse("WINNABLE") == "WINNABLE", RunStatus.parse("")
    (True, None)
    """

    WINNABLE = Status.WINNABLE.value
    UNWINNABLE = Status.UNWINNABLE.value
    UNKNOWN = Status.UNKNOWN.value
    REFUSED = "REFUSED"         # the method does not apply (never a disagreement)
    BUG = "BUG"                 # SolverBug: its certificate or score did not replay
    CRASH = "CRASH"             # any other exception

    @classmethod
    def of(cls, status: Status) -> RunStatus:
        return cls(status.value)

    @classmethod
    def parse(cls, text: str | None) -> RunStatus | None:
        """The status a CSV cell spells (None for an empty cell); ValueError for a
        cell that is no status.  A RunStatus equals (and hashes as) its text, so
        rows read back compare with rows just computed."""
        return None if text in (None, "") else cls(text)

    @classmethod
    def read(cls, text: str) -> RunStatus | str:
        """A CSV cell as read back: the status it spells, else the text unchanged
        (an empty cell; a word a reader of its own column may refuse).

        >>> RunStatus.read("UNKNOWN") is RunStatus.UNKNOWN, RunStatus.read("")
        (True, '')
        """
        try:
            return cls(text)
        except ValueError:
            return text

    @property
    def decisive(self) -> bool:
        return self in (RunStatus.WINNABLE, RunStatus.UNWINNABLE)


class PositionStatus(enum.StrEnum):
    """What the post-mortem knows of the best final score at one position: the
    ``status`` of its rows and the text of their CSV column (a member prints and
    compares as its text, so rows read back compare with rows just computed).

    >>> f"{PositionStatus.OVER}", PositionStatus("DECIDED") is PositionStatus.DECIDED
    ('OVER', True)
    """

    DECIDED = "DECIDED"         # the best score is known: a refereed game reaches a proved bound
    UNKNOWN = Status.UNKNOWN.value  # only bounds: a refereed game's score and an upper bound
    OVER = "OVER"               # the game has ended here (or passed an older game's end)
    REFUSED = "REFUSED"         # a study of a folder: the game's one row, why it was not analysed


class Decision:
    """What every result of a decision has: ``status``, the ``reason`` of a loss (or
    why undecided), the ``method`` that decided, its ``stats`` (sizes and timings,
    JSON-serialisable), the ``score`` of a maximizing run, ``verified`` once the
    referee accepted the certificate, and ``to_json``.  ``Outcome`` and
    ``LiveOutcome`` are dataclasses of these fields plus their own certificate
    (``plays``, ``actions``), named by ``CERTIFICATE``.

    >>> from hanabi_cp.solitaire.solve import Outcome
    >>> from hanabi_cp.real.solve import LiveOutcome
    >>> issubclass(Outcome, Decision) and issubclass(LiveOutcome, Decision)
    True
    >>> Outcome(Status.UNKNOWN, reason="time limit").decided
    False
    """

    status: Status
    reason: str | None
    method: str
    stats: dict
    score: int | None
    verified: bool

    CERTIFICATE: ClassVar[str] = ""          # the name of the certificate's field
    JSON_KEYS: ClassVar[tuple[str, ...]] = ()  # the keys of to_json, in order

    @property
    def decided(self) -> bool:
        return self.status.decided

    def certificate_json(self) -> Any:
        """The certificate in JSON (None if there is none)."""
        raise NotImplementedError

    def to_json(self) -> dict:
        values = {"status": self.status.value, "method": self.method, "reason": self.reason,
                  "score": self.score, "verified": self.verified, "stats": self.stats,
                  self.CERTIFICATE: self.certificate_json()}
        return {key: values[key] for key in self.JSON_KEYS}


class Reason(str):
    """A reason whose text names an option of the caller: ``{name}`` in ``template``
    is spelled the library's way (``spelling``, the keyword of ``hc.solve``) and a
    front end spells it its own way with :meth:`text` (the CLI: its flag), as
    :class:`~hanabi_cp.core.errors.HanabiError` does for errors.  It is a ``str`` (the
    library's text), so every writer of reasons takes it as it is.

    >>> r = Reason("unsatisfiable (no proof requested; use {proof})", proof="proof=FILE")
    >>> str(r)
    'unsatisfiable (no proof requested; use proof=FILE)'
    >>> r.text({"proof": "--proof FILE"})
    'unsatisfiable (no proof requested; use --proof FILE)'
    """

    template: str
    spelling: dict[str, str]

    def __new__(cls, template: str, **spelling: str) -> Reason:
        text = template
        for name, spelled in spelling.items():
            text = text.replace("{" + name + "}", spelled)
        reason = super().__new__(cls, text)
        reason.template, reason.spelling = template, spelling
        return reason

    def text(self, names: dict[str, str]) -> str:
        """The reason, each option spelled ``names[option]`` where given."""
        return Reason(self.template, **{**self.spelling, **{k: v for k, v in names.items()
                                                             if k in self.spelling}})

    def __reduce__(self):
        # Reasons cross process pools: rebuilt from the template, not from the text.
        return _reason, (self.template, self.spelling)


def _reason(template: str, spelling: dict[str, str]) -> Reason:
    return Reason(template, **spelling)


def spelled(reason: str | None, names: dict[str, str]) -> str | None:
    """``reason`` with its options spelled ``names`` (a plain string as it is)."""
    return reason.text(names) if isinstance(reason, Reason) else reason
