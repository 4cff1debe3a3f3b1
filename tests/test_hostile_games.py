"""Hostile real-rules games and refutations (issue 46): every action field is
range-checked when the game is read (a type-4 action naming player 10^30 is
refused with its line, never VERIFIED), a play past the deck never reaches the
post-mortem as an IndexError, a refutation whose key holds an object is one line,
and user text quoted in any error (a variant name, an option key, --method, a
refutation's version) is cut to the Limits page's 60 characters."""

import json
import os
import re

import pytest

from test_answers_evidence import one_line_error, run

ROOT = os.path.join(os.path.dirname(__file__), os.pardir)
DECK = os.path.join(ROOT, "instances", "standard-winnable-h2.txt")


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("game") / "g.json"
    assert run(["play", DECK, "--players", 3, "--replay", path]).exit_code == 0
    return json.loads(path.read_text())


def with_actions(tmp_path, game, actions, name="g.json"):
    data = dict(game, actions=game["actions"][:6] + actions)
    path = tmp_path / name
    path.write_text(json.dumps(data, indent=1))
    return path, json.dumps(data, indent=1).splitlines()


@pytest.mark.parametrize("action", [
    {"type": 4, "target": 10**30, "value": 4},        # said VERIFIED before
    {"type": 4, "target": 3, "value": 4},              # a player the game does not have
    {"type": 4, "target": -1, "value": 10**30},
    {"type": 3, "target": 10**30, "value": 1},
    {"type": 3, "target": 1, "value": 10**30},
    {"type": 2, "target": 7, "value": 0},
    {"type": 1, "target": 10**30},
    {"type": 0, "target": 50},                        # past the 50-card deck
])
def test_every_action_field_is_range_checked_at_read_time(tmp_path, game, action):
    path = tmp_path / "g.json"
    data = dict(game, actions=game["actions"][:6] + [action])
    path.write_text(json.dumps(data, indent=1))
    # The action's own line: the 6 actions before it, then its "type" key.
    start = path.read_text().splitlines().index(' "actions": [')
    for cmd in (["verify", DECK, path, "--rules", "live"], ["analyze", path]):
        err = one_line_error(run(cmd))
        line = int(re.search(rf"{re.escape(str(path))}:(\d+):", err).group(1))
        assert start + 1 + 6 * 3 < line <= start + 1 + 7 * 5, err


def test_a_play_past_a_separate_deck_is_refused_by_the_post_mortem(tmp_path, game):
    # A bare list of actions with --deck: the range is known only to the referee.
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(game["actions"][:4] + [{"type": 0, "target": 400}]))
    deck = tmp_path / "deck.json"
    deck.write_text(json.dumps({"deck": game["deck"]}))
    err = one_line_error(run(["analyze", bare, "--deck", deck, "--players", 3]))
    assert "#400" in err


def test_refutation_with_an_object_in_a_key_and_a_long_version(tmp_path):
    ref = {"format": "hanabi-cp live refutation", "version": 1, "goal": 25,
           "refuted": [[[{"a": 1}, 2], 20]]}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(ref))
    g = tmp_path / "g.json"
    assert run(["play", DECK, "--players", 3, "--replay", g]).exit_code == 0
    one_line_error(run(["verify", g, path, "--rules", "live"]), f"{path}:1:", "refuted[0]")
    path.write_text(json.dumps(ref, indent=1))              # the line of the row
    one_line_error(run(["verify", g, path, "--rules", "live"]), f"{path}:6:", "refuted[0]")
    ref["version"] = "v" * 100_000
    path.write_text(json.dumps(ref))
    err = one_line_error(run(["verify", g, path, "--rules", "live"]), "100,002 characters")
    assert len(err) < 300


def test_user_text_in_errors_is_cut_to_60_characters(tmp_path, game):
    long = "x" * 100_000
    cases = []
    g = tmp_path / "v.json"
    g.write_text(json.dumps(dict(game, options={"variant": long})))
    cases.append(["verify", DECK, g, "--rules", "live"])
    k = tmp_path / "k.json"
    k.write_text(json.dumps(dict(game, options={"variant": "No Variant", long: True})))
    cases.append(["verify", DECK, k, "--rules", "live"])
    cases.append(["solve", DECK, "--method", long])
    cases.append(["play", DECK, "--variant", long])
    cases.append(["play", DECK, "--strategy", long])
    for cmd in cases:
        err = one_line_error(run(cmd), "x" * 60)
        assert "x" * 61 not in err and len(err) < 400, (cmd[0], len(err))


def test_the_time_limit_covers_every_position_of_the_post_mortem(game, tmp_path,
                                                                 monkeypatch):
    # Once the command's deadline has passed, no position is searched any more
    # (each used to run the search's first pass: 25 s past a 2 s limit on 997).
    import time

    from hanabi_cp.real.postmortem import report as postmortem
    from hanabi_cp.runtime.deadline import Deadline
    from hanabi_cp.apps.studies.postmortems import load_game
    path = tmp_path / "g.json"
    path.write_text(json.dumps(game))
    deck, rules, actions, names = load_game(str(path))
    calls = []
    real = postmortem.solve_position
    monkeypatch.setattr(postmortem, "solve_position",
                        lambda *a, **k: calls.append(1) or real(*a, **k))
    passed = Deadline(1.0, time.monotonic() - 1)
    result = postmortem.analyze(deck, rules, actions, names, deadline=passed)
    assert calls == [] and len(result.rows) == len(actions) + 1
    assert all(r.best is None or r.status == "OVER" for r in result.rows)


def test_the_players_of_a_game_file_are_counted_when_read(tmp_path, game):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(dict(game, players=[f"P{i}" for i in range(100_000)]),
                               indent=1))
    one_line_error(run(["verify", DECK, path, "--rules", "live"]), f"{path}:2:",
                   "2 to 6 player names, found 100,000 names")
