"""The one Encoding shape (solitaire/encoders/encoding.py): every encoder returns it, and a
method can decide any of them by the same four members: ``formula`` to the solver,
``decode`` of its solution to a play the referee accepts, ``variables`` naming the
copy choices, ``status`` when preprocessing already decided."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_cp.solitaire.preprocessing import analyse
from hanabi_cp.solitaire.encoders import cnf, cpsat, cpsat_residual
from hanabi_cp.solitaire.encoders.encoding import CnfEncoding, CpsatEncoding, Encoding
from hanabi_cp.solitaire.encoders.flat import Clauses
from hanabi_cp.io import read_deck_file
from hanabi_cp.apps.generators import random_deck
from hanabi_cp.solitaire.methods.brute import brute
from hanabi_cp.solitaire.methods.cpsat import solution
from hanabi_cp.solvers.sat_backend import sat_solve
from hanabi_cp.solitaire.solve import solve as solve_with
from hanabi_cp.core.status import Status
from hanabi_cp.solitaire.referee import replay

BUILDERS = {"cnf": cnf.build, "decide": cpsat.build_decide,
            "maximize": cpsat.build_maximize, "residual": cpsat_residual.build_residual}


def solve(enc: Encoding):
    """A solution of ``enc.formula`` by its own kind of solver, or None."""
    if isinstance(enc, CnfEncoding):
        ok, model, _ = sat_solve(enc.formula)
        return model if ok else None
    from ortools.sat.python import cp_model
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    code = solver.solve(enc.formula)
    return solution(solver) if code in (cp_model.OPTIMAL, cp_model.FEASIBLE) else None


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), h=st.integers(0, 3))
def test_every_encoder_returns_the_shape_and_its_decode_wins(seed, h):
    deck = random_deck(seed, n=4, c=3, r=2)
    check_shape(deck, h, brute(deck, h).status is Status.WINNABLE)


def test_the_shape_when_the_solver_must_refute():
    # Preprocessing decides almost every tiny lost deck; this one reaches the solvers.
    deck = random_deck(32, 5, 4, 2, exact_copies=True)
    assert cnf.build(deck, 3).status is None
    assert solve_with(deck, 3, "dp").status is Status.UNWINNABLE   # brute takes minutes
    check_shape(deck, 3, False)


def check_shape(deck, h: int, won: bool) -> None:
    for name, build in BUILDERS.items():
        enc = build(deck, h)
        assert isinstance(enc, Encoding) and (enc.deck, enc.h) == (deck, h), name
        assert isinstance(enc, CnfEncoding if name == "cnf" else CpsatEncoding), name
        if enc.status is not None:
            # Preprocessing decided: only ever a loss, with its reason (the score model
            # has no preprocessing).
            assert enc.status is Status.UNWINNABLE and enc.reason and not won, name
            assert name != "maximize"
            continue
        for q, v in enc.variables.items():
            assert 0 <= q < deck.N and isinstance(v, int) and v is not False, name
        found = solve(enc)
        if name == "maximize":
            assert found is not None      # playing nothing is always a solution
            rep = replay(deck, h, enc.decode(found))   # optimal: no time limit
            assert rep.legal and rep.won == won
            continue
        assert (found is not None) == won, name
        if found is not None:
            assert replay(deck, h, enc.decode(found)).won, name


def test_preprocessing_decides_alike_in_both_encoders():
    deck = read_deck_file("instances/standard-unwinnable-h2.txt").deck
    sat, cp = cnf.build(deck, 2), cpsat.build_decide(deck, 2)
    assert sat.status is cp.status is Status.UNWINNABLE and sat.reason == cp.reason
    assert list(sat.formula) == [[]] and cp.formula is None


def test_the_copy_variables_are_the_same_choices_in_both_encoders():
    """Both map a copy's position to "this copy is chosen": the CNF only for the
    copies its decoder asks about, each of which CP-SAT also leaves open."""
    deck = read_deck_file("instances/standard-winnable-h2.txt").deck
    sat, cp = cnf.build(deck, 2), cpsat.build_decide(deck, 2)
    assert sat.variables and set(sat.variables) <= {q for q, v in cp.variables.items()
                                                     if v is not True}
    names = sat.varmap()
    assert all(names[v].startswith("copy ") and names[v].endswith(f"#{q + 1}")
               for q, v in sat.variables.items())
    cp_names = cp.varmap()
    assert all(cp_names[v] == names[sat.variables[q]]
               for q, v in cp.variables.items() if q in sat.variables)


@pytest.mark.parametrize("compact", [False, True])
def test_the_cnf_formula_is_the_builders_own_clauses(compact, monkeypatch):
    """No copy on the way out: on large decks the clauses stay flat arrays."""
    monkeypatch.setattr(cnf, "COMPACT_FROM_CARDS", 0 if compact else 10 ** 12)
    deck = read_deck_file("instances/standard-winnable-h2.txt").deck
    builder = cnf.CnfBuilder(deck, 2, analyse(deck, 2))
    enc = builder.build()
    assert enc.formula is builder.clauses and enc.clauses is enc.formula
    assert isinstance(enc.formula, Clauses) is compact
    assert dict(enc.variables) == builder.copy_vars
    assert replay(deck, 2, enc.decode(sat_solve(enc.formula)[1])).won
