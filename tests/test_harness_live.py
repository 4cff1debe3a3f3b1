"""The harness on real-rules games: every method against brute force on tiny decks,
journal §5.1 as a property (and its failure once the final round is back), planted
bugs caught and shrunk, the CLI and its resumable CSV."""

from dataclasses import replace

import pytest
from click.testing import CliRunner

from hanabi_cp.cli import main
from hanabi_cp.io import read_deck_file
from hanabi_cp.apps.harness.check import BUG, UNWINNABLE, WINNABLE
from hanabi_cp.apps.harness.live import (LIFTED, SOLITAIRE, LiveCheck, cross_check_live, lifted_rules, live_problems,
                                         run_live_check, select_live_checks)
from hanabi_cp.apps.harness.live_space import LiveSpace
from hanabi_cp.real.rules import Rules
from hanabi_cp.real.referee import Game
from hanabi_cp.real.solve import LiveMethod, LiveOutcome, live_methods
from hanabi_cp.core.model import Deck
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.status import Status

SPACE = LiveSpace()
ORACLE_AND_SEARCH = ("brute", "search")


def sample(rate: float) -> dict[str, float]:
    """Model-building methods (CP-SAT, SAT: milliseconds a deck where brute force and
    search take microseconds) run on a ``rate`` share of the decks."""
    others = [m for m in live_methods() if m not in ORACLE_AND_SEARCH]
    return {"solitaire:cpsat": rate, **{m: rate for m in others}}


def _wrong_hand(name: str) -> LiveMethod:
    """``search`` deciding the game with one more card per hand: a planted bug."""
    search = live_methods()["search"]
    return LiveMethod(name, lambda start, opts: search.run(
        Game.start(start.deck, replace(start.rules, hand_size=start.rules.hand_size + 1)), opts),
        "search with H + 1 (planted bug)", maximizes=True)


# The first 60 decks of the stream in the normal run (make test), all 300 with --runslow.
@pytest.mark.parametrize("count", [60, pytest.param(300, marks=pytest.mark.slow)])
def test_every_real_rules_method_and_the_solitaire_model_agree_on_hundreds_of_decks(count):
    report = cross_check_live(2026, count, SPACE, sample=sample(0.2))
    assert report.ok, [f.problems for f in report.failures[:3]]
    assert report.instances == count
    names = set(live_methods())
    for name in names:              # every registered method ran, and on the lifted rules
        for label in (name, name + LIFTED):
            assert report.tallies[label].run > 0, label
    brute = report.tallies["brute"]
    assert brute.winnable > count * 80 // 300 and brute.unwinnable > count * 80 // 300
    # §5.1: the lifted games were compared with every solitaire method at p*H - 1.
    assert report.tallies[SOLITAIRE + "dp+max"].run == count
    assert report.tallies["brute" + LIFTED].winnable > brute.winnable


@pytest.mark.slow
def test_thousands_of_tiny_decks_agree():
    report = cross_check_live(14, 4000, SPACE, sample=sample(0.25))
    assert report.ok, [f.problems for f in report.failures[:3]]


@pytest.mark.slow
def test_larger_tiny_decks_agree():
    space = LiveSpace(max_n=4, max_c=3, max_r=2, max_hand=3, max_cards=10)
    report = cross_check_live(15, 300, space, lift="none", sample=sample(0.25))
    assert report.ok, [f.problems for f in report.failures[:3]]


def test_the_final_round_breaks_the_equivalence_and_the_harness_shrinks_a_witness(tmp_path):
    checks = [c for c in select_live_checks(["brute"], lift="clues")
              if c.label in ("brute+max/lifted", "solitaire:dp+max")]
    report = cross_check_live(1, 40, SPACE, checks, lift="clues", out_dir=str(tmp_path))
    assert report.failures
    for fail in report.failures:
        # Only equality fails: the real rules never beat the lifted ones.
        assert all(p.startswith("lifted rules: ") for p in fail.problems), fail.problems
    fail = report.failures[0]
    small, rules = fail.shrunk, fail.shrunk_rules
    assert small.deck.N <= 3 and rules.players == 2 and rules.hand_size == 1
    scores = {r.label: r.score for r in fail.shrunk_results}
    assert scores["brute+max/lifted"] < scores["solitaire:dp+max"] == small.deck.target
    deck_file, script = fail.files
    assert read_deck_file(deck_file).deck == small.deck
    text = open(script).read()
    assert "--rules live --players 2 --hand-size 1 --clues unlimited" in text
    assert f"--hand {2 * 1 - 1} --method dp --maximize" in text


