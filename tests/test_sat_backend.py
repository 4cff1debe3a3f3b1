"""The one pysat entry point (hanabi_cp/solvers/sat_backend.py): sessions and who opens solvers."""

import pathlib
import re

import pytest

from hanabi_cp.solvers import sat_backend
from hanabi_cp.core.errors import InvalidParameter
from hanabi_cp.runtime.deadline import Deadline, TimeUp
from hanabi_cp.solvers.sat_backend import SatSession, check_solver


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
    root = pathlib.Path(sat_backend.__file__).parent.parent
    allowed = {root / "solvers/sat_backend.py"}
    opens = [str(p.relative_to(root)) for p in root.rglob("*.py")
             if p not in allowed and re.search(r"from pysat\.solvers import|pysat\.solvers\.",
                                               p.read_text())]
    assert opens == []


def test_every_usable_solver_answers_incrementally_and_the_others_are_refused(monkeypatch):
    """What hanabi-cp asks of a solver: assumptions, clauses added between calls and
    conflict-budgeted calls (lingeling has no budgets: it is refused only with a
    time limit, in run_limited).  A solver that cannot do it is refused by name."""
    from pysat.solvers import SolverNames

    usable = sat_backend.usable_solvers()
    assert sat_backend.DEFAULT_SOLVER in usable and "glucose4" in usable
    for name in usable:
        with SatSession([[1, 2], [-1, 2]], name) as s:
            assert s.solve(assumptions=[-2])[0] is False
            s.add_clause([3])
            assert s.solve()[0] is True
    for name in [n for n in vars(SolverNames) if not n.startswith("_") and n not in usable]:
        with pytest.raises(InvalidParameter, match=f"{name}.*choose from"):
            check_solver(name)
    with pytest.raises(InvalidParameter, match="solves only once"):
        check_solver("kissat404")
    monkeypatch.setattr(sat_backend, "_installed", lambda name: name != "glucose3")
    with pytest.raises(InvalidParameter, match="'glucose3' is not in this installation"):
        check_solver("glucose3")
    with pytest.raises(InvalidParameter, match="unknown pysat solver '__class__'"):
        check_solver("__class__")
