"""``hanabi-cp study ...``: seeded, resumable sweeps writing CSV rows and figures."""

from __future__ import annotations


import click

from ..core.errors import UsageError
from ..core.registry import Registry
from ..io.outputs import check_outputs
from .common import Group, NestedCommand, not_stdout, time_limit_option
from .execution_options import execution_options, get_execution
from .numbers import HAND, MAX_INT, MAX_PLAYERS, MAX_POINT, MIN_PLAYERS, RATIO, SEED, Integer, Seconds, Sweep
from .numbers import count as counts


class StudyCommand(NestedCommand):
    """One-line usage errors that name the subcommand as ``study NAME``."""

    group = "study"


def _names(ctx, param, value):
    if value is None:
        return None
    return [v.strip() for v in value.split(",") if v.strip()]


def common_options(name: str, count: int, time_limit: float = 60.0):
    def wrap(func):
        opts = [
            click.option("--seed", type=SEED, default=1, show_default=True, help="Seed of the sweep."),
            click.option("--count", type=counts(), default=count, show_default=True,
                         help="Instances per point of the sweep."),
            click.option("--methods", callback=_names, default=None, metavar="A,B,...",
                         help="Methods to time (default: the study's; inapplicable ones are skipped)."),
            time_limit_option("Seconds per instance and method (building and solving).",
                              default=time_limit),
            click.option("--csv", "csv_path", default=f"results/study-{name}.csv", show_default=True,
                         metavar="FILE", help="CSV to append each row to as soon as it is done; "
                                              "rows already there are skipped (a rerun resumes)."),
            click.option("--figure", "stem", default=None, metavar="STEM",
                         help="Write STEM.png and STEM.svg (default: the CSV's path without "
                              ".csv); a figure drawn from the same CSV is redrawn."),
            click.option("--force", is_flag=True,
                         help="Overwrite figure files that were not drawn from this CSV."),
            click.option("--progress/--no-progress", default=True, show_default=True,
                         help="Progress bar on stderr."),
            execution_options,
        ]
        for opt in reversed(opts):
            func = opt(func)
        return func
    return wrap


def _outputs(name: str, csv_path: str, stem: str | None, force: bool) -> str:
    """Check the CSV and figure paths before any work; the figure stem to use."""
    from ..apps.studies.figure_files import check_figures, default_stem, figure_paths

    if csv_path == "-":
        raise UsageError(f"study {name}: --csv - is not possible: a study resumes from its CSV file")
    not_stdout(f"study {name}", "--figure", stem, "the figure's files (STEM.png, STEM.svg)")
    if stem is not None:
        from ..io.outputs import refuse_device_stem
        refuse_device_stem("--figure", stem, "the figure's files (STEM.png, STEM.svg)")
    if stem is None:
        stem = default_stem(csv_path)
    png, svg = figure_paths(stem)
    check_outputs(f"study {name}", {"--csv": csv_path, "--figure (png)": png,
                                    "--figure (svg)": svg}, True,
                  appended=["--csv"], dirs_made=["--csv", "--figure (png)", "--figure (svg)"])
    check_figures(stem, csv_path, force)
    return stem


def _finish(study, sweep, stem: str, force: bool) -> None:
    """The rows line, the summary and the figure of a study's sweep."""
    click.echo(_rows_line(sweep))
    click.echo(study.summary(sweep.mine))
    for path in study.plot(sweep.mine, stem, sweep.rows.path, force):
        click.echo(f"c wrote {path}")


def _rows_line(sweep) -> str:
    rows = sweep.rows
    picked = ", ".join(f"{k} = {v}" for k, v in sweep.fields.items())
    new = "" if sweep.new is None else f" ({sweep.new} new)"
    return (f"c rows: {len(rows.rows)} in {rows.path}{new}; {len(sweep.mine)} of this sweep"
            + (f" ({picked})" if picked else ""))


