"""UNSAT proofs: write a DRUP proof beside its CNF and check it independently.

The proof comes from a proof-producing pysat solver (CaDiCaL 1.9.5 with
``with_proof=True``); the check is done by the ``drup`` package (a separate
implementation of RUP/RAT checking), never by the solver that produced it.

>>> import os, tempfile
>>> cnf = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
>>> d = tempfile.mkdtemp()
>>> res = prove_unsat(cnf, 2, os.path.join(d, "p.drup"))
>>> res.unsat, res.valid
(True, True)
>>> check_files(res.cnf_path, res.proof_path)
True
>>> _ = open(res.proof_path, "w").write("0\\n")  # skips the lemmas
>>> check_files(res.cnf_path, res.proof_path)
False
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass

from ..runtime.deadline import NEVER, Deadline, TimeUp
from ..core.errors import FileError, HanabiError, InvalidParameter, MethodRefused
from ..io.outputs import is_write_failure, writing
from .sat_backend import DEFAULT_SOLVER, PROOF_SOLVERS, SatSession
from ..runtime import interrupts

CHECK_PHASE = "the proof check (drup)"
WRITE_CHUNK = 50_000            # lines written between deadline checks


@dataclass(frozen=True)
class ProofResult:
    unsat: bool                 # False: the formula is satisfiable, no proof written
    valid: bool | None          # the checker's verdict (None when satisfiable)
    cnf_path: str | None
    proof_path: str | None
    model: list | None = None   # when satisfiable
    lines: int = 0              # proof lines written


def proof_solver(name: str) -> str:
    """The solver that writes the proof for a user's ``--solver``: it, if a CaDiCaL,
    else the default CaDiCaL (the proof-logging solvers)."""
    return name if name.startswith("cadical") else DEFAULT_SOLVER


def unproved(exc: TimeUp) -> str:
    """The reason of an UNKNOWN whose proof ran out of time (``exc``)."""
    if exc.phase == CHECK_PHASE:
        return (f"proof check did not finish within the time limit of {exc.limit:g} s (the "
                f"SAT solver said unsatisfiable; an unchecked proof is no answer)")
    return str(exc)


def proof_stats(res: ProofResult) -> dict:
    """What an answer's ``stats`` say of its proof."""
    return {"proof": res.proof_path, "proof_cnf": res.cnf_path, "proof_lines": res.lines,
            "proof_checked": res.valid}


def rejected(res: ProofResult) -> str:
    """The reason of an UNKNOWN whose proof drup rejected."""
    return f"SAT solver said unsatisfiable but drup rejected its proof {res.proof_path}"


def cnf_path_for(proof_path: str) -> str:
    """The CNF that a proof refers to is written next to it: ``P.cnf`` for ``P``."""
    return proof_path + ".cnf"


def check_proof_path(proof_path: str) -> None:
    """Refuse a proof path that is a device or a FIFO (``/dev/null``): the proof is
    renamed into place with its CNF beside it (``/dev/null.cnf``), and a rename over
    a device node would replace the device itself."""
    for path in (proof_path, cnf_path_for(proof_path)):
        if os.path.exists(path) and not os.path.isfile(path) and not os.path.isdir(path):
            raise InvalidParameter("{proof} " + proof_path + ": a proof is a regular file "
                                   "written with its CNF beside it (FILE.cnf); "
                                   f"{path} is a device or a FIFO", "proof")


def write_cnf(clauses, num_vars: int, path: str, comments=(), deadline: Deadline = NEVER) -> None:
    with open(path, "w") as out:
        for c in comments:
            out.write(f"c {c}\n")
        out.write(f"p cnf {num_vars} {len(clauses)}\n")
        for i in range(0, len(clauses), WRITE_CHUNK):
            deadline.check("writing the proof's CNF")
            out.write("".join(" ".join(map(str, cl)) + " 0\n"
                              for cl in clauses[i:i + WRITE_CHUNK]))


def write_lines(lines, path: str, deadline: Deadline = NEVER) -> None:
    with open(path, "w") as out:
        for i in range(0, len(lines), WRITE_CHUNK):
            deadline.check("writing the proof")
            out.write("\n".join(lines[i:i + WRITE_CHUNK]) + "\n")


