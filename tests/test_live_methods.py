"""Real-rules methods against the brute-force oracle on random tiny decks, every
certificate through the referee, the lost-deck reasons checked for soundness, and
the search on shuffled standard decks."""

from __future__ import annotations

import functools
import gc
import random
from dataclasses import replace

import pytest

from hanabi_cp.apps.generators import random_deck, standard_deck
from hanabi_cp.real.actions import Action
from hanabi_cp.real.methods.brute import MAX_CARDS
from hanabi_cp.real import race, refutation
from hanabi_cp.real.methods.search import PLAY, LiveSearch, most_plays
from hanabi_cp.real.reasons import CHECKS, _ways, lost_reasons, score_bound, squeeze_reason
from hanabi_cp.real.referee import Game, replay
from hanabi_cp.real.rules import Rules
from hanabi_cp.real.solve import (SAT_PORTFOLIO, LiveOutcome, candidates, live_methods, solve_live, solve_position,
                                  stages)
from hanabi_cp.core.errors import SolverBug
from hanabi_cp.core.model import Deck
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.status import Status
from hanabi_cp.solitaire.solve import solve
from hanabi_cp.core.options import DEFAULT_SOLVER

BRUTE = "brute"
FAST = {"seed": 14, "count": 1000, "max_cards": 7}
SLOW = {"seed": 1014, "count": 5000, "max_cards": 12}
# Methods others register (CP-SAT, SAT) build a model per deck: fewer decks in the fast
# test, all of them under --runslow.
OTHER_FAST_COUNT = 60


def tiny_instance(rng: random.Random, max_cards: int) -> tuple[Deck, Rules]:
    """2-3 players, n <= 3, c <= 2, 1-2 copies (a card sometimes missing), at most
    ``max_cards`` cards, hands of 1-2, 0-3 clue tokens or unlimited, 1-3 strikes, now
    and then no final round."""
    while True:
        deck = random_deck(rng, rng.randint(1, 3), rng.randint(1, 2), rng.randint(1, 2),
                           p_missing=0.04)
        if len(deck) <= max_cards:
            break
    clues = rng.choice([0, 1, 2, 3, None])
    rules = Rules(rng.randint(2, 3), rng.randint(1, 2), clues, rng.randint(1, 3),
                  final_round=rng.random() < 0.85)
    return deck, rules


