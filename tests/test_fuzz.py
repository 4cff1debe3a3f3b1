"""Fuzzing as a test (issue #10, item 6): every reader and every command, with
hypothesis-drawn inputs and option values, ends with a verdict or one error line.

Never a traceback, a hang or an allocation beyond the cap: each test runs all its
examples in one forked child whose address space is capped (tests/capped.py), and
each example has a deadline (SIGALRM in the child; a hang in C code is caught by
the child's overall timeout).  Readers are fuzzed as library calls, the commands
through click's CliRunner in the same child.

Two tiers: the fast one runs with every `pytest` (a few hundred examples,
derandomized so CI is deterministic); the slow one (`pytest --runslow`) runs twenty
times as many from a fresh seed, printed, or HANABI_FUZZ_SEED to replay one.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import tempfile
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from capped import assert_verdict_or_one_line_error, capped, invoke, needs_fork
from fuzz_strategies import (answer_texts, decks, deck_texts, dimacs_texts, formulas, huge,
                             live_game_texts, model_texts, plays_texts, positive_size,
                             reader_number, size)
from hanabi_cp.core.errors import HanabiError
from hanabi_cp.io import deck_to_text, parse_deck_file
from hanabi_cp.solvers.dimacs import dimacs_text, parse_answer, parse_dimacs
from hanabi_cp.solitaire.play_text import parse_plays
from hanabi_cp.runtime.limits import MAX_CARD_KINDS, MAX_CNF_VARS
from hanabi_cp.real.replay_io import parse_replay
from hanabi_cp.solitaire.solve import methods, prepare

pytestmark = needs_fork

SLOW_FACTOR = 20
CASE_SECONDS = 30          # a hang detector, not a performance bound
SLOW_SEED = int(os.environ.get("HANABI_FUZZ_SEED", random.randrange(2**32)))
METHODS = sorted(methods())
for _name in METHODS:      # import what every method needs (OR-Tools...) before the forks
    prepare(_name)


class CaseTimeout(Exception):
    pass


@contextlib.contextmanager
def case_deadline(seconds: float):
    def expire(signum, frame):
        raise CaseTimeout(f"one example ran for more than {seconds} s")
    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def fuzz(strategy, check: Callable, examples: int, slow: bool) -> None:
    """Run ``check`` on ``examples`` draws of ``strategy`` in one capped child."""
    config = settings(max_examples=examples * (SLOW_FACTOR if slow else 1),
                      derandomize=not slow, database=None, deadline=None,
                      phases=(Phase.explicit, Phase.generate),   # no shrinking: small inputs
                      suppress_health_check=list(HealthCheck))

    @config
    @given(strategy)
    def run(case):
        with case_deadline(CASE_SECONDS):
            check(case)

    if slow:
        print(f"fuzz seed: {SLOW_SEED} (replay with HANABI_FUZZ_SEED={SLOW_SEED})")
        run = seed(SLOW_SEED)(run)
    budget = 60 + examples * (SLOW_FACTOR if slow else 1) * 2
    capped(run, timeout=budget)


def tiers(func):
    """The fuzz test ``func(slow)`` as a fast test and a slow one."""
    fast = pytest.mark.parametrize("slow", [False, pytest.param(True, marks=pytest.mark.slow)],
                                   ids=["fast", "slow"])
    return fast(func)


# --- readers ---------------------------------------------------------------------------

def one_line(exc: HanabiError) -> None:
    text = str(exc)
    assert "\n" not in text and "\r" not in text, text[:500]
    assert len(text) < 500, text[:500]


def read_or_refuse(parse: Callable, text: str):
    try:
        return parse(text)
    except HanabiError as exc:
        one_line(exc)
        return None


def check_deck_text(text: str) -> None:
    got = read_or_refuse(parse_deck_file, text)
    if got is not None:
        assert got.deck.n * got.deck.c <= MAX_CARD_KINDS
        assert max(got.deck.n, got.deck.c) <= MAX_CARD_KINDS


def check_dimacs_text(text: str) -> None:
    got = read_or_refuse(parse_dimacs, text)
    if got is not None:
        assert got.num_vars <= MAX_CNF_VARS


@tiers
def test_fuzz_deck_reader(slow):
    fuzz(deck_texts(reader_number), check_deck_text, 150, slow)


@tiers
def test_fuzz_dimacs_reader(slow):
    fuzz(dimacs_texts(reader_number), check_dimacs_text, 100, slow)


@tiers
def test_fuzz_plays_reader(slow):
    fuzz(plays_texts(), lambda text: read_or_refuse(parse_plays, text), 80, slow)


@tiers
def test_fuzz_live_game_reader(slow):
    fuzz(live_game_texts(), lambda text: read_or_refuse(parse_replay, text), 60, slow)


@tiers
def test_fuzz_model_reader(slow):
    fuzz(model_texts, lambda text: read_or_refuse(parse_answer, text), 60, slow)


@tiers
def test_fuzz_answers_of_every_format(slow):
    # The whole read-back (answers.read): a checked verdict or one line, whatever
    # the answer claims about itself.
    from hanabi_cp.solitaire.answers import read
    from hanabi_cp.core.model import Deck
    deck = Deck.of([(1, 1), (2, 1), (1, 2), (2, 2)])

    def check(text: str) -> None:
        for fmt, maximize in (("opb", False), ("opb", True), ("wcnf", False), ("mzn", True)):
            read_or_refuse(lambda t: read(fmt, deck, 1, maximize, t, "a.txt"), text)
    fuzz(answer_texts, check, 60, slow)


# --- commands ---------------------------------------------------------------------------

# Option values as the command line gives them, in and out of their ranges.  Valid
# --workers stay small (256 threads are legitimate, and slow on 2 cores).
time_limit = st.one_of(st.floats(0.01, 30).map(lambda x: f"{x:.3f}"), st.sampled_from(
    ["nan", "inf", "-inf", "0", "-1", "1e-9", "1e308", "1e400", "x", "1_0"]))
workers = st.one_of(st.integers(1, 4), st.integers(-5, 0), st.integers(257, 10**12))
cp_seed = st.one_of(st.integers(-2**31, 2**31 - 1), st.integers(-10**30, 10**30))


def flag(name: str):
    return st.booleans().map(lambda b: [name] if b else [])


def opt(name: str, values):
    return st.one_of(st.just([]), values.map(lambda v: [name, v]))


def cmd(*parts):
    """A command line from fixed words and strategies of word lists."""
    def words(part):
        if not isinstance(part, st.SearchStrategy):
            part = st.just(part)
        return part.map(lambda x: x if isinstance(x, list) else [x])
    return st.tuples(*map(words, parts)).map(lambda xs: [w for x in xs for w in x])


DECK, PLAYS, MODEL, CNF, GAME, OUT = "{deck}", "{plays}", "{model}", "{cnf}", "{game}", "{out}"
deck_files = st.one_of(deck_texts(), decks().map(deck_to_text), decks().map(deck_to_text))
cnf_files = st.one_of(formulas().map(dimacs_text), formulas().map(dimacs_text), dimacs_texts())

VERDICTS = {"solve": (0, 10, 20), "verify": (0, 1), "decode": (10, 20), "min-hand": (0, 10, 20)}

solve_cmds = cmd("solve", DECK, opt("--hand", size), opt("--method", st.sampled_from(
    ["auto", *METHODS])), opt("--time-limit", time_limit), opt("--workers", workers),
    opt("--seed", cp_seed), flag("--maximize"), flag("--json"),
    opt("--certificate", st.sampled_from(["-", OUT + "/cert.txt"])))
verify_cmds = cmd("verify", DECK, st.sampled_from([PLAYS, "PSD", "P"]), opt("--hand", size),
                  flag("--json"))
# Real games: the search is bounded by --time-limit here (the rules are another part).
live_cmds = st.one_of(
    cmd("solve", DECK, "--rules", "live", "--players",
        st.one_of(st.integers(2, 6), st.integers(2, 6), st.integers(1, 7), huge),
        opt("--hand-size", positive_size), opt("--clues", st.one_of(size, st.just("unlimited"))),
        opt("--strikes", positive_size), "--time-limit", "2", flag("--maximize")),
    cmd("verify", DECK, GAME, "--rules", "live", opt("--players", st.integers(1, 7))))
encode_cmds = cmd("encode", DECK, opt("--hand", size), opt("-o", st.just(OUT + "/f.cnf")),
                  opt("--varmap", st.sampled_from([OUT + "/m.map", OUT + "/m.json"])))
decode_cmds = cmd("decode", DECK, MODEL, opt("--hand", size))
min_hand_cmds = cmd("min-hand", DECK, opt("--method", st.sampled_from(
    ["sat", "brute", "dp", "search", "cpsat"])), opt("--max-hand", size), flag("--json"),
    opt("--time-limit", time_limit))
generate_cmds = st.one_of(
    cmd("generate", "--n", positive_size, "--c", positive_size, "--r", positive_size,
        flag("--exact-copies"), opt("--hand", size),
        opt("--format", st.sampled_from(["text", "json"]))),
    cmd("generate", "--standard", opt("--colors", st.sampled_from(["5", "6"]))),
    cmd("generate", "--cnf", "--vars", positive_size, "--clauses", size,
        opt("--k", positive_size)),
    cmd("generate", opt("--n", size), opt("--c", size), flag("--cnf"),
        flag("--standard"), opt("--vars", size)),
    # The subcommand spelling, with options that belong to other kinds now and then.
    cmd("generate", st.sampled_from(["deck", "standard", "cnf"]), opt("--n", positive_size),
        opt("--c", positive_size), opt("--r", positive_size), opt("--vars", positive_size),
        opt("--clauses", size), opt("--colors", st.sampled_from(["5", "6", "7"])),
        opt("--hand", size)),
).flatmap(lambda args: cmd(args, opt("--seed", st.one_of(size, huge)), st.one_of(
    st.just(["-o", OUT + "/g.txt"]), st.just([]),
    st.tuples(st.just("--count"), positive_size, st.just("-o"), st.just(OUT + "/dir")
              ).map(list))))
# --max-cards raised far above its default is the user's choice to build anything.
reduce_cmds = cmd("reduce", CNF, opt("--hand", positive_size), opt("--copies", positive_size),
                  flag("--kappa"), flag("--as-written"),
                  opt("--max-cards", st.integers(1, 10**4)), "-o", OUT + "/image.txt")
roundtrip_cmds = cmd("roundtrip", CNF, opt("--hand", st.one_of(st.integers(1, 3), huge)),
                     opt("--copies", st.one_of(st.integers(1, 3), huge)), flag("--kappa"),
                     opt("--time-limit", time_limit))
harness_cmds = cmd("harness", opt("--count", st.integers(0, 2)), opt("--seed", cp_seed),
                   opt("--max-n", positive_size), opt("--max-c", positive_size),
                   opt("--max-r", positive_size), opt("--max-h", size),
                   opt("--cnf-count", st.integers(0, 1)),
                   opt("--cnf-vars", st.one_of(st.integers(3, 4), huge)), flag("--cnf-variants"),
                   "--methods", st.sampled_from(["sat,greedy,lazy", "search,brute", "dp"]),
                   "--no-maximize", "--no-progress", opt("--time-limit", time_limit),
                   "--out", OUT + "/h")


def command_cases(commands):
    return st.tuples(commands, deck_files, plays_texts(), model_texts, cnf_files,
                     live_game_texts())


def run_command(case) -> None:
    args, deck, plays, model, cnf, game = case
    with tempfile.TemporaryDirectory() as tmp:
        paths = {DECK: deck, PLAYS: plays, MODEL: model, CNF: cnf, GAME: game}
        for key, text in paths.items():
            with open(os.path.join(tmp, key.strip("{}")), "w", encoding="utf-8") as f:
                f.write(text)
        words = [os.path.join(tmp, str(w).strip("{}")) if w in paths
                 else str(w).replace(OUT, tmp) for w in args]
        res = invoke(words)
        verdicts = VERDICTS.get(args[0], (0,))
        try:
            assert_verdict_or_one_line_error(res, verdicts)
        except AssertionError as exc:
            raise AssertionError(f"hanabi-cp {' '.join(words)}\n{exc}") from None


@tiers
def test_fuzz_solve(slow):
    fuzz(command_cases(solve_cmds), run_command, 60, slow)


@tiers
def test_fuzz_deck_commands(slow):
    commands = st.one_of(verify_cmds, encode_cmds, decode_cmds, min_hand_cmds, live_cmds)
    fuzz(command_cases(commands), run_command, 60, slow)


@tiers
def test_fuzz_generate(slow):
    fuzz(command_cases(generate_cmds), run_command, 40, slow)


@tiers
def test_fuzz_reduce(slow):
    fuzz(command_cases(st.one_of(reduce_cmds, roundtrip_cmds)), run_command, 40, slow)


@tiers
def test_fuzz_harness(slow):
    fuzz(command_cases(harness_cmds), run_command, 5, slow)


def test_fuzz_strategies_reach_both_outcomes():
    """The fuzz would prove nothing if every draw were refused (or none were)."""
    outcomes = set()

    @settings(max_examples=60, derandomize=True, database=None, deadline=None)
    @given(command_cases(solve_cmds))
    def sample(case):
        args, deck, *_ = case
        if args[0] != "solve":
            return
        try:
            parse_deck_file(deck)
            outcomes.add("read")
        except HanabiError:
            outcomes.add("refused")

    sample()
    assert outcomes == {"read", "refused"}
