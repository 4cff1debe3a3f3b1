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

from ...core.errors import MethodRefused
from ...knowledge.cards import CardSpace
from ...knowledge.possibilities import Public
from ...real.actions import Action, Kind
from ...real.rules import Rules
from ...real.variants.catalogue import Variant
from ...core.model import Card
from ..strategy import Strategy
from ..view import Turn, View

# The paper discards known-dead cards early only while the discard pile is small.
EARLY_DISCARDS = 5


@lru_cache(maxsize=64)
def _space(n: int, c: int, copies: tuple[tuple[int, int, int], ...], variant: Variant | None) -> CardSpace:
    space = CardSpace.of_copies(n, c, {(v, k): x for v, k, x in copies})
    if variant is None:
        return space
    return CardSpace(c, n, space.copies, _clue_masks(variant, n, c))


def _clue_masks(variant: Variant, n: int, c: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The kinds each of the variant's clues touches (``CardSpace.clue_masks``)."""
    def mask(is_color: bool, value: int) -> int:
        return sum(1 << ((r - 1) * c + k) for r in range(1, n + 1) for k in range(c)
                   if variant.touches(is_color, value, k, r))
    colors = (0,) + tuple(mask(True, x) for x in variant.clue_values(True))
    top = max(variant.clue_values(False), default=0)
    ranks = tuple(mask(False, r) if r in variant.clue_values(False) else 0 for r in range(top + 1))
    return colors, ranks


def need_clue_tokens(rules: Rules, name: str) -> None:
    """These strategies hint whenever they have a token and nothing better to do:
    with unlimited tokens a game could go on forever."""
    if rules.clues is None:
        raise MethodRefused(f"strategy {name!r} needs a limited number of clue tokens")


def space_of(view: View) -> CardSpace:
    """The deck's kinds (one shared object per composition)."""
    return _space(view.n, view.c, tuple(sorted((x.value, x.color, k) for x, k in view.copies.items())),
                  view.rules.variant)


def hand_sizes(view: View, turn: Turn | None = None) -> tuple[int, ...]:
    """The hands' sizes in ``view``, or with ``turn``, before it: a seat whose first
    call is ``observe`` (it has not moved yet) starts its tables from the deal, and
    the mover's hand shrank if the deck had no card left to draw."""
    sizes = [len(h) for h in view.hands]
    if turn is not None and turn.clue is None and turn.drawn is None:
        sizes[turn.player] += 1
    return tuple(sizes)


@lru_cache(maxsize=64)
def card_kinds(space: CardSpace) -> dict[Card, int]:
    """Every card's kind (a lookup is cheaper than the arithmetic on a named tuple)."""
    return {Card(space.rank_of(k), space.color_of(k)): k for k in range(space.kinds)}


def kinds_seen(view: View, space: CardSpace) -> list[tuple[int, ...] | None]:
    """The kinds of every hand the viewer sees (None for its own)."""
    kind = card_kinds(space).__getitem__
    return [None if cards is None else tuple(map(kind, cards)) for cards in view.others]


class HintCode:
    """The clue that carries a number 0..m-1 from ``giver``, and back.  The
    *listeners* are the other players holding cards, in seat order after the giver
    (everyone but the giver until the last round empties a one-card hand); a clue
    to the j-th of L listeners is number j (rank) or L + j (color), m = 2L.
    ``of`` shares one code per giver and set of players holding cards."""

    def __init__(self, giver: int, hands: tuple[tuple[int, ...], ...]):
        P = len(hands)
        self.listeners = tuple((giver + i) % P for i in range(1, P) if hands[(giver + i) % P])
        self.m = 2 * len(self.listeners)

    @staticmethod
    def of(giver: int, hands: tuple[tuple[int, ...], ...]) -> HintCode:
        return _hint_code(giver, tuple([bool(h) for h in hands]))

    def receiver(self, number: int) -> tuple[int, bool]:
        """(the clued player, whether a color clue)."""
        L = len(self.listeners)
        return self.listeners[number % L], number >= L

    def number(self, receiver: int, is_color: bool) -> int:
        return self.listeners.index(receiver) + (len(self.listeners) if is_color else 0)


@lru_cache(maxsize=256)
def _hint_code(giver: int, holding: tuple[bool, ...]) -> HintCode:
    return HintCode(giver, tuple((0,) if h else () for h in holding))


class Information(Strategy):
    name = "information"
    reads_variant_clues = True
    summary = "hints are hat-guessing codes for hint sets of each player's likeliest playable card"

    def __init__(self, me: int, rules: Rules, seed: int = 0) -> None:
        super().__init__(me, rules, seed)
        need_clue_tokens(rules, self.name)
        self.public: Public | None = None

    def _public(self, view: View, turn: Turn | None = None) -> Public:
        if self.public is None:
            self.public = Public.start(space_of(view), hand_sizes(view, turn))
        return self.public

    def knowledge_state(self) -> tuple:
        """The public tables, for checking that every seat keeps the same."""
        pub = self.public
        return () if pub is None else (pub.board, pub.used, pub.tables)

    # ---- the hat code -------------------------------------------------------

    def _values(self, pub: Public, seen: list[tuple[int, ...] | None], giver: int, m: int) -> list[int]:
        """The hint value of every hand ``giver``'s hint is about that I see (-1 for
        the giver, for me and for empty hands)."""
        table, targets = pub.values(m), pub.targets()
        return [-1 if p == giver or not hand else table[p][hand[targets[p]]]
                for p, hand in enumerate(seen)]

    def _clue(self, pub: Public, view: View, seen: list[tuple[int, ...] | None]) -> Action:
        code = HintCode.of(self.me, view.hands)
        number = sum(v for v in self._values(pub, seen, self.me, code.m) if v >= 0) % code.m
        receiver, is_color = code.receiver(number)
        cards = view.others[receiver]
        assert cards is not None
        # Which color or rank carries no code: name one the table has not pinned
        # down (the last such card's), as the paper's simulator does.
        space = pub.space
        masks = (space.clue_masks[0 if is_color else 1] if space.clue_masks
                 else space.color_masks if is_color else space.rank_masks)
        pick = cards[0]
        for t, x in zip(pub.tables[receiver], cards):
            if not any(t & ~mask == 0 for mask in masks[1:] if mask):
                pick = x
        value = view.clue_value(receiver, is_color, pick)
        assert value is not None, "check_clues: every card takes a clue of either type"
        return Action.color_clue(receiver, value) if is_color else Action.rank_clue(receiver, value)

    # ---- moves --------------------------------------------------------------------

    def act(self, view: View) -> Action:
        pub = self._public(view)
        hand = view.my_hand
        board = pub.board
        seen = kinds_seen(view, pub.space)
        for slot, t in enumerate(pub.private(seen, self.me)):
            if t & ~board.playable == 0:
                return Action.play(hand[slot])
        can_discard = view.clues is not None and view.clues < (view.max_clues or 0)
        if len(view.discards) < EARLY_DISCARDS and can_discard:
            for slot, t in enumerate(pub.tables[self.me]):
                if t & ~board.played == 0:
                    return Action.discard(hand[slot])
        can_clue = (view.clues is None or view.clues > 0) and HintCode.of(self.me, view.hands).m > 0
        if can_clue:
            return self._clue(pub, view, seen)
        if not can_discard:      # only after the last draw with one-card hands: nobody to clue
            return Action.play(hand[0])
        return Action.discard(hand[self._discard_slot(pub)])

    def _discard_slot(self, pub: Public) -> int:
        mine, played = pub.tables[self.me], pub.board.played
        for slot, t in enumerate(mine):
            if t & ~played == 0:
                return slot
        identified: dict[int, int] = {}
        for tables in pub.tables:
            for t in tables:
                if t and not t & (t - 1):
                    identified[t] = identified.get(t, 0) + 1
        for slot, t in enumerate(mine):
            if t and not t & (t - 1) and identified[t] > 1:
                return slot
        for slot in range(len(mine)):
            kind = pub.known_kind(self.me, slot)
            if kind is not None and not pub.critical(kind):
                return slot
        for slot in range(len(mine)):
            kind = pub.known_kind(self.me, slot)
            if kind is None or not pub.critical(kind):
                return slot
        return 0

    def observe(self, view: View, turn: Turn) -> None:
        pub = self.public or self._public(view, turn)
        clue = turn.clue
        if clue is not None:
            giver = turn.player
            is_color = clue.kind is Kind.COLOR_CLUE
            code = HintCode.of(giver, view.hands)       # a clue moves no card
            number = code.number(clue.target, is_color)
            # the value of every hand I see: its target card's (only that card's
            # kind is looked up)
            table, targets, kind_of = pub.values(code.m), pub.targets(), card_kinds(pub.space)
            values = [-1 if p == giver or not cards else table[p][kind_of[cards[targets[p]]]]
                      for p, cards in enumerate(view.others)]
            known = sum(v for v in values if v >= 0)
            if self.me != giver and view.my_hand:
                values[self.me] = (number - known) % code.m
            elif self.me == giver and known % code.m != number:
                raise AssertionError("the giver's own hint does not decode to its number")
            hand = view.hands[clue.target]
            touched = tuple(hand.index(o) for o in clue.touched)
            self.public = pub.after_hint(code.m, tuple(values), clue.target, is_color,
                                         clue.value + 1 if is_color else clue.value, touched)
        else:
            assert turn.card is not None and turn.slot is not None
            x = turn.card
            kind = (x.value - 1) * pub.space.colors + x.color - 1
            self.public = pub.after_removal(turn.player, turn.slot, kind, bool(turn.success),
                                            turn.drawn is not None)
