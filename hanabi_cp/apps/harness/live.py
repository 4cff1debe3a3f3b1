"""Real-rules methods in the cross-check harness (``hanabi-cp harness --rules live``).

Every registered real-rules method (``real.solve.live_methods``, so a method added
later is cross-checked without any change here) runs on each tiny instance of a
``LiveSpace``, plainly and, if it maximizes, with ``maximize`` (label ``NAME+max``);
their verdicts and best scores must agree, and every certificate is replayed by the
referee (``certify_live``): a rejected one is a BUG.

With ``lift`` the harness also tests journal §5.1 as a property.  The same deck is
decided under *lifted* rules (``lift="all"``: unlimited clue tokens and no final
round; ``lift="clues"``: unlimited tokens only) by every real-rules method (labels
``NAME/lifted``) and by every solitaire method at hand h = p*H - 1 (labels
``solitaire:NAME``).  Within that group verdicts and best scores must agree (the
equivalence proved in encodings/live-search.md, "Journal §5.1"), and no score under
the real rules may exceed one under the lifted rules (every game of the real rules
is a game of the lifted ones, up to the end of the final round, after which the
lifted game can go on).  A failure is shrunk with ``harness.shrink`` (the hand size
plays the role of h) and then by lowering players, tokens and strikes.

Each instance is one task (``check_live_instance``), so ``--jobs`` and ``--dask`` run
them as the solitaire harness does; the shrinking stays in the command's process.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from ...core.version import __version__
from ...core.errors import InvalidParameter
from ...runtime.executors import SERIAL, Execution
from ...io.results_csv import ResultsCSV
from ...real.rules import MIN_PLAYERS, Rules
from ...real.referee import Game, target_of
from ...real.solve import LiveMethod, certify_live, live_methods
from ...core.model import Deck
from ...core.options import SolveOptions
from ...solitaire.solve import methods
from . import results as csv_rows
from .check import DECISIVE, UNWINNABLE, WINNABLE, Check, Result, culprits, problems, run_check, run_guarded
from .live_space import LiveInstance, LiveSpace
from .runner import Failure, Report, run_instances, write_counterexample
from .shrink import Shrunk, shrink

LIFTS = ("none", "all", "clues")
LIFTED, SOLITAIRE = "/lifted", "solitaire:"
FIELDS = ["seed", "stream", "instance", "kind", "n", "c", "r", "N", "players", "hand_size",
          "clues", "strikes", "final_round", "method", "verdict", "score", "seconds", "detail",
          "problems", "version"]
KEY = csv_rows.KEY


@dataclass(frozen=True)
class LiveCheck:
    """A real-rules method run on the instance's rules, or on their lifted version."""

    method: LiveMethod
    maximize: bool = False
    lifted: bool = False

    @property
    def name(self) -> str:
        return self.method.name

    @property
    def label(self) -> str:
        return self.method.name + ("+max" if self.maximize else "") + (LIFTED if self.lifted else "")


@dataclass(frozen=True)
class SolitaireCheck:
    """A solitaire method at hand p*H - 1, in the lifted group."""

    check: Check

    @property
    def name(self) -> str:
        return SOLITAIRE + self.check.method.name

    @property
    def label(self) -> str:
        return SOLITAIRE + self.check.label


AnyCheck = LiveCheck | SolitaireCheck


def lifted_rules(rules: Rules, lift: str) -> Rules:
    """The rules of the §5.1 comparison: unlimited tokens, and without the final round
    unless ``lift`` is "clues"."""
    return replace(rules, clues=None, final_round=rules.final_round and lift == "clues")


def solitaire_hand(rules: Rules) -> int:
    return rules.players * rules.hand_size - 1