def prove_unsat(clauses, num_vars: int, proof_path: str, solver: str = DEFAULT_SOLVER,
                comments=(), deadline: Deadline = NEVER) -> ProofResult:
    """Solve with proof logging; if unsatisfiable, write CNF + proof and check them.

    Everything, the check included, ends by ``deadline`` (TimeUp).  The two files
    are written under temporary names and renamed only once the checker has
    answered, so a time-out or an error leaves no file behind, and never a partial
    or unchecked proof under the name the user asked for.
    """
    if solver not in PROOF_SOLVERS:
        raise MethodRefused(f"solver {solver!r} cannot write proofs; use one of {', '.join(PROOF_SOLVERS)}")
    if proof_path == "-":      # not stdout: the proof needs its CNF beside it
        raise InvalidParameter("{proof} -: a DRUP proof is written with the CNF it refutes, "
                               "FILE and FILE.cnf; give a file name", "proof")
    check_proof_path(proof_path)
    model, proof = refutation(clauses, solver, deadline, proof_path)
    if proof is None:
        return ProofResult(False, None, None, None, model=model)
    cnf_path = cnf_path_for(proof_path)
    made: list[str] = []
    try:
        tmp_cnf = _temporary(cnf_path, made)
        tmp_proof = _temporary(proof_path, made)
        with writing(cnf_path):
            write_cnf(clauses, num_vars, tmp_cnf, comments, deadline)
        with writing(proof_path):
            write_lines(proof, tmp_proof, deadline)
        lines = len(proof)
        del proof
        valid = check_within(tmp_cnf, tmp_proof, deadline)
        with interrupts.critical():         # both files or neither
            os.replace(tmp_cnf, cnf_path)
            os.replace(tmp_proof, proof_path)
    finally:
        for p in made:
            interrupts.unregister(p)
            if os.path.exists(p):
                os.remove(p)
    return ProofResult(True, valid, cnf_path, proof_path, lines=lines)


def refutation(clauses, solver: str, deadline: Deadline,
               proof_path: str) -> tuple[list | None, list[str] | None]:
    """(model, None) when ``clauses`` are satisfiable, else (None, the DRUP proof's
    lines up to its empty clause), by ``solver`` with proof logging (``proof_path``
    names the proof in the messages)."""
    if solver not in PROOF_SOLVERS:
        raise MethodRefused(f"solver {solver!r} cannot write proofs; use one of "
                            f"{', '.join(PROOF_SOLVERS)}")
    try:
        with SatSession(clauses, solver, deadline, proof=True) as s:
            ok, model, _ = s.solve(phase="SAT search (with proof logging)")
            if ok:
                return model, None
            deadline.check("reading the proof from the SAT solver")
            return None, _to_empty_clause(s.proof())
    except OSError as exc:
        # pysat logs the proof to a file in the temporary directory; a full one fails
        # in tempfile as "No usable temporary directory" (ENOENT), not as ENOSPC.
        if not (is_write_failure(exc) or exc.errno == errno.ENOENT and exc.filename is None):
            raise
        why = exc.strerror if is_write_failure(exc) else "no temporary directory with room"
        raise FileError(f"{proof_path}: cannot write the SAT solver's proof log (kept in the "
                        f"temporary directory, TMPDIR): {why}") from None


def _to_empty_clause(proof: list[str]) -> list[str]:
    """The proof up to its empty clause: CaDiCaL may log deletions after it, which
    drup's parser rejects, and nothing after the empty clause is part of the proof."""
    try:
        return proof[:proof.index("0") + 1]
    except ValueError:
        return proof


