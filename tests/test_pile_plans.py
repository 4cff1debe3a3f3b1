"""Pile plans (encodings/variants.md, 8.5): the forbidden-play rule and the renaming
against pile_rules, and the search over the plans' games against brute on the
referee (tiny decks of both families, from the deal and mid-game)."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import islice, permutations, product
from operator import getitem

import pytest

from hanabi_cp.real.solve import LiveOutcome, live_methods, solve_position
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.status import Status
from hanabi_cp.real.methods.search import LiveSearch, start_plans
from hanabi_cp.real.pile_plans import (DEAD, Plan, _first_choice, order_cap, plan_count,
                                      plans_by_bound, plans_from)
from hanabi_cp.real.variants.pile_rules import next_values, plans
from hanabi_cp.real.referee import Game, replay
from hanabi_cp.real.rules import Rules
from hanabi_cp.real.variants.catalogue import START, Variant, variant
from hanabi_cp.core.model import Deck

UP = variant("Up or Down (5 Suits)")
SU = variant("Sudoku (5 Suits)")
SU4 = variant("Sudoku (4 Suits)")


def random_moves(g: Game, rng: random.Random, k: int) -> None:
    """Up to ``k`` random legal moves on ``g`` (fewer if the game ends)."""
    for _ in range(k):
        if g.over:
            return
        g.apply(rng.choice(list(g.legal_actions())))


@pytest.mark.parametrize("v,c", [(UP, 2), (SU, 3), (SU4, 4)])
def test_forbid_rule_is_the_definition(v: Variant, c: int) -> None:
    """``forbid_rule``'s condition holds exactly where the real rules accept a card
    that is not the plan's next, at every combination of heights."""
    n = v.stack_size
    rng = random.Random(4)
    every = plans(v, tuple(() for _ in range(c)))
    for orders_ in rng.sample(every, min(12, len(every))):
        plan = Plan(v, orders_)
        for k in range(c):
            for rank in v.ranks:
                h, j = plan.forbid_rule(k, rank)
                for heights in product(range(n + 1), repeat=c):
                    want = plan.forbidden(heights, k, rank)
                    got = heights[k] == h and (j < 0 or heights[j] == 0)
                    assert got == want, (orders_, k, rank, heights)


@pytest.mark.parametrize("v,c", [(UP, 3), (SU, 5), (SU4, 4)])
def test_real_piles_are_plan_games(v: Variant, c: int) -> None:
    """Random real play on the piles: in the game of any plan the piles realise, each
    real success is the plan's next card, each real misplay a misplay of the plan game
    (never a forbidden play); and in Up or Down each plan leaves one rank of a suit
    dead."""
    rng = random.Random(7)
    n = v.stack_size
    for _ in range(200):
        piles: list[tuple[int, ...]] = [() for _ in range(c)]
        moves = []
        for _ in range(rng.randrange(1, 3 * n)):
            k, rank = rng.randrange(c), rng.choice(v.ranks)
            ok = rank in next_values(v, tuple(piles), k)
            moves.append((k, rank, ok, tuple(len(p) for p in piles)))
            if ok:
                piles[k] += (rank,)
        for plan in plans_from(v, piles):
            if v.up_or_down:
                assert all(sum(plan.height(k, r) == DEAD for r in v.ranks) == 1 for k in range(c))
            heights = [0] * c
            for k, rank, ok, before in moves:
                assert tuple(heights) == before
                h = plan.height(k, rank)
                assert not plan.forbidden(heights, k, rank)
                assert (h == heights[k] + 1) == ok
                heights[k] += ok


@pytest.mark.parametrize("v,played", [
    (UP, [(), (), (), (), ()]), (UP, [(START,), (5, 4), (), (1,), ()]),
    (SU, [(), (), (), (), ()]), (SU, [(3,), (), (5, 1), (), ()]), (SU4, [(), (2, 3), (), ()]),
])
def test_plans_by_bound_lists_every_plan_once_best_first(v: Variant, played) -> None:
    rng = random.Random(len(played[0]))
    left = {(k, r): rng.choice((0, 1, 1, 2)) for k in range(len(played)) for r in v.ranks}
    got = list(plans_by_bound(v, played, left))
    assert sorted(p.orders for _, p in got) == sorted(x.orders for x in plans_from(v, played))
    assert len(got) == plan_count(v, played)
    bounds = [b for b, _ in got]
    assert bounds == sorted(bounds, reverse=True)
    assert all(b == sum(order_cap(o, k, left) for k, o in enumerate(p.orders)) for b, p in got)



def test_sudoku_first_plan_is_the_sorted_permutations_first() -> None:
    """``_first_choice`` (Sudoku's first plan, found alone) is the first of the
    permutations sorted stably by their keys' sum, which ``plans_by_bound`` then
    lists: keys with many ties, fewer rows than values, and no permutation."""
    rng = random.Random(45)
    for _ in range(2000):
        values = sorted(rng.sample(range(7), rng.randint(1, 6)))
        keys = [[rng.choice((-2, -1, 0)) * (1 << 30) + rng.randint(0, 3) for _ in range(7)]
                for _ in range(rng.randint(0, len(values) + 1))]
        perms = list(permutations(values, len(keys)))
        if not perms:
            assert _first_choice(keys, values) is None
            continue
        score = [sum(map(getitem, keys, p)) for p in perms]
        assert _first_choice(keys, values) == perms[min(range(len(perms)), key=score.__getitem__)]

