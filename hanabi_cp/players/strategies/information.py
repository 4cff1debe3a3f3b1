"""The information strategy (Strategy 2 of "How to Make the Perfect Fireworks
Display"): every hint tells each other player the hint set of one of their cards.

Each player's *target* is their unidentified card likeliest playable by the public
tables (``knowledge.possibilities``); its table is cut into m = 2(P - 1) hint
sets (``knowledge.partition``) and the card's *value* is the index of its set.
The hinter announces the sum of the other players' values modulo m by which clue
it gives: value v is a rank clue (v < P - 1) or a color clue to the player v mod
(P - 1) + 1 seats after it.  Everyone else subtracts the values they see and
learns their own.  Moves follow the paper's action algorithm; see
docs/strategies/information.md for the choices the paper leaves open.
"""

from __future__ import annotations

from functools import lru_cache

from ...knowledge.cards import CardSpace
from ...knowledge.partition import hint_sets, value_of
from ...knowledge.possibilities import Possibilities
from ...live.actions import Action, Kind
from ...live.rules import Rules
from ..strategy import Strategy, register
from ..view import Turn, View

# The paper discards known-dead cards early only while the discard pile is small.
EARLY_DISCARDS = 5


@lru_cache(maxsize=1 << 16)
def cached_sets(table: int, played: int, m: int) -> tuple[int, ...]:
    """Hint sets are a pure function of public numbers: every seat shares them."""
    return tuple(hint_sets(table, played, m))


def space_of(view: View) -> CardSpace:
    return CardSpace.of_copies(view.n, view.c, {(x.value, x.color): k for x, k in view.copies.items()})


def kinds_seen(view: View, space: CardSpace) -> list[list[int] | None]:
    C = space.colors
    return [None if cards is None else [(x.value - 1) * C + x.color - 1 for x in cards]
            for cards in view.others]


class HintCode:
    """The clue that carries a number 0..m-1 from ``giver``, and back."""

    def __init__(self, players: int):
        self.players = players
        self.m = 2 * (players - 1)

    def receiver(self, giver: int, number: int) -> tuple[int, bool]:
        """(the clued player, whether a color clue)."""
        shift = number % (self.players - 1) + 1
        return (giver + shift) % self.players, number >= self.players - 1

    def number(self, giver: int, receiver: int, is_color: bool) -> int:
        shift = (receiver - giver) % self.players - 1
        return shift + (self.players - 1 if is_color else 0)


@register
class Information(Strategy):
    name = "information"
    summary = "hints are hat-guessing codes for hint sets of each player's likeliest playable card"

    def __init__(self, me: int, rules: Rules, seed: int = 0) -> None:
        super().__init__(me, rules, seed)
        self.code = HintCode(rules.players)
        self.know: Possibilities | None = None
        self.space: CardSpace | None = None

    def _knowledge(self, view: View) -> Possibilities:
        if self.know is None:
            self.space = space_of(view)
            self.know = Possibilities(self.space, [len(h) for h in view.hands])
        return self.know

    def knowledge_state(self) -> tuple:
        """The public tables, for checking that every seat keeps the same."""
        know = self.know
        return () if know is None else (know.board, tuple(tuple(h) for h in know.tables))

    # ---- the hat code -------------------------------------------------------

    def _value(self, know: Possibilities, p: int, slot: int, kind: int) -> int:
        return value_of(list(cached_sets(know.tables[p][slot], know.board.played, self.code.m)), kind)

    def _learn_hint(self, know: Possibilities, view: View, giver: int, number: int) -> None:
        targets = {p: know.target(p) for p in range(view.players) if p != giver}
        seen = kinds_seen(view, know.space)
        values: dict[int, int] = {}
        for p, slot in targets.items():
            hand = seen[p]
            if hand is not None:
                values[p] = self._value(know, p, slot, hand[slot])
        if self.me != giver:
            values[self.me] = (number - sum(values.values())) % self.code.m
        elif sum(values.values()) % self.code.m != number:
            raise AssertionError("the giver's own hint does not decode to its number")
        played, m = know.board.played, self.code.m
        for p, slot in targets.items():
            sets = cached_sets(know.tables[p][slot], played, m)
            if values[p] >= len(sets):
                raise AssertionError(f"hint value {values[p]} names no hint set of player {p}")
            know.narrow(p, slot, sets[values[p]])

    def _clue(self, know: Possibilities, view: View) -> Action:
        seen = kinds_seen(view, know.space)
        total = 0
        for p in range(view.players):
            hand = seen[p]
            if p != self.me and hand is not None:
                total += self._value(know, p, know.target(p), hand[know.target(p)])
        receiver, is_color = self.code.receiver(self.me, total % self.code.m)
        cards = view.others[receiver]
        assert cards is not None
        # Which color or rank carries no code: name one the table has not pinned
        # down (the last such card's), as the paper's simulator does.
        space = know.space
        masks = space.color_masks if is_color else space.rank_masks
        pick = cards[0]
        for slot, x in enumerate(cards):
            t = know.tables[receiver][slot]
            if not any(t & ~masks[v] == 0 for v in range(1, len(masks))):
                pick = x
        if is_color:
            return Action.color_clue(receiver, pick.color - 1)
        return Action.rank_clue(receiver, pick.value)

    # ---- moves --------------------------------------------------------------------

    def act(self, view: View) -> Action:
        know = self._knowledge(view)
        hand = view.my_hand
        mine = know.private(self.me, kinds_seen(view, know.space))
        board = know.board
        for slot, t in enumerate(mine):
            if t & ~board.playable == 0:
                return Action.play(hand[slot])
        public = know.tables[self.me]
        can_discard = view.clues is not None and view.clues < (view.max_clues or 0)
        if len(view.discards) < EARLY_DISCARDS and can_discard:
            for slot, t in enumerate(public):
                if t & ~board.played == 0:
                    return Action.discard(hand[slot])
        if view.clues is None or view.clues > 0:
            return self._clue(know, view)
        return Action.discard(hand[self._discard_slot(know)])

    def _discard_slot(self, know: Possibilities) -> int:
        public, board = know.tables[self.me], know.board
        for slot, t in enumerate(public):
            if t & ~board.played == 0:
                return slot
        known_elsewhere: dict[int, int] = {}
        for hand in know.tables:
            for t in hand:
                if t and not t & (t - 1):
                    known_elsewhere[t] = known_elsewhere.get(t, 0) + 1
        for slot, t in enumerate(public):
            if t and not t & (t - 1) and known_elsewhere[t] > 1:
                return slot
        for slot in range(len(public)):
            kind = know.known_kind(self.me, slot)
            if kind is not None and not know.critical(kind):
                return slot
        for slot in range(len(public)):
            kind = know.known_kind(self.me, slot)
            if kind is None or not know.critical(kind):
                return slot
        return 0

    def observe(self, view: View, turn: Turn) -> None:
        know = self._knowledge(view)
        if turn.clue is not None:
            clue = turn.clue
            is_color = clue.kind is Kind.COLOR_CLUE
            self._learn_hint(know, view, turn.player, self.code.number(turn.player, clue.target, is_color))
            order_slots = {o: i for i, o in enumerate(view.hands[clue.target])}
            touched = {order_slots[o] for o in clue.touched}
            know.clue(clue.target, is_color, clue.value + 1 if is_color else clue.value, touched)
        else:
            assert turn.card is not None and turn.slot is not None
            x = turn.card
            kind = (x.value - 1) * know.space.colors + x.color - 1
            know.remove(turn.player, turn.slot, kind, played=bool(turn.success), drew=turn.drawn is not None)
        know.settle()

