"""Issue 48's size rule: no module of hanabi_cp/ over 800 lines, no class over 400, no
function or method over 100 (``end_lineno - lineno + 1``, decorators not counted), read
from the source with ``ast``.  Generated code and data tables may be longer, each named
in ALLOWED with the reason."""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "hanabi_cp"

MAX_MODULE, MAX_CLASS, MAX_FUNCTION = 800, 400, 100

# Generated code and data tables, as "path" (the module) or "path:Qualified.name",
# each with why its length is not a design to split.  Empty today: show's HTML and JS
# templates, the longest such strings, are under every limit.
ALLOWED: dict[str, str] = {}

# Over the limits while work in progress splits them; not exceptions to the rule.
# Empty: nothing is waiting.
PENDING: set[str] = set()


def _sizes(path: pathlib.Path, root: pathlib.Path = ROOT):
    """(name, kind, lines, limit) of the module and every class and function in it,
    nested ones included, named "path" or "path:Outer.inner"."""
    rel = path.relative_to(root).as_posix()
    source = path.read_text(encoding="utf-8")
    yield rel, "module", len(source.splitlines()), MAX_MODULE

    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}.{child.name}" if prefix else child.name
                is_class = isinstance(child, ast.ClassDef)
                yield (f"{rel}:{name}", "class" if is_class else "function",
                       child.end_lineno - child.lineno + 1, MAX_CLASS if is_class else MAX_FUNCTION)
                yield from walk(child, name)
            else:
                yield from walk(child, prefix)
    yield from walk(ast.parse(source, str(path)), "")


def _all_sizes():
    for path in sorted(PACKAGE.rglob("*.py")):
        # a killed mypyc build leaves its copies of the sources (runtime/compiled.py)
        if not any(part.startswith("_") and part.endswith("_compiled") for part in path.parts):
            yield from _sizes(path)


def _pending(name: str) -> bool:
    """A name PENDING lists, or inside a module it lists whole."""
    return name in PENDING or name.partition(":")[0] in PENDING


def test_no_module_class_or_function_over_its_limit():
    over = [f"{name}: {kind} of {lines} lines (limit {limit})"
            for name, kind, lines, limit in _all_sizes()
            if lines > limit and name not in ALLOWED and not _pending(name)]
    assert over == [], "split these into parts that each say one thing:\n" + "\n".join(over)


def test_every_exception_still_names_something_over_its_limit():
    sizes = {name: (lines, limit) for name, _, lines, limit in _all_sizes()}
    stale = [name for name in ALLOWED if name not in sizes or sizes[name][0] <= sizes[name][1]]
    assert stale == [], f"no longer over the limit (or gone): remove from ALLOWED: {stale}"
    gone = [name for name in PENDING if name not in sizes]
    assert gone == [], f"renamed or gone: update PENDING: {gone}"


def test_the_measure_counts_nested_definitions(tmp_path):
    # The walk must see methods and functions inside functions, not only the top level.
    pkg = tmp_path / "hanabi_cp"
    pkg.mkdir()
    body = "\n".join(f"            x{i} = {i}" for i in range(MAX_FUNCTION))
    (pkg / "m.py").write_text(f"class A:\n    def f(self):\n        def g():\n{body}\n"
                              "        return g\n", encoding="utf-8")
    found = {name: lines for name, _, lines, _ in _sizes(pkg / "m.py", tmp_path)}
    assert found["hanabi_cp/m.py:A.f.g"] == MAX_FUNCTION + 1
    assert found["hanabi_cp/m.py:A.f"] == MAX_FUNCTION + 3
    assert found["hanabi_cp/m.py:A"] == MAX_FUNCTION + 4
