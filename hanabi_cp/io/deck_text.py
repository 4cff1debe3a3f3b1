"""The text deck format.

::

    # a comment (anywhere; everything after '#' is ignored)
    n 5          # optional header lines, before the first card: values,
    c 5          # colors (both default to the largest seen)
    h 2          # and hand size (optional)
    1r 1r 2y 3:4 5w
    #: role x1-gadget      (optional: the following cards get this role)
    4:2 4b

A card is ``VALUE:COLOR`` (1-based integers, always accepted) or ``VALUE`` followed
by a color letter ``r y g b w m`` (colors 1..6).  Cards may span many lines.  A
``#: role NAME`` line gives every following card the role NAME, up to the next such
line; a file that uses roles must give one to every card.
"""

from __future__ import annotations

from array import array
from itertools import chain

from ..runtime.deadline import poll
from ..core.errors import InputError
from ..runtime.limits import KINDS_EXPECTED, MAX_CARD_KINDS, MAX_DIGITS, clip, echo, kinds_excess, too_many_digits
from ..core.model import COMPACT_FROM_CARDS, Card, Deck, check_hand
from .textio import POLL_CHARS, text_lines, token_runs

COLOR_LETTERS = "rygbwm"
_LETTER_COLOR = {ch: i for i, ch in enumerate(COLOR_LETTERS, start=1)}
_LETTER_COLOR.update({ch.upper(): i for ch, i in list(_LETTER_COLOR.items())})
HEADER_KEYS = ("n", "c", "h")
ROLE_MARK = "#: role"
CARDS_PER_LINE = 10


def _is_uint(token: str) -> bool:
    # str.isdigit alone accepts '²' and int() accepts '1_0' or '٣': insist on ASCII digits.
    return token.isascii() and token.isdigit()


# Past MAX_DIGITS digits a number is above every limit, and int() refuses to convert
# more than 4,300 digits: TOO_LONG (one digit more than any number read) stands for it.
TOO_LONG = 10 ** MAX_DIGITS


def _uint(token: str) -> int:
    if len(token) <= MAX_DIGITS or not too_many_digits(token):
        return int(token)
    return TOO_LONG


def parse_card(token: str) -> Card | None:
    """``3:2`` or ``3g`` -> Card(3, 3); None if the token is not card-shaped at all.

    Value 0 and color 0 are returned as such; the caller rejects them with context,
    as it does values or colors above MAX_CARD_KINDS (any of more than MAX_DIGITS
    digits are returned as TOO_LONG).

    >>> parse_card("3:2"), parse_card("12w"), parse_card("3x")
    (Card(value=3, color=2), Card(value=12, color=5), None)
    """
    value, sep, color = token.partition(":")
    if sep:
        if _is_uint(value) and _is_uint(color):
            return Card(_uint(value), _uint(color))
        return None
    value, letter = token[:-1], token[-1:]
    if _is_uint(value) and letter in _LETTER_COLOR:
        return Card(_uint(value), _LETTER_COLOR[letter])
    return None


def parse_deck_text(text: str, path: str = "<string>"):
    """Parse the text format into ``(deck, h, roles)``.

    The cards go straight into two ``array('i')`` (values, colors), line by line:
    no Card object per card, and a compact deck (``model.CardArray``) from
    COMPACT_FROM_CARDS cards on.

    >>> deck, h, roles = parse_deck_text("n 2\\nh 1\\n1r 2:2 # two cards\\n1y 2r")
    >>> str(deck), deck.n, deck.c, h, roles
    ('1:1 2:2 1:2 2:1', 2, 2, 1, None)
    """
    reader = _DeckReader(path)
    card_line = reader.card_line
    saw_anything = False
    read = next_poll = 0
    for lineno, raw in enumerate(text_lines(text), start=1):
        read += len(raw) + 1
        if read >= next_poll:                # a command's --time-limit, by characters read
            poll("reading the deck")
            next_poll = read + POLL_CHARS
        if raw.strip():
            saw_anything = True
        if "#:" in raw and reader.role_line(raw, lineno):     # the cheap test first
            continue
        runs = token_runs(raw.split("#", 1)[0], "reading the deck")
        tokens = next(runs)
        if not tokens:
            continue
        if tokens[0] in HEADER_KEYS:
            reader.header_line(tokens + next(runs, [])[:1], lineno)   # a third token, if any
        else:
            card_line(chain.from_iterable(chain((tokens,), runs)), lineno)
    if not saw_anything:
        raise InputError(path, None, "a deck (cards like 3:2 or 3y)", "an empty file")
    return reader.result()


