"""The method registry and the one result type every method returns.

Every method is a function ``(deck, h, options) -> Outcome``.  ``solve`` runs it,
times it and re-checks every WINNABLE certificate with the independent referee
(``referee.replay``) before anyone sees it: a certificate that fails is a SolverBug.
Methods live in hanabi_cp/solitaire/methods/, one module each, whose ``METHOD`` is the
method; ``METHODS`` (a ``registry.Registry``) names each method and where it is, in
the order ``auto`` tries them, and imports a module on first use: a new method is
one new file plus one row there, and the CLI and the harness see it without
further wiring.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from collections.abc import Callable

from ..runtime.deadline import Deadline, TimeUp
from ..core.errors import InvalidParameter, MethodRefused, SolverBug
from ..runtime.limits import effective_hand
from ..core.model import Deck, check_hand
from .play_sequence import PlaySequence
from ..core.options import SolveOptions
from ..core.registry import Registry
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


def _accepts_all(deck: Deck, h: int) -> str | None:
    return None


def _nothing() -> None:
    return None


@dataclass(frozen=True)
class Method:
    name: str
    run: Callable[[Deck, int, SolveOptions], Outcome]
    summary: str
    # None if the method can decide (deck, h); else a one-line reason why not.
    refuses: Callable[[Deck, int], str | None] = _accepts_all
    maximizes: bool = False            # supports SolveOptions.maximize
    # Imports what ``run`` needs (OR-Tools: half a second), for ``prepare``.
    prepare: Callable[[], object] = _nothing
    # Starts another program per call (MiniZinc, minisat+, RC2): the harness
    # cross-checks it, but sweeps (studies, the bench's ratio table) that default
    # to "every method" leave it out unless named.
    external: bool = False


# Every decision method and where it is (its module's METHOD), in the order ``auto``
# tries them: greedy (r = 1) and lazy (c = 1) first, then the first exact method
# that applies; with --maximize only the maximizing ones count, and cpsat is 4-100x
# faster than dp on standard decks (bench.encoders).
METHODS: Registry[Method] = Registry("method", [
    ("greedy", "hanabi_cp.solitaire.methods.greedy:METHOD"),
    ("lazy", "hanabi_cp.solitaire.methods.lazy:METHOD"),
    ("search", "hanabi_cp.solitaire.methods.search:METHOD"),
    ("sat", "hanabi_cp.solitaire.methods.sat:METHOD"),
    ("cpsat", "hanabi_cp.solitaire.methods.cpsat:METHOD"),
    ("dp", "hanabi_cp.solitaire.methods.dp:METHOD"),
    ("brute", "hanabi_cp.solitaire.methods.brute:METHOD"),
    # Optional external solvers (refuse in one line when not installed): never
    # chosen by auto ahead of the ones above, there for the harness's cross-check.
    ("minizinc", "hanabi_cp.solitaire.methods.minizinc:METHOD"),
    ("pb", "hanabi_cp.solitaire.methods.pb:METHOD"),
    ("maxsat", "hanabi_cp.solitaire.methods.maxsat:METHOD"),
])


def methods() -> dict[str, Method]:
    """Every method of METHODS, in its order (``auto``'s), each module imported on
    first use."""
    table = METHODS.load_all()
    for name, method in table.items():
        if method.name != name:
            raise ValueError(f"{METHODS.address(name)} is method {method.name!r}, not {name!r}")
    return table


def get(name: str) -> Method:
    table = methods()
    if name not in table:
        raise InvalidParameter(f"unknown method {name!r}; choose from auto, {', '.join(sorted(table))}")
    return table[name]


def prepare(method: str, maximize: bool = False) -> None:
    """Import now what ``method`` will need (for ``auto``: every method it may
    choose), so that a command pays for it before it reads the deck, not after its
    time limit has run out in the middle of building a model."""
    table = methods()
    if method != "auto":
        if method in table:
            table[method].prepare()
        return
    for m in table.values():
        if m.maximizes or not maximize:
            m.prepare()
            if m.refuses is _accepts_all:
                return                   # auto never looks further


def choose(deck: Deck, h: int, maximize: bool = False) -> Method:
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
    if options.maximize and not m.maximizes:
        raise MethodRefused(f"method {m.name!r} cannot maximize; use one of "
                            + ", ".join(sorted(n for n, x in methods().items() if x.maximizes)))
    why = m.refuses(deck, h)
    if why is not None:
        raise MethodRefused(f"method {m.name!r} does not apply: {why}")
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
