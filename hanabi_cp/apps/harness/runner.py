"""The cross-check loop: every applicable method on every instance, failures shrunk.

``cross_check`` draws ``count`` instances from a ``Space``, runs every selected check
on each (methods are discovered through ``solitaire.solve.methods()``, so a method added
later is cross-checked without any change here), tallies the verdicts, and for each
failing instance (see ``check.problems``) shrinks it to a small one that still fails
and, given ``out_dir``, writes it as a deck file with the commands reproducing it.
Given a ``ResultsCSV`` (see ``results``), each instance's rows are appended once its
checks have run, and instances already there are read back instead of run again.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Protocol, TypeVar

from ...core.errors import InvalidParameter
from ...runtime.executors import SERIAL, Execution, run_tasks
from ...io.results_csv import ResultsCSV
from ...runtime.limits import echo
from ...core.model import Deck
from ...solitaire.solve import Method, methods
from ...core.options import SolveOptions
from . import results as csv_rows
from .check import REFUSED, UNKNOWN, UNWINNABLE, WINNABLE, Check, Result, culprits, problems, run_check
from .shrink import Shrunk, shrink
from .space import Drawn, Instance, Space

# Failures shrunk per run: a systematically wrong method fails thousands of times
# and a few small witnesses say all there is to say.
MAX_SHRUNK = 3


class Labelled(Protocol):
    """A check, as the loop sees it: a sample rate names its label or its method."""

    @property
    def label(self) -> str: ...
    @property
    def name(self) -> str: ...


@dataclass
class Tally:
    run: int = 0
    winnable: int = 0
    unwinnable: int = 0
    unknown: int = 0
    refused: int = 0
    bugs: int = 0
    seconds: float = 0.0

    def add(self, r: Result) -> None:
        if r.status == REFUSED:
            self.refused += 1
            return
        self.run += 1
        self.seconds += r.seconds
        if r.status == WINNABLE:
            self.winnable += 1
        elif r.status == UNWINNABLE:
            self.unwinnable += 1
        elif r.status == UNKNOWN:
            self.unknown += 1
        else:
            self.bugs += 1


@dataclass
class Failure:
    source: str                     # "seed 7, instance #12 (random)" or a CNF file
    deck: Deck
    h: int
    results: list[Result]
    problems: list[str]
    culprits: list[str]
    shrunk: Shrunk | None = None
    shrunk_results: list[Result] | None = None
    files: list[str] = field(default_factory=list)
    not_written: str | None = None      # why the counterexample files were not written


FailureT = TypeVar("FailureT", bound=Failure)
InstanceT = TypeVar("InstanceT", bound=Drawn)
CheckT = TypeVar("CheckT", bound=Labelled)


@dataclass
class Report:
    """What a cross-check found: instances run, a tally per check, the failures
    (shrunk counterexamples) and CNF round trips; ``ok`` if nothing failed.

    >>> report = cross_check(3, 20, checks=select_checks(["brute", "dp"], maximize=False))
    >>> report.instances, report.ok, report.tallies["dp"].run
    (20, True, 20)
    """

    seed: int
    instances: int = 0
    resumed: int = 0                    # instances read back from the CSV, not run
    tallies: dict[str, Tally] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    roundtrips: list = field(default_factory=list)   # roundtrip.Roundtrip records

    @property
    def ok(self) -> bool:
        return not self.failures and all(rt.ok for rt in self.roundtrips)


def select_checks(names: Sequence[str] | None = None, extra: Iterable[Method] = (),
                  maximize: bool = True) -> list[Check]:
    """Checks for the named methods (default: all registered ones plus ``extra``);
    each maximizing method gets a second, maximizing check ``NAME+max``."""
    table = dict(methods())
    for m in extra:
        table[m.name] = m
    if names is None:
        chosen = sorted(table)
    else:
        unknown = [n for n in names if n not in table]
        if unknown:
            raise InvalidParameter(f"unknown method {unknown[0]!r}; choose from {', '.join(sorted(table))}")
        chosen = list(dict.fromkeys(names))
    checks = [Check(table[n]) for n in chosen]
    if maximize:
        checks += [Check(table[n], True) for n in chosen if table[n].maximizes]
    return checks


def parse_sample(specs: Iterable[str], checks: Iterable[Labelled] | None = None) -> dict[str, float]:
    """``["cpsat=0.1"]`` -> {"cpsat": 0.1}: run that check on a fraction of instances.

    With ``checks``, a name that is neither the label nor the method of one of them
    is refused: it would sample nothing, silently.

    >>> parse_sample(["brute=0.5"], select_checks(["brute"]))
    {'brute': 0.5}
    >>> parse_sample(["brtue=0.5"], select_checks(["brute"]))
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.InvalidParameter: sample: 'brtue' is no check of this run; choose from brute, brute+max
    """
    rates = {}
    for spec in specs:
        name, eq, value = spec.partition("=")
        try:
            rate = float(value)
        except ValueError:
            rate = -1.0
        if not eq or not name or not 0.0 <= rate <= 1.0:
            raise InvalidParameter(f"{{sample}}: expected NAME=FRACTION with FRACTION in 0..1, found {echo(spec)}",
                                   "sample")
        rates[name] = rate
    if checks is not None:
        names = {n for c in checks for n in (c.label, c.name)}
        unknown = [n for n in rates if n not in names]
        if unknown:
            raise InvalidParameter(f"{{sample}}: {echo(unknown[0])} is no check of this run; choose "
                                   f"from {', '.join(sorted(names))}", "sample")
    return rates


def run_all(checks: Sequence[Check], deck: Deck, h: int, options: SolveOptions) -> list[Result]:
    return [run_check(c, deck, h, options) for c in checks]


def check_instance(checks: Sequence[Check], deck: Deck, h: int,
                   options: SolveOptions) -> tuple[list[Result], list[str]]:
    """Every check on one instance and its problems: one task of ``cross_check``."""
    results = run_all(checks, deck, h, options)
    return results, problems(results, deck.target)


class InOrder:
    """Results that finish in any order, handed on in index order 0, 1, 2, ...: the
    report (tallies, which failures are shrunk, the counterexample files) is that of
    the serial run whatever the order the workers finish in."""

    def __init__(self, settle):
        self.settle, self.waiting, self.next = settle, {}, 0

    def put(self, index: int, item) -> None:
        self.waiting[index] = item

    def flush(self) -> None:
        while self.next in self.waiting:
            self.settle(*self.waiting.pop(self.next))
            self.next += 1


def cross_check(seed: int, count: int, space: Space | None = None,
                checks: Sequence[Check] | None = None, sample: Mapping[str, float] | None = None,
                options: SolveOptions | None = None, out_dir: str | None = None,
                progress: bool = False, shrink_tests: int = 2000,
                report: Report | None = None, table: ResultsCSV | None = None,
                force: bool = False, execution: Execution = SERIAL) -> Report:
    space = space or Space()
    stream = csv_rows.deck_stream(space.max_n, space.max_c, space.max_r, space.max_h)
    opts = options or SolveOptions(seed=seed)

    def store(inst: Instance, results: list[Result], found: list[str]) -> None:
        csv_rows.store(table, seed, stream, inst.index, f"seed {seed}, instance #{inst.index}",
                       inst.kind, inst.deck, inst.deck.N, inst.h, "", results, found)

    def failure(inst: Instance, source: str, results: list[Result], found: list[str]) -> Failure:
        return Failure(source, inst.deck, inst.h, results, found,
                       culprits(results, inst.deck.target))

    return run_instances(
        report or Report(seed), seed, space.instances(seed, count), count,
        list(checks) if checks is not None else select_checks(), sample, stream, table,
        task=check_instance, arguments=lambda inst, active: (active, inst.deck, inst.h, opts),
        store=store, failure=failure,
        minimise=lambda fail, active: minimise(fail, active, opts, shrink_tests),
        write=(lambda fail, stem: write_failure(fail, out_dir, stem, force)) if out_dir else None,
        prefix="failure", progress=progress, execution=execution)


def run_instances(report: Report, seed: int, instances: Iterable[InstanceT], count: int,
                  checks: list[CheckT], sample: Mapping[str, float] | None, stream: str,
                  table: ResultsCSV | None, *, task: Callable[..., tuple[list[Result], list[str]]],
                  arguments: Callable[[InstanceT, list[CheckT]], tuple],
                  store: Callable[[InstanceT, list[Result], list[str]], None],
                  failure: Callable[[InstanceT, str, list[Result], list[str]], FailureT],
                  minimise: Callable[[FailureT, list[CheckT]], None],
                  write: Callable[[FailureT, str], object] | None, prefix: str,
                  progress: bool, execution: Execution) -> Report:
    """The loop of both harnesses: every sampled check on each instance, one ``task``
    (``arguments`` of the instance) per instance on ``execution``.  Rows are stored
    as tasks finish; instances whose rows ``table`` holds already are read back, not
    run.  The report (tallies, which failures are shrunk, in this process, and the
    files ``write`` makes, named ``PREFIX-sSEED-iINDEX``) is made in instance order:
    that of the serial run."""
    rates = dict(sample or {})
    for c in checks:
        report.tallies.setdefault(c.label, Tally())
    bar = _progress(count, progress, "instances")

    def settle(inst: InstanceT, active: list[CheckT], results: list[Result],
               found: list[str]) -> None:
        report.instances += 1
        for r in results:
            report.tallies[r.label].add(r)
        if found:
            fail = failure(inst, f"seed {seed}, instance #{inst.index} ({inst.kind})",
                           results, found)
            report.failures.append(fail)
            if len(report.failures) <= MAX_SHRUNK:
                minimise(fail, active)
                if write is not None:
                    write(fail, f"{prefix}-s{seed}-i{inst.index}")
        bar.update(1)
        if report.failures:
            bar.set_postfix(failures=len(report.failures))

    ordered = InOrder(settle)
    running: dict[int, tuple[InstanceT, list[CheckT]]] = {}     # by task index

    def tasks():
        number = 0
        for inst in instances:
            rng = random.Random(f"{seed}:{inst.index}:sample")
            active = [c for c in checks
                      if rng.random() < rates.get(c.label, rates.get(c.name, 1.0))]
            known = csv_rows.stored(table, seed, stream, inst.index, [c.label for c in active])
            if known is not None:
                report.resumed += 1
                ordered.put(inst.index, (inst, active, known[0], known[1]))
                continue
            running[number] = (inst, active)
            number += 1
            yield arguments(inst, active)

    with run_tasks(task, tasks(), execution) as done:
        for index, (results, found) in done:
            inst, active = running.pop(index)
            store(inst, results, found)
            ordered.put(inst.index, (inst, active, results, found))
            ordered.flush()
    ordered.flush()
    bar.close()
    return report


def minimise(fail: Failure, checks: Sequence[Check], options: SolveOptions, max_tests: int) -> None:
    """Shrink ``fail``'s instance while its culprit checks still fail on it."""
    involved = [c for c in checks if c.label in fail.culprits]

    def fails(deck: Deck, h: int) -> bool:
        return bool(problems(run_all(involved, deck, h, options), deck.target))

    fail.shrunk = shrink(fail.deck, fail.h, fails, max_tests)
    fail.shrunk_results = run_all(involved, fail.shrunk.deck, fail.shrunk.h, options)


