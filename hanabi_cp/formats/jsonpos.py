"""JSON with line numbers for shape errors.

Parsing goes through the fast C decoder; only when a value has the wrong shape is the
text parsed again by the pure-Python scanner, instrumented to remember where each
array element and object value starts, so the error can name its line.
"""

from __future__ import annotations

import json
import json.decoder
import json.scanner
from typing import Any
from collections.abc import Sequence

from ..errors import InputError
from ..limits import clip, echo


class _Located(list):
    starts: list


class _LocatedDict(dict):
    starts: dict


def _parse_array(s_and_end, scan_once, **kw):
    starts = []

    def record(s, idx):
        starts.append(idx)
        return scan_once(s, idx)

    values, end = json.decoder.JSONArray(s_and_end, record, **kw)
    out = _Located(values)
    out.starts = starts
    return out, end


def _parse_object(s_and_end, strict, scan_once, object_hook, object_pairs_hook,
                  memo=None, **kw):
    starts = []

    def record(s, idx):
        starts.append(idx)
        return scan_once(s, idx)

    def pairs_hook(pairs):
        out = _LocatedDict(pairs)
        out.starts = {key: start for (key, _), start in zip(pairs, starts)}
        return out

    return json.decoder.JSONObject(s_and_end, strict, record, None, pairs_hook, memo, **kw)


class _LocatingDecoder(json.JSONDecoder):
    def __init__(self):
        super().__init__()
        self.parse_array = _parse_array
        self.parse_object = _parse_object
        self.scan_once = json.scanner.py_make_scanner(self)


def load_json(text: str, path: str) -> Any:
    """Decode JSON, turning a syntax error into ``path:line: expected valid JSON, ...``.

    >>> load_json('{"a": [1,\\n 2,]}', "x.json")
    Traceback (most recent call last):
    ...
    hanabi_cp.errors.InputError: x.json:2: expected valid JSON (Expecting value), found ']}'
    """
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
        raise InputError(path, None, "JSON nested at most a few hundred levels deep",
                         "deeper nesting") from None


def line_of(text: str, where: Sequence) -> int:
    """Line where the value at key/index path ``where`` starts (1 for the root).

    >>> line_of('{"cards": [\\n[1, 1],\\n [2, "x"]]}', ("cards", 1, 1))
    3
    """
    node = _LocatingDecoder().decode(text)
    pos = 0
    for key in where:
        starts = getattr(node, "starts", None)
        if starts is None:
            break
        try:
            pos = starts[key]
            node = node[key]
        except (KeyError, IndexError, TypeError):
            break
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
