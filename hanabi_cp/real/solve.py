"""The runner of the real-rules methods and the one result type they return.

A method (``core.methods.Method``, listed in ``real.methods.METHODS``) runs as
``(position, options) -> LiveOutcome``: the position is a referee
``Game`` (the deal, or any legal state of a game), which the method reads and never
changes.  ``solve_position`` runs it and replays every certificate with the referee
from that position before anyone sees it: a WINNABLE answer must come with a legal
continuation that ends the game won; a best score (``maximize``) with a legal
continuation that ends the game with exactly that score.  A certificate the referee
rejects is a SolverBug, never shown as an answer.  ``solve_live`` asks the same of
the deal.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ..runtime.deadline import Deadline
from ..core.errors import InvalidParameter, MethodRefused, SolverBug
from ..core.model import Deck
from ..core.methods import Method
from ..core.options import SolveOptions
from ..core.status import Status
from ..core.options import DEFAULT_SOLVER
from ..core.status import Decision
from .actions import Action
from .methods import METHODS
from .older_games import under_today
from .referee import Game, replay
from .rules import Rules


@dataclass
class LiveOutcome(Decision):
    """What ``solve_live`` returns: the status, a complete game as the certificate
    (``actions``), the best ``score`` with maximize, the ``reason`` of a loss.

    >>> from hanabi_cp.core.model import Deck
    >>> out = solve_live(Deck.of([(1, 1)]), Rules.for_players(2, hand_size=1))
    >>> out.status.value, out.verified, [str(a) for a in out.actions]
    ('WINNABLE', True, ['play #0'])
    """

    status: Status
    actions: list[Action] | None = None   # the certificate: the rest of the game
    score: int | None = None              # with maximize: the best score, reached by ``actions``
    reason: str | None = None             # evidence for UNWINNABLE / why UNKNOWN
    method: str = ""
    stats: dict = field(default_factory=dict)
    verified: bool = False

    CERTIFICATE = "actions"
    JSON_KEYS = ("status", "method", "score", "actions", "reason", "verified", "stats")

    def certificate_json(self) -> list | None:
        return None if self.actions is None else [a.to_json() for a in self.actions]


# The shape of every method (both wings'): ``run(start, options) -> LiveOutcome``,
# ``refuses(start)``.
LiveMethod = Method[LiveOutcome]
# Every real-rules method and where it is (hanabi_cp/real/methods/__init__.py).
LIVE_METHODS = METHODS
# ``auto``: the methods in this order that accept the instance, one after another
# while undecided (see _portfolio).
AUTO_ORDER = ("search", "sat", "cpsat", "brute")
# With a time limit, the first method's share of it: the search decides almost every
# shuffled standard deck in milliseconds, and its hard tail (a few decks in a
# thousand) is where the SAT and CP-SAT encodings decide in seconds what the search
# does not in minutes; a few hard wins take the search alone several seconds
# (6 players, seed 8450: about 6 s).
FIRST_SHARE = 0.25
# With the default solver, the SAT stage is these solvers in turn, each a stage of
# its own: on the tail, their times differ several-fold from one deal to the next
# and neither decides every deal the other does (docs/benchmarks.md, "The SAT tail, solver by solver").
SAT_PORTFOLIO = (DEFAULT_SOLVER, "glucose4")
# After the first stage, each stage's weight in the time left (``_weights``): on the
# positions the search leaves undecided, CaDiCaL decides the most and the soonest
# and CP-SAT the fewest (docs/benchmarks.md, the unknown positions method by
# method); Glucose decides some deals CaDiCaL does not ("The SAT tail").  A stage
# not listed weighs 1; ``sat`` with a solver chosen by the user (no portfolio)
# weighs what the portfolio's first solver does.
STAGE_WEIGHTS = {("sat", DEFAULT_SOLVER): 6.0, ("sat", "glucose4"): 2.0}
# A stage whose method still has its first import to do (``Method.ready``: CP-SAT's
# OR-Tools, 1.5-1.9 s) runs only with at least this much time: with less, the
# import alone would outlast its share and the command's limit.
COLD_START_SECONDS = 3.0


def live_methods() -> dict[str, LiveMethod]:
    """Every method of LIVE_METHODS, in its order, each module imported on first use."""
    return METHODS.load_all()


def candidates(start: Game, maximize: bool = False) -> list[LiveMethod]:
    """The methods ``auto`` runs on the position, in AUTO_ORDER."""
    table = live_methods()
    chosen = [m for name in AUTO_ORDER if (m := table.get(name)) is not None
              and (m.maximizes or not maximize) and m.refuses(start) is None]
    if not chosen:
        raise MethodRefused("no real-rules method can decide this instance")
    return chosen


# (score, game): a complete game from the position that the referee has replayed
Known = tuple[int, tuple[Action, ...]]


def _portfolio(start: Game, options: SolveOptions, known: Known | None) -> LiveOutcome:
    """``auto``: without a time limit, the first candidate (every one is exact).
    With one, the candidates in turn while undecided (``stages``: the SAT method
    once per solver of SAT_PORTFOLIO), each with a share of the time left: the
    first FIRST_SHARE of the limit, each later one its part of what remains by
    STAGE_WEIGHTS, the last all of it; with ``maximize`` each stage is handed the
    best complete game found so far (``SolveOptions.incumbent``: ``known``, the
    caller's, or a stage's before it) to start from.  Undecided at the end: the
    UNKNOWN outcome with the best game found (its score is a lower bound).  With
    ``options.proof``, a loss is then backed by a DRUP proof (``_with_proof``)."""
    clock = options.clock()             # one clock for the answer and its proof
    out = _first_answer(start, options, clock, known)
    if options.proof and out.status is Status.UNWINNABLE and "proof" not in out.stats:
        return _with_proof(start, replace(options, deadline=clock), out)
    return out


def _with_proof(start: Game, options: SolveOptions, out: LiveOutcome) -> LiveOutcome:
    """A loss ``auto`` decided without a SAT call (a reason, the search), backed by the
    checked DRUP proof that ``options.proof`` asks for: the method ``sat`` with proof
    in the time left.  If it cannot give one (it refuses the rules, or time runs
    out), the first answer stands, its reason the evidence."""
    sat = live_methods().get("sat")
    if sat is None or sat.refuses(start) is not None:
        return out
    clock = options.clock()
    if clock.bounded and clock.remaining() <= 0:
        return out
    proved = _run(sat, start, options)
    if proved.status is Status.UNWINNABLE and proved.stats.get("proof_checked"):
        return proved
    if proved.status is Status.WINNABLE or (proved.score or 0) > (out.score or 0):
        raise SolverBug(f"{out.method} said UNWINNABLE (best score {out.score}) but sat "
                        f"found a game scoring {proved.score}")
    return replace(out, stats={**out.stats, "proof_attempt": proved.reason})


def stages(methods: list[LiveMethod], options: SolveOptions) -> list[tuple[LiveMethod, str]]:
    """``auto``'s stages with a time limit: each method with the SAT solver it runs
    with; ``sat`` once per solver of SAT_PORTFOLIO unless a solver other than
    the default was chosen (the options cannot tell the default chosen from unset)."""
    out: list[tuple[LiveMethod, str]] = []
    for m in methods:
        if m.name == "sat" and _runs_portfolio(options):
            out += [(m, solver) for solver in SAT_PORTFOLIO]
        else:
            out.append((m, options.solver))
    return out


def _runs_portfolio(options: SolveOptions) -> bool:
    """Whether ``sat`` runs once per solver of SAT_PORTFOLIO: with the default solver
    (the options cannot tell it chosen from unset)."""
    return options.solver == DEFAULT_SOLVER


def _weights(steps: list[tuple[LiveMethod, str]], options: SolveOptions) -> list[float]:
    """Each stage's weight in STAGE_WEIGHTS; ``sat`` with a solver the user chose
    weighs what the portfolio's first solver does."""
    portfolio = _runs_portfolio(options)
    return [STAGE_WEIGHTS.get((m.name, solver if portfolio or m.name != "sat"
                               else SAT_PORTFOLIO[0]), 1.0) for m, solver in steps]


