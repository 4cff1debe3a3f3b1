"""--jobs N and --dask ADDRESS give the rows of the serial run (hanabi_cp.runtime.executors).

The dask tests run a real scheduler and workers (`dask scheduler`, `dask worker`) as
subprocesses on 127.0.0.1; they are skipped if the optional extra is absent.  Waits
poll files (never a timed assertion); timeouts only guard against a hang."""

import csv
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from hanabi_cp.cli.main import main
from hanabi_cp.runtime.executors import Execution, WorkerLost, execution, run_tasks
from hanabi_cp.apps.generators import random_deck

import slow_tasks

HERE = os.path.dirname(os.path.abspath(__file__))
HANG_GUARD = 120
CLI = [sys.executable, "-m", "hanabi_cp"]
DASK_BIN = shutil.which("dask", path=os.path.dirname(sys.executable)) or shutil.which("dask")

# Under pytest-xdist (make test: --dist loadgroup) this module runs on one worker: its
# module fixtures (the serial runs, the dask cluster) are made once, and its pools and
# cluster (two processes each) do not run beside each other.
pytestmark = pytest.mark.xdist_group("parallel")


def invoke(args):
    res = CliRunner().invoke(main, [str(a) for a in args])
    assert res.exit_code == 0, (args, res.output, res.exception)
    return res


def table(path) -> list[dict]:
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def same_rows(path) -> list[tuple]:
    """The rows without their timings, sorted: what every run of a sweep reproduces
    (a parallel run writes its rows in the order they finish)."""
    return sorted(tuple((k, v) for k, v in r.items() if not k.endswith("seconds"))
                  for r in table(path))


@pytest.fixture(scope="module")
def formulas(tmp_path_factory):
    folder = tmp_path_factory.mktemp("formulas")
    invoke(["generate", "--cnf", "--vars", "5", "--clauses", "21", "--count", "6", "--seed", "3",
            "-o", folder])
    return folder


def sweeps(tmp_path, formulas):
    """roundtrip, harness (decks and CNF round trips) and study random, as argv lists
    writing CSV files under ``tmp_path``/NAME."""
    return {
        "roundtrip": ["roundtrip", formulas, "--csv", "{dir}/rt.csv"],
        "harness": ["harness", "--seed", 5, "--count", 30, "--max-n", 3, "--methods",
                    "sat,dp,brute,search", "--cnf-count", 3,
                    "--cnf-variants", "--no-progress", "--csv", "{dir}/h.csv", "--out", "{dir}/out"],
        "study": ["study", "random", "--param", "h", "--points", "0-2", "--n", 3, "--c", 3,
                  "--r", 2, "--count", 3, "--methods", "sat,dp", "--no-progress",
                  "--csv", "{dir}/s.csv"],
    }


def run_sweep(argv, folder, extra=()):
    os.makedirs(folder, exist_ok=True)
    args = [str(a).format(dir=folder) for a in argv] + list(extra)
    return invoke(args)


def report_lines(output: str) -> list[str]:
    """The report without timings or paths: method tallies (all but the seconds column)
    and the verdict lines."""
    out = []
    for line in output.splitlines():
        if line.startswith("c rows:") or line.startswith("c wrote"):
            continue
        out.append(" ".join(w for w in line.split() if not w.replace(".", "").isdigit()
                            or "." not in w))
    return out


CSV_NAME = {"roundtrip": "rt.csv", "harness": "h.csv", "study": "s.csv"}


@pytest.fixture(scope="module")
def serial(tmp_path_factory, formulas):
    """The --jobs 1 run of each sweep, made once: name -> (rows, report lines)."""
    runs: dict = {}

    def get(name):
        if name not in runs:
            folder = tmp_path_factory.mktemp("serial")
            res = run_sweep(sweeps(folder, formulas)[name], folder)
            runs[name] = same_rows(folder / CSV_NAME[name]), report_lines(res.stdout)
        return runs[name]
    return get


def compare(tmp_path, formulas, serial, name, extra):
    want, report = serial(name)
    other = run_sweep(sweeps(tmp_path, formulas)[name], tmp_path, extra)
    assert want and same_rows(tmp_path / CSV_NAME[name]) == want
    if name != "study":      # a study's summary is a table of timings
        assert report_lines(other.stdout) == report
    return other


@pytest.mark.parametrize("name", ["roundtrip", "harness", "study"])
def test_two_jobs_give_the_rows_of_one(tmp_path, formulas, serial, name):
    compare(tmp_path, formulas, serial, name, ["--jobs", "2"])


