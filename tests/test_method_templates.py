"""The methods to copy (TEMPLATE.py of each wing): they follow the one Method shape,
are not registered, and once registered (for one test) run through the wing's
``solve`` with every answer certified by the referee and none contradicting brute."""

import inspect
import pickle

import pytest

from hanabi_cp.apps.generators import random_deck
from hanabi_cp.core.errors import MethodRefused
from hanabi_cp.core.methods import Method, Methods
from hanabi_cp.core.model import Deck
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.status import Status
from hanabi_cp.real import methods as real_methods
from hanabi_cp.real.methods import TEMPLATE as real_template
from hanabi_cp.real.rules import Rules
from hanabi_cp.real.solve import solve_live
from hanabi_cp.solitaire import methods as solitaire_methods
from hanabi_cp.solitaire.methods import TEMPLATE as solitaire_template
from hanabi_cp.solitaire.solve import solve

WINGS = [(solitaire_methods.METHODS, solitaire_template, "hanabi_cp.solitaire.methods.TEMPLATE:METHOD"),
         (real_methods.METHODS, real_template, "hanabi_cp.real.methods.TEMPLATE:METHOD")]


@pytest.fixture
def registered(monkeypatch):
    """Each wing's TEMPLATE listed as "template" for the test, loaded through its
    address as any method is."""
    for table, _, address in WINGS:
        monkeypatch.setitem(table.entries, "template", address)
    yield
    for table, _, _ in WINGS:
        table.loaded.pop("template", None)


@pytest.mark.parametrize("table, module, address", WINGS)
def test_every_method_of_both_wings_has_the_one_shape(table, module, address):
    assert isinstance(table, Methods)
    assert all(isinstance(m, Method) for m in table.load_all().values())
    method = module.METHOD
    assert isinstance(method, Method) and method.name == "template"
    assert "template" not in table and not method.maximizes
    # top-level functions, so that the harness can send the method to a worker
    assert pickle.loads(pickle.dumps(method)) == method
    problem = list(inspect.signature(method.refuses).parameters)
    assert list(inspect.signature(method.run).parameters) == [*problem, "options"]
    doc = module.__doc__
    for step in ("METHODS", "methods/__init__.py", "refuses", "SolverBug", "clock()"):
        assert step in doc, step


def test_the_solitaire_template_runs_through_solve_and_never_contradicts_brute(registered):
    seen = set()
    for seed in range(60):
        deck = random_deck(seed, n=3, c=2, r=2, p_missing=0.05)
        h = seed % 3
        out, oracle = solve(deck, h, "template"), solve(deck, h, "brute")
        assert out.method == "template"
        if out.status is Status.WINNABLE:
            assert out.verified and out.plays is not None
        if out.decided:
            assert out.status is oracle.status, (seed, out.reason)
        else:
            assert out.reason and oracle.decided
        seen.add(out.status)
    assert seen == {Status.WINNABLE, Status.UNWINNABLE, Status.UNKNOWN}


def test_the_solitaire_template_refuses_in_one_line(registered, monkeypatch):
    monkeypatch.setattr(solitaire_template, "MAX_CARDS", 2)
    with pytest.raises(MethodRefused, match=r"^method 'template' does not apply: 3 cards: "
                                            r"the template scans at most 2$"):
        solve(Deck.of([(1, 1), (2, 1), (3, 1)]), 1, "template")


def test_the_real_template_runs_through_solve_live_and_never_contradicts_brute(registered):
    seen = set()
    for seed in range(24):
        deck = random_deck(seed, n=3, c=2, r=2)
        rules = Rules.for_players(2, hand_size=2, clues=seed % 3)
        out, oracle = solve_live(deck, rules, "template"), solve_live(deck, rules, "brute")
        assert out.method == "template"
        if out.status is Status.WINNABLE:
            assert out.verified and out.actions
        if out.decided:
            assert out.status is oracle.status, seed
        else:
            assert out.reason and oracle.decided
        seen.add(out.status)
    assert seen == {Status.WINNABLE, Status.UNKNOWN}


def test_the_real_template_refuses_in_one_line(registered):
    rules = Rules.for_players(2, hand_size=2, all_or_nothing=True)
    with pytest.raises(MethodRefused, match=r"^real-rules method 'template' does not apply: "
                                            r"all or nothing"):
        solve_live(random_deck(1, n=3, c=2, r=2), rules, "template")
    with pytest.raises(MethodRefused, match=r"^real-rules method 'template' cannot maximize; "
                                            r"use one of brute, cpsat, "):
        solve_live(random_deck(1, n=3, c=2, r=2), Rules.for_players(2, hand_size=2),
                   "template", SolveOptions(maximize=True))
