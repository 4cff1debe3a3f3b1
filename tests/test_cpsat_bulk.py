"""The bulk-built CP-SAT models (solitaire/encoders/cpsat_bulk.py) are the very protos the
call-by-call OR-Tools API builds (bench/cpsat_callwise.py, the first release's
builder): same variables, domains, constraints, hints and objective, in the same
order; only the API's names are missing."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_cp.solitaire.encoders import cpsat
from hanabi_cp.solitaire.encoders.cpsat_bulk import domain_text
from hanabi_cp.apps.generators import random_deck, random_kcnf, standard_deck
from hanabi_cp.solitaire.reduction import reduce_cnf
from bench import cpsat_callwise as reference


def same_proto(bulk, ref) -> None:
    assert (bulk.formula is None) == (ref is None)
    if ref is None:
        return
    ref.remove_all_names()
    assert str(bulk.formula.proto) == str(ref.proto)


def check_deck(deck, h: int) -> None:
    same_proto(cpsat.build_decide(deck, h), reference.build_decide(deck, h))
    same_proto(cpsat.build_maximize(deck, h), reference.build_maximize(deck, h))


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2 ** 32), n=st.integers(1, 7), c=st.integers(1, 4),
       r=st.integers(1, 3), h=st.integers(1, 4), missing=st.sampled_from([0.0, 0.05]))
def test_bulk_models_equal_the_call_by_call_models_on_random_decks(seed, n, c, r, h, missing):
    check_deck(random_deck(seed, n, c, r, p_missing=missing), h)


def test_bulk_models_cover_every_constraint_family_and_images():
    # A seeded sweep that must reach every family the builders write: hold
    # intervals, capacity cumulatives, and constant comparisons.
    rng = random.Random(5)
    seen = {"built": 0, "intervals": 0, "cumulatives": 0, "constant comparisons": 0}
    for _ in range(150):
        deck = random_deck(rng, rng.randint(1, 7), rng.randint(1, 4), rng.randint(1, 3))
        h = rng.randint(1, 4)
        check_deck(deck, h)
        m = cpsat.build_decide(deck, h)
        if m.formula is not None:
            text = str(m.formula.proto)
            seen["built"] += 1
            seen["intervals"] += m.stats["hold_intervals"] > 0
            seen["cumulatives"] += m.stats["capacity_groups"] > 0
            seen["constant comparisons"] += "bool_or" in text
    for seed in range(3):
        check_deck(standard_deck(seed), 2)
    for _ in range(4):
        v = rng.randint(3, 4)
        check_deck(reduce_cnf(random_kcnf(rng, v, rng.randint(2, 4 * v))).deck, 2)
    assert all(seen.values()), seen


@given(st.lists(st.integers(-50, 50), min_size=1, unique=True))
def test_domain_text_is_the_domain_of_the_values(values):
    from ortools.util.python.sorted_interval_list import Domain
    values.sort()
    want = Domain.from_values(values).flattened_intervals()
    assert [int(x) for x in domain_text(values).split(",")] == want
