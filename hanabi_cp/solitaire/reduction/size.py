"""The size of a reduction image, computed from the formula without building it.

``image_size`` counts what ``sat3.build`` would produce (cards, n, c) from the
exact 3-CNF's numbers of variables and clauses (and, for the kappa variant, each
variable's occurrences), so ``reduce_cnf`` can refuse a formula whose image would
not fit in memory before allocating a single card: a 5,000-literal clause becomes
a chain of about 5,000 clauses over 10,000 variables, whose image would have
about 9*10^8 cards.  tests/test_guards.py checks the count against ``build`` on
random formulas and every variant.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ...runtime.limits import MAX_CARDS, check_cards
from .to3cnf import Exact3, occurrences


@dataclass(frozen=True)
class ImageSize:
    cards: int
    n: int
    c: int


def default_copies(h: int) -> int:
    """r of the construction: 2, or 3 for h = 1 (the extended clause gadget)."""
    return 3 if h == 1 else 2


def image_size(e: Exact3, h: int = 2, copies: int | None = None, kappa: bool = False,
               as_written: bool = False) -> ImageSize:
    """Cards, n and c of ``build(e, h, copies, kappa, as_written)``, in O(variables)."""
    v, m = e.cnf.num_vars, e.cnf.num_clauses
    # In the base construction every clause gadget touches every color (its three
    # literals and, in part 2, all the others); kappa's touch only their own.
    per_var = Counter(occurrences(e.cnf).values()) if kappa else Counter({m: v})
    return _count(v, m, per_var, h, copies, kappa, as_written)


def random_image_size(v: int, m: int, h: int = 2, copies: int | None = None) -> ImageSize:
    """The image of an exact 3-CNF using all of its v variables in m clauses (a
    random 3-CNF, as the harness and the reduction study draw), without the formula
    (nor anything per variable: v may be any number an option holds)."""
    return _count(v, m, Counter({m: v}), h, copies, False, False)


def _count(v: int, m: int, per_var: Counter, h: int, copies: int | None, kappa: bool,
           as_written: bool) -> ImageSize:
    """``per_var``: how many variables occur in each number of clauses."""
    copies = default_copies(h) if copies is None else copies
    small = h == 1 and not as_written        # two-card dumps, no reduction in sigma_1
    dump = 2 if small else 3
    levels = []                              # final level of each dummy color
    if not small or not kappa:
        reserve = h - 1 if h > 2 else 0      # h-2 held cards and the end card
        levels.append((0 if small else 2) + (0 if kappa else 2 * dump * m) + reserve)
    if kappa:
        levels += [2 * dump] * m
    top_occ = max((occ for occ, count in per_var.items() if count), default=0)
    if as_written:
        n = max([6 * m + 2] + levels)
    else:
        n = max(levels + [5 * top_occ + 5])
    c = 2 * v + len(levels)
    others = 3 if kappa else 2 * v - 3       # part-2 colors of a clause gadget
    cards = 10 * v + (0 if small else 2)     # variable gadgets and sigma_1's reduction
    cards += m * (2 * dump + 15 + 9 * others + 15 + (12 if h == 1 else 0))
    cards += h - 1 if h > 2 else 0
    for occ, count in per_var.items():       # padding of both colors of each variable
        first = 5 * occ + (1 if as_written and occ else 2)
        cards += 2 * count * max(0, n - first + 1)
    cards += sum(max(0, n - level) for level in levels)
    # Every kind of card 1..n x 1..c is in the base deck; each gets the extra copies.
    cards += (copies - default_copies(h)) * n * c
    return ImageSize(cards, n, c)


def check_image(size: ImageSize, max_cards: int = MAX_CARDS) -> None:
    """Raise LimitError if the image would have more than ``max_cards`` cards."""
    check_cards(size.cards, f"the reduction's deck (n = {size.n:,}, c = {size.c:,})",
                max_cards)
