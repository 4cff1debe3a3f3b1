"""Files as users keep them: result CSVs edited by hand, file names that are not UTF-8,
an output naming its own input, and ``-`` where a file (or a folder) is meant.

Each ends with the answer, or one error line naming the file, the line or the
option (exit code 2), and never with a file overwritten or created by mistake.
"""

from __future__ import annotations

import csv
import os
import sys

import pytest
from click.testing import CliRunner

from capped import assert_one_line_error, invoke
from hanabi_cp.cli import main
from hanabi_cp.core.errors import InputError
from hanabi_cp.io.results_csv import COLUMNS, ResultsCSV
from hanabi_cp.io.textio import printable

HERE = os.path.dirname(os.path.abspath(__file__))
INST = os.path.join(HERE, os.pardir, "instances")
STD = os.path.join(INST, "standard-winnable-h2.txt")
UNSAT = os.path.join(INST, "small-search-unwinnable-h1.txt")
UF20 = os.path.join(INST, "satlib", "uf20-91")
# A byte that is not UTF-8, as Python's argv and os functions carry it (PEP 383).
E9 = os.fsdecode(b"\xe9")
linux_names = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                 reason="file names of any bytes are Linux's")

# (command, the arguments of a first run, of a rerun that resumes)
TABLES = {
    "study standard": (["study", "standard", "--count", 1, "--hands", 2, "--no-maximize",
                        "--no-min-hand", "--no-progress"], ["--count", 2]),
    "study random": (["study", "random", "--points", 2, "--count", 1, "--methods", "search",
                      "--no-progress"], ["--count", 2]),
    "study hard": (["study", "hard", "--n", 2, "--c", 2, "--steps", 2, "--random", 2,
                    "--no-progress", "--out", "{tmp}/hard"], ["--steps", 3]),
    "harness": (["harness", "--seed", 1, "--count", 2, "--methods", "search,dp",
                 "--no-progress"], ["--count", 3]),
    "play": (["play", "--games", 1, "--players", 2], ["--games", 2]),
}


def first_run(tmp_path, name):
    args, more = TABLES[name]
    args = [str(a).replace("{tmp}", str(tmp_path)) for a in args]
    path = tmp_path / "t.csv"
    res = invoke([*args, "--csv", path])
    assert res.exit_code == 0 and res.error is None, (res.stderr, res.error)
    return [*args, "--csv", path, *more, *(["--force"] if "study" in name else [])], path


