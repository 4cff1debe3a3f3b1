"""``auto`` racing the encodings beside the search (``real.race``): the same answers
as the sequential portfolio, every certificate replayed here, no process left
behind, the time limit kept."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import replace

import pytest

from hanabi_cp.core.errors import SolverBug
from hanabi_cp.io.deck_text import deck_to_text
from hanabi_cp.apps.generators import standard_deck
from hanabi_cp.real import race
from hanabi_cp.real import solve as live_solve
from hanabi_cp.real.referee import Game, replay
from hanabi_cp.real.encoders.schedule import first_legal_game
from hanabi_cp.real.rules import Rules
from hanabi_cp.real.solve import LiveOutcome, solve_position
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.status import Status
from hanabi_cp.runtime.interrupts import Interrupted

from tests.test_live_methods import tiny_position

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self/task"),
                                reason="the race forks lanes on Linux only")


def children() -> set[int]:
    """The processes this one has started and not yet reaped (Linux)."""
    pids: set[int] = set()
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/children") as f:
                pids.update(int(p) for p in f.read().split())
        except OSError:
            pass
    return pids


@pytest.fixture
def eager(monkeypatch):
    """The race from the search's first look at the clock, whatever the limit."""
    monkeypatch.setattr(race, "RACE_START", 0.0)
    monkeypatch.setattr(race, "MIN_LANE_SECONDS", 0.0)
    monkeypatch.setattr(race, "cores", lambda: 2)
    monkeypatch.setattr(race, "MIN_IDLE_CORES", 0.0)     # a busy machine races too
    before = children()
    yield
    assert children() <= before, "a lane outlived its race"


def stalled_search(answer_after_lanes: bool = False, fail: BaseException | None = None):
    """A first stage that leaves the answer to the lanes: it looks at ``WATCH`` until a
    lane answers or its time is up (or, once the lanes run, answers itself with the
    real search, or raises ``fail``)."""
    real = live_solve._run

    def run(m, start, options):
        if m.name != "search":
            return real(m, start, options)
        watch = race.WATCH.get()
        assert watch is not None, "the race sets WATCH while the search runs"
        clock = options.clock()
        while not clock.expired():
            if watch(None):
                return LiveOutcome(Status.UNKNOWN, reason="overtaken (test)", method="search")
            crew_started = watch.__self__.started
            if watch.__self__.failed:
                break
            if crew_started and fail is not None:
                raise fail
            if crew_started and answer_after_lanes:
                return real(m, start, replace(options, deadline=None, time_limit=None))
            time.sleep(0.002)
        return LiveOutcome(Status.UNKNOWN, reason="time limit reached (test)", method="search")

    return run


def positions(seed: int, count: int) -> list[Game]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        g = tiny_position(rng, 8)
        if not g.over and not g.rules.all_or_nothing:     # sat and cpsat refuse it
            out.append(g)
    return out


def test_the_lanes_answer_as_the_sequential_portfolio_does(eager, monkeypatch):
    """Tiny random decks and positions with every option: the search here answers
    nothing, so every answer is a lane's (SAT, then CP-SAT), sent over a pipe and
    replayed by the referee here; each equals the sequential portfolio's."""
    sample = positions(47, 60)
    sequential = []
    monkeypatch.setattr(race, "ENABLED", False)
    for g in sample:
        sequential.append([solve_position(g, "auto", SolveOptions(time_limit=20, maximize=mx))
                           for mx in (False, True)])
    monkeypatch.setattr(race, "ENABLED", True)
    monkeypatch.setattr(race, "_run", stalled_search())
    for g, seq in zip(sample, sequential):
        for maximize, want in zip((False, True), seq):
            got = solve_position(g, "auto", SolveOptions(time_limit=20, maximize=maximize))
            where = (str(g.deck), g.rules, g.turn, maximize)
            assert got.status is want.status and got.score == want.score, where
            assert got.method in ("sat", "cpsat") and got.stats["lanes"] == 1, where
            assert got.verified or got.actions is None, where


def sleepy(start, options):
    time.sleep(60)
    return LiveOutcome(Status.UNKNOWN, reason="slept (test)")


def slow_lanes(monkeypatch, sat=sleepy, cpsat=sleepy):
    """The encodings' methods replaced, in the lanes forked after this (default: by
    one that sleeps a minute)."""
    table = live_solve.live_methods()
    for name, run in (("sat", sat), ("cpsat", cpsat)):
        monkeypatch.setitem(table, name, replace(table[name], run=run))
    monkeypatch.setattr(race, "live_methods", lambda: table)


