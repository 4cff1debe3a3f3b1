"""Result tables that an interrupt can neither corrupt nor empty: append, never rewrite.

``study``, ``roundtrip`` and ``harness`` write one row per finished piece of work
as soon as it is final, as one complete line in a single ``write`` (the header goes
with the first row), so the CSV is valid at every instant.  A rerun reads the rows
already there and the caller skips their keys: an interrupted or enlarged run
resumes.  A last line without its newline is not a finished row (each is written
whole, newline included): it is dropped with a warning and its work is done again.  The ``verdict``
column is read back as ``status.RunStatus`` (equal to its text).

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "r.csv")
>>> t = ResultsCSV(path, ["x", "verdict"], key=["x"])
>>> t.add({"x": 1, "verdict": "WINNABLE"}); t.add({"x": 2, "verdict": None})
>>> print(open(path).read(), end="")
x,verdict
1,WINNABLE
2,
>>> again = ResultsCSV(path, ["x", "verdict"], key=["x"])
>>> again.has(x=1), again.has(x=3), len(again.rows)
(True, False, 2)
>>> again.get(x=1)["verdict"] is RunStatus.WINNABLE
True
>>> try:
...     ResultsCSV(path, ["x", "score"], key=["x"])
... except InputError as e:
...     print(str(e).replace(path, "r.csv"))
r.csv:1: expected the columns x,score, found x,verdict (a CSV of another table or version? use another file path)
"""

from __future__ import annotations

import contextlib
import csv
import io
import math
import os
import stat
import sys
import weakref
from collections.abc import Iterator, Sequence

from ..runtime import interrupts
from ..core.errors import FileError, InputError
from ..runtime.limits import MAX_DIGITS, clip, echo
from ..core.status import RunStatus
from . import csv_lock
from .outputs import writing
from .textio import STDIO, display_name, printable, read_text


class ResultsCSV:
    """Rows identified by the ``key`` columns; ``path`` ``-`` streams to stdout."""

    def __init__(self, path: str, fields: Sequence[str], key: Sequence[str]):
        self.path, self.fields, self.key = path, list(fields), list(key)
        self.rows: list[dict] = []
        if path != STDIO:
            # one writer at a time (csv_lock): held until this table is dropped
            release = csv_lock.hold(path)
            weakref.finalize(self, release)
            try:
                self.rows = self._read()
            except BaseException:
                release()
                raise
        self._index = {self._key(r): r for r in self.rows}
        self.added = 0
        self._header_written = False

    def _key(self, row: dict) -> tuple:
        return tuple(str(row[k]) for k in self.key)

    def has(self, **key) -> bool:
        return self.get(**key) is not None

    def get(self, **key) -> dict | None:
        """The row with these key columns (compared as CSV text), if there is one."""
        return self._index.get(self._key({k: _cell(v) for k, v in key.items()}))

    def add(self, row: dict) -> None:
        """Append ``row`` (missing columns and None are empty) unless its key is there."""
        cells = [_cell(row.get(f)) for f in self.fields]
        as_text = dict(zip(self.fields, cells))
        k = self._key(as_text)
        if k in self._index:
            return
        with interrupts.critical():
            # A row finished after a signal may be the signal's doing (a solver that
            # stopped early): it is not written, and the rerun computes it again.
            interrupts.refuse_if_received()
            self._append(_line(cells))
        self.rows.append(as_text)
        self._index[k] = as_text
        self.added += 1

    def _append(self, line: str) -> None:
        if self.path == STDIO:
            if not self._header_written:
                line = _line(self.fields) + line
                self._header_written = True
            with writing(STDIO):
                sys.stdout.write(line)
                sys.stdout.flush()
            return
        folder = os.path.dirname(os.path.abspath(self.path))
        created = False
        try:
            os.makedirs(folder, exist_ok=True)
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL, 0o666)
                created = True
            except FileExistsError:
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        except OSError as e:
            raise FileError(f"{self.path}: cannot write: {e.strerror}") from None
        size = None
        try:
            size = os.fstat(fd).st_size
            if size == 0:
                line = _line(self.fields) + line
            data = line.encode("utf-8")
            while data:
                data = data[os.write(fd, data):]
        except OSError as e:
            # A full disk may take part of the row: cut it off, the CSV stays whole rows.
            with contextlib.suppress(OSError):
                if created:             # and no empty CSV where there was none
                    os.unlink(self.path)
                elif size is not None:
                    os.ftruncate(fd, size)
            raise FileError(f"{self.path}: cannot write: {e.strerror}") from None
        finally:
            os.close(fd)

    def _read(self) -> list[dict]:
        path, name = self.path, display_name(self.path)
        try:
            st = os.stat(path)
        except FileNotFoundError:
            _check_creatable(path)
            return []
        except OSError as e:
            raise InputError(name, None, "a readable CSV file", e.strerror or str(e)) from None
        if stat.S_ISDIR(st.st_mode):
            raise InputError(name, None, "a CSV file", "a directory")
        if not stat.S_ISREG(st.st_mode):
            raise InputError(name, None, "a regular CSV file", "a special file")
        if not os.access(path, os.W_OK):
            raise FileError(f"{name}: cannot write: permission denied")
        text = read_text(path, "the CSV")
        header = _line(self.fields).rstrip("\n")
        first, newline, rest = text.partition("\n")
        if not newline and header.startswith(first):
            if first:
                self._drop(len(first), 1, "an incomplete header")
            return []
        with _cells(name, 1):
            rows = list(csv.reader(io.StringIO(first)))
        if not rows or rows[0] != self.fields:
            found = ",".join(rows[0]) if rows else "an empty line"
            raise InputError(name, 1, f"the columns {','.join(self.fields)}",
                             f"{found} (a CSV of another table or version? use another "
                             "{csv_path} path)", csv_path="file")
        lines = rest.split("\n")
        if lines[-1]:
            self._drop(len(lines[-1].encode("utf-8")), len(lines) + 1, "an incomplete last row")
        reader = csv.reader(lines[:-1])
        with _cells(name, lambda: reader.line_num + 1):
            return self._rows(name, enumerate(reader, start=2))

    def _rows(self, name: str, numbered) -> list[dict]:
        out = []
        checks = [(i, field, COLUMNS[field]) for i, field in enumerate(self.fields)
                  if field in COLUMNS]
        for no, cells in numbered:
            if len(cells) != len(self.fields):
                raise InputError(name, no, f"{len(self.fields)} columns", f"{len(cells)}")
            for i, field, (ok, what) in checks:
                if cells[i] and not ok(cells[i]):
                    raise InputError(name, no, f"{what} in column {field!r} ({HAND_EDITED})",
                                     echo(cells[i]))
            row = dict(zip(self.fields, cells))
            for field in VERDICTS:
                if field in row:
                    row[field] = RunStatus.read(row[field])
            for field, needed in REQUIRES.items():
                lacking = [f for f in needed if row.get(field) and f in row and not row[f]]
                if lacking:
                    raise InputError(name, no, f"a value in column {lacking[0]!r} with one in "
                                     f"{field!r} ({HAND_EDITED})", "an empty cell")
            out.append(row)
        return out

    def _drop(self, size: int, line: int, what: str) -> None:
        """Cut the last ``size`` bytes: a line that an interrupted write left unfinished."""
        print(f"hanabi-cp: warning: {display_name(self.path)}:{line}: dropped {what} (an "
              "interrupted write); its work is done again", file=sys.stderr)
        with interrupts.critical(), open(self.path, "r+b") as fh:
            fh.truncate(os.fstat(fh.fileno()).st_size - size)


