"""hanab.live's list of variants, generated from its naming rules.

hanab.live builds its list from families: "X (n Suits)" adds a special suit X to
n-1 basic suits, "X & Y (n Suits)" two of them, "Rainbow-Ones & X (n Suits)"
changes the 1s of every suit, "Critical Fours & X (n Suits)" a rule, and so on.
The rules below say which members each family has; together they give hanab.live's
list at commit 8503cd84 of its repository (2,426 variants, in its order).  Only the
Ambiguous, Dual-Color and Matryoshka families and the Mixes start from hand-picked
suits, written here as short tables.

Two restrictions recur, both hanab.live's judgement of what is playable: a dark
suit (one copy per card) only comes with 5 or more suits, in some families only
with 6; and a combination is left out when another variant already plays the same.

>>> names = [v.name for v in generate()]
>>> len(names), names[:3], names[-1]
(2426, ['No Variant', '6 Suits', '4 Suits'], 'Sudoku & Dark Orange (5 Suits)')
"""

from __future__ import annotations

from .suits import COLORS, SPECIAL_SUITS, SUITS, Suit, reversed_suit
from .catalogue import DEFAULT_CLUE_RANKS, Variant, derive_clue_colors

TYPE_CHECKING = False             # (typing is not imported for it: see hanabi_cp/__init__.py)
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    Entry = tuple[str, tuple[Suit, ...], dict]

SIZES = (6, 5, 4, 3)
LIGHT_SUITS = tuple(s for s in SPECIAL_SUITS if not s.one_of_each)
_RANK_WORDS = {1: "Ones", 5: "Fives"}

# "Ambiguous & Rainbow (3 Suits)" would be "Very Ambiguous (3 Suits)" again, and
# the Very / Extremely Ambiguous families with these suits repeat each other:
# every colour, or every rank's colour, touches them alike (Dark Prism = Dark Rainbow).
_SAME_AS_AMBIGUOUS = frozenset({"Rainbow", "Prism", "Dark Prism"})
# With Synesthesia (no rank clues, colours stand for ranks) these suits play like
# Rainbow, White or Dark Rainbow, which have their own Synesthesia variants.
_SAME_AS_SYNESTHESIA = frozenset({"Pink", "Omni", "Muddy Rainbow", "Light Pink", "Prism", "Dark Pink",
                                  "Dark Omni", "Cocoa Rainbow", "Gray Pink", "Dark Prism"})


def _suits(*names: str) -> tuple[Suit, ...]:
    return tuple(SUITS[name] for name in names)


_BASIC = {n: _suits(*names) for n, names in {1: ("Red",), 2: ("Red", "Blue"), 3: ("Red", "Green", "Blue"),
                                              4: COLORS[:4], 5: COLORS[:5], 6: COLORS[:6]}.items()}


def _basic(n: int) -> tuple[Suit, ...]:
    """The n basic suits a family starts from: Red, then Blue, then Green between
    them, then Yellow, Purple and Teal, so that the colours keep rainbow order."""
    return _BASIC[n]


def _name(prefix: str, n: int, special: Suit | None = None) -> str:
    return f"{prefix}{' & ' + special.name if special else ''} ({n} Suits)"


def _family(prefix: str, rules: dict | None = None, sizes: tuple[int, ...] = SIZES,
            specials: tuple[Suit, ...] = SPECIAL_SUITS, dark_from: int = 5,
            base: Callable[[int], tuple[Suit, ...]] = _basic) -> Iterator[Entry]:
    """"<prefix> (n Suits)" with n base suits, then "<prefix> & X (n Suits)" with
    n-1 base suits and X, for each size; a dark X only from ``dark_from`` suits."""
    rules = rules or {}
    for n in sizes:
        yield _name(prefix, n), base(n), rules
    for x in specials:
        for n in sizes:
            if n >= dark_from or not x.one_of_each:
                yield _name(prefix, n, x), base(n - 1) + (x,), rules


def _basics() -> Iterator[Entry]:
    yield "No Variant", _basic(5), {}
    for n in (6, 4, 3):
        yield f"{n} Suits", _basic(n), {}


def _single_suits() -> Iterator[Entry]:
    """"X (n Suits)": n-1 basic suits and X."""
    for x in SPECIAL_SUITS:
        for n in SIZES:
            if n >= 5 or not x.one_of_each:
                yield _name(x.name, n), _basic(n - 1) + (x,), {}


def _pairs() -> Iterator[Entry]:
    """"X & Y (n Suits)": n-2 basic suits, X and Y, for X before Y in the list of
    special suits.  Suits that clues treat alike are not paired; two dark suits
    only come with 6 suits; with 3 suits, Rainbow or Prism needs a clue colour
    besides Red, or it would be one more red suit."""
    for i, x in enumerate(SPECIAL_SUITS):
        for y in SPECIAL_SUITS[i + 1:]:
            if x.touch_class == y.touch_class:
                continue
            dark = x.one_of_each + y.one_of_each
            for n in SIZES:
                suits = _basic(n - 2) + (x, y)
                if dark and n < 5 or dark == 2 and n < 6:
                    continue
                if n == 3 and {x.name, y.name} & {"Rainbow", "Prism"} and len(derive_clue_colors(suits)) < 2:
                    continue
                yield _name(f"{x.name} & {y.name}", n), suits, {}


