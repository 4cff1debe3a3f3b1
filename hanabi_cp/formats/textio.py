"""Reading user files as text and writing outputs without clobbering anything.

Every reader goes through :func:`read_text`, so a missing file, a directory, binary
garbage or bad UTF-8 gives the same one-line :class:`InputError` whatever the format.
"""

from __future__ import annotations

import contextlib
import gc
import sys
from collections.abc import Iterator

from ..errors import InputError
# The writer side lives in .outputs; these names stay importable from here.
from .outputs import open_output as open_output
from .outputs import write_text as write_text

STDIO = "-"


def display_name(path: str) -> str:
    """The name used in error messages: ``<stdin>`` for ``-``.

    >>> display_name("-"), display_name("deck.txt")
    ('<stdin>', 'deck.txt')
    """
    return "<stdin>" if path == STDIO else str(path)


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic GC while a parser builds millions of small tuples.

    Each allocation burst triggers collections that rescan every tracked tuple
    (clauses, cards); none of them can form a cycle, so the scans are pure cost.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def read_text(path: str) -> str:
    """The whole file (``-`` = stdin) as text, checked to be UTF-8 without NUL bytes.

    >>> read_text("no/such/file.txt")
    Traceback (most recent call last):
    ...
    hanabi_cp.errors.InputError: no/such/file.txt: expected an existing file, found nothing
    """
    name = display_name(path)
    if path == STDIO:
        raw = getattr(sys.stdin, "buffer", None)
        if raw is None:   # a text-only stand-in (StringIO): already decoded
            return decode_text(sys.stdin.read().encode("utf-8", "surrogateescape"), name)
        data = raw.read()
    else:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            raise InputError(name, None, "an existing file", "nothing") from None
        except IsADirectoryError:
            raise InputError(name, None, "a file", "a directory") from None
        except PermissionError:
            raise InputError(name, None, "a readable file", "permission denied") from None
        except OSError as e:
            raise InputError(name, None, "a readable file", e.strerror or str(e)) from None
    return decode_text(data, name)


def decode_text(data: bytes, name: str) -> str:
    """Decode UTF-8 (an optional BOM is dropped); reject binary files with a line number.

    >>> decode_text(b"1r 2r\\n\\xff", "x.txt")
    Traceback (most recent call last):
    ...
    hanabi_cp.errors.InputError: x.txt:2: expected UTF-8 text, found byte 0xff
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
