"""Ctrl-C and SIGTERM sent to a real `hanabi-cp` process: exit 130 / 143 with
`c interrupted`, every CSV row written is a row of the uninterrupted run, and a rerun
completes the CSV to exactly the uninterrupted one.  Waits poll files and pipes
(never a timed assertion); `communicate`'s timeout only guards against a hang."""

import csv
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from click.testing import CliRunner

from hanabi_cp.cli import main
from hanabi_cp.apps.studies import standard

HANG_GUARD = 120     # seconds; a correct run takes a fraction of one
CLI = [sys.executable, "-m", "hanabi_cp"]


def table(path) -> list[dict]:
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def deterministic(rows, volatile=("seconds", "version")) -> set[tuple]:
    """The columns that an uninterrupted rerun reproduces exactly (not timings)."""
    return {tuple((k, v) for k, v in r.items() if k not in volatile and not k.endswith("seconds"))
            for r in rows}


def interrupt_when(args, cwd, csv_path, rows: int, sig=signal.SIGINT):
    """Start the CLI, wait until ``csv_path`` holds ``rows`` complete rows, send ``sig``."""
    proc = subprocess.Popen(CLI + args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        while proc.poll() is None:
            if os.path.exists(csv_path):
                with open(csv_path) as fh:
                    if fh.read().count("\n") > rows:
                        break
            time.sleep(0.01)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=HANG_GUARD)
    finally:
        proc.kill()
    return proc.returncode, out, err


def complete_lines(path) -> None:
    with open(path) as fh:
        text = fh.read()
    assert text.endswith("\n")
    width = len(text.splitlines()[0].split(","))
    assert all(len(row) == width for row in csv.reader(text.splitlines()))


STUDY = ["study", "standard", "--seed", "4", "--count", "10", "--hands", "2,4",
         "--no-progress"]


def test_interrupted_study_keeps_only_true_rows_and_resumes(tmp_path):
    # The same sweep as STUDY (default methods, maximize and min-hand), uninterrupted.
    want = standard.run(str(tmp_path / "reference.csv"), seed=4, count=10, hands=[2, 4]).rows

    returncode, out, err = interrupt_when(STUDY + ["--csv", "s.csv"], tmp_path,
                                          tmp_path / "s.csv", rows=4)
    assert returncode == 130, (out, err)
    assert out.splitlines()[-1] == "c interrupted" and "Traceback" not in err
    complete_lines(tmp_path / "s.csv")
    got = table(tmp_path / "s.csv")
    assert 4 <= len(got) < len(want), "the signal must land mid-run"
    assert deterministic(got) <= deterministic(want)
    assert not (tmp_path / "s.png").exists()      # no figure of a partial sweep

    again = subprocess.run(CLI + STUDY + ["--csv", "s.csv"], cwd=tmp_path, capture_output=True,
                           text=True, timeout=HANG_GUARD)
    assert again.returncode == 0, again.stderr
    assert f"({len(want) - len(got)} new)" in again.stdout
    final = table(tmp_path / "s.csv")
    assert len(final) == len(want) and deterministic(final) == deterministic(want)
    assert (tmp_path / "s.png").exists() and (tmp_path / "s.svg").exists()


