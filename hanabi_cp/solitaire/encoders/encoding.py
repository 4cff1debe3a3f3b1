"""``Encoding``: the one shape every encoder returns, and the decoders behind it.

An encoder only builds.  What it hands a method is

- ``formula``: what the solver takes (CNF clauses for solitaire/encoders/cnf.py, a CP-SAT
  ``CpModel`` for solitaire/encoders/cpsat.py and solitaire/encoders/cpsat_residual.py);
- ``variables``: the variable map the decoder reads, from the position q of a copy
  to the variable "copy q is chosen" (the CNF leaves out the copies its decoder
  needs no variable for; CP-SAT maps a card's only alive copy to True);
- ``decode(solution)``: the play sequence of a solution, which the registry replays
  with the referee before any answer is reported;
- ``status``: Status.UNWINNABLE (with ``reason``) when preprocessing already
  decided and no solver is needed, else None;

with the deck, h and the build statistics.  ``CnfEncoding`` and ``CpsatEncoding``
add what their formulas need (``num_vars`` and the variable names; the
``maximize`` flag and ``played`` variables).  Both decoders are Lemma B's game
(encodings/simplification-facts.md): play a chosen copy on sight, store it
otherwise, discard every other card.

>>> from hanabi_cp.core.model import Deck
>>> from hanabi_cp.solitaire.encoders.cnf import build
>>> from hanabi_cp.solitaire.encoders.cpsat import build_decide
>>> deck = Deck.of([(2, 1), (1, 1), (2, 1), (3, 1)])
>>> sat, cp = build(deck, 1), build_decide(deck, 1)
>>> isinstance(sat, Encoding) and isinstance(cp, Encoding), sat.status, cp.status
(True, None, None)
>>> sat.variables, cp.variables      # which copy of 2:1, position 0 or 2?
({0: 1}, {1: True, 0: 0, 2: 1, 3: True})
>>> sat.decode([1]).actions, cp.decode({0: 1, 1: 0}.get).actions
('SPDP', 'SPDP')
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ...solvers.formula import CNF
from ...core.model import Deck
from ..play_sequence import PlaySequence, play_out
from ...core.status import Status

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

    from ..preprocessing import Windows

F = TypeVar("F")    # the formula
S = TypeVar("S")    # a solution, as its solver gives it


@dataclass(kw_only=True)
class Encoding(ABC, Generic[F, S]):
    """A formula for (deck, h) with its variable map and the decoder of its solutions.

    >>> import hanabi_cp as hc
    >>> enc = hc.encode(hc.Deck.of([(2, 1), (1, 1), (2, 1)]), 1)
    >>> isinstance(enc, hc.Encoding), enc.status, enc.variables, enc.varmap()
    (True, None, {0: 1}, {1: 'copy 2:1 #1'})
    >>> enc.decode([1]).actions, enc.decode([-1]).actions   # store copy #1, or not
    ('SPD', 'DPP')
    """

    deck: Deck
    h: int
    formula: F
    # copy position q -> variable (True: chosen in every win); any Mapping, so that a
    # large deck's map can be an array (never copied into a dict here)
    variables: Mapping[int, int] = field(default_factory=dict)
    status: Status | None = None
    reason: str | None = None
    stats: dict = field(default_factory=dict)

    @abstractmethod
    def decode(self, solution: S) -> PlaySequence:
        """The play sequence of a solution of ``formula``."""

    def varmap(self) -> dict:
        """Variable -> readable name, e.g. {1: "copy 3:2 #17"} (positions 1-based)."""
        cards = self.deck.cards
        return {v: f"copy {cards[q][0]}:{cards[q][1]} #{q + 1}"
                for q, v in sorted(self.variables.items(), key=lambda qv: qv[1])
                if v is not True}


@dataclass(kw_only=True)
class CnfEncoding(Encoding[Sequence, Sequence[int]]):
    """The compact CNF (encodings/cnf.md) over variables 1..num_vars.

    ``formula`` is a list of clauses, or on decks of COMPACT_FROM_CARDS cards or
    more a ``flat.Clauses`` (integer arrays); ``[[]]`` when preprocessing decided.
    A solution is a model as pysat gives it: a list of literals.

    >>> from hanabi_cp.core.model import Deck
    >>> from hanabi_cp.solitaire.encoders.cnf import build
    >>> enc = build(Deck.of([(2, 1), (1, 1)]), 0)
    >>> enc.status, enc.cnf.clauses
    (<Status.UNWINNABLE: 'UNWINNABLE'>, ((),))
    """

    num_vars: int
    names: Sequence              # names[v] = readable tuple for variable v (index 0 unused)
    # The analysis the CNF was built from; None on decks of COMPACT_FROM_CARDS cards
    # or more, where its tables (~200 bytes a card) would stay alive through the
    # solve: ``decode`` reads only the two flag arrays below.
    windows: Windows | None = None
    capacity: list = field(default_factory=list)   # with build(collect=True)
    alive: bytearray = field(default_factory=bytearray)    # alive[q]: copy q alive
    single: bytearray = field(default_factory=bytearray)   # single[q]: its card's only one

    @property
    def clauses(self) -> Sequence:
        """The formula's clauses, as the builder holds them (never copied)."""
        return self.formula

    @property
    def cnf(self) -> CNF:
        """The formula itself, to write as DIMACS or hand to any SAT solver."""
        return CNF(self.num_vars, tuple(tuple(c) for c in self.formula))

    def decode(self, solution: Sequence[int]) -> PlaySequence:
        """The play sequence of a model (list of literals, pysat style)."""
        true = {l for l in solution if l > 0}
        cv = self.variables
        return play_choice(self.deck, self.alive, self.single,
                           lambda q: q in cv and cv[q] in true)

    def solve_model(self, solver: str | None = None):
        """Convenience for doctests and tests: a model, or None if unsatisfiable
        (``solver`` defaults to sat_backend.DEFAULT_SOLVER).  No encoder or method
        calls it: solitaire/methods/sat.py solves."""
        from ...core.options import DEFAULT_SOLVER
        from ...solvers.sat_backend import sat_solve
        ok, model, _ = sat_solve(self.formula, solver or DEFAULT_SOLVER)
        return model if ok else None

    def varmap(self) -> dict:
        """Variable -> readable name, e.g. {1: "copy 3:2 #17"} (positions 1-based)."""
        out = {}
        for v in range(1, self.num_vars + 1):
            nm = self.names[v]
            if nm is None:
                out[v] = "aux"
            elif nm[0] == "copy":
                out[v] = f"copy {nm[1]}:{nm[2]} #{nm[3] + 1}"
            elif nm[0] == "played_by":
                out[v] = f"played_by {nm[1]}:{nm[2]} #{nm[3] + 1}"
            else:
                out[v] = f"held {nm[1]}:{nm[2]} #{nm[3] + 1}..#{nm[4]}"
        return out


