"""The docs walk: every shell block of the manual (README.md, then the pages of
mkdocs.yml's nav in order) runs, in order, in one scratch folder, as a reader who
copies them would run them (tests/docs_blocks.py says how a block is marked).

Each block runs in ``bash -e -o pipefail`` with ``.venv/bin`` first on PATH (as after
``source .venv/bin/activate``), in a folder holding a copy of ``instances/`` and
``bench/``; a command expected to exit non-zero says so itself (``|| test $? -eq
20``).  A block followed by its shown output (a ``text`` block titled ``Output``)
must print it: its stdout is matched line by line, ``...`` standing for any lines
and ``…`` for any text within a line (tests/docs_prose.py).  The walk takes several
minutes, so it is in the slow tier (``make test-slow``); the blocks titled "Full
size" (minutes to an hour each) run too when ``HANABI_DOCS_FULL=1`` is set.  Blocks
titled "Needs ..." (a cluster, a fresh clone) are reported, never run, and
tests/test_docs.py bounds how many there are.
Every failing block is reported, not only the first.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from docs_blocks import ROOT, shell_blocks
from docs_prose import output_mismatch

FULL = os.environ.get("HANABI_DOCS_FULL") == "1"


def _scratch(tmp_path: Path) -> Path:
    folder = tmp_path / "walk"
    folder.mkdir()
    shutil.copytree(ROOT / "instances", folder / "instances")
    shutil.copytree(ROOT / "bench", folder / "bench", ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    # this checkout's package, also where the venv's is installed from another one
    # (a git worktree beside the clone that made .venv)
    env["PYTHONPATH"] = str(ROOT)
    env["MPLBACKEND"] = "Agg"
    return env


@pytest.mark.slow
def test_docs_walk(tmp_path, capsys):
    folder = _scratch(tmp_path)
    env = _environment()
    ran, skipped, failures = [], [], []
    started = time.monotonic()
    for block in shell_blocks():
        if block.kind == "skip" or (block.kind == "full" and not FULL):
            skipped.append(f"{block} ({block.title})")
            continue
        t = time.monotonic()
        result = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", block.code], cwd=folder, env=env,
                                capture_output=True, text=True, timeout=4 * 3600 if FULL else 900)
        ran.append(f"{block}: {time.monotonic() - t:.1f} s")
        if result.returncode != 0:
            failures.append(f"{block} exited {result.returncode}\n--- block\n{block.code}"
                            f"--- stderr (end)\n{result.stderr[-2000:]}\n--- stdout (end)\n{result.stdout[-1000:]}")
        elif block.output is not None:
            diff = output_mismatch(block.output, result.stdout)
            if diff is not None:
                failures.append(f"{block}: the shown output is not what it printed\n{diff}")
    shown = sum(1 for b in shell_blocks() if b.output is not None)
    with capsys.disabled():
        print(f"\ndocs walk: {len(ran)} blocks run in {time.monotonic() - started:.0f} s "
              f"({shown} with their output checked), "
              f"{len(skipped)} not run:")
        for line in skipped:
            print(f"  not run: {line}")
    assert ran, "no block ran"
    assert failures == [], "\n\n".join(failures)
