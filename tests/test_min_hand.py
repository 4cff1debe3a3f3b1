"""min-hand: the least winning hand size equals brute force's, with certificates."""

import random

from hanabi_cp.solitaire.methods.brute import brute
from hanabi_cp.solitaire.min_hand import first_copy_bound, min_hand
from hanabi_cp.core.model import Deck
from hanabi_cp.solitaire.referee import replay

from test_cnf_random import small_deck


def brute_min(deck: Deck):
    if deck.missing():
        return None
    for h in range(deck.N + 1):
        if brute(deck, h, maximize=True).score == deck.target:
            return h


def test_sat_min_hand_equals_brute():
    rng = random.Random(99)
    for _ in range(1200):
        deck = small_deck(rng, p_missing=0.05)
        res = min_hand(deck, "sat")
        assert res.h == brute_min(deck), str(deck)
        if res.h is not None:
            assert replay(deck, res.h, res.plays).won
            if res.h > 0:
                assert res.below
                assert brute(deck, res.h - 1, maximize=True).score < deck.target


def test_generic_search_equals_sat():
    rng = random.Random(12)
    for _ in range(150):
        deck = small_deck(rng, n_max=3, c_max=2, r_max=2)
        assert min_hand(deck, "brute").h == min_hand(deck, "sat").h, str(deck)


def test_first_copy_bound_is_a_win():
    rng = random.Random(1)
    for _ in range(300):
        deck = small_deck(rng, p_missing=0)
        h, plays = first_copy_bound(deck)
        assert replay(deck, h, plays).won


def test_max_hand_caps_the_search():
    deck = Deck.of([(3, 1), (2, 1), (1, 1)])
    assert min_hand(deck, "sat").h == 2
    assert min_hand(deck, "sat", max_hand=1).h is None


def test_every_least_hand_search_has_its_certificate_replayed(monkeypatch):
    """``min_hand`` replays what any registered search returns (the CLI relies on it
    and prints "verified" without replaying again): a certificate that does not win
    with the hand size it claims is a SolverBug, not an answer."""
    import pytest

    from hanabi_cp.core.errors import SolverBug
    from hanabi_cp.solitaire import min_hand as module
    from hanabi_cp.solitaire.play_sequence import PlaySequence

    deck = Deck.of([(2, 1), (3, 1), (1, 1)])       # least hand 2 (SSP)

    def wrong(deck, options, max_hand):
        return module.MinHand(1, PlaySequence("SSP"), None, "wrong")

    monkeypatch.setitem(module.MIN_HAND.entries, "wrong", "unused:unused")
    monkeypatch.setitem(module.MIN_HAND.loaded, "wrong", wrong)
    with pytest.raises(SolverBug, match="h = 1 rejected"):
        min_hand(deck, "wrong")
