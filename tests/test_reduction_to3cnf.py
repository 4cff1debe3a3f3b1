"""Any CNF -> exact 3-CNF: shape, equisatisfiability, both maps between assignments."""

import itertools
import random

from hanabi_cp.solvers.formula import CNF
from hanabi_cp.apps.roundtrip import formula_sat
from hanabi_cp.solitaire.reduction.to3cnf import bound_occurrences, is_exact3, occurrences, to_exact3


def models(cnf: CNF):
    for bits in itertools.product((False, True), repeat=cnf.num_vars):
        a = {i + 1: b for i, b in enumerate(bits)}
        if cnf.satisfied_by(a):
            yield a


def messy_cnf(rng: random.Random) -> CNF:
    """Clauses of length 0..6 with repeated and complementary literals, unused variables."""
    v = rng.randint(1, 5)
    clauses = []
    for _ in range(rng.randint(0, 6)):
        length = rng.choice([0] * 1 + [1] * 3 + [2] * 4 + [3] * 4 + [4, 5, 6] * 2) \
            if rng.random() < 0.97 else 0
        clauses.append(tuple(rng.choice((1, -1)) * rng.randint(1, v) for _ in range(length)))
    return CNF(v + rng.randint(0, 2), tuple(clauses))


def check(cnf: CNF, e) -> None:
    assert is_exact3(e.cnf)
    sat, model = formula_sat(e.cnf)
    orig_models = list(models(cnf))
    assert sat == bool(orig_models), cnf
    if sat:
        assert cnf.satisfied_by(e.to_original(model))
    for a in orig_models:
        assert e.cnf.satisfied_by(e.lift(a)), (cnf, a)


def test_random_messy_formulas():
    rng = random.Random(20240501)
    for _ in range(300):
        cnf = messy_cnf(rng)
        check(cnf, to_exact3(cnf))


def test_bounded_occurrences_keep_equisatisfiability():
    rng = random.Random(7)
    for _ in range(60):
        cnf = messy_cnf(rng)
        cnf = CNF(cnf.num_vars, cnf.clauses * rng.randint(1, 4))   # many occurrences
        e = bound_occurrences(to_exact3(cnf))
        assert max(occurrences(e.cnf).values(), default=0) <= 5
        check(cnf, e)


def test_identity_on_exact_3cnf_and_special_cases():
    f = CNF.of([(1, -2, 3), (1, 2, -3)])
    e = to_exact3(f)
    assert e.identity and e.cnf is f
    empty = to_exact3(CNF(4, ()))                      # no clauses: satisfiable, no variables
    assert empty.cnf.num_clauses == 0 and empty.to_original({}) == {1: False, 2: False,
                                                                     3: False, 4: False}
    bottom = to_exact3(CNF(2, ((1, 2), ())))           # the empty clause: unsatisfiable
    assert bottom.cnf.num_clauses == 8 and not formula_sat(bottom.cnf)[0]
    taut = to_exact3(CNF.of([(1, -1, 2), (2, 2, 2, -3)]))
    assert taut.cnf.clauses == ((1, -2, 3), (1, -2, -3)) and taut.back == (2, 3, None)
    long = to_exact3(CNF.of([(1, 2, 3, 4, 5)]))
    assert long.cnf.clauses == ((1, 2, 6), (-6, 3, 7), (-7, 4, 5))
