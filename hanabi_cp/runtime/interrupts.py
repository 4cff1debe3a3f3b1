"""Ctrl-C (SIGINT) and SIGTERM end a command promptly and never leave a half-written file.

:func:`install` (called by the ``hanabi-cp`` entry point only, never by library code
or by in-process tests) makes both signals raise :class:`Interrupted` in the main
thread; the entry point prints ``c interrupted`` and exits with 128 + the signal
number (130, 143).  Python runs signal handlers only between bytecodes of the main
thread, so while that thread sits in native code a watchdog thread, woken through
``signal.set_wakeup_fd``, ends the process itself after :data:`GRACE_SECONDS`
(at once on a second signal): it removes the registered temporary files and calls
``os._exit``, holding :data:`LOCK`.

Writers use :func:`critical` around the step that makes their output visible (one
CSV row's single ``write``, the renames of finished temporary files): the watchdog
waits for it to end, and the handler defers its exception to its end, so a row or a
file set is either complete or absent.  A row finished after a signal arrived may
be that signal's doing, so :func:`refuse_if_received` stops its writer.  A signal
whose handler runs inside a finalizer (a ``__del__``), where Python would print the
exception and drop it, is raised at the next of these points instead.  The release
of a native object runs inside :func:`deferred`, so that no exception parts the
freeing of its memory from the forgetting of its pointer.
"""

from __future__ import annotations

import contextlib
import faulthandler
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Iterator
from functools import partial
from types import FrameType

GRACE_SECONDS = 0.5
MESSAGE = "c interrupted"
SIGNALS = (signal.SIGINT, signal.SIGTERM)

LOCK = threading.RLock()
_temporaries: set[str] = set()
_first: int | None = None       # the first signal received
_raised = False                 # Interrupted already raised in the main thread
_depth = 0                      # nesting of critical() in the main thread
_held = 0                       # nesting of deferred() in the main thread
_reported = False
_wakeup_fd: int | None = None   # where the C-level handler writes signal numbers


class Interrupted(BaseException):
    """The command was interrupted by signal ``signum``.

    Not a HanabiError (the input is not at fault) and not an Exception, so that
    nothing that records a method's crash as a result (the harness) records it.
    """

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


def install() -> None:
    """Take SIGINT and SIGTERM (unless the parent ignores them) for this process."""
    global _wakeup_fd
    if _wakeup_fd is not None or threading.current_thread() is not threading.main_thread():
        return
    read_end, _wakeup_fd = os.pipe()
    os.set_blocking(_wakeup_fd, False)
    signal.set_wakeup_fd(_wakeup_fd, warn_on_full_buffer=False)
    for signum in SIGNALS:
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, _on_signal)
    threading.Thread(target=_watch, args=(read_end,), name="interrupt watchdog",
                     daemon=True).start()
    _keep_sigint_from_pysat()
    sys.unraisablehook = partial(_unraisable, sys.unraisablehook)
    # A crash in native code (a solver) prints the Python stack that led to it on
    # stderr, instead of a bare exit code -11 that names nothing.
    if not faulthandler.is_enabled():
        with contextlib.suppress(ValueError, OSError, AttributeError):
            faulthandler.enable()
    os.register_at_fork(after_in_child=_forget_in_child)


def in_worker() -> None:
    """For a worker process of a pool (hanabi_cp.runtime.executors): Ctrl-C at a terminal
    reaches the whole process group, but the command's process decides what it means
    (it stops the workers itself), so a worker ignores SIGINT, in pysat calls too."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _keep_sigint_from_pysat()


def _keep_sigint_from_pysat() -> None:
    # pysat swaps its own SIGINT handler in around every solver call made from the
    # main thread and longjmps out of the solver with it; a signal landing as that
    # handler is swapped in or out jumps into a stale frame (seen as a hang).  Told
    # that no call is on the main thread, it leaves SIGINT to us: CaDiCaL runs in
    # slices of ~0.1 s (sat_backend.run_limited), between which our handler
    # runs, as it does for SIGTERM.
    try:
        from pysat import _utils
    except ImportError:
        return
    _utils.MainThread.check = staticmethod(lambda: False)


def _forget_in_child() -> None:
    # A forked helper (multiprocessing) shares our wakeup pipe: a SIGTERM meant for
    # it alone would otherwise reach this process's watchdog and end it.
    global _wakeup_fd, _first, _raised, _depth, _reported, _held
    if _wakeup_fd is None:
        return
    signal.set_wakeup_fd(-1)
    with contextlib.suppress(OSError):
        os.close(_wakeup_fd)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _wakeup_fd, _first, _raised, _depth, _reported = None, None, False, 0, False
    _held = 0
    _temporaries.clear()


def received() -> int | None:
    """The first signal received, if any."""
    return _first


def refuse_if_received() -> None:
    """Raise Interrupted if a signal has arrived: the caller's result may be its doing."""
    global _raised
    if _first is not None:
        _raised = True
        raise Interrupted(_first)


