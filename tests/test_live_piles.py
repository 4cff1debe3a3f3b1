"""Up or Down and Sudoku in the referee: each rule against a hand-worked game, as
hanab.live's server plays it (server/src/variants_reversible.go, variants_sudoku.go,
game_player.go PlayCard, game.go CheckEnd).

The games are two players holding one card each, so the deck lists the cards in the
order the players take them: player 0 holds #0, player 1 #1, each draws the next.
In an Up or Down deck the value 6 is START (encodings/variants.md, 8)."""

from __future__ import annotations

import re

import pytest

from hanabi_cp.real.actions import Action
from hanabi_cp.real.referee import NOTHING_PLAYABLE, Game, IllegalMove
from hanabi_cp.real.rules import Rules
from hanabi_cp.real.variants.catalogue import START, variant
from hanabi_cp.core.model import Deck

P, D = Action.play, Action.discard
UP = variant("Up or Down (5 Suits)")
SU = variant("Sudoku (5 Suits)")
S = 6                                  # START in an Up or Down deck of stack size 5


def game(v, cards, actions, c=1, clues=8):
    deck = Deck.of([(a, k) for a, k in cards], n=v.deck_n, c=c)
    return Game.after(deck, Rules.for_players(2, hand_size=1, clues=clues, variant=v), actions)


def in_order(v, values, pad=False):
    """Every card of ``values`` (of color 1) played in deck order; with ``pad``, a
    color 2 pile of 1..5 follows in the deck, so that the game goes on."""
    extra = [(a, 2) for a in (1, 2, 3, 4, 5)] if pad else []
    return game(v, [(a, 1) for a in values] + extra, [P(i) for i in range(len(values))],
                2 if pad else 1)


@pytest.mark.parametrize("values, played", [
    ((1, 2, 3, 4, 5), (1, 2, 3, 4, 5)),
    ((S, 2, 3, 4, 5), (START, 2, 3, 4, 5)),
    ((5, 4, 3, 2, 1), (5, 4, 3, 2, 1)),
    ((S, 4, 3, 2, 1), (START, 4, 3, 2, 1)),
])
def test_up_or_down_each_way_completes_a_pile(values, played):
    g = in_order(UP, values)
    assert g.played == [played] and g.score == 5 == g.target and g.won and g.strikes == 0
    assert g.over


@pytest.mark.parametrize("values, strike_at", [
    ((3,), 0),           # an empty pile takes 1, 5 or START only
    ((1, S), 1),         # START only on an empty pile
    ((S, 3), 1),         # on START: 2 or 4
    ((1, 5), 1),         # the pile goes up: 2 next
    ((5, 1), 1),         # the pile goes down: 4 next
    ((S, 2, 1), 2),      # START then 2 goes up, never down
])
def test_up_or_down_misplays(values, strike_at):
    assert in_order(UP, values[:strike_at], pad=True).strikes == 0
    g = in_order(UP, values[:strike_at + 1], pad=True)
    assert g.strikes == 1 and g.played[0] == tuple(UP.live_rank(a) for a in values[:strike_at])


def test_up_or_down_next_values_and_card_names():
    g = in_order(UP, (S,), pad=True)
    assert g.next_values(0) == {2, 4} and g.next_values(1) == {1, 5, S}
    assert UP.card_name(UP.live_rank(S), 0) == "Red START" and UP.live_rank(S) == START


def test_completing_a_pile_gives_a_token_back():
    # one token: player 0 clues (0 left), then the pile 1..5 is played; its 5 gives it back
    deck = [(2, 1), (1, 1), (3, 1), (4, 1), (5, 1)]
    g = game(UP, deck, [Action.rank_clue(1, 1), P(1), P(0), P(2), P(3)], clues=1)
    assert g.clues == 0 and not g.over
    g.apply(P(4))
    assert g.clues == 1 and g.won and g.over


