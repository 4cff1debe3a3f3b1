"""The solve / verify / generate / encode / decode / min-hand commands through CliRunner,
plus one smoke test of the installed entry point."""

import csv
import json
import os
import random
import shlex
import subprocess
import sys

import pytest
from click.testing import CliRunner

from hanabi_cp.core.version import __version__
from hanabi_cp.solitaire.methods.brute import brute
from hanabi_cp.cli import main
from hanabi_cp.io import deck_to_text, read_deck_file
from hanabi_cp.solvers.dimacs import read_dimacs
from hanabi_cp.apps.generators import random_deck
from hanabi_cp.solitaire.play_sequence import PlaySequence
from hanabi_cp.solitaire.solve import methods
from hanabi_cp.solitaire.referee import replay
from test_min_hand import brute_min

INST = os.path.join(os.path.dirname(__file__), os.pardir, "instances")
WIN = os.path.join(INST, "standard-winnable-h2.txt")       # h 2 header; wins at 2, not at 1
LOSE = os.path.join(INST, "standard-unwinnable-h2.txt")    # h 2 header; min hand 3
SMALL_UNSAT = os.path.join(INST, "small-search-unwinnable-h1.txt")
LAZY = os.path.join(INST, "lazy-c1.txt")


def runner() -> CliRunner:
    # click < 8.2 mixes stderr into output unless told not to; later versions keep
    # them apart and dropped the argument.
    try:
        return CliRunner(mix_stderr=False)
    except TypeError:
        return CliRunner()


def run(args, input=None):
    return runner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)


def v_line(stdout: str) -> PlaySequence:
    (line,) = [l for l in stdout.splitlines() if l.startswith("v ")]
    return PlaySequence(line[2:].strip())


def s_line(stdout: str) -> str:
    (line,) = [l for l in stdout.splitlines() if l.startswith("s ")]
    return line


# --- solve -----------------------------------------------------------------------

def test_solve_winnable_prints_verified_certificate():
    res = run(["solve", WIN, "--hand", 2, "--certificate", "-"])
    assert res.exit_code == 10
    assert s_line(res.stdout) == "s WINNABLE"
    assert "c certificate verified by the referee" in res.stdout
    assert any(l.startswith("c method: ") and l.endswith(" (auto)") for l in res.stdout.splitlines())
    deck = read_deck_file(WIN).deck
    assert replay(deck, 2, v_line(res.stdout)).won


def test_solve_unwinnable_gives_reason_and_exit_20():
    res = run(["solve", WIN, "--hand", 1])
    assert res.exit_code == 20
    assert s_line(res.stdout) == "s UNWINNABLE"
    assert any(l.startswith("c reason: ") and len(l) > 12 for l in res.stdout.splitlines())
    assert "v " not in res.stdout


def test_hand_defaults_to_the_file_header():
    assert run(["solve", LOSE]).exit_code == 20          # h 2 in the file
    assert run(["solve", LOSE, "--hand", 3]).exit_code == 10


def test_solve_json_has_sorted_keys_and_the_exit_code():
    res = run(["solve", WIN, "--json", "--method", "sat"])
    assert res.exit_code == 10
    data = json.loads(res.stdout)
    assert res.stdout.strip() == json.dumps(data, sort_keys=True, indent=2)
    assert data["status"] == "WINNABLE" and data["verified"] and data["method"] == "sat"
    assert replay(read_deck_file(WIN).deck, 2, PlaySequence(data["plays"])).won


def test_every_registered_method_is_offered():
    res = run(["solve", "--help"])
    for name in ["auto", *methods()]:
        assert name in res.stdout


@pytest.mark.parametrize("method", ["sat", "brute", "dp", "lazy", "auto"])
def test_methods_agree_on_the_lazy_instance(method):
    if method not in methods() and method != "auto":
        pytest.skip(f"method {method} not registered")
    assert run(["solve", LAZY, "--hand", 2, "--method", method]).exit_code == 20
    res = run(["solve", LAZY, "--hand", 3, "--method", method, "--certificate", "-"])
    assert res.exit_code == 10
    assert replay(read_deck_file(LAZY).deck, 3, v_line(res.stdout)).won


def test_solve_reads_stdin():
    text = open(WIN).read()
    res = run(["solve", "-"], input=text)
    assert res.exit_code == 10


