"""The post-mortem's "why" and "what instead", checked against brute force.

Every argument of ``drop_reasons`` is a proof of an upper bound on the best score of
a position: on many random positions of tiny decks each bound is at least the
exact best score (brute force), and a drop's reason has a kind other than
``other`` only when its bound is the new best score.  Every action of a drop's
``keep``, applied at the position before it, still reaches the previous best
score by brute force, the action taken is never in it, and every other legal
action falls short."""

from __future__ import annotations

import collections
import random

import pytest

from hanabi_cp.apps.generators import random_deck
from hanabi_cp.real.postmortem import drop_reasons as dr
from hanabi_cp.real.actions import Action, Kind
from hanabi_cp.real.postmortem.alternatives import every_legal_action, instead_text, keeps, slot_of
from hanabi_cp.real.methods.brute import BestScore
from hanabi_cp.real.postmortem.report import PLAYER_NAMES, analyze
from hanabi_cp.real.referee import Game
from hanabi_cp.real.rules import Rules
from hanabi_cp.real.variants.catalogue import variant
from hanabi_cp.core.model import Deck

NAMES = PLAYER_NAMES


def best(g: Game) -> int:
    return BestScore(g).value(g.copy())


# hanab.live's rule-changing families, on decks of at most 3 colors
FAMILIES = ("Reversed (3 Suits)", "Alternating Clues (3 Suits)", "Orange (3 Suits)",
            "Throw It in a Hole (4 Suits)", "Clue Starved (5 Suits)")


def random_rules(rng: random.Random) -> Rules:
    options = rng.choice([{}, {}, {}, {"deck_plays": True}, {"all_or_nothing": True},
                          {"early_ends": False}, {"first_player": 1},
                          {"last_turn_unplayable": False},
                          *({"variant": variant(name)} for name in FAMILIES)])
    return Rules.for_players(rng.randint(2, 3), rng.randint(1, 3), rng.choice([1, 2, 3, 8, None]),
                             rng.choice([1, 2, 3]), **options)


def random_positions(seed: int, count: int):
    """(exact best score, position) pairs: random legal play from the deal of tiny
    decks (one brute force per deal, whose memo serves its positions)."""
    rng = random.Random(seed)
    while count > 0:
        deck = random_deck(rng, rng.randint(2, 4), rng.randint(1, 3), 2,
                           p_missing=rng.choice([0, 0, 0.1]))
        if deck.N > 10:
            continue
        rules = random_rules(rng)
        g = Game.start(deck, rules)
        oracle = BestScore(g)
        while True:
            count -= 1
            yield oracle.value(g.copy()), g
            if g.over:
                break
            g = g.copy()
            g.apply(rng.choice(every_legal_action(g)))


def test_every_argument_bounds_the_exact_best_score():
    fired: collections.Counter = collections.Counter()
    for exact, g in random_positions(1, 1500):
        for r in dr.arguments(g, NAMES):
            assert r.kind in dr.KINDS
            assert r.bound >= exact, (str(g.deck), g.rules, r)
            fired[r.kind, r.bound == exact] += 1
    # each kind proved the exact best somewhere (the test is not vacuous)
    for kind in ("last_copy", "too_late", "pace", "strikes"):
        assert fired[kind, True], fired


def test_last_draws_bound_against_brute_force():
    """``last_draws`` (the search's relaxation of the last turns) on positions near
    the end of tiny decks, reached by plays and many clues: where tokens run short."""
    rng = random.Random(5)
    fired: collections.Counter = collections.Counter()
    for _ in range(800):
        deck = random_deck(rng, rng.randint(2, 3), rng.randint(2, 3), 2, exact_copies=True)
        if deck.N > 12:
            continue
        rules = Rules.for_players(rng.randint(2, 3), rng.randint(1, 2), rng.choice([2, 3]))
        g = Game.start(deck, rules)
        stop = deck.N - rng.randint(1, 3)
        while not g.over and g.drawn < stop:
            acts = every_legal_action(g)
            plays = [a for a in acts if a.kind is Kind.PLAY
                     and g.piles[g.card(a.target)[1] - 1] + 1 == g.card(a.target)[0]]
            clues = [a for a in acts if a.is_clue]
            g.apply(rng.choice(clues) if clues and rng.random() < 0.5 else
                    rng.choice(plays or acts))
        if g.over:
            continue
        r = dr.last_draws(g, NAMES)
        if r is not None:
            exact = best(g)
            assert r.bound >= exact, (str(deck), rules, r)
            fired[r.kind, r.bound == exact] += 1
    assert fired["tokens", True], fired


def drop_games(seed: int, count: int):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        deck = random_deck(rng, rng.randint(2, 3), rng.randint(2, 3), 2, exact_copies=True)
        if deck.N > 12:
            continue
        rules = random_rules(rng)
        g, actions = Game.start(deck, rules), []
        while not g.over:
            act = rng.choice(list(every_legal_action(g)))
            g.apply(act)
            actions.append(act)
        out.append((deck, rules, actions))
    return out