def repro_commands(path: str, h: int, labels: Iterable[str]) -> list[str]:
    cmds = []
    for label in labels:
        name, _, tag = label.partition("+")
        cmds.append(f"hanabi-cp solve {path} --hand {h} --method {name}"
                    + (" --maximize" if tag == "max" else ""))
    return cmds


def write_counterexample(files: list[tuple[str, str]], force: bool = False) -> str | None:
    """Write (path, text) pairs, all or none; None, or why they were not written.

    A file that already holds the same text is rewritten unchanged (a resumed run
    finds the same counterexample); one with other content is kept unless ``force``.
    """
    from ...io.outputs import write_texts

    for path, text in files:
        if not force and os.path.exists(path):
            try:
                with open(path, encoding="utf-8") as fh:
                    same = fh.read() == text
            except (OSError, UnicodeDecodeError):
                same = False
            if not same:
                return f"{path} exists with other content (use --force)"
    write_texts(files, force=True)
    return None


def write_failure(fail: Failure, out_dir: str, stem: str, force: bool = False) -> list[str]:
    """The shrunk deck (or the original) as a commented deck file, plus a shell script
    with the commands that show the disagreement; returns the paths written."""
    from ...io import deck_to_text

    os.makedirs(out_dir, exist_ok=True)
    deck, h = (fail.shrunk.deck, fail.shrunk.h) if fail.shrunk else (fail.deck, fail.h)
    results = fail.shrunk_results if fail.shrunk else fail.results
    assert results is not None      # minimise sets shrunk and shrunk_results together
    deck_path = os.path.join(out_dir, stem + ".txt")
    cmds = repro_commands(deck_path, h, fail.culprits)
    comments = [f"hanabi-cp harness counterexample: {fail.source}",
                f"original instance: n={fail.deck.n} c={fail.deck.c} h={fail.h} cards: {fail.deck}"]
    if fail.shrunk:
        comments.append(f"shrunk from {fail.deck.N} to {deck.N} cards in {fail.shrunk.tests} tests")
    comments += [f"problem: {p}" for p in problems(results, deck.target) or fail.problems]
    comments += [f"{r.label}: {r.status}" + (f" ({r.detail})" if r.detail else "") for r in results]
    comments += [f"reproduce: {c}" for c in cmds]
    sh_path = os.path.join(out_dir, stem + ".sh")
    fail.not_written = write_counterexample(
        [(deck_path, deck_to_text(deck, h=h, comments=comments)),
         (sh_path, "#!/bin/sh\n# " + comments[0] + "\n" + "\n".join(cmds) + "\n")], force)
    fail.files = [] if fail.not_written else [deck_path, sh_path]
    return fail.files


