"""CNF round trips: a formula, its reduction image, and a SAT solver on the formula.

For each formula (seeded random 3-CNF, or the .cnf files of a directory) the image
deck of the reduction (``reduction.reduce_cnf``, h = 2) is decided by every
applicable decision method and each verdict compared with CaDiCaL on the formula
itself: the image must be winnable iff the formula is satisfiable.  A winning play
is also mapped back to an assignment (``reduction.assignment_from_play``), which
must satisfy the formula.  A failing formula is shrunk by dropping clauses while
the failure persists, and written to ``out_dir`` as DIMACS with its image deck.
The comparison and the read-back are the round-trip engine's
(``reduction.roundtrip.check_image``).
"""

from __future__ import annotations

import glob
import os
import random
from dataclasses import dataclass, field
from collections.abc import Mapping, Sequence

from ...solvers.formula import CNF
from ...core.errors import FileError
from ...runtime.executors import SERIAL, Execution, run_tasks
from ...io.results_csv import ResultsCSV
from ..generators import random_kcnf
from ...core.options import SolveOptions
from . import results as csv_rows
from .check import DECISIVE, REFUSED, Check, Result, problems, run_check
from .runner import InOrder, Report, _progress, repro_commands, write_counterexample

# Clauses per variable of the random formulas, around the 3-SAT threshold (4.26)
# so that both answers occur.
RATIOS = (2.0, 3.0, 4.26, 5.0, 6.0)
# Variants of journal §5.1 (keyword arguments of reduce_cnf), cycled through with
# --cnf-variants: the base deck, h = 1 (r = 3), h = 3, extra copies, constant n.
VARIANTS: tuple[dict[str, int | bool], ...] = ({}, {"h": 1}, {"h": 3}, {"copies": 3}, {"kappa": True})


@dataclass
class Roundtrip:
    source: str
    cnf: CNF
    satisfiable: bool
    variant: dict = field(default_factory=dict)
    N: int = 0
    h: int = 2
    results: list[Result] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    shrunk: CNF | None = None
    files: list[str] = field(default_factory=list)
    not_written: str | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    def text(self) -> str:
        lines = [f"ROUND-TRIP FAILURE at {self.source}: v={self.cnf.num_vars} "
                 f"m={self.cnf.num_clauses} ({'SAT' if self.satisfiable else 'UNSAT'}), image N={self.N}"]
        lines += [f"  {p}" for p in self.problems]
        if self.shrunk is not None:
            lines.append(f"  shrunk to {self.shrunk.num_clauses} clauses: {list(self.shrunk.clauses)}")
        lines += [f"  wrote {p}" for p in self.files]
        if self.not_written:
            lines.append(f"  not written: {self.not_written}")
        return "\n".join(lines)


def formulas(seed: int, count: int, num_vars: int, cnf_dir: str | None):
    """(source, CNF) pairs: the files of ``cnf_dir`` (the first ``count``, or all if
    count is 0), else ``count`` random 3-CNF with ``num_vars`` variables."""
    if cnf_dir:
        from ...solvers.dimacs import read_dimacs

        paths = sorted(glob.glob(os.path.join(cnf_dir, "*.cnf")))
        if not paths:
            raise FileError(f"{cnf_dir}: no .cnf files found")
        for path in paths[:count or None]:
            yield path, read_dimacs(path)
        return
    for i in range(count):
        rng = random.Random(f"{seed}:cnf:{i}")
        m = max(1, round(rng.choice(RATIOS) * num_vars))
        yield f"seed {seed}, formula #{i}", random_kcnf(rng, num_vars, m)


def check_formula(cnf: CNF, checks: Sequence[Check], options: SolveOptions,
                  variant: dict | None = None):
    """(satisfiable, image size N, h, results, problems) for one formula."""
    from ...solitaire.reduction import reduce_cnf
    from ..roundtrip import check_image, formula_sat

    sat = formula_sat(cnf)[0]
    red = reduce_cnf(cnf, **(variant or {}))
    results = [run_check(c, red.deck, red.h, options) for c in checks]
    found = problems(results, red.deck.target)
    for r in results:
        # a read-back failure is a finding, whatever its type
        image = check_image(red, sat, r.status, r.plays, catch=(Exception,))
        if image.agreement == "NO":
            found.append(f"{r.label}: image {r.status} but the formula is "
                         f"{'satisfiable' if sat else 'unsatisfiable'}")
        if image.error is not None:
            exc = image.error
            found.append(f"{r.label}: read-back of its winning play failed: "
                         f"{type(exc).__name__}: {exc}")
    return sat, red.deck.N, red.h, results, found


def shrink_formula(cnf: CNF, fails, max_tests: int = 200) -> CNF:
    """Drop clauses one at a time (last first) while ``fails`` stays true."""
    clauses, tests, j = list(cnf.clauses), 0, len(cnf.clauses) - 1
    while j >= 0 and tests < max_tests:
        trial = CNF(cnf.num_vars, tuple(clauses[:j] + clauses[j + 1:]))
        tests += 1
        if trial.clauses and fails(trial):
            clauses = list(trial.clauses)
        j -= 1
    return CNF(cnf.num_vars, tuple(clauses))


