"""The data `hanabi-cp show` draws (hanabi_cp/show): the timeline against the referee
on random decks, the gadget spans of a reduction image, the loss witnesses of the
methods that write them."""

import random

import pytest

from hanabi_cp.solvers.formula import CNF
from hanabi_cp.core.errors import CertificateError, HanabiError
from hanabi_cp.io import read_deck_file
from hanabi_cp.apps.generators import random_deck
from hanabi_cp.core.model import Card, Deck
from hanabi_cp.solitaire.play_sequence import PlaySequence
from hanabi_cp.solitaire.reduction import reduce_cnf
from hanabi_cp.show.figure import lanes
from hanabi_cp.show.spans import gadget_spans, merge_narrow, part_spans, variable_rows
from hanabi_cp.show.timeline import build
from hanabi_cp.show.witness import parse
from hanabi_cp.solitaire.solve import solve
from hanabi_cp.solitaire.referee import replay

from test_cli import INST, LOSE


def _sequences(deck: Deck, h: int, rng: random.Random):
    """Random actions (mostly illegal somewhere), a solver's certificate if any, and the
    same certificate cut short by discarding everything after a random card."""
    yield PlaySequence("".join(rng.choice("PSD") for _ in range(deck.N)))
    yield PlaySequence("".join(rng.choice("PSDDD") for _ in range(deck.N)))
    out = solve(deck, h)
    if out.plays is not None:
        yield out.plays
        cut = rng.randrange(deck.N + 1)
        yield PlaySequence(out.plays.actions[:cut] + "D" * (deck.N - cut))


def _check(deck: Deck, h: int, plays: PlaySequence) -> None:
    tl = build(deck, h, plays)
    ref = replay(deck, h, plays)
    assert (tl.won, tl.score, tl.error) == (ref.won, ref.score, ref.error)
    assert tl.stop == (None if ref.step is None else ref.step - 1)
    assert tl.steps == (deck.N if ref.step is None else ref.step - 1)
    assert len(tl.hand) == tl.steps and max(tl.hand, default=0) <= min(h, ref.max_hand)
    # Every rise is one card played, one level up, and the hand holds exactly the open holds.
    assert len(tl.rises) == tl.score
    levels = [0] * (deck.c + 1)
    for _, k, level in tl.rises:
        assert level == levels[k] + 1
        levels[k] = level
    for t in range(tl.steps):
        assert tl.hand[t] == sum(x.start <= t and (x.end is None or x.end > t) for x in tl.holds)
    for x in tl.holds:
        a, k = deck.cards[x.index]
        assert tl.actions[x.index] == "S"
        if x.end is not None:
            assert x.end > x.start and (x.end, k, a) in tl.rises
    # The piles after step t are what the referee scores when everything later is discarded.
    for t in range(-1, tl.steps, max(1, tl.steps // 7)):
        prefix = PlaySequence(plays.actions[:t + 1] + "D" * (deck.N - t - 1))
        assert sum(tl.piles_after(t)) == replay(deck, h, prefix).score
    slots = lanes(tl.holds)
    assert max(slots, default=-1) < max(1, h)
    for i, (x, s) in enumerate(zip(tl.holds, slots)):
        for y, s2 in zip(tl.holds[:i], slots[:i]):
            if s == s2:
                assert y.end is not None and y.end <= x.start


@pytest.mark.parametrize("seed", range(40))
def test_timeline_agrees_with_the_referee(seed):
    rng = random.Random(seed)
    deck = random_deck(rng, rng.randint(1, 5), rng.randint(1, 4), rng.randint(1, 3),
                       p_missing=0.05 if seed % 5 == 0 else 0.0)
    h = rng.randint(0, 3)
    for plays in _sequences(deck, h, rng):
        _check(deck, h, plays)


def test_timeline_refuses_a_sequence_of_the_wrong_length():
    with pytest.raises(CertificateError, match="play sequence has 1 actions, deck has 2 cards"):
        build(Deck.of([(1, 1), (2, 1)]), 1, PlaySequence("P"))


FIG2 = CNF.of([(1, -2, 3), (1, 2, -3)])


def test_gadget_spans_of_the_figure_2_image_follow_the_reduction_segments():
    red = reduce_cnf(FIG2)
    spans = gadget_spans(red.roles)
    assert [s.label for s in spans] == ["σ1", "dump", "C1", "dump", "C2", "padding"]
    assert (spans[0].start, spans[0].end) == red.sigma1
    for s in red.segments:
        inside = [g for g in spans if g.start <= s.start and s.end <= g.end]
        assert len(inside) == 1, s
        if s.kind in ("part1", "part2", "part4"):
            assert inside[0].label == f"C{s.clause}"
    parts = part_spans(red.roles, *red.sigma1)
    assert [p.short for p in parts] == ["red.", "V1", "V2", "V3", "red."]
    assert variable_rows(red.roles, red.deck.cards) == {
        1: "x1", 2: "¬x1", 3: "x2", 4: "¬x2", 5: "x3", 6: "¬x3", 7: "d"}


def test_narrow_gadgets_merge_into_one_labelled_run():
    red = reduce_cnf(FIG2)
    merged = merge_narrow(gadget_spans(red.roles), 50)
    assert [s.label for s in merged] == ["σ1 and 1 more", "C1", "dump", "C2", "padding"]
    assert all(a.end == b.start for a, b in zip(merged, merged[1:])) and merged[-1].end == red.deck.N
    assert [s.label for s in merge_narrow(gadget_spans(red.roles), 70)] == ["σ1 … padding (6 gadgets)"]


@pytest.mark.parametrize("deck_file, h, method", [
    (LOSE, 2, "search"), (LOSE, 2, "sat"), (LOSE, 2, "cpsat"), (f"{INST}/greedy-r1.txt", 2, "greedy"),
])
def test_overfull_hand_witnesses_of_the_methods_are_read(deck_file, h, method):
    deck = read_deck_file(deck_file).deck
    out = solve(deck, h, method)
    wit = parse(out.reason)
    assert wit.position is not None and 0 <= wit.position < deck.N
    assert wit.needed > h and wit.cards
    assert all(card in deck.cards[:wit.position + 1] for card in wit.cards)


def test_missing_card_witness_is_read():
    deck = read_deck_file(f"{INST}/missing-card.txt").deck
    for method in ("search", "greedy", "dp", "sat", "cpsat"):
        try:
            out = solve(deck, 2, method)
        except HanabiError:   # a method that does not apply (greedy needs r = 1)
            continue
        assert parse(out.reason).unusable == Card(2, 2), (method, out.reason)
