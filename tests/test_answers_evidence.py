"""An external solver's answer is evidence, not a verdict (issue 46): in every
format, an answer that says "no solution" and gives a winning model, a cost or
objective line that its assignment does not score, and a "no" or an optimum that a
greedy game beats are errors naming the line; a "no" without a checked proof is
reported as the solver's claim, with a DRUP proof it is checked.  Every answer
goes through one reader: /dev/zero, NUL bytes, bad UTF-8, unknown status values
and non-ASCII digits give one line and exit 2."""

import json
import os
import sys

import pytest
from click.testing import CliRunner

from hanabi_cp.cli import main

ROOT = os.path.join(os.path.dirname(__file__), os.pardir)
WON = os.path.join(ROOT, "instances", "standard-winnable-h2.txt")
SEARCH_LOST = os.path.join(ROOT, "instances", "standard-search-unwinnable-h3.txt")


def run(args, **kw):
    return CliRunner().invoke(main, [str(a) for a in args], **kw)


def one_line_error(res, *words):
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output and len(res.stderr.strip().splitlines()) == 1
    for w in words:
        assert w in res.stderr, res.stderr
    return res.stderr


@pytest.fixture(scope="module")
def dimacs_model(tmp_path_factory):
    """A real SAT solver's model of the winnable deck's CNF (literals)."""
    from pysat.solvers import Solver

    from hanabi_cp.solvers.dimacs import read_dimacs
    d = tmp_path_factory.mktemp("cnf")
    assert run(["encode", WON, "--hand", 2, "-o", d / "w.cnf"]).exit_code == 0
    with Solver(name="cadical153", bootstrap_with=read_dimacs(str(d / "w.cnf")).clauses) as s:
        assert s.solve()
        return s.get_model()


def test_unsat_with_a_winning_model_is_an_error_naming_the_line(tmp_path, dimacs_model):
    m = tmp_path / "m"
    m.write_text("c cadical\ns UNSATISFIABLE\nv " + " ".join(map(str, dimacs_model)) + " 0\n")
    err = one_line_error(run(["decode", WON, m, "--hand", 2]), f"{m}:2:", "line 3",
                         "wins the deck")
    assert "UNSATISFIABLE" in err
    # The same model under its true status wins.
    m.write_text("s SATISFIABLE\nv " + " ".join(map(str, dimacs_model)) + " 0\n")
    assert run(["decode", WON, m, "--hand", 2]).exit_code == 10
    # Two status lines that disagree.
    m.write_text("s SATISFIABLE\ns UNSATISFIABLE\n")
    one_line_error(run(["decode", WON, m, "--hand", 2]), f"{m}:2:", "status of line 1")


def test_a_no_without_proof_is_the_solvers_claim_text_and_json(tmp_path):
    m = tmp_path / "m"
    m.write_text("s UNSATISFIABLE\n")
    res = run(["decode", SEARCH_LOST, m, "--hand", 3])
    assert res.exit_code == 20
    assert "c claim: UNWINNABLE is the claim of the SAT solver, not checked" in res.stdout
    res = run(["decode", SEARCH_LOST, m, "--hand", 3, "--json"])
    assert res.exit_code == 20
    data = json.loads(res.stdout)
    assert data["status"] == "UNWINNABLE" and data["proved"] is False
    assert "claim of the SAT solver" in data["claim"]


def test_a_no_with_a_drup_proof_is_checked(tmp_path):
    proof = tmp_path / "p.drup"
    res = run(["solve", SEARCH_LOST, "--method", "sat", "--proof", proof])
    assert res.exit_code == 20
    m = tmp_path / "m"
    m.write_text("s UNSATISFIABLE\n")
    res = run(["decode", SEARCH_LOST, m, "--hand", 3, "--proof", proof, "--json"])
    assert res.exit_code == 20, res.output
    data = json.loads(res.stdout)
    assert data["proved"] is True and data["claim"] is None and "proved" in data["reason"]
    bogus = tmp_path / "bogus.drup"
    bogus.write_text("1 2 0\n0\n")
    one_line_error(run(["decode", SEARCH_LOST, m, "--hand", 3, "--proof", bogus]),
                   str(bogus), "does not accept it")
    one_line_error(run(["decode", SEARCH_LOST, m, "--hand", 3, "--proof", "/dev/zero"]),
                   "/dev/zero:1", "NUL")
    one_line_error(run(["decode", WON, m, "--hand", 2, "--format", "opb", "--proof", proof]),
                   "--proof goes with --format dimacs")


def test_a_no_that_a_greedy_game_beats_is_an_error(tmp_path):
    # Every card playable on sight: a greedy game wins.
    deck = tmp_path / "d.txt"
    deck.write_text("1r 2r 3r 1y 2y 3y\n")
    m = tmp_path / "m"
    m.write_text("s UNSATISFIABLE\n")
    one_line_error(run(["decode", deck, m, "--hand", 0]), f"{m}:1:", "greedy game plays 6")
    m.write_text("=====UNSATISFIABLE=====\n")
    one_line_error(run(["decode", deck, m, "--hand", 0, "--format", "mzn"]), f"{m}:1:",
                   "greedy game plays 6")


def test_wcnf_cost_line_must_be_what_the_assignment_costs(tmp_path):
    a = tmp_path / "a"
    a.write_text("s OPTIMUM FOUND\no 0\nv 0\n")      # all false: costs every soft clause
    one_line_error(run(["decode", WON, a, "--hand", 2, "--format", "wcnf"]), f"{a}:2:",
                   "costs 25")
    # Self-consistent (cost 25 = nothing played), but a greedy game plays more.
    a.write_text("s OPTIMUM FOUND\no 25\nv 0\n")
    one_line_error(run(["decode", WON, a, "--hand", 2, "--format", "wcnf"]), f"{a}:1:",
                   "greedy game plays")


