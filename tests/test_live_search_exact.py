"""The relaxation with exact tokens during the search (``LiveSearch.exact_window``,
encodings/live-search.md, 3.5, "Exact tokens during the search"): asked at every
state, the search still finds every best score of brute force and refutes one
more, each refutation checks, and it cuts where the plain relaxation does not."""

from __future__ import annotations

import pytest
from test_live_methods import position_oracle

from hanabi_cp.real import refutation
from hanabi_cp.real.methods.search import FREE, LiveSearch
from hanabi_cp.real.referee import Game
from hanabi_cp.real.rules import Rules
from hanabi_cp.core.model import Deck


def eager(g: Game) -> LiveSearch:
    """A search that asks the exact relaxation at every state of its window, from
    any number of cards left (the tiny decks have at most 12)."""
    s = LiveSearch(g)
    s.exact_after, s.exact_deep = 0, s.N
    return s


def check_exact_during_the_search(sample) -> tuple[int, int]:
    """On every tiny position: the best score is found and one more is refuted by
    the eager search, and its refutation checks.  How many refutations took it
    fewer states than the search with the plain relaxation at every state, and how
    many searches ran out of the rule's patience (``exact_pays``)."""
    tighter = tired = 0
    for g, best in sample:
        if g.over:
            continue
        for goal, found in ((best.score, True), (best.score + 1, False)):
            if goal > g.deck.target:
                continue
            s = eager(g)
            where = (str(g.deck), g.rules, g.hands, g.turn, goal)
            assert (s.game(goal) is not None) == found, where
            tired += not s.exact_pays()
            if found or refutation.refuses(g) is not None:
                continue
            refutation.check(g, goal, s.refuted(goal))
            plain = LiveSearch(g)
            plain.deep = True       # the plain relaxation at every state of its window
            assert plain.game(goal) is None, where
            tighter += s.nodes < plain.nodes
    return tighter, tired


def test_the_exact_relaxation_during_the_search_keeps_every_best_score():
    tighter, _ = check_exact_during_the_search(position_oracle(23, 1500, 8))
    assert tighter >= 1, tighter     # 2 of them


@pytest.mark.slow
def test_the_exact_relaxation_during_the_search_on_thousands_more_positions():
    check_exact_during_the_search(position_oracle(1023, 6000, 12))


def test_the_checker_cuts_a_listed_state_by_the_exact_relaxation_alone():
    """A state the plain relaxation does not cut but the one with exact tokens does:
    a refutation that lists it alone checks (``cut_when_listed`` asks the exact one
    in its window), and without the exact window in the checker it would not."""
    found = 0
    for g, best in position_oracle(23, 1500, 8):
        if g.over or best.score >= g.deck.target:
            continue
        s = LiveSearch(g)
        goal = best.score + 1
        if not s.simple_draws or s.drawn >= s.N - s.ENDGAME or s.bound(goal) < goal:
            continue
        plain = s.deeper_bound(goal, FREE)
        exact = s.deeper_bound(goal, FREE, exact=True)
        assert exact <= plain
        if exact < goal <= plain:
            check = LiveSearch(g)
            check.exact_deep = check.N
            check.bound(goal)
            assert check.cut_when_listed(goal)
            narrow = LiveSearch(g)
            narrow.exact_deep = 0
            narrow.bound(goal)
            assert not narrow.cut_when_listed(goal) or narrow.deep_window()
            found += 1
    assert found > 0


def test_the_rule_narrows_the_window_then_stops_asking():
    """``exact_pays``: a quarter of the tries (and EXACT_WARM / 4 more) may run out
    of their steps; one more and the window narrows by two cards, its count starting
    again, down to EXACT_LEAST cards; there one more and the relaxation is no longer
    asked.  The checker's window stays the widest (``cut_when_listed``)."""
    deck = Deck.of([(1, 1), (2, 1), (1, 1), (3, 1)])
    s = LiveSearch(Game.start(deck, Rules(2, 1, 2, 3)))
    widths = []
    while True:
        s.exact_tries = 400
        s.exact_spent = (400 + s.EXACT_WARM) // 4
        assert s.exact_pays()
        s.exact_spent += 1
        width = s.exact_deep
        # after narrowing, whether this state is still in the window (it is not:
        # two cards left, the endgame bound's)
        assert not s.exact_pays()
        if s.exact_deep == width:
            break
        assert s.exact_deep == width - 2 and s.exact_tries == s.exact_spent == 0
        widths.append(width)
    assert widths == list(range(s.EXACT_DEEP, s.EXACT_LEAST, -2))
    assert s.exact_deep == s.EXACT_LEAST
    assert LiveSearch(Game.start(deck, Rules(2, 1, 2, 3))).exact_deep == s.EXACT_DEEP