def select_live_checks(names: Sequence[str] | None = None, maximize: bool = True,
                       lift: str = "all", extra: Sequence[LiveMethod] = ()) -> list[AnyCheck]:
    """Checks of the named real-rules methods (default: all, plus ``extra``), and with
    ``lift`` their lifted runs and every solitaire method (decide and maximize)."""
    if lift not in LIFTS:
        raise InvalidParameter(f"{{lift}} must be one of {', '.join(LIFTS)}, found {lift!r}", "lift")
    table = {**live_methods(), **{m.name: m for m in extra}}
    if names is None:
        chosen = sorted(table)
    else:
        unknown = [n for n in names if n not in table]
        if unknown:
            raise InvalidParameter(f"unknown real-rules method {unknown[0]!r}; choose from "
                              f"{', '.join(sorted(table))}")
        chosen = list(dict.fromkeys(names))
    modes = [False, True] if maximize else [False]
    real = [LiveCheck(table[n], mx) for mx in modes for n in chosen
            if table[n].maximizes or not mx]
    out: list[AnyCheck] = list(real)
    if lift != "none":
        out += [LiveCheck(c.method, c.maximize, True) for c in real]
        solo = methods()
        out += [SolitaireCheck(Check(solo[n], mx)) for mx in modes for n in sorted(solo)
                if solo[n].maximizes or not mx]
    return out


def run_live_check(check: LiveCheck, deck: Deck, rules: Rules, options: SolveOptions) -> Result:
    """One run of one real-rules method, as ``solve_live`` does it, never raising."""
    m = check.method
    opts = replace(options, maximize=check.maximize)
    start = Game.start(deck, rules)
    return run_guarded(m.name, check.label, check.maximize, lambda: m.refuses(start),
                       lambda: m.run(start, opts),
                       lambda out: certify_live(start, replace(out, method=m.name)))


def run_one(check: AnyCheck, deck: Deck, rules: Rules, lift: str,
            options: SolveOptions) -> Result:
    if isinstance(check, SolitaireCheck):
        r = run_check(check.check, deck, solitaire_hand(rules), options)
        return replace(r, label=check.label, plays=None)
    return run_live_check(check, deck, lifted_rules(rules, lift) if check.lifted else rules,
                          options)


def live_problems(results: list[Result], target: int) -> list[str]:
    """Disagreements within the real-rules group, within the lifted group, and real
    scores above lifted ones."""
    real = [r for r in results if _group(r.label) == "real"]
    lifted = [r for r in results if _group(r.label) == "lifted"]
    found = problems(real, target) + [f"lifted rules: {p}" for p in problems(lifted, target)]
    found += [f"{a.label} scores {a.score} under the real rules, above {b.label}'s {b.score}"
              for a, b in _above(real, lifted)]
    if any(r.status == WINNABLE for r in real) and any(r.status == UNWINNABLE for r in lifted):
        found.append("winnable under the real rules but not under the lifted ones")
    return found


def live_culprits(results: list[Result], target: int) -> list[str]:
    real = [r for r in results if _group(r.label) == "real"]
    lifted = [r for r in results if _group(r.label) == "lifted"]
    bad = culprits(real, target) + culprits(lifted, target)
    if _above(real, lifted) or (any(r.status == WINNABLE for r in real)
                                and any(r.status == UNWINNABLE for r in lifted)):
        bad += [r.label for r in real + lifted if r.status in DECISIVE]
    return list(dict.fromkeys(bad))


def _group(label: str) -> str:
    return "lifted" if label.endswith(LIFTED) or label.startswith(SOLITAIRE) else "real"


def _above(real: list[Result], lifted: list[Result]) -> list[tuple[Result, Result]]:
    scored = [(r, r.score) for r in real if r.score is not None and r.status in DECISIVE]
    ceiling = [(r, r.score) for r in lifted if r.score is not None and r.status in DECISIVE]
    return [(a, b) for a, x in scored for b, y in ceiling if x > y][:1]


@dataclass
class LiveFailure(Failure):
    rules: Rules | None = None
    shrunk_rules: Rules | None = None


def check_live_instance(checks: Sequence[AnyCheck], deck: Deck, rules: Rules, lift: str,
                        options: SolveOptions) -> tuple[list[Result], list[str]]:
    """Every check on one instance and its problems: one task of ``cross_check_live``."""
    results = [run_one(c, deck, rules, lift, options) for c in checks]
    return results, live_problems(results, target_of(deck, rules))