# The studies defined beside the commands they share code with, loaded when asked for.
STUDIES: Registry[click.Command] = Registry("study", [
    ("hle", "hanabi_cp.cli.hle:study_hle"),
    ("strategies", "hanabi_cp.cli.play:study_strategies"),
])


@click.group("study", cls=Group, table=STUDIES, context_settings={"help_option_names": ["-h", "--help"]})
def study() -> None:
    """Empirical studies: seeded, resumable sweeps -> CSV rows and figures.

    Each study appends one row per instance and method (parameters, seed, verdict,
    time, model size, version) to its CSV as soon as it is done, skipping rows
    already there, so an interrupted (Ctrl-C) or enlarged sweep resumes; the figure,
    next to the CSV unless --figure, is redrawn from the rows of the sweep.

    \b
    Example:
      hanabi-cp study standard --count 200
    """


@study.command("standard", cls=StudyCommand)
@common_options("standard", 200)
@click.option("--hands", type=Sweep(True, 0, MAX_INT), default="0-6", show_default=True,
              help="Hand sizes h to decide.")
@click.option("--colors", type=click.Choice(["5", "6"]), default="5", show_default=True,
              help="Colors of the standard deck (6: the variant).")
@click.option("--maximize/--no-maximize", default=True, show_default=True,
              help="Also the largest playable score (first applicable of cpsat, dp, brute).")
@click.option("--min-hand/--no-min-hand", "least", default=True, show_default=True,
              help="Also the least winning hand size of each deck.")
def study_standard(seed, count, methods, time_limit, csv_path, stem, force, progress, jobs, dask,
                   hands, colors, maximize, least):
    """Shuffled standard 50-card decks: fraction winnable against h (Wilson 95% CI),
    the largest playable score, the least winning hand size.

    \b
    Example:
      hanabi-cp study standard --seed 1 --count 200
    """
    from ..apps.studies.catalogue import STANDARD

    execution = get_execution(jobs, dask)
    stem = _outputs("standard", csv_path, stem, force)
    sweep = STANDARD.run(csv_path, seed, count, hands, methods, maximize, least, int(colors),
                         time_limit, progress, execution)
    _finish(STANDARD, sweep, stem, force)


@study.command("random", cls=StudyCommand)
@common_options("random", 40)
@click.option("--param", type=click.Choice(["h", "density"]), default="h", show_default=True,
              help="Control parameter: hand size h, or cards per kind N/(n c).")
@click.option("--points", type=Sweep(False, 0, MAX_POINT), default="0-12", show_default=True,
              help="Values of the control parameter, e.g. 0-12 or 1,2,3.5,5.")
@click.option("--n", "n", type=Integer(1), default=6, show_default=True, help="Values n.")
@click.option("--c", "c", type=Integer(1), default=5, show_default=True, help="Colors c.")
@click.option("--r", "r", type=Integer(1), default=3, show_default=True,
              help="Copies per card drawn from 1..r (--param h).")
@click.option("--hand", type=HAND, default=2, show_default=True,
              help="Hand size (--param density).")
def study_random(seed, count, methods, time_limit, csv_path, stem, force, progress, jobs, dask,
                 param, points, n, c, r, hand):
    """Random decks: fraction winnable and median / p95 solve time of each method
    against a control parameter, to see where the hard instances are.

    \b
    Example:
      hanabi-cp study random --param h --points 0-12 --count 40 --jobs 0
      hanabi-cp study random --param density --points 1-8 --hand 2 --count 30 \\
          --csv results/study-density.csv
    """
    from ..apps.studies.catalogue import RANDOM

    execution = get_execution(jobs, dask)
    RANDOM.check(param, points, n, c, r)
    stem = _outputs("random", csv_path, stem, force)
    sweep = RANDOM.run(csv_path, seed, count, param, points, n, c, r, hand, methods,
                       time_limit, progress, execution)
    _finish(RANDOM, sweep, stem, force)


@study.command("reduction", cls=StudyCommand)
@common_options("reduction", 3)
@click.option("--vars", "points", type=Sweep(True, 1, MAX_INT), default="3-6", show_default=True,
              help="Numbers of variables v.")