def test_up_or_down_max_score_ends_the_game_as_the_server_counts():
    # both 3s misplayed: up from 1 stops at 2, down from 5 stops at 4 (no START in
    # this deck): the server's max score is 2, reached after 1, 2
    g = game(UP, [(a, 1) for a in (3, 3, 1, 2, 4, 5)], [P(0), P(1), P(2), P(3)])
    assert g.strikes == 2 and g.score == 2 and g.max_reachable == 2
    assert g.over and g.cause == "the score reached the best score still reachable"
    assert g.turn == 4 and g.drawn == 6


def test_up_or_down_max_score_walks_from_the_start_card():
    # START played, then its 1 and its 5 misplayed: up from START reaches 4, so does down
    g = in_order(UP, (S, 1, 5), pad=True)
    assert g.strikes == 2 and g.max_reachable == 1 + 5 and not g.over   # no 2, 3, 4 of color 1 here
    g = in_order(UP, (S, 1, 5, 2, 3, 4))
    assert g.played == [(START, 2, 3, 4)] and g.score == 4 == g.max_reachable and g.over


def test_sudoku_start_clash_and_wrap_around():
    g = game(SU, [(3, 1), (3, 2), (4, 2), (4, 1)], [P(0), P(1), P(2), P(3)], c=2)
    assert g.played == [(3, 4), (4,)] and g.strikes == 1     # a second 3 may not start a pile
    g = in_order(SU, (4, 5, 1, 2, 3))
    assert g.played == [(4, 5, 1, 2, 3)] and g.won


def test_sudoku_completing_a_wrapped_pile_gives_a_token_back():
    h = game(SU, [(3, 1), (2, 1), (4, 1), (5, 1), (1, 1), (1, 1)],
             [Action.rank_clue(1, 2), P(1), P(0), P(2), P(3), P(4)], clues=1)
    assert h.played == [(2, 3, 4, 5, 1)] and h.clues == 1 and h.won


def test_sudoku_nothing_playable_ends_the_game_before_the_final_round():
    # the pile starts at 2 once both 3s are discarded: nothing can follow it.  The
    # server counts 2 for it (its sweep gives a start at 2 the run of a start at 1),
    # so the score (1) is below its max score and the rule "nothing playable" ends it
    clue = Action.rank_clue(1, 3)
    g = game(SU, [(2, 1), (3, 1), (3, 1), (4, 1), (5, 1), (1, 1)], [clue, D(1), clue, D(2), P(0)],
             clues=2)
    assert g.played == [(2,)] and g.score == 1 and g.max_reachable == 2
    assert g.over and g.cause == NOTHING_PLAYABLE and g.end_turn is None


def test_sudoku_max_score_assigns_the_free_starts():
    from hanabi_cp.real.variants.pile_score import max_score
    dead = {(0, 1), (0, 2), (1, 4)}
    # suit 0 is best started at 3 (3 cards), suit 1 at 5 (5, 1, 2, 3: 4 cards): a
    # suit without a dead value counts 5 without taking a start
    got = max_score(SU, ((), (), (), (), ()), lambda k, r: (k, r) in dead)
    assert got == 3 + 4 + 15
    assert max_score(SU, ((3,), (), (), (), ()), lambda k, r: (k, r) in dead) == 3 + 4 + 15
    assert max_score(SU, ((5,), (), (), (), ()), lambda k, r: (k, r) in dead) == 1 + 3 + 15


def test_the_referee_refuses_a_misplaced_card_kind_as_before():
    with pytest.raises(IllegalMove, match="does not hold"):
        in_order(UP, (1,), pad=True).apply(P(5))


# ---- brute on tiny decks: against a plain walk of every legal move (no memo) -------

def plain_best(g: Game) -> int:
    if g.over:
        return g.score
    best = -1
    for a in g.legal_actions():
        h = g.copy()
        h.apply(a)
        best = max(best, plain_best(h))
    return best