def cross_check_live(seed: int, count: int, space: LiveSpace | None = None,
                     checks: Sequence[AnyCheck] | None = None, lift: str = "all",
                     sample: Mapping[str, float] | None = None,
                     options: SolveOptions | None = None, out_dir: str | None = None,
                     progress: bool = False, shrink_tests: int = 2000,
                     report: Report | None = None, table: ResultsCSV | None = None,
                     force: bool = False, execution: Execution = SERIAL) -> Report:
    """Every check on ``count`` instances of ``space``; failures shrunk and written
    (the loop is ``runner.run_instances``, shared with the solitaire harness)."""
    space = space or LiveSpace()
    opts = options or SolveOptions(seed=seed)
    stream = space.stream() + f" lift={lift}"

    def failure(inst: LiveInstance, source: str, results: list[Result],
                found: list[str]) -> LiveFailure:
        return LiveFailure(source, inst.deck, inst.rules.hand_size, results, found,
                           live_culprits(results, target_of(inst.deck, inst.rules)), rules=inst.rules)

    return run_instances(
        report or Report(seed), seed, space.instances(seed, count), count,
        list(checks) if checks is not None else select_live_checks(lift=lift), sample, stream,
        table, task=check_live_instance,
        arguments=lambda inst, active: (active, inst.deck, inst.rules, lift, opts),
        store=lambda inst, results, found: _store(table, seed, stream, inst, results, found),
        failure=failure,
        minimise=lambda fail, active: minimise_live(fail, active, lift, opts, shrink_tests),
        write=((lambda fail, stem: write_live_failure(fail, out_dir, stem, lift, force))
               if out_dir else None),
        prefix="live-failure", progress=progress, execution=execution)


def _store(table: ResultsCSV | None, seed: int, stream: str, inst: LiveInstance,
           results: list[Result], found: list[str]) -> None:
    if table is None:
        return
    d, rules = inst.deck, inst.rules
    for r in results:
        table.add({"seed": seed, "stream": stream, "instance": inst.index, "kind": inst.kind,
                   "n": d.n, "c": d.c, "r": d.r, "N": d.N, "players": rules.players,
                   "hand_size": rules.hand_size,
                   "clues": "unlimited" if rules.clues is None else rules.clues,
                   "strikes": rules.strikes, "final_round": rules.final_round,
                   "method": r.label, "verdict": r.status.value, "score": r.score,
                   "seconds": round(r.seconds, 6), "detail": r.detail,
                   "problems": csv_rows.SEPARATOR.join(found), "version": __version__})


def shrink_live(deck: Deck, rules: Rules, fails: Callable[[Deck, Rules], bool],
                max_tests: int = 2000) -> tuple[Shrunk, Rules]:
    """``harness.shrink`` on (deck, hand size - 1), then fewer players, tokens and
    strikes while ``fails`` stays true, and the deck again if the rules shrank."""
    tests = 0

    def with_hand(rules: Rules) -> Callable[[Deck, int], bool]:
        return lambda d, h: fails(d, replace(rules, hand_size=h + 1))

    while True:
        shrunk = shrink(deck, rules.hand_size - 1, with_hand(rules), max(1, max_tests - tests))
        tests += shrunk.tests
        deck, rules = shrunk.deck, replace(rules, hand_size=shrunk.h + 1)
        smaller = _smaller_rules(deck, rules, fails, max_tests - tests)
        if smaller is None:
            return Shrunk(deck, rules.hand_size, tests), rules
        rules, used = smaller
        tests += used


def _smaller_rules(deck: Deck, rules: Rules, fails, budget: int) -> tuple[Rules, int] | None:
    trials = [replace(rules, players=p) for p in range(MIN_PLAYERS, rules.players)]
    clues = range(4) if rules.clues is None else range(rules.clues)
    trials += [replace(rules, clues=k) for k in clues]
    trials += [replace(rules, strikes=s) for s in range(1, rules.strikes)]
    for used, trial in enumerate(trials[:max(0, budget)], 1):
        if fails(deck, trial):
            return trial, used
    return None


def minimise_live(fail: LiveFailure, checks: Sequence[AnyCheck], lift: str,
                  options: SolveOptions, max_tests: int) -> None:
    involved = [c for c in checks if c.label in fail.culprits]
    assert fail.rules is not None

    def fails(deck: Deck, rules: Rules) -> bool:
        results = [run_one(c, deck, rules, lift, options) for c in involved]
        return bool(live_problems(results, target_of(deck, rules)))

    fail.shrunk, fail.shrunk_rules = shrink_live(fail.deck, fail.rules, fails, max_tests)
    fail.shrunk_results = [run_one(c, fail.shrunk.deck, fail.shrunk_rules, lift, options)
                           for c in involved]


