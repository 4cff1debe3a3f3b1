"""The implied clauses of the real game's CNF (``real.encoders.cnf_implied``,
encodings/live-cnf.md §5): every complete legal game of a bot, from positions all
along it, is still a model (the clauses are implied, at full size; the tiny decks
of tests/test_live_encoders.py, where the counts bind, check it too), and the
count says something the skeleton's unit propagation does not see (it is not
vacuous)."""

from __future__ import annotations

import pytest
from pysat.solvers import Solver

from hanabi_cp.apps.generators import standard_deck
from hanabi_cp.players.game import play_game
from hanabi_cp.real.encoders.cnf import LiveCnf
from hanabi_cp.real.encoders.cnf_implied import FAMILIES
from hanabi_cp.real.encoders.schedule import from_actions
from hanabi_cp.real.referee import EndCondition, Game, replay
from hanabi_cp.real.rules import Rules
from hanabi_cp.solvers.sat_backend import sat_solve


def _accepts(start: Game, actions: list, score: int, won: bool) -> None:
    order, fates, runs = from_actions(start, actions)
    for maximize in (True, False) if won else (True,):
        enc = LiveCnf(start, maximize)
        ok, model, _ = sat_solve(enc.clauses, assumptions=enc.literals(order, fates, runs))
        assert ok, (start.turn, maximize)
        assert sum(x in set(model) for x in enc.played) == score


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bot_games_stay_models_from_every_fourth_position(players):
    """Completeness with the implied clauses built: the rest of a bot's complete game, as
    assumptions, is satisfiable from each position, with its score."""
    rules = Rules.for_players(players)
    checked = wins = 0
    for seed, strategy in ((players, "cheat"), (players + 10, "cheat"),
                           (players + 20, "recommendation")):
        deck = standard_deck(seed)
        actions = play_game(deck, rules, strategy, seed).actions
        end = replay(deck, rules, actions)
        if end.condition is not EndCondition.NORMAL:
            continue
        for k in range(0, len(actions), 4):
            start = Game.after(deck, rules, actions[:k])
            _accepts(start, actions[k:], end.score, end.won)
            checked += 1
        wins += end.won
    assert checked >= 10 and wins >= 1


def _propagates(enc: LiveCnf, assumptions: list[int]) -> bool:
    """Whether unit propagation of ``assumptions`` on ``enc`` reaches no conflict."""
    with Solver(name="cadical195", bootstrap_with=enc.clauses) as s:
        return s.propagate(assumptions=assumptions)[0]


def _with(families: tuple[str, ...], start: Game, maximize: bool = False) -> LiveCnf:
    default = LiveCnf.implied
    LiveCnf.implied = families
    try:
        return LiveCnf(start, maximize)
    finally:
        LiveCnf.implied = default


def test_the_families_are_built_by_default():
    assert LiveCnf.implied == FAMILIES


def test_pace_refutes_more_plays_than_slots_by_propagation():
    """Five values still to play in the last four slots: the pace counter says no
    at once, the skeleton only after a search."""
    start = Game.start(standard_deck(3), Rules.for_players(3))
    for families, refuted in (((), False), (("pace",), True)):
        enc = _with(families, start)
        k = enc.lay.slots - 4
        fives = [-enc.reached[(5, c)][k] for c in range(1, 6)]
        assert _propagates(enc, fives) is not refuted


def test_a_deferred_cnf_gets_the_same_clauses_later():
    start = Game.start(standard_deck(3), Rules.for_players(3))
    whole, deferred = LiveCnf(start), LiveCnf(start, defer_implied=True)
    assert len(deferred.clauses) < len(whole.clauses)
    extra = deferred.add_implied()
    assert extra and deferred.clauses == whole.clauses and deferred.add_implied() == []


def test_sat_adds_the_deferred_clauses_only_when_the_greedy_game_is_no_model():
    """A won deal whose greedy game is a model never builds them; a lost deck gets
    them before the solver's real search."""
    from hanabi_cp.core.model import Deck
    from hanabi_cp.real.methods.sat import solve_hinted
    from hanabi_cp.runtime.deadline import NEVER
    won = Game.start(standard_deck(5), Rules.for_players(3))
    # player 0 must misplay the only 2:1 first
    lost = Game.start(Deck.of([(2, 1), (1, 1)]), Rules(2, 1, clues=0, strikes=2))
    for start, hint, answer in ((won, "greedy game extended", True),
                                (lost, "greedy game not a model", False)):
        enc = LiveCnf(start, defer_implied=True)
        stats: dict = {}
        ok, _ = solve_hinted(enc, enc.clauses, "cadical195", NEVER, stats)
        assert stats["hint"] == hint and ok is answer
        assert enc.implied_deferred is answer
        assert ("implied_clauses" in stats) is not answer
