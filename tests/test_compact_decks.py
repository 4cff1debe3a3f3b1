"""Compact decks (CardArray) and the large-deck layout against tuple decks and the
small-deck layout: the same deck gives the same analysis, clauses, variables,
decodes and verdicts either way.

Most tests use decks far below COMPACT_FROM_CARDS, where neither the compact deck
nor the compact analysis tables appear; here the threshold is lowered to 0 (in the
modules that read it) for small random decks, and reduction images above it are
compared with tuple-backed copies of themselves.
"""

from __future__ import annotations

import os
import random
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_cp.solitaire import preprocessing as analysis
from hanabi_cp.solitaire.preprocessing import Ragged, analyse
from hanabi_cp.solitaire.encoders import cnf
from hanabi_cp.solitaire.encoders.encoding import decode_choice
from hanabi_cp.solitaire.encoders.flat import Clauses, CopyVars, Names
from hanabi_cp.io import read_deck_file, write_deck
from hanabi_cp.solvers.dimacs import read_dimacs
from hanabi_cp.apps.generators import random_deck, random_kcnf
from hanabi_cp.core.model import COMPACT_FROM_CARDS, Card, CardArray, Deck
from hanabi_cp.solitaire.reduction import reduce_cnf
from hanabi_cp.apps.roundtrip import formula_sat
from hanabi_cp.solvers.sat_backend import sat_solve
from hanabi_cp.core.status import Status
from hanabi_cp.solitaire.solve import solve
from hanabi_cp.solitaire.referee import replay

UF20 = os.path.join(os.path.dirname(__file__), "..", "instances", "satlib", "uf20-91",
                    "uf20-01.cnf")


@contextmanager
def layout(compact: bool):
    """The large-deck layout of analysis and encoding on every deck, or on none."""
    with pytest.MonkeyPatch.context() as mp:
        for module in (analysis, cnf):
            mp.setattr(module, "COMPACT_FROM_CARDS", 0 if compact else 10 ** 12)
        yield


def as_arrays(deck: Deck) -> Deck:
    return Deck.from_arrays(deck.values, deck.colors, deck.n, deck.c)


def as_tuples(deck: Deck) -> Deck:
    return Deck(tuple(deck.cards), deck.n, deck.c)


def tables(w) -> dict:
    """Every table of a Windows as plain lists (tuples and arrays compare unequal)."""
    def deep(x):
        return [deep(y) for y in x] if not isinstance(x, int) else x
    cpos, cval = w.positions() if w.reason is None else ([], [])
    return {"reason": w.reason, "passes": w.passes, "stats": w.stats, "forced": list(w.forced),
            "alive": deep(w.alive), "stop": deep(w.stop), "earliest": deep(w.earliest),
            "latest": deep(w.latest), "cpos": deep(cpos), "cval": deep(cval)}


def encoding(enc) -> dict:
    return {"status": enc.status, "reason": enc.reason, "num_vars": enc.num_vars,
            "clauses": list(enc.clauses), "names": [enc.names[v] for v in range(len(enc.names))],
            "variables": enc.variables, "stats": {k: v for k, v in enc.stats.items()
                                                  if not k.endswith("_seconds")}}


decks = st.builds(
    lambda seed, n, c, r, p: random_deck(random.Random(seed), n, c, r, p_missing=p),
    st.integers(0, 10 ** 9), st.integers(1, 5), st.integers(1, 4), st.integers(1, 3),
    st.sampled_from([0.0, 0.0, 0.05]))


