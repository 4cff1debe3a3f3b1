"""Proof bundles of Up or Down and Sudoku losses (``solve --proof DIR``): one DRUP
proof per pile plan, checked by drup, the plan list derived again from the
position; a tampered proof, a missing plan or another plan's CNF is rejected."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from hanabi_cp.core.errors import FileError
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.status import Status
from hanabi_cp.io import deck_to_text
from hanabi_cp.real.plan_proofs import MANIFEST, check_bundle, plan_text
from hanabi_cp.real.pile_plans import plans_from
from hanabi_cp.real.referee import Game
from hanabi_cp.real.solve import solve_position
from hanabi_cp.solvers.proofs import check_files
from test_cli import run
from test_pile_plans import SU, SU4, UP, S, deal

# Lost: Red 2 before any Red 1, 5 or START (4 plans, each encoded and refuted)
UP_LOST = deal(UP, [(2, 1), (3, 1), (1, 1), (4, 1), (5, 1), (S, 1)], hand=1, clues=1)
# Lost: no Red 1, so the plans going up from 1 are left to their caps
UP_CAPPED = deal(UP, [(2, 1), (3, 1), (S, 1), (4, 1), (5, 1), (2, 1)], hand=1, clues=1)
# Lost, and one plan's CNF is not refuted by unit propagation alone
UP_DEEP = deal(UP, [(4, 1), (5, 1), (1, 1), (3, 1), (2, 1), (4, 1)], hand=1, clues=2)
SU4_LOST = deal(SU4, [(1, 1), (3, 1), (4, 1), (3, 1), (2, 1)], hand=2, clues=1)
SU_LOST = deal(SU, [(5, 1), (3, 1), (2, 1), (4, 1), (1, 1)], hand=2, clues=2)


def proved(start: Game, path: Path, maximize: bool = False):
    out = solve_position(start, "sat", SolveOptions(proof=str(path), maximize=maximize))
    assert out.status is Status.UNWINNABLE and out.stats["proof_checked"] is True, out.reason
    assert "(proofs: " in out.reason and (path / MANIFEST).is_file()
    assert not [p for p in os.listdir(path.parent) if p.endswith(".part")]
    return out


def manifest(path: Path) -> dict:
    return json.loads((path / MANIFEST).read_text())


def rewrite(path: Path, data: dict) -> None:
    (path / MANIFEST).write_text(json.dumps(data))


@pytest.mark.parametrize("start", [UP_LOST, UP_CAPPED, SU4_LOST, SU_LOST],
                         ids=["updown", "updown-capped", "sudoku4", "sudoku5"])
@pytest.mark.parametrize("maximize", [False, True])
def test_a_loss_is_proved_plan_by_plan_and_checks_again(tmp_path, start, maximize):
    path = tmp_path / "proof"
    out = proved(start, path, maximize)
    best = solve_position(start, "brute", SolveOptions(maximize=True)).score
    assert out.score == (best if maximize else None)
    data = manifest(path)
    assert data["best"] == out.score and data["deck"] == deck_to_text(start.deck)
    for e in data["plans"]:                 # any DRUP checker re-checks each pair
        assert check_files(str(path / e["cnf"]), str(path / e["proof"]))
        head = (path / e["cnf"]).read_text().splitlines()[:3]
        assert head[1].startswith("c pile plan: ")
    checked = check_bundle(start, str(path))
    assert checked.error is None and checked.proved == len(data["plans"]) > 0
    assert checked.plans == len(plans_from(start.chosen, start.played))
    assert checked.proved + checked.capped == checked.plans


def test_plans_below_the_target_are_covered_by_their_caps(tmp_path):
    path = tmp_path / "proof"
    proved(UP_CAPPED, path)
    checked = check_bundle(UP_CAPPED, str(path))
    assert checked.error is None and checked.capped > 0
    assert "by their caps" in checked.text


def test_a_corrupted_proof_is_rejected(tmp_path):
    path = tmp_path / "proof"
    proved(UP_DEEP, path)
    data = manifest(path)
    bare = tmp_path / "bare.drup"
    bare.write_text("0\n")                  # the empty clause without its lemmas
    # a plan whose CNF unit propagation alone does not refute
    i = next(i for i, e in enumerate(data["plans"])
             if not check_files(str(path / e["cnf"]), str(bare)))
    proof = path / data["plans"][i]["proof"]
    proof.write_text("0\n")
    assert "sha256 is not the manifest's" in check_bundle(UP_DEEP, str(path)).error
    data["plans"][i]["proof_sha256"] = hashlib.sha256(b"0\n").hexdigest()
    rewrite(path, data)                     # the manifest made to agree: drup says no
    error = f"{proof}: drup does not accept it as a refutation of its CNF"
    assert check_bundle(UP_DEEP, str(path)).error == error
    assert check_bundle(UP_DEEP, str(path), workers=2).error == error   # one pair each


def test_two_checker_processes_check_a_bundle(tmp_path):
    path = tmp_path / "proof"
    out = solve_position(SU4_LOST, "sat", SolveOptions(proof=str(path), workers=2))
    assert out.status is Status.UNWINNABLE and out.stats["proof_checked"] is True
    assert check_bundle(SU4_LOST, str(path), workers=3).error is None


def test_a_missing_plan_is_detected(tmp_path):
    """The checker lists the plans from the position, not from the manifest: a plan
    left out of it (files and all) is named."""
    path = tmp_path / "proof"
    proved(SU4_LOST, path)
    data = manifest(path)
    gone = data["plans"].pop()
    rewrite(path, data)
    error = check_bundle(SU4_LOST, str(path)).error
    orders = tuple(tuple(o) for o in gone["orders"])
    plan = next(p for p in plans_from(SU4, SU4_LOST.played) if p.orders == orders)
    assert error == (f"pile plan {plan_text(plan)}: no proof in the bundle, and its caps "
                     f"reach the goal")


def test_another_plans_cnf_is_rejected(tmp_path):
    """Two entries' files swapped (their hashes too): each proof still refutes the CNF
    beside it, but that CNF is not its plan's, built again from the position."""
    path = tmp_path / "proof"
    proved(UP_LOST, path)
    data = manifest(path)
    a, b = data["plans"][:2]
    for key in ("cnf", "proof", "cnf_sha256", "proof_sha256"):
        a[key], b[key] = b[key], a[key]
    rewrite(path, data)
    assert "not the CNF of pile plan" in check_bundle(UP_LOST, str(path)).error