def check_drops(games) -> collections.Counter:
    """Each drop's reason and keep against brute force; the reasons' kinds."""
    kinds: collections.Counter = collections.Counter()
    for deck, rules, actions in games:
        pm = analyze(deck, rules, actions, method="search")
        oracle = BestScore(Game.start(deck, rules))        # one memo for the game
        for d in pm.drops:
            before = Game.after(deck, rules, actions[:d.position - 1])
            after = Game.after(deck, rules, actions[:d.position])
            taken = actions[d.position - 1]
            kinds[d.reason_kind] += 1
            bounds = {r.bound for r in dr.arguments(after, NAMES)}
            if d.reason_kind != "other":
                assert d.after in bounds and d.reason
            else:
                assert d.after not in bounds and "--refutations" in d.reason
            assert taken not in d.keep and not d.undecided
            if taken.is_clue:
                assert not any(a.is_clue for a in d.keep)
            for act in every_legal_action(before):
                h = before.copy()
                h.apply(act)
                reaches = oracle.value(h) >= d.before
                assert (act in d.keep) == (reaches and act != taken), (str(deck), rules, act)
            assert d.keep, "the best score of a position is that of some action"
    return kinds


def test_reasons_and_keeps_of_drops_against_brute_force():
    kinds = check_drops(drop_games(2, 30))
    assert kinds["last_copy"] and kinds["pace"] and kinds["strikes"], kinds


@pytest.mark.slow
def test_reasons_and_keeps_of_many_drops_against_brute_force():
    kinds = check_drops(drop_games(1002, 400))
    assert all(kinds[k] for k in ("last_copy", "too_late", "pace", "strikes")), kinds


# ---- one hand-made position per kind ------------------------------------------------

def _game(cards, players=2, hand=2, clues=8, strikes=3, actions=()):
    deck = Deck.of(cards)
    rules = Rules.for_players(players, hand, clues, strikes)
    return deck, rules, list(actions)


def _drop(deck, rules, actions):
    pm = analyze(deck, rules, actions)
    assert pm.drops, [r.best for r in pm.rows]
    return pm.drops[-1]


def test_last_copy():
    # y2 (#3) has one copy: Bob discards it (after Alice's clue: tokens to discard)
    deck, rules, actions = _game([(1, 1), (2, 1), (1, 2), (2, 2), (1, 1), (1, 2)], clues=1,
                                 actions=[Action.rank_clue(1, 1), Action.discard(3)])
    d = _drop(deck, rules, actions)
    assert (d.before, d.after, d.reason_kind) == (4, 3, "last_copy")
    assert d.reason == "the last y2 is discarded, so y2 can no longer be played"
    assert Action.play(2) in d.keep and Action.discard(3) not in d.keep


def test_too_late_the_other_copy_is_the_decks_last_card():
    # Alice r1 r2, Bob r1 r3, the deck y1 y1 r2: once Alice discards her r2, the other
    # r2 is the deck's last card, so r3 cannot follow it
    cards = [(1, 1), (2, 1), (1, 1), (3, 1), (1, 2), (1, 2), (2, 1)]
    deck, rules, actions = _game(cards, clues=2, actions=[
        Action.rank_clue(1, 1), Action.rank_clue(0, 1), Action.discard(1)])
    d = _drop(deck, rules, actions)
    assert (d.before, d.after, d.reason_kind) == (4, 3, "too_late")
    assert d.reason.startswith("the other r2 is the deck's last card: drawn last, it can be "
                               "played on the game's last turn at the earliest, so r3 cannot "
                               "follow it; already out of reach: y2, y3 (the deck has no y2)")
    assert d.keep == (Action.play(0), Action.discard(0))
    assert d.instead == "Alice plays slot 2 (r1), or discards slot 2 (r1)"


def test_too_late_held_by_a_player_with_no_turn_left():
    # every card dealt: 3 turns; Bob's clue leaves his y1 with no turn to play it
    deck, rules, actions = _game([(1, 1), (2, 1), (1, 2), (2, 2)],
                                 actions=[Action.play(0), Action.rank_clue(0, 2)])
    d = _drop(deck, rules, actions)
    assert (d.before, d.after, d.reason_kind) == (3, 2, "too_late")
    assert d.reason == ("the y1 left is held by Bob, who has no turn left, so y1, y2 can "
                        "no longer be played")
    assert d.keep == (Action.play(2),)


def test_pace_a_clue_wastes_a_turn():
    deck, rules, actions = _game([(1, 2), (2, 2), (2, 1), (1, 2), (2, 2), (2, 1), (1, 1),
                                  (1, 1)], clues=2,
                                 actions=[Action.play(0), Action.play(3), Action.play(4),
                                          Action.play(5), Action.rank_clue(1, 1)])
    d = _drop(deck, rules, actions)
    assert (d.before, d.after, d.reason_kind) == (4, 3, "pace")
    assert d.reason == "not enough turns left: 2 cards still to play (r1, r2), but only 1 turn is left"
    assert d.instead == "Alice plays slot 1 (r1)"


