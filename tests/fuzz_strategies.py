"""Hypothesis strategies for the fuzz tests: inputs of every reader, CLI option values.

Texts are built from the tokens each format is made of (so most examples get past
the first character and reach the interesting checks), plus arbitrary junk.
Numbers come from three bands: small ones, which lead to real solving, huge ones,
beyond every limit of hanabi_cp.runtime.limits, which must be refused or clamped at once,
and the limits themselves plus one.  Sizes just below a limit are legitimate but
take seconds and gigabytes, so they are left to tests/test_guards.py.
"""

from __future__ import annotations

import json

from hypothesis import strategies as st

from hanabi_cp.io import deck_to_json, deck_to_text
from hanabi_cp.solvers.dimacs import dimacs_text
from hanabi_cp.runtime.limits import MAX_CARD_KINDS, MAX_CARDS, MAX_CNF_VARS
from hanabi_cp.solvers.formula import CNF
from hanabi_cp.core.model import Deck

small = st.integers(0, 6)
huge = st.one_of(st.integers(10 * MAX_CARDS, 10**30), st.sampled_from([2**31, 2**63, 10**100]))
size = st.one_of(small, small, small, huge)
positive_size = st.one_of(st.integers(1, 6), st.integers(1, 6), huge)
long_digits = st.integers(19, 6000).map(lambda k: "9" * k)
number = st.one_of(size.map(str), long_digits, st.just("-1"), st.just("0"))
# At a limit and one above it: only for the readers, which allocate nothing by them
# (a command given n = MAX_CARD_KINDS legitimately takes seconds and 1.5 GB).
boundary = st.sampled_from([MAX_CARD_KINDS, MAX_CARD_KINDS + 1, MAX_CNF_VARS,
                            MAX_CNF_VARS + 1]).map(str)
reader_number = st.one_of(number, boundary)
junk = st.text(max_size=40)


def _glue(tokens: list[str], seps: list[str]) -> str:
    return "".join(t + s for t, s in zip(tokens, seps + [""] * len(tokens)))


def token_text(tokens, max_size: int = 30):
    """Texts made of ``tokens`` separated by spaces and line breaks."""
    return st.tuples(st.lists(tokens, max_size=max_size),
                     st.lists(st.sampled_from([" ", " ", "\n", "\t", "", "\r\n"]),
                              max_size=max_size)).map(lambda ts: _glue(*ts))


# --- decks ---------------------------------------------------------------------------

@st.composite
def decks(draw, max_n: int = 4, max_c: int = 3, max_len: int = 12) -> Deck:
    """Small decks, possibly missing cards, over n x c with n and c as declared."""
    n, c = draw(st.integers(1, max_n)), draw(st.integers(1, max_c))
    kinds = [(a, k) for a in range(1, n + 1) for k in range(1, c + 1)]
    if draw(st.booleans()):            # complete decks win more often
        cards = kinds * draw(st.integers(1, 2)) + draw(st.lists(st.sampled_from(kinds),
                                                                max_size=3))
        cards = draw(st.permutations(cards))
    else:
        cards = draw(st.lists(st.sampled_from(kinds), max_size=max_len))
    return Deck(tuple(cards), n, c)


def card_tokens(numbers):
    return st.one_of(
        st.tuples(numbers, numbers).map(":".join),
        st.tuples(numbers, st.sampled_from("rygbwmRYx")).map("".join),
        st.sampled_from(["1r", "2y", "3:2", "1:1", "0:1", "1:0", "5w", "#", "#: role x", "n",
                         "c", "h", "n 3", "c 2", "h 1", ":", "1:", ":1", "1_0:1", "٣r", "+1:1"]),
        junk)


@st.composite
def deck_texts(draw, numbers=number) -> str:
    """Text, JSON or hanab.live decks: valid ones (maybe with odd headers) or junk."""
    kind = draw(st.sampled_from(["text", "json", "live", "junk", "json-junk"]))
    if kind == "junk":
        return draw(token_text(card_tokens(numbers)))
    deck = draw(decks())
    h = draw(st.one_of(st.none(), size))
    if kind == "text":
        text = deck_to_text(deck, h=h)
        if draw(st.booleans()):        # an odd header line or card on top
            text = f"{draw(st.sampled_from(['n', 'c', 'h']))} {draw(numbers)}\n" + text
        return text
    if kind == "json":
        data = json.loads(deck_to_json(deck, h=h))
        for key in draw(st.lists(st.sampled_from(["n", "c", "h"]), max_size=2)):
            data[key] = draw(st.one_of(size, st.just(-1), st.just(1.5), st.just("x"),
                                       st.just(True), st.just(None)))
        if draw(st.booleans()):
            data["cards"] = draw(st.lists(st.lists(st.one_of(size, junk), max_size=3),
                                          max_size=4))
        return json.dumps(data)
    if kind == "live":
        entries = [{"suitIndex": k - 1, "rank": a} for a, k in deck.cards]
        if draw(st.booleans()):
            entries.append({"suitIndex": draw(st.one_of(size, st.just(-1))),
                            "rank": draw(st.one_of(size, st.just("1")))})
        return json.dumps({"deck": entries, "players": ["a", "b"]})
    return draw(st.recursive(st.one_of(st.none(), st.booleans(), size, junk),
                             lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(st.sampled_from(
                                                         ["cards", "deck", "n", "c", "h",
                                                          "roles", "comments", "rank",
                                                          "suitIndex", "plays"]), inner,
                                                         max_size=4)),
                             max_leaves=12).map(json.dumps))


