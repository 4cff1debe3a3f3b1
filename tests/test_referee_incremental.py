"""The referee's counts kept as the game goes, against the same counts made in full
after every action of random games in every rule family: what each pile takes next
and whether the deck still holds a card some pile needs (``Game._next_now``), the
end rule "no card still needed can be played", hanab.live's max score in Up or Down
and Sudoku with the colors it reads as dead, and the clue tables kept per variant.
The full counts here are written from the rules (``pile_rules.all_orders``, the
cards lost), not from the referee's own helpers."""

from __future__ import annotations

import random

import pytest

from hanabi_cp.apps.generators import variant_deck
from hanabi_cp.core.model import Deck
from hanabi_cp.real.pile_order import in_pile_order
from hanabi_cp.real.referee import Game, Tables
from hanabi_cp.real.rules import Rules, RulesError
from hanabi_cp.real.variants.catalogue import variant
from hanabi_cp.real.variants.clue_rules import clue_rules
from hanabi_cp.real.variants.pile_rules import all_orders
from hanabi_cp.real.variants.pile_score import max_score, up_or_down_cap

FAMILIES = ["No Variant", "Up or Down (5 Suits)", "Up or Down & Black (6 Suits)",
            "Sudoku (5 Suits)", "Sudoku (4 Suits)", "Sudoku & Gray (5 Suits)",
            "Reversed (5 Suits)", "Throw It in a Hole (5 Suits)", "Clue Starved (5 Suits)",
            "Alternating Clues (5 Suits)", "Alternating Clues & White (5 Suits)",
            "Orange (5 Suits)", "Up or Down & Rainbow (5 Suits)"]
OPTIONS = [{}, {"last_turn_unplayable": False}, {"deck_plays": True}, {"final_round": False},
           {"empty_clues": True}]


def full_next(g: Game) -> tuple[frozenset[int], ...]:
    """Per pile, the deck values it takes next, from the piles alone."""
    v, n, c = g.tables.chosen, g.deck.n, g.deck.c
    if v is None:
        return tuple(frozenset() if g.piles[k] >= n else
                     frozenset((n - g.piles[k] if g.tables.down[k] else g.piles[k] + 1,))
                     for k in range(c))
    out = []
    for p in g.played:
        ranks = {o[len(p)] for o in all_orders(v) if len(p) < len(o) and o[:len(p)] == p}
        if v.sudoku and not p:
            ranks -= {q[0] for q in g.played if q}
        out.append(frozenset(v.model_value(r) for r in ranks))
    return tuple(out)


def dead_of(g: Game):
    """dead(k, rank): every copy of that card lost, counted from ``lost_cards``."""
    v, n, c, cards = g.tables.chosen, g.deck.n, g.deck.c, g.deck.cards

    def dead(k: int, rank: int) -> bool:
        a = v.model_value(rank)
        total = sum(1 for x in cards if x == (a, k + 1))
        return k >= c or a > n or sum(1 for o in g.lost_cards if cards[o] == (a, k + 1)) == total
    return dead


def nothing_playable_in_full(g: Game) -> bool:
    need = {(a, k + 1) for k, vals in enumerate(full_next(g)) for a in vals}
    live = set(range(g.drawn, g.deck.N))
    p, done = g.rules.players, set()
    if g.end_turn is not None:
        drew = g.end_turn - p - 1
        done = {(t + g.rules.first_player) % p for t in range(drew + 1, g.turn)}
    live |= {o for q, h in enumerate(g.hands) if q not in done for o in h}
    return not any(g.deck.cards[o] in need for o in live)


def check_state(g: Game, counted: list[int]) -> None:
    """The kept counts of ``g`` equal the full ones (``counted``: the lowest full
    max score so far, updated)."""
    nxt = full_next(g)
    assert g._next_now() == nxt
    need = {(a, k + 1) for k, vals in enumerate(nxt) for a in vals}
    assert g._needed_now() == need
    in_deck = any(g.deck.cards[o] in need for o in range(g.drawn, g.deck.N))
    assert (g.needs[3] >= g.drawn) == in_deck
    assert g._nothing_playable() == nothing_playable_in_full(g)
    for k in range(g.deck.c):
        for a in range(1, g.deck.n + 1):
            assert g.takes(k, a) == (a in nxt[k])
    v = g.tables.chosen
    if v is None:
        return
    dead = dead_of(g)
    assert g.dead_colors == {k for k in range(g.deck.c) if any(dead(k, r) for r in v.ranks)}
    counted[0] = min(counted[0], max_score(v, tuple(g.played), dead))
    assert g.best == counted[0]
    if v.up_or_down:
        assert g.caps == [up_or_down_cap(v, p, lambda r, k=k: dead(k, r))
                          for k, p in enumerate(g.played)]


