"""The public API (``import hanabi_cp as hc``): every exported name resolves and is
documented with an example (the examples themselves run as doctests of their
modules, ``--doctest-modules`` in pyproject.toml); importing the package stays cheap;
library errors name the library's parameters and the CLI its flags."""

from __future__ import annotations

import ast
import doctest
import inspect
import json
import os
import pathlib
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

import hanabi_cp as hc
from hanabi_cp.core import errors
from hanabi_cp.cli import main
from hanabi_cp.apps.harness.runner import parse_sample
from hanabi_cp.apps.harness.space import Space
from hanabi_cp.solitaire.reduction.sat3 import reduce_cnf
from hanabi_cp.show.scene import window
from hanabi_cp.apps.studies import random_decks

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "hanabi_cp"


def test_all_names_resolve_and_match_the_lazy_table():
    eager = {"__version__", "min_hand"} | {n for n, v in vars(errors).items()
                                          if isinstance(v, type) and issubclass(v, Exception)}
    assert len(hc.__all__) == len(set(hc.__all__))
    assert set(hc.__all__) == set(hc._EXPORTS) | eager
    assert set(hc.__all__) <= set(dir(hc))
    for name in hc.__all__:
        assert getattr(hc, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        hc.nope  # noqa: B018


def test_the_issue_names_are_exported():
    wanted = ["Card", "Deck", "CNF", "Status", "Outcome", "SolveOptions", "solve", "replay",
              "read_deck", "write_deck", "read_dimacs", "reduce_cnf", "play_from_assignment",
              "assignment_from_play", "min_hand", "HanabiError"]
    assert set(wanted) <= set(hc.__all__)


def test_min_hand_stays_the_function_after_its_module_is_imported():
    import hanabi_cp.solitaire.min_hand  # noqa: F401  (the submodule of the same name)
    from hanabi_cp import min_hand
    assert callable(min_hand) and inspect.isfunction(min_hand)
    assert hc.min_hand(hc.Deck.of([(2, 1), (1, 1)])).h == 1


def test_methods_stays_the_function_after_the_methods_package_is_imported():
    import hanabi_cp.solitaire.methods.dp  # noqa: F401  (a module of the package hanabi_cp.solitaire.methods)
    from hanabi_cp import methods
    assert inspect.isfunction(methods) and inspect.isfunction(hc.methods)
    assert set(hc.methods()) == {"greedy", "lazy", "search", "sat", "cpsat", "dp", "brute",
                                 "minizinc", "pb", "maxsat"}


@pytest.mark.parametrize("name", [n for n in hc.__all__ if n != "__version__"])
def test_every_exported_name_has_a_docstring_with_a_doctested_example(name):
    obj = getattr(hc, name)
    doc = inspect.getdoc(obj) or ""
    examples = doctest.DocTestParser().get_examples(doc)
    assert examples, f"{name}: no >>> example in its docstring"
    # The example runs where --doctest-modules collects it: in its defining module,
    # which must be a file of the package (pyproject's testpaths include hanabi_cp);
    # an exported module (hc.hle) is its own.
    module = obj if inspect.ismodule(obj) else sys.modules[obj.__module__]
    assert pathlib.Path(module.__file__).resolve().is_relative_to(PACKAGE)
    found = doctest.DocTestFinder().find(module)
    assert any(t.docstring == obj.__doc__ and t.examples for t in found), \
        f"{name}: its example is not found by doctest in {obj.__module__}"


def test_doctests_are_part_of_the_test_run():
    text = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'testpaths = \[[^]]*"hanabi_cp"', text)
    assert "--doctest-modules" in text


def test_import_is_cheap_and_loads_no_heavy_library():
    code = "import sys, hanabi_cp; print(sorted(m for m in sys.modules if m.startswith('hanabi_cp') or m == 'typing'))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "['hanabi_cp', 'hanabi_cp.core', 'hanabi_cp.core.errors', " \
        "'hanabi_cp.core.registry', 'hanabi_cp.core.version']"
    code = ("import sys, hanabi_cp as hc; hc.Card; hc.Deck; hc.HanabiError; "
            "import json; print(json.dumps(sorted(sys.modules)))")
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                       text=True, check=True).stdout)
    heavy = ("ortools", "matplotlib", "numpy", "pysat", "click", "tqdm", "hanabi_cp.cli",
             "hanabi_cp.io", "hanabi_cp.solitaire.reduction", "hanabi_cp.real", "hanabi_cp.apps.harness",
             "hanabi_cp.show", "hanabi_cp.solitaire.encoders")
    assert [m for m in loaded if m.startswith(heavy)] == []