# ---- the search of the plans' games against brute on the referee ------------------

S = UP.deck_n       # START as a deck value


def deal(v: Variant, cards: list[tuple[int, int]], players: int = 2, hand: int = 2,
         clues: int = 2, **options) -> Game:
    return Game.start(Deck.of(cards, v.deck_n, max(k for _, k in cards)),
                      Rules.for_players(players, hand_size=hand, clues=clues, variant=v,
                                        **options))


def best_of(start: Game, method: str, maximize: bool = True) -> LiveOutcome:
    """The method's answer from the position, its certificate replayed by the referee
    (``solve_position``)."""
    out = solve_position(start, method, SolveOptions(maximize=maximize))
    assert out.status is not Status.UNKNOWN
    return out


def agree(start: Game) -> None:
    """search and brute give the same best score and the same verdict on a win."""
    want = best_of(start, "brute")
    got = best_of(start, "search")
    assert got.score == want.score and got.verified, (start.deck, start.played)
    assert best_of(start, "search", False).status is want.status


@pytest.mark.parametrize("v,cards", [
    (UP, [(5, 1), (S, 1), (4, 1), (1, 1), (3, 1), (2, 1), (4, 1)]),
    (UP, [(S, 1), (4, 1), (2, 1), (5, 1), (3, 2), (S, 2), (1, 1), (2, 2)]),
    (UP, [(1, 1), (5, 1), (4, 1), (S, 1), (2, 1), (3, 1), (3, 1)]),
    (SU, [(3, 1), (2, 2), (4, 1), (3, 2), (5, 1), (2, 1), (1, 1)]),
    (SU, [(2, 1), (2, 2), (3, 2), (3, 1), (4, 2), (1, 2), (5, 2), (4, 1)]),
    (SU4, [(4, 1), (1, 1), (2, 2), (1, 2), (2, 1), (3, 1), (3, 2), (4, 2)]),
])
def test_search_over_plans_is_brute(v: Variant, cards: list[tuple[int, int]]) -> None:
    agree(deal(v, cards))


def tiny(rng: random.Random, v: Variant) -> Game:
    c = rng.choice((1, 2, 2, 3))
    cards = [(v.model_value(a), k) for k in range(1, c + 1)
             for a in v.ranks for _ in range(v.copies(k - 1, a))]
    rng.shuffle(cards)
    return deal(v, cards[:rng.randrange(6, 11)], players=rng.choice((2, 2, 3)),
                hand=rng.choice((1, 2)), clues=rng.choice((1, 2, 3)))


def test_random_tiny_decks_agree() -> None:
    rng = random.Random(11)
    for i in range(30):
        agree(tiny(rng, (UP, SU, SU4)[i % 3]))


def test_positions_mid_game_agree() -> None:
    """From positions some random legal moves into the game (some piles decided,
    cards lost), where the plans extend the piles' contents."""
    rng = random.Random(5)
    done = 0
    while done < 18:
        g = tiny(rng, (UP, SU, SU4)[done % 3])
        random_moves(g, rng, rng.randrange(1, 5))
        if g.over:
            continue
        agree(g)
        done += 1


@pytest.mark.parametrize("option", ["speedrun", "all_or_nothing"])
def test_speedrun_and_all_or_nothing_agree(option: str) -> None:
    """Their zero scores turn on the real max score, which the plan game reads."""
    rng = random.Random(2)
    for i in range(8):
        g = tiny(rng, (UP, SU)[i % 2])
        agree(Game.start(g.deck, replace(g.rules, **{option: True})))


def test_search_real_max_is_the_referees() -> None:
    """The search's count of the best score still reachable, on the plan's real piles,
    is the referee's (hanab.live's server's) along random games."""
    rng = random.Random(3)
    for i in range(40):
        g = tiny(rng, (UP, SU, SU4)[i % 3])
        while not g.over:
            for _, plan in islice(start_plans(g), 3):
                assert LiveSearch(g, None, plan).real_max() == g.max_reachable
            g.apply(rng.choice(list(g.legal_actions())))


def test_a_plan_game_ends_where_the_real_game_does() -> None:
    """The plan with both suits going up can score only Red 1 (no Red 2, no Yellow 1),
    but Yellow is undecided and could still go down from its 5: the real game goes
    on after the 1 is played, and so does the plan game's certificate."""
    start = deal(UP, [(1, 1), (4, 1), (5, 2), (2, 2), (3, 2)], hand=1, clues=1)
    up = tuple(range(1, 6))
    s = LiveSearch(start, None, Plan(UP, (up, up)))
    assert s.capsum == 1 < s.real_max()
    got = s.game(1)
    assert got is not None and got[1] == 1 and len(got[0]) > 1
    rep = replay(start.deck, start.rules, got[0])
    assert rep.legal and rep.complete and rep.score == 1


