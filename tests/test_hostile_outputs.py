"""Outputs are atomic and exclusive (issue 46): a file output is written whole and
renamed into place (``--force`` never loses the old file, even on a full disk), a
second run writing the same file is refused while the first holds it, a folder of
outputs (refutations, HLE games) is complete or marked incomplete and a rerun
finishes it without --force; a name ending in ``/`` is a folder or an error, ``-``
is stdout where the option allows it, a device gets no suffix, and checking the
outputs of a command is linear in their number.

The full disk is a small tmpfs where the tests run as root (mount allowed), else
RLIMIT_FSIZE = 0 (tests/test_full_disk.py's way) for the cases that need no room
at all."""

from __future__ import annotations

import contextlib
import glob
import json
import os
import resource
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from hanabi_cp.cli import main
from hanabi_cp.io import outputs

HERE = os.path.dirname(os.path.abspath(__file__))
DECK = os.path.join(HERE, os.pardir, "instances", "standard-winnable-h2.txt")
ENTRY = [sys.executable, "-m", "hanabi_cp"]
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="tmpfs, RLIMIT_FSIZE and /dev/full are Linux's")


def run(args, **kw):
    return CliRunner().invoke(main, [str(a) for a in args], **kw)


def proc(args, cwd, no_room=False, **kw):
    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    return subprocess.Popen([*ENTRY, *map(str, args)], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=limit if no_room else None, **kw)


def finish(p, timeout=300):
    out, err = p.communicate(timeout=timeout)
    return p.returncode, out, err


def one_line_error(code, err, *words):
    assert code == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    for w in words:
        assert w in err, err


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("game") / "g.json"
    assert run(["play", DECK, "--players", 3, "--replay", path]).exit_code == 0
    return path


@contextlib.contextmanager
def small_disk(path, size: str):
    """A tmpfs of ``size`` at ``path``; skips the test where it cannot be mounted."""
    os.makedirs(path, exist_ok=True)
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root (RLIMIT_FSIZE tests cover the rest)")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", str(path)], check=False)


def fill(folder, leave: int) -> str:
    """A file that takes all the room of ``folder``'s disk but ``leave`` bytes."""
    st = os.statvfs(folder)
    filler = os.path.join(folder, "filler")
    with open(filler, "wb") as f:
        f.write(b"x" * max(0, st.f_bavail * st.f_frsize - leave))
    return filler


def test_force_keeps_the_old_csv_when_the_disk_is_full(tmp_path, game):
    old = tmp_path / "old.csv"
    old.write_text("keep me\n")
    code, _, err = finish(proc(["analyze", game, "--csv", old, "--force"], tmp_path,
                               no_room=True))
    one_line_error(code, err, f"{old}: cannot write")
    assert old.read_text() == "keep me\n"
    assert sorted(os.listdir(tmp_path)) == ["old.csv"]        # no temporary, no lock file
    # A real full disk: a tmpfs with no room left.
    with small_disk(tmp_path / "disk", "256k") as disk:
        old = disk / "old.csv"
        old.write_text("keep me\n")
        fill(disk, 0)
        code, _, err = finish(proc(["analyze", game, "--csv", old, "--force"], tmp_path))
        one_line_error(code, err, f"{old}: cannot write: No space left on device")
        assert old.read_text() == "keep me\n"
        assert sorted(os.listdir(disk)) == ["filler", "old.csv"]


def test_two_writers_of_one_csv_never_both_write(tmp_path, game):
    out = tmp_path / "x.csv"
    lock = outputs.lock_name(str(out))
    first = proc(["analyze", game, "--csv", out, "--force"], tmp_path)
    for _ in range(600):                  # until the first run holds the file
        if os.path.exists(lock) or first.poll() is not None:
            break
        time.sleep(0.05)
    assert os.path.exists(lock), "the first run never locked its output"
    # Stopped while it holds the file, so the second run surely comes while it runs.
    os.kill(first.pid, signal.SIGSTOP)
    try:
        second = proc(["analyze", game, "--csv", out, "--force"], tmp_path)
        code2, _, err2 = finish(second)
    finally:
        os.kill(first.pid, signal.SIGCONT)
    code1, _, err1 = finish(first)
    assert code1 == 0, err1
    one_line_error(code2, err2, f"{out}: another run is writing this file")
    rows = out.read_text().splitlines()
    assert len(rows) == len(set(rows)) and rows[0].startswith("file,position")
    assert not os.path.exists(lock)


def test_refutations_on_a_full_disk_are_marked_and_a_rerun_finishes_them(tmp_path, game):
    with small_disk(tmp_path / "disk", "512k") as disk:
        refs = disk / "refs"
        filler = fill(disk, 40 * 1024)          # room for about ten refutation files
        code, _, err = finish(proc(["analyze", game, "--refutations", refs], tmp_path))
        one_line_error(code, err, f"{refs}: incomplete:", "a rerun finishes them")
        assert os.path.exists(refs / "g.refutations-incomplete")
        partial = len(glob.glob(str(refs / "*.refutation.json")))
        os.remove(filler)
        code, out, err = finish(proc(["analyze", game, "--refutations", refs], tmp_path))
        assert code == 0, err
        assert not os.path.exists(refs / "g.refutations-incomplete")
        written = glob.glob(str(refs / "*.refutation.json"))
        assert len(written) > partial
        for path in written:
            json.loads(open(path).read())             # every file whole
        # Complete now: a third run needs --force.
        code, _, err = finish(proc(["analyze", game, "--refutations", refs], tmp_path))
        one_line_error(code, err, "use --force")


