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

import functools
import itertools
from collections.abc import Iterator, Sequence

from ..runtime.deadline import TimeUp, poll
from ..core.model import Card, Deck
from .rules import Rules

PHASE = "the lost-deck reasons"
# The highest value to be played of each color (index k - 1 for color k); None: all.
Caps = tuple[int, ...] | None
# Deck positions whose cards a game has lost (discarded or misplayed): the game never
# plays them, so every argument holds for its games with those copies left out.
Lost = frozenset[int]
NONE_LOST: Lost = frozenset()


def _cards(cards: Sequence[Card]) -> str:
    shown = ", ".join(map(str, cards[:8]))
    return shown + (f" and {len(cards) - 8} more" if len(cards) > 8 else "")


def missing_reason(deck: Deck, rules: Rules, caps: Caps = None,
                   lost: Lost = NONE_LOST) -> str | None:
    missing = _missing(deck, caps, lost)
    if missing:
        what = "card" if len(missing) == 1 else "cards"
        where = "in the deck" if not lost else "left (the others are lost)"
        return f"no copy of {what} {_cards(missing)} {where}"
    return None


def _missing(deck: Deck, caps: Caps, lost: Lost = NONE_LOST) -> Sequence[Card]:
    """The cards to be played (every card, or those up to ``caps``) with no copy
    (none but ``lost`` ones)."""
    if caps is None and not lost:
        return deck.missing()       # lazy: its truth costs O(N) whatever n declares
    return [Card(a, k) for k, top in enumerate(_tops(deck, caps), 1)
            for a in range(1, top + 1) if _left(deck, Card(a, k), lost) == 0]


def _left(deck: Deck, card: Card, lost: Lost) -> int:
    """The copies of ``card`` in the deck but the ``lost`` ones."""
    return deck.counts[card] - sum(deck.cards[i] == card for i in lost)


def _dealt(deck: Deck, rules: Rules) -> int:
    return min(rules.players * rules.hand_size, deck.N)


def _final_round(rules: Rules) -> bool:
    """Whether the game ends one round after the last draw (all or nothing has no
    final round: it goes on until the hands are empty)."""
    return rules.final_round and not rules.all_or_nothing


def _after_last(rules: Rules) -> int:
    """The most plays after the last draw: one per player in the final round, else
    every card the hands can hold; one more with deck plays (the last card, played
    on the turn that draws it)."""
    plays = rules.players if _final_round(rules) else rules.players * rules.hand_size
    return plays + rules.deck_plays


def _places(deck: Deck, rules: Rules, j: int) -> int:
    """The cards the hands hold just before deck position j is drawn: p*H - 1 (the
    drawer's play or discard made room), p*H for a deck play (the last card, drawn
    and played at once without a hand)."""
    full = rules.players * rules.hand_size
    return full if rules.deck_plays and j == deck.N - 1 else full - 1


def turns_reason(deck: Deck, rules: Rules, caps: Caps = None,
                 lost: Lost = NONE_LOST) -> str | None:
    if not _final_round(rules):
        return None
    target = deck.target if caps is None else sum(caps)
    draws = deck.N - _dealt(deck, rules)
    p = rules.players
    if draws == 0:
        # the deal takes every card: turns 0..p, the first player moving twice
        H = rules.hand_size
        hands = [len(range(i * H, min((i + 1) * H, deck.N))) for i in range(p)]
        first = rules.first_player
        plays = min(2, hands[first]) + sum(min(1, h) for i, h in enumerate(hands) if i != first)
        if plays < target:
            return (f"the deal takes every card, so the game lasts {p + 1} turns, in which "
                    f"the hands can play at most {plays} of the {target} cards")
        return None
    if draws + p < target:
        return (f"too few turns: {target} plays are needed, but each play before "
                f"the last draw draws a card ({draws} draws) and the final round has "
                f"{p} turns")
    return None


def _tops(deck: Deck, caps: Caps) -> Sequence[int]:
    """The highest value to be played of each color: ``caps``, or every value."""
    return (deck.n,) * deck.c if caps is None else caps


