"""The text deck reader streams: lines a chunk at a time, cards into two arrays."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_cp.core.errors import InputError
from hanabi_cp.io import textio
from hanabi_cp.io.deck_text import deck_to_text, parse_deck_text
from hanabi_cp.io.textio import text_lines
from hanabi_cp.apps.generators import random_deck
from hanabi_cp.core.model import COMPACT_FROM_CARDS, CardArray

# Every line break str.splitlines knows, and characters around them.
BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=BREAKS + "ab #", max_size=60), chunk=st.integers(1, 9))
def test_text_lines_are_splitlines_at_any_chunk_size(text, chunk):
    assert list(text_lines(text, chunk)) == text.splitlines()


@pytest.fixture
def monkeypatch_chunk(monkeypatch):
    # lines a chunk at a time, and long lines in runs of tokens of the same size
    def set_chunk(size):
        monkeypatch.setattr(textio, "CHUNK_CHARS", size)
        monkeypatch.setattr(textio, "RUN_CHARS", size)
    return set_chunk


def test_a_large_deck_reads_into_arrays_equal_to_the_deck(monkeypatch_chunk):
    deck = random_deck(3, n=600, c=5, r=2, exact_copies=True)
    assert deck.N >= COMPACT_FROM_CARDS
    text = deck_to_text(deck, h=2, comments=["a large deck"])
    for chunk in (textio.CHUNK_CHARS, 100, 1):
        monkeypatch_chunk(chunk)
        got, h, roles = parse_deck_text(text)
        assert type(got.cards) is CardArray and got == deck and (h, roles) == (2, None)
    small, _, _ = parse_deck_text("1r 2r 1y")
    assert type(small.cards) is tuple and str(small) == "1:1 2:1 1:2"


def test_errors_past_a_chunk_name_their_line(monkeypatch_chunk):
    lines = ["1r 2r"] * 40 + ["3q"]
    monkeypatch_chunk(16)
    with pytest.raises(InputError) as err:
        parse_deck_text("\n".join(lines), "d.txt")
    assert str(err.value).startswith("d.txt:41: ")
    huge = ["1r"] * 30 + ["20000000:1"] + ["1r"] * 30
    with pytest.raises(InputError) as err:
        parse_deck_text("\n".join(huge), "d.txt")
    assert str(err.value) == ("d.txt:31: expected a card value and color of at most "
                              "10,000,000 (hanabi-cp's limit on n x c), found '20000000:1'")
    with pytest.raises(InputError) as err:
        parse_deck_text("1r\n" + "9" * 30 + "r\n", "d.txt")
    assert str(err.value).startswith("d.txt:2: ") and "more than 18 digits" in str(err.value)


def test_a_deck_on_one_line_reads_in_runs_of_tokens(monkeypatch_chunk):
    deck = random_deck(5, n=40, c=5, r=2, exact_copies=True)
    one_line = "h 2\n" + " ".join(str(deck).split()) + "   \n"
    monkeypatch_chunk(7)          # runs cut at any token, and inside runs of spaces
    got, h, _ = parse_deck_text(one_line)
    assert got == deck and h == 2
    with pytest.raises(InputError) as err:
        parse_deck_text(one_line + "1r " * 30 + "3q 1r\n", "d.txt")
    assert str(err.value) == "d.txt:3: expected a card like 3:2 or 3y (colors r y g b w m), found '3q'"
    with pytest.raises(InputError) as err:
        parse_deck_text("h 2 " + "3 " * 50 + "\n1r", "d.txt")
    assert str(err.value).startswith("d.txt:1: expected 'h' followed by one non-negative "
                                     "integer, found 'h 2 3")