def test_resume_with_jobs_completes_a_serial_csv(tmp_path, formulas):
    argv = sweeps(tmp_path, formulas)["roundtrip"]
    run_sweep(argv, tmp_path / "ref")
    os.makedirs(tmp_path / "part")
    with open(tmp_path / "ref" / "rt.csv") as fh:
        lines = fh.readlines()
    (tmp_path / "part" / "rt.csv").write_text("".join(lines[:3]))     # header and two rows
    res = run_sweep(argv, tmp_path / "part", ["--jobs", "2"])
    assert f"({len(lines) - 3} new)" in res.stdout
    assert same_rows(tmp_path / "part" / "rt.csv") == same_rows(tmp_path / "ref" / "rt.csv")


def test_options_are_checked_before_any_work(tmp_path, monkeypatch):
    res = CliRunner().invoke(main, ["roundtrip", str(tmp_path), "--jobs", "2", "--dask",
                                    "tcp://127.0.0.1:1"])
    assert res.exit_code == 2 and "exclude each other" in res.stderr
    assert execution(0).jobs >= 1 and execution(1).serial
    import builtins
    real_import = builtins.__import__

    def no_dask(name, *args, **kwargs):
        if name.split(".")[0] in ("distributed", "dask"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_dask)
    res = CliRunner().invoke(main, ["study", "random", "--dask", "tcp://127.0.0.1:1"])
    assert res.exit_code == 2 and len(res.stderr.splitlines()) == 1
    assert "pip install '.[dask]'" in res.stderr


def test_shrunk_counterexamples_are_those_of_the_serial_run(tmp_path):
    from hanabi_cp.apps.harness import Space, cross_check, failure_text, select_checks

    checks = select_checks(["sat"], maximize=False) + select_checks(
        ["sat-minus-one"], [slow_tasks.planted_bug()], maximize=False)
    texts = []
    for name, run in (("serial", Execution()), ("jobs", Execution(jobs=2))):
        out = tmp_path / name
        report = cross_check(11, 150, Space(max_n=3), checks, out_dir=str(out), execution=run)
        assert len(report.failures) > 3
        files = {f: (out / f).read_text().replace(str(out), "OUT") for f in sorted(os.listdir(out))}
        texts.append(([failure_text(f).replace(str(out), "OUT") for f in report.failures], files))
    assert texts[0] == texts[1] and len(texts[0][1]) == 6     # three shrunk, a deck and a script each


def decks(count):
    rng = random.Random(11)
    return [random_deck(rng, 4, 3, 2) for _ in range(count)]


def expected(cases):
    from hanabi_cp.solitaire.solve import solve
    return {i: (i, solve(d, 2, "sat").status.value) for i, d in enumerate(cases)}


def killed_mid_task(tmp_path, run: Execution, pause: float, kill_first: bool = True):
    """Run slow tasks on ``run``; SIGKILL the worker of the first task to start while
    it sleeps in it; return the results and the pid killed."""
    markers = tmp_path / "markers"
    markers.mkdir()
    cases = decks(4)
    got, killed = {}, None
    tasks = [(str(markers), i, d, 2, pause) for i, d in enumerate(cases)]
    with run_tasks(slow_tasks.slow_decide, tasks, run) as done:
        deadline = time.monotonic() + HANG_GUARD
        while killed is None and time.monotonic() < deadline:
            first = slow_tasks.started(str(markers))
            if first:
                killed = first[0][1]
                os.kill(killed, signal.SIGKILL)
            time.sleep(0.02)
        for index, value in done:
            assert index not in got
            got[index] = value
    assert got == expected(cases)
    # The task of the killed worker was mid-way (it did not answer): it ran again elsewhere.
    runs = slow_tasks.started(str(markers))
    lost = [index for index, pid in runs if pid == killed]
    assert len(lost) == 1 and len([pid for index, pid in runs if index == lost[0]]) == 2
    return killed


def test_a_killed_pool_worker_is_survived(tmp_path):
    killed = killed_mid_task(tmp_path, Execution(jobs=2), pause=1.0)
    assert killed is not None


def test_a_task_that_always_kills_its_worker_ends_the_run_in_one_line():
    with pytest.raises(WorkerLost, match="died 4 times"), \
            run_tasks(slow_tasks.die, [(3,)], Execution(jobs=2)) as done:
        list(done)


