"""hanab.live's variant catalogue (hanabi_cp/real/variants/catalogue.py) against hand-worked
facts of hanab.live's rules (encodings/variants.md) and against hanab.live's list."""

import collections
import json
import os
import subprocess
import sys

import pytest

from hanabi_cp.core.errors import InvalidParameter
from hanabi_cp.real.variants import families as variant_families
from hanabi_cp.real.variants.suits import SUITS, suit
from hanabi_cp.real.variants.diff import catalogue_line, differences, digest
from hanabi_cp.real.variants.catalogue import (START, UnknownVariant, Variant, all_variants, supported_variants,
                                               variant)
from hanabi_cp.core.model import Card

# SHA-256 of hanab.live's packages/game/src/json/variants.json at commit 8503cd84
# (August 2026, 2,426 variants), written as variant_diff writes it: the sorted lines
# "name|suit,suit,...|rules" joined by newlines.  To recompute it from a copy of that
# file: python -m hanabi_cp.real.variants.diff path/to/variants.json ("digest of the file").
HANABLIVE_8503CD84_DIGEST = "77d3a890882773aa54da022c9f849cb0f46bc569b7487c682ef5f5ab8b5b20ac"

RANKS = (1, 2, 3, 4, 5)


def touched(v: Variant, color_clue: bool, value: int) -> set[tuple[str, int]]:
    """The (suit, rank) kinds of card the clue touches."""
    return {(s.name, r) for i, s in enumerate(v.suits) for r in v.ranks if v.touches(color_clue, value, i, r)}


# ---- the catalogue is hanab.live's list ------------------------------------------

def test_catalogue_size_and_supported_count():
    assert len(all_variants()) == 2426
    assert len({v.name for v in all_variants()}) == 2426
    assert len(supported_variants()) == 2426


def test_catalogue_digest_equals_hanab_live_8503cd84():
    assert digest([catalogue_line(v) for v in all_variants()]) == HANABLIVE_8503CD84_DIGEST


def test_catalogue_against_a_reference_file():
    path = os.environ.get("HANABLIVE_VARIANTS_JSON")
    if not path:
        pytest.skip("set HANABLIVE_VARIANTS_JSON to a hanab.live variants.json to compare with")
    with open(path, encoding="utf-8") as f:
        entries = json.load(f)
    assert differences(entries) == []


def test_order_is_hanab_lives():
    names = [v.name for v in all_variants()]
    assert names[:4] == ["No Variant", "6 Suits", "4 Suits", "3 Suits"]
    assert names.index("Rainbow-Ones (6 Suits)") < names.index("Deceptive-Ones (6 Suits)") \
        < names.index("Rainbow-Fives (6 Suits)") < names.index("Ambiguous (6 Suits)")
    assert names[-1] == "Sudoku & Dark Orange (5 Suits)"


def test_families_by_their_naming_rules():
    v = variant("Rainbow-Ones & Pink (6 Suits)")
    assert [s.name for s in v.suits] == ["Red", "Yellow", "Green", "Blue", "Purple", "Pink"]
    assert [s.name for s in variant("Rainbow & White (4 Suits)").suits] == ["Red", "Blue", "Rainbow", "White"]
    assert [s.name for s in variant("Reversed (4 Suits)").suits] == ["Red", "Yellow", "Green", "Blue Reversed"]
    names = {v.name for v in all_variants()}
    # Rainbow with only Red to share: no such 3-suit variant; dark suits from 5 suits on.
    assert "Rainbow & White (3 Suits)" not in names and "Rainbow & Brown (3 Suits)" in names
    assert "Black (4 Suits)" not in names and "Black (5 Suits)" in names
    assert "Black & Dark Rainbow (5 Suits)" not in names and "Black & Dark Rainbow (6 Suits)" in names
    assert "Rainbow & Dark Rainbow (6 Suits)" not in names      # clues treat them alike
    assert "Clue Starved & Black (6 Suits)" not in names and "Critical Fours & Black (5 Suits)" not in names
    # Scarce Ones (hanab.live, March 2026) comes between Critical Fours and Clue Starved
    scarce = [n for n in names if n.startswith("Scarce Ones")]
    assert len(scarce) == 33 and "Scarce Ones & Black (5 Suits)" not in names
    order = [v.name for v in all_variants()]
    assert order.index("Critical Fours & Dark Orange (6 Suits)") + 1 == order.index("Scarce Ones (6 Suits)")
    assert order.index("Scarce Ones & Dark Orange (6 Suits)") + 1 == order.index("Clue Starved (6 Suits)")