@functools.cache
def oracle(seed: int, count: int, max_cards: int) -> list[tuple[Deck, Rules, LiveOutcome]]:
    """Random tiny instances with brute force's best score and game (computed once)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        deck, rules = tiny_instance(rng, max_cards)
        out.append((deck, rules, solve_live(deck, rules, BRUTE, SolveOptions(maximize=True))))
    return out


def check_against_brute(name: str, sample: list) -> None:
    for deck, rules, best in sample:
        for maximize in (False, True):
            got = solve_live(deck, rules, name, SolveOptions(maximize=maximize))
            where = (str(deck), rules, maximize)
            assert got.status is best.status, where
            assert got.score == (best.score if maximize else None), where
            if got.actions is not None:      # solve_live checked it; once more, by hand
                assert got.verified, where
                rep = replay(deck, rules, got.actions)
                assert rep.legal and rep.complete, where
                assert rep.won == (got.status is Status.WINNABLE), where
            else:
                assert got.status is not Status.WINNABLE and not maximize, where


def compared_methods() -> list[str]:
    return sorted(m for m in live_methods() if m != BRUTE)


@pytest.mark.parametrize("name", compared_methods())
def test_method_equals_brute_on_tiny_decks(name):
    sample = oracle(**FAST)
    check_against_brute(name, sample if name == "search" else sample[:OTHER_FAST_COUNT])


@pytest.mark.slow
@pytest.mark.parametrize("name", compared_methods())
def test_method_equals_brute_on_thousands_more(name):
    check_against_brute(name, oracle(**SLOW))


def test_brute_finds_both_answers_and_its_games_replay():
    seen = set()
    for deck, rules, out in oracle(**FAST):
        seen.add(out.status)
        rep = replay(deck, rules, out.actions)
        assert out.verified and rep.complete and rep.score == out.score
        assert (out.status is Status.WINNABLE) == (out.score == deck.target)
    assert seen == {Status.WINNABLE, Status.UNWINNABLE}


def test_brute_refuses_big_decks_and_says_why():
    big = random_deck(1, 3, 3, 2, exact_copies=True)
    assert big.N > MAX_CARDS
    why = live_methods()[BRUTE].refuses(Game.start(big, Rules.for_players(2)))
    assert why is not None and "use search" in why


def check_reasons(sample) -> dict[str, int]:
    fired = {check.__name__: 0 for check in CHECKS}
    for deck, rules, best in sample:
        for check in CHECKS:
            why = check(deck, rules)
            if why is not None:
                assert best.status is Status.UNWINNABLE, (str(deck), rules, why)
                fired[check.__name__] += 1
    return fired


def test_every_reason_is_sound_and_each_fires():
    fired = check_reasons(oracle(**FAST))
    fired.pop("squeeze_reason")      # fires on bigger decks: the next test
    assert all(fired.values()), fired


def test_squeeze_reason_is_sound_where_it_fires():
    rng, fired = random.Random(9), 0
    while fired < 8:
        deck = random_deck(rng, rng.randint(2, 3), rng.randint(2, 3), 2)
        rules = Rules.for_players(rng.randint(2, 3), hand_size=rng.randint(1, 2),
                                  clues=rng.choice([0, 1, 2, 3, None]),
                                  strikes=rng.randint(1, 3))
        if len(deck) > 12 or squeeze_reason(deck, rules) is None:
            continue
        fired += 1
        assert solve_live(deck, rules, BRUTE).status is Status.UNWINNABLE, (str(deck), rules)


@pytest.mark.slow
def test_every_reason_is_sound_on_thousands_more():
    check_reasons(oracle(**SLOW))


def check_score_bound(sample) -> int:
    """The reasons' bound on the best score is never below brute force's best; how
    often it is exact with a loss of two cards or more."""
    exact = 0
    for deck, rules, best in sample:
        bound, why = score_bound(deck, rules)
        assert bound >= best.score, (str(deck), rules, bound, why)
        assert (why is None) == (bound == deck.target)
        exact += bound == best.score < deck.target - 1
    return exact


def test_the_reasons_bound_on_the_best_score_is_sound_and_exact_often():
    assert check_score_bound(oracle(**FAST)) >= 50


@pytest.mark.slow
def test_the_reasons_bound_on_the_best_score_is_sound_on_thousands_more():
    assert check_score_bound(oracle(**SLOW)) >= 250


def test_the_ways_to_stop_short_are_drawn_lazily_and_only_so_many():
    assert _ways(2, 2, 2, 10) == [(2, 0), (1, 1), (0, 2)]
    assert [len(_ways(5, 5, total, 200)) for total in (25, 24, 23, 20)] == [1, 5, 15, 126]
    assert _ways(5, 5, 20, 125) is None and _ways(1, 100_000, 99_990, 200) is None
    assert _ways(1, 100_000, 100_000, 200) == [(1,) * 100_000]
    # 300 colors, 2:300 missing: one card short has 300 ways, too many to ask, so
    # the bound stays the lost-deck reason's
    deck = Deck.of([(1, k) for k in range(1, 301)] + [(2, k) for k in range(1, 300)])
    bound, why = score_bound(deck, Rules.for_players(2))
    assert bound == 599 and why == ("no game scores 600 or more: such a game stacks every "
                                    "card of the one way to stack 600 cards, and each "
                                    "fails; stacks up to every card: no copy of card "
                                    "2:300 in the deck")


def test_the_search_proves_best_scores_by_the_reasons_bound_as_sat_finds_them():
    # Decks too big for brute force (9-16 cards of 1-2 copies, hands of 2-3), where
    # the bound shows two cards or more lost: the SAT encoding's best score (exact,
    # by another road) is never above it, and the search's equals it, often proved
    # by the bound alone (on tiny decks the position's own bound comes first).
    rng, fired, shown = random.Random(5), 0, 0
    for _ in range(600):
        deck = random_deck(rng, rng.randint(3, 4), rng.randint(3, 4), 2)
        rules = Rules.for_players(2, hand_size=rng.randint(2, 3))
        bound, why = score_bound(deck, rules)
        if bound >= deck.target - 1:
            continue
        fired += 1
        sat = solve_live(deck, rules, "sat", SolveOptions(maximize=True))
        got = solve_live(deck, rules, "search", SolveOptions(maximize=True))
        assert sat.score <= bound and got.score == sat.score, (str(deck), rules)
        shown += got.reason == why
    assert fired >= 150 and shown >= 20, (fired, shown)


def test_the_reasons_bound_proves_lost_standard_deals_at_once():
    # 2 players, seed 629: every way to stack 24 cards (one color one short) runs
    # into hand size; 23 is reached.  Its positions have the deal's bound too.
    deck, rules = standard_deck(629), Rules.for_players(2)
    assert score_bound(deck, rules)[0] == 23
    out = solve_live(deck, rules, "search", SolveOptions(maximize=True))
    assert out.status is Status.UNWINNABLE and out.score == 23 and out.verified
    assert out.reason.startswith("no game scores 24 or more: such a game stacks every "
                                 "card of one of the 5 ways to stack 24 cards, and each "
                                 "fails; stacks up to 5:1, 5:2, 5:3, 5:4, 4:5: hand size: ")
    assert out.reason.count("hand size: ") == 5
    at = solve_position(Game.after(deck, rules, out.actions[:6]), "search", SolveOptions(maximize=True))
    assert at.score == 23 and at.reason.startswith(
        "no game on the deal scores more than 23, so no game from a position of one "
        "does: no game scores 24 or more")
    # 5 colors, 2 short: 15 ways; the bound stops at the floor it is given
    assert score_bound(standard_deck(1653), rules)[0] == 22
    assert score_bound(standard_deck(1653), rules, 24)[0] == 24


def test_reasons_on_small_decks():
    # 2 players of 1 card: the last card is the only 2:2, and 3:2 must follow it.
    deck = Deck.of([(1, 1), (1, 2), (2, 1), (3, 1), (3, 2), (2, 2)])
    rules = Rules.for_players(2, hand_size=1)
    assert lost_reasons(deck, rules) == [
        "the last card, #5 (2:2), is the only copy of 2:2: its drawer can play it only on "
        "the game's last turn, too late for 3:2"]
    # 2 players of 2 cards: 1:1 and 2:2 come late (#6, #7), so 1:1..3:1 and 2:2, 3:2 all
    # wait for #6; after it come 2 draws and 2 final turns, 4 plays for 5 cards.
    deck = Deck.of([(1, 2), (3, 2), (3, 1), (2, 1), (1, 2), (2, 1), (2, 2), (1, 1), (2, 2)])
    assert lost_reasons(deck, Rules.for_players(2, hand_size=2)) == [
        "pace: 5 cards can only be played after card #6 (2:2) is drawn (1:1, 2:1, 3:1, "
        "2:2, 3:2), but only 2 draws and the final round's 2 turns remain for plays after it"]
    # 2 players of 1 card hold 1 card just before a draw, but the single 2:2 and both
    # 2:3 are drawn before any 1 of their colors.
    deck = Deck.of([(2, 2), (2, 3), (2, 3), (1, 1), (1, 3), (1, 2), (1, 1), (2, 1)])
    assert lost_reasons(deck, Rules.for_players(2, hand_size=1)) == [
        "hand size: when card #3 (1:1) is drawn, 2 cards must be held (2:2, 2:3): none can "
        "have been played and no copy is left in the deck; but the hands have "
        "2 x 1 - 1 = 1 places just before that draw"]
    # The same with squeezes: just before #2 and #4 are drawn the one place holds a card
    # with no copy left, so the earlier 2:2 and 3:2 are lost and must come again.
    deck = Deck.of([(2, 2), (2, 1), (1, 2), (3, 2), (3, 2), (1, 1), (3, 1), (2, 2), (3, 1),
                    (1, 2)])
    assert lost_reasons(deck, Rules.for_players(2, hand_size=1, clues=2)) == [
        "when card #2 is drawn the hands hold only cards with no copy left, so the earlier "
        "copies of 2:2 are lost; when card #4 is drawn the hands hold only cards with no "
        "copy left, so the earlier copies of 3:2 are lost; then hand size: when card #5 "
        "(1:1) is drawn, 2 cards must be held (2:1, 3:2): none can have been played and no "
        "copy is left in the deck; but the hands have 2 x 1 - 1 = 1 places just before "
        "that draw"]
    assert lost_reasons(Deck.of([(1, 1), (2, 2)]), Rules.for_players(2))[0] == \
        "no copy of cards 2:1, 1:2 in the deck"
    deck = Deck.of([(1, 2), (2, 2), (3, 2), (4, 2), (1, 1), (2, 1), (3, 1), (4, 1)])
    assert lost_reasons(deck, Rules.for_players(2, hand_size=2)) == [
        "too few turns: 8 plays are needed, but each play before the last draw draws a "
        "card (4 draws) and the final round has 2 turns"]
    # The deal takes every card: turns 0..p, player 0 moving twice.
    deck = Deck.of([(1, 1), (2, 1), (3, 1)])
    assert lost_reasons(deck, Rules.for_players(2, hand_size=5)) == [
        "the deal takes every card, so the game lasts 3 turns, in which the hands can play "
        "at most 2 of the 3 cards"]
    rules = Rules.for_players(3, hand_size=1)
    assert solve_live(deck, rules, BRUTE).status is Status.WINNABLE
    assert lost_reasons(deck, rules) == []


def test_bounds_never_charge_one_lost_card_twice():
    # Found by the cross-check: the pace bound and the endgame bound each see the
    # bottom 1:1; taking both off the reach made the bound 2 where brute force plays 3.
    deck = Deck.of([(3, 1), (3, 2), (2, 2), (2, 1), (1, 2), (1, 1)])
    rules = Rules(2, 2, clues=3, strikes=1)
    for name in ("brute", "search"):
        assert solve_live(deck, rules, name, SolveOptions(maximize=True)).score == 3


def test_most_plays_counts_one_card_per_turn_in_color_order():
    hands = [[(0, 2)], [(0, 1), (1, 1)]]
    assert most_plays([0, 1], hands, [0, 0]) == 1          # 2 before 1: only 1 plays
    assert most_plays([1, 0], hands, [0, 0]) == 2
    assert most_plays([1, 0, 1], hands, [0, 0]) == 3
    # with a floor: exact above it, "at most the floor" at or below it
    assert most_plays([1, 0, 1], hands, [0, 0], floor=2) == 3
    assert most_plays([0, 1], hands, [0, 0], floor=1) <= 1
    assert most_plays([0, 1], hands, [0, 0], floor=0) == 1


def test_search_on_standard_decks_wins_with_checked_games():
    for players in range(2, 7):
        for seed in range(3):
            deck = standard_deck(seed)
            out = solve_live(deck, Rules.for_players(players), "search")
            assert out.status is Status.WINNABLE and out.verified, (players, seed)


def test_a_round_of_the_search_leaves_the_move_order_nearest_the_top_first():
    """Round 1 tries the alternatives to the first move at the root before the first
    move's subtree (encodings/live-search.md, section 4): on 6 players, seed 44, the
    first dive fails and round 1 wins."""
    calls: list[tuple[int, int]] = []

    class Recording(LiveSearch):
        def reaches(self, goal: int, budget: int = 10 ** 9) -> bool:
            calls.append((len(self.trail), budget))
            return super().reaches(goal, budget)

    deck, rules = standard_deck(44), Rules.for_players(6)
    s = Recording(Game.start(deck, rules))
    assert s.game(deck.target, 0, 1) is None and not s.proved
    calls.clear()
    found = s.game(deck.target, 1, 2)
    assert calls[:2] == [(0, 1), (1, 0)]       # the root, then an alternative of it
    assert found is not None and replay(deck, rules, found[0]).won


def test_search_time_limit_gives_unknown_never_a_guess():
    deck = standard_deck(1653)     # 6 players: a win takes the search minutes to find
    rules = Rules.for_players(6)
    out = solve_live(deck, rules, "search", SolveOptions(time_limit=0.05))
    assert out.status is Status.UNKNOWN and out.actions is None
    out = solve_live(deck, rules, "search", SolveOptions(time_limit=0.05, maximize=True))
    assert out.status is Status.UNKNOWN
    if out.actions is not None:     # the best game found so far, checked
        assert out.verified and replay(deck, rules, out.actions).score == out.score


@pytest.mark.parametrize("collecting", [True, False])
def test_the_search_leaves_the_cycle_collector_as_it_found_it(collecting):
    """The search turns Python's cycle collector off while it runs (its tables'
    tuples keep triggering it); it is back as it was after an answer and after a
    time limit, whether it was on or off before."""
    (gc.enable if collecting else gc.disable)()
    try:
        for deck, limit in ((standard_deck(1), None), (standard_deck(1653), 0.05)):
            solve_live(deck, Rules.for_players(6), "search", SolveOptions(time_limit=limit))
            assert gc.isenabled() is collecting
    finally:
        gc.enable()


def test_search_maximize_on_a_lost_standard_deck():
    deck = standard_deck(5)       # 2 players of 4 cards: too many cards to hold
    out = solve_live(deck, Rules.for_players(2, hand_size=4), "search",
                     SolveOptions(maximize=True))
    assert out.status is Status.UNWINNABLE and out.score == 24 and out.verified
    assert out.reason.startswith("hand size: when card #23 (1:2) is drawn")


def test_a_best_score_below_the_reasons_bound_names_the_search_as_its_evidence():
    """A lost-deck reason proves only "not 25": a lower best score rests on the
    search's refutation too, and the reason says so."""
    seen = 0
    for deck, rules, best in oracle(**FAST):
        out = solve_live(deck, rules, "search", SolveOptions(maximize=True))
        assert out.score == best.score
        if out.status is Status.UNWINNABLE and out.score < deck.target - 1 \
                and not Game.start(deck, rules).over:
            assert "exhaustive search" in out.reason or "upper bound" in out.reason, \
                out.reason
            seen += "; " in out.reason      # a lost-deck reason, then the rest
    assert seen


