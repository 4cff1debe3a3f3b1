"""The compiled copy of a pure-Python module or package (mypyc), used only while it
matches its source.

A module listed in ``COMPILED`` (today the real-rules search, a package whose median
deal is a few dozen states at tens of microseconds each: the cost per state, not
the number of states, is what the profile shows there) can be compiled by mypyc
into a sibling extension ``_<name>_compiled``; a package's modules are compiled
together, as one group (calls between them stay native), into a sibling package
of that name.  The copy holds the SHA-256 of the sources it was built from (a
package's: of every module in it); ``load`` returns it only while that digest is
the digest of the sources as they are now, so an edit to any of them never runs
through a stale build: it falls back to the pure-Python code, which gives the
same answers, slower.  The build is optional: without a C compiler or mypy,
nothing is built and nothing changes but the speed.  ``HANABI_CP_PURE=1`` ignores
every compiled copy (to compare the two).

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

# The modules (or packages) worth compiling: their per-call cost dominates their
# callers' time.
COMPILED = ("hanabi_cp.real.methods.search",)
DIGEST = "SOURCE_SHA256"
PURE = "HANABI_CP_PURE"


def compiled_name(module: str) -> str:
    package, _, name = module.rpartition(".")
    return f"{package}._{name}_compiled"


def sources(path: str | Path) -> list[Path]:
    """The files a module's build reads: the module's file, or for a package (whose
    file is its ``__init__.py``) every module of the package."""
    path = Path(path)
    if path.name != "__init__.py":
        return [path]
    return sorted(path.parent.glob("*.py"))


def digest(path: str | Path) -> str:
    """The SHA-256 of a module's file, or of a package's files with their names."""
    path = Path(path)
    if path.name != "__init__.py":
        return hashlib.sha256(path.read_bytes()).hexdigest()
    whole = hashlib.sha256()
    for file in sources(path):
        whole.update(f"{file.name}\0{hashlib.sha256(file.read_bytes()).hexdigest()}\n".encode())
    return whole.hexdigest()


@cache
def load(module: str, source: str) -> ModuleType | None:
    """The compiled copy of ``module`` (whose file is ``source``; a package's:
    its ``__init__.py``) if it was built from its sources as they are now, else None."""
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


def _outputs(module: str) -> tuple[Path, list[Path]]:
    """Where ``module``'s compiled copy goes: the folder beside the source, and the
    paths of its build there (the copy package's folder, the extensions)."""
    src = _source(module)
    home = src.parent.parent if src.name == "__init__.py" else src.parent
    name = compiled_name(module).rpartition(".")[2]
    return home, [home / name, *home.glob(name + ".*.so"), *home.glob(name + "__mypyc.*.so")]


def _clear(module: str) -> None:
    """Remove ``module``'s compiled copy (either form: a module or a package)."""
    for path in _outputs(module)[1]:
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)


def _copy_sources(module: str) -> list[Path]:
    """The sources of ``module`` copied under the compiled copy's name, beside them,
    with the digest of the originals appended to the module (a package's
    ``__init__``); the copies' paths."""
    src = _source(module)
    home, name = _outputs(module)[0], compiled_name(module).rpartition(".")[2]
    stamp = f'\n{DIGEST} = "{digest(src)}"\n'
    if src.name != "__init__.py":
        copy = home / (name + ".py")
        copy.write_text(src.read_text(encoding="utf-8") + stamp, encoding="utf-8")
        return [copy]
    (home / name).mkdir()
    copies = []
    for file in sources(src):
        copy = home / name / file.name
        copy.write_text(file.read_text(encoding="utf-8") + (stamp if file == src else ""),
                        encoding="utf-8")
        copies.append(copy)
    return copies


def build(module: str, out=sys.stderr) -> bool:
    """Compile ``module`` with mypyc into its sibling ``_<name>_compiled`` extension
    (a package's modules: into a sibling package, one group; in place, next to the
    source); False, with the compiler's last lines, if it could not be built."""
    _clear(module)
    home = _outputs(module)[0]
    copies = _copy_sources(module)
    work = tempfile.mkdtemp(prefix="hanabi-cp-mypyc-")
    # mypyc's generated C, the object files and mypy's cache go to a temporary
    # directory; the extensions land beside the source (build_ext --inplace), the
    # group's shared library named after the copy
    script = (
        "import sys\n"
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        "work, group, paths = sys.argv[1], sys.argv[2], sys.argv[3:]\n"
        "setup(name='hanabi_cp_compiled', script_args=['-q', 'build_ext', '--inplace',\n"
        "      '--build-temp', work + '/temp', '--build-lib', work + '/lib'],\n"
        "      ext_modules=mypycify(['--ignore-missing-imports', '--follow-imports=silent',\n"
        "                            *paths], opt_level='3', target_dir=work + '/c',\n"
        "                           group_name=group))\n")
    built_in = Path(work, *module.split(".")[:-1])
    try:
        # build_ext --inplace writes each extension into its package's folder
        (built_in / copies[0].parent.relative_to(home)).mkdir(parents=True)
        # run outside the project, whose pyproject.toml is not this build's
        run = subprocess.run([sys.executable, "-c", script, work, compiled_name(module),
                              *map(str, copies)],
                             cwd=work, capture_output=True, text=True,
                             env={**os.environ, "MYPY_CACHE_DIR": work + "/cache"})
        built = sorted(built_in.rglob("*.so"))
        if run.returncode != 0 or not built:
            print("\n".join((run.stdout + run.stderr).splitlines()[-15:]), file=out)
            _clear(module)
            return False
        for so in built:
            shutil.copy2(so, home / so.relative_to(built_in))
        return True
    finally:
        for copy in copies:
            copy.unlink(missing_ok=True)
        if copies[0].parent != home:        # the copy package's own bytecode
            shutil.rmtree(copies[0].parent / "__pycache__", ignore_errors=True)
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
