"""hanab.live's variants (interim: No Variant only, until the catalogue lands)."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ..errors import InvalidParameter
from .suits import Suit


class UnknownVariant(InvalidParameter):
    """A variant name hanab.live does not list."""


@dataclass(frozen=True)
class Variant:
    name: str
    suits: tuple[Suit, ...]
    clue_colors: tuple[str, ...]
    clue_ranks: tuple[int, ...] = (1, 2, 3, 4, 5)
    stack_size: int = 5

    @property
    def max_score(self) -> int:
        return len(self.suits) * self.stack_size

    def copies(self, suit_index: int, rank: int) -> int:
        return (3, 2, 2, 2, 1)[rank - 1]

    def deck_cards(self) -> list[tuple[int, int]]:
        return [(r, s + 1) for s in range(len(self.suits)) for r in range(1, 6)
                for _ in range(self.copies(s, r))]

    def touches(self, color_clue: bool, value: int, suit_index: int, rank: int) -> bool:
        if color_clue:
            return self.suits[suit_index].name == self.clue_colors[value]
        return rank == value

    def clue_values(self, color_clue: bool) -> tuple[int, ...]:
        return tuple(range(len(self.clue_colors))) if color_clue else self.clue_ranks

    def always_legal(self, color_clue: bool) -> bool:
        return False

    def unsupported(self) -> str | None:
        return None


_COLORS = ("Red", "Yellow", "Green", "Blue", "Purple")


@functools.cache
def all_variants() -> tuple[Variant, ...]:
    return (Variant("No Variant", tuple(Suit(c, c[0]) for c in _COLORS), _COLORS),)


def variant(name: str) -> Variant:
    for v in all_variants():
        if v.name == name:
            return v
    raise UnknownVariant(f"unknown variant {name!r}")


NO_VARIANT = all_variants()[0]