def test_maximize_prints_a_checked_best_score():
    res = run(["solve", LAZY, "--hand", 2, "--method", "brute", "--maximize", "--certificate", "-"])
    assert res.exit_code == 20
    deck = read_deck_file(LAZY).deck
    best = brute(deck, 2, maximize=True).score
    assert f"c score: {best} of {deck.target}" in res.stdout
    assert replay(deck, 2, v_line(res.stdout)).score == best


def test_certificate_file_is_not_overwritten_without_force(tmp_path):
    cert = tmp_path / "plays.txt"
    assert run(["solve", WIN, "--certificate", cert]).exit_code == 10
    assert replay(read_deck_file(WIN).deck, 2, PlaySequence(cert.read_text().strip())).won
    cert.write_text("keep me\n")
    res = run(["solve", WIN, "--certificate", cert])
    assert res.exit_code == 2 and "--force" in res.stderr
    assert cert.read_text() == "keep me\n"
    assert run(["solve", WIN, "--certificate", cert, "--force"]).exit_code == 10
    assert cert.read_text() != "keep me\n"


def test_proof_is_written_and_checked(tmp_path):
    proof = tmp_path / "p.drup"
    res = run(["solve", SMALL_UNSAT, "--method", "sat", "--proof", proof])
    assert res.exit_code == 20
    assert "checked by drup" in res.stdout
    assert proof.exists() and (tmp_path / "p.drup.cnf").exists()
    again = run(["solve", SMALL_UNSAT, "--method", "sat", "--proof", proof])
    assert again.exit_code == 2 and "--force" in again.stderr


def test_proof_not_needed_is_said(tmp_path):
    # (Not --proof /dev/null: a device is refused as a proof path, since a proof is
    # renamed into place and would replace the device node.)
    res = run(["solve", LOSE, "--method", "sat", "--proof", tmp_path / "p.drup"])
    assert res.exit_code == 20
    assert "c no proof written" in res.stdout and os.listdir(tmp_path) == []


def test_unknown_outcome_is_printed_with_exit_code_0(capsys):
    from hanabi_cp.cli.common import print_outcome
    from hanabi_cp.solitaire.solve import Outcome
    from hanabi_cp.core.status import Status
    deck = read_deck_file(WIN).deck
    out = Outcome(Status.UNKNOWN, reason="time limit of 1.0 s reached", method="sat",
                  stats={"seconds": 1.0})
    print_outcome(out, deck, 2, certificate="-")
    text = capsys.readouterr().out
    assert s_line(text) == "s UNKNOWN"
    assert "c reason: time limit of 1.0 s reached" in text
    assert "c no certificate: undecided" in text and "v " not in text
    assert Status.UNKNOWN.exit_code == 0


# --- verify ----------------------------------------------------------------------

def test_verify_confirms_a_win(tmp_path):
    cert = tmp_path / "plays.txt"
    run(["solve", WIN, "--certificate", cert])
    res = run(["verify", WIN, cert])
    assert res.exit_code == 0
    assert s_line(res.stdout) == "s VERIFIED"
    assert "c score: 25 of 25" in res.stdout
    assert "c max hand: 2 of 2" in res.stdout


def test_verify_names_the_first_illegal_step(tmp_path):
    cert = tmp_path / "plays.txt"
    run(["solve", WIN, "--certificate", cert])
    res = run(["verify", WIN, cert, "--hand", 1])
    assert res.exit_code == 1
    assert s_line(res.stdout) == "s REJECTED"
    assert "cannot store, hand is full (1 of 1)" in res.stdout
    # playing the first card of the deck when it is not a 1
    deck = read_deck_file(WIN).deck
    first_bad = next(i for i, (a, k) in enumerate(deck.cards) if a != 1)
    actions = "D" * first_bad + "P" + "D" * (deck.N - first_bad - 1)
    bad = tmp_path / "bad.txt"
    bad.write_text(actions + "\n")
    res = run(["verify", WIN, bad])
    a, k = deck.cards[first_bad]
    assert f"c reason: card #{first_bad + 1} ({a}:{k}): not playable, color {k} stands at 0" in res.stdout
    assert res.exit_code == 1


def test_verify_takes_inline_letters_and_stdin():
    res = run(["verify", LAZY, "ddddddddsspsppp", "--hand", 3])
    assert res.exit_code == 0 and s_line(res.stdout) == "s VERIFIED"
    res = run(["verify", LAZY, "-", "--hand", 2], input="DDDDDDDDSSPSPPP\n")
    assert res.exit_code == 1
    assert "c reason: card #12 (7:1): cannot store, hand is full (2 of 2)" in res.stdout


