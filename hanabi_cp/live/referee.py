"""The referee of real-rules games: the rules as executable definitions.

``Game`` is the state of one game (hands, draw pile, piles, tokens, strikes, turn)
with ``legal_actions`` and ``apply``; ``replay`` plays a list of moves from the deal
and names the first illegal one.  Every certificate any real-rules method reports
is replayed here first.

Rules (hanab.live "No Variant", open hands):

- player i is dealt deck cards i*H .. (i+1)*H - 1 (fewer if the deck runs out);
  player 0 moves first, then 1, 2, ... in turn;
- play a card from your hand: if it is the next of its color, the pile grows (a card
  of the top value n gives a clue token back, if below the maximum); otherwise it is
  a strike and the card is lost;
- discard a card: only below the maximum of clue tokens; gives one back;
- clue: costs a token (needs one); it must touch at least one card of another
  player (a color or a rank that player holds); no card moves;
- after a play or a discard the player draws the next deck card, if any;
- the game ends when every pile reaches n (won), when the strikes reach the limit
  (score 0), after the final round (once the last card has been drawn, on turn t,
  turns t+1 .. t+p are played; if the deal itself empties the deck, t = 0, as
  hanab.live counts it), or when the player to move has no legal move.  With
  ``final_round`` off, the game instead ends when the deck and every hand are empty.

>>> from hanabi_cp.model import Deck
>>> from hanabi_cp.live.rules import Rules
>>> deck = Deck.of([(1, 1), (1, 2), (2, 1), (2, 2)])
>>> rules = Rules.for_players(2, hand_size=1)
>>> rep = replay(deck, rules, [Action.play(0), Action.play(1), Action.play(2), Action.play(3)])
>>> rep.legal, rep.complete, rep.score, rep.won
(True, True, 4, True)
>>> replay(deck, rules, [Action.discard(0)]).error
'action #0: discard #0 (1:1): cannot discard with 8 of 8 clue tokens'
>>> replay(deck, rules, [Action.play(2)]).error
'action #0: play #2 (2:1): player 0 does not hold this card'
>>> replay(deck, Rules.for_players(2, hand_size=2), [Action.play(0)] * 1).complete
False
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from ..model import Deck
from .actions import Action, Kind
from .rules import Rules


class IllegalMove(Exception):
    """An action the rules forbid in the current state (the message says why)."""


@dataclass
class Game:
    """One game in progress.  ``hands[i]`` lists the deck positions player i holds."""

    deck: Deck
    rules: Rules
    hands: list[list[int]] = field(default_factory=list)
    piles: list[int] = field(default_factory=list)   # piles[k]: top value of color k+1
    drawn: int = 0                                     # next deck position to draw
    clues: int | None = None                           # None: unlimited tokens
    strikes: int = 0
    turn: int = 0
    end_turn: int | None = None                        # first turn not played (final round)
    over: bool = False
    lost_cards: list[int] = field(default_factory=list)  # discarded or misplayed positions

    @classmethod
    def start(cls, deck: Deck, rules: Rules) -> Game:
        g = cls(deck, rules, piles=[0] * deck.c, clues=rules.clues)
        H, N = rules.hand_size, deck.N
        g.hands = [list(range(i * H, min((i + 1) * H, N))) for i in range(rules.players)]
        g.drawn = min(rules.players * H, N)
        if g.drawn == N:
            g._last_card_drawn()
        g._check_end()
        return g

    # ---- what the state says --------------------------------------------------

    @property
    def player(self) -> int:
        return self.turn % self.rules.players

    @property
    def score(self) -> int:
        """hanab.live's score: the piles, or 0 once the strikes reach the limit."""
        return 0 if self.strikes >= self.rules.strikes else sum(self.piles)

    @property
    def won(self) -> bool:
        return self.strikes < self.rules.strikes and sum(self.piles) == self.deck.target

    def card(self, order: int) -> tuple[int, int]:
        c = self.deck.cards[order]
        return c.value, c.color

    def can_discard(self) -> bool:
        # clues is None exactly when the rules give unlimited tokens
        return self.clues is None or self.clues < (self.rules.clues or 0)

    def can_clue(self) -> bool:
        return (self.clues is None or self.clues > 0) and any(
            self.hands[p] for p in range(self.rules.players) if p != self.player)

    def legal_actions(self) -> Iterator[Action]:
        """Every legal move, one clue per clued player (with open hands a clue's
        content changes nothing), in a fixed order: plays, discards, clues."""
        if self.over:
            return
        hand = self.hands[self.player]
        yield from (Action.play(o) for o in hand)
        if self.can_discard():
            yield from (Action.discard(o) for o in hand)
        if self.clues is None or self.clues > 0:
            for p in range(self.rules.players):
                if p != self.player and self.hands[p]:
                    yield self.some_clue(p)

    def some_clue(self, p: int) -> Action:
        """A legal clue to player p: the rank of the first card p holds."""
        return Action.rank_clue(p, self.card(self.hands[p][0])[0])

    # ---- moves -------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Carry out ``action`` for the player to move; IllegalMove if it is not legal."""
        if self.over:
            raise IllegalMove("the game is already over")
        if action.kind in (Kind.PLAY, Kind.DISCARD):
            self._play_or_discard(action)
        else:
            self._clue(action)
        self.turn += 1
        self._check_end()

    def _play_or_discard(self, action: Action) -> None:
        order, hand = action.target, self.hands[self.player]
        if not isinstance(order, int) or not 0 <= order < self.deck.N:
            raise IllegalMove(f"the deck has no card #{order} (it has {self.deck.N})")
        if order not in hand:
            raise IllegalMove(f"player {self.player} does not hold this card")
        if action.kind is Kind.DISCARD:
            if not self.can_discard():
                raise IllegalMove(f"cannot discard with {self.clues} of {self.rules.clues} clue tokens")
            self._gain_clue()
            self.lost_cards.append(order)
        else:
            a, k = self.card(order)
            if self.piles[k - 1] + 1 == a:
                self.piles[k - 1] = a
                if a == self.deck.n:
                    self._gain_clue()
            else:
                self.strikes += 1
                self.lost_cards.append(order)
        hand.remove(order)
        if self.drawn < self.deck.N:
            hand.append(self.drawn)
            self.drawn += 1
            if self.drawn == self.deck.N:
                self._last_card_drawn()

    def _clue(self, action: Action) -> None:
        if self.clues is not None and self.clues <= 0:
            raise IllegalMove("cannot clue with no clue tokens")
        p = action.target
        if not isinstance(p, int) or not 0 <= p < self.rules.players or p == self.player:
            raise IllegalMove(f"player {self.player} cannot clue player {p}")
        if action.value is None:
            raise IllegalMove("a clue needs a value (a suit index or a rank)")
        index = 1 if action.kind is Kind.COLOR_CLUE else 0
        wanted = action.value + 1 if action.kind is Kind.COLOR_CLUE else action.value
        if not any(self.card(o)[index] == wanted for o in self.hands[p]):
            raise IllegalMove(f"the clue touches no card of player {p}")
        if self.clues is not None:
            self.clues -= 1

    def _gain_clue(self) -> None:
        if self.clues is not None and self.clues < (self.rules.clues or 0):
            self.clues += 1

    def _last_card_drawn(self) -> None:
        if self.rules.final_round:
            self.end_turn = self.turn + self.rules.players + 1

    def _check_end(self) -> None:
        if self.rules.final_round:
            rounds_done = self.end_turn is not None and self.turn >= self.end_turn
        else:
            rounds_done = self.drawn == self.deck.N and not any(self.hands)
        stuck = not self.hands[self.player] and not self.can_clue()   # no legal move
        self.over = self.won or self.strikes >= self.rules.strikes or rounds_done or stuck

    def _name(self, order: int) -> str:
        a, k = self.card(order)
        return f"{a}:{k}"

    def describe(self, action: Action) -> str:
        """The action with the card it moves, e.g. ``play #7 (3:2)``."""
        if action.kind in (Kind.PLAY, Kind.DISCARD) and 0 <= action.target < self.deck.N:
            return f"{action} ({self._name(action.target)})"
        return str(action)


@dataclass(frozen=True)
class LiveReplay:
    legal: bool              # every action was legal
    complete: bool           # the game is over exactly after the last action
    score: int
    won: bool
    strikes: int
    turns: int
    error: str | None = None
    step: int | None = None  # index of the first illegal action


def replay(deck: Deck, rules: Rules, actions: Iterable[Action]) -> LiveReplay:
    """Play ``actions`` from the deal; stop at the first illegal one."""
    g = Game.start(deck, rules)
    for i, act in enumerate(actions):
        try:
            described = g.describe(act)
            g.apply(act)
        except IllegalMove as exc:
            return LiveReplay(False, False, g.score, g.won, g.strikes, g.turn,
                              f"action #{i}: {described}: {exc}", i)
    return LiveReplay(True, g.over, g.score, g.won, g.strikes, g.turn)
