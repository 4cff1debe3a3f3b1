"""hanab.live's rule-changing variant families (encodings/variants.md, 7) on tiny decks:
from the deal and from positions reached by random legal play, search, sat and cpsat
agree with brute force on the answer and the best score, every certificate replays
from the position, and each family's rule changes some answer (the rule is not
idle on the sample)."""

from __future__ import annotations

import functools
import json
import random
from dataclasses import replace

import pytest

from hanabi_cp.real.actions import Action
from hanabi_cp.real.referee import Game, IllegalMove, replay
from hanabi_cp.real.rules import Rules, RulesError
from hanabi_cp.real.solve import live_methods, solve_position
from hanabi_cp.real.variants.catalogue import Variant, all_variants, derive_clue_colors, variant
from hanabi_cp.core.model import Deck
from hanabi_cp.core.options import SolveOptions
from hanabi_cp.core.status import Status

from test_live_positions import check



def _flag(field: str) -> tuple:
    return (lambda v: getattr(v, field), lambda v: replace(v, **{field: False}))


def _uninverted(v: Variant) -> Variant:
    return replace(v, suits=tuple(replace(s, inverted=False) for s in v.suits))


def _unreversed(v: Variant) -> Variant:
    return replace(v, suits=tuple(replace(s, reversed=False) for s in v.suits))


# Per family: which variants are its members, and the variant without the family's
# rule (the counterpart that shows the rule is not idle on the sample).
FAMILIES = {
    "Throw It in a Hole": _flag("throw_it_in_a_hole"),
    "Clue Starved": _flag("clue_starved"),
    "Orange": (lambda v: v.discard_at_max, _uninverted),
    "Alternating Clues": (lambda v: v.alternating_clues and v.one_type_touches() is None,
                          lambda v: replace(v, alternating_clues=False)),
    "Alternating Clues, one type": (lambda v: v.alternating_clues and v.one_type_touches() is not None,
                                    lambda v: replace(v, alternating_clues=False)),
    "Reversed": (lambda v: any(s.reversed for s in v.suits), _unreversed),
}
# Random positions per family, deals where the rule changes the best score, and how
# many of the sample sat and cpsat take (the first ENCODED).
COUNT = 150
BITING = 25
ENCODED = 60


@functools.cache
def members(family: str) -> tuple[Variant, ...]:
    member = FAMILIES[family][0]
    return tuple(v for v in all_variants() if member(v) and v.unsupported() is None)


def tiny_variant(v: Variant, c: int) -> Variant:
    """``v`` on its last c suits (so a tiny deck holds its special suit), rules kept."""
    suits = v.suits[-c:]
    return replace(v, suits=suits, clue_colors=derive_clue_colors(suits))


def tiny_position(rng: random.Random, family: str) -> Game:
    """A tiny deck of a random member of the family, random options, and a position a
    few random legal moves after the deal."""
    while True:
        n, c = rng.randint(1, 3), rng.randint(1, 3)
        cards = [(a, k) for a in range(1, n + 1) for k in range(1, c + 1)
                 for _ in range(rng.randint(1, 2))]
        if len(cards) <= 8:
            break
    rng.shuffle(cards)
    deck = Deck.of(cards, n, c)
    while True:         # (an Orange or reversed suit may not be among the last c, a
        # colour clue may touch none of them)
        v = tiny_variant(rng.choice(members(family)), c)
        if FAMILIES[family][0](v) and v.unsupported() is None:
            break
    flags = {name: rng.random() < 0.15 for name in ("empty_clues", "speedrun", "all_or_nothing")}
    flags["deck_plays"] = rng.random() < 0.15 and not v.discard_at_max
    flags["early_ends"] = rng.random() < 0.85
    players = rng.randint(2, 3)
    # (unlimited tokens are refused where one clue type alone touches a card)
    clues = rng.choice([0, 1, 2, 3] if family == "Alternating Clues, one type" else [0, 1, 2, 3, None])
    rules = Rules(players, rng.randint(1, 2), clues, rng.randint(1, 3),
                  final_round=rng.random() < 0.85, first_player=rng.randrange(players),
                  variant=v, **flags)
    g = Game.start(deck, rules)
    for _ in range(rng.randint(0, 4)):
        moves = list(g.legal_actions())
        if not moves:
            break
        g.apply(rng.choice(moves))
    return g


@functools.cache
def oracle(family: str, seed: int = 45, count: int = COUNT) -> list:
    """(position, brute force's best) for the deals where the rule changes the best
    score (``biting``), then ``count`` random positions."""
    rng = random.Random(seed)
    out = [] if family == "Alternating Clues" else list(biting(family))
    for _ in range(count):
        g = tiny_position(rng, family)
        out.append((g, solve_position(g, "brute", SolveOptions(maximize=True))))
    return out