def test_the_search_answering_first_stops_the_lanes(eager, monkeypatch):
    slow_lanes(monkeypatch)
    monkeypatch.setattr(race, "_run", stalled_search(answer_after_lanes=True))
    g = Game.start(standard_deck(1), Rules.for_players(3))
    t = time.monotonic()
    out = solve_position(g, "auto", SolveOptions(time_limit=20))
    assert out.status is Status.WINNABLE and out.method == "search" and out.verified
    assert out.stats["lanes"] == 1
    assert time.monotonic() - t < race.STOP_SECONDS + 1.0
    # the lane sleeping in its stage was ended (the fixture looks)


@pytest.mark.parametrize("fail", [RuntimeError("boom (test)"), Interrupted(signal.SIGINT)])
def test_an_exception_or_ctrl_c_in_the_search_ends_every_lane(eager, monkeypatch, fail):
    slow_lanes(monkeypatch)
    monkeypatch.setattr(race, "_run", stalled_search(fail=fail))
    g = Game.start(standard_deck(1), Rules.for_players(3))
    with pytest.raises(type(fail)):
        solve_position(g, "auto", SolveOptions(time_limit=20))


def race_stalled_for_2s(monkeypatch, sat) -> tuple[Game, LiveOutcome]:
    """The best score of 2 players seed 4004 by ``auto`` at 2 s, its search stalled and
    its lane's SAT stage ``sat``: UNKNOWN within the limit (and the lanes' grace)."""
    slow_lanes(monkeypatch, sat=sat)
    monkeypatch.setattr(race, "_run", stalled_search())
    g = Game.start(standard_deck(4004), Rules.for_players(2))
    t = time.monotonic()
    out = solve_position(g, "auto", SolveOptions(time_limit=2.0, maximize=True))
    took = time.monotonic() - t
    assert out.status is Status.UNKNOWN and took < 2.0 + 0.5, took
    return g, out


def test_the_time_limit_bounds_the_race(eager, monkeypatch):
    """A lane still in a stage at the deadline is ended: UNKNOWN within the limit (and
    the lanes' grace), with what its earlier stages showed (a game, replayed here,
    and an upper bound)."""
    def some_game(start, options):
        game = first_legal_game(start)
        return LiveOutcome(Status.UNKNOWN, game, replay(start.deck, start.rules, game,
                                                         start).score,
                           reason="gave up (test)", stats={"upper_bound": 24})

    _, out = race_stalled_for_2s(monkeypatch, some_game)
    assert out.method == "sat" and out.verified and out.score is not None
    assert out.stats["upper_bound"] == 24


def test_a_lane_ended_inside_an_unsliced_call_keeps_the_climb_s_games(eager, monkeypatch):
    """A lane's SAT calls run whole (``sat_backend.PLAIN``) and are ended at the
    deadline from outside: each better game of the climb was sent as it was found
    (``sat.RUNG``), so the answer has it, replayed here, within the limit."""
    from hanabi_cp.solvers import sat_backend
    from hanabi_cp.real.methods import sat

    def climbing(start, options):
        assert sat_backend.PLAIN.get() and sat.RUNG.get() is not None
        game = first_legal_game(start)
        score = replay(start.deck, start.rules, game, start).score
        sat.RUNG.get()(LiveOutcome(Status.UNKNOWN, game, score, method="sat",
                                   reason="a rung (test)"))
        time.sleep(60)      # the next rung's call, never returning in time
        return LiveOutcome(Status.UNKNOWN, reason="slept (test)")

    g, out = race_stalled_for_2s(monkeypatch, climbing)
    assert out.method == "sat" and out.verified
    assert out.score == replay(g.deck, g.rules, first_legal_game(g), g).score


def test_unsliced_sat_calls_answer_as_sliced_ones():
    from hanabi_cp.solvers import sat_backend

    clauses = [[1, 2], [-1, 3], [-2, 3], [-3, 4]]
    token = sat_backend.PLAIN.set(True)
    try:
        plain = [sat_backend.sat_solve(clauses, assumptions=a)[:2] for a in ([], [-4])]
    finally:
        sat_backend.PLAIN.reset(token)
    assert plain == [sat_backend.sat_solve(clauses, assumptions=a)[:2] for a in ([], [-4])]
    assert plain[1] == (False, None)


