"""Post-mortems of a folder of games: every game under it, one refused game never
stopping the others.

``game_files`` lists the ``*.json`` files under a folder and its subfolders (names
starting with ``.`` are left out), each by its path relative to the folder, with
``/`` between folders: that path is the game's key in the CSV, so two subfolders'
``p2.json`` never share rows.  A folder reached twice (a symbolic link back up the
tree, a loop) is walked once; a name that is not a regular file (a FIFO, a device,
a socket, a dangling or looping link) is never opened: it is refused in one line.

``run_folder`` analyses each game not yet complete in the CSV
(``real.postmortem.report.analyze``), appending a game's rows as soon as it is done: a
rerun resumes.  A game that cannot be read or replayed (bad JSON, an illegal action,
an unknown variant, ...) becomes one row of status ``REFUSED`` with the one-line
reason, and the run goes on.  The deadline bounds the whole run: the listing, every
position of every game and the writing; a game it cuts short is not written (a
rerun does it again), and the games not reached are counted.
"""

from __future__ import annotations

import os
import stat
import time
from dataclasses import dataclass, field

from ...core.errors import HanabiError, UsageError
from ...core.status import PositionStatus
from ...io.results_csv import ResultsCSV
from ...real.postmortem.report import analyze
from ...real.referee import target_of
from ...runtime.deadline import NEVER, Deadline, TimeUp, ambient
from ...runtime.executors import SERIAL, Execution, run_tasks
from .postmortems import FIELDS, KEY, load_game, rows_of

REFUSED = PositionStatus.REFUSED
# The exit code of `analyze DIR` when some game was refused (every other game is
# analysed): not 0 (the CSV is not the whole folder), 1 (verify's REJECTED), 2 (a
# mistake that stopped the command) nor the solvers' 10 and 20.
EXIT_REFUSED = 3
SUFFIX = ".json"
_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISDIR, "a folder"))


@dataclass(frozen=True)
class GameFile:
    name: str                   # the path relative to the folder ("/" between folders)
    path: str                   # the path to open
    refused: str | None = None  # why it is not opened, if it is not


@dataclass
class FolderRun:
    """What ``run_folder`` did: every game's rows (from the CSV and new, by name),
    its players and target, and the games refused or not reached."""

    games: int = 0
    added: int = 0
    analysed: int = 0
    rows: dict[str, list[dict]] = field(default_factory=dict)
    meta: dict[str, tuple[int, int, str]] = field(default_factory=dict)  # players, target, variant
    refused: list[tuple[str, str]] = field(default_factory=list)
    not_reached: int = 0
    time_up: str | None = None
    table: ResultsCSV | None = None


def game_files(folder: str, deadline: Deadline = NEVER) -> list[GameFile]:
    """The game files under ``folder`` (see the module's text), sorted by name."""
    out: list[GameFile] = []
    seen: set[tuple[int, int]] = set()
    stack = [("", folder)]
    while stack:
        deadline.check("listing the folder")
        prefix, path = stack.pop()
        try:
            st = os.stat(path)
            if (st.st_dev, st.st_ino) in seen:
                continue            # a link back to a folder already walked
            seen.add((st.st_dev, st.st_ino))
            with os.scandir(path) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            if not prefix:
                raise UsageError(f"{folder}: cannot list the folder: {exc.strerror}") from None
            out.append(GameFile(prefix.rstrip("/"), path,
                                f"{path}: cannot list the folder: {_lower(exc.strerror)}"))
            continue
        folders = []
        for entry in entries:
            if entry.name.startswith("."):
                continue
            name = prefix + _printable(entry.name)
            if _is_folder(entry):
                folders.append((name + "/", entry.path))
            elif entry.name.endswith(SUFFIX):
                out.append(GameFile(name, entry.path, _not_a_file(entry.path)))
        stack.extend(reversed(folders))
    return sorted(out, key=lambda g: g.name)


