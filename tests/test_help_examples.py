"""Every `hanabi-cp ...` line of every command's --help example runs as written
from a clone's root (where the examples say to run them), in order, so a later line
may use a file an earlier one wrote."""

import os
import shlex

import click
import pytest
from click.testing import CliRunner

from hanabi_cp.cli.main import main

INSTANCES = os.path.join(os.path.dirname(__file__), os.pardir, "instances")
# Whole sweeps (a study, the harness, a directory of SATLIB formulas) take minutes;
# their options are exercised by their own tests.
LONG = ("study", "harness")


def example_lines(cmd: click.Command) -> list[str]:
    lines, inside = [], False
    for line in (cmd.help or "").splitlines():
        if line.strip().startswith("Example"):
            inside = True
        elif inside and line.strip().startswith("hanabi-cp "):
            lines.append(line.split("#")[0].strip())
    return lines


COMMANDS = sorted(n for n in main.list_commands(None) if n not in LONG)


@pytest.mark.parametrize("name", COMMANDS)
def test_help_examples_run(name, tmp_path, monkeypatch):
    if name == "hle":
        pytest.importorskip("hanabi_learning_environment",
                            reason="the Hanabi Learning Environment is not installed "
                                   "(pip install '.[hle]' from a clone)")
    os.symlink(os.path.abspath(INSTANCES), tmp_path / "instances")
    monkeypatch.chdir(tmp_path)
    lines = example_lines(main.get_command(None, name)) + (example_lines(main) if name == "solve" else [])
    if name == "decode":    # its example's middle line is an external solver: play it here
        lines = lines[:1]
    ran = 0
    for line in lines:
        argv = shlex.split(line)[1:]
        if any(os.path.isdir(a) for a in argv[1:] if a.startswith("instances/satlib")):
            continue        # a whole SATLIB family: minutes
        res = CliRunner().invoke(main, argv)
        assert res.exit_code in (0, 10, 20), (line, res.output, res.exception)
        ran += 1
    if name not in ("decode",):
        assert ran, f"{name} --help has no runnable example"


def test_decode_example_with_a_solver_in_between(tmp_path, monkeypatch):
    from pysat.formula import CNF
    from pysat.solvers import Solver
    os.symlink(os.path.abspath(INSTANCES), tmp_path / "instances")
    monkeypatch.chdir(tmp_path)
    first, last = example_lines(main.get_command(None, "decode"))
    assert CliRunner().invoke(main, shlex.split(first)[1:]).exit_code == 0
    with Solver(name="cadical195", bootstrap_with=CNF(from_file="deck.cnf").clauses) as s:
        assert s.solve()
        (tmp_path / "deck.model").write_text("s SATISFIABLE\nv " + " ".join(map(str, s.get_model())) + " 0\n")
    res = CliRunner().invoke(main, shlex.split(last)[1:])
    assert res.exit_code == 10 and "s WINNABLE" in res.output, res.output
