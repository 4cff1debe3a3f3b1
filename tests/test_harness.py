"""The cross-check harness: agreement on a fixed seed, planted bugs caught and shrunk."""

import os
from dataclasses import replace

import pytest
from click.testing import CliRunner

from hanabi_cp.cli import main
from hanabi_cp.io import read_deck_file
from hanabi_cp.apps.harness import (Check, Space, cross_check, parse_sample, problems, run_check, select_checks,
                                    shrink, summary_table)
from hanabi_cp.apps.harness.check import CRASH, UNWINNABLE, WINNABLE
from hanabi_cp.apps.harness.shrink import drop_color, drop_value
from hanabi_cp.core.model import Deck
from hanabi_cp.solitaire.solve import Method, methods
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.errors import HanabiError, InvalidParameter

SMALL = Space(max_n=3, max_c=3, max_r=2, max_h=3)
# CP-SAT costs milliseconds per call where the others take microseconds: sample it
# (and the maximizing re-runs, which repeat work the plain runs already check).
SAMPLE = {"cpsat": 0.05, "brute+max": 0.2, "dp+max": 0.5,
          # the external solvers start a process per call (a quarter second for MiniZinc)
          "minizinc": 0.01, "minizinc+max": 0.01, "pb": 0.01, "pb+max": 0.01,
          "maxsat": 0.01, "maxsat+max": 0.01}


def _wrong(name: str, base: str, shift: int) -> Method:
    """A copy of method ``base`` that decides hand size h + shift: a planted off-by-one."""
    inner = methods()[base]
    return Method(name, lambda deck, h, opts: inner.run(deck, max(h + shift, 0), opts),
                  f"{base} with hand h{shift:+d} (planted bug)", refuses=inner.refuses)


def test_fixed_seed_all_methods_agree():
    report = cross_check(2026, 2000, SMALL, select_checks(), SAMPLE)
    assert report.ok, [f.problems for f in report.failures[:3]]
    assert report.instances == 2000
    # Both answers occur, and every registered method really ran somewhere (the
    # optional ones where their tools are installed: else each refuses every time).
    for label, tally in report.tallies.items():
        assert tally.run > 0 or tally.refused == tally.refused + tally.run > 0 and \
            label.split("+")[0] in ("minizinc", "pb"), label
    assert report.tallies["sat"].winnable > 500 and report.tallies["sat"].unwinnable > 500


@pytest.mark.slow
def test_hundred_thousand_instances_agree():
    report = cross_check(7, 100_000, SMALL, select_checks(),
                         {**SAMPLE, "cpsat": 0.02, "brute+max": 0.1, "dp+max": 0.2})
    assert report.ok, [f.problems for f in report.failures[:3]]


def test_space_covers_the_special_cases():
    kinds = {i.kind: i for i in SMALL.instances(3, 300)}
    assert set(kinds) == {"random", "r1", "c1", "missing", "dropped", "tiny"}
    insts = list(SMALL.instances(3, 300))
    assert any(i.deck.r == 1 for i in insts) and any(i.deck.c == 1 for i in insts)
    assert any(i.deck.missing() for i in insts) and any(i.deck.N == 0 for i in insts)
    # Instance i does not depend on the instances before it.
    assert SMALL.instance(3, 250) == insts[250]


def test_planted_verdict_bug_is_caught_and_shrunk(tmp_path):
    wrong = _wrong("sat-minus-one", "sat", -1)
    checks = select_checks(["sat", "brute", "sat-minus-one"], extra=[wrong], maximize=False)
    report = cross_check(11, 300, SMALL, checks, out_dir=str(tmp_path))
    assert not report.ok
    fail = report.failures[0]
    assert any("verdicts differ" in p for p in fail.problems)
    assert "sat-minus-one" in fail.culprits
    small = fail.shrunk
    assert small is not None and small.deck.N <= 6 and small.h >= 1
    # The shrunk instance still disagrees, and each shrunk result says so.
    verdicts = {r.label: r.status for r in fail.shrunk_results}
    assert verdicts["sat-minus-one"] == UNWINNABLE and verdicts["sat"] == WINNABLE
    # Written as a deck file that reads back, with the commands that reproduce it.
    deck_file, script = fail.files
    df = read_deck_file(deck_file)
    assert df.deck == small.deck and df.h == small.h
    text = open(deck_file).read()
    assert f"hanabi-cp solve {deck_file} --hand {small.h} --method sat-minus-one" in text
    assert "--method sat-minus-one" in open(script).read()


def test_planted_certificate_bug_is_a_disagreement():
    wrong = _wrong("brute-plus-one", "brute", +1)
    checks = select_checks(["brute-plus-one", "sat"], extra=[wrong], maximize=False)
    report = cross_check(5, 200, SMALL, checks)
    fail = report.failures[0]
    assert fail.culprits == ["brute-plus-one"]
    assert any("brute-plus-one: BUG" in p and "referee" in p for p in fail.problems)
    assert fail.shrunk.deck.N <= 6


