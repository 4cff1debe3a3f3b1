"""Helpers of the executor tests, importable by pool workers and by dask workers
started with this folder on PYTHONPATH: a task slow enough to be caught mid-way
(it leaves a marker file naming its worker's pid, then decides its deck slowly),
and a planted wrong method made of top-level functions (so it pickles)."""

import os
import time

from hanabi_cp.core.options import SolveOptions
from hanabi_cp.solitaire.solve import solve


def slow_decide(marker_dir: str, index: int, deck, h: int, pause: float) -> tuple[int, str]:
    with open(os.path.join(marker_dir, f"{index}-{os.getpid()}"), "w"):
        pass
    time.sleep(pause)
    return index, solve(deck, h, "sat", SolveOptions(time_limit=30)).status.value


def started(marker_dir: str) -> list[tuple[int, int]]:
    """(task index, worker pid) of the tasks that have started, in no particular order."""
    return [tuple(map(int, name.split("-"))) for name in os.listdir(marker_dir)]


def sat_minus_one(deck, h, opts):
    """The sat method asked at hand size h - 1: a planted bug that pickles (a
    top-level function), so a pool's workers can run it."""
    from hanabi_cp.solitaire.solve import methods
    return methods()["sat"].run(deck, max(h - 1, 0), opts)


def planted_bug():
    from hanabi_cp.solitaire.solve import Method, methods
    return Method("sat-minus-one", sat_minus_one, "sat with hand h-1 (planted bug)",
                  refuses=methods()["sat"].refuses)


def die(code: int) -> None:
    """A task that kills its worker every time it runs."""
    os._exit(code)
