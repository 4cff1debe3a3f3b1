"""hanab.live's end conditions and options in the referee, one test each, against
hand-worked games (server/src/game.go ``CheckEnd`` is the reference)."""

from __future__ import annotations

import pytest

from hanabi_cp.real.actions import Action, Kind
from hanabi_cp.real.referee import EndCondition, Game, IllegalMove, replay
from hanabi_cp.real.rules import Rules
from hanabi_cp.real.variants.catalogue import variant
from hanabi_cp.core.model import Deck

P, D = Action.play, Action.discard


def test_strikeout_scores_zero():
    deck = Deck.of([(2, 1), (1, 1), (2, 1), (1, 1), (1, 1), (1, 1)], n=2)
    g = Game.after(deck, Rules.for_players(2, hand_size=2, strikes=1), [P(0)])
    assert g.over and g.condition is EndCondition.STRIKEOUT and g.score == 0


def test_final_round_gives_each_player_one_more_turn():
    deck = Deck.of([(1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (3, 2)], n=3, c=2)
    g = Game.after(deck, Rules.for_players(2, hand_size=2), [P(0), P(2)])
    assert g.drawn == 6 and g.end_turn == 4 and not g.over
    g.apply(P(1))
    assert not g.over
    g.apply(P(3))
    assert g.over and g.cause == "the final round is over" and g.score == 4


def test_score_equal_to_the_best_still_reachable_ends_the_game():
    # 2:1's only copy is discarded while 1:1 is on its pile: nothing more can score.
    deck = Deck.of([(1, 1), (2, 1), (1, 1), (1, 1), (1, 1), (1, 1)], n=2)
    g = Game.after(deck, Rules.for_players(2, hand_size=2, clues=1),
                   [P(0), Action.rank_clue(0, 2), D(1)])
    assert g.over and g.condition is EndCondition.NORMAL and g.score == 1
    assert g.cause == "the score reached the best score still reachable"
    assert g.max_reachable == 1 and not g.won


def test_a_won_game_ends_at_once():
    deck = Deck.of([(1, 1), (2, 1), (1, 1), (1, 1), (1, 1), (1, 1)], n=2)
    rep = replay(deck, Rules.for_players(2, hand_size=2), [P(0), Action.rank_clue(0, 2), P(1)])
    assert rep.complete and rep.won and rep.cause == "every pile is complete"


def test_nothing_playable_in_the_final_round_ends_the_game():
    # 4 players of 1 card; Alice's play at turn 0 draws the last card, so each player
    # has one more turn.  Bob holds the only 2:1 and clues instead of playing it: his
    # last turn is over, hanab.live marks his card unplayable, and nothing still needed
    # can be played.
    deck = Deck.of([(1, 1), (2, 1), (1, 1), (1, 1), (1, 1)], n=2)
    rules = Rules.for_players(4, hand_size=1)
    g = Game.after(deck, rules, [P(0)])
    assert g.end_turn == 5 and not g.over
    g.apply(Action.rank_clue(2, 1))
    assert g.over and g.cause == "no card still needed can be played"
    assert g.score == 1 and g.max_reachable == 2


# Player 1 holds the only 2:1 and discards it after a clue.
LOSE_2_1 = Deck.of([(1, 1), (1, 1), (2, 1), (1, 1), (1, 1), (1, 1)], n=2)


def test_speedrun_ends_with_zero_once_a_perfect_score_is_impossible():
    rules = Rules.for_players(2, hand_size=2, clues=1, speedrun=True)
    g = Game.after(LOSE_2_1, rules, [Action.rank_clue(1, 1), D(2)])
    assert g.over and g.condition is EndCondition.SPEEDRUN_FAIL and g.score == 0


def test_all_or_nothing_fails_with_zero_and_has_no_final_round():
    rules = Rules.for_players(2, hand_size=2, clues=1, all_or_nothing=True)
    g = Game.after(LOSE_2_1, rules, [Action.rank_clue(1, 1), D(2)])
    assert g.condition is EndCondition.ALL_OR_NOTHING_FAIL and g.score == 0
    deck = Deck.of([(1, 1), (1, 2), (2, 1), (2, 2)])
    g = Game.after(deck, Rules.for_players(2, hand_size=2, all_or_nothing=True), [])
    assert g.end_turn is None                        # the deal emptied the deck
    for act in [P(0), P(2), P(1), P(3)]:
        g.apply(act)
    assert g.won and g.turn == 4


def test_all_or_nothing_softlock_scores_zero():
    # Player 1 is dealt nothing and no token is left: hanab.live's softlock.
    deck = Deck.of([(1, 1), (2, 1)], n=2)
    g = Game.after(deck, Rules.for_players(2, hand_size=2, clues=0, all_or_nothing=True), [P(0)])
    assert g.condition is EndCondition.ALL_OR_NOTHING_SOFTLOCK and g.score == 0


@pytest.mark.parametrize("action, condition", [
    (Action(Kind.END_GAME, 0, 4), EndCondition.TERMINATED),
    (Action(Kind.END_GAME, -1, 6), EndCondition.IDLE_TIMEOUT),
    (Action(Kind.END_GAME, 1, 3), EndCondition.TIMEOUT),
    (Action(Kind.END_GAME_BY_VOTE, -1, 10), EndCondition.TERMINATED_BY_VOTE),
])
def test_termination_and_vote_score_zero(action, condition):
    deck = Deck.of([(1, 1), (2, 1), (1, 1), (1, 1), (1, 1), (1, 1)], n=2)
    rep = replay(deck, Rules.for_players(2, hand_size=2), [P(0), action])
    assert rep.legal and rep.complete and rep.score == 0 and rep.condition is condition
    assert "end condition" not in replay(deck, Rules.for_players(2, hand_size=2),
                                         [action]).end_text


def test_end_of_game_with_an_unknown_condition_is_illegal():
    deck = Deck.of([(1, 1), (2, 1)], n=2)
    rep = replay(deck, Rules.for_players(2, hand_size=1), [Action(Kind.END_GAME, 0, 2)])
    assert not rep.legal and "end conditions 3, 4, 6, 8" in rep.error


def test_starting_player_moves_first():
    deck = Deck.of([(2, 1), (1, 1), (1, 1), (1, 1)], n=2)
    rules = Rules.for_players(2, hand_size=1, first_player=1)
    g = Game.start(deck, rules)
    assert g.player == 1
    g.apply(P(1))
    assert g.player == 0 and g.piles == [1]


def test_deck_plays_take_the_last_card_only_with_the_option():
    deck = Deck.of([(1, 1), (1, 2), (2, 1), (2, 2), (3, 1)], n=3, c=2)
    rules = Rules.for_players(2, hand_size=2)
    with pytest.raises(IllegalMove, match="does not hold"):
        Game.start(deck, rules).apply(P(4))
    g = Game.start(deck, Rules.for_players(2, hand_size=2, deck_plays=True))
    assert Action.play(4) in list(g.legal_actions())
    g.apply(P(4))                           # 3:1 from the deck: a strike, the deck is empty
    assert g.strikes == 1 and g.drawn == 5 and g.end_turn == 3 and g.hands[0] == [0, 1]


def test_empty_clues_need_the_option():
    deck = Deck.of([(1, 1), (1, 2), (2, 1), (2, 2)])
    clue = Action.rank_clue(1, 1)           # player 1 holds two 2s
    assert "touches no card" in replay(deck, Rules.for_players(2, hand_size=2), [clue]).error
    assert replay(deck, Rules.for_players(2, hand_size=2, empty_clues=True), [clue]).legal


def test_variant_clues_touch_as_hanab_live_says():
    v = variant("Rainbow (4 Suits)")        # Red, Green, Blue, Rainbow
    assert v.clue_colors == ("Red", "Green", "Blue")
    deck = Deck.of([(1, 1), (2, 2), (3, 4), (1, 4)], n=3, c=4)   # player 1: rainbow cards
    rules = Rules.for_players(2, hand_size=2, variant=v)
    assert replay(deck, rules, [Action.color_clue(1, 0)]).legal         # red touches rainbow
    assert "no color clue 3" in replay(deck, rules, [Action.color_clue(1, 3)]).error
    null = variant("Null (3 Suits)")        # Red, Blue, Null: null cards are touched by nothing
    deck = Deck.of([(1, 1), (2, 1), (1, 3), (2, 3)], n=2, c=3)
    g = Game.start(deck, Rules.for_players(2, hand_size=2, clues=8, variant=null))
    assert not g.cluable(1)
    assert all(not a.is_clue for a in g.legal_actions())


def test_a_deck_that_does_not_fit_the_variant_is_refused():
    from hanabi_cp.real.rules import RulesError
    deck = Deck.of([(1, 1), (1, 4)], n=1, c=4)
    with pytest.raises(RulesError, match="does not fit the variant 'Rainbow \\(3 Suits\\)'"):
        Game.start(deck, Rules.for_players(2, hand_size=1, variant=variant("Rainbow (3 Suits)")))


def test_without_early_ends_the_game_goes_on_to_the_final_round():
    # The Hanabi Learning Environment's rules: 2:1 lost, the game is not over.
    deck = Deck.of([(1, 1), (2, 1), (1, 1), (1, 1), (1, 1), (1, 1)], n=2)
    rules = Rules.for_players(2, hand_size=2, clues=1, early_ends=False)
    g = Game.after(deck, rules, [P(0), Action.rank_clue(0, 2), D(1)])
    assert not g.over and g.max_reachable == 1
    assert "no early end" in rules.describe()
