"""Guards that refuse before the work: the exhaustive deck count of ``study hard`` is
computed, not enumerated; ``--jobs`` never starts more processes than cores or tasks,
and says so."""

from __future__ import annotations

import concurrent.futures as cf
import itertools
import os

import pytest
from click.testing import CliRunner

from capped import assert_one_line_error, capped, cli_capped, needs_fork
from hanabi_cp.runtime import executors
from hanabi_cp.cli import main
from hanabi_cp.runtime.executors import Execution, cores, execution, run_tasks
from hanabi_cp.apps.studies.deck_moves import all_decks, count_decks
from hanabi_cp.apps.studies.hard import MAX_EXHAUSTIVE

UF20 = os.path.join(os.path.dirname(__file__), os.pardir, "instances", "satlib", "uf20-91")


def test_the_deck_count_is_the_number_of_decks_enumerated():
    for n, c, r, exact in itertools.product(range(1, 4), range(1, 4), range(1, 4), (True, False)):
        if n * c * r <= 8:
            listed = sum(1 for _ in all_decks(n, c, r, exact))
            assert count_decks(n, c, r, exact) == listed, (n, c, r, exact)
            assert count_decks(n, c, r, exact, above=listed) == listed
            if listed > 1:
                assert count_decks(n, c, r, exact, above=listed - 1) > listed - 1


@needs_fork
@pytest.mark.parametrize("n,c,r,exact", [
    (3, 6, 3, False),            # 3^18 copy vectors: enumerated, minutes
    (1000, 1000, 15, False),
    (2, 1, 7_000_000, True),     # one binomial of 14 million: millions of digits
    (1, 1, 15_000_000, False),
])
def test_the_exhaustive_guard_counts_only_as_far_as_the_limit(n, c, r, exact):
    got = capped(lambda: count_decks(n, c, r, exact, above=MAX_EXHAUSTIVE), extra_mb=400,
                 timeout=30)
    assert got > MAX_EXHAUSTIVE


@needs_fork
def test_study_hard_refuses_a_huge_exhaustive_sweep_at_once(tmp_path):
    res = cli_capped(["study", "hard", "--n", 3, "--c", 6, "--r", 3, "--copies", "upto",
                      "--exhaustive", "--csv", tmp_path / "h.csv", "--out", tmp_path / "out",
                      "--no-progress"], extra_mb=400, timeout=30)
    assert_one_line_error(res, "n = 3, c = 6, r = 3 has more than 200,000 decks")
    assert not (tmp_path / "h.csv").exists()


class Recorder(cf.ProcessPoolExecutor):
    sizes: list[int] = []

    def __init__(self, max_workers=None, **kwargs):
        Recorder.sizes.append(max_workers)
        super().__init__(max_workers, **kwargs)


def test_jobs_above_the_cores_are_capped_with_a_note():
    notes: list[str] = []
    got = execution(10**6, note=notes.append)
    assert got.jobs == cores()
    processes = f"{cores()} process" + "es" * (cores() > 1)
    assert notes == [f"--jobs 1000000: {processes}, one per core this process may run on"]
    assert execution(cores(), note=notes.append).jobs == cores() and len(notes) == 1


def test_a_pool_starts_no_more_processes_than_tasks(monkeypatch):
    monkeypatch.setattr(executors.cf, "ProcessPoolExecutor", Recorder)
    Recorder.sizes = []
    notes: list[str] = []
    with run_tasks(pow, [(2, 3), (3, 2)], Execution(jobs=64, note=notes.append)) as done:
        assert sorted(v for _, v in done) == [8, 9]
    assert Recorder.sizes == [2]
    assert notes == ["--jobs 64: 2 processes, one per task"]
    Recorder.sizes = []
    with run_tasks(pow, ((i, 2) for i in range(40)), Execution(jobs=3)) as done:
        assert sorted(v for _, v in done) == [i * i for i in range(40)]
    assert Recorder.sizes == [3]                # more tasks than --jobs: --jobs


def test_the_cli_says_how_many_processes_it_starts(tmp_path):
    formula = os.path.join(UF20, "uf20-01.cnf")
    res = CliRunner().invoke(main, ["roundtrip", formula, "--jobs", "500"])
    assert res.exit_code == 0, res.output
    processes = f"{cores()} process" + "es" * (cores() > 1)
    assert f"c note: --jobs 500: {processes}, one per core" in res.stderr
    if cores() > 1:
        assert f"c note: --jobs {cores()}: 1 process, one per task" in res.stderr
