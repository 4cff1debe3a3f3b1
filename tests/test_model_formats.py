"""encode / decode --format cpsat|mzn|opb|wcnf: every format solved by its own
community's solver gives our verdict on the bundled decks and on small reduction
images, and the decoded play replays; the MiniZinc model, the CP-SAT models and
the Boolean score model agree with brute force on tiny decks; the optional
methods (minizinc, pb) refuse in one line without their tools and join the
harness with them."""

import glob
import os
import random
import subprocess
import sys

import pytest
from click.testing import CliRunner

from hanabi_cp.cli import main
from hanabi_cp.io import deck_to_text, read_deck_file
from hanabi_cp.apps.generators import random_deck, random_kcnf
from hanabi_cp.solitaire.methods import minizinc as mzn_method
from hanabi_cp.solitaire.methods import pb as pb_method
from hanabi_cp.solitaire.methods.brute import brute
from hanabi_cp.solitaire.play_sequence import PlaySequence
from hanabi_cp.solitaire.reduction import reduce_cnf
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.solitaire.solve import solve
from hanabi_cp.core.status import Status
from hanabi_cp.solitaire.referee import replay

ROOT = os.path.join(os.path.dirname(__file__), os.pardir)
BUNDLED = sorted(p for p in glob.glob(os.path.join(ROOT, "instances", "*.txt"))
                 if read_deck_file(p).h is not None)
needs_minizinc = pytest.mark.skipif(mzn_method.missing() is not None,
                                    reason=f"{mzn_method.missing()}")
needs_minisat = pytest.mark.skipif(pb_method.missing() is not None,
                                   reason=f"{pb_method.missing()}")


def run(args, **kw):
    return CliRunner().invoke(main, [str(a) for a in args], **kw)


def v_line(out: str) -> PlaySequence:
    return PlaySequence(next(l[2:] for l in out.splitlines() if l.startswith("v ")))


def solve_with_own_solver(fmt: str, model: str, data: str | None, answer: str) -> None:
    """The community's solver on the file, its answer written to ``answer``."""
    if fmt == "cpsat":
        from bench.cpsat_proto import solve_file
        solve_file([model, answer])
        return
    argv = {"mzn": ["minizinc", "--solver", "gecode", model, data or ""],
            "opb": ["minisat+", model],
            "wcnf": [sys.executable, "-m", "pysat.examples.rc2", "-vv", model]}[fmt]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    with open(answer, "w") as f:
        f.write(out.stdout)


FORMATS = [pytest.param("cpsat", id="cpsat"), pytest.param("mzn", marks=needs_minizinc),
           pytest.param("opb", marks=needs_minisat), pytest.param("wcnf", id="wcnf")]


def check_round_trip(tmp_path, deck_path: str, h: int, fmt: str, maximize: bool = False):
    deck = read_deck_file(deck_path).deck
    expected = solve(deck, h, "sat")
    model = str(tmp_path / f"m.{fmt}")
    data = str(tmp_path / "d.dzn") if fmt == "mzn" else None
    args = ["encode", deck_path, "--hand", h, "--format", fmt, "-o", model, "--force"]
    args += ["--data", data] if data else []
    args += ["--maximize"] if maximize else []
    res = run(args)
    assert res.exit_code == 0, res.output
    answer = str(tmp_path / f"{fmt}.answer")
    solve_with_own_solver(fmt, model, data, answer)
    args = ["decode", deck_path, answer, "--hand", h, "--format", fmt]
    res = run(args + (["--maximize"] if maximize else []))
    want = 10 if expected.status is Status.WINNABLE else 20
    assert res.exit_code == want, (deck_path, fmt, res.output, res.stderr)
    if "v " in res.output:
        plays = v_line(res.output)
        rep = replay(deck, h, plays)
        assert rep.legal and rep.won == (want == 10)
        if maximize or fmt == "wcnf":
            best = solve(deck, h, "cpsat", SolveOptions(maximize=True)).score
            assert rep.score == best


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("deck_path", BUNDLED, ids=os.path.basename)
def test_bundled_decks_in_every_format(tmp_path, deck_path, fmt):
    check_round_trip(tmp_path, deck_path, read_deck_file(deck_path).h, fmt)


@pytest.mark.parametrize("fmt", [pytest.param("cpsat"), pytest.param("mzn", marks=needs_minizinc),
                                 pytest.param("opb", marks=needs_minisat)])
def test_maximize_on_the_lost_standard_deck(tmp_path, fmt):
    check_round_trip(tmp_path, os.path.join(ROOT, "instances", "standard-unwinnable-h2.txt"),
                     2, fmt, maximize=True)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("seed", [1, 2])