def _first_answer(start: Game, options: SolveOptions, clock: Deadline,
                  known: Known | None) -> LiveOutcome:
    methods = candidates(start, options.maximize)
    if not clock.bounded or len(methods) == 1:
        return _run(methods[0], start, replace(options, deadline=clock))
    steps = stages(methods, options)
    weights = _weights(steps, options)
    from . import race  # its own module: processes, imported only here
    if race.can_race(steps, options, clock):
        return race.race(start, options, steps, weights, clock, known)
    return run_stages(start, options, steps, weights, clock, Tally(known), FIRST_SHARE)


@dataclass
class Tally:
    """What the undecided stages have shown so far: the best complete game (``known``,
    the caller's or a stage's: each later stage starts from it with maximize), the
    stage outcome with the best score (``best``) and the lowest upper bound, with
    the stage that showed it (``bound``)."""

    known: Known | None = None
    best: LiveOutcome | None = None
    bound: tuple[int, str] | None = None

    def add(self, out: LiveOutcome, by: str) -> None:
        """An UNKNOWN outcome of the stage of method ``by``."""
        if out.score is not None and out.actions and (self.known is None
                                                      or out.score > self.known[0]):
            self.known = (out.score, tuple(out.actions))
        if self.best is None or (out.score is not None
                                 and (self.best.score is None or out.score > self.best.score)):
            self.best = out
        if "upper_bound" in out.stats and (self.bound is None
                                           or out.stats["upper_bound"] < self.bound[0]):
            self.bound = (out.stats["upper_bound"], by)

    def outcome(self, target: int) -> LiveOutcome:
        """The answer of the stages together: the best game found and the lowest bound
        (``_with_bound``), decided when they meet (``met``), else UNKNOWN."""
        assert self.best is not None
        return self.met(target) or _with_bound(self.best, self.bound, target)

    def met(self, target: int) -> LiveOutcome | None:
        """The best score, decided when one stage's game (replayed by the referee)
        reaches another's upper bound (a proof: the search's bound, CP-SAT's), else
        None.  Each stage alone may have run out of time: the search proving the
        bound without finding the game, SAT finding it and then asking in vain for
        one card more."""
        best, bound = self.best, self.bound
        if best is None or best.score is None or bound is None or best.score < bound[0]:
            return None
        out = _with_bound(best, bound, target)     # a game above a bound: SolverBug
        return replace(out, status=Status.WINNABLE if best.score == target else Status.UNWINNABLE,
                       reason=f"{bound[1]}: no complete game scores more than {bound[0]} of "
                              f"{target}; {best.method} found a game scoring {best.score}",
                       stats={**out.stats, "upper_bound": bound[0], "bound_by": bound[1]})


