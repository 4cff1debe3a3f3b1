"""Exact 3-CNF -> Solitaire Hanabi deck, as in the NP-hardness proof (journal §5, §5.1).

Colors 2i-1 and 2i stand for x_i true and false; dummy colors (one value per card)
build the hand dumps and hand reductions.  ``build`` returns the deck together with
a role per card and the gadget segments the witnesses need.  Where the paper as
written fails we follow the fix (``as_written=True`` reproduces the text, for the
tests that show the failures); the notes in encodings/reduction-*.md explain each.

>>> red = build(CNF.of([(1, -2, 3)]))
>>> red.deck.n, red.deck.c, red.deck.r, red.h, red.deck.N
(10, 7, 2, 2, 121)
>>> red.roles[0], red.roles[1], red.roles[32]
('hand reduction: start of sigma_1', 'var 1 gadget', 'hand dump before clause 1')
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ...solvers.formula import CNF
from ...core.errors import DeckError, FormulaError, InvalidParameter, UsageError
from ...runtime.limits import MAX_CARDS
from ...core.model import Card, Deck
from .size import check_image, default_copies, image_size
from .to3cnf import Exact3, bound_occurrences, to_exact3


@dataclass(frozen=True)
class Segment:
    """A gadget piece of the base deck: cards [start, end).

    kind is one of: reserve, reserve-end (whole-deck hand reduction, h > 2),
    sigma1-open, var, sigma1-close, dump, part1, part2, part4, part4x, padding.
    colors are the non-dummy colors it concerns (part4/part4x: A, B, C in clause order;
    var: 2i-1, 2i), offsets their offsets o (per color: they differ in the kappa variant).
    """

    kind: str
    start: int
    end: int
    clause: int = 0
    colors: tuple[int, ...] = ()
    offsets: tuple[int, ...] = ()


@dataclass(frozen=True)
class Reduction:
    """The deck of a formula with what reading witnesses back needs: ``deck`` and
    its hand size ``h``, a role per card, the exact 3-CNF it encodes and its gadgets.

    >>> red = reduce_cnf(CNF.of([(1, 2), (-1,)]))
    >>> red.deck.N, red.h, red.num_vars, red.summary().split(" (")[0]
    (584, 2, 4, '584 cards, n = 38, c = 9, r = 2, h = 2')
    """

    deck: Deck
    h: int
    roles: tuple[str, ...]
    formula: Exact3                    # the exact 3-CNF the deck encodes, with its map back
    base: Deck                         # the deck before extra copies (r > default)
    segments: tuple[Segment, ...]      # over ``base``
    source: tuple[int, ...]            # deck index -> base index it is (a copy of)
    extra: tuple[bool, ...]            # deck index -> is an extra copy (variant r > 2)
    sigma1: tuple[int, int]            # deck indices [start, end) of sigma_1
    kappa: bool = False
    as_written: bool = False

    @property
    def num_vars(self) -> int:
        return self.formula.cnf.num_vars

    def summary(self) -> str:
        d = self.deck
        return (f"{d.N} cards, n = {d.n}, c = {d.c}, r = {d.r}, h = {self.h} "
                f"({self.num_vars} variables, {self.formula.cnf.num_clauses} clauses"
                + (", kappa variant" if self.kappa else "")
                + (", as written in the paper" if self.as_written else "") + ")")


    def notes(self) -> list[str]:
        """What the deck file of this reduction says of it (its comment lines after
        the provenance): the formulas' sizes, the colors' variables, the deck."""
        e = self.formula
        return [f"formula: {e.original.num_vars} variables, {e.original.num_clauses} "
                f"clauses; exact 3-CNF: {e.cnf.num_vars} variables, {e.cnf.num_clauses} "
                "clauses",
                "colors 2i-1 / 2i: variable i of the exact 3-CNF true / false; "
                + e.variable_map(),
                f"deck: {self.summary()}"]


def literal_color(lit: int) -> int:
    return 2 * lit - 1 if lit > 0 else -2 * lit


class _Dummy:
    """A dummy color: every value once, each gadget takes the next values."""

    def __init__(self, color: int):
        self.color, self.level = color, 0

    def take(self, order: tuple[int, ...]) -> list[Card]:
        """Cards level+o for o in order; the color then stands at level + len(order)."""
        cards = [Card(self.level + o, self.color) for o in order]
        self.level += len(order)
        return cards


class _Builder:
    """The base deck, gadget by gadget: its cards, a role per card, the segments."""

    def __init__(self, num_vars: int, num_clauses: int, h: int, kappa: bool,
                 as_written: bool) -> None:
        self.cards: list[Card] = []
        self.roles: list[str] = []
        self.segments: list[Segment] = []
        self.v, self.m, self.h = num_vars, num_clauses, h
        self.kappa, self.as_written = kappa, as_written
        # With h = 1 the paper's three-card dumps and sigma_1's hand reduction cannot be
        # played at all; the fix uses two-card dumps and no reduction in sigma_1.
        self.small = h == 1 and not as_written
        self.dump_order = (2, 1) if self.small else (2, 3, 1)
        self.next_color = 2 * num_vars + 1
        self.dummies: list[_Dummy] = []
        # the dummy color of sigma_1's hand reduction, the dumps (without kappa) and
        # the whole-deck hand reduction; missing only when small and kappa
        self.d0 = self.new_dummy() if (not self.small or not kappa) else None
        self.occ: Counter[int] = Counter()   # clause gadgets each non-dummy color took part in

    def add(self, kind: str, cards, roles, **info) -> None:
        if not cards:
            return
        start = len(self.cards)
        self.cards.extend(cards)
        self.roles.extend([roles] * len(cards) if isinstance(roles, str) else roles)
        self.segments.append(Segment(kind, start, len(self.cards), **info))

    def new_dummy(self) -> _Dummy:
        self.dummies.append(_Dummy(self.next_color))
        self.next_color += 1
        return self.dummies[-1]

    def sigma1(self) -> None:
        """sigma_1: the variable gadgets inside a hand reduction (one slot taken)."""
        d0 = self.d0
        if not self.small:
            assert d0 is not None        # d0 is missing only when small and kappa
            self.add("sigma1-open", [Card(d0.level + 2, d0.color)],
                     "hand reduction: start of sigma_1")
        for i in range(1, self.v + 1):
            t, f = 2 * i - 1, 2 * i
            cards = [Card(2, t), Card(2, f), Card(1, t), Card(3, t), Card(4, t), Card(5, t),
                     Card(1, f), Card(3, f), Card(4, f), Card(5, f)]
            self.add("var", cards, f"var {i} gadget", colors=(t, f))
        if not self.small:
            assert d0 is not None
            self.add("sigma1-close", [Card(d0.level + 1, d0.color)],
                     "hand reduction: end of sigma_1")
            d0.level += 2

    def clause(self, j: int, clause: tuple[int, ...]) -> None:
        """Clause j's gadget: a dump, part 1 for its colors A, B, C, part 2 for the
        others, a dump, part 4 (and its extension when h = 1)."""
        dj = self.new_dummy() if self.kappa else self.d0
        assert dj is not None        # without kappa d0 exists
        assoc = tuple(literal_color(l) for l in clause)
        if self.kappa:
            others = tuple(sorted(c + 1 if c % 2 else c - 1 for c in assoc))
        else:
            others = tuple(c for c in range(1, 2 * self.v + 1) if c not in assoc)
        off = {c: 5 * self.occ[c] for c in assoc + others}
        names = dict(zip(assoc, "ABC"))
        lit_of = {literal_color(l): (f"x{l}" if l > 0 else f"-x{-l}") for l in clause}
        self.add("dump", dj.take(self.dump_order), f"hand dump before clause {j}", clause=j)
        for c in assoc:
            o = off[c]
            self.add("part1", [Card(o + x, c) for x in range(6, 11)],
                     f"clause {j} part 1 ({names[c]} = {lit_of[c]})", clause=j, colors=(c,),
                     offsets=(o,))
        seq = (6, 7, 8, 9, 10, 2, 3, 4, 5) if self.small else (5, 6, 7, 8, 9, 10, 2, 3, 4)
        for c in others:
            o = off[c]
            self.add("part2", [Card(o + x, c) for x in seq],
                     f"clause {j} part 2 (color {c} = x{(c + 1) // 2} "
                     f"{'true' if c % 2 else 'false'}, not in the clause)", clause=j,
                     colors=(c,), offsets=(o,))
        self.add("dump", dj.take(self.dump_order), f"hand dump inside clause {j}", clause=j)
        self.part4(j, assoc, off, [f"{names[c]} = {lit_of[c]}" for c in assoc])
        for c in assoc + others:
            self.occ[c] += 1

    def part4(self, j: int, assoc: tuple[int, ...], off: dict[int, int],
              says: list[str]) -> None:
        """Clause j's part 4 over its colors ``assoc`` (``says``: "A = x1" per color),
        and with h = 1 its extension."""
        offs = tuple(off[c] for c in assoc)
        said = dict(zip(assoc, says))
        cards = [Card(off[c] + 3, c) for c in assoc]
        for c in assoc:
            cards += [Card(off[c] + x, c) for x in (2, 4, 5, 6)]
        self.add("part4", cards, [f"clause {j} part 4 ({said[c.color]})" for c in cards],
                 clause=j, colors=assoc, offsets=offs)
        if self.h == 1:
            cards = [Card(off[c] + 4, c) for c in assoc]
            for c in assoc:
                cards += [Card(off[c] + x, c) for x in (3, 5, 6)]
            self.add("part4x", cards, [f"clause {j} part 4 extension for h = 1 "
                                       f"({said[c.color]})" for c in cards],
                     clause=j, colors=assoc, offsets=offs)

    def reserve(self) -> list[Card]:
        """Whole-deck hand reduction for h > 2: h-2 dummy cards that only become
        playable after the last clause gadget, stored from the very first card (the
        caller puts them first)."""
        if self.h <= 2:
            return []
        d0, h = self.d0, self.h
        assert d0 is not None        # h > 2 is never small
        top = d0.level
        self.add("reserve-end", [Card(top + 1, d0.color)], "end of the whole-deck hand reduction")
        d0.level = top + h - 1
        return [Card(top + x, d0.color) for x in range(2, h)]

    def padding(self) -> int:
        """Every color's values up to n, after its last gadget; returns n."""
        occ, dummies = self.occ, self.dummies
        if self.as_written:
            n = max([6 * self.m + 2] + [d.level for d in dummies])
        else:
            n = max([d.level for d in dummies] + [5 * max(occ.values(), default=0) + 5])
        for c in range(1, 2 * self.v + 1):
            # The paper starts at o_m + 6, giving the last clause's colors a third copy
            # of 5m+1 (padding erratum); o_m + 7 = 5 occ + 2 is the first value still needed.
            first = 5 * occ[c] + (1 if self.as_written and occ[c] else 2)
            self.add("padding", [Card(a, c) for a in range(first, n + 1)], "padding", colors=(c,))
        for d in dummies:
            self.add("padding", [Card(a, d.color) for a in range(d.level + 1, n + 1)],
                     "padding (dummy color)")
        if self.as_written:
            self.check_values(n)
        return n

    def check_values(self, n: int) -> None:
        """As written, n = 6m+2 is too small for some cards (DeckError names the first)."""
        over = next(((i, card) for i, card in enumerate(self.cards, 1) if card.value > n), None)
        if over:
            i, card = over
            shift = max(self.h - 2, 0)       # the reserve cards go first
            raise DeckError(f"as written, n = 6m+2 = {n}, but card #{i + shift} ({card}) "
                            f"of the {self.roles[i - 1]!r} needs value {card.value} "
                            "(erratum: see encodings/reduction-padding-and-errata.md)")


