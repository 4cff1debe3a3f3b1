"""The types of every numeric option: finite, within a range, or refused naming it.

click's INT takes any integer (``--conflict-limit 10**20`` overflows a C long, a
``--max-clues`` of 10^9 becomes a list of 10^9) and its FLOAT and FloatRange take
``nan`` (every comparison with it is false, so it passes any range) and ``inf``.
Every numeric option of the CLI uses one of the types below instead, each with
an explicit range; tests/test_numeric_options.py walks every command and checks
that no option takes ``nan``, ``inf``, ``1e308`` or a 20-digit integer.

>>> Integer(1, 256).convert("17", None, None), Real(0, 1).convert("0.5", None, None)
(17, 0.5)
>>> Sweep(integer=True, low=0, high=100).convert("0-2,5", None, None)
[0, 1, 2, 5]
"""

from __future__ import annotations

import math

import click

from ..runtime.limits import MAX_SWEEP_POINTS, check_at_most, clip

# Integers that native code takes as a C long / int64 (pysat's budgets, CP-SAT's
# bounds): the bound of every integer option that has no smaller one.
MAX_INT = 2**63 - 1
MIN_INT = -2**63
# Instances, games or steps of one run: a loop, not an allocation, but 10^9 is days
# of work at a millisecond each, so anything larger is a typo.
MAX_COUNT = 10**9
# Seconds of any time option: about 116 days; larger values are no limit at all, and
# waits on threads refuse timeouts above threading.TIMEOUT_MAX (about 9.2 x 10^9 s).
MAX_SECONDS = 10**7


def _shown(value: object) -> str:
    return clip(str(value).strip())


def _num(x: float) -> str:
    if x == MAX_INT:
        return "2^63 - 1"
    if x == MIN_INT:
        return "-2^63"
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


def _range(low: float | None, high: float | None, low_open: bool = False) -> str:
    if low is not None and high is not None:
        return (f"above {_num(low)} and at most {_num(high)}" if low_open
                else f"from {_num(low)} to {_num(high)}")
    if low is not None:
        return f"{'above' if low_open else 'at least'} {_num(low)}"
    return f"at most {_num(high)}" if high is not None else ""


# Digits of an integer option without an upper bound (a hand size: h >= N is h = N).
MAX_UNBOUNDED_DIGITS = 100


class Integer(click.ParamType):
    """An integer from ``low`` to ``high`` (written in decimal digits, an optional sign);
    ``high`` None: any size of at most MAX_UNBOUNDED_DIGITS digits, for the options
    whose large values mean the same as smaller ones (a hand size)."""

    name = "integer"

    def __init__(self, low: int | None = 0, high: int | None = MAX_INT):
        self.low, self.high = (MIN_INT if low is None else low), high

    def parse(self, value: object) -> int | None:
        """The integer ``value`` spells, or None."""
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = str(value).strip()
        digits = text[1:] if text[:1] in "+-" else text
        if not (digits.isascii() and digits.isdigit()):
            return None
        width = 19 if self.high is not None else MAX_UNBOUNDED_DIGITS
        if len(digits.lstrip("0")) > width:     # past every range: never converted
            return None if self.high is None else MAX_INT + 1 if text[:1] != "-" else MIN_INT - 1
        return int(text)

    def convert(self, value, param, ctx):
        x = self.parse(value)
        if x is None:
            self.fail(f"expected an integer {self.describe()}, found {_shown(value)!r}", param, ctx)
        if not self.within(x):
            self.fail(f"expected an integer {self.describe()}, found {_shown(value)}", param, ctx)
        return x

    def within(self, x: float) -> bool:
        return self.low <= x and (self.high is None or x <= self.high)

    def describe(self) -> str:
        if self.high is None:
            return f"{_range(self.low, None)} of at most {MAX_UNBOUNDED_DIGITS} digits"
        return _range(self.low, self.high)


class Real(click.ParamType):
    """A finite number from ``low`` to ``high`` (above ``low`` if ``low_open``)."""

    name = "number"

    def __init__(self, low: float | None, high: float, low_open: bool = False):
        self.low, self.high, self.low_open = low, high, low_open

    def parse(self, value: object) -> float | None:
        """The finite number ``value`` spells, or None (not a number, nan, inf)."""
        try:
            x = float(value)        # type: ignore[arg-type]
        except (TypeError, ValueError):
            return None
        return x if math.isfinite(x) else None

    def convert(self, value, param, ctx):
        x = self.parse(value)
        if x is None or not self.within(x):
            self.fail(f"expected a finite number {self.describe()}, found {_shown(value)}",
                      param, ctx)
        return x

    def within(self, x: float) -> bool:
        if self.low is not None and (x <= self.low if self.low_open else x < self.low):
            return False
        return x <= self.high

    def describe(self) -> str:
        return _range(self.low, self.high, self.low_open)


