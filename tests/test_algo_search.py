"""Method "search" against the brute-force oracle, dp and sat."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from hanabi_cp.solitaire.methods.search import MAX_CARDS, search
from hanabi_cp.runtime.deadline import Deadline, TimeUp
from hanabi_cp.core.errors import HanabiError
from hanabi_cp.apps.generators import random_deck, standard_deck
from hanabi_cp.core.model import Deck
from hanabi_cp.core.status import Status
from hanabi_cp.solitaire.solve import choose, solve

from test_algorithms import check, instances, small_enough, tiny


@pytest.mark.parametrize("block", range(3))
def test_search_equals_brute(block):
    for seed in range(block * 500, (block + 1) * 500):
        deck, h = tiny(50_000 + seed, p_missing=0.1)
        if small_enough(deck, h):
            check("search", deck, h)


@settings(max_examples=200, deadline=None)
@given(instances())
def test_hypothesis_search(inst):
    if small_enough(*inst):
        check("search", *inst)


def test_search_equals_dp_on_larger_random_decks():
    for seed in range(150):
        deck = random_deck(seed, n=5, c=3, r=3)
        for h in (1, 2):
            assert solve(deck, h, "search").status is solve(deck, h, "dp").status, (seed, h)


@pytest.mark.parametrize("h", [2, 3, 4])
def test_search_equals_sat_on_standard_decks(h):
    for seed in range(25):
        deck = standard_deck(seed, colors=5 + seed % 2)
        assert solve(deck, h, "search").status is solve(deck, h, "sat").status, (seed, h)


def test_search_reasons():
    out = search(Deck.of([(2, 1), (3, 1), (1, 1)]), 1)
    assert out.status is Status.UNWINNABLE and out.reason.startswith("after card #2 every win must hold 2 cards")
    # seed 763: preprocessing leaves this 22-card deck undecided at h = 1
    deck = random_deck(763, n=5, c=3, r=2)
    out = solve(deck, 1, "search")
    assert out.status is Status.UNWINNABLE and out.stats.get("decided_by") is None
    assert out.reason == f"exhaustive search over {out.stats['nodes']:,} nodes found no win"
    check("search", deck, 1)
    check("search", deck, 2)


def test_search_time_limit():
    # Deterministic: the deadline has passed before the first check (in preprocessing).
    with pytest.raises(TimeUp):
        search(standard_deck(123), 4, deadline=Deadline.after(0))
    assert search(standard_deck(123), 4).status is Status.WINNABLE


def test_search_refuses_long_decks_and_auto_uses_it():
    big = random_deck(1, n=60, c=4, r=3)
    assert big.N > MAX_CARDS
    with pytest.raises(HanabiError, match="search is built for decks of at most"):
        solve(big, 2, "search")
    assert choose(standard_deck(1), 2).name == "search"
    assert choose(big, 2).name != "search"