def test_small_reduction_images_in_every_format(tmp_path, fmt, seed):
    # 3 variables, 13 clauses: seed 1 satisfiable, seed 2 not (935-card images).
    red = reduce_cnf(random_kcnf(seed, 3, 13, 3), h=2)
    path = tmp_path / "image.txt"
    path.write_text(deck_to_text(red.deck, h=2))
    check_round_trip(tmp_path, str(path), 2, fmt)


def tiny_decks(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        deck = random_deck(rng, rng.randint(1, 4), rng.randint(1, 3), rng.randint(1, 3),
                           p_missing=0.05)
        yield deck, rng.randint(0, 3)


def agree_with_brute(count: int, seed: int) -> None:
    from hanabi_cp.solitaire.encoders.mzn import build
    from hanabi_cp.solitaire.methods.minizinc import solve_data
    for deck, h in tiny_decks(count, seed):
        b, bm = brute(deck, h), brute(deck, h, maximize=True)
        # The model alone (no preprocessing facts), with them, and the score.
        for facts in (False, True):
            got = solve_data(build(deck, h, facts=facts), SolveOptions())
            assert got.status is b.status, (str(deck), h, facts)
        for method in ("minizinc", "cpsat"):
            got = solve(deck, h, method, SolveOptions(maximize=True))
            assert (got.status, got.score) == (bm.status, bm.score), (str(deck), h, method)
            assert solve(deck, h, "cpsat").status is b.status


@needs_minizinc
def test_mzn_and_cpsat_models_agree_with_brute_force():
    agree_with_brute(25, 7)


@pytest.mark.slow
@needs_minizinc
def test_mzn_and_cpsat_models_agree_with_brute_force_on_hundreds():
    agree_with_brute(400, 8)


@pytest.mark.parametrize("method", ["maxsat", pytest.param("pb", marks=needs_minisat)])
def test_pb_and_maxsat_methods_agree_with_brute_force(method):
    for deck, h in tiny_decks(25, 9):
        b, bm = brute(deck, h), brute(deck, h, maximize=True)
        assert solve(deck, h, method).status is b.status, (str(deck), h)
        got = solve(deck, h, method, SolveOptions(maximize=True))
        assert (got.status, got.score) == (bm.status, bm.score), (str(deck), h)


def test_score_model_agrees_with_brute_force_in_process():
    # The Boolean score model under RC2 in memory: hundreds of decks in seconds.
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF
    from hanabi_cp.solitaire.encoders import pbmodels, score
    for deck, h in tiny_decks(300, 10):
        enc = score.build(deck, h)
        w = WCNF()
        for cl in pbmodels.hard_clauses(enc)[0]:
            w.append(list(cl))
        for v in enc.played.values():
            w.append([v], weight=1)
        with RC2(w) as rc2:
            model = rc2.compute()
        values = {abs(l): l > 0 for l in model}
        rep = replay(deck, h, enc.decode(values))
        assert rep.legal and rep.score == enc.score(values) == brute(deck, h, maximize=True).score


def test_harness_lists_the_optional_methods(tmp_path):
    from hanabi_cp.apps.harness import select_checks
    labels = {c.label for c in select_checks()}
    assert {"maxsat", "maxsat+max"} <= labels
    if mzn_method.missing() is None:
        assert {"minizinc", "minizinc+max"} <= labels
    res = run(["harness", "--seed", 3, "--count", 6, "--methods", "brute,cpsat,minizinc,maxsat",
               "--no-progress", "--out", tmp_path / "out"])
    assert res.exit_code == 0, res.output
    table = res.output
    assert "minizinc" in table and "maxsat" in table


def test_a_missing_tool_is_a_one_line_refusal(monkeypatch):
    from hanabi_cp.runtime import external
    monkeypatch.setattr(external, "which", lambda program: None)
    mzn_method.missing.cache_clear()
    try:
        res = run(["solve", os.path.join(ROOT, "instances", "standard-winnable-h2.txt"),
                   "--method", "minizinc"])
        assert res.exit_code == 2
        assert "MiniZinc is not installed" in res.stderr and len(res.stderr.splitlines()) == 1
        res = run(["solve", os.path.join(ROOT, "instances", "standard-winnable-h2.txt"),
                   "--method", "pb"])
        assert res.exit_code == 2 and "minisat+ is not installed" in res.stderr
    finally:
        mzn_method.missing.cache_clear()


def test_dimacs_is_unchanged_and_format_errors_are_one_line(tmp_path):
    deck = os.path.join(ROOT, "instances", "standard-winnable-h2.txt")
    plain, named = run(["encode", deck]), run(["encode", deck, "--format", "dimacs"])
    assert plain.exit_code == named.exit_code == 0 and plain.stdout == named.stdout
    for args, words in [(["--maximize"], "--maximize does not go with --format dimacs"),
                        (["--format", "opb", "--data", tmp_path / "x.dzn"], "--data goes with"),
                        (["--format", "mzn", "--varmap", tmp_path / "x.map"], "no variable map")]:
        res = run(["encode", deck, *args])
        assert res.exit_code == 2 and words in res.stderr and len(res.stderr.splitlines()) == 1


def test_encode_refuses_to_overwrite_and_mzn_stdout_is_one_model(tmp_path):
    deck = os.path.join(ROOT, "instances", "standard-winnable-h2.txt")
    out = tmp_path / "w.opb"
    assert run(["encode", deck, "--format", "opb", "-o", out]).exit_code == 0
    res = run(["encode", deck, "--format", "opb", "-o", out])
    assert res.exit_code == 2 and "use --force" in res.stderr
    res = run(["encode", deck, "--format", "mzn"])
    assert res.exit_code == 0 and "include \"cumulative.mzn\"" in res.stdout
    assert "value = [" in res.stdout


def test_decode_rejects_answers_that_are_not_solutions(tmp_path):
    deck = os.path.join(ROOT, "instances", "standard-winnable-h2.txt")
    bad = tmp_path / "bad.answer"
    bad.write_text("s SATISFIABLE\nv -x1 -x2 -x3\n")
    res = run(["decode", deck, bad, "--format", "opb"])
    assert res.exit_code == 2 and "not a solution" in res.stderr
    bad.write_text("picks = [1];\nscore = 25;\n----------\n")
    res = run(["decode", deck, bad, "--format", "mzn"])
    assert res.exit_code == 2 and "referee counts" in res.stderr
    bad.write_text("s UNSATISFIABLE\n")
    res = run(["decode", deck, bad, "--format", "opb"])
    assert res.exit_code == 20 and "not checked" in res.stdout
    res = run(["decode", deck, bad, "--format", "wcnf"])      # playing nothing is a game
    assert res.exit_code == 2 and "a wrong answer" in res.stderr
    lost = os.path.join(ROOT, "instances", "standard-unwinnable-h2.txt")
    res = run(["decode", lost, bad, "--format", "opb"])       # preprocessing's own reason
    assert res.exit_code == 20 and "c reason: preprocessing: after card #32" in res.stdout


@needs_minizinc
def test_family_in_the_minizinc_challenge_layout(tmp_path):
    decks = os.path.join(ROOT, "instances", "hard")
    out = tmp_path / "fam"
    res = run(["generate", "family", "hard", "--decks", decks, "--format", "mzn", "-o", out])
    assert res.exit_code == 0, res.output
    names = sorted(os.listdir(out))
    assert "solitaire.mzn" in names and "MANIFEST.csv" in names
    dzn = [n for n in names if n.endswith(".dzn")]
    assert len(dzn) == len(glob.glob(os.path.join(decks, "*.txt")))
    text = (out / dzn[0]).read_text()
    assert text.startswith("% generated by hanabi-cp") and "% expected: " in text


@pytest.mark.parametrize("fmt,suffix,mark", [("opb", ".opb", "*"), ("wcnf", ".wcnf", "c")])
def test_family_images_in_pb_and_maxsat_layouts(tmp_path, fmt, suffix, mark):
    out = tmp_path / fmt
    res = run(["generate", "family", "images", "--vars", 3, "--count", 1, "--seed", 1,
               "--format", fmt, "-o", out])
    assert res.exit_code == 0, res.output
    files = [n for n in os.listdir(out) if n.endswith(suffix)]
    assert len(files) == 1
    text = (out / files[0]).read_text()
    assert f"{mark} generated by hanabi-cp" in text and f"{mark} expected: " in text
    assert fmt in (out / "MANIFEST.csv").read_text()


def test_a_deck_too_large_for_the_score_model_is_refused_naming_the_file_and_the_way_out(tmp_path):
    """A reduction image of a SATLIB formula (37,461 cards): the quadratic score model
    (WCNF, OPB with --maximize) is refused in one line that names the deck file and the
    formats that do encode it; DIMACS then encodes it."""
    from hanabi_cp.io import write_deck
    from hanabi_cp.solvers.dimacs import read_dimacs
    red = reduce_cnf(read_dimacs(os.path.join(ROOT, "instances", "satlib", "uf20-91", "uf20-01.cnf")))
    deck = tmp_path / "image.txt"
    write_deck(str(deck), red.deck, h=red.h)
    for args in (["--format", "wcnf"], ["--format", "opb", "--maximize"]):
        res = CliRunner().invoke(main, ["encode", str(deck), "-o", str(tmp_path / "out"), *args])
        assert res.exit_code == 2 and len(res.stderr.splitlines()) == 1, res.output
        assert "image.txt: the Boolean score model is quadratic" in res.stderr
        assert "--format dimacs or cpsat encode this deck" in res.stderr
        assert not (tmp_path / "out").exists()
    ok = CliRunner().invoke(main, ["encode", str(deck), "-o", str(tmp_path / "image.cnf")])
    assert ok.exit_code == 0, ok.output
