"""`solve --rules live` and `verify --rules live` through CliRunner, the game JSON
(reader errors with their lines, certificates that verify again), and the solitaire
default left as it was."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hanabi_cp.core.errors import InputError
from hanabi_cp.io import deck_to_text
from hanabi_cp.apps.generators import standard_deck
from hanabi_cp.real.actions import Action
from hanabi_cp.real.replay_io import parse_replay, read_replay, replay_json
from hanabi_cp.real.rules import Rules
from hanabi_cp.core.model import Deck
from test_cli import LOSE, WIN, run, s_line

DATA = Path(__file__).parent / "data"
GAME = DATA / "good_live_game.json"      # a hanab.live export: 2 players of 2 cards, won


def write_deck(tmp_path: Path, deck: Deck, name: str = "deck.txt") -> str:
    path = tmp_path / name
    path.write_text(deck_to_text(deck))
    return str(path)


def c_line(stdout: str, prefix: str) -> str:
    (line,) = [l for l in stdout.splitlines() if l.startswith(prefix)]
    return line


def test_solve_live_winnable_writes_a_game_that_verifies(tmp_path):
    cert = tmp_path / "game.json"
    res = run(["solve", WIN, "--rules", "live", "--players", 3, "--certificate", cert])
    assert res.exit_code == 10, res.output
    out = res.stdout.splitlines()
    assert out[0] == "c method: search (auto)"
    assert out[2] == ("c rules: 3 players, 5 cards each, 8 clues, 3 strikes "
                      "(hanab.live No Variant, open hands)")
    assert s_line(res.stdout) == "s WINNABLE"
    assert c_line(res.stdout, "c certificate verified").startswith(
        "c certificate verified by the referee (a complete game of")
    assert f"c certificate written to {cert} (hanab.live's JSON game format)" in out
    assert "c note" not in res.stdout          # a standard deck and rules: importable
    game = json.loads(cert.read_text())
    assert game["players"] == ["Alice", "Bob", "Cathy"] and "first_player" not in game
    assert game["options"] == {"variant": "No Variant"} and len(game["deck"]) == 50
    res = run(["verify", WIN, cert, "--rules", "live"])     # players from the file
    assert res.exit_code == 0, res.output
    assert s_line(res.stdout) == "s VERIFIED"
    assert "c score: 25 of 25 (won)" in res.stdout


def test_solve_live_unwinnable_with_reason_and_maximize(tmp_path):
    deck = write_deck(tmp_path, standard_deck(5))
    args = ["solve", deck, "--rules", "live", "--players", 2, "--hand-size", 4]
    res = run(args)
    assert res.exit_code == 20
    assert s_line(res.stdout) == "s UNWINNABLE"
    assert c_line(res.stdout, "c reason: ").startswith(
        "c reason: hand size: when card #23 (1:2) is drawn, 8 cards must be held")
    cert = tmp_path / "best.json"
    res = run(args + ["--maximize", "--certificate", cert])
    assert res.exit_code == 20
    assert "c score: 24 of 25" in res.stdout
    assert "c note" not in res.stdout          # hanab.live's "one less card"
    assert json.loads(cert.read_text())["options"] == {"variant": "No Variant",
                                                       "oneLessCard": True}
    res = run(["verify", deck, cert, "--rules", "live"])      # 2 players of 5 - 1 cards
    assert res.exit_code == 0 and "c score: 24 of 25\n" in res.stdout
    assert "c rules: 2 players, 4 cards each" in res.stdout


def test_solve_live_json_and_v_line(tmp_path):
    deck = Deck.of([(2, 2), (1, 1), (1, 2), (2, 1), (1, 1), (2, 2)])
    path = write_deck(tmp_path, deck)
    res = run(["solve", path, "--rules", "live", "--players", 2, "--hand-size", 2,
               "--clues", 1, "--strikes", 1, "--json", "--method", "brute"])
    assert res.exit_code == 10
    data = json.loads(res.stdout)
    assert data["status"] == "WINNABLE" and data["verified"] and data["method"] == "brute"
    assert data["rules"] == {"players": 2, "hand_size": 2, "clues": 1, "strikes": 1,
                             "final_round": True, "variant": "No Variant", "first_player": 0,
                             "end_rules": "hanab.live",
                             "options": []}
    res = run(["solve", path, "--rules", "live", "--players", 2, "--hand-size", 2,
               "--clues", "unlimited", "--certificate", "-"])
    assert res.exit_code == 10
    game = json.loads(c_line(res.stdout, "v ")[2:])
    assert "c rules: 2 players, 2 cards each, unlimited clues, 3 strikes" in res.stdout
    assert [Action.from_json(a) for a in game["actions"]][0] == Action.play(1)


def test_time_limit_gives_unknown(tmp_path):
    deck = write_deck(tmp_path, standard_deck(1653))     # seconds to decide with 6 players
    res = run(["solve", deck, "--rules", "live", "--players", 6, "--time-limit", 0.05,
               "--certificate", "-"])
    assert res.exit_code == 0
    assert s_line(res.stdout) == "s UNKNOWN"
    assert "c no certificate: undecided" in res.stdout


def test_verify_live_names_the_first_illegal_action(tmp_path):
    data = json.loads(GAME.read_text())
    data["actions"][2] = {"type": 1, "target": 0}       # discard at 8 of 8 tokens
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    res = run(["verify", GAME, bad, "--rules", "live", "--hand-size", 2])
    assert res.exit_code == 1
    assert s_line(res.stdout) == "s REJECTED"
    assert ("c reason: action #2: discard #0 (2:2): cannot discard with 8 of 8 clue tokens"
            in res.stdout)
    data["actions"] = data["actions"][:2]
    bad.write_text(json.dumps(data))
    res = run(["verify", GAME, bad, "--rules", "live", "--hand-size", 2, "--json"])
    assert res.exit_code == 1
    out = json.loads(res.stdout)
    assert out["legal"] and not out["complete"] and not out["verified"]
    assert out["error"] == "the game is not over after the last action (turn 2)"


def test_verify_live_reads_a_hanab_live_export():
    res = run(["verify", GAME, GAME, "--rules", "live", "--hand-size", 2])
    assert res.exit_code == 0, res.output
    assert s_line(res.stdout) == "s VERIFIED"
    assert "c turns: 4, strikes: 0" in res.stdout


@pytest.mark.parametrize("args, message", [
    (["solve", WIN, "--players", 3], "--players needs --rules live"),
    (["solve", WIN, "--rules", "live"], "--rules live needs --players P (2 to 6)"),
    (["solve", WIN, "--rules", "live", "--players", 2, "--hand", 2],
     "--hand is the solitaire hand size; with --rules live use --hand-size"),
    (["solve", WIN, "--rules", "live", "--players", 2, "--method", "greedy"],
     "unknown real-rules method 'greedy'; choose from auto, brute,"),
    (["solve", WIN, "--rules", "live", "--players", 2, "--method", "brute"],
     "real-rules method 'brute' does not apply: 50 cards: brute force visits every "
     "reachable state"),
    (["verify", WIN, str(GAME), "--rules", "live", "--players", 3],
     "the game has 2 players, but --players 3 was given"),
    (["verify", WIN, str(GAME), "--rules", "live"], "its deck is not DECK (6 cards against 50)"),
    (["verify", WIN, "PPP", "--strikes", 2], "--strikes needs --rules live"),
])
def test_live_option_errors_are_one_line(args, message):
    res = run(args)
    assert res.exit_code == 2
    assert res.stderr.startswith("hanabi-cp: error: ") and message in res.stderr
    assert res.stderr.count("\n") == 1


def test_clue_option_rejects_words():
    res = run(["solve", WIN, "--rules", "live", "--players", 2, "--clues", "many"])
    assert res.exit_code == 2
    assert "'many' is neither a number nor 'unlimited'" in res.stderr


def test_solitaire_stays_the_default():
    res = run(["solve", LOSE])
    assert res.exit_code == 20 and s_line(res.stdout) == "s UNWINNABLE"
    assert "hand size h = 2" in res.stdout and "c rules" not in res.stdout
    def untimed(out):     # the same answer; only the printed times may differ
        return [line for line in out.splitlines() if "time" not in line]
    assert untimed(run(["solve", LOSE, "--rules", "solitaire"]).stdout) == untimed(res.stdout)


BAD = {
    "bad_live_action_type.json":
        'bad_live_action_type.json:5: expected an action {"type": 0 play, 1 discard, 2 color '
        'clue, 3 rank clue (4 and 5: end of game), "target": an integer >= 0, "value": an '
        'integer >= 0 for a clue}, found {"type": 7, "target": 1, "value": 4}',
    "bad_live_action_shape.json":
        'bad_live_action_shape.json:4: expected an action {"type": 0 play, 1 discard, 2 color '
        'clue, 3 rank clue (4 and 5: end of game), "target": an integer >= 0, "value": an '
        'integer >= 0 for a clue}, found {"type": 1}',
    "bad_live_clue_value.json":
        'bad_live_clue_value.json:3: expected a clue with a "value" (an integer 0 to 99: a '
        'color index or a rank), found {"type": 2, "target": 1}',
    "bad_live_variant.json":
        "bad_live_variant.json:5: expected a variant hanab.live lists, found unknown variant "
        "'Rainbow (7 Suits)'; nearest: Rainbow (6 Suits), Rainbow (5 Suits), Rainbow (4 Suits)",
    "bad_live_option.json":
        'bad_live_option.json:5: expected no detrimental characters (hanabi-cp does not '
        'model them), found true',
    "bad_live_first_player.json":
        'bad_live_first_player.json:4: expected "first_player": a player index 0 to 1, '
        "found 2",
    "bad_live_players.json":
        'bad_live_players.json:2: expected "players": a non-empty list of player names, '
        "found 2",
    "bad_live_no_actions.json":
        'bad_live_no_actions.json:1: expected a list of actions or a JSON object with '
        '"actions" (a hanabi-cp certificate or a hanab.live game export), found an object '
        'with keys "players", "deck"',
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_game_files_name_their_line(name):
    with pytest.raises(InputError) as exc:
        read_replay(str(DATA / name))
    assert str(exc.value) == str(DATA / BAD[name])


def test_bad_game_file_through_the_cli():
    res = run(["verify", WIN, DATA / "bad_live_variant.json", "--rules", "live"])
    assert res.exit_code == 2
    assert res.stderr.strip() == "hanabi-cp: error: " + str(DATA / BAD["bad_live_variant.json"])


def test_game_json_round_trips():
    deck = standard_deck(2)
    rules = Rules.for_players(4, hand_size=5)      # one extra card
    actions = [Action.play(3), Action.discard(7), Action.color_clue(2, 4),
               Action.rank_clue(0, 5)]
    text = replay_json(deck, rules, actions)
    game = parse_replay(text)
    assert game.actions == actions and game.players == 4 and game.deck == deck
    assert game.options.hand_size_change == 1 and '"oneExtraCard": true' in text
    assert parse_replay(json.dumps([a.to_json() for a in actions])).actions == actions


def test_help_mentions_the_live_options():
    res = run(["solve", "--help"])
    for flag in ("--rules", "--players", "--hand-size", "--clues", "--strikes"):
        assert flag in res.stdout
    assert os.path.exists(WIN)


def test_verify_live_reads_a_bare_action_list(tmp_path):
    actions = json.loads(GAME.read_text())["actions"]
    bare = tmp_path / "actions.json"
    bare.write_text(json.dumps(actions))
    # the players (and options) of a game given as DECK
    res = run(["verify", GAME, bare, "--rules", "live", "--hand-size", 2])
    assert res.exit_code == 0 and s_line(res.stdout) == "s VERIFIED"
    plain = write_deck(tmp_path, read_replay(str(GAME)).deck)
    res = run(["verify", plain, bare, "--rules", "live", "--hand-size", 2])
    assert res.exit_code == 2 and "--rules live needs --players P" in res.stderr
    res = run(["verify", plain, bare, "--rules", "live", "--players", 2, "--hand-size", 2])
    assert res.exit_code == 0 and s_line(res.stdout) == "s VERIFIED"
    res = run(["verify", "-", "-", "--rules", "live", "--players", 2])
    assert res.exit_code == 2 and "cannot both be `-`" in res.stderr
