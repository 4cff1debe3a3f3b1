"""Reading user files as text and writing outputs without clobbering anything.

Every reader goes through :func:`read_text`, so a missing file, a directory, binary
garbage or bad UTF-8 gives the same one-line :class:`InputError` whatever the format.
"""

from __future__ import annotations

import contextlib
import gc
import os
import stat
import sys
import tempfile
from typing import TYPE_CHECKING, TextIO
from collections.abc import Iterator

from ..errors import HanabiError, InputError

if TYPE_CHECKING:
    from _typeshed import OpenTextMode

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


@contextlib.contextmanager
def open_output(path: str, force: bool = False) -> Iterator[TextIO]:
    """A text stream to write ``path`` (``-`` = stdout), refusing to overwrite a file.

    The content goes to a temporary file renamed into place at the end, so a failure
    midway never leaves a truncated output (nor destroys the old file under ``force``).
    Non-regular files (``/dev/null``, a FIFO) are written in place.

    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "out.txt")
    >>> with open_output(p) as f:
    ...     _ = f.write("hello\\n")
    >>> with open_output(p) as f:
    ...     _ = f.write("again\\n")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    hanabi_cp.errors.HanabiError: .../out.txt: refusing to overwrite an existing file; use --force
    """
    if path == STDIO:
        yield sys.stdout
        sys.stdout.flush()
        return
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise HanabiError(f"{path}: cannot write: {e.strerror}") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise HanabiError(f"{path}: cannot write: it is a directory")
    if st is not None and not stat.S_ISREG(st.st_mode):
        with _open_or_fail(path, "w") as f:
            yield f
        return
    if st is not None and not force:
        raise HanabiError(f"{path}: refusing to overwrite an existing file; use --force")
    target = os.path.realpath(path)   # through a symlink, as open(path, "w") would
    folder = os.path.dirname(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
    except OSError as e:
        raise HanabiError(f"{path}: cannot write: {e.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            yield f
        if not force and os.path.exists(path):
            raise HanabiError(f"{path}: refusing to overwrite an existing file; use --force")
        if st is not None:
            os.chmod(tmp, stat.S_IMODE(st.st_mode))
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def _open_or_fail(path: str, mode: OpenTextMode) -> Iterator[TextIO]:
    try:
        f = open(path, mode, encoding="utf-8", newline="\n")  # noqa: SIM115 (closed by the caller's with)
    except OSError as e:
        raise HanabiError(f"{path}: cannot write: {e.strerror}") from None
    with f:
        yield f


def write_text(path: str, text: str, force: bool = False) -> None:
    """Write ``text`` to ``path`` (``-`` = stdout) through :func:`open_output`.

    >>> write_text("-", "1r 2r\\n")
    1r 2r
    """
    with open_output(path, force) as f:
        f.write(text)
