"""`analyze DIR` (issue 44 item 6, issue 46's folder limits): every game of a folder
and its subfolders, keyed by its path there; a refused game is a row and a named
line, never the end of the run; FIFOs and link loops never block it; --time-limit
bounds the whole folder; --summary is study hle's table with the losses split."""

from __future__ import annotations

import csv
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from hanabi_cp.cli import main
from hanabi_cp.apps.generators import random_deck
from hanabi_cp.real.postmortem.report import analyze
from hanabi_cp.real.replay_io import replay_json
from hanabi_cp.real.rules import Rules
from hanabi_cp.players.game import play_game
from hanabi_cp.runtime.deadline import Deadline
from hanabi_cp.apps.studies import game_folders
from hanabi_cp.apps.studies.game_folders import EXIT_REFUSED, run_folder, summary_rows
from hanabi_cp.apps.studies.loss_table import SPLIT

ROOT = Path(__file__).parent.parent


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def small_games(seed: int, count: int, players: int = 2, strategy: str = "recommendation"):
    """Bot games on small decks, most of them lost, as (deck, rules, game)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        deck = random_deck(rng, 3, 3, 2, exact_copies=True)
        rules = Rules.for_players(players, 2, rng.choice([1, 3]))
        out.append((deck, rules, play_game(deck, rules, strategy, rng.randrange(99))))
    return out


def write_game(path: Path, deck, rules, game) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(replay_json(deck, rules, list(game.actions)))


def csv_rows(path: Path) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def complete(rows: list[dict], name: str, actions: int) -> bool:
    return any(r["file"] == name and r["position"] == str(actions) for r in rows)


def test_a_refused_game_is_named_and_the_others_are_analysed(tmp_path):
    folder = tmp_path / "games"
    games = small_games(1, 3)
    for i, (deck, rules, game) in enumerate(games):
        write_game(folder / f"g{i}.json", deck, rules, game)
    (folder / "broken.json").write_text('{"players": ["A", "B"],\n "actions": [}')
    deck, rules, game = games[0]
    illegal = json.loads(replay_json(deck, rules, list(game.actions)))
    illegal["actions"][0] = {"type": 1, "target": 0}        # a discard at full tokens
    (folder / "illegal.json").write_text(json.dumps(illegal))
    out = tmp_path / "rows.csv"
    res = run("analyze", folder, "--csv", out, "--no-progress")
    assert res.exit_code == EXIT_REFUSED, res.output
    rows = csv_rows(out)
    for i, (_, _, game) in enumerate(games):
        assert complete(rows, f"g{i}.json", len(game.actions))
    refused = {r["file"]: r["reason"] for r in rows if r["status"] == "REFUSED"}
    assert set(refused) == {"broken.json", "illegal.json"}
    assert refused["broken.json"].startswith(f"{folder / 'broken.json'}:2: expected valid JSON")
    assert "the game's action #0" in refused["illegal.json"]
    lines = res.stdout.splitlines()
    assert f"c refused: broken.json: {refused['broken.json']}" in lines
    assert f"c refused: illegal.json: {refused['illegal.json']}" in lines
    assert lines[-1] == f"c 2 of 5 games refused (exit {EXIT_REFUSED})"
    # a rerun resumes: nothing new to analyse, the refusals named again
    again = run("analyze", folder, "--csv", out, "--no-progress")
    assert again.exit_code == EXIT_REFUSED
    assert "(0 analysed now, 2 refused)" in again.stdout and len(csv_rows(out)) == len(rows)
    # once the file is fixed, the rerun analyses it
    (folder / "broken.json").write_text((folder / "g1.json").read_text())
    fixed = run("analyze", folder, "--csv", out, "--no-progress")
    assert "(1 analysed now, 1 refused)" in fixed.stdout
    assert complete(csv_rows(out), "broken.json", len(games[1][2].actions))


def test_two_subfolders_with_one_file_name_keep_their_own_rows(tmp_path):
    (a, b) = small_games(2, 2)
    folder = tmp_path / "games"
    write_game(folder / "alice" / "p2.json", *a)
    write_game(folder / "bob" / "p2.json", *b)
    write_game(folder / "bob" / "deeper" / "p2.json", *a)
    os.symlink("..", folder / "bob" / "up")              # a loop: walked once
    out = tmp_path / "rows.csv"
    res = run("analyze", folder, "--csv", out, "--no-progress")
    assert res.exit_code == 0, res.output
    rows = csv_rows(out)
    for name, (deck, rules, game) in (("alice/p2.json", a), ("bob/p2.json", b),
                                      ("bob/deeper/p2.json", a)):
        mine = [r for r in rows if r["file"] == name]
        expected = analyze(deck, rules, game.actions)
        assert [int(r["best"]) for r in mine] == [r.best for r in expected.rows]
    assert {r["file"] for r in rows} == {"alice/p2.json", "bob/p2.json", "bob/deeper/p2.json"}


def test_special_files_are_refused_unopened(tmp_path):
    folder = tmp_path / "games"
    write_game(folder / "good.json", *small_games(3, 1)[0])
    os.mkfifo(folder / "fifo.json")
    os.symlink("nowhere.json", folder / "dangling.json")
    os.symlink("self.json", folder / "self.json")
    os.mkfifo(folder / "notes")               # not a *.json name: not a game at all
    out = tmp_path / "rows.csv"
    # a subprocess, so that a FIFO opened for reading would hang it, not the tests
    proc = subprocess.run([sys.executable, "-m", "hanabi_cp", "analyze", str(folder),
                           "--csv", str(out), "--no-progress"], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == EXIT_REFUSED, proc.stderr
    lines = proc.stdout.splitlines()
    assert f"c refused: fifo.json: {folder / 'fifo.json'}: expected a regular file, found a " \
           "FIFO (not opened)" in lines
    assert any(line.startswith("c refused: dangling.json: ") and "no such file" in line
               for line in lines)
    assert any(line.startswith("c refused: self.json: ") and "symbolic links" in line
               for line in lines)
    assert "(1 analysed now, 3 refused)" in lines[0]


def test_a_folder_that_cannot_be_listed_is_one_line(tmp_path):
    res = run("analyze", tmp_path, "--csv", tmp_path / "x.csv", "--no-progress")
    assert res.exit_code == 2 and "no game files (*.json)" in res.stderr
    res = run("analyze", tmp_path, "--no-progress")
    assert res.exit_code == 2 and "needs --csv OUT.csv" in res.stderr and "--summary" in res.stderr
    res = run("analyze", tmp_path, "--summary", "--json")
    assert res.exit_code == 2 and "--json goes with one GAME file" in res.stderr


def test_a_deadline_already_passed_writes_no_game(tmp_path):
    folder = tmp_path / "games"
    for i, g in enumerate(small_games(4, 3)):
        write_game(folder / f"g{i}.json", *g)
    out = tmp_path / "rows.csv"
    done = run_folder(str(folder), str(out), deadline=Deadline.after(1e-9, start=0.0))
    assert done.time_up and "listing the folder" in done.time_up
    assert done.games == 0 and not done.rows
    done.table = None                     # the run's lock released: no CSV was written
    assert not out.exists()
    res = run("analyze", folder, "--summary", "--time-limit", 1e-6)
    assert res.exit_code == 0 and "the folder was not listed to the end" in res.stdout


def test_a_game_the_deadline_cuts_is_not_written(tmp_path):
    deck, rules, game = small_games(5, 1)[0]
    path = tmp_path / "g.json"
    write_game(path, deck, rules, game)
    kind, why, _ = game_folders._one(str(path), "g.json", "auto", 10.0, None, 1.0,
                                     time.time() - 1.0, {})
    assert kind == "cut" and "time limit of 1 s reached" in str(why)
    kind, rows, meta = game_folders._one(str(path), "g.json", "auto", 10.0, None, 1.0,
                                         None, {})
    assert kind == "rows" and len(rows) == len(game.actions) + 1
    assert meta == (2, deck.target, "No Variant")


def test_time_limit_over_a_folder_then_a_rerun_completes_it(tmp_path):
    folder = tmp_path / "games"
    games = small_games(6, 60, players=3)
    for i, g in enumerate(games):
        write_game(folder / f"d{i // 10}" / f"g{i}.json", *g)
    out = tmp_path / "rows.csv"
    res = run("analyze", folder, "--csv", out, "--time-limit", 0.1, "--no-progress")
    assert res.exit_code == 0, res.output
    (limit,) = [line for line in res.stdout.splitlines() if line.startswith("c time limit")]
    assert limit.startswith("c time limit of 0.1 s reached during ")
    assert "games not reached" in limit or "the folder was not listed to the end" in limit
    rows = csv_rows(out) if out.exists() else []
    # every game in the CSV is there whole: a game cut short is not written
    names = {r["file"] for r in rows}
    for i, (_, _, game) in enumerate(games):
        name = f"d{i // 10}/g{i}.json"
        if name in names:
            assert complete(rows, name, len(game.actions))
            assert len([r for r in rows if r["file"] == name]) == len(game.actions) + 1
    assert len(names) < len(games)
    res = run("analyze", folder, "--csv", out, "--no-progress")
    assert res.exit_code == 0 and "not reached" not in res.stdout
    rows = csv_rows(out)
    assert all(complete(rows, f"d{i // 10}/g{i}.json", len(g.actions))
               for i, (_, _, g) in enumerate(games))


def test_summary_splits_the_losses_and_matches_the_games(tmp_path):
    folder = tmp_path / "games"
    games = small_games(7, 8) + small_games(8, 4, strategy="cheat")
    for i, g in enumerate(games):
        write_game(folder / ("lost" if g[2].score < g[0].target else "won") / f"g{i}.json", *g)
    results = {}
    for i, (deck, rules, game) in enumerate(games):
        results[i] = analyze(deck, rules, game.actions)
    res = run("analyze", folder, "--summary", "--no-progress")
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[1].startswith("| players | folder | games | mean score | fireworks built | "
                               "perfect % | imperfect | mean best | unavoidable | visible | "
                               "hidden | tempo | other |")
    table = {line.split(" | ")[1].split(" (")[0]: line.split(" | ") for line in lines[3:]
             if line.startswith("| 2 |")}
    lost = [i for i, g in enumerate(games) if g[2].score < g[0].target]
    assert lost and int(table["lost"][2]) == len(lost)
    mean = sum(results[i].final_score for i in lost) / len(lost)
    assert table["lost"][3] == f"{mean:.2f}" and table["lost"][5] == "0.0"
    # the small decks' own target: a won game is perfect
    assert table["won"][1] == f"won ({games[0][0].target} points)"
    assert table["won"][5] == "100.0" and table["won"][6] == "0"
    # the split adds up to the target minus the final best, game by game
    # the same table from the CSV's rows on a rerun (nothing analysed again)
    out = tmp_path / "rows.csv"
    assert run("analyze", folder, "--csv", out, "--no-progress").exit_code == 0
    again = run("analyze", folder, "--csv", out, "--summary", "--no-progress")
    assert "(0 analysed now, 0 refused)" in again.stdout
    assert again.stdout.splitlines()[1:] == lines[1:]
    done = run_folder(str(folder), None)
    assert len(done.rows) == len(games) and not done.refused
    for name, row in zip(sorted(done.rows), summary_rows(done)):
        target = done.meta[name][1]
        assert row["group"] == f"{os.path.dirname(name)} ({target} points)"
        assert sum(row["lost"].values()) == target - row["score"]
        assert set(row["lost"]) <= set(SPLIT) and not row["lost"].get("other")


def test_jobs_give_the_same_rows_and_refusals(tmp_path):
    folder = tmp_path / "games"
    for i, g in enumerate(small_games(9, 4)):
        write_game(folder / f"s{i % 2}" / f"g{i}.json", *g)
    (folder / "s1" / "broken.json").write_text("[")
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"rows-{jobs}.csv"
        res = run("analyze", folder, "--csv", out, "--jobs", jobs, "--no-progress")
        assert res.exit_code == EXIT_REFUSED, res.output
        assert "c refused: s1/broken.json: " in res.stdout
        outs.append(sorted((r["file"], r["position"], r["best"], r["status"], r["seen"],
                            r["reason"]) for r in csv_rows(out)))
    assert outs[0] == outs[1]
