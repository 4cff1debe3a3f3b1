"""The `reduce` and `roundtrip` commands through click's CliRunner."""

import csv
import io
import os

from click.testing import CliRunner

from hanabi_cp.cli.main import main
from hanabi_cp.solvers.formula import CNF
from hanabi_cp.io import read_deck_file
from hanabi_cp.solvers.dimacs import write_dimacs
from hanabi_cp.solitaire.reduction import reduce_cnf

FIG2 = "p cnf 3 2\n1 -2 3 0\n1 2 -3 0\n"
UNSAT = "p cnf 1 2\n1 0\n-1 0\n"


def run(args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_reduce_writes_the_annotated_deck(tmp_path):
    f = tmp_path / "fig2.cnf"
    f.write_text(FIG2)
    out = tmp_path / "fig2.deck"
    res = run(["reduce", f, "-o", out])
    assert res.exit_code == 0, res.output
    assert "reduce: 183 cards, n = 15, c = 7, r = 2, h = 2" in res.stderr
    df = read_deck_file(str(out))
    red = reduce_cnf(CNF.of([(1, -2, 3), (1, 2, -3)]))
    assert df.deck == red.deck and df.h == 2 and df.roles == red.roles
    again = run(["reduce", f, "-o", out])
    assert again.exit_code == 2 and "--force" in again.stderr and len(again.stderr.splitlines()) == 1
    assert run(["reduce", f, "-o", out, "--force"]).exit_code == 0


def test_reduce_variants_and_json(tmp_path):
    f = tmp_path / "u.cnf"
    f.write_text(UNSAT)
    out = tmp_path / "u.json"
    res = run(["reduce", f, "-o", out, "--hand", 3, "--copies", 3])
    assert res.exit_code == 0, res.output
    df = read_deck_file(str(out))
    assert df.h == 3 and df.deck.r == 3 and df.roles[0].startswith("hand reduction for the whole deck")
    assert run(["reduce", f, "-o", "-", "--kappa"]).exit_code == 0
    bad = run(["reduce", f, "--hand", 1, "--copies", 2])
    assert bad.exit_code == 2 and "r >= 3 for h = 1" in bad.stderr


def test_reduce_reports_bad_dimacs_on_one_line(tmp_path):
    f = tmp_path / "bad.cnf"
    f.write_text("p cnf 2 2\n1 2 0\n")
    res = run(["reduce", f])
    assert res.exit_code == 2 and len(res.stderr.splitlines()) == 1
    assert str(f) in res.stderr or "bad.cnf" in res.stderr


def test_roundtrip_file_and_directory(tmp_path):
    (tmp_path / "fig2.cnf").write_text(FIG2)
    (tmp_path / "unsat.cnf").write_text(UNSAT)
    write_dimacs(str(tmp_path / "mixed.cnf"), CNF(4, ((1, 2, 3, 4), (-1,), (2, 2, -3))))
    one = run(["roundtrip", tmp_path / "fig2.cnf"])
    assert one.exit_code == 0, one.output
    assert "read-back checked: yes; proof's play checked: yes" in one.output
    table = tmp_path / "rt.csv"
    res = run(["roundtrip", tmp_path, "--csv", table, "--hand", 3])
    assert res.exit_code == 0, res.output
    assert "roundtrip: 3 of 3 formulas agree" in res.output
    rows = list(csv.DictReader(io.StringIO(table.read_text())))
    assert [r["file"] for r in rows] == ["fig2.cnf", "mixed.cnf", "unsat.cnf"]
    assert [r["formula_verdict"] for r in rows] == ["SAT", "SAT", "UNSAT"]
    assert [r["deck_verdict"] for r in rows] == ["WINNABLE", "WINNABLE", "UNWINNABLE"]
    assert all(r["agreement"] == "yes" and r["h"] == "3" for r in rows)
    # The CSV is never overwritten: a rerun resumes (nothing left to do), another
    # hand size adds its own rows, and the variant is part of each row's identity.
    again = run(["roundtrip", tmp_path, "--csv", table, "--hand", 3])
    assert again.exit_code == 0 and "(0 new)" in again.output
    assert "roundtrip: 3 of 3 formulas agree" in again.output
    assert list(csv.DictReader(io.StringIO(table.read_text()))) == rows
    other = run(["roundtrip", tmp_path, "--csv", table])
    assert other.exit_code == 0 and "(3 new)" in other.output
    rows = list(csv.DictReader(io.StringIO(table.read_text())))
    assert [(r["h"], r["variant"]) for r in rows] == [("3", "base")] * 3 + [("2", "base")] * 3


def test_roundtrip_names_a_disagreeing_formula(tmp_path, monkeypatch):
    from hanabi_cp.apps import roundtrip as rt
    (tmp_path / "fig2.cnf").write_text(FIG2)
    monkeypatch.setattr(rt, "formula_sat", lambda cnf: (False, None))   # a lying SAT solver
    res = run(["roundtrip", tmp_path / "fig2.cnf"])
    assert res.exit_code == 1 and "DISAGREEMENT on fig2.cnf" in res.output
    os.remove(tmp_path / "fig2.cnf")
    empty = run(["roundtrip", tmp_path])
    assert empty.exit_code == 2 and "no .cnf files" in empty.stderr


def _model(text):
    lits = [int(t) for line in text.splitlines() if line.startswith("v ") for t in line.split()[1:]]
    assert lits[-1] == 0
    return lits[:-1]


def test_read_back_turns_a_winning_play_into_a_satisfying_assignment(tmp_path):
    f = tmp_path / "fig2.cnf"
    f.write_text(FIG2)
    deck, plays = tmp_path / "fig2.deck", tmp_path / "fig2.plays"
    assert run(["reduce", f, "-o", deck]).exit_code == 0
    assert run(["solve", deck, "--method", "sat", "--certificate", plays]).exit_code == 10
    res = run(["reduce", f, "--read-back", plays])
    assert res.exit_code == 0, res.output
    assert "s SATISFIABLE" in res.stdout.splitlines()
    model = _model(res.stdout)
    assert sorted(map(abs, model)) == [1, 2, 3]
    assert CNF.of([(1, -2, 3), (1, 2, -3)]).satisfied_by(model)
    # every winning play reads back, not only the solver's: the proof's own play
    from hanabi_cp.solitaire.reduction.witnesses import play_from_assignment
    red = reduce_cnf(CNF.of([(1, -2, 3), (1, 2, -3)]))
    proof = tmp_path / "proof.plays"
    proof.write_text(str(play_from_assignment(red, {1: False, 2: False, 3: False})) + "\n")
    back = _model(run(["reduce", f, "--read-back", proof]).stdout)
    assert CNF.of([(1, -2, 3), (1, 2, -3)]).satisfied_by(back)


def test_read_back_refuses_a_play_of_another_deck_naming_the_file(tmp_path):
    f = tmp_path / "fig2.cnf"
    f.write_text(FIG2)
    deck, plays = tmp_path / "fig2.deck", tmp_path / "fig2.plays"
    run(["reduce", f, "-o", deck])
    run(["solve", deck, "--method", "sat", "--certificate", plays])
    res = run(["reduce", f, "--hand", 3, "--read-back", plays])
    assert res.exit_code == 2 and len(res.stderr.splitlines()) == 1
    assert "fig2.plays: not a winning play sequence" in res.stderr and "same hand size" in res.stderr
    out = tmp_path / "fig2.model"
    assert run(["reduce", f, "--read-back", plays, "-o", out]).exit_code == 0
    again = run(["reduce", f, "--read-back", plays, "-o", out])
    assert again.exit_code == 2 and "--force" in again.stderr