def run_stages(start: Game, options: SolveOptions, steps: list[tuple[LiveMethod, str]],
               weights: list[float], clock: Deadline, tally: Tally,
               first_share: float | None,
               report: Callable[[Tally], None] | None = None) -> LiveOutcome:
    """The stages in turn while undecided, each with its share of the time left
    (see ``_portfolio``; ``first_share`` None: the first by weight too), each
    undecided outcome added to ``tally`` (then ``report``-ed): the first decided
    outcome, else the tally's UNKNOWN one."""
    total = clock.remaining()
    steps, weights = _warm(steps, weights, total, first_share)
    for i, (m, solver) in enumerate(steps):
        left = clock.remaining()
        if left <= 0 and tally.best is not None:
            break
        # after the first, each stage's part of what is left by weight: the last all of it
        share = max(min(left, total * first_share) if i == 0 and first_share is not None
                    else left * weights[i] / sum(weights[i:]), 0.0)
        # with maximize, the stage starts from the best game so far
        out = _run(m, start, replace(options, solver=solver, time_limit=share,
                                     deadline=Deadline.after(share),
                                     incumbent=tally.known[1] if tally.known else None))
        if out.status is not Status.UNKNOWN:
            return out
        tally.add(out, m.name)
        if report is not None:
            report(tally)
        met = tally.met(start.target)
        if met is not None:
            return met
    return tally.outcome(start.target)


def _warm(steps: list[tuple[LiveMethod, str]], weights: list[float], total: float,
          first_share: float | None) -> tuple[list[tuple[LiveMethod, str]], list[float]]:
    """The stages without those whose first import (``Method.ready``) would outlast
    the share they would get of ``total`` (``COLD_START_SECONDS``); the others share
    their time.  The first stage always runs."""
    rest = total * (1 - first_share) if first_share is not None else total
    later = sum(weights[1:]) if first_share is not None else sum(weights)
    keep = [i for i, (m, _) in enumerate(steps)
            if i == 0 or m.ready() or rest * weights[i] / later >= COLD_START_SECONDS]
    return [steps[i] for i in keep], [weights[i] for i in keep]


def _with_bound(best: LiveOutcome, bound: tuple[int, str] | None, target: int) -> LiveOutcome:
    """The UNKNOWN answer of ``auto`` with the lowest upper bound on the score that
    any stage showed (a stage other than the one whose game is the best found may
    have proved more: the search's bound, CP-SAT's)."""
    if bound is None or best.stats.get("upper_bound") == bound[0]:
        return best
    if best.score is not None and best.score > bound[0]:
        raise SolverBug(f"{bound[1]} bounded the score by {bound[0]}, but {best.method} "
                        f"found a game scoring {best.score}")
    return replace(best, stats={**best.stats, "upper_bound": bound[0]},
                   reason=f"{best.reason}; upper bound {bound[0]} of {target} "
                          f"(by {bound[1]})")