def test_generation_is_lazy():
    # The catalogue is built on first use only: importing the module or naming the
    # default variant builds none of the 2,426 names (speed is bench's, not a test's).
    names = [v.name for v in variant_families.generate()]
    assert len(names) == len(set(names))
    code = ("import hanabi_cp.real.variants.catalogue as v; assert v.all_variants.cache_info().currsize == 0; "
            "v.NO_VARIANT; assert v.all_variants.cache_info().currsize == 1")
    subprocess.run([sys.executable, "-c", code], check=True)


# ---- clue colours and touch rules --------------------------------------------------

@pytest.mark.parametrize("name, colors", [
    ("No Variant", ["Red", "Yellow", "Green", "Blue", "Purple"]),
    ("Rainbow (5 Suits)", ["Red", "Yellow", "Green", "Blue"]),
    ("Rainbow (6 Suits)", ["Red", "Yellow", "Green", "Blue", "Purple"]),
    ("Black & Rainbow (5 Suits)", ["Red", "Green", "Blue", "Black"]),
    ("Prism (5 Suits)", ["Red", "Yellow", "Green", "Blue"]),
    ("Prism (3 Suits)", ["Red", "Blue"]),
    ("White (4 Suits)", ["Red", "Green", "Blue"]),
    ("Dual-Color (6 Suits)", ["Red", "Yellow", "Blue", "Black"]),
    ("Ambiguous (6 Suits)", ["Red", "Green", "Blue"]),
    ("Extremely Ambiguous (6 Suits)", ["Blue"]),
    ("Holiday Mix (5 Suits)", ["Pink", "Green", "Blue"]),
    ("Orange (5 Suits)", ["Red", "Yellow", "Green", "Blue", "Orange"]),
    ("Dark Pink (5 Suits)", ["Red", "Yellow", "Green", "Blue", "Pink"]),
    ("Color Mute (5 Suits)", []),
])
def test_clue_colors(name, colors):
    v = variant(name)
    assert list(v.clue_colors) == colors
    assert v.clue_values(True) == tuple(range(len(colors)))


def test_rainbow_is_touched_by_every_colour():
    v = variant("Rainbow (5 Suits)")
    for c in v.clue_values(True):
        assert touched(v, True, c) == {(v.clue_colors[c], r) for r in RANKS} | {("Rainbow", r) for r in RANKS}
    assert touched(v, False, 3) == {(s.name, 3) for s in v.suits}


def test_prism_is_touched_by_the_colour_of_its_rank():
    v = variant("Prism (3 Suits)")                     # Red, Blue, Prism; colours [Red, Blue]
    assert {r for s, r in touched(v, True, 0) if s == "Prism"} == {1, 3, 5}
    assert {r for s, r in touched(v, True, 1) if s == "Prism"} == {2, 4}
    v = variant("Prism (5 Suits)")
    assert [c for r in RANKS for c in v.clue_values(True) if v.touches(True, c, 4, r)] == [0, 1, 2, 3, 0]


def test_pink_white_brown_null_omni():
    v = variant("Special Mix (6 Suits)")               # Black, Rainbow, Pink, White, Brown, Null
    assert v.clue_colors == ("Black", "Pink", "Brown")
    for k in RANKS:
        kinds = touched(v, False, k)
        assert {s for s, r in kinds if r != k} == {"Pink"}                 # pink answers every rank
        assert ("Brown", k) not in kinds and ("Null", k) not in kinds     # brown and null no rank
    for c in v.clue_values(True):
        suits = {s for s, _ in touched(v, True, c)}
        assert "White" not in suits and "Null" not in suits and "Rainbow" in suits
    omni = variant("Omni (5 Suits)")
    assert all(omni.touches(t, x, 4, r) for t in (True, False) for x in omni.clue_values(t) for r in RANKS)


def test_suit_rule_beats_special_rank():
    # Null-Ones & Rainbow: the rainbow 1 keeps every colour, and no rank touches a 1.
    v = variant("Null-Ones & Rainbow (5 Suits)")
    assert [v.touches(True, c, 4, 1) for c in v.clue_values(True)] == [True] * 4
    assert not any(v.touches(False, k, i, 1) for k in RANKS for i in range(5))
    assert not any(v.touches(True, c, 0, 1) for c in v.clue_values(True))
    assert v.clue_ranks == (2, 3, 4, 5)
    # Rainbow-Ones & White: the white 1 is touched by no colour, the red 1 by every one.
    v = variant("Rainbow-Ones & White (5 Suits)")
    assert not any(v.touches(True, c, 4, 1) for c in v.clue_values(True))
    assert all(v.touches(True, c, 0, 1) for c in v.clue_values(True))
    assert v.clue_ranks == (1, 2, 3, 4, 5)


