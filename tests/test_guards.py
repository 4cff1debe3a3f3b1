"""Resource guards (issue #10, item 2): every size from input or options is checked
before anything is allocated by it, with one line naming the number and the limit.

Each case of the issue is here, run through the CLI in a forked child whose address
space is capped (tests/capped.py), so a guard that regresses fails the test instead
of allocating gigabytes.  The last tests check that the limits still let the big
legitimate inputs through, and that the image size is predicted exactly.
"""

from __future__ import annotations

import json
import os
import random

import pytest

from capped import (assert_one_line_error, capped, cli_capped, invoke, needs_fork)
from hanabi_cp.solitaire.methods import minizinc as mzn_method
from hanabi_cp.solitaire.methods import pb as pb_method
from hanabi_cp.solitaire.methods.brute import STATE_LIMIT, state_bound
from hanabi_cp.solitaire.methods.dp import ENTRY_LIMIT, table_bound
from hanabi_cp.solvers.formula import CNF
from hanabi_cp.core.errors import HanabiError, InputError, LimitError
from hanabi_cp.io import parse_deck_file
from hanabi_cp.solvers.dimacs import parse_dimacs
from hanabi_cp.solitaire.play_text import parse_plays
from hanabi_cp.apps.generators import random_deck, random_kcnf, standard_deck
from hanabi_cp.runtime.limits import MAX_CARD_KINDS, MAX_CARDS, MAX_CNF_VARS, check_cards, check_kinds, echo
from hanabi_cp.core.model import Deck
from hanabi_cp.solitaire.reduction import bound_occurrences, reduce_cnf, to_exact3
from hanabi_cp.solitaire.reduction.size import image_size, random_image_size
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.solitaire.solve import get, methods, prepare, solve

pytestmark = needs_fork

INST = os.path.join(os.path.dirname(__file__), os.pardir, "instances")
STD = os.path.join(INST, "standard-winnable-h2.txt")
BIG = 10**9
for _name in methods():    # import what every method needs here, not in each forked child
    prepare(_name)


@pytest.fixture
def files(tmp_path):
    def write(name: str, text: str) -> str:
        path = tmp_path / name
        path.write_text(text)
        return str(path)
    return write


# --- the cases of the issue --------------------------------------------------------

@pytest.mark.parametrize("command", [["solve", "--hand", 2], ["encode", "--hand", 2],
                                     ["min-hand"], ["solve", "--hand", 2, "--method", "dp"]])
def test_one_card_with_a_huge_value(files, command):
    deck = files("v", "100000000:1\n")          # 12 bytes that used to take 11.9 GB
    res = cli_capped([command[0], deck, *command[1:]])
    assert_one_line_error(res, "'100000000:1'", "10,000,000")


def test_json_deck_declaring_a_huge_n(files):
    deck = files("d.json", '{"cards":[[1,1]],"n":1000000000}')
    line = assert_one_line_error(cli_capped(["solve", deck, "--hand", 2]))
    assert '"n": 1,000,000,000' in line and "10,000,000 kinds of card" in line


def test_hanab_live_deck_with_huge_suit_and_rank(files):
    deck = files("g.json", '{"deck":[{"suitIndex":1000000,"rank":1000000000}]}')
    assert_one_line_error(cli_capped(["solve", deck, "--hand", 2]), "card #1", "10,000,000")


def test_dp_with_a_huge_hand_refuses_without_allocating():
    res = cli_capped(["solve", STD, "--method", "dp", "--hand", BIG])
    assert_one_line_error(res, "does not apply", f"limit {ENTRY_LIMIT:,}", "use sat or cpsat")


@pytest.mark.parametrize("option", ["--hand", "--copies"])
@pytest.mark.parametrize("command", ["reduce", "roundtrip"])
def test_reduce_with_a_huge_hand_or_copies_is_refused_at_once(files, option, command):
    cnf = files("f.cnf", "p cnf 3 2\n1 -2 3 0\n1 2 -3 0\n")
    res = cli_capped([command, cnf, option, BIG], timeout=20)
    line = assert_one_line_error(res, "would have", "cards", f"above --max-cards {MAX_CARDS:,}")
    assert "bytes per card" in line and ("TB" in line or "GB" in line)


