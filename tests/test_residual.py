"""Variable elimination (solitaire/encoders/residual.py) and the models built on it."""

import random

from pysat.solvers import Solver

from hanabi_cp.solitaire.encoders.cnf import build
from hanabi_cp.solitaire.encoders.cpsat_residual import build_residual
from hanabi_cp.solitaire.methods.cpsat import solve_model
from hanabi_cp.solitaire.encoders.residual import RESIDUAL_FROM_CARDS, eliminate, simplify
from hanabi_cp.solvers.dimacs import read_dimacs
from hanabi_cp.apps.generators import random_kcnf
from hanabi_cp.solitaire.reduction import reduce_cnf
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.status import Status
from hanabi_cp.solitaire.solve import solve
from hanabi_cp.solitaire.referee import replay

UF20 = "instances/satlib/uf20-91/uf20-01.cnf"


def _satisfiable(clauses):
    with Solver(name="cadical195", bootstrap_with=clauses) as s:
        return s.solve(), (s.get_model() if s.get_status() else None)


def _random_cnf(rng, nv, m):
    out = []
    for _ in range(m):
        vs = rng.sample(range(1, nv + 1), min(rng.randint(1, 3), nv))
        out.append([v if rng.random() < 0.5 else -v for v in vs])
    return out


def test_elimination_keeps_satisfiability_and_extends_every_model():
    rng = random.Random(11)
    for trial in range(1500):
        nv = rng.randint(1, 8)
        cls = _random_cnf(rng, nv, rng.randint(0, 16))
        sat, _ = _satisfiable(cls)
        if trial % 3:
            res = eliminate(cls, nv, max_occurrences=rng.choice((2, 4, 16)))
        else:
            res = simplify(cls, nv)
        if res.unsat:
            assert not sat and res.clauses == [[]]
            continue
        used = {abs(l) for c in res.clauses for l in c}
        with Solver(name="cadical195", bootstrap_with=res.clauses) as s:
            models = list(s.enum_models()) if len(used) <= 6 else []
            assert bool(models) == sat or len(used) > 6
        for model in models[:8]:
            # Only the residual's variables: the others come from the extension.
            lits = set(res.literals([l for l in model if abs(l) in used]))
            assert all(any(l in lits for l in c) for c in cls), (cls, res.clauses)


def test_tautologies_and_repeated_literals_are_harmless():
    cls = [[1, -1, 2], [2, 2, -3], [3, -2], [-3, -1]]
    for res in (eliminate(cls, 3), simplify(cls, 3)):
        assert not res.unsat
        used = {abs(l) for c in res.clauses for l in c}
        _, model = _satisfiable(res.clauses)
        lits = set(res.literals([l for l in model or () if abs(l) in used]))
        assert all(any(l in lits for l in c) for c in cls)
    assert eliminate([[1], [-1]], 1).unsat and simplify([[1], [-1]], 1).unsat
    assert eliminate([[1], []], 1).unsat and simplify([[1], []], 1).unsat


def test_uf20_image_leaves_the_formula():
    formula = read_dimacs(UF20)
    red = reduce_cnf(formula)
    enc = build(red.deck, 2)
    assert enc.num_vars > 10_000
    res = eliminate(enc.clauses, enc.num_vars)
    assert (res.variables, len(res.clauses)) == (formula.num_vars, formula.num_clauses)
    assert sorted(map(len, res.clauses)) == [3] * formula.num_clauses
    fast = simplify(enc.clauses, enc.num_vars)
    assert fast.variables <= formula.num_vars and len(fast.clauses) <= formula.num_clauses


def test_residual_routes_agree_with_the_formula_on_images():
    rng = random.Random(5)
    for seed in range(4):
        formula = random_kcnf(seed, 9, rng.randint(36, 44))
        want, _ = _satisfiable([list(c) for c in formula.clauses])
        red = reduce_cnf(formula)
        assert red.deck.N >= RESIDUAL_FROM_CARDS      # cpsat takes the residual route
        for method in ("sat", "cpsat"):
            out = solve(red.deck, 2, method)
            assert out.status is (Status.WINNABLE if want else Status.UNWINNABLE)
            assert out.stats["residual_variables"] <= red.formula.cnf.num_vars
        if want:
            model = build_residual(red.deck, 2)
            out = solve_model(model, SolveOptions())
            assert replay(red.deck, 2, out.plays).won


def test_cpsat_maximize_on_a_large_winnable_deck_reports_the_full_score():
    red = reduce_cnf(read_dimacs(UF20))
    out = solve(red.deck, 2, "cpsat", SolveOptions(maximize=True))
    assert out.status is Status.WINNABLE and out.score == red.deck.target and out.verified