def test_opb_objective_and_unsat_with_model(tmp_path):
    a = tmp_path / "a"
    a.write_text("s OPTIMUM FOUND\no -25\nv -x1 -x2\n")
    one_line_error(run(["decode", WON, a, "--hand", 2, "--format", "opb", "--maximize"]),
                   f"{a}:2:", "costs 0")
    a.write_text("s UNSATISFIABLE\nv -x1 -x2\n")
    one_line_error(run(["decode", WON, a, "--hand", 2, "--format", "opb"]), f"{a}:1:",
                   "gives a model (line 2)")


def _cpsat_answer(tmp_path, maximize):
    from ortools.sat.python import cp_model
    model_file = tmp_path / f"m{int(maximize)}.txt"
    res = run(["encode", WON, "--hand", 2, "--format", "cpsat", "-o", model_file]
              + (["--maximize"] if maximize else []))
    assert res.exit_code == 0
    model = cp_model.CpModel()
    model.Proto().parse_text_format("".join(line for line in open(model_file)
                                            if not line.startswith("#")))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.Solve(model)
    return str(solver.ResponseProto())


def test_cpsat_infeasible_with_a_solution_and_a_wrong_objective(tmp_path):
    answer = _cpsat_answer(tmp_path, False)
    a = tmp_path / "a.txt"
    a.write_text(answer.replace("status: OPTIMAL", "status: INFEASIBLE"))
    one_line_error(run(["decode", WON, a, "--hand", 2, "--format", "cpsat"]), f"{a}:1:",
                   "wins the deck")
    answer = _cpsat_answer(tmp_path, True)
    lines = answer.splitlines()
    at = next(i for i, line in enumerate(lines, 1) if line.startswith("objective_value"))
    a.write_text("\n".join(line if not line.startswith("objective_value") else
                           "objective_value: 3" for line in lines) + "\n")
    one_line_error(run(["decode", WON, a, "--hand", 2, "--format", "cpsat", "--maximize"]),
                   f"{a}:{at}:", "plays 25 cards")
    a.write_text("status: 77\n")
    one_line_error(run(["decode", WON, a, "--hand", 2, "--format", "cpsat"]), f"{a}:1:",
                   "found 77")


def test_minizinc_unsatisfiable_with_a_solution(tmp_path):
    a = tmp_path / "a"
    a.write_text("picks = [1];\nscore = 1;\n----------\n=====UNSATISFIABLE=====\n")
    one_line_error(run(["decode", WON, a, "--hand", 2, "--format", "mzn"]), f"{a}:4:",
                   "gives a model (line 3)")


@pytest.mark.parametrize("fmt", ["dimacs", "cpsat", "mzn", "opb", "wcnf"])
def test_every_format_reads_through_the_one_reader(tmp_path, fmt):
    one_line_error(run(["decode", WON, "/dev/zero", "--hand", 2, "--format", fmt]),
                   "/dev/zero:1: expected text, found a NUL byte")
    a = tmp_path / "a"
    a.write_bytes(b"s SATISFIABLE\n\xff\n")
    one_line_error(run(["decode", WON, a, "--hand", 2, "--format", fmt]),
                   f"{a}:2: expected UTF-8 text")
    one_line_error(run(["decode", WON, tmp_path, "--hand", 2, "--format", fmt]),
                   "a directory")


@pytest.mark.parametrize("fmt, text, line", [
    ("dimacs", "s SATISFIABLE\nv 1 \u00b2 0\n", 2),
    ("dimacs", "s SATISFIABLE\nv 1 \u0661 0\n", 2),        # int() would read it
    ("wcnf", "s OPTIMUM FOUND\no \u00b2\n", 2),
    ("opb", "s SATISFIABLE\nv x\u00b2\n", 2),
    ("opb", "s SATISFIABLE\nv x1_0\n", 2),
    ("mzn", "picks = [1, \u00b2];\nscore = 1;\n----------\n", 3),
    ("mzn", "picks = [1];\nscore = \u0661;\n----------\n", 3),
])
def test_ascii_digits_only(tmp_path, fmt, text, line):
    a = tmp_path / "a"
    a.write_text(text)
    one_line_error(run(["decode", WON, a, "--hand", 2, "--format", fmt]), f"{a}:{line}:")


def test_binary_cpsat_answer_is_capped_and_read_once(tmp_path):
    a = tmp_path / "a.pb"
    a.write_bytes(b"\0" * 10)
    one_line_error(run(["decode", WON, a, "--hand", 2, "--format", "cpsat"]),
                   "not a CpSolverResponse")


def test_the_time_limit_bounds_decode_proof_check_included(tmp_path, monkeypatch):
    # A proof check that would run past the deadline is killed: UNKNOWN, never a claim
    # (the stand-in checker would say "valid" after 60 s).
    from hanabi_cp.solvers import proofs
    proof = tmp_path / "p.drup"
    assert run(["solve", SEARCH_LOST, "--method", "sat", "--proof", proof]).exit_code == 20
    m = tmp_path / "m"
    m.write_text("s UNSATISFIABLE\n")
    slow = [sys.executable, "-c", "import time; time.sleep(60)"]
    monkeypatch.setattr(proofs, "checker_command", lambda cnf, p: slow)
    res = run(["decode", SEARCH_LOST, m, "--hand", 3, "--proof", proof, "--time-limit", 1,
               "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["status"] == "UNKNOWN" and "proof check" in data["reason"]
