"""The recommendation strategy: legal games the referee replays, never the strike
that ends the game, and scores near the paper's at 5 players."""

from __future__ import annotations

import pytest

from hanabi_cp.real.referee import replay
from hanabi_cp.real.rules import Rules
from hanabi_cp.players.game import play_game, seeded_deck


def _games(players: int, count: int, strikes: int = 3):
    rules = Rules.for_players(players, strikes=strikes)
    for seed in range(count):
        deck = seeded_deck(seed)
        yield deck, rules, play_game(deck, rules, "recommendation", seed)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_games_are_legal_and_never_make_the_last_error(players):
    for deck, rules, game in _games(players, 60):
        rep = replay(deck, rules, game.actions)
        assert rep.legal and rep.complete, rep.error
        assert rep.score == game.score and game.strikes < rules.strikes


def test_five_players_score_near_the_paper_and_strike_twice_at_most():
    games = [g for _, _, g in _games(5, 300)]
    mean = sum(g.score for g in games) / len(games)
    assert max(g.strikes for g in games) == 2       # "frequently two errors, never a third"
    # 22.4 under hanab.live's rules (10^4 games; the paper's simulator lets a third
    # error through: docs/strategies/recommendation.md)
    assert 21.8 < mean < 23.0
    assert sum(g.score == 25 for g in games) >= 15


def test_the_games_depend_on_the_deck_only():
    a = [g.actions for _, _, g in _games(4, 5)]
    b = [g.actions for _, _, g in _games(4, 5)]
    assert a == b


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_ten_thousand_games_never_make_the_last_error(players):
    for deck, rules, game in _games(players, 10 ** 4):
        assert game.strikes < rules.strikes
        rep = replay(deck, rules, game.actions)
        assert rep.legal and rep.complete and rep.score == game.score
