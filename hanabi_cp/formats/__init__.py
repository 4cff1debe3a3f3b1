"""File formats: decks (text, JSON, hanab.live), play sequences, DIMACS CNF.

Every reader raises :class:`hanabi_cp.errors.InputError` with
``path:line: expected ..., found ...``; every writer refuses to overwrite an
existing file unless ``force`` is given, and ``-`` means stdin/stdout.
"""

from .deck_json import deck_to_json, parse_deck_json
from .deck_text import COLOR_LETTERS, deck_to_text, parse_card, parse_deck_text
from .decks import DeckFile, parse_deck_file, read_deck_file, write_deck
from .dimacs import dimacs_text, parse_dimacs, read_dimacs, write_dimacs
from .play_text import parse_plays, plays_to_json, plays_to_text, read_plays, write_plays
from .textio import open_output, read_text

__all__ = [
    "DeckFile", "read_deck_file", "write_deck", "deck_to_text", "deck_to_json",
    "read_plays", "write_plays", "read_dimacs", "parse_dimacs", "write_dimacs",
    "dimacs_text", "open_output",
    # extras
    "COLOR_LETTERS", "parse_card", "parse_deck_file", "parse_deck_text", "parse_deck_json",
    "parse_plays", "plays_to_text", "plays_to_json", "read_text",
]
