"""Where a command's independent tasks run: here, on a local process pool, or on dask.

Every sweep (``roundtrip``, ``harness``, each ``study``) is a list of independent
tasks -- decide one deck, round-trip one formula -- whose results the command turns
into CSV rows.  ``run_tasks`` runs them according to an ``Execution``:

- ``Execution()`` (``--jobs 1``, the default): in this process, one after the other,
  each when the loop asks for it, exactly as a plain ``for`` loop would;
- ``Execution(jobs=N)`` (``--jobs N``; ``--jobs 0`` is every core): a pool of N
  worker processes (forkserver where available, else spawn; never fork, which would
  copy the interrupt watchdog's thread and pipe);
- ``Execution(dask=ADDRESS)`` (``--dask tcp://host:port``): an existing
  dask.distributed cluster (``pip install 'hanabi-cp[dask]'``; the workers need the
  same version of hanabi-cp installed, which is checked when connecting).

The interface, which is all a command needs::

    with run_tasks(decide_one, ((deck, h, options) for deck in decks), execution) as done:
        for index, value in done:           # in completion order
            table.add(row_of(index, value))  # rows are written here, by the caller

- ``func`` is a top-level function (pickled by reference, so the workers must be able
  to import it) and each task is the tuple of its positional arguments, all picklable.
  ``tasks`` may be any iterable, even a lazy one: at most ``window`` tasks are handed
  out at a time and the next ones are drawn as results come back.
- The iteration yields ``(index, value)``: ``index`` is the task's position in
  ``tasks``, ``value`` what ``func`` returned; the order is the order of completion
  (task order when serial).  The caller writes the rows, in this process, so the CSV
  is only ever written by one process, one complete row at a time, and a rerun
  resumes from it as after a serial run.
- A task should return its failures as values (an error row): an exception it raises
  is raised by the iteration.
- Leaving the ``with`` block early -- an interrupt (Ctrl-C, SIGTERM) or an error --
  cancels the tasks not yet finished and stops the pool's workers at once; rows
  already written stay.  The workers ignore SIGINT: the command's process decides.
- Time limits belong to the tasks: a ``SolveOptions(time_limit=...)`` starts its clock
  when the task starts on its worker, so waiting in the queue never counts.
- A worker lost mid-task (killed, out of memory): the pool is restarted and every
  unfinished task submitted again (at most ``MAX_RESTARTS`` times per run); on dask,
  the scheduler reruns the tasks of a lost worker on another one (after
  ``distributed.scheduler.allowed-failures`` losses of one task it gives up, and so
  does the run, with ``WorkerLost``).  A task is never skipped and never half-counted.

A command whose next tasks depend on the last results (``study hard``'s climb) keeps
one ``task_pool(execution)`` for its successive runs (``TaskPool.run``, as above), and
``in_order`` hands results on in task order to a caller whose rows depend on the
rows before them.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import functools
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, NoReturn, Protocol

from ..core.errors import HanabiError, InvalidParameter, MethodRefused, UsageError
from .limits import clip

INSTALL_DASK = "from a clone of hanabi-cp, pip install '.[dask]'"
MAX_RESTARTS = 3            # pool restarts after lost workers, per run
POLL_SECONDS = 0.2          # waits are sliced so that a signal handler runs promptly
DASK_POLL_SECONDS = 0.05
CONNECT_SECONDS = 10.0
HANDSHAKE_SECONDS = 10.0   # connecting and dask's handshake together, at most
# Modules every task needs, imported once by the forkserver rather than by each worker.
PRELOAD = ["hanabi_cp.solitaire.solve", "hanabi_cp.apps.harness", "hanabi_cp.solitaire.reduction",
           "hanabi_cp.apps.studies.common"]


class WorkerLost(HanabiError):
    """Workers kept dying (out of memory?): the run stops, one line and exit 2; the
    rows written so far stay and a rerun resumes."""


@dataclass(frozen=True)
class Execution:
    """``jobs`` worker processes (1: none, this process), or the dask scheduler at ``dask``;
    ``note`` is told when fewer processes are started than asked (fewer tasks)."""

    jobs: int = 1
    dask: str | None = None
    note: Callable[[str], None] | None = field(default=None, compare=False, repr=False)

    @property
    def serial(self) -> bool:
        return self.dask is None and self.jobs == 1


SERIAL = Execution()


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:      # not on Linux
        return os.cpu_count() or 1


def execution(jobs: int = 1, dask: str | None = None,
              note: Callable[[str], None] | None = None) -> Execution:
    """The ``Execution`` of ``--jobs`` (0: every core, and never more: the tasks are
    CPU-bound, a process more per core only costs memory; ``note`` says so) and
    ``--dask``."""
    if jobs < 0:
        raise InvalidParameter(f"{{jobs}} {jobs}: expected a number of processes >= 0 (0: every core)", "jobs")
    if dask is not None:
        if jobs != 1:
            raise UsageError("{jobs} and {dask} exclude each other (the cluster's workers "
                             "decide how many tasks run at once)", "jobs", "dask")
        address = dask_address(dask)       # the form at once, before importing dask
        require_dask()
        _reachable(address)          # before any work, as a wrong option is
        return Execution(dask=address)
    if jobs > cores():
        if note is not None:
            note(f"--jobs {jobs}: {_processes(cores())}, one per core this process may run on")
        jobs = cores()
    return Execution(jobs=jobs or cores(), note=note)


def _processes(count: int) -> str:
    return f"{count} process{'es' if count != 1 else ''}"


# dask.distributed's protocols; those but inproc (one process) are HOST:PORT over TCP.
DASK_PROTOCOLS = ("tcp", "tls", "ws", "wss", "ucx", "inproc")


def dask_address(text: str) -> str:
    """The scheduler address ``text`` names, checked for its form (``tcp://`` when
    no protocol is given, as dask reads it): a malformed one is refused at once,
    before dask spends its connection timeout on it.

    >>> dask_address("127.0.0.1:8786"), dask_address("tls://[::1]:8786")
    ('tcp://127.0.0.1:8786', 'tls://[::1]:8786')
    >>> dask_address("notanaddress")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.InvalidParameter: dask notanaddress: expected ... tcp://HOST:PORT, found no port
    """
    given = text.strip()
    protocol, sep, rest = given.partition("://")
    if not sep:
        protocol, rest = "tcp", given
    shown = clip(given) or "''"

    def refuse(found: str) -> NoReturn:
        raise InvalidParameter(f"{{dask}} {shown}: expected a scheduler address like "
                               f"tcp://HOST:PORT, found {found}", "dask")

    if not given:
        refuse("nothing")
    if protocol not in DASK_PROTOCOLS:
        refuse(f"the protocol {clip(protocol)!r} (dask knows {', '.join(DASK_PROTOCOLS)})")
    if protocol == "inproc":
        return f"{protocol}://{rest}"
    host, colon, port = rest.rpartition(":")
    if not colon:
        refuse("no port")
    if not host.strip("[]"):
        refuse("no host")
    if not (port.isascii() and port.isdigit() and 0 < int(port) < 65536):
        refuse(f"the port {clip(port)!r} (1 to 65535)")
    return f"{protocol}://{rest}"


def require_dask() -> None:
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise MethodRefused(f"{{dask}} needs dask.distributed, an optional extra: {INSTALL_DASK}",
                            "dask") from None


def run_tasks(func: Callable[..., Any], tasks: Iterable[tuple], execution: Execution = SERIAL,
              window: int | None = None) -> contextlib.AbstractContextManager[Iterator[tuple[int, Any]]]:
    """A context manager giving the ``(index, value)`` pairs of ``func(*task)`` (see above)."""
    if execution.serial:
        return contextlib.nullcontext(_serial(func, tasks))
    backend: _Backend = _Dask(execution.dask) if execution.dask is not None \
        else _Pool(execution.jobs, execution.note)
    return _Run(backend, func, tasks, window)


def in_order(done: Iterable[tuple[int, Any]]) -> Iterator[tuple[int, Any]]:
    """The pairs of ``run_tasks`` in task order (the finished ones wait for those before
    them): for callers whose rows depend on the rows before, such as a running record."""
    waiting: dict[int, Any] = {}
    following = 0
    for index, value in done:
        waiting[index] = value
        while following in waiting:
            yield following, waiting.pop(following)
            following += 1


class TaskPool:
    """One pool (or dask client) for several successive runs of tasks, for a command
    whose next tasks depend on the results of the last ones (``study hard``'s climb):
    starting a pool per run would cost more than the tasks.

        with task_pool(execution) as pool:
            for index, value in pool.run(func, tasks):   # as run_tasks, one run at a time
                ...

    ``width`` is how many tasks run at once (1 when serial).  A run should be read to
    its end before the next starts; leaving the ``with`` block stops the workers."""

    def __init__(self, execution: Execution):
        self.backend: _Backend | None = None
        if not execution.serial:
            self.backend = _Dask(execution.dask) if execution.dask is not None \
                else _Pool(execution.jobs, execution.note)
        self.current: _Run | None = None

    @property
    def width(self) -> int:
        return 1 if self.backend is None else self.backend.width

    def run(self, func: Callable[..., Any], tasks: Iterable[tuple],
            window: int | None = None) -> Iterator[tuple[int, Any]]:
        if self.backend is None:
            return _serial(func, tasks)
        self.current = _Run(self.backend, func, tasks, window)
        self.current._fill()
        return self.current._results()

    def close(self, failed: bool) -> None:
        if self.backend is not None:
            pending = list(self.current.pending) if self.current is not None else []
            self.backend.close(not failed and not pending, pending)


@contextlib.contextmanager
def task_pool(execution: Execution = SERIAL) -> Iterator[TaskPool]:
    """A ``TaskPool`` on ``execution``, stopped on leaving the block (see TaskPool)."""
    pool = TaskPool(execution)
    failed = True
    try:
        yield pool
        failed = False
    finally:
        pool.close(failed)


def _serial(func, tasks) -> Iterator[tuple[int, Any]]:
    for index, args in enumerate(tasks):
        yield index, func(*args)


class _Backend(Protocol):
    width: int                  # how many tasks run at once

    def expect(self, tasks: int) -> None:
        """All the tasks of a run are ``tasks``: a pool not started yet starts no more
        workers than that."""

    def submit(self, func, args: tuple): ...

    def wait(self, futures) -> set: ...

    def outcome(self, future) -> tuple[bool, Any]:
        """(True, value), or (False, None) if the future's worker was lost."""

    def restart(self) -> None: ...

    def close(self, finished: bool, pending) -> None: ...


class _Run:
    def __init__(self, backend: _Backend, func, tasks: Iterable[tuple], window: int | None):
        self.backend, self.func = backend, func
        self.window = window or 4 * backend.width
        self.todo = enumerate(tasks)
        self.drawn_all = self.finished = False
        self.pending: dict[Any, int] = {}       # future -> task index
        self.args_of: dict[int, tuple] = {}     # task index -> arguments, until it is done

    def __enter__(self) -> Iterator[tuple[int, Any]]:
        try:
            self._fill()            # the workers start now, not at the first next()
        except BaseException:
            self.backend.close(False, list(self.pending))
            raise
        return self._results()

    def __exit__(self, *exc) -> None:
        self.backend.close(self.finished and exc[0] is None, list(self.pending))

    def _fill(self) -> None:
        drawn: list[tuple[int, tuple]] = []
        while not self.drawn_all and len(self.pending) + len(drawn) < self.window:
            item = next(self.todo, None)
            if item is None:
                self.drawn_all = True
                break
            drawn.append(item)
        if drawn and self.drawn_all and not self.pending:
            self.backend.expect(len(drawn))      # all the work there is: fewer workers
        for index, args in drawn:
            self.args_of[index] = args
            self.pending[self.backend.submit(self.func, args)] = index

    def _results(self) -> Iterator[tuple[int, Any]]:
        backend, pending, restarts = self.backend, self.pending, 0
        while True:
            self._fill()
            if not pending:
                self.finished = True
                return
            lost = []
            for future in sorted(backend.wait(pending), key=pending.__getitem__):
                index = pending.pop(future)
                ok, value = backend.outcome(future)
                if not ok:
                    lost.append(index)
                    continue
                del self.args_of[index]
                yield index, value
            if lost:
                # Every unfinished task of the broken pool is lost with it: run them again.
                restarts += 1
                if restarts > MAX_RESTARTS:
                    raise WorkerLost(f"worker processes died {restarts} times (out of memory?); "
                                     "giving up: the rows written are kept, a rerun resumes")
                lost += pending.values()
                pending.clear()
                backend.restart()
                for index in sorted(lost):
                    pending[backend.submit(self.func, self.args_of[index])] = index


# -- the local process pool ---------------------------------------------------------

def _start_worker() -> None:
    """Pool workers leave signals to the command's process and end with it."""
    from . import interrupts

    interrupts.in_worker()
    parent = os.getppid()
    threading.Thread(target=_end_with_parent, args=(parent,), name="orphan watch",
                     daemon=True).start()


def _end_with_parent(parent: int) -> None:
    # The command's process may be killed outright (its watchdog's os._exit, SIGKILL);
    # then this worker's parent changes and the half-done task is worthless.
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


def _context():
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if ctx.get_start_method() == "forkserver":
        ctx.set_forkserver_preload(PRELOAD)
    return ctx


class _Pool(_Backend):
    # Started at the first submit, not before: by then a run that has fewer tasks than
    # --jobs has said so (expect), and no idle worker process is started.
    def __init__(self, jobs: int, note: Callable[[str], None] | None = None):
        self.width, self.note = jobs, note
        self.started: cf.ProcessPoolExecutor | None = None

    @property
    def pool(self) -> cf.ProcessPoolExecutor:
        if self.started is None:
            self.started = cf.ProcessPoolExecutor(self.width, mp_context=_context(),
                                                  initializer=_start_worker)
        return self.started

    def expect(self, tasks: int) -> None:
        if self.started is None and 0 < tasks < self.width:
            if self.note is not None:
                self.note(f"--jobs {self.width}: {_processes(tasks)}, one per task")
            self.width = tasks

    def submit(self, func, args):
        return self.pool.submit(func, *args)

    def wait(self, futures) -> set:
        return cf.wait(futures, timeout=POLL_SECONDS, return_when=cf.FIRST_COMPLETED).done

    def outcome(self, future):
        try:
            return True, future.result()
        except cf.process.BrokenProcessPool:
            return False, None

    def restart(self) -> None:
        if self.started is not None:
            self._stop(self.started)
            self.started = None

    def close(self, finished: bool, pending) -> None:
        if self.started is None:
            return
        if finished:
            self.started.shutdown(wait=True)
        else:
            self._stop(self.started)

    @staticmethod
    def _stop(pool: cf.ProcessPoolExecutor) -> None:
        # shutdown() alone would let the running tasks finish: up to a time limit each.
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for p in processes:
            with contextlib.suppress(Exception):
                p.terminate()
        for p in processes:
            with contextlib.suppress(Exception):
                p.join(1.0)


# -- a dask.distributed cluster -----------------------------------------------------

def worker_version() -> str:
    """What a dask worker runs (checked against this process's version on connecting)."""
    from ..core.version import __version__
    return __version__


@functools.cache    # a success only (a failure raises): execution() and _Dask both ask
def _reachable(address: str) -> None:
    """Fail at once on an address where nothing listens (the client would retry for
    CONNECT_SECONDS) or where nothing answers dask's handshake."""
    import socket

    address = dask_address(address)
    protocol, _, rest = address.partition("://")
    if protocol in ("ucx", "inproc"):
        return          # not plain TCP: the client knows best
    host, _, port = rest.rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_SECONDS).close()
    except OSError as exc:
        raise InvalidParameter(f"{{dask}} {address}: cannot connect to a dask scheduler: "
                               f"{exc.strerror or exc}", "dask") from None
    if protocol == "tcp":       # tls and websockets need the cluster's security settings
        _handshake(address)


