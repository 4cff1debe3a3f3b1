"""Play sequences: the certificates every solver returns and anyone can re-check.

One action per scanned card, in deck order: ``P`` play it now, ``S`` store it in the
hand, ``D`` discard it.  Stored cards are played automatically as soon as they
become playable (journal fact 1), so the sequence never names plays from the hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import DeckError

PLAY, STORE, DISCARD = "P", "S", "D"
ACTIONS = (PLAY, STORE, DISCARD)
_WORDS = {"p": PLAY, "play": PLAY, "s": STORE, "store": STORE,
          "d": DISCARD, "discard": DISCARD}


def parse_action(token: str) -> str | None:
    """Map ``P``/``play``/... (any case) to an action letter, or None."""
    return _WORDS.get(token.lower())


@dataclass(frozen=True)
class PlaySequence:
    """The actions, one letter per scanned card, as a string (compact for 10^5 cards).

    >>> plays = PlaySequence("SPPD")
    >>> len(plays), plays[0], plays.played, str(plays)
    (4, 'S', 2, 'SPPD')
    """

    actions: str

    def __post_init__(self) -> None:
        bad = set(self.actions) - set(ACTIONS)
        if bad:
            raise DeckError(f"play sequence: unknown action(s) {sorted(bad)}; use P, S or D")

    @classmethod
    def from_list(cls, actions) -> PlaySequence:
        return cls("".join(actions))

    def __len__(self) -> int:
        return len(self.actions)

    def __getitem__(self, i: int) -> str:
        return self.actions[i]

    def __str__(self) -> str:
        return self.actions

    @property
    def played(self) -> int:
        """Cards the sequence plays from the deck directly."""
        return self.actions.count(PLAY)


def play_out(cards, c: int, keep, store) -> PlaySequence:
    """The actions of the normal form every decoder produces (journal fact 1).

    Scanning ``cards`` (colors 1..c): a kept card (``keep(t)``) is played when it is
    playable; otherwise it is stored if ``store(t)`` and no copy of it is in hand
    yet; every other card is discarded.  Stored cards leave the hand by cascade.
    Decoders only choose ``keep`` and ``store``; the referee then judges the result.

    >>> str(play_out([(2, 1), (1, 1), (2, 1)], 1, lambda t: True, lambda t: t == 0))
    'SPD'
    """
    top = [0] * (c + 1)
    hand = set()
    out = []
    for t, (a, k) in enumerate(cards):
        if not keep(t) or top[k] >= a:
            out.append(DISCARD)
        elif top[k] + 1 == a:
            out.append(PLAY)
            top[k] = a
            while (top[k] + 1, k) in hand:
                hand.discard((top[k] + 1, k))
                top[k] += 1
        elif (a, k) not in hand and store(t):
            out.append(STORE)
            hand.add((a, k))
        else:
            out.append(DISCARD)
    return PlaySequence("".join(out))
