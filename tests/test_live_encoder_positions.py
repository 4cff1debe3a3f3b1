"""The real-rules encodings (methods sat and cpsat) from any position of a game,
under hanab.live's end conditions and options, against brute force (the oracle):
random tiny decks and positions reached by random legal play, with untouchable
cards (a tiny Null-suit variant), empty clues, deck plays, speedrun and the first
player; every certificate replayed from its position; and completeness directly:
every legal game from a position is a solution of both models with its score."""

from __future__ import annotations

import random

import pytest

from hanabi_cp.core.errors import HanabiError
from hanabi_cp.apps.generators import standard_deck
from hanabi_cp.real.hint import greedy_game
from hanabi_cp.real.referee import EndCondition, Game, replay
from hanabi_cp.real.rules import Rules
from hanabi_cp.real.encoders.schedule import from_actions, to_actions
from hanabi_cp.real.solve import live_methods, solve_live, solve_position
from hanabi_cp.core.model import Deck
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.status import Status
from live_cases import (NULL_B, TinyVariant, assert_encodings_accept, random_case, random_games,
                        random_position)

METHODS = ("cpsat", "sat")
MAX = SolveOptions(maximize=True)


def check_position(start: Game, what: str) -> None:
    """Both encodings decide and maximize ``start`` as brute force does; their
    games replay from ``start`` to the score they claim."""
    best = solve_position(start, "brute", MAX)
    for method in METHODS:
        where = f"{method} {what}"
        decided = solve_position(start, method)
        assert decided.status is best.status, where
        out = solve_position(start, method, MAX)
        assert out.verified and out.score == best.score and out.status is best.status, where
        rep = replay(start.deck, start.rules, out.actions, start)
        assert rep.legal and rep.complete and rep.score == best.score, where
        if decided.status is Status.WINNABLE:
            assert replay(start.deck, start.rules, decided.actions, start).won, where


def sweep(seed: int, count: int, max_cards: int) -> dict[str, int]:
    """``count`` random tiny instances that are not over, 40% from the deal and the
    rest from a random position; returns how many of each kind were checked."""
    rng = random.Random(seed)
    seen = {"deal": 0, "position": 0, "final round": 0, "untouchable": 0}
    while seen["deal"] + seen["position"] < count:
        deck, rules = random_case(rng, max_cards)
        start = Game.start(deck, rules) if rng.random() < 0.4 else \
            random_position(rng, deck, rules)
        if start.over:
            continue
        check_position(start, f"{deck.cards} (n={deck.n}, c={deck.c}) {rules!r} after "
                              f"turn {start.turn}: hands {start.hands}, piles {start.piles}")
        seen["position" if start.turn else "deal"] += 1
        seen["final round"] += start.end_turn is not None
        assert start.tables is not None
        seen["untouchable"] += not start.tables.all_touchable
    return seen


def test_equal_to_brute_force_from_random_positions():
    seen = sweep(seed=21, count=400, max_cards=8)
    assert seen["position"] > 150 and seen["deal"] > 100
    assert seen["final round"] > 50 and seen["untouchable"] > 50


@pytest.mark.slow
def test_equal_to_brute_force_from_thousands_of_positions():
    seen = sweep(seed=2100, count=5000, max_cards=10)
    assert seen["position"] > 2000 and seen["untouchable"] > 500


def canonical_runs(runs: list[int], rules: Rules) -> list[int]:
    """With unlimited tokens a run of more than p + 1 clues loses p of them at a
    time (encodings/live-cpsat.md, Lemma 2); only runs before the last draw (or
    without the final round) are that long."""
    if rules.clues is not None:
        return runs
    p = rules.players
    return [r if r <= p + 1 else (r - 1) % p + 1 for r in runs]


def check_games_are_solutions(seed: int, count: int) -> dict[str, int]:
    """Completeness, directly: a random complete game from a random position that
    ends normally (not by strikes or a failed speedrun), read as slots, fates and
    runs, satisfies both maximize models with its score, and both decision models
    when it wins.  Returns the games checked per way they ended."""
    rng = random.Random(seed)
    causes: dict[str, int] = {}
    for _ in range(count):
        deck, rules = random_case(rng, 8)
        start = random_position(rng, deck, rules)
        if start.over:
            continue
        for acts, g in random_games(rng, start, 2):
            if g.condition is not EndCondition.NORMAL:
                continue
            order, fates, runs = from_actions(start, acts)
            runs = canonical_runs(runs, rules)
            rep = replay(deck, rules, to_actions(start, order, fates, runs), start)
            assert rep.legal and rep.complete and rep.score == g.score
            assert_encodings_accept(start, order, fates, runs, g.score, g.won,
                                    (deck.cards, rules, start.turn, [str(a) for a in acts]))
            causes[g.cause] = causes.get(g.cause, 0) + 1
    return causes


def test_every_legal_game_from_a_position_is_a_solution_of_both_models():
    causes = check_games_are_solutions(seed=8, count=150)
    # every normal end of the referee is among them, the early ones included
    assert set(causes) == {"every pile is complete", "the final round is over",
                           "the score reached the best score still reachable",
                           "no card still needed can be played",
                           "the player to move has no legal move"}, causes


