"""Method "cpsat" against "sat" and the brute-force oracle; statuses and parameters."""

import random

import pytest
from ortools.sat.python import cp_model

from hanabi_cp.solitaire.methods.brute import brute
from hanabi_cp.solitaire.encoders.cpsat import build_decide, build_maximize, capacity_groups, greedy_picks
from hanabi_cp.solitaire.encoders.encoding import decode_picks
from hanabi_cp.solitaire.methods import cpsat as method
from hanabi_cp.solitaire.methods.cpsat import solve_model
from hanabi_cp.solvers.cpsat import configure
from hanabi_cp.core.errors import SolverBug
from hanabi_cp.apps.generators import random_deck, standard_deck
from hanabi_cp.core.model import Deck
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.status import Status
from hanabi_cp.solitaire.solve import solve
from hanabi_cp.solitaire.referee import replay

ONE = SolveOptions(workers=1)
MAX = SolveOptions(workers=1, maximize=True)


def tiny_instances(seed: int, count: int, n=4, c=3, r=3, h=3, p_missing=0.03):
    rng = random.Random(seed)
    for _ in range(count):
        deck = random_deck(rng, rng.randint(1, n), rng.randint(1, c), rng.randint(1, r),
                           p_missing=p_missing)
        yield deck, rng.randint(0, h)


def check_decide(seed: int, count: int, **kw) -> int:
    yes = 0
    for deck, h in tiny_instances(seed, count, **kw):
        truth = brute(deck, h, maximize=True).score == deck.target
        want = Status.WINNABLE if truth else Status.UNWINNABLE
        for method in ("cpsat", "sat"):
            out = solve(deck, h, method, ONE)    # the registry replays every certificate
            assert out.status is want, (method, str(deck), h)
            if truth:
                assert out.verified and replay(deck, h, out.plays).won
            else:
                assert out.reason
        yes += truth
    return yes


def check_maximize(seed: int, count: int, **kw) -> set:
    scores = set()
    for deck, h in tiny_instances(seed, count, **kw):
        best = brute(deck, h, maximize=True).score
        out = solve(deck, h, "cpsat", MAX)
        assert out.score == best, (str(deck), h)
        rep = replay(deck, h, out.plays)
        assert out.verified and rep.legal and rep.score == best
        assert (out.status is Status.WINNABLE) == (best == deck.target)
        scores.add((best, deck.target))
    return scores


def test_cpsat_equals_sat_and_brute_on_random_small_decks():
    yes = check_decide(seed=7001, count=1500)
    assert 300 < yes < 1300      # both answers are well represented


def test_maximize_equals_brute_best_score():
    scores = check_maximize(seed=7002, count=2000)
    # Partial scores, lost decks and wins all occur.
    assert any(0 < s < t for s, t in scores) and any(s == t for s, t in scores)


@pytest.mark.slow
def test_cpsat_sweep_larger():
    check_decide(seed=7003, count=20000)
    check_maximize(seed=7004, count=20000)


def test_preprocessing_reason_surfaces():
    out = solve(Deck.of([(3, 1), (2, 1), (1, 1)]), 1, "cpsat")
    assert out.status is Status.UNWINNABLE
    assert "must hold 2 cards (2:1, 3:1)" in out.reason
    out = solve(Deck.of([(1, 1), (2, 1), (1, 2)], n=2, c=2), 3, "cpsat")
    assert "2:2 has no copy" in out.reason


def test_solver_infeasible_is_unwinnable_with_reason():
    # Preprocessing decides every tiny lost deck we tried; this one (found by a
    # seeded search) reaches the solver, which refutes it.  sat agrees.
    deck = random_deck(32, 5, 4, 2, exact_copies=True)
    m = build_decide(deck, 3)
    assert m.formula is not None
    out = solve_model(m, ONE)
    assert out.status is Status.UNWINNABLE and "CP-SAT: infeasible" in out.reason
    assert solve(deck, 3, "sat").status is Status.UNWINNABLE


def test_maximize_keeps_copies_a_win_would_not_use():
    # No win exists (2:2 is missing) and analyse() would stop at once; the score
    # still counts 1:1, 2:1, 3:1 and 1:2.
    deck = Deck.of([(2, 1), (1, 2), (1, 1), (3, 1)], n=3, c=2)
    out = solve(deck, 1, "cpsat", MAX)
    assert out.status is Status.UNWINNABLE and out.score == 4 == brute(deck, 1, maximize=True).score


