"""Benchmark: where the CNF builder keeps its variable names (``python -m bench.cnf_names``).

``CnfBuilder`` numbers every variable with one pysat ``IDPool`` but keeps the
readable names itself: a list on small decks, ``flat.Names`` (integer arrays) on
decks of COMPACT_FROM_CARDS cards or more.  The alternative, ``pool.id(name)``,
keeps a name -> number dict and its inverse.  This replays the names that
``build`` made, in order, into both stores and prints, per deck, the bytes per
variable and per card they retain (tracemalloc) and the microseconds per variable
(best of ``--reps``).  encodings/cnf.md §8 quotes it.

    .venv/bin/python -m bench.cnf_names                 # standard deck, uf50-01 image
    .venv/bin/python -m bench.cnf_names --quick         # uf20-01 image
"""

from __future__ import annotations

import argparse
import gc
import os
import time
import tracemalloc

from pysat.formula import IDPool

from hanabi_cp.solitaire.encoders.cnf import build
from hanabi_cp.solitaire.encoders.flat import Names
from hanabi_cp.solvers.dimacs import read_dimacs
from hanabi_cp.io.decks import read_deck_file
from hanabi_cp.core.model import COMPACT_FROM_CARDS
from hanabi_cp.solitaire.reduction import reduce_cnf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def into_pool(names: list) -> IDPool:
    pool = IDPool()
    for nm in names:
        if nm is None:
            pool.id()
        else:
            pool.id(nm)
    return pool


def into_store(names: list, flat: bool) -> tuple:
    pool, store = IDPool(), Names() if flat else [None]
    for nm in names:
        store.append(nm)
        pool.id()
    return pool, store


def retained(fill, names_of) -> int:
    """Bytes that ``fill(names)`` keeps, the names made fresh as the builder makes them."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    names = names_of()
    kept = fill(names)
    del names
    gc.collect()
    size = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    del kept
    return size


def best_us(fill, names: list, reps: int) -> float:
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        fill(names)
        best = min(best, time.perf_counter() - t)
    return best * 1e6


def row(label: str, deck, h: int, reps: int) -> str:
    enc = build(deck, h)
    nv, flat = enc.num_vars, deck.N >= COMPACT_FROM_CARDS

    def fresh() -> list:
        # Names[v] builds a new tuple of new ints, as the builder does; a list entry
        # is copied field by field for the same reason.
        return [None if nm is None else tuple(int(str(x)) if isinstance(x, int) else x
                                              for x in nm)
                for nm in (enc.names[v] for v in range(1, nv + 1))]

    names = fresh()
    mem_pool = retained(into_pool, fresh)
    mem_store = retained(lambda ns: into_store(ns, flat), fresh)
    us_pool = best_us(into_pool, names, reps)
    us_store = best_us(lambda ns: into_store(ns, flat), names, reps)
    per = max(nv, 1)
    return (f"{label:>28} {deck.N:>9,} {nv:>8,} {nv / deck.N:>6.3f} "
            f"{'flat.Names' if flat else 'list':>10} {mem_pool / per:>8.0f} {mem_store / per:>8.0f} "
            f"{mem_pool / deck.N:>8.1f} {mem_store / deck.N:>8.1f} "
            f"{us_pool:>9.1f} {us_store:>9.1f} {us_pool / max(us_store, 1e-9):>6.2f}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.cnf_names", description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="the uf20-01 image instead of uf50-01")
    ap.add_argument("--reps", type=int, default=200, help="timing repetitions on the standard deck")
    args = ap.parse_args(argv)
    print(f"{'deck':>28} {'cards':>9} {'vars':>8} {'v/card':>6} {'store':>10} "
          f"{'pool B/v':>8} {'store B/v':>8} {'pool B/c':>8} {'store B/c':>8} "
          f"{'pool us':>9} {'store us':>9} {'ratio':>6}")
    deck = read_deck_file(os.path.join(ROOT, "instances", "standard-winnable-h2.txt")).deck
    print(row("standard-winnable-h2", deck, 2, args.reps))
    name = "uf20-91/uf20-01.cnf" if args.quick else "uf50-218/uf50-01.cnf"
    formula = read_dimacs(os.path.join(ROOT, "instances", "satlib", name))
    image = reduce_cnf(formula, h=2)
    print(row(f"image of {os.path.basename(name)}", image.deck, 2, 3))


if __name__ == "__main__":
    main()
