"""The real-rules CP-SAT model (method cpsat) and CNF encoding (method sat) against
the brute-force oracle and the exact search on random tiny decks: the same decision,
the same best score, every certificate replayed by the referee (solve_live); and
completeness directly: every legal complete game is a solution of both models."""

import random

import pytest

from hanabi_cp.core.errors import HanabiError
from hanabi_cp.io import deck_to_text
from hanabi_cp.apps.generators import standard_deck
from hanabi_cp.real.encoders.cnf import LiveCnf
from hanabi_cp.real.encoders.cpsat import LiveCpModel
from hanabi_cp.real.referee import Game, replay
from hanabi_cp.real.rules import Rules
from hanabi_cp.real.encoders.schedule import first_legal_game, from_actions, to_actions
from hanabi_cp.real.solve import solve_live
from hanabi_cp.core.model import Deck
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.status import Status
from live_cases import assert_encodings_accept, random_deck
from test_cli import LOSE, run

METHODS = ("cpsat", "sat")
MAX = SolveOptions(maximize=True)


def random_case(rng: random.Random, max_cards: int) -> tuple[Deck, Rules]:
    """A tiny deck (live_cases.random_deck) and rules with 2-3 players, H 1-2, 0-3 or
    unlimited tokens, 1-3 strikes, mostly with the final round."""
    deck = random_deck(rng, max_cards)
    rules = Rules(rng.randint(2, 3), rng.randint(1, 2), rng.choice([0, 1, 2, 3, None]),
                  rng.randint(1, 3), rng.random() < 0.75)
    return deck, rules


def check_against_oracles(seed: int, count: int, max_cards: int) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        deck, rules = random_case(rng, max_cards)
        best = solve_live(deck, rules, "brute", MAX)
        fast = solve_live(deck, rules, "search", MAX)
        assert fast.score == best.score, f"search on {deck.cards} with {rules}"
        for method in METHODS:
            what = f"{method} on {deck.cards} (n={deck.n}, c={deck.c}) with {rules}"
            decided = solve_live(deck, rules, method)
            assert decided.status is best.status, what
            assert decided.verified or decided.status is Status.UNWINNABLE, what
            out = solve_live(deck, rules, method, MAX)
            assert out.verified and out.score == best.score, what
            assert out.status is best.status, what


def test_equal_to_brute_force_and_search_on_random_tiny_decks():
    check_against_oracles(seed=14, count=200, max_cards=7)


def test_cpsat_second_run_with_presolve_gives_the_same_answers(monkeypatch):
    """With no time for the first run, every answer comes from the presolved one."""
    import hanabi_cp.real.encoders.cpsat as cpmodel

    monkeypatch.setattr(cpmodel, "FAST_SECONDS", 0.0)
    rng = random.Random(41)
    for _ in range(30):
        deck, rules = random_case(rng, 7)
        best = solve_live(deck, rules, "brute", MAX)
        decided = solve_live(deck, rules, "cpsat")
        out = solve_live(deck, rules, "cpsat", MAX)
        assert decided.status is best.status and out.score == best.score, (deck.cards, rules)
        assert out.stats.get("cpsat_phase") == "presolved" or out.actions == []


@pytest.mark.slow
def test_equal_to_brute_force_and_search_on_thousands_of_tiny_decks():
    check_against_oracles(seed=1400, count=2000, max_cards=9)


D = Deck.of
EDGE_CASES = [
    # the deal empties the deck: p + 1 turns, player 0 moves twice (plays 1, 2)
    (D([(1, 1), (2, 1), (3, 1), (4, 1)]), Rules(2, 2), 2),
    # one card each: in the final round the last mover may have nobody to clue
    (D([(1, 1), (1, 2), (2, 1), (2, 2), (3, 1)], n=3, c=2), Rules(2, 1), 5),
    # no tokens at all: every turn is a play or a misplay
    (D([(2, 1), (1, 1), (2, 1), (1, 1)]), Rules(2, 1, clues=0, strikes=2), 2),
    # one strike allowed and only unplayable cards: every complete game scores 0
    (D([(2, 1), (2, 1)], n=2, c=1), Rules(2, 1, clues=0, strikes=1), 0),
    # no final round and unlimited clues: a player with an empty hand passes
    (D([(2, 1), (1, 1), (3, 1)]), Rules(3, 1, clues=None, final_round=False), 3),
    # no final round: the best game ends with player 0 stuck (no card, no token)
    # while player 1 still holds the 3 (a misplay strikes out)
    (D([(1, 1), (3, 1), (2, 1)]), Rules(3, 1, clues=1, strikes=1, final_round=False), 2),
    # unlimited tokens, the deal empties the deck: p + 1 clues are a complete game
    (D([(2, 1), (2, 1)], n=2, c=1), Rules(2, 1, clues=None, strikes=1), 0),
]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("deck,rules,best", EDGE_CASES)
def test_edge_cases_of_the_rules(method, deck, rules, best):
    assert solve_live(deck, rules, "brute", MAX).score == best
    won = best == deck.target
    assert (solve_live(deck, rules, method).status is Status.WINNABLE) == won
    out = solve_live(deck, rules, method, MAX)
    assert out.verified and out.score == best


