"""Real-rules time limits on large decks: ``--time-limit`` bounds ``solve --rules live``
and ``play DECK --bound`` on decks of tens of thousands of cards, whose lost-deck
reasons (a sweep of O(cards x kinds)), search nodes (a bound of O(cards) each) and
strategy games once ran for minutes past it.

Each command runs in a capped child whose deadline (60 s) is the only timing here:
a generous bound that the old code (minutes) failed, never a measurement.
"""

from __future__ import annotations

import os

import pytest

from capped import capped, cli_capped, needs_fork
from hanabi_cp.runtime.deadline import Deadline, TimeUp, ambient
from hanabi_cp.io import write_deck
from hanabi_cp.apps.generators import random_deck
from hanabi_cp.real.reasons import _sweep, lost_reason, lost_reasons, score_bound
from hanabi_cp.real.rules import Rules
from hanabi_cp.core.model import Card, Deck

pytestmark = needs_fork

PASSED = Deadline.after(1e-9, start=0.0)


def big_deck(tmp_path, n: int, c: int, r: int, name: str = "big.txt") -> str:
    path = str(tmp_path / name)
    write_deck(path, random_deck(2, n=n, c=c, r=r, exact_copies=True))
    return path


@pytest.mark.parametrize("n,c,r", [(1000, 5, 5), (200, 10, 10)])     # 25,000 and 20,000 cards
def test_solve_live_keeps_the_time_limit_on_a_large_deck(tmp_path, n, c, r):
    deck = big_deck(tmp_path, n, c, r)
    res = cli_capped(["solve", deck, "--rules", "live", "--players", 2, "--time-limit", 1],
                     extra_mb=1000, timeout=60)
    assert res.error is None and res.exit_code in (0, 20), (res.exit_code, res.stderr)
    assert "\ns UNKNOWN\n" in res.stdout or "\ns UNWINNABLE\n" in res.stdout, res.stdout


def test_solve_live_reading_is_under_the_time_limit_too(tmp_path):
    deck = big_deck(tmp_path, 200, 10, 10)
    res = cli_capped(["solve", deck, "--rules", "live", "--players", 2, "--time-limit", "1e-9"],
                     extra_mb=500, timeout=60)
    assert res.error is None and res.exit_code == 0, res.stderr
    assert "s UNKNOWN" in res.stdout and "reached during reading the deck" in res.stdout


def test_play_bound_keeps_the_time_limit_on_a_large_deck(tmp_path):
    deck = big_deck(tmp_path, 440, 5, 5)                                  # 11,000 cards
    res = cli_capped(["play", deck, "--bound", "--time-limit", 1, "--players", 5],
                     extra_mb=1000, timeout=60)
    assert res.error is None and res.exit_code == 0, (res.exit_code, res.stderr)
    assert ("c game: unfinished: time limit of 1 s reached during playing the game"
            in res.stdout) or "c bound: undecided within" in res.stdout, res.stdout


def test_play_on_a_standard_deck_is_unchanged_by_the_limit():
    from hanabi_cp.cli import main
    from click.testing import CliRunner
    std = os.path.join(os.path.dirname(__file__), os.pardir, "instances", "standard-winnable-h2.txt")
    res = CliRunner().invoke(main, ["play", std, "--players",
                                    3, "--bound", "--time-limit", 30])
    assert res.exit_code == 0 and "\nscore " in res.output and "c bound: best score" in res.output


def test_the_reasons_sweep_polls_the_deadline_and_lost_reason_gives_up():
    deck = random_deck(5, n=200, c=10, r=3, exact_copies=True)
    rules = Rules.for_players(2)
    with ambient(PASSED), pytest.raises(TimeUp, match="the lost-deck reasons"):
        next(_sweep(deck, rules, False, False))
    got = capped(lambda: _gives_up(deck, rules), timeout=60)
    assert got is None


def test_the_reasons_bound_on_the_score_polls_the_deadline_too():
    deck = random_deck(5, n=200, c=10, r=3, exact_copies=True)
    with ambient(PASSED), pytest.raises(TimeUp, match="the lost-deck reasons"):
        score_bound(deck, Rules.for_players(2))


def _gives_up(deck: Deck, rules: Rules):
    with ambient(PASSED):
        return lost_reason(deck, rules)


def test_without_a_deadline_the_reasons_are_those_of_before():
    # a 2-color deck whose 1s of color 2 come last: the hand-size sweep fires
    cards = [Card(a, 1) for a in range(1, 8)] + [Card(a, 2) for a in range(7, 0, -1)]
    deck, rules = Deck(tuple(cards), 7, 2), Rules(2, 1, 8, 3)
    reasons = lost_reasons(deck, rules)
    assert reasons and lost_reason(deck, rules) == reasons[0]
    with ambient(Deadline.after(3600)):
        assert lost_reason(deck, rules) == reasons[0]


def test_the_solitaire_cnf_of_a_deck_of_many_copies_keeps_the_time_limit(tmp_path):
    # 200,000 cards of 20 kinds: a hold segment lists up to 10^4 active copies, and the
    # clock was read every 4,096 segments (44 s and a MemoryError at --time-limit 5)
    deck = tmp_path / "copies.txt"
    deck.write_text(" ".join(f"{i % 5 + 1}:{i % 4 + 1}" for i in range(200_000)) + "\n")
    res = cli_capped(["solve", deck, "--hand", 2, "--method", "sat", "--time-limit", 5],
                     timeout=60)
    assert res.error is None and res.exit_code == 0, (res.exit_code, res.stderr)
    assert "s UNKNOWN" in res.stdout and "time limit of 5 s reached" in res.stdout, res.stdout


def test_sat_best_score_runs_out_while_loading_the_cnf(monkeypatch):
    """The deadline may pass while the CNF is loaded into the solver, before the
    climb's first call: the answer is UNKNOWN, never a TimeUp out of ``solve``."""
    from hanabi_cp.core.options import SolveOptions
    from hanabi_cp.core.status import Status
    from hanabi_cp.real.methods import sat
    from hanabi_cp.real.referee import Game
    from hanabi_cp.solvers import sat_backend
    from hanabi_cp.apps.generators import standard_deck

    def late(solver, clauses, deadline):
        raise TimeUp(0.5, "loading the CNF into the SAT solver")

    monkeypatch.setattr(sat_backend, "load", late)
    start = Game.start(standard_deck(3), Rules.for_players(2))
    out = sat.run(start, SolveOptions(time_limit=5, maximize=True))
    assert out.status is Status.UNKNOWN and "loading the CNF" in (out.reason or "")
    assert sat.at_least(start, 25, Deadline.after(5)).status is Status.UNKNOWN
