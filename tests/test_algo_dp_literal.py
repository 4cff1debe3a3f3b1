"""The journal's §4 recurrence taken literally, as an independent check of dp.

``literal_dp`` fills the whole table DP[s, H, p_1..p_{c-1}] (every H of at most h
cards, every p vector, -inf entries included) by the pull formulas exactly as
printed, set unions and all, with no pruning.  hanabi_cp.solitaire.methods.dp stores only
finite entries that can still reach H = {} (see its docstring); both must agree
with brute force.  The conference version's store case (-inf if |H| >= h, measured
after storing) is also implemented, to show on a two-card deck that it is wrong.
"""

from __future__ import annotations

import itertools

import pytest

from hanabi_cp.solitaire.methods.dp import dp
from hanabi_cp.core.model import Deck
from hanabi_cp.core.status import Status

from test_algorithms import oracle, tiny, won

NEG = float("-inf")


def literal_dp(deck: Deck, h: int, store_rule: str = "journal") -> bool:
    n, c = deck.n, deck.c
    cards = [(a, k) for k in range(1, c + 1) for a in range(1, n + 1)]
    hands = [frozenset(x) for i in range(h + 1) for x in itertools.combinations(cards, i)]
    vectors = list(itertools.product(range(n + 1), repeat=c - 1))
    col = {(H, p): NEG for H in hands for p in vectors}
    col[(frozenset(), (0,) * (c - 1))] = 0
    for a, k in deck.cards:
        new = {}
        for (H, p), D in col.items():
            if store_rule == "journal":
                S = col.get((H - {(a, k)}, p), NEG) if (a, k) in H else NEG
            else:    # conference: -inf if |H| >= h, else DP[s-1, H - {(a, k)}, p]
                S = NEG if len(H) >= h else col.get((H - {(a, k)}, p), NEG)
            P = NEG
            if k < c:
                if a <= p[k - 1]:
                    src = H | {(x, k) for x in range(a + 1, p[k - 1] + 1)}
                    P = col.get((src, p[:k - 1] + (a - 1,) + p[k:]), NEG)
            else:
                for t in range(min(h, n - a) + 1):
                    src = H | {(x, c) for x in range(a + 1, a + t + 1)}
                    if col.get((src, p), NEG) == a - 1:
                        P = a + t
            new[(H, p)] = max(D, S, P)
        col = new
    return col[(frozenset(), (n,) * (c - 1))] == n


@pytest.mark.parametrize("block", range(2))
def test_literal_journal_recurrence_equals_brute_and_dp(block):
    for seed in range(block * 250, (block + 1) * 250):
        deck, h = tiny(70_000 + seed, n=(1, 3), c=(1, 2), h=(0, 2))
        assert literal_dp(deck, h) == won(deck, h) == (dp(deck, h).status is Status.WINNABLE), (str(deck), h)


def test_literal_journal_recurrence_three_colors():
    for seed in range(60):
        deck, h = tiny(80_000 + seed, n=(2, 3), c=(3, 3), r=(1, 2), h=(1, 2))
        assert literal_dp(deck, h) == won(deck, h), (str(deck), h)


def test_conference_store_rule_is_wrong():
    # (2:1) must be stored until (1:1) arrives: a hand of h = 1 suffices, but the
    # conference rule forbids any store that fills the hand to h.
    deck = Deck.of([(2, 1), (1, 1)])
    assert oracle(deck, 1) == 2
    assert literal_dp(deck, 1, "journal")
    assert not literal_dp(deck, 1, "conference")
    assert dp(deck, 1).status is Status.WINNABLE
