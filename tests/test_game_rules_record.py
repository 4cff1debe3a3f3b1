"""Game files record every rule they were played under (issue 44 item 7): `play
--replay`, `solve --rules live --certificate` and HLE's games write them, `verify`
and `analyze` read them back exactly, and a flag that contradicts them is an error."""

from __future__ import annotations

import json
import os
import random

import pytest
from click.testing import CliRunner

from hanabi_cp.cli.main import main
from hanabi_cp.core.errors import InputError
from hanabi_cp.io.decks import read_deck_file
from hanabi_cp.apps.generators import standard_deck
from hanabi_cp.real.actions import Action
from hanabi_cp.real.postmortem.report import analyze
from hanabi_cp.real.replay_io import parse_replay, read_replay, replay_json
from hanabi_cp.real.rules import Rules
from hanabi_cp.real.variants.catalogue import variant

DECK = os.path.join(os.path.dirname(__file__), os.pardir, "instances",
                    "standard-winnable-h2.txt")


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def analysed(path) -> dict:
    res = run("analyze", path, "--json")
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def test_play_replay_then_analyze_uses_the_games_rules(tmp_path):
    g = tmp_path / "g.json"
    res = run("play", DECK, "--players", 3, "--hand-size", 2, "--strikes", 1, "--replay", g)
    assert res.exit_code == 0, res.output
    own = json.loads(g.read_text())["hanabi_cp"]
    assert own == {"hand_size": 2, "clues": 8, "strikes": 1, "final_round": True,
                   "end_rules": "hanab.live"}
    data = analysed(g)
    assert data["rules"] == "3 players, 2 cards each, 8 clues, 1 strikes"
    # the same post-mortem as the library's under those rules, not hanab.live's defaults
    game = read_replay(str(g))
    rules = Rules.for_players(3, hand_size=2, strikes=1)
    expected = analyze(read_deck_file(DECK).deck, rules, game.actions)
    assert [r["best"] for r in data["rows"]] == [r.best for r in expected.rows]
    assert data["final_score"] == expected.final_score
    res = run("verify", DECK, g, "--rules", "live")
    assert res.exit_code == 0 and "2 cards each, 8 clues, 1 strikes" in res.stdout


def test_solve_certificate_then_analyze_uses_the_games_rules(tmp_path):
    c = tmp_path / "c.json"
    res = run("solve", DECK, "--rules", "live", "--players", 3, "--clues", 1, "--strikes", 1,
              "--certificate", c)
    assert res.exit_code == 10, res.output
    assert json.loads(c.read_text())["hanabi_cp"]["clues"] == 1
    data = analysed(c)
    assert data["rules"] == "3 players, 5 cards each, 1 clues, 1 strikes"
    rules = Rules.for_players(3, clues=1, strikes=1)
    expected = analyze(read_deck_file(DECK).deck, rules, read_replay(str(c)).actions)
    assert [r["best"] for r in data["rows"]] == [r.best for r in expected.rows]
    res = run("verify", DECK, c, "--rules", "live")
    assert res.exit_code == 0 and "1 clues, 1 strikes" in res.stdout


@pytest.mark.parametrize("flag, value, message", [
    ("--clues", 8, "c.json: the game records clues 1, but --clues 8 was given"),
    ("--clues", "unlimited", "records clues 1, but --clues unlimited was given"),
    ("--strikes", 3, "records strikes 1, but --strikes 3 was given"),
    ("--hand-size", 4, "records hand size 5, but --hand-size 4 was given"),
])
def test_a_flag_that_contradicts_the_file_is_one_line(tmp_path, flag, value, message):
    c = tmp_path / "c.json"
    res = run("solve", DECK, "--rules", "live", "--players", 3, "--clues", 1, "--strikes", 1,
              "--certificate", c)
    assert res.exit_code == 10, res.output
    for cmd in (["verify", DECK, c], ["solve", c]):
        res = run(*cmd, "--rules", "live", flag, value)
        assert res.exit_code == 2 and res.stderr.count("\n") == 1, res.output
        assert message in res.stderr
    # the same value as the file's is no contradiction
    res = run("verify", DECK, c, "--rules", "live", "--clues", 1, "--strikes", 1)
    assert res.exit_code == 0, res.output


