"""Adversarial checks of the compact CNF (method "sat") and of ``windows.analyse``.

``analyse`` is shared by "sat", "search" and "cpsat", so a wrong bound there would make
three methods agree on a wrong answer.  The reference here is ``game_wins``: a forward
search over the game itself (levels and hand after each card, every legal action),
which uses none of the facts the encodings rely on.  The decks are built to make the
image rules bind: long same-color chains (the chain rule and its 32-step cap), many
cards that must be held at once (forced holds and the deadlines they give), hand sizes
close to n, and min-hand, which builds once at an upper bound H and varies h.

Besides answers, the proofs' intermediate claims are checked on every object they
quantify over: Theorem W (encodings/cnf.md) on every winning copy choice, the normal
form of every winning choice extending to a model (completeness per win), and every
distinct ``copy`` choice of the models decoding to a win (soundness per model).
"""

from __future__ import annotations

import random

import pytest

from hanabi_cp.solitaire.methods.brute import brute
from hanabi_cp.solitaire.encoders.cnf import build
from hanabi_cp.solitaire.preprocessing import CHAIN_CAP, analyse
from hanabi_cp.apps.generators import random_deck, random_kcnf
from hanabi_cp.solitaire.min_hand import min_hand
from hanabi_cp.core.model import Deck
from hanabi_cp.solitaire.reduction import reduce_cnf
from hanabi_cp.apps.roundtrip import formula_sat
from hanabi_cp.core.status import Status
from hanabi_cp.solitaire.solve import solve
from hanabi_cp.solitaire.referee import replay


# --- the reference ---------------------------------------------------------------

def game_wins(deck: Deck, h: int, limit: int = 400_000) -> bool | None:
    """Exhaustive forward search over (levels, hand); None if over ``limit`` states.

    Every legal action is tried (a playable card may also be discarded), so nothing of
    SPEC §1's facts is assumed; the only moves left out are storing a playable card or
    a second copy of a held one (such a card can never leave the hand: the cascade
    only plays values above the level just reached).  A state is dropped only when
    some card it still needs has no copy left in the deck and is not in the hand.
    """
    n, c, cards = deck.n, deck.c, deck.cards
    if deck.missing():
        return False
    last = {}
    for t, card in enumerate(cards):
        last[card] = t
    states = {((0,) * (c + 1), frozenset())}
    seen = 0
    for t, (a, k) in enumerate(cards):
        nxt = set()
        for lev, hand in states:
            nxt.add((lev, hand))                      # discard
            if a == lev[k] + 1:                       # play, then cascade
                lv = list(lev)
                lv[k] = a
                hd = set(hand)
                while (lv[k] + 1, k) in hd:
                    hd.discard((lv[k] + 1, k))
                    lv[k] += 1
                nxt.add((tuple(lv), frozenset(hd)))
            if len(hand) < h and a > lev[k] + 1 and (a, k) not in hand:
                nxt.add((lev, hand | {(a, k)}))
        states = set()
        for lev, hand in nxt:
            if all(last[(b, kk)] > t or (b, kk) in hand
                   for kk in range(1, c + 1) for b in range(lev[kk] + 1, n + 1)):
                states.add((lev, hand))
        seen += len(states)
        if seen > limit:
            return None
        if not states:
            return False
    full = (0,) + (n,) * c
    return any(lev == full for lev, _ in states)


# --- structured decks ------------------------------------------------------------

def long_chain(rng: random.Random, n: int, extra: int) -> Deck:
    """One color, values n..1 descending (each must wait for the 1), plus ``extra``
    copies scattered later: the chain rule walks long same-color chains here."""
    cards = [(a, 1) for a in range(n, 0, -1)]
    for _ in range(extra):
        cards.insert(rng.randint(1, len(cards)), (rng.randint(1, n), 1))
    return Deck.of(cards, n, 1)