@contextlib.contextmanager
def critical() -> Iterator[None]:
    """A step that must complete once begun: the watchdog waits for it, and a signal
    arriving inside it raises at its end."""
    global _depth
    with LOCK:
        _depth += 1
        try:
            yield
        finally:
            _depth -= 1
    _raise_pending()


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """A signal arriving inside the block raises at its end, not in its middle; unlike
    ``critical``, the watchdog does not wait for it (``os._exit`` tears nothing down).

    For the release of a native object whose wrapper frees the memory, then forgets
    the pointer (pysat's ``delete``): raised between the two, an interrupt left the
    pointer behind, and the wrapper's ``__del__`` freed it again as the interpreter
    tore down (a segmentation fault after ``c interrupted``).  Handlers run only in
    the main thread, so elsewhere the block runs as it is.
    """
    global _held
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _held += 1
    try:
        yield
    finally:
        _held -= 1
    _raise_pending()


def register(path: str) -> None:
    """A temporary file (or folder, removed once its registered files are) the
    watchdog deletes if it has to end the process."""
    with LOCK:
        _temporaries.add(path)


def unregister(path: str) -> None:
    with LOCK:
        _temporaries.discard(path)


def from_exception(exc: BaseException) -> Interrupted | None:
    """``exc`` as an Interrupted if it reports an interrupt, else None.

    pysat swaps in its own SIGINT handler around each solver call made on the main
    thread; on SIGINT it jumps out of the solver, raises ``pysolvers.error("Caught
    keyboard interrupt")`` and leaves its handler installed, pointing into a stack
    frame that no longer exists.  Ours is put back before anything else.
    """
    global _first, _raised
    if isinstance(exc, Interrupted):
        return exc
    if type(exc).__module__ == "pysolvers" and "keyboard interrupt" in str(exc).lower():
        if _first is None:
            _first = signal.SIGINT
        _raised = True
        if _wakeup_fd is not None:
            signal.signal(signal.SIGINT, _on_signal)
            # pysat's handler bypassed the wakeup descriptor: start the grace period.
            with contextlib.suppress(OSError):
                os.write(_wakeup_fd, bytes([_first]))
        return Interrupted(_first)
    return None


def report() -> None:
    """Print ``c interrupted`` on stdout, once, whichever thread gets there first."""
    global _reported
    with LOCK:
        if _reported:
            return
        _reported = True
        with contextlib.suppress(Exception):
            sys.stderr.flush()
            print(MESSAGE, flush=True)


def _on_signal(signum: int, frame: FrameType | None) -> None:
    global _first
    if _first is None:
        _first = signum
    if not _in_finalizer(frame):
        _raise_pending()


def _in_finalizer(frame: FrameType | None) -> bool:
    # Raised inside a ``__del__``, the exception would stop the finalizer midway
    # (pysat's Solver.__del__ then leaves its inner solver a freed pointer, which
    # that object's own ``__del__`` frees again) only for Python to drop it: it
    # waits for the next point that asks, as ``_unraisable`` makes it do.
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


def _unraisable(previous, info) -> None:
    # Our handler raised inside a finalizer (a ``__del__``, such as a pysat
    # totalizer's, run when its last reference goes), where Python can only print
    # the exception, traceback and all, and drops it: taken back instead, it is
    # raised at the next point that asks (``critical``'s end; writers also call
    # ``refuse_if_received``), or the watchdog ends the process after GRACE_SECONDS.
    global _raised
    if isinstance(info.exc_value, Interrupted):
        _raised = False
        return
    previous(info)


def _raise_pending() -> None:
    # Once only: a second Ctrl-C must not break the clean-up the first one started
    # (the watchdog ends the process at once instead).
    global _raised
    if _first is not None and not _raised and _depth == 0 and _held == 0:
        _raised = True
        raise Interrupted(_first)


def _watch(read_end: int) -> None:
    global _first
    deadline: float | None = None
    while True:
        timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
        ready, _, _ = select.select([read_end], [], [], timeout)
        if not ready:
            _terminate()                # the main thread did not unwind in time
        data = os.read(read_end, 64)
        signals = [s for s in data if s in SIGNALS]
        if not signals:
            continue
        if _first is None:
            _first = signals[0]
        if deadline is not None or len(signals) > 1:
            _terminate()                # a second signal: no more waiting
        deadline = time.monotonic() + GRACE_SECONDS


def _terminate() -> None:
    with LOCK:
        # files first (a folder's files are registered with it), then the folders
        for path in sorted(_temporaries, key=os.path.isdir):
            with contextlib.suppress(OSError):
                (os.rmdir if os.path.isdir(path) else os.unlink)(path)
        report()
        os._exit(128 + (_first or signal.SIGINT))