def test_crash_is_a_disagreement():
    def boom(deck, h, opts):
        raise ZeroDivisionError("planted")
    bad = Method("boom", boom, "crashes on decks with a 2", refuses=lambda d, h: None)
    res = run_check(Check(bad), Deck.of([(1, 1)]), 0, SolveOptions())
    assert res.status == CRASH and "ZeroDivisionError: planted" in res.detail
    assert problems([res], 1)


def test_maximize_checks_compare_scores():
    sat_max = [c for c in select_checks() if c.label == "brute+max"]
    assert sat_max and sat_max[0].maximize
    deck = Deck.of([(2, 1), (1, 1), (1, 2), (2, 2)])
    res = run_check(sat_max[0], deck, 0, SolveOptions())
    assert (res.status, res.score) == (UNWINNABLE, 3)
    assert problems([res, replace(res, label="other+max", score=2)], deck.target)


def test_shrinker_unit():
    deck = Deck.of([(3, 2), (1, 1), (2, 2), (2, 1), (1, 2), (3, 1), (1, 1)])
    calls = []

    def fails(d, h):
        calls.append(1)
        # "fails" iff the deck holds some 3 of a color together with that color's 1.
        return h >= 2 and any((3, k) in d.cards and (1, k) in d.cards for k in range(1, d.c + 1))

    small = shrink(deck, 3, fails)
    assert small.h == 2
    assert sorted(small.deck.cards) == [(1, 1), (3, 1)]
    assert (small.deck.n, small.deck.c) == (3, 1)
    assert small.tests == len(calls)
    assert shrink(deck, 3, fails, max_tests=3).tests <= 3


def test_drop_color_and_value_renumber():
    deck = Deck.of([(1, 1), (2, 3), (3, 2)], 3, 3)
    assert drop_color(deck, 2) == Deck.of([(1, 1), (2, 2)], 3, 2)
    assert drop_value(deck, 2) == Deck.of([(1, 1), (2, 2)], 2, 3)


def test_parse_sample_and_select_checks_errors():
    assert parse_sample(["cpsat=0.25"]) == {"cpsat": 0.25}
    for bad in ("cpsat", "cpsat=2", "=0.5", "cpsat=x"):
        with pytest.raises(InvalidParameter, match=r"^sample: expected NAME=FRACTION"):
            parse_sample([bad])
    with pytest.raises(HanabiError, match="unknown method 'nope'"):
        select_checks(["nope"])


def test_summary_table_lists_every_check():
    report = cross_check(1, 20, SMALL, select_checks(["sat", "brute"]))
    table = summary_table(report)
    assert table.splitlines()[0].split() == ["method", "run", "winnable", "unwinnable",
                                             "unknown", "refused", "bugs", "seconds"]
    assert {line.split()[0] for line in table.splitlines()[2:]} == {"sat", "brute", "brute+max"}


def test_statuses_are_one_enum_written_and_read_back_as_the_csv_text(tmp_path):
    import csv
    import io

    from hanabi_cp.io.results_csv import ResultsCSV
    from hanabi_cp.apps.harness import results as csv_rows
    from hanabi_cp.apps.harness.check import Result
    from hanabi_cp.core.status import RunStatus

    path = str(tmp_path / "h.csv")
    table = ResultsCSV(path, csv_rows.FIELDS, csv_rows.KEY)
    deck = Deck.of([(1, 1)])
    results = [Result(f"m{i}", s, 0.5, "why" if s is RunStatus.BUG else None)
               for i, s in enumerate(RunStatus)]
    found = ["m4: BUG: why"]
    csv_rows.store(table, 1, "s", 0, "src", "random", deck, 1, 1, "", results, found)
    with open(path) as f:
        text = f.read()
    assert [row["verdict"] for row in csv.DictReader(io.StringIO(text))] == \
        ["WINNABLE", "UNWINNABLE", "UNKNOWN", "REFUSED", "BUG", "CRASH"]
    labels = [r.label for r in results]
    again, again_found, _ = csv_rows.stored(ResultsCSV(path, csv_rows.FIELDS, csv_rows.KEY),
                                            1, "s", 0, labels)
    assert [r.status for r in again] == list(RunStatus) and again_found == found
    assert all(type(r.status) is RunStatus for r in again)
    # A verdict this version never writes is named, not taken for a status.
    with open(path, "w") as out:
        out.write(text.replace("CRASH", "CRASHED"))
    with pytest.raises(HanabiError, match=r"h\.csv: expected a verdict among WINNABLE, .*"
                                          r"found 'CRASHED'"):
        csv_rows.stored(ResultsCSV(path, csv_rows.FIELDS, csv_rows.KEY), 1, "s", 0, labels)


