"""JSON with line numbers for shape errors, bounded in depth.

Parsing goes through the fast C decoder, after a check that the text nests at most
MAX_JSON_DEPTH levels (Python's decoders recurse per level).  When a value has the
wrong shape, its line is found by walking the text along the value's key/index path
with the C scanner, skipping siblings without re-parsing the whole text.
"""

from __future__ import annotations

import json
import json.decoder
import json.scanner
import re
from typing import Any
from collections.abc import Callable, Sequence

from ..runtime import limits
from ..runtime.deadline import poll
from ..core.errors import InputError
from ..runtime.limits import clip, echo

# A JSON string (no raw newline: JSON forbids control characters in strings, so what
# this leaves keeps every line break of the text where it was).
_STRING = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"')
_SPACE = re.compile(r"[ \t\n\r]*")
_COMMA = re.compile(r"[ \t\n\r]*,[ \t\n\r]*")
# Bytes of the bracket skeleton scanned at a time by the exact depth check.
_DEPTH_CHUNK = 1 << 24
# Brackets only, '{' and '}' as '[' and ']': the depth is all the check looks at.
_BRACKETS = bytes.maketrans(b"{}", b"[]")
_NOT_BRACKETS = bytes(set(range(256)) - set(b"[]{}"))
# Innermost pairs deleted this many times clear every format hanabi-cp reads (at most
# 4 levels deep); only a text still nested after that gets the exact scan.
_QUICK_PASSES = 8


def _too_deep(text: str) -> int | None:
    """The line where the text first nests deeper than MAX_JSON_DEPTH, else None.

    >>> _too_deep('[' * 101 + ']' * 101), _too_deep('{"a": "[[[[[[["}') is None
    (1, True)
    """
    limit = limits.MAX_JSON_DEPTH
    if text.count("[") + text.count("{") <= limit:
        return None
    skeleton = _STRING.sub("", text).encode("utf-8", "surrogatepass")
    pairs = skeleton.translate(_BRACKETS, _NOT_BRACKETS)
    for passes in range(_QUICK_PASSES):
        inner = pairs.replace(b"[]", b"")
        if len(inner) == len(pairs):
            # no pair left: each pass took one level, each '[' left open adds one
            if passes + pairs.count(b"[") <= limit:
                return None
            break
        pairs = inner
    import numpy as np     # a running sum in C, for the line of the first excess

    step = np.zeros(256, dtype=np.int8)
    step[list(b"[{")] = 1
    step[list(b"]}")] = -1
    depth = 0
    for start in range(0, len(skeleton), _DEPTH_CHUNK):
        chunk = np.frombuffer(skeleton, dtype=np.uint8,
                              count=min(_DEPTH_CHUNK, len(skeleton) - start), offset=start)
        running = np.cumsum(step[chunk], dtype=np.int32) + depth
        if running.max() > limit:
            at = start + int(np.argmax(running > limit))
            return skeleton.count(b"\n", 0, at) + 1
        depth = int(running[-1])
    return None


