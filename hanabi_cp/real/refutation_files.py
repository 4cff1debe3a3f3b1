"""Which refutations are written, and where: the one behind a loss that ``solve
--rules live --refutation`` answered (``refutation_of``: the policy of when there is
none), and one file per lost position of a post-mortem (``analyze --refutations``:
``write_refutations``).  Each is walked by the checker (``refutation.check``) before
it is returned or written.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.errors import FileError
from ..core.model import Deck
from ..core.status import PositionStatus, Status
from ..io.outputs import check_folder, write_texts
from ..runtime.deadline import Deadline, TimeUp
from . import refutation as refute
from .referee import Game, IllegalMove
from .rules import Rules

if TYPE_CHECKING:
    from .postmortem.report import PostMortem


@dataclass(frozen=True)
class Refuted:
    """The refutation behind a loss (``text``: ``refutation.to_json``'s, walked by
    the checker; ``goal``, the score no game reaches; ``states``, how many it lists),
    or why there is none (``why_not``)."""

    text: str | None = None
    goal: int | None = None
    states: int = 0
    why_not: str | None = None

    @property
    def line(self) -> str:
        """The refutation on one line (``to_json`` writes one, and a newline)."""
        return (self.text or "").rstrip("\n")

    def data(self) -> dict | None:
        """The refutation as decoded JSON (None if there is none)."""
        import json
        return None if self.text is None else json.loads(self.text)

    def save(self, path: str, force: bool = False) -> str:
        """Write the refutation to ``path`` ("-": nothing is written, the caller shows
        ``line``); the line saying what was written, or why nothing was."""
        if self.text is None:
            return f"no refutation written: {self.why_not}"
        if path != "-":
            write_texts([(path, self.text)], force=force)
        return (f"refutation: {path} (no game reaches {self.goal}; {self.states:,} refuted "
                f"states, walked again by the checker)")


def refutation_of(start: Game, out, deadline: Deadline) -> Refuted:
    """The search's refutation behind ``out``, an answer from ``start``: only for a
    loss that no reason already proves, at a position the search can refute (not one
    decided plan by plan), within ``deadline``."""
    if out.status is not Status.UNWINNABLE:
        return Refuted(why_not="the deck is winnable (the certificate is the evidence)"
                       if out.status is Status.WINNABLE else "undecided")
    if out.stats.get("shown_by"):
        # a reason proved it; the search's refutation of one card more may take it
        # any time at all (2 players, seed 629: none within minutes)
        return Refuted(why_not=f"{out.stats['shown_by']} proves it (the reason above)")
    goal = refute.goal_of(start, out)
    why = refute.refuses(start)
    if why is not None or start.over:
        return Refuted(why_not=why or "the game is already over")
    try:
        table = refute.refute_claim(start, goal, deadline, out.method)
    except TimeUp as exc:
        return Refuted(why_not=str(exc))
    return Refuted(refute.to_json(goal, table), goal, len(table))


def refutation_in(text: str, name: str) -> dict | None:
    """The decoded file if ``text`` is a refutation (``refutation.to_json``), else
    None (a game, to be read as one)."""
    from ..io.decks import looks_like_json
    from ..io.jsonpos import load_json
    if not looks_like_json(text):
        return None
    data = load_json(text, name, "the game")
    return data if refute.is_refutation(data) else None


@dataclass(frozen=True)
class Walked:
    """A refutation file walked again (``verify DECK REFUTATION``): its goal, the
    actions to the position it starts from, the refuted states it lists and how many
    the walk used; ``error`` says why it does not prove its claim (None: it does)."""

    goal: int
    position: list
    states: int
    used: int
    error: str | None

    def to_json(self) -> dict:
        return {"verified": self.error is None, "goal": self.goal,
                "position": len(self.position), "refuted_states": self.states,
                "used": self.used, "error": self.error}


@dataclass(frozen=True)
class RefutationFile:
    """A refutation as read from a file: its goal, its refuted states and the actions
    from the deal to the position it starts from (none: the deal)."""

    goal: int
    table: dict
    position: list

    @classmethod
    def of(cls, data: dict, text: str, name: str) -> RefutationFile:
        """``data`` decoded from ``text`` (``refutation_in``); InputError naming ``name``."""
        goal, table = refute.from_data(data, name, text)
        return cls(goal, table, refute.position_of(data, text, name))

    def walk(self, deck: Deck, rules: Rules) -> Walked:
        """The refutation walked again by the checker from its position."""
        used, error = 0, None
        try:
            start = Game.after(deck, rules, self.position)
        except IllegalMove as exc:
            error = f"the refuted position cannot be reached: {exc}"
        if error is None:
            try:
                used = refute.check(start, self.goal, self.table)
            except refute.RefutationError as exc:
                error = str(exc)
        return Walked(self.goal, self.position, len(self.table), used, error)


def file_name(stem: str, k: int) -> str:
    return f"{stem}.position-{k}.refutation.json"


def marker_name(folder: str, stem: str) -> str:
    """The file that names a game's refutations in ``folder`` as incomplete: made
    before the first is written, removed after the last."""
    return os.path.join(folder, f"{stem}.refutations-incomplete")


def check_refutation_dir(folder: str, stem: str, force: bool) -> bool:
    """Refuse, before any work, a ``folder`` that is a file or cannot be made or
    written, or (without ``force``) one that already holds a complete set of
    refutations of this game.  True if it holds an incomplete set (a run that
    stopped midway, a full disk): the rerun finishes it without ``force``."""
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise FileError(f"{folder}: cannot write refutations into it: not a directory")
    check_folder(os.path.abspath(folder), True, folder)
    incomplete = os.path.exists(marker_name(folder, stem))
    old = sorted(glob.glob(os.path.join(glob.escape(folder),
                                        f"{glob.escape(stem)}.position-*.refutation.json")))
    if old and not force and not incomplete:
        raise FileError(f"{old[0]}: already exists (and {len(old) - 1} more refutations of "
                        f"this game); use {{force}} to overwrite", force="force=True")
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
