"""Pausing Python's cyclic garbage collector around bulk builders.

The windows analysis and the CNF builder allocate millions of small lists and
tuples, none of them part of a reference cycle; every few thousand allocations
CPython's generational collector scans the young objects, and now and then all of
them: 30-40 % of ``analyse`` and ``cnf.build`` on a 10^6-card image (measured by
bench/scale.py).  Reference counting still frees everything as usual; the
collector runs again when the outermost pause ends.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic collection inside the block (nested blocks: the outermost decides)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def without_gc(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn`` runs inside ``gc_paused``."""
    @wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with gc_paused():
            return fn(*args, **kwargs)
    return run
