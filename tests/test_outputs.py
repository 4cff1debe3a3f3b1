"""No file is overwritten without --force, no partial file is left on error, and the
result CSVs refuse what they cannot resume from (docs/limits.md: Interrupts and output files)."""

import csv
import os

import pytest
from click.testing import CliRunner

from hanabi_cp.cli import main
from hanabi_cp.core.errors import HanabiError
from hanabi_cp.io.outputs import open_outputs
from hanabi_cp.io.results_csv import ResultsCSV
from hanabi_cp.apps.studies.figure_files import drawn_from

INST = os.path.join(os.path.dirname(__file__), os.pardir, "instances")
WIN = os.path.join(INST, "standard-winnable-h2.txt")
FIG2 = "p cnf 3 3\n1 2 -3 0\n-1 2 3 0\n1 -2 3 0\n"


def run(args):
    try:
        runner = CliRunner(mix_stderr=False)
    except TypeError:
        runner = CliRunner()
    return runner.invoke(main, [str(a) for a in args])


def open_bytes(path) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


def refused(res, *words):
    assert res.exit_code == 2, (res.stdout, res.stderr)
    assert len(res.stderr.strip().splitlines()) == 1, res.stderr
    for w in words:
        assert w in res.stderr, res.stderr


def test_two_outputs_naming_one_file_are_refused_however_spelled(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.symlink("x.cnf", "link.cnf")
    for other in ("x.cnf", "./x.cnf", str(tmp_path / "x.cnf"), "sub/../x.cnf", "link.cnf"):
        os.makedirs("sub", exist_ok=True)
        res = run(["encode", WIN, "-o", "x.cnf", "--varmap", other, "--force"])
        refused(res, "-o and --varmap name the same file")
        assert not os.path.exists("x.cnf")
    refused(run(["encode", WIN, "-o", "-", "--varmap", "-"]), "cannot both go to stdout")
    proof = tmp_path / "p.drup"
    refused(run(["solve", WIN, "--method", "sat", "--proof", proof, "--certificate", proof]),
            "name the same file")
    refused(run(["solve", WIN, "--method", "sat", "--proof", proof,
                 "--certificate", f"{proof}.cnf"]), "--proof's CNF and --certificate")
    assert sorted(os.listdir(tmp_path)) == ["link.cnf", "sub"]


def test_an_output_that_is_an_input_is_refused_even_with_force(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_bytes(open_bytes(WIN))
    before = deck.read_text()
    refused(run(["encode", deck, "-o", deck, "--force"]), "is also the input DECK")
    refused(run(["min-hand", deck, "--certificate", deck, "--force"]), "is also the input")
    refused(run(["solve", deck, "--certificate", tmp_path / "." / "deck.txt", "--force"]),
            "is also the input")
    formula = tmp_path / "f.cnf"
    formula.write_text(FIG2)
    refused(run(["reduce", formula, "-o", formula, "--force"]), "is also the input FORMULA")
    refused(run(["roundtrip", formula, "--csv", formula]), "is also the input")
    assert deck.read_text() == before and formula.read_text() == FIG2


def test_an_output_in_a_missing_directory_stops_the_command_before_any_file(tmp_path):
    new = tmp_path / "new.cnf"
    res = run(["encode", WIN, "-o", new, "--varmap", tmp_path / "nonexistent" / "x.map"])
    refused(res, "cannot write: no such directory")
    assert not new.exists() and os.listdir(tmp_path) == []
    refused(run(["solve", WIN, "--certificate", tmp_path / "no" / "c.txt"]), "no such directory")
    refused(run(["encode", WIN, "-o", tmp_path]), "it is a directory")


def test_multi_output_writes_are_all_or_nothing(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    with pytest.raises(RuntimeError), open_outputs([str(a), str(b)]) as (fa, fb):
        fa.write("complete")
        fb.write("half")
        raise RuntimeError("the second writer fails")
    assert os.listdir(tmp_path) == []
    b.write_text("precious\n")
    with pytest.raises(HanabiError, match="refusing to overwrite"), \
            open_outputs([str(a), str(b)]):
        pass
    assert sorted(os.listdir(tmp_path)) == ["b.txt"] and b.read_text() == "precious\n"
    res = run(["encode", WIN, "-o", a, "--varmap", b])     # b exists: neither is written
    refused(res, "b.txt: refusing to overwrite an existing file; use --force")
    assert not a.exists()
    assert run(["encode", WIN, "-o", a, "--varmap", b, "--force"]).exit_code == 0
    assert a.read_text().startswith("c ") and b.read_text().startswith("1 ")


@pytest.mark.parametrize("command", [
    ["study", "standard", "--count", "1", "--hands", "2", "--no-progress"],
    ["roundtrip", "{formula}"],
    ["harness", "--seed", "1", "--count", "2", "--no-progress"],
])
def test_a_csv_that_cannot_be_resumed_from_is_one_line(tmp_path, command):
    formula = tmp_path / "f.cnf"
    formula.write_text(FIG2)
    command = [str(formula) if a == "{formula}" else a for a in command]
    binary = tmp_path / "binary.csv"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n")
    refused(run(command + ["--csv", tmp_path]), "it is a directory")
    refused(run(command + ["--csv", binary]), "binary.csv:1: expected UTF-8 text")
    refused(run(command + ["--csv", other]), "other.csv:1: expected the columns",
            "found a,b")
    assert binary.read_bytes() == b"\x89PNG\r\n\x1a\n\x00\x00"
    assert other.read_text() == "a,b\n1,2\n"


def test_a_truncated_last_row_is_dropped_with_a_warning_and_done_again(tmp_path, capsys):
    path = tmp_path / "r.csv"
    path.write_text("x,verdict\n1,WINNABLE\n2,UNWIN")
    t = ResultsCSV(str(path), ["x", "verdict"], ["x"])
    assert "r.csv:3: dropped an incomplete last row" in capsys.readouterr().err
    assert t.has(x=1) and not t.has(x=2)
    t.add({"x": 2, "verdict": "UNWINNABLE"})
    assert path.read_text() == "x,verdict\n1,WINNABLE\n2,UNWINNABLE\n"
    path.write_text("x,verd")           # a header cut short: the file is as good as empty
    assert ResultsCSV(str(path), ["x", "verdict"], ["x"]).rows == []
    assert path.read_text() == ""
    path.write_text("x,verdict\n1\n")
    with pytest.raises(HanabiError, match=r"r\.csv:2: expected 2 columns, found 1"):
        ResultsCSV(str(path), ["x", "verdict"], ["x"])


def test_study_figures_go_next_to_the_csv_and_are_only_redrawn_from_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["study", "standard", "--seed", "2", "--count", "2", "--hands", "2", "--methods",
            "sat", "--no-maximize", "--no-min-hand", "--no-progress", "--csv", "out/s.csv"]
    res = run(args)
    assert res.exit_code == 0, res.stderr
    assert sorted(os.listdir("out")) == ["s.csv", "s.png", "s.svg"]
    assert not os.path.exists("docs")
    assert all(drawn_from(f"out/s.{ext}", "out/s.csv", "out/s") for ext in ("png", "svg"))
    again = run(args + ["--count", "3"])            # resume and enlarge: redrawn, no --force
    assert again.exit_code == 0 and "(1 new)" in again.stdout, again.stderr
    foreign = tmp_path / "mine.png"
    foreign.write_bytes(b"my own picture")
    res = run(args + ["--figure", "mine"])
    refused(res, "mine.png: refusing to overwrite a figure not drawn from out/s.csv; use --force")
    assert foreign.read_bytes() == b"my own picture" and not os.path.exists("mine.svg")
    # Another CSV's figure is not this one's either.
    refused(run(args[:-1] + ["other.csv", "--figure", "out/s"]), "not drawn from other.csv")
    assert not os.path.exists("other.csv")
    assert run(args + ["--figure", "mine", "--force"]).exit_code == 0
    assert drawn_from("mine.png", "out/s.csv", "mine")
    refused(run(args[:-1] + ["-"]), "--csv - is not possible")


def test_a_bad_file_in_a_roundtrip_directory_is_one_error_row(tmp_path):
    (tmp_path / "a.cnf").write_text(FIG2)
    (tmp_path / "b.cnf").write_text("p cnf 2 2\n1 2 0\n")         # one clause short
    (tmp_path / "c.cnf").write_text(FIG2)
    out = tmp_path / "out"
    out.mkdir()
    res = run(["roundtrip", tmp_path, "--csv", out / "rt.csv"])
    assert res.exit_code == 2, res.stdout
    (error,) = [line for line in res.stderr.splitlines() if "error" in line]   # the bar aside
    assert error.startswith("hanabi-cp: error: ") and "b.cnf:" in error
    assert "roundtrip: 2 of 3 formulas agree, 1 in error (b.cnf)" in res.stdout
    with open(out / "rt.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [(r["file"], r["agreement"]) for r in rows] == [("a.cnf", "yes"), ("b.cnf", "error"),
                                                          ("c.cnf", "yes")]
    assert "expected 2 clauses" in rows[1]["error"]
    again = run(["roundtrip", tmp_path, "--csv", out / "rt.csv"])   # the same report, resumed
    assert again.exit_code == 2 and "(0 new)" in again.stdout
    assert "roundtrip: 2 of 3 formulas agree, 1 in error (b.cnf)" in again.stdout


def test_harness_counterexamples_are_not_overwritten_without_force(tmp_path):
    from hanabi_cp.apps.harness.runner import write_counterexample

    path = tmp_path / "failure.txt"
    assert write_counterexample([(str(path), "deck\n")]) is None
    assert write_counterexample([(str(path), "deck\n")]) is None     # same content: fine
    why = write_counterexample([(str(tmp_path / "new.sh"), "x\n"), (str(path), "other\n")])
    assert why == f"{path} exists with other content (use --force)"
    assert path.read_text() == "deck\n" and not (tmp_path / "new.sh").exists()
    assert write_counterexample([(str(path), "other\n")], force=True) is None
    assert path.read_text() == "other\n"