def cross_check_cnf(seed: int, count: int, num_vars: int, cnf_dir: str | None,
                    checks: Sequence[Check], options: SolveOptions | None = None,
                    out_dir: str | None = None, progress: bool = False,
                    report: Report | None = None,
                    sample: Mapping[str, float] | None = None, variants: bool = False,
                    table: ResultsCSV | None = None, force: bool = False,
                    execution: Execution = SERIAL) -> Report:
    report = report or Report(seed)
    stream = csv_rows.cnf_stream(num_vars, cnf_dir, variants)
    options = options or SolveOptions(seed=seed)
    # Deciding is what the reduction promises; maximizing images would only add time.
    checks = [c for c in checks if not c.maximize]
    items = list(formulas(seed, count, num_vars, cnf_dir))
    bar = _progress(len(items), progress, "formulas")
    sample = dict(sample or {})

    def settle(j: int, source: str, cnf: CNF, variant: dict, active: list[Check],
               outcome: tuple) -> None:
        sat, N, h, results, found = outcome
        rt = Roundtrip(source, cnf, sat, variant, N, h, results, found)
        report.roundtrips.append(rt)
        if found:
            involved = [c for c in active if any(p.startswith(c.label + ":") for p in found)] or active
            rt.shrunk = shrink_formula(
                cnf, lambda f, involved=involved, variant=variant:
                bool(check_formula(f, involved, options, variant)[4]))
            if out_dir:
                write_roundtrip(rt, involved, out_dir, f"roundtrip-s{seed}-f{j}", force)
        bar.update(1)

    ordered = InOrder(settle)
    running: list[tuple] = []      # by task index: what settle needs of the formula

    def tasks():
        for j, (source, cnf) in enumerate(items):
            rng = random.Random(f"{seed}:cnf:{j}:sample")
            active = [c for c in checks if rng.random() < sample.get(c.label, 1.0)]
            variant = VARIANTS[j % len(VARIANTS)] if variants else {}
            if variant:
                source += " (" + ", ".join(f"{k}={v}" for k, v in variant.items()) + ")"
            known = csv_rows.stored(table, seed, stream, j, [c.label for c in active])
            if known is not None:
                results, found, row = known
                report.resumed += 1
                ordered.put(j, (j, source, cnf, variant, active,
                                (row["formula"] == "SAT", int(row["N"]), int(row["h"]), results, found)))
                continue
            running.append((j, source, cnf, variant, active))
            yield cnf, active, options, variant

    with run_tasks(check_formula, tasks(), execution) as done:
        for task, outcome in done:
            j, source, cnf, variant, active = running[task]
            sat, N, h, results, found = outcome
            csv_rows.store(table, seed, stream, j, source, "cnf", None, N, h,
                           "SAT" if sat else "UNSAT", results, found)
            ordered.put(j, (j, source, cnf, variant, active, outcome))
            ordered.flush()
    ordered.flush()
    bar.close()
    return report


def write_roundtrip(rt: Roundtrip, checks: Sequence[Check], out_dir: str, stem: str,
                    force: bool = False) -> list[str]:
    from ...io import deck_to_text
    from ...solvers.dimacs import dimacs_text
    from ...solitaire.reduction import reduce_cnf

    os.makedirs(out_dir, exist_ok=True)
    cnf = rt.shrunk if rt.shrunk is not None else rt.cnf
    red = reduce_cnf(cnf, **rt.variant)
    cnf_path = os.path.join(out_dir, stem + ".cnf")
    deck_path = os.path.join(out_dir, stem + "-image.txt")
    cmds = repro_commands(deck_path, red.h, [c.label for c in checks])
    comments = [f"hanabi-cp harness round-trip failure: {rt.source}"] + \
        [f"problem: {p}" for p in rt.problems] + [f"reproduce: {c}" for c in cmds]
    rt.not_written = write_counterexample(
        [(cnf_path, dimacs_text(cnf, comments)),
         (deck_path, deck_to_text(red.deck, h=red.h, roles=red.roles,
                                  comments=comments + [f"image of {cnf_path}"]))], force)
    rt.files = [] if rt.not_written else [cnf_path, deck_path]
    return rt.files


def roundtrip_table(report: Report) -> str:
    from ..roundtrip import agreement

    rts = report.roundtrips
    sat = sum(rt.satisfiable for rt in rts)
    labels = sorted({r.label for rt in rts for r in rt.results})
    lines = [f"c round trips: {len(rts)} formulas ({sat} satisfiable, {len(rts) - sat} not), "
             f"{sum(not rt.ok for rt in rts)} failures"]
    refusing = []
    for label in labels:
        rs = [r for rt in rts for r in rt.results if r.label == label]
        if all(r.status == REFUSED for r in rs):
            refusing.append(label)
            continue
        agree = sum(1 for rt in rts for r in rt.results
                    if r.label == label and agreement(r.status, rt.satisfiable) == "yes")
        lines.append(f"c   {label}: {agree} of {len(rs)} images agree with the formula "
                     f"({sum(r.status not in DECISIVE for r in rs)} undecided/refused), "
                     f"{sum(r.seconds for r in rs):.2f} s")
    if refusing:
        lines.append(f"c   refused every image: {', '.join(refusing)}")
    return "\n".join(lines)
