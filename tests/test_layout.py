"""The layout the architecture promises: encoders only build, so importing one loads
neither the method registry nor any method; every method lives in hanabi_cp/solitaire/methods/."""

import ast
import json
import pathlib
import pkgutil
import subprocess
import sys

import hanabi_cp.solitaire.encoders
from hanabi_cp.solitaire import solve as method_registry


def test_encoders_import_no_method_and_not_the_registry():
    names = [f"hanabi_cp.solitaire.encoders.{m.name}" for m in pkgutil.iter_modules(hanabi_cp.solitaire.encoders.__path__)]
    assert {"hanabi_cp.solitaire.encoders.cnf", "hanabi_cp.solitaire.encoders.cpsat"} <= set(names)
    code = ("import importlib, json, sys\n"
            f"for name in {names!r}: importlib.import_module(name)\n"
            "print(json.dumps(sorted(sys.modules)))")
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                       text=True, check=True).stdout)
    assert [m for m in loaded if m == "hanabi_cp.solitaire.solve" or m.startswith("hanabi_cp.solitaire.methods")] == []


def test_every_method_is_a_module_of_the_methods_package():
    assert [method_registry.METHODS.address(name) for name in method_registry.METHODS] == \
        [f"hanabi_cp.solitaire.methods.{name}:METHOD" for name in method_registry.METHODS]
    assert set(method_registry.methods()) == {"greedy", "lazy", "dp", "search", "brute", "sat", "cpsat",
                                      "minizinc", "pb", "maxsat"}