# A CP-SAT solution: value(proto variable index) -> int.
Values = Callable[[int], int]


@dataclass(kw_only=True)
class CpsatEncoding(Encoding[Any, Values]):
    """A CP-SAT model (encodings/cpsat.md); ``formula`` is None when preprocessing
    decided.  Variables are proto indices, so a solution is read as
    ``value(index) -> int``.

    ``maximize`` models ask for the score: ``played`` maps each card (a, k) to its
    "played" Boolean.  ``decoder`` replaces the copy-choice decoder for a model over
    other variables (the residual CNF of solitaire/encoders/cpsat_residual.py).
    """

    formula: cp_model.CpModel | None    # OR-Tools is imported only by the builders
    maximize: bool = False
    played: dict = field(default_factory=dict)      # (a, k) -> Boolean (maximize only)
    decoder: Callable[[Values], PlaySequence] | None = None

    def picks(self, value: Values) -> set:
        """Positions of the chosen copies."""
        return {q for q, v in self.variables.items() if v is True or value(v)}

    def decode(self, solution: Values) -> PlaySequence:
        if self.decoder is not None:
            return self.decoder(solution)
        return decode_picks(self.deck, self.picks(solution))

    def varmap(self) -> dict:
        out = super().varmap()
        out.update({v: f"played {a}:{k}" for (a, k), v in self.played.items()})
        return dict(sorted(out.items()))


def decode_picks(deck: Deck, picks) -> PlaySequence:
    """Actions for a set of chosen positions: play a chosen card when playable, else
    store it; discard every other card.  Stored cards leave the hand by cascade."""
    return play_out(deck.cards, deck.c, picks.__contains__, picks.__contains__)


def decode_choice(deck: Deck, win: Windows, chosen) -> PlaySequence:
    """Play every alive copy that is playable on sight; store a chosen copy otherwise.

    ``chosen(q)`` says whether the storable copy q was chosen (only asked for copies
    that cannot be played when scanned).  A card whose only alive copy is q is always
    chosen there.
    """
    return play_choice(deck, *copy_flags(deck, win), chosen)


def copy_flags(deck: Deck, win: Windows) -> tuple[bytearray, bytearray]:
    """Per position: is the copy alive; is it the only alive copy of its card."""
    from ..preprocessing import Ragged
    alive = bytearray(deck.N)
    single = bytearray(deck.N)
    for k in range(1, deck.c + 1):
        Ak = win.alive[k]
        if isinstance(Ak, Ragged):       # straight from the flat array: no row objects
            flat, off = Ak.flat, Ak.offsets
            for q in flat:
                alive[q] = 1
            for a in range(1, len(off) - 1):
                if off[a + 1] - off[a] == 1:
                    single[flat[off[a]]] = 1
            continue
        for copies in Ak[1:]:
            for q in copies:
                alive[q] = 1
            if len(copies) == 1:
                single[copies[0]] = 1
    return alive, single


def play_choice(deck: Deck, alive: bytearray, single: bytearray, chosen) -> PlaySequence:
    """``decode_choice`` from the flags of ``copy_flags``."""
    return play_out(zip(deck.values, deck.colors), deck.c, alive.__getitem__,
                    lambda t: single[t] or chosen(t))
