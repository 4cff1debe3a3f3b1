"""``analyze --refutations DIR``: one refutation file per lost position of a game."""

from __future__ import annotations

import glob
import os

from ..core.errors import FileError, UsageError
from ..core.status import PositionStatus
from ..io.outputs import check_folder, write_texts
from ..real import refutation as refute
from ..real.postmortem.report import PostMortem
from ..real.rules import Rules
from ..core.model import Deck
from ..runtime.deadline import Deadline


def file_name(stem: str, k: int) -> str:
    return f"{stem}.position-{k}.refutation.json"


def marker_name(folder: str, stem: str) -> str:
    """The file that names a game's refutations in ``folder`` as incomplete: made
    before the first is written, removed after the last."""
    return os.path.join(folder, f"{stem}.refutations-incomplete")


def check_refutation_dir(folder: str, stem: str, force: bool) -> bool:
    """Refuse, before any work, a DIR that is ``-``, a file or cannot be made or
    written, or (without ``force``) one that already holds a complete set of
    refutations of this game.  True if it holds an incomplete set (a run that
    stopped midway, a full disk): the rerun finishes it without ``force``."""
    if folder == "-":
        raise UsageError("analyze: --refutations - is not possible: --refutations names a "
                         "folder (one file per lost position), not stdout")
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise FileError(f"{folder}: cannot write refutations into it: not a directory")
    check_folder(os.path.abspath(folder), True, folder)
    incomplete = os.path.exists(marker_name(folder, stem))
    old = sorted(glob.glob(os.path.join(glob.escape(folder),
                                        f"{glob.escape(stem)}.position-*.refutation.json")))
    if old and not force and not incomplete:
        raise FileError(f"{old[0]}: already exists (and {len(old) - 1} more refutations of "
                        f"this game); use --force to overwrite")
    return incomplete


def write_refutations(folder: str, stem: str, deck: Deck, rules: Rules, actions, result:
                      PostMortem, limit: float | None, deadline: Deadline,
                      force: bool) -> list[dict]:
    """The search's refutation of every decided position whose best score is below
    the target, each written to ``folder`` once the checker has walked it; per
    position: its number, the goal refuted, the file (None if the time ran out)
    and the refuted states it holds."""
    lost = [(r.position, r.best) for r in result.rows
            if r.status == PositionStatus.DECIDED and r.best is not None and r.best < result.target]
    if not lost or refute.refuses_rules(rules) is not None:
        return []
    marker = marker_name(folder, stem)
    try:
        os.makedirs(folder, exist_ok=True)
        with open(marker, "w", encoding="utf-8"):
            pass        # empty: its name says it, and a full disk still has room for it
    except OSError as exc:
        raise FileError(f"{folder}: cannot write the refutations: {exc.strerror}") from None
    done = []
    # A set of files cannot be renamed into place at once: each is written whole, and
    # the marker says the set is not complete until the last one is there.  A rerun
    # finds the marker and overwrites this game's files without --force.
    try:
        for k, goal, table in refute.refute_positions(deck, rules, actions, lost, limit,
                                                      deadline):
            path = None
            if table is not None:
                path = os.path.join(folder, file_name(stem, k))
                write_texts([(path, refute.to_json(goal, table, actions[:k]))], force=True)
            done.append({"position": k, "goal": goal, "file": path,
                         "states": 0 if table is None else len(table)})
    except FileError as exc:
        raise FileError(f"{folder}: incomplete: {len(done)} of {len(lost)} refutations of "
                        f"{stem} written ({os.path.basename(marker)} says so; a rerun finishes "
                        f"them): {exc}") from None
    os.remove(marker)
    return done


def refutations_line(folder: str, rows: list[dict], rules: Rules) -> str:
    """What ``write_refutations`` did, in one line."""
    why = refute.refuses_rules(rules)
    if why is not None:
        return f"c no refutations: {why}"
    if not rows:
        return "c no refutations: no decided position is lost"
    written = [r["position"] for r in rows if r["file"]]
    late = [r["position"] for r in rows if not r["file"]]
    line = f"c refutations: {len(written)} written to {folder}, each walked again"
    if late:
        line += f"; not within the position limit: positions {_span(late)}"
    return line


def _span(ks: list[int]) -> str:
    return ", ".join(map(str, ks)) if len(ks) <= 6 else f"{ks[0]}, {ks[1]}, ... {ks[-1]}"
