"""Readers and writers of decks (text, JSON, hanab.live's deck objects) and the file
handling every other format shares (safe writes, ``-`` for stdin/stdout, JSON with
line numbers, CSV results).  A format that belongs to one side has its module there:
DIMACS and PB/MaxSAT in ``solvers/``, play sequences in ``solitaire/``, hanab.live
games in ``real/``.

Every reader raises :class:`hanabi_cp.core.errors.InputError` with
``path:line: expected ..., found ...``; every writer refuses to overwrite an
existing file unless ``force`` is given, and ``-`` means stdin/stdout.
"""

from .deck_json import deck_to_json, parse_deck_json
from .deck_text import COLOR_LETTERS, deck_to_text, parse_card, parse_deck_text
from .decks import DeckFile, parse_deck_file, read_deck_file, write_deck
from .outputs import open_output
from .textio import read_text

__all__ = [
    "DeckFile", "read_deck_file", "write_deck", "deck_to_text", "deck_to_json", "open_output",
    # extras
    "COLOR_LETTERS", "parse_card", "parse_deck_file", "parse_deck_text", "parse_deck_json", "read_text",
]
