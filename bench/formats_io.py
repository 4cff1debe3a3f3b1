"""Benchmark: reading and writing DIMACS CNF and text decks scales linearly.

DIMACS: random 3-CNF with M clauses over M/3 variables, read by the bulk path (the
body is all integers) and by the line-by-line path (forced by one comment line in
the body, as some competition files have), and written back.  Decks: random decks
of N cards, 5 colors, read and written in the text format.

Prints, per size: CPU seconds of the process (best of ``--repeat`` runs; CPU rather
than wall time because the machine may be shared), microseconds per clause or card,
and the ratio of that to the smallest size's (roughly flat when linear).  For decks
also cards per second and the peak of memory allocated during the call, per card
(``tracemalloc``, in a separate untimed run; the input text or deck not counted).

    .venv/bin/python -m bench.formats_io                 # M up to 3 * 10^6
    .venv/bin/python -m bench.formats_io --quick         # M up to 10^5
    .venv/bin/python -m bench.formats_io --decks-only    # the deck reader and writer
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

from hanabi_cp.io import deck_to_text, parse_deck_file
from hanabi_cp.solvers.dimacs import dimacs_text, parse_dimacs
from hanabi_cp.apps.generators import random_deck, random_kcnf

SIZES = (10_000, 100_000, 1_000_000, 3_000_000)


def cpu(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def peak_bytes(fn) -> int:
    """Peak bytes allocated by Python while ``fn`` runs, above what was live before."""
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        fn()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def table(title: str, unit: str, rows: list[tuple]) -> None:
    print(f"\n{title}")
    extra = len(rows[0]) > 2
    print(f"{'size':>10} {'cpu s':>8} {'us/' + unit:>10} {'ratio':>6}"
          + (f" {unit + 's/s':>11} {'peak B/' + unit:>11}" if extra else ""))
    base = None
    for size, seconds, *peak in rows:
        per = seconds / size * 1e6
        base = base or per
        print(f"{size:>10} {seconds:>8.2f} {per:>10.3f} {per / base:>6.2f}"
              + (f" {size / seconds:>11,.0f} {peak[0] / size:>11.1f}" if extra else ""))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.formats_io", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="sizes up to 10^5 only")
    parser.add_argument("--max-clauses", type=int, default=SIZES[-1])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--decks-only", action="store_true", help="skip DIMACS")
    args = parser.parse_args(argv)
    limit = 100_000 if args.quick else args.max_clauses
    sizes = [m for m in SIZES if m <= limit]

    bulk: list = []
    lines: list = []
    write: list = []
    for m in [] if args.decks_only else sizes:
        cnf = random_kcnf(args.seed, k=3, num_vars=max(3, m // 3), num_clauses=m)
        text = dimacs_text(cnf, comments=[f"random 3-CNF, seed {args.seed}"])
        head, _, body = text.partition("\n")
        commented = f"{head}\n{body}c a comment in the body forces the line parser\n"
        assert parse_dimacs(text) == parse_dimacs(commented) == cnf
        bulk.append((m, cpu(lambda: parse_dimacs(text), args.repeat)))
        lines.append((m, cpu(lambda: parse_dimacs(commented), args.repeat)))
        write.append((m, cpu(lambda: dimacs_text(cnf), args.repeat)))
        print(f"M = {m}: {len(text) / 1e6:.1f} MB of DIMACS", flush=True)
    if not args.decks_only:
        table("DIMACS read, bulk path (3-CNF)", "clause", bulk)
        table("DIMACS read, line-by-line path", "clause", lines)
        table("DIMACS write", "clause", write)

    reads, writes = [], []
    for n_cards in [m // 3 for m in sizes]:
        deck = random_deck(args.seed, n=max(1, n_cards // 10), c=5, r=2, exact_copies=True)
        text = deck_to_text(deck, h=2)
        assert parse_deck_file(text).deck == deck
        reads.append((len(deck), cpu(lambda: parse_deck_file(text), args.repeat),
                      peak_bytes(lambda: parse_deck_file(text))))
        writes.append((len(deck), cpu(lambda: deck_to_text(deck, h=2), args.repeat),
                       peak_bytes(lambda: deck_to_text(deck, h=2))))
    table("deck text read", "card", reads)
    table("deck text write", "card", writes)


if __name__ == "__main__":
    main()