def takes(g: Game, order: int) -> bool:
    a, k = g.card(order)
    return g.takes(k - 1, a)


def play_out(g: Game, rng: random.Random, counted: list[int], fork: bool) -> int:
    """Random legal moves (plays that take a card first) until the game is over,
    checking after each; once, a copy plays on from the same position."""
    steps, forked = 0, not fork
    while not g.over:
        moves = list(g.legal_actions())
        good = [m for m in moves if m.kind == 0 and takes(g, m.target)]
        act = rng.choice(good if good and rng.random() < 0.7 else moves)
        if not forked and rng.random() < 0.1:
            forked = True
            steps += play_out(g.copy(), random.Random(rng.random()), list(counted), False)
        g.apply(act)
        check_state(g, counted)
        steps += 1
    return steps


@pytest.mark.parametrize("name", FAMILIES)
def test_kept_counts_equal_the_full_counts(name):
    v = variant(name)
    cards = v.model_cards()
    steps = 0
    for seed in range(12):
        rng = random.Random(seed)
        deck = variant_deck(seed, cards, v.deck_n, len(v.suits))
        players = rng.choice((2, 3, 4, 5))
        try:
            rules = Rules.for_players(players, variant=v, **OPTIONS[seed % len(OPTIONS)])
        except RulesError:          # an option the variant refuses (Orange: deck plays)
            rules = Rules.for_players(players, variant=v)
        g = Game.start(deck, rules)
        counted = [g.target]
        check_state(g, counted)
        steps += play_out(g, rng, counted, fork=True)
    assert steps > 12 * 10          # the games are not all over at once


@pytest.mark.parametrize("name", ["Up or Down (5 Suits)", "Sudoku (5 Suits)", "Sudoku (4 Suits)"])
def test_decks_without_some_cards(name):
    """Decks missing values or copies: the server's count reads them as dead from
    the deal, and a pile may need a card the deck never held."""
    v = variant(name)
    for seed in range(30):
        rng = random.Random(seed)
        full = [c for c in v.model_cards() if c[1] <= 3]
        kept = [c for c in full if rng.random() < 0.7 and c[0] <= rng.choice((3, 4, v.deck_n))]
        deck = Deck.of(kept, v.deck_n, 3)
        rules = Rules.for_players(2, hand_size=rng.choice((2, 3)), variant=v)
        g = Game.start(deck, rules)
        counted = [g.target]
        check_state(g, counted)
        play_out(g, rng, counted, fork=True)


def full_tables(deck: Deck, rules: Rules) -> tuple[list[bool], bool, object]:
    """Which deck cards some clue touches, and the per-type lists of Alternating
    Clues, counted for this deck alone."""
    v = clue_rules(rules, deck)
    ranks, colors = v.clue_values(False), v.clue_values(True)
    by = {(a, k): (any(v.touches(False, x, k - 1, a) for x in ranks),
                   any(v.touches(True, x, k - 1, a) for x in colors)) for a, k in set(deck.cards)}
    touchable = [by[c][0] or by[c][1] for c in deck.cards]
    typed = ([by[c][0] for c in deck.cards], [by[c][1] for c in deck.cards])
    return touchable, all(touchable), typed


@pytest.mark.parametrize("name", FAMILIES + ["Rainbow-Ones & Brown (5 Suits)",
                                             "Alternating Clues & Rainbow (5 Suits)"])
def test_clue_tables_kept_per_variant_equal_the_deal_count(name):
    v = variant(name)
    for seed in range(3):
        deck = variant_deck(seed, v.model_cards(), v.deck_n, len(v.suits))
        for options in ({}, {"empty_clues": True}):
            rules = Rules.for_players(3, variant=v, **options)
            t = Tables(deck, rules)
            touchable, every, typed = full_tables(deck, rules)
            assert t.touchable == touchable and t.all_touchable == every
            if t.by_type is not None:
                assert t.by_type == typed
            g = in_pile_order(Game.start(deck, rules))      # a renamed deck, its own variant
            touchable, every, typed = full_tables(g.deck, g.rules)
            assert g.tables.touchable == touchable
            if g.tables.by_type is not None:
                assert g.tables.by_type == typed


def test_a_renamed_position_counts_its_needs_afresh():
    v = variant("Reversed (5 Suits)")
    deck = variant_deck(3, v.model_cards(), v.deck_n, len(v.suits))
    g = Game.start(deck, Rules.for_players(3, variant=v))
    rng, counted = random.Random(3), [0]
    while not g.over:
        moves = list(g.legal_actions())
        g.apply(rng.choice([m for m in moves if m.kind == 0 and takes(g, m.target)] or moves))
        check_state(g, counted)
        h = in_pile_order(g)
        if h is not g:
            check_state(h, counted)

