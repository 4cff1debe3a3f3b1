"""The CNF method against the brute-force oracle on seeded random small decks."""

import random

import pytest

from hanabi_cp.solitaire.methods.brute import brute
from hanabi_cp.solitaire.encoders.cnf import build
from hanabi_cp.solitaire.preprocessing import analyse
from hanabi_cp.apps.generators import random_deck
from hanabi_cp.core.model import Deck
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.status import Status
from hanabi_cp.solitaire.solve import solve
from hanabi_cp.solitaire.referee import replay


def small_deck(rng: random.Random, n_max=4, c_max=3, r_max=3, p_missing=0.08) -> Deck:
    return random_deck(rng, rng.randint(1, n_max), rng.randint(1, c_max), rng.randint(1, r_max),
                       p_missing=p_missing)


def agree(seed: int, count: int) -> int:
    rng = random.Random(seed)
    yes = 0
    for _ in range(count):
        deck, h = small_deck(rng), rng.randint(0, 3)
        truth = brute(deck, h, maximize=True).score == deck.target
        out = solve(deck, h, "sat")     # the registry replays every certificate
        assert out.status is (Status.WINNABLE if truth else Status.UNWINNABLE), (str(deck), h)
        if truth:
            assert out.verified and replay(deck, h, out.plays).won
            yes += 1
        else:
            assert out.reason
    return yes


def test_sat_equals_brute_on_random_small_decks():
    yes = agree(seed=20240601, count=2500)
    assert 200 < yes < 2300     # both answers are well represented


def test_propagating_variant_agrees():
    rng = random.Random(11)
    for _ in range(600):
        deck, h = small_deck(rng), rng.randint(0, 3)
        truth = brute(deck, h, maximize=True).score == deck.target
        enc = build(deck, h, propagate=True)
        model = None if enc.status else enc.solve_model()
        assert (model is not None) == truth
        if model is not None:
            assert replay(deck, h, enc.decode(model)).won


def test_missing_card_is_lost_at_once():
    deck = Deck.of([(1, 1), (2, 1), (1, 2)], n=2, c=2)
    out = solve(deck, 3, "sat")
    assert out.status is Status.UNWINNABLE
    assert "2:2 has no copy" in out.reason


def test_overfull_stretch_reason():
    # 3:1 and 2:1 (single copies) precede 1:1: both must be held with h = 1.
    out = solve(Deck.of([(3, 1), (2, 1), (1, 1)]), 1, "sat")
    assert out.status is Status.UNWINNABLE
    assert "must hold 2 cards (2:1, 3:1)" in out.reason


def test_analysis_never_kills_the_copy_a_win_uses():
    # Every copy a brute-force win plays must survive the analysis.
    rng = random.Random(5)
    for _ in range(400):
        deck, h = small_deck(rng, p_missing=0), rng.randint(0, 3)
        best = brute(deck, h, maximize=True)
        assert best.score is not None and best.plays is not None
        score, actions = best.score, best.plays.actions
        if score != deck.target:
            continue
        win = analyse(deck, h)
        assert win.reason is None
        used = {t for t, x in enumerate(actions) if x in "PS"}
        for t in used:
            a, k = deck.cards[t]
            # A win may play a useless duplicate; only cards it needs are checked.
            if t in win.alive[k][a] or len(used & set(i for i, cd in enumerate(deck.cards) if cd == (a, k))) > 1:
                continue
            assert False, (str(deck), h, t)


def test_time_limit_gives_unknown_or_answer():
    deck = Deck.of([(2, 1), (1, 2), (1, 1), (2, 2)])
    out = solve(deck, 1, "sat", SolveOptions(time_limit=0.0))
    assert out.status in (Status.UNKNOWN, Status.WINNABLE)


@pytest.mark.slow
def test_sat_equals_brute_long_sweep():
    agree(seed=7, count=20000)
