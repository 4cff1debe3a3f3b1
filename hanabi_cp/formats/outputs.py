"""Writing output files all or nothing, and never over an existing file without force.

Each output goes to a temporary file in its own directory, renamed into place only
when complete; the outputs of one command are renamed together at the end, inside
``interrupts.critical`` (an interrupt waits for the renames), so an error or an
interrupt midway leaves no partial file and no old file destroyed.  Temporary files
are registered with ``hanabi_cp.interrupts``, whose watchdog deletes them if it has
to end the process.  ``-`` is stdout; other non-regular files (``/dev/null``, a
FIFO) are written in place.

>>> import os, tempfile
>>> p = os.path.join(tempfile.mkdtemp(), "out.txt")
>>> with open_output(p) as f:
...     _ = f.write("hello\\n")
>>> with open_output(p) as f:
...     _ = f.write("again\\n")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
hanabi_cp.errors.FileError: .../out.txt: refusing to overwrite an existing file; use force=True
>>> write_texts([(p + ".a", "a\\n"), (p, "b\\n")])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
hanabi_cp.errors.FileError: .../out.txt: refusing to overwrite an existing file; use force=True
>>> os.path.exists(p + ".a"), sorted(os.listdir(os.path.dirname(p)))
(False, ['out.txt'])
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import IO, Any

from .. import interrupts
from ..errors import FileError

STDOUT = "-"

# errno values of a write that failed for want of room or a device (a full disk, a
# quota, RLIMIT_FSIZE, a broken pipe): the user's situation, not a bug.
WRITE_FAILURES = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EPIPE,
                            errno.EROFS})


def is_write_failure(exc: BaseException) -> bool:
    """Is ``exc`` an OSError of a write that found no room (see WRITE_FAILURES)?"""
    return isinstance(exc, OSError) and exc.errno in WRITE_FAILURES


def shown(path: str) -> str:
    """The name of an output in messages: ``<stdout>`` for ``-``."""
    return "<stdout>" if path == STDOUT else path


@contextlib.contextmanager
def writing(path: str) -> Iterator[None]:
    """Turn a failed write inside the block (a full disk) into one FileError naming
    ``path``; other errors pass unchanged.

    >>> import errno
    >>> with writing("out.txt"):
    ...     raise OSError(errno.ENOSPC, "No space left on device")
    Traceback (most recent call last):
    ...
    hanabi_cp.errors.FileError: out.txt: cannot write: No space left on device
    """
    try:
        yield
    except OSError as exc:
        if not is_write_failure(exc):
            raise
        raise FileError(f"{shown(path)}: cannot write: {exc.strerror or exc}") from None


@contextlib.contextmanager
def folder(path: str) -> Iterator[None]:
    """Create the folder ``path`` (and missing parents) for the block's outputs; if
    the block fails, the folders it created are removed again (they are empty: the
    outputs are renamed into place only at the end)."""
    made, top = [], os.path.abspath(path)
    while not os.path.exists(top):
        made.append(top)
        top = os.path.dirname(top)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise FileError(f"{path}: cannot create the folder: {e.strerror}") from None
    try:
        yield
    except BaseException:
        for d in made:                      # deepest first
            with contextlib.suppress(OSError):
                os.rmdir(d)
        raise


@dataclass
class _Staged:
    path: str
    target: str | None = None       # the real path renamed onto (None: written in place)
    tmp: str | None = None
    mode: int | None = None         # permissions to keep (an existing file's)
    existed: bool = False

    def open(self, binary: bool) -> IO[Any]:
        if self.path == STDOUT:
            return sys.stdout.buffer if binary else sys.stdout
        kind = "wb" if binary else "w"
        # A file name that is not UTF-8 (in a comment, a command line) is written as
        # an escape: the file stays UTF-8, which every reader of ours insists on.
        text: dict[str, Any] = {} if binary else {"encoding": "utf-8", "newline": "\n",
                                                 "errors": "backslashreplace"}
        try:
            return open(self.tmp or self.path, kind, **text)
        except OSError as e:
            raise FileError(f"{self.path}: cannot write: {e.strerror}") from None


def _stage(path: str, force: bool) -> _Staged:
    if path == STDOUT:
        return _Staged(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise FileError(f"{path}: cannot write: {e.strerror}") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise FileError(f"{path}: cannot write: it is a directory")
    if st is not None and not stat.S_ISREG(st.st_mode):
        return _Staged(path)
    if st is not None and not force:
        raise FileError(f"{path}: refusing to overwrite an existing file; use {{force}}", force="force=True")
    target = os.path.realpath(path)   # through a symlink, as open(path, "w") would
    try:
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=os.path.dirname(target))
    except OSError as e:
        raise FileError(f"{path}: cannot write: {e.strerror}") from None
    interrupts.register(tmp)
    os.close(fd)    # reopened when written: a thousand staged files hold no descriptors
    return _Staged(path, target, tmp, None if st is None else stat.S_IMODE(st.st_mode),
                   st is not None)


def _commit(staged: Sequence[_Staged], force: bool) -> None:
    with interrupts.critical():
        for s in staged:
            if s.tmp is not None and not force and not s.existed and os.path.exists(s.path):
                raise FileError(f"{s.path}: refusing to overwrite an existing file; use {{force}}",
                                force="force=True")
        umask = os.umask(0)
        os.umask(umask)
        for s in staged:
            if s.tmp is None or s.target is None:
                continue
            try:
                os.chmod(s.tmp, 0o666 & ~umask if s.mode is None else s.mode)
                os.replace(s.tmp, s.target)
            except OSError as e:
                raise FileError(f"{s.path}: cannot write: {e.strerror}") from None
            interrupts.unregister(s.tmp)


def _discard(staged: Sequence[_Staged]) -> None:
    for s in staged:
        if s.tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(s.tmp)
            interrupts.unregister(s.tmp)


@contextlib.contextmanager
def open_outputs(paths: Sequence[str], force: bool = False,
                 binary: bool = False) -> Iterator[list[IO[Any]]]:
    """One stream per path, all renamed into place when the block ends without error."""
    staged: list[_Staged] = []
    streams: list[IO[Any]] = []
    try:
        # A failed write names the outputs: which stream the block was writing is
        # not known here (a figure writes its PNG and its SVG in turn).
        with writing(", ".join(map(shown, paths))):
            for path in paths:
                staged.append(_stage(path, force))
            for s in staged:
                streams.append(s.open(binary))
            yield streams
            for s, f in zip(staged, streams):
                if s.path == STDOUT:
                    f.flush()
                else:
                    f.close()
        _commit(staged, force)
    except BaseException:
        for s, f in zip(staged, streams):
            if s.path != STDOUT:
                with contextlib.suppress(OSError):
                    f.close()
        _discard(staged)
        raise


@contextlib.contextmanager
def open_output(path: str, force: bool = False, binary: bool = False) -> Iterator[IO[Any]]:
    """A stream to write ``path`` (``-`` = stdout), refusing to overwrite a file."""
    with open_outputs([path], force, binary) as (stream,):
        yield stream


def write_texts(items: Sequence[tuple[str, str]], force: bool = False) -> None:
    """Write each (path, text), all or none; one file open at a time."""
    staged: list[_Staged] = []
    try:
        for path, _ in items:
            staged.append(_stage(path, force))
        for s, (_, text) in zip(staged, items):
            with writing(s.path):
                if s.path == STDOUT:
                    sys.stdout.write(text)
                    sys.stdout.flush()
                    continue
                with s.open(binary=False) as f:
                    f.write(text)
        _commit(staged, force)
    except BaseException:
        _discard(staged)
        raise


def write_text(path: str, text: str, force: bool = False) -> None:
    """Write ``text`` to ``path`` (``-`` = stdout) through :func:`write_texts`.

    >>> write_text("-", "1r 2r\\n")
    1r 2r
    """
    write_texts([(path, text)], force)
