"""What a player could know of their own cards: the post-mortem's "could they have seen it".

The exact methods judge a position with open hands; a player sees every hand but
their own.  For a card a player played or discarded, ``knew`` is the set of
identities (value, color) it could still be for its holder at that moment:

- consistent with every clue the card received while in that hand: a clue that
  touched it says the identity is one the clue touches, a clue to that hand that
  did not touch it says it is not (the variant's touch rules, ``clue_rules``);
- minus the identities all of whose copies the holder can see: in the other
  players' hands, on the piles (one played copy of each value a pile holds; a
  reversed suit's pile holds its values from the top down) and among the lost
  cards (discards and misplays).

This is the information a convention-free player has: no inference from what the
clue giver meant (conventions differ between groups, and a post-mortem that
assumed one would blame a player for not following it).  The card's own identity
is never excluded: its holder does not see it.

``seen`` then classes the action: ``visible`` when it lost points whatever the card
was among ``knew`` (a discard where every identity is the last copy of a card the
piles still need; a misplay where none was playable), ``hidden`` when some
identity in ``knew`` would have made it harmless, ``tempo`` for clues, successful
plays and the discard of a card known to be of no use (what such an action costs
is the turn, not the card).  Where the other copies of a card lie in the deck is
hidden from every player: a discard that lost points only because the other copy
comes too late is ``hidden``.

>>> from hanabi_cp.core.model import Deck
>>> from hanabi_cp.real.rules import Rules
>>> from hanabi_cp.real.actions import Action
>>> from hanabi_cp.real.referee import Game
>>> deck = Deck.of([(1, 1), (2, 1), (1, 2), (2, 2), (1, 1), (1, 2)])
>>> g = Game.start(deck, Rules.for_players(2, hand_size=2, clues=1))
>>> book = ClueBook(g)
>>> book.observe(g, Action.rank_clue(1, 2)); g.apply(Action.rank_clue(1, 2))
>>> [str(c) for c in book.knew(g, 3)]   # Bob's 2:2, clued 2: a 2, and Alice holds the 2:1
['2:2']
>>> seen(g, Action.discard(3), book.knew(g, 3))
'visible'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ...core.model import Card
from ..actions import Action, Kind
from ..referee import Game


class ClueBook:
    """The clue information on every card of one game, walked along its actions:
    ``observe(g, action)`` before ``g.apply(action)``."""

    def __init__(self, g: Game):
        self.identities: tuple[Card, ...] = tuple(sorted(set(g.deck.cards)))
        self._all = (1 << len(self.identities)) - 1
        # deck order -> bit mask over ``identities``; a card no clue touched is absent
        self._mask: dict[int, int] = {}

    def observe(self, g: Game, action: Action) -> None:
        """Record what the clue ``action`` (given at position ``g``) says; other
        actions say nothing about the cards left in a hand."""
        if not action.is_clue or g.tables is None or action.value is None:
            return
        p = action.target
        if not isinstance(p, int) or not 0 <= p < len(g.hands):
            return                  # the referee rejects it; nothing to record
        rules = g.tables.clues
        is_color = action.kind is Kind.COLOR_CLUE
        touched = 0
        for i, (a, k) in enumerate(self.identities):
            if rules.touches(is_color, action.value, k - 1, a):
                touched |= 1 << i
        for order in g.hands[p]:
            a, k = g.card(order)
            hit = rules.touches(is_color, action.value, k - 1, a)
            old = self._mask.get(order, self._all)
            self._mask[order] = old & (touched if hit else ~touched & self._all)

    def consistent(self, order: int) -> list[Card]:
        """The deck's identities consistent with every clue card ``order`` received."""
        mask = self._mask.get(order, self._all)
        return [card for i, card in enumerate(self.identities) if mask >> i & 1]

    def knew(self, g: Game, order: int) -> list[Card]:
        """The identities card ``order`` could be for the player to move at ``g``
        (its holder), sorted by color then value."""
        visible = _visible(g, g.player)
        assert g.tables is not None
        totals, n = g.tables.totals, g.deck.n
        out = [card for card in self.consistent(order)
               if visible[card] < totals[(card.color - 1) * n + card.value - 1]]
        return sorted(out, key=lambda c: (c.color, c.value))


def _visible(g: Game, me: int) -> Counter:
    """The copies of each identity player ``me`` sees: the other hands, the piles
    and the lost cards."""
    cards = g.deck.cards
    seen: Counter = Counter()
    for p, hand in enumerate(g.hands):
        if p != me:
            seen.update(cards[o] for o in hand)
    seen.update(cards[o] for o in g.lost_cards)
    if g.chosen is not None:           # Up or Down, Sudoku: the values played, in order
        v = g.chosen
        for k, played in enumerate(g.played, 1):
            seen.update(Card(v.model_value(r), k) for r in played)
        return seen
    for k, height in enumerate(g.piles, 1):
        seen.update(Card(g.value_at(k - 1, h), k) for h in range(1, height + 1))
    return seen


def critical(g: Game, card: Card) -> bool:
    """Whether ``card`` is the last copy not lost of a value the piles still need
    and can still reach (every lower value has a copy left)."""
    assert g.tables is not None
    k = card.color - 1
    x = k * g.deck.n + card.value - 1
    return g.lost_counts[x] + 1 == g.tables.totals[x] and g.reachable(k, card.value)


def playable(g: Game, card: Card) -> bool:
    return g.takes(card.color - 1, card.value)


def seen(g: Game, action: Action, knew: Sequence[Card]) -> str | None:
    """``visible``, ``hidden`` or ``tempo`` for ``action`` at position ``g`` (before
    it), whose card's holder knew ``knew`` (see the module's text); None for the
    end of a game.  Only what the holder could see counts: an identity is harmful
    by the plain rule (a misplay of a card that is not playable; a discard of the
    last copy of a card the piles still need and can reach), never by where the
    other copies lie in the deck, which no player sees."""
    if action.ends_game:
        return None
    if action.is_clue:
        return "tempo"
    a, k = g.card(action.target)
    if action.kind is Kind.PLAY:
        if playable(g, Card(a, k)):
            return "tempo"
        return "hidden" if any(playable(g, c) for c in knew) else "visible"
    if knew and all(useless(g, c) for c in knew):
        return "tempo"          # a card known to be of no use: only the turn is at stake
    return "visible" if knew and all(critical(g, c) for c in knew) else "hidden"


def useless(g: Game, card: Card) -> bool:
    """Whether no game can play ``card`` any more: its pile already holds its value,
    or a value below it has no copy left."""
    return not g.reachable(card.color - 1, card.value)


def seen_words(seen: str | None, misplay: bool) -> str:
    """``seen`` for a player: what made the action visible, hidden or tempo."""
    if seen == "tempo":
        return ("tempo: a clue, a good play or a card known to be of no use; what it "
                "cost is the turn, not the card")
    if seen == "visible":
        return ("visible: whatever it was among these, "
                + ("playing" if misplay else "discarding") + " it lost points")
    if seen == "hidden":
        return ("hidden: from what they could see, it could be a playable card" if misplay
                else "hidden: from what they could see, it could be a card that was not "
                     "the last copy still needed")
    return ""
