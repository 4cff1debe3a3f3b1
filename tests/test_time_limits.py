"""--time-limit bounds a whole command: one deadline, checked by every phase.

Functional tests only: a deadline that has already passed (or passes at the n-th
check) must give UNKNOWN naming the phase, never a verdict without evidence; a
generous one must change no verdict.  Wall times are measured by bench.time_limits.
"""

import math
import os
import random
import sys
import time

import pytest
from click.testing import CliRunner

from hanabi_cp.cli import main
from hanabi_cp.runtime.deadline import NEVER, Deadline, TimeUp, ambient
from hanabi_cp.solitaire.encoders import cnf, cpsat
from hanabi_cp.solitaire.preprocessing import analyse
from hanabi_cp.core.errors import HanabiError
from hanabi_cp.io import parse_deck_file, read_deck_file
from hanabi_cp.apps.generators import random_deck, standard_deck
from hanabi_cp.solitaire.min_hand import min_hand
from hanabi_cp.solvers import proofs, sat_backend
from hanabi_cp.solvers.cpsat import configure as cpsat_configure
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.status import Status
from hanabi_cp.solitaire.solve import methods, solve

INST = os.path.join(os.path.dirname(__file__), os.pardir, "instances")
WIN = os.path.join(INST, "standard-winnable-h2.txt")
LOSE = os.path.join(INST, "standard-unwinnable-h2.txt")
UF20 = os.path.join(INST, "satlib", "uf20-91", "uf20-01.cnf")
PASSED = Deadline.after(0)
# Unwinnable at h = 1, but only the SAT solver shows it (preprocessing does not):
# the first deck test_proofs.unsat_decks(3, 1) finds, fixed here to save its search.
UNSAT_H1 = parse_deck_file("2g 1y 3g 3g 4r 3r 3y 2y 4g 1g 2r 1r 3g 2r 1r 4y 4r 4r 2r 2g "
                      "3y 3y 4g 1r 3r 2y 1y 4g").deck


class Countdown(Deadline):
    """A deadline that passes at its n-th check: reaches phases past the first one."""

    def __init__(self, checks: int):
        super().__init__(1.0, math.inf)
        object.__setattr__(self, "left", [checks])

    def expired(self) -> bool:
        return self.left[0] <= 0

    def remaining(self) -> float:
        return 0.0 if self.expired() else 60.0

    def check(self, phase: str) -> None:
        self.left[0] -= 1
        if self.left[0] <= 0:
            raise TimeUp(self.limit, phase)


def run(args, input=None):
    try:
        runner = CliRunner(mix_stderr=False)
    except TypeError:
        runner = CliRunner()
    return runner.invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)


def test_deadline_basics():
    assert not issubclass(TimeUp, HanabiError)      # a time-out is no user mistake
    assert not NEVER.bounded and not NEVER.expired() and NEVER.remaining() == math.inf
    NEVER.check("anything")
    assert Deadline.after(None) is NEVER and not Deadline.after(math.inf).bounded
    assert PASSED.expired() and PASSED.remaining() <= 0
    with pytest.raises(TimeUp, match=r"^time limit of 2.5 s reached during reading$"):
        Deadline.after(2.5, start=0.0).check("reading")


# --- every method: a passed deadline is UNKNOWN with the phase named -----------------

@pytest.mark.parametrize("method,phase", [
    ("sat", "preprocessing (hold windows)"),
    ("cpsat", "preprocessing (hold windows)"),
    ("search", "preprocessing (hold windows)"),
    ("dp", "the dynamic program"),
    ("brute", "exhaustive search"),
])
def test_passed_deadline_is_unknown_naming_the_phase(method, phase):
    deck = random_deck(random.Random(3), 4, 3, 2)
    assert methods()[method].refuses(deck, 2) is None
    if method == "brute":      # brute checks once per 4096 states: count checks instead
        out = solve(deck, 2, method, SolveOptions(deadline=Countdown(1)))
    else:
        out = solve(deck, 2, method, SolveOptions(deadline=PASSED))
    assert out.status is Status.UNKNOWN and out.plays is None
    assert out.reason.startswith("time limit of ") and out.reason.endswith(f"during {phase}")