def test_interrupted_roundtrip_keeps_finished_formulas_and_resumes(tmp_path):
    formulas = tmp_path / "formulas"
    res = CliRunner().invoke(main, ["generate", "cnf", "--vars", "5", "--clauses", "21",
                                    "--count", "20", "--seed", "1", "-o", str(formulas)])
    assert res.exit_code == 0, res.output
    reference = tmp_path / "reference.csv"
    res = CliRunner().invoke(main, ["roundtrip", str(formulas), "--csv", str(reference)])
    assert res.exit_code == 0, res.output
    want = table(reference)

    args = ["roundtrip", "formulas", "--csv", "rt.csv"]
    returncode, out, err = interrupt_when(args, tmp_path, tmp_path / "rt.csv", rows=2)
    assert returncode == 130, (out, err)
    assert out.splitlines()[-1] == "c interrupted" and "Traceback" not in err
    complete_lines(tmp_path / "rt.csv")
    got = table(tmp_path / "rt.csv")
    assert 2 <= len(got) < len(want)
    assert deterministic(got) <= deterministic(want)

    again = subprocess.run(CLI + args, cwd=tmp_path, capture_output=True, text=True,
                           timeout=HANG_GUARD)
    assert again.returncode == 0, again.stderr
    assert f"roundtrip: {len(want)} of {len(want)} formulas agree" in again.stdout
    final = table(tmp_path / "rt.csv")
    assert [r["file"] for r in final] == [r["file"] for r in want]
    assert deterministic(final) == deterministic(want)


def test_terminated_harness_resumes_to_the_same_report(tmp_path):
    args = ["harness", "--seed", "2", "--count", "60", "--max-n", "3", "--methods",
            "sat,brute,dp", "--no-progress", "--out", "out"]
    reference = CliRunner().invoke(main, args + ["--csv", str(tmp_path / "reference.csv")])
    assert reference.exit_code == 0, reference.output
    want = table(tmp_path / "reference.csv")

    returncode, out, err = interrupt_when(args + ["--csv", "h.csv"], tmp_path,
                                          tmp_path / "h.csv", rows=6, sig=signal.SIGTERM)
    assert returncode == 143 and out.splitlines()[-1] == "c interrupted", (out, err)
    got = table(tmp_path / "h.csv")
    assert len(got) < len(want) and deterministic(got) <= deterministic(want)

    again = subprocess.run(CLI + args + ["--csv", "h.csv"], cwd=tmp_path, capture_output=True,
                           text=True, timeout=HANG_GUARD)
    assert again.returncode == 0, again.stderr
    assert deterministic(table(tmp_path / "h.csv")) == deterministic(want)
    # The tally table (run, verdict counts; not the seconds) is the uninterrupted one.
    tally = [line.split()[:7] for line in reference.output.splitlines() if "+max" in line]
    assert tally and tally == [line.split()[:7] for line in again.stdout.splitlines()
                               if "+max" in line]


