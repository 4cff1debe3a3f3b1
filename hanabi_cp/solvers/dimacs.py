"""DIMACS CNF, as SATLIB and the SAT competitions publish it.

``c`` comment lines, one ``p cnf VARIABLES CLAUSES`` header before the first clause,
then clauses of non-zero integers each ending in ``0``; a clause may span lines and a
line may hold several clauses.  SATLIB files end with a ``%`` line followed by ``0``:
``%`` ends the formula.  The reader is strict: the header must match the body.

A SAT solver's answer to such a formula is read here too (:func:`parse_answer`):
``s``/``v`` lines as the SAT competitions print them, or MiniSat's result file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import chain, compress
from operator import not_

from .formula import CNF
from ..runtime.deadline import poll
from ..core.errors import InputError
from ..core.status import Status
from ..runtime.limits import MAX_CNF_VARS, MAX_DIGITS, ascii_int, clip, echo, too_many_digits
from ..io.deck_text import comment_lines
from ..runtime.nogc import gc_paused
from ..io.textio import POLL_CHARS, display_name, read_text, text_lines, token_runs
from ..io.outputs import write_text

PHASE = "reading the formula"


def _bad_token(tokens: list[str]) -> tuple[str, str]:
    """The first token that is not a literal, and what a literal is."""
    for tok in tokens:
        body = tok[1:] if tok[:1] == "-" else tok
        if not (body.isascii() and body.isdigit()):
            return tok, "integer literals"
        if too_many_digits(body):
            return tok, f"integer literals of at most {MAX_DIGITS} digits"
    return "", "integer literals"


def _comment(line: str) -> str | None:
    """The text of a ``c`` comment line (one space after ``c`` dropped), else None."""
    if line[:1] == "c":
        return line[2:] if line[1:2] == " " else line[1:]
    stripped = line.strip()
    if stripped == "c" or stripped[:2] in ("c ", "c\t"):
        return stripped[2:]
    return None


def _header(line: str) -> tuple[int, int] | None:
    tokens = line.split()
    if len(tokens) == 4 and tokens[:2] == ["p", "cnf"] and all(
            t.isascii() and t.isdigit() and not too_many_digits(t) for t in tokens[2:]):
        return int(tokens[2]), int(tokens[3])
    return None


def _parse_fast(text: str) -> CNF | None:
    """The whole body in a few C-level passes, or None to let the line parser decide.

    Taken only when everything after the header is integers (no comments, no ``%``)
    and consistent with the header; any doubt falls back to :func:`_parse_lines`,
    which gives the same answer or the error with its line number.
    """
    comments = []
    pos, size = 0, len(text)
    while True:
        if pos >= size:
            return None
        end = text.find("\n", pos)
        end = size if end < 0 else end
        line = text[pos:end].removesuffix("\r")
        pos = end + 1
        if len(line.splitlines()) > 1:   # a rarer line break: leave it to splitlines
            return None
        comment = _comment(line)
        if comment is not None:
            comments.append(comment)
        elif line.strip():
            break
    header = _header(line)
    if header is None or header[0] > MAX_CNF_VARS:
        return None
    num_vars, declared = header
    body = text[pos:]
    percent = body.find("%")
    if percent >= 0:
        # SATLIB's end marker: a line starting with '%' ends the formula
        if body[body.rfind("\n", 0, percent) + 1:percent].strip():
            return None
        body = body[:percent]
    if "_" in body or "+" in body or not body.isascii():
        return None
    lits: list[int] = []
    try:
        for run in token_runs(body, PHASE):      # a run at a time: the deadline is polled
            lits.extend(map(int, run))
    except ValueError:
        return None
    if lits and (lits[-1] != 0 or max(lits) > num_vars or min(lits) < -num_vars):
        return None
    zeros = list(compress(range(len(lits)), map(not_, lits)))
    if len(zeros) != declared:
        return None
    width = zeros[0] if zeros else 0
    clauses: list[tuple[int, ...]]
    if zeros == list(range(width, len(lits), width + 1)):
        # every clause has the same width (the usual k-CNF): slice columns, zip rows
        clauses = list(zip(*[lits[j::width + 1] for j in range(width)])) if width \
            else [()] * declared
    else:
        clauses, start = [], 0
        for z in zeros:
            clauses.append(tuple(lits[start:z]))
            start = z + 1
    return CNF(num_vars, tuple(clauses), tuple(comments))


def parse_dimacs(text: str, path: str = "<string>") -> CNF:
    """Parse DIMACS CNF text; errors name the line.

    >>> parse_dimacs("c tiny\\np cnf 3 2\\n1 -2 0 2\\n3 0\\n").clauses
    ((1, -2), (2, 3))
    >>> parse_dimacs("p cnf 3 2\\n1 -2 0\\n")
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.InputError: <string>:1: expected 2 clauses as 'p cnf 3 2' declares, found 1
    """
    with gc_paused():
        return _parse_fast(text) or _parse_lines(text, path)


def _parse_lines(text: str, path: str) -> CNF:
    comments: list[str] = []
    clauses: list[tuple[int, ...]] = []
    append = clauses.append
    num_vars = declared = header_line = None
    current: list[int] = []       # literals of a clause not yet ended by 0
    current_line = 0
    lineno = 0
    saw_anything = False
    read = next_poll = 0
    for lineno, line in enumerate(text_lines(text), start=1):
        read += len(line) + 1
        if read >= next_poll:
            poll(PHASE)
            next_poll = read + POLL_CHARS
        comment = _comment(line)
        if comment is not None:
            comments.append(comment)
            saw_anything = True
            continue
        runs = token_runs(line, PHASE)
        tokens = next(runs)
        if not tokens:
            continue
        saw_anything = True
        head = tokens[0]
        if head == "p":
            if num_vars is not None:
                raise InputError(path, lineno, "one 'p cnf' header",
                                 f"a second one (the first is on line {header_line})")
            header = _header(line)
            if header is None:
                long = any(too_many_digits(t) for t in tokens[2:])
                raise InputError(path, lineno, "'p cnf VARIABLES CLAUSES' with two non-negative "
                                 f"integers{f' of at most {MAX_DIGITS} digits' if long else ''}",
                                 echo(line.strip()))
            if header[0] > MAX_CNF_VARS:
                # Solvers and the read-back allocate per variable, whatever the body uses.
                raise InputError(path, lineno, f"at most {MAX_CNF_VARS:,} variables "
                                 "(hanabi-cp's limit on CNF variables)", echo(line.strip()))
            (num_vars, declared), header_line = header, lineno
            continue
        if head[0] == "%":
            break
        if num_vars is None:
            raise InputError(path, lineno, "a 'p cnf VARIABLES CLAUSES' header before the "
                             "first clause", echo(line.strip()))
        odd_chars = "_" in line or "+" in line or not line.isascii()
        for run in chain((tokens,), runs):     # one run unless the line is long
            try:
                lits = list(map(int, run))
            except ValueError:
                lits = None
            if lits is None or odd_chars:
                bad, expected = _bad_token(run)
                if bad or lits is None:
                    raise InputError(path, lineno, expected, echo(bad or line.strip()))
            if max(lits) > num_vars or min(lits) < -num_vars:
                bad = str(next(l for l in lits if abs(l) > num_vars))
                raise InputError(path, lineno, f"literals within -{num_vars}..{num_vars} as "
                                 f"'p cnf {num_vars} {declared}' declares", bad)
            # The common case, one whole clause per line, stays in C-level list operations.
            if not current and lits[-1] == 0 and lits.count(0) == 1:
                append(tuple(lits[:-1]))
                continue
            for lit in lits:
                if lit:
                    if not current:
                        current_line = lineno
                    current.append(lit)
                else:
                    append(tuple(current))
                    current = []
    if not saw_anything:
        raise InputError(path, None, "a DIMACS CNF formula", "an empty file")
    if num_vars is None:
        raise InputError(path, lineno + 1, "a 'p cnf VARIABLES CLAUSES' header", "end of file")
    if current:
        raise InputError(path, current_line, "a clause ending in 0",
                         f"end of the formula after {clip(' '.join(map(str, current)))}")
    if len(clauses) != declared:
        raise InputError(path, header_line, f"{declared} clause{'s' * (declared != 1)} as "
                         f"'p cnf {num_vars} {declared}' declares", str(len(clauses)))
    return CNF(num_vars, tuple(clauses), tuple(comments))


def read_dimacs(path: str) -> CNF:
    """Read a DIMACS CNF file (``-`` = stdin); see :func:`parse_dimacs`.

    >>> read_dimacs("missing.cnf")
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.InputError: missing.cnf: expected an existing file, found nothing
    """
    return parse_dimacs(read_text(path, "the formula"), display_name(path))


def dimacs_text(cnf: CNF, comments=()) -> str:
    """DIMACS text: ``comments`` then the formula's own comments, the header, one clause a line.

    >>> print(dimacs_text(CNF(3, ((1, -2), (2, 3))), comments=["generated by hanabi-cp"]), end="")
    c generated by hanabi-cp
    p cnf 3 2
    1 -2 0
    2 3 0
    """
    lines = comment_lines(list(comments) + list(cnf.comments), mark="c")
    lines.append(f"p cnf {cnf.num_vars} {len(cnf.clauses)}")
    widths = set(map(len, cnf.clauses))
    if len(widths) == 1:
        # one %-format for every clause keeps a k-CNF of millions of clauses fast
        template = "%d " * widths.pop() + "0"
        lines.extend(map(template.__mod__, cnf.clauses))
    else:
        lines.extend(" ".join(map(str, clause)) + " 0" if clause else "0"
                     for clause in cnf.clauses)
    return "\n".join(lines) + "\n"


def model_text(num_vars: int, assignment: Mapping[int, bool], comments=()) -> str:
    """A satisfying assignment as a SAT solver prints it (SAT competition format):
    ``comments``, ``s SATISFIABLE``, then ``v`` lines of literals over 1..num_vars
    (a variable the assignment leaves out is false), ending in 0.

    >>> print(model_text(3, {1: True, 3: True}, comments=["read back"]), end="")
    c read back
    s SATISFIABLE
    v 1 -2 3 0
    """
    lits = [str(v if assignment.get(v, False) else -v) for v in range(1, num_vars + 1)] + ["0"]
    lines = comment_lines(list(comments), mark="c") + ["s SATISFIABLE"]
    line: list[str] = []
    for lit in lits:
        if line and len(" ".join(line)) + len(lit) > 76:
            lines.append("v " + " ".join(line))
            line = []
        line.append(lit)
    lines.append("v " + " ".join(line))
    return "\n".join(lines) + "\n"


def write_dimacs(path: str, cnf: CNF, comments=(), force: bool = False) -> None:
    """Write :func:`dimacs_text` to ``path`` (``-`` = stdout), never overwriting without force.

    >>> write_dimacs("-", CNF(2, ((1, 2), (-1,))), comments=["generated by hand"])
    c generated by hand
    p cnf 2 2
    1 2 0
    -1 0
    """
    write_text(path, dimacs_text(cnf, comments), force)


@dataclass
class DimacsAnswer:
    """A SAT solver's answer: satisfiable? (None: UNKNOWN or nothing), the literals
    of its ``v`` lines, and the line of its status ("s") and first literal ("v")."""

    sat: bool | None
    lits: list[int]
    lines: dict[str, int]


# A SAT solver's status words (UNKNOWN is the SAT competition's word, spelled as ours).
UNDECIDED = (Status.UNKNOWN.value, "INDET", "INDETERMINATE")
SAT_WORDS: dict[str, bool | None] = {"SAT": True, "SATISFIABLE": True, "UNSAT": False,
                                     "UNSATISFIABLE": False, **dict.fromkeys(UNDECIDED)}


def parse_answer(text: str, path: str = "<string>") -> DimacsAnswer:
    """``s``/``v`` lines (SAT competition) or MiniSat's ``SAT``/``UNSAT`` followed by
    literals; ``c`` lines are skipped.  Two status lines must agree.

    >>> parse_answer("s SATISFIABLE\\nv 1 -2 0\\n")
    DimacsAnswer(sat=True, lits=[1, -2], lines={'s': 1, 'v': 2})
    >>> parse_answer("v 1 \\u00b2 0\\n", "m.txt")
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.InputError: m.txt:1: expected a literal (an integer of at most 18 digits), found '\u00b2'
    """
    status: bool | None = None
    said: str | None = None
    lits: list[int] = []
    lines: dict[str, int] = {}
    for no, line in enumerate(text_lines(text), start=1):
        runs = token_runs(line, "reading the model")
        words = next(runs)
        if not words or words[0] == "c":
            continue
        head = words[0]
        if head == "s" or head in SAT_WORDS and head not in UNDECIDED:
            word = words[1] if head == "s" and len(words) > 1 else head
            if word not in SAT_WORDS:
                raise InputError(path, no, "SATISFIABLE, UNSATISFIABLE or UNKNOWN", echo(word))
            if said is not None and SAT_WORDS[word] != status:
                raise InputError(path, no, f"the status of line {lines['s']} ({said}) again",
                                 echo(word))
            if said is None:
                status, said, lines["s"] = SAT_WORDS[word], word, no
            continue
        if head == "v":
            words = words[1:]
        for w in chain.from_iterable(chain((words,), runs)):
            lit = ascii_int(w)
            if lit is None:
                raise InputError(path, no, f"a literal (an integer of at most {MAX_DIGITS} "
                                 "digits)", echo(w))
            if lit != 0:
                lines.setdefault("v", no)
                lits.append(lit)
    if said is None and lits:
        status = True
    return DimacsAnswer(status, lits, lines)


def read_answer(path: str) -> DimacsAnswer:
    """A SAT solver's answer from a file (``-`` = stdin); see :func:`parse_answer`."""
    return parse_answer(read_text(path, "the model"), display_name(path))