def load_json(text: str, path: str, what: str = "the input") -> Any:
    """Decode JSON, turning a syntax error into ``path:line: expected valid JSON, ...``.

    >>> load_json('{"a": [1,\\n 2,]}', "x.json")
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.InputError: x.json:2: expected valid JSON (Expecting value), found ']}'
    >>> load_json("[" * 500 + "]" * 500, "deep.json")
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.InputError: deep.json:1: expected JSON nested at most 100 levels deep, found deeper nesting
    """
    if len(text) > limits.MAX_JSON_CHARS:
        raise InputError(path, None, f"JSON of at most {limits.MAX_JSON_CHARS:,} characters "
                         "(hanabi-cp's limit on JSON input)",
                         f"{len(text):,}")
    deep = _too_deep(text)
    if deep is not None:
        raise InputError(path, deep, f"JSON nested at most {limits.MAX_JSON_DEPTH} levels deep",
                         "deeper nesting")
    poll(f"reading {what}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        bit = text[e.pos:e.pos + 10].split("\n", 1)[0]
        found = echo(bit) if bit else "end of line" if e.pos < len(text) else "end of file"
        raise InputError(path, e.lineno, f"valid JSON ({e.msg})", found) from None
    except ValueError as e:
        # int() refuses numbers of more than 4,300 digits (not a JSONDecodeError)
        raise InputError(path, None, "JSON numbers of at most 4,300 digits",
                         clip(str(e))) from None
    except RecursionError:
        raise InputError(path, None, f"JSON nested at most {limits.MAX_JSON_DEPTH} levels deep",
                         "deeper nesting") from None


# The C scanner, (value, end) = _scan(text, index), and string reader: typeshed lists
# neither as a function.
_scan: Callable[[str, int], tuple[Any, int]] = vars(json.scanner)["make_scanner"](json.JSONDecoder())
_scanstring: Callable[[str, int], tuple[str, int]] = vars(json.decoder)["scanstring"]


def _skip(text: str, pos: int) -> int:
    """The index of the first non-space at or after ``pos``."""
    space = _SPACE.match(text, pos)
    return space.end() if space else pos


def _value_start(text: str, pos: int, key: Any) -> int | None:
    """Where the member ``key`` of the array or object starting at ``pos`` starts."""
    opening = text[pos:pos + 1]
    if opening == "[" and isinstance(key, int) and not isinstance(key, bool):
        pos = _skip(text, pos + 1)
        scan, comma = _scan, _COMMA.match
        for i in range(key):
            if not i & 4095:
                poll("locating an error")
            after = comma(text, scan(text, pos)[1])
            if after is None:
                return None
            pos = after.end()
        return pos
    if opening == "{" and isinstance(key, str):
        found = None            # the last of duplicate keys: the one json.loads keeps
        pos = _skip(text, pos + 1)
        while text[pos:pos + 1] == '"':
            name, pos = _scanstring(text, pos + 1)
            pos = _skip(text, pos) + 1          # past ':'
            pos = _skip(text, pos)
            if name == key:
                found = pos
            pos = _skip(text, _scan(text, pos)[1])
            if text[pos:pos + 1] != ",":
                break
            pos = _skip(text, pos + 1)
        return found
    return None


def line_of(text: str, where: Sequence) -> int:
    """Line where the value at key/index path ``where`` starts (1 for the root), in
    valid JSON; as deep as the path can be followed.

    >>> line_of('{"cards": [\\n[1, 1],\\n [2, "x"]]}', ("cards", 1, 1))
    3
    >>> line_of('{"a": 1,\\n "a": [0,\\n 7]}', ("a", 1))
    3
    """
    if "\n" not in text:
        return 1
    pos = _skip(text, 0)
    for key in where:
        try:
            start = _value_start(text, pos, key)
        except (StopIteration, ValueError):     # not the text that was parsed: stop here
            start = None
        if start is None:
            break
        pos = start
    return text.count("\n", 0, pos) + 1


def describe(value: Any) -> str:
    """A short JSON rendering of ``value`` for ``found ...``.

    >>> describe([1, [2, 3]]), describe({"a": 1}), describe(list(range(30)))
    ('[1, [2, 3]]', '{"a": 1}', 'a list of 30: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1...')
    """
    text = json.dumps(value)
    if len(text) <= 60:
        return text
    if isinstance(value, dict):
        return "an object with keys " + clip(", ".join(json.dumps(k) for k in list(value)[:6]))
    if isinstance(value, list):
        return f"a list of {len(value)}: " + text[:40] + "..."
    return clip(text)


def is_int(x: Any) -> bool:
    """A JSON integer (``true`` and ``false`` are ints to Python, not to JSON)."""
    return isinstance(x, int) and not isinstance(x, bool)


class Shape:
    """Raises shape errors at the line of the offending value."""

    def __init__(self, text: str, path: str, data: Any = None):
        self.text, self.path, self.data = text, path, data

    def value(self, key: str, i: int) -> Any:
        return self.data[key][i]

    def fail(self, where: tuple, expected: str, found: str):
        raise InputError(self.path, line_of(self.text, where), expected, found)
