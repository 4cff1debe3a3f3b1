"""The pseudo-Boolean and MaxSAT files of a deck, and reading their solvers' answers back.

- OPB, a win: the compact CNF of encodings/cnf.md, clause for clause (satisfiable iff
  the deck is winnable; it scales to reduction images like the DIMACS file).
- OPB with ``--maximize``, and WCNF: the Boolean score model of ``score.py``, the
  played cards as the objective (OPB: ``min:`` of their negation; WCNF: one soft
  unit clause each, so the optimum cost is the number of cards *not* played and a
  cost of 0 is a win).  In WCNF the at-most-k constraints become clauses through
  pysat's sequential counter (totalizer for the larger ones).

``read_back`` checks that an answer's assignment satisfies the formula it claims to
solve before decoding it; the referee then replays the play (encodings/pb-maxsat.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...core.errors import CertificateError
from ...solvers.pbformats import Answer, opb_text, wcnf_text
from ...core.model import Deck
from ..play_sequence import PlaySequence
from . import score as score_model
from .encoding import CnfEncoding
from .score import ScoreEncoding


def opb_win(deck: Deck, h: int, comments: Sequence[str] = ()) -> tuple[CnfEncoding, str]:
    from .cnf import build
    enc = build(deck, h)
    return enc, opb_text(enc.num_vars, enc.clauses, comments=comments)


def opb_score(deck: Deck, h: int, comments: Sequence[str] = ()) -> tuple[ScoreEncoding, str]:
    enc = score_model.build(deck, h)
    return enc, opb_text(enc.num_vars, enc.clauses, enc.atmost,
                         objective=list(enc.played.values()), comments=comments)


def hard_clauses(enc: ScoreEncoding) -> tuple[list, int]:
    """The score model's clauses with its at-most-k constraints as clauses; the
    largest variable used."""
    from pysat.card import CardEnc, EncType
    clauses, top = list(enc.clauses), enc.num_vars
    for lits, k in enc.atmost:
        kind = EncType.seqcounter if k <= 2 or len(lits) <= 64 else EncType.totalizer
        card = CardEnc.atmost(list(lits), k, top_id=top, encoding=kind)
        top = max(top, card.nv)
        clauses.extend(map(tuple, card.clauses))
    return clauses, top


def wcnf(deck: Deck, h: int, comments: Sequence[str] = ()) -> tuple[ScoreEncoding, str, int]:
    """The WCNF text and its number of variables (with the counters')."""
    enc = score_model.build(deck, h)
    clauses, top = hard_clauses(enc)
    soft = [(1, (v,)) for v in enc.played.values()]
    return enc, wcnf_text(clauses, soft, comments), top


@dataclass
class ReadBack:
    """What a PB or MaxSAT answer says about the deck: ``won`` (None if the answer
    has no assignment), the decoded play (for the referee), and its claimed score."""

    sat: bool | None                 # False: the solver says no solution
    optimal: bool                    # the solver says its assignment is optimal
    plays: PlaySequence | None = None
    score: int | None = None


def read_back(enc, answer: Answer, what: str) -> ReadBack:
    """Check ``answer`` against ``enc`` (a CnfEncoding or a ScoreEncoding) and decode it."""
    status = answer.status
    if status == "UNSATISFIABLE":
        return ReadBack(False, True)
    if status not in ("SATISFIABLE", "OPTIMUM FOUND"):
        return ReadBack(None, False)
    values = answer.values
    if isinstance(enc, CnfEncoding):
        assignment = {v: values.get(v, False) for v in range(1, enc.num_vars + 1)}
        bad = enc.cnf.first_falsified(assignment)
        if bad is not None:
            raise CertificateError(f"{what}: falsifies constraint {bad} of the formula: "
                                   "not a solution of it")
        lits = [v if val else -v for v, val in assignment.items()]
        return ReadBack(True, status == "OPTIMUM FOUND", enc.decode(lits), enc.deck.target)
    def value(l: int) -> bool:
        return values.get(abs(l), False) == (l > 0)
    for i, clause in enumerate(enc.clauses):
        if not any(map(value, clause)):
            raise CertificateError(f"{what}: falsifies clause {i + 1} of the score model: "
                                   "not a solution of it")
    for lits, k in enc.atmost:
        if sum(map(value, lits)) > k:
            raise CertificateError(f"{what}: more than {k} of {len(lits)} cards wait in the "
                                   "hand at once: not a solution of the score model")
    plays = enc.decode({v: values.get(v, False) for v in range(1, enc.num_vars + 1)})
    return ReadBack(True, status == "OPTIMUM FOUND", plays, enc.score(values))