def test_deceptive_ones():
    v = variant("Deceptive-Ones (5 Suits)")
    assert v.clue_ranks == (2, 3, 4, 5)
    # suit i's 1 answers only clue_ranks[i mod 4]: red 2, yellow 3, green 4, blue 5, purple 2
    assert [[k for k in v.clue_ranks if v.touches(False, k, i, 1)] for i in range(5)] == [[2], [3], [4], [5], [2]]
    assert v.touches(False, 2, 0, 2) and not v.touches(False, 1, 0, 1)


def test_synesthesia():
    v = variant("Synesthesia (5 Suits)")
    assert v.clue_ranks == () and v.clue_values(False) == ()
    # colour c touches its own suit and rank c+1 of every suit
    assert touched(v, True, 1) == {("Yellow", r) for r in RANKS} | {(s.name, 2) for s in v.suits}
    v = variant("Synesthesia & Brown (5 Suits)")          # colours R Y G B Brown
    assert {c for c in v.clue_values(True) if any(v.touches(True, c, 4, r) for r in RANKS)} == {4}
    assert v.touches(True, 0, 0, 2) and v.touches(True, 1, 0, 2)   # red 2: by Red, and by Yellow (rank 2)


def test_odds_and_evens_funnels_chimneys():
    v = variant("Odds and Evens (5 Suits)")
    assert v.clue_values(False) == (1, 2)
    assert {r for _, r in touched(v, False, 1)} == {1, 3, 5} and {r for _, r in touched(v, False, 2)} == {2, 4}
    assert {r for _, r in touched(variant("Funnels (5 Suits)"), False, 3)} == {1, 2, 3}
    assert {r for _, r in touched(variant("Chimneys (5 Suits)"), False, 3)} == {3, 4, 5}
    v = variant("Funnels & Pink (5 Suits)")
    assert {r for s, r in touched(v, False, 1) if s == "Pink"} == set(RANKS)


def test_blind_and_mute():
    v = variant("Totally Blind (5 Suits)")
    assert v.always_legal(True) and v.always_legal(False)
    assert not any(touched(v, t, x) for t in (True, False) for x in v.clue_values(t))
    v = variant("Color Blind (4 Suits)")
    assert v.always_legal(True) and not v.always_legal(False) and touched(v, False, 1)
    assert not variant("No Variant").always_legal(True)
    assert variant("Color Mute (5 Suits)").clue_values(True) == ()
    assert variant("Number Mute (5 Suits)").clue_values(False) == ()


def test_colour_value_out_of_range():
    with pytest.raises(InvalidParameter, match="has colour clues 0..3"):
        variant("Rainbow (5 Suits)").touches(True, 4, 0, 1)
    with pytest.raises(InvalidParameter):
        variant("Rainbow (5 Suits)").touches(True, -1, 0, 1)


def test_every_touch_is_defined():
    # No variant divides by zero (a prism suit with no clue colour) or indexes outside.
    for v in all_variants():
        for t in (True, False):
            for x in v.clue_values(t):
                for i in range(len(v.suits)):
                    for r in v.ranks:
                        v.touches(t, x, i, r)


# ---- the deck ----------------------------------------------------------------------

@pytest.mark.parametrize("name, index, copies", [
    ("No Variant", 0, [3, 2, 2, 2, 1]),
    ("Black (6 Suits)", 5, [1, 1, 1, 1, 1]),
    ("Critical Fours (5 Suits)", 0, [3, 2, 2, 1, 1]),
    ("Critical Fours & Gray (6 Suits)", 5, [1, 1, 1, 1, 1]),
    ("Reversed (5 Suits)", 4, [1, 2, 2, 2, 3]),
    ("Up or Down (5 Suits)", 0, [1, 2, 2, 2, 1]),
    ("Sudoku (4 Suits)", 0, [2, 2, 2, 2, 0]),
    ("Sudoku (5 Suits)", 0, [2, 2, 2, 2, 2]),
])
def test_copies_per_rank(name, index, copies):
    v = variant(name)
    assert [v.copies(index, r) for r in RANKS] == copies
    assert v.copies(index, START) == (1 if v.up_or_down else 0)