@functools.cache
def biting(family: str, seed: int = 4500, most: int = BITING, scan: int = 5000) -> list:
    """Up to ``most`` deals (of the first ``scan`` random ones) whose best score under
    the variant differs from that under the variant without the family's rule, with
    brute force's best under the variant: where a method that ignored the rule errs."""
    rng, without, out = random.Random(seed), FAMILIES[family][1], []
    for _ in range(scan):
        g = tiny_position(rng, family)
        g = Game.start(g.deck, g.rules)
        v = g.rules.variant
        assert v is not None
        best = solve_position(g, "brute", SolveOptions(maximize=True))
        plain = Game.start(g.deck, replace(g.rules, variant=without(v)))
        if solve_position(plain, "brute", SolveOptions(maximize=True)).score != best.score:
            out.append((g, best))
            if len(out) == most:
                break
    return out


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_the_sample_has_both_answers_and_positions(family):
    sample = oracle(family)
    assert {out.status for _, out in sample} == {Status.WINNABLE, Status.UNWINNABLE}
    assert sum(g.turn > 0 for g, _ in sample) > len(sample) // 3
    for g, out in sample:
        if out.actions is not None:
            rep = replay(g.deck, g.rules, out.actions, g)
            assert rep.legal and rep.complete and rep.score == out.score


@pytest.mark.parametrize("family", sorted(set(FAMILIES) - {"Alternating Clues"}))
def test_the_rule_changes_some_best_scores(family):
    assert len(biting(family)) >= 10


@pytest.mark.slow
@pytest.mark.parametrize("method", ["search", "sat", "cpsat"])
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_method_equals_brute_on_more_positions(family, method):
    sample = oracle(family, seed=1045, count=800)
    assert check(method, sample if method == "search" else sample[:250]) > 0


def test_alternating_clues_changes_no_best_score_but_every_clue_type_is_checked():
    # encodings/variants.md, 7.4: where every card that a clue touches is touched by
    # a clue of each type, the rule changes no best score; the certificates must
    # still alternate (the referee refuses two clues of one type in a row), and the
    # sample's certificates give such clues
    assert biting("Alternating Clues", scan=600) == []
    in_a_row = 0
    for i, (g, _) in enumerate(oracle("Alternating Clues")):
        for method in ("search", "sat", "cpsat", "brute"):
            if live_methods()[method].refuses(g) is not None or i >= ENCODED and method != "search":
                continue
            out = solve_position(g, method, SolveOptions(maximize=True))
            clues = [a for a in out.actions or [] if a.is_clue]
            in_a_row += len(clues) >= 2
            assert replay(g.deck, g.rules, out.actions or [], g).legal
    assert in_a_row > 20
    with pytest.raises(IllegalMove, match="previous clue was a rank clue"):
        deck = Deck.of([(1, 1), (2, 1), (1, 2), (2, 2)], 2, 2)
        g = Game.start(deck, Rules.for_players(2, hand_size=2, variant=variant("Alternating Clues (3 Suits)")))
        g.apply(Action.rank_clue(1, 1))
        g.apply(Action.rank_clue(0, 1))


@pytest.mark.parametrize("method", ["search", "sat", "cpsat"])
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_method_equals_brute(family, method):
    sample = oracle(family)
    assert check(method, sample if method == "search" else sample[:ENCODED]) > 0


def the_red_pile_completed(rules: Rules) -> Game:
    """Two clues, then 1:1 and 2:1 played: the red pile (top value 2) complete."""
    deck = Deck.of([(1, 1), (1, 2), (2, 1), (2, 2), (1, 1), (1, 2)], 2, 2)
    g = Game.start(deck, rules)
    for act in (Action.rank_clue(1, 2), Action.rank_clue(0, 1), Action.play(0), Action.play(2)):
        g.apply(act)
    assert g.piles == [2, 0]
    return g


def test_throw_it_in_a_hole_gives_no_token_for_a_completed_pile():
    v = variant("Throw It in a Hole (4 Suits)")
    rules = Rules.for_players(2, hand_size=2, clues=2, variant=v)
    assert the_red_pile_completed(rules).clues == 0
    assert the_red_pile_completed(replace(rules, variant=replace(v, throw_it_in_a_hole=False))).clues == 1


def test_clue_starved_counts_half_tokens():
    v = variant("Clue Starved (5 Suits)")
    deck = Deck.of([(1, 1), (2, 1), (1, 2), (2, 2), (1, 1), (1, 2), (2, 1)], 2, 2)
    g = Game.start(deck, Rules.for_players(2, hand_size=2, clues=1, variant=v))
    assert g.clues == 2 and not g.can_discard()          # 1 token: 2 halves, the maximum
    g.apply(Action.rank_clue(1, 1))                       # a clue spends both halves
    assert g.clues == 0 and not g.can_clue()
    g.apply(Action.discard(2))                            # a discard gives half a token back
    assert g.clues == 1 and not g.can_clue()
    with pytest.raises(IllegalMove, match="cannot clue with 1 of 2 half clue tokens"):
        g.apply(Action.rank_clue(1, 1))
    g.apply(Action.play(0))
    g.apply(Action.discard(3))                            # the second half: one clue again
    assert g.clues == 2 and g.can_clue()


