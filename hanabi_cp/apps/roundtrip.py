"""Reduce a formula, solve the deck, map the answer back, compare with a SAT solver.

One ``RoundtripRow`` per formula: sizes, the two verdicts, whether they agree,
whether the read-back assignment satisfies the ORIGINAL formula and whether the
proof's play for the SAT solver's model wins (both checked, not assumed), timings.
A formula that cannot be read or reduced is a row too (``agreement`` ``error``,
the message in ``error``).  Rows are identified by ``KEY``: ``roundtrip --csv``
skips formulas whose row is already there.

This module is the one round-trip engine: ``formula_sat`` (the reference answer),
``check_image`` (one verdict on an image against it, and the read-back of a
winning play) and ``run_roundtrips`` (the ``roundtrip`` command's sweep: resume,
scheduling, progress) are what the harness's round trips
(``apps/harness/roundtrip.py``) and the reduction study (``apps/studies/reduction.py``) call too.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields, replace

from ..core.version import __version__
from ..solvers.formula import CNF
from ..runtime.deadline import Deadline
from ..core.errors import HanabiError
from ..runtime.limits import MAX_CARDS
from ..core.options import DEFAULT_SOLVER
from ..core.options import SolveOptions
from ..core.status import Status
from ..solitaire.solve import solve
from ..solitaire.reduction.sat3 import reduce_cnf
from ..solitaire.reduction.witnesses import ReadbackFailure, assignment_from_play, play_from_assignment

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..runtime.executors import Execution
    from ..io.results_csv import ResultsCSV


@dataclass
class RoundtripRow:
    file: str
    vars: int | None            # None (empty in the CSV) on an error row
    clauses: int | None
    cards: int | None
    n: int | None
    c: int | None
    r: int | None
    h: int
    variant: str                # the reduction's options: base, or e.g. "copies=3 kappa"
    method: str                 # as asked (auto stays auto)
    deck_verdict: str           # WINNABLE / UNWINNABLE / UNKNOWN
    formula_verdict: str        # SAT / UNSAT (CaDiCaL on the original formula)
    agreement: str              # yes / NO / unknown (deck undecided) / error
    readback_checked: str       # winning play -> assignment satisfies the formula: yes/FAILED/-
    witness_checked: str        # SAT model -> proof's play accepted by the referee: yes/FAILED/-
    reduce_seconds: float | None
    solve_seconds: float | None
    sat_seconds: float | None
    error: str = ""             # why the formula could not be read or reduced
    version: str = __version__

    @classmethod
    def header(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    @classmethod
    def failed(cls, file: str, method: str, h: int, variant: str, error: str) -> RoundtripRow:
        return cls(file, None, None, None, None, None, None, h, variant, method, "", "", "error",
                   "", "", None, None, None, error)

    def row(self) -> list:
        return list(asdict(self).values())

    def as_dict(self) -> dict:
        return asdict(self)

    @property
    def disagrees(self) -> bool:
        return disagrees(self.as_dict())


KEY = ("file", "method", "h", "variant")


def disagrees(row: dict) -> bool:
    """A row (as written, or read back from a CSV) where something does not match."""
    return "NO" in str(row["agreement"]) or "FAILED" in (row["readback_checked"],
                                                         row["witness_checked"])


def variant_name(copies: int | None = None, kappa: bool = False) -> str:
    """``base``, or the reduction options that change the deck.

    >>> variant_name(), variant_name(3, True)
    ('base', 'copies=3 kappa')
    """
    parts = ([f"copies={copies}"] if copies is not None else []) + (["kappa"] if kappa else [])
    return " ".join(parts) or "base"


def formula_sat(cnf: CNF, solver: str = DEFAULT_SOLVER) -> tuple[bool, dict[int, bool] | None]:
    from ..solvers.sat_backend import sat_solve

    sat, lits, _ = sat_solve([list(c) for c in cnf.clauses], solver)
    if not sat:
        return False, None
    model = {abs(l): l > 0 for l in lits or ()}
    return True, {v: model.get(v, False) for v in range(1, cnf.num_vars + 1)}


def formula_status(sat: bool) -> Status:
    """The verdict the image must get: WINNABLE iff the formula is satisfiable."""
    return Status.WINNABLE if sat else Status.UNWINNABLE


def agreement(verdict: str | Status, sat: bool) -> str:
    """``yes`` or ``NO``: does a decisive verdict on the image match the formula's
    satisfiability?  ``unknown`` for any other verdict (UNKNOWN, a refusal, a crash).

    >>> agreement(Status.WINNABLE, True), agreement("UNWINNABLE", True), agreement("REFUSED", False)
    ('yes', 'NO', 'unknown')
    """
    value = verdict.value if isinstance(verdict, Status) else str(verdict)
    if value not in (Status.WINNABLE.value, Status.UNWINNABLE.value):
        return "unknown"
    return "yes" if (value == Status.WINNABLE.value) == sat else "NO"


@dataclass(frozen=True)
class ImageCheck:
    """One verdict on the image of a formula, checked against the formula."""

    agreement: str                          # yes / NO / unknown (see ``agreement``)
    readback: str                           # winning play -> satisfying assignment: yes / FAILED / -
    error: BaseException | None = None      # why the read-back failed


def check_image(red, sat: bool, verdict: str | Status, plays=None,
                catch: tuple[type[BaseException], ...] = (ReadbackFailure,)) -> ImageCheck:
    """Compare ``verdict`` on the image ``red`` with the formula's ``sat``, and read a
    winning play (``plays``) back to an assignment, which must satisfy the formula;
    a read-back raising one of ``catch`` is ``FAILED`` (others propagate)."""
    readback, error = "-", None
    value = verdict.value if isinstance(verdict, Status) else str(verdict)
    if value == Status.WINNABLE.value and plays is not None:
        try:
            assignment_from_play(red, plays)  # raises unless it satisfies the formula
            readback = "yes"
        except catch as exc:
            readback, error = "FAILED", exc
    return ImageCheck(agreement(verdict, sat), readback, error)


def read_back_model(red, plays_path: str, formula_name: str) -> str:
    """The way back for a user's play: the winning play in ``plays_path`` of the
    reduction's deck, replayed by the referee and read back to an assignment of the
    original formula (every clause checked), as a SAT solver's ``s``/``v`` lines.
    A play that does not win this deck is the user's mistake: a CertificateError
    naming the file and the options that make the deck."""
    from ..core.errors import CertificateError
    from ..io.textio import display_name
    from ..solitaire.play_text import read_plays
    from ..solvers.dimacs import model_text
    try:
        assignment = assignment_from_play(red, read_plays(plays_path))
    except CertificateError as exc:
        raise CertificateError(f"{display_name(plays_path)}: {exc} (was the deck made from "
                               "this formula with the same hand size, copies and kappa?)") from None
    cnf = red.formula.original
    return model_text(cnf.num_vars, assignment,
                      [f"assignment of {formula_name} read back from "
                       f"{os.path.basename(plays_path)}; every clause checked"])


def roundtrip(cnf: CNF, name: str = "", method: str = "sat", h: int = 2,
              copies: int | None = None, kappa: bool = False,
              options: SolveOptions | None = None,
              max_cards: int | None = MAX_CARDS) -> RoundtripRow:
    options = options or SolveOptions()
    # The time limit is per formula: the reduction counts, the check on the formula
    # itself (the reference answer) does not.
    deadline = Deadline.after(options.time_limit)
    t0 = time.perf_counter()
    red = reduce_cnf(cnf, h=h, copies=copies, kappa=kappa, max_cards=max_cards)
    t1 = time.perf_counter()
    out = solve(red.deck, red.h, method, replace(options, deadline=deadline))
    t2 = time.perf_counter()
    sat, model = formula_sat(cnf)
    t3 = time.perf_counter()
    witness = "-"
    if out.status is Status.WINNABLE:
        assert out.plays is not None       # solve certifies every WINNABLE play sequence
    image = check_image(red, sat, out.status, out.plays)
    if sat:
        assert model is not None           # formula_sat returns a model exactly when sat
        try:
            play_from_assignment(red, model)      # raises unless the referee accepts
            witness = "yes"
        except HanabiError:
            witness = "FAILED"
    d = red.deck
    return RoundtripRow(name, cnf.num_vars, cnf.num_clauses, d.N, d.n, d.c, d.r, red.h,
                        variant_name(copies, kappa), method, out.status.value,
                        "SAT" if sat else "UNSAT", image.agreement, image.readback, witness,
                        round(t1 - t0, 4), round(t2 - t1, 4), round(t3 - t2, 4))


def roundtrip_row(cnf: CNF, name: str, method: str, h: int, copies: int | None, kappa: bool,
                  options: SolveOptions, max_cards: int | None,
                  names: Mapping[str, str] | None = None) -> dict:
    """``roundtrip`` as a CSV row (a task of ``executors.run_tasks``); a formula that
    cannot be reduced (too many cards) is an error row, not an exception, its message
    naming parameters as ``names`` spells them (the CLI's flags)."""
    try:
        return roundtrip(cnf, name, method=method, h=h, copies=copies, kappa=kappa,
                         options=options, max_cards=max_cards).as_dict()
    except HanabiError as exc:
        if names:
            exc.rename(names)
        return RoundtripRow.failed(name, method, h, variant_name(copies, kappa), str(exc)).as_dict()


@dataclass
class RoundtripRun:
    """What ``run_roundtrips`` returns: one row (as ``RoundtripRow.as_dict``, or as
    read back from the CSV) per file, in the order of the files."""

    rows: list[dict]

    @property
    def disagreeing(self) -> list[str]:
        """Files where something does not match (see ``disagrees``)."""
        return [r["file"] for r in self.rows if disagrees(r)]

    @property
    def failed(self) -> list[str]:
        """Files that could not be read or reduced."""
        return [r["file"] for r in self.rows if r["agreement"] == "error"]

    @property
    def undecided(self) -> int:
        return sum(r["agreement"] == "unknown" for r in self.rows)

    @property
    def agreeing(self) -> int:
        return sum(r["agreement"] == "yes" and not disagrees(r) for r in self.rows)


def run_roundtrips(files: Sequence[str], method: str = "sat", h: int = 2,
                   copies: int | None = None, kappa: bool = False,
                   options: SolveOptions | None = None, max_cards: int | None = MAX_CARDS,
                   table: ResultsCSV | None = None, execution: Execution | None = None,
                   names: Mapping[str, str] | None = None, progress: bool = False,
                   on_row: Callable[[dict], None] | None = None,
                   on_resumed: Callable[[str], None] | None = None,
                   on_error: Callable[[str], None] | None = None) -> RoundtripRun:
    """``roundtrip`` on every DIMACS file of ``files`` (``-``: stdin), rows appended to
    ``table`` as each is done; a file whose row ``table`` already holds is not run
    again (its row is read back: ``on_resumed(name)``).  The files are read here, the
    formulas solved as tasks of ``execution`` (a cluster need not see the files).  A
    file that cannot be read or reduced is an error row (``on_error(message)``, its
    message naming parameters as ``names`` spells them); ``on_row(row)`` follows each
    row computed by this run, after the progress bar (stderr) moved."""
    from ..runtime.executors import SERIAL, run_tasks
    from ..solvers.dimacs import read_dimacs

    options = options or SolveOptions()
    variant = variant_name(copies, kappa)
    from ..core.progress import bar as progress_bar
    bar = progress_bar(len(files), unit="formula", desc="roundtrip", enabled=progress)
    slots: list[dict | None] = [None] * len(files)
    submitted: list[int] = []       # task index -> position in files

    def finish(k: int, row: dict) -> None:
        if row["error"] and on_error is not None:
            on_error(row["error"])
        if table is not None:
            table.add(row)
        slots[k] = row
        bar.update(1)
        if on_row is not None:
            on_row(row)

    def tasks():
        for k, f in enumerate(files):
            name = os.path.basename(f) if f != "-" else "-"
            done = table.get(file=name, method=method, h=h, variant=variant) if table else None
            if done is not None:
                slots[k] = done
                bar.update(1)
                if on_resumed is not None:
                    on_resumed(name)
                continue
            try:
                cnf = read_dimacs(f)    # here, not on a worker: a cluster need not see the files
            except HanabiError as exc:
                if names:
                    exc.rename(names)
                finish(k, RoundtripRow.failed(name, method, h, variant, str(exc)).as_dict())
                continue
            submitted.append(k)
            yield cnf, name, method, h, copies, kappa, options, max_cards, names

    with run_tasks(roundtrip_row, tasks(), execution or SERIAL) as done:
        for index, row in done:
            finish(submitted[index], row)
    bar.close()
    return RoundtripRun([r for r in slots if r is not None])
