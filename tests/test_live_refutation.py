"""Refutations of the search (``real.refutation``): on every lost tiny deal and
position of the brute-force oracles, the search's refutation of a win (and of one
card more than the best score) is walked again by the checker; a refutation
missing any state it needs is rejected; the JSON form reads back."""

from __future__ import annotations

import json
import pathlib

import pytest

from hanabi_cp.core.errors import InputError, MethodRefused
from hanabi_cp.real import refutation
from hanabi_cp.real.referee import Game
from hanabi_cp.real.rules import Rules
from hanabi_cp.core.status import Status
from test_live_methods import FAST, oracle, position_oracle
from test_cli import WIN, run, s_line
from test_live_proofs import CLI_RULES, RULES, SEARCH_LOST, lost_deck_file

POSITIONS = {"seed": 77, "count": 600, "max_cards": 8}
DATA = pathlib.Path(__file__).parent / "data" / "hanablive"


def lost_cases():
    """(position, score to refute) for every tiny case that has a refutation:
    a win where brute force says lost, one card more than its best score."""
    for deck, rules, best in oracle(**FAST):
        yield Game.start(deck, rules), best
    for g, best in position_oracle(**POSITIONS):
        yield g, best


def test_every_refutation_of_the_oracles_checks():
    checked = used = 0
    for g, best in lost_cases():
        if refutation.refuses(g) is not None or g.over:
            continue
        goals = [best.score + 1] if best.score < g.deck.target else []
        if best.status is Status.UNWINNABLE and best.score + 1 < g.deck.target:
            goals.append(g.deck.target)
        for goal in goals:
            ref = refutation.refute(g, goal)
            assert ref is not None, (g, goal)
            used += refutation.check(g, goal, ref)
            checked += 1
        # brute force's best score is reached: nothing to refute
        assert refutation.refute(g, best.score) is None
    assert checked > 300 and used > 0


def test_a_refutation_missing_any_state_it_needs_is_rejected():
    g = Game.start(SEARCH_LOST, RULES)
    ref = refutation.refute(g, SEARCH_LOST.target)
    assert ref and refutation.check(g, SEARCH_LOST.target, ref) == len(ref)
    for key in ref:
        short = {k: v for k, v in ref.items() if k != key}
        with pytest.raises(refutation.RefutationError, match="listed as refuted below 6"):
            refutation.check(g, SEARCH_LOST.target, short)
    # a refuted score raised to the goal refutes nothing there
    key = next(iter(ref))
    with pytest.raises(refutation.RefutationError):
        refutation.check(g, SEARCH_LOST.target, {**ref, key: SEARCH_LOST.target})


def test_the_json_form_reads_back_and_bad_files_are_named():
    g = Game.start(SEARCH_LOST, RULES)
    ref = refutation.refute(g, 6)
    text = refutation.to_json(6, ref)
    assert refutation.from_json(text, "r.json") == (6, ref)
    for bad, message in [("{", "r.json:1: expected valid JSON"),
                         ('{"format": "x"}', "expected a hanabi-cp live refutation"),
                         ('{"format": "hanabi-cp live refutation", "version": 9}',
                          "expected version 1, found version 9"),
                         ('{"format": "hanabi-cp live refutation", "version": 1, "goal": 6,'
                          ' "refuted": [[1, 2]]}', "expected refuted.0. as .key, score.")]:
        with pytest.raises(InputError, match=message):
            refutation.from_json(bad, "r.json")


def test_unlimited_clues_are_refused():
    g = Game.start(SEARCH_LOST, Rules(2, 2, None, 1))
    with pytest.raises(MethodRefused, match="unlimited clue tokens"):
        refutation.refute(g, 6)


def test_cli_writes_a_refutation_and_verify_walks_it_again(tmp_path):
    deck = lost_deck_file(tmp_path)
    ref = tmp_path / "lost.ref.json"
    res = run(["solve", deck, *CLI_RULES, "--refutation", ref])
    assert res.exit_code == 20, res.output
    assert f"c refutation: {ref} (no game reaches 6;" in res.stdout
    ok = run(["verify", deck, ref, *CLI_RULES])
    assert ok.exit_code == 0 and s_line(ok.stdout) == "s VERIFIED", ok.output
    data = json.loads(ref.read_text())
    ref.write_text(json.dumps(data, indent=2))      # reformatted: still a refutation
    assert run(["verify", deck, ref, *CLI_RULES]).exit_code == 0
    data["refuted"] = data["refuted"][1:]           # one state it needs, gone
    ref.write_text(json.dumps(data, separators=(",", ":")))
    bad = run(["verify", deck, ref, *CLI_RULES])
    assert bad.exit_code == 1 and s_line(bad.stdout) == "s REJECTED"
    assert "nor listed as refuted below 6" in bad.stdout
    again = run(["solve", deck, *CLI_RULES, "--refutation", ref])     # never overwritten
    assert again.exit_code == 2 and "--force" in again.stderr
    best = run(["solve", deck, *CLI_RULES, "--refutation", ref, "--force", "--maximize"])
    assert best.exit_code == 20 and "no game reaches" in best.stdout
    assert run(["verify", deck, ref, *CLI_RULES]).exit_code == 0
    won = run(["solve", WIN, "--rules", "live", "--players", 3, "--refutation",
               tmp_path / "won.json"])
    assert won.exit_code == 10 and "c no refutation written: the deck is winnable" in won.stdout
    solitaire = run(["solve", WIN, "--hand", 2, "--refutation", tmp_path / "x.json"])
    assert solitaire.exit_code == 2 and "--refutation needs --rules live" in solitaire.stderr