class _DeckReader:
    """What ``parse_deck_text`` has read so far, one method per kind of line."""

    def __init__(self, path: str):
        self.path = path
        self.header: dict[str, tuple[int, int]] = {}   # key -> (value, line)
        self.values, self.colors = array("i"), array("i")
        # The first card with a value or color above MAX_CARD_KINDS (stored clipped:
        # the arrays hold int32), reported if the deck turns out too large.
        self.too_large: tuple[int, Card] | None = None
        self.roles: list[str] = []
        self.role: str | None = None
        self.uses_roles = False
        self.n_max: int | None = None            # the header's n and c, once given
        self.c_max: int | None = None

    def role_line(self, raw: str, lineno: int) -> bool:
        """Whether the line is a ``#: role NAME`` line (then NAME names the next cards)."""
        stripped = raw.lstrip()
        if not stripped.startswith(ROLE_MARK) or stripped[len(ROLE_MARK):len(ROLE_MARK) + 1] \
                not in ("", " ", "\t"):
            return False
        self.role = stripped[len(ROLE_MARK):].strip()
        if not self.role:
            raise InputError(self.path, lineno, "'#: role NAME' with a non-empty NAME",
                             echo(raw.strip()))
        if not self.uses_roles and self.values:
            raise InputError(self.path, lineno, "the first '#: role' line before the first "
                             "card (a file with roles gives one to every card)",
                             f"it after card #{len(self.values)}")
        self.uses_roles = True
        return True

    def header_line(self, tokens: list[str], lineno: int) -> None:
        """An ``n``, ``c`` or ``h`` line: one number, once, before the first card."""
        path, header, key = self.path, self.header, tokens[0]
        if self.values:
            raise InputError(path, lineno, "header lines (n, c, h) before the first card",
                             echo(" ".join(tokens)))
        if len(tokens) != 2 or not _is_uint(tokens[1]):
            raise InputError(path, lineno, f"'{key}' followed by one non-negative integer",
                             echo(" ".join(tokens)))
        if too_many_digits(tokens[1]):
            raise InputError(path, lineno, f"'{key}' followed by at most {MAX_DIGITS} digits",
                             echo(" ".join(tokens)))
        if key in header:
            raise InputError(path, lineno, f"one '{key}' header line",
                             f"a second one (the first is on line {header[key][1]})")
        header[key] = (int(tokens[1]), lineno)
        if key != "h" and header[key][0] > MAX_CARD_KINDS:
            raise InputError(path, lineno, KINDS_EXPECTED, f"{key} {header[key][0]:,}")
        self.n_max = header["n"][0] if "n" in header else None
        self.c_max = header["c"][0] if "c" in header else None

    def card_line(self, tokens, lineno: int) -> None:
        """The cards of one line, checked against the header, appended to the arrays."""
        path, n_max, c_max = self.path, self.n_max, self.c_max
        values, colors = self.values, self.colors
        roles = self.roles if self.uses_roles else None
        for token in tokens:
            # The common shapes (3y, 3:2 with short ASCII numbers) without a Card object.
            k = _LETTER_COLOR.get(token[-1])
            if k is not None:
                digits, sep, kdigits = token[:-1], "", "1"
            else:
                digits, sep, kdigits = token.partition(":")
            if (k is not None or sep) and len(digits) <= MAX_DIGITS \
                    and len(kdigits) <= MAX_DIGITS and digits.isascii() and kdigits.isascii() \
                    and digits.isdigit() and kdigits.isdigit():
                a = int(digits)
                if k is None:
                    k = int(kdigits)
            else:
                card = parse_card(token)
                if card is None:
                    raise InputError(path, lineno, "a card like 3:2 or 3y (colors r y g b w m)",
                                     echo(token))
                a, k = card
            if a == 0:
                raise InputError(path, lineno, "a card value >= 1", echo(token))
            if k == 0:
                raise InputError(path, lineno, "a card color >= 1", echo(token))
            if n_max is not None and a > n_max:
                raise InputError(path, lineno, f"a card value in 1..{n_max} "
                                 f"(line {self.header['n'][1]} says n {n_max})", echo(token))
            if c_max is not None and k > c_max:
                raise InputError(path, lineno, f"a card color in 1..{c_max} "
                                 f"(line {self.header['c'][1]} says c {c_max})", echo(token))
            if a > MAX_CARD_KINDS or k > MAX_CARD_KINDS:
                if self.too_large is None:
                    self.too_large = (lineno, Card(a, k))
                a, k = min(a, MAX_CARD_KINDS + 1), min(k, MAX_CARD_KINDS + 1)
            values.append(a)
            colors.append(k)
            if roles is not None:
                assert self.role is not None    # uses_roles is set by the first '#: role' line
                roles.append(self.role)

    def result(self):
        """``(deck, h, roles)`` once every line is read; n and c default to the largest seen."""
        path, header, values, colors = self.path, self.header, self.values, self.colors
        if not values and not ("n" in header and "c" in header):
            raise InputError(path, None, "at least one card (or both 'n' and 'c' header lines "
                             "for an empty deck)", "no cards")
        n = header["n"][0] if "n" in header else max(values, default=0)
        c = header["c"][0] if "c" in header else max(colors, default=0)
        h = header["h"][0] if "h" in header else None
        excess = kinds_excess(n, c)
        if excess is not None:
            if self.too_large is not None:
                _too_large(*self.too_large, path)
            lines = [header[key][1] for key in "nc" if key in header]
            raise InputError(path, max(lines) if lines else None, KINDS_EXPECTED, excess)
        # Every number fits an int32 here (the limit above).
        if len(values) < COMPACT_FROM_CARDS:
            deck = Deck(tuple(map(Card, values, colors)), n, c)
        else:
            deck = Deck.from_arrays(values, colors, n, c)
        return deck, h, (tuple(self.roles) if self.uses_roles else None)


