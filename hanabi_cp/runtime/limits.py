"""Size limits, checked before anything is allocated.

A number read from a file or an option that a command then allocates by (values n
and colors c, cards to build, CNF variables, sweep points, files to write) is
checked here first, so that a 12-byte file cannot ask for gigabytes: the command
stops with one line naming the number and the limit (exit code 2).  Sizes that
only grow with the input itself (the cards of a deck file, the clauses of a
formula) need no limit: what they cost is proportional to what was already read.
A hand size never needs one either: h >= N is the same instance as h = N.

Each limit sits well above the largest legitimate input we know of; the comment
next to it says what it protects and why the value.  README "Input sizes and
resource guards" lists them with their messages.
"""

from __future__ import annotations

import re

from ..core.errors import LimitError

# n * c (and n, c alone).  The tables per kind of card that preprocessing.analyse
# and greedy build (150-700 bytes per kind) are built only when every kind has a
# copy (then they are no larger than the deck read); a deck lacking a card is
# decided before them.  What remains per value or color on such a deck (the
# referee's piles, --maximize's colors, 8 bytes each) is bounded here: at 10^7 kinds
# a 1-card deck is answered in 0.3 s and 25 MB by every method (100 MB with
# --maximize).  The image of a uf250-1065 formula has 3.2 million kinds (n = 6,392,
# c = 501), a 10^6-card random deck at most 10^6, an image at MAX_CARDS about 7.5
# million.
MAX_CARD_KINDS = 10_000_000

# Cards a command builds from a few numbers instead of reading them (reduce's
# --max-cards default, generate, harness, studies).  `solve --method sat` takes
# 216-363 bytes per card on images of 2 x 10^5 cards and more since decks of 5,000+
# cards are compact (1.1 GB for the 5.3-million-card image of a uf250-1065 formula,
# max RSS; README "Images at SAT-competition scale"), so 15 million cards is about
# 3-5 GB: it fits a 24 GB machine with room for a roundtrip, which keeps the
# formula and its reduction while solving.
MAX_CARDS = 15_000_000
BYTES_PER_CARD = 350

# Variables a CNF formula declares: CaDiCaL (roundtrip, harness) and the read-back
# allocate per variable up to the largest index, whatever the clauses use (about
# 300 bytes each: a roundtrip of `p cnf 10000000 1` took 3.1 GB).  An image holds
# every value 1..n (n >= 10) of both colors of each variable the formula uses, so
# no formula using more than 750,000 variables has an image within MAX_CARDS.
MAX_CNF_VARS = 1_000_000

# Literals of a generated formula (clauses * k): about 50 bytes each as Python
# tuples plus the DIMACS text, so 2*10^7 is about 1 GB.
MAX_CNF_LITERALS = 20_000_000

# Digits of a number in an input file: every limit above has at most 8, and
# Python refuses to convert more than 4,300 (a ValueError, not a clean error).
MAX_DIGITS = 18

# Bytes of one input (a deck, a formula, a play file, a game, stdin), refused while
# reading, before the whole is held: an endless stream (`yes 1r |`) would otherwise be
# read until MemoryError.  The largest legitimate inputs are images within MAX_CARDS:
# about 10-12 bytes per card as text or JSON, so 15 million cards are 150-180 MB.
# Reading holds the text twice at its peak (the chunks and their join).
MAX_INPUT_BYTES = 512 * 2**20

# Characters of a JSON input: Python's decoder holds about 17 times the text of a
# JSON deck ([[1, 1], ...]: a list and two ints per card), so 128 MiB (about 16
# million cards) takes about 2 GB; the text format, read into arrays, takes less.
MAX_JSON_CHARS = 128 * 2**20

# Nesting depth of a JSON input: every format read is at most 4 levels deep; Python's
# decoders recurse per level (RecursionError past about 1,000), so a few hundred
# brackets would end in a traceback, not an error line.
MAX_JSON_DEPTH = 100

# Files one `generate --count` writes (and stats first, to refuse before writing).
MAX_FILES = 100_000

# Points of a study sweep (`--hands 0-6`, `--vars 3-6`): each is a full sweep of
# --count instances, so more than this is a typo, not a study.
MAX_SWEEP_POINTS = 10_000

# Characters of an input token echoed in an error message.
ECHO_CHARS = 60


