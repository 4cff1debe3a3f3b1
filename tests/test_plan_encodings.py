"""sat and cpsat on Up or Down and Sudoku: one encoding per pile plan
(encodings/variants.md, 8.5), against the search and brute on the referee, for a
win and the best score; the forbidden plays and dead cards in both encodings; the
race's lanes with them."""

from __future__ import annotations

import random

import pytest

from hanabi_cp.real import race
from hanabi_cp.real.encoders.cnf import LiveCnf
from hanabi_cp.real.pile_plans import Plan, copies_left
from hanabi_cp.real.encoders.plans import late_cap, plan_deck, start_plans
from hanabi_cp.real.referee import Game
from hanabi_cp.real.encoders.schedule import DISCARD, PLAY
from hanabi_cp.real.solve import LiveOutcome, solve_position
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.status import Status
from hanabi_cp.runtime.deadline import NEVER
from hanabi_cp.solvers.sat_backend import sat_solve
from hanabi_cp.real.variants.catalogue import START, Variant
from tests.test_live_race import eager, stalled_search   # noqa: F401  (a fixture)
from tests.test_pile_plans import SU, SU4, UP, S, deal, random_moves

METHODS = ("sat", "cpsat", "search", "brute")


def answer(start: Game, method: str) -> LiveOutcome:
    out = solve_position(start, method, SolveOptions())
    assert out.status is not Status.UNKNOWN
    assert out.verified == (out.status is Status.WINNABLE)     # replayed by the referee
    return out


def small(rng: random.Random, v: Variant) -> Game:
    """A deck of one suit, whole, or of two suits cut to 10 cards (brute's size)."""
    c = rng.choice((1, 1, 2))
    cards = [(v.model_value(a), k) for k in range(1, c + 1)
             for a in v.ranks for _ in range(v.copies(k - 1, a))]
    rng.shuffle(cards)
    return deal(v, cards[:10], players=rng.choice((2, 3)), hand=rng.choice((1, 2, 3)),
                clues=rng.choice((1, 2, 8)))


def test_sat_cpsat_search_and_brute_agree_on_tiny_decks_and_positions() -> None:
    """Random small decks of both families, from the deal and some random moves
    into the game: the four methods agree on a win, each win replays, and the
    plan loop is exercised (a win or a loss after more than one plan's encoding)."""
    rng = random.Random(8)
    looped = {Status.WINNABLE: 0, Status.UNWINNABLE: 0}
    done = 0
    while done < 24:
        g = small(rng, (UP, SU, SU4)[done % 3])
        random_moves(g, rng, rng.randrange(0, 4) if done % 2 else 0)
        if g.over:
            continue
        got = {m: answer(g, m) for m in METHODS}
        assert len({o.status for o in got.values()}) == 1, (str(g.deck), g.played, got)
        sat = got["sat"]
        assert sat.stats["plans_encoded"] == got["cpsat"].stats["plans_encoded"]
        if sat.stats["plans_encoded"] > 1:
            looped[sat.status] += 1
        done += 1
    assert looped[Status.WINNABLE] and looped[Status.UNWINNABLE], looped


def test_a_deal_lost_in_every_plan() -> None:
    """Red 2 comes before any Red 1 or 5 can be played... and no plan's game wins:
    every plan whose caps reach the target has an unsatisfiable encoding."""
    start = deal(UP, [(2, 1), (3, 1), (1, 1), (4, 1), (5, 1), (S, 1)], hand=1, clues=1)
    for method in ("sat", "cpsat"):
        out = answer(start, method)
        assert out.status is Status.UNWINNABLE and out.stats["plans_encoded"] == 4
        assert "4 of the 4 plans' encodings have no model" in (out.reason or "")


def test_plans_below_the_target_are_not_encoded() -> None:
    """Without a Red 1, the orders up from 1 cannot finish: those plans are skipped."""
    start = deal(UP, [(2, 1), (3, 1), (S, 1), (4, 1), (5, 1), (2, 1)], hand=1, clues=1)
    out = answer(start, "sat")
    bounds = [b for b, _ in start_plans(start)]
    assert out.stats["plans_encoded"] == sum(b >= start.target for b in bounds) < len(bounds)
    assert "caps are below the target 5" in (out.reason or "")


def test_a_proof_is_one_checked_drup_proof_per_plan(tmp_path) -> None:
    """(tests/test_plan_proofs.py checks the bundles themselves)"""
    start = deal(UP, [(2, 1), (3, 1), (1, 1), (4, 1), (5, 1), (S, 1)], hand=1, clues=1)
    proof = tmp_path / "p"
    out = solve_position(start, "sat", SolveOptions(proof=str(proof)))
    assert out.status is Status.UNWINNABLE and out.stats["proof_checked"] is True
    assert sorted(p.name for p in proof.iterdir()) == ["manifest.json"] + sorted(
        f"plan-{i}.{x}" for i in range(1, 5) for x in ("cnf", "drup"))