@click.option("--ratio", type=RATIO, default=4.26,
              show_default=True, help="Clauses per variable.")
def study_reduction(seed, count, methods, time_limit, csv_path, stem, force, progress, jobs,
                    dask, points, ratio):
    """Random 3-SAT near the threshold: solve time of the reduction image (h = 2) per
    method against CaDiCaL on the formula, and their ratio, against v.

    \b
    Example:
      hanabi-cp study reduction --vars 3-6 --count 3
    """
    from ..apps.studies.catalogue import REDUCTION

    execution = get_execution(jobs, dask)
    REDUCTION.check(points, ratio)
    stem = _outputs("reduction", csv_path, stem, force)
    sweep = REDUCTION.run(csv_path, seed, count, points, ratio, methods, time_limit, progress,
                          execution)
    _finish(REDUCTION, sweep, stem, force)


@study.command("live", cls=StudyCommand)
@common_options("live", 500, time_limit=2.0)
@click.option("--players", type=Sweep(True, MIN_PLAYERS, MAX_PLAYERS), default="2-6", show_default=True,
              help="Player counts p (2 to 6), each with hanab.live's hand size.")
@click.option("--variants", callback=_names, default=None, metavar="A,B,...",
              help="Rule sets to ask (default: all of real, free-clues, no-final, lifted, "
                   "solitaire).")
def study_live(seed, count, methods, time_limit, csv_path, stem, force, progress, jobs, dask,
               players, variants):
    """Shuffled standard decks under real rules: the fraction winnable for each player
    count (Wilson 95% CI), the best-score distribution, and what the 8 clue tokens and
    the final round cost (unlimited clues, no final round, both, and the solitaire
    model at h = p*H - 1).

    Deck i is `hanabi-cp generate --standard --seed S` with S = --seed + i. A time
    limit gives UNKNOWN, counted apart, never a win or a loss.

    \b
    Example:
      hanabi-cp study live --seed 1 --count 20 --players 2,3 --csv results/study-live-small.csv
    """
    from ..apps.studies.catalogue import LIVE

    LIVE.check(methods, variants)
    stem = _outputs("live", csv_path, stem, force)
    click.echo(f"c decks: hanabi-cp generate --standard --seed S for S = {seed} .. "
               f"{seed + count - 1}")
    execution = get_execution(jobs, dask)
    sweep = LIVE.run(csv_path, seed, count, players, variants, time_limit, progress, execution)
    _finish(LIVE, sweep, stem, force)


@study.command("hard", cls=StudyCommand)
@click.option("--n", "ns", type=Sweep(True, 1, MAX_INT), default="4", show_default=True,
              help="Values n (a sweep: 3-6 or 3,5).")
@click.option("--c", "cs", type=Sweep(True, 1, MAX_INT), default="2", show_default=True,
              help="Colors c (a sweep: 2,3).")
@click.option("--r", "r", type=Integer(1), default=2, show_default=True,
              help="Copies per card.")
@click.option("--copies", type=click.Choice(["exact", "upto"]), default="exact",
              show_default=True, help="Exactly r copies of each card, or 1..r (copy changes "
                                      "become search moves).")
@click.option("--hand", "hands", type=Sweep(True, 0, MAX_INT), default="1", show_default=True,
              help="Hand sizes h (a sweep: 1,2).")
@click.option("--method", type=click.Choice(["sat", "cpsat", "search"]), default="search",
              show_default=True, help="Whose effort to maximise.")
@click.option("--measure", default=None, metavar="NAME",
              help="Counter to maximise: sat conflicts|propagations|decisions, cpsat "
                   "branches|conflicts, search nodes  [default: the first].")
@click.option("--seed", type=SEED, default=1, show_default=True, help="Seed of the search.")
@click.option("--steps", type=counts(), default=500, show_default=True,
              help="Local-search steps per size.")
