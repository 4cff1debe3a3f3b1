"""The runner of the solitaire methods and the one result type they return.

Every method is a ``core.methods.Method`` whose ``run`` is ``(deck, h, options) ->
Outcome``.  ``solve`` runs it, times it and re-checks every WINNABLE certificate
with the independent referee (``referee.replay``) before anyone sees it: a
certificate that fails is a SolverBug.  Methods live in hanabi_cp/solitaire/methods/,
one module each, whose ``METHOD`` is the method; ``METHODS`` (in that package's
``__init__``) names each method and where it is, in the order ``auto`` tries them,
and imports a module on first use: a new method is one new file (a copy of
methods/TEMPLATE.py) plus one row there, and the CLI and the harness see it
without further wiring.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

from ..runtime.deadline import Deadline, TimeUp
from ..core.errors import MethodRefused, SolverBug
from ..runtime.limits import effective_hand
from ..core.model import Deck, check_hand
from .play_sequence import PlaySequence
from ..core.methods import accepts_all
from ..core.options import SolveOptions
# the shape of every method (both wings') and this wing's table of them
from .methods import METHODS, Method
from ..core.status import Decision, Status
from .referee import replay


@dataclass
class Outcome(Decision):
    """What ``solve`` returns: the status, the certificate (``plays``) of a win or of
    the best score, the ``reason`` of a loss, and the method's sizes and timings.

    >>> from hanabi_cp.core.model import Deck
    >>> out = solve(Deck.of([(2, 1), (1, 1)]), 0)
    >>> out.status.value, out.reason
    ('UNWINNABLE', 'after card #1 (2:1) the hand must hold 1 cards (2:1); h = 0')
    """

    status: Status
    plays: PlaySequence | None = None
    reason: str | None = None          # human-readable evidence for UNWINNABLE/UNKNOWN
    method: str = ""
    stats: dict = field(default_factory=dict)  # sizes and timings, JSON-serialisable
    score: int | None = None           # with --maximize: cards played by ``plays``
    verified: bool = False             # set by ``solve`` after the referee accepted

    CERTIFICATE = "plays"
    JSON_KEYS = ("status", "method", "plays", "reason", "score", "verified", "stats")

    def certificate_json(self) -> str | None:
        return None if self.plays is None else self.plays.actions


def methods() -> dict[str, Method[Outcome]]:
    """Every method of METHODS, in its order (``auto``'s), each module imported on
    first use."""
    return METHODS.load_all()


def get(name: str) -> Method[Outcome]:
    """The method ``name`` (InvalidParameter naming the choices if there is none)."""
    return METHODS.lookup(name, also=("auto",))


def prepare(method: str, maximize: bool = False) -> None:
    """Import now what ``method`` will need (for ``auto``: every method it may
    choose), so that a command pays for it before it reads the deck, not after its
    time limit has run out in the middle of building a model."""
    if method != "auto":
        if method in METHODS:
            METHODS.load(method).prepare()
        return
    for m in methods().values():
        if m.maximizes or not maximize:
            m.prepare()
            if m.refuses is accepts_all:
                return                   # auto never looks further


def choose(deck: Deck, h: int, maximize: bool = False) -> Method[Outcome]:
    """The method ``auto`` uses: greedy for r = 1, lazy for c = 1, else the first
    applicable exact method in METHODS."""
    for m in methods().values():
        if (m.maximizes or not maximize) and m.refuses(deck, h) is None:
            return m
    raise MethodRefused("no registered method can decide this instance")


def solve(deck: Deck, h: int, method: str = "auto",
          options: SolveOptions | None = None) -> Outcome:
    """Decide (deck, h) with ``method``; every certificate is replayed before return.

    The whole run, building included, ends by ``options.clock()``: when that passes,
    the outcome is UNKNOWN with the phase in its reason, never a guess."""
    check_hand(h)
    h = effective_hand(h, deck.N)      # h >= N is h = N: no method sizes anything by h
    options = options or SolveOptions()
    m = choose(deck, h, options.maximize) if method == "auto" else get(method)
    METHODS.check(m, deck, h, maximize=options.maximize)
    if options.deadline is None:
        options = replace(options, deadline=Deadline.after(options.time_limit))
    start = time.perf_counter()
    try:
        out = m.run(deck, h, options)
    except TimeUp as exc:
        out = Outcome(Status.UNKNOWN, reason=str(exc))
    elapsed = time.perf_counter() - start
    out = replace(out, method=m.name, stats={**out.stats, "seconds": round(elapsed, 6)})
    return certify(deck, h, out)


def certify(deck: Deck, h: int, out: Outcome) -> Outcome:
    """Replay the outcome's certificate; raise SolverBug if it does not hold."""
    if out.plays is None:
        if out.status is Status.WINNABLE:
            raise SolverBug(f"{out.method}: WINNABLE without a play sequence")
        return out
    rep = replay(deck, h, out.plays)
    if out.status is Status.WINNABLE and not rep.won:
        raise SolverBug(f"{out.method}: certificate rejected by the referee: {rep.error}")
    if not rep.legal:
        raise SolverBug(f"{out.method}: play sequence is illegal: {rep.error}")
    if out.score is not None and rep.score != out.score:
        raise SolverBug(f"{out.method}: claims score {out.score}, referee counts {rep.score}")
    if rep.won and out.status is Status.UNWINNABLE:
        raise SolverBug(f"{out.method}: says UNWINNABLE but its own play sequence wins")
    return replace(out, verified=True, score=rep.score if out.score is not None else None)
