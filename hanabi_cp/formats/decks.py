"""Reading and writing deck files in any of the supported formats."""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..errors import HanabiError
from ..model import Deck
from .deck_json import deck_to_json, parse_deck_json
from .deck_text import deck_to_text, parse_deck_text
from .textio import display_name, read_text, write_text

FORMATS = ("text", "json")


@dataclass(frozen=True)
class DeckFile:
    """A deck as read from a file, with what the file says besides the cards."""

    deck: Deck
    h: int | None                   # from a `h 2` header line / "h" JSON field, else None
    roles: tuple[str, ...] | None   # per-card annotation (the reduction writes these)
    path: str


def looks_like_json(text: str) -> bool:
    """A text deck never starts with ``{`` or ``[``; JSON always does here."""
    return text.lstrip()[:1] in ("{", "[")


def parse_deck(text: str, path: str = "<string>") -> DeckFile:
    """Parse deck text in any format (JSON detected by its first character).

    >>> parse_deck("h 2\\n1r 1y").h
    2
    """
    parse = parse_deck_json if looks_like_json(text) else parse_deck_text
    deck, h, roles = parse(text, path)
    return DeckFile(deck, h, roles, path)


def read_deck(path: str) -> DeckFile:
    """Read a deck file (``-`` = stdin): text, our JSON, or a hanab.live export.

    >>> read_deck("missing.txt")
    Traceback (most recent call last):
    ...
    hanabi_cp.errors.InputError: missing.txt: expected an existing file, found nothing
    """
    text = read_text(path)
    deck_file = parse_deck(text, display_name(path))
    return DeckFile(deck_file.deck, deck_file.h, deck_file.roles, path)


def format_of(path: str, fmt: str | None) -> str:
    """``fmt`` if given, else ``json`` for a ``.json`` path and ``text`` otherwise.

    >>> format_of("deck.json", None), format_of("-", None), format_of("x.json", "text")
    ('json', 'text', 'text')
    """
    if fmt is None:
        return "json" if os.path.splitext(str(path))[1].lower() == ".json" else "text"
    if fmt not in FORMATS:
        raise HanabiError(f"unknown deck format {fmt!r}; use one of {', '.join(FORMATS)}")
    return fmt


def write_deck(path: str, deck: Deck, h: int | None = None, roles=None, comments=(),
               fmt: str | None = None, force: bool = False) -> None:
    """Write a deck (``-`` = stdout) as text or JSON, never overwriting without force."""
    render = deck_to_json if format_of(path, fmt) == "json" else deck_to_text
    write_text(path, render(deck, h=h, roles=roles, comments=comments), force)
