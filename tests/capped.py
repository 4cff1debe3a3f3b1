"""Run a function in a forked child under a memory cap and a deadline.

The guard tests feed inputs that once allocated gigabytes; if a guard regresses
they must fail, not take the machine down.  ``capped(fn)`` forks (the child shares
everything pytest has imported, so it starts in about a millisecond), limits the
child's address space to what it already maps plus ``extra_mb``, runs ``fn`` and
sends back its pickled result.  A child that exceeds the cap gets MemoryError (or
dies, for a C++ allocation): either way the test sees a failure, never the
allocation.  Only the child is capped; pytest itself is untouched.
"""

from __future__ import annotations

import os
import pickle
import resource
import select
import signal
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from click.testing import CliRunner

from hanabi_cp.cli import main

EXTRA_MB = 1500          # room above the address space pytest already maps


def available() -> bool:
    return hasattr(os, "fork") and sys.platform.startswith("linux")


needs_fork = pytest.mark.skipif(not available(), reason="needs fork and RLIMIT_AS (Linux)")


def _mapped_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[0]) * resource.getpagesize()


class ChildFailed(AssertionError):
    pass


def capped(fn: Callable[[], object], extra_mb: int = EXTRA_MB, timeout: float = 60.0):
    """``fn()`` run in a forked child with RLIMIT_AS = mapped + extra_mb; its result.

    Raises ChildFailed with the child's traceback if it raised, if it died (a C++
    bad_alloc aborts), or if it did not finish within ``timeout`` seconds (killed).
    """
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:                                        # child
        code = 0
        try:
            os.close(read_end)
            limit = _mapped_bytes() + extra_mb * 2**20
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            try:
                payload = ("ok", fn())
            except BaseException:                       # report everything, even SystemExit
                payload = ("raised", traceback.format_exc())
            data = pickle.dumps(payload)
            with os.fdopen(write_end, "wb") as out:
                out.write(data)
        except BaseException:
            code = 3
        finally:
            os._exit(code)
    os.close(write_end)
    chunks, deadline = [], time.monotonic() + timeout
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([read_end], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                raise ChildFailed(f"child did not finish within {timeout} s (killed)")
            chunk = os.read(read_end, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(read_end)
        _, status = os.waitpid(pid, 0)
    if not chunks:
        raise ChildFailed(f"child died without a result (wait status {status}; "
                          "a C++ allocation beyond the cap aborts)")
    kind, value = pickle.loads(b"".join(chunks))
    if kind == "raised":
        raise ChildFailed(f"child raised:\n{value}")
    return value


@dataclass(frozen=True)
class CliResult:
    exit_code: int
    stdout: str
    stderr: str
    error: str | None          # traceback of an exception other than SystemExit


def invoke(args, input: str | None = None) -> CliResult:
    """``hanabi-cp ARGS`` through click's CliRunner, in this process."""
    res = CliRunner().invoke(main, [str(a) for a in args], input=input)
    error = None
    if res.exc_info is not None and not issubclass(res.exc_info[0], SystemExit):
        error = "".join(traceback.format_exception(*res.exc_info))
    return CliResult(res.exit_code, res.stdout, res.stderr, error)


def cli_capped(args, input: str | None = None, extra_mb: int = EXTRA_MB,
               timeout: float = 60.0) -> CliResult:
    """``hanabi-cp ARGS`` in a capped child (see :func:`capped`)."""
    return capped(lambda: invoke(args, input), extra_mb, timeout)


def assert_one_line_error(res: CliResult, *fragments: str) -> str:
    """Exit code 2 and one line ``hanabi-cp: error: ...`` containing every fragment."""
    assert res.error is None, res.error
    assert res.exit_code == 2, (res.exit_code, res.stdout, res.stderr)
    lines = res.stderr.splitlines()
    assert len(lines) == 1, res.stderr[:2000]
    line = lines[0]
    assert line.startswith("hanabi-cp: error: "), line
    for fragment in fragments:
        assert fragment in line, (fragment, line)
    return line


def assert_verdict_or_one_line_error(res: CliResult, verdicts=(0, 10, 20)) -> None:
    """What every command must end with: a verdict's exit code, or one error line."""
    assert res.error is None, res.error
    if res.exit_code in verdicts:
        return
    assert_one_line_error(res)
    assert len(res.stderr) < 1000, res.stderr[:2000]
