"""Numbers that are not numbers: every numeric option of every command refuses
``nan``, ``inf``, ``1e308``, ``1e20`` and 20-digit integers in one line naming it.

The walk below finds the options itself (every command, hidden ones too), so a new
option with click's own INT or FLOAT, which take these values, fails it.
"""

from __future__ import annotations

import random

import click
import pytest

from capped import assert_one_line_error, invoke
from hanabi_cp.cli import main
from hanabi_cp.cli import numbers
from hanabi_cp.cli.live_options import ClueCount
from hanabi_cp.cli.numbers import Integer, Real, Sweep
from hanabi_cp.core.errors import HanabiError
from hanabi_cp.apps.harness.live_space import KINDS, LiveSpace
from hanabi_cp.apps.harness.runner import parse_sample, select_checks
from hanabi_cp.real.rules import MIN_PLAYERS, Rules

NUMERIC = (Integer, Real, Sweep, ClueCount)
HOSTILE = ["nan", "inf", "-inf", "1e308", "1e20", "100000000000000000000",
           "-100000000000000000000", "1" * 5000]
# String options whose value holds numbers, parsed by a callback.
NUMBER_STRINGS = {("study", "strategies"): {"--count": "{}", "--players": "{}"},
                  ("harness",): {"--sample": "cpsat={}"}}


def commands(cmd=main, path=()):
    if isinstance(cmd, click.Group):
        for name in cmd.list_commands(None):         # the commands of its table too
            sub = cmd.get_command(None, name)
            yield from commands(sub, (*path, name))
    else:
        yield path, cmd


def numeric_options():
    for path, cmd in commands():
        for p in cmd.params:
            if isinstance(p, click.Option) and not p.is_flag:
                long = [o for o in p.opts if o.startswith("--")][0]
                if isinstance(p.type, NUMERIC) or long in NUMBER_STRINGS.get(path, {}):
                    yield path, long, p.type


OPTIONS = list(numeric_options())


def test_the_walk_finds_the_options_and_no_click_number_is_left():
    assert len(OPTIONS) > 100
    for path, cmd in commands():
        for p in cmd.params:
            assert not isinstance(p.type, (click.types.IntParamType, click.types.FloatParamType)), \
                (path, p.opts, p.type)


@pytest.mark.parametrize("path,option,kind", OPTIONS,
                         ids=[f"{' '.join(p)} {o}" for p, o, _ in OPTIONS])
def test_every_numeric_option_refuses_what_is_not_a_number_in_range(path, option, kind):
    spelling = NUMBER_STRINGS.get(path, {}).get(option, "{}")
    for value in HOSTILE:
        if isinstance(kind, Integer) and kind.high is None and value.lstrip("-").isdigit() \
                and len(value) < 100 and not value.startswith("-"):
            continue      # a hand size: h >= N is h = N, any size means the whole deck
        res = invoke([*path, option, spelling.format(value)])
        line = assert_one_line_error(res, option)
        assert len(line) < 400, line


def test_the_unbounded_hand_options_are_the_documented_ones():
    unbounded = sorted({o for _, o, k in OPTIONS if isinstance(k, Integer) and k.high is None})
    assert unbounded == ["--hand", "--max-h", "--max-hand"]


def test_the_real_rules_ranges_are_those_rules_accept():
    Rules(numbers.MAX_PLAYERS, numbers.MAX_HAND_SIZE, numbers.MAX_CLUE_TOKENS,
          numbers.MAX_STRIKES)
    for bad in ({"players": numbers.MAX_PLAYERS + 1}, {"players": numbers.MIN_PLAYERS - 1},
                {"hand_size": numbers.MAX_HAND_SIZE + 1}, {"clues": numbers.MAX_CLUE_TOKENS + 1},
                {"strikes": numbers.MAX_STRIKES + 1}):
        args = {"players": 2, "hand_size": 1, "clues": 0, "strikes": 1, **bad}
        with pytest.raises(HanabiError):
            Rules(**args)


