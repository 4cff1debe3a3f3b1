"""Method "minizinc": the MiniZinc model (solitaire/encoders/mzn.py, encodings/mzn.md) under Gecode.

A third solver family beside CP-SAT and the SAT solvers, for the harness's
cross-check: a model written from the same constraints, flattened by MiniZinc and
searched by Gecode, whose chosen copies are decoded and replayed by the referee like
any other certificate.  It needs Debian's ``minizinc`` package (it brings Gecode);
without it the method refuses in one line and its tests skip.  On a deck that
``analyse`` already proves lost no solver runs (as for "cpsat").
"""

from __future__ import annotations

import functools
import os
import tempfile

from ...runtime import external
from ...runtime.deadline import TimeUp
from ..encoders.mzn import MODEL_PATH, MznEncoding, build, parse_output, too_large
from ...core.errors import SolverBug
from ...core.model import Deck
from ..solve import Method, Outcome
from ...core.options import SolveOptions
from ...core.status import Status

SOLVER = "gecode"
PHASE = "MiniZinc (Gecode) search"


@functools.cache
def missing() -> str | None:
    """Why MiniZinc with Gecode cannot run here, in one line; None if it can."""
    if external.which("minizinc") is None:
        return "MiniZinc is not installed (Debian: apt-get install minizinc)"
    try:
        import subprocess
        out = subprocess.run(["minizinc", "--solvers"], capture_output=True, text=True,
                             timeout=30).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        return f"`minizinc --solvers` failed: {exc}"
    if "gecode" not in out.lower():
        return "MiniZinc has no Gecode solver configuration (`minizinc --solvers`)"
    return None


def _refuses(deck: Deck, h: int) -> str | None:
    return missing() or too_large(deck)


def solve_data(enc: MznEncoding, options: SolveOptions) -> Outcome:
    """Gecode on ``solitaire.mzn`` with the data of ``enc``."""
    stats = dict(enc.stats)
    if enc.status is not None:
        return Outcome(enc.status, reason=enc.reason, stats=stats)
    deadline = options.clock()
    with tempfile.TemporaryDirectory(prefix="hanabi-mzn-") as tmp:
        data = os.path.join(tmp, "deck.dzn")
        with open(data, "w", encoding="utf-8") as f:
            f.write(enc.formula)
        argv = ["minizinc", "--solver", SOLVER, MODEL_PATH, data]
        if deadline.bounded:
            argv[1:1] = ["--time-limit", str(max(1, int(deadline.remaining() * 1000)))]
        if options.seed:
            argv[1:1] = ["-r", str(options.seed % 2**31)]
        ran = external.run(argv, deadline, PHASE)
    stats["solve_seconds"] = round(ran.seconds, 6)
    if ran.returncode != 0:
        raise SolverBug(f"minizinc: exit code {ran.returncode}: {external.first_error(ran.stderr)}")
    found = parse_output(ran.stdout, "minizinc's output")
    target = enc.deck.target
    if found.unsatisfiable:
        if enc.maximize:
            raise SolverBug("minizinc: the score model is unsatisfiable (playing nothing "
                            "is always a game)")
        return Outcome(Status.UNWINNABLE, stats=stats, reason="MiniZinc (Gecode): the model "
                       "has no solution (no choice of one copy per card keeps the hand within h)")
    if found.picks is None:
        return Outcome(Status.UNKNOWN, stats=stats, reason=str(TimeUp(deadline.limit, PHASE)))
    plays = enc.decode_picks(found.picks)
    score = found.score if enc.maximize else None
    if found.score == target:
        return Outcome(Status.WINNABLE, plays, score=score, stats=stats)
    if not enc.maximize:
        raise SolverBug(f"minizinc: a solution of the win model plays {found.score} of {target}")
    if found.complete:
        return Outcome(Status.UNWINNABLE, plays, score=score, stats=stats,
                       reason=f"MiniZinc (Gecode): at most {score} of {target} cards can be "
                              "played (proved optimal)")
    return Outcome(Status.UNKNOWN, plays, score=score, stats=stats,
                   reason=f"{TimeUp(deadline.limit, PHASE)}: best score found {score}")


def run(deck: Deck, h: int, options: SolveOptions) -> Outcome:
    return solve_data(build(deck, h, maximize=options.maximize), options)


METHOD = Method("minizinc", run, "MiniZinc model (solitaire.mzn) under Gecode: the CP-SAT "
                "model's constraints, a third solver family; optional (Debian's minizinc)",
                refuses=_refuses, maximizes=True, external=True)
