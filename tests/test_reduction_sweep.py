"""Deck winnable iff formula satisfiable, with both witness directions, on every small
formula (up to symmetry), on random ones, for every variant, and on SATLIB files."""

import glob
import itertools
import os

import pytest

from hanabi_cp.solvers.formula import CNF
from hanabi_cp.apps.generators import random_kcnf
from hanabi_cp.solitaire.reduction import assignment_from_play, play_from_assignment, reduce_cnf
from hanabi_cp.apps.roundtrip import formula_sat
from hanabi_cp.core.status import Status
from hanabi_cp.solitaire.solve import solve
from hanabi_cp.solitaire.referee import replay
from test_reduction_to3cnf import models

SATLIB = os.path.join(os.path.dirname(__file__), "..", "instances", "satlib")


def check(cnf: CNF, **variant) -> bool:
    """The reduction's claim on one formula; returns satisfiability."""
    model = next(models(cnf), None)
    red = reduce_cnf(cnf, **variant)
    out = solve(red.deck, red.h, "sat")
    assert out.status is (Status.UNWINNABLE if model is None else Status.WINNABLE), (cnf, variant)
    if model is not None:
        plays = play_from_assignment(red, model)          # the proof's play, refereed
        assert replay(red.deck, red.h, plays).won
        back = assignment_from_play(red, out.plays)       # the solver's play, read back
        assert cnf.satisfied_by(back)
        assert cnf.satisfied_by(assignment_from_play(red, plays))
    return model is not None


def symmetries(v):
    """Literal maps of every variable permutation combined with sign flips."""
    return [{s * x: s * signs[x - 1] * perm[x - 1] for x in range(1, v + 1) for s in (1, -1)}
            for perm in itertools.permutations(range(1, v + 1))
            for signs in itertools.product((1, -1), repeat=v)]


def canonical(clauses, syms):
    """The least image of a formula under the symmetries."""
    return min(tuple(sorted(tuple(sorted(g[l] for l in c)) for c in clauses)) for g in syms)


def small_formulas():
    """Every formula up to symmetry: (a) any non-tautological clauses over 2 variables,
    at most 3 of them; (b) exact 3-CNF over at most 4 variables, at most 3 clauses."""
    short = [c for r in (1, 2) for c in itertools.combinations((1, -1, 2, -2), r)
             if not any(-l in c for l in c)]
    exact = [tuple(s * x for s, x in zip(signs, vs))
             for vs in itertools.combinations(range(1, 5), 3)
             for signs in itertools.product((1, -1), repeat=3)]
    # Any one exact clause is the image of (1, 2, 3): only formulas containing it are
    # enumerated in (b).
    candidates = [(f, 2) for m in range(4) for f in itertools.combinations(short, m)]
    candidates += [((exact[0],) + f, 4) for m in range(3) for f in itertools.combinations(exact[1:], m)]
    seen, syms = set(), {2: symmetries(2), 4: symmetries(4)}
    for f, v in candidates:
        key = canonical(f, syms[v])
        if key not in seen:
            seen.add(key)
            yield CNF(v, key)


def test_every_small_formula():
    results = [check(f) for f in small_formulas()]
    assert len(results) == 50 and 0 < results.count(False) < len(results)


def test_empty_formula_and_empty_clause():
    assert check(CNF(0, ()))
    assert check(CNF(3, ()))
    assert not check(CNF(2, ((1, 2), ())))


def random_formulas(count, seed0=0, max_vars=4, max_clauses=3):
    for seed in range(seed0, seed0 + count):
        k = 1 + seed % 3
        v = k + seed % (max_vars - k + 1)
        yield random_kcnf(seed, v, 1 + (seed // 3) % max_clauses, k=k)


def test_random_formulas():
    results = [check(f) for f in random_formulas(30)]
    assert False in results and True in results


UNSAT_SMALL = CNF.of([(1,), (-1, 2), (-2,)])
VARIANTS = [dict(h=3), dict(h=4), dict(copies=3), dict(h=1), dict(h=1, copies=4),
            dict(kappa=True), dict(kappa=True, h=1)]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()))
def test_variants(variant):
    formulas = [UNSAT_SMALL, CNF.of([(1, -2, 3), (1, 2, -3)]), CNF.of([(1, 2), (-1, 2), (-2, 3)])]
    formulas += list(random_formulas(3, seed0=100))
    results = [check(f, **variant) for f in formulas]
    assert results[0] is False and results[1] is True


def test_kappa_variant_keeps_n_constant():
    ns = {reduce_cnf(random_kcnf(s, 5, m), kappa=True).deck.n for s, m in ((1, 4), (2, 12), (3, 30))}
    assert ns <= {30, 25, 20, 15, 10} and max(ns) == 30


def test_satlib_uf20_witness_and_readback():
    """The proof's play for CaDiCaL's model of uf20-01 wins its 37,461-card deck, and
    reads back to a satisfying assignment (deck solving is in the slow test)."""
    path = os.path.join(SATLIB, "uf20-91", "uf20-01.cnf")
    from hanabi_cp.solvers.dimacs import read_dimacs
    cnf = read_dimacs(path)
    red = reduce_cnf(cnf)
    assert (red.deck.N, red.deck.n, red.deck.c) == (37461, 548, 41)
    sat, model = formula_sat(cnf)
    plays = play_from_assignment(red, model)
    assert cnf.satisfied_by(assignment_from_play(red, plays))


# ---- opt-in sweeps ------------------------------------------------------------

@pytest.mark.slow
def test_random_formulas_slow():
    results = [check(f) for f in random_formulas(400, seed0=1000, max_vars=5, max_clauses=6)]
    assert results.count(False) > 0


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()))
def test_variants_slow(variant):
    results = [check(f, **variant) for f in random_formulas(60, seed0=5000, max_vars=4, max_clauses=5)]
    assert results.count(False) == 9          # unsatisfiable ones, by brute force


# Since the image encoder landed (encodings/cnf-images.md) an image is decided in
# 0.3 s (uf20) to 2 s (uf50): a sample of each family in the default run, all 200
# formulas opt-in (about 7 minutes).
@pytest.mark.parametrize("family,count", [
    ("uf20-91", 5), ("uf50-218", 1), ("uuf50-218", 1),
    pytest.param("uf20-91", None, marks=pytest.mark.slow),
    pytest.param("uf50-218", None, marks=pytest.mark.slow),
    pytest.param("uuf50-218", None, marks=pytest.mark.slow)])
def test_satlib_roundtrip(family, count):
    from hanabi_cp.apps.roundtrip import roundtrip
    from hanabi_cp.solvers.dimacs import read_dimacs
    files = sorted(glob.glob(os.path.join(SATLIB, family, "*.cnf")))[:count]
    assert files, f"no bundled {family} files"
    for f in files:
        row = roundtrip(read_dimacs(f), os.path.basename(f))
        assert row.agreement == "yes" and not row.disagrees, row
        if family.startswith("uf"):
            assert (row.readback_checked, row.witness_checked) == ("yes", "yes"), row
        assert row.formula_verdict == ("UNSAT" if family.startswith("uuf") else "SAT")
