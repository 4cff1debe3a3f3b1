"""The hidden-information engine: views hide the mover's cards (structurally), the
referee rules every move, clue notes say what the clues said, replays are legal."""

from __future__ import annotations

import dataclasses
import gc
import types

import pytest

from hanabi_cp.real.actions import Action, Kind
from hanabi_cp.real.referee import Game, replay
from hanabi_cp.real.rules import Rules
from hanabi_cp.core.model import Card, Deck
from hanabi_cp.players.game import play_game, seeded_deck
from hanabi_cp.players.strategy import Strategy, StrategyError, strategies
from hanabi_cp.players.view import CheatView, View


class Simple(Strategy):
    """A small honest player for the engine's tests: play a card whose clues name a
    playable card, else clue the next player's playable card, else discard the
    oldest unclued card, else clue anything."""

    name = "test-simple"
    seen: list[View]

    def __init__(self, me, rules, seed=0):
        super().__init__(me, rules, seed)
        self.seen = []

    def act(self, view: View) -> Action:
        self.seen.append(view)
        for o in view.my_hand:
            note = view.clued(o)
            if note.color and note.rank and view.piles[note.color - 1] + 1 == note.rank:
                return Action.play(o)
        if view.clues:
            for k in range(1, view.players):
                q = (view.me + k) % view.players
                for o, card in zip(view.hands[q], view.others[q] or ()):
                    note = view.clued(o)
                    if view.playable(card) and not (note.color and note.rank):
                        if note.color:
                            return Action.rank_clue(q, card.value)
                        return Action.color_clue(q, card.color - 1)
        if view.clues != view.max_clues:
            unclued = [o for o in view.my_hand if not view.clued(o).clued]
            return Action.discard((unclued or list(view.my_hand))[0])
        q = (view.me + 1) % view.players
        card = (view.others[q] or ())[0]
        return Action.rank_clue(q, card.value)


class Peeker(Simple):
    name = "test-peeker"
    cheats = True


class Cheater(Strategy):
    """Claims its own cards without cheats = True: must find no way to them."""

    name = "test-illegal"

    def act(self, view: View) -> Action:
        return Action.discard(view.my_hand[0])      # illegal at 8 clues


def _reachable(root) -> list:
    """Every object reachable from ``root`` through containers and our records,
    not through classes, modules or functions (which reach everything)."""
    seen: dict[int, object] = {}
    stack = [root]
    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
            types.MethodType)
    while stack:
        x = stack.pop()
        if id(x) in seen or isinstance(x, skip):
            continue
        seen[id(x)] = x
        stack.extend(gc.get_referents(x))
        for slot in getattr(type(x), "__slots__", ()):
            if hasattr(x, slot):
                stack.append(getattr(x, slot))
    return list(seen.values())


def test_views_hold_nothing_of_the_movers_cards_or_the_deck():
    deck = seeded_deck(7)
    rules = Rules.for_players(3)
    seats: list[Simple] = []

    class Recording(Simple):
        name = "test-recording"

        def __init__(self, me, rules, seed=0):
            super().__init__(me, rules, seed)
            seats.append(self)

    game = play_game(deck, rules, Recording)
    assert game.turns > 20
    checked = 0
    for seat in seats:
        for view in seat.seen:
            reach = _reachable(view)
            ids = {id(x) for x in reach}
            own = [deck.cards[o] for o in view.my_hand]
            assert not any(id(x) in ids for x in own), "the mover's card is reachable"
            assert id(deck) not in ids and id(deck.cards) not in ids
            assert not any(isinstance(x, (Game, Deck, list)) for x in reach)
            assert view.others[view.me] is None and not view.sees_own_cards
            assert not isinstance(view, CheatView)
            # every card identity in the view is visible to the viewer
            visible = {id(x) for p, h in enumerate(view.others) if h for x in h}
            for x in reach:
                if type(x) is Card and id(x) not in visible:
                    assert any(x is t.card for t in view.history) or x in view.discards \
                        or x in view.copies
            checked += 1
    assert checked == game.turns


def views_seen(base, deck, rules) -> list[View]:
    """Every view a game of strategy ``base`` on ``deck`` handed to a mover."""
    views: list[View] = []

    class Recording(base):
        name = f"test-recording-{base.name}"

        def act(self, view):
            views.append(view)
            return super().act(view)

    play_game(deck, rules, Recording)
    return views


def test_the_cheat_view_says_so_and_adds_the_own_hand():
    deck = seeded_deck(3)
    rules = Rules.for_players(4)
    views = views_seen(Peeker, deck, rules)
    assert views and all(isinstance(v, CheatView) and v.sees_own_cards for v in views)
    for v in views:
        assert isinstance(v, CheatView)
        assert v.own == tuple(deck.cards[o] for o in v.my_hand)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_games_are_legal_and_the_referee_replays_them(players):
    rules = Rules.for_players(players)
    for seed in range(20):
        deck = seeded_deck(seed)
        game = play_game(deck, rules, Simple, seed)
        rep = replay(deck, rules, game.actions)
        assert rep.legal and rep.complete, rep.error
        assert (rep.score, rep.strikes, rep.turns, rep.won) == \
            (game.score, game.strikes, game.turns, game.won)