def reversed_blocks(rng: random.Random, n: int, c: int, r: int) -> Deck:
    """Every color arrives in descending runs, interleaved: many cards of several colors
    must be held at once, and the forced holds fill the hand exactly."""
    runs = []
    for k in range(1, c + 1):
        for _ in range(rng.randint(1, r)):
            lo = rng.randint(1, n)
            hi = rng.randint(lo, n)
            runs.append([(a, k) for a in range(hi, lo - 1, -1)])
    for k in range(1, c + 1):                         # make sure nothing is missing
        runs.append([(a, k) for a in rng.sample(range(1, n + 1), n)])
    rng.shuffle(runs)
    cards = []
    while runs:
        run = rng.choice(runs)
        cards.append(run.pop(0))
        if not run:
            runs.remove(run)
    return Deck.of(cards, n, c)


def two_long_colors(rng: random.Random, n: int) -> Deck:
    """Two colors with a long chain each, the second in reverse, with a few late
    copies: values beyond CHAIN_CAP make the chain walk give up."""
    cards = [(a, 1) for a in range(1, n + 1) if a % 3] + [(a, 2) for a in range(n, 0, -1)]
    rng.shuffle(cards)
    cards += [(a, 1) for a in range(1, n + 1) if not a % 3]
    for _ in range(rng.randint(0, 4)):
        cards.insert(rng.randint(0, len(cards)), (rng.randint(1, n), rng.randint(1, 2)))
    return Deck.of(cards, n, 2)


