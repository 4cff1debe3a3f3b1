"""Games in hanab.live's export shape, read, replayed and scored as hanab.live does.

``tests/data/hanablive/`` holds games re-created by hanabi-cp's own players in the
shape of hanab.live's exports (``make_games.py`` there), among them variants,
options (startingPlayer, deckPlays with a deck play, emptyClues with an empty clue,
oneExtraCard), games ended by a termination and by a vote, a Scarce Ones game (a
family of 2026) and a No Variant game played on past today's end (hanab.live's end
rules before February 2019: tests/test_older_games.py).

hanab.live's own test games (packages/client/test_data in Hanabi-Live/hanabi-live)
are GPL-3.0 and not bundled; with ``HANABLIVE_TEST_DATA`` naming a folder of them,
the games below are checked against what hanab.live recorded (their final score,
turns and strikes, read off the games).
"""

from __future__ import annotations

import json
import os
import pathlib

import pytest
from click.testing import CliRunner

from hanabi_cp.cli import main

HERE = pathlib.Path(__file__).parent / "data" / "hanablive"
EXPECTED = json.loads((HERE / "expected.json").read_text())


def run(args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bundled_exports_verify_with_their_score(name):
    path, want = HERE / f"{name}.json", EXPECTED[name]
    res = run(["verify", path, path, "--rules", "live", "--json"])
    assert res.exit_code == 0, res.output
    got = json.loads(res.stdout)
    assert got["verified"] and got["score"] == want["score"]
    assert got["end_condition"] == want["end_condition"]
    assert (got["turns"], got["strikes"]) == (want["turns"], want["strikes"])
    assert got["rules"]["variant"] == want["variant"]


def test_bundled_exports_carry_the_options_they_claim():
    game = json.loads((HERE / "omni_ones_and_white_2p_options.json").read_text())
    assert game["options"]["startingPlayer"] == 1
    assert game["actions"][-1]["target"] == len(game["deck"]) - 1 or any(
        a["type"] == 0 and a["target"] == len(game["deck"]) - 1 for a in game["actions"])
    res = run(["verify", HERE / "omni_ones_and_white_2p_options.json",
               HERE / "omni_ones_and_white_2p_options.json", "--rules", "live"])
    assert "player 1 moves first, deck plays, empty clues" in res.stdout


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bundled_exports_solve_and_analyze_under_their_rules(name, tmp_path):
    path = HERE / f"{name}.json"
    res = run(["solve", path, "--rules", "live", "--json"])
    assert res.exit_code in (10, 20), res.output
    variant = json.loads(res.stdout)["rules"]["variant"]
    assert variant == EXPECTED[name]["variant"]          # never solved as No Variant
    res = run(["analyze", path, "--json", "--position-limit", 30])
    assert res.exit_code == 0, res.output
    pm = json.loads(res.stdout)
    assert pm["final_score"] == EXPECTED[name]["score"]
    assert pm["rows"][-1]["best"] == EXPECTED[name]["score"]


def test_a_variant_flag_that_contradicts_the_game_file_is_refused():
    path = HERE / "rainbow_ones_and_pink_3p.json"
    res = run(["solve", path, "--rules", "live", "--variant", "No Variant"])
    assert res.exit_code == 2
    assert "the game is of variant 'Rainbow-Ones & Pink (5 Suits)'" in res.stderr


# What hanab.live recorded for its own test games (read off each file's last state).
HANABLIVE = {
    "no_variant.json": {"score": 23, "turns": 53, "strikes": 0},
    "rainbow-ones_and_pink.json": {"score": 25, "turns": 53, "strikes": 1},
    "omni-ones_and_white.json": {"score": 29, "turns": 82, "strikes": 1},
    # (hanab.live's client test, integration.test.ts, expects 24 after turn 50)
    "up_or_down.json": {"score": 24, "turns": 50, "strikes": 0},
    "up_or_down_critical.json": {"score": 29, "turns": 60, "strikes": 2},
}
DATA = os.environ.get("HANABLIVE_TEST_DATA")


@pytest.mark.skipif(not DATA, reason="HANABLIVE_TEST_DATA names no folder of hanab.live's "
                    "test games (GPL-3.0, not bundled)")
@pytest.mark.parametrize("name", sorted(HANABLIVE))
def test_hanab_live_test_games(name):
    path = pathlib.Path(DATA) / name
    res = run(["verify", path, path, "--rules", "live", "--json"])
    got = json.loads(res.stdout)
    assert got["verified"], got["error"]
    want = HANABLIVE[name]
    assert (got["score"], got["turns"], got["strikes"]) == (
        want["score"], want["turns"], want["strikes"])


@pytest.mark.parametrize("args, message", [
    (["solve", "instances/standard-winnable-h2.txt", "--rules", "live", "--players", 3,
      "--variant", "Up or Down (5 Suits)"],
     "not a deck that the variant 'Up or Down (5 Suits)' deals: card #27 is a second Purple 1"),
    (["solve", "instances/standard-winnable-h2.txt", "--rules", "live", "--players", 3,
      "--variant", "Rainbo (5 Suits)"],
     "unknown --variant 'Rainbo (5 Suits)'; nearest: Rainbow (5 Suits), Rainbow (6 Suits)"),
    (["solve", "instances/standard-winnable-h2.txt", "--rules", "live", "--players", 3,
      "--variant", "Rainbow (4 Suits)"],
     "does not fit the variant 'Rainbow (4 Suits)' (4 suits, values 1 to 5)"),
    (["play", "instances/standard-winnable-h2.txt", "--variant", "Null (5 Suits)"],
     "in the variant 'Null (5 Suits)' no color clue touches Null 1"),
])
def test_variant_refusals_are_one_line(args, message, monkeypatch):
    monkeypatch.chdir(pathlib.Path(__file__).parent.parent)
    res = run(args)
    assert res.exit_code == 2 and message in res.stderr, res.output
    assert res.stderr.count("\n") == 1