def test_tokens_the_last_token_spent_on_a_clue():
    # Bob's clue spends the last token: with none, y1 and y2 cannot both wait
    deck, rules, actions = _game([(1, 1), (2, 1), (2, 2), (2, 2), (1, 2), (2, 1), (1, 1),
                                  (1, 2)], clues=2,
                                 actions=[Action.rank_clue(1, 2), Action.play(2),
                                          Action.play(0), Action.rank_clue(0, 2),
                                          Action.play(1), Action.rank_clue(0, 2)])
    d = _drop(deck, rules, actions)
    assert (d.before, d.after, d.reason_kind) == (4, 3, "tokens"), d.reason
    assert "with 0 of 2 clue tokens at most 1 of the 2 cards still to play (y1, y2)" in d.reason
    assert d.keep == (Action.play(4),) and d.instead == "Bob plays slot 1 (y1)"


def test_keep_lists_every_legal_clue_and_names_slots():
    deck = Deck.of([(1, 1), (2, 2), (1, 2), (3, 1), (2, 1), (3, 2), (1, 1), (1, 2)])
    rules = Rules.for_players(2, 3)
    g = Game.start(deck, rules)
    assert g.hands[1] == [3, 4, 5]
    assert [slot_of(g, o) for o in g.hands[1]] == [3, 2, 1]     # the newest is slot 1
    clues = [a for a in every_legal_action(g) if a.is_clue]
    assert sorted(clues) == sorted([Action.rank_clue(1, 2), Action.rank_clue(1, 3),
                                    Action.color_clue(1, 0), Action.color_clue(1, 1)])
    keep = keeps(g, Action.discard(2), best(g))
    assert set(clues) <= set(keep.actions)
    text = instead_text(g, keep.actions, NAMES)
    assert text == ("Alice plays slot 1 (y1), or plays slot 3 (r1), or clues Bob (2s, 3s, red "
                    "or yellow)")


def test_a_variant_names_its_suits_and_clues():
    """Rainbow: the fifth suit is m (touched by every color clue, no clue of its own)."""
    rules = Rules.for_players(2, 2, 1, variant=variant("Rainbow (5 Suits)"))
    # Alice r1 m1, Bob m2 y1, the deck r2 m1: Alice clues, Bob discards the only m2
    deck = Deck.of([(1, 1), (1, 5), (2, 5), (1, 2), (2, 1), (1, 5)], 2, 5)
    pm = analyze(deck, rules, [Action.color_clue(1, 1), Action.discard(2)])
    d = pm.drops[-1]
    assert (d.before, d.after, d.reason_kind) == (4, 3, "pace")
    assert d.reason.startswith("not enough turns left: 4 cards still to play (r1, r2, y1, m1), "
                               "but only 3 turns can play one: 1 card in the deck, then the "
                               "final round's 2 turns") and "m2 (the last m2 is lost)" in d.reason
    g = Game.start(deck, rules)
    clues = [instead_text(g, [a], NAMES) for a in every_legal_action(g) if a.is_clue]
    # Bob's m2 and y1: 1s, 2s, and every color (each touches the rainbow m2)
    assert clues == ["Alice clues Bob 1s", "Alice clues Bob 2s", "Alice clues Bob red",
                     "Alice clues Bob yellow", "Alice clues Bob green", "Alice clues Bob blue"]


def test_analyze_json_and_text_carry_reasons_and_alternatives(tmp_path):
    import json

    from click.testing import CliRunner

    from hanabi_cp.cli import main
    from hanabi_cp.apps.generators import standard_deck
    from hanabi_cp.real.replay_io import replay_json
    from hanabi_cp.players.game import play_game
    deck, rules = standard_deck(1), Rules.for_players(5)
    game = play_game(deck, rules, "recommendation", 1)
    path = tmp_path / "game.json"
    path.write_text(replay_json(deck, rules, list(game.actions)))
    res = CliRunner().invoke(main, ["analyze", str(path), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["drops"]
    for drop in data["drops"]:
        row = data["rows"][drop["position"]]
        assert drop["reason_kind"] in dr.KINDS and drop["reason"] and drop["keep"]
        assert row["reason"] == drop["reason"] and row["keep"] == drop["keep"]
        taken = Action.from_json(game.actions[drop["position"] - 1].to_json())
        keep = [Action.from_json(a) for a in drop["keep"]]
        assert taken not in keep
        before = Game.after(deck, rules, game.actions[:drop["position"] - 1])
        for act in keep:       # each is legal there and keeps the best (the search, again)
            h = before.copy()
            h.apply(act)
            from hanabi_cp.real.solve import solve_position
            from hanabi_cp.core.options import SolveOptions
            assert solve_position(h, "search", SolveOptions(maximize=True)).score == drop["before"]
    res = CliRunner().invoke(main, ["analyze", str(path)])
    lines = res.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("c lost: "))
    why = next(i for i, line in enumerate(lines) if line.startswith("c   why ("))
    assert at < why <= at + 2 and lines[why + 1].startswith("c   instead: ")