def test_verify_reports_unfinished_colors(tmp_path):
    deck = read_deck_file(WIN).deck
    plays = tmp_path / "none.txt"
    plays.write_text("D" * deck.N + "\n")
    res = run(["verify", WIN, plays, "--json"])
    assert res.exit_code == 1
    data = json.loads(res.stdout)
    assert not data["won"] and data["score"] == 0 and "color 1 stands at 0" in data["error"]


# --- generate --------------------------------------------------------------------

GEN_CASES = [
    ["standard"],
    ["standard", "--colors", "6", "--format", "json"],
    ["deck", "--n", 4, "--c", 3, "--r", 2, "--missing", 0.1, "--hand", 2],
    ["deck", "--n", 3, "--c", 2, "--r", 2, "--exact-copies"],
    ["cnf", "--vars", 10, "--clauses", 30],
]
# The old one-command spelling of each case: the same bytes, plus a note on stderr.
OLD_SPELLING = {"standard": ["--standard"], "deck": [], "cnf": ["--cnf"]}


@pytest.mark.parametrize("args", GEN_CASES)
def test_generate_is_byte_identical_for_a_seed(args, tmp_path):
    first = run(["generate", *args, "--seed", 42])
    second = run(["generate", *args, "--seed", 42])
    other = run(["generate", *args, "--seed", 43])
    assert first.exit_code == 0
    assert first.stdout == second.stdout != other.stdout
    assert first.stderr.strip() == "c seed: 42"
    assert __version__ in first.stdout and "seed: 42" in first.stdout
    # the `command:` comment regenerates the same bytes
    if first.stdout.startswith("{"):
        comments = json.loads(first.stdout)["comments"]
    else:
        comments = [l[2:] for l in first.stdout.splitlines() if l[:2] in ("# ", "c ")]
    (cmd,) = [l.split("command: ", 1)[1] for l in comments if l.startswith("command: ")]
    argv = shlex.split(cmd)
    assert argv[:2] == ["hanabi-cp", "generate"]
    assert run(argv[1:]).stdout == first.stdout
    # and writing to a file gives the same bytes as stdout
    out = tmp_path / ("f.json" if "json" in args else "f.txt")
    assert run(["generate", *args, "--seed", 42, "-o", out]).exit_code == 0
    assert out.read_text() == first.stdout


@pytest.mark.parametrize("args", GEN_CASES)
def test_generate_old_spelling_is_an_alias_with_a_note(args):
    new = run(["generate", *args, "--seed", 42])
    old = run(["generate", *OLD_SPELLING[args[0]], *args[1:], "--seed", 42])
    assert old.exit_code == 0 and old.stdout == new.stdout
    seed, note = old.stderr.splitlines()
    assert seed == "c seed: 42"
    assert "deprecated" in note and f"generate {args[0]} ..." in note


def test_generate_seed_defaults_to_fresh_and_is_printed():
    res = run(["generate", "standard"])
    line = res.stderr.strip()
    assert line.startswith("c seed: ")
    seed = int(line.split()[-1])
    assert run(["generate", "standard", "--seed", seed]).stdout == res.stdout


def test_generated_files_read_back():
    deck = read_deck_text(run(["generate", "--n", 4, "--c", 3, "--r", 2, "--seed", 7, "--hand", 1]).stdout)
    assert (deck.deck, deck.h) == (random_deck(7, 4, 3, 2), 1)


def read_deck_text(text):
    from hanabi_cp.io import parse_deck_file
    return parse_deck_file(text)


def test_generate_count_writes_seeded_files(tmp_path):
    out = tmp_path / "decks"
    res = run(["generate", "--standard", "--count", 3, "--seed", 100, "-o", out])
    assert res.exit_code == 0
    names = sorted(os.listdir(out))
    assert names == [f"standard5-s{s}.txt" for s in (100, 101, 102)]
    for s in (100, 101, 102):
        alone = run(["generate", "--standard", "--seed", s]).stdout
        assert (out / f"standard5-s{s}.txt").read_text() == alone
    # an overlapping batch refuses before writing anything
    res = run(["generate", "--standard", "--count", 3, "--seed", 102, "-o", out])
    assert res.exit_code == 2 and "--force" in res.stderr
    assert sorted(os.listdir(out)) == names
    assert run(["generate", "--standard", "--count", 3, "--seed", 102, "-o", out,
                "--force"]).exit_code == 0
    assert len(os.listdir(out)) == 5


