"""Reading user files as text and writing outputs without clobbering anything.

Every reader goes through :func:`read_text`, so a missing file, a directory, binary
garbage or bad UTF-8 gives the same one-line :class:`InputError` whatever the format.
"""

from __future__ import annotations

import codecs
import contextlib
import re
import sys
from collections.abc import Iterator
from typing import BinaryIO

from ..runtime import limits
from ..runtime.deadline import poll
from ..core.errors import InputError

STDIO = "-"


def printable(text: str) -> str:
    """``text`` as text that encodes to UTF-8: a file name that is not UTF-8 reaches
    Python with its bytes as lone surrogates (PEP 383), which no UTF-8 file, CSV cell
    or PNG text chunk can hold; each such byte becomes a ``\\xNN`` escape.

    >>> printable("caf\\udce9.cnf"), printable("café.cnf")
    ('caf\\\\xe9.cnf', 'café.cnf')
    """
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:          # a surrogate that stands for no byte
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return raw.decode("utf-8", "backslashreplace")


def display_name(path: str) -> str:
    """The name used in error messages: ``<stdin>`` for ``-``.

    >>> display_name("-"), display_name("deck.txt")
    ('<stdin>', 'deck.txt')
    """
    return "<stdin>" if path == STDIO else str(path)


# Characters of text split into lines at a time: the lines of a chunk are all the
# reader holds besides the text and the two card arrays.
CHUNK_CHARS = 1 << 20


def text_lines(text: str, chunk: int | None = None):
    """The lines of ``text``, as ``text.splitlines()`` gives them, a chunk at a time.

    A chunk ends just after a newline (or at the end), so no line (nor a ``\\r\\n``
    pair) is cut, and every other line break splits within its chunk as it would
    in the whole text.

    >>> list(text_lines("a\\r\\nb\\x0cc\\n\\nd")) == "a\\r\\nb\\x0cc\\n\\nd".splitlines()
    True
    """
    size = chunk or CHUNK_CHARS
    start, end = 0, len(text)
    while start < end:
        cut = text.find("\n", min(start + size, end) - 1)
        stop = end if cut < 0 else cut + 1
        yield from text[start:stop].splitlines()
        start = stop


# Characters read between two looks at the clock (a parser polls by characters, not
# lines: one line may be the whole file).
POLL_CHARS = 1 << 16

# Characters of a long line split into tokens at a time (see token_runs).
RUN_CHARS = 1 << 20
_SPACE = re.compile(r"\s")


def token_runs(line: str, phase: str, size: int | None = None) -> Iterator[list[str]]:
    """The tokens of ``line`` (``line.split()``), as runs of about ``size`` characters
    each, polling the deadline (for ``phase``) between runs: a 100 MB line is never
    a list of 30 million tokens.  Only a line without tokens gives an empty run.

    >>> [t for run in token_runs("1r 2y  3g 44b 5w", "reading", size=4) for t in run]
    ['1r', '2y', '3g', '44b', '5w']
    """
    size = size or RUN_CHARS
    if len(line) <= size:
        yield line.split()
        return
    start, any_tokens = 0, False
    while start < len(line):
        space = _SPACE.search(line, start + size)
        stop = len(line) if space is None else space.end()
        run = line[start:stop].split()
        if run:
            any_tokens = True
            yield run
        poll(phase)
        start = stop
    if not any_tokens:
        yield []


def read_text(path: str, what: str = "the input") -> str:
    """The whole file (``-`` = stdin) as text, checked to be UTF-8 without NUL bytes.

    Read a chunk at a time: the command's deadline is polled after each chunk (the
    phase ``reading WHAT``), a
    NUL byte or bad UTF-8 is refused in the chunk that holds it (``/dev/zero`` is
    refused at once), and more than MAX_INPUT_BYTES (an endless stream) is refused
    before it is all held.

    >>> read_text("no/such/file.txt")
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.InputError: no/such/file.txt: expected an existing file, found nothing
    """
    name = display_name(path)
    if path == STDIO:
        raw = getattr(sys.stdin, "buffer", None)
        if raw is None:   # a text-only stand-in (StringIO): already decoded
            return decode_text(sys.stdin.read().encode("utf-8", "surrogateescape"), name)
        return _read_stream(raw, name, what)
    with _opened(path, name) as f:
        return _read_stream(f, name, what)


