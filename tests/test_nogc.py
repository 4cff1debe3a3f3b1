"""The GC pause around bulk builders restores the collector's state, also on TimeUp."""

import gc

import pytest

from hanabi_cp.solitaire.preprocessing import analyse
from hanabi_cp.runtime.deadline import Deadline, TimeUp
from hanabi_cp.apps.generators import standard_deck
from hanabi_cp.runtime.nogc import gc_paused

PASSED = Deadline.after(1e-9, start=0.0)


def test_pause_restores_and_nests():
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()        # the outer pause still holds
    assert gc.isenabled()


def test_builders_leave_the_collector_as_they_found_it():
    deck = standard_deck(3)
    analyse(deck, 2)
    assert gc.isenabled()
    with pytest.raises(TimeUp):
        analyse(deck, 2, deadline=PASSED)
    assert gc.isenabled()
    gc.disable()
    try:
        analyse(deck, 2)
        assert not gc.isenabled()        # a caller's own pause is kept
    finally:
        gc.enable()