class Terminal:
    """A pseudo-terminal for a child's stderr, read as it comes (a pty drops what is
    left unread when the child exits): where hanabi_cp/core/progress.py draws its live bar
    at once, not the plain lines it writes to a pipe after some seconds."""

    def __init__(self):
        import fcntl
        import struct
        import termios
        import threading

        self.leader, self.follower = os.openpty()
        fcntl.ioctl(self.follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
        self.chunks: list[bytes] = []
        self.started = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while True:
            try:
                data = os.read(self.leader, 65536)
            except OSError:             # EIO: every writer has closed its side
                data = b""
            if not data:
                self.started.set()
                return
            self.chunks.append(data)
            self.started.set()

    def text(self) -> str:
        self.reader.join(timeout=HANG_GUARD)
        os.close(self.leader)
        return b"".join(self.chunks).decode(errors="replace")


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_signal_during_a_long_cadical_call(tmp_path, sig, code):
    # CaDiCaL needs about two minutes for this formula (v = 300 at the threshold),
    # the first thing the study times; the progress bar appears just before (stderr is
    # a terminal here, so the bar is drawn at once).
    tty = Terminal()
    proc = subprocess.Popen(CLI + ["study", "reduction", "--vars", "300", "--count", "1",
                                   "--methods", "sat", "--csv", "r.csv"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=tty.follower,
                            text=True)
    os.close(tty.follower)
    try:
        assert tty.started.wait(HANG_GUARD) and tty.chunks   # the bar: the formula is being generated
        time.sleep(0.5)                     # ... and is now in CaDiCaL
        proc.send_signal(sig)
        out, _ = proc.communicate(timeout=HANG_GUARD)
    finally:
        proc.kill()
    err = tty.text()
    assert proc.returncode == code, (out, err)
    assert out == "c interrupted\n" and "Traceback" not in err
    assert not (tmp_path / "r.csv").exists()


NATIVE = textwrap.dedent("""
    import os, random, sys
    from ortools.sat.python import cp_model
    from hanabi_cp.runtime import interrupts
    from hanabi_cp.io.outputs import open_output

    interrupts.install()
    rng, n = random.Random(1), 600       # random 3-SAT at the threshold: minutes for CP-SAT
    model = cp_model.CpModel()
    x = [model.new_bool_var(f"x{i}") for i in range(n)]
    for _ in range(round(4.26 * n)):
        model.add_bool_or([x[v] if rng.random() < 0.5 else x[v].Not()
                           for v in rng.sample(range(n), 3)])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.cp_model_presolve = False
    solver.parameters.catch_sigint_signal = False     # as solitaire/methods/cpsat.py sets it
    with open_output(sys.argv[1]) as out:             # a temporary file, renamed at the end
        out.write("partial")
        print("solving", flush=True)
        solver.solve(model)
        print("s", solver.status_name(), flush=True)
""")


@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_signal_during_a_long_cpsat_solve_ends_within_the_grace_period(tmp_path, sig, code):
    """The main thread sits in CP-SAT's native solve, where Python cannot run its
    handler: the watchdog ends the process after the grace period, deleting the
    temporary output file."""
    script = tmp_path / "native.py"
    script.write_text(NATIVE)
    proc = subprocess.Popen([sys.executable, str(script), str(tmp_path / "out.txt")],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout.readline() == "solving\n"
        time.sleep(0.2)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=HANG_GUARD)
    finally:
        proc.kill()
    assert proc.returncode == code, (out, err)
    assert out == "c interrupted\n" and err == ""
    assert sorted(os.listdir(tmp_path)) == ["native.py"]     # no out.txt, no temporary


FORKED_HELPER = textwrap.dedent("""
    import multiprocessing, time
    from hanabi_cp.runtime import interrupts

    def helper(started):
        started.set()
        time.sleep(60)

    if __name__ == "__main__":
        interrupts.install()
        multiprocessing.set_start_method("fork")
        started = multiprocessing.Event()
        p = multiprocessing.Process(target=helper, args=(started,))
        p.start()
        started.wait()
        p.terminate()           # SIGTERM to the helper alone (as a deadline kill would)
        p.join()
        time.sleep(2 * interrupts.GRACE_SECONDS)
        print("alive", p.exitcode, flush=True)
""")


def test_a_forked_helper_killed_alone_does_not_end_its_parent(tmp_path):
    """A forked child shares the wakeup pipe; it must forget it, or its own SIGTERM
    would wake this process's watchdog."""
    script = tmp_path / "fork.py"
    script.write_text(FORKED_HELPER)
    res = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=HANG_GUARD)
    assert res.returncode == 0 and res.stdout == "alive -15\n", (res.stdout, res.stderr)


IN_A_FINALIZER = textwrap.dedent("""
    import os, signal, sys, time
    from hanabi_cp.runtime import interrupts
    interrupts.install()

    class Held:
        def __del__(self):
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):       # Python code: the handler runs in here
                time.sleep(0.0001)

    Held()                              # finalized at once
    try:
        with interrupts.critical():
            pass
        print("not raised", flush=True)
    except interrupts.Interrupted as exc:
        print("raised", exc.exit_code, flush=True)
""")


def test_a_signal_inside_a_finalizer_is_raised_at_the_next_check_without_a_traceback(tmp_path):
    """Raised inside a ``__del__`` (a pysat totalizer's, when the study's loop drops
    it), an Interrupted would be printed with its traceback and lost: it is taken
    back and raised at the next point that asks."""
    script = tmp_path / "finalizer.py"
    script.write_text(IN_A_FINALIZER)
    res = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=HANG_GUARD)
    assert res.stdout == "raised 130\n", (res.stdout, res.stderr)
    assert "Traceback" not in res.stderr and "Exception ignored" not in res.stderr, res.stderr