def reduce_cnf(cnf: CNF, h: int = 2, copies: int | None = None, kappa: bool = False,
               as_written: bool = False, max_cards: int | None = MAX_CARDS) -> Reduction:
    """Any CNF -> deck: to_exact3 (and, for kappa, bound_occurrences), then ``build``.

    The image's size is computed first: above ``max_cards`` cards (None: no limit)
    it raises LimitError before building anything.
    """
    e = to_exact3(cnf)
    if kappa:
        e = bound_occurrences(e)
    if max_cards is not None:
        copies = default_copies(h) if copies is None else copies
        _check(e.cnf, h, copies, kappa, as_written)
        check_image(image_size(e, h, copies, kappa, as_written), max_cards)
    return build(e, h=h, copies=copies, kappa=kappa, as_written=as_written)


def _check(formula: CNF, h: int, copies: int, kappa: bool, as_written: bool) -> None:
    if not isinstance(h, int) or h < 1:
        raise InvalidParameter(f"hand size {{h}} must be >= 1 for the reduction, found {h!r} "
                               "(with h = 0 no deck of this shape can be won)", "h")
    if copies < default_copies(h):
        raise InvalidParameter(f"{{copies}} {copies}: the reduction needs r >= {default_copies(h)} "
                               f"for h = {h}" + (" (h = 1 with r = 2 is open in the paper)" if h == 1 else ""),
                               "copies")
    if as_written and kappa:
        raise UsageError("{as_written} reproduces the base construction only, not {kappa}", "as_written", "kappa")
    for j, clause in enumerate(formula.clauses, start=1):
        if len(clause) != 3 or len({abs(l) for l in clause}) != 3:
            raise FormulaError(f"clause {j} {list(clause)}: the reduction needs three literals "
                               "of three distinct variables (use reduce_cnf, which converts)")


