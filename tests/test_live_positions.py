"""The real-rules methods on tiny decks of hanab.live's variants, with its options, from
the deal and from positions reached by random legal play: every method that takes
the instance agrees with brute force, and every certificate replays from the position."""

from __future__ import annotations

import functools
import random

import pytest

from hanabi_cp.core.errors import InvalidParameter
from hanabi_cp.real.actions import Action
from hanabi_cp.real.referee import Game, replay
from hanabi_cp.real.rules import Rules
from hanabi_cp.real.solve import live_methods, solve_position
from hanabi_cp.real.variants.catalogue import all_variants
from hanabi_cp.core.model import Deck
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.status import Status

FAST = {"seed": 21, "count": 400}
SLOW = {"seed": 2021, "count": 4000}


@functools.cache
def three_suit_variants() -> list:
    """Supported variants of 3 suits: their special suit is the deck's third color.
    Those with the token and clue rules of tests/test_live_families.py are left to it
    (so that this sample stays the one it was)."""
    return [v for v in all_variants() if v.unsupported() is None and len(v.suits) == 3
            and v.clue_cost == 1 and v.top_gives_token and not v.discard_at_max
            and not v.alternating_clues]


def tiny_position(rng: random.Random) -> Game:
    """A tiny deck of a random 3-suit variant (or none), random options, and a
    position a few random legal moves after the deal."""
    while True:
        n, c = rng.randint(1, 3), rng.randint(1, 3)
        cards = [(a, k) for a in range(1, n + 1) for k in range(1, c + 1)
                 for _ in range(rng.randint(1, 2))]
        if len(cards) <= 8:
            break
    rng.shuffle(cards)
    deck = Deck.of(cards, n, c)
    variant = rng.choice(three_suit_variants()) if rng.random() < 0.8 else None
    flags = {name: rng.random() < 0.15 for name in
             ("deck_plays", "empty_clues", "speedrun", "all_or_nothing")}
    flags["early_ends"] = rng.random() < 0.85
    players = rng.randint(2, 3)
    rules = Rules(players, rng.randint(1, 2), rng.choice([0, 1, 2, None]), rng.randint(1, 3),
                  first_player=rng.randrange(players), variant=variant, **flags)
    g = Game.start(deck, rules)
    for _ in range(rng.randint(0, 4)):
        moves = list(g.legal_actions())
        if not moves:
            break
        g.apply(rng.choice(moves))
    return g


@functools.cache
def oracle(seed: int, count: int) -> list:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        g = tiny_position(rng)
        out.append((g, solve_position(g, "brute", SolveOptions(maximize=True))))
    return out


def check(name: str, sample: list) -> int:
    method, compared = live_methods()[name], 0
    for g, best in sample:
        if method.refuses(g) is not None:
            continue
        compared += 1
        for maximize in (False, True):
            got = solve_position(g, name, SolveOptions(maximize=maximize))
            where = (str(g.deck), g.rules, g.turn, maximize)
            assert got.status is best.status, where
            assert got.score == (best.score if maximize else None), where
            if got.actions is not None:
                rep = replay(g.deck, g.rules, got.actions, g)
                assert got.verified and rep.legal and rep.complete, where
                assert rep.score == (got.score if maximize else rep.score), where
    return compared


def test_the_positions_cover_variants_options_and_both_answers():
    sample = oracle(**FAST)
    assert {out.status for _, out in sample} == {Status.WINNABLE, Status.UNWINNABLE}
    assert sum(g.turn > 0 for g, _ in sample) > len(sample) // 2
    assert sum(g.rules.variant is not None for g, _ in sample) > len(sample) // 2
    assert any(not all(g.tables.touchable) for g, _ in sample)      # untouchable cards
    assert any(g.over for g, _ in sample)


@pytest.mark.parametrize("name", sorted(set(live_methods()) - {"brute"}))
def test_every_method_equals_brute_from_positions(name):
    sample = oracle(**FAST)
    compared = check(name, sample if name == "search" else sample[:80])
    assert compared > 0