@click.option("--budget", type=Seconds(), default=None,
              metavar="SECONDS", help="Stop each size's search after this many seconds "
                                      "(the steps done are kept; a rerun continues).")
@click.option("--patience", type=counts(low=1), default=200, show_default=True,
              help="Restart from a random deck after this many steps without a new best.")
@click.option("--random", "random_count", type=counts(), default=50,
              show_default=True, help="Random decks per size for the baseline.")
@click.option("--exhaustive", is_flag=True,
              help="Baseline: every distinct deck of the size instead of random ones.")
@click.option("--conflict-limit", type=Integer(1), default=2_000_000,
              show_default=True, help="CaDiCaL conflicts per deck (sat).")
@click.option("--keep", type=counts(), default=3, show_default=True,
              help="Hardest decks per size written to --out.")
@click.option("--out", "out_dir", default="results/hard", show_default=True, metavar="DIR",
              help="Folder for the hardest decks (deck files with verdict and effort).")
@time_limit_option("Seconds per deck for cpsat and search.", default=60.0)
@click.option("--csv", "csv_path", default="results/study-hard.csv", show_default=True,
              metavar="FILE", help="CSV of every evaluated deck (the search trace); a rerun "
                                   "resumes from it.")
@click.option("--figure", "stem", default=None, metavar="STEM",
              help="Write STEM.png and STEM.svg (default: the CSV's path without .csv).")
@click.option("--force", is_flag=True, help="Overwrite figures and deck files not written "
                                            "by this study.")
@click.option("--progress/--no-progress", default=True, show_default=True,
              help="Progress bar on stderr.")
@execution_options
def study_hard(ns, cs, r, copies, hands, method, measure, seed, steps, budget, patience,
               random_count, exhaustive, conflict_limit, keep, out_dir, time_limit, csv_path,
               stem, force, progress, jobs, dask):
    """Adversarial search for hard decks: local search (swaps, moves, copy changes)
    maximising a deterministic effort counter of --method (CaDiCaL conflicts, CP-SAT
    branches with one worker and a fixed seed, search nodes; never wall time),
    against random decks of the same parameters.

    Writes the trace to --csv, the hardest decks to --out (their verdict confirmed
    by a second method, their effort under every method), and a figure of the
    effort against the size.

    With --jobs N or --dask, the baseline's decks and the confirmations are
    independent tasks, and the climb evaluates the decks of its next N steps at
    once, proposed by guessing the outcomes of the steps before; a step uses an
    evaluation only if it proposes that very deck, so the trace is that of --jobs 1.

    \b
    Example:
      hanabi-cp study hard --n 3 --c 2 --r 2 --hand 1 --steps 100 --random 20 \\
          --csv results/hard-demo.csv --out results/hard-demo
    """
    from ..apps.studies.catalogue import HARD

    measure = HARD.check(ns, cs, r, hands, method, measure)
    not_stdout("study hard", "--out", out_dir, "the folder of the hardest decks")
    execution = get_execution(jobs, dask)
    stem = _outputs("hard", csv_path, stem, force)

    def swept(rows, mine) -> None:
        click.echo(f"c rows: {len(rows.rows)} in {rows.path} ({rows.added} new); {len(mine)} of "
                   f"this sweep (seed = {seed}, r = {r}, {copies} copies, {method} "
                   f"{measure})")
        click.echo(HARD.summary(mine))

    sweep = HARD.run(csv_path, seed, ns, cs, r, copies, hands, method, measure, steps, budget,
                     patience, random_count, exhaustive, conflict_limit, keep, out_dir,
                     time_limit, force, progress, execution, on_swept=swept)
    for path, check in sweep.written:
        click.echo(f"c wrote {path} ({check['verdict']}, "
                   + ("decided alike by " + ", ".join(check["methods"]) if check["confirmed"]
                      else "not confirmed") + ")")
    for path in HARD.plot(sweep.mine, stem, sweep.rows.path, force):
        click.echo(f"c wrote {path}")