def _temporary(path: str, made: list[str]) -> str:
    """A fresh file name beside ``path`` (same file system, so the rename is atomic)."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".", suffix=".part",
                                   dir=os.path.dirname(os.path.abspath(path)))
    except OSError as exc:
        raise FileError(f"{path}: cannot write: {exc.strerror or exc}") from None
    made.append(tmp)
    interrupts.register(tmp)            # removed if a signal has to end the process
    umask = os.umask(0)
    os.umask(umask)
    os.fchmod(fd, 0o666 & ~umask)       # as open() would have made it, not mkstemp's 0600
    os.close(fd)
    return tmp


def checker_command(cnf_path: str, proof_path: str, *more: str) -> list[str]:
    """The command line of the checker process (tests replace it); ``more``: further
    (CNF, proof) pairs."""
    return [sys.executable, "-m", "hanabi_cp.solvers.proofs", cnf_path, proof_path, *more]


def check_within(cnf_path: str, proof_path: str, deadline: Deadline = NEVER) -> bool:
    """``check_files`` in a child process that is killed at ``deadline`` (TimeUp).

    drup checks in native code that cannot be interrupted from Python, and a proof
    of a few ten thousand lemmas can take minutes: only a process can be stopped.
    """
    deadline.check(CHECK_PHASE)
    timeout = deadline.remaining() if deadline.bounded else None
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ)
    env["PYTHONPATH"] = here + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    try:
        done = subprocess.run(checker_command(cnf_path, proof_path), capture_output=True,
                              text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        raise TimeUp(deadline.limit, CHECK_PHASE) from None
    if done.returncode in (0, 1):
        return done.returncode == 0
    last = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
    raise FileError(f"{proof_path}: the proof checker failed: {last}")


def first_rejected_within(pairs: list[tuple[str, str]], deadline: Deadline = NEVER,
                          workers: int = 1) -> int | None:
    """``check_within`` for several (CNF, proof) pairs, in ``workers`` child processes
    at most (one start of the checker per process, the pairs dealt round-robin): the
    index of the first pair drup does not accept, or None when it accepts every one."""
    deadline.check(CHECK_PHASE)
    k = max(1, min(workers, len(pairs)))
    groups = [list(range(i, len(pairs), k)) for i in range(k) if pairs]
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ)
    env["PYTHONPATH"] = here + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    procs: list[subprocess.Popen] = []
    try:
        for g in groups:
            argv = checker_command(*(p for j in g for p in pairs[j]))
            procs.append(subprocess.Popen(argv, stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, text=True, env=env))
        rejected = []
        for g, proc in zip(groups, procs):
            try:
                out, err = proc.communicate(
                    timeout=deadline.remaining() if deadline.bounded else None)
            except subprocess.TimeoutExpired:
                raise TimeUp(deadline.limit, CHECK_PHASE) from None
            if proc.returncode == 1:
                rejected.append(g[int((out.split() or ["0"])[-1])])
            elif proc.returncode != 0:
                last = (err.strip().splitlines() or [f"exit code {proc.returncode}"])[-1]
                raise FileError(f"{pairs[g[0]][1]}: the proof checker failed: {last}")
        return min(rejected, default=None)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def check_files(cnf_path: str, proof_path: str) -> bool:
    """True iff ``drup`` accepts the proof as a refutation of the CNF."""
    import drup

    for p in (cnf_path, proof_path):
        if not os.path.exists(p):
            raise FileError(f"{p}: no such file")
    if os.path.getsize(proof_path) == 0:
        return False
    # drup's parser glues everything before the first " 0" into one chunk and drops it
    # when it starts with "c": a leading comment would silently drop the first clause.
    with open(cnf_path) as f:
        formula = "".join(line for line in f if not line.startswith("c"))
    with open(proof_path) as f:
        proof = f.read()
    try:
        res = drup.check_proof_from_strings(formula, proof)
    except ValueError as exc:
        raise FileError(f"{proof_path}: cannot check proof: {exc}") from None
    return res.outcome == drup.Outcome.VALID


def main(argv: list[str]) -> int:
    """``python -m hanabi_cp.solvers.proofs CNF PROOF [CNF PROOF ...]``: exit 0 when
    every proof is valid, 1 (printing the index of the first invalid pair) when one
    is not, 2 on an error."""
    if not argv or len(argv) % 2:
        print("usage: python -m hanabi_cp.solvers.proofs CNF PROOF [CNF PROOF ...]",
              file=sys.stderr)
        return 2
    try:
        for i in range(0, len(argv), 2):
            if not check_files(argv[i], argv[i + 1]):
                print(i // 2)
                return 1
        return 0
    except HanabiError as exc:
        print(f"hanabi-cp: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