@contextlib.contextmanager
def _cells(name: str, line) -> Iterator[None]:
    """The csv module's own refusals (a cell over its field limit, a stray quote) as
    an InputError naming the line (``line``: a number, or a function giving it)."""
    try:
        yield
    except csv.Error as exc:
        no = line() if callable(line) else line
        raise InputError(name, no, f"CSV cells of at most {csv.field_size_limit():,} "
                         "characters, quoted as the csv module writes them",
                         clip(str(exc))) from None


def _check_creatable(path: str) -> None:
    """The nearest existing folder above ``path`` must be a writable directory."""
    folder = os.path.dirname(os.path.abspath(path))
    while not os.path.exists(folder):
        folder = os.path.dirname(folder)
    if not os.path.isdir(folder):
        raise FileError(f"{path}: cannot write: {folder} is not a directory")
    if not os.access(folder, os.W_OK):
        raise FileError(f"{path}: cannot write: permission denied ({folder})")


def _is_int(text: str) -> bool:
    digits = text[1:] if text[:1] == "-" else text
    return digits.isascii() and digits.isdigit() and len(digits) <= MAX_DIGITS


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text)) and text.isascii()
    except ValueError:
        return False


_INT = (_is_int, "an integer")
_NUMBER = (_is_number, "a number")
# The numeric columns of every table, by name (a name means the same in every table):
# the summaries and figures compute with them, so a word there, typed by hand, is
# refused when the CSV is read, naming its line, not met as a ValueError mid-run.
# An empty cell is always allowed (no value).
COLUMNS = {
    **dict.fromkeys(["instance", "seed", "n", "c", "r", "N", "h", "v", "m", "min_hand",
                     "variables", "constraints", "table", "deck_seed", "players", "hand_size",
                     "score", "step", "effort", "tiebreak", "accepted", "best", "vars",
                     "clauses", "cards", "game", "strike_limit", "strikes", "turns",
                     "bound_lower"], _INT),
    **dict.fromkeys(["x", "ratio", "seconds", "build_seconds", "reduce_seconds",
                     "solve_seconds", "sat_seconds", "bound_seconds"], _NUMBER),
    "clues": (lambda t: t == "unlimited" or _is_int(t), "an integer or 'unlimited'"),
}

# Columns of statuses, parsed into RunStatus when read (a RunStatus equals its text).
VERDICTS = ("verdict",)

# Columns whose value the rows' readers take to imply others': a bound's method comes
# with the bound's time.
REQUIRES = {"bound_method": ("bound_seconds",)}
HAND_EDITED = "a row edited by hand? fix it, or delete the line to redo its work"


def table_text(fields: Sequence[str], rows: Sequence[dict]) -> str:
    """A whole CSV (header and rows) as ResultsCSV would append it, for an output
    written at once and renamed into place (``analyze GAME --csv``)."""
    return _line(fields) + "".join(_line([_cell(r.get(f)) for f in fields]) for r in rows)


def _cell(value) -> str:
    # One row is one line: a message with a newline would break that.  A file name
    # that is not UTF-8 is kept as \xNN escapes (the key of its row reads the same).
    return "" if value is None else printable(" ".join(str(value).splitlines()))


def _line(cells: Sequence[str]) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(cells)
    return buf.getvalue()