def test_generate_cnf_is_valid_dimacs(tmp_path):
    path = tmp_path / "f.cnf"
    assert run(["generate", "--cnf", "--vars", 20, "--clauses", 91, "--seed", 1, "-o", path]).exit_code == 0
    cnf = read_dimacs(str(path))
    assert (cnf.num_vars, cnf.num_clauses) == (20, 91)
    assert all(len(set(map(abs, c))) == 3 for c in cnf.clauses)


# --- encode / decode -------------------------------------------------------------

def pysat_answer(path):
    from pysat.solvers import Solver
    cnf = read_dimacs(str(path))
    with Solver(name="glucose4", bootstrap_with=cnf.clauses) as s:
        sat = s.solve()
        return sat, ((s.get_model() or []) if sat else None)


def test_encoded_dimacs_answers_like_solve_sat(tmp_path):
    rng = random.Random(5)
    checked = 0
    for i in range(24):
        deck = random_deck(rng, rng.randint(2, 4), rng.randint(1, 3), rng.randint(1, 3),
                           p_missing=0.03)
        h = rng.randint(0, 3)
        deck_path = tmp_path / f"d{i}.txt"
        deck_path.write_text(deck_to_text(deck))
        cnf_path = tmp_path / f"d{i}.cnf"
        assert run(["encode", deck_path, "--hand", h, "-o", cnf_path]).exit_code == 0
        sat, model = pysat_answer(cnf_path)
        code = run(["solve", deck_path, "--hand", h, "--method", "sat"]).exit_code
        assert code == (10 if sat else 20), str(deck)
        if sat:
            model_path = tmp_path / f"d{i}.model"
            model_path.write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
            res = run(["decode", deck_path, model_path, "--hand", h])
            assert res.exit_code == 10 and "c certificate verified by the referee" in res.stdout
            assert replay(deck, h, v_line(res.stdout)).won
            checked += 1
    assert checked >= 3


def test_encode_header_and_varmaps(tmp_path):
    cnf_path, vm_txt, vm_json = tmp_path / "w.cnf", tmp_path / "w.map", tmp_path / "w.json"
    assert run(["encode", WIN, "-o", cnf_path, "--varmap", vm_txt]).exit_code == 0
    text = cnf_path.read_text()
    assert text.startswith("c generated by hanabi-cp " + __version__)
    assert "c h = 2" in text and "c deck: 50 cards, n = 5, c = 5, r = 3" in text
    cnf = read_dimacs(str(cnf_path))
    lines = vm_txt.read_text().splitlines()
    assert len(lines) == cnf.num_vars
    assert lines[0].split(" ", 1)[0] == "1" and lines[0].split(" ", 1)[1].startswith("copy ")
    assert run(["encode", WIN, "-o", os.devnull, "--varmap", vm_json]).exit_code == 0
    names = json.loads(vm_json.read_text())
    assert [names[str(v)] for v in range(1, cnf.num_vars + 1)] == [l.split(" ", 1)[1] for l in lines]


def test_encode_preprocessed_unwinnable_is_an_empty_clause(tmp_path):
    path = tmp_path / "l.cnf"
    res = run(["encode", LOSE, "-o", path])
    assert res.exit_code == 0 and "UNWINNABLE" in res.stdout
    cnf = read_dimacs(str(path))
    assert () in cnf.clauses
    assert "preprocessing proved UNWINNABLE" in path.read_text()
    assert pysat_answer(path)[0] is False


def test_decode_rejects_a_model_of_something_else(tmp_path):
    model = tmp_path / "m.txt"
    cnf = read_dimacs_of(WIN, tmp_path)
    model.write_text("v " + " ".join(str(-v) for v in range(1, cnf.num_vars + 1)) + " 0\n")
    res = run(["decode", WIN, model])
    assert res.exit_code == 2 and "not a model" in res.stderr
    model.write_text("s UNSATISFIABLE\n")
    res = run(["decode", WIN, model, "--hand", 1])
    assert res.exit_code == 20 and s_line(res.stdout) == "s UNWINNABLE"