def tiny_games(v, count, seed):
    import random
    rng = random.Random(seed)
    full = v.model_cards()
    for _ in range(count):
        c = rng.choice((1, 2))
        pool = [card for card in full if card[1] <= c]
        cards = rng.sample(pool, rng.randint(4, 6))
        rules = Rules(2, rng.randint(1, 2), rng.randint(0, 2), rng.randint(1, 3),
                      variant=v, first_player=rng.randrange(2))
        yield Game.start(Deck.of(cards, v.deck_n, c), rules)


@pytest.mark.parametrize("name", ["Up or Down (5 Suits)", "Sudoku (4 Suits)", "Sudoku (5 Suits)"])
def test_brute_answers_exactly_on_tiny_decks(name):
    from hanabi_cp.real.solve import solve_position
    from hanabi_cp.core.options import SolveOptions
    for g in tiny_games(variant(name), 25, hash(name) % 1000):
        out = solve_position(g, "brute", SolveOptions(maximize=True))
        assert out.verified and out.score == plain_best(g), (str(g.deck), g.rules)
        auto = solve_position(g, options=SolveOptions(maximize=True))
        assert auto.method == "search" and auto.verified and auto.score == out.score


def test_auto_runs_every_method_on_the_families_best_score():
    """(search decides them through pile plans: tests/test_pile_plans.py; sat and
    cpsat plan by plan, a win and the best score: tests/test_plan_encodings.py)"""
    from hanabi_cp.real.solve import candidates, live_methods, solve_position
    from hanabi_cp.core.options import SolveOptions
    g = in_order(UP, (), pad=True)
    su = Game.start(Deck.of([(a, k) for k in (1, 2) for a in (1, 2, 3, 4, 5)], 5, 2),
                    Rules.for_players(2, variant=SU))
    every = ["search", "sat", "cpsat", "brute"]
    want = solve_position(su, "search", SolveOptions(maximize=True)).score
    for name in ("sat", "cpsat"):
        out = solve_position(su, name, SolveOptions(maximize=True))
        assert out.verified and out.score == want
        assert live_methods()[name].refuses(g) is None and live_methods()[name].refuses(su) is None
    assert [m.name for m in candidates(su, maximize=True)] == every
    assert [m.name for m in candidates(g, maximize=True)] == every
    assert [m.name for m in candidates(g)] == every
    big = Game.start(Deck.of(SU.model_cards(), SU.deck_n, 5), Rules.for_players(3, variant=SU))
    out = solve_position(big)
    assert out.method == "search" and out.verified


# ---- the CLI: exports in and out, generate, analyze ---------------------------------

def run(args):
    from click.testing import CliRunner
    from hanabi_cp.cli import main
    return CliRunner().invoke(main, [str(a) for a in args])


def test_generate_writes_start_as_the_value_past_the_stack_and_solve_reads_it_back(tmp_path):
    deck = tmp_path / "deck.txt"
    res = run(["generate", "standard", "--variant", "Up or Down (5 Suits)", "--seed", 4,
               "--output", deck])
    assert res.exit_code == 0, res.output
    text = deck.read_text()
    assert "n 6" in text and len(re.findall(r"\b6[a-z]\b", text)) == 5     # the 5 STARTs
    res = run(["solve", deck, "--rules", "live", "--players", 3, "--variant",
               "Up or Down (5 Suits)", "--method", "brute"])
    assert res.exit_code == 2 and "45 cards" in res.stderr


def test_an_export_writes_start_as_rank_7_and_reads_it_back(tmp_path):
    import json
    from hanabi_cp.real.replay_io import parse_replay, replay_json
    v = variant("Up or Down & Black (6 Suits)")
    deck = Deck.of(v.model_cards(), v.deck_n, 6)
    rules = Rules.for_players(2, variant=v)
    text = replay_json(deck, rules, [P(0)])
    ranks = [card["rank"] for card in json.loads(text)["deck"]]
    assert ranks.count(7) == 6 and 6 not in ranks
    back = parse_replay(text)
    assert back.deck == deck


