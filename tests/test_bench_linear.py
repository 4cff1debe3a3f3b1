"""bench.linear_algorithms: the pure helpers of --instructions (no valgrind run here:
one takes minutes; the benchmark itself is run by hand, see docs/methods.md)."""

import doctest

import pytest

import bench.linear_algorithms as lin


SAMPLE = """# callgrind format
version: 1
creator: callgrind-3.19.0
cmd:  /work/main/.venv/bin/python -m bench.linear_algorithms --child greedy:10000:1
events: Ir
fl=(1) obmalloc.c
fn=(1) _PyObject_Free
12 40
summary: 42183076


totals: 42183076
"""


def test_callgrind_total_reads_the_totals_line():
    assert lin.callgrind_total(SAMPLE) == 42183076


def test_callgrind_total_prefers_totals_and_falls_back_to_summary():
    assert lin.callgrind_total("summary: 7\ntotals: 9\n") == 9
    assert lin.callgrind_total("events: Ir\nsummary: 7\n") == 7
    assert lin.callgrind_total("events: Ir Dr\ntotals: 11 3\n") == 11   # first event


def test_callgrind_total_refuses_output_without_a_count():
    with pytest.raises(ValueError, match="totals"):
        lin.callgrind_total("events: Ir\nfn=(1) f\n1 5\n")


def test_doctests():
    assert doctest.testmod(lin).failed == 0


def test_instructions_without_valgrind_is_one_line_and_nonzero(monkeypatch):
    monkeypatch.setattr(lin.shutil, "which", lambda name: None)
    with pytest.raises(SystemExit) as exc:
        lin.main(["--instructions", "--max-n", "10000"])
    assert "valgrind" in str(exc.value.code) and "\n" not in str(exc.value.code)


def test_child_builds_the_same_deck_as_the_timing_run(capsys):
    import gc

    try:
        lin.child("lazy", 2000, 7)
    finally:
        gc.enable()         # child() is a measuring process's whole life: it leaves gc off
    size, won = capsys.readouterr().out.split()
    deck, _, run = lin.lazy_case(7, 2000)
    assert (int(size), won) == (deck.N, str(run()))


def test_table_prints_instruction_ratio_to_the_smallest_n(capsys):
    lin.table("t", [[1000, 1, 4, True, 0.001, 2_000_000], [3000, 2, 4, True, 0.006, 6_600_000]])
    last = capsys.readouterr().out.strip().splitlines()[-1].split()
    assert last[-2:] == ["2200.0", "1.100"] and last[-3] == "2.00"
