"""The generated deck against the journal's Figures 1 and 2, card for card, the
structural claims of §5, and each place where the paper as written fails."""

import pytest

from hanabi_cp.solvers.formula import CNF
from hanabi_cp.core.errors import DeckError, HanabiError
from hanabi_cp.core.model import Card, Deck
from hanabi_cp.solitaire.play_sequence import PlaySequence
from hanabi_cp.solitaire.reduction import build, play_from_assignment, readback, reduce_cnf
from hanabi_cp.solitaire.reduction.witnesses import assignment_from_play
from hanabi_cp.solitaire.solve import solve
from hanabi_cp.solitaire.referee import replay


def cards_of(values: str, colors: str, d: int) -> list[Card]:
    vs, cs = values.split(), colors.split()
    assert len(vs) == len(cs)
    return [Card(int(a), d if k == "d" else int(k)) for a, k in zip(vs, cs)]


# Figure 1 (journal p. 14), both rows exactly as printed: sigma_1 for v = 3.
FIG1 = cards_of("2 2 2 1 3 4 5 1 3 4 5 2 2 1 3 4 5 1 3 4 5 2 2 1 3 4 5 1 3 4 5 1",
                "d 1 2 1 1 1 1 2 2 2 2 3 4 3 3 3 3 4 4 4 4 5 6 5 5 5 5 6 6 6 6 d", d=7)

# Figure 2: sigma_2 for W1 = (x1 | -x2 | x3), W2 = (x1 | x2 | -x3).  The figure
# abbreviates part 1 as one run "6 7 8 9 10" under "1, 4, and 5" and part 2 as one
# run under "2, 3, and 6"; §5 says each run is repeated "for the three colors", so
# the runs are expanded here color by color, in the order the figure lists them.
# Every other card is transcribed as printed.
FIG2_C1 = cards_of(
    "4 5 3" + " 6 7 8 9 10" * 3 + " 5 6 7 8 9 10 2 3 4" * 3
    + " 7 8 6 3 3 3 2 4 5 6 2 4 5 6 2 4 5 6",
    "d d d" + " 1" * 5 + " 4" * 5 + " 5" * 5 + " 2" * 9 + " 3" * 9 + " 6" * 9
    + " d d d 1 4 5 1 1 1 1 4 4 4 4 5 5 5 5", d=7)
FIG2_C2 = cards_of(
    "10 11 9" + " 11 12 13 14 15" * 3 + " 10 11 12 13 14 15 7 8 9" * 3
    + " 13 14 12 8 8 8 7 9 10 11 7 9 10 11 7 9 10 11",
    "d d d" + " 1" * 5 + " 3" * 5 + " 6" * 5 + " 2" * 9 + " 4" * 9 + " 5" * 9
    + " d d d 1 3 6 1 1 1 1 3 3 3 3 6 6 6 6", d=7)

FIG2_FORMULA = CNF.of([(1, -2, 3), (1, 2, -3)])


def test_figure_1_sigma_1():
    red = build(CNF(3, ()))
    start, end = red.sigma1
    assert list(red.deck.cards[start:end]) == FIG1
    assert red.roles[0] == "hand reduction: start of sigma_1"
    assert red.roles[1:11] == ("var 1 gadget",) * 10


def test_figure_2_sigma_2():
    red = build(FIG2_FORMULA)
    end1 = red.sigma1[1]
    assert list(red.deck.cards[:end1]) == FIG1
    sigma2 = list(red.deck.cards[end1:end1 + len(FIG2_C1) + len(FIG2_C2)])
    assert sigma2 == FIG2_C1 + FIG2_C2
    rest = red.roles[end1 + len(sigma2):]
    assert set(rest) == {"padding", "padding (dummy color)"}
    assert red.roles[end1] == "hand dump before clause 1"
    assert red.roles[end1 + 3] == "clause 1 part 1 (A = x1)"


def test_parameters_of_the_construction():
    """c = 2v+1, r = 2, n = max(6m+2, 5m+5), every card (a, k) present."""
    for clauses, v in [([(1, -2, 3)], 3), ([(1, -2, 3), (1, 2, -3)], 3),
                       ([(1, 2, 3), (-1, -2, 4), (2, 3, -4)], 4),
                       ([(1, 2, 3), (-1, -2, 4), (2, 3, -4), (-1, 3, 4), (1, -3, -4)], 4)]:
        m = len(clauses)
        red = build(CNF.of(clauses))
        d = red.deck
        assert (d.c, d.r, red.h, d.n) == (2 * v + 1, 2, 2, max(6 * m + 2, 5 * m + 5))
        assert d.missing() == []
        dummy = [card for card in d.cards if card.color == d.c]
        assert len(dummy) == len(set(dummy)) == d.n     # every dummy value exactly once


def test_erratum_n_too_small_for_m_at_most_2():
    """n = 6m+2 as written: Figure 2 itself (m = 2) uses value 15 > 14."""
    with pytest.raises(DeckError, match=r"n = 6m\+2 = 14, but card #103 \(15:1\) .* needs value 15"):
        build(FIG2_FORMULA, as_written=True)
    with pytest.raises(DeckError, match=r"n = 6m\+2 = 8, but card #.* needs value 9"):
        build(CNF.of([(1, 2, 3)]), as_written=True)