def test_unlimited_clues_merge_clue_chains_without_losing_games():
    # Only passing the turn to player 1 lets 1:1 be played first.
    deck = Deck.of([(2, 1), (1, 1), (3, 1)])
    rules = Rules.for_players(2, hand_size=1, clues=None, final_round=False)
    out = solve_live(deck, rules, "search")
    assert out.status is Status.WINNABLE
    assert out.actions[0] == Action.rank_clue(1, 1)


def test_search_state_is_restored_after_each_game():
    deck, rules = standard_deck(3), Rules.for_players(4)
    s = LiveSearch(Game.start(deck, rules))
    before = (s.hands, s.piles, s.drawn, s.clues, s.turn)
    before = tuple(map(repr, before))
    assert s.game(25) is not None
    assert tuple(map(repr, (s.hands, s.piles, s.drawn, s.clues, s.turn))) == before


def solitaire_equivalence(seed: int, count: int, max_cards: int,
                          final_round_too: bool = False) -> tuple[int, int]:
    """Journal §5.1 with unlimited clue tokens and no final round: p players of H cards
    have the best score of the solitaire model with hand p*H - 1.  Returns how many
    decks differ at hand p*H (so the -1 matters) and, if asked, how many differ once
    the final round is back (so lifting it matters)."""
    rng = random.Random(seed)
    differ_at_ph = differ_with_final_round = 0
    best = SolveOptions(maximize=True)
    for _ in range(count):
        deck, rules = tiny_instance(rng, max_cards)
        free = Rules(rules.players, rules.hand_size, None, 3, final_round=False)
        live = solve_live(deck, free, BRUTE, best).score
        h = rules.players * rules.hand_size - 1
        assert live == solve(deck, h, "dp", best).score, (str(deck), free)
        differ_at_ph += live != solve(deck, h + 1, "dp", best).score
        if final_round_too:
            timed = Rules(rules.players, rules.hand_size, None, 3, final_round=True)
            differ_with_final_round += live != solve_live(deck, timed, BRUTE, best).score
    return differ_at_ph, differ_with_final_round