def test_an_export_with_rank_6_in_up_or_down_is_refused_in_one_line(tmp_path):
    import json
    v = variant("Up or Down (5 Suits)")
    deck = [{"suitIndex": k - 1, "rank": v.live_rank(a)} for a, k in v.model_cards()]
    deck[3]["rank"] = 6
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"players": ["A", "B"], "deck": deck, "actions": [],
                                "options": {"variant": v.name}}))
    res = run(["verify", path, path, "--rules", "live"])
    assert res.exit_code == 2 and "ranks 1 to 5, START 7" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_analyze_covers_a_tiny_game_with_brute(tmp_path):
    import json
    from hanabi_cp.real.replay_io import replay_json
    v = variant("Sudoku (4 Suits)")
    deck = Deck.of([(3, 1), (1, 1), (4, 1), (2, 1), (1, 1), (3, 1)], v.deck_n, 1)
    rules = Rules.for_players(2, hand_size=2, variant=v)
    # 3 starts the pile, then 4, 1 (wrapping round), 2: won
    actions = [P(0), P(2), P(1), P(3)]
    path = tmp_path / "g.json"
    path.write_text(replay_json(deck, rules, actions))
    res = run(["verify", path, path, "--rules", "live", "--json", "--any-deck"])
    got = json.loads(res.stdout)
    # (an export's deck has the variant's 4 suits, 3 of them empty here)
    assert got["verified"] and got["score"] == 4 and got["target"] == 16
    res = run(["analyze", path, "--json", "--any-deck"])
    assert res.exit_code == 0, res.output
    pm = json.loads(res.stdout)
    assert pm["final_score"] == 4 and pm["target"] == 16
    assert [r["best"] for r in pm["rows"]] == [4] * len(pm["rows"])


def test_analyze_names_start_and_explains_a_drop_without_the_fixed_order_proofs(tmp_path):
    from hanabi_cp.real.replay_io import replay_json
    deck = Deck.of([(S, 1), (1, 1), (2, 1), (5, 1), (3, 1), (4, 1), (2, 1)], UP.deck_n, 1)
    rules = Rules.for_players(2, hand_size=2, variant=UP, clues=2)
    # Bob discards the only red 5, Alice plays START, Bob plays a 2: the pile goes up
    # and can no longer finish (hanab.live's max score falls from 5 to 4)
    path = tmp_path / "g.json"
    path.write_text(replay_json(deck, rules, [Action.rank_clue(1, 2), D(3), P(0), P(2)]))
    res = run(["analyze", path, "--any-deck"])
    assert res.exit_code == 0, res.output
    assert "Alice plays slot 2 (r START)" in res.stdout
    assert "Bob discards slot 1 (r5), the last copy" in res.stdout
    assert "why (other): no short argument explains the whole drop (4 -> 3): the piles choose" in res.stdout


@pytest.mark.parametrize("name, words", [("Up or Down (5 Suits)", "each pile goes up or down"),
                                         ("Sudoku (4 Suits)", "each pile starts at a rank of its own")])
def test_the_strategies_refuse_the_families_in_one_line(tmp_path, name, words):
    deck = tmp_path / "deck.txt"
    assert run(["generate", "standard", "--variant", name, "--seed", 1, "--output", deck]).exit_code == 0
    res = run(["play", deck, "--variant", name, "--players", 3])
    assert res.exit_code == 2 and words in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_a_text_deck_with_hanab_lives_rank_7_is_refused_in_one_line(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("n 7\nc 1\n1r 7r 2r\n")
    res = run(["solve", deck, "--rules", "live", "--players", 2, "--hand-size", 1,
               "--variant", "Up or Down (5 Suits)", "--any-deck"])
    assert res.exit_code == 2 and "values 1 to 6, START as 6" in res.stderr
    deck.write_text("n 6\nc 1\n1r 6r 2r\n")
    res = run(["solve", deck, "--rules", "live", "--players", 2, "--hand-size", 1,
               "--variant", "Up or Down (5 Suits)", "--any-deck", "--maximize"])
    assert res.exit_code == 20 and "c score: 2 of 5" in res.stdout      # 1, then 2; START stranded
