"""``auto`` on several cores: the search here, the encodings beside it in other
processes, the first answer wins.

The sequential portfolio (``solve.run_stages``) gives the search FIRST_SHARE of
the limit, then each SAT and CP-SAT stage its part of the rest.  With a time limit,
two cores or more, and the search as the first stage, ``auto`` races instead:

- the search runs in this process with the whole limit, as alone;
- once it has run ``min(RACE_START, FIRST_SHARE of the limit)`` seconds without an
  answer (most deals take under a millisecond and never get there), and if the
  machine had a core idle meanwhile (MIN_IDLE_CORES), the other stages start in
  *lanes*, one process each (one lane per core beside this one,
  the stages dealt to them in turn), each lane running its stages one after the
  other by their weights (``STAGE_WEIGHTS``) in the time left.  A lane is forked
  from this process: it starts in milliseconds with the position and every module
  already there, and nothing of the caller's script runs again (as it would in a
  spawned process, which imports the main module anew);
- the first decided answer wins: the search looks at the lanes every few hundred
  states (``WATCH``) and stops when one has answered; a lane that answers first
  has the others stopped (SIGTERM, then SIGKILL).  Undecided everywhere, the
  answer is UNKNOWN with the best game and the lowest upper bound of any stage,
  as in the sequential portfolio.

What does not change: every certificate a lane sends is replayed by the referee
in this process (``certify_live``) before it is an answer; a lane is given the
caller's incumbent with maximize; ``--time-limit`` bounds the whole: the lanes
stop MARGIN before the deadline to send what they found, and what is still
running SETTLE before the deadline is ended.  Since a lane is ended from outside,
its SAT calls run whole (``PLAIN_LANES``: CaDiCaL keeps its own schedule, which
slices cut), and the best-score climb sends each better game as it finds it, so a
lane ended inside a call loses nothing it found.  No lane outlives the race: they
are ended on leaving it, whatever ends it (an answer, an exception, Ctrl-C: the
lanes ignore SIGINT and this process ends them), and each ends itself if this
process dies (its parent changes).

Sequential instead (``can_race``): with ``--proof`` (one stage writes the proof
file: no second writer, no file half-written by a lane that is stopped), inside
a worker process (a sweep's pool already uses the cores), on one core, off Linux
(fork is the start method there, and safe), when the search is not the first
stage, or with less than MIN_LANE_SECONDS for the lanes.
If the lanes cannot be started (no processes allowed), the search stops there
and the remaining stages run here after it, in the time left; if no core was
idle, the search stops at its first share (FIRST_SHARE of the limit) and they
run here after it: the sequential portfolio.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field, replace

from ..solvers import sat_backend
from ..core.options import SolveOptions
from ..core.status import Status
from ..runtime.deadline import Deadline
from ..runtime.executors import cores
from .actions import Action
from .methods import sat
from .referee import Game
from .solve import FIRST_SHARE, Known, LiveMethod, LiveOutcome, Tally, _run, certify_live, live_methods, run_stages

# Turn the race off (the benchmark compares it with the sequential portfolio).
ENABLED = True
# A lane's SAT calls run whole, unsliced (``sat_backend.PLAIN``): the lane is ended
# from outside at the deadline anyway (encodings/live-search.md, 5b).
PLAIN_LANES = True
# Seconds of search before the lanes start, at most FIRST_SHARE of the limit: a
# search that has not answered by then is on the hard tail, where a fork (a few
# milliseconds) is nothing.
RACE_START = 1.0
# The lanes start only if the machine had this many cores idle, on average, while
# the search ran (``/proc/stat``).  On a machine whose cores are all busy the lanes
# do not get a core of their own: the command's share of the CPU is split between
# the search and the lanes (measured: CaDiCaL beside the search got half the CPU
# seconds it got alone, at load 4 on 2 cores), and the sequential portfolio, which
# gives the SAT stage all of it, decides more.  The search then stops at its first
# share and the stages follow it here, as without the race.
MIN_IDLE_CORES = 0.5
# No race when the lanes would get less than this.
MIN_LANE_SECONDS = 1.0
# The lanes' deadline is this much before the command's: time to send their best game.
MARGIN = 0.2
# The race stops waiting for the lanes this long before the deadline, so that
# ending them and replaying what they sent fits in the limit (the lanes stop
# MARGIN before it: their last word is in by then).
SETTLE = 0.05
# How long to wait for a stopped lane before SIGKILL.
STOP_SECONDS = 1.0
POLL_SECONDS = 0.2          # waits are sliced: a signal handler runs promptly

# Set by ``race`` while the search runs in this process: the search calls it every few
# hundred states and stops (as at its time limit) when it returns True.
Found = tuple[list[Action], int]      # the search's best game so far, and its score
WATCH: ContextVar[Callable[[Found | None], bool] | None] = \
    ContextVar("hanabi_cp_race_watch", default=None)

Stage = tuple[LiveMethod, str]


def can_race(steps: list[Stage], options: SolveOptions, clock: Deadline) -> bool:
    """Whether ``auto`` races its stages (see the module's docstring)."""
    return (ENABLED and len(steps) > 1 and steps[0][0].name == "search"
            and not options.proof and clock.bounded
            and clock.remaining() * (1 - FIRST_SHARE) >= MIN_LANE_SECONDS
            and cores() >= 2 and multiprocessing.parent_process() is None
            and sys.platform.startswith("linux"))


def lanes(steps: list[Stage], width: int) -> list[list[int]]:
    """The indices of ``steps`` dealt in turn to at most ``width`` lanes.

    >>> lanes(["cadical", "glucose", "cpsat"], 1), lanes(["cadical", "glucose", "cpsat"], 2)
    ([[0, 1, 2]], [[0, 2], [1]])
    """
    count = max(1, min(width, len(steps)))
    return [list(range(i, len(steps), count)) for i in range(count)]


def race(start: Game, options: SolveOptions, steps: list[Stage], weights: list[float],
         clock: Deadline, known: Known | None) -> LiveOutcome:
    """``auto``'s answer with the search here and the other stages in lanes."""
    (first, solver), rest = steps[0], steps[1:]
    total = clock.remaining()
    now = time.monotonic()
    crew = Crew(start, options, [[(rest[i], weights[1 + i]) for i in lane]
                                 for lane in lanes(rest, cores() - 1)],
                clock, known, now + min(RACE_START, total * FIRST_SHARE),
                now + total * FIRST_SHARE)
    tally = Tally(known)
    try:
        token = WATCH.set(crew.poll)
        try:
            out = _run(first, start, replace(options, solver=solver, time_limit=total,
                                             deadline=clock,
                                             incumbent=known[1] if known else None))
        finally:
            WATCH.reset(token)
        if out.status is not Status.UNKNOWN:
            return crew.counted(out)
        tally.add(out, first.name)
        if crew.answer is None:
            if not crew.started and not crew.busy and clock.remaining() > MIN_LANE_SECONDS:
                crew.known = tally.known    # the search stopped early (memory short)
                crew.launch()
            if crew.failed or crew.busy:
                return crew.counted(run_stages(start, options, rest, weights[1:], clock,
                                               tally, None))
            crew.wait()
        return crew.counted(crew.result(tally, start.target))
    finally:
        crew.stop()


@dataclass
class Lane:
    stages: list[tuple[Stage, float]]
    process: multiprocessing.process.BaseProcess
    conn: multiprocessing.connection.Connection
    tally: Tally | None = None      # what its undecided stages have shown so far
    done: bool = False


@dataclass
class Crew:
    """The lanes of one race, started at ``start_at`` (``poll``) or on demand."""

    start: Game
    options: SolveOptions
    plan: list[list[tuple[Stage, float]]]
    clock: Deadline
    known: Known | None
    start_at: float
    share_ends: float               # the search's first share, as in the sequential portfolio
    lanes: list[Lane] = field(default_factory=list)
    started: bool = False
    failed: bool = False            # the lanes could not be started
    busy: bool = False              # no core idle: sequential (MIN_IDLE_CORES)
    launched: int = 0               # lanes started
    answer: LiveOutcome | None = None
    # ``cpu_times()`` at the search's first poll: read there, not before the search,
    # as most questions are answered before any poll (/proc/stat costs about 15 us)
    cpu: tuple[int, int] | None = None
    cpu_read: bool = False

    def poll(self, found: Found | None) -> bool:
        """For the search (``WATCH``), with its best game so far: start the lanes
        when it is time (with that game, replayed here, as their incumbent); True
        once one has answered, or when they could not start (the stages then run
        here, after the search, as in the sequential portfolio)."""
        if self.busy:
            return time.monotonic() >= self.share_ends
        if not self.started:
            if not self.cpu_read:
                self.cpu, self.cpu_read = cpu_times(), True
                # idleness is measured over a tenth of a second at least
                self.start_at = max(self.start_at, time.monotonic() + 0.1)
            if time.monotonic() < self.start_at:
                return False
            if idle_cores(self.cpu, cpu_times()) < MIN_IDLE_CORES:
                self.busy = True
                return time.monotonic() >= self.share_ends
            if found is not None and self.options.maximize and \
                    (self.known is None or found[1] > self.known[0]):
                game = certify_live(self.start, LiveOutcome(Status.UNKNOWN, list(found[0]),
                                                            found[1], method="search"))
                self.known = (found[1], tuple(game.actions or ()))
            self.launch()
        self.collect(0.0)
        return self.answer is not None or self.failed

    def launch(self) -> None:
        self.started = True
        options = replace(self.options, deadline=None, time_limit=None, incumbent=None)
        at = self.clock.at - MARGIN
        ctx = multiprocessing.get_context("fork")
        # a forked lane flushes the standard streams as it ends: nothing of ours in them
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        # SIGINT held back until the lane ignores it (``_lane_main``): Ctrl-C is this
        # process's to handle, and a lane forked with our handler would print a traceback
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            for plan in self.plan:
                ours, theirs = ctx.Pipe(duplex=False)
                names = [(m.name, solver) for (m, solver), _ in plan]
                weights = [w for _, w in plan]
                process = ctx.Process(target=_lane_main, name="hanabi-cp race lane", daemon=True,
                                      args=(theirs, self.start, options, names, weights,
                                            self.clock.limit, at, self.known))
                with warnings.catch_warnings():     # Python 3.12: a thread (the watchdog's)
                    warnings.simplefilter("ignore", DeprecationWarning)
                    process.start()
                theirs.close()
                self.lanes.append(Lane(plan, process, ours))
                self.launched += 1
        except OSError:         # no more processes: the stages run here after the search
            self.failed = True
            self.stop()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)

    def collect(self, timeout: float) -> None:
        """Read what the lanes have sent within ``timeout`` seconds."""
        waiting = [lane for lane in self.lanes if not lane.done]
        if waiting:
            ready = multiprocessing.connection.wait([lane.conn for lane in waiting], timeout)
            for lane in waiting:
                if lane.conn in ready:
                    self._read(lane)

    def _read(self, lane: Lane) -> None:
        try:
            kind, body = lane.conn.recv()
        except (EOFError, OSError):      # it ended (killed, out of memory, or done)
            lane.done = True
            return
        if kind == "error":
            lane.done = True
            raise body
        if kind == "tally":             # a stage ended undecided: the lane goes on
            lane.tally = body
        elif self.answer is None:       # "answer": a stage decided
            lane.done = True
            self.answer = body

    def wait(self) -> None:
        """Until a lane answers, every lane has reported, or SETTLE before the deadline."""
        while self.answer is None and any(not lane.done for lane in self.lanes):
            left = self.clock.remaining() - SETTLE
            if left <= 0:
                return
            self.collect(min(POLL_SECONDS, left))

    def result(self, tally: Tally, target: int) -> LiveOutcome:
        """The lanes' answer, replayed here, or the UNKNOWN one of every stage."""
        for part in (lane.tally for lane in self.lanes if lane.tally is not None):
            for out in (part.best,) if part.best is not None else ():
                tally.add(certify_live(self.start, out), out.method)
            if part.bound is not None and (tally.bound is None or part.bound[0] < tally.bound[0]):
                tally.bound = part.bound
            if part.known is not None and (tally.known is None or part.known[0] > tally.known[0]):
                tally.known = part.known
        if self.answer is not None:
            out = certify_live(self.start, self.answer)
            if tally.known is not None and out.score is not None and out.score < tally.known[0]:
                from ..core.errors import SolverBug
                raise SolverBug(f"{out.method} said the best score is {out.score}, but a game "
                                f"scoring {tally.known[0]} was found")
            return out
        return tally.outcome(target)

    def counted(self, out: LiveOutcome) -> LiveOutcome:
        """``out`` with ``stats["lanes"]``, how many lanes raced beside the search,
        if any did (an answer without the key: no race, the sequential portfolio)."""
        if self.launched:
            out.stats = {**out.stats, "lanes": self.launched}
        return out

    def stop(self) -> None:
        """End every lane still running and wait for it (no process outlives the race)."""
        for lane in self.lanes:
            if lane.process.exitcode is None:
                with contextlib.suppress(OSError):
                    lane.process.terminate()
        for lane in self.lanes:
            lane.process.join(STOP_SECONDS)
            if lane.process.exitcode is None:
                with contextlib.suppress(OSError):
                    lane.process.kill()
                lane.process.join()
            lane.conn.close()
            lane.process.close()
        self.lanes = []


