"""Unbounded input: every reader bounds what it holds before it holds it.

Deeply nested JSON in every JSON reader, endless streams (``/dev/zero``, an endless
stdin), a 100 MB deck on one line under ``--time-limit``, and errors located in
large JSON texts: each ends with one error line (or UNKNOWN at the time limit),
exit code 2, in a forked child whose memory is capped (tests/capped.py).
"""

from __future__ import annotations

import io
import json
import os

import pytest

from capped import assert_one_line_error, capped, cli_capped, invoke, needs_fork
from hanabi_cp.runtime import limits
from hanabi_cp.core.errors import InputError
from hanabi_cp.io import parse_deck_file, read_deck_file
from hanabi_cp.io.jsonpos import line_of, load_json
from hanabi_cp.real.replay_io import parse_replay
from hanabi_cp.solitaire.play_text import parse_plays

pytestmark = needs_fork

INST = os.path.join(os.path.dirname(__file__), os.pardir, "instances")
STD = os.path.join(INST, "standard-winnable-h2.txt")
DEPTH = "nested at most 100 levels deep"


def nested(depth: int, key: str = "cards") -> str:
    return '{"%s": %s%s}' % (key, "[" * depth, "]" * depth)


# --- depth -----------------------------------------------------------------------------

@pytest.mark.parametrize("depth", [101, 300, 5000, 10**6])
@pytest.mark.parametrize("reader", [
    "deck", "hanab.live deck", "plays", "real game",
])
def test_deeply_nested_json_in_every_reader(tmp_path, reader, depth):
    path = tmp_path / "x.json"
    if reader == "deck":
        path.write_text(nested(depth))
        args = ["solve", path, "--hand", 2]
    elif reader == "hanab.live deck":
        path.write_text(nested(depth, "deck"))
        args = ["solve", path, "--hand", 2]
    elif reader == "plays":
        path.write_text(nested(depth, "plays"))
        args = ["verify", STD, path, "--hand", 2]
    else:
        path.write_text(nested(depth, "actions"))
        args = ["verify", STD, path, "--rules", "live", "--players", 2]
    res = cli_capped(args, timeout=30)
    assert_one_line_error(res, "x.json:1:", DEPTH)


def test_the_depth_error_names_the_line_and_ignores_brackets_in_strings():
    # depth 1 on line 1, the 100th "[" (depth 101) on line 103
    text = '{"comments": ["[[[[[[[[[[[[[[[[[[[[[[[[[["],\n "cards": [[1, 1]],\n "x":\n' \
        + "[\n" * 150 + "]" * 150 + "}"
    with pytest.raises(InputError) as err:
        load_json(text, "d.json")
    assert str(err.value) == f"d.json:103: expected JSON {DEPTH}, found deeper nesting"
    legal = '{"comments": ["' + "[" * 1000 + '"], "cards": [[1, 1]]}'
    assert parse_deck_file(legal).deck.N == 1
    hundred = '{"x": ' + "[" * 99 + "]" * 99 + "}"   # 100 levels
    value, levels = load_json(hundred, "h.json"), 1
    while value:
        value, levels = next(iter(value.values())) if isinstance(value, dict) else value[0], levels + 1
    assert levels == 100


def test_every_json_reader_goes_through_the_depth_check():
    for parse in (parse_deck_file, parse_plays, parse_replay):
        with pytest.raises(InputError, match=DEPTH):
            parse(nested(500))


# --- endless streams -------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["solve", "/dev/zero", "--hand", 2],
    ["reduce", "/dev/zero"],
    ["verify", STD, "/dev/zero", "--hand", 2],
    ["verify", STD, "/dev/zero", "--rules", "live", "--players", 2],
    ["decode", STD, "/dev/zero", "--hand", 2],
    ["show", "/dev/zero", "--hand", 2, "-o", "{tmp}/x.png"],
])
def test_dev_zero_is_refused_at_its_first_chunk(tmp_path, args):
    args = [str(a).replace("{tmp}", str(tmp_path)) for a in args]
    res = cli_capped(args, extra_mb=200, timeout=30)
    assert_one_line_error(res, "/dev/zero:1: expected text, found a NUL byte")