@pytest.mark.parametrize("args,fragments", [
    (["harness", "--rules", "live", "--max-clues", "1000000000"], ["'--max-clues'", "from 0 to 1,000"]),
    (["study", "hard", "--conflict-limit", "100000000000000000000"], ["'--conflict-limit'", "2^63 - 1"]),
    (["study", "hard", "--budget", "nan"], ["'--budget'", "number of seconds"]),
    (["study", "random", "--points", "1,nan"], ["'--points'"]),
    (["study", "random", "--param", "density", "--points", "1e308"], ["'--points'"]),
    (["study", "reduction", "--ratio", "inf"], ["'--ratio'"]),
    (["generate", "deck", "--n", 3, "--c", 2, "--r", 2, "--missing", "nan"], ["'--missing'"]),
    (["solve", "x", "--rules", "live", "--clues", "1" * 30], ["'--clues'", "0 to 1000"]),
    (["study", "standard", "--hands", "5-1"], ["'--hands'", "a <= b"]),
    (["study", "standard", "--hands", "0-100000000000"], ["--hands: 0-100000000000 is"]),
    (["show", "x", "--time-limit", "1e20"], ["'--time-limit'", "at most 10,000,000 seconds"]),
])
def test_examples_of_the_issue(args, fragments):
    assert_one_line_error(invoke(args), *fragments)


def test_an_unknown_sample_name_is_refused_not_ignored():
    res = invoke(["harness", "--count", 1, "--sample", "cpast=0.5", "--no-progress"])
    assert_one_line_error(res, "--sample: 'cpast' is no check of this run; choose from")
    live = invoke(["harness", "--rules", "live", "--count", 1, "--sample", "dp=0.5",
                   "--no-progress"])
    assert_one_line_error(live, "--sample: 'dp' is no check of this run")
    checks = select_checks(["brute", "sat"])
    assert parse_sample(["sat=0.25", "brute+max=0"], checks) == {"sat": 0.25, "brute+max": 0.0}
    with pytest.raises(HanabiError, match="FRACTION in 0..1"):
        parse_sample(["sat=nan"], checks)


def test_the_clue_range_of_the_live_harness_is_bounded_and_drawn_without_a_list():
    with pytest.raises(HanabiError, match="clue tokens must be 0 to 1000"):
        LiveSpace(max_clues=10**9)             # once a list of 10^9 entries per instance
    for max_clues in (0, 3, 1000):
        space = LiveSpace(max_clues=max_clues)
        for i in range(30):
            # the draw the list made: rng.choice([0, ..., max_clues, None]), same stream
            rng = random.Random(f"7:live:{i}")
            rng.choices([k for k, _ in KINDS], [w for _, w in KINDS])
            rng.randint(MIN_PLAYERS, space.max_players)
            rng.randint(1, space.max_hand)
            assert space.instance(7, i).rules.clues == rng.choice([*range(max_clues + 1), None])


@pytest.mark.parametrize("kind,good,bad", [
    (Integer(1, 256), ["1", "256", " 17 ", "+3"], ["0", "257", "1.0", "1e2", "0x10", "²", "1_0"]),
    (Real(0, 1), ["0", "1", "0.5", "1e-3"], ["-0.1", "1.5", "nan", "inf", "", "1,5"]),
    (numbers.Seconds(), ["0.001", "10000000"], ["0", "-1", "nan", "inf", "10000001", "soon"]),
    (Sweep(True, 0, 10), ["0-3", "1,2", "7"], ["-1", "0-11", "2.5", "a", "3-1", ","]),
])
def test_each_type_takes_its_range_and_nothing_else(kind, good, bad):
    for value in good:
        kind.convert(value, None, None)
    for value in bad:
        with pytest.raises(click.BadParameter):
            kind.convert(value, None, None)
