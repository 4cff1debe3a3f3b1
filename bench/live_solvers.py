"""Benchmark: the SAT solvers python-sat offers (and Kissat) on the hard set's SAT
questions, each against CaDiCaL 1.9.5 (``sat``'s default, main's method) run beside it.

Each question is one call on one CNF of ``real.encoders.cnf`` (encodings/live-cnf.md): "winnable?"
(the CNF of a win) or "score >= k?" (the CNF of a complete game with ``maximize``,
its totalizer over the piles, and the unit clause "at least k cards played").  The
questions are those the SAT stage is asked on ``bench.live_race``'s hard set: 6
players seed 1653 and the 6-player bot positions 616 after 18-20, 927 after 25-27
and 839 after 32 ("winnable?"); the best score of 2 players seed 4004 (22: "score
>= 22?" finds it, "score >= 23?" is the proof that it is the best, "score >= 25?"
a win in the best score's CNF), of 616 after 20 and 927 after 25 (24 each: "score
>= 24?" finds it, "score >= 25?" proves it), of 839 after 32 (24); three won
deals of the SAT tail (docs/real-games.md), 6 players seeds 6595, 7748 and 1131;
the lost 2-player deal 7028 and the won position 474 after 10.

A column ``NAME:F+G`` asks the same solver on the CNF built with only the
families F and G of implied clauses (``real.encoders.cnf_implied``,
encodings/live-cnf.md §5), ``NAME:-`` on the CNF without any; ``NAME`` alone
takes the checkout's default.  With ``--cpu`` each cell also gives the child's
CPU seconds and the ratios compare those (the machine is shared: the wall
time counts the other processes' share too).

Every solver runs the same call in a forked child, one after another, killed at
``--time-limit`` (the same wall clock for each): one plain call, the solver alone,
or with ``NAME@S`` in ``--solvers`` the call as ``sat`` makes it, in conflict-budgeted
slices of about S seconds between deadline checks (``sat_backend.run_limited``:
``cadical195@0.1`` is main's method).  ``kissat404`` is pysat's Kissat 4.0.4, which
answers one call and no assumptions, hence usable here only for a single call like
these (``sat_backend.UNUSABLE``).  Per question and solver: the answer (SAT / UNSAT /
-) and seconds, a model checked against every clause; per solver at the end:
questions decided and the ratio of summed times, ``--baseline``'s over its (above
1: faster; an undecided call counts its full time).  The load average is printed
on each row: the machine is shared.

    .venv/bin/python -m bench.live_solvers                           # 10 s per call
    .venv/bin/python -m bench.live_solvers --solvers cadical195,cadical300 --questions 1653,616/18
    .venv/bin/python -m bench.live_solvers --solvers cadical195@0.1,cadical195 \
        --baseline cadical195@0.1 --questions "4004>=22,6595"
    .venv/bin/python -m bench.live_solvers --cpu --solvers cadical195:-,cadical195:pace \
        --baseline cadical195:- --questions 7028,616/18,927/25
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import time

QUICK_ARGS = ["--questions", "616/20>=24", "--solvers", "cadical195,glucose4",
              "--time-limit", "3"]
BASELINE = "cadical195"
SOLVERS = ("cadical195", "cadical300", "cadical153", "glucose4", "maplechrono", "lingeling",
           "kissat404")
# (name, players, seed, actions into the bot game (0: the deal), at least k cards or None: a win)
QUESTIONS = [
    ("1653", 6, 1653, 0, None),
    ("616/18", 6, 616, 18, None), ("616/19", 6, 616, 19, None), ("616/20", 6, 616, 20, None),
    ("927/25", 6, 927, 25, None), ("927/26", 6, 927, 26, None), ("927/27", 6, 927, 27, None),
    ("4004>=22", 2, 4004, 0, 22), ("4004>=23", 2, 4004, 0, 23),
    ("616/20>=24", 6, 616, 20, 24), ("927/25>=24", 6, 927, 25, 24),
    # the ladder's top rung: "a win?" in the CNF of the best score (early ends and all)
    ("616/19>=25", 6, 616, 19, 25), ("927/25>=25", 6, 927, 25, 25),
    ("927/26>=25", 6, 927, 26, 25),
    # 839 after 32: the search finds 21 and bounds 24 in 2.5 s, CP-SAT finds 23
    ("839/32", 6, 839, 32, None), ("839/32>=24", 6, 839, 32, 24),
    ("839/32>=25", 6, 839, 32, 25), ("4004", 2, 4004, 0, None), ("4004>=25", 2, 4004, 0, 25),
    # won deals of the SAT tail (docs/real-games.md, "The SAT tail")
    ("6595", 6, 6595, 0, None), ("7748", 6, 7748, 0, None), ("1131", 6, 1131, 0, None),
    # a lost 2-player deal that only CaDiCaL decides (docs/benchmarks.md), a won position
    ("7028", 2, 7028, 0, None), ("474/10", 6, 474, 10, None),
]


def cnf(p: int, seed: int, k: int, at_least: int | None,
        implied: tuple[str, ...] | None = None) -> list[list[int]]:
    """The clauses of one question (see the module's docstring), with the families of
    implied clauses ``implied`` (None: the checkout's default)."""
    from bench.live_race import position
    from hanabi_cp.real.encoders.cnf import LiveCnf
    from hanabi_cp.real.pile_order import in_pile_order
    start = in_pile_order(position(p, seed, k))
    default = LiveCnf.implied
    LiveCnf.implied = default if implied is None else implied
    try:
        enc = LiveCnf(start, maximize=at_least is not None)
    finally:
        LiveCnf.implied = default
    if at_least is None:
        return enc.clauses
    from pysat.card import ITotalizer
    target = len(enc.played)
    tot = ITotalizer([-x for x in enc.played], ubound=target, top_id=enc.pool.top)
    return enc.clauses + tot.cnf.clauses + [[-tot.rhs[target - at_least]]]


def _child(conn, clauses, name: str, limit: float, slice_seconds: float | None) -> None:
    from pysat.solvers import Solver
    from hanabi_cp.solvers import sat_backend
    from hanabi_cp.runtime.deadline import Deadline, TimeUp
    cpu = time.process_time()
    with Solver(name=name, bootstrap_with=clauses) as s:
        if slice_seconds is None:
            ok = s.solve()
        else:       # as ``sat`` runs it: conflict-budgeted slices between deadline checks
            sat_backend.SLICE_SECONDS = slice_seconds
            try:
                ok = sat_backend.run_limited(s, Deadline.after(limit))[0]
            except TimeUp:
                return
        model = s.get_model() if ok else None
        conflicts = _conflicts(s)
    cpu = time.process_time() - cpu
    if ok:
        true = set(model or ())
        ok = all(any(lit in true for lit in c) for c in clauses) or "WRONG MODEL"
    conn.send((ok, conflicts, cpu))


def _conflicts(solver) -> int | None:
    """The solver's conflicts, None where pysat does not expose them (Kissat)."""
    try:
        return (solver.accum_stats() or {}).get("conflicts")
    except NotImplementedError:
        return None


def ask(clauses: list[list[int]], name: str, limit: float,
        slice_seconds: float | None = None) -> tuple[str, float, float]:
    """(SAT / UNSAT / -, seconds, CPU seconds) of one call of solver ``name``, in a
    forked child: one plain call, or with ``slice_seconds`` sliced as
    ``sat_backend.run_limited`` slices it.  The answer carries the solver's
    conflicts where pysat reports them ("UNSAT 12k"); the CPU seconds are the
    child's (loading the clauses and the call: on a shared machine the wall time
    also counts the other processes' share), the wall time where it gave none."""
    ctx = multiprocessing.get_context("fork")
    ours, theirs = ctx.Pipe(duplex=False)
    t = time.perf_counter()
    child = ctx.Process(target=_child, args=(theirs, clauses, name, limit, slice_seconds),
                        daemon=True)
    child.start()
    theirs.close()
    answer, cpu = "-", None
    if ours.poll(limit):
        try:
            got, conflicts, cpu = ours.recv()
            answer = {True: "SAT", False: "UNSAT"}.get(got, str(got))
            if conflicts is not None:
                answer += f" {conflicts / 1000:.0f}k"
        except EOFError:
            answer = "-"       # the child gave up at the deadline (sliced) or crashed
    took = time.perf_counter() - t
    if child.is_alive():
        child.kill()
    child.join()
    return answer, took, took if cpu is None else cpu


def _families(spec: str) -> tuple[str, ...] | None:
    """A column's families of implied clauses: "" the checkout's default, "-" none,
    else their names joined by "+"."""
    if not spec:
        return None
    return () if spec == "-" else tuple(spec.split("+"))


def load() -> str:
    return " / ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--solvers", default=",".join(SOLVERS),
                    help=f"comma-separated pysat names (default: {','.join(SOLVERS)}); "
                         "NAME@S: sliced as ``sat`` slices it, S seconds a slice; "
                         "NAME:F+G: the CNF with the families F and G of implied "
                         "clauses (encodings/live-cnf.md §5), NAME:- with none")
    ap.add_argument("--baseline", default=BASELINE,
                    help="the column the ratios are against (default: %(default)s)")
    ap.add_argument("--cpu", action="store_true",
                    help="also print each call's CPU seconds, and rank by them")
    ap.add_argument("--shuffle", type=int, default=None, metavar="SEED",
                    help="shuffle each CNF's clauses with this seed: CaDiCaL is "
                         "deterministic, and the order alone moves its time")
    ap.add_argument("--questions", default=None,
                    help="comma-separated question names (default: all): "
                         + ",".join(q[0] for q in QUESTIONS))
    args = ap.parse_args(argv)
    solvers = [s for s in args.solvers.split(",") if s]
    if args.baseline not in solvers:
        solvers.insert(0, args.baseline)
    asked = None if args.questions is None else set(args.questions.split(","))
    chosen = [q for q in QUESTIONS if asked is None or q[0] in asked]
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    print(f"# one SAT call per question and solver, --time-limit {args.time_limit:g} s; "
          f"cores: {len(os.sched_getaffinity(0))}")
    print("| question | " + " | ".join(solvers) + " | load (1 / 5 / 15 min) |")
    print("|---|" + "---|" * len(solvers) + "---|")
    totals = {s: [0.0, 0] for s in solvers}
    for label, p, seed, k, at_least in chosen:
        built: dict[str, list[list[int]]] = {}
        cells = []
        for s in solvers:
            column, _, families = s.partition(":")
            name, _, cut = column.partition("@")
            if families not in built:
                built[families] = cnf(p, seed, k, at_least, _families(families))
                if args.shuffle is not None:
                    random.Random(args.shuffle).shuffle(built[families])
            answer, took, cpu = ask(built[families], name, args.time_limit,
                                    float(cut) if cut else None)
            totals[s][0] += cpu if args.cpu else took
            totals[s][1] += answer.startswith(("SAT", "UNSAT"))
            cells.append(f"{answer} {took:.1f}" + (f" (cpu {cpu:.1f})" if args.cpu else ""))
        print(f"| {label} | " + " | ".join(cells) + f" | {load()} |", flush=True)
    base = totals[args.baseline][0]
    print("| **decided, ratio** | " + " | ".join(
        f"{d}, {base / t:.2f}" for t, d in totals.values()) + f" | {load()} |")


if __name__ == "__main__":
    main()
