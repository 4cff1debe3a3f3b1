"""The referee of real-rules games: the rules as executable definitions.

``Game`` is the state of one game (hands, draw pile, piles, tokens, strikes, turn)
with ``legal_actions`` and ``apply``; ``replay`` plays a list of moves from the deal
and names the first illegal one.  Every certificate any real-rules method reports
is replayed here first.

Rules (hanab.live's, open hands; ``rules.Rules`` holds the variant and options):

- player i is dealt deck cards i*H .. (i+1)*H - 1 (fewer if the deck runs out);
  the first player (0 unless the rules say otherwise) moves first, then the next
  ones in turn;
- play a card from your hand: if it is the next of its color, the pile grows (the
  card that completes it gives a clue token back, if below the maximum, but not in
  Throw It in a Hole; a reversed suit is played from n down to 1); otherwise it is
  a strike and the card is lost.  In Up or Down and Sudoku the first cards played
  decide a pile's order (``pile_rules``; START is the deck value ``stack_size + 1``,
  encodings/variants.md, 8): a pile is complete after ``stack_size`` cards, the score
  counts the cards played, and the best score still reachable is the server's
  (``pile_score``).  With deck plays, the last card of the deck may be
  played from it (drawn and played at once);
- discard a card: only below the maximum of clue tokens (at any count in a variant
  with an Orange suit); gives one back, if below the maximum;
- clue: costs a token (needs one), goes to another player, names one of the
  variant's clue colors or ranks and must touch at least one of that player's
  cards (the variant says which cards a clue touches; with empty clues, or a clue
  type that touches nothing in the variant, it need not); no card moves; in
  Alternating Clues its type must differ from the game's previous clue's;
- Clue Starved counts tokens in halves, as hanab.live's server does: twice the
  tokens at the start and at most, a clue costs 2 (encodings/variants.md, 7);
- after a play or a discard the player draws the next deck card, if any;
- the game ends, as hanab.live's server ends it (``EndCondition``), at the third
  strike (score 0); with speedrun or all or nothing, once the best score still
  reachable is below the maximum (score 0); in all or nothing, when the player to
  move has no card and no clue token (score 0); after the final round (once the
  last card has been drawn, on turn t, turns t+1 .. t+p are played; if the deal
  itself empties the deck, t = 0; all or nothing has no final round); once the
  score equals the best score still reachable, each color counted up to its first
  value whose copies are all lost (so a won game ends at once); once no card still
  needed can be played (every copy lost, or held by a player whose last turn is
  over; hanab.live's rule since 14 February 2019, ``Rules.last_turn_unplayable``:
  under the older one the final round is played out, ``older_games``); or, beyond
  hanab.live's own setups, when the player to move has no legal move.  With
  ``final_round`` off, the game instead ends when the deck and every hand are
  empty.  A hanab.live game may also end by termination or vote (actions of type 4
  and 5): score 0.

>>> from hanabi_cp.core.model import Deck
>>> from hanabi_cp.real.rules import Rules
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

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from ..core.model import Card, Deck
from .actions import ENDS, MOVES, Action, Kind
from .game_piles import GamePiles
from .variants.clue_rules import ClueRules, clue_rules
from .variants.pile_rules import chosen_in_play
from .rules import Rules
from .variants.catalogue import Variant


class IllegalMove(Exception):
    """An action the rules forbid in the current state (the message says why)."""


class EndCondition(enum.IntEnum):
    """How a game ended, numbered as hanab.live's server numbers its end conditions;
    every one but NORMAL scores 0."""

    IN_PROGRESS = 0
    NORMAL = 1
    STRIKEOUT = 2
    TIMEOUT = 3
    TERMINATED = 4
    SPEEDRUN_FAIL = 5
    IDLE_TIMEOUT = 6
    CHARACTER_SOFTLOCK = 7
    ALL_OR_NOTHING_FAIL = 8
    ALL_OR_NOTHING_SOFTLOCK = 9
    TERMINATED_BY_VOTE = 10

    def describe(self) -> str:
        return self.name.lower().replace("_", " ")


NOTHING_PLAYABLE = "no card still needed can be played"
BEST_REACHED = "the score reached the best score still reachable"

# The end conditions an action of type 4 (end game) may carry.
END_GAME_VALUES = (EndCondition.TIMEOUT, EndCondition.TERMINATED, EndCondition.IDLE_TIMEOUT,
                   EndCondition.ALL_OR_NOTHING_FAIL)


def target_of(deck: Deck, rules: Rules) -> int:
    """The score of a won game, every pile complete: ``deck.target``, but in Up or
    Down and Sudoku the variant's stack size per pile (an Up or Down deck has a
    value more, START: encodings/variants.md, 8)."""
    v = rules.variant
    return v.stack_size * deck.c if chosen_in_play(v) else deck.target  # type: ignore[union-attr]


class Tables:
    """What the deal fixes for the whole game, shared by every copy of a position:
    the copies of each card kind in the deck, which deck cards some legal clue can
    touch, and whether a clue is legal without touching anything."""

    def __init__(self, deck: Deck, rules: Rules):
        n, c = deck.n, deck.c
        self.totals = [0] * (n * c)
        # per card kind (color - 1) * n + value - 1: the deck position of its last
        # copy, -1 if none (whether the deck still holds one, in one look:
        # ``Game._nothing_playable``)
        self.last_at = [-1] * (n * c)
        for o, (a, k) in enumerate(deck.cards):
            x = (k - 1) * n + a - 1
            self.totals[x] += 1
            self.last_at[x] = o
        self.clues = v = clue_rules(rules, deck)
        # Up or Down or Sudoku: the variant whose piles choose their order in play
        self.chosen: Variant | None = rules.variant if chosen_in_play(rules.variant) else None
        self.target = target_of(deck, rules)
        # per color index: a reversed suit, played from the top value n down to 1
        suits = getattr(rules.variant, "suits", ())
        self.down = [bool(getattr(s, "reversed", False)) for s in suits[:c]] + [False] * (c - len(suits[:c]))
        colors, ranks = v.clue_values(True), v.clue_values(False)
        self.free_clue = bool((rules.empty_clues or v.always_legal(True)) and colors
                              or (rules.empty_clues or v.always_legal(False)) and ranks)
        # Alternating Clues where a card is touched by one clue type only: per type
        # (index 1: colour, 0: rank), whether a clue of it is legal touching nothing,
        # and which deck cards it touches (else None: the type never matters)
        self.by_type: tuple[list[bool], list[bool]] | None = None
        self.free_type = ((rules.empty_clues or v.always_legal(False)) and bool(ranks),
                          (rules.empty_clues or v.always_legal(True)) and bool(colors))
        every = getattr(v, "every_card_touchable", False)
        typed = _kind_touches(rules.variant, v, deck) \
            if rules.alternating_clues or not every else {}
        if rules.alternating_clues:
            kinds_t = {card: typed[card] for card in set(deck.cards)}
            if any(r != c for r, c in kinds_t.values()) or not (colors and ranks) \
                    or self.free_type[0] != self.free_type[1]:
                self.by_type = ([kinds_t[card][0] for card in deck.cards],
                                [kinds_t[card][1] for card in deck.cards])
        if every:
            self.touchable = [True] * deck.N
            self.all_touchable = True
            return
        kinds = {card: typed[card][0] or typed[card][1] for card in set(deck.cards)}
        self.touchable = [kinds[card] for card in deck.cards]
        self.all_touchable = all(kinds.values())


def _kind_touches(variant: Variant | None, v: ClueRules,
                  deck: Deck) -> dict[tuple[int, int], tuple[bool, bool]]:
    """Per card (value, color) of the deck: whether some rank clue, and some colour
    clue, of the clue rules ``v`` touches it.  A variant's table is counted once
    for all its deck values and kept (``_TOUCHES``): the deal changes only which
    cards are asked, and counting them per deal was most of ``Tables``' time."""
    if not isinstance(variant, Variant):      # no variant, or a stand-in: per deal
        return _count_touches(v, {(a, k) for a, k in deck.cards})
    table = _TOUCHES.get(variant)
    if table is None:
        if len(_TOUCHES) >= 256:          # variants made on the fly (pile_order's)
            _TOUCHES.clear()
        table = _TOUCHES[variant] = _count_touches(
            v, {(a, k) for a in range(1, variant.deck_n + 1)
                for k in range(1, len(variant.suits) + 1)})
    return table