def test_erratum_padding_from_o_m_plus_6_gives_three_copies():
    formula = CNF.of([(1, 2, 3), (-1, 2, 4), (1, -3, -4)])   # m = 3: 6m+2 = 5m+5 = 20
    paper = build(formula, as_written=True)
    assert paper.deck.r == 3
    triples = sorted(card for card, k in paper.deck.counts.items() if k == 3)
    # 5m+1 = 16 in the colors of the last clause's literals x1, -x3, -x4: 1, 6, 8
    assert triples == [Card(16, 1), Card(16, 6), Card(16, 8)]
    fixed = build(formula)
    assert fixed.deck.r == 2 and fixed.deck.n == paper.deck.n
    # the fix changes nothing else: the paper's deck is the fixed one plus (16, k) for
    # every non-dummy color k (a second, useless copy in the other colors)
    extra = list(paper.deck.cards)
    for card in fixed.deck.cards:
        extra.remove(card)
    assert sorted(extra) == [Card(16, k) for k in range(1, 9)]
    assert solve(fixed.deck, 2, "sat").status.value == "WINNABLE"


def test_erratum_h1_as_written_is_never_winnable():
    """h = 1 as written keeps sigma_1's hand reduction and three-card dumps."""
    formula = CNF.of([(1, 2, 3), (-1, 2, 3), (1, -2, 3)])     # m = 3: n = 20 fits
    red = build(formula, h=1, as_written=True)
    assert solve(red.deck, 1, "sat").status.value == "UNWINNABLE"
    assert solve(build(formula, h=1).deck, 1, "sat").status.value == "WINNABLE"


def test_erratum_h1_part_2_needs_two_slots():
    """Even with the h = 1 dumps fixed, the paper's part 2 order (o+5 first) needs two
    slots for a low color: a satisfiable formula gives an unwinnable deck."""
    formula = CNF.of([(1, 2, 3), (-1, 2, 4)])
    red = build(formula, h=1)
    cards = list(red.deck.cards)
    for seg in red.segments:
        if seg.kind == "part2":
            (c,), (o,) = seg.colors, seg.offsets
            cards[seg.start:seg.end] = [Card(o + x, c) for x in (5, 6, 7, 8, 9, 10, 2, 3, 4)]
    paper_part2 = Deck(tuple(cards), red.deck.n, red.deck.c)
    assert solve(paper_part2, 1, "sat").status.value == "UNWINNABLE"
    assert solve(red.deck, 1, "sat").status.value == "WINNABLE"


def test_paper_readback_fails_where_ours_holds():
    """A winning play in which colour 1 stops at 3 in sigma_1: the paper's rule
    ('x1 true iff (5, 1) was played') leaves x1 unassigned and the only clause
    falsified; ours (colour 1 reached >= 2) reads x1 = true."""
    red = build(CNF.of([(1, 2, 3)]))
    acts = list(play_from_assignment(red, {1: True, 2: False, 3: False}).actions)
    cards, roles = red.deck.cards, red.roles

    def at(card, role_prefix):
        return next(i for i, (c, r) in enumerate(zip(cards, roles))
                    if c == card and r.startswith(role_prefix))

    for a in (4, 5):
        acts[at(Card(a, 1), "var 1")] = "D"
    for a in range(6, 11):
        acts[at(Card(a, 1), "clause 1 part 1")] = "D"
    for a in (4, 5, 6):
        acts[at(Card(a, 1), "clause 1 part 4")] = "P"
    for a in range(7, 11):
        acts[at(Card(a, 1), "padding")] = "P"
    plays = PlaySequence("".join(acts))
    assert replay(red.deck, 2, plays).won
    assert readback(red, plays) == {1: True, 2: False, 3: False}
    assert assignment_from_play(red, plays) == {1: True, 2: False, 3: False}
    # the paper's rule on the same play: neither (5, 1) nor (5, 2) played in sigma_1
    start, end = red.sigma1
    played5 = {k for i, (a, k) in enumerate(cards[start:end], start) if a == 5 and acts[i] == "P"}
    assert 1 not in played5 and 2 not in played5


def test_roles_cover_every_card_and_variants_change_parameters():
    red = reduce_cnf(FIG2_FORMULA, h=4)
    assert red.deck.c == 7 and red.h == 4 and red.deck.n == 6 * 2 + 4 + 1   # max(6m+h+1, 5m+5)
    assert red.roles[:2] == ("hand reduction for the whole deck (2 of 4 slots)",) * 2
    assert "end of the whole-deck hand reduction" in red.roles
    red3 = reduce_cnf(FIG2_FORMULA, copies=4)
    assert red3.deck.r == 4 and red3.base == build(FIG2_FORMULA).deck
    assert sum(red3.extra) == 2 * len(set(red3.base.cards))
    red1 = reduce_cnf(FIG2_FORMULA, h=1)
    assert red1.deck.r == 3
    kap = reduce_cnf(CNF.of([(1, 2, 3)] * 8), kappa=True)
    assert kap.deck.n == 30 and len(kap.roles) == kap.deck.N
    with pytest.raises(HanabiError, match="r >= 3 for h = 1"):
        reduce_cnf(FIG2_FORMULA, h=1, copies=2)
    with pytest.raises(HanabiError, match="three literals of three distinct"):
        build(CNF.of([(1, 2)]))