def test_a_refutation_to_stdout_is_one_v_line_or_part_of_the_json(tmp_path):
    deck = lost_deck_file(tmp_path)
    res = run(["solve", deck, *CLI_RULES, "--refutation", "-"])
    assert res.exit_code == 20, res.output
    lines = res.stdout.splitlines()
    assert all(line[:2] in ("c ", "s ", "v ") for line in lines), res.stdout
    table = json.loads(next(line[2:] for line in lines if line.startswith("v ")))
    ref = tmp_path / "from-stdout.json"
    ref.write_text(json.dumps(table))
    assert run(["verify", deck, ref, *CLI_RULES]).exit_code == 0
    as_json = run(["solve", deck, *CLI_RULES, "--refutation", "-", "--json"])
    assert json.loads(as_json.stdout)["refutation_table"] == table


def test_a_best_score_the_reasons_prove_is_not_refuted_again_by_search(tmp_path):
    # 2 players, seed 629: the reasons show 23 at once; the search's refutation of
    # 24 takes longer than minutes, so none is attempted (nothing written)
    from hanabi_cp.io import write_deck
    from hanabi_cp.apps.generators import standard_deck
    deck, ref = tmp_path / "d629.txt", tmp_path / "r629.json"
    write_deck(str(deck), standard_deck(629))
    res = run(["solve", deck, "--rules", "live", "--players", 2, "--maximize",
               "--refutation", ref])
    assert res.exit_code == 20 and "c score: 23 of 25" in res.stdout, res.output
    assert ("c no refutation written: the lost-deck reasons' bound on the score proves "
            "it (the reason above)") in res.stdout
    assert not ref.exists()


def test_analyze_writes_the_refutation_of_every_lost_position(tmp_path):
    game = tmp_path / "game.json"        # 51 actions, lost at the 47th (best 24, then 23)
    game.write_text((DATA / "no_variant_5p.json").read_text())
    refs = tmp_path / "refs"
    res = run(["analyze", game, "--refutations", refs, "--json"])
    assert res.exit_code == 0, res.output
    written = json.loads(res.stdout)["refutations"]
    rows = json.loads(res.stdout)["rows"]
    lost = [r["position"] for r in rows if r["status"] == "DECIDED" and r["best"] < 25]
    assert [w["position"] for w in written] == lost and lost[0] == 47
    for w in written:
        assert w["file"] == str(refs / f"game.position-{w['position']}.refutation.json")
        ok = run(["verify", game, w["file"], "--rules", "live"])
        assert ok.exit_code == 0 and s_line(ok.stdout) == "s VERIFIED", ok.output
        assert f"no game after {w['position']} actions reaches {w['goal']}" in ok.stdout
    # position 50's refutation (no game reaches 24) moved one action back: there the
    # best is still 24, and the walk finds a state it does not cover
    moved = tmp_path / "moved.json"
    data = json.loads(pathlib.Path(written[lost.index(50)]["file"]).read_text())
    moved.write_text(json.dumps({**data, "position": data["position"][:-1]}))
    bad = run(["verify", game, moved, "--rules", "live"])
    assert bad.exit_code == 1 and s_line(bad.stdout) == "s REJECTED", bad.output
    assert "nor listed as refuted below 24" in bad.stdout
    data["position"][0] = {"type": 0, "target": 49}
    moved.write_text(json.dumps(data))
    bad = run(["verify", game, moved, "--rules", "live"])
    assert bad.exit_code == 1 and "the refuted position cannot be reached: action #0" \
        in bad.stdout
    data["position"][0] = {"type": 0}
    moved.write_text(json.dumps(data))
    shape = run(["verify", game, moved, "--rules", "live"])
    assert shape.exit_code == 2 and f"{moved}:1: expected an action" in shape.stderr
    again = run(["analyze", game, "--refutations", refs])
    assert again.exit_code == 2 and "use --force" in again.stderr
    forced = run(["analyze", game, "--refutations", refs, "--force"])
    assert forced.exit_code == 0 and f"c refutations: {len(lost)} written to {refs}" \
        in forced.stdout
    a_file = run(["analyze", game, "--refutations", game])
    assert a_file.exit_code == 2 and "cannot write refutations into it: not a directory" \
        in a_file.stderr
    folder = run(["analyze", tmp_path, "--csv", tmp_path / "x.csv", "--refutations", refs])
    assert folder.exit_code == 2 and "--refutations goes with one GAME file" in folder.stderr


def test_refute_positions_gives_up_where_no_time_is_left():
    g = Game.start(SEARCH_LOST, RULES)
    ref = refutation.refute(g, 6)
    got = list(refutation.refute_positions(SEARCH_LOST, RULES, [], [(0, 5)], 0.0))
    assert got == [(0, 6, None)]
    got = list(refutation.refute_positions(SEARCH_LOST, RULES, [], [(0, 5)], None))
    assert got == [(0, 6, ref)]