def _special_ranks() -> Iterator[Entry]:
    """"Rainbow-Ones (n Suits)": n basic suits whose 1s are touched as Rainbow
    cards are; "Rainbow-Ones & X (n Suits)": n-1 basic suits and X.  For every
    special suit that is neither dark, prism nor orange, then Deceptive, for the
    1s and then the 5s.  Where the special cards answer every or no rank clue,
    their rank is no clue value."""
    for rank, word in _RANK_WORDS.items():
        without = tuple(r for r in DEFAULT_CLUE_RANKS if r != rank)
        for x in SPECIAL_SUITS:
            if x.one_of_each or x.prism or x.inverted:
                continue
            rules: dict[str, object] = {
                "special_rank": rank, "special_all_clue_colors": x.all_clue_colors,
                "special_no_clue_colors": x.no_clue_colors, "special_all_clue_ranks": x.all_clue_ranks,
                "special_no_clue_ranks": x.no_clue_ranks}
            if x.all_clue_ranks or x.no_clue_ranks:
                rules["clue_ranks"] = without
            yield from _family(f"{x.name.replace(' ', '-')}-{word}", rules)
        yield from _family(f"Deceptive-{word}", {"special_rank": rank, "special_deceptive": True,
                                                 "clue_ranks": without})


def _ambiguous() -> Iterator[Entry]:
    """Ambiguous: pairs of shades of one colour; Very Ambiguous: threes;
    Extremely Ambiguous: up to six shades of blue."""
    red, green, blue = _suits("Tomato", "Mahogany"), _suits("Emerald", "Olive"), _suits("Berry", "Navy")
    yield "Ambiguous (6 Suits)", red + green + blue, {}
    yield "Ambiguous (4 Suits)", red + blue, {}
    for x in SPECIAL_SUITS:
        yield _name("Ambiguous", 5, x), red + blue + (x,), {}
        if not x.one_of_each and x.name not in _SAME_AS_AMBIGUOUS:
            yield _name("Ambiguous", 3, x), red + (x,), {}
    blues = _suits("Berry", "Navy", "Sky")
    yield "Very Ambiguous (6 Suits)", _suits("Tomato", "Mahogany", "Carrot") + blues, {}
    yield "Very Ambiguous (3 Suits)", blues, {}
    for x in LIGHT_SUITS:
        if x.name not in _SAME_AS_AMBIGUOUS:
            yield _name("Very Ambiguous", 4, x), blues + (x,), {}
    shades = _suits(*(f"{shade} EA" for shade in ("Ice", "Aqua", "Sky", "Berry", "Navy", "Ocean")))
    specials = tuple(s for s in SPECIAL_SUITS if s.name not in _SAME_AS_AMBIGUOUS)
    yield from _family("Extremely Ambiguous", sizes=(6, 5, 4), base=lambda n: shades[:n], specials=())
    for x in specials:
        for n in (6, 5):
            yield _name("Extremely Ambiguous", n, x), shades[:n - 1] + (x,), {}


def _matryoshka() -> Iterator[Entry]:
    """Red, then suits touched by the first 2, 3, ... colours."""
    dolls = _suits("Ruby", "Yam", "Geas", "Beatnik", "Plum", "Taupe")
    yield from _family("Matryoshka", base=lambda n: dolls[:n])


def _dual_color() -> Iterator[Entry]:
    """Suits touched by two colours; "& X" adds X to the 5- or the 3-suit set."""
    sets = {6: _suits("Tangerine", "Violet", "Maroon", "Jade", "Tan", "Cobalt"),
            5: _suits("Tangerine", "Lime", "Cyan", "Indigo", "Cardinal"),
            3: _suits("Tangerine", "Violet", "Jade")}
    for n, suits in sets.items():
        yield _name("Dual-Color", n), suits, {}
    for x in SPECIAL_SUITS:
        yield _name("Dual-Color", 6, x), sets[5] + (x,), {}
        if not x.one_of_each:
            yield _name("Dual-Color", 4, x), sets[3] + (x,), {}


