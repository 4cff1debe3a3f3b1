"""Games hanab.live recorded under its end rules before 14 February 2019 are read as
played (issue 45, item 2): hanabi_cp/real/older_games.py."""

from __future__ import annotations

import json
import pathlib

from click.testing import CliRunner

from hanabi_cp.cli import main
from hanabi_cp.real.actions import Action
from hanabi_cp.real.older_games import as_recorded
from hanabi_cp.real.referee import Game, replay
from hanabi_cp.real.replay_io import read_replay
from hanabi_cp.real.rules import Rules
from hanabi_cp.core.model import Deck

OLDER = pathlib.Path(__file__).parent / "data" / "hanablive" / "no_variant_4p_before_2019.json"
TODAY_END = 58          # the last action today's rules allow in that game


def run(args):
    return CliRunner().invoke(main, [str(a) for a in args])


def older_game(tmp_path, change):
    """The bundled older game with its actions changed by ``change``, as a new file."""
    data = json.loads(OLDER.read_text())
    data["actions"] = change(data["actions"])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    return path


def test_today_rejects_the_older_game_and_as_recorded_reads_it():
    game = read_replay(str(OLDER))
    today = game.options.rules(4)
    rep = replay(game.deck, today, game.actions)
    assert not rep.legal and rep.step == TODAY_END + 1
    assert rep.error.endswith("the game is already over")
    reading = as_recorded(game.deck, today, game.actions)
    assert reading.today_end == TODAY_END and not reading.rules.last_turn_unplayable
    rep = replay(game.deck, reading.rules, game.actions)
    assert rep.legal and rep.complete and rep.score == 22
    assert rep.cause == "the final round is over"


def test_verify_gives_the_recorded_score_and_names_todays_end():
    res = run(["verify", OLDER, OLDER, "--rules", "live"])
    assert res.exit_code == 0, res.output
    assert "s VERIFIED" in res.stdout and "c score: 22 of 25" in res.stdout
    assert ("c as recorded: today's end rules end the game after action #58 (turn 59): no card "
            "still needed can be played; hanab.live's rule before 14 February 2019 played on"
            in res.stdout)
    assert "hanab.live's end rules before 14 February 2019" in res.stdout     # the c rules line
    got = json.loads(run(["verify", OLDER, OLDER, "--rules", "live", "--json"]).stdout)
    assert got["verified"] and got["score"] == 22 and got["today_end"] == TODAY_END
    assert got["as_recorded"].startswith("today's end rules end the game after action #58")


def test_a_game_of_today_says_nothing_of_older_rules():
    path = OLDER.parent / "no_variant_5p.json"
    got = json.loads(run(["verify", path, path, "--rules", "live", "--json"]).stdout)
    assert got["verified"] and got["today_end"] is None and got["as_recorded"] is None


def test_a_rule_that_has_not_changed_is_still_enforced(tmp_path):
    # one action more after the final round: that end is the same under both rules
    more = older_game(tmp_path, lambda acts: acts + [{"type": 3, "target": 1, "value": 1}])
    res = run(["verify", more, more, "--rules", "live"])
    assert res.exit_code == 1 and "s REJECTED" in res.stdout
    assert "c reason: action #61: clue player 1 rank 1: the game is already over" in res.stdout
    assert "c as recorded: today's end rules end the game after action #58" in res.stdout
    # an illegal first extra action (a clue of a rank hanab.live has not) is refused:
    # the game is read under today's rules, whose end stands
    bad = older_game(tmp_path, lambda acts: acts[:TODAY_END + 1] + [{"type": 3, "target": 0,
                                                                      "value": 6}])
    res = run(["verify", bad, bad, "--rules", "live"])
    assert res.exit_code == 1 and "c as recorded" not in res.stdout
    assert "action #59" in res.stdout and "the game is already over" in res.stdout
    # stopping inside the extra turns: legal, but not over under the older rules
    short = older_game(tmp_path, lambda acts: acts[:TODAY_END + 2])
    res = run(["verify", short, short, "--rules", "live"])
    assert res.exit_code == 1 and "the game is not over after the last action" in res.stdout


def test_hle_end_rules_are_not_touched():
    deck = Deck.of([(1, 1), (1, 2), (2, 1), (3, 1)])
    rules = Rules.for_players(2, hand_size=1, early_ends=False)
    game = [Action.play(0), Action.play(1), Action.rank_clue(1, 3), Action.rank_clue(0, 2)]
    assert as_recorded(deck, rules, game).rules is rules


def test_the_referee_marks_todays_end_under_the_older_rules():
    deck = Deck.of([(1, 1), (1, 2), (2, 1), (3, 1)])
    older = Rules.for_players(2, hand_size=1, last_turn_unplayable=False)
    g = Game.after(deck, older, [Action.play(0), Action.play(1), Action.rank_clue(1, 3)])
    assert not g.over and g.today_end == 3
    today = Game.after(deck, Rules.for_players(2, hand_size=1),
                       [Action.play(0), Action.play(1), Action.rank_clue(1, 3)])
    assert today.over and today.cause == "no card still needed can be played"


def test_analyze_covers_every_recorded_action():
    res = run(["analyze", OLDER, "--json", "--position-limit", 10])
    assert res.exit_code == 0, res.output
    pm = json.loads(res.stdout)
    assert len(pm["rows"]) == 62 and pm["final_score"] == 22
    assert pm["as_recorded"].startswith("today's end rules end the game after action #58")
    after = pm["rows"][TODAY_END + 1:]
    assert all(r["status"] == "OVER" and r["best"] == 22 for r in after)
    assert pm["rows"][TODAY_END]["best"] == 24 and pm["rows"][TODAY_END]["status"] == "DECIDED"
    text = run(["analyze", OLDER, "--position-limit", 10]).stdout
    assert ("c as recorded: today's end rules end the game after action #58 (turn 59): no card "
            "still needed can be played; every action is analyzed as played") in text


def test_no_point_is_scored_after_todays_end():
    # games played under the older rule: where today's rule ends one earlier, its
    # score then is the recorded one (the extra turns score nothing), strikes aside
    from hanabi_cp.apps.generators import standard_deck
    from hanabi_cp.players.game import play_game
    older_games = 0
    for seed in range(1, 25):
        deck = standard_deck(seed)
        older = Rules.for_players(4, last_turn_unplayable=False)
        game = play_game(deck, older, "recommendation", 1)
        reading = as_recorded(deck, Rules.for_players(4), game.actions)
        if reading.today_end is None:
            assert replay(deck, Rules.for_players(4), game.actions).legal
            continue
        older_games += 1
        cut = replay(deck, Rules.for_players(4), game.actions[:reading.today_end + 1])
        assert cut.legal and cut.complete and cut.cause == "no card still needed can be played"
        full = replay(deck, reading.rules, game.actions)
        assert full.legal and full.complete
        assert full.score == (0 if full.strikes >= 3 else cut.score)
    assert older_games >= 3
