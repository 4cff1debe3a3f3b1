"""Studies: CSV rows, resumability, figures, the CLI; all at tiny sizes."""

import csv

import pytest
from click.testing import CliRunner

from hanabi_cp.core.version import __version__
from hanabi_cp.cli import main
from hanabi_cp.core.errors import HanabiError, InvalidParameter
from hanabi_cp.solitaire.solve import methods
from hanabi_cp.apps.studies import random_decks, reduction, standard
from hanabi_cp.io.results_csv import ResultsCSV
from hanabi_cp.apps.studies.common import figure, percentile, wilson
from hanabi_cp.apps.studies.figure_files import panels


def _rows(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def test_standard_study_rows_resume_and_plot(tmp_path):
    path = str(tmp_path / "std.csv")
    res = standard.run(path, seed=3, count=2, hands=[1, 6])
    rows = _rows(path)
    assert res.added == len(rows) > 0
    tasks = {(r["task"], r["method"]) for r in rows}
    assert {("decide", "sat"), ("min_hand", "sat")} <= tasks
    if "cpsat" in methods():
        assert {("decide", "cpsat"), ("maximize", "cpsat")} <= tasks
        # Every hand size got a best score (CP-SAT is the maximizer that takes 50 cards).
        assert {r["h"] for r in rows if r["task"] == "maximize"} == {"1", "6"}
    for r in rows:
        assert r["version"] == __version__ and r["seed"] == "3" and r["N"] == "50"
    # Verdicts, scores and least hands are consistent with each other.
    least = {r["instance"]: int(r["min_hand"]) for r in rows if r["task"] == "min_hand"}
    for r in rows:
        if r["task"] == "decide":
            assert (r["verdict"] == "WINNABLE") == (int(r["h"]) >= least[r["instance"]])
        if r["task"] == "maximize":
            assert (int(r["score"]) == 25) == (int(r["h"]) >= least[r["instance"]])
    again = standard.run(path, seed=3, count=2, hands=[1, 6])
    assert again.added == 0 and len(_rows(path)) == len(rows)
    more = standard.run(path, seed=3, count=3, hands=[1, 6])
    assert more.added > 0 and all(r["instance"] == "2" for r in _rows(path)[len(rows):])
    files = standard.plot(more.rows, str(tmp_path / "fig" / "std"))
    assert [f.rsplit(".", 1)[1] for f in files] == ["png", "svg"]
    assert all((tmp_path / "fig" / f"std.{ext}").stat().st_size > 1000 for ext in ("png", "svg"))
    assert "least winning hand size" in standard.summary(more.rows)


def test_random_study_both_parameters(tmp_path):
    path = str(tmp_path / "rnd.csv")
    res = random_decks.run(path, 1, 3, "h", [0, 1, 2], n=3, c=2, r=2, method_names=["sat", "brute"])
    rows = _rows(path)
    assert len(rows) == res.added == 3 * 3 * 2
    # The same deck at every h: one deck size per instance.
    assert len({(r["instance"], r["N"]) for r in rows}) == 3
    assert random_decks.run(path, 1, 3, "h", [0, 1, 2], n=3, c=2, r=2,
                            method_names=["sat", "brute"]).added == 0
    data = random_decks.by_point(res.rows)
    assert list(data) == [0.0, 1.0, 2.0] and all(t == 3 for _, t, _ in data.values())
    dpath = str(tmp_path / "dens.csv")
    dres = random_decks.run(dpath, 1, 2, "density", [0.5, 2.0], n=3, c=2, h=1, method_names=["sat"])
    assert {int(r["N"]) for r in dres.rows if r["x"] == "0.5"} == {3}
    fig, axes = panels(1, 2, (8, 3))
    assert random_decks.plot_winnable(dres.rows, axes[0]) is axes[0]
    assert "sat med/p95 ms" in random_decks.summary(dres.rows)
    # The library names its parameter; the CLI (study random --param) names its flag.
    with pytest.raises(InvalidParameter, match=r"^param: expected one of h, density, found 'nope'$"):
        random_decks.run(path, 1, 1, "nope")


def test_reduction_study(tmp_path):
    path = str(tmp_path / "red.csv")
    res = reduction.run(path, 2, 1, points=[3], method_names=["sat"])
    rows = _rows(path)
    assert [r["method"] for r in rows] == ["formula", "sat"]
    assert rows[0]["verdict"] == rows[1]["verdict"] and int(rows[1]["N"]) > 100
    assert rows[1]["h"] == "2" and rows[0]["m"] == "13"
    assert reduction.run(path, 2, 1, points=[3], method_names=["sat"]).added == 0
    assert set(reduction.ratios(res.rows)) == {"sat"}
    fig, axes = panels(1, 2, (8, 3))
    assert reduction.plot_times(res.rows, axes[0]) is axes[0]
    assert reduction.plot_ratios(res.rows, axes[1]) is axes[1]


def test_plot_functions_draw_on_a_given_axes(tmp_path):
    res = random_decks.run(str(tmp_path / "r.csv"), 1, 2, "h", [0, 1], n=2, c=2, r=2,
                           method_names=["sat"])
    fig, ax = figure()
    assert random_decks.plot_winnable(res.rows, ax=ax) is ax
    assert random_decks.plot_times(res.rows, ax=ax) is ax


def test_csv_of_another_study_is_refused(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("a,b\n1,2\n")
    with pytest.raises(HanabiError, match="x.csv:1: expected the columns study,"):
        ResultsCSV(str(path), standard.FIELDS, standard.KEY)


def test_statistics():
    lo, hi = wilson(0, 20)
    assert lo == 0.0 and 0.15 < hi < 0.17
    assert wilson(20, 20)[1] == 1.0
    assert percentile([3.0], 95) == 3.0


def test_wilson_interval_holds_the_observed_fraction():
    # Error bars are p - lo and hi - p: rounding once made lo(0 of 11) = 3e-17 > 0,
    # and matplotlib refused to draw the figure.
    assert wilson(0, 11)[0] == 0.0 and wilson(21, 21)[1] == 1.0
    for t in range(1, 120):
        for w in range(t + 1):
            lo, hi = wilson(w, t)
            assert 0.0 <= lo <= w / t <= hi <= 1.0


def test_bound_mean_interval_stays_within_the_top_score():
    # One lost deck in 1000 once printed the bound's mean as 24.999 [24.997, 25.001].
    from hanabi_cp.apps.studies.strategies import bound_stats
    rows = [{"seed": str(s), "bound_method": "search", "best": "24" if s == 0 else "25",
             "bound_seconds": "0.001"} for s in range(1000)]
    b = bound_stats(rows)
    assert b["mean_lo"] < b["mean"] < b["mean_hi"] <= 25.0
    assert b["mean_hi"] == 25.0


def test_cli_study_standard_resumes(tmp_path):
    args = ["study", "standard", "--seed", "5", "--count", "2", "--hands", "2,6",
            "--methods", "sat", "--no-maximize", "--csv", str(tmp_path / "s.csv"),
            "--figure", str(tmp_path / "s"), "--no-progress"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    assert "(6 new)" in res.output and "c wrote" in res.output
    assert (tmp_path / "s.png").exists() and (tmp_path / "s.svg").exists()
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0 and "c rows: 6 in" in res.output and "(0 new)" in res.output


def test_cli_study_errors(tmp_path):
    res = CliRunner().invoke(main, ["study", "random", "--points", "0.5", "--csv",
                                    str(tmp_path / "r.csv")])
    assert res.exit_code == 2 and "hand sizes must be integers" in res.output
    res = CliRunner().invoke(main, ["study", "random", "--points", "x"])
    assert res.exit_code == 2 and "study random: Invalid value for '--points'" in res.output
    res = CliRunner().invoke(main, ["study", "reduction", "--methods", "zzz", "--csv",
                                    str(tmp_path / "q.csv")])
    assert res.exit_code == 2 and "unknown method 'zzz'" in res.output


def test_bench_runner_discovers_modules_and_pairs_ratios():
    import importlib

    runner = importlib.import_module("bench.__main__")
    names = runner.discover()
    assert "linear_algorithms" in names and "__main__" not in names
    rows = [{"instance": i, "method": m, "verdict": v, "seconds": s}
            for i, m, v, s in [(0, "sat", "WINNABLE", 0.01), (0, "x", "WINNABLE", 0.04),
                               (1, "sat", "UNWINNABLE", 0.02), (1, "x", "UNWINNABLE", 0.02),
                               (2, "sat", "WINNABLE", 0.01), (2, "x", "UNKNOWN", 9.0)]]
    # Instance 2 is left out: x did not decide it.
    assert runner.paired_ratios(rows, ("instance",), "sat") == {"x": (2, 0.03, 0.06, 1.0)}


def test_every_study_command_is_a_library_study_and_back():
    """``hanabi-cp study NAME`` for each study of the one table (``hc.study``), each
    answering the protocol; the command only checks its outputs and prints."""
    import click

    import hanabi_cp as hc
    from hanabi_cp.apps.studies.catalogue import STUDIES
    group = main.get_command(None, "study")
    ctx = click.Context(group)
    assert set(group.list_commands(ctx)) == set(STUDIES.names())
    for name in STUDIES:
        study = hc.study(name)
        assert study.name == name and all(callable(getattr(study, f))
                                          for f in ("check", "run", "summary", "plot"))
    with pytest.raises(InvalidParameter, match="points: hand sizes"):
        hc.study("random").run("unused.csv", points=[0.5])