def test_sudoku_s_max_score_ends_a_game_only_where_nothing_is_playable() -> None:
    """encodings/variants.md, 8.5, Lemma 3: whenever the score reaches the server's
    max score (its over-count included), no card still needed can be played, so
    the encodings' Sudoku ends need not write the count.  Random referee games on
    random decks of 1 to n suits, some of them cut."""
    from hanabi_cp.real.referee import BEST_REACHED
    rng = random.Random(5)
    ended = 0
    for _ in range(700):
        v = rng.choice((SU, SU4))
        c = rng.choice((1, 2, 3, v.stack_size))
        cards = [x for x in v.model_cards() if x[1] <= c]
        rng.shuffle(cards)
        g = deal(v, cards[:rng.randint(5, len(cards))], players=rng.choice((2, 3)),
                 hand=rng.choice((1, 2, 3)), clues=rng.choice((1, 8)))
        random_moves(g, rng, 200)
        if g.cause == BEST_REACHED:
            ended += 1
            assert g._nothing_playable(), (str(g.deck), g.played, g.best)
    assert ended >= 30, ended


def test_sat_cpsat_and_auto_give_sudoku_s_best_score() -> None:
    """(Both encodings plan by plan: tests/test_plan_encodings.py.)"""
    start = deal(SU, [(3, 1), (2, 2), (4, 1), (3, 2), (5, 1), (2, 1), (1, 1)])
    want = best_of(start, "brute")
    for method in ("sat", "cpsat"):
        assert live_methods()[method].refuses(start) is None
        got = solve_position(start, method, SolveOptions(maximize=True))
        assert got.score == want.score and got.verified
    got = solve_position(start, "auto", SolveOptions(maximize=True, time_limit=20))
    assert got.score == want.score and got.verified


def test_a_lost_deal_is_lost_in_every_plan() -> None:
    """A deal no plan's game wins: the answer names the plans searched."""
    start = deal(UP, [(2, 1), (3, 1), (1, 1), (4, 1), (5, 1), (S, 1)], hand=1, clues=1)
    out = best_of(start, "search", False)
    assert out.status is Status.UNWINNABLE and "pile plans" in (out.reason or "")
    assert best_of(start, "brute", False).status is Status.UNWINNABLE


def test_a_refutation_file_refuses_the_families_in_one_line() -> None:
    from hanabi_cp.real.refutation import refuses
    why = refuses(deal(UP, [(2, 1), (3, 1), (1, 1), (4, 1), (5, 1), (S, 1)], hand=1, clues=1))
    assert why is not None and "plan by plan" in why and "\n" not in why


def test_one_bound_over_every_plan_is_sound() -> None:
    """Where ``late_plays`` says no plan's game wins, brute on the referee finds no win
    (tiny decks from the deal and some random moves in); it must say so on some."""
    from hanabi_cp.real.methods.search.plans import _late_plays
    rng = random.Random(17)
    fired = 0
    for i in range(80):
        v = (UP, SU, SU4)[i % 3]
        # every suit whole (one copy of each rank): the caps refute no plan
        c = rng.choice((1, 2))
        cards = [(v.model_value(a), k) for k in range(1, c + 1) for a in v.ranks]
        rng.shuffle(cards)
        g = deal(v, cards, players=rng.choice((2, 3)), hand=rng.choice((1, 2)),
                 clues=rng.choice((1, 2)))
        random_moves(g, rng, rng.randrange(0, 3))
        if g.over or _late_plays(g) is None:
            continue
        fired += 1
        assert best_of(g, "brute", False).status is Status.UNWINNABLE, (g.deck, g.played)
        # (the search asks it once a first plan did not win: a single plan's own
        # search may answer first)
        assert best_of(g, "search", False).status is Status.UNWINNABLE
    assert fired >= 8


def test_a_deal_with_its_first_cards_last_is_lost_at_once() -> None:
    """Every order of a pile needs one of its first cards (1, 5 or START), all dealt
    last: one bound refutes all 16 plans."""
    start = deal(UP, [(2, 1), (3, 1), (4, 2), (2, 2), (3, 2), (4, 1), (1, 1), (5, 1),
                      (S, 1), (1, 2), (5, 2), (S, 2)], hand=2, clues=2)
    out = best_of(start, "search", False)
    assert out.status is Status.UNWINNABLE and "once deck card #6 is drawn" in (out.reason or "")
    assert best_of(start, "brute", False).status is Status.UNWINNABLE


def test_a_deal_without_a_card_every_order_needs_is_lost_by_the_caps() -> None:
    """No 3: every order of the pile stops at 2 cards, so no plan is searched."""
    start = deal(UP, [(1, 1), (2, 1), (4, 1), (5, 1), (S, 1), (2, 1)], hand=1, clues=1)
    out = best_of(start, "search", False)
    assert out.status is Status.UNWINNABLE and out.stats["plans_dived"] == 0
    assert "can play at most 2 cards" in (out.reason or "")
    assert best_of(start, "brute", False).status is Status.UNWINNABLE