def edit(path, row: int, column: str, value: str) -> None:
    rows = list(csv.reader(open(path, newline="")))
    rows[row][rows[0].index(column)] = value
    with open(path, "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_a_word_in_a_number_column_names_the_line(tmp_path, name):
    args, path = first_run(tmp_path, name)
    header = next(csv.reader(open(path)))
    numeric = [c for c in header if c in COLUMNS]
    assert numeric, header
    for column in numeric:
        edit(path, 1, column, "oops")
        before = path.read_bytes()
        res = invoke(args)
        assert_one_line_error(res, f"t.csv:2: expected", f"in column {column!r}", "found 'oops'")
        assert path.read_bytes() == before
        edit(path, 1, column, "")       # an empty cell is a legal "no value"


def test_every_numeric_column_of_the_tables_is_checked(tmp_path):
    # the numeric columns of every table written here: a new one must be in COLUMNS
    for name in sorted(TABLES):
        folder = tmp_path / name.replace(" ", "-")
        folder.mkdir()
        _, path = first_run(folder, name)
        rows = list(csv.DictReader(open(path)))
        for column in rows[0]:
            cells = [r[column] for r in rows if r[column]]
            if cells and all(c.replace(".", "", 1).lstrip("-").isdigit() for c in cells):
                assert column in COLUMNS, (name, column, cells[:3])


def test_a_bound_method_without_its_time_is_refused(tmp_path):
    path = tmp_path / "p.csv"
    assert invoke(["play", "--games", 1, "--players", 2, "--csv", path]).exit_code == 0
    edit(path, 1, "bound_method", "search")
    res = invoke(["play", "--games", 2, "--players", 2, "--csv", path])
    assert_one_line_error(res, "p.csv:2: expected a value in column 'bound_seconds' with one "
                               "in 'bound_method'")


def test_the_reader_checks_columns_by_name(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("seed,verdict,seconds\n1,WINNABLE,0.5\n2,WINNABLE,nan\n")
    with pytest.raises(InputError, match=r"r.csv:3: expected a number in column 'seconds'"):
        ResultsCSV(str(path), ["seed", "verdict", "seconds"], ["seed"])
    path.write_text("seed,verdict,seconds\n1x,WINNABLE,0.5\n")
    with pytest.raises(InputError, match=r"r.csv:2: expected an integer in column 'seed'"):
        ResultsCSV(str(path), ["seed", "verdict", "seconds"], ["seed"])


# --- file names that are not UTF-8 -----------------------------------------------------

@linux_names
def test_roundtrip_of_a_formula_whose_name_is_not_utf8_resumes(tmp_path):
    folder = tmp_path / "f"
    folder.mkdir()
    name = f"caf{E9}.cnf"
    (folder / name).write_bytes(open(os.path.join(UF20, "uf20-01.cnf"), "rb").read())
    csv_path = tmp_path / f"r{E9}.csv"
    res = invoke(["roundtrip", folder, "--csv", csv_path])
    assert res.exit_code == 0 and res.error is None, (res.stderr, res.error)
    text = csv_path.read_bytes().decode("utf-8")          # the CSV stays UTF-8
    assert "caf\\xe9.cnf," in text
    again = invoke(["roundtrip", folder, "--csv", csv_path])
    assert again.exit_code == 0 and "(0 new)" in again.stdout, again.stdout
    assert csv_path.read_bytes().decode("utf-8") == text


@linux_names
def test_a_study_whose_csv_name_is_not_utf8_draws_and_redraws(tmp_path):
    csv_path = tmp_path / f"s{E9}.csv"
    args = ["study", "standard", "--count", 1, "--hands", 2, "--no-maximize", "--no-min-hand",
            "--no-progress", "--csv", csv_path]
    for _ in range(2):                     # the rerun redraws its own figures
        res = invoke(args)
        assert res.exit_code == 0 and res.error is None, (res.stderr, res.error)
    assert sorted(os.listdir(tmp_path)) == sorted([f"s{E9}.csv", f"s{E9}.png", f"s{E9}.svg"])


@linux_names
@pytest.mark.parametrize("args", [
    ["show", "{deck}", "--hand", 2, "-o", "{tmp}/s.svg"],
    ["show", "{deck}", "--hand", 2, "-o", "{tmp}/s.html"],
    ["encode", "{deck}", "--hand", 2, "-o", "{tmp}/e.cnf"],
    ["solve", "{deck}", "--hand", 2, "--certificate", "{tmp}/c.txt"],
    ["generate", "standard", "--seed", 1, "-o", "{tmp}/g" + E9 + ".txt"],
])
def test_commands_take_names_that_are_not_utf8(tmp_path, args):
    deck = tmp_path / f"d{E9}.txt"
    deck.write_text(open(STD).read())
    args = [str(a).replace("{deck}", str(deck)).replace("{tmp}", str(tmp_path)) for a in args]
    res = invoke(args)
    assert res.error is None and res.exit_code in (0, 10), (res.stderr, res.error)
    for f in os.listdir(tmp_path):
        if f.endswith((".svg", ".html", ".cnf", ".txt")):
            (tmp_path / f).read_bytes().decode("utf-8")     # what we wrote is UTF-8


def test_printable_escapes_only_what_utf8_cannot_hold():
    assert printable("plain.cnf") == "plain.cnf" and printable("é") == "é"
    assert printable(f"caf{E9}.cnf") == "caf\\xe9.cnf"


# --- an output that is the input; "-" for files --------------------------------------

@pytest.mark.parametrize("spelling", ["same", "dot", "symlink", "hardlink"])
def test_show_refuses_to_overwrite_its_own_input_even_with_force(tmp_path, spelling):
    deck = tmp_path / "d.svg"          # a deck file whose name says picture
    deck.write_text(open(STD).read())
    out = {"same": deck, "dot": tmp_path / "." / "d.svg"}.get(spelling, tmp_path / "o.svg")
    if spelling == "symlink":
        os.symlink(deck, out)
    elif spelling == "hardlink":
        os.link(deck, out)
    before = deck.read_text()
    res = invoke(["show", deck, "-o", out, "--force"])
    assert_one_line_error(res, "is also the input DECK")
    assert deck.read_text() == before


def test_show_refuses_to_overwrite_its_certificate(tmp_path):
    cert = tmp_path / "c.svg"
    assert invoke(["solve", STD, "--hand", 2, "--certificate", cert]).exit_code == 10
    res = invoke(["show", STD, "--hand", 2, "--certificate", cert, "-o", cert, "--force"])
    assert_one_line_error(res, "is also the input --certificate")


@pytest.mark.parametrize("args,fragment", [
    (["solve", UNSAT, "--hand", 1, "--method", "sat", "--proof", "-"], "--proof - is not possible"),
    (["study", "standard", "--count", 1, "--csv", "{tmp}/s.csv", "--figure", "-"],
     "--figure - is not possible"),
    (["study", "hard", "--out", "-", "--csv", "{tmp}/h.csv"], "--out - is not possible"),
    (["harness", "--count", 1, "--out", "-"], "--out - is not possible"),
    (["generate", "family", "images", "--vars", 3, "--count", 1, "-o", "-"], "-o - is not possible"),
])
def test_a_dash_where_files_are_meant_is_refused(tmp_path, monkeypatch, args, fragment):
    monkeypatch.chdir(tmp_path)
    args = [str(a).replace("{tmp}", str(tmp_path)) for a in args]
    assert_one_line_error(invoke(args), fragment)
    assert os.listdir(tmp_path) == []


def test_dash_is_stdout_where_one_stream_is_meant():
    res = CliRunner().invoke(main, ["solve", STD, "--hand", 2, "--certificate", "-"])
    assert res.exit_code == 10 and "\nv " in res.output