def test_a_name_ending_in_a_slash_is_a_folder_or_an_error(tmp_path):
    cases = [["encode", DECK, "--hand", 2, "-o", str(tmp_path / "newdir") + "/"],
             ["solve", DECK, "--hand", 2, "--certificate", str(tmp_path / "c1") + "/"],
             ["play", DECK, "--players", 3, "--replay", str(tmp_path / "x") + "/"]]
    for args in cases:
        res = run(args)
        assert res.exit_code == 2 and "names a folder" in res.stderr, res.output
    assert os.listdir(tmp_path) == []
    res = run(["encode", DECK, "--hand", 2, "-o", str(tmp_path) + "/"])
    assert res.exit_code == 2 and "it is a directory" in res.stderr


def test_dash_and_devices(tmp_path, game):
    res = run(["analyze", game, "--csv", "-"])
    assert res.exit_code == 0
    assert res.stdout.splitlines()[0].startswith("file,position") and "c wrote" not in res.stdout
    res = run(["play", DECK, "--players", 3, "--replay", "-"])
    assert res.exit_code == 0 and json.loads(res.stdout)["actions"]     # the JSON alone
    assert "c wrote" not in res.output and "score" in res.stderr
    res = run(["analyze", game, "--refutations", "-"])
    assert res.exit_code == 2 and "--refutations - is not possible" in res.stderr
    res = run(["hle", "play", "--games", 1, "--out", "-"])
    assert res.exit_code == 2 and "--out - is not possible" in res.stderr
    assert not os.path.exists("-")
    res = run(["analyze", game, "--csv", "-", "--json"])
    assert res.exit_code == 2 and "cannot both go to stdout" in res.stderr
    res = run(["analyze", game, "--csv", "/dev/full", "--force"])
    assert res.exit_code == 2 and "/dev/full: cannot write: No space left" in res.stderr
    assert os.path.exists("/dev/full")
    res = run(["study", "standard", "--count", 1, "--hands", 2, "--csv", tmp_path / "s.csv",
               "--figure", "/dev/null", "--no-progress"])
    assert res.exit_code == 2 and "a device or a FIFO" in res.stderr
    assert not os.path.exists("/dev/null.png") and not os.path.exists(tmp_path / "s.csv")
    before = os.path.exists("/dev/null.dzn")
    res = run(["encode", DECK, "--hand", 2, "--format", "mzn", "-o", "/dev/null"])
    assert res.exit_code == 0 and "/dev/null.dzn" not in res.output
    assert os.path.exists("/dev/null.dzn") == before


def test_symlink_loop_as_an_output_folder_is_one_line(tmp_path):
    os.symlink(tmp_path / "loop", tmp_path / "loop")
    res = run(["generate", "standard", "--seed", 1, "--count", 2, "-o", tmp_path / "loop" / "x"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    res = run(["encode", DECK, "--hand", 2, "-o", tmp_path / "loop" / "x.cnf"])
    assert res.exit_code == 2 and len(res.stderr.splitlines()) == 1


def test_checking_outputs_is_linear_in_their_number(tmp_path, monkeypatch):
    # No timing: count the path resolutions, which were pairwise before.
    calls = []
    real = os.path.realpath
    monkeypatch.setattr(os.path, "realpath", lambda p, *a, **k: calls.append(p) or real(p))
    files = {f"game {i}": str(tmp_path / "games" / f"g{i}.json") for i in range(3000)}
    outputs.check_outputs("test", files, False, dirs_made=list(files))
    assert len(calls) < 10
    files["again"] = str(tmp_path / "games" / "." / "g7.json")
    with pytest.raises(Exception, match="name the same file"):
        outputs.check_outputs("test", files, False, dirs_made=list(files))


def test_hle_play_on_a_full_disk_is_marked_and_a_rerun_finishes(tmp_path):
    pytest.importorskip("hanabi_learning_environment")
    with small_disk(tmp_path / "disk", "256k") as disk:
        out = disk / "games"
        filler = fill(disk, 24 * 1024)
        code, _, err = finish(proc(["hle", "play", "--games", 20, "--out", out,
                                    "--no-progress"], tmp_path))
        one_line_error(code, err, f"{out}: incomplete:")
        assert os.path.exists(out / "hle-play-incomplete") and not os.path.exists(
            out / "games.csv")
        os.remove(filler)
        code, _, err = finish(proc(["hle", "play", "--games", 20, "--out", out,
                                    "--no-progress"], tmp_path))
        assert code == 0, err
        assert not os.path.exists(out / "hle-play-incomplete")
        assert len((out / "games.csv").read_text().splitlines()) == 21


def test_a_proof_is_never_renamed_over_a_device(tmp_path):
    # As root, os.replace onto /dev/null replaced the device node with the proof.
    fifo = tmp_path / "p.fifo"
    os.mkfifo(fifo)
    lost = os.path.join(HERE, os.pardir, "instances", "standard-search-unwinnable-h3.txt")
    for args in (["solve", lost, "--method", "sat", "--proof", fifo],
                 ["solve", lost, "--rules", "live", "--players", 2, "--proof", fifo]):
        res = run(args)
        assert res.exit_code == 2 and "is a device or a FIFO" in res.stderr, res.output
    import stat
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and sorted(os.listdir(tmp_path)) == ["p.fifo"]
