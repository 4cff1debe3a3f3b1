"""Running an external solver binary (MiniZinc, minisat+) under the command's deadline.

The optional methods call programs that hanabi-cp does not install with pip (Debian's
``minizinc`` and ``minisat+``; `.ci/run` installs them).  ``missing`` says in one
line why one cannot run, which is what such a method's ``refuses`` answers; ``run``
gives the program what is left of the deadline and kills it (and only it) when that
passes, so a time-out is UNKNOWN and never a hung command.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass

from .deadline import Deadline, TimeUp

# What a program may take beyond its own time limit option to stop and print.
GRACE_SECONDS = 5.0


@functools.cache
def which(program: str) -> str | None:
    return shutil.which(program)


@dataclass
class Ran:
    stdout: str
    stderr: str
    returncode: int
    seconds: float


def run(argv: Sequence[str], deadline: Deadline, phase: str, timeout: float | None = None) -> Ran:
    """Run ``argv``; TimeUp(``phase``) if the deadline (plus GRACE_SECONDS, for a
    program told its own limit) passes first."""
    import time
    left = deadline.remaining()
    if left <= 0:
        raise TimeUp(deadline.limit, phase)
    limit = left + GRACE_SECONDS if timeout is None else timeout
    t0 = time.perf_counter()
    with subprocess.Popen(list(argv), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, text=True) as proc:
        try:
            out, err = proc.communicate(timeout=None if limit == float("inf") else limit)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            raise TimeUp(deadline.limit, phase) from None
        except BaseException:            # an interrupt: the child goes with us
            proc.kill()
            raise
    return Ran(out, err, proc.returncode, time.perf_counter() - t0)


def first_error(stderr: str, limit: int = 200) -> str:
    """The first line of a program's error output that says something (MiniZinc
    prints deprecation warnings of Debian's Gecode library before the error)."""
    lines = [l.strip() for l in stderr.splitlines() if l.strip()]
    useful = [l for l in lines if not l.startswith("Warning:") and "deprecated" not in l]
    line = (useful or lines or ["no message"])[0]
    return line if len(line) <= limit else line[:limit] + "..."
