"""A deck's model in each community's format, and each solver's answer read back.

``encode --format F`` and ``decode --format F`` (cli/encode.py) and the benchmark
families (families.py) go through here; DIMACS keeps its own path in cli/encode.py.

| format | file | solver | its answer |
|---|---|---|---|
| cpsat | CpModelProto, text or binary (``.pb``, ``.bin``) | OR-Tools CP-SAT | CpSolverResponse, text or binary |
| mzn | ``solitaire.mzn`` + one ``.dzn`` per deck | MiniZinc (Gecode, ...) | MiniZinc's output |
| opb | PB competition OPB | minisat+, RoundingSat, ... | ``s``/``o``/``v`` lines |
| wcnf | MaxSAT Evaluation WCNF | RC2, ... | ``s``/``o``/``v`` lines |

Reading back never trusts the solver: an assignment must satisfy the rebuilt
formula (cpsat, opb, wcnf) before it is decoded, and the play it decodes to is
replayed by the referee; only "no solution" and "optimal" are taken on the
solver's word, and said so (``Verdict.reason``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .errors import CertificateError, UsageError
from .model import Deck
from .play_sequence import PlaySequence
from .status import Status
from .referee import replay

FORMATS = ("dimacs", "cpsat", "mzn", "opb", "wcnf")
BINARY_SUFFIXES = (".pb", ".bin", ".binpb")


@dataclass
class Written:
    """The files of one export: (role, content) with role "model", "data" (mzn) or
    "varmap"; content is text, or bytes for a binary CP-SAT proto."""

    files: list[tuple[str, str | bytes]]
    summary: str                       # "N variables, M constraints"
    status: Status | None = None       # UNWINNABLE when preprocessing decided
    reason: str | None = None
    varmap: dict = field(default_factory=dict)


def binary(path: str) -> bool:
    return path.endswith(BINARY_SUFFIXES)


def cpsat_encoding(deck: Deck, h: int, maximize: bool):
    """The model method "cpsat" would solve first (encodings/cpsat.md)."""
    from .encoders.cpsat import build_decide, build_maximize
    from .encoders.residual import RESIDUAL_FROM_CARDS
    if maximize:
        return build_maximize(deck, h)
    if deck.N >= RESIDUAL_FROM_CARDS:
        from .encoders.cpsat_residual import build_residual
        return build_residual(deck, h)
    return build_decide(deck, h)


def export(fmt: str, deck: Deck, h: int, maximize: bool, comments: Sequence[str],
           binary_proto: bool = False) -> Written:
    """The model files of ``deck`` at ``h`` in format ``fmt`` (not dimacs)."""
    if fmt == "cpsat":
        return _cpsat(deck, h, maximize, comments, binary_proto)
    if fmt == "mzn":
        from .encoders.mzn import build, model_text
        enc = build(deck, h, maximize=maximize, comments=comments)
        return Written([("model", model_text()), ("data", enc.formula)],
                       f"{deck.N} cards, {enc.stats['groups']} capacity groups",
                       enc.status, enc.reason)
    from .encoders import pbmodels
    head = [*comments, f"deck: {deck.N} cards, n = {deck.n}, c = {deck.c}", f"h = {h}"]
    if fmt == "opb" and not maximize:
        cnf, text = pbmodels.opb_win(deck, h, [*head, "the compact CNF as PB constraints: "
                                               "satisfiable iff the deck is winnable"])
        return Written([("model", text)], f"{cnf.num_vars} variables, {len(cnf.clauses)} "
                       "constraints", cnf.status, cnf.reason, cnf.varmap())
    if fmt == "opb":
        sc, text = pbmodels.opb_score(deck, h, [*head, "the Boolean score model: the "
                                                 "objective is minus the cards played"])
        return Written([("model", text)], f"{sc.num_vars} variables, "
                       f"{len(sc.clauses) + len(sc.atmost)} constraints", varmap=sc.varmap())
    if fmt == "wcnf":
        sc, text, top = pbmodels.wcnf(deck, h, [*head, "the Boolean score model: one soft "
                                                "clause per playable card; cost 0 iff won"])
        return Written([("model", text)], f"{top} variables, {len(sc.played)} soft "
                       "clauses", varmap=sc.varmap())
    raise UsageError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")


def _cpsat(deck: Deck, h: int, maximize: bool, comments: Sequence[str],
           binary_proto: bool) -> Written:
    from ortools.sat.python import cp_model
    enc = cpsat_encoding(deck, h, maximize)
    model = enc.formula
    if model is None:
        # Preprocessing decided: an infeasible model (x and not x), so that every
        # CP-SAT run on the file says what the deck is.
        model = cp_model.CpModel()
        x = model.new_bool_var("x")
        model.add_bool_or([x])
        model.add_bool_or([~x])
    proto = model.Proto()
    if binary_proto:
        from google.protobuf import text_format
        from ortools.sat import cp_model_pb2
        msg = cp_model_pb2.CpModelProto()
        text_format.Parse(str(proto), msg)
        content: str | bytes = msg.SerializeToString()
    else:
        # Text format: '#' comment lines name where it came from.
        content = "".join(f"# {c}\n" for c in comments) + str(proto) + "\n"
    size = f"{len(proto.variables)} variables, {len(proto.constraints)} constraints"
    return Written([("model", content)], size, enc.status, enc.reason, enc.varmap())


@dataclass
class Verdict:
    """What a solver's answer established, after the referee: WINNABLE with the
    play; UNWINNABLE (the solver's word, ``reason`` says so) with the best play
    when the answer had one; UNKNOWN with the best play found."""

    status: Status
    plays: PlaySequence | None = None
    score: int | None = None
    reason: str | None = None


def read(fmt: str, deck: Deck, h: int, maximize: bool, content: bytes, path: str) -> Verdict:
    """``content``, a solver's answer to ``encode --format fmt``, as a checked verdict."""
    if fmt == "cpsat":
        return _checked(deck, h, *_read_cpsat(deck, h, maximize, content, path))
    text = content.decode("utf-8", errors="replace")
    if fmt == "mzn":
        from .encoders.mzn import parse_output
        found = parse_output(text, path)
        if found.unsatisfiable:
            from .encoders.mzn import build
            pre = None if maximize else build(deck, h).reason
            return Verdict(Status.UNWINNABLE, reason=f"preprocessing: {pre}" if pre else
                           "MiniZinc says the model has no solution (the solver's word, "
                           "not checked)")
        if found.picks is None:
            return Verdict(Status.UNKNOWN, reason="the output has no solution")
        from .encoders.encoding import decode_picks
        chosen = set(found.picks)
        if any(not 0 <= q < deck.N for q in chosen):
            raise CertificateError(f"{path}: picks a position outside 1..{deck.N}")
        return _checked(deck, h, decode_picks(deck, chosen), found.score, found.complete,
                        "MiniZinc")
    from .encoders import pbmodels, score
    from .formats.pbformats import parse_answer
    answer = parse_answer(text, path)
    enc = pbmodels.opb_win(deck, h)[0] if fmt == "opb" and not maximize else score.build(deck, h)
    back = pbmodels.read_back(enc, answer, path)
    who = _who("the PB solver" if fmt == "opb" else "the MaxSAT solver", enc)
    if back.sat is False:
        if fmt == "wcnf" or maximize:
            raise CertificateError(f"{path}: says the score model has no solution, but "
                                   "playing nothing always is one: a wrong answer")
        return Verdict(Status.UNWINNABLE, reason=_no_solution(who, "says unsatisfiable"))
    if back.plays is None:
        return Verdict(Status.UNKNOWN, reason=f"{who} answered {answer.status or 'nothing'}")
    return _checked(deck, h, back.plays, back.score, back.optimal, who)


def _read_cpsat(deck: Deck, h: int, maximize: bool, content: bytes, path: str):
    from google.protobuf import text_format
    from google.protobuf.message import DecodeError
    from ortools.sat import cp_model_pb2
    msg = cp_model_pb2.CpSolverResponse()
    try:
        if binary(path):
            msg.ParseFromString(content)
        else:
            text_format.Parse(content.decode("utf-8", errors="replace"), msg)
    except (DecodeError, text_format.ParseError) as exc:
        raise CertificateError(f"{path}: not a CpSolverResponse: "
                               f"{str(exc).splitlines()[0][:160]}") from None
    status = cp_model_pb2.CpSolverStatus.Name(msg.status)
    enc = cpsat_encoding(deck, h, maximize)
    if status == "INFEASIBLE":
        return None, None, True, _who("CP-SAT", enc)
    if status not in ("OPTIMAL", "FEASIBLE"):
        return None, None, False, f"CP-SAT ({status})"
    values = list(msg.solution)
    if enc.formula is None:
        raise CertificateError(f"{path}: claims a solution, but preprocessing proved the "
                               f"deck lost ({enc.reason})")
    if len(values) != len(enc.formula.Proto().variables):
        raise CertificateError(f"{path}: {len(values)} values for a model of "
                               f"{len(enc.formula.Proto().variables)} variables: not a "
                               f"solution of this deck's {'score' if maximize else 'win'} model")
    plays = enc.decode(values.__getitem__)
    sc = sum(values[v] for v in enc.played.values()) if maximize else deck.target
    return plays, sc, status == "OPTIMAL", "CP-SAT"


PRE = "preprocessing: "


def _who(solver: str, enc) -> str:
    """The solver; or, when preprocessing decided the model, its reason (ours,
    checked: a "no solution" then needs nobody's word)."""
    if getattr(enc, "status", None) is Status.UNWINNABLE:
        return PRE + str(enc.reason)
    return solver


def _no_solution(who: str, words: str) -> str:
    return who if who.startswith(PRE) else f"{who} {words} (its word, not checked)"


def _checked(deck: Deck, h: int, plays: PlaySequence | None, claimed: int | None,
             complete: bool, who: str) -> Verdict:
    """The referee on a decoded play: a win, or the score of a legal play."""
    if plays is None:
        if complete:
            return Verdict(Status.UNWINNABLE,
                           reason=_no_solution(who, "says the model has no solution"))
        return Verdict(Status.UNKNOWN, reason=f"{who}: no solution in the answer")
    rep = replay(deck, h, plays)
    if not rep.legal:
        raise CertificateError(f"the decoded play is illegal: {rep.error}")
    if claimed is not None and rep.score != claimed:
        raise CertificateError(f"the answer claims {claimed} cards played, the referee "
                               f"counts {rep.score}")
    if rep.won:
        return Verdict(Status.WINNABLE, plays, rep.score)
    if complete:
        return Verdict(Status.UNWINNABLE, plays, rep.score, reason=(
            f"{who} says at most {rep.score} of {deck.target} cards can be played "
            "(optimality is its word; the play is checked)"))
    return Verdict(Status.UNKNOWN, plays, rep.score,
                   reason=f"{who}: best play found scores {rep.score} of {deck.target}")
