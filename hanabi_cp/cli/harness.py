"""``hanabi-cp harness``: cross-check every method on seeded random instances."""

from __future__ import annotations

import os
import secrets
import sys

import click

from ..core.errors import FileError, UsageError
from ..runtime.limits import check_cards, check_kinds
from ..core.options import SolveOptions
from .execution_options import execution_options, get_execution
from ..io.outputs import check_folder, check_outputs
from .common import command, not_stdout, time_limit_option
from .numbers import HAND, MAX_CLUE_TOKENS, MAX_HAND_SIZE, MAX_PLAYERS, MAX_STRIKES, MIN_PLAYERS, SEED, Integer, count


LIVE_ONLY = ("max_players", "max_cards", "max_clues", "max_strikes", "lift")


def _names(ctx, param, value):
    if value is None:
        return None
    names = [v.strip() for v in value.split(",") if v.strip()]
    if not names:
        raise click.BadParameter("expected a comma-separated list of method names")
    return names


def _check_decks(max_n: int, max_c: int, max_r: int, what: str) -> None:
    """Refuse bounds whose largest random deck is over the limits; one-color decks
    ("c1") take up to 2 max_n values."""
    check_kinds(max_n, max_c, "harness --max-n, --max-c")
    check_kinds(2 * max_n, 1, "harness --max-n (one-color decks take 2 max_n values)")
    check_cards(max(max_n * max_c, 2 * max_n) * max_r, what, option=None)


def _check_sizes(max_n: int, max_c: int, max_r: int, cnf_vars: int, variants: bool) -> None:
    """The largest deck and image the draw can make, before drawing any."""
    from ..apps.harness.roundtrip import RATIOS, VARIANTS
    from ..solitaire.reduction.size import random_image_size

    _check_decks(max_n, max_c, max_r, "harness: the largest random deck")
    if cnf_vars:
        m = max(1, round(max(RATIOS) * cnf_vars))
        for variant in (VARIANTS if variants else VARIANTS[:1]):
            if not variant.get("kappa"):       # kappa's images are smaller (n <= 30)
                check_cards(random_image_size(cnf_vars, m, **variant).cards,
                            f"harness --cnf-vars {cnf_vars}: the image of a formula with "
                            f"{m:,} clauses", option=None)


@command("harness")
@click.option("--rules", type=click.Choice(["solitaire", "live"]), default="solitaire",
              show_default=True,
              help="solitaire: the paper's model (decks and hand sizes h); live: real games "
                   "(hanab.live rules, 2 to --max-players players) and the real-rules "
                   "methods.")
@click.option("--seed", type=SEED, default=None,
              help="Seed of the instance stream (default: a fresh one, always printed).")
@click.option("--count", type=count(), default=1000, show_default=True,
              help="Random deck instances to cross-check.")
@click.option("--max-n", type=Integer(1), default=None,
              help="Largest number of values n [default: 4; 3 with --rules live].")
@click.option("--max-c", type=Integer(1), default=None,
              help="Largest number of colors c [default: 3; 2 with --rules live].")
@click.option("--max-r", type=Integer(1), default=None,
              help="Largest number of copies of a card r [default: 3; 2 with --rules live].")
@click.option("--max-h", type=HAND, default=None,
              help="Largest hand size h (with --rules live: cards per player, at least 1) "
                   "[default: 3; 2 with --rules live].")
@click.option("--methods", callback=_names, default=None, metavar="A,B,...",
              help="Methods to compare (default: every registered method, the external "
                   "solvers minizinc and pb where installed; with --rules live, every "
                   "real-rules method).")
@click.option("--max-players", type=Integer(MIN_PLAYERS, MAX_PLAYERS), default=3, show_default=True,
              help="With --rules live: the most players (2 to this).")
@click.option("--max-cards", type=Integer(1), default=8, show_default=True,
              help="With --rules live: the most cards of a deck (brute force, the oracle, "
                   "takes up to 14).")
@click.option("--max-clues", type=Integer(0, MAX_CLUE_TOKENS), default=3, show_default=True,
              help="With --rules live: the most clue tokens (0 to this, or unlimited).")
