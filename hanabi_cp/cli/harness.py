"""``hanabi-cp harness``: cross-check every method on seeded random instances."""

from __future__ import annotations

import os
import secrets
import sys

import click

from ..errors import HanabiError
from ..limits import check_cards, check_kinds
from ..solvers import SolveOptions
from .execution_options import execution_options, get_execution
from .common import check_folder, check_outputs, command, time_limit_option


def _names(ctx, param, value):
    if value is None:
        return None
    names = [v.strip() for v in value.split(",") if v.strip()]
    if not names:
        raise click.BadParameter("expected a comma-separated list of method names")
    return names


def _check_sizes(max_n: int, max_c: int, max_r: int, cnf_vars: int, variants: bool) -> None:
    """The largest deck and image the draw can make, before drawing any."""
    from ..harness.roundtrip import RATIOS, VARIANTS
    from ..reduction.size import random_image_size

    # one-color decks ("c1") take up to 2 max_n values
    check_kinds(max_n, max_c, "harness --max-n, --max-c")
    check_kinds(2 * max_n, 1, "harness --max-n (one-color decks take 2 max_n values)")
    check_cards(max(max_n * max_c, 2 * max_n) * max_r, "harness: the largest random deck",
                option=None)
    if cnf_vars:
        m = max(1, round(max(RATIOS) * cnf_vars))
        for variant in (VARIANTS if variants else VARIANTS[:1]):
            if not variant.get("kappa"):       # kappa's images are smaller (n <= 30)
                check_cards(random_image_size(cnf_vars, m, **variant).cards,
                            f"harness --cnf-vars {cnf_vars}: the image of a formula with "
                            f"{m:,} clauses", option=None)


@command("harness")
@click.option("--seed", type=int, default=None,
              help="Seed of the instance stream (default: a fresh one, always printed).")
@click.option("--count", type=click.IntRange(min=0), default=1000, show_default=True,
              help="Random deck instances to cross-check.")
@click.option("--max-n", type=click.IntRange(min=1), default=4, show_default=True,
              help="Largest number of values n.")
@click.option("--max-c", type=click.IntRange(min=1), default=3, show_default=True,
              help="Largest number of colors c.")
@click.option("--max-r", type=click.IntRange(min=1), default=3, show_default=True,
              help="Largest number of copies of a card r.")
@click.option("--max-h", type=click.IntRange(min=0), default=3, show_default=True,
              help="Largest hand size h.")
@click.option("--methods", callback=_names, default=None, metavar="A,B,...",
              help="Methods to compare (default: every registered method).")
@click.option("--sample", multiple=True, metavar="NAME=FRACTION",
              help="Run method NAME on only this fraction of the instances (repeatable), "
                   "e.g. --sample cpsat=0.1.")
@click.option("--maximize/--no-maximize", default=True, show_default=True,
              help="Also run maximizing methods with --maximize and compare best scores.")
@time_limit_option("Seconds per instance and method (building and solving); a time-out "
                   "is UNKNOWN, never a disagreement.", default=10.0)
@click.option("--cnf-dir", default=None, metavar="DIR",
              help="Also reduce the .cnf files of DIR and compare with a SAT solver.")
@click.option("--cnf-count", type=click.IntRange(min=0), default=0, show_default=True,
              help="Random 3-CNF formulas (or files of --cnf-dir) to round-trip through "
                   "the reduction.")
@click.option("--cnf-vars", type=click.IntRange(min=3), default=4, show_default=True,
              help="Variables of the random 3-CNF formulas.")
@click.option("--cnf-variants", is_flag=True,
              help="Cycle the round trips through the reduction's variants (h = 1, h = 3, "
                   "extra copies, constant n).")
@click.option("--out", "out_dir", default="harness-out", show_default=True, metavar="DIR",
              help="Where shrunk counterexamples and their commands are written.")
@click.option("--csv", "csv_path", default=None, metavar="FILE",
              help="Append one row per instance and method to FILE as soon as the instance "
                   "is checked; instances already there are read back, not run (a rerun "
                   "resumes).")
@click.option("--force", is_flag=True,
              help="Overwrite counterexample files in --out that hold something else.")
@click.option("--progress/--no-progress", default=True, show_default=True,
              help="Progress bar on stderr.")
@execution_options
def harness_cmd(seed, count, max_n, max_c, max_r, max_h, methods, sample, maximize,
                time_limit, cnf_dir, cnf_count, cnf_vars, cnf_variants, out_dir, csv_path, force,
                progress, jobs, dask):
    """Run every applicable method on seeded random decks and compare the verdicts.

    Each certificate is replayed by the referee; a rejected certificate, a crash,
    two different verdicts or two different best scores is a disagreement: the
    instance is shrunk to a small deck that still disagrees and written to --out
    with the `hanabi-cp solve` commands that show it, and the exit code is 1.

    \b
    Example:
      hanabi-cp harness --seed 1 --count 2000 --sample cpsat=0.2
      hanabi-cp harness --seed 1 --count 0 --cnf-count 20 --cnf-variants
      hanabi-cp harness --seed 1 --count 5000 --jobs 0
    """
    from ..harness import (Space, cross_check, failure_text, parse_sample, select_checks,
                           summary_table)
    from ..formats.results_csv import ResultsCSV
    from ..harness.results import FIELDS, KEY
    from ..harness.runner import Report

    execution = get_execution(jobs, dask)
    _check_sizes(max_n, max_c, max_r, cnf_count and not cnf_dir and cnf_vars, cnf_variants)
    check_outputs("harness", {"--csv": csv_path}, False, appended=["--csv"],
                  dirs_made=["--csv"])
    check_folder(os.path.abspath(out_dir), True, out_dir)
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise HanabiError(f"{out_dir}: not a directory (--out names the folder for counterexamples)")
    table = ResultsCSV(csv_path, FIELDS, KEY) if csv_path else None
    if seed is None:
        seed = secrets.randbelow(2**31)
    click.echo(f"c seed: {seed}")
    space = Space(max_n, max_c, max_r, max_h)
    checks = select_checks(methods, maximize=maximize)
    options = SolveOptions(time_limit=time_limit, seed=seed)
    report = Report(seed)
    cross_check(seed, count, space, checks, parse_sample(sample), options, out_dir, progress,
                report=report, table=table, force=force, execution=execution)
    if cnf_count or cnf_dir:
        from ..harness.roundtrip import cross_check_cnf
        cross_check_cnf(seed, cnf_count, cnf_vars, cnf_dir, checks, options, out_dir, progress,
                        report, parse_sample(sample), cnf_variants, table, force, execution)
    if table is not None and table.path != "-":
        click.echo(f"c rows: {len(table.rows)} in {table.path} ({table.added} new); "
                   f"{report.resumed} instances read back, not run again")
    click.echo(f"c instances: {report.instances}")
    if report.instances:
        click.echo(summary_table(report))
    if report.roundtrips:
        from ..harness.roundtrip import roundtrip_table
        click.echo(roundtrip_table(report))
    for fail in report.failures[:10]:
        click.echo(failure_text(fail))
    bad_rt = [rt for rt in report.roundtrips if not rt.ok]
    for rt in bad_rt[:10]:
        click.echo(rt.text())
    if report.ok:
        click.echo(f"c all methods agree (seed {seed})")
        return
    click.echo(f"c {len(report.failures) + len(bad_rt)} disagreement(s) (seed {seed}); "
               f"counterexamples in {out_dir}", err=True)
    sys.exit(1)


COMMANDS = [harness_cmd]