def live_repro_commands(path: str, rules: Rules, labels: Sequence[str], lift: str) -> list[str]:
    """The ``hanabi-cp solve`` commands that show each culprit's answer."""
    cmds = []
    for label in labels:
        if label.startswith(SOLITAIRE):
            name, _, tag = label[len(SOLITAIRE):].partition("+")
            cmds.append(f"hanabi-cp solve {path} --hand {solitaire_hand(rules)} --method {name}"
                        + (" --maximize" if tag == "max" else ""))
            continue
        lifted = label.endswith(LIFTED)
        name, _, tag = label.removesuffix(LIFTED).partition("+")
        run = lifted_rules(rules, lift) if lifted else rules
        clues = "unlimited" if run.clues is None else run.clues
        cmd = (f"hanabi-cp solve {path} --rules live --players {run.players} --hand-size "
               f"{run.hand_size} --clues {clues} --strikes {run.strikes} --method {name}"
               + (" --maximize" if tag == "max" else ""))
        if not run.final_round:
            cmd = f"# without the final round (Rules(..., final_round=False) in Python): {cmd}"
        cmds.append(cmd)
    return cmds


def write_live_failure(fail: LiveFailure, out_dir: str, stem: str, lift: str,
                       force: bool = False) -> list[str]:
    """The shrunk deck as a commented deck file and a script of the solve commands."""
    from ...io import deck_to_text

    assert fail.rules is not None
    os.makedirs(out_dir, exist_ok=True)
    shrunk = fail.shrunk is not None and fail.shrunk_rules is not None
    deck = fail.shrunk.deck if fail.shrunk is not None else fail.deck
    rules = fail.shrunk_rules if fail.shrunk_rules is not None else fail.rules
    results = (fail.shrunk_results if shrunk else fail.results) or []
    deck_path = os.path.join(out_dir, stem + ".txt")
    cmds = live_repro_commands(deck_path, rules, fail.culprits, lift)
    comments = [f"hanabi-cp harness --rules live counterexample: {fail.source}",
                f"original: {fail.rules.describe()}; cards: {fail.deck}",
                f"rules: {rules.describe()}" + (" (shrunk)" if shrunk else "")]
    if fail.shrunk is not None:
        comments.append(f"shrunk from {fail.deck.N} to {deck.N} cards in {fail.shrunk.tests} tests")
    comments += [f"problem: {p}" for p in live_problems(results, target_of(deck, rules)) or fail.problems]
    comments += [f"{r.label}: {r.status}" + (f" score {r.score}" if r.score is not None else "")
                 + (f" ({r.detail})" if r.detail else "") for r in results]
    comments += [f"reproduce: {c}" for c in cmds]
    sh_path = os.path.join(out_dir, stem + ".sh")
    fail.not_written = write_counterexample(
        [(deck_path, deck_to_text(deck, comments=comments)),
         (sh_path, "#!/bin/sh\n# " + comments[0] + "\n" + "\n".join(cmds) + "\n")], force)
    fail.files = [] if fail.not_written else [deck_path, sh_path]
    return fail.files


def live_failure_text(fail: Failure) -> str:
    assert isinstance(fail, LiveFailure) and fail.rules is not None
    lines = [f"DISAGREEMENT at {fail.source}: N={fail.deck.N}, {fail.rules.describe()}"]
    lines += [f"  {p}" for p in fail.problems]
    if fail.shrunk is not None and fail.shrunk_rules is not None:
        lines.append(f"  shrunk to {fail.shrunk_rules.describe()}, n={fail.shrunk.deck.n} "
                     f"c={fail.shrunk.deck.c} N={fail.shrunk.deck.N}: {fail.shrunk.deck}")
        lines += [f"    {r.label}: {r.status}" + (f" score {r.score}" if r.score is not None else "")
                  for r in fail.shrunk_results or []]
    lines += [f"  wrote {p}" for p in fail.files]
    if fail.not_written:
        lines.append(f"  not written: {fail.not_written}")
    return "\n".join(lines)
