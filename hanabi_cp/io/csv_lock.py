"""One writer per result CSV: an exclusive lock, held while a run may append to it.

Two runs appending to one CSV at once would each skip only the rows it read when it
started, so both would compute and write every new row: every game twice, and a
third run's summary would count the duplicates.  The first run takes an exclusive
``flock`` on the CSV itself (creating it, empty, if it is missing) and holds it until
it ends; a second run is refused in one line before it reads a row.  The kernel
drops the lock when the process ends however it ends (a kill included), so a crash
never leaves a CSV locked.

Within one process the lock is shared: a command may open its CSV twice (the run,
then the summary).  A CSV that the lock created and no row was ever written to is
removed again on release, with the folders made for it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field

from ..core.errors import FileError

try:
    import fcntl
except ImportError:         # not POSIX: no lock (two runs at once are the user's care)
    fcntl = None  # type: ignore[assignment]


@dataclass
class _Held:
    fd: int
    path: str
    created: bool
    folders: list[str] = field(default_factory=list)
    users: int = 0


_HELD: dict[tuple[int, int], _Held] = {}


def hold(path: str, option: str = "--csv") -> Callable[[], None]:
    """Lock the CSV at ``path`` for this process; the function that releases it.

    Raises FileError (naming ``option``, the flag that chose the file) if another
    process holds the lock.
    """
    folders, top = [], os.path.dirname(os.path.abspath(path))
    while not os.path.exists(top):
        folders.append(top)
        top = os.path.dirname(top)
    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        try:
            fd, created = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o666), True
        except FileExistsError:
            # non-blocking: a FIFO named as the CSV must not wait for a writer here
            fd, created = os.open(path, os.O_RDONLY | os.O_NONBLOCK), False
    except OSError as e:
        _remove_folders(folders)
        raise FileError(f"{path}: cannot write: {e.strerror}") from None
    st = os.fstat(fd)
    key = (st.st_dev, st.st_ino)
    held = _HELD.get(key)
    if held is None:
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise FileError(f"{path}: another run is appending to this CSV (it holds the "
                                f"lock); wait until it ends, or use another {option}") from None
        held = _HELD[key] = _Held(fd, path, created, folders)
    else:
        os.close(fd)
    held.users += 1
    released = False

    def release() -> None:
        nonlocal released
        if released:
            return
        released = True
        held.users -= 1
        if held.users:
            return
        del _HELD[key]
        with contextlib.suppress(OSError):
            if held.created and os.fstat(held.fd).st_size == 0 and _same(held.path, key):
                os.unlink(held.path)
                _remove_folders(held.folders)
        os.close(held.fd)          # and the lock with it

    return release


def _same(path: str, key: tuple[int, int]) -> bool:
    try:
        st = os.stat(path)
    except OSError:
        return False
    return (st.st_dev, st.st_ino) == key


def _remove_folders(folders: list[str]) -> None:
    for d in folders:                   # deepest first
        with contextlib.suppress(OSError):
            os.rmdir(d)