def solve_live(deck: Deck, rules: Rules, method: str = "auto",
               options: SolveOptions | None = None) -> LiveOutcome:
    """Decide whether (deck, rules) can be won (or its best score, with
    ``options.maximize``); every certificate is replayed before return."""
    return solve_position(Game.start(deck, rules), method, options)


def solve_position(start: Game, method: str = "auto",
                   options: SolveOptions | None = None) -> LiveOutcome:
    """Decide whether the game can still be won from the position ``start`` (or its
    best final score, with ``options.maximize``); the certificate is the rest of the
    game, replayed from ``start`` before return."""
    options = options or SolveOptions()
    # an older game's position: the same best score under today's end (older_games)
    start = under_today(start)
    known = None if options.incumbent is None else \
        (incumbent_score(start, options.incumbent), tuple(options.incumbent))
    if method == "auto":
        started = time.perf_counter()
        out = _portfolio(start, options, known)
        # the whole portfolio's time (what `c time` and the JSON report), not its
        # last stage's
        return replace(out, stats={**out.stats,
                                   "seconds": round(time.perf_counter() - started, 6)})
    m = METHODS.lookup(method, also=("auto",))
    METHODS.check(m, start, maximize=options.maximize)
    return _run(m, start, options)


def incumbent_score(start: Game, incumbent: object) -> int:
    """The score of ``SolveOptions.incumbent``, a complete game from ``start`` (the
    referee replays it); InvalidParameter if it is not one."""
    if not isinstance(incumbent, (tuple, list)) or not all(isinstance(a, Action)
                                                           for a in incumbent):
        raise InvalidParameter("{incumbent}: expected a sequence of actions "
                               "(hanabi_cp.real.actions.Action)", "incumbent")
    rep = replay(start.deck, start.rules, incumbent, start)
    if not rep.legal:
        raise InvalidParameter(f"{{incumbent}}: not a legal game from the position: "
                               f"{rep.error}", "incumbent")
    if not rep.complete:
        raise InvalidParameter("{incumbent}: the game stops before it is over", "incumbent")
    return rep.score


def _run(m: LiveMethod, start: Game, options: SolveOptions) -> LiveOutcome:
    started = time.perf_counter()
    out = m.run(start, options)
    # the method's own fresh outcome: named and timed in place (a copy costs a
    # tenth of a typical deal's answer)
    out.method = m.name
    out.stats = {**out.stats, "seconds": round(time.perf_counter() - started, 6)}
    return certify_live(start, out)


def decided_now(start: Game, maximize: bool) -> LiveOutcome | None:
    """The answer when the game is already over at ``start`` (nothing to search or
    encode), else None."""
    if not start.over:
        return None
    status = Status.WINNABLE if start.won else Status.UNWINNABLE
    return LiveOutcome(status, [], start.score if maximize else None,
                       reason=None if start.won else "the game is already over")


def certify_live(start: Game, out: LiveOutcome) -> LiveOutcome:
    """Replay the outcome's game from ``start``; raise SolverBug if it does not back
    the claim, else mark ``out`` verified and return it."""
    if out.actions is None:
        if out.status is Status.WINNABLE:
            raise SolverBug(f"{out.method}: WINNABLE without a game")
        if out.score is not None:
            raise SolverBug(f"{out.method}: best score {out.score} without a game")
        return out
    rep = replay(start.deck, start.rules, out.actions, start)
    if not rep.legal:
        raise SolverBug(f"{out.method}: illegal certificate: {rep.error}")
    if not rep.complete:
        raise SolverBug(f"{out.method}: certificate stops before the game is over")
    if out.status is Status.WINNABLE and not rep.won:
        raise SolverBug(f"{out.method}: certificate does not win (score {rep.score})")
    if out.status is Status.UNWINNABLE and rep.won:
        raise SolverBug(f"{out.method}: says UNWINNABLE but its own game wins")
    if out.score is not None and rep.score != out.score:
        raise SolverBug(f"{out.method}: claims score {out.score}, referee counts {rep.score}")
    out.verified = True     # in place: each caller passes an outcome of its own
    return out
