"""Method "maxsat": the WCNF of the score model (solitaire/encoders/pbmodels.py) under RC2.

RC2 (python-sat's core-guided MaxSAT solver) runs as its own command line on the
written file, ``python -m pysat.examples.rc2``, exactly as a MaxSAT Evaluation
entry runs on a benchmark: its ``s``/``o``/``v`` lines are read back, checked
against the model and decoded; the referee replays the play.  The optimum cost is
the number of cards not played, so cost 0 is a win and any other optimum proves the
deck lost, with the best play as evidence.  python-sat is a dependency, so the
method refuses only decks whose score model is too large (it is quadratic).
"""

from __future__ import annotations

import os
import sys
import tempfile

from ...runtime import external
from ..encoders import pbmodels, score
from ...core.errors import SolverBug
from ...solvers.pbformats import parse_answer
from ...core.model import Deck
from ..solve import Method, Outcome
from ...core.options import SolveOptions
from ...core.status import Status

PHASE = "RC2 MaxSAT search"


def _refuses(deck: Deck, h: int) -> str | None:
    return score.too_large(deck)


def run(deck: Deck, h: int, options: SolveOptions) -> Outcome:
    deadline = options.clock()
    enc, text, top = pbmodels.wcnf(deck, h)
    stats = {**enc.stats, "wcnf_variables": top}
    with tempfile.TemporaryDirectory(prefix="hanabi-wcnf-") as tmp:
        path = os.path.join(tmp, "deck.wcnf")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        argv = [sys.executable, "-m", "pysat.examples.rc2", "-vv", path]
        ran = external.run(argv, deadline, PHASE, timeout=max(deadline.remaining(), 0.0))
    stats["solve_seconds"] = round(ran.seconds, 6)
    answer = parse_answer(ran.stdout, "RC2's answer")
    back = pbmodels.read_back(enc, answer, "RC2's answer")
    if back.sat is False:
        raise SolverBug("rc2: the score model's hard clauses are unsatisfiable")
    if back.sat is None or back.plays is None or back.score is None:
        raise SolverBug(f"rc2: no assignment (exit {ran.returncode}): "
                        f"{external.first_error(ran.stderr or ran.stdout)}")
    target = deck.target
    # One soft clause per card that can be played at all (a card above a missing
    # value of its color has none): the cost counts those left unplayed.
    if answer.cost is not None and answer.cost != len(enc.played) - back.score:
        raise SolverBug(f"rc2: cost {answer.cost} but its assignment plays {back.score} "
                        f"of {len(enc.played)} playable cards")
    sc = back.score if options.maximize else None
    if back.score == target:
        return Outcome(Status.WINNABLE, back.plays, score=sc, stats=stats)
    return Outcome(Status.UNWINNABLE, back.plays, score=sc, stats=stats,
                   reason=f"RC2 (MaxSAT): at most {back.score} of {target} cards can be "
                          f"played (optimum cost {answer.cost})")


METHOD = Method("maxsat", run, "MaxSAT (WCNF) of the Boolean score model under python-sat's "
                "RC2: the most cards played; cost 0 is a win", refuses=_refuses,
                maximizes=True, external=True)
