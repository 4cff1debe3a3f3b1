"""Progress on stderr (hanabi_cp/core/progress.py): a live bar only at a terminal; on a pipe
a bounded number of plain lines, nothing for a short run, nothing when disabled."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading

import pytest

from hanabi_cp.core import progress

BAR = """
import sys, time
import hanabi_cp.core.progress as p
p.QUIET_SECONDS = float(sys.argv[1])
with p.bar(int(sys.argv[2]), unit=" rows", desc="sweep", initial=int(sys.argv[3])) as b:
    for i in range(int(sys.argv[2]) - int(sys.argv[3])):
        b.update(1)
        if i % 50 == 0:
            b.set_postfix(failures=i // 50)
print("done")
"""


def run_bar(quiet: float, total: int, initial: int = 0) -> list[str]:
    res = subprocess.run([sys.executable, "-c", BAR, str(quiet), str(total), str(initial)],
                         capture_output=True, text=True, timeout=120, check=True)
    assert res.stdout == "done\n"
    return res.stderr.splitlines()


def test_a_pipe_gets_at_most_eleven_plain_lines():
    lines = run_bar(0.0, 5000)
    assert 2 <= len(lines) <= 11, lines
    assert all(line.startswith("hanabi-cp: sweep: ") and "\r" not in line for line in lines)
    assert lines[-1].startswith("hanabi-cp: sweep: 5000/5000 rows (100%), ")
    assert "failures=99" in lines[-1]
    assert "\x1b" not in "".join(lines)


def test_a_resumed_run_counts_from_where_it_was():
    lines = run_bar(0.0, 1000, initial=900)
    assert 1 <= len(lines) <= 11 and lines[-1].startswith("hanabi-cp: sweep: 1000/1000 rows")


def test_a_short_run_on_a_pipe_is_silent():
    assert run_bar(3600.0, 5000) == []


def test_a_real_sweep_on_a_pipe_is_bounded():
    code = ("import sys, hanabi_cp.core.progress as p; p.QUIET_SECONDS = 0.0\n"
            "from hanabi_cp.cli import main; main(sys.argv[1:])")
    res = subprocess.run([sys.executable, "-c", code, "harness", "--seed", "1", "--count", "60",
                          "--methods", "greedy,dp"], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    lines = res.stderr.splitlines()
    assert 1 <= len(lines) <= 11, lines
    assert lines[-1].startswith("hanabi-cp: 60/60 instances (100%)"), lines


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_lines_wait_for_a_tenth_and_for_quiet_seconds():
    out, clock = io.StringIO(), Clock()
    b = progress._Lines(100, 0, "x", " decks", out, quiet=10.0, clock=clock)
    b.update(50)                        # half done, but within the quiet time: nothing
    assert out.getvalue() == ""
    clock.now = 11.0
    b.update(1)
    assert out.getvalue() == "hanabi-cp: x: 51/100 decks (51%), 11s elapsed\n"
    clock.now = 30.0
    b.update(5)                         # less than a tenth since the last line
    assert out.getvalue().count("\n") == 1
    clock.now = 3700.0
    b.update(44)
    b.close()
    b.close()
    assert out.getvalue().splitlines()[1:] == ["hanabi-cp: x: 100/100 decks (100%), 1h01m elapsed"]


def test_disabled_says_nothing_and_a_closed_pipe_is_no_error():
    out = io.StringIO()
    with progress.bar(10, enabled=False, stream=out) as b:
        b.update(10)
    assert out.getvalue() == ""
    closed = io.StringIO()
    b = progress._Lines(10, 0, None, "", closed, quiet=0.0)
    closed.close()
    b.update(10)
    b.close()


def test_track_yields_every_item():
    out = io.StringIO()
    assert list(progress.track(iter(range(5)), enabled=True, stream=out)) == list(range(5))
    assert list(progress.track(range(3), enabled=False)) == [0, 1, 2]


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_a_terminal_gets_the_live_bar():
    import fcntl
    import struct
    import termios

    leader, follower = os.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))   # 24 x 100
    chunks: list[bytes] = []

    def drain():                        # read as it comes: a pty may drop what is left at exit
        while True:
            try:
                data = os.read(leader, 65536)
            except OSError:             # EIO: the child's side is closed
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        proc = subprocess.Popen([sys.executable, "-c", BAR, "3600", "200", "0"],
                                stdout=subprocess.PIPE, stderr=follower)
        os.close(follower)
        out, _ = proc.communicate(timeout=120)
        reader.join(timeout=30)
    finally:
        os.close(leader)
    text = b"".join(chunks).decode(errors="replace")
    assert out == b"done\n" and proc.returncode == 0
    assert "sweep" in text and "rows" in text and "\r" in text       # tqdm redraws in place
