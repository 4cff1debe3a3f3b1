"""What a player knows on their turn: the ``View`` (and the cheater's ``CheatView``).

A ``View`` is a snapshot built by the engine (``players.game``) for one player
(``me``) after every turn.  It holds only public information and the other players'
cards; it holds no reference to the viewer's own cards, to the draw pile, to the
deck or to the game: the structure itself keeps a strategy honest (tests walk its
object graph).  Every field is immutable (tuples, frozen records, read-only
mappings), so a strategy may keep old views.

Conventions (those of ``hanabi_cp.core.model`` and ``live.actions``):

- a card is ``Card(value, color)``, value 1..n, color 1..c;
- a card in play is named by its *order*: its position in the deck (0 for the first
  card dealt), as hanab.live numbers cards; orders reveal nothing about identities;
- ``hands[p]`` lists player p's orders, oldest first (a drawn card is appended at
  the end); ``others[p]`` the identities of those cards, ``None`` for ``me``;
- ``piles[color - 1]`` is the top value played of that color (0: none);
- a color clue's ``value`` is the suit index ``color - 1`` (hanab.live's), a rank
  clue's the rank; ``ClueRecord.color`` / ``.rank`` give them 1-based.  In a
  hanab.live variant a color clue's value indexes the variant's clue colors
  (``Variant.clue_colors``), and what a clue touches is the variant's
  (``View.touches``, ``View.clue_value``).

Clue information (``notes[order]``, a ``CardClues``) is kept for every card in a hand:
the color and rank a clue positively named, and the colors and ranks clues said it
is not (a clue to a player tells every untouched card of theirs that it is not that
color / rank).  ``clue_log`` lists every clue with what it touched and what it did
not; ``history`` every turn (``Turn``), with the card a play or discard revealed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from ..real.actions import Action, Kind
from ..real.rules import Rules
from ..core.model import Card


@dataclass(frozen=True, slots=True)
class CardClues:
    """What the clues said about one card in a hand: ``color`` and ``not_colors`` are
    clue color numbers (1-based), which name suits in No Variant only; ``allows``
    reads them so (in a variant, a strategy narrows by what a clue touches:
    ``knowledge.cards.CardSpace.clue_masks``)."""

    color: int | None = None                    # named by a color clue (1-based)
    rank: int | None = None                     # named by a rank clue
    not_colors: frozenset[int] = frozenset()    # colors a clue said it is not
    not_ranks: frozenset[int] = frozenset()     # ranks a clue said it is not
    touched: int = 0                            # how many clues touched it

    @property
    def clued(self) -> bool:
        return self.touched > 0

    def allows(self, card: Card) -> bool:
        """Is ``card`` consistent with these clues?"""
        value, color = card
        return ((self.color is None or self.color == color)
                and (self.rank is None or self.rank == value)
                and color not in self.not_colors and value not in self.not_ranks)


NO_CLUES = CardClues()


@dataclass(frozen=True, slots=True)
class ClueRecord:
    """One clue as everyone saw it."""

    turn: int
    giver: int
    target: int
    kind: Kind                       # Kind.COLOR_CLUE or Kind.RANK_CLUE
    value: int                       # suit index (color - 1) or rank, as in the Action
    touched: tuple[int, ...]         # orders of the target's cards it touched
    untouched: tuple[int, ...]       # the target's other cards at the time

    @property
    def color(self) -> int | None:
        return self.value + 1 if self.kind is Kind.COLOR_CLUE else None

    @property
    def rank(self) -> int | None:
        return self.value if self.kind is Kind.RANK_CLUE else None


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn as everyone saw it (the mover saw the same: a played or discarded
    card is turned face up)."""

    turn: int
    player: int
    action: Action
    slot: int | None = None          # play/discard: the card's index in the mover's hand before
    card: Card | None = None         # play/discard: the card, now revealed
    success: bool | None = None      # play: did the pile grow (False: a strike)
    drawn: int | None = None         # play/discard: the order drawn in its place, if any
    clue: ClueRecord | None = None   # clue: what it touched


