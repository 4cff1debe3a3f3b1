"""Solitaire Hanabi in MiniZinc (encodings/mzn.md): one model, one data file per deck.

The model is the file ``solitaire.mzn`` beside this module, the constraints of
encodings/cpsat.md written for people and for any MiniZinc solver; this module only
writes its data: the deck, h, ``maximize``, and for a win the facts ``analyse``
proved of every winning game (alive copies, play-time windows, deadlines, which
cards may be stored, the capacity groups), the same pruning the CP-SAT model gets.
A solution prints the chosen copies (``picks``); ``MznEncoding.decode`` turns
them into Lemma B's game, which the referee replays: nothing the solver says is
trusted.

>>> from hanabi_cp.core.model import Deck
>>> enc = build(Deck.of([(2, 1), (1, 1), (3, 1)]), 1)
>>> print(enc.formula.splitlines()[5])
copies = array2d(1..3, 1..1, [{2}, {1}, {3}]);
>>> enc.decode("picks = [1, 2, 3];\\nscore = 3;\\n----------\\n==========\\n").actions
'SPP'
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..preprocessing import analyse
from ...core.errors import InputError, LimitError
from ...runtime.limits import echo
from ...core.model import Deck, check_hand
from ..play_sequence import PlaySequence
from ...core.status import Status
from .cpsat import capacity_groups
from .encoding import Encoding, decode_picks

# The data has tables per card kind (n x c) and per position: past these the text
# alone would take gigabytes, and MiniZinc's flattening far more.
MAX_KINDS = 200_000
MAX_POSITIONS = 2_000_000

MODEL_PATH = os.path.join(os.path.dirname(__file__), "solitaire.mzn")
MODEL_NAME = "solitaire.mzn"


def model_text() -> str:
    """The model, the same for every deck."""
    with open(MODEL_PATH, encoding="utf-8") as f:
        return f.read()


@dataclass
class Answer:
    """What a MiniZinc run printed: the last solution's picks (0-based positions) and
    score, and whether the search finished (``complete``: optimal or no solution).
    ``lines``: the line of "solution" (the last one's end), "complete" and
    "unsatisfiable", for errors that name them."""

    picks: list[int] | None
    score: int | None
    complete: bool
    unsatisfiable: bool
    lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)


# MiniZinc's separators (the same for every solver, the Challenge's too).
SOLUTION_END = "----------"
SEARCH_END = "=========="
UNSAT = "=====UNSATISFIABLE====="
# ASCII digits only: \d would take any Unicode digit, which int() then reads or refuses.
_PICKS = re.compile(r"picks\s*=\s*\[([^\]]*)\]", re.ASCII)
_SCORE = re.compile(r"score\s*=\s*([0-9]{1,18})\s*;", re.ASCII)


def parse_output(text: str, path: str = "<output>") -> Answer:
    """MiniZinc's standard output: solutions each ended by ``----------``, then
    ``==========`` (search complete) or ``=====UNSATISFIABLE=====``; the last
    solution is the best.

    >>> parse_output("picks = [2];\\nscore = 1;\\n----------\\n==========\\n")
    Answer(picks=[1], score=1, complete=True, unsatisfiable=False)
    """
    from ...io.textio import text_lines
    from ...runtime.limits import ascii_int
    picks = score = None
    lines: dict[str, int] = {}
    block: list[str] = []
    for no, line in enumerate(text_lines(text), start=1):
        line = line.strip()
        if line == SOLUTION_END:
            joined = "\n".join(block)
            m, s = _PICKS.search(joined), _SCORE.search(joined)
            if m is None or s is None:
                raise InputError(path, no, "a solution with `picks = [...]` and `score = S;` "
                                 f"before {SOLUTION_END}", "none")
            body = m.group(1).replace(",", " ").split()
            chosen = [ascii_int(w) for w in body]
            if any(q is None or q < 1 for q in chosen):
                raise InputError(path, no, "positions in picks (integers from 1)",
                                 echo(m.group(0)))
            picks, score = [q - 1 for q in chosen if q is not None], int(s.group(1))
            lines["solution"] = no
            block = []
        elif line == SEARCH_END:
            lines.setdefault("complete", no)
        elif line == UNSAT:
            lines.setdefault("unsatisfiable", no)
        else:
            block.append(line)
    return Answer(picks, score, "complete" in lines or "unsatisfiable" in lines,
                  "unsatisfiable" in lines, lines)


@dataclass(kw_only=True)
class MznEncoding(Encoding[str, str]):
    """``formula`` is the .dzn text for ``solitaire.mzn``; a solution is MiniZinc's
    output text.  ``status``/``reason`` when ``analyse`` already proved the deck lost
    (the data then makes the model unsatisfiable: no copy is alive)."""

    maximize: bool = False

    def answer(self, solution: str, path: str = "<output>") -> Answer:
        return parse_output(solution, path)

    def decode(self, solution: str) -> PlaySequence:
        found = parse_output(solution)
        if found.picks is None:
            raise ValueError("the output has no solution")
        return self.decode_picks(found.picks)

    def decode_picks(self, picks: Iterable[int]) -> PlaySequence:
        chosen = {q for q in picks if 0 <= q < self.deck.N}
        return decode_picks(self.deck, chosen)


def too_large(deck: Deck) -> str | None:
    """Why the data of ``deck`` is not written, in one line; None if it is."""
    if deck.n * deck.c > MAX_KINDS:
        return (f"the MiniZinc data has a table entry per card kind: n x c = "
                f"{deck.n * deck.c:,} is above {MAX_KINDS:,}")
    if deck.N > MAX_POSITIONS:
        return f"the MiniZinc data has an entry per card: {deck.N:,} is above {MAX_POSITIONS:,}"
    return None


def build(deck: Deck, h: int, maximize: bool = False, facts: bool = True,
          comments: Sequence[str] = ()) -> MznEncoding:
    """The data file of ``deck``; ``facts=False`` leaves out ``analyse`` (the model
    alone, as the tests compare it with brute force)."""
    check_hand(h)
    why = too_large(deck)
    if why is not None:
        raise LimitError(why)
    n, c, N = deck.n, deck.c, deck.N
    reason = None
    copies: list[list[list[int]]] = [[[] for _ in range(c + 1)] for _ in range(n + 1)]
    earliest = [[0] * (c + 1) for _ in range(n + 1)]
    latest = [[N] * (c + 1) for _ in range(n + 1)]
    deadline = [N] * (N + 1)
    storable = [[a >= 2] * (c + 1) for a in range(n + 1)]
    groups: list[list[int]]
    if maximize or not facts:
        for t, (a, k) in enumerate(deck.cards):
            copies[a][k].append(t + 1)
        groups = [[(k - 1) * n + a for k in range(1, c + 1) for a in range(2, n + 1)
                   if copies[a][k]]]
    else:
        win = analyse(deck, h)
        reason = win.reason
        groups = [] if reason is None else [[]]
        if reason is None:
            groups = _facts(win, copies, earliest, latest, deadline, storable)
    card = "(a, k)"
    text = [*(f"% {line}" for line in comments),
            f"% {'largest score' if maximize else 'a win'}: data for {MODEL_NAME}; "
            f"card #q at position q; cards {card} numbered (k - 1) * n + a in groups",
            *([f"% preprocessing proved UNWINNABLE: {reason}; no copy is alive"]
              if reason else []),
            f"n = {n}; c = {c}; h = {h}; N = {N};",
            f"best_score = {str(maximize).lower()};",
            f"value = [{', '.join(map(str, deck.values))}];",
            f"color = [{', '.join(map(str, deck.colors))}];",
            _array2d("copies", n, c, [_set(copies[a][k]) if reason is None else "{}"
                                      for a in range(1, n + 1) for k in range(1, c + 1)]),
            _array2d("earliest", n, c, [str(earliest[a][k]) for a in range(1, n + 1)
                                        for k in range(1, c + 1)]),
            _array2d("latest", n, c, [str(latest[a][k]) for a in range(1, n + 1)
                                      for k in range(1, c + 1)]),
            f"deadline = array1d(0..{N}, [{', '.join(map(str, deadline))}]);",
            _array2d("storable", n, c, [str(storable[a][k]).lower() for a in range(1, n + 1)
                                        for k in range(1, c + 1)]),
            f"groups = [{', '.join(_set(g) for g in groups if g)}];"]
    return MznEncoding(deck=deck, h=h, formula="\n".join(text) + "\n", maximize=maximize,
                       status=Status.UNWINNABLE if reason else None, reason=reason,
                       stats={"cards": N, "groups": sum(1 for g in groups if g)})


def _facts(win, copies, earliest, latest, deadline, storable) -> list[list[int]]:
    """Fill the tables from ``analyse``'s windows (0-based -> 1-based positions);
    the capacity groups as sets of card numbers."""
    deck = win.deck
    n, c = deck.n, deck.c
    spans: list[tuple[int, int]] = []
    stores: list[int] = []
    owner: list[int] = []
    for k in range(1, c + 1):
        for a in range(1, n + 1):
            qs = list(win.alive[k][a])
            copies[a][k] = [q + 1 for q in qs]
            earliest[a][k] = max(win.earliest[k][a] + 1, 0)
            latest[a][k] = max(win.latest[k][a] + 1, 0)
            if a >= 2:
                for q, g in zip(qs, win.stop[k][a]):
                    deadline[q + 1] = min(max(g + 1, 0), deck.N)
            span = win.spans(k, a) if a >= 2 else []
            storable[a][k] = bool(span)
            if span:
                spans.append((span[0][0], max(e for _, e in span)))
                stores.extend(q for q, _ in span)
                owner.append((k - 1) * n + a)
    return [[owner[j] for j in g] for g in capacity_groups(spans, stores, win.h)]


def _set(xs: Iterable[int]) -> str:
    return "{" + ", ".join(map(str, xs)) + "}"


def _array2d(name: str, n: int, c: int, items: list[str]) -> str:
    return f"{name} = array2d(1..{n}, 1..{c}, [{', '.join(items)}]);"
