"""An external solver's answer read back as evidence, never as a verdict.

``decode`` (cli/encode.py, cli/model_formats.py) hands every answer here: a DIMACS
model, a CpSolverResponse, MiniZinc's output, a PB or MaxSAT solver's ``s``/``o``/``v``
lines.  What is checked, whatever the format:

- a model is decoded into a play that the referee replays: a win or a score is
  ours, not the solver's;
- an answer that says "no solution" (UNSAT, INFEASIBLE, =====UNSATISFIABLE=====)
  and still gives a model contradicts itself: an error naming both lines, saying
  whether that model wins;
- a cost or objective line must be what the assignment scores;
- a "no" or an optimum is tested against a greedy game (linear time): a greedy
  game that scores more refutes it;
- what survives and rests on the solver's word alone (a "no" without a checked
  proof, an optimum) is reported as that solver's claim (``Verdict.claim``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..core.errors import CertificateError, InputError
from ..core.model import Deck
from ..core.registry import Registry
from .play_sequence import PlaySequence
from .referee import replay
from ..solvers.dimacs import DimacsAnswer
from ..runtime.deadline import NEVER, Deadline
from ..core.status import Status


@dataclass
class Verdict:
    """What a solver's answer established, after the referee: WINNABLE with the
    play; UNWINNABLE with the best play when the answer had one; UNKNOWN with the
    best play found.  ``claim``: what rests on the solver's word only (None when
    everything is checked: a win, a preprocessing reason, a checked proof)."""

    status: Status
    plays: PlaySequence | None = None
    score: int | None = None
    reason: str | None = None
    claim: str | None = None

    @classmethod
    def undecided(cls, reason: str) -> Verdict:
        """No verdict: the answer could not be checked (the time ran out first)."""
        return cls(Status.UNKNOWN, reason=reason)

    def to_json(self, deck: Deck | None = None, h: int | None = None) -> dict:
        """The verdict as ``decode --json`` prints it; the deck's target and ``h`` when
        the deck was read (an answer undecided before it was has neither)."""
        return {"status": self.status.value, "score": self.score,
                "plays": None if self.plays is None else self.plays.actions,
                "reason": self.reason, "claim": self.claim, "proved": self.claim is None
                and self.status is not Status.UNKNOWN} \
            | ({} if deck is None else {"target": deck.target, "h": h})


def where(path: str, line: int | None) -> str:
    return f"{path}:{line}" if line else path


LOST = Status.UNWINNABLE.value


def claim_of(who: str, what: str) -> str:
    return f"{what} is the claim of {who}, not checked (no proof)"


def greedy_refutes(deck: Deck, h: int, best: int, path: str, line: int | None,
                   says: str) -> None:
    """Refuse an answer that says no play scores more than ``best`` when a greedy
    game (replayed by the referee) does."""
    from .encoders.cpsat import greedy_picks
    from .encoders.encoding import decode_picks
    picks = greedy_picks(deck, h)
    if len(picks) <= best:
        return
    rep = replay(deck, h, decode_picks(deck, picks))
    if rep.legal and rep.score > best:
        raise CertificateError(f"{where(path, line)}: {says}, but a greedy game plays "
                               f"{rep.score} of {deck.target} cards (replayed by the "
                               "referee): a wrong answer")


def contradiction(deck: Deck, h: int, plays: PlaySequence | None, path: str,
                  line: int | None, says: str, model_line: int | None) -> CertificateError:
    """The error for an answer that says ``says`` (no solution) and gives a model."""
    at = f" (line {model_line})" if model_line else ""
    if plays is not None:
        rep = replay(deck, h, plays)
        if rep.won:
            return CertificateError(f"{where(path, line)}: says {says}, but its model{at} "
                                    "wins the deck (replayed by the referee): a wrong answer")
    return CertificateError(f"{where(path, line)}: says {says} and gives a model{at}: a "
                            "contradictory answer")


def read(fmt: str, deck: Deck, h: int, maximize: bool, content: str | bytes,
         path: str) -> Verdict:
    """``content``, a solver's answer to ``encode --format fmt`` (not dimacs), as a
    checked verdict; bytes only for a binary CpSolverResponse."""
    return READERS.lookup(fmt)(deck, h, maximize, content, path)


def read_file(fmt: str, deck: Deck, h: int, maximize: bool, path: str) -> Verdict:
    """:func:`read` of the answer in the file ``path`` (``-`` = stdin): bytes for a
    binary CpSolverResponse (``.pb``, ``.bin``), else text; one reader for every
    answer (the size cap, and for text the NUL and UTF-8 checks)."""
    from ..io.textio import display_name, read_bytes, read_text
    from .exports import binary
    content = read_bytes(path, "the answer") if fmt == "cpsat" and binary(path) else \
        read_text(path, "the answer")
    return read(fmt, deck, h, maximize, content, display_name(path))


def _mzn(deck: Deck, h: int, maximize: bool, text: str | bytes, path: str) -> Verdict:
    assert isinstance(text, str)
    from .encoders.encoding import decode_picks
    from .encoders.mzn import build, parse_output
    found = parse_output(text, path)
    plays = None
    if found.picks is not None:
        if any(not 0 <= q < deck.N for q in found.picks):
            raise CertificateError(f"{where(path, found.lines.get('solution'))}: picks a "
                                   f"position outside 1..{deck.N}")
        plays = decode_picks(deck, set(found.picks))
    line = found.lines.get("unsatisfiable")
    if found.unsatisfiable:
        if plays is not None:
            raise contradiction(deck, h, plays, path, line, "=====UNSATISFIABLE=====",
                                found.lines.get("solution"))
        if maximize:
            raise CertificateError(f"{where(path, line)}: says the score model has no "
                                   "solution, but playing nothing always is one: a wrong answer")
        pre = build(deck, h).reason
        if pre:
            return Verdict(Status.UNWINNABLE, reason=f"preprocessing: {pre}")
        greedy_refutes(deck, h, deck.target - 1, path, line, "says the model has no solution")
        return Verdict(Status.UNWINNABLE, reason="MiniZinc says the model has no solution",
                       claim=claim_of("MiniZinc", LOST))
    if plays is None:
        return Verdict(Status.UNKNOWN, reason="the output has no solution")
    return _checked(deck, h, plays, found.score, found.complete, "MiniZinc", path,
                    found.lines.get("complete"), "==========")


def _opb(deck: Deck, h: int, maximize: bool, text: str | bytes, path: str) -> Verdict:
    return _pb("opb", deck, h, maximize, text, path)


def _wcnf(deck: Deck, h: int, maximize: bool, text: str | bytes, path: str) -> Verdict:
    return _pb("wcnf", deck, h, maximize, text, path)


def _pb(fmt: str, deck: Deck, h: int, maximize: bool, text: str | bytes, path: str) -> Verdict:
    assert isinstance(text, str)
    from .encoders import pbmodels, score
    from ..solvers.pbformats import parse_answer
    answer = parse_answer(text, path)
    win_model = fmt == "opb" and not maximize
    enc = pbmodels.opb_win(deck, h)[0] if win_model else score.build(deck, h)
    solver = "the PB solver" if fmt == "opb" else "the MaxSAT solver"
    s_line, v_line = answer.lines.get("s"), answer.lines.get("v")
    if answer.status == "UNSATISFIABLE":
        if answer.values:
            try:
                plays = pbmodels.read_back(enc, _as_found(answer), path).plays
            except CertificateError:
                plays = None
            raise contradiction(deck, h, plays, path, s_line, "UNSATISFIABLE", v_line)
        if not win_model:
            raise CertificateError(f"{where(path, s_line)}: says the score model has no "
                                   "solution, but playing nothing always is one: a wrong answer")
        pre = getattr(enc, "reason", None) if enc.status is Status.UNWINNABLE else None
        if pre:
            return Verdict(Status.UNWINNABLE, reason=f"preprocessing: {pre}")
        greedy_refutes(deck, h, deck.target - 1, path, s_line, "says UNSATISFIABLE")
        return Verdict(Status.UNWINNABLE, reason=f"{solver} says unsatisfiable",
                       claim=claim_of(solver, LOST))
    back = pbmodels.read_back(enc, answer, path)
    if back.plays is None:
        return Verdict(Status.UNKNOWN, reason=f"{solver} answered {answer.status or 'nothing'}")
    if answer.cost is not None:
        played = back.score or 0
        if win_model:
            cost = 0                     # no objective: every solution costs 0
        elif fmt == "wcnf":
            assert isinstance(enc, score.ScoreEncoding)
            cost = len(enc.played) - played    # one unit per soft clause not kept
        else:
            cost = -played               # min: minus the cards played
        if answer.cost != cost:
            raise CertificateError(f"{where(path, answer.lines.get('o'))}: says the cost is "
                                   f"{answer.cost}, but the assignment (line {v_line}) costs "
                                   f"{cost}: a wrong answer")
    return _checked(deck, h, back.plays, back.score, back.optimal, solver, path, s_line,
                    "OPTIMUM FOUND")


def _as_found(answer):
    from dataclasses import replace
    return replace(answer, status="SATISFIABLE")


CPSAT_STATUSES = "UNKNOWN, MODEL_INVALID, FEASIBLE, INFEASIBLE or OPTIMAL"


def _cpsat(deck: Deck, h: int, maximize: bool, content: str | bytes, path: str) -> Verdict:
    import re

    from google.protobuf import text_format
    from google.protobuf.message import DecodeError
    from ortools.sat import cp_model_pb2
    from .exports import cpsat_encoding
    msg = cp_model_pb2.CpSolverResponse()
    text = content if isinstance(content, str) else None
    try:
        if text is None:
            assert isinstance(content, bytes)
            msg.ParseFromString(content)
        else:
            text_format.Parse(text, msg)
    except (DecodeError, text_format.ParseError) as exc:
        raise CertificateError(f"{path}: not a CpSolverResponse: "
                               f"{str(exc).splitlines()[0][:160]}") from None

    def line_of(field: str) -> int | None:
        if text is None:
            return None
        m = re.search(rf"^\s*{field}\s*:", text, re.MULTILINE)
        return None if m is None else text.count("\n", 0, m.start()) + 1

    s_line = line_of("status")
    try:
        status = cp_model_pb2.CpSolverStatus.Name(msg.status)
    except ValueError:
        raise InputError(path, s_line, f"a status: {CPSAT_STATUSES}",
                         str(msg.status)) from None
    enc = cpsat_encoding(deck, h, maximize)
    values = list(msg.solution)
    n_vars = None if enc.formula is None else len(enc.formula.Proto().variables)
    plays = enc.decode(values.__getitem__) if values and len(values) == n_vars else None
    if status == "INFEASIBLE":
        if values:
            raise contradiction(deck, h, plays, path, s_line, "INFEASIBLE", line_of("solution"))
        if maximize:
            raise CertificateError(f"{where(path, s_line)}: says the score model has no "
                                   "solution, but playing nothing always is one: a wrong answer")
        if enc.status is Status.UNWINNABLE:
            return Verdict(Status.UNWINNABLE, reason=f"preprocessing: {enc.reason}")
        greedy_refutes(deck, h, deck.target - 1, path, s_line, "says INFEASIBLE")
        return Verdict(Status.UNWINNABLE, reason="CP-SAT says the model has no solution",
                       claim=claim_of("CP-SAT", LOST))
    if status not in ("OPTIMAL", "FEASIBLE"):
        return Verdict(Status.UNKNOWN, reason=f"CP-SAT answered {status}: no solution")
    if enc.formula is None:
        raise CertificateError(f"{where(path, s_line)}: claims a solution, but preprocessing "
                               f"proved the deck lost ({enc.reason})")
    if plays is None:
        raise CertificateError(f"{path}: {len(values)} values for a model of {n_vars} "
                               f"variables: not a solution of this deck's "
                               f"{'score' if maximize else 'win'} model")
    sc = sum(values[v] for v in enc.played.values()) if maximize else deck.target
    if maximize and msg.objective_value != sc:
        raise CertificateError(f"{where(path, line_of('objective_value'))}: says the objective "
                               f"is {msg.objective_value:g}, but the solution (line "
                               f"{line_of('solution')}) plays {sc} cards: a wrong answer"
                               if text is not None else
                               f"{path}: says the objective is {msg.objective_value:g}, but "
                               f"the solution plays {sc} cards: a wrong answer")
    return _checked(deck, h, plays, sc, status == "OPTIMAL", "CP-SAT", path, s_line, "OPTIMAL")


# The reader of each format's answer but DIMACS's (``dimacs_verdict``):
# (deck, h, maximize, content, path) -> Verdict; bytes only for a binary CpSolverResponse.
READERS: Registry[Callable[[Deck, int, bool, str | bytes, str], Verdict]] = Registry("format", [
    ("cpsat", "hanabi_cp.solitaire.answers:_cpsat"),
    ("mzn", "hanabi_cp.solitaire.answers:_mzn"),
    ("opb", "hanabi_cp.solitaire.answers:_opb"),
    ("wcnf", "hanabi_cp.solitaire.answers:_wcnf"),
])


def _checked(deck: Deck, h: int, plays: PlaySequence, claimed: int | None, complete: bool,
             who: str, path: str, line: int | None, optimum: str) -> Verdict:
    """The referee on a decoded play: a win, or the score of a legal play (and, if the
    answer says it is optimal, that claim tested against a greedy game)."""
    rep = replay(deck, h, plays)
    if not rep.legal:
        raise CertificateError(f"{path}: the decoded play is illegal: {rep.error}")
    if claimed is not None and rep.score != claimed:
        raise CertificateError(f"{path}: the answer claims {claimed} cards played, the "
                               f"referee counts {rep.score}")
    if rep.won:
        return Verdict(Status.WINNABLE, plays, rep.score)
    if complete:
        greedy_refutes(deck, h, rep.score, path, line,
                       f"says {optimum} with {rep.score} of {deck.target} cards")
        return Verdict(Status.UNWINNABLE, plays, rep.score, reason=(
            f"{who} says at most {rep.score} of {deck.target} cards can be played "
            "(the play is checked)"), claim=claim_of(who, f"the optimum {rep.score}"))
    return Verdict(Status.UNKNOWN, plays, rep.score,
                   reason=f"{who}: best play found scores {rep.score} of {deck.target}")


def dimacs_verdict(deck: Deck, h: int, enc, answer: DimacsAnswer, path: str,
                   proof: str | None = None, deadline: Deadline = NEVER) -> Verdict:
    """A SAT solver's ``answer`` to ``enc`` (the compact CNF) as a checked verdict;
    ``proof``: a DRUP/DRAT proof file that must refute the CNF for an UNSAT answer
    to count as proved."""
    from ..core.errors import UsageError
    cnf = enc.cnf
    s_line, v_line = answer.lines.get("s"), answer.lines.get("v")
    plays = None
    if answer.lits or answer.sat:
        too_big = [lit for lit in answer.lits if abs(lit) > cnf.num_vars]
        if too_big:
            raise CertificateError(f"{where(path, v_line)}: literal {too_big[0]} outside "
                                   f"1..{cnf.num_vars}: not a model of this encoding")
        assignment = {abs(lit): lit > 0 for lit in answer.lits}
        bad = cnf.first_falsified(assignment)
        if bad is None and enc.status is not Status.UNWINNABLE:
            plays = enc.decode(answer.lits)
        elif answer.sat is not False:
            if enc.status is Status.UNWINNABLE:
                raise CertificateError(f"{where(path, s_line)}: claims a model, but the "
                                       f"encoding is unsatisfiable ({enc.reason})")
            raise CertificateError(f"{where(path, v_line)}: falsifies clause {bad} of the "
                                   "encoding: not a model of it")
    if proof is not None and answer.sat is not False:
        raise UsageError("decode: {proof} goes with an UNSATISFIABLE answer; "
                         f"{path} says {'SATISFIABLE' if answer.sat else 'nothing decided'}",
                         "proof")
    if answer.sat is False:
        if answer.lits:
            raise contradiction(deck, h, plays, path, s_line, "UNSATISFIABLE", v_line)
        if enc.status is Status.UNWINNABLE:
            return Verdict(Status.UNWINNABLE, reason=f"preprocessing: {enc.reason}")
        greedy_refutes(deck, h, deck.target - 1, path, s_line, "says UNSATISFIABLE")
        if proof is None:
            return Verdict(Status.UNWINNABLE, reason="the SAT solver says unsatisfiable",
                           claim=claim_of("the SAT solver", LOST) +
                           "; decode --proof FILE checks its DRUP/DRAT proof")
        check_refutation(cnf, proof, deadline)
        return Verdict(Status.UNWINNABLE, reason=f"proved: the SAT solver says unsatisfiable, "
                       f"and its proof {proof} refutes the encoding (checked by drup)")
    if answer.sat is None:
        raise CertificateError(f"{path}: no model found (the solver answered UNKNOWN or "
                               "nothing)")
    assert plays is not None
    rep = replay(deck, h, plays)
    if not rep.won:
        from ..core.errors import SolverBug
        raise SolverBug(f"decoded model does not win: {rep.error}")
    return Verdict(Status.WINNABLE, plays, rep.score)


def check_refutation(cnf, proof: str, deadline: Deadline = NEVER) -> None:
    """Refuse unless ``proof`` (a text DRUP/DRAT file) refutes ``cnf``, by drup in a
    child process; the proof is read through the one reader (size cap, NUL check)."""
    import os
    import tempfile

    from ..core.errors import FileError
    from ..io.textio import display_name, read_text
    from ..solvers.proofs import check_within, write_cnf
    text = read_text(proof, "the proof")
    with tempfile.TemporaryDirectory(prefix="hanabi-cp-proof-") as tmp:
        cnf_path, proof_path = os.path.join(tmp, "f.cnf"), os.path.join(tmp, "p.drat")
        write_cnf(cnf.clauses, cnf.num_vars, cnf_path, deadline=deadline)
        with open(proof_path, "w", encoding="utf-8") as f:
            f.write(text)
        del text
        try:
            valid = check_within(cnf_path, proof_path, deadline)   # killed at the deadline
        except FileError as exc:   # names the temporary copy: name the user's file
            raise FileError(f"{display_name(proof)}: cannot check the proof: "
                            f"{str(exc).split(': ', 1)[-1]}") from None
    if not valid:
        raise CertificateError(f"{display_name(proof)}: drup does not accept it as a "
                               "refutation of the encoding: the UNSAT answer is not proved")
