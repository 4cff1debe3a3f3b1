"""The compiled copy of a pure-Python module (mypyc), used only while it matches its source.

A module listed in ``COMPILED`` (today the real-rules search, whose median deal is
a few dozen states at tens of microseconds each: the cost per state, not the number
of states, is what the profile shows there) can be compiled by mypyc into a sibling
extension ``_<name>_compiled``.  The copy holds the SHA-256 of the source it was
built from; ``load`` returns it only while that digest is the digest of the module's
file as it is now, so an edited source never runs through a stale build: it falls
back to the pure-Python module, which gives the same answers, slower.  The build
is optional: without a C compiler or mypy, nothing is built and nothing changes but
the speed.  ``HANABI_CP_PURE=1`` ignores every compiled copy (to compare the two).

    python -m hanabi_cp.runtime.compiled          # build every module of COMPILED
    python -m hanabi_cp.runtime.compiled --check  # exit 1 unless each build is current
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path
from types import ModuleType

# The modules worth compiling: their per-call cost dominates their callers' time.
COMPILED = ("hanabi_cp.real.methods.search",)
DIGEST = "SOURCE_SHA256"
PURE = "HANABI_CP_PURE"


def compiled_name(module: str) -> str:
    package, _, name = module.rpartition(".")
    return f"{package}._{name}_compiled"


def digest(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@cache
def load(module: str, source: str) -> ModuleType | None:
    """The compiled copy of ``module`` (whose file is ``source``) if it was built from
    that file as it is now, else None."""
    if os.environ.get(PURE):
        return None
    try:
        copy = importlib.import_module(compiled_name(module))
    except ImportError:
        return None
    return copy if getattr(copy, DIGEST, None) == digest(source) else None


def _source(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None, module
    return Path(spec.origin)


def build(module: str, out=sys.stderr) -> bool:
    """Compile ``module`` with mypyc into its sibling ``_<name>_compiled`` extension
    (in place, next to the source); False, with the compiler's last lines, if it
    could not be built."""
    src = _source(module)
    copy = src.with_name(compiled_name(module).rpartition(".")[2] + ".py")
    for old in src.parent.glob(copy.stem + "*.so"):
        old.unlink()
    copy.write_text(src.read_text(encoding="utf-8")
                    + f'\n{DIGEST} = "{digest(src)}"\n', encoding="utf-8")
    work = tempfile.mkdtemp(prefix="hanabi-cp-mypyc-")
    # mypyc's generated C, the object files and mypy's cache go to a temporary
    # directory; the extension lands next to the source (build_ext --inplace)
    script = (
        "import sys\n"
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        "work, path = sys.argv[1], sys.argv[2]\n"
        "setup(name='hanabi_cp_compiled', script_args=['-q', 'build_ext', '--inplace',\n"
        "      '--build-temp', work + '/temp', '--build-lib', work + '/lib'],\n"
        "      ext_modules=mypycify(['--ignore-missing-imports', '--follow-imports=silent',\n"
        "                            path], opt_level='3', target_dir=work + '/c'))\n")
    try:
        Path(work, *module.split(".")[:-1]).mkdir(parents=True)
        # run outside the project, whose pyproject.toml is not this build's
        run = subprocess.run([sys.executable, "-c", script, work, str(copy)],
                             cwd=work, capture_output=True, text=True,
                             env={**os.environ, "MYPY_CACHE_DIR": work + "/cache"})
        built = sorted(Path(work).rglob(copy.stem + "*.so"))
        if run.returncode != 0 or not built:
            print("\n".join((run.stdout + run.stderr).splitlines()[-15:]), file=out)
            return False
        for so in built:
            shutil.copy2(so, src.parent / so.name)
        return True
    finally:
        copy.unlink(missing_ok=True)
        shutil.rmtree(work, ignore_errors=True)


def current(module: str) -> bool:
    return load.__wrapped__(module, str(_source(module))) is not None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m hanabi_cp.runtime.compiled",
                                 description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 unless every build is current")
    args = ap.parse_args(argv)
    status = 0
    for module in COMPILED:
        if args.check:
            ok = current(module)
            print(f"{module}: {'compiled copy current' if ok else 'no current compiled copy'}")
        else:
            ok = build(module) and current(module)
            print(f"{module}: {'compiled' if ok else 'not compiled (the pure-Python module is used)'}")
        status |= not ok
    return status


if __name__ == "__main__":
    sys.exit(main())