# a variant's clue touches per card (``_kind_touches``), by the variant (equal
# variants, field by field, touch alike)
_TOUCHES: dict[Variant, dict[tuple[int, int], tuple[bool, bool]]] = {}


def _count_touches(v: ClueRules, cards: set[tuple[int, int]]
                   ) -> dict[tuple[int, int], tuple[bool, bool]]:
    ranks, colors = v.clue_values(False), v.clue_values(True)
    return {(a, k): (any(v.touches(False, x, k - 1, a) for x in ranks),
                     any(v.touches(True, x, k - 1, a) for x in colors))
            for a, k in cards}


@dataclass
class Game(GamePiles):
    """One game in progress.  ``hands[i]`` lists the deck positions player i holds;
    what the piles take and the max score are ``GamePiles``'s."""

    deck: Deck
    rules: Rules
    hands: list[list[int]] = field(default_factory=list)
    # piles[k]: the cards on the pile of color k+1 (its top value, but in a reversed
    # suit, played n down to 1, the top value is n + 1 - piles[k])
    piles: list[int] = field(default_factory=list)
    drawn: int = 0                                     # next deck position to draw
    clues: int | None = None                           # None: unlimited tokens
    strikes: int = 0
    turn: int = 0
    end_turn: int | None = None                        # first turn not played (final round)
    over: bool = False
    lost_cards: list[int] = field(default_factory=list)  # discarded or misplayed positions
    condition: EndCondition = EndCondition.IN_PROGRESS
    cause: str = ""                                    # why a NORMAL end came, in words
    # under hanab.live's end rules before 2019 (Rules.last_turn_unplayable off): the
    # turn at which today's rules ended the game (no card still needed can be played)
    today_end: int | None = None
    # per card kind (color - 1) * n + value - 1: copies lost; per color, the values
    # 1.. that each still have a copy not lost (hanab.live's "max score" per suit; in
    # Up or Down the server's count of the pile, ``pile_score.up_or_down_cap``)
    lost_counts: list[int] = field(default_factory=list)
    caps: list[int] = field(default_factory=list)
    tables: Tables | None = None
    # the type of the game's last clue (True: colour), which Alternating Clues forbids next
    last_clue: bool | None = None
    # Up or Down and Sudoku (``Tables.chosen``): per pile the real values played on it,
    # in order (START as variants.START), and hanab.live's max score, which only falls
    played: list[tuple[int, ...]] = field(default_factory=list)
    best: int = 0
    # Up or Down and Sudoku: the color indices with a kind dead (every copy lost, or
    # none dealt), whose piles the server's max score may count short
    dead_colors: frozenset[int] = frozenset()
    # ``_next_now``: the tables it was counted with, per pile the deck values it
    # takes next and the deck position of their latest copy (-1: none), and the
    # latest of all; replaced as piles grow, never mutated (copies share it)
    needs: tuple[object, tuple[frozenset[int], ...], tuple[int, ...], int] = field(
        default=(None, (), (), -1), compare=False, repr=False)

    @classmethod
    def start(cls, deck: Deck, rules: Rules) -> Game:
        tables = Tables(deck, rules)
        g = cls(deck, rules, piles=[0] * deck.c, clues=rules.max_tokens, tables=tables,
                lost_counts=[0] * (deck.n * deck.c))
        if tables.chosen is not None:
            g.played = [()] * deck.c
            g.best = tables.target
            g._server_max()
        else:
            g.caps = [g._cap(k) for k in range(deck.c)]
        H, N = rules.hand_size, deck.N
        g.hands = [list(range(i * H, min((i + 1) * H, N))) for i in range(rules.players)]
        g.drawn = min(rules.players * H, N)
        if g.drawn == N:
            g._last_card_drawn()
        g._check_end()
        return g

    @classmethod
    def after(cls, deck: Deck, rules: Rules, actions: Iterable[Action]) -> Game:
        """The position after ``actions`` from the deal (IllegalMove names the first
        illegal one by its index)."""
        g = cls.start(deck, rules)
        for i, act in enumerate(actions):
            try:
                described = g.describe(act)
                g.apply(act)
            except IllegalMove as exc:
                raise IllegalMove(f"action #{i}: {described}: {exc}") from None
        return g

    def copy(self) -> Game:
        """An independent copy of this position (the deck, rules and tables are shared)."""
        h = Game.__new__(Game)        # a field-by-field copy: dataclasses.replace is 4x slower
        h.__dict__.update(self.__dict__, hands=[list(x) for x in self.hands],
                          piles=list(self.piles), lost_cards=list(self.lost_cards),
                          lost_counts=list(self.lost_counts), caps=list(self.caps),
                          played=list(self.played))
        return h

    # ---- what the state says --------------------------------------------------

    @property
    def player(self) -> int:
        return (self.turn + self.rules.first_player) % self.rules.players

    @property
    def score(self) -> int:
        """hanab.live's score: the piles, or 0 once the game ended otherwise than
        normally (strikes, a failed speedrun or all or nothing, termination)."""
        if self.condition > EndCondition.NORMAL or self.strikes >= self.rules.strikes:
            return 0
        return sum(self.piles)

    @property
    def target(self) -> int:
        """The score of a won game (``Tables.target``): ``deck.target``, but in Up or
        Down, whose deck has a value for START, the stack size per pile."""
        assert self.tables is not None
        return self.tables.target

    @property
    def won(self) -> bool:
        return self.score == self.target

    @property
    def max_reachable(self) -> int:
        """hanab.live's "max score": per color, the values up to the first one whose
        copies are all lost (or missing from the deck); in Up or Down and Sudoku the
        server's own count (``pile_score``), the lowest it has been."""
        return self.best if self.tables is not None and self.tables.chosen is not None \
            else sum(self.caps)

    def can_discard(self) -> bool:
        # clues is None exactly when the rules give unlimited tokens
        return self.clues is None or self.clues < (self.rules.max_tokens or 0) \
            or self.rules.discard_at_max

    def has_token(self) -> bool:
        return self.clues is None or self.clues >= self.rules.clue_cost

    def tokens_text(self) -> str:
        """The token count as the rules count it, e.g. "8 of 8 clue tokens" (Clue
        Starved counts halves)."""
        unit = "half clue tokens" if self.rules.clue_cost == 2 else "clue tokens"
        return f"{self.clues} of {self.rules.max_tokens} {unit}"

    def cluable(self, p: int) -> bool:
        """Whether the player to move could clue player p (tokens aside)."""
        if p == self.player:
            return False
        assert self.tables is not None
        if self.tables.by_type is not None and self.last_clue is not None:
            return self.cluable_by(p, not self.last_clue)
        if self.tables.free_clue:
            return True
        touchable = self.tables.touchable
        return any(touchable[o] for o in self.hands[p])

    def cluable_by(self, p: int, color: bool) -> bool:
        """Whether player p could be clued by a clue of that type (tokens, turn and
        Alternating Clues aside); only where ``Tables.by_type`` is set."""
        assert self.tables is not None and self.tables.by_type is not None
        touched = self.tables.by_type[color]
        return self.tables.free_type[color] or any(touched[o] for o in self.hands[p])

    def can_clue(self) -> bool:
        return self.has_token() and any(self.cluable(p) for p in range(self.rules.players))

    def deck_play(self) -> int | None:
        """The deck position a deck play may take now (the last card), or None."""
        N = self.deck.N
        return N - 1 if self.rules.deck_plays and self.drawn == N - 1 else None

    def legal_actions(self) -> Iterator[Action]:
        """Every legal move, one clue per clued player (with open hands a clue's
        content changes nothing), in a fixed order: plays, discards, clues."""
        if self.over:
            return
        hand = self.hands[self.player]
        yield from (Action.play(o) for o in hand)
        top = self.deck_play()
        if top is not None:
            yield Action.play(top)
        if self.can_discard():
            yield from (Action.discard(o) for o in hand)
        if self.has_token():
            first = self.rules.alternating_clues and self.last_clue is None
            for p in range(self.rules.players):
                if first and p != self.player:
                    # the game's first clue in Alternating Clues: its type decides
                    # every later clue's, so one of each type
                    yield from self._first_clues(p)
                elif self.cluable(p):
                    yield self.some_clue(p)

    def _first_clues(self, p: int) -> Iterator[Action]:
        """A legal clue of each type to player p, when the game has had no clue."""
        assert self.tables is not None
        if self.tables.by_type is None:      # both types touch alike: one is enough
            if self.cluable(p):
                yield self.some_clue(p)
            return
        for color in (False, True):
            if self.cluable_by(p, color):
                yield self.some_clue(p, color)

    def some_clue(self, p: int, color: bool | None = None) -> Action:
        """A legal clue to player p (see ``some_clue``), of that type if given."""
        assert self.tables is not None
        avoid = None if color is None else not color
        if avoid is None and self.rules.alternating_clues:
            avoid = self.last_clue
        return some_clue(self.rules, self.tables.clues,
                         [self.deck.cards[o] for o in self.hands[p]], p, avoid)

    # ---- moves -------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Carry out ``action`` for the player to move; IllegalMove if it is not legal."""
        if self.over:
            raise IllegalMove("the game is already over")
        kind = action.kind
        if kind in ENDS:
            self._end_by(action)
            return
        me = self.player
        if kind in MOVES:
            self._play_or_discard(action, me)
        else:
            self._clue(action, me)
        self.turn += 1
        self._check_end()

    def _end_by(self, action: Action) -> None:
        if action.kind is Kind.END_GAME_BY_VOTE:
            self._end(EndCondition.TERMINATED_BY_VOTE)
            return
        if action.value not in END_GAME_VALUES:
            raise IllegalMove(f"an end of game names one of the end conditions "
                              f"{', '.join(str(int(c)) for c in END_GAME_VALUES)}")
        self._end(EndCondition(action.value))

    def _play_or_discard(self, action: Action, me: int) -> None:
        order, hand, N = action.target, self.hands[me], self.deck.N
        if not isinstance(order, int) or not 0 <= order < N:
            raise IllegalMove(f"the deck has no card #{order} (it has {N})")
        in_hand = order in hand
        from_deck = not in_hand and action.kind is Kind.PLAY and order == self.deck_play()
        if not in_hand and not from_deck:
            raise IllegalMove(f"player {me} does not hold this card")
        if action.kind is Kind.DISCARD:
            if not self.can_discard():
                raise IllegalMove(f"cannot discard with {self.tokens_text()}")
            self._gain_clue()
            changed, grew = self._lose(order), False
        else:
            a, k = self.card(order)
            if self.takes(k - 1, a):
                self.piles[k - 1] += 1
                changed = k - 1
                grew = True
                if self.played:
                    self.played[k - 1] += (self.real(a),)
                self._pile_grew(k - 1)
                if self.complete(k - 1) and self.rules.top_gives_token:
                    self._gain_clue()
            else:
                self.strikes += 1
                changed, grew = self._lose(order), False
        if self.played and changed is not None and not (
                grew and len(self.played[changed]) > self._max_reads):
            self._server_max(changed)
        if from_deck:
            self.drawn += 1
            self._last_card_drawn()
            return
        hand.remove(order)
        if self.drawn < N:
            hand.append(self.drawn)
            self.drawn += 1
            if self.drawn == N:
                self._last_card_drawn()

    def _clue(self, action: Action, me: int) -> None:
        if not self.has_token():
            raise IllegalMove("cannot clue with no clue tokens" if self.rules.clue_cost == 1
                              else f"cannot clue with {self.tokens_text()} (a clue costs 2)")
        p = action.target
        if not isinstance(p, int) or not 0 <= p < self.rules.players or p == me:
            raise IllegalMove(f"player {me} cannot clue player {p}")
        if action.value is None:
            raise IllegalMove("a clue needs a value (a color index or a rank)")
        assert self.tables is not None
        v = self.tables.clues
        is_color = action.kind is Kind.COLOR_CLUE
        if action.value not in v.clue_values(is_color):
            what = "color" if is_color else "rank"
            raise IllegalMove(f"the variant has no {what} clue {action.value}")
        if not (self.rules.empty_clues or v.always_legal(is_color)) and not any(
                v.touches(is_color, action.value, k - 1, a)
                for a, k in map(self.card, self.hands[p])):
            raise IllegalMove(f"the clue touches no card of player {p}")
        if self.rules.alternating_clues and self.last_clue is is_color:
            was, need = ("color", "rank") if is_color else ("rank", "color")
            raise IllegalMove(f"the previous clue was a {was} clue: in Alternating Clues "
                              f"this one must be a {need} clue")
        if self.clues is not None:
            self.clues -= self.rules.clue_cost
        self.last_clue = is_color

    def _gain_clue(self) -> None:
        if self.clues is not None and self.clues < (self.rules.max_tokens or 0):
            self.clues += 1

    def _last_card_drawn(self) -> None:
        if self.rules.final_round and not self.rules.all_or_nothing:
            self.end_turn = self.turn + self.rules.players + 1

    def _end(self, condition: EndCondition, cause: str = "") -> None:
        self.over, self.condition, self.cause = True, condition, cause

    def _check_end(self) -> None:
        """hanab.live's ``CheckEnd``, in its order, then this project's own ends."""
        r, target = self.rules, self.target
        best, score, hand = self.max_reachable, sum(self.piles), self.hands[self.player]
        if self.strikes >= r.strikes:
            self._end(EndCondition.STRIKEOUT)
        elif r.speedrun and best < target:
            self._end(EndCondition.SPEEDRUN_FAIL)
        elif r.all_or_nothing and best < target:
            self._end(EndCondition.ALL_OR_NOTHING_FAIL)
        elif r.all_or_nothing and not hand and not self.has_token():
            self._end(EndCondition.ALL_OR_NOTHING_SOFTLOCK)
        elif self.end_turn is not None and self.turn >= self.end_turn:
            self._end(EndCondition.NORMAL, "the final round is over")
        elif score == target:
            self._end(EndCondition.NORMAL, "every pile is complete")
        elif r.early_ends and score == best:
            self._end(EndCondition.NORMAL, BEST_REACHED)
        elif r.early_ends and (self.end_turn is not None or self.played) \
                and self.today_end is None and self._nothing_playable():
            if r.last_turn_unplayable:
                self._end(EndCondition.NORMAL, NOTHING_PLAYABLE)
            else:
                self.today_end = self.turn          # the older rules play on
        elif not r.final_round and self.drawn == self.deck.N and not any(self.hands):
            self._end(EndCondition.NORMAL, "the deck and the hands are empty")
        elif not hand and not self.can_clue() and self.deck_play() is None:
            self._end(EndCondition.NORMAL, "the player to move has no legal move")

    def _nothing_playable(self) -> bool:
        """In the final round (in Up or Down and Sudoku at any time, as hanab.live's
        server asks): whether no copy of any card the piles still need is in the deck
        or in the hand of a player with a turn left (hanab.live marks the cards of a
        player whose last turn is over as unplayable)."""
        needs = self.needs
        if needs[0] is not self.tables:
            self._next_now()
            needs = self.needs
        if needs[3] >= self.drawn:            # the deck still holds a needed card
            return False
        need = self._needed_now()
        if not need:
            return True
        p, done = self.rules.players, set()
        if self.end_turn is not None:
            drew = self.end_turn - p - 1          # the turn that drew the last card
            done = {(t + self.rules.first_player) % p for t in range(drew + 1, self.turn)}
        cards = self.deck.cards
        return not any(cards[o] in need for q, hand in enumerate(self.hands)
                       if q not in done for o in hand)

    def _name(self, order: int) -> str:
        a, k = self.card(order)
        return f"{a}:{k}"

    def describe(self, action: Action) -> str:
        """The action with the card it moves, e.g. ``play #7 (3:2)``."""
        if action.is_move and 0 <= action.target < self.deck.N:
            return f"{action} ({self._name(action.target)})"
        return str(action)