class Endless(io.RawIOBase):
    """An endless stream of one pattern: ``yes PATTERN |`` as stdin."""

    def __init__(self, pattern: bytes):
        self.pattern = pattern * (2**16 // len(pattern))

    def readable(self):
        return True

    def readinto(self, buffer):
        n = min(len(buffer), len(self.pattern))
        buffer[:n] = self.pattern[:n]
        return n


@pytest.mark.parametrize("pattern,args", [
    (b"\0", ["solve", "-", "--hand", 2]),
    (b"1r 2y ", ["solve", "-", "--hand", 2]),
    (b"1 -2 0\n", ["reduce", "-"]),
])
def test_an_endless_stdin_is_refused_at_the_input_limit(pattern, args):
    # The real limit (512 MiB): what is read is held once, below the 1.5 GB cap.
    res = capped(lambda: invoke(args, input=Endless(pattern)), timeout=120)
    if pattern == b"\0":
        assert_one_line_error(res, "<stdin>:1: expected text, found a NUL byte")
    else:
        assert_one_line_error(res, f"<stdin>: expected at most {limits.MAX_INPUT_BYTES:,} bytes",
                              "an endless stream?")


def test_a_file_above_the_input_limit_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "MAX_INPUT_BYTES", 3 * 2**20)
    path = tmp_path / "big.txt"
    path.write_text("1r 2y\n" * 2**20)            # 6 MiB
    with pytest.raises(InputError, match="big.txt: expected at most 3,145,728 bytes"):
        read_deck_file(str(path))


def test_bad_utf8_and_nul_bytes_name_their_line_across_chunks(tmp_path):
    path = tmp_path / "d.txt"
    path.write_bytes(b"1r\n" * 600_000 + "é".encode()[:1] + b"\n")   # cut inside a chunk
    with pytest.raises(InputError, match=r"d.txt:600001: expected UTF-8 text, found byte 0xc3"):
        read_deck_file(str(path))
    path.write_bytes(b"1r\n" * 600_000 + b"1r\0\n")
    with pytest.raises(InputError, match=r"d.txt:600001: expected text, found a NUL byte"):
        read_deck_file(str(path))
    path.write_bytes(b"1r\n" * 349_525 + b"1r " + "é".encode())     # é across two chunks
    with pytest.raises(InputError, match="d.txt:349526: expected a card like"):
        read_deck_file(str(path))


# --- a huge deck on one line ----------------------------------------------------------

def test_a_100_mb_deck_on_one_line_keeps_the_time_limit_in_bounded_memory(tmp_path):
    path = tmp_path / "one-line.txt"
    with open(path, "w") as f:
        f.write("1r 2y 3g 4b 5w " * (100 * 10**6 // 15) + "\n")
    res = cli_capped(["solve", path, "--hand", 2, "--time-limit", 1], timeout=60)
    assert res.error is None and res.exit_code == 0, (res.exit_code, res.stderr)
    assert "s UNKNOWN" in res.stdout
    assert "time limit of 1 s reached during reading" in res.stdout


# --- locating an error in a large JSON text -------------------------------------------

def big_deck_json(cards: int, one_line: bool, last: str = '[1, "x"]') -> str:
    body = ([f"[{i % 5 + 1}, {i % 4 + 1}]" for i in range(cards - 1)] + [last])
    sep = ", " if one_line else ",\n"
    return '{"cards": [' + ("" if one_line else "\n") + sep.join(body) + "]}"


@pytest.mark.parametrize("one_line", [True, False])
def test_an_error_at_the_end_of_a_large_json_deck_is_located_cheaply(tmp_path, one_line):
    path = tmp_path / "big.json"
    path.write_text(big_deck_json(2_000_000, one_line))          # 16 MB
    res = cli_capped(["solve", path, "--hand", 2], timeout=60)
    line = 1 if one_line else 2_000_001
    assert_one_line_error(res, f"big.json:{line}: expected card #2000000 as [value, color]")


def test_json_above_its_size_limit_is_refused_before_parsing(monkeypatch):
    monkeypatch.setattr(limits, "MAX_JSON_CHARS", 1000)
    with pytest.raises(InputError, match="expected JSON of at most 1,000 characters"):
        parse_deck_file(big_deck_json(200, True, "[1, 1]"))


def test_line_of_follows_the_path_of_the_value():
    text = '{\n"a": {"b": [0,\n 1,\n {"c": "[\\"x\\"]",\n "d": 4}]},\n "a": {"b": [5,\n 6]}}'
    assert json.loads(text)["a"]["b"] == [5, 6]
    assert line_of(text, ("a", "b", 1)) == 7       # the last "a" is the one kept
    assert line_of(text, ("a", "b", 7)) == 6       # past the end: as deep as it goes
    inner = '{\n"b": [0,\n 1,\n {"c": "[\\"x\\"]",\n "d": 4}]}'
    assert line_of(inner, ("b", 2, "d")) == 5
    assert line_of(inner, ("nope",)) == 1
