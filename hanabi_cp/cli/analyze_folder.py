"""``hanabi-cp analyze DIR``: the post-mortems of a folder of games, to a CSV and a
summary table; a refused game is named and the others go on (exit 3 at the end)."""

from __future__ import annotations

import click

from ..core.errors import UsageError
from ..io.outputs import check_outputs
from ..runtime.deadline import Deadline
from .common import flag_names
from .execution_options import get_execution


def analyze_folder(folder: str, csv_path: str | None, summary: bool, method: str,
                   position_limit: float | None, deadline: Deadline, progress: bool,
                   jobs, dask, players: int | None, force: bool, single: dict) -> None:
    """The folder branch of ``analyze``; ``single`` holds the options that go with
    one GAME file only (any given is an error)."""
    from ..apps.studies.game_folders import EXIT_REFUSED, run_folder, summary_rows
    if csv_path is None and not summary:
        raise UsageError("analyze: a folder of games needs --csv OUT.csv (the rows are "
                         "the result) or --summary (the table)")
    given = [flag for flag, value in single.items() if value]
    if given:
        verb = "goes" if len(given) == 1 else "go"
        raise UsageError(f"analyze: {', '.join(given)} {verb} with one GAME file, not a folder")
    if csv_path == "-":
        raise UsageError("analyze: --csv - is not possible with a folder: a rerun resumes "
                         "from its CSV file")
    if csv_path is not None:
        check_outputs("analyze", {"--csv": csv_path}, force, appended=["--csv"],
                      dirs_made=["--csv"])
    ctx = click.get_current_context()
    run = run_folder(folder, csv_path, method, position_limit, progress,
                     get_execution(jobs, dask), players, deadline, flag_names(ctx.command))
    new = f"{run.analysed} analysed now"
    where = f"; rows: {len(run.table.rows)} in {csv_path} ({run.added} new)" \
        if run.table is not None else ""
    click.echo(f"c games: {run.games} in {folder} ({new}, {len(run.refused)} refused)"
               f"{where}")
    if summary and run.rows:
        from ..apps.studies.loss_table import summary as table
        click.echo(table(summary_rows(run), group="folder", score="mean score", split=True))
    if run.time_up is not None:
        left = (f"{run.not_reached} games not reached" if run.games
                else "the folder was not listed to the end")
        click.echo(f"c {run.time_up}: {left} (not written; a rerun resumes)")
    for name, reason in run.refused:
        click.echo(f"c refused: {name}: {reason}")
    if run.refused:
        click.echo(f"c {len(run.refused)} of {run.games} games refused (exit {EXIT_REFUSED})")
        ctx.exit(EXIT_REFUSED)
