"""The post-mortem's shortcuts against brute force on tiny games: the deal's reasons
with a game's lost cards (``deal_bounds.refuted``) refute only scores no game from
the position reaches, and a position's best asked under the previous best
(``known_best.best_below``) is the best score."""

from __future__ import annotations

import functools
import random
from contextvars import ContextVar

from hanabi_cp.apps.generators import random_deck
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.real.methods.brute import MAX_CARDS
from hanabi_cp.real.postmortem.alternatives import every_legal_action
from hanabi_cp.real.postmortem.deal_bounds import refuted
from hanabi_cp.real.postmortem.known_best import best_below
from hanabi_cp.real.referee import Game, replay
from hanabi_cp.real.rules import Rules
from hanabi_cp.real.solve import solve_position
from hanabi_cp.runtime.deadline import NEVER


def brute_best(g: Game) -> int:
    out = solve_position(g, "brute", SolveOptions(maximize=True))
    assert out.score is not None
    return out.score


@functools.cache
def positions(seed: int = 44, games: int = 50) -> list[tuple[Game, int]]:
    """Positions of random games on random tiny deals (cards dealt and drawn, some
    lost), each with brute force's best score."""
    rng, out = random.Random(seed), []
    while len(out) < games * 4:
        deck = random_deck(rng, rng.randint(2, 3), rng.randint(2, 3), 2)
        if len(deck) > MAX_CARDS:
            continue
        rules = Rules.for_players(rng.randint(2, 3), hand_size=rng.randint(1, 2),
                                  clues=rng.choice([1, 2, 3]), strikes=rng.randint(1, 3))
        g = Game.start(deck, rules)
        while not g.over:
            out.append((g.copy(), brute_best(g)))
            # mostly discards and misplays: the positions lose cards
            moves = every_legal_action(g)
            losing = [a for a in moves if a.is_move and (a.kind.name == "DISCARD" or not
                                                         g.takes(g.card(a.target)[1] - 1,
                                                                 g.card(a.target)[0]))]
            g.apply(rng.choice(losing if losing and rng.random() < 0.6 else moves))
    return out


def test_the_deal_reasons_with_lost_cards_refute_only_unreached_scores():
    fired = with_lost = 0
    for g, best in positions():
        for goal in range(best + 1, g.target + 1):
            why = refuted(g, goal)
            if why is None:
                continue
            fired += 1
            # the lost cards made the difference: without them no reason fires
            with_lost += g.lost_cards != [] and refuted_without_lost(g, goal) is None
        for goal in range(0, best + 1):
            assert refuted(g, goal) is None, (str(g.deck), g.rules, g.lost_cards, goal, best)
    assert fired >= 100 and with_lost >= 10, (fired, with_lost)


def refuted_without_lost(g: Game, goal: int) -> str | None:
    h = g.copy()
    h.lost_cards = []
    return refuted(h, goal)


def test_the_best_under_the_previous_best_is_the_best_score():
    decided = 0
    for g, best in positions():
        for upper in {best, min(best + 1, g.target), min(best + 2, g.target)}:
            out = best_below(g, upper, "auto", NEVER)
            if out is None:
                continue
            decided += 1
            assert out.score == best and out.verified, (str(g.deck), g.rules, upper)
    assert decided >= len(positions())


def test_cadical_asked_for_a_score_agrees_with_brute_force():
    """``sat.at_least`` (the alternatives' question once the search has had half its
    time): a game reaching the goal, replayed by the referee, exactly when brute
    force's best reaches it; a "no" exactly when it does not."""
    from hanabi_cp.core.status import Status
    from hanabi_cp.real.methods.sat import at_least
    from hanabi_cp.real.referee import replay
    yes = no = 0
    for g, best in positions()[::3]:
        for goal in range(max(0, best - 1), min(best + 2, g.target) + 1):
            out = at_least(g, goal, NEVER)
            if best >= goal:
                assert out.score is not None and out.score >= goal, (g, goal, best)
                rep = replay(g.deck, g.rules, out.actions, g)
                assert rep.legal and rep.complete and rep.score == out.score
                assert out.status is not Status.UNWINNABLE
                yes += 1
            else:
                assert out.status is Status.UNWINNABLE and out.score is None, (goal, best)
                no += 1
    assert yes > 20 and no > 20


def test_an_alternative_the_search_leaves_goes_to_cadical(monkeypatch):
    """With time to spare, ``reaches`` under ``auto`` gives the search a share of it,
    then CaDiCaL: a search that never answers still yields the right answer."""
    from hanabi_cp.real.postmortem import alternatives
    from hanabi_cp.runtime.deadline import Deadline

    class Stuck:
        Timeout = TimeoutError
        MEMORY = ContextVar("none", default=None)

        def LiveSearch(self, h, clock, plan=None, memory=None):  # noqa: N802 (the core's name)
            return self

        def recursion_needed(self, h):
            return 100

        def game(self, goal):
            raise TimeoutError

    monkeypatch.setattr(alternatives, "search_core", Stuck)
    checked = 0
    for g, best in positions()[:40]:
        if g.over:
            continue
        for goal in (best, best + 1):
            if goal > g.target:
                continue
            rest = alternatives.reaches(g, goal, "auto", Deadline.after(30))
            if best >= goal:
                assert isinstance(rest, list)
                assert replay(g.deck, g.rules, rest, g).score >= goal
            else:
                assert rest is None
            checked += 1
        # no time to spare: the search's answer stands (here, none)
        assert alternatives.reaches(g, best, "auto", Deadline.after(0.5)) is alternatives.UNDECIDED
    assert checked > 30


def test_the_previous_best_the_search_leaves_goes_to_cadical(monkeypatch):
    """Under ``auto`` with CaDiCaL's time (``sat``), a first level the search leaves
    open is asked of CaDiCaL: a search that never answers still decides the
    positions whose best is the previous best, with the brute-force best score."""
    from hanabi_cp.real.postmortem import known_best
    from hanabi_cp.runtime.deadline import Deadline

    monkeypatch.setattr(known_best, "reaches", lambda h, goal, method, deadline:
                        known_best.UNDECIDED)
    decided = 0
    for g, best in positions()[:60]:
        if g.over:
            continue
        for upper in {best, min(best + 1, g.target)}:
            out = best_below(g, upper, "auto", NEVER, Deadline.after(30))
            assert best_below(g, upper, "search", NEVER, Deadline.after(30)) is None
            if out is None:
                assert min(upper, g.max_reachable) > best, (upper, best)
                continue
            assert out.score == best and min(upper, g.max_reachable) == best
            assert replay(g.deck, g.rules, out.actions, g).score >= best
            assert out.method == "sat"          # CaDiCaL's game, named as such
            decided += 1
    assert decided >= 20, decided
