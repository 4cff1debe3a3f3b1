"""Gadget labels for reduction images: the ``#: role`` lines grouped into spans.

Two tiers, as in the journal's Figures 1-3: ``gadgets`` (sigma_1, the dumps between
clauses, C1, C2, ..., padding) and ``parts`` (every run of consecutive equal roles:
V1, V2, part 1 of clause 1 for literal A, ...).  Role names are the reduction's
(``hanabi_cp.solitaire.reduction.sat3``); a role this module does not know is its own gadget,
so any annotated deck gets labelled spans.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from collections.abc import Sequence

_EXTRA = " [extra copy]"


@dataclass(frozen=True)
class Span:
    """Cards [start, end) (0-based deck positions) with a label, long and short."""

    start: int
    end: int
    label: str
    short: str


_GADGET_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^hand reduction: .*sigma_1$|^var \d+ gadget$"), "σ1"),
    (re.compile(r"^hand dump before clause \d+$"), "dump"),
    (re.compile(r"^(?:hand dump inside )?clause (\d+)\b.*$"), r"C\1"),
    (re.compile(r"^padding.*$"), "padding"),
    (re.compile(r"^(?:end of the )?(?:hand reduction for the )?whole[- ]deck.*$"),
     "hand reduction (whole deck)"),
)

_PART_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^var (\d+) gadget$"), r"V\1"),
    (re.compile(r"^hand reduction: .*$"), "red."),
    (re.compile(r"^hand dump .*$"), "dump"),
    (re.compile(r"^clause \d+ part (\d+) \(([ABC]) = (-?x\d+)\)$"), r"\2 = \3"),
    (re.compile(r"^clause \d+ part 2 \(color \d+ = x(\d+) true, .*\)$"), r"x\1 (other)"),
    (re.compile(r"^clause \d+ part 2 \(color \d+ = x(\d+) false, .*\)$"), r"¬x\1 (other)"),
    (re.compile(r"^clause \d+ part 4 extension .*\(([ABC]) = (-?x\d+)\)$"), r"\1'=\2"),
    (re.compile(r"^padding \(dummy color\)$"), "pad d"),
    (re.compile(r"^padding$"), "padding"),
)


def _rewrite(role: str, rules) -> str:
    for pattern, template in rules:
        if pattern.match(role):
            return pattern.sub(template, role)
    return role


def gadget_of(role: str) -> str:
    """The gadget a role belongs to.

    >>> [gadget_of(r) for r in ("var 2 gadget", "hand dump before clause 3",
    ...  "hand dump inside clause 3", "clause 3 part 1 (A = x1)", "padding (dummy color)")]
    ['σ1', 'dump', 'C3', 'C3', 'padding']
    """
    return _rewrite(role.removesuffix(_EXTRA), _GADGET_RULES)


def part_of(role: str) -> str:
    """A short name of a role, to fit over a few cards.

    >>> [part_of(r) for r in ("var 2 gadget", "clause 1 part 1 (B = -x2)",
    ...  "clause 1 part 2 (color 2 = x1 false, not in the clause)", "something else")]
    ['V2', 'B = ¬x2', '¬x1 (other)', 'something else']
    """
    return _rewrite(role.removesuffix(_EXTRA), _PART_RULES).replace("= -x", "= ¬x")


def _runs(keys: Sequence[str]) -> list[tuple[int, int]]:
    """[start, end) of each run of equal consecutive keys."""
    runs: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(keys) + 1):
        if i == len(keys) or keys[i] != keys[start]:
            runs.append((start, i))
            start = i
    return runs


def gadget_spans(roles: Sequence[str], lo: int = 0, hi: int | None = None) -> list[Span]:
    """Runs of one gadget over positions [lo, hi), labelled by the gadget name.

    >>> [(s.start, s.end, s.short) for s in gadget_spans(["var 1 gadget"] * 2 + ["padding"])]
    [(0, 2, 'σ1'), (2, 3, 'padding')]
    """
    hi = len(roles) if hi is None else hi
    if hi <= lo:
        return []
    keys = [gadget_of(r) for r in roles[lo:hi]]
    return [Span(a + lo, b + lo, keys[a], keys[a]) for a, b in _runs(keys)]


def part_spans(roles: Sequence[str], lo: int = 0, hi: int | None = None) -> list[Span]:
    """Runs of consecutive equal roles over positions [lo, hi).

    >>> [(s.start, s.end, s.short) for s in part_spans(["var 1 gadget", "var 2 gadget"])]
    [(0, 1, 'V1'), (1, 2, 'V2')]
    """
    hi = len(roles) if hi is None else hi
    if hi <= lo:
        return []
    window = [r.removesuffix(_EXTRA) for r in roles[lo:hi]]
    return [Span(a + lo, b + lo, window[a], part_of(window[a])) for a, b in _runs(window)]


def variable_rows(roles: Sequence[str], cards) -> dict[int, str]:
    """Row names of a reduction image: the true and false colors of each variable
    gadget (its first two cards, values 2 of colors 2i-1 and 2i) and the dummy colors.

    >>> from hanabi_cp.core.model import Card
    >>> variable_rows(["var 1 gadget"] * 2 + ["hand dump before clause 1"],
    ...               [Card(2, 1), Card(2, 2), Card(4, 3)])
    {1: 'x1', 2: '¬x1', 3: 'd'}
    """
    names: dict[int, str] = {}
    for i, role in enumerate(roles):
        m = re.match(r"^var (\d+) gadget$", role)
        if m and (i == 0 or roles[i - 1] != role) and i + 1 < len(roles):
            names.setdefault(cards[i].color, f"x{m.group(1)}")
            names.setdefault(cards[i + 1].color, f"¬x{m.group(1)}")
    for i, role in enumerate(roles):
        if re.match(r"^hand (dump|reduction)|^padding \(dummy color\)", role):
            names.setdefault(cards[i].color, "d")
    return names


def merge_narrow(spans: list[Span], min_cards: float) -> list[Span]:
    """Runs of consecutive spans narrower than ``min_cards`` as one span each, named by
    its first and last gadget (dumps aside): C1 ... C218 in an aggregated picture.

    >>> [s.label for s in merge_narrow([Span(0, 1, "dump", "dump"), Span(1, 2, "C1", "C1"),
    ...   Span(2, 3, "dump", "dump"), Span(3, 4, "C2", "C2"), Span(4, 90, "padding", "padding")], 5)]
    ['C1 … C2 (4 gadgets)', 'padding']
    """
    out: list[Span] = []
    run: list[Span] = []

    def flush() -> None:
        if len(run) == 1:
            out.append(run[0])
        elif run:
            named = [s.label for s in run if s.label != "dump"] or [run[0].label]
            if named[0] == named[-1]:
                label = short = f"{named[0]} and {len(run) - 1} more"
            else:
                label, short = f"{named[0]} … {named[-1]} ({len(run)} gadgets)", f"{named[0]} … {named[-1]}"
            out.append(Span(run[0].start, run[-1].end, label, short))
        run.clear()

    for s in spans:
        if s.end - s.start < min_cards:
            run.append(s)
        else:
            flush()
            out.append(s)
    flush()
    return out