def test_a_lane_that_dies_leaves_the_answer_to_the_others(eager, monkeypatch):
    def dead(start, options):
        os._exit(3)     # in the lane: as the out-of-memory killer would

    slow_lanes(monkeypatch, dead, dead)
    monkeypatch.setattr(race, "_run", stalled_search())
    g = Game.start(standard_deck(1), Rules.for_players(3))
    out = solve_position(g, "auto", SolveOptions(time_limit=1.0))
    assert out.status is Status.UNKNOWN and out.method == "search"


def test_a_lane_s_certificate_is_replayed_here(eager, monkeypatch):
    """A lane claiming a win with a game that does not win: a SolverBug here, never an
    answer (the lane's own replay is not trusted)."""
    real_run = live_solve._run

    def lying(m, start, options):
        out = real_run(m, start, options)
        if m.name == "sat" and out.actions:
            out.actions = out.actions[:-1]      # after its own replay, as a bug would
        return out

    monkeypatch.setattr(live_solve, "_run", lying)
    monkeypatch.setattr(race, "_run", stalled_search())
    g = Game.start(standard_deck(1), Rules.for_players(3))
    with pytest.raises(SolverBug, match="sat: certificate stops before the game is over"):
        solve_position(g, "auto", SolveOptions(time_limit=20))


def test_no_race_where_it_cannot_help_or_must_not_run(monkeypatch):
    g = Game.start(standard_deck(1), Rules.for_players(3))
    steps = live_solve.stages(live_solve.candidates(g), SolveOptions(time_limit=10))
    clock = SolveOptions(time_limit=10).clock()
    monkeypatch.setattr(race, "cores", lambda: 2)
    assert race.can_race(steps, SolveOptions(time_limit=10), clock)
    assert not race.can_race(steps, SolveOptions(time_limit=10, proof="p.drup"), clock)
    assert not race.can_race(steps[1:], SolveOptions(time_limit=10), clock)    # no search first
    assert not race.can_race(steps, SolveOptions(), SolveOptions().clock())    # no limit
    assert not race.can_race(steps, SolveOptions(time_limit=1), SolveOptions(time_limit=1).clock())
    monkeypatch.setattr(race, "cores", lambda: 1)
    assert not race.can_race(steps, SolveOptions(time_limit=10), clock)


def test_without_processes_the_stages_run_here_after_the_search(eager, monkeypatch):
    def refused(self):
        raise OSError("no more processes (test)")

    import multiprocessing.process
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", refused)
    monkeypatch.setattr(race, "_run", stalled_search())
    g = Game.start(standard_deck(1), Rules.for_players(3))
    out = solve_position(g, "auto", SolveOptions(time_limit=20))
    assert out.status is Status.WINNABLE and out.method == "sat" and "lanes" not in out.stats


def test_ctrl_c_ends_the_command_and_its_lanes(tmp_path):
    """``solve --rules live`` on a deal the search does not decide in a second (6
    players, seed 1653): Ctrl-C at a terminal (SIGINT to the whole session) once the
    lane runs ends the command (exit 130) and the lane."""
    psutil = pytest.importorskip("psutil")
    deck = tmp_path / "deck.txt"
    deck.write_text(deck_to_text(standard_deck(1653)))
    # the command as the entry point runs it, racing even on a busy machine
    args = [sys.executable, "-c", "from hanabi_cp.real import race; race.MIN_IDLE_CORES = 0; "
            "from hanabi_cp.cli import main; main()", "solve", str(deck), "--rules", "live",
            "--players", "6", "--time-limit", "60"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,
                            env={**os.environ, "PYTHONPATH": os.getcwd()})
    lanes: set = set()
    try:
        waited = time.monotonic() + 30
        while proc.poll() is None and not lanes and time.monotonic() < waited:
            lanes = {p.pid for p in psutil.Process(proc.pid).children(recursive=True)}
            time.sleep(0.05)
        assert lanes, "the lane was seen"
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130, (out, err)
    assert out.splitlines()[-1] == "c interrupted" and "Traceback" not in err
    gone, alive = psutil.wait_procs([psutil.Process(p) for p in lanes if psutil.pid_exists(p)],
                                    timeout=10)
    assert not alive