def random_playout(rng: random.Random, g: Game) -> list | None:
    """A complete game from ``g`` by random legal actions (None if it runs long)."""
    g, out = g.copy(), []
    while not g.over and len(out) < 200:
        out.append(rng.choice(list(g.legal_actions())))
        g.apply(out[-1])
    return out if g.over else None


@pytest.mark.parametrize("name", ["sat", "cpsat"])
def test_the_encodings_started_from_a_game_find_the_best_score(name):
    # ``incumbent``: the game an earlier stage of ``auto`` found.  Whatever it scores
    # (a random game, brute force's best game), the encoding's best score is brute
    # force's; a random game may have a clue run longer than the encoding's cap (no
    # model extends it: the climb starts without it).
    rng, method, extended, missed, below = random.Random(4), live_methods()[name], 0, 0, 0
    for g, best in oracle(**FAST)[:150]:
        if method.refuses(g) is not None or g.over:
            continue
        for game in (random_playout(rng, g), best.actions):
            if game is None:
                continue
            got = solve_position(g, name, SolveOptions(maximize=True, incumbent=tuple(game)))
            where = (str(g.deck), g.rules, g.turn, [str(a) for a in game])
            assert got.status is best.status and got.score == best.score and got.verified, where
            started = got.stats.get("incumbent")
            extended += started == "extended"
            missed += started == "not a model"
            below += replay(g.deck, g.rules, game, g).score < best.score
    assert below >= 20 and (name == "cpsat" or (extended >= 100 and missed >= 5)), \
        (extended, missed, below)


def test_a_game_to_start_from_that_is_not_one_is_the_callers_mistake():
    g = next(g for g, _ in oracle(**FAST) if not g.over and live_methods()["sat"].refuses(g) is None)
    game = random_playout(random.Random(1), g)
    assert game
    bad = {"expected a sequence of actions": [5, "play #0", (str(a) for a in game),
                                              [*game[:-1], str(game[-1])]],
           "not a legal game from the position: action #0": [(Action.play(999), *game),
                                                             (Action.discard(-1),)],
           "the game stops before it is over": [game[:-1], ()]}
    for name in ("sat", "cpsat", "search", "auto"):
        for why, games in bad.items():
            for incumbent in games:
                with pytest.raises(InvalidParameter, match=f"^incumbent: {why}"):
                    solve_position(g, name, SolveOptions(maximize=True, time_limit=5,
                                                         incumbent=incumbent))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(set(live_methods()) - {"brute"}))
def test_every_method_equals_brute_from_thousands_more_positions(name):
    assert check(name, oracle(**SLOW)) > 0


def test_a_position_of_a_deal_with_a_lost_deck_reason_is_lost_by_that_reason():
    # A position is reached from its deal, so the deal's reason shows it lost too;
    # brute force agrees on every such position of the sample (and they exist).
    shown = 0
    for g, best in oracle(**FAST):
        if g.turn == 0 or g.over or live_methods()["search"].refuses(g) is not None:
            continue
        out = solve_position(g, "search")
        if (out.reason or "").startswith("the deal cannot be won"):
            shown += 1
            assert best.status is Status.UNWINNABLE, (str(g.deck), g.rules, g.turn)
    assert shown > 10


def test_the_positions_of_a_lost_standard_deal_are_lost_at_once():
    # 2 players, seed 431: a squeeze, then pace, shows the deal lost; before the deal's
    # reason spoke for its positions, those after 1..13 of the game's actions took
    # the search more than 10 s each.
    from bench.live_sweep import bot_game

    deck, rules, actions = bot_game(2, 431)
    for k in (1, 6, 13):
        g = Game.after(deck, rules, actions[:k])
        out = solve_position(g, "auto", SolveOptions(time_limit=10))
        assert out.status is Status.UNWINNABLE
        assert out.reason.startswith("the deal cannot be won, so no position"), out.reason
        assert out.stats["nodes"] < 1000
