"""Moves of a real-rules game, numbered as hanab.live numbers them in its JSON.

``target`` is the card's position in the deck (its "order") for a play or a
discard, and the player's index for a clue; ``value`` is the clued color (an
index into the variant's clue colors: in No Variant the suit index, color - 1) or
rank.  With open hands a clue's content changes nothing but the tokens: it only
has to be legal (in most variants it must touch a card of another player).
Types 4 and 5 end a game on hanab.live without a move: terminated by a player
(``value`` 4), timed out (3 or 6) or ended by a vote (type 5, value 10); such a
game scores 0.

>>> Action.play(7).to_json()
{'type': 0, 'target': 7}
>>> Action.from_json({"type": 3, "target": 1, "value": 5})
Action(kind=<Kind.RANK_CLUE: 3>, target=1, value=5)
>>> str(Action.discard(3)), str(Action.color_clue(2, 0))
('discard #3', 'clue player 2 color 1')
"""

from __future__ import annotations

import enum
from typing import NamedTuple


class Kind(enum.IntEnum):
    PLAY = 0
    DISCARD = 1
    COLOR_CLUE = 2
    RANK_CLUE = 3
    END_GAME = 4
    END_GAME_BY_VOTE = 5


MOVES = frozenset((Kind.PLAY, Kind.DISCARD))
CLUES = frozenset((Kind.COLOR_CLUE, Kind.RANK_CLUE))
ENDS = frozenset((Kind.END_GAME, Kind.END_GAME_BY_VOTE))


class Action(NamedTuple):
    # A named tuple, not a frozen dataclass: every certificate is replayed action by
    # action, and a frozen dataclass's __init__ sets each field through
    # object.__setattr__, about twice the cost of making a named tuple.
    kind: Kind
    target: int
    value: int | None = None

    @classmethod
    def play(cls, order: int) -> Action:
        return cls(Kind.PLAY, order)

    @classmethod
    def discard(cls, order: int) -> Action:
        return cls(Kind.DISCARD, order)

    @classmethod
    def color_clue(cls, player: int, suit_index: int) -> Action:
        return cls(Kind.COLOR_CLUE, player, suit_index)

    @classmethod
    def rank_clue(cls, player: int, rank: int) -> Action:
        return cls(Kind.RANK_CLUE, player, rank)

    @property
    def is_clue(self) -> bool:
        return self.kind in CLUES

    @property
    def is_move(self) -> bool:
        """A play or a discard: the card leaves the hand and the next one is drawn."""
        return self.kind in MOVES

    @property
    def ends_game(self) -> bool:
        return self.kind in ENDS

    def to_json(self) -> dict:
        out: dict = {"type": int(self.kind), "target": self.target}
        if self.value is not None:
            out["value"] = self.value
        return out

    @classmethod
    def from_json(cls, data: dict) -> Action:
        """From hanab.live's ``{"type", "target", "value"}``; shape errors are the
        caller's to report with a position (see ``real.replay_io``)."""
        return cls(Kind(data["type"]), data["target"], data.get("value"))

    def __str__(self) -> str:
        if self.kind is Kind.PLAY:
            return f"play #{self.target}"
        if self.kind is Kind.DISCARD:
            return f"discard #{self.target}"
        if self.ends_game:
            return "end of game by vote" if self.kind is Kind.END_GAME_BY_VOTE else \
                f"end of game (condition {self.value})"
        what = "color" if self.kind is Kind.COLOR_CLUE else "rank"
        shown = (self.value or 0) + 1 if self.kind is Kind.COLOR_CLUE else self.value
        return f"clue player {self.target} {what} {shown}"