def test_each_builder_checks_its_own_loop():
    deck = read_deck_file(WIN).deck
    win = analyse(deck, 2)
    assert win.reason is None
    with pytest.raises(TimeUp, match="preprocessing"):
        analyse(deck, 2, deadline=PASSED)
    with pytest.raises(TimeUp, match="building the CNF"):
        cnf.build(deck, 2, windows=win, deadline=PASSED)
    with pytest.raises(TimeUp, match="building the CP-SAT model"):
        cpsat.build_decide(deck, 2, windows=win, deadline=PASSED)
    with pytest.raises(TimeUp, match="building the CP-SAT model"):
        cpsat.build_maximize(deck, 2, deadline=PASSED)
    enc = cnf.build(deck, 2)
    with pytest.raises(TimeUp, match="loading the CNF"):
        sat_backend.sat_solve(enc.clauses, deadline=PASSED)
    with pytest.raises(TimeUp, match="SAT search"):
        sat_backend.sat_solve(enc.clauses, deadline=Countdown(2))
    # Checks beyond the first: the n-th check of a build stops it too.
    with pytest.raises(TimeUp, match="building the CNF"):
        cnf.build(deck, 2, windows=win, deadline=Countdown(3))


def test_cpsat_maximize_time_out_keeps_a_verified_lower_bound():
    deck = standard_deck(random.Random(2))
    out = solve(deck, 2, "cpsat", SolveOptions(maximize=True, deadline=PASSED))
    assert out.status is Status.UNKNOWN and out.verified and out.score > 0
    assert "during building the CP-SAT model; a greedy game plays" in out.reason


def test_cpsat_gets_what_is_left_of_the_command_time():
    from ortools.sat.python import cp_model
    solver = cp_model.CpSolver()
    cpsat_configure(solver, SolveOptions(time_limit=30), Deadline.after(30, start=time.monotonic() - 20))
    assert 0 < solver.parameters.max_time_in_seconds <= 10
    assert solver.parameters.catch_sigint_signal is False


def test_search_checks_inside_the_node_loop():
    from hanabi_cp.solitaire.methods.search import search
    deck = standard_deck(123)          # 1,053 nodes at h = 4; the loop checks every 1,024
    calls = Countdown(10**9)
    search(deck, 4, calls)
    checks = 10**9 - calls.left[0]
    with pytest.raises(TimeUp, match="during search$"):
        search(deck, 4, Countdown(checks))


# --- SAT slices: control comes back to Python between budgets -------------------------

class FakeSolver:
    """A solver that answers after ``slices`` limited calls (or never)."""

    def __init__(self, slices, budgets=True):
        self.slices, self.budgets, self.calls = slices, budgets, []

    def conf_budget(self, budget):
        if not self.budgets:
            raise NotImplementedError
        self.calls.append(budget)

    def solve_limited(self, assumptions=()):
        self.slices -= 1
        return None if self.slices > 0 else True

    def solve(self, assumptions=()):
        return True

    def accum_stats(self):
        return {}

    def get_model(self):
        return [1]

    def interrupt(self):        # as pysat's CaDiCaL: no stopping from another thread
        raise NotImplementedError


class FakeInterruptible(FakeSolver):
    """A solver (as pysat's Glucose) that runs until another thread interrupts it,
    and answers at its ``slices``-th call."""

    def __init__(self, slices):
        super().__init__(slices)
        import threading
        self.stop, self.ended_by_timer = threading.Event(), 0

    def interrupt(self):
        self.stop.set()

    def clear_interrupt(self):
        self.stop.clear()

    def solve_limited(self, assumptions=(), expect_interrupt=False):
        assert expect_interrupt
        self.slices -= 1
        if self.slices <= 0:
            return True
        self.ended_by_timer += self.stop.wait(60)
        return None


