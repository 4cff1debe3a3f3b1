"""Writing output files all or nothing, and never over an existing file without force.

Each output goes to a temporary file in its own directory, renamed into place only
when complete; the outputs of one command are renamed together at the end, inside
``interrupts.critical`` (an interrupt waits for the renames), so an error or an
interrupt midway leaves no partial file and no old file destroyed.  Temporary files
are registered with ``hanabi_cp.runtime.interrupts``, whose watchdog deletes them if it has
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
hanabi_cp.core.errors.FileError: .../out.txt: refusing to overwrite an existing file; use force=True
>>> write_texts([(p + ".a", "a\\n"), (p, "b\\n")])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
hanabi_cp.core.errors.FileError: .../out.txt: refusing to overwrite an existing file; use force=True
>>> os.path.exists(p + ".a"), sorted(os.listdir(os.path.dirname(p)))
(False, ['out.txt'])
"""

from __future__ import annotations

import contextlib
import errno
import os
import shlex
import stat
import sys
import tempfile
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any

from ..runtime import interrupts
from ..core.errors import FileError, UsageError
from ..core.version import PROG, __version__

try:
    import fcntl
except ImportError:         # not POSIX: no output locks
    fcntl = None  # type: ignore[assignment]

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
    hanabi_cp.core.errors.FileError: out.txt: cannot write: No space left on device
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
    refuse_folder_name(path)
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


# Checks before any work, and the provenance lines of written files: used by the
# commands (hanabi_cp.cli) and by the library's writers of families and studies alike.

def refuse_overwrite(path: str | None, force: bool) -> None:
    """Raise unless ``path`` is free (or stdout, or ``force``).

    Commands check every output before any work, so a refused file never costs a
    solve nor leaves some outputs written and others not.
    """
    if path and path != "-" and not force and os.path.isfile(path):
        # The CLI's spelling of ``force`` by default: commands call this for their outputs.
        raise FileError(f"{path}: refusing to overwrite an existing file; use {{force}}", force="--force")


def check_outputs(command: str, outputs: Mapping[str, str | None], force: bool,
                  inputs: Mapping[str, str | None] | None = None,
                  appended: Collection[str] = (), dirs_made: Collection[str] = (),
                  locked: Collection[str] | None = None) -> None:
    """Refuse, before any work, every output that would be wrong or clobber a file.

    ``outputs`` and ``inputs`` map option labels (for the messages) to paths (None:
    not given; ``-``: stdout/stdin).  Refused, whatever ``force`` says: two outputs
    naming one file however spelled (``x``, ``./x``, a symlink), both on stdout, an
    output that is also an input, an output that is a directory or lies in a missing
    or read-only directory (except ``dirs_made`` ones, whose folders are created).
    Refused without ``force``: an existing file (except ``appended`` outputs, which
    a rerun resumes).  Each output not appended (or only the ``locked`` ones, when
    given: a command writing thousands of files locks the one that lists them) is
    locked for the rest of the command (:func:`exclusive`).

    Outputs are compared by their real path and, for existing files, their inode, in
    a dict: linear in the number of outputs (``hle play --games 100000``).
    """
    given = [(label, path) for label, path in outputs.items() if path is not None]
    appended, dirs_made = set(appended), set(dirs_made)      # looked up per output
    seen: dict[object, tuple[str, str]] = {}
    folders_seen: set[tuple[str, bool]] = set()
    real_dirs: dict[str, str] = {}
    for label, path in given:
        for key in _identities(path, real_dirs):
            if key in seen:
                other, other_path = seen[key]
                if path == "-":
                    raise UsageError(f"{command}: {other} - and {label} - cannot both go to "
                                     "stdout")
                raise UsageError(f"{command}: {other} and {label} name the same file: "
                                 f"{other_path}, {path}")
            seen[key] = (label, path)
        if path == "-":
            continue
        refuse_folder_name(path)
        for in_label, in_path in (inputs or {}).items():
            if in_path not in (None, "-") and same_file(path, in_path):
                raise UsageError(f"{command}: {label} {path} is also the input {in_label}; "
                                 "write it elsewhere")
        if os.path.isdir(path):
            raise FileError(f"{path}: cannot write: it is a directory")
        where = (os.path.dirname(os.path.abspath(path)), label in dirs_made)
        if where not in folders_seen:       # a folder of many outputs is checked once
            check_folder(*where, path)
            folders_seen.add(where)
        if label not in appended:
            refuse_overwrite(path, force)
            if locked is None or label in locked:
                exclusive(path)
        elif locked is not None and label in locked:
            exclusive(path)