def test_empty_deck_and_zero_hand():
    assert solve(Deck.of([]), 0, "cpsat").status is Status.WINNABLE
    deck = Deck.of([(1, 1), (2, 1), (1, 2), (2, 2)])
    out = solve(deck, 0, "cpsat")
    assert out.status is Status.WINNABLE and out.plays.actions == "PPPP"
    out = solve(Deck.of([(2, 1), (1, 1)]), 0, "cpsat", MAX)
    assert out.score == 1 and out.plays.actions == "DP"


def test_standard_decks_agree_with_sat():
    for seed in range(40):
        deck = standard_deck(seed)
        for h in (2, 3, 4):
            a, b = solve(deck, h, "cpsat", ONE), solve(deck, h, "sat")
            assert a.status is b.status, (seed, h)


def test_status_mapping_is_exhaustive():
    deck = Deck.of([(2, 1), (1, 1), (1, 2), (2, 2), (1, 2)])
    for build in (build_decide, build_maximize):
        m = build(deck, 1)
        assert m.formula is not None
        opts = SolveOptions(time_limit=0.5)
        out = method._unknown(m, cp_model.UNKNOWN, opts, {})
        assert out.status is Status.UNKNOWN and "0.5 s" in out.reason
        out = method._unknown(m, cp_model.MODEL_INVALID, opts, {})
        assert out.status is Status.UNKNOWN and "rejected the model" in out.reason
        with pytest.raises(SolverBug):
            method._unknown(m, 12345, opts, {})
    with pytest.raises(SolverBug):
        method._maximize_outcome(build_maximize(deck, 1), None, cp_model.INFEASIBLE, MAX, {})


def test_time_out_is_unknown_never_wrong():
    rng = random.Random(4)
    seen = set()
    for _ in range(30):
        deck = random_deck(rng, 7, 5, 2, exact_copies=True)
        truth = solve(deck, 4, "sat").status
        out = solve(deck, 4, "cpsat", SolveOptions(time_limit=1e-6))
        assert out.status in (truth, Status.UNKNOWN)
        seen.add(out.status)
        best = solve(deck, 4, "cpsat", SolveOptions(time_limit=1e-6, maximize=True))
        if best.status is Status.UNKNOWN:
            assert best.verified and 0 <= best.score <= deck.target   # a greedy lower bound
    assert Status.UNKNOWN in seen


def test_parameters_come_from_solve_options():
    solver = cp_model.CpSolver()
    configure(solver, SolveOptions(time_limit=2.5, workers=3, seed=17))
    p = solver.parameters
    assert (p.max_time_in_seconds, p.num_workers, p.random_seed) == (2.5, 3, 17)
    configure(solver := cp_model.CpSolver(), SolveOptions(workers=0))
    assert solver.parameters.num_workers == 1


def test_same_seed_same_certificate():
    deck = standard_deck(3)
    a = solve(deck, 4, "cpsat", SolveOptions(seed=5))
    b = solve(deck, 4, "cpsat", SolveOptions(seed=5))
    assert a.status is b.status and a.plays == b.plays


def test_model_sizes_are_reported_per_card():
    deck = standard_deck(7)     # preprocessing leaves it to the solver at h = 4
    out = solve(deck, 4, "cpsat")
    assert out.stats["cards"] == 50 and out.stats["variables_per_card"] < 5
    out = solve(deck, 2, "cpsat", MAX)
    assert out.stats["constraints"] > 0 and out.stats["hold_intervals"] == 20


def test_greedy_hint_is_a_legal_game():
    for deck, h in tiny_instances(9, 300):
        plays = decode_picks(deck, greedy_picks(deck, h))
        assert replay(deck, h, plays).legal


def test_registered_as_maximizing():
    from hanabi_cp.solitaire.solve import get
    assert get("cpsat").maximizes


def test_capacity_groups_keep_only_sets_that_can_overflow():
    spans = [(0, 5), (1, 6), (2, 3), (10, 12), (11, 13)]
    stores = [0, 1, 2, 10, 11]
    assert capacity_groups(spans, stores, 1) == [[0, 1, 2], [3, 4]]
    assert capacity_groups(spans, stores, 2) == [[0, 1, 2]]
    assert capacity_groups(spans, stores, 3) == []
    # Overlap only between store points does not count: 2 starts after the last store.
    assert capacity_groups([(0, 9), (1, 9), (5, 9)], [0, 1], 2) == []


def test_medium_decks_that_reach_the_solver_agree_with_sat():
    rng = random.Random(5)
    reached = 0
    for _ in range(300):
        deck = random_deck(rng, rng.randint(4, 7), rng.randint(2, 5), rng.randint(2, 3))
        h = rng.randint(1, 4)
        out = solve(deck, h, "cpsat", ONE)
        assert out.status is solve(deck, h, "sat").status, (str(deck), h)
        reached += "cpsat_status" in out.stats
    assert reached > 50
