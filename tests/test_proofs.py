"""DRUP proofs for UNWINNABLE answers of the sat method, checked by drup."""

import random

import pytest

from hanabi_cp.solitaire.encoders.cnf import build
from hanabi_cp.core.model import Deck
from hanabi_cp.solvers.proofs import check_files, prove_unsat
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.status import Status
from hanabi_cp.solitaire.solve import solve

from test_cnf_random import small_deck


def unsat_decks(seed: int, count: int):
    """Decks the analysis alone cannot refute but the SAT solver does."""
    rng = random.Random(seed)
    while count:
        deck, h = small_deck(rng, p_missing=0), rng.randint(1, 3)
        enc = build(deck, h)
        if enc.status is None and enc.clauses and enc.solve_model() is None:
            count -= 1
            yield deck, h


# drup checks a proof in seconds; a few decks in the normal run, many when opted in.
@pytest.mark.parametrize("count", [4, pytest.param(40, marks=pytest.mark.slow)])
def test_unwinnable_answers_carry_checked_proofs(tmp_path, count):
    found = 0
    for i, (deck, h) in enumerate(unsat_decks(3, count)):
        proof = tmp_path / f"p{i}.drup"
        out = solve(deck, h, "sat", SolveOptions(proof=str(proof)))
        assert out.status is Status.UNWINNABLE
        assert out.stats["proof_checked"] is True
        assert check_files(out.stats["proof_cnf"], str(proof))
        assert "proof:" in out.reason
        found += 1
    assert found == count


def test_corrupted_proof_is_rejected(tmp_path):
    deck, h = next(unsat_decks(4, 1))
    enc = build(deck, h)
    res = prove_unsat(enc.clauses, enc.num_vars, str(tmp_path / "p.drup"))
    assert res.unsat and res.valid
    lines = open(res.proof_path).read().splitlines()
    # Keep only the final empty clause: the lemmas that justified it are gone.
    open(res.proof_path, "w").write("0\n")
    assert len(lines) > 1
    assert not check_files(res.cnf_path, res.proof_path)


def test_proof_run_on_winnable_deck_returns_certificate(tmp_path):
    deck = Deck.of([(2, 1), (1, 1), (1, 2), (2, 2)])
    out = solve(deck, 1, "sat", SolveOptions(proof=str(tmp_path / "p.drup")))
    assert out.status is Status.WINNABLE and out.verified
    assert not (tmp_path / "p.drup").exists()
