"""What a player could know of their own cards (``real.postmortem.hidden_knowledge``): the
post-mortem's ``knew`` and ``seen``.

Checked three ways: against DeepMind's HLE, whose card knowledge (the colours and
ranks each card may still be after every clue, positive and negative) is an
independent implementation of the clue part; against a direct recount from the
game's history on random games of random decks, variants included; and on
hand-made positions for each class of ``seen``."""

from __future__ import annotations

import random

import pytest

from hanabi_cp.real.actions import Action, Kind
from hanabi_cp.real.postmortem.alternatives import every_legal_action
from hanabi_cp.real.postmortem.hidden_knowledge import ClueBook, critical, playable, seen
from hanabi_cp.real.referee import Game
from hanabi_cp.real.rules import Rules
from hanabi_cp.real.variants.catalogue import variant
from hanabi_cp.core.model import Card, Deck

try:
    from hanabi_learning_environment import pyhanabi
    HAVE_HLE = pyhanabi.lib_loaded()
except ImportError:
    HAVE_HLE = False


def recount(g: Game, history: list[tuple[Game, Action]], order: int) -> list[Card]:
    """``knew`` from its definition, identity by identity, from the whole history."""
    me = g.player
    assert g.tables is not None
    v = g.tables.clues
    out = []
    for card in sorted(set(g.deck.cards)):
        ok = True
        for before, act in history:
            if act.is_clue and order in before.hands[act.target]:
                color = act.kind is Kind.COLOR_CLUE
                real = g.deck.cards[order]
                says = v.touches(color, act.value, real.color - 1, real.value)
                if v.touches(color, act.value, card.color - 1, card.value) != says:
                    ok = False
        copies = sum(1 for c in g.deck.cards if c == card)
        shown = sum(1 for p, hand in enumerate(g.hands) if p != me
                    for o in hand if g.deck.cards[o] == card)
        shown += sum(1 for o in g.lost_cards if g.deck.cards[o] == card)
        on_pile = [g.value_at(card.color - 1, h) for h in range(1, g.piles[card.color - 1] + 1)]
        shown += on_pile.count(card.value)
        if ok and shown < copies:
            out.append(card)
    return sorted(out, key=lambda c: (c.color, c.value))


@pytest.mark.parametrize("name", [None, "Rainbow (5 Suits)", "Black (6 Suits)",
                                  "Pink (5 Suits)", "Null (5 Suits)", "Prism (5 Suits)",
                                  "Reversed (5 Suits)", "Clue Starved (5 Suits)"])
def test_knew_is_its_definition_on_random_games(name):
    rng = random.Random(20261128)
    print("seed 20261128")
    checked = 0
    for trial in range(40):
        players = rng.randint(2, 4)
        rules = Rules.for_players(players, variant=name and variant(name))
        if name is None:
            cards = [Card(a, k) for k in range(1, 4) for a in (1, 1, 2, 2, 3)]
        else:
            cards = list(variant(name).deck_cards())
        rng.shuffle(cards)
        deck = Deck.of(cards)
        g = Game.start(deck, rules)
        book = ClueBook(g)
        history: list[tuple[Game, Action]] = []
        while not g.over:
            act = rng.choice(every_legal_action(g))    # clues of every value
            if act.is_move:
                knew = book.knew(g, act.target)
                assert deck.cards[act.target] in knew
                assert knew == recount(g, history, act.target), (trial, len(history))
                checked += 1
            history.append((g.copy(), act))
            book.observe(g, act)
            g.apply(act)
    assert checked > 100


@pytest.mark.skipif(not HAVE_HLE, reason="the Hanabi Learning Environment is not installed")
def test_the_clue_part_agrees_with_hle_card_knowledge():
    compared = sum(compare_with_hle(seed) for seed in range(12))
    assert compared > 60


def compare_with_hle(seed: int) -> int:
    """Plays HLE game ``seed`` at random; at each play or discard, our clue part of
    the moved card against HLE's plausible colours x ranks.  Returns the count."""
    from hanabi_cp.interop import hle
    game = pyhanabi.HanabiGame({"players": 2 + seed % 4, "seed": seed})
    state = game.new_initial_state()
    rng = random.Random(seed)
    plausible = []            # per player move: HLE's plausible set of the moved card, or None
    while not state.is_terminal():
        if state.cur_player() == pyhanabi.CHANCE_PLAYER_ID:
            state.deal_random_card()
            continue
        move = rng.choice(state.legal_moves())
        shown = None
        if move.type() in (pyhanabi.HanabiMoveType.PLAY, pyhanabi.HanabiMoveType.DISCARD):
            obs = state.observation(state.cur_player())      # kept alive while read
            know = obs.card_knowledge()[0][move.card_index()]
            shown = {Card(r + 1, hle.suit_of(c) + 1) for c in range(5) for r in range(5)
                     if know.color_plausible(c) and know.rank_plausible(r)}
        plausible.append(shown)
        state.apply_move(move)
    converted = hle.to_game(state)
    g = Game.start(converted.deck, converted.rules)
    book = ClueBook(g)
    compared = 0
    for act, want in zip(converted.actions, plausible):
        if want is not None:
            assert set(book.consistent(act.target)) == want & set(converted.deck.cards)
            compared += 1
        book.observe(g, act)
        g.apply(act)
    return compared


def small_game() -> Game:
    # Alice #0 1:1, #1 2:1; Bob #2 1:2, #3 2:2; deck #4 1:1, #5 1:2
    deck = Deck.of([(1, 1), (2, 1), (1, 2), (2, 2), (1, 1), (1, 2)])
    return Game.start(deck, Rules.for_players(2, hand_size=2, clues=1))


def test_seen_classes_a_visible_discard_and_a_hidden_one():
    # A 2s clue tells Bob #3 is a 2; Alice shows him the 2:1, so #3 can only be the
    # 2:2: the last copy of a needed card.
    clue = Action.rank_clue(1, 2)
    g2 = small_game()
    book2 = ClueBook(g2)
    book2.observe(g2, clue)
    g2.apply(clue)
    assert [str(c) for c in book2.knew(g2, 3)] == ["2:2"]
    assert seen(g2, Action.discard(3), book2.knew(g2, 3)) == "visible"
    # told only "yellow", #3 may be the 1:2 (a copy is left in the deck): hidden
    g3 = small_game()
    g3.apply(Action.color_clue(1, 1))          # yellow: both of Bob's cards
    knew = ClueBook(g3).knew(g3, 3)
    assert Card(1, 2) in knew and seen(g3, Action.discard(3), knew) == "hidden"


def test_seen_classes_misplays_and_tempo():
    g = small_game()
    knew = [Card(2, 1), Card(2, 2)]
    assert not any(playable(g, c) for c in knew)
    assert seen(g, Action.play(1), knew) == "visible"           # no 2 can be played yet
    assert seen(g, Action.play(1), knew + [Card(1, 1)]) == "hidden"
    assert seen(g, Action.play(0), [Card(1, 1)]) == "tempo"     # a good play
    assert seen(g, Action.rank_clue(1, 1), []) == "tempo"
    assert critical(g, Card(2, 1)) and not critical(g, Card(1, 1))