def test_facades_take_strings_and_keywords():
    deck = hc.parse_deck("2r 1r")
    assert hc.replay(deck, 1, "sp").won and not hc.replay(deck, 1, "dp").won
    out = hc.solve(deck, 1, method="dp", time_limit=30, maximize=True)
    assert out.verified and out.score == 2
    assert out.status is hc.Status.WINNABLE
    with pytest.raises(hc.InvalidParameter, match=r"^time_limit -1: "):
        hc.solve(deck, 1, time_limit=-1)
    with pytest.raises(hc.MethodRefused):
        hc.solve(deck, 1, "greedy", maximize=True)
    with pytest.raises(hc.CertificateError, match=r"card #1 \(2:1\): not playable"):
        hc.check_win(deck, 1, "PP")
    red = hc.reduce_cnf(hc.CNF.of([(1, -2, 3)]))
    with pytest.raises(hc.CertificateError, match="falsifies clause 1"):
        hc.play_from_assignment(red, [-1, 2, -3])
    with pytest.raises(hc.CertificateError, match="not a winning play"):
        hc.assignment_from_play(red, "D" * red.deck.N)


def test_error_hierarchy():
    for name in ("InputError", "FileError", "InvalidParameter", "DeckError", "FormulaError",
                 "CertificateError", "LimitError", "MethodRefused"):
        assert issubclass(getattr(hc, name), hc.HanabiError)
    assert issubclass(hc.UsageError, hc.InvalidParameter)
    assert issubclass(hc.RulesError, hc.InvalidParameter)
    assert not issubclass(hc.SolverBug, hc.HanabiError)
    assert not issubclass(hc.TimeUp, hc.HanabiError)
    e = hc.InputError("d.txt", 2, "a card", "'{x}'")           # braces in found are text
    assert str(e) == "d.txt:2: expected a card, found '{x}'"
    e = hc.InvalidParameter("{a} and {b} but not {c}", "a", "b")
    assert str(e) == "a and b but not {c}"
    assert str(e.rename({"b": "--bee"})) == "a and --bee but not {c}"


@pytest.mark.parametrize("error", [
    hc.InputError("d.txt", 2, "a card", "'x'"),
    hc.InvalidParameter("{copies} 1: too few", "copies").rename({"copies": "--copies"}),
    hc.FileError("out: refusing to overwrite an existing file; use {force}", force="force=True"),
    hc.RulesError("players must be 2 to 6, found 7"),
])
def test_errors_survive_pickling(error):
    import pickle
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error) and str(back) == str(error)
    assert back.params == error.params and vars(back) == vars(error)


# Library entry points whose messages once named CLI flags: now they name the
# parameter, and the CLI names its flag.
LIBRARY_ERRORS = [
    (lambda: hc.reduce_cnf(hc.CNF.of([(1, 2, 3)]), copies=1), "copies 1: the reduction needs r >= 2"),
    (lambda: hc.reduce_cnf(hc.CNF.of([(1, 2, 3)]), kappa=True, as_written=True),
     "as_written reproduces the base construction only, not kappa"),
    (lambda: Space(max_n=0), "max_n must be an integer >= 1, found 0"),
    (lambda: Space(max_h=-1), "max_h must be an integer >= 0, found -1"),
    (lambda: parse_sample(["cpsat=2"]), "sample: expected NAME=FRACTION"),
    (lambda: random_decks.run("unused.csv", 1, 1, "nope"), "param: expected one of h, density"),
    (lambda: window(hc.Deck.of([(1, 1)] * 5), 4, 2), "first 4 is after last 2"),
    (lambda: window(hc.Deck.of([(1, 1)] * 5), None, 9), "last 9: card numbers run from 1 to 5"),
    (lambda: hc.random_deck(1, 0, 1, 1), "n must be an integer >= 1, found 0"),
    (lambda: reduce_cnf(hc.CNF.of([(1, 2, 3)]), max_cards=10), "the reduction's deck (n = 10, c = 7) "
     "would have 121 cards (about 42 kB to solve at ~350 bytes per card), above max_cards 10"),
]


@pytest.mark.parametrize("call, message", LIBRARY_ERRORS)
def test_library_errors_name_parameters_not_flags(call, message):
    with pytest.raises(hc.HanabiError) as info:
        call()
    assert type(info.value) is not hc.HanabiError          # a specific subclass
    assert str(info.value).startswith(message)
    assert "--" not in str(info.value)


