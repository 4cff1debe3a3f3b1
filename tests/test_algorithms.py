"""greedy (r = 1), lazy (c = 1) and dp (general) against the brute-force oracle.

Every comparison goes through ``solitaire.solve.solve``, so every WINNABLE answer has also
passed the referee.  Instances are seeded tiny decks (n <= 4, c <= 3, r <= 3,
h <= 3) plus hypothesis-drawn card lists that need not have uniform copies.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings, strategies as st

from hanabi_cp.solitaire.methods.brute import brute, state_bound
from hanabi_cp.solitaire.methods.dp import ENTRY_LIMIT, dp, paper_bound, table_bound
from hanabi_cp.solitaire.methods.greedy import greedy
from hanabi_cp.solitaire.methods.lazy import lazy
from hanabi_cp.core.errors import HanabiError
from hanabi_cp.apps.generators import random_deck, standard_deck
from hanabi_cp.core.model import Deck
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.status import Status
from hanabi_cp.solitaire.solve import choose, get, solve

BRUTE_STATES = 150_000     # oracle budget per instance in the default run


@cache
def oracle(deck: Deck, h: int) -> int:
    return brute(deck, h, maximize=True).score


def won(deck: Deck, h: int) -> bool:
    return oracle(deck, h) == deck.target


def tiny(seed: int, n=(1, 4), c=(1, 3), r=(1, 3), h=(0, 3), p_missing=0.0):
    rng = random.Random(seed)
    deck = random_deck(rng, rng.randint(*n), rng.randint(*c), rng.randint(*r),
                       p_missing=p_missing if rng.random() < 0.2 else 0.0)
    return deck, rng.randint(*h)


def small_enough(deck: Deck, h: int) -> bool:
    return state_bound(deck, h) <= BRUTE_STATES


def check(method: str, deck: Deck, h: int) -> None:
    out = solve(deck, h, method)
    expect = Status.WINNABLE if won(deck, h) else Status.UNWINNABLE
    assert out.status is expect, (method, str(deck), h, out.reason)
    if expect is Status.WINNABLE:
        assert out.verified and out.plays is not None
    else:
        assert out.reason


# --- seeded sweeps ---------------------------------------------------------------

@pytest.mark.parametrize("block", range(4))
def test_greedy_equals_brute_on_r1(block):
    for seed in range(block * 400, (block + 1) * 400):
        deck, h = tiny(seed, r=(1, 1), p_missing=0.1)
        if small_enough(deck, h):
            check("greedy", deck, h)
        else:   # too big for the oracle: dp (itself checked against brute below)
            assert (greedy(deck, h).status is Status.WINNABLE) == (dp(deck, h).status is Status.WINNABLE)


@pytest.mark.parametrize("block", range(4))
def test_lazy_equals_brute_on_c1(block):
    for seed in range(block * 500, (block + 1) * 500):
        deck, h = tiny(seed, n=(1, 8), c=(1, 1), r=(1, 4), p_missing=0.1)
        check("lazy", deck, h)


@pytest.mark.parametrize("block", range(4))
def test_dp_equals_brute(block):
    for seed in range(block * 300, (block + 1) * 300):
        deck, h = tiny(seed, p_missing=0.1)
        if small_enough(deck, h):
            check("dp", deck, h)


def test_dp_maximize_matches_brute_score():
    for seed in range(250):
        deck, h = tiny(10_000 + seed)
        if not small_enough(deck, h):
            continue
        out = solve(deck, h, "dp", SolveOptions(maximize=True))
        assert out.score == oracle(deck, h), (str(deck), h)
        assert out.verified


def test_dp_entries_within_bound():
    for seed in range(300):
        deck, h = tiny(20_000 + seed)
        entries = dp(deck, h, maximize=True).stats["entries"]
        assert entries <= table_bound(deck, h) <= paper_bound(deck, h) + 1


# --- hypothesis: arbitrary card lists (uneven copies, missing cards) ---------------

@st.composite
def instances(draw, max_n=4, max_c=3, max_len=11):
    n = draw(st.integers(1, max_n))
    c = draw(st.integers(1, max_c))
    cards = draw(st.lists(st.tuples(st.integers(1, n), st.integers(1, c)), max_size=max_len))
    # Most draws should contain every card, else nearly all would be lost at once.
    if draw(st.booleans()):
        cards = cards + [(a, k) for a in range(1, n + 1) for k in range(1, c + 1)]
        cards = draw(st.permutations(cards))
    return Deck(tuple(cards), n, c), draw(st.integers(0, 3))


@settings(max_examples=200, deadline=None)
@given(instances())
def test_hypothesis_all_methods_agree(inst):
    deck, h = inst
    if not small_enough(deck, h):
        return
    check("dp", deck, h)
    if deck.r <= 1:
        check("greedy", deck, h)
    if deck.c == 1:
        check("lazy", deck, h)


@settings(max_examples=150, deadline=None)
@given(instances(max_n=7, max_c=1, max_len=14))
def test_hypothesis_lazy_one_color(inst):
    check("lazy", *inst)


@pytest.mark.slow
@pytest.mark.parametrize("family", ["r1", "c1", "general"])
def test_slow_sweep(family):
    shapes = {"r1": dict(n=(1, 5), r=(1, 1)), "c1": dict(n=(1, 10), c=(1, 1), r=(1, 5)),
              "general": dict(n=(1, 4), c=(1, 3), r=(1, 3))}[family]
    method = {"r1": "greedy", "c1": "lazy", "general": "dp"}[family]
    for seed in range(100_000, 120_000):
        deck, h = tiny(seed, p_missing=0.05, **shapes)
        if state_bound(deck, h) <= 20 * BRUTE_STATES:
            check(method, deck, h)


# --- the lazy filter: removal creates new useless copies ---------------------------

def naive_filter(deck: Deck, h: int) -> set[int]:
    """Positions surviving repeated removal of useless copies, by definition."""
    alive = set(range(deck.N))
    changed = True
    while changed:
        changed = False
        for i in sorted(alive):
            a = deck.cards[i][0]
            later = {deck.cards[j][0] for j in alive if j > i}
            if sum(1 for w in range(a + 1, deck.n + 1) if w not in later) >= h + 1:
                alive.discard(i)
                changed = True
    return alive


def test_lazy_filter_is_the_fixpoint():
    """The one-pass filter keeps, per value, the last copy the definition keeps, and
    some decks here need more than one round of the definition."""
    rounds_needed = 0
    for seed in range(400):
        deck, h = tiny(30_000 + seed, n=(2, 8), c=(1, 1), r=(1, 4), h=(0, 2))
        alive = naive_filter(deck, h)
        res = lazy(deck, h)
        last = {}
        for i in sorted(alive):
            last[deck.cards[i][0]] = i
        if len({deck.cards[i][0] for i in alive}) < deck.n:
            assert res.status is Status.UNWINNABLE
            continue
        assert res.status is Status.WINNABLE
        used = {i for i, x in enumerate(res.plays.actions) if x != "D"}
        assert used == set(last.values()), (str(deck), h)
        once = {i for i in range(deck.N)
                if sum(1 for w in range(deck.cards[i][0] + 1, deck.n + 1)
                       if w not in {deck.cards[j][0] for j in range(i + 1, deck.N)}) < h + 1}
        rounds_needed += once != alive
    assert rounds_needed > 0


def test_lazy_cascading_removal_example():
    # h = 0.  The last 2 (#5) is useless: 3 has no copy after it.  Only once it is
    # gone is the second 1 (#3) useless: its one later 2 was #5.
    deck = Deck.of([(1, 1), (2, 1), (1, 1), (3, 1), (2, 1)])
    assert naive_filter(deck, 0) == {0, 1, 3}
    res = lazy(deck, 0)
    assert res.plays.actions == "PPDPD" and res.stats["useless_copies"] == 2
    assert won(deck, 0)


# --- messages, refusals, edge cases -----------------------------------------------

def test_greedy_overlap_witness():
    deck = Deck.of([(2, 1), (2, 2), (3, 1), (1, 1), (1, 2), (3, 2)])
    out = solve(deck, 2, "greedy")
    assert out.status is Status.UNWINNABLE
    assert out.reason == "after card #3 (3:1) the hand must hold 3 cards (2:1, 2:2, 3:1); h = 2"
    assert solve(deck, 1, "greedy").reason == (
        "after card #2 (2:2) the hand must hold 2 cards (2:1, 2:2); h = 1")
    assert solve(deck, 3, "greedy").status is Status.WINNABLE


def test_greedy_missing_card_and_refusal():
    out = solve(Deck.of([(1, 1), (2, 2)], 2, 2), 3, "greedy")
    assert out.status is Status.UNWINNABLE and out.reason.startswith("card 2:1 has no copy")
    with pytest.raises(HanabiError, match="greedy needs every card at most once"):
        solve(Deck.of([(1, 1), (1, 1)]), 1, "greedy")


def test_lazy_witness_and_refusal():
    deck = Deck.of([(2, 1), (4, 1), (3, 1), (1, 1), (1, 1)])
    out = solve(deck, 1, "lazy")
    assert out.status is Status.UNWINNABLE
    assert out.reason == ("value 1 cannot be played: each of its copies (#4, #5) comes after "
                          "the last usable copies of 2, 4 (#1, #2); h = 1")
    with pytest.raises(HanabiError, match="lazy needs a single color"):
        solve(Deck.of([(1, 1), (1, 2)]), 1, "lazy")


def test_lazy_missing_value():
    out = solve(Deck.of([(1, 1), (3, 1)]), 2, "lazy")
    assert out.status is Status.UNWINNABLE and "2:1 has no copy" in out.reason


@pytest.mark.parametrize("method", ["greedy", "lazy", "dp", "search"])
def test_empty_instances_are_won(method):
    for deck in (Deck((), 0, 0), Deck((), 0, 1)):
        assert solve(deck, 0, method).status is Status.WINNABLE


def test_dp_edge_cases():
    assert solve(Deck((), 2, 1), 1, "dp").status is Status.UNWINNABLE
    out = solve(Deck.of([(1, 2), (2, 1), (1, 1), (2, 2)]), 0, "dp")
    assert out.status is Status.UNWINNABLE and out.reason.startswith("dynamic program")
    out = solve(Deck.of([(1, 2), (1, 1), (2, 1), (2, 2)]), 0, "dp")
    assert out.status is Status.WINNABLE and str(out.plays) == "PPPP"
    out = solve(Deck.of([(1, 1), (3, 1)], 3, 2), 2, "dp")
    assert out.reason == "card 2:1 has no copy in the deck (4 cards missing)"
    assert out.stats["entries"] == 0


def test_dp_refuses_huge_tables():
    deck = standard_deck(1)
    why = get("dp").refuses(deck, 4)
    assert why is not None and "use sat or cpsat" in why and f"{ENTRY_LIMIT:,}" in why
    assert get("dp").refuses(deck, 1) is None
    out = solve(deck, 1, "dp")
    assert out.stats["entries"] <= table_bound(deck, 1)


def test_auto_prefers_the_linear_methods():
    assert choose(random_deck(3, 5, 4, 1), 2).name == "greedy"
    assert choose(random_deck(3, 9, 1, 3), 2).name == "lazy"


def test_one_ordered_table_is_the_registry_and_the_auto_order():
    from hanabi_cp.core.registry import Registry
    from hanabi_cp.solitaire.solve import METHODS, methods

    table = methods()
    assert [(name, m.name, m.run.__module__) for name, m in table.items()] == \
        [(name, name, METHODS.address(name).partition(":")[0]) for name in METHODS]
    # auto takes the first applicable row: dp and brute only after the SAT methods.
    deck = random_deck(3, 4, 3, 2)
    assert choose(deck, 2).name == "search"
    assert choose(deck, 2, maximize=True).name == "cpsat"
    with pytest.raises(ValueError, match="method 'dp' listed twice"):
        Registry("method", [("dp", "hanabi_cp.solitaire.methods.dp:METHOD"), ("dp", "hanabi_cp.solitaire.methods.dp:METHOD")])


def test_a_row_must_name_its_own_method(monkeypatch):
    from hanabi_cp.solitaire.solve import METHODS, methods

    monkeypatch.setitem(METHODS.entries, "newcomer", "hanabi_cp.solitaire.methods.dp:METHOD")
    with pytest.raises(ValueError, match="hanabi_cp.solitaire.methods.dp:METHOD is method 'dp', not 'newcomer'"):
        methods()