def bottom_reason(deck: Deck, rules: Rules, caps: Caps = None,
                  lost: Lost = NONE_LOST) -> str | None:
    N = deck.N
    # a deck play could play the last card at once, before the final round
    if not _final_round(rules) or rules.deck_plays or _dealt(deck, rules) >= N \
            or N - 1 in lost:
        return None
    card = deck.cards[-1]
    top = _tops(deck, caps)[card.color - 1]
    if card.value < top and _left(deck, card, lost) == 1:
        after = str(Card(card.value + 1, card.color))
        if card.value + 1 < top:
            after += f"..{Card(top, card.color)}"
        return (f"the last card, #{N - 1} ({card}), is the only copy of {card}: its drawer "
                f"can play it only on the game's last turn, too late for {after}")
    return None


def _sweep(deck: Deck, rules: Rules, squeeze: bool, drop_bottom: bool, caps: Caps = None,
           lost: Lost = NONE_LOST):
    """For each deck position j to be drawn: (j, late, held, squeezes).

    ``late``: the cards that cannot be played before j is drawn (their gate, the
    largest first available position over the card and the lower values of its
    color, is >= j; a card dealt to a hand counts as position -1); ``held``: those
    of them with no copy at j or later, which must be in a hand just before j is
    drawn.  With ``squeeze``, when ``held`` fills the p*H - 1 places exactly, no
    other card is in a hand then, so the copies drawn before j of every other late
    card are lost: they stop being available for later positions (``squeezes``
    lists (j, cards) so far).  With ``drop_bottom`` the last card of the deck does
    not count as a copy (see ``_bottom_note``).  With ``caps`` only the values up to
    ``caps[k - 1]`` of each color k are to be played (``score_bound``).  The
    ``lost`` positions are no copies.
    """
    N, dealt = deck.N, _dealt(deck, rules)
    copies: dict[Card, list[int]] = {}
    for i, card in enumerate(deck.cards):
        copies.setdefault(card, [])
        if i not in lost:
            copies[card].append(i)
    if drop_bottom:
        copies[deck.cards[-1]].pop()
    tops = _tops(deck, caps)
    colors = [[Card(a, k) for a in range(1, tops[k - 1] + 1)] for k in range(1, deck.c + 1)]

    def gates_now() -> list[tuple[Card, int]]:
        out = []
        for color in colors:
            gate = -1
            for card in color:
                first = copies[card][0]
                gate = max(gate, -1 if first < dealt else first)
                out.append((card, gate))
        return out

    gates = gates_now()
    squeezes: list[tuple[int, list[Card]]] = []
    for j in range(dealt, N):
        poll(PHASE)          # a step costs O(kinds): 10^4 positions x 10^3 kinds is minutes
        late = [card for card, gate in gates if gate >= j]
        held = [card for card in late if copies[card][-1] < j]
        yield j, late, held, list(squeezes)
        if squeeze and len(held) == _places(deck, rules, j):
            gone = [card for card in late if copies[card][-1] >= j and copies[card][0] < j]
            for card in gone:
                copies[card] = [i for i in copies[card] if i >= j]
            if gone:
                squeezes.append((j, gone))
                gates = gates_now()


def _bottom_note(deck: Deck, rules: Rules, caps: Caps = None,
                 lost: Lost = NONE_LOST) -> str | None:
    """Why a win never uses the last card, if it is below the top value and has
    another copy (with a single copy ``bottom_reason`` fires instead)."""
    card = deck.cards[-1]
    if not _final_round(rules) or rules.deck_plays \
            or card.value >= _tops(deck, caps)[card.color - 1] \
            or deck.N - 1 in lost or _left(deck, card, lost) < 2:
        return None
    return (f"no win uses the last card, #{deck.N - 1} ({card}): only the game's last turn "
            f"could play it, too late for {Card(card.value + 1, card.color)}")


def _first_of_sweeps(deck: Deck, rules: Rules, squeeze: bool, say,
                     caps: Caps = None, lost: Lost = NONE_LOST) -> str | None:
    """The first message ``say(j, late, held, squeezes)`` gives over the sweep, first
    with every copy, then (if that finds nothing) without the useless last card."""
    if _dealt(deck, rules) >= deck.N or _missing(deck, caps, lost):
        return None
    note = _bottom_note(deck, rules, caps, lost)
    for drop in (False, True) if note else (False,):
        for j, late, held, squeezes in _sweep(deck, rules, squeeze, drop, caps, lost):
            why = say(j, late, held, squeezes)
            if why:
                return f"{note}; then {why}" if drop else why
    return None