# --- CNF formulas ---------------------------------------------------------------------

@st.composite
def formulas(draw) -> CNF:
    v = draw(st.integers(1, 4))
    lit = st.integers(1, v).flatmap(lambda x: st.sampled_from([x, -x]))
    widths = st.sampled_from([0, 1, 2, 3, 3, 3, 4, 6])
    clauses = draw(st.lists(widths.flatmap(lambda w: st.lists(lit, min_size=w, max_size=w)),
                            max_size=4))
    return CNF(v, tuple(map(tuple, clauses)))


def dimacs_tokens(numbers):
    return st.one_of(numbers, numbers.map(lambda x: "-" + x), st.just("0"),
                     st.sampled_from(["p", "cnf", "p cnf", "c", "c comment", "%", "x",
                                      "1_0", "+1", "-0", "--1"]), junk)


@st.composite
def dimacs_texts(draw, numbers=number) -> str:
    kind = draw(st.sampled_from(["valid", "header", "junk"]))
    if kind == "junk":
        return draw(token_text(dimacs_tokens(numbers)))
    text = dimacs_text(draw(formulas()))
    if kind == "header":               # the header says something else
        body = text.split("\n", 1)[1]
        text = f"p cnf {draw(numbers)} {draw(numbers)}\n{body}"
    return text


# --- play sequences and solver models -------------------------------------------------

plays_token = st.one_of(st.sampled_from(["P", "S", "D", "p", "play", "store", "discard",
                                         "PSD", "s WINNABLE", "s UNWINNABLE", "v", "c x", "#",
                                         "Q", "PSX"]), junk)


@st.composite
def plays_texts(draw) -> str:
    if draw(st.booleans()):
        return draw(token_text(plays_token))
    plays = draw(st.one_of(st.text(alphabet="PSDpsd \n", max_size=30),
                           st.lists(st.one_of(plays_token, size), max_size=6), size, st.none()))
    return json.dumps({"plays": plays, "status": "x"} if draw(st.booleans()) else plays)


model_token = st.one_of(number, number.map(lambda x: "-" + x),
                        st.sampled_from(["s", "v", "c", "SAT", "UNSAT", "s SATISFIABLE",
                                         "s UNSATISFIABLE", "s UNKNOWN", "s MAYBE", "0",
                                         "SATISFIABLE", "INDET"]), junk)
model_texts = token_text(model_token)

# PB, MaxSAT and MiniZinc answers (decode --format opb|wcnf|mzn): status, cost and
# value lines, literals of every spelling, MiniZinc's separators and assignments.
answer_token = st.one_of(model_token, number.map(lambda x: "x" + x),
                         number.map(lambda x: "-x" + x), st.text(alphabet="01", min_size=2,
                                                                  max_size=12),
                         st.sampled_from(["o", "s OPTIMUM FOUND", "s UNSUPPORTED", "o -3",
                                          "picks = [1, 2];", "picks = [];", "score = 2;",
                                          "score = \u00b2;", "----------", "==========",
                                          "=====UNSATISFIABLE=====", "\u0661", "x\u00b2"]))
answer_texts = token_text(answer_token)


# --- real-rules games (hanab.live game JSON, read by `verify --rules live`) -------------

action = st.fixed_dictionaries({"type": st.one_of(st.integers(-1, 4), size, junk)},
                               optional={"target": st.one_of(size, st.just(-1), junk),
                                         "value": st.one_of(size, st.just(-1), junk)})


@st.composite
def live_game_texts(draw) -> str:
    data: dict = {}
    if draw(st.booleans()):
        data["players"] = draw(st.one_of(st.lists(junk, max_size=7), size, junk))
    if draw(st.booleans()):
        deck = draw(decks())
        data["deck"] = [{"suitIndex": k - 1, "rank": a} for a, k in deck.cards]
        if draw(st.booleans()):
            data["deck"].append({"suitIndex": draw(size), "rank": draw(size)})
    data["actions"] = draw(st.one_of(st.lists(action, max_size=8), junk, size))
    if draw(st.booleans()):
        data["options"] = draw(st.dictionaries(
            st.sampled_from(["variant", "startingPlayer", "emptyClues", "oneExtraCard",
                             "oneLessCard", "deckPlays"]),
            st.one_of(st.booleans(), size, junk, st.just("No Variant")), max_size=3))
    if draw(st.booleans()):
        data["first_player"] = draw(st.one_of(size, junk))
    if draw(st.booleans()):           # hanabi-cp's own key: the rules options cannot say
        data["hanabi_cp"] = draw(st.one_of(junk, st.dictionaries(
            st.sampled_from(["hand_size", "clues", "strikes", "final_round", "end_rules"]),
            st.one_of(st.booleans(), size, junk, st.sampled_from(["unlimited", "hle"])),
            max_size=4)))
    if draw(st.integers(0, 5)) == 0:
        return json.dumps(data["actions"])        # a bare list of actions
    return json.dumps(data)

