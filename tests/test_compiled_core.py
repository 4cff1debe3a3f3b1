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
