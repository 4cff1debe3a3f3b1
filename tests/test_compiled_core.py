"""The compiled copy of the real-rules search (runtime.compiled): used only while it
matches its source, and then giving the pure-Python search's answers."""

from __future__ import annotations

import sys
import types

import pytest

from hanabi_cp.apps.generators import standard_deck
from hanabi_cp.real.methods import search
from hanabi_cp.real.referee import Game
from hanabi_cp.real.rules import Rules
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.runtime import compiled


def test_a_stale_or_missing_copy_is_not_used(tmp_path, monkeypatch):
    src = tmp_path / "mod.py"
    src.write_text("X = 1\n")
    name = "fake_pkg.mod"
    copy = types.ModuleType(compiled.compiled_name(name))
    monkeypatch.setitem(sys.modules, copy.__name__, copy)
    load = compiled.load.__wrapped__
    assert load(name, str(src)) is None                       # no digest at all
    setattr(copy, compiled.DIGEST, compiled.digest(src))
    assert load(name, str(src)) is copy                       # built from this source
    src.write_text("X = 2\n")
    assert load(name, str(src)) is None                       # the source was edited
    assert load("fake_pkg.absent", str(src)) is None          # never built
    monkeypatch.setenv(compiled.PURE, "1")
    setattr(copy, compiled.DIGEST, compiled.digest(src))
    assert load(name, str(src)) is None                       # HANABI_CP_PURE=1


def test_a_package_copy_is_stale_once_any_of_its_modules_is_edited(tmp_path, monkeypatch):
    """A package is compiled as one group: its copy's digest covers every module."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    init, part = pkg / "__init__.py", pkg / "part.py"
    init.write_text("from .part import X\n")
    part.write_text("X = 1\n")
    assert compiled.sources(init) == [init, part]
    name = "fake_pkg.pkg"
    copy = types.ModuleType(compiled.compiled_name(name))
    monkeypatch.setitem(sys.modules, copy.__name__, copy)
    setattr(copy, compiled.DIGEST, compiled.digest(init))
    load = compiled.load.__wrapped__
    assert load(name, str(init)) is copy
    part.write_text("X = 2\n")                                # a module other than __init__
    assert load(name, str(init)) is None
    setattr(copy, compiled.DIGEST, compiled.digest(init))
    (pkg / "new.py").write_text("")                            # a module added
    assert load(name, str(init)) is None


def test_the_search_package_is_what_is_compiled():
    assert compiled.COMPILED == (search.__name__,)
    assert search.__file__.endswith("__init__.py")
    assert {p.stem for p in compiled.sources(search.__file__)} >= {
        "__init__", "state", "moves", "table", "bounds", "relaxation", "driver"}


def test_the_compiled_search_answers_as_the_pure_one():
    core = compiled.load.__wrapped__(search.__name__, search.__file__)
    if core is None:
        pytest.skip("the compiled search is not built (make builds it; needs mypy and a C compiler)")
    for p in (2, 3, 5):
        for seed in range(1, 13):
            start = Game.start(standard_deck(seed), Rules.for_players(p))
            for maximize in (False, True):
                opts = SolveOptions(time_limit=30, maximize=maximize)
                a, b = core.search(start, opts), search.search(start, opts)
                assert (a.status, a.score, a.actions, a.stats["nodes"]) == \
                    (b.status, b.score, b.actions, b.stats["nodes"]), (p, seed, maximize)