def _late_message(deck: Deck, rules: Rules, j: int, late: list[Card]) -> str | None:
    N, p = deck.N, rules.players
    after_last = _after_last(rules)
    if len(late) <= N - 1 - j + after_last:
        return None
    rest = (f"{N - 1 - j} draws and the final round's {p} turns" if _final_round(rules)
            else f"{N - 1 - j} draws and the {p * rules.hand_size} cards the hands can hold")
    if rules.deck_plays:
        rest += " (and a deck play of the last card)"
    return (f"pace: {len(late)} cards can only be played after card #{j} "
            f"({deck.cards[j]}) is drawn ({_cards(sorted(late, key=_order))}), but "
            f"only {rest} remain for plays after it")


def _held_message(deck: Deck, rules: Rules, j: int, held: list[Card]) -> str | None:
    places = _places(deck, rules, j)
    if len(held) <= places:
        return None
    minus = " - 1" if places < rules.players * rules.hand_size else ""
    return (f"hand size: when card #{j} ({deck.cards[j]}) is drawn, {len(held)} cards "
            f"must be held ({_cards(sorted(held, key=_order))}): none can have been "
            f"played and no copy is left in the deck; but the hands have "
            f"{rules.players} x {rules.hand_size}{minus} = {places} places just before "
            f"that draw")


@functools.lru_cache(maxsize=256)
def _sweep_reasons(deck: Deck, rules: Rules, caps: Caps = None,
                   lost: Lost = NONE_LOST) -> tuple[str | None, str | None, str | None]:
    """(pace, hand size, squeeze) for ``deck``: each check asks for all three."""
    pace = _first_of_sweeps(deck, rules, False,
                            lambda j, late, held, sq: _late_message(deck, rules, j, late), caps,
                            lost)
    hand = _first_of_sweeps(deck, rules, False,
                            lambda j, late, held, sq: _held_message(deck, rules, j, held), caps,
                            lost)
    if pace or hand:
        return pace, hand, None

    def say(j: int, late: list[Card], held: list[Card], squeezes) -> str | None:
        why = _held_message(deck, rules, j, held) or _late_message(deck, rules, j, late)
        if not (why and squeezes):
            return None
        before = "; ".join(
            f"when card #{at} is drawn the hands hold only cards with no copy left, so "
            f"the earlier copies of {_cards(sorted(lost, key=_order))} are lost"
            for at, lost in squeezes)
        return f"{before}; then {why}"

    return None, None, _first_of_sweeps(deck, rules, True, say, caps, lost)


def pace_reason(deck: Deck, rules: Rules, caps: Caps = None,
                lost: Lost = NONE_LOST) -> str | None:
    return _sweep_reasons(deck, rules, caps, lost)[0]


def hand_reason(deck: Deck, rules: Rules, caps: Caps = None,
                lost: Lost = NONE_LOST) -> str | None:
    return _sweep_reasons(deck, rules, caps, lost)[1]


def squeeze_reason(deck: Deck, rules: Rules, caps: Caps = None,
                   lost: Lost = NONE_LOST) -> str | None:
    """Pace or hand size once full hands have cost the earlier copies of cards (only
    when neither fires without that)."""
    return _sweep_reasons(deck, rules, caps, lost)[2]


def _order(card: Card) -> tuple[int, int]:
    return card.color, card.value


# Each check takes the deal and, optionally, ``caps``: the cards to be played are
# then those of color k up to ``caps[k - 1]`` only (``short_reason``), and ``lost``.
CHECKS = (missing_reason, turns_reason, bottom_reason, pace_reason, hand_reason,
          squeeze_reason)


def lost_reasons(deck: Deck, rules: Rules) -> list[str]:
    """Every reason that fires (empty: none of these shows the deck lost)."""
    return [why for check in CHECKS if (why := check(deck, rules)) is not None]


