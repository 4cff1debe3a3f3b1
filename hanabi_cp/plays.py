"""Play sequences: the certificates every solver returns and anyone can re-check.

One action per scanned card, in deck order: ``P`` play it now, ``S`` store it in the
hand, ``D`` discard it.  Stored cards are played automatically as soon as they
become playable (journal fact 1), so the sequence never names plays from the hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import DeckError

PLAY, STORE, DISCARD = "P", "S", "D"
ACTIONS = (PLAY, STORE, DISCARD)
_WORDS = {"p": PLAY, "play": PLAY, "s": STORE, "store": STORE,
          "d": DISCARD, "discard": DISCARD}


def parse_action(token: str) -> str | None:
    """Map ``P``/``play``/... (any case) to an action letter, or None."""
    return _WORDS.get(token.lower())


@dataclass(frozen=True)
class PlaySequence:
    """The actions, one letter per scanned card, as a string (compact for 10^5 cards)."""

    actions: str

    def __post_init__(self) -> None:
        bad = set(self.actions) - set(ACTIONS)
        if bad:
            raise DeckError(f"play sequence: unknown action(s) {sorted(bad)}; use P, S or D")

    @classmethod
    def from_list(cls, actions) -> "PlaySequence":
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
