"""Method "pb": the OPB files of solitaire/encoders/pbmodels.py under minisat+ (Debian's package).

A win: the compact CNF as pseudo-Boolean constraints, decided by minisat+; with
--maximize the Boolean score model, whose optimum minisat+ proves by raising its
goal until unsatisfiable.  Both run the file-and-answer path a PB competition entry
runs (the file written, the solver's ``s``/``v`` lines read back and checked against
the formula), and every play is replayed by the referee.  Optional: without
minisat+ it refuses in one line.  minisat+ has no time limit of its own; the
command's deadline kills it (UNKNOWN).
"""

from __future__ import annotations

import os
import tempfile

from ...runtime import external
from ..encoders import pbmodels, score
from ..encoders.encoding import CnfEncoding
from ..encoders.score import ScoreEncoding
from ...core.errors import SolverBug
from ...solvers.pbformats import parse_answer
from ...core.model import Deck
from ..solve import Method, Outcome
from ...core.options import SolveOptions
from ...core.status import Status

PROGRAM = "minisat+"
PHASE = "minisat+ search"


def missing() -> str | None:
    if external.which(PROGRAM) is None:
        return "minisat+ is not installed (Debian: apt-get install minisat+)"
    return None


def _refuses(deck: Deck, h: int) -> str | None:
    # Decks past the score model's size are still decided (the CNF scales), but a
    # method refuses for every question or none: the harness asks both.
    return missing() or score.too_large(deck)


def run(deck: Deck, h: int, options: SolveOptions) -> Outcome:
    deadline = options.clock()
    enc: CnfEncoding | ScoreEncoding
    if options.maximize:
        enc, text = pbmodels.opb_score(deck, h)
    else:
        enc, text = pbmodels.opb_win(deck, h)
        if enc.status is Status.UNWINNABLE:
            return Outcome(Status.UNWINNABLE, reason=enc.reason, stats=dict(enc.stats))
    stats = {k: v for k, v in enc.stats.items() if isinstance(v, (int, float, str))}
    with tempfile.TemporaryDirectory(prefix="hanabi-opb-") as tmp:
        path = os.path.join(tmp, "deck.opb")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        ran = external.run([PROGRAM, path], deadline, PHASE,
                           timeout=max(deadline.remaining(), 0.0))
    stats["solve_seconds"] = round(ran.seconds, 6)
    answer = parse_answer(ran.stdout, "minisat+'s answer")
    if answer.status is None:
        raise SolverBug(f"minisat+: no status line (exit {ran.returncode}): "
                        f"{external.first_error(ran.stderr or ran.stdout)}")
    back = pbmodels.read_back(enc, answer, "minisat+'s answer")
    target = deck.target
    if back.sat is False:
        if options.maximize:
            raise SolverBug("minisat+: the score model is unsatisfiable (playing nothing is a game)")
        return Outcome(Status.UNWINNABLE, stats=stats, reason="minisat+: the pseudo-Boolean "
                       "form of the CNF is unsatisfiable")
    if back.sat is None or back.plays is None:
        return Outcome(Status.UNKNOWN, stats=stats, reason=f"minisat+ answered {answer.status}")
    sc = back.score if options.maximize else None
    if back.score == target:
        return Outcome(Status.WINNABLE, back.plays, score=sc, stats=stats)
    # No playable card: no objective to minimize, and any solution is optimal.
    if back.optimal or (options.maximize and not getattr(enc, "played", True)):
        return Outcome(Status.UNWINNABLE, back.plays, score=sc, stats=stats,
                       reason=f"minisat+: at most {sc} of {target} cards can be played "
                              "(proved optimal)")
    return Outcome(Status.UNKNOWN, back.plays, score=sc, stats=stats,
                   reason=f"minisat+ stopped at score {sc} without proving it optimal")


METHOD = Method("pb", run, "pseudo-Boolean (OPB) under minisat+: the CNF as PB constraints, "
                "the Boolean score model with --maximize; optional (Debian's minisat+)",
                refuses=_refuses, maximizes=True, external=True)
