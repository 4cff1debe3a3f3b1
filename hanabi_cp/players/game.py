"""The engine of hidden-information games: strategies play, the referee rules.

``play_game(deck, rules, strategy, seed)`` seats one instance of the strategy per
player, builds each player's ``View`` (``players.view``) from the referee's state
(``real.referee.Game``: the same rules and the same code as the real-rules solvers
and ``verify --rules live``), asks the mover for an action, has the referee carry it
out, and tells every seat what happened (``Strategy.observe``).  The result's
action list is a complete game the referee replays (``replay`` in
``real.referee``), and hanab.live imports (``real.replay_io.replay_json``).

``seeded_deck(seed)`` is the shuffled standard deck of a seed, the deck of game
``seed`` in ``hanabi-cp play --games``.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from ..runtime.deadline import poll
from ..apps.generators import standard_deck
from ..core.errors import InvalidParameter
from ..real.actions import Action, Kind
from ..real.variants.clue_rules import clue_rules
from ..real.referee import Game, IllegalMove
from ..real.rules import Rules
from ..real.variants.catalogue import Variant
from ..core.model import Card, Deck
from .strategy import Strategy, StrategyError, check_players, get_strategy
from .view import NO_CLUES, CardClues, CheatView, ClueRecord, Turn, View, build_view


PHASE = "playing the game"


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
    check_clues(deck, rules, cls)
    return _Engine(deck, rules, cls, seed).run()


def check_replays(game: PlayedGame) -> None:
    """Replay ``game`` by the referee: one that is illegal, unfinished or scores
    otherwise there is a SolverBug."""
    from ..core.errors import SolverBug
    from ..real.referee import replay
    rep = replay(game.deck, game.rules, game.actions)
    if not (rep.legal and rep.complete and rep.score == game.score):
        raise SolverBug(f"strategy {game.strategy!r}: its game does not replay to its score "
                        f"{game.score}: {rep.error or f'the referee scores {rep.score}'}")


def check_clues(deck: Deck, rules: Rules, cls: type[Strategy] | None = None) -> None:
    """Refuse, in one line naming why, a variant whose clues the strategy ``cls``
    cannot read on this deck.  A strategy that reads clues by what they touch in the
    variant (``Strategy.reads_variant_clues``) learns from rainbow, pink, prism, ...
    suits, but its hint code may need a clue of either type to any player: every card
    must take one of each (not so with white, brown, null suits, mute or blind
    variants).  The others read a color clue as naming one suit and touching exactly
    its cards, and a rank clue likewise (No Variant's clues)."""
    if rules.variant is None:
        return
    if rules.clue_cost != 1 or not rules.top_gives_token or rules.discard_at_max \
            or rules.alternating_clues or getattr(rules.variant, "up_or_down", False) \
            or getattr(rules.variant, "sudoku", False) \
            or any(getattr(s, "reversed", False) for s in getattr(rules.variant, "suits", ())):
        raise InvalidParameter(
            f"the strategies play by No Variant's rules of play; the variant "
            f"{rules.variant.name!r} changes them ({rules.variant.unsupported_by_players()}), "
            f"so they cannot play it")
    if cls is not None and cls.reads_variant_clues:
        why = _untouchable(rules, deck)
        if why is not None:
            raise InvalidParameter(
                f"strategy {cls.name!r} may need to give a clue of either type to any "
                f"player; in the variant {rules.variant.name!r} {why}, so it cannot play it")
        return
    why = _other_touch(rules.variant, deck)
    if why is not None:
        who = "the strategies read" if cls is None else f"strategy {cls.name!r} reads"
        raise InvalidParameter(
            f"{who} clues as No Variant's (a color clue touches one suit, a "
            f"rank clue one rank); in the variant {rules.variant.name!r} clues touch "
            f"otherwise: {why}, so {'they' if cls is None else 'it'} cannot play it")


def _untouchable(rules: Rules, deck: Deck) -> str | None:
    """The first card of ``deck`` that no clue of some type touches, where a clue of
    that type must touch a card, in words (None: every card takes both types)."""
    v = clue_rules(rules, deck)
    for is_color in (True, False):
        word = "color" if is_color else "rank"
        values = v.clue_values(is_color)
        if not values:
            return f"there is no {word} clue"
        if rules.empty_clues or v.always_legal(is_color):
            continue
        for a, k in sorted(set(deck.cards), key=lambda card: (card[1], card[0])):
            if not any(v.touches(is_color, x, k - 1, a) for x in values):
                assert rules.variant is not None
                return f"no {word} clue touches {rules.variant.card_name(a, k - 1)}"
    return None


def _other_touch(variant: Variant, deck: Deck) -> str | None:
    """The first clue and card of ``deck`` where the variant's touch differs from
    No Variant's, in words (None: none differs).

    >>> from hanabi_cp.real.variants.catalogue import variant
    >>> from hanabi_cp.apps.generators import variant_deck
    >>> def why(name):
    ...     v = variant(name)
    ...     return _other_touch(v, variant_deck(1, v.model_cards(), v.deck_n, len(v.suits)))
    >>> why("Rainbow (5 Suits)"), why("White (5 Suits)"), why("Pink (6 Suits)")
    ('every color clue touches Rainbow 1', 'no color clue touches White 1', 'every rank clue touches Pink 1')
    >>> why("Ambiguous (6 Suits)"), why("Rainbow-Ones (5 Suits)"), why("Black (6 Suits)") is None
    ('a Red clue touches Mahogany 1', 'every color clue touches Red 1', True)
    """
    v = clue_rules(Rules.for_players(2, variant=variant), deck)
    colors, ranks = tuple(v.clue_values(True)), tuple(v.clue_values(False))
    for k, a in sorted({(k - 1, a) for a, k in deck.cards}):
        name = variant.card_name(a, k)
        for is_color, values, own in ((True, colors, k), (False, ranks, a)):
            word = "color" if is_color else "rank"
            by = tuple(x for x in values if v.touches(is_color, x, k, a))
            if by == ((own,) if own in values else ()) and by:
                continue
            if not by:
                return f"no {word} clue touches {name}"
            if len(by) == len(values) > 1:
                return f"every {word} clue touches {name}"
            other = next((x for x in by if x != own), None)
            if other is not None:
                clue = variant.clue_colors[other] if is_color else str(other)
                return f"a {clue} clue touches {name}"
            return f"no {word} clue names {name}'s own {word} alone"
    return None


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
        # what only a play or a discard changes, updated then (see _moved)
        g = self.game
        self.hands: tuple[tuple[int, ...], ...] = tuple(tuple(h) for h in g.hands)
        self.hand_cards: tuple[tuple[Card, ...], ...] = tuple(
            tuple(self.cards[o] for o in h) for h in self.hands)
        self.piles: tuple[int, ...] = tuple(g.piles)
        self.discards: tuple[Card, ...] = ()

    def run(self) -> PlayedGame:
        g, seats, players = self.game, self.seats, self.rules.players
        views = self._views()
        while not g.over:
            poll(PHASE)          # a command's --time-limit: a turn costs more on big decks
            p = g.turn % players
            action = seats[p].act(views[p])
            turn = self._apply(p, action)
            views = self._views()
            for seat, view in zip(seats, views):
                seat.observe(view, turn)
        return PlayedGame(self.deck, self.rules, self.cls.name, self.seed,
                          tuple(self.actions), g.score, g.strikes, g.turn, g.won)

    def _apply(self, p: int, action: Action) -> Turn:
        g = self.game
        if not isinstance(action, Action):
            raise StrategyError(f"{self._where()}: {action!r} is not an Action")
        # self.hands is the referee's hands as they stand: only _moved changes them
        hand = self.hands[p]
        is_clue = action.is_clue
        target = action.target
        target_hand = (self.hands[target] if is_clue and isinstance(target, int)
                       and 0 <= target < self.rules.players else ())
        strikes_before = g.strikes
        try:
            g.apply(action)
        except IllegalMove as exc:      # describe() reads only the action and the deck
            raise StrategyError(f"{self._where()}: {g.describe(action)}: {exc}") from None
        self.actions.append(action)
        turn_no = g.turn - 1
        if is_clue:
            record = self._clue(turn_no, p, action, target_hand)
            turn = Turn(turn_no, p, action, clue=record)
        else:
            card = self.cards[target]
            now = g.hands[p]
            drawn = now[-1] if len(now) == len(hand) else None
            # a play either grows its pile or is a strike
            success = g.strikes == strikes_before if action.kind is Kind.PLAY else None
            if target in self.notes:
                notes = dict(self.notes)
                del notes[target]
                self.notes = MappingProxyType(notes)
            turn = Turn(turn_no, p, action, slot=hand.index(target), card=card,
                        success=success, drawn=drawn)
            self._moved(p)
        self.history += (turn,)
        return turn

    def _clue(self, turn_no: int, giver: int, action: Action,
              hand: tuple[int, ...]) -> ClueRecord:
        value = action.value
        assert value is not None     # the referee refuses a clue without one
        is_color = action.kind is Kind.COLOR_CLUE
        assert self.game.tables is not None
        touches = self.game.tables.clues.touches
        touched = tuple(o for o in hand
                        if touches(is_color, value, self.cards[o].color - 1, self.cards[o].value))
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

    def _moved(self, p: int) -> None:
        """Player p played or discarded: p's hand, the piles and the lost cards moved."""
        g, cards = self.game, self.cards
        hand = tuple(g.hands[p])
        self.hands = self.hands[:p] + (hand,) + self.hands[p + 1:]
        self.hand_cards = (self.hand_cards[:p] + (tuple([cards[o] for o in hand]),)
                           + self.hand_cards[p + 1:])
        self.piles = tuple(g.piles)
        # copies out of the referee's list: no view shares a mutable object with it
        lost = g.lost_cards
        if len(self.discards) != len(lost):
            self.discards += tuple([Card(*cards[o]) for o in lost[len(self.discards):]])

    def _views(self) -> list[View]:
        """Every seat's view; the fields but ``me`` and ``others`` (and a cheater's
        ``own``) are the same objects for all."""
        g, hand_cards, deck = self.game, self.hand_cards, self.deck
        shared = {
            "rules": self.rules, "n": deck.n, "c": deck.c, "copies": self.copies,
            "me": 0, "turn": g.turn, "clues": g.clues, "strikes": g.strikes,
            "deck_size": deck.N - g.drawn,
            "turns_left": None if g.end_turn is None else max(0, g.end_turn - g.turn),
            "piles": self.piles, "discards": self.discards, "hands": self.hands,
            "others": (), "notes": self.notes, "clue_log": self.clue_log,
            "history": self.history,
        }
        cheats = self.cls.cheats
        cls = CheatView if cheats else View
        views: list[View] = []
        for p in range(self.rules.players):
            fields = shared.copy()
            fields["me"] = p
            fields["others"] = hand_cards[:p] + (None,) + hand_cards[p + 1:]
            if cheats:
                fields["own"] = hand_cards[p]
            views.append(build_view(cls, fields))
        return views

    def _where(self) -> str:
        return (f"strategy {self.cls.name!r} (seed {self.seed}), turn {self.game.turn}, "
                f"player {self.game.player}")