def test_planted_wrong_method_is_caught_and_shrunk(tmp_path):
    checks = select_live_checks(["brute", "wrong"], extra=[_wrong_hand("wrong")], lift="none")
    report = cross_check_live(3, 200, SPACE, checks, lift="none", out_dir=str(tmp_path))
    assert not report.ok
    fail = report.failures[0]
    assert any(lbl.startswith("wrong") for lbl in fail.culprits)
    assert fail.shrunk.deck.N <= 4
    # The shrunk instance still fails, for the same method.
    assert live_problems(fail.shrunk_results, fail.shrunk.deck.target)
    assert "--method wrong" in open(fail.files[1]).read()


def test_a_certificate_the_referee_rejects_is_a_bug():
    def liar(start, opts):
        return LiveOutcome(Status.WINNABLE, actions=[])
    check = LiveCheck(LiveMethod("liar", liar, "claims every deck"))
    deck, rules = Deck.of([(1, 1), (2, 1)]), Rules(2, 1)
    res = run_live_check(check, deck, rules, SolveOptions())
    assert res.status == BUG and "stops before the game is over" in res.detail
    assert live_problems([res], deck.target)


def test_real_rules_above_lifted_rules_is_a_problem():
    deck, rules = Deck.of([(1, 1), (2, 1)]), Rules(2, 1)
    search = live_methods()["search"]
    real = run_live_check(LiveCheck(search, True), deck, rules, SolveOptions())
    lifted = run_live_check(LiveCheck(search, True, True), deck, lifted_rules(rules, "all"),
                            SolveOptions())
    assert (real.status, real.score, lifted.score) == (WINNABLE, 2, 2)
    assert not live_problems([real, lifted], deck.target)
    low = replace(lifted, status=UNWINNABLE, score=1)
    found = live_problems([real, low], deck.target)
    assert any("above" in p for p in found) and any("not under the lifted" in p for p in found)


def test_space_draws_every_shape_and_is_reproducible():
    insts = list(SPACE.instances(3, 300))
    assert {i.kind for i in insts} == {"random", "exact", "missing", "deal-only", "c1"}
    assert all(i.deck.N <= SPACE.max_cards for i in insts)
    assert {i.rules.players for i in insts} == {2, 3}
    assert {i.rules.clues for i in insts} == {0, 1, 2, 3, None}
    assert {i.rules.final_round for i in insts} == {True, False}
    assert any(i.deck.N <= i.rules.players * i.rules.hand_size for i in insts)
    assert SPACE.instance(3, 250) == insts[250]


def test_cli_live_harness_agrees_and_resumes_from_its_csv(tmp_path):
    csv = str(tmp_path / "h.csv")
    args = ["harness", "--rules", "live", "--seed", "4", "--count", "40", "--no-progress",
            "--csv", csv, "--out", str(tmp_path / "out"), "--sample", "solitaire:cpsat=0"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    assert "c all methods agree (seed 4)" in res.output and "search+max/lifted" in res.output
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 0 and "(0 new); 40 instances read back" in again.output


def test_cli_live_harness_exits_1_on_the_final_round_counterexample(tmp_path):
    res = CliRunner().invoke(main, ["harness", "--rules", "live", "--seed", "1", "--count", "20",
                                    "--methods", "brute", "--lift", "clues", "--no-maximize",
                                    "--no-progress", "--out", str(tmp_path)])
    assert res.exit_code == 1 and "DISAGREEMENT" in res.output and "shrunk to" in res.output


def test_cli_live_harness_rejects_what_does_not_apply():
    for extra, says in ((["--cnf-count", "3"], "do not go with --rules live"),
                        (["--max-h", "0"], "--max-h must be 1 to 100"),
                        (["--max-h", "101"], "--max-h must be 1 to 100"),
                        (["--methods", "zzz"], "unknown real-rules method 'zzz'")):
        res = CliRunner().invoke(main, ["harness", "--rules", "live", "--count", "1", *extra])
        assert res.exit_code == 2 and says in res.output, res.output


def test_cli_live_options_need_rules_live():
    res = CliRunner().invoke(main, ["harness", "--count", "1", "--max-players", "2"])
    assert res.exit_code == 2 and "--max-players goes with --rules live" in res.output


def test_a_method_registered_later_is_cross_checked_without_change(monkeypatch):
    from hanabi_cp.real.solve import LIVE_METHODS

    search = live_methods()["search"]
    # a row whose object is already loaded: tried without a module of its own
    monkeypatch.setitem(LIVE_METHODS.entries, "newcomer", "tests:newcomer")
    monkeypatch.setitem(LIVE_METHODS.loaded, "newcomer",
                        LiveMethod("newcomer", search.run, "search again", maximizes=True))
    labels = {c.label for c in select_live_checks()}
    assert {"newcomer", "newcomer+max", "newcomer/lifted", "newcomer+max/lifted"} <= labels
    report = cross_check_live(8, 30, SPACE, lift="none")
    assert report.ok and report.tallies["newcomer+max"].run == 30