@pytest.mark.parametrize("body", ["2000000000 0", "1 2 2000000000 0", "1 2 3 0"])
@pytest.mark.parametrize("command", ["reduce", "roundtrip"])
def test_cnf_declaring_two_billion_variables(files, body, command):
    cnf = files("big.cnf", f"p cnf 2000000000 1\n{body}\n")
    res = cli_capped([command, cnf])
    assert_one_line_error(res, "big.cnf:1:", f"at most {MAX_CNF_VARS:,} variables",
                          "'p cnf 2000000000 1'")


def test_exact3_check_does_not_list_declared_variables():
    # the library accepts any CNF object: to_exact3 must not build range(num_vars)
    e = capped(lambda: to_exact3(CNF(2 * BIG, ((1, 2, 2 * BIG),))), extra_mb=200)
    assert e.cnf.num_vars == 3 and e.back == (1, 2, 2 * BIG)


@pytest.mark.parametrize("command", ["reduce", "roundtrip"])
def test_one_clause_of_5000_literals(files, command):
    cnf = files("long.cnf", "p cnf 5000 1\n" + " ".join(map(str, range(1, 5001))) + " 0\n")
    res = cli_capped([command, cnf], timeout=20)
    assert_one_line_error(res, "(n = 29,990, c = 19,995) would have 999,465,068 cards",
                          f"above --max-cards {MAX_CARDS:,}")


def test_deck_whose_only_token_is_a_megabyte(files):
    deck = files("x", "x" * 10**6 + "\n")
    line = assert_one_line_error(cli_capped(["solve", deck, "--hand", 2]))
    assert len(line) < 250 and "(1,000,000 characters)" in line


# --- similar cases: every reader and every size option -----------------------------

@pytest.mark.parametrize("name,text,fragments", [
    ("n.txt", "n 100000000\nc 1\n1:1\n", ["n.txt:1:", "found n 100,000,000"]),
    ("nc.txt", "n 5000\nc 5000\n1:1\n", ["nc.txt:2:", "5,000 x 5,000 = 25,000,000"]),
    ("cards.txt", "1:5000 5000:1 5000:5000\n", ["cards.txt:", "25,000,000 kinds of card"]),
    ("digits.txt", "h " + "9" * 5000 + "\n1r\n", ["digits.txt:1:", "at most 18 digits"]),
    ("value.txt", "9" * 5000 + ":1\n", ["value.txt:1:", "a number of more than 18 digits"]),
    ("letter.txt", "1r 12345678901y\n", ["letter.txt:1:", "found '12345678901:2'"]),
    ("c.json", '{"cards": [[1, 1]], "c": 100000000}', ['"c": 100,000,000']),
    ("value.json", '{"cards": [[1, 100000000]]}', ["card #1", "[1, 100000000]"]),
    ("kinds.json", '{"cards": [[5000, 1], [1, 5000]]}', ["5,000 x 5,000"]),
    ("digits.json", '{"cards": [[1, 1]], "h": ' + "9" * 5000 + "}", ["at most 4,300 digits"]),
    ("live.json", '{"deck": [{"suitIndex": 4999, "rank": 5000}]}', ["5,000 x 5,000"]),
])
def test_deck_readers_refuse_sizes_beyond_the_limits(files, name, text, fragments):
    res = cli_capped(["solve", files(name, text), "--hand", 2])
    assert_one_line_error(res, *fragments)


@pytest.mark.parametrize("text,fragments", [
    ("p cnf " + "9" * 5000 + " 1\n1 0\n", ["at most 18 digits", "(5,008 characters)"]),
    ("p cnf 3 1\n" + "9" * 5000 + " 0\n", ["integer literals of at most 18 digits"]),
    ("p cnf 3 1\n1 2 " + "x" * 10**5 + " 0\n", ["integer literals", "(100,000 characters)"]),
])
def test_dimacs_reader_refuses_huge_numbers_in_one_line(files, text, fragments):
    assert_one_line_error(cli_capped(["reduce", files("f.cnf", text)]), *fragments)


def test_play_and_model_readers_truncate_what_they_echo(files):
    plays = files("p.txt", "P" * 10 + " " + "Q" * 10**5 + "\n")
    line = assert_one_line_error(cli_capped(["verify", STD, plays, "--hand", 2]))
    assert "(100,000 characters)" in line and len(line) < 300
    model = files("m.txt", "v 1 -2 " + "7" * 5000 + " 0\n")
    line = assert_one_line_error(cli_capped(["decode", STD, model, "--hand", 2]))
    assert "at most 18 digits" in line and "(5,000 characters)" in line