def test_an_illegal_move_is_a_strategy_error_naming_it():
    with pytest.raises(StrategyError, match="cannot discard with 8 of 8 clue tokens"):
        play_game(seeded_deck(0), Rules.for_players(2), Cheater)


def test_clue_notes_record_positive_and_negative_information():
    # player 0 clues player 1 "red": 1r touched, 2y not red
    deck = Deck.of([(1, 2), (2, 2), (1, 1), (2, 2), (1, 1), (2, 1)], n=2, c=2)
    rules = Rules.for_players(2, hand_size=2)
    after: list[View] = []

    class Clue(Strategy):
        name = "test-clue-notes"

        def act(self, view):
            return Action.color_clue(1 - self.me, 0) if view.turn == 0 else \
                Action.play(view.my_hand[0])

        def observe(self, view, turn):
            if turn.turn == 0:
                assert turn.clue is not None and turn.clue.touched == (2,)
                assert turn.clue.untouched == (3,) and turn.clue.color == 1
                after.append(view)
            elif turn.action.kind is Kind.PLAY:
                assert turn.card == deck.cards[turn.action.target] and turn.slot == 0

    play_game(deck, rules, Clue)
    for view in after:
        assert view.clued(2).color == 1 and view.clued(2).touched == 1
        assert view.clued(3).not_colors == frozenset({1}) and not view.clued(3).clued
        assert view.clued(3).allows(Card(2, 2)) and not view.clued(3).allows(Card(2, 1))
        assert view.clued(0).touched == 0


def test_the_registry_names_every_strategy():
    table = strategies()
    assert all(cls.name == name for name, cls in table.items())


def _checking(cls):
    """``cls`` with every view it is given checked: no object reachable from it is one
    of the mover's own cards (unless the class cheats, and then only through ``own``)."""
    def act(self, view):
        if cls.cheats:
            assert isinstance(view, CheatView) and view.sees_own_cards
            assert view.own == tuple(self.deck_cards[o] for o in view.my_hand)
            rest = dataclasses.replace(view, own=())     # everything but ``own``
        else:
            assert not isinstance(view, CheatView) and view.others[view.me] is None
            rest = view
        reach = _reachable(rest)
        ids = {id(x) for x in reach}
        own = {id(self.deck_cards[o]) for o in view.my_hand}
        assert not own & ids
        assert not any(isinstance(x, (Game, Deck, list)) for x in reach)
        return cls.act(self, view)
    return type(f"Checked{cls.__name__}", (cls,), {"act": act, "name": cls.name})


@pytest.mark.parametrize("name", sorted(strategies()))
def test_every_registered_strategy_plays_refereed_games_blind(name):
    cls = strategies()[name]
    for players in range(max(2, cls.min_players), min(6, cls.max_players) + 1):
        rules = Rules.for_players(players)
        for seed in range(2):
            deck = seeded_deck(seed)
            checked = _checking(cls)
            checked.deck_cards = deck.cards
            game = play_game(deck, rules, checked, seed)
            rep = replay(deck, rules, game.actions)
            assert rep.legal and rep.complete, rep.error
            assert (rep.score, rep.strikes) == (game.score, game.strikes)
            assert game.actions == play_game(deck, rules, name, seed).actions


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(strategies()))
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_ten_thousand_games_of_every_strategy_are_legal(name, players):
    cls = strategies()[name]
    if not cls.min_players <= players <= cls.max_players:
        pytest.skip(f"{name} does not play {players} players")
    rules = Rules.for_players(players)
    for seed in range(10 ** 4):
        deck = seeded_deck(seed)
        game = play_game(deck, rules, cls, seed)       # StrategyError on an illegal move
        rep = replay(deck, rules, game.actions)
        assert rep.legal and rep.complete and rep.score == game.score


def test_view_helpers_name_cards_clues_and_trash():
    deck = seeded_deck(11)
    rules = Rules.for_players(3)
    views = views_seen(Simple, deck, rules)
    for v in views[::7]:
        for p in range(v.players):
            if p == v.me:
                with pytest.raises(KeyError):
                    v.card(v.hands[p][0])
                continue
            for o, card in zip(v.hands[p], v.others[p] or ()):
                assert v.card(o) == card == deck.cards[o]
                assert o in v.touches(p, Kind.RANK_CLUE, card.value)
                assert o in v.touches(p, Kind.COLOR_CLUE, card.color - 1)
        gone = v.discard_counts()
        for card in v.copies:
            top = v.piles[card.color - 1]
            dead_below = any(gone.get(Card(a, card.color), 0) == v.copies[Card(a, card.color)]
                             for a in range(top + 1, card.value))
            assert v.is_trash(card) == (card.value <= top or dead_below)
            assert v.playable(card) == (card.value == top + 1)
