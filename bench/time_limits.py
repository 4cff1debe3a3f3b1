"""Benchmark: how long after --time-limit S the real `hanabi-cp solve` command ends.

Each case runs the command line as a child process, exactly as a user would, and
measures its wall time (the whole process: interpreter start, imports, reading the
deck, building, solving, printing, exit) and its peak RSS (``os.wait4``: the
largest process of the command, the proof checker included).  It prints

    slack = wall - S      ratio = wall / S

with the answer line (`s UNKNOWN` unless the command finished in time) and the
phase the limit ran out in.  No case asserts a time: the numbers are the result
(README, "Time limits").

Cases: the reduction image of SATLIB's uf50-01 (`hanabi-cp reduce`, 220,564 cards)
with sat, cpsat and cpsat --maximize, the image of uuf50-01 with sat --proof, at
S = 1 and 5; the best score of a 2-player standard deal under real rules (`auto`,
every stage in turn); then a random deck of 10^6 cards (`hanabi-cp generate deck
--n 2000 --c 250 --r 2 --exact-copies`) with sat.  "startup" is the command on a one-card deck: the
part of the slack no phase can check.

    .venv/bin/python -m bench.time_limits              # every case, 3 runs each
    .venv/bin/python -m bench.time_limits --quick      # the images at S = 1, one run
    .venv/bin/python -m bench.time_limits --limits 2,10 --repeat 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

SATLIB = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "instances", "satlib"))
UF50 = os.path.join(SATLIB, "uf50-218", "uf50-01.cnf")
UUF50 = os.path.join(SATLIB, "uuf50-218", "uuf50-01.cnf")
# (case name, deck key, solve arguments); "{proof}" becomes a fresh path per run.
CASES = (("uf50 sat", "uf50", ["--method", "sat"]),
         ("uf50 cpsat", "uf50", ["--method", "cpsat"]),
         ("uf50 cpsat --maximize", "uf50", ["--method", "cpsat", "--maximize"]),
         ("uuf50 sat --proof", "uuf50", ["--method", "sat", "--proof", "{proof}"]))
BIG = ("10^6 cards sat", "big", ["--method", "sat"])
# Real rules: the best score of the 2-player shuffled deck of seed 4004, which no
# stage of `auto` decides within minutes, so every stage runs to its share (the
# search, CaDiCaL, Glucose, and CP-SAT when its share pays for importing OR-Tools).
LIVE = ("live 4004 auto --maximize", "4004",
        ["--rules", "live", "--players", "2", "--maximize"])


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "hanabi_cp", *args]


def run(argv: list[str]) -> tuple[float, float, str, str]:
    """(wall seconds, peak RSS MB, `s` line, reason) of one command."""
    with tempfile.TemporaryFile("w+") as out:
        start = time.monotonic()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        lines = out.read().splitlines()
    answer = next((l for l in lines if l.startswith("s ")), f"exit {proc.returncode}")
    reason = next((l[len("c reason: "):] for l in lines if l.startswith("c reason: ")), "")
    return wall, usage.ru_maxrss / 1024, answer, reason


def phase(reason: str) -> str:
    """The phase the limit ran out in, from the reason line."""
    if reason.startswith("proof check did not finish"):
        return "proof check"
    if " reached during " in reason:
        return reason.split(" reached during ", 1)[1].split(";")[0]
    return ""


def make_decks(tmp: str, big: bool) -> dict[str, str]:
    decks = {}
    for key, cnf in (("uf50", UF50), ("uuf50", UUF50)):
        decks[key] = os.path.join(tmp, f"{key}.deck")
        subprocess.run(cli("reduce", cnf, "-o", decks[key]), check=True, capture_output=True)
    if big:
        decks["big"] = os.path.join(tmp, "big.txt")
        subprocess.run(cli("generate", "deck", "--n", "2000", "--c", "250", "--r", "2", "--exact-copies",
                           "--seed", "1", "--hand", "2", "-o", decks["big"]),
                       check=True, capture_output=True)
    decks["4004"] = os.path.join(tmp, "4004.txt")
    subprocess.run(cli("generate", "standard", "--seed", "4004", "-o", decks["4004"]),
                   check=True, capture_output=True)
    decks["one"] = os.path.join(tmp, "one.txt")
    with open(decks["one"], "w") as f:
        f.write("h 1\n1r\n")
    return decks


def main(argv=None) -> list[dict]:
    ap = argparse.ArgumentParser(prog="python -m bench.time_limits",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="the images at S = 1, one run each")
    ap.add_argument("--limits", default=None, metavar="S,S",
                    help="time limits in seconds (default 1,5; --quick: 1)")
    ap.add_argument("--repeat", type=int, default=None,
                    help="runs per case; the table shows the median and the largest slack "
                         "(default 3; --quick: 1)")
    ap.add_argument("--no-big", action="store_true", help="leave out the 10^6-card deck")
    args = ap.parse_args(argv)
    limits = [float(x) for x in (args.limits or ("1" if args.quick else "1,5")).split(",")]
    repeat = args.repeat or (1 if args.quick else 3)
    cases = list(CASES) + [LIVE] + ([] if args.quick or args.no_big else [BIG])
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        decks = make_decks(tmp, any(key == "big" for _, key, _ in cases))
        startup = [run(cli("solve", decks["one"], "--method", "sat"))[0] for _ in range(repeat)]
        print(f"startup (solve on a one-card deck): median {statistics.median(startup):.2f} s")
        print(f"{'case':<22} {'S':>3}  {'wall s':>6}  {'slack s':>7}  {'max slack':>9}  "
              f"{'ratio':>5}  {'peak MB':>7}  {'answer':<13} limit reached during")
        for name, key, extra in cases:
            for limit in limits:
                runs = []
                for i in range(repeat):
                    proof = os.path.join(tmp, f"proof-{len(rows)}-{i}.drup")
                    argv_ = cli("solve", decks[key], "--time-limit", f"{limit:g}",
                                *(a.replace("{proof}", proof) for a in extra))
                    runs.append(run(argv_))
                walls = [w for w, _, _, _ in runs]
                wall = statistics.median(walls)
                row = {"case": name, "limit": limit, "wall": wall, "slack": wall - limit,
                       "max_slack": max(walls) - limit, "ratio": wall / limit,
                       "peak_mb": max(m for _, m, _, _ in runs), "answer": runs[0][2],
                       "phase": phase(runs[0][3])}
                rows.append(row)
                print(f"{name:<22} {limit:>3g}  {wall:6.2f}  {row['slack']:+7.2f}  "
                      f"{row['max_slack']:+9.2f}  {row['ratio']:5.2f}  {row['peak_mb']:7.0f}  "
                      f"{row['answer']:<13} {row['phase']}", flush=True)
    return rows


if __name__ == "__main__":
    main()