def test_interrupted_jobs_run_exits_cleanly_and_stops_its_workers(tmp_path, formulas):
    psutil = pytest.importorskip("psutil")
    args = CLI + ["roundtrip", str(formulas), "--jobs", "2", "--csv", "rt.csv"]
    # A session of its own, signalled as a whole: what Ctrl-C at a terminal does.
    proc = subprocess.Popen(args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    workers: set = set()
    try:
        while proc.poll() is None:
            workers |= {p.pid for p in psutil.Process(proc.pid).children(recursive=True)}
            if os.path.exists(tmp_path / "rt.csv") and (tmp_path / "rt.csv").read_text().count("\n") > 1:
                break
            time.sleep(0.01)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=HANG_GUARD)
    finally:
        proc.kill()
    assert proc.returncode == 130, (out, err)
    assert out.splitlines()[-1] == "c interrupted" and "Traceback" not in err
    rows = table(tmp_path / "rt.csv")
    assert 1 <= len(rows) < 6
    assert workers, "the pool's processes were seen"
    gone, alive = psutil.wait_procs([psutil.Process(p) for p in workers if psutil.pid_exists(p)],
                                    timeout=HANG_GUARD)
    assert not alive
    again = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=HANG_GUARD)
    assert again.returncode == 0 and "roundtrip: 6 of 6 formulas agree" in again.stdout, again.stderr


# -- a real dask cluster on 127.0.0.1 -------------------------------------------------