def _identities(path: str, real_dirs: dict[str, str]) -> list[object]:
    """What makes two output names one file: stdout itself, the real path, and an
    existing file's device and inode (a hard link).  ``real_dirs`` caches the real
    path of each folder: thousands of outputs in one folder resolve it once."""
    if path == "-":
        return ["-"]
    folder, name = os.path.split(os.path.abspath(path))
    if os.path.islink(path) or name in ("", ".", ".."):
        real = os.path.realpath(path)
    else:
        if folder not in real_dirs:
            real_dirs[folder] = os.path.realpath(folder)
        real = os.path.join(real_dirs[folder], name)
    out: list[object] = [real]
    with contextlib.suppress(OSError):
        st = os.stat(path)
        out.append((st.st_dev, st.st_ino))
    return out


def refuse_folder_name(path: str) -> None:
    """A file output named with a trailing ``/`` names a folder: refused, never
    written as a regular file of that name."""
    if path.endswith(("/", os.sep)):
        what = "it is a directory" if os.path.isdir(path) else \
            "a name ending in '/' names a folder, and this output is a file"
        raise FileError(f"{path}: cannot write: {what}")


def refuse_device_stem(option: str, path: str, names: str) -> None:
    """A path that output names are made from (``names``: STEM.png, FILE.cnf) must
    not be a device or a FIFO: ``/dev/null`` never becomes ``/dev/null.png``."""
    if os.path.exists(path) and not os.path.isfile(path) and not os.path.isdir(path):
        raise UsageError(f"{option} {path}: a device or a FIFO; {option} names {names}, "
                         "made by adding to it: give a file name")


# Outputs locked by this process: (path's folder, name) -> (descriptor, lock file).
_LOCKED: dict[tuple[str, str], tuple[int, str]] = {}


def lock_name(path: str) -> str:
    """The lock file beside the output ``path``."""
    folder, name = os.path.split(os.path.abspath(path))
    return os.path.join(folder, f".{name}.lock")


def exclusive(path: str) -> None:
    """Hold an exclusive lock on the output ``path`` for the rest of the command, so
    that a second run writing the same file is refused before any work instead of
    both writing it (each output is still renamed into place whole; the lock keeps
    two runs from both computing it, and from a rename racing a rename).

    The lock is ``flock`` on a file ``.NAME.lock`` beside the output (not the output
    itself: it is replaced by a rename, a new file the lock would not cover),
    removed and released when the command ends (the kernel releases it if the
    process dies).  Only for regular-file outputs inside a click command; a library
    caller takes no lock.
    """
    import click
    ctx = click.get_current_context(silent=True)
    if ctx is None or fcntl is None or (os.path.exists(path) and not os.path.isfile(path)):
        return
    lock = lock_name(path)
    key = os.path.split(lock)
    if key in _LOCKED or not os.path.isdir(key[0]):
        return
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError:
            return                  # no room for the lock file: the writes will say so
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise FileError(f"{path}: another run is writing this file (it holds "
                            f"{os.path.basename(lock)}); wait until it ends, or write "
                            "elsewhere") from None
        try:                        # the holder before us may have removed it meanwhile
            same = os.path.samestat(os.fstat(fd), os.stat(lock))
        except OSError:
            same = False
        if same:
            break
        os.close(fd)
    _LOCKED[key] = (fd, lock)
    interrupts.register(lock)       # removed by the watchdog if it ends the process
    ctx.find_root().call_on_close(lambda: _unlock(key))


def _unlock(key: tuple[str, str]) -> None:
    held = _LOCKED.pop(key, None)
    if held is None:
        return
    fd, lock = held
    with contextlib.suppress(OSError):
        os.unlink(lock)             # while still holding it: a waiter re-checks the inode
    interrupts.unregister(lock)
    os.close(fd)


def same_file(a: str, b: str) -> bool:
    """Do two spellings name one file (through symlinks and hard links)?"""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_folder(folder: str, may_create: bool, path: str) -> None:
    """Can ``path`` be written in ``folder`` (or, ``may_create``, in a folder made there)?"""
    if may_create:
        while not os.path.exists(folder):
            if os.path.lexists(folder):     # a symlink to nowhere, or a loop of them
                raise FileError(f"{path}: cannot write: {folder} is a symbolic link that "
                                "leads to no folder (a loop?)")
            folder = os.path.dirname(folder)
    if not os.path.isdir(folder):
        what = "not a directory" if os.path.exists(folder) else "no such directory"
        raise FileError(f"{path}: cannot write: {what}: {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise FileError(f"{path}: cannot write: permission denied: {folder}")


def provenance(what: str, argv=()) -> list[str]:
    """Comment lines saying which tool, version and command wrote a file.

    ``argv`` is a canonical command line (built from the parsed options, not from
    sys.argv), so the same options always give byte-identical files.
    """
    lines = [f"generated by {PROG} {__version__} ({what})"]
    if argv:
        lines.append("command: " + " ".join(shlex.quote(str(a)) for a in argv))
    return lines