def test_run_limited_slices_until_an_answer_and_stops_at_the_deadline():
    s = FakeSolver(5)
    assert sat_backend.run_limited(s, NEVER)[0] is True
    assert len(s.calls) == 5 and all(b >= 100 for b in s.calls)
    with pytest.raises(TimeUp, match="SAT search"):
        sat_backend.run_limited(FakeSolver(10**6), Countdown(4))
    # A solver without conflict budgets cannot keep a limit: said so, not ignored.
    assert sat_backend.run_limited(FakeSolver(1, budgets=False), NEVER)[0] is True
    with pytest.raises(HanabiError, match="cannot keep a time limit"):
        sat_backend.run_limited(FakeSolver(1, budgets=False), Deadline.after(60))


def test_run_limited_stops_an_interruptible_solver_by_a_timer():
    """Glucose and its kin are sliced by a timer thread, not a conflict budget (whose
    time varies a hundredfold): every slice but the answering one ends by the timer."""
    s = FakeInterruptible(4)
    assert sat_backend.run_limited(s, NEVER)[0] is True
    assert s.ended_by_timer == 3 and s.calls == [] and not s.stop.is_set()
    with pytest.raises(TimeUp, match="SAT search"):
        sat_backend.run_limited(FakeInterruptible(10**6), Countdown(3))
    # a real Glucose on a formula it cannot answer quickly (10 pigeons, 9 holes)
    from pysat.examples.genhard import PHP
    from pysat.solvers import Solver
    with Solver(name="glucose4", bootstrap_with=PHP(9).clauses) as g, pytest.raises(TimeUp):
        sat_backend.run_limited(g, Deadline.after(0.3))


# --- proofs: the checker runs in a process that is killed at the deadline --------------

def test_proof_check_killed_at_the_deadline_claims_nothing(tmp_path, monkeypatch):
    pid_file = tmp_path / "checker.pid"
    monkeypatch.setattr(proofs, "checker_command", lambda cnf_path, proof_path: [
        sys.executable, "-c",
        f"import os, time; open({str(pid_file)!r}, 'w').write(str(os.getpid())); time.sleep(60)"])
    deck, h = UNSAT_H1, 1
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    proof = out_dir / "p.drup"
    out = solve(deck, h, "sat", SolveOptions(proof=str(proof), time_limit=1.0))
    assert out.status is Status.UNKNOWN
    assert out.reason.startswith("proof check did not finish within the time limit of 1 s")
    assert "proof" not in out.stats and not out.verified
    assert os.listdir(out_dir) == []                 # no proof, no CNF, no partial file
    pid = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):          # killed and reaped
        os.kill(pid, 0)


def test_proof_within_a_generous_limit_is_checked_as_before(tmp_path):
    deck, h = UNSAT_H1, 1
    proof = tmp_path / "p.drup"
    out = solve(deck, h, "sat", SolveOptions(proof=str(proof), time_limit=600))
    assert out.status is Status.UNWINNABLE and out.stats["proof_checked"] is True
    assert sorted(os.listdir(tmp_path)) == ["p.drup", "p.drup.cnf"]
    assert proofs.check_files(str(proof) + ".cnf", str(proof))
    assert proofs.check_within(str(proof) + ".cnf", str(proof), Deadline.after(600))


def test_proof_time_out_before_the_check_leaves_no_file(tmp_path):
    deck, h = UNSAT_H1, 1
    enc = cnf.build(deck, h)
    count = Countdown(10**9)
    proofs.prove_unsat(enc.clauses, enc.num_vars, str(tmp_path / "whole"), deadline=count)
    for name in os.listdir(tmp_path):
        os.remove(tmp_path / name)
    for checks in range(1, 10**9 - count.left[0] + 1):     # a time-out at every check
        with pytest.raises(TimeUp):
            proofs.prove_unsat(enc.clauses, enc.num_vars, str(tmp_path / "p"), deadline=Countdown(checks))
        assert os.listdir(tmp_path) == []


# --- no verdict lost: a generous limit answers exactly as no limit ---------------------

