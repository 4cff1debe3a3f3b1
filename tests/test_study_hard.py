"""study hard: deterministic effort, the search neighbourhood, resumable traces, the
hardest decks written with confirmed verdicts; all at tiny sizes."""

import csv
import random
from collections import Counter

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_cp.cli import main
from hanabi_cp.io import read_deck_file
from hanabi_cp.solitaire.solve import solve
from hanabi_cp.apps.studies import hard, hard_decks
from hanabi_cp.apps.studies.deck_moves import all_decks, count_decks, neighbour, parse_deck_text, start_deck
from hanabi_cp.apps.studies.effort import evaluate


def _rows(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


@pytest.mark.parametrize("method", ["sat", "cpsat", "search"])
def test_effort_is_deterministic_and_the_verdict_is_right(method):
    for s in range(6):
        cards = start_deck(random.Random(s), 3, 2, 2, exact=False)
        a = evaluate(cards, 3, 2, 1, method)
        b = evaluate(cards, 3, 2, 1, method)
        assert a == b
        assert a["verdict"] == solve(read_deck_of(cards), 1, "brute").status.value


def read_deck_of(cards):
    from hanabi_cp.core.model import Deck
    return Deck.of(cards, 3, 2)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 3), st.integers(1, 3), st.integers(1, 3),
       st.booleans())
def test_neighbours_keep_the_parameters(seed, n, c, r, exact):
    rng = random.Random(seed)
    deck = start_deck(rng, n, c, r, exact)
    for _ in range(5):
        deck, move = neighbour(rng, deck, n, c, r, exact)
        counts = Counter(deck)
        assert set(counts) == {(a, k) for a in range(1, n + 1) for k in range(1, c + 1)}
        assert all((x == r) if exact else (1 <= x <= r) for x in counts.values())
        assert move in (("swap", "move", "none") if exact else
                        ("swap", "move", "add", "remove", "none"))
        assert (move == "none") == (n * c == 1 and (exact or r == 1))


def test_all_decks_are_distinct_and_counted():
    for n, c, r, exact in [(2, 2, 2, True), (2, 1, 2, False), (1, 3, 1, True)]:
        decks = list(all_decks(n, c, r, exact))
        assert len(decks) == len(set(decks)) == count_decks(n, c, r, exact)


def test_search_resumes_exactly_and_keeps_its_best(tmp_path):
    one, two = str(tmp_path / "one.csv"), str(tmp_path / "two.csv")
    args = dict(seed=5, sizes=[(3, 2, 1)], r=2, exact=False, method="search", random_count=8,
                patience=15)
    hard.run(one, steps=40, **args)
    hard.run(two, steps=25, **args)
    hard.run(two, steps=40, **args)
    assert _rows(one) == _rows(two)
    rows = _rows(one)
    search = [r for r in rows if r["phase"] == "search"]
    assert [int(r["step"]) for r in search] == list(range(40))
    # "best" is the running maximum of the effort.
    best = -1
    for r in search:
        best = max(best, int(r["effort"]))
        assert int(r["best"]) == best
    assert any(r["move"] == "restart" for r in search[1:])      # patience 15 < 40 steps
    # Records keep their deck, the other rows a digest; the records' verdicts are
    # right (brute force decides these small decks).
    from hanabi_cp.core.model import Deck
    records = [r for r in search if not r["deck"].startswith("sha1:")]
    assert records and len(records) < len(search)
    assert [int(r["effort"]) for r in records] == sorted(int(r["effort"]) for r in records)
    for r in records:
        deck = Deck.of(parse_deck_text(r["deck"]), 3, 2)
        assert r["verdict"] == solve(deck, 1, "brute").status.value
    assert hard.hardest(rows, 1)[0]["deck"] == records[-1]["deck"]


def test_budget_stops_early_and_a_rerun_continues_the_same_trace(tmp_path):
    args = dict(seed=2, sizes=[(3, 2, 2)], r=2, exact=True, method="search", random_count=3,
                patience=10)
    short = hard.run(str(tmp_path / "b.csv"), steps=500, budget=1e-9, **args)
    assert len([r for r in short.rows if r["phase"] == "search"]) < 500
    hard.run(str(tmp_path / "b.csv"), steps=60, **args)
    hard.run(str(tmp_path / "full.csv"), steps=60, **args)
    assert _rows(tmp_path / "b.csv") == _rows(tmp_path / "full.csv")