def read_dimacs_of(deck_path, tmp_path):
    out = tmp_path / "enc.cnf"
    run(["encode", deck_path, "-o", out, "--force"])
    return read_dimacs(str(out))


# --- min-hand --------------------------------------------------------------------

def test_min_hand_matches_brute_force(tmp_path):
    rng = random.Random(3)
    for i in range(12):
        deck = random_deck(rng, rng.randint(2, 4), rng.randint(1, 3), rng.randint(1, 2),
                           p_missing=0.05)
        path = tmp_path / f"d{i}.txt"
        path.write_text(deck_to_text(deck))
        res = run(["min-hand", path, "--certificate", "-"])
        want = brute_min(deck)
        if want is None:
            assert res.exit_code == 20 and s_line(res.stdout) == "s UNWINNABLE"
        else:
            assert res.exit_code == 10 and s_line(res.stdout) == f"s MIN-HAND {want}"
            assert replay(deck, want, v_line(res.stdout)).won


def test_min_hand_json_and_other_method():
    res = run(["min-hand", LOSE, "--json"])
    data = json.loads(res.stdout)
    assert res.exit_code == 10 and data["min_hand"] == 3 and data["below"]
    assert res.stdout.strip() == json.dumps(data, sort_keys=True, indent=2)
    res = run(["min-hand", LAZY, "--method", "brute"])
    assert res.exit_code == 10 and s_line(res.stdout) == "s MIN-HAND 3"
    assert "c h = 2 does not win: " in res.stdout


# --- user mistakes: one line on stderr, exit code 2, nothing overwritten ---------

BAD = [
    (["solve", "no/such/deck.txt"], "no/such/deck.txt: expected an existing file"),
    (["solve", "{bad}", "--hand", 2], "{bad}:2: expected a card like 3:2"),
    (["solve", "{nohand}"], "pass --hand"),
    (["solve", WIN, "--hand", -1], "--hand"),
    (["solve", WIN, "--method", "magic"], "'magic' is not one of"),
    (["solve", WIN, "--no-such-option"], "No such option"),
    (["solve", WIN, "--method", "greedy"], "method 'greedy' does not apply"),
    (["solve", WIN, "--method", "sat", "--maximize"], "cannot maximize"),
    (["solve", WIN, "--method", "sat", "--solver", "nosuchsolver"], "unknown pysat solver"),
    (["solve", WIN, "--rules", "live", "--players", 2, "--method", "sat", "--solver", "kissat404"],
     "pysat solver 'kissat404' cannot be used"),
    (["solve"], "Missing argument 'DECK'"),
    (["verify", "-", "-", "--hand", 1], "cannot both be `-`"),
    (["verify", WIN, "{bad}"], "{bad}:"),
    (["generate", "--standard", "--n", 3], "--n does not apply with --standard"),
    (["generate", "--cnf", "--vars", 2, "--clauses", 3], "need num_vars >= k"),
    (["generate"], "pass --n N --c C --r R"),
    (["generate", "--standard", "--count", 2], "pass -o DIR"),
    (["encode", WIN, "-o", "{existing}"], "use --force"),
    (["encode", WIN, "-o", os.devnull, "--varmap", "{existing}"], "use --force"),
    (["generate", "--standard", "-o", "{existing}"], "use --force"),
    (["generate", "standard", "-o", "{existing}"], "use --force"),
    (["generate", "standard", "--n", 3], "generate standard: No such option '--n'"),
    (["generate", "deck", "--n", 3], "generate deck: Missing option '--c'"),
    (["generate", "cnf", "--vars", 2, "--clauses", 3], "need num_vars >= k"),
    (["generate", "nosuch"], "choose one of cnf, deck, family, standard"),
    (["solve", WIN, "--proof", "{existing}"], "use --force"),
    (["min-hand", WIN, "--certificate", "{existing}"], "use --force"),
    (["decode", WIN, "{bad}"], "{bad}:1: expected a literal"),
    (["min-hand", "{bad}"], "{bad}:2: expected a card"),
    (["no-such-command"], "No such command 'no-such-command'"),
    (["--no-such-option"], "No such option '--no-such-option'"),
]


