"""OPB (the Pseudo-Boolean competition's input) and WCNF (the MaxSAT Evaluation's),
and the answers their solvers print.

OPB: a ``* #variable= V #constraint= M`` first line, ``*`` comments, an optional
``min: ...;`` objective, then one linear constraint a line, ``+1 x1 -2 x3 >= -1 ;``
(variables x1..xV, integer coefficients, ``>=`` or ``=``).  Clauses and at-most-k
constraints are written over plain variables (a negated literal ~x as 1 - x, moved
to the right-hand side), which every PB solver reads, minisat+ 1.0 included.

WCNF: the 2022+ format of the MaxSAT Evaluations: ``c`` comments, ``h l1 l2 0`` a
hard clause, ``W l1 0`` a soft clause of weight W; no header line.

Answers, in both competitions: ``s STATUS``, ``o COST`` lines, and the assignment
on ``v`` lines: ``x1 -x2`` (PB), ``1 -2`` or a bit string ``0110`` (MaxSAT).

>>> print(opb_text(2, [(1, -2)], [([1, 2], 1)], objective=[1, 2]), end="")
* #variable= 2 #constraint= 2
min: -1 x1 -1 x2 ;
+1 x1 -1 x2 >= 0 ;
-1 x1 -1 x2 >= -1 ;
>>> parse_answer("s OPTIMUM FOUND\\no -2\\nv x1 -x2\\n")
Answer(status='OPTIMUM FOUND', cost=-2, values={1: True, 2: False})
>>> parse_answer("s OPTIMUM FOUND\\no 0\\nv 01\\n").values
{1: False, 2: True}
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain
from dataclasses import dataclass, field

from ..core.errors import InputError
from ..runtime.limits import ascii_int, echo

STATUSES = ("SATISFIABLE", "UNSATISFIABLE", "OPTIMUM FOUND", "UNKNOWN", "UNSUPPORTED")


def _terms(lits: Iterable[int], coef: int) -> tuple[list[str], int]:
    """``coef * l`` for each literal, over variables: returns the terms and the
    constant moved to the right-hand side (coef for each negated literal)."""
    terms, shift = [], 0
    for l in lits:
        if l > 0:
            terms.append(f"{coef:+d} x{l}")
        else:
            terms.append(f"{-coef:+d} x{-l}")
            shift += coef
    return terms, shift


def opb_text(num_vars: int, clauses: Sequence[Sequence[int]],
             atmost: Sequence[tuple[Sequence[int], int]] = (), objective: Sequence[int] = (),
             comments: Iterable[str] = ()) -> str:
    """Clauses (at least one literal true) and at-most-k constraints as OPB;
    ``objective``: literals whose true count is maximized (written as ``min:`` of
    their negation, the competition's only direction)."""
    body = []
    for clause in clauses:
        if not clause:
            # The empty clause: 0 >= 1 over a variable that exists.
            body += ["+1 x1 >= 1 ;", "-1 x1 >= 0 ;"]
            continue
        terms, shift = _terms(clause, 1)
        body.append(f"{' '.join(terms)} >= {1 - shift} ;")
    for lits, k in atmost:
        terms, shift = _terms(lits, -1)
        body.append(f"{' '.join(terms)} >= {-k - shift} ;")
    num_vars = max(num_vars, 1 if any(not c for c in clauses) else 0)
    lines = [f"* #variable= {num_vars} #constraint= {len(body)}"]
    lines += [f"* {c}" for c in comments]
    if objective:
        terms, _ = _terms(objective, -1)
        lines.append(f"min: {' '.join(terms)} ;")
    return "\n".join(lines + body) + "\n"


def wcnf_text(clauses: Sequence[Sequence[int]], soft: Sequence[tuple[int, Sequence[int]]],
              comments: Iterable[str] = ()) -> str:
    """Hard clauses and (weight, clause) soft ones, in the MaxSAT Evaluation format.

    >>> print(wcnf_text([(1, -2)], [(1, (2,))], ["tiny"]), end="")
    c tiny
    h 1 -2 0
    1 2 0
    """
    lines = [f"c {c}" for c in comments]
    lines += ["h " + " ".join(map(str, cl)) + " 0" if cl else "h 0" for cl in clauses]
    lines += [f"{w} " + " ".join(map(str, cl)) + " 0" for w, cl in soft]
    return "\n".join(lines) + "\n"


@dataclass
class Answer:
    """A PB or MaxSAT solver's answer: its status line, the last ``o`` cost, and
    the assignment ({variable: value}) of the ``v`` lines; ``lines`` holds the line
    of each ("s", "o", "v": the first ``v`` line), for errors that name them."""

    status: str | None
    cost: int | None = None
    values: dict[int, bool] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)


def parse_answer(text: str, path: str = "<answer>") -> Answer:
    """``s``/``o``/``v`` lines of a PB or MaxSAT solver; other lines are ignored.

    Numbers are ASCII digits only, and two ``s`` lines must agree:

    >>> parse_answer("s SATISFIABLE\\ns UNSATISFIABLE\\n", "a.txt")
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.InputError: a.txt:2: expected the status of line 1 (SATISFIABLE) again, found 'UNSATISFIABLE'
    >>> parse_answer("o \u00b2\\n", "a.txt")
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.InputError: a.txt:1: expected `o` and an integer cost, found 'o \u00b2'
    """
    from ..io.textio import text_lines, token_runs
    status: str | None = None
    cost: int | None = None
    values: dict[int, bool] = {}
    lines: dict[str, int] = {}
    for no, line in enumerate(text_lines(text), start=1):
        runs = token_runs(line, "reading the answer")
        words = next(runs)
        if not words:
            continue
        head = words[0]
        if head == "s":
            word = " ".join(words[1:])
            if word not in STATUSES:
                raise InputError(path, no, "a status: " + ", ".join(STATUSES), echo(word))
            if status is not None and word != status:
                raise InputError(path, no, f"the status of line {lines['s']} ({status}) again",
                                 echo(word))
            status = status or word
            lines.setdefault("s", no)
        elif head == "o":
            value = ascii_int(words[1]) if len(words) == 2 else None
            if value is None:
                raise InputError(path, no, "`o` and an integer cost", echo(line.strip()))
            cost = value
            lines["o"] = no
        elif head == "v":
            lines.setdefault("v", no)
            _values(chain([words[1:]], runs), values, path, no)
    return Answer(status, cost, values, lines)


def _values(runs: Iterable[list[str]], values: dict[int, bool], path: str, no: int) -> None:
    """The literals (x3, -x3, 3, -3) or the bit string (0110) of a ``v`` line."""
    first = True
    for run in runs:
        if first and len(run) == 1 and len(run[0]) > 1 and set(run[0]) <= {"0", "1"}:
            values.update({i: ch == "1" for i, ch in enumerate(run[0], start=1)})
            return
        first = False
        for w in run:
            neg = w.startswith("-")
            body = w[1:] if neg else w
            body = body[1:] if body[:1] == "x" else body
            var = ascii_int(body) if body[:1] not in "+-" else None
            if var is None:
                raise InputError(path, no, "literals such as x3, -x3, 3 or -3", echo(w))
            if var:
                values[var] = not neg
