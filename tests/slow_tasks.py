"""Tasks for the executor tests that run long enough to be caught mid-task: each
leaves a marker file naming its worker's pid, then decides its deck slowly.
Importable by dask workers started with this folder on PYTHONPATH."""

import os
import time

from hanabi_cp.solvers import SolveOptions, solve


def slow_decide(marker_dir: str, index: int, deck, h: int, pause: float) -> tuple[int, str]:
    with open(os.path.join(marker_dir, f"{index}-{os.getpid()}"), "w"):
        pass
    time.sleep(pause)
    return index, solve(deck, h, "sat", SolveOptions(time_limit=30)).status.value


def started(marker_dir: str) -> list[tuple[int, int]]:
    """(task index, worker pid) of the tasks that have started, in no particular order."""
    return [tuple(map(int, name.split("-"))) for name in os.listdir(marker_dir)]