@pytest.mark.parametrize("args,message", BAD, ids=[" ".join(map(str, a))[:40] for a, _ in BAD])
def test_user_mistakes_are_one_line(args, message, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("h 2\n1r 2r x\n")
    nohand = tmp_path / "nohand.txt"
    nohand.write_text("1r 2r\n")
    existing = tmp_path / "existing.cnf"
    existing.write_text("precious\n")
    subst = {"{bad}": str(bad), "{nohand}": str(nohand), "{existing}": str(existing)}
    args = [subst.get(str(a), a) for a in args]
    for k, v in subst.items():
        message = message.replace(k, v)
    res = runner().invoke(main, [str(a) for a in args])
    assert res.exit_code == 2, (res.stdout, res.stderr, res.exception)
    assert not isinstance(res.exception, Exception) or isinstance(res.exception, SystemExit)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("hanabi-cp: error: ") and message in lines[0], lines[0]
    assert "Traceback" not in res.stderr
    assert existing.read_text() == "precious\n"


# --- the installed entry point ---------------------------------------------------

def test_installed_entry_point_smoke():
    exe = os.path.join(os.path.dirname(sys.executable), "hanabi-cp")
    if not os.path.exists(exe):
        pytest.skip("hanabi-cp is not installed beside this interpreter")
    out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    assert out.stdout.strip() == f"hanabi-cp, version {__version__}"


# --- generate family -------------------------------------------------------------

def test_generate_family_images_labels_match_the_solvers(tmp_path):
    from hanabi_cp.io import read_deck_file
    from hanabi_cp.solitaire.solve import solve
    out = tmp_path / "fam"
    res = run(["generate", "family", "images", "--vars", 4, "--ratio", 5, "--count", 2,
               "--seed", 3, "-o", out, "--name", "f"])
    assert res.exit_code == 0, res.stderr
    rows = list(csv.DictReader(open(out / "MANIFEST.csv")))
    assert sorted(r["file"] for r in rows) == sorted(f for f in os.listdir(out) if f != "MANIFEST.csv")
    for r in rows:
        text = (out / r["file"]).read_text()
        assert f"hanabi-cp {__version__}" in text and "seed: " in text
        if r["kind"] == "cnf":
            assert pysat_answer(out / r["file"])[0] == (r["expected"] == "SAT")
        else:
            d = read_deck_file(str(out / r["file"]))
            assert solve(d.deck, d.h, "sat").status.value == r["expected"]
    # Same seed, same bytes; an existing family is kept without --force.
    again = run(["generate", "family", "images", "--vars", 4, "--ratio", 5, "--count", 2,
                 "--seed", 3, "-o", tmp_path / "fam2", "--name", "f"])
    assert again.exit_code == 0
    assert all((out / f).read_text() == (tmp_path / "fam2" / f).read_text() for f in os.listdir(out))
    refused = run(["generate", "family", "images", "--vars", 4, "--count", 2, "--seed", 3,
                   "-o", out])
    assert refused.exit_code == 2 and "use --force" in refused.stderr


def test_generate_family_hard_encodes_deck_files(tmp_path):
    decks = tmp_path / "decks"
    decks.mkdir()
    assert run(["generate", "deck", "--n", 3, "--c", 2, "--r", 2, "--hand", 1, "--seed", 4,
                "-o", decks / "a.txt"]).exit_code == 0
    (decks / "b.txt").write_text("# verdict: WINNABLE\nn 2\nc 1\nh 1\n1r 2r\n")
    out = tmp_path / "fam"
    res = run(["generate", "family", "hard", "--decks", decks, "-o", out, "--name", "demo"])
    assert res.exit_code == 0, res.stderr
    rows = {r["file"]: r for r in csv.DictReader(open(out / "MANIFEST.csv"))}
    assert set(rows) == {"a.cnf", "b.cnf"}
    assert rows["b.cnf"]["expected"] == "SAT" and rows["a.cnf"]["expected"] == "unknown"
    assert "c family: demo" in (out / "b.cnf").read_text()
    from hanabi_cp.io import read_deck_file
    from hanabi_cp.solitaire.solve import solve
    d = read_deck_file(str(decks / "a.txt"))
    assert pysat_answer(out / "a.cnf")[0] == (solve(d.deck, 1, "brute").status.value == "WINNABLE")
    (decks / "c.txt").write_text("n 1\nc 1\n1r\n")
    res = run(["generate", "family", "hard", "--decks", decks, "-o", tmp_path / "x"])
    assert res.exit_code == 2 and "no hand size" in res.stderr