@pytest.mark.parametrize("racing", [False, True])
def test_a_game_that_reaches_another_stage_s_bound_decides_the_best_score(monkeypatch, racing):
    """The search proves 24 the most but finds no game in its time; CaDiCaL finds a
    game of 24 and asks in vain for 25: together they decide it (UNWINNABLE, 24, the
    game replayed), and the stages after them do not run.  The same in the race,
    where the search's bound arrives at the end."""
    from hanabi_cp.real.solve import SAT_PORTFOLIO
    deck, rules = standard_deck(5), Rules.for_players(2, hand_size=4)
    game = solve_position(Game.start(deck, rules), "search", SolveOptions(maximize=True))
    assert game.score == 24
    asked = []

    def run(m, start, options):
        asked.append((m.name, options.solver))
        if m.name == "search":
            return LiveOutcome(Status.UNKNOWN, [], None, "gave up (test)", method="search",
                               stats={"upper_bound": 24})
        if (m.name, options.solver) == ("sat", SAT_PORTFOLIO[0]):
            return live_solve.certify_live(start, LiveOutcome(
                Status.UNKNOWN, game.actions, 24, "gave up (test)", method="sat"))
        return LiveOutcome(Status.UNKNOWN, reason="gave up (test)", method=m.name)

    monkeypatch.setattr(live_solve, "_run", run)
    monkeypatch.setattr(race, "_run", run)
    monkeypatch.setattr(race, "ENABLED", racing)
    monkeypatch.setattr(race, "RACE_START", 0.0)
    monkeypatch.setattr(race, "MIN_IDLE_CORES", 0.0)
    monkeypatch.setattr(race, "cores", lambda: 2)
    out = solve_position(Game.start(deck, rules), "auto",
                         SolveOptions(time_limit=5, maximize=True))
    assert out.status is Status.UNWINNABLE and out.score == 24 and out.verified
    assert out.reason == ("search: no complete game scores more than 24 of 25; sat found a "
                          "game scoring 24")
    assert out.stats["bound_by"] == "search" and out.method == "sat"
    if not racing:
        assert asked == [("search", SAT_PORTFOLIO[0]), ("sat", SAT_PORTFOLIO[0])]


def test_on_a_busy_machine_the_portfolio_stays_sequential(monkeypatch):
    """No core idle while the search ran its first second: no lane; the search stops
    at its first share and the stages follow here, by weight, as without the race."""
    monkeypatch.setattr(race, "cores", lambda: 2)
    monkeypatch.setattr(race, "RACE_START", 0.0)
    monkeypatch.setattr(race, "idle_cores", lambda before, after: 0.1)
    asked = []

    def run(m, start, options):
        asked.append((m.name, options.solver, options.time_limit))
        if m.name == "search":
            watch = race.WATCH.get()
            t = time.monotonic()
            while not watch(None):
                time.sleep(0.01)
            asked.append(("stopped after", round(time.monotonic() - t, 1)))
            assert not watch.__self__.lanes
        return LiveOutcome(Status.UNKNOWN, reason="gave up (test)", method=m.name)

    monkeypatch.setattr(live_solve, "_run", run)
    monkeypatch.setattr(race, "_run", run)
    before = children()
    out = solve_position(Game.start(standard_deck(1), Rules.for_players(3)), "auto",
                         SolveOptions(time_limit=4))
    assert out.status is Status.UNKNOWN and children() <= before and "lanes" not in out.stats
    assert asked[1] == ("stopped after", 1.0)       # a quarter of 4 s
    assert [a[:2] for a in asked[2:]] == [("sat", "cadical195"), ("sat", "glucose4"),
                                          ("cpsat", "cadical195")]
    assert asked[2][2] == pytest.approx(3.0 * 6 / 9, abs=0.2)


def test_a_deal_decided_at_once_starts_no_process(monkeypatch):
    """Most deals take under a millisecond: the race never starts for them."""
    monkeypatch.setattr(race, "cores", lambda: 2)
    monkeypatch.setattr(race, "MIN_IDLE_CORES", 0.0)
    started = []
    monkeypatch.setattr(race.Crew, "launch", lambda self: started.append(self))
    for seed in range(1, 6):
        out = solve_position(Game.start(standard_deck(seed), Rules.for_players(4)), "auto",
                             SolveOptions(time_limit=10))
        assert out.status is Status.WINNABLE and "lanes" not in out.stats
    assert started == []
