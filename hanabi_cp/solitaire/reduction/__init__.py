"""The reduction of journal §5: any CNF -> Solitaire Hanabi deck, and witnesses back.

to3cnf: any CNF -> exact 3-CNF (and bounded occurrences for the kappa variant);
sat3: the deck and its variants; witnesses: assignment <-> winning play;
roundtrip: reduce, solve, map back, compare with a SAT solver on the formula.
"""

from .sat3 import Reduction, build, reduce_cnf
from .to3cnf import Exact3, bound_occurrences, to_exact3
from .witnesses import assignment_from_play, play_from_assignment, readback

__all__ = ["Reduction", "build", "reduce_cnf", "Exact3", "bound_occurrences", "to_exact3",
           "assignment_from_play", "play_from_assignment", "readback"]
