"""Run several methods on one instance and say whether they agree.

A *check* is a method run one way: plainly (decide) or, for methods with
``maximizes=True``, with ``SolveOptions(maximize=True)`` (label ``NAME+max``).
Each run goes through the same steps as ``solitaire.solve.solve`` (refusal, timing,
certificate replay) but takes a ``Method`` object rather than a registered name,
so tests can hand the harness a deliberately wrong method.

An instance *fails* when a check raises ``SolverBug`` (its certificate did not
replay) or crashes with a non-HanabiError exception, when two decisive verdicts
differ, when two maximizing checks report different best scores, or when a
maximizing check's score contradicts its own verdict.  UNKNOWN (time limit) and
refusals never count as disagreement.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol, TypeVar

from ...runtime import interrupts
from ...runtime.deadline import TimeUp
from ...core.errors import HanabiError, SolverBug
from ...core.model import Deck
from ...solitaire.play_sequence import PlaySequence
from ...solitaire.solve import Method, certify
from ...core.options import SolveOptions
from ...core.status import Status
from ...core.status import RunStatus



WINNABLE, UNWINNABLE, UNKNOWN = RunStatus.WINNABLE, RunStatus.UNWINNABLE, RunStatus.UNKNOWN
REFUSED, BUG, CRASH = RunStatus.REFUSED, RunStatus.BUG, RunStatus.CRASH
DECISIVE = (WINNABLE, UNWINNABLE)


@dataclass(frozen=True)
class Check:
    method: Method
    maximize: bool = False

    @property
    def name(self) -> str:
        return self.method.name

    @property
    def label(self) -> str:
        return self.method.name + ("+max" if self.maximize else "")


@dataclass(frozen=True)
class Result:
    label: str
    status: RunStatus
    seconds: float = 0.0
    detail: str | None = None   # refusal reason, bug message or exception
    score: int | None = None    # maximizing checks only
    stats: dict | None = None
    plays: PlaySequence | None = None   # the replayed PlaySequence, if the method gave one


def run_check(check: Check, deck: Deck, h: int, options: SolveOptions) -> Result:
    """One run of one method, as ``solitaire.solve.solve`` would do it, never raising."""
    m = check.method
    opts = replace(options, maximize=check.maximize)
    return run_guarded(m.name, check.label, check.maximize, lambda: m.refuses(deck, h),
                       lambda: m.run(deck, h, opts),
                       lambda out: certify(deck, h, replace(out, method=m.name)))


class Answer(Protocol):
    """What ``run_guarded`` reads of a method's outcome (solitaire or real-rules)."""

    status: Status
    reason: str | None
    score: int | None
    stats: dict


AnswerT = TypeVar("AnswerT", bound=Answer)


def run_guarded(name: str, label: str, maximize: bool, refuses: Callable[[], str | None],
                run: Callable[[], AnswerT], certify: Callable[[AnswerT], AnswerT]) -> Result:
    """Refusal, the timed run and its certificate replay, each failure classified
    (a time-out UNKNOWN, a rejected certificate BUG, a run-time refusal REFUSED, any
    other exception CRASH), never raising but for Ctrl-C: one run of any harness."""
    try:
        why = refuses()
    except Exception as exc:  # a refusal test that crashes is a bug like any other
        return Result(label, CRASH, detail=f"refuses() raised {_exc(exc)}")
    if why is not None:
        return Result(label, REFUSED, detail=why)
    start = time.perf_counter()
    try:
        out = run()
        elapsed = time.perf_counter() - start
        out = certify(out)
    except TimeUp as exc:
        # What ``solitaire.solve.solve`` makes of a time-out during building: UNKNOWN.
        return Result(label, UNKNOWN, time.perf_counter() - start, str(exc))
    except SolverBug as exc:
        return Result(label, BUG, time.perf_counter() - start, str(exc))
    except HanabiError as exc:
        # A method may still decline at run time (e.g. a resource limit).
        return Result(label, REFUSED, time.perf_counter() - start, str(exc))
    except Exception as exc:
        interrupted = interrupts.from_exception(exc)   # pysat's own catch of Ctrl-C
        if interrupted is not None:
            raise interrupted from None
        return Result(label, CRASH, time.perf_counter() - start, _exc(exc))
    if maximize and out.score is None and out.status is not Status.UNKNOWN:
        return Result(label, BUG, elapsed, f"{name}: maximize run returned no score")
    # Real-rules outcomes carry their certificate as ``actions``, not ``plays``.
    return Result(label, RunStatus.of(out.status), elapsed, out.reason, out.score, out.stats,
                  getattr(out, "plays", None))


def _exc(exc: BaseException) -> str:
    frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    where = f" at {frame.filename.rsplit('/', 1)[-1]}:{frame.lineno}" if frame else ""
    return f"{type(exc).__name__}: {exc}{where}"


def problems(results: list[Result], target: int) -> list[str]:
    """Why these results are inconsistent (empty when they agree)."""
    found = [f"{r.label}: {r.status}: {r.detail}" for r in results if r.status in (BUG, CRASH)]
    decisive = {r.label: r.status for r in results if r.status in DECISIVE}
    if len(set(decisive.values())) > 1:
        found.append("verdicts differ: " + ", ".join(f"{k}={v}" for k, v in sorted(decisive.items())))
    scores = {r.label: r.score for r in results if r.score is not None and r.status in DECISIVE}
    if len(set(scores.values())) > 1:
        found.append("best scores differ: " + ", ".join(f"{k}={v}" for k, v in sorted(scores.items())))
    for r in results:
        if r.score is not None and r.status in DECISIVE and (r.score == target) != (r.status == WINNABLE):
            found.append(f"{r.label}: score {r.score} of {target} but verdict {r.status}")
    return found


def culprits(results: list[Result], target: int) -> list[str]:
    """Labels whose re-runs keep the failure alive while the instance shrinks."""
    bad = [r.label for r in results if r.status in (BUG, CRASH)
           or (r.score is not None and r.status in DECISIVE
               and (r.score == target) != (r.status == WINNABLE))]
    decisive = [r for r in results if r.status in DECISIVE]
    verdicts = {r.status for r in decisive}
    scores = {r.score for r in decisive if r.score is not None}
    if len(verdicts) > 1 or len(scores) > 1:
        bad += [r.label for r in decisive if r.label not in bad]
    return bad