def clip(text: str, limit: int = ECHO_CHARS) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was.

    >>> clip("x" * 10), clip("x" * 100, 5)
    ('xxxxxxxxxx', 'xxxxx... (100 characters)')
    """
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"


def echo(token: str, limit: int = ECHO_CHARS) -> str:
    """An input token quoted for an error message, at most about ``limit`` characters.

    Every reader echoes what it found through this, so a 1 MB token gives a
    one-line message, not a 1 MB one.

    >>> echo("3x"), echo("x" * 100, 5)
    ("'3x'", "'xxxxx'... (100 characters)")
    """
    if len(token) <= limit:
        return repr(token)
    return f"{token[:limit]!r}... ({len(token):,} characters)"


def ascii_int(token: str) -> int | None:
    """``token`` as an integer if it is ASCII digits with an optional sign and at
    most MAX_DIGITS significant digits, else None.  Not ``int()`` alone: it takes
    '\u0661' (Arabic-Indic one), '1_0' and spaces; nor ``str.isdigit``: it takes '\u00b2'.

    >>> ascii_int("-12"), ascii_int("\u00b2"), ascii_int("1_0"), ascii_int("9" * 19)
    (-12, None, None, None)
    """
    body = token[1:] if token[:1] in "+-" else token
    if not (body and body.isascii() and body.isdigit()) or too_many_digits(body):
        return None
    return int(token)


# A quoted run in a message: a quote after no word character (so not the apostrophe
# of "hanab.live's"), more than ECHO_CHARS characters without that quote or a line
# break, and its closing quote before no word character.
_QUOTED = re.compile(r"""(?<!\w)(['"])((?:(?!\1)[^\n]){""" + str(ECHO_CHARS + 1)
                     + r""",})\1(?!\w)""")


def cut_quoted(message: str) -> str:
    """``message`` with every quoted run longer than ECHO_CHARS cut as :func:`echo`
    cuts a token.  The CLI prints every error line through this, so user text quoted
    anywhere (a variant name, an option key, a --method value) stays one short line.

    >>> cut_quoted("variant '" + "x" * 100 + "'; choose A") == (
    ...     "variant '" + "x" * 60 + "'... (100 characters); choose A")
    True
    >>> cut_quoted("hanab.live's options, found 'k'")
    "hanab.live's options, found 'k'"
    """
    def cut(m: re.Match) -> str:
        q, body = m.group(1), m.group(2)
        return f"{q}{body[:ECHO_CHARS]}{q}... ({len(body):,} characters)"
    return _QUOTED.sub(cut, message)


def too_many_digits(token: str) -> bool:
    """True if the unsigned number ``token`` has more than MAX_DIGITS significant digits.

    >>> too_many_digits("0" * 40 + "7"), too_many_digits("9" * 19)
    (False, True)
    """
    return len(token.lstrip("0")) > MAX_DIGITS


def kinds_excess(n: int, c: int) -> str | None:
    """None if a deck with n values and c colors is within MAX_CARD_KINDS, else what
    exceeds it, for an error message.

    >>> kinds_excess(5, 5) is None
    True
    >>> kinds_excess(100_000_000, 1)
    'n = 100,000,000 values'
    >>> kinds_excess(5_000, 5_000)
    'n x c = 5,000 x 5,000 = 25,000,000 kinds of card'
    """
    if n > MAX_CARD_KINDS:
        return f"n = {n:,} values"
    if c > MAX_CARD_KINDS:
        return f"c = {c:,} colors"
    if n * c > MAX_CARD_KINDS:
        return f"n x c = {n:,} x {c:,} = {n * c:,} kinds of card"
    return None


KINDS_EXPECTED = f"at most {MAX_CARD_KINDS:,} kinds of card (n x c, hanabi-cp's limit)"


def check_kinds(n: int, c: int, where: str = "") -> None:
    """Raise LimitError if n values and c colors exceed MAX_CARD_KINDS.

    >>> check_kinds(10**9, 1, "--n")
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.LimitError: --n: n = 1,000,000,000 values: above the limit of 10,000,000 kinds of card (n x c)
    """
    excess = kinds_excess(n, c)
    if excess is not None:
        raise LimitError(f"{where + ': ' if where else ''}{excess}: above the limit of "
                         f"{MAX_CARD_KINDS:,} kinds of card (n x c)")


def memory(cards: int) -> str:
    """The memory ``cards`` cards take to solve, at BYTES_PER_CARD, for messages.

    >>> memory(220_564), memory(10**9), memory(10**30)
    ('about 77 MB', 'about 350 GB', 'about 3.5e+20 TB')
    """
    size = cards * BYTES_PER_CARD
    if size >= 10**18:
        return f"about {size / 10**12:.1e} TB"
    for unit, scale in (("TB", 10**12), ("GB", 10**9), ("MB", 10**6)):
        if size >= scale:
            return f"about {size / scale:,.0f} {unit}"
    return f"about {size / 1000:,.0f} kB"


def check_cards(cards: int, what: str, limit: int = MAX_CARDS,
                option: str | None = "max_cards") -> None:
    """Raise LimitError if building ``cards`` cards exceeds ``limit``; the message
    names ``option``, the parameter that sets the limit (the CLI: its flag), if any.

    >>> check_cards(10**9, "the image")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.LimitError: the image would have 1,000,000,000 cards (about 350 GB...15,000,000
    """
    if cards > limit:
        where = f"{{{option}}} {limit:,}" if option else f"the limit of {limit:,} cards"
        raise LimitError(f"{what} would have {cards:,} cards ({memory(cards)} to solve at "
                         f"~{BYTES_PER_CARD} bytes per card), above {where}", *[option] if option else [])


def check_at_most(name: str, value: int, limit: int, why: str) -> None:
    """Raise LimitError naming ``name``, its value and the limit.

    >>> check_at_most("--count", 10**6, MAX_FILES, "files to write")
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.LimitError: --count 1,000,000: above the limit of 100,000 (files to write)
    """
    if value > limit:
        raise LimitError(f"{name} {value:,}: above the limit of {limit:,} ({why})")


def effective_hand(h: int, cards: int) -> int:
    """The hand size that decides the same instance: h >= N is h = N.

    With N cards, no play sequence ever holds more than N, so a larger hand allows
    nothing more; methods whose tables or bounds grow with h get N instead.

    >>> effective_hand(10**9, 50), effective_hand(2, 50)
    (50, 2)
    """
    return min(h, cards)