# The Mixes: hand-picked sets of suits, one variant each.
_MIXES = {
    "Special Mix (5 Suits)": ("Black", "Rainbow", "Pink", "White", "Brown"),
    "Special Mix (6 Suits)": ("Black", "Rainbow", "Pink", "White", "Brown", "Null"),
    "Ambiguous Mix": ("Tomato", "Mahogany", "Sky", "Navy", "Black", "White"),
    "Dual-Color Mix": ("Tangerine", "Violet", "Jade", "Black", "Rainbow", "White"),
    "Ambiguous & Dual-Color Mix": ("Peach", "Tangerine", "Magenta", "Violet", "Lime", "Jungle"),
    "Candy Corn Mix (5 Suits)": ("Red", "Tangerine", "Yellow", "White", "Brown"),
    "Candy Corn Mix (6 Suits)": ("Red", "Tangerine", "Yellow", "White", "Brown", "Cocoa Rainbow"),
    "Holiday Mix (5 Suits)": ("Dark Pink", "Green", "White", "Sky", "Navy"),
    "Holiday Mix (6 Suits)": ("Light Pink", "Red", "Green", "White", "Sky", "Navy"),
    "Valentine Mix (5 Suits)": ("Red", "Pink", "White", "Light Pink", "Cocoa Rainbow"),
    "Valentine Mix (6 Suits)": ("Red", "Pink", "White", "Light Pink", "Cocoa Rainbow", "Null"),
    "RGB Mix (6 Suits)": ("Red", "Gold", "Green", "Cyan", "Blue", "Violet"),
}


def _mixes() -> Iterator[Entry]:
    for name, suits in _MIXES.items():
        yield name, _suits(*suits), {}


def _rule_families() -> Iterator[Entry]:
    """Families of one rule; "Critical Fours (n Suits)" etc. (Critical Fours, Scarce
    Ones and Clue Starved only with 6 or 5 suits, a dark suit only with 6)."""
    yield from _family("Critical Fours", {"critical_rank": 4}, sizes=(6, 5), dark_from=6)
    yield from _family("Scarce Ones", {"scarce_ones": True}, sizes=(6, 5), dark_from=6)
    yield from _family("Clue Starved", {"clue_starved": True}, sizes=(6, 5), specials=LIGHT_SUITS)
    yield from _family("Color Blind", {"color_clues_touch_nothing": True}, specials=())
    yield from _family("Number Blind", {"rank_clues_touch_nothing": True}, specials=())
    yield from _family("Totally Blind", {"color_clues_touch_nothing": True, "rank_clues_touch_nothing": True},
                       specials=())
    yield from _family("Color Mute", {"clue_colors": ()}, specials=())
    yield from _family("Number Mute", {"clue_ranks": ()}, specials=())
    yield from _family("Alternating Clues", {"alternating_clues": True})
    yield from _family("Cow & Pig", {"cow_and_pig": True}, specials=())
    yield from _family("Duck", {"duck": True}, specials=())
    yield from _family("Odds and Evens", {"odds_and_evens": True, "clue_ranks": (1, 2)})
    yield from _family("Synesthesia", {"synesthesia": True, "clue_ranks": ()},
                       specials=tuple(s for s in SPECIAL_SUITS if s.name not in _SAME_AS_SYNESTHESIA))


def _reversed() -> Iterator[Entry]:
    """"Reversed (n Suits)" reverses the last basic suit, "X Reversed (n Suits)"
    the special suit (not for suits with a rank rule, which play alike either way);
    "White Reversed & Rainbow" is an official variant of the published game."""
    for n in SIZES:
        suits = _basic(n)
        yield _name("Reversed", n), suits[:-1] + (reversed_suit(suits[-1]),), {}
    for x in SPECIAL_SUITS:
        if not (x.all_clue_ranks or x.no_clue_ranks):
            for n in SIZES:
                if n >= 5 or not x.one_of_each:
                    yield _name(x.name + " Reversed", n), _basic(n - 1) + (reversed_suit(x),), {}
    official = (reversed_suit(SUITS["White"]), SUITS["Rainbow"])
    for n in (6, 5, 4):
        yield _name("White Reversed & Rainbow", n), _basic(n - 2) + official, {}


def _stack_rule_families() -> Iterator[Entry]:
    yield from _family("Up or Down", {"up_or_down": True}, sizes=(6, 5), dark_from=6)
    yield from _family("Throw It in a Hole", {"throw_it_in_a_hole": True}, sizes=(6, 5, 4), dark_from=6)
    yield from _family("Funnels", {"funnels": True})
    yield from _family("Chimneys", {"chimneys": True})
    # Sudoku needs as many suits as ranks: 4 suits play stacks of 4.
    four = {"sudoku": True, "stack_size": 4, "clue_ranks": (1, 2, 3, 4)}
    five = {"sudoku": True}
    yield _name("Sudoku", 4), _basic(4), four
    yield _name("Sudoku", 5), _basic(5), five
    for n, rules in ((4, four), (5, five)):
        for x in SPECIAL_SUITS:
            if n >= 5 or not x.one_of_each:
                yield _name("Sudoku", n, x), _basic(n - 1) + (x,), rules


_FAMILIES = (_basics, _single_suits, _pairs, _special_ranks, _ambiguous, _matryoshka, _dual_color, _mixes,
             _rule_families, _reversed, _stack_rule_families)


def generate() -> Iterator[Variant]:
    """Every variant, family by family in hanab.live's order."""
    for family in _FAMILIES:
        for name, suits, rules in family():
            yield Variant.from_suits(name, suits, **rules)