def _progress(total: int, enabled: bool, unit: str):
    from ...core.progress import bar

    return bar(total, enabled=enabled, unit=" " + unit)


def summary_table(report: Report) -> str:
    """Per check: instances run, verdict counts, refusals, bugs and total time."""
    head = ("method", "run", "winnable", "unwinnable", "unknown", "refused", "bugs", "seconds")
    rows = [head] + [(label, t.run, t.winnable, t.unwinnable, t.unknown, t.refused, t.bugs,
                      f"{t.seconds:.2f}") for label, t in sorted(report.tallies.items())]
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(head))]
    lines = ["  ".join(str(v).ljust(w) if i == 0 else str(v).rjust(w)
                       for i, (v, w) in enumerate(zip(row, widths))) for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def failure_text(fail: Failure) -> str:
    lines = [f"DISAGREEMENT at {fail.source}: n={fail.deck.n} c={fail.deck.c} h={fail.h} "
             f"N={fail.deck.N}"]
    lines += [f"  {p}" for p in fail.problems]
    if fail.shrunk:
        d = fail.shrunk.deck
        lines.append(f"  shrunk to n={d.n} c={d.c} h={fail.shrunk.h} N={d.N}: {d}")
    lines += [f"  wrote {p}" for p in fail.files]
    if fail.not_written:
        lines.append(f"  not written: {fail.not_written}")
    return "\n".join(lines)


__all__ = ["Tally", "Failure", "Report", "select_checks", "parse_sample", "cross_check",
           "check_instance", "InOrder", "run_instances",
           "summary_table", "failure_text", "write_failure", "repro_commands", "Instance"]


def run(seed: int, count: int, space: Space, checks: Sequence[Check],
        sample: Mapping[str, float] | None = None, options: SolveOptions | None = None,
        out_dir: str | None = None, progress: bool = False, table: ResultsCSV | None = None,
        force: bool = False, execution: Execution = SERIAL, cnf_count: int = 0,
        cnf_vars: int = 4, cnf_dir: str | None = None, cnf_variants: bool = False) -> Report:
    """The ``harness`` command's work (solitaire rules): ``count`` random instances of
    ``space`` cross-checked, then ``cnf_count`` formulas (or the files of ``cnf_dir``)
    round-tripped through the reduction, into one Report."""
    report = Report(seed)
    cross_check(seed, count, space, checks, sample, options, out_dir, progress,
                report=report, table=table, force=force, execution=execution)
    if cnf_count or cnf_dir:
        from .roundtrip import cross_check_cnf
        cross_check_cnf(seed, cnf_count, cnf_vars, cnf_dir, checks, options, out_dir, progress,
                        report, sample, cnf_variants, table, force, execution)
    return report
