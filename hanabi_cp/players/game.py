"""The engine of hidden-information games: strategies play, the referee rules.

``play_game(deck, rules, strategy, seed)`` seats one instance of the strategy per
player, builds each player's ``View`` (``players.view``) from the referee's state
(``live.referee.Game``: the same rules and the same code as the real-rules solvers
and ``verify --rules live``), asks the mover for an action, has the referee carry it
out, and tells every seat what happened (``Strategy.observe``).  The result's
action list is a complete game the referee replays (``replay`` in
``live.referee``), and hanab.live imports (``live.replay_io.replay_json``).

``seeded_deck(seed)`` is the shuffled standard deck of a seed, the deck of game
``seed`` in ``hanabi-cp play --games``.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from ..generators import standard_deck
from ..live.actions import Action, Kind
from ..live.referee import Game, IllegalMove
from ..live.rules import Rules
from ..model import Card, Deck
from .strategy import Strategy, StrategyError, check_players, get_strategy
from .view import NO_CLUES, CardClues, CheatView, ClueRecord, Turn, View


@dataclass(frozen=True)
class PlayedGame:
    deck: Deck
    rules: Rules
    strategy: str
    seed: int
    actions: tuple[Action, ...]
    score: int            # hanab.live's: 0 once the strikes reach the limit
    strikes: int
    turns: int
    won: bool


def seeded_deck(seed: int) -> Deck:
    return standard_deck(seed)


def play_game(deck: Deck, rules: Rules, strategy: str | type[Strategy],
              seed: int = 0) -> PlayedGame:
    """Play one game of ``strategy`` on ``deck``; StrategyError on an illegal move."""
    cls = get_strategy(strategy) if isinstance(strategy, str) else strategy
    check_players(cls, rules.players)
    return _Engine(deck, rules, cls, seed).run()


class _Engine:
    def __init__(self, deck: Deck, rules: Rules, cls: type[Strategy], seed: int):
        self.deck, self.rules, self.cls, self.seed = deck, rules, cls, seed
        self.game = Game.start(deck, rules)
        self.cards = deck.cards
        # fresh keys: the Counter's are the deck's own card objects
        self.copies = MappingProxyType({Card(*k): v for k, v in deck.counts.items()})
        self.notes: MappingProxyType[int, CardClues] = MappingProxyType({})
        self.clue_log: tuple[ClueRecord, ...] = ()
        self.history: tuple[Turn, ...] = ()
        self.actions: list[Action] = []
        self.seats = [cls(p, rules, seed) for p in range(rules.players)]
        # what only a play or a discard changes, rebuilt then (see _moved)
        self.hands: tuple[tuple[int, ...], ...] = ()
        self.hand_cards: tuple[tuple[Card, ...], ...] = ()
        self.piles: tuple[int, ...] = ()
        self.discards: tuple[Card, ...] = ()
        self._moved()

    def run(self) -> PlayedGame:
        g = self.game
        views = self._views()
        while not g.over:
            p = g.player
            action = self.seats[p].act(views[p])
            turn = self._apply(p, action)
            views = self._views()
            for q, seat in enumerate(self.seats):
                seat.observe(views[q], turn)
        return PlayedGame(self.deck, self.rules, self.cls.name, self.seed,
                          tuple(self.actions), g.score, g.strikes, g.turn, g.won)

    def _apply(self, p: int, action: Action) -> Turn:
        g = self.game
        if not isinstance(action, Action):
            raise StrategyError(f"{self._where()}: {action!r} is not an Action")
        hand = list(g.hands[p])
        target_hand = (tuple(g.hands[action.target])
                       if action.is_clue and isinstance(action.target, int)
                       and 0 <= action.target < self.rules.players else ())
        piles_before = list(g.piles)
        try:
            described = g.describe(action)
            g.apply(action)
        except IllegalMove as exc:
            raise StrategyError(f"{self._where()}: {described}: {exc}") from None
        self.actions.append(action)
        turn_no = g.turn - 1
        if action.is_clue:
            record = self._clue(turn_no, p, action, target_hand)
            turn = Turn(turn_no, p, action, clue=record)
        else:
            order = action.target
            card = self.cards[order]
            drawn = g.hands[p][-1] if len(g.hands[p]) == len(hand) else None
            success = (g.piles != piles_before) if action.kind is Kind.PLAY else None
            notes = dict(self.notes)
            notes.pop(order, None)
            self.notes = MappingProxyType(notes)
            turn = Turn(turn_no, p, action, slot=hand.index(order), card=card,
                        success=success, drawn=drawn)
            self._moved()
        self.history += (turn,)
        return turn

    def _clue(self, turn_no: int, giver: int, action: Action,
              hand: tuple[int, ...]) -> ClueRecord:
        value = action.value
        assert value is not None     # the referee refuses a clue without one
        is_color = action.kind is Kind.COLOR_CLUE
        touched = tuple(o for o in hand
                        if (self.cards[o].color == value + 1 if is_color
                            else self.cards[o].value == value))
        untouched = tuple(o for o in hand if o not in touched)
        notes = dict(self.notes)
        for o in touched:
            old = notes.get(o, NO_CLUES)
            notes[o] = (CardClues(value + 1, old.rank, old.not_colors, old.not_ranks,
                                  old.touched + 1) if is_color else
                        CardClues(old.color, value, old.not_colors, old.not_ranks,
                                  old.touched + 1))
        for o in untouched:
            old = notes.get(o, NO_CLUES)
            notes[o] = (CardClues(old.color, old.rank, old.not_colors | {value + 1},
                                  old.not_ranks, old.touched) if is_color else
                        CardClues(old.color, old.rank, old.not_colors,
                                  old.not_ranks | {value}, old.touched))
        self.notes = MappingProxyType(notes)
        record = ClueRecord(turn_no, giver, action.target, action.kind, value, touched,
                            untouched)
        self.clue_log += (record,)
        return record

    def _moved(self) -> None:
        g, cards = self.game, self.cards
        self.hands = tuple(tuple(h) for h in g.hands)
        self.hand_cards = tuple(tuple(cards[o] for o in h) for h in self.hands)
        self.piles = tuple(g.piles)
        # copies out of the referee's list: no view shares a mutable object with it
        if len(self.discards) != len(g.lost_cards):
            self.discards = tuple(Card(*cards[o]) for o in g.lost_cards)

    def _views(self) -> list[View]:
        g, hand_cards = self.game, self.hand_cards
        turns_left = None if g.end_turn is None else max(0, g.end_turn - g.turn)
        rules, n, c, copies = self.rules, self.deck.n, self.deck.c, self.copies
        turn, clues, strikes, left = g.turn, g.clues, g.strikes, self.deck.N - g.drawn
        piles, discards, hands = self.piles, self.discards, self.hands
        notes, clue_log, history = self.notes, self.clue_log, self.history
        views: list[View] = []
        for p in range(rules.players):
            others = hand_cards[:p] + (None,) + hand_cards[p + 1:]
            if self.cls.cheats:
                views.append(CheatView(rules, n, c, copies, p, turn, clues, strikes, left,
                                       turns_left, piles, discards, hands, others, notes,
                                       clue_log, history, own=hand_cards[p]))
            else:
                views.append(View(rules, n, c, copies, p, turn, clues, strikes, left,
                                  turns_left, piles, discards, hands, others, notes,
                                  clue_log, history))
        return views

    def _where(self) -> str:
        return (f"strategy {self.cls.name!r} (seed {self.seed}), turn {self.game.turn}, "
                f"player {self.game.player}")