def test_first_legal_game_is_complete():
    deck, rules = D([(2, 1), (2, 1), (1, 1)], n=2, c=1), Rules(3, 1, clues=None, final_round=False)
    rep = replay(deck, rules, first_legal_game(Game.start(deck, rules)))
    assert rep.legal and rep.complete


def canonical_runs(runs: list[int], rules: Rules) -> list[int]:
    """With unlimited tokens a run of more than p + 1 clues loses p of them at a
    time (encodings/live-cpsat.md, §2); only runs before the last draw are that long."""
    if rules.clues is not None:
        return runs
    p = rules.players
    return [r if r <= p + 1 else (r - 1) % p + 1 for r in runs]


def random_games(rng: random.Random, deck: Deck, rules: Rules, count: int):
    """Complete games of random legal moves (given up after 60 moves)."""
    for _ in range(count):
        g, acts = Game.start(deck, rules), []
        while not g.over and len(acts) < 60:
            act = rng.choice(list(g.legal_actions()))
            g.apply(act)
            acts.append(act)
        if g.over:
            yield acts, g


def test_every_legal_game_is_a_solution_of_both_models():
    """Completeness, directly: a random complete game that does not strike out,
    read as slots, fates and runs, satisfies the maximize models with its score;
    a winning one also satisfies the decision models."""
    rng = random.Random(7)
    checked = wins = 0
    for _ in range(60):
        deck, rules = random_case(rng, 7)
        for acts, g in random_games(rng, deck, rules, 2):
            if g.strikes >= rules.strikes or not acts:
                continue
            deal = Game.start(deck, rules)
            order, fates, runs = from_actions(deal, acts)
            runs = canonical_runs(runs, rules)
            rep = replay(deck, rules, to_actions(deal, order, fates, runs))
            assert rep.legal and rep.complete and rep.score == g.score
            assert_encodings_accept(deal, order, fates, runs, g.score, g.won,
                                    (deck.cards, rules, [str(a) for a in acts]))
            checked += 1
            wins += g.won
    assert checked > 60 and wins > 3


def test_models_are_not_a_time_by_card_grid():
    """About one literal per card and slot it may leave at, plus a constant per slot
    (tokens, runs, movers, piles); no per-turn hand state."""
    deck, rules = standard_deck(3), Rules.for_players(3)
    deal = Game.start(deck, rules)
    cp, cnf = LiveCpModel(deal, False), LiveCnf(deal)
    assert cp.stats["slots"] == deck.N - 15 + 3
    # the CNF's pace counter (encodings/live-cnf.md §5) adds about 3,500 of its own
    assert cp.stats["variables"] < 4000 and cnf.stats["variables"] < 11000


@pytest.mark.parametrize("method", METHODS)
def test_time_limit_gives_unknown(method):
    deck, rules = standard_deck(5), Rules.for_players(2)
    for maximize in (False, True):
        out = solve_live(deck, rules, method, SolveOptions(time_limit=0, maximize=maximize))
        assert out.status is Status.UNKNOWN and "time limit" in out.reason


@pytest.mark.parametrize("method", METHODS)
def test_too_many_tokens_are_refused_in_one_line(method):
    with pytest.raises(HanabiError, match=r"^real-rules method .* does not apply: at most "
                                          r"32 clue tokens[^\n]*$"):
        solve_live(D([(1, 1), (2, 1)]), Rules(2, 1, clues=40), method)


@pytest.mark.parametrize("method", METHODS)
def test_huge_decks_are_refused_before_building(method):
    deck = Deck.of([(1, 1)] * 1500, n=1, c=1)
    with pytest.raises(HanabiError, match=r"does not apply: 1,1\d\d,\d\d\d card-slot literals "
                                          r"\(limit 1,000,000\)[^\n]*; use search$"):
        solve_live(deck, Rules.for_players(2), method)


@pytest.mark.parametrize("method", METHODS)
def test_cli_solves_with_each_encoding(method, tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text(deck_to_text(D([(1, 1), (1, 2), (2, 1), (2, 2)])))
    res = run(["solve", deck, "--rules", "live", "--players", 2, "--hand-size", 1,
               "--method", method, "--maximize"])
    assert res.exit_code == 10, res.output
    assert f"c method: {method}" in res.output and "s WINNABLE" in res.output
    assert "certificate verified by the referee" in res.output


@pytest.mark.parametrize("method", METHODS)
def test_cli_refusal_is_one_line(method):
    res = run(["solve", LOSE, "--rules", "live", "--players", 2, "--clues", 40,
               "--method", method])
    assert res.exit_code == 2
    assert res.stderr.strip().count("\n") == 0
    assert "does not apply: at most 32 clue tokens" in res.stderr


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_shuffled_standard_decks_agree_with_search(players):
    rules = Rules.for_players(players)
    for seed in range(3):
        deck = standard_deck(seed)
        want = solve_live(deck, rules, "search").status
        for method in METHODS:
            assert solve_live(deck, rules, method).status is want
