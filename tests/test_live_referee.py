"""The real-rules referee against hand-worked games (hanab.live "No Variant")."""

import pytest

from hanabi_cp.real.actions import Action, Kind
from hanabi_cp.real.referee import Game, replay
from hanabi_cp.real.rules import Rules, RulesError
from hanabi_cp.core.model import Deck

P, D = Action.play, Action.discard


def test_hand_sizes_follow_hanab_live():
    assert [Rules.for_players(p).hand_size for p in range(2, 7)] == [5, 5, 4, 4, 3]
    with pytest.raises(RulesError):
        Rules.for_players(7)


def test_deal_and_draw_order():
    g = Game.start(Deck.of([(1, 1)] * 7), Rules.for_players(2, hand_size=3))
    assert g.hands == [[0, 1, 2], [3, 4, 5]] and g.drawn == 6
    g.apply(P(1))
    assert g.hands[0] == [0, 2, 6] and g.drawn == 7


def test_final_round_gives_every_player_one_more_turn():
    # 2 players, 1 card each; deck 1:1 1:2 | 2:1 2:2 3:1.  The last card (#4) is drawn on
    # turn 2, so turns 3 and 4 are the final round and the game ends before turn 5.
    deck = Deck.of([(1, 1), (1, 2), (2, 1), (2, 2), (3, 1)], n=3, c=2)
    rules = Rules.for_players(2, hand_size=1)
    acts = [P(0), P(1), P(2), P(3), P(4)]
    rep = replay(deck, rules, acts)
    assert rep.legal and rep.complete and rep.turns == 5 and rep.score == 5
    g = Game.start(deck, rules)
    for a in acts[:3]:
        g.apply(a)
    assert g.end_turn == 5 and not g.over


def test_deal_that_empties_the_deck_counts_as_turn_zero():
    # hanab.live sets the end when the deal draws the last card: p + 1 turns in all.
    deck = Deck.of([(1, 1), (2, 1), (3, 1), (4, 1)])
    rep = replay(deck, Rules.for_players(2, hand_size=2), [P(0), Action.rank_clue(0, 2), P(1)])
    assert rep.legal and rep.complete and rep.turns == 3 and rep.score == 2 and not rep.won


def test_discard_needs_a_missing_token_and_gives_one_back():
    deck = Deck.of([(1, 1), (2, 1), (2, 1), (1, 1), (3, 1), (3, 1)])
    rules = Rules.for_players(2, hand_size=2, clues=1)
    assert "cannot discard with 1 of 1" in replay(deck, rules, [D(0)]).error
    g = Game.start(deck, rules)
    g.apply(Action.rank_clue(1, 2))
    assert g.clues == 0 and g.can_discard() and not g.can_clue()
    g.apply(D(2))
    assert g.clues == 1


def test_clue_must_touch_a_card_of_another_player():
    deck = Deck.of([(1, 1), (2, 1), (3, 2), (4, 2), (5, 1)])
    rules = Rules.for_players(2, hand_size=2)
    assert replay(deck, rules, [Action.color_clue(1, 1)]).legal      # color 2 is in hand 1
    assert "touches no card" in replay(deck, rules, [Action.color_clue(1, 0)]).error
    assert "touches no card" in replay(deck, rules, [Action.rank_clue(1, 1)]).error
    assert "cannot clue player 0" in replay(deck, rules, [Action.rank_clue(0, 1)]).error
    assert "cannot clue with no clue tokens" in replay(
        deck, Rules.for_players(2, hand_size=2, clues=0), [Action.rank_clue(1, 3)]).error


def test_top_value_gives_a_token_back_below_the_maximum():
    deck = Deck.of([(1, 1), (1, 2), (2, 2), (2, 1)])
    rules = Rules.for_players(2, hand_size=1, clues=3)
    g = Game.start(deck, rules)
    g.apply(Action.rank_clue(1, 1))            # 3 -> 2 tokens
    g.apply(P(1))                               # 1:2, draws #2
    g.apply(P(0))                               # 1:1, draws #3, the last card
    assert g.clues == 2 and g.end_turn == 5
    g.apply(P(2))                               # 2:2 is the top value: a token back
    assert g.clues == 3 and g.piles == [1, 2]
    g.apply(P(3))
    assert g.over and g.won and g.clues == 3    # already at the maximum: no more


def test_strikes_end_the_game_with_score_zero():
    deck = Deck.of([(2, 1), (2, 1), (1, 1), (1, 1), (1, 1)])
    rules = Rules.for_players(2, hand_size=2, strikes=2)
    rep = replay(deck, rules, [P(0), P(2)])
    assert rep.legal and not rep.complete and rep.strikes == 1
    rep = replay(deck, rules, [P(0), P(2), P(4)])     # 1:1 again: the second strike
    assert rep.legal and rep.complete and rep.strikes == 2 and rep.score == 0
    assert "already over" in replay(deck, rules, [P(0), P(2), P(4), P(3)]).error


def test_win_ends_the_game_at_once():
    deck = Deck.of([(1, 1), (1, 2), (1, 1), (1, 2)])
    rules = Rules.for_players(2, hand_size=1)
    rep = replay(deck, rules, [P(0), P(1)])
    assert rep.won and rep.complete and rep.score == 2


def test_no_legal_move_ends_the_game():
    # Player 1 is dealt nothing and player 0 holds nothing after playing: no clue either.
    deck = Deck.of([(1, 1)])
    rep = replay(deck, Rules.for_players(2, hand_size=1), [P(0)])
    assert rep.complete and rep.won
    # Player 0 is dealt both cards; once 1:1 is played, player 1 (no card, no token)
    # cannot move although 2:1 is still to be played.
    deck = Deck.of([(2, 1), (1, 1)], n=2)
    g = Game.after(deck, Rules.for_players(2, hand_size=2, clues=0), [P(1)])
    assert g.over and g.score == 1 and g.cause == "the player to move has no legal move"


def test_the_game_ends_at_once_when_nothing_can_be_scored():
    # hanab.live ends a game whose score equals the best score still reachable: here
    # 1:1 is missing, so at the deal
    deck = Deck.of([(2, 1)], n=2)
    rep = replay(deck, Rules.for_players(2, hand_size=1), [])
    assert rep.complete and rep.score == 0 and not rep.won


def test_without_final_round_the_game_goes_on_until_every_hand_is_empty():
    deck = Deck.of([(1, 1), (1, 2), (2, 1), (2, 2), (3, 1)], n=3, c=2)
    rules = Rules.for_players(2, hand_size=2, final_round=False)
    g = Game.start(deck, rules)
    for _ in range(12):
        if g.over:
            break
        g.apply(next(iter(g.legal_actions())))
    assert g.over and not any(g.hands)


def test_legal_actions_are_all_legal_and_json_round_trips():
    deck = Deck.of([(1, 1), (2, 1), (1, 2), (2, 2), (1, 1), (2, 2)])
    g = Game.start(deck, Rules.for_players(2, hand_size=2, clues=1))
    acts = list(g.legal_actions())
    assert {a.kind for a in acts} == {Kind.PLAY, Kind.RANK_CLUE}
    for a in acts:
        assert Action.from_json(a.to_json()) == a
        assert replay(deck, g.rules, [a]).legal
