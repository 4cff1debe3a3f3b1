"""hanabi-cp play / study strategies, and the bound every game is held to."""

from __future__ import annotations

import csv
import json

import pytest
from click.testing import CliRunner

from hanabi_cp.cli.main import main
from hanabi_cp.io.deck_text import parse_deck_text
from hanabi_cp.real import race
from hanabi_cp.real.referee import replay
from hanabi_cp.real.replay_io import read_replay
from hanabi_cp.real.rules import Rules
from hanabi_cp.core.model import Deck
from hanabi_cp.players.bound import Bound, BoundViolation, check_bot, deck_bound, with_games
from hanabi_cp.players.game import play_game, seeded_deck
from hanabi_cp.players.strategy import strategies

DECK = "instances/standard-winnable-h2.txt"


def _run(*argv):
    return CliRunner().invoke(main, list(argv))


@pytest.fixture
def deck_file(tmp_path, monkeypatch):
    import os
    here = os.path.dirname(__file__)
    monkeypatch.chdir(tmp_path)
    os.symlink(os.path.join(here, os.pardir, "instances"), tmp_path / "instances")
    return DECK


@pytest.mark.parametrize("players", [2, 5])
def test_play_one_deck_writes_a_hanab_live_game_our_referee_replays(deck_file, players):
    res = _run("play", deck_file, "--players", str(players), "--bound", "--replay", "g.json")
    assert res.exit_code == 0, res.output
    score = int(res.output.splitlines()[-2].split()[1])
    data = json.load(open("g.json"))
    # hanab.live's JSON game: names, {suitIndex, rank} cards, numbered actions
    assert len(data["players"]) == players and len(data["deck"]) == 50
    assert set(data["deck"][0]) == {"suitIndex", "rank"}
    assert all(a["type"] in (0, 1, 2, 3) and isinstance(a["target"], int)
               for a in data["actions"])
    assert data["options"] == {"variant": "No Variant"}
    game = read_replay("g.json")
    assert game.players == players and game.deck is not None
    rep = replay(game.deck, Rules.for_players(players), game.actions)
    assert rep.legal and rep.complete and rep.score == score
    verify = _run("verify", deck_file, "g.json", "--rules", "live")
    assert verify.exit_code == 0 and "s VERIFIED" in verify.output
    assert "c bound: best score" in res.output


def test_play_refuses_to_overwrite_and_names_bad_strategies(deck_file):
    open("g.json", "w").write("{}")
    res = _run("play", deck_file, "--replay", "g.json")
    assert res.exit_code == 2 and "refusing to overwrite" in res.output
    res = _run("play", deck_file, "--strategy", "nobody")
    assert res.exit_code == 2 and "unknown strategy 'nobody'" in res.output
    res = _run("play")
    assert res.exit_code == 2 and "give a DECK or --games N" in res.output
    res = _run("play", "--games", "2")
    assert res.exit_code == 2 and "--csv" in res.output


def test_play_games_writes_resumable_rows_with_the_bound(tmp_path):
    out = str(tmp_path / "p.csv")
    res = _run("play", "--games", "6", "--seed", "3", "--players", "4", "--bound",
               "--csv", out, "--no-progress")
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(open(out)))
    assert [int(r["seed"]) for r in rows] == list(range(3, 9))
    for r in rows:
        deck, _, _ = parse_deck_text(r["deck"])
        assert deck == seeded_deck(int(r["seed"]))
        game = play_game(deck, Rules.for_players(4), "recommendation", int(r["seed"]))
        assert int(r["score"]) == game.score and int(r["strikes"]) == game.strikes
        assert int(r["score"]) <= int(r["best"])
        assert r["winnable"] == str(int(r["best"]) == 25)
    again = _run("play", "--games", "8", "--seed", "3", "--players", "4", "--bound",
                 "--csv", out, "--no-progress")
    assert again.exit_code == 0 and "(2 new)" in again.output
    plain = str(tmp_path / "q.csv")
    assert _run("play", "--games", "2", "--csv", plain, "--no-progress").exit_code == 0
    res = _run("play", "--games", "2", "--csv", plain, "--bound", "--no-progress")
    assert res.exit_code == 2 and "without the bound" in res.output


def test_study_strategies_table_and_figure(tmp_path):
    out = str(tmp_path / "s.csv")
    res = _run("study", "strategies", "--count", "3", "--players", "5", "--csv", out,
               "--no-progress")
    assert res.exit_code == 0, res.output
    assert "| 5 | **bound** (open hands, exact; 95 % CI) | 3 decks |" in res.output
    for name in strategies():
        assert f"| 5 | {name} |" in res.output
    assert (tmp_path / "s.png").stat().st_size > 1000
    rows = list(csv.DictReader(open(out)))
    assert len(rows) == 3 * len(strategies())


