"""``analyze``: the best score after every action of bot games, checked from scratch."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from hanabi_cp.cli import main
from hanabi_cp.apps.generators import random_deck, standard_deck
from hanabi_cp.real.postmortem.report import analyze, first_loss
from hanabi_cp.real.referee import Game
from hanabi_cp.real.replay_io import replay_json
from hanabi_cp.real.rules import Rules
from hanabi_cp.real.solve import solve_live, solve_position
from hanabi_cp.players.game import play_game
from hanabi_cp.players.strategy import strategies
from hanabi_cp.core.options import SolveOptions


def bot_games(seed: int, count: int):
    """Games of every strategy on small random decks (2-4 players)."""
    rng = random.Random(seed)
    names = sorted(strategies())
    out = []
    while len(out) < count:
        deck = random_deck(rng, rng.randint(2, 4), rng.randint(2, 3), 2, exact_copies=True)
        rules = Rules.for_players(rng.randint(2, 4), rng.randint(1, 3), rng.choice([2, 8]))
        name = rng.choice(names)
        cls = strategies()[name]
        if not cls.min_players <= rules.players <= cls.max_players:
            continue
        out.append((deck, rules, play_game(deck, rules, name, rng.randrange(100))))
    return out


def check_game(deck, rules, game) -> None:
    pm = analyze(deck, rules, game.actions)
    assert pm.decided and len(pm.rows) == len(game.actions) + 1
    deal = solve_live(deck, rules, "search", SolveOptions(maximize=True))
    assert pm.rows[0].best == deal.score
    bests = [r.best for r in pm.rows]
    assert all(a >= b for a, b in zip(bests, bests[1:])), bests     # never rises
    assert pm.rows[-1].best == game.score == pm.final_score        # ends at the score
    for drop in pm.drops:                                           # confirmed from scratch
        for k, expected in ((drop.position - 1, drop.before), (drop.position, drop.after)):
            g = Game.after(deck, rules, game.actions[:k])
            got = g.score if g.over else solve_position(
                g, "search", SolveOptions(maximize=True)).score
            assert got == expected, (str(deck), rules, k)
    assert all(r.hanablive_max >= (r.best or 0) for r in pm.rows)  # the indicator is hopeful
    loss = first_loss(deck, rules, game.actions)
    lost = pm.lost_at()
    assert (loss is None) == (lost is None)
    if loss is not None:
        assert loss.position == lost.position and loss.kind in (
            "discard", "misplay", "clue", "play", "final round")


def test_analyze_is_monotone_exact_and_confirmed_on_bot_games():
    games = bot_games(3, 50)
    assert any(g.score < g.deck.target for _, _, g in games)
    for deck, rules, game in games:
        check_game(deck, rules, game)


@pytest.mark.slow
def test_analyze_on_thousands_of_bot_games():
    for deck, rules, game in bot_games(1003, 2000):
        check_game(deck, rules, game)


def test_analyze_of_standard_bot_games():
    for seed, players, name in [(1, 5, "recommendation"), (2, 2, "infobot"),
                                (11, 4, "cheat")]:
        deck, rules = standard_deck(seed), Rules.for_players(players)
        check_game(deck, rules, play_game(deck, rules, name, seed))


def run(args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def game_file(tmp_path):
    deck, rules = standard_deck(1), Rules.for_players(5)
    game = play_game(deck, rules, "recommendation", 1)
    path = tmp_path / "game.json"
    path.write_text(replay_json(deck, rules, list(game.actions)))
    return path, game


def test_analyze_cli_text_json_and_csv(game_file, tmp_path):
    path, game = game_file
    res = run(["analyze", path])
    assert res.exit_code == 0, res.output
    assert f"c final score: {game.score} of 25" in res.stdout
    assert "c lost: turn " in res.stdout and "best 25 -> " in res.stdout
    res = run(["analyze", path, "--json"])
    data = json.loads(res.stdout)
    assert data["rows"][0]["action"] == "the deal" and len(data["rows"]) == len(game.actions) + 1
    assert data["drops"] and data["final_score"] == game.score
    out = tmp_path / "pos.csv"
    res = run(["analyze", path, "--csv", out])
    lines = out.read_text().splitlines()
    assert lines[0].startswith("file,position,turn,player,action,best,hanablive_max,status")
    assert lines[1].startswith("game.json,0,,,the deal,25,25,DECIDED")
    assert run(["analyze", path, "--csv", out]).exit_code == 2          # no overwriting


def test_hc_analyze_holds_all_that_the_cli_prints(game_file):
    """The command is options -> hc.analyze -> printing: its text is pm.lines(GAME),
    its JSON pm.to_json() with the path (but the seconds each position took)."""
    import hanabi_cp as hc
    path, _ = game_file
    pm = hc.analyze(str(path))
    assert run(["analyze", path]).stdout.splitlines() == pm.lines(str(path))
    assert run(["analyze", path, "-v"]).stdout.splitlines()[:3] == pm.lines(str(path), True)[:3]

    def timeless(data):
        for row in data["rows"]:
            row.pop("seconds")
        return data
    assert timeless(json.loads(run(["analyze", path, "--json"]).stdout)) == \
        timeless(json.loads(json.dumps({"game": str(path), **pm.to_json()})))


def test_analyze_json_rows_name_slots_cards_knowledge_and_pace(game_file):
    from hanabi_cp.real.postmortem.report import card_name, hanablive_pace
    from hanabi_cp.real.postmortem.alternatives import slot_of
    path, game = game_file
    data = json.loads(run(["analyze", path, "--json"]).stdout)
    deck, rules = standard_deck(1), Rules.for_players(5)
    g = Game.start(deck, rules)
    # the deal: 50 cards, 5 players of 4: 30 left, max 25, so 0 + 30 - 25 + 5
    assert data["rows"][0]["pace"] == hanablive_pace(g) == 10
    moves = 0
    for act, row in zip(game.actions, data["rows"][1:]):
        if act.is_move:
            moves += 1
            hand = g.hands[g.player]
            assert row["slot"] == len(hand) - hand.index(act.target) == slot_of(g, act.target)
            assert row["card"] == card_name(rules, deck, act.target) and row["card"] in row["knew"]
            assert row["seen"] in ("visible", "hidden", "tempo")
            if g.piles[deck.cards[act.target].color - 1] + 1 == deck.cards[act.target].value:
                assert row["seen"] == "tempo"
        else:
            assert row["slot"] is None and row["knew"] is None and row["seen"] == "tempo"
        g.apply(act)
        left = deck.N - g.drawn
        assert row["pace"] == (None if g.over or left == 0 else
                               sum(g.piles) + left - g.max_reachable + rules.players)
    assert moves > 20
    text = run(["analyze", path]).stdout
    assert "  method" not in text.splitlines()[2] and " pace" in text.splitlines()[2]
    assert "  method" in run(["analyze", path, "--verbose"]).stdout.splitlines()[2]


def test_a_game_that_never_lost_its_best_score_says_so(tmp_path):
    deck, rules = standard_deck(2), Rules.for_players(3)
    game = play_game(deck, rules, "cheat", 2)
    assert game.score == 25
    path = tmp_path / "won.json"
    path.write_text(replay_json(deck, rules, list(game.actions)))
    res = run(["analyze", path])
    assert res.exit_code == 0 and "c won: 25 of 25; the best score never fell" in res.stdout


def test_analyze_a_folder_resumes(game_file, tmp_path):
    path, game = game_file
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "a.json").write_text(path.read_text())
    (folder / "b.json").write_text(path.read_text())
    out = tmp_path / "all.csv"
    res = run(["analyze", folder, "--csv", out, "--no-progress"])
    assert res.exit_code == 0, res.output
    assert f"({2 * (len(game.actions) + 1)} new)" in res.stdout
    res = run(["analyze", folder, "--csv", out, "--no-progress"])
    assert "(0 new)" in res.stdout
    assert run(["analyze", folder]).exit_code == 2      # a folder needs --csv


def test_analyze_errors_are_one_line(tmp_path):
    bare = tmp_path / "bare.json"
    bare.write_text('[{"type": 0, "target": 0}]')
    res = run(["analyze", bare])
    assert res.exit_code == 2 and "the game has no deck: give --deck" in res.stderr
    res = run(["analyze", tmp_path / "missing.json"])
    assert res.exit_code == 2 and res.stderr.count("\n") == 1