def first_play_models(start: Game, plan: Plan, card: int) -> tuple[bool, bool]:
    """Whether each encoding of the plan's game has a game whose first move plays
    ``card``."""
    from hanabi_cp.real.encoders.cpsat import LiveCpModel
    from ortools.sat.python import cp_model
    enc = LiveCnf(start, False, plan=plan)
    assert sat_solve(enc.clauses)[0], "the plan's game is won some other way"
    sat, _, _ = sat_solve(enc.clauses, assumptions=[enc.at[card][0], -enc.fate[card][DISCARD]])
    cp = LiveCpModel(start, False, plan=plan)
    cp.m.add(cp.at[card][0] == 1)
    cp.m.add(cp.fate[card][DISCARD] == 0)
    code = cp_model.CpSolver().solve(cp.m)
    return bool(sat), code in (cp_model.OPTIMAL, cp_model.FEASIBLE)


@pytest.mark.parametrize("orders,card,legal", [
    # Red START (or 5) first: the real rules take it on the empty pile, so a plan going
    # up from 1 forbids the play (a misplay of that plan's game, a success in the
    # real game); down from START forbids the 5
    (((1, 2, 3, 4, 5),), 1, False),
    (((5, 4, 3, 2, 1),), 0, True),
    (((START, 4, 3, 2, 1),), 0, False),
])
def test_a_forbidden_first_play_is_no_move(orders, card, legal) -> None:
    start = deal(UP, [(5, 1), (S, 1), (4, 1), (1, 1), (3, 1), (2, 1), (4, 1), (3, 1), (2, 1)],
                 hand=2, clues=8)
    assert first_play_models(start, Plan(UP, orders), card) == (legal, legal)


def test_a_dead_card_is_never_a_success() -> None:
    """Going down from 5, START is dead (renamed n + 1) and on the started pile a
    misplay, never a success: both encodings say no game plays it first as a win
    needs, and their wins never play it."""
    start = deal(UP, [(5, 1), (S, 1), (4, 1), (1, 1), (3, 1), (2, 1), (4, 1), (3, 1), (2, 1)],
                 hand=2, clues=8)
    down = Plan(UP, ((5, 4, 3, 2, 1),))
    assert [a for a, _ in plan_deck(start, down).cards][:2] == [1, 6]
    enc = LiveCnf(start, False, plan=down)
    ok, model, _ = sat_solve(enc.clauses, assumptions=[enc.fate[1][PLAY]])
    assert not ok


def test_sudoku_forbids_a_first_value_another_pile_plans() -> None:
    """Sudoku (4 Suits), Red planned from 2 and Blue from 1: a Red 1 first is taken by
    the real rules while Blue is empty, so the plan forbids it (a misplay of the plan's
    game, which the other Red 1 would survive)."""
    cards = [(1, 1), (2, 1), (3, 1), (1, 2), (4, 1), (2, 2), (3, 2), (4, 2), (1, 1)]
    start = deal(SU4, cards, hand=2, clues=8, final_round=False)
    plan = Plan(SU4, ((2, 3, 4, 1), (1, 2, 3, 4)))
    assert first_play_models(start, plan, 0) == (False, False)
    assert first_play_models(start, Plan(SU4, ((1, 2, 3, 4), (2, 3, 4, 1))), 0) == (True, True)


def test_auto_races_the_encodings_on_these_families(eager, monkeypatch) -> None:  # noqa: F811
    """The search here answers nothing: the answer is a lane's, sat's or cpsat's plan
    loop, replayed here, and it is the search's."""
    monkeypatch.setattr(race, "_run", stalled_search())
    rng = random.Random(6)
    for i in range(4):
        g = small(rng, (UP, SU)[i % 2])
        want = answer(g, "search")
        got = solve_position(g, "auto", SolveOptions(time_limit=20))
        assert got.method in ("sat", "cpsat") and got.stats["lanes"] == 1
        assert got.status is want.status and (got.verified or got.actions is None)


# ---- the best score in Up or Down (sat) -------------------------------------------

def test_the_encodings_give_up_or_down_s_best_score_as_search_and_brute() -> None:
    """Small decks and positions of Up or Down: sat's and cpsat's best score over the
    plans is the search's and brute's, each certificate a complete real game with
    that score."""
    rng = random.Random(12)
    looped = 0
    done = 0
    while done < 24:
        g = small(rng, UP)
        random_moves(g, rng, rng.randrange(0, 5) if done % 2 else 0)
        if g.over:
            continue
        got = {m: solve_position(g, m, SolveOptions(maximize=True))
               for m in ("sat", "cpsat", "search", "brute")}
        assert len({o.score for o in got.values()}) == 1, (str(g.deck), g.played, got)
        assert got["sat"].verified and got["cpsat"].verified
        looped += got["sat"].stats.get("plans_encoded", 0) > 1
        done += 1
    assert looped