def test_a_weaker_claim_or_another_deck_is_rejected(tmp_path):
    path = tmp_path / "proof"
    out = proved(UP_LOST, path, maximize=True)
    data = manifest(path)
    data["best"] = out.score - 1            # "no game scores more than best - 1": unproved
    rewrite(path, data)
    assert "refutes more than" in check_bundle(UP_LOST, str(path)).error
    other = deal(UP, [(3, 1), (2, 1), (1, 1), (4, 1), (5, 1), (S, 1)], hand=1, clues=1)
    proved(UP_LOST, tmp_path / "win")
    assert check_bundle(other, str(tmp_path / "win")).error is not None


def test_a_manifest_of_another_game_or_no_list_is_rejected(tmp_path):
    path = tmp_path / "proof"
    proved(UP_LOST, path)
    longer = deal(UP, [(2, 1), (3, 1), (1, 1), (4, 1), (5, 1), (S, 1)], hand=1, clues=2)
    assert check_bundle(longer, str(path)).error.startswith("the bundle is of another rules")
    data = manifest(path)
    data["plans"] = 3
    rewrite(path, data)
    assert '"plans" is not a list' in check_bundle(UP_LOST, str(path)).error


def test_a_library_call_never_replaces_a_folder_of_other_files(tmp_path):
    (tmp_path / "mine.txt").write_text("mine\n")
    with pytest.raises(FileError, match="a folder that holds other files"):
        solve_position(UP_LOST, "sat", SolveOptions(proof=str(tmp_path)))
    assert os.listdir(tmp_path) == ["mine.txt"]