@click.option("--max-strikes", type=Integer(1, MAX_STRIKES), default=3, show_default=True,
              help="With --rules live: the most strikes (1 to this).")
@click.option("--lift", type=click.Choice(["all", "clues", "none"]), default="all",
              show_default=True,
              help="With --rules live, journal §5.1 as a property: each deck is also "
                   "decided with unlimited clue tokens and no final round (all), or "
                   "unlimited tokens only (clues), by the real-rules methods and by every "
                   "solitaire method at h = p*H - 1; all must agree, and no real-rules score "
                   "may exceed a lifted one.")
@click.option("--sample", multiple=True, metavar="NAME=FRACTION",
              help="Run method NAME on only this fraction of the instances (repeatable), "
                   "e.g. --sample cpsat=0.1.")
@click.option("--maximize/--no-maximize", default=True, show_default=True,
              help="Also run maximizing methods with --maximize and compare best scores.")
@time_limit_option("Seconds per instance and method (building and solving); a time-out "
                   "is UNKNOWN, never a disagreement.", default=10.0)
@click.option("--cnf-dir", default=None, metavar="DIR",
              help="Also reduce the .cnf files of DIR and compare with a SAT solver.")
@click.option("--cnf-count", type=count(), default=0, show_default=True,
              help="Random 3-CNF formulas (or files of --cnf-dir) to round-trip through "
                   "the reduction.")