def test_exhaustive_maximum_bounds_random_and_search(tmp_path):
    path = str(tmp_path / "all.csv")
    rows = hard.run(path, 1, [(2, 2, 1)], 2, True, "search", steps=0, exhaustive=True).rows
    assert len(rows) == count_decks(2, 2, 2, True)
    top = max(int(r["effort"]) for r in rows)
    more = hard.run(str(tmp_path / "rnd.csv"), 1, [(2, 2, 1)], 2, True, "search", steps=30,
                    random_count=10).rows
    assert all(int(r["effort"]) <= top for r in more)
    table = hard.size_summary(rows)
    assert table[0]["exhaustive"] and table[0]["best"] == top == table[0]["max"]
    # h = 1, r = 2, n = c = 2: every lost deck is refuted by preprocessing (0 nodes)
    # and every won one is won without backtracking (N + 1 nodes).
    assert all(int(r["effort"]) == (int(r["N"]) + 1 if r["verdict"] == "WINNABLE" else 0)
               for r in rows)
    files = hard.plot(rows, str(tmp_path / "all"), path)
    assert all((tmp_path / f"all.{ext}").stat().st_size > 1000 for ext in ("png", "svg"))
    assert len(files) == 2


def test_cli_writes_confirmed_hardest_decks(tmp_path):
    out, csv_path = tmp_path / "decks", str(tmp_path / "h.csv")
    argv = ["study", "hard", "--n", "2,3", "--c", "2", "--r", "2", "--hand", "1", "--steps",
            "20", "--random", "5", "--keep", "2", "--csv", csv_path, "--out", str(out),
            "--no-progress"]
    res = CliRunner().invoke(main, argv)
    assert res.exit_code == 0, res.output
    files = sorted(out.iterdir())
    # Up to --keep records per size (a size where every deck costs the same has one).
    assert {f.name.split("-s1-")[0] for f in files} == {"hard-n2-c2-r2-h1-search-nodes",
                                                       "hard-n3-c2-r2-h1-search-nodes"}
    assert len(files) <= 4
    for f in files:
        text = f.read_text()
        deck = read_deck_file(str(f))
        label = next(line for line in text.splitlines() if line.startswith("# verdict:"))
        assert label.split()[-1] == solve(deck.deck, 1, "brute").status.value
        assert "decided alike by" in text and "# effort search_nodes:" in text
        assert "# seed: 1" in text and "# baseline: 5 random decks of these parameters" in text
    assert "x median" in res.output and "c wrote" in res.output
    # A rerun replaces its own files; a foreign file there is kept without --force.
    assert CliRunner().invoke(main, argv).exit_code == 0
    files[0].write_text("n 1\nc 1\n1r\n")
    again = CliRunner().invoke(main, argv)
    assert again.exit_code == 2 and "refusing to overwrite" in again.output
    assert files[0].read_text() == "n 1\nc 1\n1r\n"


def test_cli_rejects_a_measure_of_another_method(tmp_path):
    res = CliRunner().invoke(main, ["study", "hard", "--method", "search", "--measure",
                                    "conflicts", "--csv", str(tmp_path / "x.csv")])
    assert res.exit_code == 2 and "measures nodes" in res.output


def test_confirm_needs_two_methods():
    cards = start_deck(random.Random(2), 3, 2, 2, exact=True)
    check = hard_decks.confirm(cards, 3, 2, 1)
    assert check["confirmed"] and len(check["methods"]) >= 2


def test_fits_recover_an_exponential():
    f = hard.fits([(x, 2.0 ** x - 1) for x in range(4, 12)])
    slope, _, r2 = f["exponential"]
    assert abs(slope - 0.6931) < 1e-3 and r2 > 0.999 and f["range"] == (4, 11)


@pytest.mark.parametrize("args,message", [
    (["--n", "4", "--c", "3", "--exhaustive"], "an exhaustive sweep takes at most 200,000"),
    (["--out", "{file}"], "not a directory (--out DIR)"),
    (["--n", "0"], "Invalid value for '--n': expected integers from 1"),
    (["--method", "brute"], "Invalid value for '--method'"),
])
def test_cli_mistakes_are_one_line(tmp_path, args, message):
    (tmp_path / "f").write_text("x")
    args = [str(tmp_path / "f") if a == "{file}" else a for a in args]
    res = CliRunner().invoke(main, ["study", "hard", "--csv", str(tmp_path / "h.csv"),
                                    "--out", str(tmp_path / "o"), "--steps", "1", "--random",
                                    "1", "--no-progress", *args])
    assert res.exit_code == 2, res.output
    line = res.output.strip().splitlines()[-1]
    assert line.startswith("hanabi-cp: error:") and message in line, line