@pytest.mark.parametrize("args,fragments", [
    (["--n", BIG, "--c", 1, "--r", 1], ["n = 1,000,000,000 values", "10,000,000 kinds"]),
    (["--n", 10**4, "--c", 10**4, "--r", 1], ["10,000 x 10,000 = 100,000,000 kinds"]),
    (["--n", 1000, "--c", 1000, "--r", 100], ["would have 100,000,000 cards",
                                              f"the limit of {MAX_CARDS:,} cards"]),
    (["--standard", "--count", BIG, "-o", "{dir}"], ["--count 1,000,000,000", "100,000"]),
    (["--n", 100, "--c", 100, "--r", 10, "--count", 1000, "-o", "{dir}"],
     ["--count 1000 decks together would have 100,000,000 cards"]),
    (["--cnf", "--vars", BIG, "--clauses", 1], ["--vars 1,000,000,000", "1,000,000"]),
    (["--cnf", "--vars", 10, "--clauses", BIG], ["3,000,000,000", "20,000,000"]),
    (["--cnf", "--vars", 100, "--clauses", 1000, "--count", 10**4, "-o", "{dir}"],
     ["30,000,000", "literals generated by one command"]),
])
def test_generate_sizes(tmp_path, args, fragments):
    args = [str(tmp_path / "out") if a == "{dir}" else a for a in args]
    assert_one_line_error(cli_capped(["generate", *args, "--seed", 1]), *fragments)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("args,fragments", [
    (["--max-n", 10**5, "--max-c", 1000], ["100,000 x 1,000 = 100,000,000 kinds"]),
    (["--max-n", BIG], ["n = 1,000,000,000 values"]),
    (["--max-n", 6 * 10**6, "--max-c", 1], ["one-color decks", "12,000,000 values"]),
    (["--max-n", 100, "--max-c", 100, "--max-r", 10**4], ["would have 100,000,000 cards"]),
    (["--count", 0, "--cnf-count", 1, "--cnf-vars", 10**5],
     ["--cnf-vars 100000", "would have", "cards"]),
    (["--count", 0, "--cnf-count", 1, "--cnf-vars", 2**46 - 1],   # nothing per variable
     ["--cnf-vars 70368744177663", "TB to solve"]),
])
def test_harness_sizes(tmp_path, args, fragments):
    count = [] if "--count" in args else ["--count", 1]
    res = cli_capped(["harness", *args, *count, "--no-progress", "--out", tmp_path])
    assert_one_line_error(res, *fragments)
    assert not (tmp_path / "harness-out").exists()


@pytest.mark.parametrize("args,fragments", [
    (["random", "--points", "0-100000000000"], ["--points: 0-100000000000 is 100,000,000,001",
                                                "10,000 (points of one sweep)"]),
    (["standard", "--hands", "0-100000000000"], ["--hands"]),
    (["random", "--n", BIG], ["1,000,000,000 values"]),
    (["random", "--param", "density", "--points", "1e12", "--hand", 2], ["cards"]),
    (["reduction", "--vars", "3-10000"], ["--vars 10000", "would have", "cards"]),
    (["reduction", "--vars", "5", "--ratio", "1e6"], ["would have", "cards"]),
    (["reduction", "--vars", "5", "--ratio", "1e300"], ["--ratio", "at most 1,000,000"]),
])
def test_study_sizes(tmp_path, args, fragments):
    csv, figure = tmp_path / "s.csv", tmp_path / "fig"
    res = cli_capped(["study", *args, "--count", 1, "--no-progress", "--csv", csv,
                      "--figure", figure], timeout=30)
    assert_one_line_error(res, *fragments)
    assert not csv.exists()


def test_max_cards_is_an_option_of_reduce_and_roundtrip(files):
    cnf = files("f.cnf", "p cnf 3 2\n1 -2 3 0\n1 2 -3 0\n")      # 183 cards
    assert_one_line_error(invoke(["reduce", cnf, "--max-cards", 182]),
                          "would have 183 cards", "above --max-cards 182")
    assert invoke(["reduce", cnf, "--max-cards", 183]).exit_code == 0
    assert_one_line_error(invoke(["roundtrip", cnf, "--max-cards", 100]), "183 cards")