def cpu_times() -> tuple[int, int] | None:
    """(idle, total) CPU time of the whole machine so far, in clock ticks summed
    over its cores (``/proc/stat``), or None where it cannot be read."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            ticks = [int(x) for x in f.readline().split()[1:9]]
    except (OSError, ValueError):
        return None
    if len(ticks) < 5:
        return None
    return ticks[3] + ticks[4], sum(ticks)      # idle + iowait; user .. steal


def idle_cores(before: tuple[int, int] | None, after: tuple[int, int] | None,
               count: int | None = None) -> float:
    """How many of the machine's ``count`` cores (default: all) were idle on average
    between two ``cpu_times()`` (infinite when unknown: too short a time to tell,
    or no ``/proc/stat``).

    >>> idle_cores((100, 1000), (150, 1100), 2), idle_cores(None, (1, 2))
    (1.0, inf)
    """
    if before is None or after is None or after[1] <= before[1]:
        return float("inf")
    return (after[0] - before[0]) / (after[1] - before[1]) * (count or os.cpu_count() or 1)


def _lane_main(conn, start: Game, options: SolveOptions, names: list[tuple[str, str]],
               weights: list[float], limit: float, at: float, known: Known | None) -> None:
    """A lane's process: its stages in turn until one decides or time runs out; sends
    ("tally", its Tally) after each undecided stage (what a lane ended at the
    deadline has shown is not lost), ("answer", the outcome) when one decides, or
    ("error", the exception), then ends (the parent reads the end of the pipe)."""
    from ..runtime import interrupts

    WATCH.set(None)         # forked from inside the search: this process has no lanes
    interrupts.in_worker()
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})    # ignored now
    # The search turned the cycle collector off; what it holds, forked from this
    # process, is never freed here: frozen, the collector never walks it (nor copies
    # its pages).
    gc.freeze()
    gc.enable()
    parent = os.getppid()
    threading.Thread(target=_end_with_parent, args=(parent,), name="orphan watch",
                     daemon=True).start()
    # Ended from outside at the deadline: SAT calls run whole (``sat_backend.PLAIN``),
    # and the climb sends each better game as it finds it (a lane ended inside a
    # call would lose it).  SIGTERM must end the lane inside a call too.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    sat_backend.PLAIN.set(PLAIN_LANES)
    tally = Tally(known)

    def rung(out: LiveOutcome) -> None:
        shown = replace(tally)
        shown.add(out, out.method)
        conn.send(("tally", shown))

    sat.RUNG.set(rung if PLAIN_LANES else None)
    try:
        table = live_methods()
        steps = [(table[name], solver) for name, solver in names]
        out = run_stages(start, options, steps, weights, Deadline(limit, at), tally,
                         None, lambda tally: conn.send(("tally", tally)))
        if out.status is not Status.UNKNOWN:
            conn.send(("answer", out))
    except Exception as exc:        # raised again in the parent
        conn.send(("error", _portable(exc)))
    conn.close()


def _portable(exc: Exception) -> Exception:
    """``exc`` if it survives pickling, else a RuntimeError with its text."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:       # whatever pickling raises
        return RuntimeError(f"{type(exc).__name__}: {exc}")


def _end_with_parent(parent: int) -> None:
    # The command's process was killed outright (SIGKILL, its watchdog's os._exit): its
    # answer is gone, and so should this lane be.
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)