def cap_stress(rng: random.Random, n: int) -> Deck:
    """Color 1: most of 2..n ascending before its 1 (all of them wait for it), the rest
    and some second copies after it; color 2 (short, descending) interleaved to fill
    the hand.  With n > CHAIN_CAP and h near n the chain walk gives up at the cap."""
    early = sorted(rng.sample(range(2, n + 1), rng.randint(n // 2, n - 1)))
    late = [a for a in range(2, n + 1) if a not in early]
    late += rng.sample(range(2, n + 1), rng.randint(0, 6))
    rng.shuffle(late)
    cards = [(a, 1) for a in early] + [(1, 1)] + [(a, 1) for a in late]
    m = rng.randint(1, 4)
    for a in range(m, 0, -1):
        cards.insert(rng.randint(0, len(cards)), (a, 2))
    return Deck.of(cards + [(a, 2) for a in range(m + 1, n + 1)], n, 2)


def random_small(rng: random.Random, n: int, c: int, r: int) -> Deck:
    deck = random_deck(rng, n, c, r)
    if rng.random() < 0.3:                            # runs of one color, in reverse
        cards = sorted(deck.cards, key=lambda x: (x[1], -x[0]) if rng.random() < 0.5 else (0, 0))
        return Deck.of(cards, n, c)
    return deck


# --- checks ----------------------------------------------------------------------

def check_sat(deck: Deck, h: int, truth: bool) -> None:
    enc = build(deck, h)
    if enc.status is Status.UNWINNABLE:
        assert not truth, (deck, h, enc.reason)
        return
    model = enc.solve_model()
    assert (model is not None) == truth, (str(deck), h, truth)
    if model is not None:
        rep = replay(deck, h, enc.decode(model))
        assert rep.won, (str(deck), h, rep.error)


def check_analyse_keeps_a_win(deck: Deck, h: int) -> None:
    """Every alive copy set still admits a win: rebuilding the deck from alive copies
    only (the others discarded) must stay winnable."""
    w = analyse(deck, h)
    assert w.reason is None
    alive = {q for Ak in w.alive[1:] for copies in Ak[1:] for q in copies}
    masked = [card for t, card in enumerate(deck.cards) if t in alive]
    assert game_wins(Deck.of(masked, deck.n, deck.c), h) is not False, (str(deck), h)


def test_reference_agrees_with_brute():
    rng = random.Random(1)
    for _ in range(150):
        deck = random_small(rng, rng.randint(1, 4), rng.randint(1, 3), rng.randint(1, 3))
        h = rng.randint(0, 3)
        assert game_wins(deck, h) == (brute(deck, h, maximize=True).score == deck.target), (str(deck), h)


def winning_choices(deck: Deck, h: int):
    """Every choice of one copy per card (SPEC fact 3) that keeps at most h cards in
    hand after every position, with its play times T[k][a]."""
    from itertools import product
    n, c, N = deck.n, deck.c, deck.N
    pos = {}
    for t, card in enumerate(deck.cards):
        pos.setdefault(card, []).append(t)
    keys = [(a, k) for k in range(1, c + 1) for a in range(1, n + 1)]
    if any(key not in pos for key in keys):
        return
    for pick in product(*(pos[key] for key in keys)):
        p = dict(zip(keys, pick))
        T = [[-1] * (n + 1) for _ in range(c + 1)]
        diff = [0] * (N + 1)
        for k in range(1, c + 1):
            for a in range(1, n + 1):
                T[k][a] = max(p[(a, k)], T[k][a - 1])
                if p[(a, k)] < T[k][a]:
                    diff[p[(a, k)]] += 1
                    diff[T[k][a]] -= 1
        held, ok = 0, True
        for t in range(N):
            held += diff[t]
            if held > h:
                ok = False
                break
        if ok:
            yield p, T


def check_theorem_w(deck: Deck, h: int) -> int:
    """encodings/cnf.md Theorem W on every winning choice; returns how many there are."""
    w = analyse(deck, h)
    count = 0
    for p, T in winning_choices(deck, h):
        count += 1
        assert w.reason is None, (str(deck), h, w.reason)
        holds = [0] * deck.N
        for (a, k), q in p.items():
            assert q in w.alive[k][a], (str(deck), h, "dead copy chosen", a, k, q)
            j = w.alive[k][a].index(q)
            assert w.earliest[k][a] <= T[k][a] <= w.latest[k][a], (str(deck), h, a, k)
            assert T[k][a - 1] <= w.stop[k][a][j], (str(deck), h, "deadline", a, k, q)
            for t in range(q, T[k][a]):
                holds[t] += 1
        assert all(f <= x for f, x in zip(w.forced, holds)), (str(deck), h, "forced")
    for k in range(1, deck.c + 1):                  # Lemma L, when nothing was lost
        L = w.latest[k]
        for a in range(1, deck.n + 1):
            if w.reason is None:
                assert L[a] == max(w.alive[k][a][-1], L[a - 1]), (str(deck), h, "lemma L")
    return count


def test_theorem_w_holds_for_every_winning_choice():
    rng = random.Random(5)
    wins = 0
    for _ in range(300):
        n, c = rng.randint(1, 4), rng.randint(1, 2)
        if rng.random() < 0.5:
            deck = random_small(rng, n, c, rng.randint(1, 3))
        else:
            deck = reversed_blocks(rng, n, c, 2)
        if deck.N > 12 or max(deck.counts.values()) ** (n * c) > 5000:
            continue
        wins += check_theorem_w(deck, rng.randint(0, 3))
    assert wins > 100


def stair(n: int, lost: bool = False) -> Deck:
    """2, 1, 3, 2, 4, 3, ..., n, n-1, n (one color): with h = 0 each pass of
    ``analyse`` kills one more early copy, so n > 50 exhausts ``max_passes`` and the
    encoder works from bounds of an unfinished analysis.  ``lost`` swaps the last two
    cards, which makes h = 0 lose (found in the first pass)."""
    cards = [(2, 1), (1, 1)]
    for a in range(3, n + 1):
        cards += [(a, 1), (a - 1, 1)]
    cards.append((n, 1))
    if lost:
        cards[-1], cards[-2] = cards[-2], cards[-1]
    return Deck.of(cards, n, 1)


def structured(rng: random.Random, kind: str) -> tuple[Deck, int]:
    if kind == "chain":
        n = rng.randint(2, 45)
        return long_chain(rng, n, rng.randint(0, 6)), \
            max(0, rng.choice([rng.randint(0, n), n - 2, n - 1, 32, 33, 34, n]))
    if kind == "blocks":
        deck = reversed_blocks(rng, rng.randint(2, 7), rng.randint(1, 4), rng.randint(1, 3))
        return deck, rng.randint(0, 6)
    if kind == "two":
        n = rng.randint(3, 40)
        return two_long_colors(rng, n), rng.randint(max(0, n - 8), n + 1)
    if kind == "cap":
        deck = cap_stress(rng, rng.randint(33, 42))
        # around the hand every win needs, so that both answers occur
        return deck, max(0, max(analyse(deck, deck.N).forced) + rng.randint(-1, 3))
    if kind == "tight":
        # the hand the forced holds already fill (or one more): deadlines bind
        n, c, r = rng.randint(3, 7), rng.randint(2, 3), rng.randint(1, 4)
        deck = random_small(rng, n, c, r) if rng.random() < 0.3 else reversed_blocks(rng, n, c, r)
        return deck, max(analyse(deck, deck.N).forced, default=0) + rng.choice([0, 0, 1])
    n, c, r = rng.randint(1, 6), rng.randint(1, 4), rng.randint(1, 4)
    return random_small(rng, n, c, r), rng.randint(0, 4)


KINDS = ("chain", "blocks", "two", "cap", "tight", "random")


def sweep(seed: int, count: int, kind: str) -> dict:
    rng = random.Random(f"{seed}:{kind}")
    seen = {True: 0, False: 0}
    for _ in range(count):
        deck, h = structured(rng, kind)
        truth = game_wins(deck, h)
        if truth is None:
            continue
        seen[truth] += 1
        check_sat(deck, h, truth)
        if truth:
            check_analyse_keeps_a_win(deck, h)
        assert (solve(deck, h, "search").status is Status.WINNABLE) == truth, (str(deck), h)
    return seen


@pytest.mark.parametrize("kind", KINDS)
def test_structured_decks_agree_with_the_game(kind):
    seen = sweep(1, 120, kind)
    assert seen[True] and seen[False], seen


def test_cpsat_shares_the_windows_and_agrees():
    rng = random.Random(44)
    for kind in ("tight", "blocks", "cap", "chain"):
        for _ in range(6):
            deck, h = structured(rng, kind)
            truth = game_wins(deck, h)
            assert (solve(deck, h, "cpsat").status is Status.WINNABLE) == truth, (str(deck), h)


def test_chain_cap_binds_and_stays_sound(monkeypatch):
    import hanabi_cp.solitaire.preprocessing as W
    gave_up = []
    real = W._chain_overflows

    def spy(Ak, a, q, G, h):
        out = real(Ak, a, q, G, h)
        # the walk passed CHAIN_CAP values and stopped without a verdict
        if not out and h >= CHAIN_CAP:
            cb = Ak[a - 1]
            from bisect import bisect_right
            i = bisect_right(cb, q)
            if not (i < len(cb) and cb[i] <= G):
                gave_up.append(a)
        return out

    monkeypatch.setattr(W, "_chain_overflows", spy)
    rng = random.Random(3)
    answers = set()
    for _ in range(60):
        deck, h = structured(rng, "cap")
        truth = game_wins(deck, h)
        answers.add(truth)
        check_sat(deck, h, truth)
    assert gave_up and answers == {True, False}


@pytest.mark.parametrize("h", [0, 1])
def test_unfinished_analysis_after_max_passes(h):
    for lost in (False, True):
        deck = stair(60, lost)
        w = analyse(deck, h)
        if h == 0 and not lost:
            assert w.passes == 50 and w.cpos is None     # still changing at the cap
        truth = game_wins(deck, h)
        assert truth == (not lost or h > 0)
        check_sat(deck, h, truth)
        assert (solve(deck, h, "search").status is Status.WINNABLE) == truth


@pytest.mark.parametrize("kw", [{"propagate": True}, {"asap": True},
                                {"card_encoding": 6}, {"card_encoding": 2}])
def test_build_variants_on_structured_decks(kw):
    # card_encoding 6 = totalizer, 2 = sortnetwrk (pysat EncType)
    rng = random.Random(f"variants:{kw}")
    for kind in ("blocks", "random", "cap"):
        for _ in range(30):
            deck, h = structured(rng, kind)
            truth = game_wins(deck, h)
            enc = build(deck, h, **kw)
            model = None if enc.status else enc.solve_model()
            assert (model is not None) == truth, (str(deck), h, kw)
            if model is not None:
                assert replay(deck, h, enc.decode(model)).won


def check_collect_below(deck: Deck, H: int) -> None:
    """min-hand's use: windows and CNF built once at H, "at most h" added for h <= H."""
    from pysat.formula import IDPool
    from hanabi_cp.solitaire.encoders.cnf import at_most
    win = analyse(deck, H)
    for h in range(H + 1):
        truth = game_wins(deck, h)
        if win.reason is not None:
            assert not truth
            continue
        enc = build(deck, H, windows=win, collect=True)
        clauses, pool = list(enc.clauses), IDPool(start_from=enc.num_vars + 1)
        for lits, sure in enc.capacity:
            at_most(lits, h - sure, clauses.append, pool, 1, {})
        from pysat.solvers import Solver
        with Solver(name="cadical195", bootstrap_with=clauses) as s:
            ok = s.solve()
            assert ok == truth, (str(deck), H, h)
            if ok:
                assert replay(deck, h, enc.decode(s.get_model())).won, (str(deck), H, h)


def test_collect_at_an_upper_bound_is_sound_for_every_smaller_hand():
    rng = random.Random(17)
    for kind in ("blocks", "random", "blocks", "chain"):
        for _ in range(12):
            deck, h = structured(rng, kind)
            if deck.N > 40:
                continue
            check_collect_below(deck, min(h + 2, 6))


def reference_min_hand(deck: Deck) -> int | None:
    for h in range(deck.N + 1):
        if game_wins(deck, h):
            return h
    return None


@pytest.mark.parametrize("kind", ["blocks", "random", "cap", "chain"])
def test_min_hand_matches_the_game(kind):
    rng = random.Random(f"minhand:{kind}")
    for _ in range(25):
        deck, _h = structured(rng, kind)
        assert min_hand(deck, "sat").h == reference_min_hand(deck), str(deck)


def test_reduction_images_of_random_formulas_under_every_variant():
    from hanabi_cp.apps.harness.roundtrip import VARIANTS
    rng = random.Random(23)
    for i in range(len(VARIANTS)):
        cnf = random_kcnf(rng, 3, rng.randint(4, 12))
        sat = formula_sat(cnf)[0]
        var = VARIANTS[i]
        deck, h = reduce_cnf(cnf, **var).deck, var.get("h", 2)
        out = solve(deck, h, "sat")
        assert (out.status is Status.WINNABLE) == sat, (cnf.clauses, var)


def normal_form(deck: Deck, w, p: dict) -> dict:
    """cnf-images.md §2: per color, for a = 1..n, switch p(a) to the first alive copy
    q with T(a-1) < q < T(a) (play on sight)."""
    p = dict(p)
    for k in range(1, deck.c + 1):
        prev = -1
        for a in range(1, deck.n + 1):
            Ta = max(p[(a, k)], prev)
            for q in w.alive[k][a]:
                if prev < q < Ta:
                    p[(a, k)], Ta = q, q
                    break
            prev = Ta
    return p


def max_hold(deck: Deck, p: dict) -> int:
    diff = [0] * (deck.N + 1)
    for k in range(1, deck.c + 1):
        prev = -1
        for a in range(1, deck.n + 1):
            Ta = max(p[(a, k)], prev)
            diff[p[(a, k)]] += 1
            diff[Ta] -= 1
            prev = Ta
    held, most = 0, 0
    for x in diff[:-1]:
        held += x
        most = max(most, held)
    return most


def check_every_normal_form_win_is_a_model(deck: Deck, h: int) -> int:
    """Completeness per win (cnf.md §5), not only per deck: the copy choice of the
    normal form of every winning choice extends to a model."""
    from pysat.solvers import Solver
    w = analyse(deck, h)
    enc = build(deck, h, windows=w)
    wins = 0
    with Solver(name="cadical195", bootstrap_with=enc.clauses) as s:
        for p, _T in winning_choices(deck, h):
            wins += 1
            p = normal_form(deck, w, p)
            assert max_hold(deck, p) <= h, (str(deck), h)
            chosen = set(p.values())
            assum = [v if q in chosen else -v for q, v in enc.variables.items()]
            assert s.solve(assumptions=assum), (str(deck), h, sorted(p.items()))
    return wins


def test_every_normal_form_win_is_a_model():
    import math
    rng = random.Random(21)
    wins = 0
    for _ in range(400):
        n, c = rng.randint(1, 5), rng.randint(1, 3)
        deck = random_small(rng, n, c, 3) if rng.random() < 0.5 else reversed_blocks(rng, n, c, 2)
        if math.prod(deck.counts.values()) <= 3000:
            wins += check_every_normal_form_win_is_a_model(deck, rng.randint(0, 3))
    assert wins > 1000


def every_model_decodes_to_a_win(seed: int, decks: int, per_deck: int) -> int:
    """Enumerate the models' distinct ``copy`` choices (blocking clauses) and replay
    each decoded play: soundness of the decoder, not only of one model per deck."""
    from pysat.solvers import Solver
    rng = random.Random(f"models:{seed}")
    done = 0
    while decks:
        deck, h = structured(rng, KINDS[decks % len(KINDS)])
        enc = build(deck, h)
        cv = sorted(enc.variables.values())
        if enc.status or not cv:
            continue
        decks -= 1
        with Solver(name="cadical195", bootstrap_with=enc.clauses) as s:
            for _ in range(per_deck):
                if not s.solve():
                    break
                model = s.get_model()
                rep = replay(deck, h, enc.decode(model))
                assert rep.won, (str(deck), h, rep.error)
                done += 1
                true = set(l for l in model if l > 0)
                s.add_clause([-v if v in true else v for v in cv])
    return done


def test_every_model_decodes_to_a_win():
    assert every_model_decodes_to_a_win(1, 60, 40) > 300


def test_reference_agrees_with_dp_on_structured_decks():
    from hanabi_cp.solitaire.methods.dp import dp
    rng = random.Random(12)
    checked = 0
    for i in range(200):
        deck, h = structured(rng, ("blocks", "tight", "random")[i % 3])
        if deck.N > 24:               # dp's table grows fast; keep the default run short
            continue
        truth = game_wins(deck, h)
        assert (dp(deck, h).status is Status.WINNABLE) == truth, (str(deck), h)
        checked += 1
    assert checked > 80


# --- the bigger sweep (opt-in) ---------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_structured_sweep(kind):
    seen = sweep(1000, 1500, kind)
    assert seen[True] and seen[False], seen


@pytest.mark.slow
def test_every_model_decodes_sweep():
    assert every_model_decodes_to_a_win(2, 3000, 200) > 50000


@pytest.mark.slow
def test_theorem_w_sweep():
    import math
    rng = random.Random(99)
    wins = 0
    for _ in range(6000):
        n, c = rng.randint(1, 6), rng.randint(1, 3)
        pick = rng.random()
        if pick < 0.4:
            deck = random_small(rng, n, c, rng.randint(1, 3))
        elif pick < 0.8:
            deck = reversed_blocks(rng, n, c, rng.randint(1, 3))
        else:
            deck = long_chain(rng, rng.randint(2, 10), rng.randint(0, 5))
        if math.prod(deck.counts.values()) > 20000:
            continue
        h = rng.randint(0, 4)
        wins += check_theorem_w(deck, h)
        check_every_normal_form_win_is_a_model(deck, h)
    assert wins > 10000


@pytest.mark.slow
def test_min_hand_and_images_sweep():
    from hanabi_cp.apps.harness.roundtrip import VARIANTS
    rng = random.Random(7)
    for kind in KINDS:
        for _ in range(100):
            deck, _h = structured(rng, kind)
            assert min_hand(deck, "sat").h == reference_min_hand(deck), str(deck)
    for i in range(20):
        cnf = random_kcnf(rng, rng.randint(3, 4), rng.randint(3, 18))
        sat = formula_sat(cnf)[0]
        var = VARIANTS[i % len(VARIANTS)]
        deck, h = reduce_cnf(cnf, **var).deck, var.get("h", 2)
        mh = min_hand(deck, "sat")
        assert (mh.h is not None and mh.h <= h) == sat, (cnf.clauses, var)
        for kw in ({}, {"asap": True}, {"propagate": True}):
            enc = build(deck, h, **kw)
            model = None if enc.status else enc.solve_model()
            assert (model is not None) == sat, (cnf.clauses, var, kw)
            if model is not None:
                assert replay(deck, h, enc.decode(model)).won
