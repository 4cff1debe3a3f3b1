"""CnfBuilder's variable bookkeeping: one IDPool numbers the named variables and the
cardinality encodings' auxiliaries without collisions, and ``at_most`` means at most."""

from __future__ import annotations

import random
from itertools import product

import pytest
from hypothesis import given, settings, strategies as st
from pysat.card import EncType
from pysat.formula import IDPool

from hanabi_cp.solitaire.preprocessing import analyse
from hanabi_cp.solitaire.encoders.cnf import CnfBuilder, at_most, build
from hanabi_cp.apps.generators import random_deck
from hanabi_cp.core.model import Deck
from hanabi_cp.solvers.sat_backend import SatSession
from hanabi_cp.core.status import Status


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 6), st.integers(-1, 7), st.integers(0, 20),
       st.sampled_from([EncType.seqcounter, EncType.totalizer, EncType.sortnetwrk]))
def test_at_most_allows_exactly_the_assignments_within_the_bound(m, bound, first, encoding):
    """Some extension of the auxiliaries satisfies the clauses iff at most ``bound``
    of the m literals are true; auxiliaries are numbered by the pool, above it."""
    lits = [first + 1 + i for i in range(m)]
    pool, clauses, sizes = IDPool(start_from=first + m + 1), [], {}
    count = at_most(lits, bound, clauses.append, pool, encoding, sizes)
    assert count == len(clauses)
    used = {abs(x) for cl in clauses for x in cl}
    assert all(x in lits or first + m < x <= pool.top for x in used)
    with SatSession(clauses) as s:
        for values in product((False, True), repeat=m):
            units = [x if v else -x for x, v in zip(lits, values)]
            assert s.solve(units)[0] == (sum(values) <= bound), (lits, bound, values)


def random_decks(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        deck = random_deck(rng, rng.randint(2, 5), rng.randint(1, 4), rng.randint(2, 3))
        yield deck, rng.randint(1, 3)


def test_every_variable_has_one_number_and_a_name_slot():
    """Named variables and auxiliaries share one numbering 1..num_vars: no literal
    beyond it, every name is a distinct tuple, and auxiliaries (None) appear only
    in the clauses of the cardinality constraints (after some of them were made)."""
    seen_aux = 0
    for deck, h in random_decks(300, 11):
        enc = build(deck, h)
        if enc.status is not None:
            assert enc.status is Status.UNWINNABLE and list(enc.clauses) == [[]]
            continue
        assert len(enc.names) == enc.num_vars + 1 and enc.names[0] is None
        assert all(0 < abs(x) <= enc.num_vars for cl in enc.clauses for x in cl)
        named = [enc.names[v] for v in range(1, enc.num_vars + 1) if enc.names[v] is not None]
        assert len(set(named)) == len(named)
        assert all(enc.names[v][0] == "copy" for v in enc.variables.values())
        seen_aux += enc.num_vars - len(named)
    assert seen_aux > 0     # the decks reach CardEnc, so the pool was shared


def test_the_builder_refuses_windows_that_already_decide():
    deck = Deck.of([(2, 1), (1, 1)])
    win = analyse(deck, 0)
    assert win.reason is not None
    with pytest.raises(ValueError, match="already decide"):
        CnfBuilder(deck, 0, win)
    assert build(deck, 0).status is Status.UNWINNABLE