def _handshake(address: str) -> None:
    """Fail at once on an address where something other than dask listens: dask's
    comm handshake, alone, before any Client exists (a Client half-built on, say, an
    HTTP server reads its reply as a frame length of exabytes, raises MemoryError,
    and then waits on exit)."""
    import asyncio

    from distributed.comm import connect

    async def probe() -> None:
        comm = await connect(address, timeout=CONNECT_SECONDS)
        await comm.close()

    failed: list[BaseException] = []

    def in_own_loop() -> None:
        # A thread of its own: the caller may be inside a running event loop (a
        # notebook), where asyncio.run refuses to start.  The whole exchange is
        # bounded: connect's timeout does not cover a peer that accepts the
        # connection and then says nothing.
        try:
            asyncio.run(asyncio.wait_for(probe(), HANDSHAKE_SECONDS))
        except TimeoutError:
            failed.append(TimeoutError(f"no answer within {HANDSHAKE_SECONDS:g} s"))
        except Exception as exc:    # whatever the other end made of it: not a scheduler
            failed.append(exc)

    prober = threading.Thread(target=in_own_loop, name="hanabi-cp-dask-probe", daemon=True)
    prober.start()
    prober.join(HANDSHAKE_SECONDS + CONNECT_SECONDS)
    if prober.is_alive():
        failed.append(TimeoutError(f"no answer within {HANDSHAKE_SECONDS:g} s"))
    if failed:
        why = str(failed[0]) or type(failed[0]).__name__
        raise InvalidParameter(f"{{dask}} {address}: no dask scheduler answers there "
                               f"({why[:200]})", "dask") from None