def test_cli_harness_agrees(tmp_path):
    res = CliRunner().invoke(main, ["harness", "--seed", "3", "--count", "150", "--max-n", "3",
                                    "--methods", "sat,brute", "--no-progress",
                                    "--out", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    assert "c seed: 3" in res.output and "c all methods agree (seed 3)" in res.output
    assert "brute+max" in res.output
    assert not (tmp_path / "out").exists()


def test_cli_harness_prints_a_fresh_seed_and_rejects_bad_options():
    res = CliRunner().invoke(main, ["harness", "--count", "5", "--methods", "sat", "--no-progress"])
    assert res.exit_code == 0 and res.output.startswith("c seed: ")
    res = CliRunner().invoke(main, ["harness", "--count", "5", "--methods", "zzz"])
    assert res.exit_code == 2 and "unknown method 'zzz'" in res.output


def test_cli_harness_exits_nonzero_and_writes_the_counterexample(tmp_path, monkeypatch):
    import hanabi_cp.apps.harness as harness

    wrong = _wrong("sat-minus-one", "sat", -1)
    real = harness.select_checks
    monkeypatch.setattr(harness, "select_checks",
                        lambda names, maximize=True: real(names, [wrong], maximize))
    out = tmp_path / "out"
    res = CliRunner().invoke(main, ["harness", "--seed", "11", "--count", "100", "--max-n", "3",
                                    "--methods", "sat,sat-minus-one", "--no-progress",
                                    "--out", str(out)])
    assert res.exit_code == 1
    assert "DISAGREEMENT" in res.output and "shrunk to" in res.output
    decks = sorted(p for p in os.listdir(out) if p.endswith(".txt"))
    assert decks and read_deck_file(str(out / decks[0])).deck.N <= 6


def test_cnf_roundtrips_agree_with_the_formula():
    from hanabi_cp.apps.harness.roundtrip import cross_check_cnf

    report = cross_check_cnf(4, 10, 3, None, select_checks(["sat"]))
    assert report.ok and len(report.roundtrips) == 10
    answers = {rt.satisfiable for rt in report.roundtrips}
    assert answers == {True, False}
    assert all(r.status in (WINNABLE, UNWINNABLE) for rt in report.roundtrips for r in rt.results)


def test_cnf_roundtrip_catches_a_wrong_method_and_shrinks_the_formula(tmp_path):
    from hanabi_cp.apps.harness.roundtrip import cross_check_cnf
    from hanabi_cp.solitaire.solve import Outcome
    from hanabi_cp.core.status import Status

    nay = Method("nay", lambda d, h, o: Outcome(Status.UNWINNABLE, reason="planted"), "always no")
    checks = select_checks(["sat", "nay"], extra=[nay])
    report = cross_check_cnf(4, 3, 3, None, checks, out_dir=str(tmp_path))
    bad = [rt for rt in report.roundtrips if not rt.ok]
    assert bad and all(rt.satisfiable for rt in bad)
    assert any("nay: image UNWINNABLE but the formula is satisfiable" in p for p in bad[0].problems)
    assert bad[0].shrunk.num_clauses == 1
    cnf_path, deck_path = bad[0].files
    assert read_deck_file(deck_path).h == 2 and open(cnf_path).read().startswith("c ")


def test_cli_harness_cnf_dir(tmp_path):
    (tmp_path / "a.cnf").write_text("p cnf 3 2\n1 -2 3 0\n-1 2 3 0\n")
    (tmp_path / "b.cnf").write_text("p cnf 3 1\n1 2 -3 0\n")
    res = CliRunner().invoke(main, ["harness", "--seed", "1", "--count", "0", "--cnf-dir",
                                    str(tmp_path), "--methods", "sat", "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "round trips: 2 formulas (2 satisfiable, 0 not), 0 failures" in res.output
    res = CliRunner().invoke(main, ["harness", "--count", "0", "--cnf-dir", str(tmp_path / "none")])
    assert res.exit_code == 2 and "no .cnf files found" in res.output


def test_cnf_roundtrips_through_every_variant():
    from hanabi_cp.apps.harness.roundtrip import VARIANTS, cross_check_cnf

    checks = select_checks(["sat", "dp", "search", "brute"], maximize=False)
    report = cross_check_cnf(3, len(VARIANTS), 3, None, checks, variants=True)
    # dp's refusal of the constant-n (kappa) images once crashed on a float overflow.
    assert report.ok, [rt.problems for rt in report.roundtrips if not rt.ok]
    assert [rt.variant for rt in report.roundtrips] == list(VARIANTS)
    assert {rt.h for rt in report.roundtrips} == {1, 2, 3}


@pytest.mark.slow
@pytest.mark.parametrize("num_vars", [3, 4, 5])
def test_thousands_of_formulas_round_trip(num_vars):
    """Issue 4's "thousands of random formulas": 1,000 per size through the reduction
    (cycling the variants of journal §5.1), each image decided by sat and search and
    compared with CaDiCaL on the formula, winning plays read back."""
    from hanabi_cp.apps.harness.roundtrip import cross_check_cnf

    checks = select_checks(["sat", "search"], maximize=False)
    report = cross_check_cnf(20 + num_vars, 1000, num_vars, None, checks, variants=True)
    assert report.ok, [rt.problems for rt in report.roundtrips if not rt.ok][:3]
    verdicts = {rt.satisfiable for rt in report.roundtrips}
    assert verdicts == {True, False}