@settings(max_examples=150, deadline=None)
@given(decks)
def test_a_card_array_deck_is_the_tuple_deck(deck):
    arr = as_arrays(deck)
    assert type(arr.cards) is CardArray and type(deck.cards) is tuple
    assert arr == deck and deck == arr and hash(arr) == hash(deck)
    assert arr.cards == deck.cards and arr.cards == list(deck.cards)
    assert str(arr) == str(deck) and (arr.N, arr.n, arr.c, arr.r, arr.target) == \
        (deck.N, deck.n, deck.c, deck.r, deck.target)
    assert list(arr.cards) == list(deck.cards)
    assert all(arr.cards[i] == deck.cards[i] and type(arr.cards[i]) is Card
               for i in range(-deck.N, deck.N))
    assert arr.cards[1:-1:2] == deck.cards[1:-1:2]
    assert list(arr.missing()) == list(deck.missing()) and len(arr.missing()) == len(deck.missing())
    assert arr.values.tolist() == [a for a, _ in deck.cards]
    assert arr.colors.tolist() == [k for _, k in deck.cards]


@settings(max_examples=150, deadline=None)
@given(decks, st.integers(0, 3))
def test_the_compact_layout_gives_the_same_analysis_clauses_and_decodes(deck, h):
    with layout(compact=False):
        w_list = analyse(deck, h)
        enc_list = cnf.build(deck, h)
    arr = as_arrays(deck)
    with layout(compact=True):
        w_arr = analyse(arr, h)
        enc_arr = cnf.build(arr, h)
    assert tables(w_arr) == tables(w_list)
    assert encoding(enc_arr) == encoding(enc_list)
    if enc_list.status is not None:
        return
    assert enc_list.windows is not None and enc_arr.windows is None
    ok, model, _ = sat_solve(enc_list.clauses)
    assert sat_solve(enc_arr.clauses)[:2] == (ok, model)
    if not ok:
        return
    plays = enc_list.decode(model)
    assert enc_arr.decode(model) == plays
    true = {lit for lit in model if lit > 0}
    assert decode_choice(deck, w_list, lambda q: q in enc_list.variables
                         and enc_list.variables[q] in true) == plays
    assert replay(deck, h, plays).won


@settings(max_examples=60, deadline=None)
@given(decks, st.integers(0, 3), st.sampled_from(["sat", "cpsat", "search"]))
def test_the_same_verdict_on_both_layouts(deck, h, method):
    with layout(compact=False):
        out_list = solve(deck, h, method)
    arr = as_arrays(deck)
    with layout(compact=True):
        out_arr = solve(arr, h, method)
    assert out_arr.status is out_list.status
    if out_arr.status is Status.WINNABLE:
        assert out_arr.verified and replay(arr, h, out_arr.plays).won


@pytest.fixture(scope="module")
def image():
    red = reduce_cnf(read_dimacs(UF20))
    assert red.deck.N >= COMPACT_FROM_CARDS and type(red.deck.cards) is CardArray
    return red


def test_an_image_as_arrays_and_as_tuples_encodes_and_decides_alike(image):
    arr = image.deck
    tup = as_tuples(arr)
    assert tup == arr and type(tup.cards) is tuple
    enc_arr = cnf.build(arr, image.h)
    with layout(compact=False):
        enc_tup = cnf.build(tup, image.h)
    assert encoding(enc_arr) == encoding(enc_tup)
    assert enc_arr.windows is None and enc_tup.windows is not None
    ok, model, _ = sat_solve(enc_arr.clauses)
    assert ok is formula_sat(read_dimacs(UF20))[0]
    plays = enc_arr.decode(model)
    assert plays == enc_tup.decode(model)
    assert replay(arr, image.h, plays).won and replay(tup, image.h, plays).won
    out_arr, out_tup = solve(arr, image.h, "sat"), solve(tup, image.h, "sat")
    assert out_arr.status is out_tup.status is Status.WINNABLE
    assert out_arr.verified and out_tup.verified


def test_an_unsatisfiable_image_is_lost_on_both_layouts():
    formula = random_kcnf(3, num_vars=8, num_clauses=60)
    assert not formula_sat(formula)[0]
    red = reduce_cnf(formula)
    assert red.deck.N >= COMPACT_FROM_CARDS and type(red.deck.cards) is CardArray
    tup = as_tuples(red.deck)
    with layout(compact=False):
        lost_tup = solve(tup, red.h, "sat").status
    assert solve(red.deck, red.h, "sat").status is lost_tup is Status.UNWINNABLE