def lost_reason(deck: Deck, rules: Rules) -> str | None:
    """The first reason that fires, or None (also when the ambient deadline passes
    first: a reason only shortcuts a search, whose own clock then stops it)."""
    try:
        for check in CHECKS:
            why = check(deck, rules)
            if why is not None:
                return why
    except TimeUp:
        return None
    return None


def short_reason(deck: Deck, rules: Rules, caps: tuple[int, ...],
                 lost: Lost = NONE_LOST) -> str | None:
    """A reason no game plays every card of color k up to value ``caps[k - 1]``, or
    None: the checks of ``lost_reasons`` with only those cards to be played.  Each
    argument speaks of a set of cards to be played that holds the lower values of
    each color of a card in it, so it holds for these sets as for the whole deck;
    and of the copies a game can play, so it holds without the ``lost`` ones for the
    games that lose them."""
    every = all(top == deck.n for top in caps)
    tops = None if every else caps      # every card: lost_reason's (cached) sweeps
    return next((why for check in CHECKS
                 if (why := check(deck, rules, tops, lost)) is not None), None)


# At most this many ways to stop short are asked at one score (5 colors: 126 ways
# for 5 cards short); a level with more ends ``score_bound`` where it is.
MOST_WAYS = 200
# A way costs a sweep of about N * n * c steps; ``score_bound`` stops before it has
# asked for more than this many in all (a standard deck: 15 ways cost 19,000).
MOST_STEPS = 20_000_000


def _ways(n: int, c: int, total: int, most: int) -> list[tuple[int, ...]] | None:
    """Every tuple of ``c`` stack heights from 0 to ``n`` adding up to ``total``, or
    None if there are more than ``most``: drawn lazily, so a level too big to ask
    costs at most ``most`` tuples whatever its size (one card short alone has ``c``
    ways, so more colors than ``most`` end it at once)."""
    short = n * c - total
    if short == 0:
        return [(n,) * c]
    if c > most:
        return None
    ways = list(itertools.islice(_shortfalls(n, c, short), most + 1))
    return None if len(ways) > most else ways


def _shortfalls(n: int, c: int, short: int) -> Iterator[tuple[int, ...]]:
    """The heights of ``_ways``: ``short`` cards short over ``c`` colors of ``n``,
    the first colors fullest first (recursion depth ``c``, at most ``MOST_WAYS``)."""
    if c == 0:
        if short == 0:
            yield ()
        return
    for gap in range(max(0, short - n * (c - 1)), min(n, short) + 1):
        for rest in _shortfalls(n, c - 1, short - gap):
            yield (n - gap, *rest)


def _stacks(caps: tuple[int, ...], n: int) -> str:
    if all(a == n for a in caps):
        return "every card"
    return ", ".join(str(Card(a, k)) if a else f"no {k}" for k, a in enumerate(caps, 1))


def score_bound(deck: Deck, rules: Rules, floor: int = 0) -> tuple[int, str | None]:
    """An upper bound on the final score of every game on the deal, no lower than
    ``floor``, and the reason for it (None with the deck's target: no reason fires).

    A game that ends with stacks of heights ``caps`` has played every card up to
    them, and so every card up to any lower heights: if ``short_reason`` refutes
    every way to stack ``k`` cards, no game scores ``k`` or more.  The levels are
    asked from the target down, while each has at most ``MOST_WAYS`` ways and the
    sweeps stay within ``MOST_STEPS``.
    """
    bound, why = deck.target, None
    sweep, steps = deck.N * deck.target, 0
    while bound > floor:
        ways = _ways(deck.n, deck.c, bound, MOST_WAYS)
        steps += sweep * len(ways or ())
        if ways is None or steps > MOST_STEPS:
            break
        failed = []
        for caps in ways:
            short = short_reason(deck, rules, caps)
            if short is None:
                return bound, why
            failed.append(f"stacks up to {_stacks(caps, deck.n)}: {short}")
        what = "the one way" if len(ways) == 1 else f"one of the {len(ways)} ways"
        why = (f"no game scores {bound} or more: such a game stacks every card of "
               f"{what} to stack {bound} cards, and each fails; " + "; ".join(failed))
        bound -= 1
    return bound, why