def test_hanab_live_hand_size_option_binds_the_flag(tmp_path):
    deck = standard_deck(2)
    g = tmp_path / "g.json"
    data = json.loads(replay_json(deck, Rules.for_players(4, hand_size=5), []))
    del data["hanabi_cp"]                    # as hanab.live exports it
    assert data["options"]["oneExtraCard"] is True
    g.write_text(json.dumps(data))
    res = run("solve", g, "--rules", "live", "--hand-size", 3, "--time-limit", 1)
    assert res.exit_code == 2
    assert "records hand size 5, but --hand-size 3 was given" in res.stderr


def test_an_export_without_the_key_takes_the_flags_as_before(tmp_path):
    # a hanab.live export says nothing of tokens or strikes beyond hanab.live's own:
    # the flags choose them (the file does not record otherwise)
    deck = standard_deck(3)
    data = json.loads(replay_json(deck, Rules.for_players(2), []))
    del data["hanabi_cp"]
    g = tmp_path / "g.json"
    g.write_text(json.dumps(data))
    res = run("solve", g, "--rules", "live", "--clues", 2, "--strikes", 2, "--time-limit", 5)
    assert res.exit_code in (0, 10, 20), res.output
    assert "c rules: 2 players, 5 cards each, 2 clues, 2 strikes" in res.stdout


def random_rules(rng: random.Random) -> Rules:
    players = rng.randint(2, 6)
    return Rules.for_players(
        players, rng.randint(1, 7), rng.choice([None, 0, 1, 8, 40]), rng.randint(1, 5),
        rng.random() < 0.8, first_player=rng.randrange(players),
        early_ends=rng.random() < 0.7, deck_plays=rng.random() < 0.3,
        empty_clues=rng.random() < 0.3, speedrun=rng.random() < 0.2,
        variant=rng.choice([None, variant("Rainbow (5 Suits)")]))


def test_every_rule_round_trips_through_the_file():
    rng = random.Random(44)
    deck = standard_deck(1)
    for _ in range(200):
        rules = random_rules(rng)
        actions = [Action.play(0), Action.rank_clue(1, 3)]
        back = parse_replay(replay_json(deck, rules, actions), "g.json")
        assert back.options.rules(rules.players) == rules
        assert back.players == rules.players and back.actions == actions


@pytest.mark.parametrize("own, expected", [
    ('{"clues": 5000}', 'g.json:4: expected "clues": 0 to 1000 (or unlimited), found 5000'),
    ('{"clues": "many"}', 'g.json:4: expected "clues": an integer or "unlimited"'),
    ('{"hand_size": 0}', 'g.json:4: expected "hand_size": 1 to 100, found 0'),
    ('{"strikes": true}', 'g.json:4: expected "strikes": an integer, found true'),
    ('{"final_round": 1}', 'g.json:4: expected "final_round": true or false, found 1'),
    ('{"hand_size": 4}', 'g.json:4: expected "hand_size": 6 (hanab.live\'s "oneExtraCard" '
                         'for 2 players), found 4'),
])
def test_a_bad_rule_in_the_file_names_its_line(own, expected):
    text = ('{"players": ["A", "B"],\n "actions": [],\n "options": {"oneExtraCard": '
            'true},\n "hanabi_cp": ' + own + '}')
    with pytest.raises(InputError) as err:
        parse_replay(text, "g.json")
    assert str(err.value).startswith(expected)


# hanab.live's JSON game (server/src/game_json.go, options.go: OptionsJSON): the keys
# its importer reads; Go's decoder skips any other top-level key, such as ours.
HANABLIVE_KEYS = {"id", "players", "deck", "actions", "options", "notes", "characters", "seed"}
HANABLIVE_OPTIONS = {"startingPlayer", "variant", "timed", "timeBase", "timePerTurn",
                     "speedrun", "cardCycle", "deckPlays", "emptyClues", "oneExtraCard",
                     "oneLessCard", "allOrNothing", "detrimentalCharacters"}


def test_hanab_live_reads_what_it_knows_and_skips_our_key():
    rng = random.Random(7)
    deck = standard_deck(4)
    for _ in range(100):
        data = json.loads(replay_json(deck, random_rules(rng), [Action.play(0)]))
        assert set(data) - HANABLIVE_KEYS == {"hanabi_cp"}
        assert set(data["options"]) <= HANABLIVE_OPTIONS
