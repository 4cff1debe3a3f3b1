"""Progress of long runs on stderr: a live bar at a terminal, a few plain lines elsewhere.

Every progress report of the package goes through :func:`bar` (or :func:`track` for a
loop, :func:`write` for a message that must not tear a live bar), so that one rule
decides what reaches stderr:

* **stderr is a terminal**: tqdm's live bar, redrawn in place and erased when done
  (``leave=False``).
* **stderr is not a terminal** (a pipe, a log file, CI): no bar.  A plain line such as
  ``hanabi-cp: roundtrip: 40/120 formulas (33%), 1m05s elapsed`` is written when at
  least a tenth of the total has been done since the last line *and* at least
  :data:`QUIET_SECONDS` have passed since the start or the last line, and one final
  line when the bar closes if any line was written before.  So a run shorter than
  ``QUIET_SECONDS`` writes nothing, and no run writes more than 11 lines per bar
  (10 steps of a tenth, then the final line).  A bar with an unknown total (``None``)
  writes at most one line per ``QUIET_SECONDS`` only while work continues, and its
  final line.
* **disabled** (``enabled=False``, e.g. ``--no-progress``): nothing at all.

tqdm is imported only when a live bar is drawn, so importing this module is cheap.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterable, Iterator
from typing import Any, TextIO, TypeVar

T = TypeVar("T")

#: No plain line before this many seconds, nor closer than this to the previous one.
QUIET_SECONDS = 10.0
#: At most this many step lines per bar on a non-terminal stderr (one per tenth).
STEPS = 10


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):       # closed or not a real file
        return False


def _duration(seconds: float) -> str:
    s = int(seconds)
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


class _Silent:
    """A disabled bar: counts, says nothing."""

    def __init__(self, total: int | None, initial: int = 0) -> None:
        self.total, self.n = total, initial

    def update(self, n: int = 1) -> None:
        self.n += n

    def set_postfix(self, **values: Any) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class _Lines(_Silent):
    """A non-terminal stderr: a bounded number of plain lines (see the module docstring)."""

    def __init__(self, total: int | None, initial: int, desc: str | None, unit: str,
                 stream: TextIO, quiet: float | None = None, clock=time.monotonic) -> None:
        super().__init__(total, initial)
        self.desc, self.unit, self.stream, self.clock = desc, unit, stream, clock
        self.quiet = QUIET_SECONDS if quiet is None else quiet
        self.start = self.last = clock()
        self.last_n = initial
        self.lines = 0
        self.postfix = ""
        self.closed = False

    def _step(self) -> float | None:
        """The progress needed between two lines, or None for an unknown total."""
        if not self.total:
            return None
        return max(1.0, self.total / STEPS)

    def update(self, n: int = 1) -> None:
        self.n += n
        now = self.clock()
        if now - self.last < self.quiet:
            return
        step = self._step()
        if step is not None and (self.n - self.last_n < step or self.lines >= STEPS):
            return
        self._say(now)

    def set_postfix(self, **values: Any) -> None:
        self.postfix = ", ".join(f"{k}={v}" for k, v in values.items())

    def _say(self, now: float) -> None:
        done = f"{self.n}/{self.total}" if self.total else f"{self.n}"
        pct = f" ({100 * self.n // self.total}%)" if self.total else ""
        extra = f", {self.postfix}" if self.postfix else ""
        head = f"hanabi-cp: {self.desc}: " if self.desc else "hanabi-cp: "
        unit = self.unit.strip()
        text = f"{head}{done}{' ' + unit if unit else ''}{pct}, {_duration(now - self.start)} elapsed{extra}"
        with contextlib.suppress(OSError, ValueError):   # a closed pipe is not worth an error
            print(text, file=self.stream, flush=True)
        self.lines += 1
        self.last, self.last_n = now, self.n

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self.lines and self.n != self.last_n:
            self._say(self.clock())


def bar(total: int | None, *, enabled: bool = True, unit: str = "it", desc: str | None = None,
        initial: int = 0, stream: TextIO | None = None):
    """A progress bar for ``total`` steps on stderr (``stream``), as the module docstring
    says: ``update(n)``, ``set_postfix(**values)``, ``close()``, and a context manager."""
    stream = sys.stderr if stream is None else stream
    if not enabled:
        return _Silent(total, initial)
    if not _is_terminal(stream):
        return _Lines(total, initial, desc, unit, stream)
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, desc=desc, unit=unit, file=stream,
                dynamic_ncols=True, leave=False)


def track(items: Iterable[T], total: int | None = None, **options: Any) -> Iterator[T]:
    """``items``, one :func:`bar` step each (``total`` defaults to ``len(items)``)."""
    if total is None:
        try:
            total = len(items)         # type: ignore[arg-type]
        except TypeError:
            total = None
    with bar(total, **options) as b:
        for item in items:
            yield item
            b.update(1)


def write(message: str, stream: TextIO | None = None) -> None:
    """``message`` on its own line of stderr, above a live bar if one is drawn."""
    stream = sys.stderr if stream is None else stream
    if "tqdm" in sys.modules and _is_terminal(stream):
        from tqdm import tqdm

        tqdm.write(message, file=stream)
    else:
        print(message, file=stream, flush=True)
