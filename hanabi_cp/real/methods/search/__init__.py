"""Exact search over real-rules games with sound pruning (method ``search``).

A depth-first search for a complete game whose final score reaches a target, over
one mutable state with do/undo, that

- cuts a state whose upper bound on the final score (``bound``) is below the target:
  the colors' reach (a value with no copy left stops its color), pace (the cards
  that can only be played after a given deck position is drawn against the turns
  that remain after it), the bottom card (only the game's last turn can play it),
  hand size (cards that must be held when a deck position is drawn), and with two
  cards or fewer left in the deck the most plays the remaining turns can make
  (first counted per player without their order, which is cheap and usually
  enough, then exactly in a relaxation); in a search that has grown hard, the
  same relaxation from up to nine cards left, by dynamic programming
  (``deeper_bound``), and in one grown harder still, from up to thirteen, also
  with the clue tokens counted exactly (``exact_window``);
- remembers, in a transposition table keyed on a canonical state, the best score
  each state was proved not to reach (near the end also the bound of a cut state);
- merges moves that lead to the same canonical state: copies of one card, every
  card that can never be played (trash), and every clue (with open hands a clue
  only costs a token);
- tries moves in an order that usually wins at once (plays, then trash, then a clue
  or a discard of a card with a spare copy, the rest last), first in rounds that
  leave that order only a few times, nearest the top of the tree first (limited
  discrepancy search, which skips a state where a round of the same goal already
  failed with as much budget), then without limit.

Nothing is pruned by a move being "probably bad": every rule keeps an optimal game
(the soundness arguments are in encodings/live-search.md).  ``maximize`` first
dives towards the bound (a game reaching it is optimal), then asks for the first
game's score, the bound (on a lost deal at most the lost-deck reasons' bound on
its score, ``score_bound``), and upwards from the best game found.  On the
time limit the answer is UNKNOWN (with the best game found so far when
maximizing), never a guess.

The parts, each class built on the one before it: ``stops`` (the clock, and what
ends a search early), ``state`` (the position, do/undo, its canonical key),
``moves`` (the referee's rules on the state, the move order), ``table`` (what the
search proved out of reach), ``bounds`` and ``relaxation`` (the upper bounds), and
``driver`` (``LiveSearch``: the depth-first search and its rounds); then
``answers`` (the method's answers) and ``plans`` (Up or Down and Sudoku, one pile
plan's game at a time).  mypyc compiles them together (``runtime.compiled``).
"""

from __future__ import annotations

import sys

from ....core.options import SolveOptions
from ....runtime.compiled import load
from ...referee import Game
from ...solve import LiveMethod, LiveOutcome
from .answers import MEMORY, recursion_needed, search
from .bounds import most_plays
from .driver import LiveSearch
from .plans import start_plans
from .state import CLUE, DISCARD, FREE, PLAY
from .stops import MemoryShort, RootCut, Timeout
from .table import Memory

__all__ = ["CLUE", "DISCARD", "FREE", "MEMORY", "METHOD", "PLAY", "LiveSearch", "Memory",
           "MemoryShort", "RootCut", "Timeout", "most_plays", "recursion_needed", "run", "search", "start_plans"]


def run(start: Game, options: SolveOptions) -> LiveOutcome:
    """The search, by this package's compiled copy when one was built from these very
    sources (``runtime.compiled``; the same code, about three times faster), else here."""
    core = load(__name__, __file__)
    out = (core or sys.modules[__name__]).search(start, options)
    out.stats["core"] = "compiled" if core is not None else "python"
    return out


METHOD = LiveMethod("search", run, "depth-first search with sound bounds (pace, hand "
                    "size, bottom card) and a transposition table", maximizes=True)