@dataclass(frozen=True, eq=False)
class View:
    """The view of player ``me``: everything but ``me``'s own cards and the draw pile.

    Cheap helpers derive what strategies commonly ask: ``card``, ``playable``,
    ``is_trash``, ``touches``, ``score``.
    """

    sees_own_cards: ClassVar[bool] = False

    rules: Rules
    n: int                                       # values 1..n
    c: int                                       # colors 1..c
    copies: Mapping[Card, int]                   # the deck's composition (public)
    me: int
    turn: int                                    # turns played so far (0 first)
    clues: int | None                            # tokens left (None: unlimited)
    strikes: int
    deck_size: int                               # cards left to draw
    turns_left: int | None                       # turns after this view's moment once the
                                                 # last card is drawn, else None
    piles: tuple[int, ...]
    discards: tuple[Card, ...]                   # discarded and misplayed, in order
    hands: tuple[tuple[int, ...], ...]           # orders, every player (oldest first)
    others: tuple[tuple[Card, ...] | None, ...]  # identities; None for me
    notes: Mapping[int, CardClues]               # clue information per order in a hand
    clue_log: tuple[ClueRecord, ...]
    history: tuple[Turn, ...] = field(repr=False)

    # ---- derived ------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def mover(self) -> int:
        """Whose turn it is after this view's moment."""
        return self.turn % self.rules.players

    @property
    def my_hand(self) -> tuple[int, ...]:
        """My orders (the cards themselves are hidden)."""
        return self.hands[self.me]

    @property
    def score(self) -> int:
        return sum(self.piles)

    @property
    def max_clues(self) -> int | None:
        return self.rules.clues

    @property
    def last(self) -> Turn | None:
        return self.history[-1] if self.history else None

    def clued(self, order: int) -> CardClues:
        return self.notes.get(order, NO_CLUES)

    def card(self, order: int) -> Card:
        """The identity of a card in another player's hand (KeyError for my own or
        one not in a hand: played and discarded cards are in ``history``)."""
        for p, hand in enumerate(self.hands):
            cards = self.others[p]
            if cards is not None and order in hand:
                return cards[hand.index(order)]
        raise KeyError(f"card #{order} is not visible to player {self.me}")

    def playable(self, card: Card) -> bool:
        return self.piles[card.color - 1] + 1 == card.value

    def is_trash(self, card: Card) -> bool:
        """Already played, or a lower value of its color has no copy left (the pile
        can never reach it)."""
        top = self.piles[card.color - 1]
        if card.value <= top:
            return True
        gone = self.discard_counts()
        return any(gone.get(Card(v, card.color), 0) >= self.copies.get(Card(v, card.color), 0)
                   for v in range(top + 1, card.value))

    def discard_counts(self) -> dict[Card, int]:
        out: dict[Card, int] = {}
        for x in self.discards:
            out[x] = out.get(x, 0) + 1
        return out

    def touches(self, player: int, kind: Kind, value: int) -> tuple[int, ...]:
        """The orders of ``player``'s cards a clue (kind, value) would touch (empty:
        the clue is illegal, but with empty clues or in a blind variant), by the
        variant's rules.  ``player`` must not be me."""
        cards = self.others[player]
        if cards is None:
            raise ValueError("a player cannot clue themselves")
        is_color = kind is Kind.COLOR_CLUE
        return tuple(o for o, x in zip(self.hands[player], cards) if _touch(self, is_color, value, x))

    def clue_value(self, player: int, is_color: bool, card: Card | None = None) -> int | None:
        """A value for a clue of that type to ``player`` (a color index or a rank, as
        in the Action) that touches ``card`` (one of their cards) if one does, else
        one that touches some card of theirs; None if none does.

        In No Variant a color clue names the card's suit, a rank clue its rank; in a
        variant (rainbow, pink, prism, ... suits) the first value that touches it."""
        cards = self.others[player]
        if cards is None:
            raise ValueError("a player cannot clue themselves")
        v = self.rules.variant
        values = (range(self.c) if is_color else range(1, self.n + 1)) if v is None \
            else v.clue_values(is_color)
        for pick in ([card] if card is not None else []) + list(cards):
            for x in values:
                if _touch(self, is_color, x, pick):
                    return x
        free = self.rules.empty_clues or (v is not None and v.always_legal(is_color))
        return values[0] if free and len(values) else None


@dataclass(frozen=True, eq=False)
class CheatView(View):
    """The view of a strategy that cheats: as ``View``, plus ``own``, the identities
    of the viewer's own cards (in the order of ``my_hand``).  Only strategies with
    ``cheats = True`` receive it."""

    sees_own_cards: ClassVar[bool] = True

    own: tuple[Card, ...] = ()


def _touch(view: View, is_color: bool, value: int, card: Card) -> bool:
    v = view.rules.variant
    if v is None:
        return card.color == value + 1 if is_color else card.value == value
    return v.touches(is_color, value, card.color - 1, card.value)


_new = object.__new__
_set = object.__setattr__


def build_view(cls: type[View], fields: dict[str, object]) -> View:
    """A ``cls`` (View or CheatView) whose fields are ``fields`` (every one, by
    name; the dict becomes the view's own).  The engine builds a view for every
    seat after every turn: a frozen dataclass's ``__init__`` pays one
    ``object.__setattr__`` per field, this one store for all of them."""
    view = _new(cls)
    _set(view, "__dict__", fields)
    return view