# --- a hand larger than the deck is h = N ------------------------------------------

# the methods that run an outside program: why it cannot run here, or None
OUTSIDE_SOLVER_MISSING = {"minizinc": mzn_method.missing, "pb": pb_method.missing}

DECKS = {   # a deck every method accepts, per method
    "greedy": Deck.of([(1, 1), (2, 2), (2, 1), (1, 2)]),
    "lazy": Deck.of([(2, 1), (3, 1), (1, 1), (2, 1)]),
}


@pytest.mark.parametrize("method", sorted(methods()))
def test_a_hand_beyond_the_deck_is_the_whole_deck(method):
    deck = DECKS.get(method, Deck.of([(2, 1), (1, 2), (2, 2), (1, 1), (2, 1)]))
    # every method accepts the deck; one whose outside solver is missing refuses it all
    why = OUTSIDE_SOLVER_MISSING.get(method, lambda: None)()
    if why is not None:
        pytest.skip(why)
    for maximize in (False, True) if get(method).maximizes else (False,):
        opts = SolveOptions(maximize=maximize)
        huge = capped(lambda opts=opts: solve(deck, 10**30, method, opts), extra_mb=500)
        exact = solve(deck, deck.N, method, opts)
        assert (huge.status, huge.score) == (exact.status, exact.score)
        assert huge.verified


def test_cli_answers_with_a_huge_hand(tmp_path):
    res = cli_capped(["solve", STD, "--hand", 10**30])
    assert res.exit_code == 10 and "s WINNABLE" in res.stdout, res.stderr
    res = cli_capped(["min-hand", STD, "--max-hand", 10**30])
    assert res.exit_code == 10 and "s MIN-HAND 2" in res.stdout, res.stderr
    huge, exact = (cli_capped(["encode", STD, "--hand", h]) for h in (10**30, 50))
    assert huge.exit_code == exact.exit_code == 0
    clauses = [[l for l in r.stdout.splitlines() if not l.startswith("c")] for r in (huge, exact)]
    assert clauses[0] == clauses[1]


def _outcome_or_refusal(deck: Deck, method: str, maximize: bool):
    try:
        out = solve(deck, 2, method, SolveOptions(maximize=maximize))
    except HanabiError as exc:
        return str(exc)
    return out.status.value, out.reason


@pytest.mark.parametrize("shape", [(MAX_CARD_KINDS, 1), (1, MAX_CARD_KINDS)])
def test_a_deck_lacking_cards_is_decided_without_tables_per_kind(shape):
    # At the limit a 1-card deck once took 7.4 GB (windows.analyse, c = 10^7): lost
    # decks are now decided before any table per kind, in every method.
    deck = Deck(((1, 1),), *shape)
    for method in ["auto", *sorted(methods())]:
        for maximize in (False, True) if method == "auto" or get(method).maximizes else (False,):
            got = capped(lambda m=method, x=maximize: _outcome_or_refusal(deck, m, x),
                         extra_mb=400, timeout=60)
            assert isinstance(got, str) or got[0] == "UNWINNABLE", (method, maximize, got)


def test_show_with_a_huge_hand(tmp_path):
    # the hand panel draws h slots: h = 10^20 took 16 GB before the OOM killer came
    res = cli_capped(["show", STD, "--hand", 10**20, "--solve", "-o", tmp_path / "s.svg"])
    assert res.error is None and res.exit_code == 0, (res.stderr, res.error)
    assert "h = 50" in res.stderr


def test_bounds_of_dp_and_brute_stop_early():
    deck = random_deck(1, 30, 30, 3)              # 1,800 cards, 900 kinds
    for h in (0, 1, 3, BIG):
        assert capped(lambda h=h: table_bound(deck, h, stop_at=ENTRY_LIMIT),
                      extra_mb=300, timeout=20) > ENTRY_LIMIT or h == 0
        assert capped(lambda h=h: state_bound(deck, h, cap=STATE_LIMIT),
                      extra_mb=300, timeout=20) == STATE_LIMIT + 1
    assert get("dp").refuses(standard_deck(1), BIG) is not None
    assert get("brute").refuses(standard_deck(1), BIG) is not None


# --- the limits let the big legitimate inputs through ------------------------------