def test_a_winnable_deal_leaves_no_bundle(tmp_path):
    start = deal(UP, [(5, 1), (S, 1), (4, 1), (1, 1), (3, 1), (2, 1), (4, 1), (3, 1), (2, 1)],
                 hand=2, clues=8)
    path = tmp_path / "proof"
    out = solve_position(start, "sat", SolveOptions(proof=str(path)))
    assert out.status is Status.WINNABLE and not path.exists()
    assert os.listdir(tmp_path) == []


def test_a_check_past_the_deadline_leaves_nothing(tmp_path, monkeypatch):
    """The checker is killed at the deadline: UNKNOWN, and neither the folder nor
    its temporary one is left behind."""
    import sys
    from hanabi_cp.solvers import proofs
    monkeypatch.setattr(proofs, "checker_command", lambda *paths: [
        sys.executable, "-c", "import time; time.sleep(30)"])
    path = tmp_path / "proof"
    out = solve_position(UP_LOST, "sat", SolveOptions(proof=str(path), time_limit=3.0))
    assert out.status is Status.UNKNOWN and out.reason.startswith("proof check did not")
    assert os.listdir(tmp_path) == []


def test_a_rejected_bundle_is_no_answer_and_leaves_no_folder(tmp_path, monkeypatch):
    from hanabi_cp.real import plan_proofs
    monkeypatch.setattr(plan_proofs, "first_rejected_within", lambda pairs, deadline, workers: 0)
    path = tmp_path / "proof"
    out = solve_position(UP_LOST, "sat", SolveOptions(proof=str(path)))
    assert out.status is Status.UNKNOWN and "proof" not in out.stats
    assert "drup does not accept it" in out.reason and os.listdir(tmp_path) == []


CLI = ["--rules", "live", "--players", 2, "--hand-size", 1, "--clues", 1,
       "--variant", "Up or Down (5 Suits)", "--any-deck"]


def test_cli_writes_verifies_and_refuses(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text(deck_to_text(UP_LOST.deck))
    path = tmp_path / "proof"
    res = run(["solve", deck, *CLI, "--proof", path])
    assert res.exit_code == 20, res.output
    assert (f"c proof: {path} (a folder; no game wins: 4 of the 4 pile plans refuted by "
            f"DRUP proofs checked by drup, the other 0 by their caps)") in res.stdout
    again = run(["verify", deck, path, *CLI])
    assert again.exit_code == 0 and "s VERIFIED" in again.stdout
    for args, words in [([], "refusing to overwrite an existing proof bundle; use --force"),
                        (["--variant", "No Variant"], "cannot write: it is a directory")]:
        res = run(["solve", deck, *CLI, "--proof", path, *args])
        assert res.exit_code == 2 and words in res.stderr
        assert res.stderr.count("\n") == 1
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine\n")
    res = run(["solve", deck, *CLI, "--proof", other, "--force"])
    assert res.exit_code == 2 and "holds other files" in res.stderr
    assert (other / "notes.txt").read_text() == "mine\n"
    forced = run(["solve", deck, *CLI, "--proof", path, "--force", "--maximize",
                  "--method", "sat"])
    assert forced.exit_code == 20, forced.output
    assert manifest(path)["best"] is not None
    (path / manifest(path)["plans"][0]["proof"]).write_text("0\n")
    bad = run(["verify", deck, path, *CLI])
    assert bad.exit_code == 1 and "s REJECTED" in bad.stdout
    assert "sha256 is not the manifest's" in bad.stdout
    (path / MANIFEST).write_text("{not json")
    broken = run(["verify", deck, path, *CLI])
    assert broken.exit_code == 2 and "cannot read the proof bundle's manifest" in broken.stderr
    assert broken.stderr.count("\n") == 1


def test_cli_proof_to_a_folder_named_with_a_slash(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text(deck_to_text(SU4_LOST.deck))
    args = ["--rules", "live", "--players", 2, "--hand-size", 2, "--clues", 1,
            "--variant", "Sudoku (4 Suits)", "--any-deck"]
    res = run(["solve", deck, *args, "--proof", f"{tmp_path / 'sudoku'}/"])
    assert res.exit_code == 20, res.output
    assert (tmp_path / "sudoku" / MANIFEST).is_file()
    assert run(["verify", deck, tmp_path / "sudoku", *args]).exit_code == 0