@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    pytest.importorskip("distributed", reason="the dask extra is not installed "
                                              "(pip install '.[dask]' from a clone)")
    if DASK_BIN is None:
        pytest.skip("the `dask` command is not installed (pip install '.[dask]' from a clone)")
    folder = tmp_path_factory.mktemp("dask")
    info = folder / "scheduler.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([HERE, os.environ.get("PYTHONPATH", "")])}
    procs = [subprocess.Popen([DASK_BIN, "scheduler", "--host", "127.0.0.1", "--port", "0",
                               "--no-dashboard", "--scheduler-file", str(info)],
                              cwd=folder, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)]
    try:
        deadline = time.monotonic() + HANG_GUARD
        while not info.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.1)
        address = json.loads(info.read_text())["address"]
        for k in range(2):
            procs.append(subprocess.Popen(
                [DASK_BIN, "worker", address, "--host", "127.0.0.1", "--nthreads", "1",
                 "--no-nanny", "--no-dashboard", "--name", f"w{k}"], cwd=folder, env=env,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        from distributed import Client
        with Client(address, timeout=HANG_GUARD) as client:
            client.wait_for_workers(2, timeout=HANG_GUARD)
        yield address
    finally:
        for p in reversed(procs):      # no nannies: nothing is left behind
            p.kill()
            p.wait()


@pytest.mark.parametrize("name", ["roundtrip", "harness", "study"])
def test_dask_gives_the_rows_of_one_job(tmp_path, formulas, serial, cluster, name):
    compare(tmp_path, formulas, serial, name, ["--dask", cluster])


def test_a_killed_dask_worker_is_survived(tmp_path, cluster):
    killed = killed_mid_task(tmp_path, Execution(dask=cluster), pause=1.0)
    assert killed is not None


def test_an_unreachable_scheduler_is_one_line(formulas):
    pytest.importorskip("distributed")
    import socket
    with socket.socket() as s:      # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    res = CliRunner().invoke(main, ["roundtrip", str(formulas), "--dask", f"tcp://127.0.0.1:{port}"])
    assert res.exit_code == 2 and len(res.stderr.splitlines()) == 1
    assert f"--dask tcp://127.0.0.1:{port}: cannot connect to a dask scheduler" in res.stderr


def test_the_scheduler_check_works_inside_a_running_event_loop(cluster):
    """As in a notebook: the handshake must not need the caller's thread free of a loop."""
    import asyncio

    from hanabi_cp.runtime.executors import _handshake

    async def inside():
        _handshake(cluster)

    asyncio.run(inside())


def test_a_listener_that_is_not_dask_is_one_line(formulas):
    """An HTTP server at ADDRESS: dask's client would read its reply as a frame of
    exabytes (MemoryError, then a 20 s wait on exit); the handshake alone refuses it."""
    pytest.importorskip("distributed")
    import socket
    import threading

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(4)
    port = srv.getsockname()[1]

    def answer_http():
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            with conn:
                try:
                    conn.recv(65536)
                    conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                except OSError:
                    pass

    threading.Thread(target=answer_http, daemon=True).start()
    try:
        res = CliRunner().invoke(main, ["roundtrip", str(formulas), "--dask",
                                        f"tcp://127.0.0.1:{port}"])
    finally:
        srv.close()
    assert res.exit_code == 2 and len(res.stderr.splitlines()) == 1, res.output
    assert f"--dask tcp://127.0.0.1:{port}: no dask scheduler answers there" in res.stderr


# -- study hard: the climb's steps depend on each other -------------------------------

class Ahead:
    """A TaskPool that runs its tasks here but tells the climb it is ``width`` wide, so
    the climb guesses ``width - 1`` steps ahead; it counts the decks evaluated."""

    def __init__(self, width):
        from hanabi_cp.runtime.executors import TaskPool
        self.inner, self.width, self.evaluated = TaskPool(Execution()), width, 0

    def run(self, func, tasks, window=None):
        tasks = list(tasks)
        self.evaluated += len(tasks)
        return self.inner.run(func, tasks)


@pytest.mark.parametrize("exact", [True, False])
def test_the_climb_guessing_ahead_writes_the_serial_trace(tmp_path, exact):
    from hanabi_cp.apps.studies import hard

    args = dict(seed=4, sizes=[(3, 2, 1), (2, 2, 2)], r=2, exact=exact, method="search",
                steps=120, random_count=6, patience=12)
    hard.run(str(tmp_path / "serial.csv"), **args)
    want = (tmp_path / "serial.csv").read_text()
    trace = [r for r in table(tmp_path / "serial.csv") if r["phase"] == "search"]
    steps = len(trace)
    assert steps == 240 and sum(r["move"] == "restart" for r in trace) > 2
    for width in (2, 3, 7):
        pool = Ahead(width)
        hard.run(str(tmp_path / f"w{width}.csv"), pool=pool, **args)
        assert (tmp_path / f"w{width}.csv").read_text() == want       # same rows, same order
        # Some guesses were wrong (evaluated, then not used), and still the same trace.
        assert pool.evaluated > steps + 12
    # A serial CSV cut short is completed by a wide run, as by a serial one.
    lines = want.splitlines(keepends=True)
    (tmp_path / "part.csv").write_text("".join(lines[:40]))
    hard.run(str(tmp_path / "part.csv"), pool=Ahead(3), **args)
    assert (tmp_path / "part.csv").read_text() == want


def hard_sweep(folder):
    return ["study", "hard", "--n", "2,3", "--c", "2", "--r", "2", "--copies", "upto",
            "--hand", "1", "--steps", "40", "--patience", "8", "--random", "6",
            "--keep", "2", "--no-progress",
            "--csv", f"{folder}/h.csv", "--out", f"{folder}/out"]


@pytest.fixture(scope="module")
def hard_serial(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hard")
    res = invoke(hard_sweep(folder))
    return folder, report_lines(res.stdout)


def same_hard_run(tmp_path, hard_serial, extra):
    folder, report = hard_serial
    res = invoke(hard_sweep(tmp_path) + extra)
    assert (tmp_path / "h.csv").read_text() == (folder / "h.csv").read_text()
    assert report_lines(res.stdout) == report
    names = sorted(os.listdir(folder / "out"))
    assert names and sorted(os.listdir(tmp_path / "out")) == names
    for name in names:
        assert (tmp_path / "out" / name).read_text() == (folder / "out" / name).read_text()


def test_study_hard_with_two_jobs_gives_the_serial_rows_and_decks(tmp_path, hard_serial):
    same_hard_run(tmp_path, hard_serial, ["--jobs", "2"])


def test_study_hard_on_dask_gives_the_serial_rows_and_decks(tmp_path, hard_serial, cluster):
    same_hard_run(tmp_path, hard_serial, ["--dask", cluster])


# -- harness --rules live: the counterexample of the final round ------------------------

def live_sweep(folder):
    # --lift clues keeps the final round, where journal §5.1 fails: a few disagreements,
    # the first three shrunk (in the command's process) and written.
    return ["harness", "--rules", "live", "--seed", "1", "--count", "24", "--methods", "brute",
            "--lift", "clues", "--no-maximize", "--no-progress", "--csv", f"{folder}/h.csv",
            "--out", f"{folder}/out"]


def live_run(folder, extra=()):
    res = CliRunner().invoke(main, live_sweep(folder) + list(extra))
    assert res.exit_code == 1 and "DISAGREEMENT" in res.output, (res.output, res.exception)
    out = folder / "out"
    files = {f: (out / f).read_text().replace(str(folder), "DIR") for f in sorted(os.listdir(out))}
    return same_rows(folder / "h.csv"), report_lines(res.stdout.replace(str(folder), "DIR")), files


@pytest.fixture(scope="module")
def live_serial(tmp_path_factory):
    return live_run(tmp_path_factory.mktemp("live"))


def test_live_harness_with_two_jobs_gives_the_serial_rows_and_counterexamples(tmp_path,
                                                                              live_serial):
    rows, report, files = live_serial
    assert rows and len(files) == 6 and any("shrunk to" in line for line in report)
    assert live_run(tmp_path, ["--jobs", "2"]) == live_serial


# Slow tier: the normal run keeps this sweep with --jobs 2 (above) and the dask runs of
# the other sweeps (roundtrip, harness, study, study hard) on the same cluster.
@pytest.mark.slow
def test_live_harness_on_dask_gives_the_serial_rows_and_counterexamples(tmp_path, live_serial,
                                                                        cluster):
    assert live_run(tmp_path, ["--dask", cluster]) == live_serial