def plan_best(start: Game, plan: Plan, method: str) -> LiveOutcome:
    """sat's climb on one plan's CNF, or cpsat's model of it, its game replayed by the
    referee on the real position (``certify_live``: a complete game with the
    model's score)."""
    from hanabi_cp.real.encoders.cpsat import LiveCpModel
    from hanabi_cp.real.methods.sat import _maximize
    from hanabi_cp.real.solve import certify_live
    options = SolveOptions(maximize=True)
    if method == "sat":
        out = _maximize(LiveCnf(start, True, plan=plan), "cadical195", NEVER, {}, 0.0, options)
    else:
        out = LiveCpModel(start, True, plan=plan).solve(options)
    out.method = method
    return certify_live(start, out)


def test_each_plan_s_best_game_ends_where_the_real_game_does() -> None:
    """The deal where a plan's caps fall to the score while the real game goes on
    (Yellow, planned up, could still go down from its 5): every plan's best game is a
    complete real game, since the plan's CNF ends only where hanab.live does (its
    early ends read on the real piles)."""
    start = deal(UP, [(1, 1), (4, 1), (5, 2), (2, 2), (3, 2)], hand=1, clues=1)
    up = (1, 2, 3, 4, 5)
    scores = {}
    for method in ("sat", "cpsat"):
        for _, plan in start_plans(start):
            out = plan_best(start, plan, method)
            assert out.verified
            scores[plan.orders] = out.score
        assert scores[(up, up)] == 1 and max(scores.values()) == 2


# ---- the best score in Sudoku --------------------------------------------------------

def test_the_encodings_give_sudoku_s_best_score_as_search_and_brute() -> None:
    """Small decks and positions of Sudoku (4 and 5 suits), a third of them
    speedruns: sat's and cpsat's best score over the plans is the search's and
    brute's, each certificate a complete real game with that score."""
    from dataclasses import replace
    rng = random.Random(0)
    looped, between, done = 0, 0, 0
    while done < 16:
        g = small(rng, (SU, SU4)[done % 2])
        if done % 3 == 2:
            g = Game.start(g.deck, replace(g.rules, speedrun=True))
        random_moves(g, rng, rng.randrange(0, 5) if done % 2 else 0)
        if g.over:
            continue
        got = {m: solve_position(g, m, SolveOptions(maximize=True)) for m in METHODS}
        assert len({o.score for o in got.values()}) == 1, (str(g.deck), g.played, got)
        assert got["sat"].verified and got["cpsat"].verified
        looped += got["sat"].stats.get("plans_encoded", 0) > 1
        between += 0 < got["brute"].score < g.target
        done += 1
    assert looped and between


def plan_climb(start: Game, plan: Plan, method: str) -> LiveOutcome:
    """``plan_best`` without the replay: sat's climb or cpsat's model of one plan."""
    from hanabi_cp.real.encoders.cpsat import LiveCpModel
    from hanabi_cp.real.methods.sat import _maximize
    options = SolveOptions(maximize=True)
    if method == "sat":
        return _maximize(LiveCnf(start, True, plan=plan), "cadical195", NEVER, {}, 0.0, options)
    return LiveCpModel(start, True, plan=plan).solve(options)


def test_each_sudoku_plan_s_best_game_is_the_search_s_and_a_real_game() -> None:
    """Plan by plan, on small Sudoku decks and positions with other options (no
    final round, one strike, no or unlimited tokens, deck plays, speedruns): each
    encoding's best game of the plan is a complete real game scoring what the
    search of that plan's game finds, at most the plan's ``late_cap``.  The game
    ends where the real rules end it
    (no card still needed can be played, an empty pile needing every first value
    no started pile holds): ending an empty pile's needs at its planned first value
    lets a plan's game stop where the real game goes on (this test then fails)."""
    from dataclasses import replace
    from hanabi_cp.real.methods.search.driver import LiveSearch
    from hanabi_cp.real.methods.search.plans import _plan_best
    from hanabi_cp.real.solve import certify_live
    rng = random.Random(0)
    plans_checked, done = 0, 0
    while done < 14:
        g = small(rng, (SU, SU4)[done % 2])
        rules = replace(g.rules, speedrun=done % 3 == 2)
        if done % 2:
            rules = replace(rules, final_round=rng.random() < 0.5, strikes=rng.choice((1, 3)),
                            clues=rng.choice((0, 1, None)), deck_plays=rng.random() < 0.3)
        g = Game.start(g.deck, rules)
        random_moves(g, rng, rng.randrange(0, 5) if done % 2 else 0)
        if g.over:
            continue
        first = copies_left(g)[1]
        for _, plan in start_plans(g):
            s = LiveSearch(g, None, plan)
            found = _plan_best(s, 0, s.bound(), True)
            want = 0 if found is None else found[1]
            late = late_cap(g, plan, first)
            assert want <= late, (str(g.deck), plan.orders, want, late)
            for method in ("sat", "cpsat"):
                out = plan_climb(g, plan, method)
                if "every complete game" in (out.reason or ""):
                    # no model: the game given is the first legal one, of any plan
                    assert want == 0, (str(g.deck), plan.orders, method)
                    continue
                out.method = method
                out = certify_live(g, out)
                assert out.verified and out.score == want, (str(g.deck), plan.orders, method)
            plans_checked += 1
        done += 1
    assert plans_checked > 2 * done


