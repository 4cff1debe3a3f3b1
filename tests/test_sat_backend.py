"""The one pysat entry point (hanabi_cp/sat_backend.py): sessions and who opens solvers."""

import pathlib
import re

import pytest

from hanabi_cp import sat_backend
from hanabi_cp.runtime.deadline import Deadline, TimeUp
from hanabi_cp.sat_backend import SatSession


def pigeons(n):
    """n + 1 pigeons in n holes: unsatisfiable, and hard enough for small budgets."""
    var = lambda p, h: p * n + h + 1  # noqa: E731
    clauses = [[var(p, h) for h in range(n)] for p in range(n + 1)]
    clauses += [[-var(p, h), -var(q, h)] for h in range(n)
                for p in range(n + 1) for q in range(p + 1, n + 1)]
    return clauses


def test_a_session_takes_clauses_and_assumptions_between_calls():
    with SatSession([[1, 2, 3]]) as s:
        assert s.solve([-1, -2])[:2] == (True, [-1, -2, 3])
        s.add_clause([-3])
        ok, model, stats = s.solve([-1, -2])
        assert (ok, model) == (False, None) and "conflicts" in stats
        assert s.solve()[0] is True


def test_a_conflict_budget_runs_out_as_none_and_the_counters_are_reproducible():
    runs = []
    for _ in range(2):
        with SatSession(pigeons(7)) as s:
            assert s.solve_within(50) is None
            runs.append(s.stats())
    assert runs[0] == runs[1] and runs[0]["conflicts"] >= 50
    with SatSession(pigeons(3)) as s:
        assert s.solve_within(10**6) is False


def test_a_proof_session_returns_the_drup_lines_of_a_refutation():
    with SatSession([[1, 2], [-1, 2], [1, -2], [-1, -2]], proof=True) as s:
        assert s.solve()[0] is False
        lines = s.proof()
    assert lines and lines[-1].strip() == "0"


def test_loading_keeps_the_deadline_and_a_closed_session_is_not_used():
    passed = Deadline.after(1e-9, start=0.0)
    with pytest.raises(TimeUp, match="loading the CNF"), SatSession([[1]], deadline=passed):
        pass
    s = SatSession([[1]])
    with s:
        assert s.solve()[0] is True
    with pytest.raises(RuntimeError, match="outside its with block"):
        s.solve()


def test_only_sat_backend_opens_a_pysat_solver():
    root = pathlib.Path(sat_backend.__file__).parent
    allowed = {root / "sat_backend.py"}
    opens = [str(p.relative_to(root)) for p in root.rglob("*.py")
             if p not in allowed and re.search(r"from pysat\.solvers import|pysat\.solvers\.",
                                               p.read_text())]
    assert opens == []