def some_clue(rules: Rules, v: ClueRules, hand: list[Card], p: int,
              avoid: bool | None = None) -> Action:
    """A legal clue to player p holding ``hand``: the rank of the first card a rank
    clue touches (its own rank if the variant allows), else a color that touches one,
    else (where a clue may touch nothing) the first legal value.  ``avoid``: a clue
    type that may not be given (True: colour; Alternating Clues' previous type)."""
    ranks = () if avoid is False else v.clue_values(False)
    colors = () if avoid is True else v.clue_values(True)
    for a, k in hand:
        if a in ranks and v.touches(False, a, k - 1, a):
            return Action.rank_clue(p, a)
        for r in ranks:
            if v.touches(False, r, k - 1, a):
                return Action.rank_clue(p, r)
        for x in colors:
            if v.touches(True, x, k - 1, a):
                return Action.color_clue(p, x)
    if ranks and (rules.empty_clues or v.always_legal(False)) or not colors:
        return Action.rank_clue(p, ranks[0])
    return Action.color_clue(p, colors[0])


def typed_clues(start: Game, actions: Iterable[Action]) -> list[Action]:
    """``actions`` from ``start`` with each clue replaced by ``Game.some_clue`` to the
    same player in the state it is given in (the game's first clue keeps its type,
    which decides the others'): in Alternating Clues, a method that chooses no clue
    contents (the search) gets their types right this way, as every clue it gives
    has a legal one (encodings/variants.md, 7.4)."""
    g, out = start.copy(), []
    for act in actions:
        if act.is_clue and isinstance(act.target, int) and 0 <= act.target < len(g.hands):
            act = g.some_clue(act.target, act.kind is Kind.COLOR_CLUE if g.last_clue is None
                              else None)
        g.apply(act)
        out.append(act)
    return out


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
    condition: EndCondition = EndCondition.IN_PROGRESS
    cause: str = ""

    @property
    def end_text(self) -> str:
        """How the game ended, as hanab.live names it (with the cause of a normal end)."""
        text = f"{int(self.condition)} ({self.condition.describe()})"
        return f"{text}: {self.cause}" if self.cause else text


def replay(deck: Deck, rules: Rules, actions: Iterable[Action],
           start: Game | None = None) -> LiveReplay:
    """Play ``actions`` from the deal (or from a copy of the position ``start``);
    stop at the first illegal one."""
    g = Game.start(deck, rules) if start is None else start.copy()
    for i, act in enumerate(actions):
        try:
            g.apply(act)
        except IllegalMove as exc:     # apply checks before it changes anything
            return LiveReplay(False, False, g.score, g.won, g.strikes, g.turn,
                              f"action #{i}: {g.describe(act)}: {exc}", i, g.condition, g.cause)
    return LiveReplay(True, g.over, g.score, g.won, g.strikes, g.turn, condition=g.condition,
                      cause=g.cause)