class Sweep(click.ParamType):
    """The points of a sweep, ``0-6`` or ``0,2,4`` or a mix, as a sorted list: integers
    from ``low`` to ``high`` (``integer``) or finite numbers (a range ``a-b`` is the
    integers from a to b), at most MAX_SWEEP_POINTS of them."""

    name = "points"

    def __init__(self, integer: bool, low: float, high: float):
        self.number = Integer(int(low), int(high)) if integer else Real(low, high)

    def convert(self, value, param, ctx):
        if isinstance(value, list):
            return value
        name = param.opts[0] if param is not None else "points"
        out: set = set()
        for part in str(value).split(","):
            part = part.strip()
            x = self.number.parse(part)
            if x is not None:
                self._point(x, value, param, ctx)
                out.add(int(x) if float(x).is_integer() else x)
            else:
                head, _, hi = part[1:].rpartition("-")       # a leading '-' is a sign
                a, b = Integer(None).parse(part[:1] + head), Integer(None).parse(hi)
                if "-" not in part[1:] or a is None or b is None:
                    self._bad(value, param, ctx)
                for end in (a, b):
                    self._point(end, value, param, ctx)
                if b < a:
                    self.fail(f"expected ranges a-b with a <= b, found {clip(part)!r}", param, ctx)
                check_at_most(f"{name}: {clip(part)} is", b - a + 1,
                              MAX_SWEEP_POINTS - len(out), "points of one sweep")
                out.update(range(a, b + 1))
            check_at_most(f"{name}: {_shown(value)} is", len(out), MAX_SWEEP_POINTS,
                          "points of one sweep")
        if not out:
            self.fail(f"expected at least one number, found {_shown(value)!r}", param, ctx)
        return sorted(out)

    def _point(self, x, value, param, ctx) -> None:
        if float(x).is_integer() or not isinstance(self.number, Integer):
            ok = self.number.within(x)
        else:
            ok = False
        if not ok:
            self.fail(f"expected {'integers' if isinstance(self.number, Integer) else 'finite numbers'} "
                      f"{self.number.describe()}, found {_shown(value)}", param, ctx)

    def _bad(self, value, param, ctx):
        example = "0-6 or 2,3,5" if isinstance(self.number, Integer) else "0-6 or 1,1.5,2"
        self.fail(f"expected numbers like {example}, found {_shown(value)!r}", param, ctx)


def count(high: int = MAX_COUNT, low: int = 0) -> Integer:
    """Instances, games, steps: ``low`` to ``high`` (MAX_COUNT)."""
    return Integer(low, high)


class Seconds(Real):
    """A number of seconds: finite, above 0, at most MAX_SECONDS.

    A NaN limit would never expire and an infinite one is no limit, so both are
    refused like any other bad number (leave the option out for no limit).
    """

    name = "seconds"

    def __init__(self):
        super().__init__(0, MAX_SECONDS, low_open=True)

    def convert(self, value, param, ctx):
        x, shown = self.parse(value), _shown(value)
        if x is None:
            try:
                x = float(value)
            except (TypeError, ValueError):
                self.fail(f"expected a number of seconds, found {shown!r}", param, ctx)
            if x != x:
                self.fail(f"expected a number of seconds, found {shown}", param, ctx)
            self.fail(f"expected a finite number of seconds, found {shown} "
                      "(leave the option out for no limit)", param, ctx)
        if x <= 0:
            self.fail(f"expected more than 0 seconds, found {shown}", param, ctx)
        if x > MAX_SECONDS:
            self.fail(f"expected at most {MAX_SECONDS:,} seconds (about 116 days), found {shown} "
                      "(leave the option out for no limit)", param, ctx)
        return x


# Real-rules games: the ranges real.rules.Rules accepts (checked against it in
# tests/test_numeric_options.py), so a wrong value is refused as an option.
MIN_PLAYERS, MAX_PLAYERS = 2, 6
MAX_HAND_SIZE = 100
MAX_CLUE_TOKENS = 1000
MAX_STRIKES = 1000
# Clauses per variable of random formulas: far above every threshold (4.26 for 3-SAT),
# small enough that ratio x variables stays a finite number to check against limits.
RATIO = Real(0, 10**6, low_open=True)
# A point of `study random --points` (a hand size or a density): products with n and
# c stay finite, and the cards they ask for are checked by limits.check_cards.
MAX_POINT = 10**15

SEED = Integer(MIN_INT, MAX_INT)            # any int64: Python's Random takes them all
NONNEGATIVE_SEED = Integer(0, MAX_INT)
HAND = Integer(0, None)                     # h >= N is h = N (limits.effective_hand)