def test_players_with_free_clues_are_one_solitaire_hand_of_pH_minus_1():
    differ_at_ph, _ = solitaire_equivalence(51, 120, 7)
    assert differ_at_ph


@pytest.mark.slow
def test_players_with_free_clues_are_one_solitaire_hand_thousands_more():
    differ_at_ph, differ_with_final_round = solitaire_equivalence(5100, 3000, 11, True)
    assert differ_at_ph and differ_with_final_round


def test_brute_time_limit_gives_unknown():
    deck = random_deck(2, 3, 2, 2, exact_copies=True)      # 12 cards: thousands of states
    out = solve_live(deck, Rules.for_players(2, hand_size=2, clues=3), BRUTE,
                     SolveOptions(time_limit=1e-9))
    assert out.status is Status.UNKNOWN and out.actions is None
    assert out.reason == "time limit reached; undecided"


def test_the_search_stops_undecided_when_the_machine_s_memory_runs_short(monkeypatch):
    """Its tables keep every refuted state: where the machine's memory runs short it
    answers UNKNOWN, as at its time limit, before the out-of-memory killer ends the
    process without an answer (the plain-Python module: its constants can be set)."""
    from hanabi_cp.real.methods.search import answers as S, stops
    from hanabi_cp.runtime import memory
    monkeypatch.setattr(stops, "MEMORY_CHECKS", 1)
    monkeypatch.setattr(memory, "short", lambda: True)
    start = Game.start(standard_deck(1), Rules.for_players(3))
    for decide in (S._decide, S._maximize):
        s = S.LiveSearch(start)
        s.check_every = 1
        out = decide(s, start)
        assert out.status is Status.UNKNOWN and out.actions is None, out
        assert out.reason.startswith("memory short (less than 10% of the machine's memory "
                                     "available)"), out.reason
    monkeypatch.setattr(memory, "short", lambda: False)
    s = S.LiveSearch(start)
    s.check_every = 1
    assert S._decide(s, start).status is Status.WINNABLE


def test_the_machine_s_available_memory_is_read_as_a_share():
    from hanabi_cp.runtime import memory
    share = memory.available()
    assert share is None or 0 < share <= 1
    assert memory.short() == (share is not None and share < memory.FLOOR)


