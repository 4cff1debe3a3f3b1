"""The method registry and the one result type every method returns.

Every method is a function ``(deck, h, options) -> Outcome``.  ``solve`` runs it,
times it and re-checks every WINNABLE certificate with the independent referee
(``referee.replay``) before anyone sees it: a certificate that fails is a SolverBug.
Methods live in hanabi_cp/methods/, one module each, whose ``METHOD`` is the
method; ``METHODS`` (a ``registry.Registry``) names each method and where it is, in
the order ``auto`` tries them, and imports a module on first use: a new method is
one new file plus one row there, and the CLI and the harness see it without
further wiring.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from collections.abc import Callable

from .runtime.deadline import Deadline, TimeUp
from .errors import InvalidParameter, MethodRefused, SolverBug
from .runtime.limits import effective_hand
from .model import Deck, check_hand
from .play_sequence import PlaySequence
from .registry import Registry
from .sat_backend import DEFAULT_SOLVER
from .status import Decision, Status
from .referee import replay


@dataclass
class Outcome(Decision):
    """What ``solve`` returns: the status, the certificate (``plays``) of a win or of
    the best score, the ``reason`` of a loss, and the method's sizes and timings.

    >>> from hanabi_cp.model import Deck
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


# CP-SAT's random_seed is an int32; more workers than this only cost memory.
SEED_RANGE = (-2**31, 2**31 - 1)
MAX_WORKERS = 256


@dataclass(frozen=True)
class SolveOptions:
    """How to solve: a time limit (seconds, for the whole solve), a seed and
    workers (CP-SAT), a pysat ``solver`` for the CNF methods, a ``proof`` path,
    and ``maximize`` for the best score instead of a yes/no.

    >>> SolveOptions(time_limit=10, maximize=True).clock().bounded
    True
    >>> SolveOptions(time_limit=-1)
    Traceback (most recent call last):
    ...
    hanabi_cp.errors.InvalidParameter: time_limit -1: expected a number of seconds >= 0
    """

    time_limit: float | None = None    # seconds; on expiry a method returns UNKNOWN
    seed: int = 0
    workers: int = 1
    solver: str = DEFAULT_SOLVER       # pysat solver name for CNF methods
    proof: str | None = None           # path for an UNSAT proof (proof-producing methods)
    maximize: bool = False             # return the best score instead of a yes/no
    # The command's deadline when it started before this solve (a CLI that counts
    # reading the deck); else ``solve`` starts one of ``time_limit`` seconds.
    deadline: Deadline | None = None
    # Real rules with ``maximize``: a complete game from the position (its actions,
    # ``live.actions.Action``; the referee replays it first), e.g. one an earlier
    # method found.  The encodings start from it: ``sat`` climbs from its score when
    # a model extends it, ``cpsat`` takes it as its hint; ``auto`` hands each stage
    # the best game so far, so that a score the search has already reached is not
    # asked for again by a SAT call.
    incumbent: tuple | None = None

    def __post_init__(self) -> None:
        # The API allows 0 (a deadline already passed) and inf (none); the CLI's
        # --time-limit is stricter (cli.common.Seconds).  NaN would never expire.
        t = self.time_limit
        if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float))
                              or not t >= 0):
            raise InvalidParameter(f"{{time_limit}} {t!r}: expected a number of seconds >= 0", "time_limit")
        if not SEED_RANGE[0] <= self.seed <= SEED_RANGE[1]:
            raise InvalidParameter(f"{{seed}} {self.seed} is outside CP-SAT's random_seed range "
                                   f"{SEED_RANGE[0]}..{SEED_RANGE[1]}", "seed")
        if self.workers > MAX_WORKERS:
            raise InvalidParameter(f"{{workers}} {self.workers} is more than {MAX_WORKERS}", "workers")

    def clock(self) -> Deadline:
        """The deadline every phase of a method checks: ``deadline`` if set, else
        ``time_limit`` seconds from now (a method run outside ``solve``)."""
        return self.deadline if self.deadline is not None else Deadline.after(self.time_limit)


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
    ("greedy", "hanabi_cp.methods.greedy:METHOD"),
    ("lazy", "hanabi_cp.methods.lazy:METHOD"),
    ("search", "hanabi_cp.methods.search:METHOD"),
    ("sat", "hanabi_cp.methods.sat:METHOD"),
    ("cpsat", "hanabi_cp.methods.cpsat:METHOD"),
    ("dp", "hanabi_cp.methods.dp:METHOD"),
    ("brute", "hanabi_cp.methods.brute:METHOD"),
    # Optional external solvers (refuse in one line when not installed): never
    # chosen by auto ahead of the ones above, there for the harness's cross-check.
    ("minizinc", "hanabi_cp.methods.minizinc:METHOD"),
    ("pb", "hanabi_cp.methods.pb:METHOD"),
    ("maxsat", "hanabi_cp.methods.maxsat:METHOD"),
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
