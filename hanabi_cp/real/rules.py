"""The parameters of a real-rules game: hanab.live's rules, a variant and its options.

>>> Rules.for_players(2)
Rules(2 players, 5 cards each, 8 clues, 3 strikes)
>>> Rules.for_players(6).hand_size
3
>>> Rules.for_players(4, clues=None).clues is None      # unlimited clue tokens
True
>>> print(Rules.for_players(3, first_player=1, deck_plays=True).describe())
3 players, 5 cards each, 8 clues, 3 strikes, player 1 moves first, deck plays
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from ..core.errors import InvalidParameter
from .variants.catalogue import Variant

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
    hanabi_cp.real.rules.RulesError: players must be 2 to 6, found 7
    """


@dataclass(frozen=True)
class Rules:
    """``clues`` is the number of clue tokens, which is both the start and the
    maximum (None: unlimited, for the comparison with the solitaire model);
    ``final_round`` False lifts the end of the game after the last draw, so the game
    goes on until nobody can move.  The rest are hanab.live's: the ``variant`` (which
    cards a clue touches; the deck is the caller's), the player who moves first, and
    the options that change what is legal or how a game ends (``deck_plays``: the last
    card of the deck may be played from it; ``empty_clues``: a clue need not touch a
    card; ``speedrun`` and ``all_or_nothing``: the game ends with 0 once the best score
    still reachable is below the maximum, and in all or nothing there is no final
    round).

    >>> Rules(players=3, hand_size=5, clues=None).clues is None
    True
    """

    players: int
    hand_size: int
    clues: int | None = MAX_CLUES
    strikes: int = STRIKES
    final_round: bool = True
    first_player: int = 0
    variant: Variant | None = None       # None: No Variant's clues on any deck
    deck_plays: bool = False
    empty_clues: bool = False
    speedrun: bool = False
    all_or_nothing: bool = False
    # hanab.live ends a game once no more points can be scored (the score equals the
    # best still reachable from the discards, or nothing needed is playable); other
    # engines (the Hanabi Learning Environment) play on to the final round
    early_ends: bool = True
    # hanab.live's end since 14 February 2019 (its commit 6ee5c74a): in the final round
    # the cards of a player whose last turn is over count as unplayable, so the game
    # ends once no card still needed can be played.  False: the rule before, under
    # which such a game went on until the final round was over (older games as they
    # were recorded; no point can be scored in those extra turns)
    last_turn_unplayable: bool = True

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise RulesError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, found {self.players}")
        if not 1 <= self.hand_size <= 100:
            raise RulesError(f"hand size must be 1 to 100, found {self.hand_size}")
        if self.clues is not None and not 0 <= self.clues <= 1000:
            raise RulesError(f"clue tokens must be 0 to 1000 (or unlimited), found {self.clues}")
        if not 1 <= self.strikes <= 1000:
            raise RulesError(f"strikes must be 1 to 1000, found {self.strikes}")
        if not 0 <= self.first_player < self.players:
            raise RulesError(f"the first player must be 0 to {self.players - 1}, "
                             f"found {self.first_player}")
        why = None if self.variant is None else self.variant.unsupported()
        if why is not None:
            raise RulesError(f"variant {self.variant_name!r} is not supported: {why}")
        if self.clues is None and self.alternating_clues \
                and self.variant.one_type_touches() is not None:        # type: ignore[union-attr]
            # a chain of free clues then turns on (player, type), which the methods'
            # chains of free clues do not follow
            raise RulesError(f"unlimited clue tokens in {self.variant_name!r} are not supported: "
                             f"a card one clue type alone touches makes the clues' order matter")
        if self.deck_plays and self.discard_at_max:
            # hanab.live's server then also lets the last card be discarded from the
            # deck (trying to play an orange card discards it): not modelled
            raise RulesError(f"deck plays in {self.variant_name!r} are not supported: with an "
                             f"Orange suit the last card may also be discarded from the deck")

    @classmethod
    def for_players(cls, players: int, hand_size: int | None = None,
                    clues: int | None = MAX_CLUES, strikes: int = STRIKES,
                    final_round: bool = True, **options) -> Rules:
        """The rules for ``players`` with hanab.live's hand size unless one is given;
        ``options`` are the other fields (variant, first_player, deck_plays, ...)."""
        if hand_size is None:
            if players not in HAND_SIZE:
                raise RulesError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, found {players}")
            hand_size = HAND_SIZE[players]
        return cls(players, hand_size, clues, strikes, final_round, **options)

    # ---- the token rules, which some variants change (encodings/variants.md, 7);
    # read with defaults, so that a stand-in variant of the tests need not say them ----

    @property
    def clue_cost(self) -> int:
        """The tokens a clue spends (2 in Clue Starved, whose tokens count halves)."""
        return getattr(self.variant, "clue_cost", 1)

    @property
    def max_tokens(self) -> int | None:
        """The start and maximum of the game's token count, in the units a clue
        spends ``clue_cost`` of (None: unlimited).

        >>> from hanabi_cp.real.variants.catalogue import variant
        >>> Rules.for_players(3, variant=variant("Clue Starved (5 Suits)")).max_tokens
        16
        """
        return None if self.clues is None else self.clues * self.clue_cost

    @property
    def top_gives_token(self) -> bool:
        """Whether completing a pile gives a token back (not in Throw It in a Hole)."""
        return getattr(self.variant, "top_gives_token", True)

    @property
    def discard_at_max(self) -> bool:
        """Whether a discard is legal at the maximum of tokens (Orange suits)."""
        return getattr(self.variant, "discard_at_max", False)

    @property
    def alternating_clues(self) -> bool:
        """Whether a clue must differ in type from the game's previous clue."""
        return getattr(self.variant, "alternating_clues", False)

    def with_options(self, **changes) -> Rules:
        return replace(self, **changes)

    @property
    def variant_name(self) -> str:
        return "No Variant" if self.variant is None else self.variant.name

    @property
    def is_standard(self) -> bool:
        """hanab.live's No Variant with its tokens, strikes and final round, player 0
        first and no option (the hand size may differ)."""
        plain = self if self.variant is None or self.variant.name != "No Variant" \
            else replace(self, variant=None)
        return plain == Rules(self.players, self.hand_size)

    def options_text(self) -> list[str]:
        """The non-default parts beyond players, hand size, tokens and strikes."""
        out = []
        if not self.final_round:
            out.append("no final-round limit")
        if self.first_player:
            out.append(f"player {self.first_player} moves first")
        out += [name.replace("_", " ") for name in _OPTION_FLAGS if getattr(self, name)]
        if not self.early_ends:
            out.append("no early end (the game goes on while points are out of reach)")
        elif not self.last_turn_unplayable:
            out.append("hanab.live's end rules before 14 February 2019")
        return out

    def describe(self) -> str:
        clues = "unlimited clues" if self.clues is None else f"{self.clues} clues"
        return ", ".join([f"{self.players} players, {self.hand_size} cards each, {clues}, "
                          f"{self.strikes} strikes", *self.options_text()])

    def __repr__(self) -> str:
        variant = "" if self.variant is None else f", variant {self.variant.name}"
        return f"Rules({self.describe()}{variant})"


_OPTION_FLAGS = tuple(f.name for f in fields(Rules) if f.type == "bool"
                      and f.name not in ("final_round", "early_ends", "last_turn_unplayable"))
