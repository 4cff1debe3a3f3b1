"""Human-readable reasons why a deck cannot be won under the real rules.

Each function looks at the deal only and returns a sentence or None; a sentence is a
proof that no game wins (the arguments are in encodings/live-search.md, and a test
checks every reason against brute force on thousands of tiny decks).  They are, in
the order ``lost_reasons`` tries them:

- a card with no copy in the deck;
- too few turns: every play before the last draw draws a card, and after it each
  player has one turn left;
- the bottom card: the last card of the deck, if it is the only copy of a card below
  the top value, can only be played on the game's last turn, too late for the rest
  of its color;
- pace: the cards that cannot be played before deck position j is drawn, against
  the draws after j and the final round;
- hand size: the cards that must be held when deck position j is drawn (they cannot
  have been played yet and no copy is left in the deck), against the p*H - 1 places
  the hands have just before that draw.

Py-Hanabi's deck analyzer gives pace, hand-size and critical-card-at-the-bottom
reasons for standard decks; these are the same ideas for any deck, with the
positions of every copy.
"""

from __future__ import annotations

from ..model import Card, Deck
from .rules import Rules


def _cards(cards: list[Card]) -> str:
    shown = ", ".join(map(str, cards[:8]))
    return shown + (f" and {len(cards) - 8} more" if len(cards) > 8 else "")


def missing_reason(deck: Deck, rules: Rules) -> str | None:
    missing = deck.missing()
    if missing:
        what = "card" if len(missing) == 1 else "cards"
        return f"no copy of {what} {_cards(missing)} in the deck"
    return None


def _dealt(deck: Deck, rules: Rules) -> int:
    return min(rules.players * rules.hand_size, deck.N)


def turns_reason(deck: Deck, rules: Rules) -> str | None:
    if not rules.final_round:
        return None
    draws = deck.N - _dealt(deck, rules)
    p = rules.players
    if draws == 0:
        # the deal takes every card: turns 0..p, player 0 moving twice
        H = rules.hand_size
        hands = [len(range(i * H, min((i + 1) * H, deck.N))) for i in range(p)]
        plays = min(2, hands[0]) + sum(min(1, h) for h in hands[1:])
        if plays < deck.target:
            return (f"the deal takes every card, so the game lasts {p + 1} turns, in which "
                    f"the hands can play at most {plays} of the {deck.target} cards")
        return None
    if draws + p < deck.target:
        return (f"too few turns: {deck.target} plays are needed, but each play before "
                f"the last draw draws a card ({draws} draws) and the final round has "
                f"{p} turns")
    return None


def bottom_reason(deck: Deck, rules: Rules) -> str | None:
    N = deck.N
    if not rules.final_round or _dealt(deck, rules) >= N:
        return None
    card = deck.cards[-1]
    if card.value < deck.n and deck.counts[card] == 1:
        after = str(Card(card.value + 1, card.color))
        if card.value + 1 < deck.n:
            after += f"..{Card(deck.n, card.color)}"
        return (f"the last card, #{N - 1} ({card}), is the only copy of {card}: its drawer "
                f"can play it only on the game's last turn, too late for {after}")
    return None


def _gates(deck: Deck, rules: Rules) -> dict[Card, int]:
    """Per card: the deck position that must be drawn before it can be played (-1: it
    can be played from the hands as dealt, as far as copies go)."""
    dealt = _dealt(deck, rules)
    first: dict[Card, int] = {}
    for i, card in enumerate(deck.cards):
        first.setdefault(card, -1 if i < dealt else i)
    gates = {}
    for k in range(1, deck.c + 1):
        gate = -1
        for a in range(1, deck.n + 1):
            gate = max(gate, first[Card(a, k)])
            gates[Card(a, k)] = gate
    return gates


def pace_reason(deck: Deck, rules: Rules) -> str | None:
    N, p = deck.N, rules.players
    if _dealt(deck, rules) >= N or deck.missing():
        return None
    after_last = p if rules.final_round else p * rules.hand_size
    gates = _gates(deck, rules)
    for j in range(_dealt(deck, rules), N):
        late = [card for card, g in gates.items() if g >= j]
        room = N - 1 - j + after_last
        if len(late) > room:
            rest = (f"{N - 1 - j} draws and the final round's {p} turns" if rules.final_round
                    else f"{N - 1 - j} draws and the {after_last} cards the hands can hold")
            return (f"pace: {len(late)} cards can only be played after card #{j} "
                    f"({deck.cards[j]}) is drawn ({_cards(sorted(late, key=_order))}), but "
                    f"only {rest} remain for plays after it")
    return None


def hand_reason(deck: Deck, rules: Rules) -> str | None:
    N, places = deck.N, rules.players * rules.hand_size - 1
    if _dealt(deck, rules) >= N or deck.missing():
        return None
    gates = _gates(deck, rules)
    last = {card: i for i, card in enumerate(deck.cards)}
    for j in range(_dealt(deck, rules), N):
        held = [card for card, g in gates.items() if g >= j and last[card] < j]
        if len(held) > places:
            return (f"hand size: when card #{j} ({deck.cards[j]}) is drawn, {len(held)} cards "
                    f"must be held ({_cards(sorted(held, key=_order))}): none can have been "
                    f"played and no copy is left in the deck; but the hands have "
                    f"{rules.players} x {rules.hand_size} - 1 = {places} places just before "
                    f"that draw")
    return None


def _order(card: Card) -> tuple[int, int]:
    return card.color, card.value


CHECKS = (missing_reason, turns_reason, bottom_reason, pace_reason, hand_reason)


def lost_reasons(deck: Deck, rules: Rules) -> list[str]:
    """Every reason that fires (empty: none of these shows the deck lost)."""
    return [why for check in CHECKS if (why := check(deck, rules)) is not None]


def lost_reason(deck: Deck, rules: Rules) -> str | None:
    """The first reason that fires, or None."""
    for check in CHECKS:
        why = check(deck, rules)
        if why is not None:
            return why
    return None
