"""Full disks: every writer, stdout included, ends with one error line and exit code 2.

A full disk is simulated three ways: RLIMIT_FSIZE = 0 in a real process (every write
to a regular file fails, EFBIG: the kernel's own refusal, so no writer of hanabi-cp
can slip past it), ``/dev/full`` as stdout (ENOSPC), and ENOSPC raised by a patched
file in process.  Each time: one ``hanabi-cp: error:`` line naming the file, no
traceback, the old file intact, no temporary file and no new file left.
"""

from __future__ import annotations

import errno
import io
import os
import resource
import subprocess
import sys

import pytest

from capped import assert_one_line_error, invoke
from hanabi_cp.core.errors import FileError
from hanabi_cp.io import outputs, results_csv
from hanabi_cp.io.outputs import open_output, write_texts

HERE = os.path.dirname(os.path.abspath(__file__))
INST = os.path.join(HERE, os.pardir, "instances")
STD = os.path.join(INST, "standard-winnable-h2.txt")
UNSAT = os.path.join(INST, "small-search-unwinnable-h1.txt")
UF20 = os.path.join(INST, "satlib", "uf20-91", "uf20-01.cnf")
ENTRY = [sys.executable, "-m", "hanabi_cp"]

needs_linux = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                 reason="RLIMIT_FSIZE and /dev/full are Linux's")
pytestmark = needs_linux


