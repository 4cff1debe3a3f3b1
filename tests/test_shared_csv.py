"""Shared files: two runs appending to one result CSV at once.

The first run holds an exclusive lock on the CSV while it may append; a second run
is refused in one line before it reads or computes anything, so no row is ever
written twice.  The lock dies with its process, however it ends.
"""

from __future__ import annotations

import csv
import fcntl
import os
import signal
import subprocess
import sys
import time

import pytest

from capped import assert_one_line_error, invoke
from hanabi_cp.core.errors import FileError
from hanabi_cp.io import csv_lock
from hanabi_cp.io.results_csv import ResultsCSV

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="flock, signals")
ENTRY = [sys.executable, "-m", "hanabi_cp"]
HOLD = ("import fcntl, os, sys, time\n"
        "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o666)\n"
        "fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "print('held', flush=True)\n"
        "time.sleep(120)\n")


def locked(path) -> bool:
    """Does another process hold the CSV's lock?"""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


def wait_until(condition, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "the condition never held"
        time.sleep(0.05)


@pytest.fixture
def holder(tmp_path):
    """A process that holds the lock of a CSV (as a running study does)."""
    procs = []

    def start(path):
        p = subprocess.Popen([sys.executable, "-c", HOLD, str(path)], stdout=subprocess.PIPE,
                             text=True)
        assert p.stdout.readline().strip() == "held"
        procs.append(p)
        return p
    yield start
    for p in procs:
        p.kill()
        p.wait()


@pytest.mark.parametrize("args", [
    ["study", "standard", "--count", 1, "--hands", 2, "--no-progress"],
    ["harness", "--count", 1, "--no-progress"],
    ["roundtrip", os.path.join(os.path.dirname(__file__), os.pardir, "instances", "satlib",
                               "uf20-91", "uf20-01.cnf")],
    ["play", "--games", 1, "--players", 2],
])
def test_a_second_writer_is_refused_before_any_work(tmp_path, holder, args):
    path = tmp_path / "shared.csv"
    path.write_text("")
    holder(path)
    res = invoke([*args, "--csv", path])
    assert_one_line_error(res, "shared.csv: another run is appending to this CSV",
                          "use another --csv")
    assert path.read_text() == "" and sorted(os.listdir(tmp_path)) == ["shared.csv"]


def test_through_another_spelling_of_the_same_file(tmp_path, holder):
    path = tmp_path / "shared.csv"
    holder(path)
    os.symlink(path, tmp_path / "alias.csv")
    with pytest.raises(FileError, match="another run is appending"):
        ResultsCSV(str(tmp_path / "alias.csv"), ["seed"], ["seed"])


def test_the_lock_dies_with_its_process(tmp_path, holder):
    path = tmp_path / "shared.csv"
    p = holder(path)
    p.send_signal(signal.SIGKILL)
    p.wait()
    table = ResultsCSV(str(path), ["seed", "verdict"], ["seed"])
    table.add({"seed": 1, "verdict": "WINNABLE"})
    assert path.read_text() == "seed,verdict\n1,WINNABLE\n"


def test_one_process_may_open_its_csv_twice_and_an_unused_new_csv_goes(tmp_path):
    path = tmp_path / "sub" / "new.csv"
    first = ResultsCSV(str(path), ["seed"], ["seed"])
    second = ResultsCSV(str(path), ["seed"], ["seed"])       # the summary's reading
    assert path.exists() and locked(path)       # (flock: another descriptor, even our own)
    del first, second
    assert not (tmp_path / "sub").exists()                  # created, never written: gone
    release = csv_lock.hold(str(path))
    release()
    release()                                                # twice is once
    assert not path.exists()


def test_two_runs_at_once_never_write_a_row_twice(tmp_path):
    path = tmp_path / "h.csv"
    args = [*ENTRY, "harness", "--seed", "1", "--methods", "search,dp", "--no-progress",
            "--csv", str(path)]
    first = subprocess.Popen([*args, "--count", "100000"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    try:
        wait_until(lambda: locked(path))
        second = subprocess.run([*args, "--count", "100000"], capture_output=True, text=True,
                                timeout=120)
        assert second.returncode == 2, second.stderr
        assert second.stderr.splitlines() == [
            f"hanabi-cp: error: {path}: another run is appending to this CSV (it holds the "
            "lock); wait until it ends, or use another --csv"]
        wait_until(lambda: len(path.read_text().splitlines()) > 20)
    finally:
        first.send_signal(signal.SIGINT)
        first.wait(60)
    rows = list(csv.DictReader(open(path)))
    keys = [(r["seed"], r["stream"], r["instance"], r["method"]) for r in rows]
    assert len(keys) == len(set(keys)) > 20
    third = subprocess.run([*args, "--count", "5"], capture_output=True, text=True, timeout=120)
    assert third.returncode == 0 and "(0 new)" in third.stdout, third.stdout