class _Dask(_Backend):
    def __init__(self, address: str):
        require_dask()
        from distributed import Client

        from ..core.version import __version__

        _reachable(address)
        try:
            self.client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise InvalidParameter(f"{{dask}} {address}: cannot connect to a dask scheduler: {exc}",
                                   "dask") from None
        try:
            versions = self.client.run(worker_version)
        except Exception as exc:
            self.client.close()
            raise MethodRefused(f"{{dask}} {address}: the workers cannot run hanabi-cp "
                                f"(install it there): {exc}", "dask") from None
        wrong = {w: v for w, v in versions.items() if v != __version__}
        if wrong:
            self.client.close()
            worker, version = next(iter(wrong.items()))
            raise MethodRefused(f"{{dask}} {address}: worker {worker} runs hanabi-cp {version}, "
                                f"this is {__version__}", "dask")
        self.width = max(4, sum(self.client.nthreads().values()))

    def expect(self, tasks: int) -> None:     # the cluster's workers are there already
        pass

    def submit(self, func, args):
        # pure=False: two equal tasks (the same deck asked twice) are two tasks.
        return self.client.submit(func, *args, pure=False)

    def wait(self, futures) -> set:
        # Polled: distributed.wait needs a default client, which this one is not (an
        # in-process caller may have its own).
        done = {f for f in futures if f.done()}
        if not done:
            time.sleep(DASK_POLL_SECONDS)
        return done

    def outcome(self, future):
        from distributed import KilledWorker

        try:
            return True, future.result()
        except KilledWorker as exc:
            # The scheduler already reran the task after each lost worker; it gave up.
            raise WorkerLost(f"dask gave up on a task whose workers kept dying (out of "
                             f"memory?): {exc}; the rows written are kept, a rerun resumes") from None

    def restart(self) -> None:      # dask reschedules lost tasks itself; never called
        raise AssertionError("dask futures are never lost")

    def close(self, finished: bool, pending) -> None:
        with contextlib.suppress(Exception):
            if pending:
                self.client.cancel(pending, force=True)
        with contextlib.suppress(Exception):
            self.client.close(timeout=2)