def test_a_large_text_deck_reads_back_compact_and_equal(tmp_path, image):
    path = str(tmp_path / "image.txt")
    write_deck(path, image.deck, h=image.h)
    back = read_deck_file(path)
    assert type(back.deck.cards) is CardArray and back.deck == image.deck and back.h == image.h
    small = Deck.of([(1, 1), (2, 1), (1, 2), (2, 2)])
    write_deck(str(tmp_path / "small.txt"), small, h=1)
    again = read_deck_file(str(tmp_path / "small.txt")).deck
    assert type(again.cards) is tuple and again == small


def test_a_card_array_rejects_what_a_deck_rejects():
    from hanabi_cp.core.errors import DeckError
    with pytest.raises(DeckError, match="card #2"):
        Deck.from_arrays([1, 3], [1, 1], 2, 1)
    with pytest.raises(DeckError, match="card #1"):
        Deck.from_arrays([1], [0], 1, 1)
    with pytest.raises(DeckError):
        Deck.from_arrays([1, 2], [1], 2, 1)


clause_lists = st.lists(st.lists(st.integers(-50, 50).filter(bool), max_size=5), max_size=30)


@settings(max_examples=200, deadline=None)
@given(clause_lists, st.integers(-40, 40), st.integers(-40, 40), st.integers(1, 3))
def test_clauses_read_like_the_list_of_lists(cls, start, stop, step):
    flat = Clauses(cls)
    assert len(flat) == len(cls) and list(flat) == cls and flat == cls
    assert all(flat[i] == cls[i] for i in range(-len(cls), len(cls)))
    assert flat[start:stop:step] == cls[start:stop:step]
    for i in (len(cls), -len(cls) - 1):
        with pytest.raises(IndexError):
            flat[i]
    if all(cls):
        assert sat_solve(flat)[:2] == sat_solve(cls)[:2]


@given(st.lists(st.one_of(st.none(),
                          st.tuples(st.sampled_from(["copy", "played_by"]),
                                    *[st.integers(0, 2 ** 31 - 1)] * 3),
                          st.tuples(st.just("held"), *[st.integers(0, 2 ** 31 - 1)] * 4))))
def test_names_read_like_the_list(names):
    flat = Names()
    for x in names:
        flat.append(x)
    assert len(flat) == len(names) + 1 and flat[0] is None
    assert [flat[v] for v in range(1, len(flat))] == names


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.integers(-2**31, 2**31 - 2), max_size=4), max_size=6),
       st.integers(-8, 8))
def test_ragged_reads_like_the_list_of_rows(rows, i):
    r = Ragged(rows)
    assert len(r) == len(rows) and [list(x) for x in r] == rows
    assert [list(x) for x in r[1:]] == rows[1:] and [list(x) for x in r[::-2]] == rows[::-2]
    if -len(rows) <= i < len(rows):
        assert list(r[i]) == rows[i]
    else:
        with pytest.raises(IndexError):
            r[i]
    parallel = Ragged([[x + 1 for x in row] for row in rows], r.offsets)
    assert [list(x) for x in parallel] == [[x + 1 for x in row] for row in rows]


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.integers(0, 40), st.integers(1, 2**31 - 1), max_size=20),
       st.integers(-3, 45))
def test_copy_vars_read_like_the_dict(d, q):
    cv = CopyVars(d, 41)
    assert cv == d and d == cv and len(cv) == len(d) and sorted(cv.items()) == sorted(d.items())
    assert (q in cv) == (q in d) and cv.get(q) == d.get(q)
    if q not in d:
        with pytest.raises(KeyError):
            cv[q]
