"""Every bundled instance has the answer instances/answers.json states."""

import json
import os

import pytest

from hanabi_cp.solitaire.methods.brute import state_bound, STATE_LIMIT
from hanabi_cp.io import read_deck_file
from hanabi_cp.solvers.dimacs import read_dimacs
from hanabi_cp.solitaire.min_hand import min_hand
from hanabi_cp.core.status import Status
from hanabi_cp.solitaire.solve import solve

HERE = os.path.join(os.path.dirname(__file__), os.pardir, "instances")
ANSWERS = json.load(open(os.path.join(HERE, "answers.json")))
DECKS = sorted(ANSWERS["decks"].items())
FORMULAS = sorted(ANSWERS["formulas"].items())
GAMES = sorted(ANSWERS["games"].items())


def test_every_bundled_file_has_a_stated_answer():
    listed = {name for name, _ in DECKS} | {name for name, _ in FORMULAS} \
        | {name for name, _ in GAMES}
    on_disk = set()
    for root, _, files in os.walk(HERE):
        for f in files:
            rel = os.path.relpath(os.path.join(root, f), HERE).replace(os.sep, "/")
            # satlib/ carries SATLIB's own labels (checked against CaDiCaL by the
            # round-trip tests: a sample by default, all 200 with --runslow).
            if rel not in ("answers.json", "README.md") and not rel.startswith("satlib/"):
                on_disk.add(rel)
    assert on_disk == listed


@pytest.mark.parametrize("name,info", DECKS, ids=[n for n, _ in DECKS])
def test_deck_answers(name, info):
    deck = read_deck_file(os.path.join(HERE, name)).deck
    for h, expected in sorted(info["answers"].items()):
        h = int(h)
        methods = ["sat"]
        if state_bound(deck, h) <= STATE_LIMIT // 4:
            methods.append("brute")
        for method in methods:
            out = solve(deck, h, method)
            assert out.status is Status[expected], (name, h, method, out.reason)
            if out.status is Status.WINNABLE:
                assert out.verified
    assert min_hand(deck, "sat").h == info["min_hand"]


@pytest.mark.parametrize("name,info", FORMULAS, ids=[n for n, _ in FORMULAS])
def test_formula_answers(name, info):
    from pysat.solvers import Solver
    cnf = read_dimacs(os.path.join(HERE, name))
    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as s:
        sat = s.solve()
        if sat:
            assert cnf.satisfied_by(s.get_model())
    assert sat == info["satisfiable"]


def test_deck_headers_give_a_winning_hand():
    # The `h` line in each deck file is a hand size stated in answers.json, so that
    # commands run without --hand give a documented answer.
    for name, info in DECKS:
        df = read_deck_file(os.path.join(HERE, name))
        if df.h is not None:
            assert str(df.h) in info["answers"], name


@pytest.mark.parametrize("name,info", GAMES, ids=[n for n, _ in GAMES])
def test_game_post_mortems(name, info):
    import hanabi_cp as hc
    pm = hc.analyze(os.path.join(HERE, name))
    assert pm.final_score == info["final_score"]
    assert [[d.position, d.before, d.after] for d in pm.drops] == info["drops"]
