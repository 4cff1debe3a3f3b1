"""``hanabi-cp study ...``: seeded, resumable sweeps writing CSV rows and figures."""

from __future__ import annotations

import os

import click

from ..errors import HanabiError
from ..limits import MAX_SWEEP_POINTS, check_at_most, check_cards, check_kinds
from .execution_options import execution_options, get_execution
from .common import PROG, Command, UsageLine, check_outputs, time_limit_option


class StudyCommand(Command):
    """One-line usage errors that name the subcommand as ``study NAME``."""

    def parse_args(self, ctx, args):
        try:
            return click.Command.parse_args(self, ctx, args)
        except click.UsageError as exc:
            raise UsageLine(f"study {self.name}: {exc.format_message()} "
                            f"(see '{PROG} study {self.name} --help')") from None


def _ints(ctx, param, value):
    """``0-6`` or ``0,2,4`` (or a mix) -> a sorted list of ints."""
    return sorted({int(x) for x in _numbers(param, value)})


def _floats(ctx, param, value):
    return sorted(set(_numbers(param, value)))


def _numbers(param, value: str) -> list[float]:
    out: list[float] = []
    for part in value.split(","):
        lo, dash, hi = part.strip().partition("-")
        try:
            if dash:
                check_at_most(f"--{param.name}: {part.strip()} is", int(hi) - int(lo) + 1,
                              MAX_SWEEP_POINTS - len(out), "points of one sweep")
                out += list(range(int(lo), int(hi) + 1))
            else:
                x = float(lo)
                out.append(int(x) if x.is_integer() else x)
        except ValueError:
            raise click.BadParameter(f"expected numbers like 0-6 or 1,1.5,2, found {value!r}",
                                     param=param) from None
    if not out:
        raise click.BadParameter(f"expected at least one number, found {value!r}", param=param)
    return out


def _names(ctx, param, value):
    if value is None:
        return None
    return [v.strip() for v in value.split(",") if v.strip()]


def common_options(name: str, count: int):
    def wrap(func):
        opts = [
            click.option("--seed", type=int, default=1, show_default=True, help="Seed of the sweep."),
            click.option("--count", type=click.IntRange(min=0), default=count, show_default=True,
                         help="Instances per point of the sweep."),
            click.option("--methods", callback=_names, default=None, metavar="A,B,...",
                         help="Methods to time (default: the study's; inapplicable ones are skipped)."),
            time_limit_option("Seconds per instance and method (building and solving).",
                              default=60.0),
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
    from ..studies.figure_files import check_figures, figure_paths

    if csv_path == "-":
        raise HanabiError(f"study {name}: --csv - is not possible: a study resumes from its CSV file")
    if stem is None:
        base, ext = os.path.splitext(csv_path)
        stem = base if ext.lower() == ".csv" else csv_path
    png, svg = figure_paths(stem)
    check_outputs(f"study {name}", {"--csv": csv_path, "--figure (png)": png,
                                    "--figure (svg)": svg}, True,
                  appended=["--csv"], dirs_made=["--csv", "--figure (png)", "--figure (svg)"])
    check_figures(stem, csv_path, force)
    return stem


def _finish(module, rows, stem: str, force: bool, **fields) -> None:
    """Summary and figure of this sweep's rows (the CSV may hold other seeds or sizes)."""
    from ..studies.common import in_key_order, select

    mine = in_key_order(select(rows.rows, **fields), module.KEY)
    click.echo(f"c rows: {len(rows.rows)} in {rows.path} ({rows.added} new); "
               f"{len(mine)} of this sweep (" + ", ".join(f"{k} = {v}" for k, v in fields.items()) + ")")
    click.echo(module.summary(mine))
    for path in module.plot(mine, stem, rows.path, force):
        click.echo(f"c wrote {path}")


@click.group("study", context_settings={"help_option_names": ["-h", "--help"]})
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
@click.option("--hands", callback=_ints, default="0-6", show_default=True,
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
    from ..studies import standard

    execution = get_execution(jobs, dask)
    stem = _outputs("standard", csv_path, stem, force)
    rows = standard.run(csv_path, seed, count, hands, methods, maximize, least, int(colors),
                        time_limit, progress, execution)
    _finish(standard, rows, stem, force, seed=seed, c=int(colors))


@study.command("random", cls=StudyCommand)
@common_options("random", 40)
@click.option("--param", type=click.Choice(["h", "density"]), default="h", show_default=True,
              help="Control parameter: hand size h, or cards per kind N/(n c).")
@click.option("--points", callback=_floats, default="0-12", show_default=True,
              help="Values of the control parameter, e.g. 0-12 or 1,2,3.5,5.")
@click.option("--n", "n", type=click.IntRange(min=1), default=6, show_default=True, help="Values n.")
@click.option("--c", "c", type=click.IntRange(min=1), default=5, show_default=True, help="Colors c.")
@click.option("--r", "r", type=click.IntRange(min=1), default=3, show_default=True,
              help="Copies per card drawn from 1..r (--param h).")
@click.option("--hand", type=click.IntRange(min=0), default=2, show_default=True,
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
    from ..studies import random_decks

    execution = get_execution(jobs, dask)
    if param == "h" and any(x != int(x) or x < 0 for x in points):
        raise HanabiError(f"--points: hand sizes must be integers >= 0, found {points}")
    if param == "density" and any(x <= 0 for x in points):
        raise HanabiError(f"--points: densities must be > 0, found {points}")
    check_kinds(n, c, "study random --n, --c")
    check_cards(n * c * r if param == "h" else round(max(points) * n * c),
                "study random: the largest deck", option=None)
    stem = _outputs("random", csv_path, stem, force)
    rows = random_decks.run(csv_path, seed, count, param, points, n, c, r, hand,
                            methods, time_limit, progress, execution)
    fields = {"seed": seed, "param": param, "n": n, "c": c}
    fields.update({"r": r} if param == "h" else {"h": hand})
    _finish(random_decks, rows, stem, force, **fields)


@study.command("reduction", cls=StudyCommand)
@common_options("reduction", 3)
@click.option("--vars", "points", callback=_ints, default="3-6", show_default=True,
              help="Numbers of variables v.")
@click.option("--ratio", type=click.FloatRange(min=0, min_open=True), default=4.26,
              show_default=True, help="Clauses per variable.")
def study_reduction(seed, count, methods, time_limit, csv_path, stem, force, progress, jobs,
                    dask, points, ratio):
    """Random 3-SAT near the threshold: solve time of the reduction image (h = 2) per
    method against CaDiCaL on the formula, and their ratio, against v.

    \b
    Example:
      hanabi-cp study reduction --vars 3-6 --count 3
    """
    from ..reduction.size import random_image_size
    from ..studies import reduction

    execution = get_execution(jobs, dask)
    v = max(points)
    check_cards(random_image_size(v, max(1, round(ratio * v))).cards,
                f"study reduction --vars {v}: the image", option=None)
    stem = _outputs("reduction", csv_path, stem, force)
    rows = reduction.run(csv_path, seed, count, points, ratio, methods, time_limit, progress,
                         execution)
    _finish(reduction, rows, stem, force, seed=seed, ratio=ratio)


COMMANDS = [study]
