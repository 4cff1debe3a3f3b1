"""The suits of hanab.live: which colour clues and rank clues touch each suit's
cards, and how many copies of each card the deck holds.

The table below is ours: facts about hanab.live's suits (their names as
hanab.live spells them, the letter it shows for each, and their rule properties),
read from hanab.live's ``packages/game/src/json/suits.json`` at commit 8503cd84
(August 2026) and written here in our own form.  ``encodings/variants.md`` explains the properties.

>>> SUITS["Rainbow"].all_clue_colors, SUITS["Rainbow"].abbreviation
(True, 'M')
>>> SUITS["Tangerine"].clue_colors
('Red', 'Yellow')
>>> suit("Teal Reversed").reversed, suit("Teal Reversed").clue_colors
(True, ('Teal',))
>>> [s.name for s in SPECIAL_SUITS if s.one_of_each][:3]
['Black', 'Dark Rainbow', 'Dark Pink']
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...core.errors import InvalidParameter

REVERSED_SUFFIX = " Reversed"

# The colours a colour clue can name.  A suit named like a colour is touched by it;
# the letters are those hanab.live shows for a colour (its first letter unless
# listed), and a suit without a letter of its own takes its colour's letter.
COLORS = ("Red", "Yellow", "Green", "Blue", "Purple", "Teal", "Black", "Pink", "Brown", "Orange")
_COLOR_LETTERS = {"Black": "K", "Pink": "I", "Brown": "N"}


@dataclass(frozen=True)
class Suit:
    """One suit.  ``clue_colors`` are the colours that touch its cards when none
    of ``all_clue_colors``, ``no_clue_colors`` and ``prism`` applies (empty then).

    >>> SUITS["Dark Pink"]
    Suit(name='Dark Pink', abbreviation='I', one_of_each=True, clue_colors=('Pink',), all_clue_colors=False, \
no_clue_colors=False, all_clue_ranks=True, no_clue_ranks=False, prism=False, inverted=False, reversed=False)
    """

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

    @property
    def touch_class(self) -> tuple[bool, ...]:
        """What decides which clues touch the suit apart from its own colours: two
        special suits of the same class are too alike to be paired in a variant
        (Rainbow and Dark Rainbow, Black and Orange)."""
        return (self.all_clue_colors, self.no_clue_colors, self.all_clue_ranks, self.no_clue_ranks,
                self.prism)


def _suit(name: str, letter: str = "", colors: tuple[str, ...] | None = None, **rules: bool) -> Suit:
    """A suit of the table: its letter defaults to that of the colour of the same
    name, else to its first letter; its clue colours default to the colour of the
    same name, unless colour clues touch it by a rule of its own."""
    if not letter:
        letter = _COLOR_LETTERS.get(name, name[0]) if name in COLORS else name[0]
    if colors is None:
        by_rule = rules.get("all_clue_colors") or rules.get("no_clue_colors") or rules.get("prism")
        colors = () if by_rule else (name,)
    return Suit(name, letter, clue_colors=colors, **rules)


BASIC_SUITS = tuple(_suit(name) for name in COLORS[:6])

# The suits that hanab.live's variant families combine with ("X (6 Suits)",
# "Rainbow-Ones & X", "Critical Fours & X", ...), in the order it lists them.
SPECIAL_SUITS = (
    _suit("Black", one_of_each=True),
    _suit("Rainbow", "M", all_clue_colors=True),
    _suit("Pink", all_clue_ranks=True),
    _suit("White", no_clue_colors=True),
    _suit("Brown", no_clue_ranks=True),
    _suit("Omni", all_clue_colors=True, all_clue_ranks=True),
    _suit("Null", "U", no_clue_colors=True, no_clue_ranks=True),
    _suit("Muddy Rainbow", "M", all_clue_colors=True, no_clue_ranks=True),
    _suit("Light Pink", "I", no_clue_colors=True, all_clue_ranks=True),
    _suit("Prism", "I", prism=True),
    _suit("Orange", inverted=True),
    # Their dark versions: one copy of each card.
    _suit("Dark Rainbow", "M", one_of_each=True, all_clue_colors=True),
    _suit("Dark Pink", "I", ("Pink",), one_of_each=True, all_clue_ranks=True),
    _suit("Gray", "A", one_of_each=True, no_clue_colors=True),
    _suit("Dark Brown", "N", ("Brown",), one_of_each=True, no_clue_ranks=True),
    _suit("Dark Omni", "O", one_of_each=True, all_clue_colors=True, all_clue_ranks=True),
    _suit("Dark Null", "U", one_of_each=True, no_clue_colors=True, no_clue_ranks=True),
    _suit("Cocoa Rainbow", "M", one_of_each=True, all_clue_colors=True, no_clue_ranks=True),
    _suit("Gray Pink", "I", one_of_each=True, no_clue_colors=True, all_clue_ranks=True),
    _suit("Dark Prism", "I", one_of_each=True, prism=True),
    _suit("Dark Orange", "O", ("Orange",), one_of_each=True, inverted=True),
)

# Suits that only the hand-picked families use.
_OTHER_SUITS = (
    # Ambiguous suits: shades that one colour touches ("EA": Extremely Ambiguous).
    _suit("Tomato", "", ("Red",)), _suit("Mahogany", "", ("Red",)), _suit("Carrot", "", ("Red",)),
    _suit("Emerald", "", ("Green",)), _suit("Olive", "", ("Green",)),
    _suit("Berry", "", ("Blue",)), _suit("Navy", "", ("Blue",)), _suit("Sky", "", ("Blue",)),
    *(_suit(f"{shade} EA", "", ("Blue",)) for shade in ("Ice", "Aqua", "Sky", "Berry", "Navy", "Ocean")),
    # Dual-colour suits: two colours touch them (pairs of alike ones in the Ambiguous &
    # Dual-Color Mix: Peach and Tangerine, Magenta and Violet, Lime and Jungle).
    _suit("Tangerine", "", ("Red", "Yellow")), _suit("Violet", "", ("Red", "Blue")),
    _suit("Maroon", "", ("Red", "Black")), _suit("Jade", "", ("Yellow", "Blue")),
    _suit("Tan", "", ("Yellow", "Black")), _suit("Cobalt", "", ("Blue", "Black")),
    _suit("Lime", "", ("Yellow", "Green")), _suit("Cyan", "", ("Green", "Blue")),
    _suit("Indigo", "", ("Blue", "Purple")), _suit("Cardinal", "", ("Red", "Purple")),
    _suit("Peach", "", ("Red", "Yellow")), _suit("Magenta", "", ("Red", "Blue")),
    _suit("Jungle", "", ("Yellow", "Green")), _suit("Gold", "", ("Red", "Green")),
    # Matryoshka suits: the k-th is touched by the first k colours (Ruby by Red alone).
    _suit("Ruby", "", ("Red",)),
    *(_suit(name, "", COLORS[:k]) for k, name in enumerate(("Yam", "Geas", "Beatnik", "Plum", "Taupe"), 2)),
)

SUITS: dict[str, Suit] = {s.name: s for s in BASIC_SUITS + SPECIAL_SUITS + _OTHER_SUITS}


def reversed_suit(base: Suit) -> Suit:
    """``base`` played from 5 down to 1: "X Reversed".

    >>> reversed_suit(SUITS["Rainbow"]).name
    'Rainbow Reversed'
    """
    return replace(base, name=base.name + REVERSED_SUFFIX, reversed=True)


def suit(name: str) -> Suit:
    """The suit hanab.live calls ``name``, "X Reversed" included.

    >>> suit("Purple Reversed").abbreviation
    'P'
    >>> suit("Mauve")
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.InvalidParameter: unknown suit 'Mauve'
    """
    if name in SUITS:
        return SUITS[name]
    if name.endswith(REVERSED_SUFFIX) and name[:-len(REVERSED_SUFFIX)] in SUITS:
        return reversed_suit(SUITS[name[:-len(REVERSED_SUFFIX)]])
    raise InvalidParameter(f"unknown suit {name!r}")