# The first 8 decks of the stream in the normal run (make test), all 25 with --runslow.
@pytest.mark.parametrize("count", [8, pytest.param(25, marks=pytest.mark.slow)])
def test_generous_limit_changes_no_verdict(count):
    rng = random.Random(11)
    names = [m for m in sorted(methods()) if m not in ("greedy", "lazy")]
    for _ in range(count):
        deck, h = random_deck(rng, rng.randint(1, 4), rng.randint(1, 3), rng.randint(1, 3)), rng.randint(0, 3)
        for m in names:
            if methods()[m].refuses(deck, h):
                continue
            free = solve(deck, h, m)
            timed = solve(deck, h, m, SolveOptions(time_limit=600))
            assert timed.status is free.status, (str(deck), h, m)
            if methods()[m].maximizes:
                a = solve(deck, h, m, SolveOptions(maximize=True)).score
                assert solve(deck, h, m, SolveOptions(maximize=True, time_limit=600)).score == a
        free_min = min_hand(deck, "sat")
        assert min_hand(deck, "sat", SolveOptions(time_limit=600)).h == free_min.h


def test_min_hand_time_out_raises_never_a_wrong_size():
    deck = read_deck_file(LOSE).deck
    with pytest.raises(TimeUp):
        min_hand(deck, "sat", SolveOptions(deadline=PASSED))
    with pytest.raises(TimeUp, match="deciding h = "):
        min_hand(deck, "cpsat", SolveOptions(deadline=PASSED))


def test_reader_polls_the_ambient_deadline():
    text = "\n".join(["1r 2r 1y 2y"] * 600)
    with ambient(PASSED), pytest.raises(TimeUp, match="reading the deck"):
        parse_deck_file(text)
    json_text = '{"cards": [' + ", ".join(["[1, 1]"] * 5000) + "]}"
    with ambient(PASSED), pytest.raises(TimeUp, match="reading the deck"):
        parse_deck_file(json_text)
    assert parse_deck_file(text).deck.N == 2400          # outside ``ambient``: no deadline


def test_roundtrip_limit_is_per_formula():
    from hanabi_cp.solvers.formula import CNF
    from hanabi_cp.apps.roundtrip import roundtrip
    fig2 = CNF.of([(1, -2, 3), (1, 2, -3)])
    row = roundtrip(fig2, "fig2", options=SolveOptions(time_limit=1e-9))
    assert row.deck_verdict == "UNKNOWN" and row.agreement == "unknown" and not row.disagrees
    row = roundtrip(fig2, "fig2", options=SolveOptions(time_limit=600))
    assert row.deck_verdict == "WINNABLE" and row.agreement == "yes"


def test_study_records_a_timed_out_min_hand_as_unknown(tmp_path):
    from hanabi_cp.apps.studies import standard
    rows = standard.run(str(tmp_path / "s.csv"), 1, 1, hands=[2], method_names=["sat"],
                        maximize=False, time_limit=1e-9).rows
    assert {r["task"]: r["verdict"] for r in rows} == {"decide": "UNKNOWN", "min_hand": "UNKNOWN"}
    assert [r["min_hand"] for r in rows if r["task"] == "min_hand"] == [""]


# --- the CLI ----------------------------------------------------------------------------

def test_cli_time_out_is_s_unknown_exit_0(tmp_path):
    res = run(["solve", WIN, "--method", "sat", "--time-limit", "1e-9"])
    assert res.exit_code == 0 and "\ns UNKNOWN\n" in res.stdout
    assert "c reason: time limit of 1e-09 s reached during " in res.stdout
    big = tmp_path / "big.txt"
    big.write_text("h 2\n" + "\n".join(["1r 2r 1y 2y"] * 600) + "\n")
    res = run(["solve", big, "--method", "sat", "--time-limit", "1e-9", "--proof", tmp_path / "p"])
    assert res.exit_code == 0 and "s UNKNOWN" in res.stdout
    assert "during reading the deck" in res.stdout and "c no proof written" in res.stdout
    assert not (tmp_path / "p").exists()
    res = run(["solve", big, "--time-limit", "1e-9", "--json"])
    assert res.exit_code == 0 and '"status": "UNKNOWN"' in res.stdout
    res = run(["min-hand", LOSE, "--time-limit", "1e-9"])
    assert res.exit_code == 0 and "s UNKNOWN" in res.stdout and "c reason: time limit" in res.stdout
    res = run(["min-hand", LOSE, "--time-limit", "1e-9", "--json"])
    assert res.exit_code == 0 and '"status": "UNKNOWN"' in res.stdout


