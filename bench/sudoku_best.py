"""Benchmark: Sudoku's best score by sat and cpsat (one encoding per pile plan,
encodings/variants.md, 8.5, "The best score in Sudoku") against the search, on
random deals and positions.

Each case is a Sudoku (4 Suits) or Sudoku (5 Suits) deal with 2 to 5 players:
half small decks (one suit whole, or two suits cut to 10 to 12 cards, hands of 1
to 3 cards, 1, 2 or 8 clues), half standard decks (the variant's whole deck,
hanab.live's hand sizes); every other one some moves into the game (successful
plays, and discards that prefer a kind's last copy, so that some positions are
lost).  ``solve_position(..., maximize=True)`` with search, sat and cpsat, each
certificate replayed by the referee.  Per deck kind: the cases, how many the three
methods decided with the same score, any disagreement (exit 1), the unknown
answers, the lost ones (best score below the target), the mean number of plans
encoded, and each method's median, 99th percentile and largest time in ms with
the ratio of its median to the search's.

    .venv/bin/python -m bench.sudoku_best                # 200 cases
    .venv/bin/python -m bench.sudoku_best --quick        # 30 cases
    .venv/bin/python -m bench.sudoku_best --cases 400 --seed 2
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

from bench.live_sweep import percentile

QUICK_ARGS = ["--quick"]
METHODS = ("search", "sat", "cpsat")
NAMES = ("Sudoku (4 Suits)", "Sudoku (5 Suits)")


def case(rng: random.Random, standard: bool):
    """A random Sudoku position (see the module docstring), or None if it is over."""
    from hanabi_cp.core.model import Deck
    from hanabi_cp.real.referee import Game
    from hanabi_cp.real.rules import Rules
    from hanabi_cp.real.variants.catalogue import variant
    v = variant(rng.choice(NAMES))
    players = rng.randint(2, 5)
    cards = list(v.model_cards())
    if standard:
        rng.shuffle(cards)
        rules = Rules.for_players(players, variant=v)
    else:
        c = rng.choice((1, 2))
        cards = [x for x in cards if x[1] <= c]
        rng.shuffle(cards)
        cards = cards[:rng.randint(10, 12)]
        rules = Rules.for_players(players, hand_size=rng.randint(1, 3),
                                  clues=rng.choice((1, 2, 8)), variant=v)
    g = Game.start(Deck.of(cards, v.deck_n, max(k for _, k in cards)), rules)
    if rng.random() < 0.5:
        moves_in(g, rng, rng.randint(6, 24) if standard else rng.randint(1, 4))
    return None if g.over else g


def moves_in(g, rng: random.Random, k: int) -> None:
    """Up to ``k`` moves: a discard of a kind's last copy when there is one (7 times
    in 10), else a successful play or a discard, else any legal move."""
    for _ in range(k):
        if g.over:
            return
        legal = list(g.legal_actions())
        lost = {g.deck.cards[o] for o in g.lost_cards}
        last = [a for a in legal if a.kind.value == 1 and g.deck.cards[a.target] in lost]
        if last and rng.random() < 0.7:
            g.apply(rng.choice(last))
            continue
        safe = [a for a in legal if a.kind.value == 1 or a.kind.value == 0
                and g.takes(g.card(a.target)[1] - 1, g.card(a.target)[0])]
        g.apply(rng.choice(safe or legal))


def run(cases: int, seed: int, time_limit: float) -> bool:
    from hanabi_cp.core.options import SolveOptions
    from hanabi_cp.real.solve import solve_position
    rng = random.Random(seed)
    rows = {False: [], True: []}
    while sum(map(len, rows.values())) < cases:
        standard = len(rows[True]) < len(rows[False])
        g = case(rng, standard)
        if g is None:
            continue
        got = {}
        for m in METHODS:
            t = time.perf_counter()
            out = solve_position(g, m, SolveOptions(maximize=True, time_limit=time_limit))
            got[m] = (out, time.perf_counter() - t)
            assert out.verified or out.actions is None, (m, str(g.deck))
        rows[standard].append((g, got))
    ok = True
    print(f"{'decks':<9} {'cases':>5} {'agree':>5} {'differ':>6} {'unk':>4} {'lost':>5} "
          f"{'plans':>6} " + " ".join(f"{m + ' p50':>11} {'p99':>8} {'max':>8} {'x':>6}"
                                       for m in METHODS))
    for standard, done in rows.items():
        agree = differ = unknown = lost = 0
        plans: list[int] = []
        for g, got in done:
            outs = [o for o, _ in got.values()]
            if any(o.status.value == "UNKNOWN" for o in outs):
                unknown += 1
                continue
            if len({o.score for o in outs}) == 1:
                agree += 1
            else:
                differ += 1
                print(f"  DIFFER: {g.rules.describe()}, deck {g.deck}, piles {g.played}: "
                      + ", ".join(f"{m} {o.score}" for m, (o, _) in got.items()))
            lost += outs[0].score < g.target
            plans.append(got["sat"][0].stats.get("plans_encoded", 0))
        ok &= differ == 0
        times = {m: [got[m][1] * 1e3 for _, got in done] for m in METHODS}
        base = statistics.median(times["search"])
        cols = " ".join(f"{statistics.median(t):>11.1f} {percentile(t, 99):>8.1f} "
                        f"{max(t):>8.1f} {statistics.median(t) / base:>6.1f}"
                        for t in times.values())
        print(f"{'standard' if standard else 'small':<9} {len(done):>5} {agree:>5} {differ:>6} "
              f"{unknown:>4} {lost:>5} {statistics.mean(plans or [0]):>6.2f} {cols}", flush=True)
    return ok


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.sudoku_best",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=200, help="positions (half standard decks)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time-limit", type=float, default=30.0, help="seconds per answer")
    ap.add_argument("--quick", action="store_true", help="30 cases")
    args = ap.parse_args(argv)
    if args.quick:
        args.cases = 30
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
          f"({os.cpu_count()} cores); Sudoku's best score, {args.cases} cases, seed "
          f"{args.seed}, time limit {args.time_limit} s per answer (times in ms)", flush=True)
    ok = run(args.cases, args.seed, args.time_limit)
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