@pytest.mark.slow
def test_every_legal_game_from_thousands_of_positions_is_a_solution():
    assert sum(check_games_are_solutions(seed=800, count=2000).values()) > 2000


D = Deck.of
EARLY_ENDS = [
    # no token ever: every move is a play.  After 2:1, 2:1 (two strikes) and 1:1 the
    # score is the best still reachable (both 2s lost) and the game ends at 1; played
    # on, the last 1:1 would be the third strike.
    (D([(2, 1), (2, 1), (1, 1), (1, 1)]), Rules(2, 1, clues=0, strikes=3), 1),
    # in the final round nothing still needed can be played by a player with a turn
    # left, and the game ends at 2; played on, a forced misplay strikes out
    (D([(2, 2), (1, 1), (3, 1), (2, 1), (3, 2), (1, 1)], n=3, c=2),
     Rules(3, 2, clues=0, strikes=2), 2),
    # the same without the final round: the game ends at the best still reachable
    (D([(2, 1), (1, 1), (2, 2), (1, 2), (1, 2)]),
     Rules(2, 1, clues=0, strikes=3, final_round=False), 2),
]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("deck,rules,best", EARLY_ENDS)
def test_early_ends_count_their_score(method, deck, rules, best):
    assert solve_live(deck, rules, "brute", MAX).score == best
    out = solve_live(deck, rules, method, MAX)
    assert out.verified and out.score == best


NULL_DECK = D([(1, 1), (2, 1), (2, 2), (1, 2)])
OPTION_CASES = [
    # color 2 cannot be clued: player 0 cannot hand the turn over to wait for 1:2
    (NULL_DECK, Rules(2, 1, clues=1, strikes=3, final_round=False), 4),
    (NULL_DECK, Rules(2, 1, clues=1, strikes=3, final_round=False, variant=NULL_B), 3),
    # ... unless a clue need not touch a card
    (NULL_DECK, Rules(2, 1, clues=1, strikes=3, final_round=False, variant=NULL_B,
                      empty_clues=True), 4),
    (NULL_DECK, Rules(2, 1, clues=1, strikes=3, final_round=False,
                      variant=TinyVariant(null=frozenset({1}), always=(False, True))), 4),
    # the last card played from the deck wins (a deck play)
    (D([(2, 1), (1, 1), (1, 1)]), Rules(2, 1, clues=0, strikes=2), 1),
    (D([(2, 1), (1, 1), (1, 1)]), Rules(2, 1, clues=0, strikes=2, deck_plays=True), 2),
    # player 1 moves first and plays 1:1 at once
    (D([(2, 1), (1, 1), (3, 1)]), Rules(2, 1, clues=0, strikes=1, first_player=1), 3),
    # player 0 must misplay the only 2:1 first: 1 point, but a failed speedrun
    (D([(2, 1), (1, 1)]), Rules(2, 1, clues=0, strikes=2), 1),
    (D([(2, 1), (1, 1)]), Rules(2, 1, clues=0, strikes=2, speedrun=True), 0),
]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("deck,rules,best", OPTION_CASES)
def test_options_and_untouchable_cards(method, deck, rules, best):
    assert solve_live(deck, rules, "brute", MAX).score == best
    assert (solve_live(deck, rules, method).status is Status.WINNABLE) == (best == deck.target)
    out = solve_live(deck, rules, method, MAX)
    assert out.verified and out.score == best


@pytest.mark.parametrize("method", METHODS)
def test_all_or_nothing_is_refused_in_one_line_and_auto_searches(method):
    rules = Rules(2, 1, all_or_nothing=True)
    start = Game.start(D([(1, 1), (2, 1), (3, 1)]), rules)
    why = live_methods()[method].refuses(start)
    assert why is not None and "all or nothing" in why and "\n" not in why
    with pytest.raises(HanabiError, match=r"^real-rules method .* does not apply: all or nothing"):
        solve_position(start, method)
    assert solve_position(start, "auto").method in ("search", "brute")


@pytest.mark.parametrize("method", METHODS)
def test_positions_are_not_refused(method):
    g = Game.start(standard_deck(3), Rules.for_players(3))
    for act in greedy_game(g)[:20]:
        g.apply(act)
    assert live_methods()[method].refuses(g) is None


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_standard_deck_positions_agree_with_search(players):
    """Positions of the greedy game on shuffled standard decks (before, at and after
    the last draw): the same decision and best score as the exact search."""
    rules = Rules.for_players(players)
    for seed in range(3):
        deal = Game.start(standard_deck(seed), rules)
        game = greedy_game(deal)
        for cut in (len(game) // 2, len(game) - rules.players - 1, len(game) - 2):
            g = deal.copy()
            for act in game[:max(cut, 0)]:
                g.apply(act)
            want = solve_position(g, "search", MAX)
            for method in METHODS:
                assert solve_position(g, method).status is want.status, (seed, cut, method)
                assert solve_position(g, method, MAX).score == want.score, (seed, cut, method)