CLI_ERRORS = [
    (["reduce", "instances/formulas/figure2.cnf", "--copies", "1"],
     "--copies 1: the reduction needs r >= 2 for h = 2"),
    (["reduce", "instances/formulas/figure2.cnf", "--kappa", "--as-written"],
     "--as-written reproduces the base construction only, not --kappa"),
    (["show", "instances/standard-winnable-h2.txt", "--from", "30", "--to", "20", "-o", "x.svg"],
     "--from 30 is after --to 20"),
    (["harness", "--count", "1", "--sample", "sat=2", "--no-progress"],
     "--sample: expected NAME=FRACTION with FRACTION in 0..1, found 'sat=2'"),
    (["reduce", "instances/formulas/figure2.cnf", "--max-cards", "10"],
     "the reduction's deck (n = 15, c = 7) would have 183 cards (about 64 kB to solve at "
     "~350 bytes per card), above --max-cards 10"),
]


@pytest.mark.parametrize("args, message", CLI_ERRORS)
def test_cli_names_its_flags(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    args = [str(tmp_path / a) if a == "x.svg" else a for a in args]
    if args[0] == "harness":
        args += ["--out", str(tmp_path / "out")]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2
    assert res.stderr.strip().splitlines()[-1] == f"hanabi-cp: error: {message}"


def test_roundtrip_rows_name_the_flags_too(monkeypatch):
    # roundtrip reports a file's error and goes on with the next: renamed there as well.
    monkeypatch.chdir(ROOT)
    res = CliRunner().invoke(main, ["roundtrip", "instances/formulas/figure2.cnf", "--max-cards", "10"])
    assert "hanabi-cp: error: the reduction's deck (n = 15, c = 7) would have 183 cards" in res.stderr
    assert "above --max-cards 10" in res.stderr and "max_cards" not in res.output


def _raises():
    """(file, in cli/?, line, class, the string constants of the message) of each
    ``raise Class(...)`` in hanabi_cp/."""
    for path in sorted(PACKAGE.rglob("*.py")):
        cli = "cli" in path.relative_to(PACKAGE).parts
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) \
                    and isinstance(node.exc.func, ast.Name):
                texts = [n.value for a in node.exc.args for n in ast.walk(a)
                         if isinstance(n, ast.Constant) and isinstance(n.value, str)]
                yield path.relative_to(ROOT), cli, node.lineno, node.exc.func.id, "".join(texts)


def test_raises_are_specific_and_library_messages_name_no_flags():
    raises = list(_raises())
    assert len(raises) > 100
    # A bare HanabiError says nothing an `except` can tell apart: use a subclass
    # of hanabi_cp/core/errors.py (UsageError for options that do not go together...).
    bare = [(str(p), n) for p, _, n, cls, _ in raises if cls == "HanabiError"]
    assert bare == [], ("raise a subclass from hanabi_cp/core/errors.py: InvalidParameter (a bad "
                        "argument), UsageError (arguments that do not go together), FileError "
                        "(cannot read or write), MethodRefused, LimitError, ...")
    # Outside cli/, a message names the function's parameter ({copies}), which the
    # CLI renames to its flag (cli/main.py); "--copies" there would be wrong in a script.
    flags = [(str(p), n, text) for p, cli, n, cls, text in raises
             if not cli and re.search(r"(^|\W)--[a-z]", text)]
    assert flags == [], ("outside cli/, name the parameter, e.g. InvalidParameter("
                         "f\"{{jobs}} {jobs}: expected ...\", \"jobs\"): the CLI writes --jobs")


def test_manual_python_page_runs(monkeypatch):
    """The manual's "Using hanabi-cp from Python" page (docs/api.md, up to its generated
    reference) and the README's Python block, run as a doctest from a clone's root:
    their outputs are checked, so they cannot rot."""
    text = (ROOT / "docs" / "api.md").read_text()
    section = re.search(r"^# Using hanabi-cp from Python\n(.*?)^## Reference", text, re.S | re.M)
    assert section, "docs/api.md has no '# Using hanabi-cp from Python' section before '## Reference'"
    body = section[1]
    blocks = re.findall(r"^```python\n(.*?)^```", body, re.S | re.M)
    assert blocks and all(">>>" in b for b in blocks)
    readme = re.findall(r"^```python\n(.*?)^```", (ROOT / "README.md").read_text(), re.S | re.M)
    assert readme and all(">>>" in b for b in readme)
    monkeypatch.chdir(ROOT)
    test = doctest.DocTestParser().get_doctest("\n".join(blocks + readme), {}, "docs/api.md", "docs/api.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out: list[str] = []
    result = runner.run(test, out=out.append)
    assert result.failed == 0, "".join(out)
    assert result.attempted >= 10
    # The short list of names in the section names only exported ones.
    listed = set(re.findall(r"^- `(\w+)`", body, re.M)) | \
        {n for line in re.findall(r"^- (.*)$", body, re.M) for n in re.findall(r"`(\w+)`", line)}
    assert listed and listed <= set(hc.__all__), listed - set(hc.__all__)
    assert os.path.isdir(ROOT / "instances")