def test_cli_generous_limit_same_answer():
    for args in (["solve", WIN, "--method", "sat"], ["solve", LOSE, "--method", "cpsat"],
                 ["solve", LOSE, "--method", "cpsat", "--maximize"], ["min-hand", LOSE]):
        free, timed = run(args), run([*args, "--time-limit", 600])
        assert timed.exit_code == free.exit_code
        assert [l for l in timed.stdout.splitlines() if l[:2] in ("s ", "v ")] == \
            [l for l in free.stdout.splitlines() if l[:2] in ("s ", "v ")]


TIME_LIMITED = [["solve", WIN], ["min-hand", WIN], ["roundtrip", UF20], ["harness", "--count", 0],
                ["study", "standard", "--count", 0], ["study", "random", "--count", 0],
                ["study", "reduction", "--count", 0]]


@pytest.mark.parametrize("value,why", [("nan", "found nan"), ("inf", "finite"), ("-inf", "finite"),
                                       ("-1", "more than 0"), ("0", "more than 0"),
                                       ("1e999", "finite"), ("soon", "number of seconds")])
@pytest.mark.parametrize("args", TIME_LIMITED, ids=lambda a: " ".join(map(str, a[:2])))
def test_every_time_limit_refuses_non_numbers(args, value, why):
    res = run([*args, f"--time-limit={value}"])
    assert res.exit_code == 2
    (line,) = res.stderr.splitlines()
    assert line.startswith("hanabi-cp: error: ") and "--time-limit" in line and why in line


def test_workers_and_seed_are_checked():
    for args, word in ((["--workers", 100000], "--workers"), (["--workers", 0], "--workers"),
                       (["--seed", 2**31], "--seed"), (["--seed", -2**31 - 1], "--seed")):
        res = run(["solve", WIN, "--method", "cpsat", *args])
        assert res.exit_code == 2 and len(res.stderr.splitlines()) == 1 and word in res.stderr
    assert run(["solve", WIN, "--method", "cpsat", "--workers", 2, "--seed", 2**31 - 1]).exit_code == 10
    for bad in ({"time_limit": float("nan")}, {"time_limit": -1}, {"seed": 2**40}, {"workers": 10**5}):
        with pytest.raises(HanabiError):
            SolveOptions(**bad)
    res = run(["study", "standard", "--count", 0, "--seed", 2**40])
    assert res.exit_code == 2 and "random_seed" in res.stderr


def test_harness_counts_a_time_out_during_building_as_unknown():
    from hanabi_cp.apps.harness.check import UNKNOWN, run_check
    from hanabi_cp.apps.harness.runner import select_checks
    deck = random_deck(random.Random(3), 4, 3, 2)
    for check in select_checks(None, maximize=True):
        res = run_check(check, deck, 2, SolveOptions(deadline=PASSED))
        assert res.status in (UNKNOWN, "WINNABLE", "UNWINNABLE", "REFUSED"), (check.label, res)
        if check.method.name in ("sat", "cpsat", "dp", "search"):   # they all check first
            assert res.status == UNKNOWN and res.detail.startswith("time limit of "), res


def test_prepare_imports_or_tools_only_for_methods_that_use_it():
    import subprocess
    code = ("import sys; from hanabi_cp.solitaire.solve import prepare; prepare({!r}, {}); "
            "print('ortools.sat.python.cp_model' in sys.modules)")
    for method, maximize, loaded in (("auto", False, False), ("sat", False, False),
                                     ("cpsat", False, True), ("auto", True, True)):
        out = subprocess.run([sys.executable, "-c", code.format(method, maximize)],
                             capture_output=True, text=True, check=True).stdout.strip()
        assert out == str(loaded), (method, maximize)