@click.option("--cnf-vars", type=Integer(3), default=4, show_default=True,
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
def harness_cmd(rules, seed, count, max_n, max_c, max_r, max_h, methods, max_players, max_cards,
                max_clues, max_strikes, lift, sample, maximize, time_limit, cnf_dir, cnf_count,
                cnf_vars, cnf_variants, out_dir, csv_path, force, progress, jobs, dask):
    """Run every applicable method on seeded random decks and compare the verdicts.

    Each certificate is replayed by the referee; a rejected certificate, a crash,
    two different verdicts or two different best scores is a disagreement: the
    instance is shrunk to a small deck that still disagrees and written to --out
    with the `hanabi-cp solve` commands that show it, and the exit code is 1.

    With --rules live the instances are tiny real games (decks of at most
    --max-cards cards, 2 to --max-players players, 0 to --max-clues tokens or
    unlimited, 1 to --max-strikes strikes, sometimes no final round) and the
    methods the real-rules ones; --lift adds journal §5.1 as a property (see --lift;
    --lift clues keeps the final round, where the equivalence fails: the harness
    then shrinks a counterexample).

    \b
    Example:
      hanabi-cp harness --seed 1 --count 2000 --sample cpsat=0.2
      hanabi-cp harness --seed 1 --count 0 --cnf-count 20 --cnf-variants
      hanabi-cp harness --rules live --seed 1 --count 300
      hanabi-cp harness --rules live --seed 1 --count 100 --lift clues --methods brute
      hanabi-cp harness --seed 1 --count 5000 --jobs 0
    """
    if rules == "live":
        _live(seed, count, max_n, max_c, max_r, max_h, methods, max_players, max_cards,
              max_clues, max_strikes, lift, sample, maximize, time_limit, out_dir, csv_path,
              force, progress, cnf_dir or cnf_count, jobs, dask)
        return
    ctx = click.get_current_context()
    for name in LIVE_ONLY:
        if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT:
            raise UsageError(f"--{name.replace('_', '-')} goes with --rules live")
    max_n, max_c, max_r = max_n or 4, max_c or 3, max_r or 3
    max_h = 3 if max_h is None else max_h
    from ..apps.harness import Space, failure_text, parse_sample, select_checks, summary_table
    from ..apps.harness.results import FIELDS, KEY
    from ..apps.harness.runner import run

    checks = select_checks(methods, maximize=maximize)
    rates = parse_sample(sample, checks)
    execution = get_execution(jobs, dask)
    _check_sizes(max_n, max_c, max_r, cnf_count and not cnf_dir and cnf_vars, cnf_variants)
    table = _start(out_dir, csv_path, FIELDS, KEY)
    if seed is None:
        seed = secrets.randbelow(2**31)
    click.echo(f"c seed: {seed}")
    space = Space(max_n, max_c, max_r, max_h)
    options = SolveOptions(time_limit=time_limit, seed=seed)
    report = run(seed, count, space, checks, rates, options, out_dir, progress, table, force,
                 execution, cnf_count, cnf_vars, cnf_dir, cnf_variants)
    _rows_line(table, report)
    click.echo(f"c instances: {report.instances}")
    if report.instances:
        click.echo(summary_table(report))
    if report.roundtrips:
        from ..apps.harness.roundtrip import roundtrip_table
        click.echo(roundtrip_table(report))
    for fail in report.failures[:10]:
        click.echo(failure_text(fail))
    bad_rt = [rt for rt in report.roundtrips if not rt.ok]
    for rt in bad_rt[:10]:
        click.echo(rt.text())
    _verdict(report.ok, len(report.failures) + len(bad_rt), seed, out_dir)


def _verdict(ok: bool, disagreements: int, seed: int, out_dir: str) -> None:
    """The last line; exit code 1 on a disagreement."""
    if ok:
        click.echo(f"c all methods agree (seed {seed})")
        return
    click.echo(f"c {disagreements} disagreement(s) (seed {seed}); counterexamples in "
               f"{out_dir}", err=True)
    sys.exit(1)


def _rows_line(table, report) -> None:
    if table is not None and table.path != "-":
        click.echo(f"c rows: {len(table.rows)} in {table.path} ({table.added} new); "
                   f"{report.resumed} instances read back, not run again")


def _start(out_dir: str, csv_path: str | None, fields: list[str], key: list[str]):
    """Check the outputs before any work; (table, seed)."""
    from ..io.results_csv import ResultsCSV

    not_stdout("harness", "--out", out_dir, "the folder of the counterexamples")

    check_outputs("harness", {"--csv": csv_path}, False, appended=["--csv"],
                  dirs_made=["--csv"])
    check_folder(os.path.abspath(out_dir), True, out_dir)
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise FileError(f"{out_dir}: not a directory (--out names the folder for counterexamples)")
    return ResultsCSV(csv_path, fields, key) if csv_path else None


def _live(seed, count, max_n, max_c, max_r, max_h, methods, max_players, max_cards, max_clues,
          max_strikes, lift, sample, maximize, time_limit, out_dir, csv_path, force, progress,
          cnf, jobs, dask) -> None:
    from ..apps.harness import parse_sample, summary_table
    from ..apps.harness.live import FIELDS, KEY, cross_check_live, live_failure_text, select_live_checks
    from ..apps.harness.live_space import LiveSpace
    from ..apps.harness.runner import Report

    if cnf:
        raise UsageError("--cnf-count and --cnf-dir round-trip the solitaire reduction; "
                          "they do not go with --rules live")
    if max_h == 0 or max_h is not None and max_h > MAX_HAND_SIZE:
        raise UsageError(f"--max-h must be 1 to {MAX_HAND_SIZE} with --rules live (cards per player)")
    space = LiveSpace(max_n or 3, max_c or 2, max_r or 2, max_h or 2, max_players, max_cards,
                      max_clues, max_strikes)
    _check_decks(space.max_n, space.max_c, space.max_r,
                 "harness --rules live: the largest random deck")
    checks = select_live_checks(methods, maximize, lift)
    rates = parse_sample(sample, checks)
    execution = get_execution(jobs, dask)
    table = _start(out_dir, csv_path, FIELDS, KEY)
    if seed is None:
        seed = secrets.randbelow(2**31)
    click.echo(f"c seed: {seed}")
    report = Report(seed)
    cross_check_live(seed, count, space, checks, lift, rates,
                     SolveOptions(time_limit=time_limit, seed=seed), out_dir, progress,
                     report=report, table=table, force=force, execution=execution)
    _rows_line(table, report)
    lifted = {"none": "", "all": "; lifted: unlimited clues, no final round",
              "clues": "; lifted: unlimited clues"}[lift]
    click.echo(f"c instances: {report.instances} (real rules{lifted})")
    if report.instances:
        click.echo(summary_table(report))
    for fail in report.failures[:10]:
        click.echo(live_failure_text(fail))
    _verdict(report.ok, len(report.failures), seed, out_dir)