# --- imports, read from the source (AST), not from what a run happens to load ---

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "hanabi_cp"


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: pathlib.Path):
    """(module imported from, names) of every import in ``path``, relative imports
    resolved to absolute module names."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, ()
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            yield module, tuple(alias.name for alias in node.names)


def _python_files(*folders: str):
    for folder in folders:
        yield from sorted((ROOT / folder).rglob("*.py"))


def test_nothing_below_the_cli_imports_it():
    cli = PACKAGE / "cli"
    wrong = []
    for path in _python_files("hanabi_cp"):
        if path.is_relative_to(cli) or path == PACKAGE / "__main__.py":
            continue
        for module, names in _imports(path):
            targets = [module] + [f"{module}.{n}" for n in names]
            if any(t == "hanabi_cp.cli" or t.startswith("hanabi_cp.cli.") for t in targets):
                wrong.append(f"{path.relative_to(ROOT)}: {module} {names}")
    assert wrong == []


def test_no_module_imports_the_version_from_the_package_root():
    wrong = [f"{path.relative_to(ROOT)}: from {module} import __version__"
             for path in _python_files("hanabi_cp", "tests", "bench")
             for module, names in _imports(path)
             if module == "hanabi_cp" and "__version__" in names]
    assert wrong == []
    assert "hanabi_cp.core.version.__version__" in (ROOT / "pyproject.toml").read_text()


def test_one_round_trip_engine():
    """The harness's round trips and the reduction study compare image verdicts with
    the formula through the engine of apps/roundtrip.py, not a copy of it."""
    engine = "hanabi_cp.apps.roundtrip"
    for rel in ("hanabi_cp/apps/harness/roundtrip.py", "hanabi_cp/apps/studies/reduction.py",
                "hanabi_cp/cli/reduce.py"):
        path = ROOT / rel
        assert any(module == engine for module, _ in _imports(path)), rel
        called = {n.func.id for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Call)
                  and isinstance(n.func, ast.Name)}
        assert "assignment_from_play" not in called, rel
        if "cli" in rel:        # scheduling and resuming are the library driver's
            assert "run_tasks" not in called, rel


VERDICTS = {"WINNABLE", "UNWINNABLE", "UNKNOWN", "DECIDED", "OVER", "REFUSED"}


def test_only_the_status_module_spells_the_verdicts():
    """Everything else names them (and the post-mortem's status words) through
    Status / RunStatus / PositionStatus.  A collection that
    also holds other words (an external solver's "UNKNOWN" beside "INDET") is that
    solver's vocabulary, not ours."""
    wrong = []
    for path in _python_files("hanabi_cp"):
        if path == PACKAGE / "core/status.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        foreign = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
                words = [e for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
                if any(w.value not in VERDICTS for w in words):
                    foreign.update(id(w) for w in words)
        wrong += [f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}" for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and node.value in VERDICTS and id(node) not in foreign]
    assert wrong == []


def test_registries_are_tables_not_scans_nor_import_side_effects():
    """One pattern (hanabi_cp/core/registry.py): an explicit ordered table per kind, no
    package scan (pkgutil) and no module that registers itself when imported."""
    scans = [str(p.relative_to(ROOT)) for p in _python_files("hanabi_cp")
             if any(m == "pkgutil" for m, _ in _imports(p))]
    assert scans == []
    calls = [f"{p.relative_to(ROOT)}:{node.lineno}" for p in _python_files("hanabi_cp")
             for node in ast.parse(p.read_text(encoding="utf-8")).body
             if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
             and getattr(node.value.func, "id", getattr(node.value.func, "attr", "")) in ("register", "add_command")]
    decorated = [f"{p.relative_to(ROOT)}:{node.lineno}" for p in _python_files("hanabi_cp")
                 for node in ast.parse(p.read_text(encoding="utf-8")).body
                 if isinstance(node, ast.ClassDef | ast.FunctionDef)
                 and any(getattr(d, "id", None) == "register" for d in node.decorator_list)]
    assert calls == [] and decorated == []

def test_one_lookup_style_imports_by_name_only_in_the_registry():
    """Everything looked up by name is a Registry row ("module:attribute"): no other
    module imports by a computed name.  runtime/compiled.py loads the compiled copy
    of a module it is given, not a name a caller chose."""
    users = sorted(str(p.relative_to(ROOT)) for p in _python_files("hanabi_cp")
                   if any(m == "importlib" or m.startswith("importlib.") for m, _ in _imports(p)))
    assert users == ["hanabi_cp/core/registry.py", "hanabi_cp/runtime/compiled.py"]

# --- the house: one core, two wings, one facade ---

# Each package of hanabi_cp and the packages its modules may import.  The two wings
# (solitaire, real) share only what lies below them; what uses both sits above.
FLOOR = {"core", "runtime"}
MAY_IMPORT = {
    "core": FLOOR,
    "runtime": FLOOR,
    "io": FLOOR | {"io"},
    "solvers": FLOOR | {"io", "solvers"},
    "solitaire": FLOOR | {"io", "solvers", "solitaire"},
    "real": FLOOR | {"io", "solvers", "real"},
    "knowledge": {"knowledge"},
}


def _package_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and (PACKAGE / parts[1]).is_dir()) else ""


def test_the_root_holds_only_the_facade():
    assert sorted(p.name for p in PACKAGE.glob("*.py")) == ["__init__.py", "__main__.py", "api.py"]


def test_each_layer_imports_only_what_lies_below_it():
    """The wings never import each other; core/ and runtime/ import nothing above them;
    io/ and solvers/ know neither wing."""
    wrong = []
    for path in _python_files("hanabi_cp"):
        own = _package_of(_module_name(path))
        if own not in MAY_IMPORT:
            continue
        for module, names in _imports(path):
            if not module.startswith("hanabi_cp"):
                continue
            targets = [module] if module != "hanabi_cp" else [f"hanabi_cp.{n}" for n in names]
            for target in targets:
                theirs = _package_of(target)
                if theirs and theirs not in MAY_IMPORT[own]:
                    wrong.append(f"{path.relative_to(ROOT)}: {target}")
    assert wrong == []


def test_each_wing_has_its_referee_encoders_and_methods():
    for wing in ("solitaire", "real"):
        assert (PACKAGE / wing / "referee.py").is_file(), wing
        assert (PACKAGE / wing / "encoders" / "__init__.py").is_file(), wing
        assert (PACKAGE / wing / "methods" / "__init__.py").is_file(), wing


def test_the_cli_holds_no_reader_of_text():
    """cli/ turns options into a library call and its answer into lines: reading
    text (a solver's answer, a game, a refutation) is the library's, beside the
    writer of the same format, for scripts and commands alike.  So no module of
    cli/ imports re or decodes JSON, and none defines a parse_*/read_* function
    (click's own parse_args, overridden, excepted)."""
    cli = PACKAGE / "cli"
    wrong = []
    for path in _python_files("hanabi_cp/cli"):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        where = path.relative_to(ROOT)
        wrong += [f"{where}: imports {module}" for module, _ in _imports(path) if module == "re"]
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and \
                    node.name.startswith(("parse_", "read_")) and node.name != "parse_args":
                wrong.append(f"{where}:{node.lineno}: defines {node.name}")
            if isinstance(node, ast.Attribute) and node.attr in ("loads", "load") and \
                    getattr(node.value, "id", None) == "json":
                wrong.append(f"{where}:{node.lineno}: json.{node.attr}")
    assert cli.is_dir() and wrong == []
