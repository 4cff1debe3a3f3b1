"""study random's accounting: undecided rows are counted (never dropped or folded
into a verdict), decks decided by preprocessing are told apart from those a model
decided, and two methods that disagree are shown as a bug."""

from click.testing import CliRunner

from hanabi_cp.cli import main
from hanabi_cp.apps.studies import random_decks


def test_time_limit_zero_leaves_every_row_undecided_and_counted(tmp_path):
    res = random_decks.run(str(tmp_path / "r.csv"), 1, 3, "h", [0, 2], n=3, c=2, r=2,
                           method_names=["sat", "search"], time_limit=0)
    assert {r["verdict"] for r in res.rows} == {"UNKNOWN"}
    counts = random_decks.outcomes(res.rows)
    assert counts == {x: {m: {"pre": 0, "model": 0, "unknown": 3} for m in ("sat", "search")}
                      for x in (0.0, 2.0)}
    assert random_decks.undecided_decks(res.rows) == {0.0: 3, 2.0: 3}
    # No verdict, so no winnable fraction: the point has 0 decided decks, not 0 % winnable.
    assert all(t == 0 for _, t, _ in random_decks.by_point(res.rows).values())
    table = random_decks.summary(res.rows).splitlines()
    assert table[0].split("  ")[:4] == ["x", "decks", "winnable", "undecided"]
    assert table[1].split("  ") == ["0", "0", "-", "3", "-", "0/0/3", "-", "0/0/3"]


def test_counts_add_up_and_preprocessing_is_only_claimed_for_sat_and_cpsat(tmp_path):
    res = random_decks.run(str(tmp_path / "r.csv"), 2, 4, "h", [0, 1, 3, 8], n=4, c=3, r=2,
                           method_names=["sat", "search"])
    counts = random_decks.outcomes(res.rows)
    for x, per in counts.items():
        for m, c in per.items():
            rows = [r for r in res.rows if float(r["x"]) == x and r["method"] == m]
            assert sum(c.values()) == len(rows) == 4 and c["unknown"] == 0
        assert per["search"]["pre"] == 0          # search builds no model to skip
    # These four decks are all decided by the hold windows at h = 0 (sat builds no
    # model), and all won at h = 8.
    assert counts[0.0]["sat"]["pre"] == 4
    assert random_decks.by_point(res.rows)[8.0][:2] == (4, 4)
    for r in res.rows:
        if r["method"] == "sat":
            assert random_decks.preprocessed(r) == (r["variables"] == "0")
    assert random_decks.disagreements(res.rows) == []


def test_a_disagreement_is_listed_first_in_the_summary():
    rows = [{"x": "3", "instance": "5", "method": m, "verdict": v, "seconds": "0.01",
             "variables": "10"} for m, v in [("cpsat", "UNWINNABLE"), ("sat", "WINNABLE")]]
    first = random_decks.summary(rows).splitlines()[0]
    assert first == "c BUG: methods disagree at x = 3, deck 5: cpsat UNWINNABLE, sat WINNABLE"


def test_cli_prints_the_counts(tmp_path):
    args = ["study", "random", "--param", "density", "--points", "1,3", "--n", "3", "--c", "2",
            "--hand", "1", "--count", "3", "--methods", "sat", "--csv", str(tmp_path / "d.csv"),
            "--no-progress"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    assert "sat pre/model/unknown" in res.output and "undecided" in res.output


def test_undecided_rows_get_their_own_panel(tmp_path):
    import matplotlib.pyplot as plt

    from hanabi_cp.apps.studies.figure_files import panels

    res = random_decks.run(str(tmp_path / "r.csv"), 1, 2, "h", [0, 4], n=3, c=2, r=2,
                           method_names=["sat"], time_limit=0)
    fig, axes = panels(1, 1, (4, 3))
    ax = random_decks.plot_undecided(res.rows, axes[0])
    (line,) = ax.get_lines()
    assert list(line.get_ydata()) == [1.0, 1.0]
    plt.close(fig)
    assert len(random_decks.plot(res.rows, str(tmp_path / "open"))) == 2
    # Three panels when some row is undecided, two otherwise: the PNG is wider.
    done = random_decks.run(str(tmp_path / "d.csv"), 1, 2, "h", [0, 4], n=3, c=2, r=2,
                            method_names=["sat"])
    random_decks.plot(done.rows, str(tmp_path / "done"))
    assert _png_width(tmp_path / "open.png") > _png_width(tmp_path / "done.png")


def _png_width(path) -> int:
    return int.from_bytes(path.read_bytes()[16:20], "big")
