"""Players on odd decks: every strategy plays a legal, complete game on every deal the
tool accepts, or refuses it before the first move with a HanabiError (one line).

Odd deals are where the hat codes' arithmetic breaks: a 1-card deck (most hands
empty), hands of 100, decks lacking kinds, fewer cards than seats, no clue tokens at
all, no final round.  The property runs every registered strategy on random small
decks and rule sets (the fast tier a few hundred, ``--runslow`` twenty times as many
from a fresh seed) and replays each game with the referee.
"""

from __future__ import annotations

import os
import random

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from hanabi_cp.cli import main
from hanabi_cp.core.errors import HanabiError
from hanabi_cp.real.referee import replay
from hanabi_cp.real.rules import Rules
from hanabi_cp.core.model import Card, Deck
from hanabi_cp.players.game import play_game
from hanabi_cp.players.strategy import strategies

STRATEGIES = strategies()
SLOW_SEED = int(os.environ.get("HANABI_FUZZ_SEED", random.randrange(2**32)))


@st.composite
def deals(draw):
    n, c = draw(st.integers(1, 7)), draw(st.integers(1, 6))
    kinds = [Card(a, k) for a in range(1, n + 1) for k in range(1, c + 1)]
    cards = draw(st.lists(st.sampled_from(kinds), min_size=1, max_size=40))
    players = draw(st.integers(2, 6))
    hand = draw(st.one_of(st.integers(1, 6), st.integers(7, 100)))
    clues = draw(st.one_of(st.none(), st.integers(0, 10)))
    rules = Rules(players, hand, clues, draw(st.integers(1, 3)), draw(st.booleans()))
    return Deck(tuple(cards), n, c), rules, draw(st.integers(0, 2**31))


def plays_or_refuses(deal) -> None:
    deck, rules, game_seed = deal
    for name, cls in STRATEGIES.items():
        if not cls.min_players <= rules.players <= cls.max_players:
            continue
        try:
            game = play_game(deck, rules, cls, game_seed)
        except HanabiError as exc:     # refused up front: the game has not started
            assert "\n" not in str(exc), (name, str(exc))
            continue
        rep = replay(deck, rules, game.actions)
        assert rep.legal and rep.complete, (name, deck, rules, rep.error)
        assert (rep.score, rep.strikes) == (game.score, game.strikes), (name, deck, rules)


def run(examples: int, slow: bool) -> None:
    config = settings(max_examples=examples, deadline=None, database=None,
                      derandomize=not slow, suppress_health_check=list(HealthCheck))
    test = config(given(deals())(plays_or_refuses))
    if slow:
        print(f"strategy seed: {SLOW_SEED} (replay with HANABI_FUZZ_SEED={SLOW_SEED})")
        test = seed(SLOW_SEED)(test)
    test()


def test_every_strategy_on_random_small_deals():
    run(300, slow=False)


@pytest.mark.slow
def test_every_strategy_on_many_random_small_deals():
    run(6000, slow=True)


@pytest.mark.parametrize("deck,rules", [
    (Deck((Card(1, 1),), 1, 1), Rules(4, 5, 8, 3)),                    # one card, four seats
    (Deck((Card(1, 1),), 1, 1), Rules(2, 100, 8, 3)),
    (Deck((Card(2, 2), Card(1, 1)), 2, 2), Rules(6, 100, 8, 1, final_round=False)),
    (Deck(tuple(Card(a, k) for a in (1, 2) for k in (1, 2)) * 2, 2, 2), Rules(3, 1, 0, 2)),
    (Deck((Card(1, 3), Card(3, 3), Card(2, 1)), 5, 3), Rules(6, 10, 8, 3, final_round=False)),
])
def test_the_deals_that_crashed_every_strategy(deck, rules):
    plays_or_refuses((deck, rules, 0))


def test_unlimited_clue_tokens_are_refused_before_the_first_move():
    deck = Deck(tuple(Card(a, 1) for a in (1, 2, 3)), 3, 1)
    for name, cls in STRATEGIES.items():
        with pytest.raises(HanabiError, match="needs a limited number of clue tokens"):
            play_game(deck, Rules(2, 2, None, 3), cls)


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_the_cli_plays_a_one_card_deck_with_hands_of_100(tmp_path, strategy):
    deck = tmp_path / "one.txt"
    deck.write_text("1r\n")
    res = CliRunner().invoke(main, ["play", str(deck), "--strategy", strategy, "--players", "4",
                                    "--hand-size", "100", "--replay", str(tmp_path / "g.json")])
    assert res.exit_code == 0, res.output
    assert "score 1" in res.output and (tmp_path / "g.json").exists()