def run(args, cwd, stdout=subprocess.DEVNULL, no_room: bool = True):
    """``hanabi-cp ARGS`` as a process; with ``no_room``, no file can grow (EFBIG)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([*ENTRY, *map(str, args)], cwd=cwd, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=300, env=env,
                          preexec_fn=limit if no_room else None)


def assert_error_line(done, *fragments: str) -> None:
    """Exit code 2, no traceback, and the last stderr line the one error line (generate
    also notes its seed on stderr, before it)."""
    lines = done.stderr.splitlines()
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr
    errors = [line for line in lines if line.startswith("hanabi-cp: error: ")]
    assert len(errors) == 1 and lines[-1] == errors[0], done.stderr
    for fragment in fragments:
        assert fragment in errors[0], (fragment, errors[0])


WRITERS = [
    (["encode", STD, "--hand", 2, "-o", "out.cnf"], "out.cnf"),
    (["encode", STD, "--hand", 2, "-o", "-", "--varmap", "out.map"], "out.map"),
    (["generate", "standard", "--seed", 1, "-o", "out.txt"], "out.txt"),
    (["generate", "standard", "--seed", 1, "--count", 5, "-o", "outdir"], "outdir/"),
    (["generate", "cnf", "--vars", 5, "--clauses", 10, "--seed", 1, "-o", "out.cnf"], "out.cnf"),
    (["reduce", UF20, "-o", "out.txt"], "out.txt"),
    (["solve", STD, "--hand", 2, "--certificate", "out.txt"], "out.txt"),
    (["solve", UNSAT, "--hand", 1, "--method", "sat", "--proof", "out.drup"], "out.drup"),
    (["solve", STD, "--rules", "live", "--players", 2, "--certificate", "out.json"], "out.json"),
    (["play", STD, "--replay", "out.json"], "out.json"),
    (["show", STD, "--hand", 2, "-o", "out.svg"], "out.svg"),
    (["roundtrip", UF20, "--csv", "out.csv"], "out.csv"),
    (["harness", "--count", 2, "--seed", 1, "--csv", "out.csv", "--no-progress"], "out.csv"),
    (["study", "standard", "--count", 1, "--hands", 2, "--csv", "out.csv", "--no-progress"],
     "out.csv"),
]


@pytest.mark.parametrize("args,output", WRITERS, ids=[f"{a[0]}-{o}" for a, o in WRITERS])
def test_every_writer_on_a_full_disk(tmp_path, args, output):
    done = run(args, tmp_path)
    # pysat logs a proof in the temporary directory: tempfile finds none with room
    why = "no temporary directory with room" if output.endswith(".drup") else "File too large"
    assert_error_line(done, f"{output.rstrip('/')}", "cannot write", why)
    assert os.listdir(tmp_path) == [], os.listdir(tmp_path)     # nothing, no temporary


@pytest.mark.parametrize("args", [
    ["encode", STD, "--hand", 2, "-o", "old.txt", "--force"],
    ["generate", "standard", "--seed", 1, "-o", "old.txt", "--force"],
    ["reduce", UF20, "-o", "old.txt", "--force"],
    ["solve", STD, "--hand", 2, "--certificate", "old.txt", "--force"],
])
def test_an_old_file_survives_a_full_disk(tmp_path, args):
    (tmp_path / "old.txt").write_text("precious\n")
    assert_error_line(run(args, tmp_path), "old.txt: cannot write")
    assert os.listdir(tmp_path) == ["old.txt"]
    assert (tmp_path / "old.txt").read_text() == "precious\n"


def test_a_resumed_csv_keeps_its_rows_on_a_full_disk(tmp_path):
    args = ["harness", "--seed", 1, "--csv", "h.csv", "--no-progress", "--count"]
    first = run([*args, 2], tmp_path, no_room=False)
    assert first.returncode == 0, first.stderr
    before = (tmp_path / "h.csv").read_bytes()
    assert_error_line(run([*args, 4], tmp_path), "h.csv: cannot write")
    assert (tmp_path / "h.csv").read_bytes() == before     # no part of a row appended
    assert sorted(os.listdir(tmp_path)) == ["h.csv"]


@pytest.mark.parametrize("args", [
    ["solve", STD, "--hand", 2],
    ["solve", STD, "--hand", 2, "--certificate", "-", "--json"],
    ["encode", STD, "--hand", 2],
    ["generate", "standard", "--seed", 1],
    ["reduce", UF20],
    ["roundtrip", UF20, "--csv", "-"],
    ["--help"],
    ["--version"],
    ["solve", "--help"],
])
def test_stdout_on_a_full_device(tmp_path, args):
    with open("/dev/full", "w") as full:
        done = run(args, tmp_path, stdout=full, no_room=False)
    assert_error_line(done, "<stdout>: cannot write: No space left on device")


# --- ENOSPC in process ----------------------------------------------------------------

class FullDisk(io.RawIOBase):
    """A file on a disk with ``room`` bytes left: then ENOSPC, as write(2) gives it."""

    def __init__(self, path: str, room: int):
        self.file, self.room = open(path, "wb", buffering=0), room

    def writable(self):
        return True

    def write(self, data):
        if self.room <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        n = min(len(data), self.room)
        self.room -= n
        return self.file.write(bytes(data[:n]))

    def close(self):
        self.file.close()
        super().close()


@pytest.fixture(params=[0, 100, 1000])
def full_disk(monkeypatch, request):
    """``open`` in hanabi_cp.io.outputs gives files with ``room`` bytes left."""
    def fake_open(path, mode="r", **kwargs):
        raw = FullDisk(path, request.param)
        buffered = io.BufferedWriter(raw, buffer_size=64)
        return buffered if "b" in mode else io.TextIOWrapper(buffered, **kwargs)
    monkeypatch.setattr(outputs, "open", fake_open, raising=False)


def test_enospc_in_write_texts_and_open_output(tmp_path, full_disk):
    paths = [str(tmp_path / "a.txt"), str(tmp_path / "b.txt")]
    with pytest.raises(FileError, match=r"a.txt: cannot write: No space left on device"):
        write_texts([(paths[0], "x" * 10**4), (paths[1], "y")])
    with pytest.raises(FileError, match=r"b.txt: cannot write: No space left on device"):
        with open_output(paths[1]) as f:
            for _ in range(1000):
                f.write("0123456789")
    assert os.listdir(tmp_path) == []


def test_enospc_through_the_cli_is_one_line(tmp_path, full_disk):
    out = tmp_path / "deck.cnf"
    res = invoke(["encode", STD, "--hand", 2, "-o", out])
    assert_one_line_error(res, f"{out}: cannot write: No space left on device")
    assert os.listdir(tmp_path) == []


def test_enospc_on_a_csv_append_cuts_the_partial_row(tmp_path, monkeypatch):
    csv = results_csv.ResultsCSV(str(tmp_path / "r.csv"), ["a", "b"], ["a"])
    csv.add({"a": 1, "b": 2})
    before = (tmp_path / "r.csv").read_bytes()
    real_write = os.write

    def half_then_full(fd, data):
        real_write(fd, data[:3])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(os, "write", half_then_full)
    with pytest.raises(FileError, match="r.csv: cannot write: No space left on device"):
        csv.add({"a": 2, "b": 3})
    monkeypatch.undo()
    assert (tmp_path / "r.csv").read_bytes() == before