def _is_folder(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir(follow_symlinks=True)
    except OSError:
        return False


def _not_a_file(path: str) -> str | None:
    """Why ``path`` is not read as a game (without opening it), or None."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        return f"{path}: expected a readable file, found {_lower(exc.strerror)}"
    if stat.S_ISREG(mode):
        return None
    kind = next((what for test, what in _KINDS if test(mode)), "a special file")
    return f"{path}: expected a regular file, found {kind} (not opened)"


def _lower(text: str | None) -> str:
    return (text or "an error")[:1].lower() + (text or "an error")[1:]


def _printable(name: str) -> str:
    from ...io.textio import printable
    return printable(name)


def run_folder(folder: str, csv_path: str | None, method: str = "auto",
               position_limit: float | None = 10.0, progress: bool = False,
               execution: Execution = SERIAL, players: int | None = None,
               deadline: Deadline = NEVER, flags: dict[str, str] | None = None) -> FolderRun:
    """Analyse the games of ``folder`` not yet complete in the CSV (None: no CSV,
    every game, rows kept in memory only); ``flags`` spell the parameters a refusal
    names (the CLI's options)."""
    run = FolderRun()
    try:
        with ambient(deadline):
            table = run.table = ResultsCSV(csv_path, FIELDS, KEY) if csv_path else None
            files = game_files(folder, deadline)
            if not files:
                raise UsageError(f"{folder}: no game files (*{SUFFIX}) in the folder or "
                                 "its subfolders")
            run.games = len(files)
            todo = _todo(files, table, run, players, flags or {}, deadline)
    except TimeUp as exc:
        run.time_up = str(exc)
        run.refused.sort()
        run.not_reached = run.games - len(run.rows) - len(run.refused)
        return run
    for name, reason in list(run.refused):
        _refuse(run, table, name, reason)
    from ...core.progress import bar as progress_bar

    tasks = [(g.path, g.name, method, position_limit, players, deadline.limit,
              _wall(deadline), flags or {}) for g in todo]
    with progress_bar(len(files), initial=len(files) - len(todo), enabled=progress,
                      unit=" games") as bar, run_tasks(_one, tasks, execution) as done:
        for index, (kind, value, meta) in done:
            name = todo[index].name
            if kind == "rows":
                run.analysed += 1
                run.meta[name] = meta
                run.rows[name] = value
                if table is not None:
                    for row in value:
                        table.add(row)
            elif kind == "refused":
                _refuse(run, table, name, value)
            else:
                run.time_up = value
            bar.update(1)
            if deadline.expired():
                run.time_up = run.time_up or str(TimeUp(deadline.limit, "analysing the games"))
                break
    run.added = table.added if table is not None else sum(map(len, run.rows.values()))
    run.refused.sort()
    if run.time_up is not None:
        run.not_reached = run.games - len(run.rows) - len(run.refused)
    return run


def _todo(files: list[GameFile], table: ResultsCSV | None, run: FolderRun,
          players: int | None, flags: dict[str, str], deadline: Deadline) -> list[GameFile]:
    """The games to analyse: those not complete in the CSV (the row of the last
    position is there: a game's rows go in order).  The games already complete are
    read again for their players and target (the summary's); the refused ones are
    noted in ``run``."""
    have: dict[str, list[dict]] = {}
    if table is not None:
        for row in table.rows:
            if row["status"] != REFUSED:
                have.setdefault(row["file"], []).append(row)
    todo = []
    for g in files:
        deadline.check("reading the games")
        if g.refused is not None:
            run.refused.append((g.name, g.refused))
            continue
        rows = have.get(g.name)
        if not rows:
            todo.append(g)
            continue
        try:
            deck, rules, actions, _ = load_game(g.path, None, players)
        except HanabiError as exc:
            run.refused.append((g.name, _one_line(exc, flags)))
            continue
        if any(r["position"] == str(len(actions)) for r in rows):
            run.rows[g.name] = sorted(rows, key=lambda r: int(r["position"]))
            run.meta[g.name] = (rules.players, target_of(deck, rules), rules.variant_name)
        else:
            todo.append(g)
    return todo


def _refuse(run: FolderRun, table: ResultsCSV | None, name: str, reason: str) -> None:
    """Note a refused game, and its row of status REFUSED in the CSV."""
    if (name, reason) not in run.refused:
        run.refused.append((name, reason))
    if table is not None:
        table.add({"file": name, "position": "", "status": REFUSED, "reason": reason})


def _wall(deadline: Deadline) -> float | None:
    """The deadline on the wall clock (a worker's monotonic clock is its own)."""
    return None if not deadline.bounded else time.time() + deadline.remaining()


def _one_line(exc: HanabiError, flags: dict[str, str]) -> str:
    return " ".join(str(exc.rename(flags)).split())


def _one(path: str, name: str, method: str, position_limit: float | None,
         players: int | None, limit: float, wall_at: float | None,
         flags: dict[str, str]) -> tuple[str, object, tuple | None]:
    """One game: ("rows", its rows, (players, target, variant)), ("refused", the
    reason, None) or ("cut", why, None) when the deadline ended it first."""
    deadline = NEVER if wall_at is None else \
        Deadline(limit, time.monotonic() + wall_at - time.time())

    def stop(_: int) -> None:
        deadline.check("analysing the games")

    try:
        with ambient(deadline):
            deck, rules, actions, names = load_game(path, None, players)
            result = analyze(deck, rules, actions, names, method, position_limit, deadline,
                             progress=stop)
    except HanabiError as exc:
        return "refused", _one_line(exc, flags), None
    except TimeUp as exc:
        return "cut", str(exc), None
    if deadline.expired() and not result.decided:
        return "cut", str(TimeUp(limit, "analysing the games")), None
    return "rows", rows_of(name, result), (rules.players, target_of(deck, rules), rules.variant_name)


def summary_rows(run: FolderRun) -> list[dict]:
    """One dict per analysed game for ``loss_table.summary``: its group (its folder,
    its variant unless No Variant, its target unless the variant's), final score,
    fireworks, the deal's best score, the turn after which the target was out of
    reach, and the points lost per class (``loss_table.SPLIT``)."""
    from .strategies import NO_VARIANT, TARGET
    from ...real.variants.catalogue import variant as find_variant
    out = []
    for name, rows in sorted(run.rows.items()):
        players, target, variant = run.meta[name]
        group = os.path.dirname(name) or "."
        if variant != NO_VARIANT:
            group += f" ({variant})"
        if target != (TARGET if variant == NO_VARIANT else find_variant(variant).max_score):
            group += f" ({target} points)"      # a deck of its own: one target per line
        out.append({"players": players, "variant": variant, "target": target,
                    "group": group, "strikes": 0, **_outcome(rows, target)})
    return out


def _int(value) -> int | None:
    return None if value in (None, "") else int(value)


def _outcome(rows: list[dict], target: int) -> dict:
    last = rows[-1]
    piles = _int(last["score"]) or 0
    final = _int(last["best"]) if last["status"] == PositionStatus.OVER else piles
    best = _int(rows[0]["best"])
    lost: dict[str, int] = {}
    lost_turn, lost_kind = None, None
    if best is not None:
        lost["unavoidable"] = target - best
        known, gap = best, False
        for row in rows[1:]:
            b = _int(row["best"])
            if b is None:
                gap = True
                if known == target and lost_kind is None:
                    lost_kind = "undecided"
                continue
            if b < known:
                kind = "other" if gap else (row.get("seen") or "other")
                lost[kind] = lost.get(kind, 0) + known - b
                if known == target and lost_kind is None:
                    lost_turn, lost_kind = _int(row["turn"]), kind
            known, gap = b, False
    return {"score": final if final is not None else piles, "piles": piles,
            "best": "" if best is None else best, "lost": lost,
            "lost_turn": lost_turn, "lost_kind": lost_kind or ""}
