"""Benchmark: wall time of a sweep with --jobs N against the serial run (--jobs 1).

The sweep is the real `hanabi-cp roundtrip` command on the first K formulas of
SATLIB's uf20-91 (instances/, in the repository; each formula is reduced, its image
deck decided by the sat method and the answer checked against CaDiCaL), run as a
child process exactly as a user would, start-up and pool start included.  The runs
alternate (1, N, 1, N, ...) so that a change of the machine's load hits both; each
writes its own CSV, and the rows of every run are checked to be the serial ones
(timings aside).  It prints the wall time of each run, the best and median per
--jobs value, and

    ratio = best wall time with --jobs N / best wall time with --jobs 1

with the cores and the load average before and after (a shared machine: measure
when it is idle, and read the ratio with the load next to it; with Linux's
scheduler autogroups, CPU time is shared between sessions, so on a busy machine a
session's two workers get what its one process got, and the ratio tends to 1).

    .venv/bin/python -m bench.parallel                    # 36 formulas, --jobs 1 and 2, 3 runs each
    .venv/bin/python -m bench.parallel --quick            # 12 formulas, one run each
    .venv/bin/python -m bench.parallel --formulas 60 --jobs 1,2,4 --repeat 5
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

FAMILY = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "instances", "satlib",
                                       "uf20-91"))


def rows(path: str) -> list[tuple]:
    with open(path, newline="") as fh:
        return sorted(tuple((k, v) for k, v in r.items() if not k.endswith("seconds"))
                      for r in csv.DictReader(fh))


def run(folder: str, jobs: int, csv_path: str) -> float:
    argv = [sys.executable, "-m", "hanabi_cp", "roundtrip", folder, "--jobs", str(jobs),
            "--csv", csv_path]
    start = time.monotonic()
    proc = subprocess.run(argv, capture_output=True, text=True)
    wall = time.monotonic() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)}: exit {proc.returncode}\n{proc.stderr[-2000:]}")
    return wall


def autogroup() -> str:
    """Linux's autogroup shares the CPU between sessions, not processes: on a busy
    machine a session's N workers get no more CPU than its one process did."""
    try:
        with open("/proc/sys/kernel/sched_autogroup_enabled") as fh:
            on = fh.read().strip() == "1"
    except OSError:
        return "unknown"
    return "on (the CPU is shared per session, so --jobs only helps when the machine is idle)" \
        if on else "off"


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.2f} (1 min), {five:.2f} (5 min)"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.parallel", description=__doc__.split("\n")[0])
    ap.add_argument("--formulas", type=int, default=36, help="formulas of uf20-91 to round-trip")
    ap.add_argument("--jobs", default="1,2", help="--jobs values to time (the first is the baseline)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per --jobs value")
    ap.add_argument("--quick", action="store_true", help="12 formulas, one run each")
    args = ap.parse_args(argv)
    if args.quick:
        args.formulas, args.repeat = 12, 1
    jobs = [int(j) for j in args.jobs.split(",")]
    from hanabi_cp.runtime.executors import cores

    print(f"cores: {cores()}; load average before: {load()}; sched autogroup: {autogroup()}")
    times: dict[int, list[float]] = {j: [] for j in jobs}
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, "formulas")
        os.makedirs(folder)
        names = sorted(f for f in os.listdir(FAMILY) if f.endswith(".cnf"))[:args.formulas]
        for name in names:
            shutil.copy(os.path.join(FAMILY, name), folder)
        print(f"sweep: hanabi-cp roundtrip on {len(names)} formulas of uf20-91 (method sat)")
        reference = None
        for k in range(args.repeat):
            for j in jobs:
                path = os.path.join(tmp, f"jobs{j}-{k}.csv")
                wall = run(folder, j, path)
                times[j].append(wall)
                got = rows(path)
                if reference is None:
                    reference = got
                elif got != reference:
                    raise SystemExit(f"--jobs {j}: the rows differ from the first run's")
                print(f"run {k + 1}: --jobs {j}: {wall:.2f} s", flush=True)
    print(f"load average after: {load()}")
    print(f"rows: {len(reference or [])} per run, identical across runs (timings aside)")
    base = min(times[jobs[0]])
    for j in jobs:
        best = min(times[j])
        print(f"--jobs {j}: best {best:.2f} s, median {statistics.median(times[j]):.2f} s; "
              f"ratio to --jobs {jobs[0]}: {best / base:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