@pytest.mark.parametrize("name", ["Clue Starved (5 Suits)", "Throw It in a Hole (5 Suits)",
                                  "Orange (5 Suits)", "Alternating Clues (5 Suits)",
                                  "Reversed (5 Suits)"])
def test_the_strategies_refuse_a_family_whose_token_rules_they_do_not_know(name):
    from hanabi_cp.core.errors import InvalidParameter
    from hanabi_cp.players.game import check_clues
    from hanabi_cp.apps.generators import standard_deck
    with pytest.raises(InvalidParameter, match="No Variant's rules of play"):
        check_clues(standard_deck(5, 5), Rules.for_players(3, variant=variant(name)))


def test_orange_discards_at_the_maximum_for_nothing_and_refuses_deck_plays():
    v = variant("Orange (5 Suits)")
    deck = Deck.of([(1, 1), (2, 1), (1, 2), (2, 2), (1, 1)], 2, 2)
    g = Game.start(deck, Rules.for_players(2, hand_size=2, clues=1, variant=v))
    assert g.clues == 1 and g.can_discard()
    g.apply(Action.discard(1))                           # at the maximum: legal, no token
    assert g.clues == 1
    plain = Game.start(deck, Rules.for_players(2, hand_size=2, clues=1, variant=_uninverted(v)))
    with pytest.raises(IllegalMove, match="cannot discard with 1 of 1 clue tokens"):
        plain.apply(Action.discard(1))
    with pytest.raises(RulesError, match="deck plays in 'Orange \\(5 Suits\\)' are not supported"):
        Rules.for_players(2, variant=v, deck_plays=True)


def test_a_reversed_suit_is_played_from_five_down_to_one():
    v = variant("Reversed (3 Suits)")                   # Red, Green, Blue Reversed
    assert [s.reversed for s in v.suits] == [False, False, True]
    deck = Deck.of([(5, 3), (3, 3), (1, 3), (4, 3), (2, 3), (5, 3)], 5, 3)
    rules = Rules.for_players(2, hand_size=3, clues=2, final_round=False, variant=v)
    g = Game.start(deck, rules)
    g.apply(Action.color_clue(1, 2))                      # a blue clue (Blue Reversed)
    with pytest.raises(IllegalMove, match="the clue touches no card of player 0"):
        g.copy().apply(Action.rank_clue(0, 4))            # player 0 holds 5, 3, 1
    g.apply(Action.rank_clue(0, 1))
    for order in (0, 3, 1, 4, 2):                         # 5, 4, 3, 2, 1
        g.apply(Action.play(order))
    assert g.piles == [0, 0, 5] and g.strikes == 0
    assert g.clues == 1                                   # the 1 completed the pile
    assert g.over and g.score == 5 == g.max_reachable
    h = Game.start(deck, rules)
    h.apply(Action.play(2))                               # a 1 first: a strike
    assert h.strikes == 1 and h.piles == [0, 0, 0] and h.max_reachable == 4


@pytest.mark.parametrize("name", ["Throw It in a Hole (5 Suits)", "Clue Starved (5 Suits)",
                                  "Orange (5 Suits)", "Alternating Clues & White (5 Suits)",
                                  "Orange Reversed (5 Suits)"])
def test_generate_solve_verify_and_analyze_a_deal_of_each_family(tmp_path, name):
    # the commands as a user runs them: a deck of the variant, a certificate in
    # hanab.live's format, and that game verified and analysed from its file
    from click.testing import CliRunner
    from hanabi_cp.cli import main

    def run(*args):
        return CliRunner().invoke(main, [str(a) for a in args])

    deck, game = tmp_path / "deck.txt", tmp_path / "game.json"
    assert run("generate", "standard", "--seed", 3, "--variant", name, "-o", deck).exit_code == 0
    res = run("solve", deck, "--rules", "live", "--players", 3, "--variant", name,
              "--maximize", "--certificate", game)
    assert res.exit_code in (10, 20), res.output
    assert f"(hanab.live {name}, open hands)" in res.stdout
    assert "c certificate verified by the referee" in res.stdout
    assert json.loads(game.read_text())["options"]["variant"] == name
    res = run("verify", deck, game, "--rules", "live")
    assert res.exit_code == 0 and "s VERIFIED" in res.stdout, res.output
    res = run("analyze", game, "--time-limit", 20)
    assert res.exit_code == 0, res.output