def build(formula: Exact3 | CNF, h: int = 2, copies: int | None = None, kappa: bool = False,
          as_written: bool = False) -> Reduction:
    """The deck of journal §5 for an exact 3-CNF (see the module docstring)."""
    e = formula if isinstance(formula, Exact3) else \
        Exact3(formula, formula, tuple(range(1, formula.num_vars + 1)), ())
    cnf = e.cnf
    copies = default_copies(h) if copies is None else copies
    _check(cnf, h, copies, kappa, as_written)
    b = _Builder(cnf.num_vars, cnf.num_clauses, h, kappa, as_written)
    b.sigma1()
    sigma1_end = len(b.cards)
    for j, clause in enumerate(cnf.clauses, start=1):
        b.clause(j, clause)
    reserve = b.reserve()
    n = b.padding()
    shift = len(reserve)
    segments = [Segment("reserve", 0, shift)] if shift else []
    segments += [Segment(s.kind, s.start + shift, s.end + shift, s.clause, s.colors, s.offsets)
                 for s in b.segments]
    cards = reserve + b.cards
    roles = [f"hand reduction for the whole deck ({h - 2} of {h} slots)"] * shift + b.roles
    base = Deck.packed(cards, n, b.next_color - 1)
    extra_n = copies - default_copies(h)
    final, final_roles, source, extra = _with_extra_copies(cards, roles, extra_n)
    deck = Deck.packed(final, n, b.next_color - 1) if extra_n else base
    sigma1 = (shift, shift + sigma1_end)
    start = source.index(sigma1[0]) if sigma1[1] > sigma1[0] else 0
    end = len(source) - source[::-1].index(sigma1[1] - 1) if sigma1[1] > sigma1[0] else 0
    return Reduction(deck, h, tuple(final_roles), e, base, tuple(segments), tuple(source),
                     tuple(extra), (start, end), kappa, as_written)


def _with_extra_copies(cards: list[Card], roles: list[str], extra_n: int):
    """Variant r > default: ``extra_n`` extra copies right after each card's first copy.
    Returns the cards, their roles, per card the base index it is (a copy of), and
    whether it is an extra copy."""
    source: list[int] = []
    extra: list[bool] = []
    final: list[Card] = []
    final_roles: list[str] = []
    seen = set()
    for i, card in enumerate(cards):
        final.append(card)
        final_roles.append(roles[i])
        source.append(i)
        extra.append(False)
        if extra_n and card not in seen:
            seen.add(card)
            for _ in range(extra_n):
                final.append(card)
                final_roles.append(roles[i] + " [extra copy]")
                source.append(i)
                extra.append(True)
    return final, final_roles, source, extra
