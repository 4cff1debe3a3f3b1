"""Games of DeepMind's Hanabi Learning Environment (HLE) in our form.

The conversion itself (colours, clue targets, hand slots, the file's end-rules key)
is tested on hand-built games without HLE; the tests that run HLE's own games are
skipped, with the reason, where HLE is not installed (``.ci/run`` and ``make test``
install it: the ``hle`` extra)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace

import pytest
from click.testing import CliRunner

from hanabi_cp.cli.main import main
from hanabi_cp.core.errors import InputError
from hanabi_cp.interop import hle
from hanabi_cp.real.actions import Action
from hanabi_cp.real.referee import Game
from hanabi_cp.real.replay_io import parse_replay, replay_json
from hanabi_cp.real.rules import Rules

try:
    from hanabi_learning_environment import pyhanabi
    HAVE_HLE = pyhanabi.lib_loaded()
except ImportError:
    HAVE_HLE = False
needs_hle = pytest.mark.skipif(not HAVE_HLE, reason="the Hanabi Learning Environment is not "
                               "installed (pip install '.[hle]' from a clone)")

# HLE's standard deck, colour by colour (R Y G W B), lowest rank first.
FULL = [f"{c}{r + 1}" for c in "RYGWB" for r in range(5) for _ in range(hle.Params(2).copies(r))]


def built_deck(opening: list[str]) -> list[str]:
    """A deck dealing ``opening`` first, then the rest of the standard deck."""
    rest = list(FULL)
    for card in opening:
        rest.remove(card)
    return opening + rest


# ---- without HLE: the conversion on hand-built games ---------------------------

def test_colours_are_relabelled_onto_hanab_live_suits():
    # HLE's W is hanab.live's Purple (index 4) and its B their Blue (3)
    assert [hle.suit_of(c) for c in range(5)] == [0, 1, 2, 4, 3]
    assert all(hle.color_of(hle.suit_of(c)) == c for c in range(5))
    assert [hle.suit_of(c, 3) for c in range(3)] == [0, 1, 2]
    deck = hle.deck_of(built_deck(["W1", "B1", "R1"]), hle.Params(2))
    assert deck.cards[:3] == ((1, 5), (1, 4), (1, 1))


def test_clue_targets_colours_and_hand_slots_on_a_hand_built_game():
    cards = built_deck(["R1", "Y1", "G1", "W1", "B1",      # player 0: #0-4
                        "R2", "Y2", "G2", "W2", "B2",      # player 1: #5-9
                        "R3", "W3", "G3", "Y3", "B3"])     # player 2: #10-14
    moves = [{"action_type": "REVEAL_COLOR", "target_offset": 2, "color": "W"},  # 0 -> 2
             {"action_type": "REVEAL_RANK", "target_offset": 2, "rank": 0},      # 1 -> 0
             {"action_type": "PLAY", "card_index": 1},      # player 2's W3: misplayed
             {"action_type": "PLAY", "card_index": 3},      # player 0's W1
             {"action_type": "DISCARD", "card_index": 0},   # player 1's R2
             {"action_type": "PLAY", "card_index": 4}]      # player 2's newest card, #15
    game = hle.from_moves(cards, moves, players=3)
    assert game.actions == [Action.color_clue(2, 4), Action.rank_clue(0, 1), Action.play(11),
                            Action.play(3), Action.discard(5), Action.play(15)]
    rep = game.replay()
    assert rep.legal and not rep.complete and rep.strikes == 1
    g = Game.after(game.deck, game.rules, game.actions)
    # the slots: a played card leaves its slot, the new card is appended
    assert g.hands == [[0, 1, 2, 4, 16], [6, 7, 8, 9, 17], [10, 12, 13, 14, 18]]
    assert g.piles == [1, 0, 0, 0, 1]      # #15 is R1; W1 on hanab.live's Purple pile


def test_a_clue_offset_wraps_around_the_table():
    cards = built_deck(["R1", "R1", "R1", "R2", "Y1", "Y1", "Y1", "Y2",
                        "G1", "G1", "G1", "G2", "B1", "B1", "B1", "B2"])
    moves = [{"action_type": "REVEAL_RANK", "target_offset": 3, "rank": 1},    # 0 -> 3
             {"action_type": "REVEAL_COLOR", "target_offset": 3, "color": 0},  # 1 -> 0
             {"action_type": "REVEAL_COLOR", "target_offset": 1, "color": "B"}]  # 2 -> 3
    game = hle.from_moves(cards, moves, players=4)
    assert game.actions == [Action.rank_clue(3, 2), Action.color_clue(0, 0),
                            Action.color_clue(3, 3)]
    assert game.replay().legal
    with pytest.raises(hle.HLEError, match="target offset is 1 to 3"):
        hle.from_moves(cards, [{"action_type": "REVEAL_RANK", "target_offset": 4, "rank": 0}],
                       players=4)


def test_a_wrong_deck_and_a_bad_move_are_refused_in_one_line():
    with pytest.raises(hle.HLEError, match="not HLE's deck"):
        hle.from_moves(FULL[:-1], [], players=2)
    with pytest.raises(hle.HLEError, match="colour letter"):
        hle.from_moves(["X1"] + FULL[1:], [], players=2)
    with pytest.raises(hle.HLEError, match="action_type"):
        hle.from_moves(FULL, [{"action_type": "PASS"}], players=2)
    with pytest.raises(hle.HLEError, match="no card 7"):
        hle.from_moves(FULL, [{"action_type": "PLAY", "card_index": 7}], players=2)


def test_the_game_file_records_hle_end_rules_and_the_reader_honours_them():
    game = hle.from_moves(FULL, [{"action_type": "PLAY", "card_index": 0}], players=2)
    text = game.json()
    assert json.loads(text)["hanabi_cp"] == {"hand_size": 5, "clues": 8, "strikes": 3,
                                            "final_round": True, "end_rules": "hle"}
    back = parse_replay(text, "g.json")
    assert back.options.early_ends is False
    assert back.options.rules(2) == game.rules
    assert back.deck == game.deck and back.actions == game.actions
    # hanab.live's own games carry no key and keep its end rules
    plain = replay_json(game.deck, Rules.for_players(2), game.actions)
    del (data := json.loads(plain))["hanabi_cp"]
    assert parse_replay(json.dumps(data)).options.early_ends is True


@pytest.mark.parametrize("own, expected", [
    ('"hle"', 'a hanabi_cp key'),
    ('{"end_rules": "hle", "x": 1}', '"x"'),
    ('{"end_rules": "fast"}', '"fast"'),
])
def test_a_bad_hanabi_cp_key_is_an_error_naming_its_line(own, expected):
    text = '{"players": ["A", "B"],\n "actions": [],\n "hanabi_cp": ' + own + '}'
    with pytest.raises(InputError, match=r"g\.json:3:") as err:
        parse_replay(text, "g.json")
    if expected != 'a hanabi_cp key':
        assert expected in str(err.value)


def test_end_rules_flag_and_a_contradicting_file(tmp_path):
    # a game hanab.live ends early (no more points once the only 2 is lost), that
    # HLE plays on to the final round
    cards = built_deck(["R5", "Y5", "G5", "W5", "B5", "R4", "Y4", "G4", "W4", "B4"])
    moves = [{"action_type": "REVEAL_RANK", "target_offset": 1, "rank": 3},
             {"action_type": "PLAY", "card_index": 0}]
    game = hle.from_moves(cards, moves, players=2)
    path = tmp_path / "g.json"
    path.write_text(game.json())
    runner = CliRunner()
    res = runner.invoke(main, ["verify", str(path), str(path), "--rules", "live",
                               "--end-rules", "hanab.live"])
    assert res.exit_code == 2
    assert "follows hle's end rules, but --end-rules hanab.live was given" in res.output
    res = runner.invoke(main, ["verify", str(path), str(path), "--rules", "live", "--json"])
    assert json.loads(res.output)["rules"]["end_rules"] == "hle"


def test_hle_commands_refuse_in_one_line_without_hle(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "hanabi_learning_environment", None)
    runner = CliRunner()
    for args in (["hle", "play", "--out", str(tmp_path / "g")],
                 ["study", "hle", "--count", "1", "--csv", str(tmp_path / "s.csv")]):
        res = runner.invoke(main, args)
        assert res.exit_code == 2, res.output
        lines = res.output.strip().splitlines()
        assert len(lines) == 1 and "pip install '.[hle]'" in lines[0], res.output
    with pytest.raises(hle.HLEMissing, match=r"pip install '\.\[hle\]'"):
        hle.require()


def test_hanabi_cp_imports_and_converts_without_hle():
    code = ("import sys; sys.modules['hanabi_learning_environment'] = None\n"
            "import hanabi_cp as hc\n"
            "g = hc.hle.from_moves(['R1', 'R2', 'R1', 'R1'], [{'action_type': 'PLAY', "
            "'card_index': 0}] * 2, players=2, colors=1, ranks=2, hand_size=1)\n"
            "print(g.replay().score)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "2"


# ---- with HLE: its own games ---------------------------------------------------

def _random_game(players: int, seed: int, policy=None):
    """A finished HLE game of seed ``seed`` (a fresh HanabiGame): random legal moves,
    or ``policy(state)``.  Returns (game, state): the state needs its game alive."""
    game = pyhanabi.HanabiGame({"players": players, "seed": seed})
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.cur_player() == pyhanabi.CHANCE_PLAYER_ID:
            state.deal_random_card()
            continue
        moves = state.legal_moves()
        state.apply_move(policy(moves) if policy else rng.choice(moves))
    return game, state


def _patient(moves):
    """Never misplays: discard when allowed, else clue (the game draws every card)."""
    kinds = [m.type() for m in moves]
    for want in (pyhanabi.HanabiMoveType.DISCARD, pyhanabi.HanabiMoveType.REVEAL_RANK,
                 pyhanabi.HanabiMoveType.REVEAL_COLOR):
        if want in kinds:
            return moves[kinds.index(want)]
    return moves[0]


@needs_hle
@pytest.mark.parametrize("agent", ["random", "simple"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_agents_games_replay_under_our_referee_with_hles_score(agent, players):
    from hanabi_cp.interop.hle_agents import play_game
    for seed in range(3):
        played = play_game(agent, players, seed)
        rep = played.game.replay()
        assert rep.legal and rep.complete, rep.error
        assert rep.score == played.game.score
        assert played.game.rules.early_ends is False


@needs_hle
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_recovered_deck_equals_the_cards_hle_dealt(players):
    for seed in range(4):
        # a game that draws every card: HLE's own deal is the whole deck
        g, state = _random_game(players, seed, _patient)
        dealt, _, _ = hle.history_of(state)
        assert len(dealt) == 50
        game = hle.to_game(state)
        assert game.dealt == 50
        assert game.deck == hle.deck_of(dealt, game.params)
        # ... and replaying the seed gives the same deck
        assert hle.deck_from_seed(game.params) == dealt
        # a short game of the same seed: its undrawn cards from the seed are the same
        g2, short = _random_game(players, seed)
        converted = hle.to_game(short)
        assert converted.dealt < 50 and converted.deck == game.deck
        rep = converted.replay()
        assert rep.legal and rep.complete and rep.score == short.score()


@needs_hle
def test_a_second_game_of_one_hanabigame_is_refused_naming_the_fix():
    g = pyhanabi.HanabiGame({"players": 2, "seed": 3})
    rng = random.Random(0)
    for k in range(2):
        state = g.new_initial_state()
        while not state.is_terminal():
            if state.cur_player() == pyhanabi.CHANCE_PLAYER_ID:
                state.deal_random_card()
            else:
                state.apply_move(rng.choice(state.legal_moves()))
        if k == 0:
            assert hle.to_game(state).replay().score == state.score()
    with pytest.raises(hle.HLEError, match="fresh HanabiGame"):
        hle.to_game(state)
    # with the deck given (a fork's deck history), it converts
    dealt, _, _ = hle.history_of(state)
    rest = list(FULL)
    for color, rank in dealt:
        rest.remove(f"{'RYGWB'[color]}{rank + 1}")
    game = hle.to_game(state, deck=[f"{'RYGWB'[c]}{r + 1}" for c, r in dealt] + rest)
    assert game.replay().score == state.score()


@needs_hle
@pytest.mark.parametrize("players", [2, 3, 5])
def test_clue_targets_colours_and_slots_round_trip_on_hles_own_moves(players):
    """Every clue of HLE's games touches, in our form, exactly the slots HLE says it
    revealed; every play and discard moves the card HLE says it moved."""
    for seed in range(4):
        g, state = _random_game(players, seed)
        game = hle.to_game(state)
        ours = Game.start(game.deck, game.rules)
        actions = iter(game.actions)
        for item in state.move_history():
            move = item.move()
            kind = pyhanabi.HanabiMoveType(move.type()).name
            if kind == "DEAL":
                continue
            act = next(actions)
            if kind in ("PLAY", "DISCARD"):
                assert ours.hands[item.player()][move.card_index()] == act.target
                a, k = game.deck.cards[act.target]
                assert (a - 1, hle.color_of(k - 1)) == (item.rank(), item.color())
            else:
                hand = [game.deck.cards[o] for o in ours.hands[act.target]]
                if kind == "REVEAL_COLOR":
                    touched = [i for i, (_, k) in enumerate(hand) if k - 1 == act.value]
                else:
                    touched = [i for i, (a, _) in enumerate(hand) if a == act.value]
                assert touched == item.card_info_revealed()
                assert act.target == (item.player() + move.target_offset()) % players
            ours.apply(act)
        assert ours.over and ours.score == state.score()


@needs_hle
def test_the_bound_is_the_same_under_both_end_rules():
    from hanabi_cp.real.solve import solve_live
    from hanabi_cp.core.options import SolveOptions
    for players in (2, 4):
        for seed in range(3):
            g, state = _random_game(players, seed)
            game = hle.to_game(state)
            best = [solve_live(game.deck, rules, "search",
                               SolveOptions(time_limit=30, maximize=True)).score
                    for rules in (game.rules, replace(game.rules, early_ends=True))]
            assert best[0] == best[1] is not None


@needs_hle
def test_hle_play_then_verify_analyze_and_study(tmp_path):
    runner = CliRunner()
    out = tmp_path / "games"
    res = runner.invoke(main, ["hle", "play", "--agent", "random", "--players", "3",
                               "--games", "2", "--seed", "4", "--out", str(out),
                               "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "c seed: 4" in res.output
    rows = (out / "games.csv").read_text().splitlines()
    assert rows[0].startswith("game,seed,players,agent,hle_score") and len(rows) == 3
    path = out / "random-3p-seed4.json"
    res = runner.invoke(main, ["verify", str(path), str(path), "--rules", "live"])
    assert res.exit_code == 0 and "s VERIFIED" in res.output
    res = runner.invoke(main, ["analyze", str(out), "--csv", str(tmp_path / "pos.csv"),
                               "--no-progress"])
    assert res.exit_code == 0, res.output
    # never overwrite without --force
    res = runner.invoke(main, ["hle", "play", "--games", "2", "--seed", "4", "--agent",
                               "random", "--players", "3", "--out", str(out)])
    assert res.exit_code == 2 and "--force" in res.output
    res = runner.invoke(main, ["study", "hle", "--agents", "random,simple", "--players", "2",
                               "--count", "2", "--csv", str(tmp_path / "s.csv"),
                               "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "| 2 | simple | 2 |" in res.output and "**bound**" in res.output