def test_late_cap_bounds_each_plan_s_game_below_its_caps() -> None:
    """``late_cap`` (when the deck deals each plan's cards) is at least the search's
    best score of the plan's game on the positions of bench/sudoku_best.py (small
    and standard decks, 2-5 players), and below the plan's caps on some of them."""
    from bench.sudoku_best import case
    from hanabi_cp.real.methods.search.driver import LiveSearch
    from hanabi_cp.real.methods.search.plans import _plan_best
    rng = random.Random(7)
    below = tight = 0
    for i in range(160):
        g = case(rng, i % 2 == 1)
        if g is None:
            continue
        first = copies_left(g)[1]
        for caps, plan in list(start_plans(g))[:30]:
            late = late_cap(g, plan, first)
            if late >= caps:
                continue
            s = LiveSearch(g, None, plan)
            found = _plan_best(s, 0, s.bound(), True)
            want = 0 if found is None else found[1]
            assert want <= late, (str(g.deck), g.played, plan.orders, want, late)
            below += 1
            tight += want == late
    assert below >= 20 and tight, (below, tight)


def test_up_or_down_s_speedrun_agrees() -> None:
    """A speedrun scores 0 once hanab.live's count falls below the target: each
    plan's encoding keeps, per pile, some order the pile may still follow with a
    copy of each card left (``real_rests``); the best scores (some between 0 and the
    target) are the search's and brute's."""
    from dataclasses import replace
    rng = random.Random(3)
    between, done = 0, 0
    while done < 16:
        g = small(rng, UP)
        g = Game.start(g.deck, replace(g.rules, speedrun=True))
        random_moves(g, rng, rng.randrange(0, 4))
        if g.over:
            continue
        got = {m: solve_position(g, m, SolveOptions(maximize=True))
               for m in ("sat", "cpsat", "search", "brute")}
        assert len({o.score for o in got.values()}) == 1, (str(g.deck), g.played, got)
        between += 0 < got["brute"].score < g.target
        done += 1
    assert between


def test_with_other_options_the_four_methods_agree() -> None:
    """Unlimited or no clue tokens, no final round, deck plays, three players, a dark
    suit and rainbow: every method's win and best score agree."""
    from hanabi_cp.real.rules import Rules
    from hanabi_cp.real.variants.catalogue import variant
    from hanabi_cp.core.model import Deck
    rng = random.Random(1)
    names = ("Up or Down (6 Suits)", "Up or Down & Rainbow (5 Suits)", "Sudoku (4 Suits)")
    done = 0
    while done < 18:
        v = variant(names[done % 3])
        pool = [card for card in v.model_cards() if card[1] <= 2]
        cards = rng.sample(pool, rng.randint(5, 9))
        c = max(k for _, k in cards)
        rules = Rules(rng.choice((2, 3)), rng.randint(1, 2), rng.choice((0, 1, 2, None)),
                      rng.randint(1, 3), rng.random() < 0.7, variant=v,
                      deck_plays=rng.random() < 0.3)
        g = Game.start(Deck.of(cards, v.deck_n, c), rules)
        random_moves(g, rng, rng.randrange(0, 4))
        if g.over:
            continue
        for maximize in (False, True):
            got = {m: solve_position(g, m, SolveOptions(maximize=maximize)) for m in METHODS}
            assert len({(o.status, o.score) for o in got.values()}) == 1, (v.name, str(g.deck), got)
        done += 1


def test_auto_races_the_encodings_for_the_best_score(eager, monkeypatch) -> None:  # noqa: F811
    monkeypatch.setattr(race, "_run", stalled_search())
    rng = random.Random(9)
    for i in range(4):
        g = small(rng, (UP, SU)[i % 2])
        want = solve_position(g, "brute", SolveOptions(maximize=True))
        got = solve_position(g, "auto", SolveOptions(time_limit=20, maximize=True))
        assert got.method in ("sat", "cpsat") and got.stats["lanes"] == 1
        assert got.score == want.score and got.verified
