"""The CNF rules that make reduction images small (chain rule, normal form, aliases)."""

import os
import random

import pytest

from hanabi_cp.solitaire.methods.brute import brute
from hanabi_cp.solitaire.encoders.cnf import build
from hanabi_cp.solitaire.preprocessing import analyse
from hanabi_cp.solvers.dimacs import read_dimacs
from hanabi_cp.apps.generators import random_kcnf
from hanabi_cp.core.model import Deck
from hanabi_cp.solitaire.reduction import reduce_cnf
from hanabi_cp.apps.roundtrip import formula_sat
from hanabi_cp.core.status import Status
from hanabi_cp.solitaire.solve import solve
from hanabi_cp.solitaire.referee import replay
from test_cnf_random import small_deck

UF20 = os.path.join(os.path.dirname(__file__), "..", "instances", "satlib", "uf20-91",
                    "uf20-01.cnf")


def test_chain_rule_kills_a_copy_that_would_hold_two_cards_of_its_color():
    # Storing 3:1 at #2 needs 2:1 (its only copy is #1) in the hand too.
    deck = Deck.of([(2, 1), (3, 1), (1, 1), (3, 1)])
    assert analyse(deck, 1).alive[1][3] == [3]
    assert analyse(deck, 2).alive[1][3] == [1, 3]
    assert solve(deck, 1, "sat").status is Status.WINNABLE


def test_without_a_hand_no_copy_is_storable_and_nothing_needs_a_copy_variable():
    # With h = 0 the chain rule makes every copy "played on sight": played_by aliases
    # carry the whole formula.
    rng = random.Random(8)
    for _ in range(200):
        deck = small_deck(rng, p_missing=0)
        enc = build(deck, 0)
        if enc.status:
            continue
        assert enc.variables == {} and enc.stats["hold_segments"] == 0
        model = enc.solve_model()
        assert (model is not None) == (brute(deck, 0, maximize=True).score == deck.target)
        if model is not None:
            assert replay(deck, 0, enc.decode(model)).won


@pytest.mark.parametrize("kw", [{"asap": True}, {"propagate": True, "asap": True}, {}])
def test_variants_agree_with_brute(kw):
    rng = random.Random(31)
    for _ in range(300):
        deck, h = small_deck(rng, p_missing=0), rng.randint(0, 3)
        truth = brute(deck, h, maximize=True).score == deck.target
        enc = build(deck, h, **kw)
        model = None if enc.status else enc.solve_model()
        assert (model is not None) == truth, (str(deck), h, kw)
        if model is not None:
            assert replay(deck, h, enc.decode(model)).won


def test_images_of_random_formulas_agree_with_the_formula():
    rng = random.Random(2024)
    answers = set()
    for _ in range(24):
        v = rng.randint(3, 6)
        cnf = random_kcnf(rng, v, rng.randint(1, 6 * v))
        sat, _ = formula_sat(cnf)
        out = solve(reduce_cnf(cnf).deck, 2, "sat")
        assert out.status is (Status.WINNABLE if sat else Status.UNWINNABLE), cnf
        answers.add(sat)
    assert answers == {True, False}


def test_uf20_image_is_small_and_needs_only_the_clause_capacity_sets():
    deck = reduce_cnf(read_dimacs(UF20)).deck
    enc = build(deck, 2)
    assert enc.stats["clauses_per_card"] < 1
    assert max(enc.stats["cardinality_sets"]) <= 3      # the clause gadgets' last parts
    assert replay(deck, 2, enc.decode(enc.solve_model())).won


def test_cards_that_never_meet_an_overfull_point_get_no_hold_segments():
    # n..1 then 1..n with h = n: every window fits, so no capacity set is needed
    # (this took seconds and millions of clauses when every window was segmented).
    n = 300
    deck = Deck.of([(a, 1) for a in range(n, 0, -1)] + [(a, 1) for a in range(1, n + 1)])
    enc = build(deck, n)
    assert enc.stats["hold_segments"] == 0 and enc.stats["cardinality_clauses"] == 0
    assert replay(deck, n, enc.decode(enc.solve_model())).won
    assert solve(deck, 0, "sat").status is Status.WINNABLE   # the second run alone wins