def read_bytes(path: str, what: str = "the input") -> bytes:
    """The whole file (``-`` = stdin) as bytes, for the one binary input (a CP-SAT
    response ending in .pb): the same size cap and deadline polls as read_text.

    >>> read_bytes("no/such/file.pb")
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.InputError: no/such/file.pb: expected an existing file, found nothing
    """
    name = display_name(path)
    if path == STDIO:
        raw = getattr(sys.stdin, "buffer", None)
        if raw is None:
            return sys.stdin.read().encode("utf-8", "surrogateescape")
        return b"".join(_chunks(raw, name, what))
    with _opened(path, name) as f:
        return b"".join(_chunks(f, name, what))


@contextlib.contextmanager
def _opened(path: str, name: str) -> Iterator[BinaryIO]:
    """``path`` opened for reading; an OSError opening it is an InputError naming it."""
    try:
        f = open(path, "rb")  # noqa: SIM115 (closed by the with below)
    except FileNotFoundError:
        raise InputError(name, None, "an existing file", "nothing") from None
    except IsADirectoryError:
        raise InputError(name, None, "a file", "a directory") from None
    except PermissionError:
        raise InputError(name, None, "a readable file", "permission denied") from None
    except OSError as e:
        raise InputError(name, None, "a readable file", e.strerror or str(e)) from None
    with f:
        try:
            yield f
        except IsADirectoryError:
            raise InputError(name, None, "a file", "a directory") from None
        except OSError as e:
            raise InputError(name, None, "a readable file", e.strerror or str(e)) from None


# Bytes read (and decoded) at a time: the deadline is polled between chunks.
READ_CHUNK = 1 << 20


def _chunks(stream: BinaryIO, name: str, what: str) -> Iterator[bytes]:
    """The bytes of ``stream`` READ_CHUNK at a time, refusing more than
    MAX_INPUT_BYTES before holding them; the deadline is polled after each chunk."""
    total = 0
    while True:
        chunk = stream.read(READ_CHUNK)
        if not chunk:
            return
        total += len(chunk)
        if total > limits.MAX_INPUT_BYTES:
            raise InputError(name, None, f"at most {limits.MAX_INPUT_BYTES:,} bytes "
                             "(hanabi-cp's limit on one input)", "more (an endless stream?)")
        yield chunk
        poll(f"reading {what}")


def _read_stream(stream: BinaryIO, name: str, what: str) -> str:
    decoder = codecs.getincrementaldecoder("utf-8")()
    pieces: list[str] = []
    lines = 0
    for chunk in _chunks(stream, name, what):
        try:
            pieces.append(decoder.decode(chunk))
        except UnicodeDecodeError as e:
            data = e.object             # the chunk, after bytes held from the one before
            line = lines + data.count(b"\n", 0, e.start) + 1   # held bytes are no newline
            raise InputError(name, line, "UTF-8 text", f"byte 0x{data[e.start]:02x}") from None
        nul = chunk.find(b"\0")
        if nul >= 0:
            line = lines + chunk.count(b"\n", 0, nul) + 1
            raise InputError(name, line, "text", "a NUL byte (a binary file?)")
        lines += chunk.count(b"\n")
    try:
        pieces.append(decoder.decode(b"", final=True))
    except UnicodeDecodeError as e:
        raise InputError(name, lines + 1, "UTF-8 text", f"byte 0x{e.object[e.start]:02x}") from None
    text = "".join(pieces)
    return text[1:] if text.startswith("\ufeff") else text


def decode_text(data: bytes, name: str) -> str:
    """Decode UTF-8 (an optional BOM is dropped); reject binary files with a line number.

    >>> decode_text(b"1r 2r\\n\\xff", "x.txt")
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.InputError: x.txt:2: expected UTF-8 text, found byte 0xff
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise InputError(name, line, "UTF-8 text", f"byte 0x{data[e.start]:02x}") from None
    nul = text.find("\x00")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        raise InputError(name, line, "text", "a NUL byte (a binary file?)")
    return text[1:] if text.startswith("\ufeff") else text
