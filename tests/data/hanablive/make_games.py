"""Re-create the games of this folder (run from the repository's root):

    .venv/bin/python tests/data/hanablive/make_games.py

Each file has the shape of a game hanab.live exports ("id", "players", "deck",
"actions" with a "value" on every action, "options", "notes"), with games played
here by hanabi-cp's own players (a strategy, or the greedy player of
``real.hint`` in variants whose clues the strategies cannot read), so that they
can be bundled under this project's license.  ``expected.json`` records what
hanabi-cp's referee says of each (score, end condition, turns, strikes): the
tests read each file through the CLI and compare.
"""

from __future__ import annotations

import json
import os

from hanabi_cp.apps.generators import standard_deck, variant_deck
from hanabi_cp.real.actions import Action, Kind
from hanabi_cp.real.hint import _choose, greedy_game
from hanabi_cp.real.older_games import as_recorded
from hanabi_cp.real.referee import Game, replay
from hanabi_cp.real.replay_io import options_json
from hanabi_cp.real.rules import Rules
from hanabi_cp.real.variants.catalogue import variant
from hanabi_cp.players.game import play_game

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = ("Alice", "Bob", "Cathy", "Donald", "Emily", "Frank")


def export(game_id, deck, rules, actions, notes=True) -> dict:
    """A game in hanab.live's export shape (plays and discards carry "value": 0; Up
    or Down's START cards are rank 7)."""
    rank = int if rules.variant is None else rules.variant.live_rank
    out = {"id": game_id, "players": list(NAMES[:rules.players]),
           "deck": [{"suitIndex": k - 1, "rank": rank(a)} for a, k in deck.cards],
           "actions": [{"type": int(a.kind), "target": a.target,
                        "value": 0 if a.value is None else a.value} for a in actions],
           "options": options_json(rules)}
    if notes:
        out["notes"] = [[] for _ in range(rules.players)]
    return out


def games():
    deck = standard_deck(101)
    rules = Rules.for_players(5)
    yield "no_variant_5p", export(1001, deck, rules,
                                  play_game(deck, rules, "recommendation", 1).actions)

    v = variant("Rainbow-Ones & Pink (5 Suits)")
    deck = variant_deck(102, v.deck_cards(), 5, 5)
    rules = Rules.for_players(3, variant=v)
    yield "rainbow_ones_and_pink_3p", export(1002, deck, rules, greedy_game(Game.start(deck, rules)))

    v = variant("Omni-Ones & White (6 Suits)")
    deck = variant_deck(103, v.deck_cards(), 5, 6)
    rules = Rules.for_players(2, variant=v, first_player=1, deck_plays=True, empty_clues=True)
    yield "omni_ones_and_white_2p_options", export(1003, deck, rules, with_options(deck, rules))

    v = variant("Null (4 Suits)")
    deck = variant_deck(104, v.deck_cards(), 5, 4)
    rules = Rules.for_players(4, hand_size=5, variant=v)       # one extra card
    yield "null_4p_one_extra_card", export(1004, deck, rules, greedy_game(Game.start(deck, rules)))

    deck = standard_deck(105)
    rules = Rules.for_players(3)
    actions = list(play_game(deck, rules, "information", 5).actions[:20])
    yield "terminated_3p", export(1005, deck, rules, actions + [Action(Kind.END_GAME, 1, 4)])
    yield "ended_by_vote_3p", export(1006, deck, rules,
                                     actions + [Action(Kind.END_GAME_BY_VOTE, -1, 10)])
    yield "no_variant_4p_before_2019", before_2019()

    v = variant("Scarce Ones & Black (6 Suits)")       # hanab.live, March 2026
    deck = variant_deck(108, v.deck_cards(), 5, 6)
    rules = Rules.for_players(4, variant=v)
    yield "scarce_ones_and_black_4p", export(1008, deck, rules,
                                             play_game(deck, rules, "information", 8).actions)

    # the piles choose their order in play (encodings/variants.md, 8): the greedy player
    for game_id, name, players, file in ((1009, "Up or Down (5 Suits)", 3, "up_or_down_3p"),
                                         (1010, "Up or Down & Black (6 Suits)", 2, "up_or_down_and_black_2p"),
                                         (1011, "Sudoku (5 Suits)", 4, "sudoku_4p"),
                                         (1012, "Sudoku (4 Suits)", 2, "sudoku_4_suits_2p")):
        v = variant(name)
        deck = variant_deck(game_id, v.model_cards(), v.deck_n, len(v.suits))
        rules = Rules.for_players(players, variant=v)
        yield file, export(game_id, deck, rules, greedy_game(Game.start(deck, rules)))


def before_2019() -> dict:
    """A game played as hanab.live played before 14 February 2019: in the final round
    the players went on after no card still needed could be played (today's rules end
    it after action #58; hanab.live kept the game, score 22, as recorded)."""
    deck = standard_deck(13)
    older = Rules.for_players(4, last_turn_unplayable=False)
    return export(1007, deck, older, play_game(deck, older, "recommendation", 1).actions)


def with_options(deck, rules) -> list[Action]:
    """The greedy player's game, but its first clue touches nothing (empty clues) and
    the last card of the deck is played from the deck (deck plays)."""
    g, out, in_row, empty_done = Game.start(deck, rules), [], 0, False
    while not g.over:
        act = _choose(g, in_row >= rules.players)
        if act.is_clue and not empty_done:
            held = {deck.cards[o].value for o in g.hands[act.target]}
            act = Action.rank_clue(act.target, min(set(range(1, 6)) - held))
            empty_done = True
        if g.deck_play() is not None:
            act = Action.play(deck.N - 1)
        g.apply(act)
        out.append(act)
        in_row = in_row + 1 if act.is_clue else 0
    return out


def main() -> None:
    expected = {}
    for name, data in games():
        path = os.path.join(HERE, name + ".json")
        with open(path, "w") as fh:
            json.dump(data, fh, indent=1)
            fh.write("\n")
        from hanabi_cp.real.replay_io import read_replay
        game = read_replay(path)
        rules = as_recorded(game.deck, game.options.rules(game.players), game.actions).rules
        rep = replay(game.deck, rules, game.actions)
        assert rep.legal and rep.complete, (name, rep.error)
        expected[name] = {"score": rep.score, "end_condition": int(rep.condition),
                          "turns": rep.turns, "strikes": rep.strikes,
                          "variant": rules.variant_name}
    with open(os.path.join(HERE, "expected.json"), "w") as fh:
        json.dump(expected, fh, indent=1, sort_keys=True)
        fh.write("\n")


if __name__ == "__main__":
    main()