def _too_large(line: int, card: Card, path: str) -> None:
    """The error for a card whose value or color alone is above the limit."""
    found = f"a number of more than {MAX_DIGITS} digits" if TOO_LONG in card \
        else echo(str(card))
    raise InputError(path, line, "a card value and color of at most "
                     f"{MAX_CARD_KINDS:,} (hanabi-cp's limit on n x c)", found)


def card_text(card: Card, letters: bool) -> str:
    """``3y`` with letters, else ``3:2``.

    >>> card_text(Card(3, 2), True), card_text(Card(3, 2), False)
    ('3y', '3:2')
    """
    if letters:
        return f"{card.value}{COLOR_LETTERS[card.color - 1]}"
    return f"{card.value}:{card.color}"


def comment_lines(comments, mark: str = "#") -> list[str]:
    """Each comment (possibly multi-line) as lines starting with ``mark``.

    >>> comment_lines(["generated by hanabi-cp", "two\\nlines", ""])
    ['# generated by hanabi-cp', '# two', '# lines', '#']
    """
    out = []
    for comment in comments:
        for line in str(comment).splitlines() or [""]:
            out.append(f"{mark} {line}".rstrip())
    return out


def check_roles(deck: Deck, roles) -> tuple[str, ...] | None:
    """Roles must be one non-empty single-line string per card, so they read back.

    >>> check_roles(Deck.of([(1, 1)]), ["var 1 gadget"])
    ('var 1 gadget',)
    >>> check_roles(Deck.of([(1, 1)]), [" padded"])
    Traceback (most recent call last):
    ...
    ValueError: card #1: role must be a non-empty single-line string without surrounding spaces, found ' padded'
    """
    if roles is None:
        return None
    roles = tuple(roles)
    if len(roles) != len(deck.cards):
        raise ValueError(f"{len(roles)} roles for {len(deck.cards)} cards")
    for i, role in enumerate(roles, start=1):
        if not isinstance(role, str) or not role.strip() or role != role.strip() \
                or len(role.splitlines()) != 1:
            raise ValueError(f"card #{i}: role must be a non-empty single-line string "
                             f"without surrounding spaces, found "
                             f"{echo(role) if isinstance(role, str) else clip(repr(role))}")
    return roles


def deck_to_text(deck: Deck, h: int | None = None, roles=None, comments=()) -> str:
    """The text format: comments, then ``n``/``c``/``h`` header lines, then the cards.

    Color letters are used when c <= 6, ``VALUE:COLOR`` otherwise; both read back.

    >>> print(deck_to_text(Deck.of([(1, 1), (2, 3), (1, 3)]), h=2, comments=["example"]), end="")
    # example
    n 2
    c 3
    h 2
    1r 2g 1g
    >>> print(deck_to_text(Deck.of([(1, 1), (1, 7)]), roles=["a", "b"]), end="")
    n 1
    c 7
    #: role a
    1:1
    #: role b
    1:7
    """
    roles = check_roles(deck, roles)
    if h is not None:
        check_hand(h)
    letters = deck.c <= len(COLOR_LETTERS)
    lines = comment_lines(comments)
    lines += [f"n {deck.n}", f"c {deck.c}"]
    if h is not None:
        lines.append(f"h {h}")
    values, colors = deck.values, deck.colors
    names = ("",) + tuple(COLOR_LETTERS) if letters else None
    runs = [(None, 0, len(values))]
    if roles is not None:
        runs, start = [], 0
        for i in range(1, len(roles) + 1):
            if i == len(roles) or roles[i] != roles[start]:
                runs.append((roles[start], start, i))
                start = i
    # A line of cards at a time from the deck's arrays: no string per card is kept.
    for role, start, end in runs:
        if role is not None:
            lines.append(f"{ROLE_MARK} {role}")
        for i in range(start, end, CARDS_PER_LINE):
            j = min(i + CARDS_PER_LINE, end)
            if names is not None:
                lines.append(" ".join([f"{a}{names[k]}" for a, k in zip(values[i:j], colors[i:j])]))
            else:
                lines.append(" ".join([f"{a}:{k}" for a, k in zip(values[i:j], colors[i:j])]))
    return "\n".join(lines) + "\n"