AROUND_A_SOLVER = textwrap.dedent("""
    import os, signal, sys
    import pysat.solvers
    from hanabi_cp.runtime import interrupts
    from hanabi_cp.solvers.sat_backend import SatSession

    def sigterm():
        os.kill(os.getpid(), signal.SIGTERM)   # its handler runs on the next line

    class Pysolvers:
        # pysat's native module, but a SIGTERM follows the release of a solver, as
        # if it had arrived while the native code freed it; a second release of the
        # same solver is reported instead of crashing the process.
        def __init__(self, real):
            self.real, self.freed = real, []

        def __getattr__(self, name):
            return getattr(self.real, name)

        def cadical195_del(self, solver, *rest):
            if any(solver is gone for gone in self.freed):
                print("freed twice", flush=True)
                return
            self.real.cadical195_del(solver, *rest)
            self.freed.append(solver)
            if where != "construction":
                sigterm()

    where = sys.argv[1]
    pysat.solvers.pysolvers = Pysolvers(pysat.solvers.pysolvers)
    if where == "construction":     # a signal as pysat's __init__ begins
        init = pysat.solvers.Solver.__init__
        def interrupted_init(self, *args, **kwargs):
            sigterm()
            init(self, *args, **kwargs)
        pysat.solvers.Solver.__init__ = interrupted_init
    interrupts.install()
    try:
        if where == "finalizer":    # a solver dropped without its release
            pysat.solvers.Solver(name="cadical195")
        else:
            with SatSession([[1, 2], [-1]], "cadical195") as s:
                s.solve()
        with interrupts.critical():
            pass
        print("not interrupted", flush=True)
    except interrupts.Interrupted as exc:     # what the entry point does
        interrupts.report()
        sys.exit(exc.exit_code)
""")


@pytest.mark.parametrize("where", ["release", "finalizer", "construction"])
def test_a_signal_while_pysat_frees_or_builds_a_solver_waits_for_it(tmp_path, where):
    """Raised between pysat's freeing of a solver and its forgetting of the pointer
    (in SatSession's release or in the solver's ``__del__``), the interrupt left the
    pointer for a ``__del__`` to free again: a segmentation fault after
    ``c interrupted``.  Raised as pysat's ``__init__`` began, it left a solver
    without the attributes its ``__del__`` reads: a traceback on stderr."""
    script = tmp_path / "solver.py"
    script.write_text(AROUND_A_SOLVER)
    res = subprocess.run([sys.executable, str(script), where], capture_output=True,
                         text=True, timeout=HANG_GUARD)
    assert res.returncode == 143, (res.stdout, res.stderr)
    assert res.stdout == "c interrupted\n" and res.stderr == "", (res.stdout, res.stderr)


def test_the_watchdogs_exit_removes_registered_folders_after_their_files(tmp_path):
    """A forced end (``_terminate``: the grace period over, or a second signal)
    deletes the registered files, then the registered folders they were in (a proof
    bundle's folder in the making), and leaves unregistered ones alone."""
    script = tmp_path / "t.py"
    script.write_text(textwrap.dedent(f"""
        import os, signal
        from hanabi_cp.runtime import interrupts
        part, keep = {str(tmp_path / "b.part")!r}, {str(tmp_path / "kept")!r}
        os.mkdir(part); os.mkdir(keep)
        interrupts.register(part)       # the folder before its file: order is not kept
        for name in ("plan-1.cnf", "plan-1.drup"):
            open(os.path.join(part, name), "w").close()
            interrupts.register(os.path.join(part, name))
        interrupts._first = signal.SIGTERM
        interrupts._terminate()
    """))
    res = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=60)
    assert res.returncode == 128 + signal.SIGTERM, res.stderr
    assert sorted(os.listdir(tmp_path)) == ["kept", "t.py"]