def test_limits_admit_the_big_legitimate_inputs():
    uf250 = random_image_size(250, 1065)          # a uf250-1065 formula's image
    assert (uf250.cards, uf250.n, uf250.c) == (5_337_587, 6_392, 501)
    check_cards(uf250.cards, "uf250")
    check_kinds(uf250.n, uf250.c)
    check_kinds(1000, 1000)                       # a 10^6-card random deck, r = 1
    check_cards(10**6, "a 10^6-card deck")
    deck = parse_deck_file(f"n {MAX_CARD_KINDS}\nc 1\n1:1\n").deck
    assert deck.n * deck.c == MAX_CARD_KINDS
    with pytest.raises(InputError, match="10,000,001"):
        parse_deck_file(f"n {MAX_CARD_KINDS + 1}\nc 1\n1:1\n")
    assert parse_dimacs(f"p cnf {MAX_CNF_VARS} 1\n{MAX_CNF_VARS} 0\n").num_vars == MAX_CNF_VARS
    with pytest.raises(InputError, match="at most 1,000,000 variables"):
        parse_dimacs(f"p cnf {MAX_CNF_VARS + 1} 1\n1 0\n")


def test_image_size_is_exact_on_every_variant():
    rng = random.Random(10)
    variants = ({}, {"h": 1}, {"h": 3}, {"h": 6}, {"copies": 3}, {"h": 1, "copies": 5},
                {"kappa": True}, {"kappa": True, "h": 1}, {"kappa": True, "h": 4, "copies": 3},
                {"as_written": True}, {"as_written": True, "h": 1}, {"as_written": True, "h": 3})
    checked = 0
    for _ in range(25):
        v = rng.randint(1, 6)
        clauses = [tuple(rng.choice((1, -1)) * rng.randint(1, v)
                         for _ in range(rng.choice((0, 1, 2, 3, 3, 3, 5, 7))))
                   for _ in range(rng.randint(0, 8))]
        cnf = CNF(v, tuple(clauses))
        for kw in variants:
            try:
                red = reduce_cnf(cnf, max_cards=None, **kw)
            except HanabiError:                   # as written fails on small formulas
                continue
            e = bound_occurrences(to_exact3(cnf)) if kw.get("kappa") else to_exact3(cnf)
            size = image_size(e, kw.get("h", 2), kw.get("copies"), kw.get("kappa", False),
                              kw.get("as_written", False))
            assert (size.cards, size.n, size.c) == (red.deck.N, red.deck.n, red.deck.c), (cnf, kw)
            checked += 1
    assert checked > 150


def test_random_image_size_bounds_the_random_formulas():
    for v, m in ((3, 5), (10, 43), (20, 91)):
        for kw in ({}, {"h": 1}, {"h": 3}, {"copies": 3}):
            red = reduce_cnf(random_kcnf(v, v, m), **kw)
            assert random_image_size(v, m, **kw).cards >= red.deck.N


def _error_of(fn) -> str | None:
    try:
        fn()
    except LimitError as exc:
        return str(exc)
    return None


def test_reduce_cnf_refuses_before_building():
    cnf = CNF.of([tuple(range(1, 5001))])
    why = capped(lambda: _error_of(lambda: reduce_cnf(cnf)), extra_mb=300, timeout=20)
    assert why is not None and "999,465,068 cards" in why
    why = capped(lambda: _error_of(lambda: reduce_cnf(CNF.of([(1, 2, 3)]), h=BIG)),
                 extra_mb=300, timeout=20)
    # The library names its parameter; the CLI says --max-cards (test above).
    assert why is not None and f"above max_cards {MAX_CARDS:,}" in why


# --- echoed input is short ---------------------------------------------------------

def test_every_reader_truncates_what_it_echoes():
    token = "z" * 10**5
    for parse, text in ((parse_deck_file, token), (parse_deck_file, "n " + token),
                        (parse_deck_file, json.dumps({"cards": [[1, 1]], token: 1})),
                        (parse_deck_file, json.dumps({"cards": [[1, 1]], "roles": [" " + token]})),
                        (parse_dimacs, "p cnf 1 1\n" + token),
                        (parse_dimacs, token),
                        (parse_plays, token), (parse_plays, json.dumps({"plays": [token]}))):
        with pytest.raises(HanabiError) as err:
            parse(text)
        assert len(str(err.value)) < 400 and "\n" not in str(err.value), str(err.value)[:500]
    assert echo("short") == "'short'"
