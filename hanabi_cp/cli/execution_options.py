"""``--jobs N`` and ``--dask ADDRESS``: where a sweep's tasks run (hanabi_cp.runtime.executors)."""

from __future__ import annotations

import click
from .numbers import Integer


def execution_options(func):
    """Add ``--jobs`` and ``--dask`` (arguments ``jobs``, ``dask``: see get_execution)."""
    func = click.option("--dask", "dask", default=None, metavar="ADDRESS",
                        help="Run the tasks on the dask.distributed scheduler at ADDRESS "
                             "(tcp://host:port; workers need the same hanabi-cp; "
                             "pip install 'hanabi-cp[dask]').")(func)
    func = click.option("--jobs", "jobs", type=Integer(0), default=1, show_default=True,
                        metavar="N",
                        help="Worker processes (0: every core); the rows are those of "
                             "--jobs 1, written in the order they finish.")(func)
    return func


def get_execution(jobs: int, dask: str | None):
    """The Execution of the two options (checks them: one line and exit 2 if wrong)."""
    from ..runtime.executors import execution
    return execution(jobs, dask, note=lambda text: click.echo(f"c note: {text}", err=True))