def test_scarce_ones_copies():
    # One 1 fewer in each suit (hanab.live's deck.ts and game_deck.go); a dark suit keeps one.
    v = Variant.from_suits("Scarce", (SUITS["Red"], SUITS["Black"]), scarce_ones=True)
    assert [v.copies(0, r) for r in RANKS] == [2, 2, 2, 2, 1] and v.copies(1, 1) == 1
    six = variant("Scarce Ones & Black (6 Suits)")
    assert six.deck_size == 5 * 9 + 5 and six.unsupported() is None and six.max_score == 30
    assert variant("Scarce Ones (5 Suits)").deck_size == 45
    assert variant("Scarce Ones & Orange (5 Suits)").unsupported() is None   # Orange: encodings 7.3


def test_suits_renamed_in_2026():
    # hanab.live renamed the Matryoshka and mix suits (January 2026); in the Ambiguous &
    # Dual-Color Mix the green shade became Jungle, which Yellow clues touch too.
    assert [s.name for s in variant("Matryoshka (3 Suits)").suits] == ["Ruby", "Yam", "Geas"]
    mix = variant("Ambiguous & Dual-Color Mix")
    assert [s.name for s in mix.suits] == ["Peach", "Tangerine", "Magenta", "Violet", "Lime", "Jungle"]
    assert mix.clue_colors == ("Red", "Yellow", "Blue", "Green")
    assert touched(mix, True, 1) >= {("Jungle", 1), ("Lime", 5)}
    assert suit("Dark Orange").abbreviation == "O" and suit("Gold").clue_colors == ("Red", "Green")


def test_deck_sizes():
    # hanab.live's deck sizes over the catalogue (FACTS: 30 (326), 32 (11), 40 (359), ...).
    sizes = collections.Counter(v.deck_size for v in all_variants())
    assert sizes == {30: 326, 32: 11, 40: 359, 45: 442, 50: 458, 51: 11, 54: 33, 55: 411, 60: 375}
    assert variant("Up or Down & Black (6 Suits)").deck_size == 5 * 9 + 6
    assert variant("Sudoku (4 Suits)").max_score == 16 and variant("Black (6 Suits)").max_score == 30


def test_deck_cards_are_cards():
    v = variant("Black & Rainbow (5 Suits)")
    cards = v.deck_cards()
    assert len(cards) == v.deck_size == 45
    assert cards[:4] == [(1, 1), (1, 1), (1, 1), (2, 1)] and Card(*cards[-1]) == Card(5, 5)
    counts = collections.Counter(cards)
    assert all(counts[(r, i + 1)] == v.copies(i, r) for i in range(5) for r in RANKS)


# ---- names and support -------------------------------------------------------------

def test_unknown_name_names_the_nearest():
    with pytest.raises(UnknownVariant) as info:
        variant("Rainbow (7 Suits)")
    assert str(info.value) == ("unknown variant 'Rainbow (7 Suits)'; nearest: Rainbow (6 Suits), "
                               "Rainbow (5 Suits), Rainbow (4 Suits)")
    assert isinstance(info.value, InvalidParameter)
    assert str(info.value.rename({"variant": "--variant"})).startswith("unknown --variant 'Rainbow")
    with pytest.raises(UnknownVariant, match="rainbow"):
        variant("rainbow (6 suits)")                     # names are case-sensitive
    with pytest.raises(UnknownVariant, match="see all_variants"):
        variant("zzzzzzzzzzzzzzzzzzzz")


def test_unsupported_reasons():
    reasons = collections.Counter((v.unsupported() or "supported").split(" (")[0] for v in all_variants())
    assert reasons == {"supported": 2426}
    assert variant("Alternating Clues & White (5 Suits)").one_type_touches() == "White 1"
    assert variant("Alternating Clues & Null (5 Suits)").one_type_touches() is None
    assert all(v.unsupported() is None or isinstance(v.unsupported(), str) for v in all_variants())
    assert variant("Orange Reversed (5 Suits)").unsupported() is None
    assert variant("Dark Orange (6 Suits)").unsupported() is None
    for name in ("No Variant", "Up or Down & Black (6 Suits)", "Sudoku (4 Suits)", "Cow & Pig (5 Suits)", "Duck (4 Suits)", "Odds and Evens & Gray (6 Suits)",
                 "Critical Fours & Prism (5 Suits)", "Deceptive-Fives & Null (3 Suits)", "RGB Mix (6 Suits)"):
        assert variant(name).unsupported() is None


def test_reversed_suit_names():
    assert suit("Teal Reversed").reversed and suit("Teal Reversed").clue_colors == ("Teal",)
    with pytest.raises(InvalidParameter):
        suit("Teal Reversed Reversed")