def tiny_position(rng: random.Random, max_cards: int) -> Game:
    """A tiny instance with hanab.live's options drawn at random (first player, deck
    plays, speedrun, all or nothing, empty clues), played some random legal moves
    into the game: a position, not only a deal."""
    deck, rules = tiny_instance(rng, max_cards)
    rules = replace(rules, first_player=rng.randrange(rules.players),
                    deck_plays=rng.random() < 0.3, empty_clues=rng.random() < 0.2,
                    speedrun=rng.random() < 0.1, all_or_nothing=rng.random() < 0.1)
    g = Game.start(deck, rules)
    for _ in range(rng.choice([0, rng.randint(0, deck.N + 2)])):
        moves = list(g.legal_actions())
        if g.over or not moves:
            break
        g.apply(rng.choice(moves))
    return g


@functools.cache
def position_oracle(seed: int, count: int, max_cards: int) -> list[tuple[Game, LiveOutcome]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        g = tiny_position(rng, max_cards)
        out.append((g, solve_position(g, BRUTE, SolveOptions(maximize=True))))
    return out


def check_positions_against_brute(sample) -> None:
    for g, best in sample:
        if g.turn == 0:             # the deal: every lost-deck reason is a proof
            reasons = lost_reasons(g.deck, g.rules)
            assert not reasons or best.status is Status.UNWINNABLE, (str(g.deck), g.rules)
        for maximize in (False, True):
            got = solve_position(g, "search", SolveOptions(maximize=maximize))
            where = (str(g.deck), g.rules, g.hands, g.piles, g.turn, maximize)
            assert got.status is best.status, where
            assert got.score == (best.score if maximize else None), where
            if got.status is not Status.WINNABLE and not maximize and got.actions is None:
                continue
            assert got.verified, where


def test_search_equals_brute_on_tiny_positions_with_every_option():
    check_positions_against_brute(position_oracle(23, 1500, 8))


@pytest.mark.slow
def test_search_equals_brute_on_thousands_more_positions():
    check_positions_against_brute(position_oracle(1023, 6000, 12))


def check_bounds(sample) -> dict[str, int]:
    """Each upper bound (sections 3.1-3.6 of encodings/live-search.md) against brute
    force's best final score, on its own, not only through the search's answers;
    how often each is exact (and below the reach)."""
    fired = dict.fromkeys(("bound", "turns", "endgame"), 0)
    for g, best in sample:
        if g.over:
            continue
        s = LiveSearch(g)
        b = s.bound()
        assert b >= best.score, (str(g.deck), g.rules, g.hands, g.turn)
        fired["bound"] += b == best.score < sum(s.caps)
        if s.N - s.ENDGAME <= s.drawn < s.N and s.final_round and not s.deck_plays:
            total = sum(s.reach)
            exact = s.endgame_bound(total)
            for name, value in (("turns", s.turns_bound(total)), ("endgame", exact)):
                assert value >= best.score, (name, str(g.deck), g.rules, g.hands, g.turn)
                fired[name] += value == best.score < total
            check_floors(s.endgame_bound, total, exact, s.score)
        elif s.drawn == s.N and s.end_turn is not None:
            check_floors(s.final_round_bound, sum(s.reach), s.final_round_bound(sum(s.reach)),
                         s.score)
    return fired


def check_deep(sample) -> tuple[int, int]:
    """``relaxed_plays`` (the last draws' relaxation by dynamic programming, from any
    number of cards left) without hand size against ``endgame_bound`` (the same
    relaxation searched exhaustively) for every count asked: below it, an upper
    bound on the exact count; with hand size, at or above brute force's best for
    every count asked; and the search with it on every state against brute force's
    best score.  The number of states where the relaxation is below the reach, and
    of counts where hand size alone shows them out of reach."""
    cuts = held = 0
    for g, best in sample:
        if g.over:
            continue
        s = LiveSearch(g)
        s.bound()
        total = sum(s.reach)        # without the pace loss, which the relaxations omit
        if s.drawn < s.N and s.final_round and not s.deck_plays:
            exact = s.endgame_bound(total) - s.score
            for need in range(total - s.score + 2):
                # one search for every count and both relaxations: each keeps its
                # own table across the counts asked
                got = s.relaxed_plays(need)
                where = (str(g.deck), g.rules, g.hands, g.turn, need)
                assert exact <= got < need if exact < need else got >= need, (where, got, exact)
                fewer = s.relaxed_plays(need, hand=g.rules.hand_size)
                assert fewer >= min(need, best.score - s.score), (where, fewer)
                held += fewer < need <= got
            cuts += exact < total - s.score
        for goal in (best.score, best.score + 1):
            if goal > s.target:
                continue
            deep = LiveSearch(g)
            deep.deep = True
            where = (str(g.deck), g.rules, g.hands, g.turn, goal)
            assert (deep.game(goal) is not None) == (goal <= best.score), where
            if goal > best.score and refutation.refuses(g) is None:
                # the checker cuts where the search did by this relaxation
                refutation.check(g, goal, deep.refuted(goal))
    return cuts, held


def test_a_deck_play_starts_the_final_round_only_where_the_rules_have_one():
    """The search ends a game where the referee does: after a deck play (it draws
    the last card) there is no final round in all or nothing.  Found by ``check_deep``:
    a refutation listed a state with a final round the referee never starts."""
    deck = Deck.of([(1, 1), (3, 1), (1, 1), (2, 1)])
    for all_or_nothing in (False, True):
        rules = Rules(2, 1, 0, 3, deck_plays=True, all_or_nothing=all_or_nothing)
        s = LiveSearch(Game.after(deck, rules, [Action.play(0)]))
        s.do(PLAY, 3)           # the deck play of the last card, 2:1
        g = Game.after(deck, rules, [Action.play(0), Action.play(3)])
        assert s.key() == LiveSearch(g).key() and (g.end_turn is None) == all_or_nothing
        start = Game.start(deck, rules)
        search = LiveSearch(start)
        if search.game(deck.target) is None:
            refutation.check(start, deck.target, search.refuted(deck.target))


def test_the_deeper_relaxation_is_the_last_draws_one_and_keeps_every_best_score():
    cuts, held = check_deep(position_oracle(23, 1500, 8))
    assert cuts >= 20 and held >= 5, (cuts, held)     # 26 and 8 of them


@pytest.mark.slow
def test_the_deeper_relaxation_on_thousands_more_positions():
    check_deep(position_oracle(1023, 6000, 12))


def check_exact_tokens(sample) -> tuple[int, int]:
    """The last draws' relaxation with exact tokens (``relaxed_plays(exact=True)``)
    against brute force's best score from each position: an upper bound on it for
    every count asked.  Where the search ends by it at the position (``game`` from
    the second round on), the refutation it leaves checks.  How often it is below
    a count the plain relaxation reaches, and how often the search ended by it."""
    tighter = ended = 0
    for g, best in sample:
        s = LiveSearch(g)
        if g.over or not s.simple_draws or s.drawn == s.N:
            continue
        s.bound()
        real = best.score - s.score
        for need in range(sum(s.reach) - s.score + 2):
            plain, exact = LiveSearch(g), LiveSearch(g)
            plain.bound(), exact.bound()
            got = exact.relaxed_plays(need, exact=True)
            assert got >= min(need, real), (str(g.deck), g.rules, g.hands, g.turn, need, got)
            tighter += got < need <= plain.relaxed_plays(need)
        goal = best.score + 1
        if goal > s.target or not s.root_window():
            continue
        search = LiveSearch(g)
        assert search.game(goal) is None
        if search.root_cut_goal == goal:
            ended += 1
            if refutation.refuses(g) is None:
                refutation.check(g, goal, search.refuted(goal))
    return tighter, ended


def test_the_relaxation_with_exact_tokens_holds_and_ends_searches():
    tighter, ended = check_exact_tokens(position_oracle(23, 1500, 8))
    assert tighter >= 2 and ended >= 3, (tighter, ended)     # 2 and 3 of them


@pytest.mark.slow
def test_the_relaxation_with_exact_tokens_on_thousands_more_positions():
    check_exact_tokens(position_oracle(1023, 6000, 12))


def check_hand_size_at_the_position(sample) -> int:
    """The relaxation with hands of at most H needed cards at the position
    (``start_root_cut`` beyond ROOT_LEFT cards left, here from any number, asked at
    once) against brute force's best score: the search with it finds the best and
    refutes one more, and where it ended the search, the checker's question at the
    position (``cut_when_listed``) cuts it too.  How often it ended the search."""
    ended = 0
    for g, best in sample:
        if g.over or best.score >= g.deck.target:
            continue
        for goal, found in ((best.score, True), (best.score + 1, False)):
            search = LiveSearch(g)
            search.ROOT_LEFT, search.ROOT_PLAIN_AFTER = 0, 0
            where = (str(g.deck), g.rules, g.hands, g.turn, goal)
            assert (search.game(goal) is not None) == found, where
            if search.root_cut_goal == goal:
                ended += 1
                # what a refutation's checker asks at the position it lists
                check = LiveSearch(g)
                check.ROOT_LEFT = 0
                assert check.bound(goal) >= goal and check.cut_when_listed(goal, root=True), where
    return ended


def test_the_relaxation_with_hand_size_at_the_position_keeps_every_best_score():
    assert check_hand_size_at_the_position(position_oracle(23, 1500, 8)) >= 2  # 3 of them


@pytest.mark.slow
def test_the_relaxation_with_hand_size_at_the_position_on_thousands_more():
    check_hand_size_at_the_position(position_oracle(1023, 6000, 12))


def test_the_relaxation_with_hand_size_ends_the_search_of_a_lost_position():
    """2 players, seed 558 after 15 actions of its bot game (33 cards left): lost,
    which the search alone refutes in about a million states and the relaxation
    without hand size does not show (it reaches 25).  With hands of at most 5 needed cards the
    relaxation at the position shows 24 the most, and the refutation, which lists
    the position, checks."""
    from bench.live_sweep import bot_game

    deck, rules, actions = bot_game(2, 558)
    g = Game.after(deck, rules, actions[:15])
    out = solve_position(g, "search", SolveOptions(time_limit=30))
    assert out.status is Status.UNWINNABLE and out.stats["nodes"] < 200_000, out
    assert "relaxation with hand size" in out.reason, out.reason
    s = LiveSearch(g)
    s.bound()
    assert s.relaxed_plays(deck.target - s.score) >= deck.target - s.score
    listed = {LiveSearch(g).key(): deck.target - 1}
    assert refutation.check(g, deck.target, listed) == 1


def test_the_relaxation_at_the_position_reads_the_clock_between_its_chunks():
    """6 players, seed 616 after 20 actions (23 cards left): the relaxation with
    exact tokens neither reaches 25 nor shows it out of reach in millions of its
    states.  Past the deadline, a try of more than one chunk stops after the first
    and ends the search with Timeout, as the search's own states do."""
    from bench.live_sweep import bot_game
    from hanabi_cp.real.methods.search import Timeout

    deck, rules, actions = bot_game(6, 616)
    s = LiveSearch(Game.after(deck, rules, actions[:20]), deadline=0.0)
    s.ROOT_LEFT, s.ROOT_STEPS = 30, 4 * s.RELAX_CHUNK
    with pytest.raises(Timeout):
        s.start_root_cut(deck.target)
    assert s.steps < 0      # the first chunk ran out, and no second one began


def test_the_refutation_check_reads_the_clock_inside_the_relaxation_at_the_position():
    """6 players, seed 612 after 21 actions (20 cards left): lost, which the
    relaxation with exact tokens shows at the position in about 1.6 million of its
    states, so a refutation listing the position alone checks.  With a time limit
    shorter than that relaxation, the check ends in TimeUp between its chunks
    rather than going on to the end of it; at the state itself, the relaxation
    stops after its first chunk."""
    from bench.live_sweep import bot_game
    from hanabi_cp.real.methods.search import Timeout
    from hanabi_cp.runtime.deadline import Deadline, TimeUp

    deck, rules, actions = bot_game(6, 612)
    g = Game.after(deck, rules, actions[:21])
    goal = deck.target
    listed = {LiveSearch(g).key(): goal - 1}
    assert refutation.check(g, goal, listed) == 1
    with pytest.raises(TimeUp) as up:
        refutation.check(g, goal, listed, Deadline.after(0.05))
    assert up.value.phase == refutation.CHECK_PHASE
    s = LiveSearch(g, deadline=0.0)
    assert s.bound(goal) >= goal
    with pytest.raises(Timeout):
        s.cut_when_listed(goal, root=True)
    assert s.steps < 0


def test_the_relaxation_with_exact_tokens_ends_the_search_of_a_lost_position():
    """6 players, seed 377 after 34 and 35 actions of its bot game: lost with 0 or 1
    token and 13 or 12 cards left, which the plain relaxation (a token back on every
    draw turn) does not show; the search took 408,274 and 343,506 states to refute
    them.  The relaxation with exact tokens ends it, and its refutation, which lists
    the position, checks."""
    from bench.live_sweep import bot_game

    deck, rules, actions = bot_game(6, 377)
    for k in (34, 35):
        g = Game.after(deck, rules, actions[:k])
        out = solve_position(g, "search", SolveOptions(time_limit=10))
        assert out.status is Status.UNWINNABLE and out.stats["nodes"] < 20_000, out
        assert "relaxation with exact tokens" in out.reason, out.reason
        s = LiveSearch(g)
        assert s.game(deck.target) is None and s.root_cut_goal == deck.target
        table = s.refuted(deck.target)
        assert LiveSearch(g).key() in table
        refutation.check(g, deck.target, table)


def check_floors(relaxation, total: int, exact: int, score: int) -> None:
    """With a floor, a relaxation's value is its exact value when that makes more
    plays than the floor, and the floor's score (still an upper bound) otherwise."""
    for floor in range(total - score + 2):
        got = relaxation(total, floor)
        assert got == (exact if exact - score > floor else min(total, score + floor)), \
            (floor, got, exact)


def late_positions():
    """States with one or two cards left to draw: from tiny random positions, and
    those a search visits on hard 6-player deals (seed 1606, where stalls before
    the last draw are what fails, and the deals won after the most states)."""
    for g, _ in position_oracle(23, 600, 8):
        yield g
    seen: list[list[Action]] = []

    class Recording(LiveSearch):
        def reaches(self, goal: int, budget: int = 10 ** 9) -> bool:
            if self.N - 2 <= self.drawn < self.N and len(seen) < 400:
                moves = [step[:2] for step in self.trail]
                seen.append(self.taken_back())      # the game so far, then back here
                for kind, order in moves:
                    self.do(kind, order)
            return super().reaches(goal, budget)

    rules = Rules.for_players(6)
    for seed in (1606, 744, 1131, 545):
        deck, start = standard_deck(seed), len(seen)
        Recording(Game.start(deck, rules)).game(deck.target)
        for path in seen[start:]:
            yield Game.after(deck, rules, path)


def test_a_cut_before_the_last_draw_holds_after_its_clues():
    """``stall_cut``: where the bound is below a goal before the last draw, it is
    below it too k clues later (k < p), with at most k tokens fewer."""
    checked = 0
    for g in late_positions():
        s = LiveSearch(g)
        if g.over or not s.N - s.ENDGAME <= s.drawn < s.N or not s.final_round \
                or s.deck_plays or s.free_clues:
            continue
        turn, tokens = s.turn, s.clues
        for goal in range(s.score + 1, s.target + 1):
            s.turn, s.clues = turn, tokens
            if s.bound(goal) >= goal:
                continue
            for k in range(min(s.p - 1, tokens) + 1):
                for fewer in range(tokens - k + 1):
                    s.turn, s.clues = turn + k, fewer
                    assert s.bound(goal) < goal, (str(g.deck), g.rules, g.turn, goal, k, fewer)
                    checked += 1
    assert checked > 1000, checked


def test_hand_overflow_counts_as_a_sweep_over_sorted_events_does():
    """``hand_overflow`` sums per deck position; the rule (encodings/live-search.md,
    3.4) reads as a sweep over the spans' ends in order, a card let go at a draw
    before one taken there: both say the same on random spans."""
    rng = random.Random(7)
    s = LiveSearch(Game.start(standard_deck(1), Rules.for_players(2)))
    fired = 0
    for _ in range(3000):
        s.drawn = rng.randrange(s.N)
        spans = []
        for _ in range(rng.randrange(1, 22)):
            a = rng.randrange(s.drawn, s.N)
            spans.append((a, rng.randrange(a, s.N)))
        now, most = 0, 0
        for _, step in sorted([(a, 1) for a, _ in spans] + [(b + 1, -1) for _, b in spans]):
            now += step
            most = max(most, now)
        want = most > s.p * s.H - 1
        assert s.hand_overflow([a for a, _ in spans], [b for _, b in spans]) == want, spans
        fired += want
    assert 100 < fired < 2900, fired


def test_every_bound_of_the_search_holds_on_tiny_positions():
    fired = check_bounds(position_oracle(23, 1500, 8))
    assert all(fired.values()), fired      # each is exact (and below the reach) somewhere


@pytest.mark.slow
def test_every_bound_holds_on_thousands_more_positions():
    check_bounds(position_oracle(1023, 6000, 12))


def test_auto_runs_sat_once_per_solver_of_its_portfolio_unless_one_is_chosen():
    g = Game.start(standard_deck(1), Rules.for_players(3))
    methods = candidates(g)
    got = [(m.name, solver) for m, solver in stages(methods, SolveOptions(time_limit=5))]
    sat = [solver for name, solver in got if name == "sat"]
    assert sat == list(SAT_PORTFOLIO) and sat[0] == DEFAULT_SOLVER and len(set(sat)) == 2
    assert [name for name, _ in got][:1] == ["search"] and ("cpsat", DEFAULT_SOLVER) in got
    chosen = stages(methods, SolveOptions(time_limit=5, solver="minisat22"))
    assert [solver for m, solver in chosen if m.name == "sat"] == ["minisat22"]


def test_auto_tries_the_next_solver_when_one_gives_up(monkeypatch):
    import hanabi_cp.real.solve as live_solve
    calls = []
    real = live_solve._run

    def run(m, start, options):
        calls.append((m.name, options.solver))
        if (m.name, options.solver) != ("sat", SAT_PORTFOLIO[1]):
            return LiveOutcome(Status.UNKNOWN, reason="gave up (test)")
        return real(m, start, options)

    monkeypatch.setattr(live_solve, "_run", run)
    monkeypatch.setattr(race, "ENABLED", False)   # the sequential portfolio
    out = solve_live(standard_deck(1), Rules.for_players(3), options=SolveOptions(time_limit=60))
    assert out.status is Status.WINNABLE and out.verified, out.reason
    assert out.stats["solver"] == SAT_PORTFOLIO[1]
    assert calls == [("search", DEFAULT_SOLVER), ("sat", SAT_PORTFOLIO[0]),
                     ("sat", SAT_PORTFOLIO[1])]


def test_auto_undecided_keeps_the_best_game_and_the_lowest_bound_of_any_stage(monkeypatch):
    # As on 2 players, seed 4004 at 30 s: the search proves 23 at most but finds 19,
    # CaDiCaL finds 22 and no bound (here: 24 at most, 0 and 23; a game reaching the
    # bound would decide the best score, ``Tally.met``).
    import hanabi_cp.real.solve as live_solve
    deck, rules = standard_deck(75), Rules.for_players(2, hand_size=4)
    game = solve_live(deck, rules, "search", SolveOptions(maximize=True)).actions
    proved = 24
    handed = []         # each stage's incumbent: the best game of the stages before it

    def run(m, start, options):
        handed.append((m.name, options.incumbent))
        if m.name == "search":
            return LiveOutcome(Status.UNKNOWN, [], 0, "gave up (test): upper "
                               f"bound {proved} of 25", stats={"upper_bound": proved})
        if m.name == "sat" and options.solver == SAT_PORTFOLIO[0]:
            return LiveOutcome(Status.UNKNOWN, game, 23, "gave up (test)", method="sat")
        return LiveOutcome(Status.UNKNOWN, reason="gave up (test)",
                           stats={"upper_bound": 25} if m.name == "cpsat" else {})

    monkeypatch.setattr(live_solve, "_run", run)
    monkeypatch.setattr(race, "ENABLED", False)   # the sequential portfolio
    out = solve_live(deck, rules, options=SolveOptions(time_limit=60, maximize=True))
    assert out.status is Status.UNKNOWN and out.score == 23      # (_run replays; mocked here)
    assert out.reason == "gave up (test); upper bound 24 of 25 (by search)"
    assert out.stats["upper_bound"] == 24
    assert handed == [("search", None), ("sat", None), ("sat", tuple(game)), ("cpsat", tuple(game))]
    proved = 22         # a bound below a game the referee replayed: a bug, never an answer
    with pytest.raises(SolverBug, match="search bounded the score by 22, but sat found "
                                        "a game scoring 23"):
        solve_live(deck, rules, options=SolveOptions(time_limit=60, maximize=True))


def test_a_chosen_sat_solver_gets_the_sat_stage_s_weight(monkeypatch):
    """With --solver, ``sat`` is one stage, and it weighs what the portfolio's first
    solver does, whichever solver was chosen (the time left after the search is
    split by STAGE_WEIGHTS, the last stage taking all of it)."""
    import hanabi_cp.real.solve as live_solve
    from hanabi_cp.real.solve import STAGE_WEIGHTS
    heavy = STAGE_WEIGHTS[("sat", SAT_PORTFOLIO[0])]
    for solver in ("minisat22", "glucose4"):
        asked: list[tuple[str, float]] = []

        def undecided(m, start, options, asked=asked):
            asked.append((m.name, options.time_limit))
            return LiveOutcome(Status.UNKNOWN, reason="gave up (test)")

        monkeypatch.setattr(live_solve, "_run", undecided)
        monkeypatch.setattr(race, "ENABLED", False)   # the sequential portfolio
        solve_live(standard_deck(1), Rules.for_players(3),
                   options=SolveOptions(time_limit=10, solver=solver))
        names = [name for name, _ in asked]
        assert names[:3] == ["search", "sat", "cpsat"], names
        left = 10.0        # the mock returns at once: the search's share passes on
        assert asked[1][1] == pytest.approx(left * heavy / (heavy + len(asked) - 2), abs=0.2)
        assert asked[-1][1] == pytest.approx(left, abs=0.2)