def test_the_bound_is_exact_certified_and_bots_stay_below_it():
    for players in (2, 3, 4, 5, 6):
        rules = Rules.for_players(players)
        for seed in range(4):
            deck = seeded_deck(seed)
            b = deck_bound(deck, rules)
            assert b.decided and b.best == b.lower and b.winnable == (b.best == 25)
            for name in strategies():
                cls = strategies()[name]
                if cls.min_players <= players <= cls.max_players:
                    game = play_game(deck, rules, name, seed)
                    assert game.score <= b.best
                    check_bot(game, b)


def test_a_lost_deck_has_its_best_score_below_the_target():
    # without its red 5 a deck scores 24 at best
    lost = Deck.of([c for c in seeded_deck(0).cards if c != (5, 1)], 5, 5)
    b = deck_bound(lost, Rules.for_players(5))
    assert (b.best, b.winnable, b.lower) == (24, False, 24)


def test_a_score_above_the_bound_is_a_bug_report_with_a_small_deck():
    deck = seeded_deck(4)
    rules = Rules.for_players(5)
    game = play_game(deck, rules, "recommendation", 4)
    assert game.score > 0
    fake = Bound(game.score - 1, False, game.score - 1, "test", 0.0)
    with pytest.raises(BoundViolation, match="above the best score"):
        check_bot(game, fake, shrink_tests=5, shrink_limit=0.2)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bots_never_beat_the_bound_on_hundreds_of_decks(players):
    rules = Rules.for_players(players)
    table = strategies()
    for seed in range(300):
        deck = seeded_deck(seed)
        b = deck_bound(deck, rules, time_limit=60)
        assert b.decided
        for name, cls in table.items():
            if cls.min_players <= players <= cls.max_players:
                check_bot(play_game(deck, rules, name, seed), b)


def test_an_undecided_bound_is_completed_by_a_won_game_only():
    rules = Rules.for_players(5)
    seed = next(s for s in range(100)
                if play_game(seeded_deck(s), rules, "recommendation", s).score == 25)
    deck = seeded_deck(seed)
    won = play_game(deck, rules, "recommendation", seed)
    open_bound = Bound(None, None, 20, "search", 1.0)
    assert with_games(open_bound, deck, rules, [won]).best == 25
    lost = next(g for s in range(100)
                if (g := play_game(seeded_deck(s), rules, "recommendation", s)).score < 25)
    still = with_games(open_bound, lost.deck, rules, [lost])
    assert still.best is None and still.lower == max(20, lost.score)


def test_jobs_give_the_same_rows(tmp_path):
    one, two = str(tmp_path / "one.csv"), str(tmp_path / "two.csv")
    for path, jobs in ((one, "1"), (two, "2")):
        res = _run("play", "--games", "6", "--seed", "5", "--players", "3", "--bound",
                   "--csv", path, "--no-progress", "--jobs", jobs)
        assert res.exit_code == 0, res.output
    strip = ("seconds", "bound_seconds")
    def rows(path):      # in the order of the games: workers append as decks finish
        return sorted(({k: v for k, v in r.items() if k not in strip}
                       for r in csv.DictReader(open(path))), key=lambda r: int(r["game"]))
    a, b = rows(one), rows(two)
    assert a == b and len(a) == 6


def test_the_bound_shares_its_time_among_the_methods(monkeypatch):
    """auto (the bound's method): the search gets FIRST_SHARE of the limit; the SAT
    and CP-SAT encodings, which decide its hard tail, share the rest by
    STAGE_WEIGHTS; undecided, the best game found is the lower bound."""
    import hanabi_cp.real.solve as live_solve
    from hanabi_cp.real.solve import FIRST_SHARE, STAGE_WEIGHTS, LiveOutcome
    from hanabi_cp.core.status import Status

    asked = []

    def undecided(m, start, options):
        asked.append((m.name, options.time_limit, options.deadline.remaining(),
                      STAGE_WEIGHTS.get((m.name, options.solver), 1.0)))
        return LiveOutcome(Status.UNKNOWN, [], 18 + len(asked), method=m.name)

    monkeypatch.setattr(live_solve, "_run", undecided)
    monkeypatch.setattr(race, "ENABLED", False)   # the sequential portfolio
    b = deck_bound(seeded_deck(1), Rules.for_players(5), 10.0)
    names = [a[0] for a in asked]
    assert names[0] == "search" and {"sat", "cpsat"} <= set(names)
    assert b.best is None and b.lower == 18 + len(asked) and b.method == names[-1]
    assert asked[0][1] == pytest.approx(10.0 * FIRST_SHARE, abs=0.1)
    # the mock returns at once, so the search's unused share passes on, by weight
    weights = [a[3] for a in asked[1:]]
    assert len(set(weights)) > 1            # CaDiCaL first, with the largest part
    assert asked[1][1] == pytest.approx(10.0 * weights[0] / sum(weights), abs=0.2)
    assert asked[1][3] == max(weights)
    assert asked[-1][1] == pytest.approx(10.0, abs=0.2)      # the last: all that is left
    assert all(left <= limit + 1e-6 for _, limit, left, _ in asked)
