"""File formats: good files read as intended, each bad file gives its exact message,
and everything we write reads back unchanged."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from hanabi_cp.solvers.formula import CNF
from hanabi_cp.core.errors import FileError, HanabiError, InputError
from hanabi_cp.io import (DeckFile, deck_to_json, deck_to_text, open_output, parse_deck_file, read_deck_file,
                          write_deck)
from hanabi_cp.solvers.dimacs import dimacs_text, parse_dimacs, read_dimacs, write_dimacs
from hanabi_cp.solitaire.play_text import read_plays, write_plays
from hanabi_cp.apps.generators import random_kcnf, standard_deck
from hanabi_cp.real.replay_io import read_replay
from hanabi_cp.core.model import Deck
from hanabi_cp.solitaire.play_sequence import PlaySequence
from test_live_cli import BAD as LIVE_BAD

DATA = Path(__file__).parent / "data"
SATLIB = Path(__file__).resolve().parents[1] / "instances" / "satlib"

BAD = {
    # text decks
    "bad_deck_unknown_color.txt":
        "bad_deck_unknown_color.txt:3: expected a card like 3:2 or 3y (colors r y g b w m), "
        "found '4q'",
    "bad_deck_value_zero.txt":
        "bad_deck_value_zero.txt:1: expected a card value >= 1, found '0y'",
    "bad_deck_color_beyond_c.txt":
        "bad_deck_color_beyond_c.txt:3: expected a card color in 1..2 (line 1 says c 2), "
        "found '1g'",
    "bad_deck_value_beyond_n.txt":
        "bad_deck_value_beyond_n.txt:2: expected a card value in 1..2 (line 1 says n 2), "
        "found '3r'",
    "bad_deck_empty.txt":
        "bad_deck_empty.txt: expected a deck (cards like 3:2 or 3y), found an empty file",
    "bad_deck_only_comments.txt":
        "bad_deck_only_comments.txt: expected at least one card (or both 'n' and 'c' header "
        "lines for an empty deck), found no cards",
    "bad_deck_header_after_cards.txt":
        "bad_deck_header_after_cards.txt:2: expected header lines (n, c, h) before the first "
        "card, found 'h 2'",
    "bad_deck_duplicate_header.txt":
        "bad_deck_duplicate_header.txt:3: expected one 'h' header line, found a second one "
        "(the first is on line 1)",
    "bad_deck_bad_header_value.txt":
        "bad_deck_bad_header_value.txt:1: expected 'n' followed by one non-negative integer, "
        "found 'n five'",
    "bad_deck_negative_hand.txt":
        "bad_deck_negative_hand.txt:1: expected 'h' followed by one non-negative integer, "
        "found 'h -1'",
    "bad_deck_role_after_cards.txt":
        "bad_deck_role_after_cards.txt:2: expected the first '#: role' line before the first "
        "card (a file with roles gives one to every card), found it after card #2",
    "bad_deck_empty_role.txt":
        "bad_deck_empty_role.txt:1: expected '#: role NAME' with a non-empty NAME, "
        "found '#: role'",
    "bad_deck_binary.bin":
        "bad_deck_binary.bin:1: expected UTF-8 text, found byte 0x89",
    "bad_deck_nul.txt":
        "bad_deck_nul.txt:2: expected text, found a NUL byte (a binary file?)",
    # JSON decks
    "bad_deck_invalid_json.json":
        "bad_deck_invalid_json.json:3: expected valid JSON (Expecting ',' delimiter), "
        "found end of file",
    "bad_deck_wrong_shape.json":
        'bad_deck_wrong_shape.json:1: expected a JSON object with "cards" (a hanabi-cp deck) '
        'or "deck" (a hanab.live export), found [[1, 1], [2, 1]]',
    "bad_deck_card_shape.json":
        "bad_deck_card_shape.json:3: expected card #2 as [value, color], two integers >= 1, "
        "found [2]",
    "bad_deck_unknown_key.json":
        'bad_deck_unknown_key.json:3: expected only the keys "c", "cards", "comments", "h", '
        '"n", "roles", found "hand"',
    "bad_deck_roles_length.json":
        'bad_deck_roles_length.json:3: expected "roles": one per card (2), found 1',
    "bad_deck_json_color_beyond_c.json":
        'bad_deck_json_color_beyond_c.json:3: expected card #2 with a color in 1..1 ("c": 1), '
        "found [1, 2]",
    "bad_deck_json_bool_value.json":
        "bad_deck_json_bool_value.json:1: expected card #1 as [value, color], two integers "
        ">= 1, found [true, 1]",
    "bad_hanab_live_rank_zero.json":
        'bad_hanab_live_rank_zero.json:3: expected card #2 as {"suitIndex": s >= 0, '
        '"rank": r >= 1}, found {"suitIndex": 1, "rank": 0}',
    "bad_hanab_live_empty_deck.json":
        'bad_hanab_live_empty_deck.json:2: expected "deck": a non-empty list of '
        '{"suitIndex": s, "rank": r}, found []',
    # DIMACS
    "bad_cnf_missing_header.cnf":
        "bad_cnf_missing_header.cnf:2: expected a 'p cnf VARIABLES CLAUSES' header before "
        "the first clause, found '1 -2 0'",
    "bad_cnf_too_few_clauses.cnf":
        "bad_cnf_too_few_clauses.cnf:2: expected 5 clauses as 'p cnf 3 5' declares, found 4",
    "bad_cnf_too_many_clauses.cnf":
        "bad_cnf_too_many_clauses.cnf:1: expected 1 clause as 'p cnf 2 1' declares, found 2",
    "bad_cnf_literal_beyond.cnf":
        "bad_cnf_literal_beyond.cnf:3: expected literals within -3..3 as 'p cnf 3 2' "
        "declares, found -4",
    "bad_cnf_unterminated.cnf":
        "bad_cnf_unterminated.cnf:3: expected a clause ending in 0, found end of the formula "
        "after -1 3",
    "bad_cnf_bad_token.cnf":
        "bad_cnf_bad_token.cnf:2: expected integer literals, found 'x2'",
    "bad_cnf_bad_header.cnf":
        "bad_cnf_bad_header.cnf:1: expected 'p cnf VARIABLES CLAUSES' with two non-negative "
        "integers, found 'p dnf 3 1'",
    "bad_cnf_two_headers.cnf":
        "bad_cnf_two_headers.cnf:2: expected one 'p cnf' header, found a second one "
        "(the first is on line 1)",
    "bad_cnf_empty.cnf":
        "bad_cnf_empty.cnf: expected a DIMACS CNF formula, found an empty file",
    "bad_cnf_only_comments.cnf":
        "bad_cnf_only_comments.cnf:3: expected a 'p cnf VARIABLES CLAUSES' header, "
        "found end of file",
    "bad_cnf_non_utf8.cnf":
        "bad_cnf_non_utf8.cnf:1: expected UTF-8 text, found byte 0xe9",
    # play sequences
    "bad_plays_unknown_action.txt":
        "bad_plays_unknown_action.txt:2: expected an action P, S, D (or play, store, discard), "
        "found 'DPX'",
    "bad_plays_unwinnable_output.txt":
        "bad_plays_unwinnable_output.txt:2: expected the certificate of a winnable deck, "
        "found 's UNWINNABLE'",
    "bad_plays_empty.txt":
        "bad_plays_empty.txt: expected a play sequence (P, S, D), found an empty file",
    "bad_plays_wrong_shape.json":
        'bad_plays_wrong_shape.json:1: expected a JSON object with "plays", '
        'found {"actions": "PSD"}',
    "bad_plays_bad_letter.json":
        "bad_plays_bad_letter.json:2: expected \"plays\": letters P, S, D, found 'Q'",
}


BAD.update(LIVE_BAD)      # real-rules games (their tests are in test_live_cli)


def reader_for(name: str):
    if name.startswith("bad_live_"):
        return read_replay
    if "_cnf" in name:
        return read_dimacs
    if "_plays" in name:
        return read_plays
    return read_deck_file


def test_every_bad_file_has_a_message():
    on_disk = {p.name for p in DATA.glob("bad_*")}
    assert on_disk == set(BAD)


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_file_message(name, monkeypatch):
    monkeypatch.chdir(DATA)
    with pytest.raises(InputError) as err:
        reader_for(name)(name)
    assert str(err.value) == BAD[name]


@pytest.mark.parametrize("reader", [read_deck_file, read_dimacs, read_plays])
def test_missing_file(reader, tmp_path):
    path = str(tmp_path / "nope.txt")
    with pytest.raises(InputError, match=r"nope\.txt: expected an existing file, found nothing$"):
        reader(path)
    with pytest.raises(InputError, match=r": expected a file, found a directory$"):
        reader(str(tmp_path))


# ---- good files ----------------------------------------------------------------------

def test_good_standard_deck():
    df = read_deck_file(str(DATA / "good_deck_standard.txt"))
    assert isinstance(df, DeckFile)
    assert sorted(df.deck.cards) == sorted(standard_deck(0).cards)
    assert (df.deck.n, df.deck.c, df.h, df.roles) == (5, 5, 2, None)
    assert str(df.deck).startswith("4:2 2:4 1:5 3:1")


def test_good_numeric_deck_defaults_to_maxima():
    df = read_deck_file(str(DATA / "good_deck_numeric.txt"))
    assert str(df.deck) == "1:7 2:7 3:7 1:1 2:1 3:1 2:3"
    assert (df.deck.n, df.deck.c, df.h) == (3, 7, None)


def test_good_roles_text_and_json_agree():
    text = read_deck_file(str(DATA / "good_deck_roles.txt"))
    assert text.roles == ("prefix", "prefix", "x1 true", "x1 false")
    assert str(text.deck) == "1:1 1:2 2:1 2:2" and text.h == 1
    js = read_deck_file(str(DATA / "good_deck.json"))
    assert js.deck == Deck.of([(1, 1), (1, 2), (2, 1), (2, 2)])
    assert (js.h, js.roles) == (1, ("a", "a", "b", "b"))


def test_good_hanab_live():
    df = read_deck_file(str(DATA / "good_hanab_live.json"))
    assert str(df.deck) == "1:1 3:3 5:5 2:2"
    assert (df.deck.n, df.deck.c, df.h, df.roles) == (5, 5, None, None)


def test_good_dimacs_files():
    satlib = read_dimacs(str(DATA / "good_satlib_trailer.cnf"))
    assert satlib.clauses == ((1, -2, 3), (-1, 2, 4), (2, -3, -4)) and satlib.num_vars == 4
    assert satlib.comments[0] == "This Formular is generated by mcnf"
    multi = read_dimacs(str(DATA / "good_cnf_multiline.cnf"))
    assert multi.clauses == ((1, 2, -3), (4,), (-5, -1), (2, 3)) and multi.num_vars == 5


@pytest.mark.parametrize("name", ["good_plays.txt", "good_plays_words.txt", "good_plays.json",
                                  "good_plays_solver_output.txt"])
def test_good_plays(name):
    assert read_plays(str(DATA / name)) == PlaySequence("PSSDPP")


def test_all_satlib_files_parse():
    folders = {"uf20-91": (20, 91), "uf50-218": (50, 218), "uuf50-218": (50, 218)}
    seen = 0
    for folder, (v, m) in folders.items():
        for path in sorted((SATLIB / folder).glob("*.cnf")):
            cnf = read_dimacs(str(path))
            assert (cnf.num_vars, cnf.num_clauses) == (v, m), path
            assert all(len({abs(l) for l in c}) == 3 == len(c) for c in cnf.clauses), path
            seen += 1
    assert seen == 200


@pytest.mark.parametrize("family,name", [("uf20-91", "uf20-01.cnf"), ("uf50-218", "uf50-01.cnf"),
                                         ("uuf50-218", "uuf50-01.cnf")])
def test_satlib_original_trailer_form(family, name):
    """SATLIB's own layout (mcnf comment block, `%` and `0` trailer) reads as the
    bundled copy without them."""
    original = read_dimacs(str(DATA / "satlib-original" / name))
    bundled = read_dimacs(str(SATLIB / family / name))
    assert original.clauses == bundled.clauses and original.num_vars == bundled.num_vars


# ---- DIMACS details ------------------------------------------------------------------

def test_dimacs_layout_independent():
    cnf = random_kcnf(11, num_vars=300, num_clauses=3000)
    lits = " ".join(" ".join(map(str, c)) + " 0" for c in cnf.clauses)
    one_line = f"p cnf 300 3000\n{lits}\n"
    ragged = "p cnf 300 3000\n" + "\n".join(lits.split(" "))  # one token per line
    assert parse_dimacs(one_line) == parse_dimacs(ragged) == parse_dimacs(dimacs_text(cnf)) == cnf


def test_dimacs_empty_clause_and_formula():
    assert parse_dimacs("p cnf 2 2\n1 0\n0\n").clauses == ((1,), ())
    assert parse_dimacs("p cnf 0 0\n").clauses == ()
    assert dimacs_text(CNF(2, ((1,), ()))) == "p cnf 2 2\n1 0\n0\n"


@pytest.mark.parametrize("text, message", [
    ("p cnf 2 1\n1_0 0\n", "<string>:2: expected integer literals, found '1_0'"),
    ("p cnf 2 1\n+1 0\n", "<string>:2: expected integer literals, found '+1'"),
    ("p cnf 2 1\n1 0 %\n", "<string>:2: expected integer literals, found '%'"),
    ("p cnf 2 1\n1\n%\n0\n", "<string>:2: expected a clause ending in 0, found end of the "
                             "formula after 1"),
])
def test_dimacs_strictness(text, message):
    with pytest.raises(InputError) as err:
        parse_dimacs(text)
    assert str(err.value) == message


def test_dimacs_writer_comments_first():
    cnf = CNF(3, ((1, -3),), comments=("from the file",))
    text = dimacs_text(cnf, comments=["generated by test\nsecond line"])
    assert text == ("c generated by test\nc second line\nc from the file\n"
                    "p cnf 3 1\n1 -3 0\n")
    assert parse_dimacs(text).comments == ("generated by test", "second line", "from the file")


# ---- decks: details and round trips --------------------------------------------------

def test_letters_and_numbers_mix_and_case():
    df = parse_deck_file("1R 1:2 2m 2:6")
    assert str(df.deck) == "1:1 1:2 2:6 2:6" and df.deck.c == 6


def test_empty_deck_with_header():
    df = parse_deck_file("n 5\nc 5\n")
    assert (len(df.deck), df.deck.n, df.deck.c) == (0, 5, 5)
    assert parse_deck_file(deck_to_text(df.deck)).deck == df.deck
    assert parse_deck_file(deck_to_json(df.deck)).deck == df.deck


def test_role_lookalike_comment_is_a_comment():
    assert parse_deck_file("#: roles are not used here\n1r").roles is None


def test_json_cards_errors_name_wrapped_lines():
    deck = Deck.of([(1, 1)] * 25)
    text = deck_to_json(deck)
    last = text.rindex("[1, 1]")
    text = text[:last] + '[1, "x"]' + text[last + len("[1, 1]"):]
    with pytest.raises(InputError, match=r"^<string>:6: expected card #25 "):
        parse_deck_file(text)


def test_text_writer_uses_letters_only_up_to_six_colors():
    assert "1m" in deck_to_text(Deck.of([(1, 6)]))
    assert "1:7" in deck_to_text(Deck.of([(1, 7)]))


def test_writer_rejects_a_negative_hand():
    with pytest.raises(HanabiError, match="hand size"):
        deck_to_text(Deck.of([(1, 1)]), h=-1)
    with pytest.raises(HanabiError, match="hand size"):
        deck_to_json(Deck.of([(1, 1)]), h=-1)


def test_writer_rejects_roles_that_cannot_read_back():
    deck = Deck.of([(1, 1), (1, 2)])
    for roles in (["a"], ["a", ""], ["a", "b\nc"], ["a", " b"]):
        with pytest.raises(ValueError):
            deck_to_text(deck, roles=roles)


@st.composite
def decks(draw):
    n = draw(st.integers(1, 12))
    c = draw(st.integers(1, 9))
    cards = draw(st.lists(st.tuples(st.integers(1, n), st.integers(1, c)), max_size=40))
    deck = Deck(tuple(cards), n, c)
    h = draw(st.none() | st.integers(0, 10))
    names = st.text(alphabet="abcxyz019 -_:#", min_size=1, max_size=8).map(str.strip) \
        .filter(bool)
    roles = draw(st.none() | st.lists(names, min_size=len(cards), max_size=len(cards)))
    if roles is not None and not cards:
        roles = None
    comments = draw(st.lists(st.text(alphabet="abc #:\n", max_size=10), max_size=3))
    return deck, h, roles, comments


@settings(max_examples=150, deadline=None)
@given(decks())
def test_deck_round_trip(case):
    deck, h, roles, comments = case
    expected_roles = tuple(roles) if roles is not None else None
    for render in (deck_to_text, deck_to_json):
        df = parse_deck_file(render(deck, h=h, roles=roles, comments=comments))
        assert (df.deck, df.h, df.roles) == (deck, h, expected_roles)
    # V:C always reads back, whatever the number of colors
    numeric = "\n".join([f"n {deck.n}", f"c {deck.c}"] + [f"{a}:{k}" for a, k in deck.cards])
    assert parse_deck_file(numeric).deck == deck


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 30).flatmap(lambda v: st.tuples(
    st.just(v),
    st.lists(st.lists(st.integers(1, v).flatmap(lambda x: st.sampled_from([x, -x])),
                      max_size=6) if v else st.just([]), max_size=20),
    st.lists(st.text(alphabet="ab c%p0\n", max_size=8), max_size=3))))
def test_dimacs_round_trip(case):
    num_vars, clauses, comments = case
    cnf = CNF(num_vars, tuple(map(tuple, clauses)))
    back = parse_dimacs(dimacs_text(cnf, comments))
    assert back == cnf
    # comment lines keep everything but trailing blanks
    assert back.comments == tuple(line.rstrip() for c in comments for line in (c.splitlines() or [""]))


# ---- writers and open_output ---------------------------------------------------------

def test_write_deck_format_from_extension(tmp_path):
    deck = standard_deck(3)
    write_deck(str(tmp_path / "d.json"), deck, h=2, comments=["generated by test"])
    write_deck(str(tmp_path / "d.txt"), deck, h=2, comments=["generated by test"])
    assert json.loads((tmp_path / "d.json").read_text())["h"] == 2
    assert (tmp_path / "d.txt").read_text().startswith("# generated by test\nn 5\nc 5\nh 2\n")
    for name in ("d.json", "d.txt"):
        df = read_deck_file(str(tmp_path / name))
        assert (df.deck, df.h, df.path) == (deck, 2, str(tmp_path / name))
    write_deck(str(tmp_path / "forced.json"), deck, fmt="text")
    assert read_deck_file(str(tmp_path / "forced.json")).deck == deck
    with pytest.raises(HanabiError, match="unknown deck format 'yaml'"):
        write_deck(str(tmp_path / "x"), deck, fmt="yaml")


def test_write_plays_round_trip(tmp_path):
    for name in ("p.txt", "p.json"):
        for plays in (PlaySequence("PSDDSP"), PlaySequence("")):
            write_plays(str(tmp_path / name), plays, force=True)
            assert read_plays(str(tmp_path / name)) == plays


def test_write_dimacs_file(tmp_path):
    cnf = random_kcnf(5, num_vars=10, num_clauses=20)
    write_dimacs(str(tmp_path / "f.cnf"), cnf, comments=["generated by test"])
    assert read_dimacs(str(tmp_path / "f.cnf")) == cnf


def test_open_output_never_overwrites_without_force(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("precious\n")
    # The library names its parameter; the CLI says --force (tests/test_outputs.py).
    with pytest.raises(FileError, match=r"out\.txt: refusing to overwrite an existing file; "
                                        r"use force=True$"):
        write_dimacs(str(path), CNF(1, ((1,),)))
    assert path.read_text() == "precious\n"
    write_dimacs(str(path), CNF(1, ((1,),)), force=True)
    assert path.read_text() == "p cnf 1 1\n1 0\n"


def test_open_output_failure_keeps_old_file_and_leaves_no_temp(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("old\n")
    with pytest.raises(RuntimeError):
        with open_output(str(path), force=True) as f:
            f.write("half")
            raise RuntimeError("boom")
    assert path.read_text() == "old\n"
    assert os.listdir(tmp_path) == ["out.txt"]


def test_open_output_errors(tmp_path):
    with pytest.raises(HanabiError, match="cannot write"):
        with open_output(str(tmp_path / "no" / "dir" / "x.txt")):
            pass
    with pytest.raises(HanabiError, match="it is a directory"):
        with open_output(str(tmp_path)):
            pass


def test_open_output_dash_is_stdout(capsys):
    write_plays("-", PlaySequence("PS"))
    assert capsys.readouterr().out == "PS\n"


def test_non_regular_files_are_written_in_place():
    with open_output(os.devnull) as f:
        f.write("discarded")
    assert os.path.exists(os.devnull)


def test_dash_reads_stdin(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"p cnf 1 1\n-1 0\n")))
    assert read_dimacs("-").clauses == ((-1,),)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"1r 9x\n")))
    with pytest.raises(InputError, match=r"^<stdin>:1: "):
        read_deck_file("-")


@pytest.mark.parametrize("text", [
    "c x\np cnf 3 2\n1 -2 0\n3 0\n%\n0\n",        # SATLIB trailer
    "p cnf 3 2\n1 -2 0 3 0\n  %\n0\n\n",
    "p cnf 3 2\n1 -2 0 3\n0\n",                    # ragged widths
    "p cnf 3 2\n1 -2 0\nc a comment in the body\n3 0\n",
    "c crlf\r\np cnf 3 2\r\n1 -2 0\r\n3 0\r\n",     # CRLF
    "c form\x0cc feed\np cnf 3 2\n1 -2 0\n3 0\n",
])
def test_fast_and_line_parsers_agree(text):
    from hanabi_cp.solvers.dimacs import _parse_fast, _parse_lines
    by_lines = _parse_lines(text, "x")
    assert by_lines.clauses == ((1, -2), (3,))
    fast = _parse_fast(text)
    assert fast is None or (fast == by_lines and fast.comments == by_lines.comments)
    assert parse_dimacs(text) == by_lines


def test_force_writes_through_a_symlink(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_plays(str(link), PlaySequence("P"), force=True)
    assert link.is_symlink() and real.read_text() == "P\n"


@settings(max_examples=100, deadline=None)
@given(actions=st.text(alphabet="PSD", max_size=60))
def test_plays_round_trip(actions, tmp_path_factory):
    folder = tmp_path_factory.mktemp("plays")
    for name in ("p.txt", "p.json"):
        write_plays(str(folder / name), PlaySequence(actions), force=True)
        assert read_plays(str(folder / name)) == PlaySequence(actions)


def _lines_or_error(text):
    from hanabi_cp.solvers.dimacs import _parse_lines
    try:
        return _parse_lines(text, "x")
    except InputError:
        return "error"


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["p cnf 3 2\n", "c x\n\np cnf 3 2\n", "c y\r\np cnf 2 1\r\n", "", "1 0\n"]),
       st.lists(st.sampled_from(["1", "-2", "3", "0", "0", "0", "4", "\nc x\n", "\n%\n",
                                 "%", "\n", "\r\n", "\t", "+1", "p cnf 3 2"]), max_size=12))
def test_fast_path_never_disagrees_with_the_line_parser(head, pieces):
    from hanabi_cp.solvers.dimacs import _parse_fast
    text = head + " ".join(pieces)
    fast = _parse_fast(text)
    if fast is not None:
        slow = _lines_or_error(text)
        assert slow == fast and slow.comments == fast.comments


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_dimacs_any_layout(data):
    cnf = random_kcnf(data.draw(st.integers(0, 10**6)), num_vars=6, num_clauses=data.draw(
        st.integers(1, 12)), k=data.draw(st.integers(1, 3)))
    tokens = [str(t) for c in cnf.clauses for t in (*c, 0)]
    seps = data.draw(st.lists(st.sampled_from([" ", "\n", "  \n\t", "\r\n"]),
                              min_size=len(tokens), max_size=len(tokens)))
    trailer = data.draw(st.sampled_from(["", "\n%\n0\n", "\nc the end\n"]))
    text = f"c head\np cnf 6 {cnf.num_clauses}\n" + "".join(
        t + s for t, s in zip(tokens, seps)) + trailer
    assert parse_dimacs(text) == cnf


def test_dash_reads_a_text_only_stdin(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("PSD\n"))
    assert read_plays("-") == PlaySequence("PSD")
