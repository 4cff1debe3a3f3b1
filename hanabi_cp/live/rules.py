"""The parameters of a real-rules game (hanab.live "No Variant").

>>> Rules.for_players(2)
Rules(players=2, hand_size=5, clues=8, strikes=3, final_round=True)
>>> Rules.for_players(6).hand_size
3
>>> Rules.for_players(4, clues=None).clues is None      # unlimited clue tokens
True
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InvalidParameter

# hanab.live's hand sizes: 5 cards for 2-3 players, 4 for 4-5, 3 for 6.
HAND_SIZE = {2: 5, 3: 5, 4: 4, 5: 4, 6: 3}
MAX_CLUES = 8
STRIKES = 3
MIN_PLAYERS, MAX_PLAYERS = 2, 6


class RulesError(InvalidParameter):
    """Game parameters outside what the rules allow.

    >>> Rules.for_players(7)
    Traceback (most recent call last):
    ...
    hanabi_cp.live.rules.RulesError: players must be 2 to 6, found 7
    """


@dataclass(frozen=True)
class Rules:
    """``clues`` is the number of clue tokens, which is both the start and the
    maximum (None: unlimited, for the comparison with the solitaire model);
    ``final_round`` False lifts the end of the game after the last draw, so the game
    goes on until nobody can move.

    >>> Rules(players=3, hand_size=5, clues=None).clues is None
    True
    """

    players: int
    hand_size: int
    clues: int | None = MAX_CLUES
    strikes: int = STRIKES
    final_round: bool = True

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise RulesError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, found {self.players}")
        if not 1 <= self.hand_size <= 100:
            raise RulesError(f"hand size must be 1 to 100, found {self.hand_size}")
        if self.clues is not None and not 0 <= self.clues <= 1000:
            raise RulesError(f"clue tokens must be 0 to 1000 (or unlimited), found {self.clues}")
        if not 1 <= self.strikes <= 1000:
            raise RulesError(f"strikes must be 1 to 1000, found {self.strikes}")

    @classmethod
    def for_players(cls, players: int, hand_size: int | None = None,
                    clues: int | None = MAX_CLUES, strikes: int = STRIKES,
                    final_round: bool = True) -> Rules:
        """The rules for ``players`` with hanab.live's hand size unless one is given."""
        if hand_size is None:
            if players not in HAND_SIZE:
                raise RulesError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, found {players}")
            hand_size = HAND_SIZE[players]
        return cls(players, hand_size, clues, strikes, final_round)

    def describe(self) -> str:
        clues = "unlimited clues" if self.clues is None else f"{self.clues} clues"
        last = "" if self.final_round else ", no final-round limit"
        return (f"{self.players} players, {self.hand_size} cards each, {clues}, "
                f"{self.strikes} strikes{last}")
