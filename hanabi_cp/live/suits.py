"""hanab.live's suits (interim)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Suit:
    name: str
    abbreviation: str
    one_of_each: bool = False
    clue_colors: tuple[str, ...] = ()
    all_clue_colors: bool = False
    no_clue_colors: bool = False
    all_clue_ranks: bool = False
    no_clue_ranks: bool = False
    prism: bool = False
    inverted: bool = False
    reversed: bool = False
