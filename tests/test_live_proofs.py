"""DRUP proofs of lost real-rules deals (``solve --rules live --proof FILE``): the
method ``sat`` writes the CNF it refutes and the proof, checked by drup; ``auto``
backs a loss found without a SAT call the same way; every proof re-checks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hanabi_cp.io import deck_to_text
from hanabi_cp.io.deck_text import parse_deck_text
from hanabi_cp.real.referee import Game
from hanabi_cp.real.rules import Rules
from hanabi_cp.real.solve import live_methods, solve_live
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.status import Status
from hanabi_cp.solvers.proofs import check_files
from test_cli import WIN, run, s_line
from test_live_methods import FAST, oracle

# Lost for 2 players of 2 cards, 1 clue token, 1 strike, found only by exhaustive
# search (no lost-deck reason applies): 50 states.
SEARCH_LOST = parse_deck_text("2:1 2:2 3:2 2:2 1:1 3:2 1:2 2:1 3:1")[0]
RULES = Rules(2, 2, 1, 1)
CLI_RULES = ["--rules", "live", "--players", 2, "--hand-size", 2, "--clues", 1,
             "--strikes", 1]
PROVED = 12     # lost tiny instances proved in the fast test


def lost_sample(count: int) -> list:
    """Lost tiny instances of the brute-force oracle that the SAT method accepts and
    that are not over at the deal (those need no proof: nothing can be played)."""
    sat = live_methods()["sat"]
    return [(deck, rules, best) for deck, rules, best in oracle(**FAST)
            if best.status is Status.UNWINNABLE and not Game.start(deck, rules).over
            and sat.refuses(Game.start(deck, rules)) is None][:count]


def assert_checked(out, path: Path) -> None:
    assert out.status is Status.UNWINNABLE and out.method == "sat"
    assert out.stats["proof_checked"] is True and out.stats["proof"] == str(path)
    assert check_files(out.stats["proof_cnf"], out.stats["proof"])
    assert "checked by drup" in out.reason


@pytest.mark.parametrize("maximize", [False, True])
def test_sat_proves_every_lost_tiny_deal_and_the_best_score(tmp_path, maximize):
    sample = lost_sample(PROVED)
    assert len(sample) == PROVED
    for i, (deck, rules, best) in enumerate(sample):
        path = tmp_path / f"p{i}.drup"
        out = solve_live(deck, rules, "sat", SolveOptions(proof=str(path), maximize=maximize))
        assert_checked(out, path)
        assert out.score == (best.score if maximize else None)
        header = Path(out.stats["proof_cnf"]).read_text().splitlines()[0]
        assert header.startswith("c hanabi-cp live CNF") and "unsatisfiable" in header


def test_auto_backs_a_search_loss_with_a_checked_proof(tmp_path):
    plain = solve_live(SEARCH_LOST, RULES)
    assert plain.method == "search" and plain.reason.startswith("exhaustive search")
    path = tmp_path / "lost.drup"
    out = solve_live(SEARCH_LOST, RULES, options=SolveOptions(proof=str(path)))
    assert_checked(out, path)


def test_a_tampered_proof_is_rejected(tmp_path):
    path = tmp_path / "lost.drup"
    out = solve_live(SEARCH_LOST, RULES, "sat", SolveOptions(proof=str(path)))
    assert_checked(out, path)
    path.write_text("0\n")          # the empty clause without its lemmas
    assert not check_files(out.stats["proof_cnf"], str(path))


def test_a_winnable_deal_writes_no_proof(tmp_path):
    path = tmp_path / "won.drup"
    res = run(["solve", WIN, "--rules", "live", "--players", 3, "--proof", path])
    assert res.exit_code == 10, res.output
    assert "c no proof written: the deck is winnable" in res.stdout
    assert not path.exists() and not Path(str(path) + ".cnf").exists()


def lost_deck_file(tmp_path: Path) -> Path:
    """SEARCH_LOST as a deck file (give it CLI_RULES)."""
    deck = tmp_path / "deck.txt"
    deck.write_text(deck_to_text(SEARCH_LOST))
    return deck


def test_cli_writes_and_reports_the_proof(tmp_path):
    deck = lost_deck_file(tmp_path)
    proof = tmp_path / "lost.drup"
    res = run(["solve", deck, *CLI_RULES, "--proof", proof])
    assert res.exit_code == 20, res.output
    assert s_line(res.stdout) == "s UNWINNABLE"
    assert f"c proof: {proof} (checked by drup; for the CNF {proof}.cnf)" in res.stdout
    assert check_files(f"{proof}.cnf", str(proof))
    again = run(["solve", deck, *CLI_RULES, "--proof", proof])      # never overwritten
    assert again.exit_code == 2 and "--force" in again.stderr
    forced = run(["solve", deck, *CLI_RULES, "--proof", proof, "--force", "--json",
                  "--maximize", "--method", "sat"])
    assert forced.exit_code == 20, forced.output
    got = json.loads(forced.stdout)
    best = solve_live(SEARCH_LOST, RULES, "brute", SolveOptions(maximize=True)).score
    assert got["stats"]["proof_checked"] is True and got["score"] == best < 6
    assert check_files(f"{proof}.cnf", str(proof))


@pytest.mark.parametrize("args, message", [
    (["--proof", "p.drup", "--method", "search"],
     "--proof: method search writes no proofs; with --rules live use --method sat or auto"),
    (["--proof", "-"], "--proof - is not possible: a DRUP proof is written with the CNF"),
])
def test_cli_proof_errors_are_one_line(args, message):
    res = run(["solve", WIN, "--rules", "live", "--players", 2, *args])
    assert res.exit_code == 2
    assert res.stderr.startswith("hanabi-cp: error: ") and message in res.stderr
    assert res.stderr.count("\n") == 1
